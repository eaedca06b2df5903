// The app shell: header with the language switch, and a tiny router over the query string.
//
// The addresses it reads are spelled in paths.js, which lists them.

import { initAnnouncer } from "./announce.js";
import { MatchPage } from "./history.js";
import { LANGUAGES, initLang, lang, onLangChange, refusalText, seatName, setLang, t } from "./i18n.js";
import { Lobby, apiErrorText, joinTable, nameRefused, quickplay } from "./lobby.js";
import { api } from "./net.js";
import { LOBBY_PATH, SCOREPAD_PATH, matchPath, tablePath } from "./paths.js";
import { LeaderboardPage, PlayerPage } from "./players.js";
import { RecordPage } from "./records.js";
import { Scorepad } from "./scorepad.js";
import { h } from "./sheet.js";
import { prefs, profile, savePrefs, seatFor } from "./store.js";
import { TableView, registeredMark } from "./table.js";

let screen = null;
const app = () => document.getElementById("app");

function params() {
  const query = new URLSearchParams(location.search);
  // Accept the older hash form #/t/ID as well.
  const hash = location.hash.match(/^#\/t\/([^/?#]+)/);
  if (hash && !query.get("table")) query.set("table", decodeURIComponent(hash[1]));
  return query;
}

function go(url, { replace = false } = {}) {
  if (replace) history.replaceState(null, "", url);
  else history.pushState(null, "", url);
  route();
}

function show(next) {
  screen?.destroy?.();
  screen = next;
  screen?.start?.();
}

export function goLobby() {
  go(LOBBY_PATH);
}

export function openScorepad() {
  go(SCOREPAD_PATH);
}

export function openMatch(id) {
  go(matchPath(id));
}

/** Open an address of this app (a link's href) in the page. */
export function navigate(url) {
  go(url);
}

/** Open table *id* (*watch*: as a spectator; *replace*: in place of this page in the history, as a spectator who
 *  sits in at the table he watched: Back does not bring the watching page again). */
export function openTable(id, { watch = false, replace = false } = {}) {
  go(tablePath(id, { watch }), { replace });
}

/**
 * A message screen for bad links and refusals, always with the way back to the lobby.  A refusal says what the
 * server's code means in the player's language (*extra*: `code`, `seconds` to wait), else the server's message.
 */
function showError(kind, detail = "", extra = {}) {
  show(null);
  const back = h("button", { type: "button", class: "btn primary", id: "back-to-lobby" }, t("error.backToLobby"));
  back.addEventListener("click", goLobby);
  const text = kind === "refused"
    ? refusalText(extra.code, detail, { seconds: extra.seconds, serverReason: extra.reason }) : t(`error.${kind}`);
  app().replaceChildren(h("div", { class: "error-screen panel", role: "alert" },
    h("h2", {}, t("error.title")), h("p", { class: "error-text", "data-kind": kind }, text), back));
  back.focus();
  screen = { rerender: () => showError(kind, detail, extra) };
}

/**
 * Take a seat at table *id* (*seat*: that one, a seat the computer plays taken over; else the first open seat) and
 * open the table as its player; a refusal (someone was faster: `seat_taken`, `table_full`) gets the error screen,
 * but a name the server refuses (an invisible character pasted along) goes to *onBadName*, when given: the join
 * page says so beside its field, and the invite is not lost.
 */
async function joinAndOpen(id, seat = null, onBadName = null) {
  try {
    await joinTable(id, seat);
    go(tablePath(id), { replace: true });
  } catch (error) {
    if (onBadName && nameRefused(error)) {
      onBadName(error);
      return;
    }
    showError(error.code === "table_full" || error.code === "seat_taken" ? "full"
      : error.status === 404 ? "notFound" : "refused", error.message,
      { code: error.code, seconds: error.retryAfter, reason: error.reason });
  }
}

/** The page for a table this browser has no seat at: join a free seat (or sit in for the computer), or watch, or
 *  go back. */
async function showJoin(id) {
  let info;
  try {
    info = await api("GET", `/api/tables/${encodeURIComponent(id)}`);
  } catch (error) {
    showError(error.status === 404 ? "notFound" : error.code === "network" ? "network" : "refused", error.message,
      { code: error.code, seconds: error.retryAfter });
    return;
  }
  const free = info.seats.filter((s) => s.open).length;
  // during an unrated match (no seat is open then) a newcomer may take over a seat the computer plays for good
  const takeover = info.seats.filter((s) => s.takeover);
  const box = h("div", { class: "join-screen panel" }, h("h2", {}, info.name || t("join.title")));
  const rerender = () => renderJoin();
  let badName = null; // the server's refusal of the name typed: said beside the field, until the next try
  const takeSeat = (seat = null) => {
    badName = null;
    return joinAndOpen(id, seat, (error) => {
      if (screen?.rerender !== rerender) return; // the page was left meanwhile
      badName = error;
      renderJoin();
      document.getElementById("join-name")?.focus();
    });
  };
  /** The name the seat is taken under, for a player without a profile (a profile's name is used as it is): a
   *  friend who opens an invite link never saw the lobby's field, and sat as "Player" beside the other "Player"s.
   *  The field is the lobby's name, remembered as it is typed; Enter takes the free seat. */
  function nameField(onEnter) {
    if (profile()) return null;
    const input = h("input", { id: "join-name", type: "text", maxlength: 40, autocomplete: "nickname",
      value: prefs().name || "", placeholder: t("lobby.defaultName"),
      "aria-describedby": badName ? "join-name-error" : null, "aria-invalid": badName ? "true" : null });
    input.addEventListener("input", () => savePrefs({ name: input.value }));
    input.addEventListener("change", () => savePrefs({ name: input.value.trim() }));
    if (onEnter) {
      input.addEventListener("keydown", (event) => {
        if (event.key === "Enter") { event.preventDefault(); onEnter(); }
      });
    }
    const row = h("div", { class: "form-row join-name" }, h("label", { for: "join-name" }, t("lobby.name")), input);
    if (!badName) return row;
    return h("div", {}, row, h("p", { class: "message error join-name-error", id: "join-name-error", role: "alert" },
      apiErrorText(badName)));
  }
  function renderJoin() {
    box.replaceChildren(h("h2", {}, info.name || t("join.title")));
    const list = h("ul", { class: "waiting-seats" });
    for (const s of info.seats) {
      list.append(h("li", { class: s.open ? "open" : s.takeover ? "taken takeover" : "taken" },
        s.open ? t("table.empty") : seatName(s, info.seats) || "?", !s.open && s.registered ? registeredMark() : null,
        s.takeover ? h("span", { class: "takeover-mark" }, ` (${t("join.takeOverMark")})`) : null));
    }
    box.append(list);
    // a rated table seats profiles only: say so, and without a profile send the player to claim a name first
    const needsProfile = Boolean(info.options?.rated) && !profile();
    if (info.options?.rated && info.status !== "finished") { // nobody sits down at a finished match
      box.append(h("p", { class: "rated-note" }, h("span", { class: "badge rated-badge" }, t("table.rated")), " ",
        t(needsProfile ? "join.ratedClaim" : "join.rated")));
    }
    const watchable = info.options?.spectators !== false;
    if (info.status === "finished") {
      // a finished match's link keeps working: the server reads the table back when it is no longer in memory, so
      // whoever may watch sees its final position (scores, the sheet, the last deal), or its score sheet page
      box.append(h("p", { class: "over-text", role: "status" }, t("join.over")));
      if (watchable) {
        const sheet = h("a", { href: matchPath(id), class: "btn", id: "open-match" },
          t("recent.open"));
        sheet.addEventListener("click", (event) => { event.preventDefault(); openMatch(id); });
        box.append(sheet);
      }
    } else if (info.status === "abandoned") {
      box.append(h("p", { class: "error-text", role: "alert", "data-kind": "notFound" }, t("error.notFound")));
    } else if (free > 0 && needsProfile) {
      const claim = h("a", { href: LOBBY_PATH, class: "btn primary", id: "claim-first" }, t("join.claimFirst"));
      claim.addEventListener("click", (event) => { event.preventDefault(); goLobby(); });
      box.append(claim);
    } else if (free > 0) {
      const join = h("button", { type: "button", class: "btn primary", id: "join-table" }, t("join.button"));
      join.addEventListener("click", () => takeSeat());
      box.append(...[nameField(() => takeSeat()), join].filter(Boolean));
    } else if (takeover.length) {
      // one button a seat, by the name the table shows: the newcomer plays on from where the computer is
      box.append(h("p", { class: "takeover-help" }, t("join.takeOverHelp")));
      const field = nameField(takeover.length === 1 ? () => takeSeat(takeover[0].seat) : null);
      if (field) box.append(field);
      for (const s of takeover) {
        const sitIn = h("button", { type: "button", class: "btn primary", id: `take-over-${s.seat}` },
          t("join.takeOver", { name: seatName(s, info.seats) || "?" }));
        sitIn.addEventListener("click", () => takeSeat(s.seat));
        box.append(sitIn);
      }
    } else {
      box.append(h("p", { class: "error-text", role: "alert", "data-kind": "full" }, t("error.full")));
    }
    if (watchable && info.status !== "abandoned") {
      const watch = h("button", { type: "button", class: "btn", id: "watch-table" },
        t(info.status === "finished" ? "join.watchOver" : "join.watch"));
      watch.addEventListener("click", () => openTable(id, { watch: true }));
      box.append(watch);
    }
    const back = h("button", { type: "button", class: "btn", id: "back-to-lobby" }, t("error.backToLobby"));
    back.addEventListener("click", goLobby);
    box.append(back);
  }
  renderJoin();
  show(null);
  app().replaceChildren(box);
  screen = { rerender };
}

async function route() {
  const query = params();
  const table = query.get("table");
  if (query.get("scorepad")) {
    show(new Scorepad(app(), { goLobby }));
    return;
  }
  if (query.get("review")) {
    show(new RecordPage(app(), { goLobby }));
    return;
  }
  if (query.has("match")) {
    show(new MatchPage(app(), query.get("match"), { goLobby, openTable }));
    return;
  }
  if (query.has("player")) {
    show(new PlayerPage(app(), query.get("player"), { goLobby, navigate }));
    return;
  }
  if (query.get("leaderboard")) {
    show(new LeaderboardPage(app(), { goLobby, navigate }));
    return;
  }
  if (query.get("quickplay")) {
    app().replaceChildren(h("p", { class: "loading" }, "…"));
    try {
      const id = await quickplay();
      go(tablePath(id), { replace: true });
    } catch (error) {
      showError(error.code === "network" ? "network" : "refused", error.message,
        { code: error.code, seconds: error.retryAfter });
    }
    return;
  }
  if (new Set(query.getAll("table")).size > 1) {
    // a link with two different tables (pasted twice, edited by hand): opening the first would be a guess
    showError("twoTables");
    return;
  }
  if (table) {
    if (seatFor(table) || query.get("watch")) {
      const view = new TableView(app(), table, { goLobby, openTable, onError: showError });
      show(view);
    } else {
      await showJoin(table);
    }
    return;
  }
  const lobby = new Lobby(app(), { openTable, openScorepad, openMatch, showError, navigate });
  show(lobby);
}

function renderHeader() {
  const header = document.getElementById("site-header");
  const title = h("a", { href: LOBBY_PATH, class: "brand" }, t("app.title"));
  title.addEventListener("click", (event) => { event.preventDefault(); goLobby(); });
  const select = h("select", { id: "lang-select", "aria-label": t("nav.language") });
  for (const [code, label] of Object.entries(LANGUAGES)) {
    select.append(h("option", { value: code, selected: code === lang(), lang: code }, label));
  }
  select.addEventListener("change", () => setLang(select.value));
  // the site's name is the page's level-one heading (the screens' headings are level two; the score pad's title one)
  header.replaceChildren(h("h1", { class: "site-title" }, title),
    h("label", { class: "lang" }, h("span", { class: "visually-hidden" }, t("nav.language")), select));
  document.title = t("app.title");
}

function boot() {
  initLang();
  initAnnouncer();
  renderHeader();
  onLangChange(() => {
    renderHeader();
    document.getElementById("lang-select")?.focus();
    if (screen?.rerender) screen.rerender();
    else if (screen?.render) screen.render();
  });
  window.addEventListener("popstate", route);
  route();
}

boot();
