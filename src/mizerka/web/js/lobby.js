// The home screen: your profile (players.js), play against the computer in one click, create a private table, list
// the open tables.  With a profile kept on this device every join and quick play sends its key ("player_key") and
// its name; only then may quick play and the private table be rated.

import { endedAt, playersWithTotals, variantLabel } from "./history.js";
import { levelName, listedNames, listOf, refusalText, seatName, t, variantName } from "./i18n.js";
import { api, apiResponse } from "./net.js";
import { REVIEW_PATH, SCOREPAD_PATH, matchPath } from "./paths.js";
import { ProfilePanel, keyLooksValid, pageLink } from "./players.js";
import { PressHold } from "./press.js";
import { h } from "./sheet.js";
import { prefs, profile, savePrefs, saveSeat } from "./store.js";

const PAGE = 100; // the server's default page of GET /api/tables
const RECENT_PAGE = 10; // finished public matches shown at first, and added by "Show more games"
const POLL_MS = 10000; // the open tables are asked for again this often while the lobby is in view

let metaCache = null;

async function meta() {
  if (!metaCache) metaCache = await api("GET", "/api/meta");
  return metaCache;
}

/** The player's name: the profile's, else the remembered one, else a default in the current language. */
export function playerName() {
  const name = profile()?.name || (prefs().name || "").trim();
  return name || t("lobby.defaultName");
}

/** A refusal made here, before asking the server (`code` as the server's: refusalText() says it). */
function refused(code) {
  return Object.assign(new Error(code), { code, message: "" });
}

/** What a seat's request says of the player: the name, and the profile's key when one is kept here (a damaged key
 *  is refused here: no profile has it, and the server's answer would be about the request's format). */
function who() {
  const kept = profile();
  if (kept && !keyLooksValid(kept.key)) throw refused("bad_key");
  return kept ? { name: playerName(), player_key: kept.key } : { name: playerName() };
}

/** Take a seat by *path* (quick play, pairing) with the remembered rules, rated when chosen and a profile is kept
 *  here, and *extra* fields; remember the seat and resolve to the table id. */
async function seatWithPrefs(path, extra) {
  const { variant, rated } = prefs();
  const body = { ...who(), variant, ...extra };
  if (rated && profile()) body.rated = true;
  const result = await api("POST", path, body);
  saveSeat(result.table.id, result.token, result.seat);
  return result.table.id;
}

/** Start a game against two bots with the remembered settings (rated when chosen, with a profile); resolves to the
 *  table id. */
export async function quickplay() {
  return seatWithPrefs("/api/quickplay", { level: prefs().level });
}

/** Quick pairing with other people under the remembered rules (rated when chosen, with a profile): a seat at the
 *  table waiting for players that has the most of them, or at a new listed table the next caller joins
 *  (`POST /api/pair`); resolves to the table id. */
export async function pairWithPlayers() {
  return seatWithPrefs("/api/pair", { table_name: tableName(playerName()) });
}

/** Whether *error* refuses the seat's name itself: 422 `bad_request` about `body.name`, a name holding an
 *  invisible or unprintable character (often pasted along with it; the field's length and blanks are the page's
 *  own to keep right). */
export function nameRefused(error) {
  return error?.code === "bad_request" && /^body\.name\b/.test(error.message || "");
}

/** A refused REST call in the player's language (the server's message is English, and a schema's 422 is worded
 *  for programmers: a refused name says why in words, by the error's reason, or in general without one). */
export function apiErrorText(error) {
  const params = { seconds: error.retryAfter, serverReason: error.reason };
  if (nameRefused(error) && !error.reason) return t("lobby.badName");
  return refusalText(error.code, error.message, params);
}

/** Join *table*: *seat* when one is given (a seat the computer plays may be taken over during an unrated match:
 *  `takeover`), else the first open seat; remember the seat and resolve to it. */
export async function joinTable(table, seat = null) {
  const body = seat === null || seat === undefined ? who() : { ...who(), seat };
  const result = await api("POST", `/api/tables/${encodeURIComponent(table)}/join`, body);
  saveSeat(result.table.id, result.token, result.seat);
  return result.seat;
}

/** The name a listed table is shown under in the open tables: "Ala's table", at most 60 characters (the server's
 *  limit; a name is cut between characters, never inside one). */
export function tableName(player) {
  const name = t("lobby.tableOf", { name: player });
  const chars = Array.from(name);
  return chars.length <= 60 ? name : chars.slice(0, 59).join("") + "…";
}

export class Lobby {
  constructor(root, hooks) {
    this.root = root;
    this.hooks = hooks; // {openTable(id), showError(kind, detail)}
    this.tables = [];
    this.total = 0; // how many open tables there are on all pages (X-Total-Count)
    this.busy = false;
    this.error = null;
    this.errorFromPoll = false; // the error shown came from a poll of the open tables (the next one clears it)
    // the private table's options, kept across re-renders: opponents who are friends (the rest are bots)
    // and whether it is listed under the open tables, where anyone may join it (public) or not (private: the link)
    this.privateOptions = { friends: 2, hints: true, spectators: true, chat: true, listed: false };
    this.recent = []; // finished public matches (GET /api/history), newest first
    this.recentMore = false; // the last page was full: there may be more
    this.recentError = null;
    this.profile = new ProfilePanel({ render: () => this.render(), navigate: (url) => this.hooks.navigate?.(url) });
    // another tab forgot, deleted, claimed or restored a profile: the panel and the rated boxes follow at once
    this.onStorage = (event) => {
      if (event.key === null || event.key === "mizerka.profile") this.profile.storageChanged();
    };
    // a press on a button holds the lobby's redraws back until it ends (a list arriving meanwhile rebuilt the
    // button under the pointer, and the click was lost: js/press.js)
    this.press = new PressHold(() => this.render());
  }

  async start() {
    window.addEventListener("storage", this.onStorage);
    this.press.start();
    this.render();
    try {
      const m = await meta();
      this.levels = m.bot_levels;
      this.variants = m.variants;
    } catch (error) {
      this.error = t("error.network");
    }
    // the open tables come and go (a table someone listed, seats taken): asked for again while the page is seen,
    // and redrawn only when they changed (a redraw under the pointer is what js/press.js holds back)
    this.poll = window.setInterval(() => {
      if (!document.hidden && !this.busy) this.refresh({ quiet: true });
    }, POLL_MS);
    await Promise.all([this.refresh(), this.loadRecent(0, RECENT_PAGE), this.profile.load()]);
  }

  /** A page of finished public matches (`GET /api/history`); *offset* 0 reloads the list. */
  async loadRecent(offset, limit) {
    try {
      const data = await api("GET", `/api/history?limit=${limit}&offset=${offset}`);
      const known = new Set(offset ? this.recent.map((m) => m.id) : []);
      const page = (data || []).filter((m) => !known.has(m.id));
      this.recent = offset ? [...this.recent, ...page] : page;
      this.recentMore = (data || []).length >= limit;
      this.recentError = null;
    } catch (error) {
      this.recentError = error.code === "network" ? t("error.network") : apiErrorText(error);
    }
    if (!this.destroyed) this.render();
  }

  destroy() {
    this.destroyed = true;
    window.clearInterval(this.poll);
    window.removeEventListener("storage", this.onStorage);
    this.press.stop();
    this.profile.destroy();
  }

  /** Reload the open tables: as many as are shown now (at least the first page).  *quiet*: a poll, which redraws
   *  only when the list or its error changed. */
  async refresh({ quiet = false } = {}) {
    await this.load(0, Math.min(500, Math.max(PAGE, this.tables.length)), quiet);
  }

  /** The next page of open tables, after those shown. */
  async more() {
    await this.load(this.tables.length, PAGE);
  }

  async load(offset, limit, quiet = false) {
    const before = quiet ? JSON.stringify([this.tables, this.total, this.error]) : null;
    try {
      // the first page is the server's default page (100 tables): no query
      const query = offset === 0 && limit === PAGE ? "" : `?limit=${limit}&offset=${offset}`;
      const { data, headers } = await apiResponse("GET", `/api/tables${query}`);
      const known = new Set(offset ? this.tables.map((tb) => tb.id) : []);
      const page = (data || []).filter((tb) => !known.has(tb.id));
      this.tables = offset ? [...this.tables, ...page] : page;
      const total = Number.parseInt(headers.get("X-Total-Count") ?? "", 10);
      this.total = Number.isFinite(total) ? total : this.tables.length;
      // a poll clears only its own error: a refused action's stays until the player does something
      if (!quiet || this.errorFromPoll) this.error = null;
      this.errorFromPoll = false;
    } catch (error) {
      // a poll that fails keeps what is shown, unless nothing is: then it says so (and its next success clears it)
      if (!quiet || !this.error) {
        this.error = error.code === "network" ? t("error.network") : apiErrorText(error);
        this.errorFromPoll = quiet;
      }
    }
    if (quiet && JSON.stringify([this.tables, this.total, this.error]) === before) return;
    if (!this.destroyed) this.render();
  }

  /** Before a rated start: the profile the lobby was drawn with must still be kept here (another tab may have
   *  forgotten it); else refuse in words, and redraw (the rated boxes go unticked and disabled). */
  ratedStillPossible(kept, rated) {
    if (!rated || (profile() && profile().key === kept?.key)) return true;
    this.profile.storageChanged();
    this.error = t("lobby.ratedProfileGone");
    this.revealError = true;
    this.render();
    return false;
  }

  async run(task) {
    if (this.busy) return;
    this.busy = true;
    this.error = null;
    this.errorFromPoll = false;
    this.render();
    try {
      await task();
    } catch (error) {
      this.error = apiErrorText(error);
      this.revealError = true;
    } finally {
      this.busy = false;
      if (!this.destroyed) this.render();
    }
  }

  render() {
    if (this.destroyed || this.press.holds()) return;
    const p = prefs();
    // The lobby re-renders when its lists refresh: keep the focus and the caret of a field being typed in.
    const active = document.activeElement;
    const focusedId = active?.id;
    const caret = active instanceof HTMLInputElement && active.type === "text"
      ? [active.selectionStart, active.selectionEnd] : null;
    const levels = this.levels ?? [p.level];
    const variants = this.variants ?? [p.variant];

    const kept = profile();
    // with a profile the seat takes its name: the field shows it and cannot be changed
    const name = h("input", { id: "player-name", type: "text", maxlength: 40, autocomplete: "nickname",
      value: kept ? kept.name : p.name, placeholder: t("lobby.defaultName"), readonly: Boolean(kept),
      "aria-describedby": kept ? "player-name-note" : null });
    // saved as typed (a refresh rebuilds the field from the saved name), trimmed when it is used
    if (!kept) {
      name.addEventListener("input", () => savePrefs({ name: name.value }));
      name.addEventListener("change", () => savePrefs({ name: name.value.trim() }));
    }
    const keepName = () => { if (!kept) savePrefs({ name: name.value.trim() }); };
    // rated: only with a profile (the server refuses it without a key)
    const ratedBox = (id, prop) => {
      const box = h("input", { type: "checkbox", id, checked: Boolean(kept && p[prop]), disabled: !kept,
        "aria-describedby": kept ? null : `${id}-note` });
      box.addEventListener("change", () => {
        savePrefs({ [prop]: box.checked });
        this.render();
      });
      return h("div", { class: "check-row rated-row" }, box, h("label", { for: id }, t("lobby.rated")),
        kept ? null : h("span", { class: "muted rated-note", id: `${id}-note` }, t("lobby.ratedNeedsProfile")));
    };
    // A remembered level or rules the server no longer offers gives way to what the select shows, saved: the game
    // that quick play or a new table starts is the one on screen
    const shownLevel = levels.includes(p.level) ? p.level : levels.includes("rules") ? "rules" : levels[0];
    const shownVariant = variants.includes(p.variant) ? p.variant
      : variants.includes("standard") ? "standard" : variants[0];
    if (shownLevel !== p.level || shownVariant !== p.variant) savePrefs({ level: shownLevel, variant: shownVariant });
    const level = h("select", { id: "bot-level" });
    for (const lv of levels) level.append(h("option", { value: lv, selected: lv === shownLevel }, levelName(lv)));
    level.addEventListener("change", () => savePrefs({ level: level.value }));
    const variant = h("select", { id: "variant" });
    for (const vr of variants) variant.append(h("option", { value: vr, selected: vr === shownVariant }, variantName(vr)));
    // a variant whose scores do not sum to zero (seed 002 as written: 17 tricks, quotas of 13) says so before it is
    // chosen for a game, as the terminal game's warning does
    const variantNote = h("p", { class: "muted variant-note", id: "variant-note", "aria-live": "polite" });
    const noteVariant = () => {
      const key = `variantNote.${variant.value.replace(/-/g, "_")}`;
      const text = t(key);
      variantNote.textContent = text === key ? "" : text;
      variantNote.hidden = !variantNote.textContent;
      if (variantNote.hidden) variant.removeAttribute("aria-describedby");
      else variant.setAttribute("aria-describedby", "variant-note");
    };
    noteVariant();
    variant.addEventListener("change", () => {
      savePrefs({ variant: variant.value });
      noteVariant();
    });

    const play = h("button", { type: "button", id: "quickplay", class: "btn primary big", disabled: this.busy },
      t("lobby.quickplay"));
    const quickRated = Boolean(kept && p.rated);
    play.addEventListener("click", () => this.ratedStillPossible(kept, quickRated) && this.run(async () => {
      keepName();
      this.hooks.openTable(await quickplay());
    }));

    const o = this.privateOptions;
    const priv = h("button", { type: "button", id: "create-table", class: "btn", disabled: this.busy },
      t(o.listed ? "lobby.createListed" : "lobby.private"));
    const privateRated = Boolean(kept && p.privateRated);
    priv.addEventListener("click", () => this.ratedStillPossible(kept, privateRated) && this.run(async () => {
      keepName();
      const { variant: rules, level: botLevel } = prefs();
      const o = this.privateOptions;
      // you, then the friends' seats, then bots in the other seats (the fourth seat of a four-player variant too)
      const n = rules === "four-players" ? 4 : 3;
      const seats = [{ kind: "human" }];
      for (let i = 1; i < n; i += 1) seats.push(i <= o.friends ? { kind: "human" } : { kind: "bot", level: botLevel });
      // all friends: the server makes every seat human, as many as the variant has
      // a listed table is public, under a name the open tables show (the server keeps at most 60 characters)
      const listed = o.listed ? { visibility: "public", name: tableName(playerName()) } : { visibility: "private" };
      const info = await api("POST", "/api/tables", { ...listed, variant: rules,
        seats: o.friends >= 2 ? undefined : seats, hints: o.hints && !privateRated, spectators: o.spectators,
        chat: o.friends > 0 && o.chat, // with two bots there is nobody to talk to
        ...(privateRated ? { rated: true } : {}) }); // a rated table gives no hints
      await joinTable(info.id);
      this.hooks.openTable(info.id);
    }));
    const opponents = h("select", { id: "private-opponents" });
    // at a listed table the human seats are for anyone, not only friends
    const choices = o.listed ? [[2, "lobby.twoPlayers"], [1, "lobby.playerAndBot"], [0, "lobby.twoBots"]]
      : [[2, "lobby.twoFriends"], [1, "lobby.friendAndBot"], [0, "lobby.twoBots"]];
    for (const [value, key] of choices) {
      opponents.append(h("option", { value, selected: o.friends === value }, t(key)));
    }
    opponents.addEventListener("change", () => { o.friends = Number(opponents.value); });
    const check = (id, key, prop, off = false, redraw = false) => {
      const box = h("input", { type: "checkbox", id, checked: o[prop] && !off, disabled: off,
        "aria-describedby": off ? `${id}-note` : null });
      box.addEventListener("change", () => {
        o[prop] = box.checked;
        if (redraw) this.render(); // the texts that depend on it (the button, the help, the opponents)
      });
      return h("div", { class: "check-row" }, box, h("label", { for: id }, t(key)),
        off ? h("span", { class: "muted rated-note", id: `${id}-note` }, t("lobby.ratedNoHints")) : null);
    };

    // the same name, rules and rated box find people to play with: a seat at a waiting table, or a new one
    const pairing = h("button", { type: "button", id: "pair", class: "btn big", disabled: this.busy,
      "aria-describedby": "pair-help" }, t("lobby.pair"));
    pairing.addEventListener("click", () => this.ratedStillPossible(kept, quickRated) && this.run(async () => {
      keepName();
      this.hooks.openTable(await pairWithPlayers());
    }));

    const quick = h("section", { class: "panel quick", "aria-labelledby": "quick-title" },
      h("h2", { id: "quick-title" }, t("lobby.playNow")),
      h("div", { class: "form-row" }, h("label", { for: "player-name" }, t("lobby.name")), name),
      kept ? h("p", { class: "muted name-note", id: "player-name-note" }, t("lobby.nameFromProfile")) : null,
      h("div", { class: "form-row" }, h("label", { for: "bot-level" }, t("lobby.level")), level),
      h("div", { class: "form-row" }, h("label", { for: "variant" }, t("lobby.variant")), variant),
      variantNote,
      ratedBox("quick-rated", "rated"),
      play,
      h("p", { class: "muted pair-help", id: "pair-help" }, t("lobby.pairHelp")),
      pairing);
    const privatePanel = h("section", { class: "panel private", "aria-labelledby": "private-title" },
      h("h2", { id: "private-title" }, t("lobby.create")),
      h("p", { id: "create-help" }, t(o.listed ? "lobby.listedHelp" : "lobby.privateHelp")),
      h("div", { class: "form-row" }, h("label", { for: "private-opponents" }, t("lobby.opponents")), opponents),
      check("create-listed", "lobby.listed", "listed", false, true),
      ratedBox("private-rated", "privateRated"),
      check("private-hints", "lobby.hints", "hints", privateRated), check("private-spectators", "lobby.spectators", "spectators"),
      check("private-chat", "lobby.chat", "chat"), priv);

    const list = h("section", { class: "panel open-tables", "aria-labelledby": "open-title" });
    const refresh = h("button", { type: "button", class: "btn small" }, t("lobby.refresh"));
    // the whole lobby: the open tables, the recent games (as many as are shown) and the profile's rating
    refresh.addEventListener("click", () => Promise.all([
      this.refresh(), this.loadRecent(0, Math.max(RECENT_PAGE, this.recent.length)), this.profile.load()]));
    list.append(h("div", { class: "panel-head" }, h("h2", { id: "open-title" }, t("lobby.open")), refresh));
    const open = this.tables.filter((tb) => tb.status === "waiting" || tb.status === "playing");
    if (!open.length) {
      list.append(h("p", { class: "muted" }, t("lobby.none")));
    } else {
      const ul = h("ul", { class: "table-list" });
      for (const tb of open) {
        const free = tb.seats.filter((s) => s.open).length;
        // during an unrated match (no seat is open then) a seat the computer plays for good may be taken over
        // (`takeover`): a full table that still has a seat for a newcomer, so its row says so, not "0 seats free"
        const takeover = tb.seats.filter((s) => s.takeover);
        const names = tb.seats.filter((s) => !s.open).map((s) => seatName(s, tb.seats) || "?").join(", ");
        const li = h("li", { "data-table": tb.id },
          h("span", { class: "tb-name" }, tb.name || tb.id),
          h("span", { class: "tb-variant" }, variantLabel(tb.variant, tb.contracts),
            tb.options?.rated ? h("span", { class: "badge rated-badge", title: t("table.ratedHelp") }, t("table.rated")) : null),
          h("span", { class: "tb-players" }, names),
          h("span", { class: "tb-free" }, takeover.length ? t("lobby.takeoverSeats", { n: takeover.length })
            : t("lobby.seatsFree", { n: free })));
        if (free > 0) {
          const join = h("button", { type: "button", class: "btn small" }, t("lobby.join"));
          join.addEventListener("click", () => this.run(async () => {
            await joinTable(tb.id);
            this.hooks.openTable(tb.id);
          }));
          li.append(join);
        } else if (takeover.length) {
          // the first such seat, as the server's join without a seat would take: named, so that a refusal says
          // that this very seat went to someone faster
          const sitIn = h("button", { type: "button", class: "btn small sit-in-btn" }, t("lobby.sitIn"));
          sitIn.addEventListener("click", () => this.run(async () => {
            await joinTable(tb.id, takeover[0].seat);
            this.hooks.openTable(tb.id);
          }));
          li.append(sitIn);
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
    if (this.total > this.tables.length || this.tables.length > PAGE) {
      list.append(h("p", { class: "muted tables-shown" }, t("lobby.shown", { n: this.tables.length, total: this.total })));
    }
    if (this.total > this.tables.length) {
      const more = h("button", { type: "button", id: "more-tables", class: "btn small" }, t("lobby.more"));
      more.addEventListener("click", () => this.more());
      list.append(more);
    }

    // finished public matches: each opens its read-only page (a link: a new tab, a bookmark)
    const recent = h("section", { class: "panel recent-games", "aria-labelledby": "recent-title" },
      h("h2", { id: "recent-title" }, t("recent.title")));
    if (this.recentError) recent.append(h("p", { class: "message error", role: "alert" }, this.recentError));
    if (!this.recent.length && !this.recentError) recent.append(h("p", { class: "muted" }, t("recent.none")));
    if (this.recent.length) {
      const ul = h("ul", { class: "table-list recent-list" });
      for (const m of this.recent) {
        const names = listedNames(m);
        const players = playersWithTotals(names, m.totals);
        const winners = (m.winners || []).map((i) => names[i]).filter(Boolean);
        const link = h("a", { href: matchPath(m.id), class: "btn small", "data-match": m.id,
          "aria-label": t("recent.openNamed", { players: listOf(names) }) }, t("recent.open"));
        link.addEventListener("click", (event) => {
          if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0 || !this.hooks.openMatch) return;
          event.preventDefault();
          this.hooks.openMatch(m.id);
        });
        ul.append(h("li", { "data-match": m.id },
          h("span", { class: "tb-name" }, m.name || variantLabel(m.variant, m.contracts)),
          h("span", { class: "tb-players" }, players),
          winners.length ? h("span", { class: "tb-winner" }, t("sheet.winner", { n: winners.length, names: listOf(winners) }))
            : null,
          h("span", { class: "tb-variant" }, `${variantLabel(m.variant, m.contracts)} · ${t("recent.ended", { when: endedAt(m.finished_at) })}`),
          link));
      }
      recent.append(ul);
    }
    if (this.recentMore) {
      const more = h("button", { type: "button", id: "more-recent", class: "btn small" }, t("recent.more"));
      more.addEventListener("click", async () => {
        const shown = this.recent.length;
        await this.loadRecent(shown, RECENT_PAGE);
        // the button is gone after the last page: the focus goes to the first game it brought
        if (!document.getElementById("more-recent")) this.root.querySelectorAll(".recent-list a")[shown]?.focus();
      });
      recent.append(more);
    }

    // the score pad, for a match played with real cards (a link: it can be opened in a new tab or bookmarked)
    const padLink = h("a", { href: SCOREPAD_PATH, id: "scorepad-link", class: "btn" }, t("lobby.scorepad"));
    padLink.addEventListener("click", (event) => {
      if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0 || !this.hooks.openScorepad) return;
      event.preventDefault();
      this.hooks.openScorepad();
    });
    // beside it, a game record reviewed: its score sheet and each deal's review (records.js)
    const reviewLink = pageLink(REVIEW_PATH, t("lobby.reviewRecord"), { id: "review-record-link", class: "btn" },
      this.hooks.navigate);
    const pad = h("section", { class: "panel scorepad-panel", "aria-labelledby": "scorepad-title" },
      h("h2", { id: "scorepad-title" }, t("lobby.scorepadTitle")), h("p", {}, t("lobby.scorepadHelp")),
      h("div", { class: "pad-links" }, padLink, reviewLink));

    const children = [h("p", { class: "tagline" }, t("app.tagline"))];
    if (this.error) children.push(h("p", { class: "message error", role: "alert" }, this.error));
    children.push(h("div", { class: "lobby-grid" }, this.profile.element(), quick, privatePanel, list, recent, pad));
    this.root.replaceChildren(h("div", { class: "lobby" }, ...children));
    const focused = focusedId ? document.getElementById(focusedId) : null;
    focused?.focus();
    if (caret && focused instanceof HTMLInputElement) focused.setSelectionRange(caret[0], caret[1]);
    this.profile.placeFocus();
    // an action's refusal is written above the panels: on a phone the button pressed (Find players, a table's
    // Join) is screens below it, and nothing seemed to happen, so the message is brought into view
    if (this.revealError) {
      this.revealError = false;
      this.root.querySelector(".lobby > .message.error")?.scrollIntoView({ block: "nearest" });
    }
  }
}
