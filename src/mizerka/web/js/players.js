// Player profiles, ratings and the leaderboard (docs/web.md, "Profiles and ratings"):
//
//   ProfilePanel     the lobby's "Your profile" panel: claim a name (POST /api/players), use a key from another
//                    device (GET /api/profile), or, with a profile kept here, its name and rating, its page, its
//                    key (to copy to another device) and "Forget on this device"
//   LeaderboardPage  /?leaderboard=1: GET /api/leaderboard page by page (X-Total-Count)
//   PlayerPage       /?player=ID: GET /api/players/{id}, the statistics and the recent rated matches, each a link
//                    to its match page (/?match=TABLE)
//
// The profile's key is its only proof: it is kept in localStorage (store.js), sent in a join, a quick play and
// the Authorization header of GET /api/profile, and shown only when the player asks, never put in a link.
// Nothing here carries a card: a profile, a leaderboard row and a recent match are names, numbers and totals.

import { announce } from "./announce.js";
import { confirmDialog } from "./confirm.js";
import { endedAt, playersWithTotals, variantLabel } from "./history.js";
import { lang, levelName, listedNames, listOf, nameRefusalText, refusalText, signed, t } from "./i18n.js";
import { api, apiResponse } from "./net.js";
import { LEADERBOARD_PATH, matchPath, playerPath, tablePath } from "./paths.js";
import { h } from "./sheet.js";
import { forgetProfile, prefs, profile, savePrefs, saveProfile } from "./store.js";

const LEADERBOARD_PAGE = 50; // rows a page of GET /api/leaderboard
const PERCENT_FROM = 5; // games before percentages mean something (as on cardgames4all)

/** A link that opens in the page (*navigate*) on a plain click, and is an ordinary link otherwise (new tab). */
export function pageLink(href, text, attrs, navigate) {
  const link = h("a", { href, ...attrs }, text);
  link.addEventListener("click", (event) => {
    if (event.ctrlKey || event.metaKey || event.shiftKey || event.altKey || event.button !== 0 || !navigate) return;
    event.preventDefault();
    navigate(href);
  });
  return link;
}

/** A profile's name as shown: a human's as registered, a bot's level in the page's language. */
export function displayName(player) {
  return player.kind === "bot" ? levelName(player.name) : player.name;
}

/** The rating as a short text: "1530", or "1530?" while provisional. */
export function ratingText(player) {
  return `${player.rating}${player.provisional ? "?" : ""}`;
}

/** The rating as an element: a provisional one is marked "?" with its meaning in a tooltip and for screen readers
 *  (*spoken* false: the caller writes the word "provisional" next to it, visibly, so it is not said twice). */
export function ratingElement(player, { spoken = true } = {}) {
  if (!player.provisional) return h("span", { class: "rating" }, String(player.rating));
  const help = t("rating.provisionalHelp");
  return h("span", { class: "rating provisional", title: help },
    String(player.rating), h("span", { "aria-hidden": "true" }, "?"),
    spoken ? h("span", { class: "visually-hidden" }, ` (${t("rating.provisional")})`) : null);
}

/** Whether *key* can be a profile's key at all: 1 to 128 printable ASCII characters (no key has others, nor could
 *  an HTTP header carry them).  A damaged key kept in localStorage is treated as a key the server does not know. */
export function keyLooksValid(key) {
  return typeof key === "string" && /^[\x21-\x7e]{1,128}$/.test(key);
}

/** *part* of *whole* as a percentage in the page's language, or "–" before 5 games (too few to mean much). */
export function percentText(part, whole, games) {
  if (games < PERCENT_FROM || !whole) return "–";
  try {
    return new Intl.NumberFormat(lang(), { style: "percent", maximumFractionDigits: 0 }).format(part / whole);
  } catch {
    return `${Math.round((100 * part) / whole)}%`;
  }
}

/** A bot's badge: "bot", the level's name in a tooltip. */
function botBadge(player) {
  return player.kind === "bot"
    ? h("span", { class: "badge bot-badge", title: levelName(player.name) }, t("table.bot")) : null;
}

function backButton(hooks) {
  const back = h("button", { type: "button", class: "btn", id: "back-to-lobby" }, t("error.backToLobby"));
  back.addEventListener("click", () => hooks.goLobby());
  return back;
}

/** The profile's "Authorization" header. */
function bearer(key) {
  return { Authorization: `Bearer ${key}` };
}

// -- the lobby's profile panel --------------------------------------------------------------------------------

export class ProfilePanel {
  /** *hooks*: `render()` redraws the lobby (the panel is part of it), `navigate(url)` opens a page. */
  constructor(hooks) {
    this.hooks = hooks;
    this.info = null; // the kept profile's PlayerInfo, once GET /api/profile answers
    this.infoKey = null; // the key *info* belongs to (another tab may forget or replace the profile meanwhile)
    this.shownKey = undefined; // the kept profile's key when the panel was last drawn (null: none)
    this.notice = null; // a sentence (function) saying the profile was changed in another tab
    this.unknown = false; // the server does not know the kept key (403 bad_key)
    this.error = null; // the last refusal: a function giving its sentence in the current language
    this.busy = false;
    this.claimDraft = null; // the claim form's name as typed (null: the remembered name)
    this.keyDraft = "";
    this.restoreOpen = false;
    this.keyShown = false;
    this.copied = false;
    this.confirm = null;
  }

  /** Ask the server about the kept profile (its rating, and whether it knows the key at all). */
  async load() {
    const kept = profile();
    if (!kept) return;
    if (!keyLooksValid(kept.key)) { // damaged in localStorage: no server knows it (and no header could carry it)
      this.info = null;
      this.infoKey = null;
      this.unknown = true;
      this.hooks.render();
      return;
    }
    try {
      const { data } = await apiResponse("GET", "/api/profile", undefined, { headers: bearer(kept.key) });
      if (profile()?.key !== kept.key) return; // forgotten or replaced meanwhile
      this.info = data;
      this.infoKey = kept.key;
      this.unknown = false;
      this.error = null;
      if (data.name !== kept.name || data.id !== kept.id) saveProfile({ key: kept.key, id: data.id, name: data.name });
    } catch (error) {
      if (profile()?.key !== kept.key) return;
      if (error.code === "bad_key" || error.code === "bad_request") this.unknown = true; // a key no profile can have
      else this.error = () => this.refusal(error);
    }
    this.hooks.render();
  }

  /** The profile kept here was changed in another tab (a `storage` event): forget what was shown of the old one,
   *  close a confirmation about it, say so, and ask the server about the new one. */
  storageChanged() {
    const kept = profile();
    if ((kept?.key ?? null) === (this.shownKey ?? null)) return;
    this.confirm?.close();
    this.confirm?.remove();
    this.confirm = null;
    this.info = null;
    this.infoKey = null;
    this.unknown = false;
    this.keyShown = false;
    this.copied = false;
    this.error = null;
    this.notice = () => t("profile.changedElsewhere");
    announce(t("profile.changedElsewhere"));
    this.hooks.render();
    if (kept) this.load();
  }

  destroy() {
    this.confirm?.close();
    this.confirm?.remove();
  }

  /** Do *task* (a server call); a refusal is shown in the panel and the focus goes back to *field*. */
  async run(task, field) {
    if (this.busy) return;
    this.busy = true;
    this.error = null;
    this.notice = null;
    this.hooks.render();
    try {
      await task();
    } catch (error) {
      this.error = () => this.refusal(error, field);
      this.focusAfter = field;
    } finally {
      this.busy = false;
      this.hooks.render();
    }
  }

  /** A refusal's sentence (for `seated`, with a link to the table it names after it); *field* is the field of the
   *  action refused ("claim-name": a claim). */
  refusal(error, field) {
    if (error.code === "network") return t("error.network");
    // a refused name says why (the error's reason: invisible character, dots alone, "bot:", taken…)
    const why = nameRefusalText(error.reason, error.message);
    if (why) return why;
    if (error.code === "bad_request" && field === "claim-name") {
      // a claim's one field: the form sends it trimmed, never empty, and the field keeps it within 40 characters,
      // so what the schema still refuses is an invisible or unprintable character in it (a zero-width space, a
      // direction mark pasted along), which "1 to 40 printable characters" does not make plain
      return t(Array.from(this.claiming ?? "").length > 40 ? "profile.badName" : "profile.nameRefused");
    }
    if (error.code === "bad_name") return t("profile.nameRefused"); // a claim's name the server will not register
    if (error.code === "seated" && error.table) {
      // a delete refused for a seat at a match not over: the way to that seat, which the lobby lists nowhere
      return [refusalText(error.code, error.message), " ",
        pageLink(tablePath(error.table), t("match.toTable"), { id: "seated-table-link" }, this.hooks.navigate)];
    }
    return refusalText(error.code, error.message, { seconds: error.retryAfter });
  }

  /** POST /api/players: the name is ours, the key is kept on this device. */
  claim(name) {
    this.claiming = name;
    return this.run(async () => {
      const answer = await api("POST", "/api/players", { name });
      saveProfile({ key: answer.key, id: answer.player.id, name: answer.player.name });
      savePrefs({ name: answer.player.name });
      this.info = answer.player;
      this.infoKey = answer.key;
      this.unknown = false;
      this.claimDraft = null;
      this.focusAfter = "profile-page-link";
      announce(t("profile.claimed", { name: answer.player.name }));
    }, "claim-name");
  }

  /** GET /api/profile with a key pasted from another device: kept once the server knows it. */
  restore(key) {
    if (!key) {
      this.error = () => t("profile.keyEmpty");
      this.focusAfter = "restore-key";
      this.hooks.render();
      return Promise.resolve();
    }
    if (!keyLooksValid(key)) { // no key has other characters (nor could a header carry them)
      this.error = () => t("refusal.bad_key");
      this.focusAfter = "restore-key";
      this.hooks.render();
      return Promise.resolve();
    }
    return this.run(async () => {
      const { data } = await apiResponse("GET", "/api/profile", undefined, { headers: bearer(key) });
      saveProfile({ key, id: data.id, name: data.name });
      savePrefs({ name: data.name });
      this.info = data;
      this.infoKey = key;
      this.unknown = false;
      this.keyDraft = "";
      this.restoreOpen = false;
      this.focusAfter = "profile-page-link";
      announce(t("profile.restored", { name: data.name }));
    }, "restore-key");
  }

  forget() {
    forgetProfile();
    savePrefs({ rated: false, privateRated: false });
    this.info = null;
    this.infoKey = null;
    this.unknown = false;
    this.keyShown = false;
    this.error = null;
    this.notice = null;
    this.focusAfter = "claim-name";
    announce(t("profile.forgotten"));
    this.hooks.render();
  }

  /** "Forget on this device", after a confirmation: without the key the profile cannot be played here again. */
  askForget(opener) {
    const kept = this.current();
    if (kept) this.askConfirm(opener, "forget", { name: kept.name }, () => { if (this.current(kept)) this.forget(); });
  }

  /** The profile kept here, when it is still the one the panel shows (*expected*: the one a confirmation was about);
   *  else null, after redrawing the panel with what is kept now (another tab forgot or replaced it). */
  current(expected) {
    const kept = profile();
    const shown = expected ? expected.key : this.shownKey;
    if (kept && kept.key === shown) return kept;
    this.shownKey = shown; // let storageChanged() see the change
    this.storageChanged();
    return null;
  }

  /** "Delete my profile", after a confirmation: DELETE /api/profile, then forget it here (a refusal, such as a seat
   *  at a match not over, is shown in the panel and nothing changes). */
  askDelete(opener) {
    const kept = this.current();
    if (!kept) return;
    this.askConfirm(opener, "delete", { name: kept.name }, () => this.current(kept) && this.run(async () => {
      await apiResponse("DELETE", "/api/profile", undefined, { headers: bearer(kept.key) });
      this.forget();
      announce(t("profile.deleted", { name: kept.name }));
    }, opener.id));
  }

  /** A confirmation (`profile.<what>Title`, `…Confirm`, `…Yes`; js/confirm.js), one at a time. */
  askConfirm(opener, what, params, onYes) {
    if (this.confirm) return;
    this.confirm = confirmDialog({ name: what, title: t(`profile.${what}Title`), text: t(`profile.${what}Confirm`, params),
      yes: t(`profile.${what}Yes`), opener, onYes, onClose: () => { this.confirm = null; } });
  }

  element() {
    const kept = profile();
    this.shownKey = kept?.key ?? null;
    const section = h("section", { class: "panel profile-panel", "aria-labelledby": "profile-title" },
      h("div", { class: "panel-head" }, h("h2", { id: "profile-title" }, t("profile.title")),
        pageLink(LEADERBOARD_PATH, t("leaderboard.title"), { class: "btn small", id: "leaderboard-link" },
          this.hooks.navigate)));
    if (this.notice) section.append(h("p", { class: "message info profile-notice" }, this.notice()));
    if (this.error) section.append(h("p", { class: "message error profile-error", role: "alert" }, this.error()));
    if (kept) this.renderKept(section, kept);
    else this.renderClaim(section);
    return section;
  }

  renderClaim(section) {
    const name = h("input", { id: "claim-name", type: "text", maxlength: 40, autocomplete: "nickname",
      value: this.claimDraft ?? prefs().name ?? "", "aria-describedby": "claim-help" });
    name.addEventListener("input", () => { this.claimDraft = name.value; });
    const form = h("form", { class: "claim-form", novalidate: true },
      h("p", { id: "claim-help" }, t("profile.claimHelp")),
      h("div", { class: "form-row" }, h("label", { for: "claim-name" }, t("profile.name")), name),
      h("button", { type: "submit", class: "btn primary", id: "claim-submit", disabled: this.busy }, t("profile.claim")));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const wanted = name.value.trim();
      if (!wanted) {
        this.error = () => t("profile.badName");
        this.focusAfter = "claim-name";
        this.hooks.render();
        return;
      }
      this.claim(wanted);
    });
    section.append(form);

    // a key from another device (or from before this browser was cleared)
    const toggle = h("button", { type: "button", class: "btn small", id: "restore-toggle",
      "aria-expanded": String(this.restoreOpen), "aria-controls": "restore-form" }, t("profile.restoreToggle"));
    toggle.addEventListener("click", () => {
      this.restoreOpen = !this.restoreOpen;
      this.focusAfter = this.restoreOpen ? "restore-key" : "restore-toggle";
      this.hooks.render();
    });
    section.append(toggle);
    if (this.restoreOpen) {
      const key = h("input", { id: "restore-key", type: "text", autocomplete: "off", spellcheck: "false",
        autocapitalize: "off", value: this.keyDraft });
      key.addEventListener("input", () => { this.keyDraft = key.value; });
      const restore = h("form", { class: "restore-form", id: "restore-form", novalidate: true },
        h("div", { class: "form-row" }, h("label", { for: "restore-key" }, t("profile.key")), key),
        h("button", { type: "submit", class: "btn", id: "restore-submit", disabled: this.busy }, t("profile.restore")));
      restore.addEventListener("submit", (event) => {
        event.preventDefault();
        this.restore(key.value.trim());
      });
      section.append(restore);
    }
  }

  renderKept(section, kept) {
    const info = this.infoKey === kept.key ? this.info : null; // never another profile's rating
    const actions = h("div", { class: "profile-actions" });
    if (this.unknown) {
      // a key this server does not know (another server's, or a database started afresh): offer to forget it
      section.append(h("p", { class: "message error profile-unknown", role: "alert" }, t("profile.unknown")),
        h("p", { class: "profile-line" }, t("profile.playingAs", { name: kept.name })));
    } else {
      const line = h("p", { class: "profile-line" }, t("profile.playingAs", { name: kept.name }));
      if (info) {
        line.append(" · ", `${t("profile.rating")} `, ratingElement(info, { spoken: false }));
        if (info.provisional) line.append(` (${t("rating.provisional")})`);
        line.append(" · ", t("profile.games", { n: info.games }));
      }
      section.append(line);
      actions.append(pageLink(playerPath(info?.id ?? kept.id), t("profile.page"),
        { class: "btn small", id: "profile-page-link" }, this.hooks.navigate));
    }
    const show = h("button", { type: "button", class: "btn small", id: "show-key", "aria-expanded": String(this.keyShown),
      "aria-controls": "profile-key-box" }, t("profile.showKey"));
    show.addEventListener("click", () => {
      this.keyShown = !this.keyShown;
      this.copied = false;
      this.hooks.render();
    });
    const forget = h("button", { type: "button", class: "btn small", id: "forget-profile" }, t("profile.forget"));
    forget.addEventListener("click", () => this.askForget(forget));
    actions.append(show, forget);
    if (!this.unknown) {
      const remove = h("button", { type: "button", class: "btn small danger", id: "delete-profile" },
        t("profile.delete"));
      remove.addEventListener("click", () => this.askDelete(remove));
      actions.append(remove);
    }
    section.append(actions);
    if (this.keyShown) {
      const key = h("input", { id: "profile-key", type: "text", readonly: true, value: kept.key, spellcheck: "false",
        "aria-describedby": "profile-key-warning" });
      key.addEventListener("focus", () => key.select());
      const copy = h("button", { type: "button", class: "btn small", id: "copy-key" },
        t(this.copied ? "profile.keyCopied" : "profile.copyKey"));
      copy.addEventListener("click", async () => {
        try {
          await navigator.clipboard.writeText(kept.key);
        } catch {
          key.select();
          document.execCommand?.("copy");
        }
        this.copied = true;
        copy.textContent = t("profile.keyCopied");
        announce(t("profile.keyCopied"));
      });
      section.append(h("div", { class: "profile-key", id: "profile-key-box" },
        h("div", { class: "form-row" }, h("label", { for: "profile-key" }, t("profile.key")), key), copy,
        h("p", { class: "message info", id: "profile-key-warning" }, t("profile.keyWarning"))));
    }
  }

  /** After a redraw: the focus where the last action leads (the lobby keeps a field's focus by itself). */
  placeFocus() {
    if (!this.focusAfter) return;
    const target = document.getElementById(this.focusAfter);
    this.focusAfter = null;
    target?.focus();
  }
}

// -- the leaderboard ------------------------------------------------------------------------------------------

export class LeaderboardPage {
  constructor(root, hooks) {
    this.root = root;
    this.hooks = hooks; // {goLobby(), navigate(url)}
    this.rows = null; // null until the first page arrives
    this.total = 0;
    this.error = null;
    this.loading = false;
  }

  async start() {
    this.render();
    await this.load(0);
  }

  destroy() {
    this.destroyed = true;
  }

  rerender() {
    this.render();
  }

  /** One page of GET /api/leaderboard: its rows and X-Total-Count (or null). */
  async page(offset, limit) {
    const { data, headers } = await apiResponse("GET", `/api/leaderboard?limit=${limit}&offset=${offset}`);
    const total = Number.parseInt(headers.get("X-Total-Count") ?? "", 10);
    return { rows: Array.isArray(data) ? data : [], total: Number.isFinite(total) ? total : null };
  }

  /** The first *count* rows afresh, page by page (the server gives at most 200 a page), without repeats. */
  async reload(count) {
    const rows = [];
    const seen = new Set();
    let total = null;
    for (let offset = 0; offset < count;) {
      const got = await this.page(offset, Math.min(200, count - offset));
      total = got.total ?? total;
      for (const r of got.rows) if (!seen.has(r.id)) { seen.add(r.id); rows.push(r); }
      if (got.rows.length < Math.min(200, count - offset)) break; // the last page
      offset += got.rows.length;
    }
    return { rows, total };
  }

  /** *offset* 0: the first page; else the next page after the rows shown.  When the ranking changed meanwhile (a
   *  rating moved a player across the page boundary, a player came or went: the page repeats a row shown, or the
   *  total is not the one shown), offsets no longer fit what is shown, so the list is read afresh from the top, as
   *  long as it was plus a page: no player is lost, none is shown twice, and the list still ends at the total. */
  async load(offset) {
    this.loading = true;
    try {
      let { rows, total } = await this.page(offset, LEADERBOARD_PAGE);
      if (offset) {
        const known = new Set((this.rows ?? []).map((r) => r.id));
        if (rows.some((r) => known.has(r.id)) || (total !== null && total !== this.total)) {
          ({ rows, total } = await this.reload(offset + LEADERBOARD_PAGE));
        } else {
          rows = [...(this.rows ?? []), ...rows];
        }
      }
      this.rows = rows;
      this.total = total ?? this.rows.length;
      this.error = null;
    } catch (error) {
      this.error = error.code === "network" ? t("error.network")
        : refusalText(error.code, error.message, { seconds: error.retryAfter });
    }
    this.loading = false;
    if (!this.destroyed) this.render();
  }

  render() {
    if (this.destroyed) return;
    const focusId = document.activeElement?.id;
    const page = h("section", { class: "leaderboard-page panel", "aria-labelledby": "leaderboard-title" },
      h("div", { class: "panel-head" }, h("h2", { id: "leaderboard-title", tabindex: "-1" }, t("leaderboard.title")),
        backButton(this.hooks)));
    if (this.error) page.append(h("p", { class: "message error", role: "alert" }, this.error));
    if (this.rows === null && !this.error) {
      page.append(h("p", { class: "loading", role: "status" }, t("leaderboard.loading")));
    } else if (this.rows && !this.rows.length) {
      page.append(h("p", { class: "muted leaderboard-empty" }, t("leaderboard.empty")));
    } else if (this.rows) {
      page.append(h("p", { class: "muted" }, t("leaderboard.help")), this.table());
      if (this.total > this.rows.length) {
        page.append(h("p", { class: "muted tables-shown" }, t("lobby.shown", { n: this.rows.length, total: this.total })));
        const more = h("button", { type: "button", class: "btn small", id: "more-leaders", disabled: this.loading },
          t("lobby.more"));
        more.addEventListener("click", async () => {
          if (this.loading) return; // clicked again while the next page loads: that page is asked for once
          const shown = this.rows.length;
          await this.load(shown);
          // the focus stays on the button; after the last page it goes to the first row the button brought
          if (!document.getElementById("more-leaders")) this.root.querySelectorAll(".leaderboard a.lb-player")[shown]?.focus();
        });
        page.append(more);
      }
    }
    this.root.replaceChildren(page);
    const again = focusId ? document.getElementById(focusId) : null;
    (again ?? page.querySelector("#leaderboard-title")).focus();
  }

  table() {
    const mine = profile()?.id;
    const head = h("tr", {},
      h("th", { scope: "col", class: "num" }, t("leaderboard.rank")),
      h("th", { scope: "col" }, t("leaderboard.player")),
      h("th", { scope: "col", class: "num" }, t("leaderboard.rating")),
      h("th", { scope: "col", class: "num" }, t("leaderboard.games")),
      h("th", { scope: "col", class: "num" }, t("leaderboard.wins")),
      h("th", { scope: "col", class: "num" }, t("leaderboard.dealsWon")));
    const body = h("tbody", {});
    for (const row of this.rows) {
      const name = displayName(row);
      const you = mine && row.kind === "human" && row.id === mine;
      const link = pageLink(playerPath(row.id), name, { class: "lb-player", "data-player": row.id }, this.hooks.navigate);
      body.append(h("tr", { "data-player": row.id, "data-kind": row.kind, class: you ? "lb-me" : null,
        "aria-current": you ? "true" : null },
      h("td", { class: "num lb-rank" }, String(row.rank)),
      h("th", { scope: "row", class: "lb-name" }, link, botBadge(row),
        you ? h("span", { class: "muted lb-you" }, ` ${t("leaderboard.you")}`) : null),
      h("td", { class: "num lb-rating" }, ratingElement(row)),
      h("td", { class: "num lb-games" }, String(row.games)),
      h("td", { class: "num lb-wins" }, percentText(row.wins, row.games, row.games)),
      h("td", { class: "num lb-deals" }, percentText(row.deals_won, row.deals, row.games))));
    }
    return h("div", { class: "table-scroll" },
      h("table", { class: "leaderboard" }, h("caption", { class: "visually-hidden" }, t("leaderboard.title")),
        h("thead", {}, head), body));
  }
}

// -- a player's page ------------------------------------------------------------------------------------------

export class PlayerPage {
  constructor(root, id, hooks) {
    this.root = root;
    this.id = id;
    this.hooks = hooks; // {goLobby(), navigate(url)}
    this.data = null;
    this.error = null;
  }

  async start() {
    this.render();
    if (!this.id) {
      this.error = { code: "unknown_player", message: "" };
    } else {
      try {
        this.data = await api("GET", `/api/players/${encodeURIComponent(this.id)}`);
      } catch (error) {
        this.error = error;
      }
      const me = profile();
      if (this.data && me && me.id === this.data.id) {
        // our own page: the profile's key also gives the private tables' ids (rated quick play is private), so
        // those matches open too; a key the server no longer knows leaves the public page as it is
        try {
          this.data = (await apiResponse("GET", "/api/profile", undefined, { headers: bearer(me.key) })).data;
        } catch { /* the public page stays */ }
      }
    }
    if (!this.destroyed) this.render();
  }

  destroy() {
    this.destroyed = true;
  }

  rerender() {
    this.render();
  }

  errorText() {
    const error = this.error;
    if (error.code === "network") return t("error.network");
    // no such player, or a name no profile can have (refused before looking)
    if (["unknown_player", "not_found", "bad_request"].includes(error.code) || error.status === 404) {
      return t("player.notFound");
    }
    return refusalText(error.code, error.message, { seconds: error.retryAfter });
  }

  render() {
    if (this.destroyed) return;
    const focusId = document.activeElement?.id;
    const page = h("section", { class: "player-page panel", "aria-labelledby": "player-title" });
    const board = pageLink(LEADERBOARD_PATH, t("leaderboard.title"), { class: "btn", id: "player-leaderboard" },
      this.hooks.navigate);
    if (this.error) {
      page.classList.add("error-screen");
      page.append(h("h2", { id: "player-title" }, t("player.title")),
        h("p", { class: "error-text", role: "alert", "data-code": this.error.code }, this.errorText()),
        h("div", { class: "player-nav" }, backButton(this.hooks), board));
      this.root.replaceChildren(page);
      page.querySelector("#back-to-lobby").focus();
      return;
    }
    if (!this.data) {
      page.append(h("h2", { id: "player-title" }, t("player.title")),
        h("p", { class: "loading", role: "status" }, t("player.loading")));
      this.root.replaceChildren(page);
      return;
    }
    const p = this.data;
    const mine = p.kind === "human" && profile()?.id === p.id;
    page.dataset.player = p.id;
    page.append(
      h("div", { class: "panel-head" },
        h("h2", { id: "player-title", tabindex: "-1" }, displayName(p), " ", botBadge(p),
          mine ? h("span", { class: "muted lb-you" }, ` ${t("leaderboard.you")}`) : null),
        h("div", { class: "player-nav" }, board, backButton(this.hooks))));
    if (p.kind === "bot") page.append(h("p", { class: "muted" }, t("player.botHelp")));
    const rating = h("p", { class: "player-rating" }, `${t("leaderboard.rating")}: `,
      ratingElement(p, { spoken: false }));
    if (p.provisional) rating.append(h("span", { class: "muted" }, ` (${t("rating.provisionalHelp")})`));
    page.append(rating);
    const fact = (key, cls, value) => h("div", {}, h("dt", {}, t(key)), h("dd", { class: cls }, value));
    const withPercent = (n, pct) => (pct === "–" ? String(n) : `${n} (${pct})`);
    page.append(h("dl", { class: "player-stats" },
      fact("player.games", "st-games", String(p.games)),
      fact("player.wins", "st-wins", withPercent(p.wins, percentText(p.wins, p.games, p.games))),
      fact("player.deals", "st-deals", String(p.deals)),
      fact("player.dealsWon", "st-deals-won", withPercent(p.deals_won, percentText(p.deals_won, p.deals, p.games)))));
    if (p.games < PERCENT_FROM) page.append(h("p", { class: "muted" }, t("player.percentLater")));
    if (p.kind === "human" && p.created_at) {
      page.append(h("p", { class: "muted player-since" }, t("player.since", { when: endedAt(p.created_at) })));
    }
    page.append(h("h3", { id: "player-recent-title" }, t("player.recent")));
    const recent = p.recent || [];
    if (!recent.length) {
      page.append(h("p", { class: "muted player-no-recent" }, t("player.noRecent")));
    } else {
      const ul = h("ul", { class: "table-list recent-list player-recent", "aria-labelledby": "player-recent-title" });
      for (const m of recent) ul.append(this.recentItem(m));
      page.append(ul);
    }
    this.root.replaceChildren(page);
    const again = focusId ? document.getElementById(focusId) : null;
    (again ?? page.querySelector("#player-title")).focus();
  }

  recentItem(m) {
    const change = (m.rating_after ?? 0) - (m.rating_before ?? 0);
    const changeText = signed(change);
    // a private table's id is its invite: the public page gives none (null), so there is no match page to open;
    // the player's own page has it (GET /api/profile)
    const names = listedNames(m);
    const link = m.table ? pageLink(matchPath(m.table), t("recent.open"),
      { class: "btn small", "data-match": m.table, "aria-label": t("recent.openNamed", { players: listOf(names) }) },
      this.hooks.navigate) : null;
    const name = m.name || (m.private ? t("player.privateTable") : variantLabel(m.variant, m.contracts));
    const attributes = { ...(m.table ? { "data-match": m.table } : {}), ...(m.private ? { class: "private-result" } : {}) };
    return h("li", attributes,
      h("span", { class: "tb-name" }, name),
      h("span", { class: "tb-players" }, playersWithTotals(names, m.totals)),
      h("span", { class: "tb-result" },
        h("span", { class: "pr-place" }, t("player.place", { n: m.rank, total: names.length })), " · ",
        h("span", { class: `pr-change ${change > 0 ? "up" : change < 0 ? "down" : "same"}`,
          title: t("player.ratingChange", { before: m.rating_before, after: m.rating_after }) },
        `${t("leaderboard.rating")} ${changeText}`),
        h("span", { class: "visually-hidden" }, ` (${t("player.ratingChange", { before: m.rating_before,
          after: m.rating_after })})`)),
      h("span", { class: "tb-variant" }, `${variantLabel(m.variant, m.contracts)} · ${endedAt(m.finished_at)}`),
      link);
  }
}
