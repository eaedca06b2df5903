// The home screen: play against the computer in one click, create a private table, list the open tables.

import { api } from "./net.js";
import { t } from "./i18n.js";
import { h } from "./sheet.js";
import { prefs, savePrefs, saveSeat } from "./store.js";

const LEVEL_KEYS = { random: "level.random", rules: "level.rules", pimc: "level.pimc", ismcts: "level.ismcts",
  expert: "level.expert" };

let metaCache = null;

async function meta() {
  if (!metaCache) metaCache = await api("GET", "/api/meta");
  return metaCache;
}

/** The player's name: the remembered one, or a default in the current language. */
export function playerName() {
  const name = (prefs().name || "").trim();
  return name || t("lobby.defaultName");
}

/** Start a game against two bots with the remembered settings; resolves to the table id. */
export async function quickplay() {
  const { level, variant } = prefs();
  const result = await api("POST", "/api/quickplay", { name: playerName(), level, variant });
  saveSeat(result.table.id, result.token, result.seat);
  return result.table.id;
}

/** Join *table* (the first open seat); resolves to the seat. */
export async function joinTable(table) {
  const result = await api("POST", `/api/tables/${encodeURIComponent(table)}/join`, { name: playerName() });
  saveSeat(result.table.id, result.token, result.seat);
  return result.seat;
}

export class Lobby {
  constructor(root, hooks) {
    this.root = root;
    this.hooks = hooks; // {openTable(id), showError(kind, detail)}
    this.tables = [];
    this.busy = false;
    this.error = null;
  }

  async start() {
    this.render();
    try {
      const m = await meta();
      this.levels = m.bot_levels;
      this.variants = m.variants;
    } catch (error) {
      this.error = t("error.network");
    }
    await this.refresh();
  }

  destroy() {
    this.destroyed = true;
  }

  async refresh() {
    try {
      this.tables = await api("GET", "/api/tables");
      this.error = null;
    } catch (error) {
      this.error = t("error.network");
    }
    if (!this.destroyed) this.render();
  }

  async run(task) {
    if (this.busy) return;
    this.busy = true;
    this.error = null;
    this.render();
    try {
      await task();
    } catch (error) {
      this.error = t("error.refused", { reason: error.message || error.code });
    } finally {
      this.busy = false;
      if (!this.destroyed) this.render();
    }
  }

  render() {
    if (this.destroyed) return;
    const p = prefs();
    // The lobby re-renders when its lists refresh: keep the focus and the caret of a field being typed in.
    const active = document.activeElement;
    const focusedId = active?.id;
    const caret = active instanceof HTMLInputElement && active.type === "text"
      ? [active.selectionStart, active.selectionEnd] : null;
    const levels = this.levels ?? [p.level];
    const variants = this.variants ?? [p.variant];

    const name = h("input", { id: "player-name", type: "text", maxlength: 40, autocomplete: "nickname", value: p.name,
      placeholder: t("lobby.defaultName") });
    // saved as typed (a refresh rebuilds the field from the saved name), trimmed when it is used
    name.addEventListener("input", () => savePrefs({ name: name.value }));
    name.addEventListener("change", () => savePrefs({ name: name.value.trim() }));
    const level = h("select", { id: "bot-level" });
    for (const lv of levels) level.append(h("option", { value: lv, selected: lv === p.level }, t(LEVEL_KEYS[lv] ?? lv)));
    level.addEventListener("change", () => savePrefs({ level: level.value }));
    const variant = h("select", { id: "variant" });
    for (const vr of variants) variant.append(h("option", { value: vr, selected: vr === p.variant }, vr));
    variant.addEventListener("change", () => savePrefs({ variant: variant.value }));

    const play = h("button", { type: "button", id: "quickplay", class: "btn primary big", disabled: this.busy },
      t("lobby.quickplay"));
    play.addEventListener("click", () => this.run(async () => {
      savePrefs({ name: name.value.trim() });
      this.hooks.openTable(await quickplay());
    }));

    const priv = h("button", { type: "button", id: "create-private", class: "btn", disabled: this.busy }, t("lobby.private"));
    priv.addEventListener("click", () => this.run(async () => {
      savePrefs({ name: name.value.trim() });
      const info = await api("POST", "/api/tables", { visibility: "private", variant: prefs().variant });
      await joinTable(info.id);
      this.hooks.openTable(info.id);
    }));

    const quick = h("section", { class: "panel quick", "aria-labelledby": "quick-title" },
      h("h2", { id: "quick-title" }, t("lobby.quickplay")),
      h("div", { class: "form-row" }, h("label", { for: "player-name" }, t("lobby.name")), name),
      h("div", { class: "form-row" }, h("label", { for: "bot-level" }, t("lobby.level")), level),
      h("div", { class: "form-row" }, h("label", { for: "variant" }, t("lobby.variant")), variant),
      play);
    const privatePanel = h("section", { class: "panel private", "aria-labelledby": "private-title" },
      h("h2", { id: "private-title" }, t("lobby.private")), h("p", {}, t("lobby.privateHelp")), priv);

    const list = h("section", { class: "panel open-tables", "aria-labelledby": "open-title" });
    const refresh = h("button", { type: "button", class: "btn small" }, t("lobby.refresh"));
    refresh.addEventListener("click", () => this.refresh());
    list.append(h("div", { class: "panel-head" }, h("h2", { id: "open-title" }, t("lobby.open")), refresh));
    const open = this.tables.filter((tb) => tb.status === "waiting" || tb.status === "playing");
    if (!open.length) {
      list.append(h("p", { class: "muted" }, t("lobby.none")));
    } else {
      const ul = h("ul", { class: "table-list" });
      for (const tb of open) {
        const free = tb.seats.filter((s) => s.open).length;
        const who = tb.seats.filter((s) => !s.open).map((s) => s.name || "?").join(", ");
        const li = h("li", { "data-table": tb.id },
          h("span", { class: "tb-name" }, tb.name || tb.id),
          h("span", { class: "tb-variant" }, tb.variant),
          h("span", { class: "tb-players" }, who),
          h("span", { class: "tb-free" }, t("lobby.seatsFree", { n: free })));
        if (free > 0) {
          const join = h("button", { type: "button", class: "btn small" }, t("lobby.join"));
          join.addEventListener("click", () => this.run(async () => {
            await joinTable(tb.id);
            this.hooks.openTable(tb.id);
          }));
          li.append(join);
        }
        if (tb.options?.spectators !== false) {
          const watch = h("button", { type: "button", class: "btn small" }, t("lobby.watch"));
          watch.addEventListener("click", () => this.hooks.openTable(tb.id, { watch: true }));
          li.append(watch);
        }
        ul.append(li);
      }
      list.append(ul);
    }

    const children = [h("p", { class: "tagline" }, t("app.tagline"))];
    if (this.error) children.push(h("p", { class: "message error", role: "alert" }, this.error));
    children.push(h("div", { class: "lobby-grid" }, quick, privatePanel, list));
    this.root.replaceChildren(h("div", { class: "lobby" }, ...children));
    const focused = focusedId ? document.getElementById(focusedId) : null;
    focused?.focus();
    if (caret && focused instanceof HTMLInputElement) focused.setSelectionRange(caret[0], caret[1]);
  }
}
