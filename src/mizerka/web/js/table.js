// The table: your hand, the two opponents, the trick, the contract, the dialogs and the score sheet.
//
// Every server message that changes the game carries the recipient's whole View (built by the server from
// that seat's observation alone), so rendering is a pure function of the latest view plus a little local
// state (cards selected for discard, which trick is shown, open panels).  Events are used only for
// announcements, the end-of-deal summary and the short pause that keeps a finished trick on the table.

import { announce, announceUrgent, recentAnnouncements } from "./announce.js";
import { backElement, cardElement, cardFace, parseCard, sortHand, suitOf, cardCode } from "./cards.js";
import { ChatPanel } from "./chat.js";
import { confirmDialog } from "./confirm.js";
import { cardName, contractName, levelName, listOf, nameAsPlayed, refusalReason, seatName, signed, suitName, t } from "./i18n.js";
import { apiErrorText, joinTable } from "./lobby.js";
import { TableSocket, api } from "./net.js";
import { tablePath } from "./paths.js";
import { PressHold } from "./press.js";
import { ReviewDialog } from "./review.js";
import { CONTRACT_CODES, contractIndex, contractLabel, h, renderScoreSheet, winnersOf } from "./sheet.js";
import { forgetSeat, prefs, savePrefs, saveSeat, seatFor } from "./store.js";

const TRUMP_INDEX = { C: 0, D: 1, H: 2, S: 3 };
const ROLE_KEYS = { FH: "table.forehand", MH: "table.middlehand", D: "table.dealer" };

/**
 * A seat's role in the deal as the rule book names it.  The engine's role "D" is the dealer's at a table of three;
 * at four the dealer sits out (view.dealer has no role) and "D", with the dealer's quotas, goes to the third active
 * player, the dealer's right (RULES.md §4 V1).
 */
function roleName(v, role) {
  if (role === "D" && dealerSitsOut(v)) return t("table.dealerRight");
  return role ? t(ROLE_KEYS[role]) : "";
}

/** Four at the table: this deal's dealer (view.dealer) deals but has no role in it. */
function dealerSitsOut(v) {
  return v?.dealer !== null && v?.dealer !== undefined && Boolean(v.roles) && Object.keys(v.roles).length > 0 &&
    !(String(v.dealer) in v.roles);
}
const TRICK_HOLD_MS = 1300;
/** A turn timer's last seconds: its clock turns red and pulses, and the player to move hears it once. */
const URGENT_SECONDS = 10;
// The bot levels a waiting table can be filled with until the server's list (GET /api/meta) has come; the
// default is the casual "rules" bot, as in the terminal client.
const FILL_LEVELS = ["random", "rules", "pimc", "ismcts", "expert"];
// The only legal card, with the option on, is played after a random pause in this range (ms): a constant or no
// pause would tell the other players that the card was forced.
const AUTO_PLAY_MS = [600, 1600];
// Per table, the first deal whose end this browser has not shown its seated player yet (a summary opened): what
// is finished past it when the player comes back was finished while he was away (missedDeals).  localStorage, so
// that a reload or a new tab knows it too; the newest DEAL_ENDS_KEPT tables are kept.
const DEAL_ENDS_KEY = "mizerka.dealEnds";
const DEAL_ENDS_KEPT = 50;

function readDealEnds() {
  try {
    const kept = JSON.parse(localStorage.getItem(DEAL_ENDS_KEY) ?? "{}");
    return kept && typeof kept === "object" ? kept : {};
  } catch {
    return {};
  }
}

/** The first deal of *table* whose end this browser has not shown, or null if it never showed a deal there. */
function savedDealEnd(table) {
  const next = readDealEnds()[table]?.next;
  return Number.isInteger(next) && next > 0 ? next : null;
}

function saveDealEnd(table, next) {
  try {
    const all = { ...readDealEnds(), [table]: { next, at: Date.now() } };
    const newest = Object.entries(all).sort(([, a], [, b]) => (b?.at ?? 0) - (a?.at ?? 0)).slice(0, DEAL_ENDS_KEPT);
    localStorage.setItem(DEAL_ENDS_KEY, JSON.stringify(Object.fromEntries(newest)));
  } catch { /* private mode or full storage: the page remembers it while it is open */ }
}

/** The roles of a deal dealt by *dealer* at *n* seats (js views' `roles`): forehand at the dealer's left, then
 *  middlehand, then "D" (the dealer at three; at four the dealer's right, the dealer sitting out). */
function rolesOf(n, dealer) {
  const roles = {};
  ["FH", "MH", "D"].forEach((role, i) => { roles[String((dealer + 1 + i) % n)] = role; });
  return roles;
}

const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

/** Seats other than *me*, clockwise from my left, with their places around the table. */
function placements(n, me) {
  const base = me ?? 0;
  const others = [];
  for (let k = 1; k < n; k += 1) others.push((base + k) % n);
  const places = others.length === 2 ? ["left", "right"] : ["left", "top", "right"].slice(0, others.length);
  const out = { [base]: "bottom" };
  others.forEach((seat, i) => { out[seat] = places[i]; });
  return out;
}

export class TableView {
  /**
   * @param {HTMLElement} root where the table is drawn
   * @param {string} tableId
   * @param {{goLobby: () => void, openTable: (id: string, options?: {watch?: boolean, replace?: boolean}) => void,
   *   onError: (kind: string, detail?: string) => void}} hooks
   */
  constructor(root, tableId, hooks) {
    this.root = root;
    this.tableId = tableId;
    this.hooks = hooks;
    this.view = null;
    this.socket = null;
    this.selected = new Set(); // cards marked for discard (codes)
    this.showLast = false;
    this.sheetOpen = window.matchMedia("(min-width: 1100px)").matches;
    this.heldTrick = null; // {trick, until}
    this.heldTimer = null;
    this.pending = false;
    this.hint = null;
    this.focusCard = null; // the roving-tabindex card code
    this.seenDrawn = new Set();
    this.lastDealView = {};
    this.summaryQueue = []; // the deal summary still to show (the newest deal's only): {event, view} or {missed}
    this.dealEnd = savedDealEnd(tableId); // the first deal whose end this browser has not shown (null: never here)
    this.staleSummary = false; // the open summary is an older deal's: close it when the view comes (setView)
    this.ddByDeal = {}; // deal number → double-dummy values (the server's "dd" message, or the score sheet)
    this.ddFailed = {}; // deal number → why the server could not give them (its "dd" message's reason)
    this.reviews = {}; // deal number → the server's complete review of it (kept for the page's life)
    this.winners = null;
    this.message = null;
    this.forcedSent = null;
    this.autoPlay = null; // {timer}: the only legal card, about to be played by itself (the option `autoPlay`)
    this.autoPlayed = null; // the card so played, until its event is announced
    this.stockFresh = new Set(); // the cards drawn from the stock after this seat's last card (seed002-literal)
    this.noAutoPlaySeq = null; // the view an undo came back to: its card is not played again by itself
    this.said = { prompt: null, banner: null }; // the prompt's and the contract banner's texts last announced
    this.saidContract = null; // the contract a choice just announced (the banner then adds its trumps and goal)
    this.fillLevel = "rules"; // the level the waiting table's open seats would be filled with (fillControl)
    this.filling = false; // a `fill` request the server has not answered yet
    this.leaving = false; // a leave of the seat (waiting panel) the server has not answered yet
    this.rematchWanted = false; // this seat asked for a rematch (Play again) and was not refused
    this.rematchInFlight = false; // a `rematch` request the server has not answered yet
    this.rematchUi = null; // {again, status}: the result dialog's Play again button and its status line
    this.sittingIn = false; // a spectator's join of a seat the computer plays, not answered yet (sitIn)
    this.sitInError = null; // the refusal of the spectator's last join, in words
    this.chat = new ChatPanel({ tableId, socket: () => this.socket }); // lives across redraws (js/chat.js)
    this.reopeners = new WeakMap(); // an open dialog → how to draw it again and show it (rerender)
    this.dropped = new WeakSet(); // dialogs a rebuild threw away (rerender): their close is nobody's business
    this.onKey = (event) => this.handleKey(event);
    // the running turn timer, as the server last said it (a `timer` message): {seat, seq, epoch, until}, `until`
    // on this page's own clock (performance.now), so that the server's deadline needs no clock of ours to agree
    this.clock = null;
    this.hurried = null; // the clock whose last seconds were announced (once each)
    this.ticker = null; // the quarter-second interval, only while a timer's clock runs (startTicker)
  }

  // -- connection ---------------------------------------------------------------------------------

  start() {
    const seat = seatFor(this.tableId);
    this.socket = new TableSocket(this.tableId, seat ? seat.token : null);
    this.socket.addEventListener("message", (e) => this.onMessage(e.detail));
    this.socket.addEventListener("state", (e) => this.renderConnection(e.detail));
    this.socket.addEventListener("retry", (e) => {
      // the server said "not now" (busy, full, or too many requests): the socket tries again by itself
      this.retryNotice = e.detail;
      this.renderConnection(this.socket.state);
    });
    this.socket.addEventListener("fatal", (e) => {
      const code = e.detail.code;
      if (code === "bad_token") forgetSeat(this.tableId);
      this.hooks.onError(code === "unknown_table" ? "notFound" : code === "bad_token" ? "badInvite" : "refused",
        e.detail.message, { code });
    });
    this.buildSkeleton();
    // a press on a card or a button holds the table's redraws back until it ends: a redraw meanwhile (the end of
    // a finished trick's display, a server event) rebuilt the card under the pointer, and the click was lost
    this.press = new PressHold(() => this.render());
    this.press.start();
    this.socket.connect();
    document.addEventListener("keydown", this.onKey);
    // A small hook for tests and debugging: the seat's own view only (nothing hidden is ever in the page).
    this.states = [];
    this.socket.addEventListener("state", (e) => this.states.push(e.detail));
    window.mizerkaDebug = { socket: this.socket, view: () => this.view, states: this.states,
      act: (action) => this.act(action), announcements: recentAnnouncements, hint: () => this.hint,
      render: () => this.render() };
  }

  /** The tab's title says when this seat is to act ("Your turn · Mizerka"): a player waiting for people in another
   *  tab, or at a table with a turn timer, sees it in the tab strip without the page in front. */
  updateTitle(v) {
    const app = t("app.title");
    const title = v.your_turn ? t("title.yourTurn", { app }) : app;
    if (document.title !== title) document.title = title;
  }

  destroy() {
    this.destroyed = true;
    document.title = t("app.title");
    this.cancelAutoPlay();
    this.press?.stop();
    document.removeEventListener("keydown", this.onKey);
    clearInterval(this.ticker);
    clearTimeout(this.heldTimer);
    this.socket?.close();
    for (const dialog of this.root.querySelectorAll("dialog[open]")) dialog.close();
  }

  onMessage(message) {
    if (this.destroyed) return; // moved on (to the lobby, or to the rematch table)
    if (this.chat.handles(message)) return; // a chat line, or the answer to one (shown by the chat's input)
    switch (message.type) {
      case "welcome":
        // connected (again): "Not sent: … reconnecting" and "no answer" are about the connection that was lost
        if (this.message?.kind === "error" && ["network", "timeout"].includes(this.message.code)) this.message = null;
        this.missedDeals(message.view); // before setView, which opens the dialogs
        this.clock = null; // a running timer's time left comes next (timer), from the server's deadline
        this.stopTicker();
        this.setView(message.view);
        this.chat.setHistory(message.chat); // after the view: the page's own lines are "You"
        break;
      case "snapshot":
        if (message.undone) this.onUndone(message.undone, message.view);
        else this.setView(message.view);
        break;
      case "event":
        this.onEvent(message.event, message.view);
        break;
      case "timer":
        this.onTimer(message);
        break;
      case "dd":
        this.onDoubleDummy(message.deal_no, message.dd, message.reason);
        break;
      case "rematch_asked": // another seat asked for a rematch: the result says who (the view's rematch_asked)
        if (this.view && this.view.phase === "over") {
          this.view = { ...this.view, rematch_asked: message.seats };
          this.syncRematch(this.view);
        }
        break;
      case "presence":
        if (this.view) {
          const player = this.view.players[message.seat];
          if (player) this.view.players[message.seat] = { ...player, connected: message.connected };
          this.render();
        }
        break;
      case "error":
        this.showError(message);
        break;
      default:
        break;
    }
  }

  onEvent(event, view) {
    const before = this.view;
    if (event.kind === "action") this.announceAction(event, view ?? before);
    if (event.kind === "action" && event.trick) {
      this.heldTrick = { trick: event.trick, until: Date.now() + (reducedMotion() ? 800 : TRICK_HOLD_MS) };
      clearTimeout(this.heldTimer);
      this.heldTimer = setTimeout(() => { this.heldTrick = null; this.render(); }, TRICK_HOLD_MS);
    }
    if (event.kind === "deal_end") {
      const dealView = this.lastDealView[event.deal_no] ?? before;
      // The newest deal's summary replaces any older one still waiting or open: a spectator who never closes them
      // (a player away) is shown the deal that has just ended, not the first of a pile of old ones.  An open one is
      // closed once the batch's view has come (setView), so that the new one is drawn on the table as it is now.
      this.summaryQueue = [{ event, view: dealView }];
      this.staleSummary = Boolean(this.el?.dialogs.querySelector("dialog.summary-dialog[open]"));
      // the deal's scores, seat by seat (the seats that played it), in the same sentence as its end
      const seats = Object.keys(dealView?.roles || {}).map(Number).sort((a, b) => a - b);
      const scored = (seats.length ? seats : (event.scores || []).map((_, i) => i))
        .map((seat) => `${this.nameOf(seat, dealView)} ${signed(event.scores[seat])}`);
      announce(`${t("announce.dealOver", { n: event.deal_no })} ${t("announce.scores", { list: scored.join(", ") })}`);
    }
    if (event.kind === "seat" && before?.status === "playing" && event.seat !== before.seat) {
      // a human took over a seat the computer played (the seat was a bot's, or a stand-in's for good): its name
      // changes under the players' eyes, so say who sits there now, and instead of whom
      const was = before.players?.[event.seat];
      if (was?.takeover && event.seat_kind === "human" && !event.standin && event.name) {
        announce(t("announce.tookOver", { name: event.name, was: seatName(was, before.players) || `#${event.seat + 1}` }));
      }
    }
    if (event.kind === "match_end") {
      this.winners = event.winners;
      const names = (event.winners || []).map((seat) => this.nameOf(seat, view ?? before));
      if (names.length) announce(t("sheet.winner", { n: names.length, names: listOf(names) }));
    }
    if (event.kind === "rematch" && event.table) {
      this.onRematch(event.table);
      if (this.destroyed) return; // this page now shows the new table
    }
    // The server sends a view on the last event of each batch only: a deal_end followed by match_end (or by the
    // next deal) comes without one.  The summary waits for the batch's view, so that it is drawn on the table as
    // it is now ("Close" after the last deal, not "Next deal").
    if (view) this.setView(view);
  }

  /**
   * An undo (ours, or, to a spectator, the player's): the server took back cards and sends the table as it is now.
   * The screen reader hears what was taken back; our own card comes back into the hand and takes the focus.
   */
  onUndone(undone, view) {
    this.heldTrick = null; // a finished trick held on the table may be one of those taken back
    clearTimeout(this.heldTimer);
    this.showLast = false;
    this.message = null;
    const items = (undone.actions || []).map(({ seat, action }) =>
      `${this.nameOf(seat, view)}: ${this.describeAction(action)}`);
    const list = listOf(items);
    const mine = undone.seat === view.seat;
    announce(mine ? t("announce.undone", { list }) : t("announce.undoneBy", { name: this.nameOf(undone.seat, view), list }));
    const own = mine ? (undone.actions || []).find((a) => a.seat === view.seat) : null;
    if (own) this.focusCard = own.action;
    if (mine) this.noAutoPlaySeq = view.seq; // the card taken back is the player's to play again, even if forced
    this.setView(view);
    if (mine) this.el?.me.querySelector('.hand .card[tabindex="0"]')?.focus({ preventScroll: true });
  }

  /** Ask the server to take back our last card (tables of one human and bots; the view's `can_undo`). */
  async undo() {
    const v = this.view;
    if (this.pending || !v || v.seat === null || v.seat === undefined) return;
    this.cancelAutoPlay();
    this.pending = true;
    this.render();
    const reply = await this.socket.request({ type: "undo" });
    if (reply.type === "error") {
      this.pending = false;
      this.showError(reply);
    }
  }

  /** Every seated human asked for a rematch: the same seat, with the same token, at the new table. */
  onRematch(table) {
    if (this.rematchTable === table || this.destroyed) return;
    this.rematchTable = table;
    const seat = seatFor(this.tableId);
    if (!seat || this.view?.seat === null || this.view?.seat === undefined) return; // a spectator stays here
    saveSeat(table, seat.token, seat.seat);
    announce(t("over.rematchReady"));
    this.hooks.openTable?.(table);
  }

  setView(view) {
    const previous = this.view;
    this.view = view;
    this.cancelAutoPlay(); // a new view (the next event, an undo, a reconnection): decided again below
    if (view.rematch) { // the rematch table was made while this page was away (a reload): go there
      this.onRematch(view.rematch);
      if (this.destroyed) return;
    }
    if (view.deal_no) this.lastDealView[view.deal_no] = view;
    if (this.dealEnd === null && view.seat !== null && view.seat !== undefined) {
      // the first view of this seat in this browser: the deals finished before it are not "missed"
      const rows = view.score_sheet || [];
      this.noteDealEnd(rows.length ? rows[rows.length - 1].deal_no + 1 : 1);
    }
    for (const row of view.score_sheet || []) {
      // values computed (or an analysis that failed) while the connection was down: a summary still showing "…"
      // gets them, or why there are none, now
      if (row.dd && !this.ddByDeal[row.deal_no]) this.onDoubleDummy(row.deal_no, row.dd, null);
      else if (!row.dd && row.dd_reason && !this.ddFailed[row.deal_no]) {
        this.onDoubleDummy(row.deal_no, null, row.dd_reason);
      }
    }
    if (!previous || previous.deal_no !== view.deal_no || previous.phase !== view.phase) {
      this.selected.clear();
      this.hint = null;
    }
    if (previous && (previous.seq !== view.seq)) this.hint = null;
    // Drop discards that are no longer in the hand (never carry a stale choice into a later exchange).
    for (const code of [...this.selected]) if (!view.hand.includes(code)) this.selected.delete(code);
    this.pending = false;
    if (view.your_turn && !(previous && previous.your_turn && previous.seq === view.seq)) {
      announce(t("announce.yourTurn"));
    }
    this.render();
    this.maybeForcedChoice();
    // a contract choice still open from before (the view of a reconnection: a stand-in chose meanwhile) is closed:
    // it offers what is no longer this seat's to choose, and it would keep the dialogs due now (a summary) waiting
    const choosing = this.el?.dialogs.querySelector("dialog.choose-dialog[open]");
    if (choosing && !(view.phase === "choose" && view.your_turn && previous?.deal_no === view.deal_no)) choosing.close();
    if (this.staleSummary) {
      this.staleSummary = false;
      // not under a review opened from it: the newest summary comes when the review is closed
      if (!this.el.dialogs.querySelector("dialog.review-dialog[open]")) {
        this.el.dialogs.querySelector("dialog.summary-dialog[open]")?.close(); // its close shows the newest
      }
    }
    this.showDialogs();
    this.syncRematch(view);
    this.maybeAutoPlay();
  }

  /**
   * A seated player coming back (a reconnection's or a reload's welcome) into a later deal than the last one whose
   * end this browser showed him: the deals finished meanwhile ended while he was away (a computer player stood in
   * for him once his grace ran out, or, at four, he was the dealer who sat out).  The most recent one's summary is
   * queued, built from its score-sheet row alone (contract, dealer and chooser, tricks, scores, totals, the
   * double-dummy values where present): nothing any seat may not see; the earlier ones are named in it.
   *
   * A summary once opened is not shown again: a reload after a deal's summary opened (closed or not) shows none.
   * A browser that never showed this seat a deal of the table (the seat opened on another device) shows none
   * either: it cannot tell what the player saw.  Spectators get none.
   */
  missedDeals(v) {
    if (v.seat === null || v.seat === undefined || this.dealEnd === null) return;
    const missed = (v.score_sheet || []).filter((row) => row.deal_no >= this.dealEnd);
    if (!missed.length) return;
    const row = missed[missed.length - 1];
    this.summaryQueue = [{ missed: { row, earlier: missed.slice(0, -1).map((r) => r.deal_no),
      standin: Boolean(v.players?.[v.seat]?.standin) } }];
    // an older summary still open (the connection dropped under it) gives way, as to a deal that has just ended
    this.staleSummary = Boolean(this.el?.dialogs.querySelector("dialog.summary-dialog[open]"));
  }

  /** This browser has shown the seat every deal's end before deal *next* (kept across reloads: savedDealEnd). */
  noteDealEnd(next) {
    if (this.dealEnd !== null && next <= this.dealEnd) return;
    this.dealEnd = next;
    saveDealEnd(this.tableId, next);
  }

  /**
   * Ask the server for a rematch (Play again).  The ack says the wish is taken (and who is still to ask); the
   * rematch event, once every seated human has asked, moves us to the new table.  Only a failure needs an answer
   * here: the button comes back with the reason.
   */
  askRematch() {
    const ui = this.rematchUi;
    if (!ui || this.rematchInFlight || this.rematchTable || this.destroyed) return;
    this.rematchWanted = true;
    this.rematchInFlight = true;
    ui.again.disabled = true;
    ui.status.className = "rematch-out";
    ui.status.textContent = t("over.rematchWaiting");
    this.socket.request({ type: "rematch" }).then((reply) => {
      this.rematchInFlight = false;
      if (reply.type !== "error" || this.destroyed || this.rematchTable) return;
      // the connection dropped with the wish on its way (or before it left): the wish stands, and the view of the
      // reconnection settles it (syncRematch asks again where the server has not got it)
      if (reply.code === "network") return;
      this.rematchWanted = false;
      ui.again.disabled = false;
      ui.status.className = "rematch-out message error";
      ui.status.textContent = failureText(reply);
    });
  }

  /**
   * The finished table's view says which seats have asked for a rematch (`rematch_asked`): that, not the page's
   * memory, is the truth.  The server keeps the wishes in memory only, so one made before a restart is gone from
   * the view the page gets on reconnecting: a page still waiting asks again (the player's wish stands), and a page
   * that shows a wish the server has (a reload) says it is waiting.  A view sent before our own request's answer
   * says nothing about it yet.
   */
  syncRematch(v) {
    const ui = this.rematchUi;
    if (!ui || v.phase !== "over" || v.seat === null || v.seat === undefined) return;
    this.showRematchAsked(v);
    if (this.rematchInFlight || this.rematchTable || this.destroyed) return;
    if ((v.rematch_asked || []).includes(v.seat)) {
      this.rematchWanted = true;
      ui.again.disabled = true;
      ui.status.className = "rematch-out";
      ui.status.textContent = t("over.rematchWaiting");
    } else if (this.rematchWanted) {
      this.askRematch(); // the server forgot it (a restart): the wish is sent again, the page keeps waiting
    } else if (ui.again.disabled) {
      ui.again.disabled = false;
      ui.status.textContent = "";
    }
  }

  /** The result dialog says which of the other players have asked for a rematch (the view's `rematch_asked`). */
  showRematchAsked(v) {
    const asked = (v.rematch_asked || []).filter((seat) => seat !== v.seat && v.players[seat]);
    const text = asked.length
      ? t("over.rematchAsked", { n: asked.length, names: listOf(asked.map((seat) => this.nameOf(seat, v))) }) : "";
    if (this.rematchUi.asked.textContent !== text) this.rematchUi.asked.textContent = text;
  }

  async act(action) {
    if (this.pending) return;
    this.cancelAutoPlay(); // the player acted first (or this is the auto-play itself)
    this.pending = true;
    this.message = null;
    this.render();
    const reply = await this.socket.request({ type: "act", action });
    if (reply.type === "error") {
      this.pending = false;
      // a forced contract that got no answer (or was not sent) is sent again on the next view: nobody else can
      // (a refusal is not: the next view would be refused again)
      if ((reply.code === "timeout" || reply.code === "network") && this.forcedSent === `${this.view?.deal_no}`
          && this.view?.phase === "choose") this.forcedSent = null;
      this.showError(reply);
      // Stay consistent with the server: ask for a fresh snapshot after any refusal.
      if (this.socket.lastSeq !== null) this.socket.send({ type: "sync", last_seq: this.socket.lastSeq });
      this.render();
      this.showDialogs(); // the contract choice closed when it was sent: open again (no dialog is, else)
    }
  }

  /** The position the page shows: the last event seen, in its journal epoch (an undo gives numbers again). */
  positionKey() {
    return `${this.socket?.epoch ?? ""}:${this.view?.seq ?? ""}`;
  }

  async requestHint() {
    const asked = this.positionKey();
    const reply = await this.socket.request({ type: "hint" });
    if (this.positionKey() !== asked) {
      // The answer is about a position gone by: the player played meanwhile (the expert bot may take seconds on a
      // busy server), took back, or was moved for by the timer.  It used to be shown all the same under the next
      // trick ("Suggested: 2 of diamonds" where hearts had to be followed), its card marked in the hand; in the
      // exchange its discards were selected.  Nothing is said: the player has moved on.
      return;
    }
    if (reply.type === "hint") {
      this.hint = reply;
      const text = this.describeAction(reply.action);
      const value = evaluationOf(reply);
      announce(t("table.hintText", { action: text }));
      this.message = { kind: "hint", text: `${t("table.hintText", { action: text })}` +
        (value !== undefined ? ` (${t("table.hintEval", { value: formatEval(value) })})` : "") };
      if (this.view?.phase === "exchange") {
        const words = reply.action.split(/\s+/).slice(1).filter((w) => w !== "-");
        this.selected = new Set(words);
      }
      this.render();
    } else {
      this.showError(reply);
    }
  }

  showError(reply) {
    // the server's message is English: its code says what happened in the player's language
    const why = reply.reason || {};
    const reason = refusalReason(reply.code, {
      suit: why.code === "follow" && why.suit in TRUMP_INDEX ? TRUMP_INDEX[why.suit] : null, reason: why.code });
    this.message = { kind: "error", code: reply.code,
      text: reply.code === "network" || reply.code === "timeout" ? failureText(reply)
        : t("error.refused", { reason: reason ?? (reply.message || reply.code) }) };
    announceUrgent(this.message.text);
    this.render();
  }

  maybeForcedChoice() {
    const v = this.view;
    if (!v || !v.your_turn || v.phase !== "choose" || v.legal.length !== 1) return;
    const key = `${v.deal_no}`;
    if (this.forcedSent === key) return;
    this.forcedSent = key;
    const contract = contractName(contractIndex(v.legal[0]));
    this.message = { kind: "info", text: t("choose.forced", { contract }) };
    announce(this.message.text);
    this.act(v.legal[0]);
  }

  /**
   * With the option on (`prefs().autoPlay`), the only legal card of the player's turn in the play phase is played
   * by itself after a random pause (AUTO_PLAY_MS), unless the player acts first.  A new view cancels it (setView
   * decides again); the position an undo came back to is left to the player.
   */
  maybeAutoPlay() {
    this.cancelAutoPlay();
    const v = this.view;
    if (this.destroyed || !v || !prefs().autoPlay || v.seat === null || v.seat === undefined) return;
    if (!v.your_turn || v.phase !== "play" || v.legal.length !== 1 || this.pending || v.seq === this.noAutoPlaySeq) return;
    const code = v.legal[0];
    const [low, high] = AUTO_PLAY_MS;
    const timer = setTimeout(() => {
      this.autoPlay = null;
      if (this.destroyed || this.view !== v || this.pending || !prefs().autoPlay) return;
      this.autoPlayed = code;
      this.act(code);
      this.message = { kind: "info", text: t("announce.autoPlayed", { card: cardName(parseCard(code)) }) };
      this.render();
    }, low + Math.random() * (high - low));
    this.autoPlay = { timer };
  }

  cancelAutoPlay() {
    if (this.autoPlay) clearTimeout(this.autoPlay.timer);
    this.autoPlay = null;
  }

  // -- names and announcements ---------------------------------------------------------------------

  nameOf(seat, view = this.view) {
    const player = view?.players?.[seat];
    if (!player) return `#${seat + 1}`;
    if (seat === view.seat) return t("table.you");
    return seatName(player, view.players) || t("table.empty");
  }

  describeAction(text) {
    const words = String(text).trim().split(/\s+/);
    if (words[0] === "exchange" || words[0] === "keep") {
      const cards = words.slice(1).filter((w) => w !== "-");
      if (!cards.length) return t("exchange.keep");
      return `${t("exchange.confirm", { n: cards.length })}: ${listOf(cards.map((c) => cardName(parseCard(c))))}`;
    }
    if (CONTRACT_CODES.includes(words[0].toUpperCase())) return contractName(contractIndex(words[0]));
    try {
      return cardName(parseCard(words[words.length - 1]));
    } catch {
      return text;
    }
  }

  announceAction(event, view) {
    const name = this.nameOf(event.actor, view);
    const seat = (view ?? this.view)?.seat;
    // your own moves in the second person: the verb agrees ("Zagrywasz", "Вы берёте взятку"), not "Ty zagrywa"
    const mine = (who) => seat !== null && seat !== undefined && who === seat;
    if (event.action_kind === "play") {
      const card = cardName(parseCard(event.card));
      const auto = mine(event.actor) && this.autoPlayed !== null && parseCard(this.autoPlayed) === parseCard(event.card);
      if (mine(event.actor)) this.autoPlayed = null;
      if (auto) announce(t("announce.autoPlayed", { card }));
      else announce(mine(event.actor) ? t("announce.playedYou", { card }) : t("announce.played", { name, card }));
      if (mine(event.actor)) {
        // seed002-literal: a card drawn from the stock after one's own card, said and marked in the hand until the
        // next card (the hand grew back with no word of it)
        const before = new Set(this.view?.stock_drawn ?? []);
        const fresh = (view?.stock_drawn ?? []).filter((code) => !before.has(code));
        this.stockFresh = new Set(fresh);
        for (const code of fresh) announce(t("announce.stockDrawn", { card: cardName(parseCard(code)) }));
      }
      if (event.trick && event.trick.winner !== null && event.trick.winner !== undefined) {
        announce(mine(event.trick.winner) ? t("announce.trickWonYou")
          : t("announce.trickWon", { name: this.nameOf(event.trick.winner, view) }));
      }
    } else if (event.action_kind === "choose") {
      const contract = contractName(contractIndex(event.contract));
      this.saidContract = String(event.contract).toUpperCase(); // the banner's announcement need not name it again
      if (event.auto && event.actor === this.view?.seat) {
        this.message = { kind: "info", text: t("choose.forced", { contract }) };
      }
      announce(mine(event.actor) ? t("announce.choseYou", { contract }) : t("announce.chose", { name, contract }));
    } else if (event.action_kind === "exchange") {
      const n = event.count;
      if (mine(event.actor)) announce(n ? t("announce.exchangedYou", { n }) : t("announce.keptYou"));
      else announce(n ? t("announce.exchanged", { name, n }) : t("announce.kept", { name }));
      if (event.actor === this.view?.seat && event.drawn) {
        // which cards came, in words: the hand marks them for the eye (and in their names: renderMe)
        const names = event.drawn.map((c) => cardName(parseCard(c)));
        announce(`${t("exchange.drawn", { n: event.drawn.length })}${names.length ? ` ${listOf(names)}.` : ""}`);
      }
    }
  }

  // -- rendering -----------------------------------------------------------------------------------

  buildSkeleton() {
    this.root.replaceChildren();
    this.el = {
      conn: h("div", { class: "conn-banner", role: "status", hidden: true }),
      bar: h("div", { class: "table-bar" }),
      // the table's middle holds the focus while the hand has no card to take it (the deal's last card played,
      // its summary still to come): never the page's body, which sends a keyboard user back to the top
      felt: h("div", { class: "felt", role: "region", "aria-label": t("table.felt"), tabindex: "-1" }),
      me: h("section", { class: "me", "aria-label": t("table.yourHand") }),
      sheet: h("aside", { class: "sheet-panel", id: "sheet-panel", "aria-label": t("sheet.title") }),
      dialogs: h("div", { class: "dialogs" }),
    };
    // the dialogs lie over the table's part of the page, never over the chat or the score sheet beside it
    const main = h("div", { class: "table-main" }, this.el.bar, this.el.felt, this.el.me, this.el.dialogs);
    this.root.append(h("div", { class: "table-view" }, this.el.conn, main, this.el.sheet, this.chat.build()));
  }

  /**
   * Rebuild everything (after a language switch).  The dialogs open are drawn again in the new language, in the
   * order they were opened (a review stays over the summary or the result it was opened from), and the focus goes
   * to the topmost: the rebuild throws the old ones away without a close event, so the contract choice, a deal's
   * summary (already taken off its queue) or the result (already shown) would otherwise be gone for good.
   */
  rerender() {
    const open = [...(this.el?.dialogs.querySelectorAll("dialog[open]") ?? [])];
    const reopen = open.map((dialog) => this.reopeners.get(dialog)).filter(Boolean);
    for (const dialog of open) this.dropped.add(dialog); // its close (if any ever comes) is not the player's
    this.buildSkeleton();
    this.renderConnection(this.socket?.state);
    this.render();
    for (const again of reopen) again();
    this.showDialogs(); // one that is due and was not open (nothing, as a rule)
  }

  renderConnection(state) {
    const banner = this.el?.conn;
    if (!banner) return;
    const down = state === "reconnecting" || state === "connecting" || state === "waiting";
    const shown = state === "reconnecting" || state === "waiting";
    banner.hidden = !shown;
    banner.textContent = state === "reconnecting" ? t("table.reconnecting")
      : state === "waiting" ? t("table.serverBusy", { n: this.retryNotice?.seconds ?? 1 }) : "";
    this.root.classList.toggle("is-reconnecting", shown);
    if (this.view) this.root.dataset.connection = down ? state : "open";
  }

  render() {
    const v = this.view;
    if (v && !this.destroyed) this.updateTitle(v); // even while a press holds the redraw back
    if (!v || !this.el || this.press?.holds()) return;
    const active = document.activeElement;
    const focusInHand = active && active.closest && active.closest(".hand");
    // Every render rebuilds the bar and the panels: a control that had the focus gets it back (by its data-focus)
    const ours = Boolean(active && active !== document.body && this.root.contains(active)); // the table had the focus
    const focusKey = ours && !active.closest("dialog") ? active.dataset?.focus : null;
    this.root.dataset.phase = v.phase;
    this.root.dataset.seq = String(v.seq);
    this.root.dataset.connection = this.socket?.state === "open" ? "open" : this.socket?.state ?? "";
    this.renderBar(v);
    this.renderFelt(v);
    this.renderMe(v);
    this.renderSheet(v);
    this.chat.update(v);
    this.blockTable();
    this.announceRedrawn(v);
    if (focusKey && !this.root.contains(document.activeElement)) {
      // gone or disabled now (the hint button off turn, the exchange's confirm once sent): the hand takes it
      const again = this.root.querySelector(`[data-focus="${focusKey}"]:not([disabled])`)
        ?? this.el.me.querySelector('.hand .card[tabindex="0"]');
      again?.focus({ preventScroll: true });
    }
    // Keep keyboard focus on the hand across re-renders.
    if (focusInHand || (v.your_turn && (active === document.body || active === null || active === this.el.felt))) {
      const target = this.el.me.querySelector('.hand .card[tabindex="0"]');
      if (target && (focusInHand || !this.el.dialogs.querySelector("dialog[open]"))) target.focus({ preventScroll: true });
    }
    // The control that had the focus is gone with nothing to take its place (the hand's last card played: the
    // deal's summary opens once the others have played theirs): the table's middle holds it meanwhile.
    const now = document.activeElement;
    if (ours && (now === document.body || now === null)) {
      this.el.felt.focus({ preventScroll: true });
    }
  }

  /** The contract banner's sentence, in parts: the contract, its trumps (unless its name says it), the goal. */
  bannerParts(v) {
    const code = v.contract.code;
    const trump = v.contract.trump;
    const name = contractName(contractIndex(code));
    const trumps = trump ? t("table.trumps", { suit: suitName(TRUMP_INDEX[trump]) }) : t("table.noTrumps");
    const goal = t(v.contract.goal === "avoid" ? "table.avoidBanner" : "table.takeBanner");
    return trumps === name ? [name, goal] : [name, trumps, goal];
  }

  /**
   * The prompt and the contract banner are redrawn with the table (a live region there would say nothing): their
   * text is announced when it changes, once, compared with the text last announced.  The turn coming to the
   * player is said by setView ("Your turn."), so that prompt is not said again; a contract that a choice has just
   * announced ("Ala chose Hearts.") is not named again: the banner adds its trumps and goal.
   */
  announceRedrawn(v) {
    const parts = v.contract ? this.bannerParts(v) : null;
    const banner = parts ? parts.join(". ") : "";
    if (banner !== this.said.banner) {
      this.said.banner = banner;
      if (parts) {
        const chosen = this.saidContract === String(v.contract.code).toUpperCase();
        announce(`${(chosen ? parts.slice(1) : parts).join(". ")}.`);
      }
      this.saidContract = null;
    }
    const prompt = v.phase === "waiting" ? "" : this.promptText(v);
    if (prompt !== this.said.prompt) {
      this.said.prompt = prompt;
      if (prompt && !v.your_turn) announce(prompt);
    }
  }

  renderBar(v) {
    const bar = this.el.bar;
    bar.replaceChildren();
    const info = h("div", { class: "deal-info" });
    if (v.deal_no) info.append(h("span", { class: "deal-no" }, t("table.deal", { n: v.deal_no, total: v.n_deals })));
    if (v.options?.rated) {
      info.append(h("span", { class: "badge rated-badge", title: t("table.ratedHelp"), "aria-label": t("table.ratedHelp") },
        t("table.rated")));
    }
    bar.append(info);
    if (v.contract) {
      const code = v.contract.code;
      const avoid = v.contract.goal === "avoid";
      const parts = this.bannerParts(v); // [name, trumps, goal], the trumps left out where the name says them
      // not a live region: redrawn with the table, its changes are announced by announceRedrawn
      const banner = h("div", { class: `contract-banner ${avoid ? "avoid" : "take"}`, role: "group",
        "aria-label": parts.join(". ") },
      h("span", { class: "contract-name" }, contractLabel(code)),
      parts.length === 3 ? h("span", { class: "trumps" }, parts[1]) : null,
      h("span", { class: "goal-flag" }, t(avoid ? "table.avoidBanner" : "table.takeBanner")));
      bar.append(banner);
    }
    const tools = h("div", { class: "tools" });
    if (v.seat !== null && v.seat !== undefined) { // a seated player's option (remembered): see maybeAutoPlay
      const auto = h("input", { type: "checkbox", class: "auto-play-check", "data-focus": "auto-play",
        checked: Boolean(prefs().autoPlay) });
      auto.addEventListener("change", () => {
        savePrefs({ autoPlay: auto.checked });
        this.maybeAutoPlay();
      });
      tools.append(h("label", { class: "auto-play" }, auto, h("span", {}, t("table.autoPlay"))));
    }
    const lastBtn = h("button", { type: "button", class: "btn", "data-focus": "last", "aria-pressed": String(this.showLast),
      "aria-keyshortcuts": "L", disabled: !v.last_trick }, t(this.showLast ? "table.hideLastTrick" : "table.lastTrick"));
    lastBtn.addEventListener("click", () => { this.showLast = !this.showLast; this.render(); });
    const sheetBtn = h("button", { type: "button", class: "btn", "data-focus": "sheet", "aria-expanded": String(this.sheetOpen),
      "aria-controls": "sheet-panel", "aria-keyshortcuts": "S" }, t("table.scoreSheet"));
    sheetBtn.addEventListener("click", () => { this.sheetOpen = !this.sheetOpen; this.render(); });
    tools.append(lastBtn, sheetBtn);
    if (this.chat.enabled(v)) tools.append(this.chat.toggleButton());
    if (v.options?.hints && v.seat !== null && v.your_turn) {
      const hintBtn = h("button", { type: "button", class: "btn hint-btn", "data-focus": "hint", "aria-keyshortcuts": "H" },
        t("table.hint"));
      hintBtn.addEventListener("click", () => this.requestHint());
      tools.append(hintBtn);
    }
    if (v.phase === "over" && this.overShown) { // the result again, once closed (Escape): Play again is there
      const resultBtn = h("button", { type: "button", class: "btn result-btn", "data-focus": "result",
        "aria-haspopup": "dialog" }, t("over.show"));
      resultBtn.addEventListener("click", () => this.openResult());
      tools.append(resultBtn);
    }
    if (v.can_undo && v.seat !== null) { // a game against bots, with a card of ours to take back
      const undoBtn = h("button", { type: "button", class: "btn undo-btn", "data-focus": "undo",
        "aria-keyshortcuts": "U Control+Z", disabled: this.pending }, t("table.undo"));
      undoBtn.addEventListener("click", () => this.undo());
      tools.append(undoBtn);
    }
    bar.append(tools);
  }

  seatPanel(v, seat, place) {
    const player = v.players[seat];
    const role = v.roles?.[String(seat)];
    const turn = v.to_move === seat;
    const isBot = player.kind === "bot" || player.standin;
    const panel = h("div", { class: `seat pos-${place}${turn ? " turn" : ""}${player.connected ? "" : " offline"}`,
      "data-seat": seat, role: "group", "aria-label": this.nameOf(seat) });
    const head = h("div", { class: "seat-head" },
      h("span", { class: "seat-name" }, player.open ? t("table.empty") : this.nameOf(seat)));
    if (!player.open && player.registered) head.append(registeredMark());
    if (isBot) {
      // the level in the player's language (the server's badge is an English word)
      const level = player.bot ? levelName(player.bot) : "";
      head.append(h("span", { class: "badge bot-badge", title: level },
        `${t("table.bot")}${level ? ` · ${level}` : ""}`));
    }
    if (player.left) {
      // gave the seat up after the match: gone for good, not "offline" (nobody plays for him: nothing is left)
      head.append(h("span", { class: "badge left-badge" }, t("table.leftTable")));
    } else if (!player.open && player.kind === "human") {
      head.append(h("span", { class: `conn-dot ${player.connected ? "online" : "offline"}`,
        title: t(player.connected ? "table.online" : "table.offline") },
      h("span", { class: "visually-hidden" }, t(player.connected ? "table.online" : "table.offline"))));
    }
    panel.append(head);
    const facts = h("div", { class: "seat-facts" });
    if (role) facts.append(h("span", { class: `role role-${role}` }, roleName(v, role)));
    else if (seat === v.dealer && dealerSitsOut(v)) facts.append(h("span", { class: "role role-out" }, t("table.dealerSitsOut")));
    if (v.phase !== "waiting") {
      const n = v.hand_sizes[seat] ?? 0;
      facts.append(h("span", { class: "count" }, t("table.cards", { n })));
    }
    if (player.since_deal) { // sat in during the match: the seat's total so far is the earlier players'
      facts.append(h("span", { class: "since-deal", title: t("table.sinceDealHelp", { n: player.since_deal }) },
        t("table.sinceDeal", { n: player.since_deal })));
    }
    panel.append(facts);
    if ((place !== "bottom" || v.seat === null) && v.phase !== "waiting") { // a spectator's bottom seat too
      const mini = h("div", { class: "mini-hand", "aria-hidden": "true" });
      const n = Math.min(v.hand_sizes[seat] ?? 0, 13);
      for (let i = 0; i < n; i += 1) mini.append(backElement());
      panel.append(mini);
    }
    panel.append(this.scoreLine(v, seat));
    if (turn && v.phase !== "over") {
      const flag = h("span", { class: "turn-flag" }, t("table.toMove"));
      const clock = this.clockElement(seat);
      if (clock) flag.append(" ", clock);
      panel.append(flag);
    }
    return panel;
  }

  scoreLine(v, seat) {
    const line = h("div", { class: "seat-score" });
    if (v.contract && role(v, seat)) {
      const quota = v.quotas?.[String(seat)];
      const won = v.tricks_won[seat] ?? 0;
      line.append(h("span", { class: "tricks-won", "data-won": won }, t("table.tricks", { n: won })),
        h("span", { class: "quota" }, ` / ${t("table.quota", { n: quota })}`));
    }
    const ex = v.exchange_counts?.[seat];
    if (v.phase === "exchange" || (v.phase === "play" && v.tricks_played === 0 && !v.trick)) {
      if (role(v, seat)) {
        line.append(h("span", { class: "exchange-count" },
          ex === null || ex === undefined ? t("table.exchangePending") : t("table.exchanged", { n: ex })));
      }
    }
    return line;
  }

  renderFelt(v) {
    const felt = this.el.felt;
    felt.replaceChildren();
    const places = placements(v.players.length, v.seat);
    for (const [seat, place] of Object.entries(places)) {
      if (place === "bottom") continue;
      felt.append(this.seatPanel(v, Number(seat), place));
    }
    const centre = h("div", { class: "centre", "aria-label": t("table.trick"), role: "region" });
    if (v.phase === "waiting") {
      centre.append(this.waitingPanel(v));
    } else {
      // A finished trick stays on the table for a moment, until the next trick's first card arrives.
      if (this.heldTrick && v.trick && v.trick.cards.length) this.heldTrick = null;
      const showing = this.showLast ? v.last_trick : (this.heldTrick?.trick ?? v.trick);
      const trickBox = h("div", { class: `trick${this.showLast ? " last" : ""}${this.heldTrick && !this.showLast ? " held" : ""}` });
      if (this.showLast) {
        trickBox.append(h("div", { class: "trick-label" }, v.last_trick
          ? `${t("table.lastTrick")}: ${this.nameOf(v.last_trick.winner)}` : t("table.noLastTrick")));
      }
      if (showing) {
        showing.cards.forEach((code, i) => {
          const seat = showing.seats[i];
          const card = cardElement(parseCard(code));
          card.classList.add(`at-${places[seat]}`);
          if (showing.winner === seat) card.classList.add("winner");
          card.setAttribute("aria-label", `${this.nameOf(seat)}: ${cardName(parseCard(code))}`);
          trickBox.append(card);
        });
      }
      centre.append(trickBox);
      // not a live region: redrawn with the table, its changes are announced by announceRedrawn
      centre.append(h("p", { class: "prompt" }, this.promptText(v)));
      // seed002-literal: the stock the players draw from after their cards in the first tricks
      if (v.phase === "play" && v.stock_size > 0) centre.append(h("p", { class: "stock-note" }, t("table.stock", { n: v.stock_size })));
    }
    felt.append(centre);
  }

  promptText(v) {
    if (v.phase === "over") return t("over.title");
    if (v.seat === null) {
      if (v.to_move === null || v.to_move === undefined) return t("table.spectator");
    }
    if (v.your_turn) return t("table.yourTurn");
    if (v.to_move === null || v.to_move === undefined) return "";
    const name = this.nameOf(v.to_move);
    if (v.phase === "choose") return t("table.choosing", { name });
    if (v.phase === "exchange") return t("table.exchanging", { name });
    return t("table.turnOf", { name });
  }

  waitingPanel(v) {
    const box = h("div", { class: "waiting" }, h("p", {}, t("table.waiting")));
    // a listed table: whoever waits knows that strangers may come (a private one: only whom the link reaches)
    if (v.options?.visibility === "public") box.append(h("p", { class: "muted listed-note" }, t("table.listed")));
    const list = h("ul", { class: "waiting-seats" });
    v.players.forEach((p, seat) => {
      list.append(h("li", { class: p.open ? "open" : "taken" },
        p.open ? t("table.empty") : `${this.nameOf(seat)}${p.kind === "bot" ? ` (${t("table.bot")})` : ""}`,
        !p.open && p.registered ? registeredMark() : null));
    });
    box.append(list);
    const url = inviteUrl(v.table);
    const input = h("input", { type: "text", readonly: true, value: url, class: "invite-url", "aria-label": t("table.invite") });
    const copy = h("button", { type: "button", class: "btn", "data-focus": "copy" }, t("lobby.copy"));
    copy.addEventListener("click", async () => {
      try { await navigator.clipboard.writeText(url); } catch { input.select(); document.execCommand?.("copy"); }
      copy.textContent = t("lobby.copied");
    });
    box.append(h("div", { class: "invite" }, h("label", {}, t("table.invite")), input, copy));
    if (v.seat !== null && v.seat !== undefined && v.status === "waiting") {
      box.append(this.fillControl(v));
      // Someone who sat down at the wrong table, or makes room for another friend: the seat opens again.  The
      // page had no way to give a seat up (the server's `leave`), and a closed page kept the seat taken.
      const leave = h("button", { type: "button", class: "btn leave-btn", id: "leave-table", "data-focus": "leave",
        "aria-disabled": this.leaving ? "true" : null }, t("table.leaveSeat"));
      leave.addEventListener("click", () => {
        if (this.leaving) return;
        confirmDialog({ name: "leave", title: t("table.leaveTitle"), text: t("table.leaveText"), yes: t("table.leave"),
          opener: leave, onYes: () => this.leaveSeat() });
      });
      box.append(h("div", { class: "leave-row" }, leave));
    }
    return box;
  }

  /** Give the seat up before the match (`POST /api/tables/{id}/leave`): the browser forgets it, the lobby opens. */
  async leaveSeat() {
    const seat = seatFor(this.tableId);
    if (this.leaving || !seat) return;
    this.leaving = true;
    this.message = null;
    this.render();
    try {
      await api("POST", `/api/tables/${encodeURIComponent(this.tableId)}/leave`, { token: seat.token });
    } catch (error) {
      this.leaving = false;
      if (this.destroyed) return;
      this.message = { kind: "error", text: apiErrorText(error) };
      announceUrgent(this.message.text);
      this.render();
      return;
    }
    this.leaving = false;
    forgetSeat(this.tableId);
    if (!this.destroyed) this.hooks.goLobby();
  }

  /**
   * A seated player's way not to wait for friends: every open seat becomes a computer player of the chosen level
   * and the match begins (the `fill` message, docs/protocol.md).  The levels and their names are the lobby's quick
   * play's; the control is part of the waiting panel, so it is gone once the match has begun.  Spectators never
   * get it (the caller draws it for a seat only).
   */
  fillControl(v) {
    this.loadFillLevels();
    const levels = this.fillLevels ?? FILL_LEVELS;
    if (!levels.includes(this.fillLevel)) this.fillLevel = levels.includes("rules") ? "rules" : levels[0];
    const help = h("p", { class: "fill-help", id: "fill-help" },
      t("table.fillHelp", { n: v.players.filter((p) => p.open).length }));
    const select = h("select", { id: "fill-level", "data-focus": "fill-level", disabled: this.filling });
    for (const level of levels) select.append(h("option", { value: level, selected: level === this.fillLevel }, levelName(level)));
    select.addEventListener("change", () => { this.fillLevel = select.value; });
    // aria-disabled, not disabled, while the server answers: the button keeps the focus (a refusal finds it there)
    const button = h("button", { type: "button", class: "btn primary fill-btn", "data-focus": "fill",
      "aria-describedby": "fill-help", "aria-disabled": this.filling ? "true" : null },
    t(this.filling ? "table.filling" : "table.fill"));
    button.addEventListener("click", () => this.fill());
    return h("div", { class: "fill" }, help,
      h("div", { class: "fill-row" }, h("label", { for: "fill-level" }, t("table.fillLevel")), select, button));
  }

  /** Ask the server to seat computer players of the chosen level in the open seats; a refusal is shown as any is. */
  async fill() {
    const v = this.view;
    if (this.filling || !v || v.seat === null || v.seat === undefined || v.status !== "waiting") return;
    const level = this.fillLevel; // as chosen: the redraw below draws the select afresh
    this.filling = true;
    this.message = null;
    this.render();
    const reply = await this.socket.request({ type: "fill", level });
    this.filling = false;
    if (reply.type === "error") {
      this.showError(reply); // redraws: the button is enabled again
    } else {
      announce(t("table.fillStarted", { level: levelName(level) }));
      this.render();
    }
  }

  /** The server's bot levels (`GET /api/meta`, as the lobby's quick play offers them), asked once. */
  loadFillLevels() {
    if (this.fillLevelsAsked) return;
    this.fillLevelsAsked = true;
    api("GET", "/api/meta").then((meta) => {
      if (!Array.isArray(meta?.bot_levels) || !meta.bot_levels.length || this.destroyed) return;
      this.fillLevels = meta.bot_levels.map(String);
      if (this.view?.status === "waiting") this.render();
    }).catch(() => { /* the five known levels stay offered */ });
  }

  renderMe(v) {
    const me = this.el.me;
    const exchanging = v.seat !== null && v.phase === "exchange" && v.your_turn && v.exchange;
    // The exchange's bar stays in the page while the exchange lasts (its count of the cards selected is a live
    // region: one drawn anew with each redraw was never announced); everything around it is drawn anew.
    const bar = exchanging ? this.exchangeBar(v) : null;
    if (!bar) this.el.exchange = null;
    for (const node of [...me.childNodes]) if (node !== bar) node.remove();
    if (v.seat === null) {
      // a spectator has no seat of its own: the bottom place is the first seat's, its cards face down
      const bottom = Object.entries(placements(v.players.length, v.seat)).find(([, place]) => place === "bottom");
      if (bottom) me.append(this.seatPanel(v, Number(bottom[0]), "bottom"));
      me.append(h("p", { class: "spectator-note" }, t("table.spectator")));
      const sitIn = this.sitInControls(v);
      if (sitIn) me.append(sitIn);
      return;
    }
    const top = [this.seatPanel(v, v.seat, "bottom")];
    if (this.message) {
      top.push(h("p", { class: `message ${this.message.kind}`, role: this.message.kind === "error" ? "alert" : "status" },
        this.message.text));
    }
    if (bar) {
      if (bar.parentNode !== me) me.append(bar);
      bar.before(...top);
    } else {
      me.append(...top);
    }
    const trump = v.contract?.trump ? TRUMP_INDEX[v.contract.trump] : null;
    const hand = sortHand(v.hand.map(parseCard), trump);
    const handBox = h("div", { class: `hand${exchanging ? " exchanging" : ""}`, role: "group",
      "aria-label": t("table.yourHand"), "data-count": hand.length });
    handBox.style.setProperty("--n", String(Math.max(hand.length, 1)));
    const codes = hand.map(cardCode);
    if (!codes.includes(this.focusCard)) this.focusCard = null;
    const drawn = new Set(v.drawn);
    const showDrawn = v.phase === "exchange" || (v.phase === "play" && v.tricks_played === 0);
    const fromStock = new Set((v.stock_drawn ?? []).filter((code) => this.stockFresh?.has(code)));
    const hintCode = this.hint?.action && v.phase === "play" ? this.hint.action.trim().split(/\s+/).pop() : null;
    let firstEnabled = null;
    hand.forEach((card, i) => {
      const code = codes[i];
      const state = this.cardState(v, code, exchanging);
      // a card drawn from the talon is marked (.drawn) until the first trick: its name says so too
      const name = showDrawn && drawn.has(code) ? `${cardName(card)}. ${t("table.drawnCard")}`
        : fromStock.has(code) ? `${cardName(card)}. ${t("table.stockCard")}` : cardName(card);
      const button = h("button", { type: "button", class: "card", "data-card": code, tabindex: "-1",
        "aria-label": state.reason ? `${name}. ${state.reason}` : name,
        "aria-disabled": state.enabled ? null : "true",
        "aria-pressed": exchanging ? String(this.selected.has(code)) : null,
        "data-reason": state.reason || null });
      button.style.setProperty("--i", String(i));
      button.style.setProperty("--mid", String((hand.length - 1) / 2));
      button.append(cardFace(card));
      if (state.enabled) {
        button.classList.add("playable");
        if (firstEnabled === null) firstEnabled = code;
      } else {
        button.classList.add("unplayable");
      }
      if (exchanging && this.selected.has(code)) button.classList.add("selected");
      if (fromStock.has(code)) button.classList.add("drawn");
      if (showDrawn && drawn.has(code)) {
        button.classList.add("drawn");
        if (!this.seenDrawn.has(`${v.deal_no}:${code}`)) {
          button.classList.add("slide-in");
          this.seenDrawn.add(`${v.deal_no}:${code}`);
        }
      }
      if (hintCode === code) button.classList.add("hinted");
      if (suitOf(card) === trump) button.classList.add("trump");
      button.addEventListener("click", () => this.onCardClick(code));
      button.addEventListener("focus", () => { this.focusCard = code; this.showTip(button); });
      button.addEventListener("mouseenter", () => this.showTip(button));
      button.addEventListener("mouseleave", () => this.showTip(null));
      button.addEventListener("blur", () => this.showTip(null));
      handBox.append(button);
    });
    const rover = this.focusCard ?? firstEnabled ?? codes[0];
    const target = handBox.querySelector(`[data-card="${rover}"]`);
    if (target) target.tabIndex = 0;
    handBox.addEventListener("keydown", (event) => this.onHandKey(event));
    me.append(handBox);
    me.append(h("p", { class: "hand-tip", id: "hand-tip", "aria-hidden": "true" }));
    if (v.discards.length && v.phase !== "choose") {
      me.append(h("p", { class: "own-discards" }, `${t("table.discards")}: `,
        listOf(v.discards.map((c) => cardName(parseCard(c))))));
    }
  }

  /**
   * A spectator's way into an unrated match: "Sit in for Bot 2", one button a seat the computer plays for good (the
   * server's `takeover`, which comes and goes with the views: a player gives his seat up, a newcomer takes it).
   * Null when there is nothing to offer nor a refusal to show.
   */
  sitInControls(v) {
    const seats = v.players.filter((p) => p.takeover).map((p) => p.seat);
    if (!seats.length && !this.sitInError) return null;
    const box = h("div", { class: "sit-in" });
    if (this.sitInError) box.append(h("p", { class: "message error", role: "alert" }, this.sitInError));
    for (const seat of seats) {
      // aria-disabled while the server answers: the button keeps the focus (a refusal finds it there)
      const button = h("button", { type: "button", class: "btn primary", id: `sit-in-${seat}`,
        "data-focus": `sit-in-${seat}`, "aria-disabled": this.sittingIn ? "true" : null },
      t("join.takeOver", { name: this.nameOf(seat, v) }));
      button.addEventListener("click", () => this.sitIn(seat));
      box.append(button);
    }
    return box;
  }

  /** Take *seat* over (REST join, the seat remembered as any join's) and open the table again as its player; a
   *  refusal (someone was faster) is shown under the buttons and the page goes on watching. */
  async sitIn(seat) {
    if (this.sittingIn || this.destroyed) return;
    this.sittingIn = true;
    this.sitInError = null;
    this.render();
    try {
      await joinTable(this.tableId, seat);
    } catch (error) {
      this.sittingIn = false;
      if (this.destroyed) return;
      this.sitInError = apiErrorText(error);
      announceUrgent(this.sitInError);
      this.render();
      return;
    }
    this.sittingIn = false;
    // the same table, by its player's address: the page connects again with the seat's token (Back does not
    // return to watching: that page would now open the seat too)
    if (!this.destroyed) this.hooks.openTable?.(this.tableId, { replace: true });
  }

  cardState(v, code, exchanging) {
    if (v.status === "waiting") return { enabled: false, reason: t("table.waiting") };
    // an empty talon: the exchange bar says why in full; each card only that it cannot go
    if (exchanging) return v.exchange.max > 0 ? { enabled: true, reason: null } : { enabled: false, reason: t("exchange.nothingFor") };
    if (v.phase !== "play") {
      if (v.phase === "choose" || v.phase === "exchange") return { enabled: false, reason: t("illegal.phase") };
      return { enabled: false, reason: null };
    }
    if (!v.your_turn) return { enabled: false, reason: t("illegal.notYourTurn") };
    if (v.legal.includes(code)) return { enabled: !this.pending, reason: null };
    if (v.illegal && v.illegal[code] && v.trick && v.trick.cards.length) {
      const led = suitOf(parseCard(v.trick.cards[0]));
      if (/follow/i.test(v.illegal[code])) return { enabled: false, reason: t("illegal.follow", { suit: suitName(led) }) };
      return { enabled: false, reason: v.illegal[code] };
    }
    return { enabled: false, reason: t("illegal.notNow") };
  }

  showTip(button) {
    const tip = this.el.me.querySelector(".hand-tip");
    if (!tip) return;
    const reason = button?.dataset.reason;
    tip.textContent = reason || "";
    tip.classList.toggle("visible", Boolean(reason));
  }

  /**
   * The exchange's bar, kept across redraws (this.el.exchange) from the exchange's start to its end: its count of
   * the cards selected is a live region, which a screen reader announces only when its text changes in place.  The
   * count is never taken out of the page; the bar's other parts are drawn anew around it.
   */
  exchangeBar(v) {
    const max = v.exchange.max;
    const n = this.selected.size;
    let bar = this.el.exchange;
    if (!bar || !this.el.me.contains(bar)) { // a new exchange, or the page drawn anew (a language switch)
      const count = h("span", { class: "exchange-selected", "aria-live": "polite", "aria-atomic": "true" });
      bar = h("div", { class: "exchange-bar", role: "group", "aria-label": t("exchange.title") }, count);
      this.el.exchange = bar;
      this.el.exchangeCount = count;
    }
    const count = this.el.exchangeCount;
    for (const node of [...bar.childNodes]) if (node !== count) node.remove();
    const said = t("exchange.selected", { n });
    if (count.textContent !== said) count.textContent = said; // the same text set again could be said again
    // The players before took the whole talon: nothing to select, nothing to draw, only the hand to keep.  The bar
    // used to ask for cards to discard all the same ("The talon holds 0 cards"; a card tapped: "at most 0").
    const empty = max === 0;
    count.hidden = empty;
    const help = empty ? [h("span", { class: "exchange-empty" }, t("exchange.empty"))]
      : [h("span", { class: "exchange-help" }, t("exchange.help")),
        h("span", { class: "exchange-limit" }, t("exchange.limit", { n: v.talon_size }))];
    count.before(h("strong", {}, t("exchange.title")), ...help);
    const confirm = h("button", { type: "button", class: "btn primary exchange-confirm", "data-focus": "exchange-confirm",
      disabled: this.pending || n > max },
      n ? t("exchange.confirm", { n }) : t("exchange.keep"));
    confirm.addEventListener("click", () => {
      const discards = [...this.selected];
      this.act(discards.length ? `exchange ${discards.join(" ")}` : "keep");
    });
    bar.append(confirm);
    if (n > max) bar.append(h("span", { class: "message error" }, t("exchange.tooMany", { n: max })));
    return bar;
  }

  onCardClick(code) {
    const v = this.view;
    if (!v || this.pending) return;
    if (v.phase === "exchange" && v.your_turn && v.exchange) {
      if (v.exchange.max === 0) { // an empty talon: no card to select (the bar says so)
        this.message = { kind: "error", text: `${cardName(parseCard(code))}: ${t("exchange.nothingFor")}` };
        announceUrgent(this.message.text);
        this.render();
        return;
      }
      if (this.selected.has(code)) this.selected.delete(code);
      else if (this.selected.size < v.exchange.max) this.selected.add(code);
      else {
        this.message = { kind: "error", text: t("exchange.tooMany", { n: v.exchange.max }) };
      }
      this.focusCard = code;
      this.render();
      return;
    }
    const state = this.cardState(v, code, false);
    if (!state.enabled) {
      if (state.reason) {
        this.message = { kind: "error", text: `${cardName(parseCard(code))}: ${state.reason}` };
        announceUrgent(this.message.text);
        this.render();
      }
      return;
    }
    // Keep the roving focus on a neighbour of the card that leaves the hand.
    const codes = [...this.el.me.querySelectorAll(".hand .card")].map((b) => b.dataset.card);
    const i = codes.indexOf(code);
    this.focusCard = codes[i + 1] ?? codes[i - 1] ?? null;
    this.act(code);
  }

  onHandKey(event) {
    const buttons = [...this.el.me.querySelectorAll(".hand .card")];
    const i = buttons.indexOf(document.activeElement);
    if (i < 0) return;
    let j = null;
    if (event.key === "ArrowRight" || event.key === "ArrowDown") j = Math.min(buttons.length - 1, i + 1);
    else if (event.key === "ArrowLeft" || event.key === "ArrowUp") j = Math.max(0, i - 1);
    else if (event.key === "Home") j = 0;
    else if (event.key === "End") j = buttons.length - 1;
    if (j === null) return;
    event.preventDefault();
    buttons[i].tabIndex = -1;
    buttons[j].tabIndex = 0;
    buttons[j].focus();
  }

  handleKey(event) {
    const ctrlZ = (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === "z";
    if (event.defaultPrevented || event.altKey || ((event.ctrlKey || event.metaKey) && !ctrlZ)) return;
    const target = event.target;
    // a dialog's keys are its own (Escape closes it): the table's, and a question asked over the page (confirm.js)
    if (document.querySelector("dialog[open]")) {
      // over the table's own dialogs (the contract choice, a deal's summary, the result) the chat stays in reach:
      // C opens or closes it there too, outside a field (never over a question asked over the page, which is modal)
      const modal = document.querySelector("dialog[open]:not(.inline-dialog)");
      const typing = target && ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName);
      if (!modal && !typing && event.key.toLowerCase() === "c" && !ctrlZ && this.chat.enabled(this.view)) {
        event.preventDefault();
        this.chat.toggle();
      }
      return;
    }
    if (event.key === "Escape" && this.sheetOpen) {
      // the score sheet closes as the dialogs do, at every width (on a narrow screen it lies over the table)
      if (target?.closest?.("#chat-panel")) return; // the chat's own (its input)
      event.preventDefault();
      this.closeSheet();
      return;
    }
    if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")) return;
    const key = event.key.toLowerCase();
    if (ctrlZ || key === "u") { // take back (only offered where the view says so; Ctrl+Z elsewhere is left alone)
      if (!this.view?.can_undo) return;
      event.preventDefault();
      this.undo();
      return;
    }
    if (key === "l" && this.view?.last_trick) { this.showLast = !this.showLast; this.render(); }
    else if (key === "s") { this.sheetOpen = !this.sheetOpen; this.render(); }
    else if (key === "c" && this.chat.enabled(this.view)) this.chat.toggle();
    else if (key === "h" && this.view?.options?.hints && this.view.your_turn) this.requestHint();
    else return;
    event.preventDefault();
  }

  renderSheet(v) {
    const panel = this.el.sheet;
    panel.hidden = !this.sheetOpen;
    if (!this.sheetOpen) { panel.replaceChildren(); return; }
    const close = h("button", { type: "button", class: "btn close-sheet", "aria-label": t("common.close") }, "×");
    close.addEventListener("click", () => this.closeSheet());
    panel.replaceChildren(h("div", { class: "sheet-head" }, h("h2", {}, t("sheet.title")), close),
      // a finished deal's review is given only while the table shows its deals in full (else refused)
      renderScoreSheet(v, this.winners, { contracts: v.contracts,
        onReview: this.dealsRevealed(v) ? (n, key) => this.openReview(n, key) : null }));
  }

  /**
   * Close the score sheet (its ×, Escape).  The focus, if it was in the sheet, goes back to the toolbar's button
   * that opens it; elsewhere (the button itself, a card of the hand where the S key opened it) it stays, or, if it
   * was nowhere (the page's body), goes to the hand (or that button, with no card in hand).
   */
  closeSheet() {
    const active = document.activeElement;
    const inside = Boolean(active && this.el.sheet.contains(active));
    this.sheetOpen = false;
    this.render();
    const now = document.activeElement;
    if (!inside && now && now !== document.body && now.isConnected) return;
    const opener = this.el.bar.querySelector('[data-focus="sheet"]');
    const hand = inside ? null : this.el.me.querySelector('.hand .card[tabindex="0"]');
    (hand ?? opener)?.focus();
  }

  // -- the review of a finished deal ---------------------------------------------------------------

  /** Whether deal *n* is over (its row is on the score sheet): only such a deal is ever asked for a review. */
  dealFinished(n) {
    return Boolean(this.view?.score_sheet?.some((row) => row.deal_no === n));
  }

  /** Whether the table shows its finished deals in full now: after the match, or with the option `reveal`. */
  dealsRevealed(v = this.view) {
    return Boolean(v && (v.phase === "over" || v.status === "finished" || v.options?.reveal));
  }

  /**
   * Open the review of finished deal *n* (js/review.js) over whatever is open.  *focusKey*: the data-focus of the
   * control that opened it, given the focus back on close (the score-sheet panel is redrawn meanwhile).
   */
  openReview(n, focusKey = null, { pos = 0 } = {}) {
    if (this.destroyed || !this.dealFinished(n) || this.el.dialogs.querySelector("dialog.review-dialog[open]")) return;
    const seat = seatFor(this.tableId);
    const review = new ReviewDialog({
      tableId: this.tableId, dealNo: n, token: seat?.token ?? null, viewSeat: this.view?.seat ?? null,
      cache: this.reviews,
      nameOf: (who, players) => (who === this.view?.seat ? t("table.you")
        : nameAsPlayed(players[who], this.view?.players?.[who], this.view?.players) || this.nameOf(who)),
    });
    // drawn again (a language switch) at the card it showed, its answer taken from the page's cache where kept
    const reopen = () => {
      review.abort.abort(); // the old dialog's question, if still unanswered, is asked again by the new one
      this.openReview(n, focusKey, { pos: review.pos });
    };
    this.openDialog(review.dialog, { modalClass: "review-dialog", reopen });
    if (focusKey) {
      review.dialog.addEventListener("close", () => {
        if (this.destroyed || this.dropped.has(review.dialog) || this.el.dialogs.querySelector("dialog[open]")) return;
        this.root.querySelector(`[data-focus="${focusKey}"]`)?.focus();
      });
    }
    review.load().then(() => {
      if (pos && review.data && !review.abort.signal.aborted) review.go(pos, { say: false });
    });
  }

  /** A button that reviews deal *n* (the deal summary's, the result's). */
  reviewButton(n, label) {
    const button = h("button", { type: "button", class: "btn review-btn", "data-deal": String(n) }, label);
    button.addEventListener("click", () => this.openReview(n));
    return button;
  }

  // -- dialogs -------------------------------------------------------------------------------------

  /**
   * While one of the table's own dialogs is open (non-modal: openDialog), the table under it is inert, as under a
   * modal dialog (no card, no button, nothing for a screen reader; dimmed by the style sheet), except the chat
   * and the toolbar's button that opens it.  Called on each open and close, and after each redraw.
   */
  blockTable() {
    if (!this.el) return;
    const open = [...this.el.dialogs.querySelectorAll("dialog.inline-dialog[open]")];
    const blocked = open.length > 0;
    this.root.classList.toggle("dialog-up", blocked);
    // a dialog opened over another (a review over the deal's summary or the result) leaves the one under it inert
    open.forEach((dialog, i) => { dialog.inert = i < open.length - 1; });
    const keep = this.el.bar.querySelector(".chat-toggle");
    const mark = (node) => {
      if (keep && node.contains(keep)) {
        node.inert = false;
        for (const child of node.children) if (child !== keep) mark(child);
      } else {
        node.inert = blocked;
      }
    };
    for (const node of [this.el.bar, this.el.felt, this.el.me, this.el.sheet]) mark(node);
  }

  // -- the turn timer ------------------------------------------------------------------------------

  /** The server's `timer`: a turn timer started, or (after a hello) what is left of the running one. */
  onTimer(message) {
    if (typeof message.left !== "number" || typeof message.seat !== "number") return;
    this.clock = { seat: message.seat, seq: message.seq, epoch: message.epoch,
      until: performance.now() + Math.max(0, message.left) * 1000 };
    this.render();
    this.startTicker();
  }

  /** The seconds left to *seat*'s decision now, or null: no timer runs for it in the position shown. */
  timeLeft(seat) {
    const c = this.clock;
    const v = this.view;
    if (!c || !v || c.seat !== seat || v.to_move !== seat || c.seq !== v.seq || this.clockOfOldJournal(c)) return null;
    return Math.max(0, (c.until - performance.now()) / 1000);
  }

  /** Whether clock *c* was started in an earlier journal of the table (an undo began a new one since). */
  clockOfOldJournal(c) {
    return typeof c.epoch === "number" && typeof this.socket?.epoch === "number" && c.epoch !== this.socket.epoch;
  }

  /** A clock for *seat*'s decision (tick keeps it going each second), or null when no timer runs for it;
   *  *always*: one hidden meanwhile (the contract choice opens before the server's `timer` comes). */
  clockElement(seat, { always = false } = {}) {
    if (!always && this.timeLeft(seat) === null) return null;
    const clock = h("span", { class: "turn-clock", role: "timer", "data-seat": String(seat) });
    this.showClock(clock);
    return clock;
  }

  showClock(clock) {
    const left = this.timeLeft(Number(clock.dataset.seat));
    if (left === null) { clock.hidden = true; return; }
    const whole = Math.ceil(left);
    const text = `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
    if (clock.textContent !== text) {
      clock.textContent = text;
      clock.setAttribute("aria-label", t("table.timeLeft", { time: text }));
    }
    clock.hidden = false;
    clock.classList.toggle("urgent", whole <= URGENT_SECONDS);
  }

  /** Each quarter second: the clocks on the page follow the deadline; our own last seconds are said once. */
  tick() {
    if (this.destroyed || !this.clock) {
      this.stopTicker();
      return;
    }
    for (const clock of this.root.querySelectorAll(".turn-clock")) this.showClock(clock);
    const mine = this.view?.seat;
    const left = mine === null || mine === undefined ? null : this.timeLeft(mine);
    if (left !== null && left > 0 && Math.ceil(left) <= URGENT_SECONDS && this.hurried !== this.clock) {
      this.hurried = this.clock;
      announceUrgent(t("timer.hurry", { n: Math.ceil(left) }));
    }
    // the decision was made (a later event, or an undo's new journal) or its time is up: nothing left to count
    const c = this.clock;
    const v = this.view;
    const over = (v && typeof v.seq === "number" && v.seq > c.seq) || this.clockOfOldJournal(c)
      || c.until <= performance.now();
    if (over) this.stopTicker();
  }

  /**
   * Tick every quarter second while a turn timer's clock runs, and only then: a page without a timer (quick play)
   * keeps no interval going, which also leaves its connection's own timers alone (a test's fake clock that jumps
   * forward fires each due timer once, and an interval due every 250 ms kept the connection's quiet ping from it).
   */
  startTicker() {
    if (this.ticker === null && !this.destroyed) this.ticker = setInterval(() => this.tick(), 250);
  }

  stopTicker() {
    clearInterval(this.ticker);
    this.ticker = null;
  }

  /**
   * Show *dialog*.  *reopen*: how to draw it again, in the page's language as it is then, and show it in its
   * place (rerender: a language switch rebuilds the page).
   *
   * The table's dialogs (the contract choice, a deal's summary, the result, a deal's review) are shown non-modal
   * over the table, so that the chat beside them can still be read and written ("one moment" while choosing, "well
   * played" over the summary, "look at trick 5" over a review): a dialog takes the focus as a modal one does, Escape
   * cancels it (its `cancel` event, as the browser's own), and the table under it is inert (blockTable: no card, no
   * shortcut, nothing for a screen reader) except the chat and its toolbar button, as is a dialog under it (the
   * summary under the review of its deal), which has the focus back where it was when the one over it closes.
   */
  openDialog(dialog, { modalClass = "", reopen = null } = {}) {
    const opener = document.activeElement;
    dialog.className = `dialog ${modalClass} inline-dialog`;
    this.el.dialogs.append(dialog);
    dialog.addEventListener("keydown", (event) => {
      if (event.key !== "Escape" || event.defaultPrevented || !dialog.open) return;
      event.preventDefault();
      if (dialog.dispatchEvent(new Event("cancel", { cancelable: true }))) dialog.close();
    });
    dialog.show();
    this.blockTable();
    const first = dialog.querySelector("[autofocus]") ?? dialog.querySelector("button, [href], input, [tabindex]");
    (first ?? dialog).focus();
    if (reopen) this.reopeners.set(dialog, reopen);
    dialog.addEventListener("close", () => {
      dialog.remove();
      this.blockTable();
      if (this.dropped.has(dialog)) return; // thrown away by a rebuild, drawn again already
      this.render();
      this.showDialogs();
      this.keepFocus(opener);
    });
  }

  /**
   * A dialog closed and none is open: the browser gives the focus back to the control that had it before, but
   * that one was redrawn meanwhile (a card of the hand, a toolbar button), so the focus fell to the page's body
   * and a keyboard or screen-reader user had to start again from the top of the page.  It goes to the hand (where
   * the next action is, even while another player is to act), or, with no card left (the match over), to the
   * toolbar's button that shows the result again.  A dialog closed over another (*opener*: the control that had
   * the focus when it opened): the browser's own return of the focus found that control inert, so the focus goes
   * to it now, or else to the first control of the dialog left on top.
   */
  keepFocus(opener = null) {
    if (this.destroyed || !this.el) return;
    const active = document.activeElement;
    const lost = !active || active === document.body || !active.isConnected || Boolean(active.closest("[inert]"));
    const top = [...this.el.dialogs.querySelectorAll("dialog[open]")].pop();
    if (top) {
      const first = top.querySelector("button, [href], input, [tabindex]");
      if (lost) (opener?.isConnected && top.contains(opener) ? opener : first ?? top).focus();
      return;
    }
    // the table's middle only held the focus while the hand had no card (render): not a place to come back to
    if (!lost && active !== this.el.felt) return;
    const hand = this.el.me.querySelector('.hand .card[tabindex="0"]');
    (hand ?? this.el.bar.querySelector('[data-focus="result"]'))?.focus();
  }

  /** The result of the match: opened by itself once (showDialogs), again from the toolbar (renderBar). */
  openResult() {
    if (this.destroyed || !this.view || this.el.dialogs.querySelector("dialog.over-dialog[open]")) return;
    const showOver = () => this.openDialog(this.overDialog(this.view), { modalClass: "over-dialog", reopen: showOver });
    showOver();
  }

  showDialogs() {
    if (this.destroyed || !this.view || !this.el || this.el.dialogs.querySelector("dialog[open]")) return;
    if (this.summaryQueue.length) {
      const { event, view, missed } = this.summaryQueue.shift();
      if (missed) {
        this.noteDealEnd(missed.row.deal_no + 1);
        const showMissed = () => this.openDialog(this.missedDialog(missed),
          { modalClass: "summary-dialog missed-summary", reopen: showMissed });
        showMissed();
        return;
      }
      if (view?.seat !== null && view?.seat !== undefined) this.noteDealEnd(event.deal_no + 1);
      const showSummary = () => this.openDialog(this.summaryDialog(event, view),
        { modalClass: "summary-dialog", reopen: showSummary });
      showSummary();
      return;
    }
    const v = this.view;
    if (v.phase === "over" && !this.overShown) {
      this.overShown = true;
      this.openResult();
      return;
    }
    if (v.phase === "choose" && v.your_turn && v.legal.length > 1 && !this.pending) {
      // drawn again only while the choice is still this seat's (else showDialogs opens what is due instead)
      const showChoose = () => {
        const now = this.view;
        if (now?.phase === "choose" && now.your_turn && now.legal.length > 1 && !this.pending) {
          this.openDialog(this.chooseDialog(now), { modalClass: "choose-dialog", reopen: showChoose });
        }
      };
      showChoose();
    }
  }

  chooseDialog(v) {
    const dialog = h("dialog", { "aria-labelledby": "choose-title" });
    dialog.addEventListener("cancel", (e) => e.preventDefault()); // the choice is not optional
    const cards = h("div", { class: "first-cards", role: "list", "aria-label": t("table.yourHand") });
    for (const card of sortHand(v.hand.map(parseCard), null)) {
      // the card keeps its role, an image named in words, inside the list's item: made the item itself, its name
      // was one that screen readers do not read on a list item (its picture is hidden from them), so the six
      // cards the contract is chosen on were said as six empty items
      cards.append(h("div", { role: "listitem", class: "first-card" }, cardElement(card)));
    }
    const buttons = h("div", { class: "contract-buttons" });
    for (const code of CONTRACT_CODES) {
      if (!v.legal.includes(code)) continue; // only the unused contracts
      const avoid = code === "MZ";
      const button = h("button", { type: "button", class: `btn contract-btn ${avoid ? "avoid" : "take"}`, "data-contract": code },
        contractLabel(code), h("span", { class: "goal" }, t(avoid ? "table.avoid" : "table.take")));
      if (this.hint?.action === code) button.classList.add("hinted");
      button.addEventListener("click", () => { dialog.close(); this.act(code); });
      buttons.append(button);
    }
    // The dialog opens with its title focused, not the first contract: an Enter meant for what came before (the
    // deal summary's "Next deal", held or repeated) must not choose a contract; Tab reaches the contracts.
    dialog.append(h("h2", { id: "choose-title", tabindex: "-1", autofocus: true }, t("choose.title")),
      h("p", {}, t("choose.help")), cards, buttons);
    // the turn timer runs under the dialog too: its clock is in the dialog's title line, where the eye is
    const clock = v.seat === null ? null : this.clockElement(v.seat, { always: true });
    if (clock) dialog.querySelector("h2").after(h("p", { class: "dialog-clock" }, clock));
    if (v.options?.hints) {
      const hintBtn = h("button", { type: "button", class: "btn hint-btn" }, t("table.hint"));
      const out = h("p", { class: "hint-out", role: "status" });
      hintBtn.addEventListener("click", async () => {
        const reply = await this.socket.request({ type: "hint" });
        if (reply.type === "hint") {
          const value = evaluationOf(reply);
          out.textContent = t("table.hintText", { action: contractName(contractIndex(reply.action)) }) +
            (value !== undefined ? ` (${t("table.hintEval", { value: formatEval(value) })})` : "");
          for (const b of buttons.children) b.classList.toggle("hinted", b.dataset.contract === reply.action);
        } else {
          out.textContent = failureText(reply);
        }
      });
      dialog.append(h("div", { class: "dialog-foot" }, hintBtn, out));
    }
    return dialog;
  }

  /** The server's double-dummy values of deal *dealNo*, or (*dd* null) the *reason* it has none: into any summary
   * of that deal on the screen, which said "…" (computing) until now. */
  onDoubleDummy(dealNo, dd, reason) {
    if (dd) this.ddByDeal[dealNo] = dd;
    else this.ddFailed[dealNo] = reason || "error";
    for (const cell of this.root.querySelectorAll(`dialog[data-deal="${dealNo}"] td.dd[data-seat]`)) {
      cell.textContent = ddText(dd, Number(cell.dataset.seat), false);
      cell.title = dd ? "" : ddWhy(this.ddFailed[dealNo]);
    }
  }

  /**
   * The summary of a deal that ended while the player was away (missedDeals): its score-sheet *row* drawn as the
   * end-of-deal summary is, the roles worked out from its dealer (no quotas: the row has none), with a line that
   * says it ended while he was away, by a stand-in's play where one played his seat, and the earlier deals missed.
   */
  missedDialog({ row, earlier, standin }) {
    const v = this.view;
    const event = { deal_no: row.deal_no, contract: row.contract, tricks: row.tricks, scores: row.scores,
      totals: row.totals, dd: row.dd ?? null };
    const dealView = { ...v, dealer: row.dealer, roles: rolesOf(v.players.length, row.dealer), quotas: null };
    const chooser = row.chooser === v.seat ? t("summary.chooserYou")
      : t("summary.chooser", { name: this.nameOf(row.chooser, v) });
    const note = h("p", { class: "summary-away", id: "summary-away" },
      t(standin ? "summary.missedStandin" : "summary.missedAway"), " ", chooser);
    const more = earlier.length
      ? h("p", { class: "summary-earlier" }, t("summary.missedEarlier", { n: earlier.length, list: listOf(earlier.map(String)) }))
      : null;
    return this.summaryDialog(event, dealView, { note, more });
  }

  /**
   * The end-of-deal summary of *event* (deal_end, or a missed deal's row as one) on the table as *v* shows it.
   * *away*: a missed deal's {note, more} paragraphs (missedDialog); its button then goes back to the game.
   */
  summaryDialog(event, v, away = null) {
    const dialog = h("dialog", { "aria-labelledby": "summary-title", "data-deal": String(event.deal_no),
      "aria-describedby": away ? "summary-away" : null });
    const code = event.contract;
    const names = v.players.map((_, seat) => this.nameOf(seat, v));
    const seats = Object.keys(v.roles || {}).map(Number).sort((a, b) => a - b);
    const active = seats.length ? seats : names.map((_, i) => i);
    const quotas = Boolean(v.quotas); // a missed deal's row says none
    const table = h("table", { class: "summary-table" });
    const head = h("tr", {}, h("th", { scope: "col" }, t("sheet.player")),
      quotas ? h("th", { scope: "col" }, t("summary.quota")) : null,
      h("th", { scope: "col" }, t("summary.tricks")), h("th", { scope: "col" }, t("summary.score")),
      h("th", { scope: "col", title: t("summary.ddHelp") }, t("summary.dd")), h("th", { scope: "col" }, t("sheet.total")));
    table.append(h("thead", {}, head));
    const body = h("tbody");
    const dd = event.dd || this.ddByDeal[event.deal_no] || null;
    // a deal that just ended here: its values are on their way (the server always answers, if only with why not),
    // and the cells say "…" till then; a missed deal's summary is drawn from the score sheet, which has them or
    // never will
    const failed = this.ddFailed[event.deal_no];
    const pending = !dd && !failed && !away;
    for (const seat of active) {
      const role = v.roles?.[String(seat)];
      body.append(h("tr", {},
        h("th", { scope: "row" }, names[seat], role ? h("span", { class: "role" },
          h("span", { class: "role-sep" }, " · "), roleName(v, role)) : null),
        quotas ? h("td", { class: "num" }, String(v.quotas[String(seat)] ?? "")) : null,
        h("td", { class: "num" }, String(event.tricks[seat])),
        h("td", { class: `num ${event.scores[seat] > 0 ? "plus" : event.scores[seat] < 0 ? "minus" : ""}` }, signed(event.scores[seat])),
        h("td", { class: "num dd", "data-seat": String(seat),
          title: failed ? ddWhy(failed) : pending ? t("summary.ddPendingHelp") : null }, ddText(dd, seat, pending)),
        h("td", { class: "num total" }, signed(event.totals[seat]))));
    }
    table.append(body);
    // four at the table: the dealer played no part in the deal, and the table above leaves him out
    const out = dealerSitsOut(v) ? h("p", { class: "muted summary-out" }, t("scorepad.sitsOut", { name: names[v.dealer] })) : null;
    const avoid = code === "MZ";
    const title = h("h2", { id: "summary-title" }, t("summary.title", { n: event.deal_no, contract: contractName(contractIndex(code)) }),
      " ", h("span", { class: `goal ${avoid ? "avoid" : "take"}` }, t(avoid ? "table.avoid" : "table.take")));
    const record = this.recordLink(dialog);
    const next = h("button", { type: "button", class: "btn primary", autofocus: true },
      this.view?.phase === "over" ? t("summary.close") : t(away ? "summary.backToGame" : "summary.next"));
    next.addEventListener("click", () => dialog.close());
    // a table that reveals its deals (or a finished match) shows this one in full: it can be reviewed now
    const review = this.dealsRevealed(this.view) ? this.reviewButton(event.deal_no, t("review.thisDeal")) : null;
    dialog.append(title, ...(away ? [away.note] : []), table, ...(out ? [out] : []), ...(away?.more ? [away.more] : []),
      h("p", { class: "dd-help" }, t("summary.ddHelp")), h("div", { class: "dialog-foot" }, review, record, next));
    return dialog;
  }

  /** The game-record download: fetched first, so that a refusal (say, no record yet) is shown, not saved. */
  recordLink(dialog) {
    const name = `mizerka-${this.tableId}.json`;
    const link = h("a", { class: "btn record-link", href: recordUrl(this.tableId), download: name }, t("summary.record"));
    link.addEventListener("click", async (event) => {
      event.preventDefault();
      const out = dialog.querySelector(".record-out") ?? h("p", { class: "record-out message", role: "status" });
      if (!out.isConnected) dialog.append(out);
      out.textContent = "";
      try {
        // a table without spectators gives its record to its players only: the seat's token says who asks
        const seat = seatFor(this.tableId);
        const headers = seat?.token ? { Authorization: `Bearer ${seat.token}` } : {};
        const response = await fetch(link.href, { headers });
        if (!response.ok) {
          let reason = response.statusText;
          try {
            const body = await response.json();
            reason = refusalReason(body.error) ?? (body.message || reason);
          } catch { /* not JSON */ }
          out.className = "record-out message error";
          out.textContent = t("error.refused", { reason });
          return;
        }
        const url = URL.createObjectURL(await response.blob());
        const a = h("a", { href: url, download: name });
        document.body.append(a);
        a.click();
        a.remove();
        setTimeout(() => URL.revokeObjectURL(url), 10_000);
      } catch {
        out.className = "record-out message error";
        out.textContent = t("error.network");
      }
    });
    return link;
  }

  overDialog(v) {
    const dialog = h("dialog", { "aria-labelledby": "over-title" });
    const winners = this.winners ?? winnersOf(v.totals);
    // the dialog opens on its primary action: "Play again" (a spectator: "Back to the lobby"), not the download
    const again = h("button", { type: "button", class: "btn primary rematch-btn", autofocus: true }, t("over.again"));
    const status = h("p", { class: "rematch-out", role: "status" });
    const asked = h("p", { class: "rematch-asked", role: "status" }); // who else has asked (showRematchAsked)
    this.rematchUi = { again, status, asked }; // kept in step with the view's rematch_asked (syncRematch)
    if (this.rematchWanted) { // drawn again (a language switch) while the wish waits for the others
      again.disabled = true;
      status.textContent = t("over.rematchWaiting");
    }
    again.addEventListener("click", () => this.askRematch());
    const lobby = h("button", { type: "button", class: "btn", autofocus: v.seat === null }, t("error.backToLobby"));
    lobby.addEventListener("click", () => { dialog.close(); this.hooks.goLobby(); });
    const record = this.recordLink(dialog);
    const last = v.score_sheet?.length ? v.score_sheet[v.score_sheet.length - 1].deal_no : null;
    const review = last ? this.reviewButton(last, t("review.lastDeal")) : null;
    // the score sheet of a finished match opens with its winner banner: the dialog shows it once
    dialog.append(h("h2", { id: "over-title" }, t("over.title")),
      renderScoreSheet(v, winners, { contracts: v.contracts, onReview: (n) => this.openReview(n) }),
      // a spectator has no seat to play again with
      h("div", { class: "dialog-foot" }, review, record, v.seat === null ? null : again, lobby),
      ...(v.seat === null ? [] : [asked, status])); // (the DOM's append writes a null as the text "null")
    if (v.seat !== null) this.showRematchAsked(v);
    return dialog;
  }
}

/** The mark beside a registered player's name (a profile holds the seat: the name is unique and proven). */
export function registeredMark() {
  return h("span", { class: "registered-mark", role: "img", title: t("table.registered"),
    "aria-label": t("table.registered") }, "\u2713");
}

/**
 * What an error reply to a request over the socket says: a refusal in the player's language, or, for the socket's
 * own answers, what happened instead: "network" (the message never reached the server) that it was not sent,
 * "timeout" (no reply came in time, js/net.js REQUEST_TIMEOUT_MS) that the server did not answer -- neither is a
 * refusal.
 */
function failureText(reply) {
  if (reply.code === "network") return t("error.notSent");
  if (reply.code === "timeout") return t("error.noAnswer");
  return t("error.refused", { reason: refusalReason(reply.code) ?? (reply.message || reply.code) });
}

function role(v, seat) {
  return v.roles?.[String(seat)];
}

/** The hint's own evaluation, if the bot gave one (keys are matched as sets of words: card order may differ). */
function evaluationOf(reply) {
  const norm = (text) => String(text).trim().split(/\s+/).sort().join(" ");
  const want = norm(reply.action);
  for (const [key, value] of Object.entries(reply.evaluations || {})) if (norm(key) === want) return value;
  return undefined;
}

function formatEval(value) {
  const rounded = Math.round(Number(value) * 100) / 100;
  return rounded > 0 ? `+${rounded}` : String(rounded).replace("-", "\u2212");
}

export function inviteUrl(table) {
  return `${location.origin}${tablePath(table)}`;
}

export function recordUrl(table) {
  return `/api/tables/${encodeURIComponent(table)}/record?format=json`;
}

/** Why a deal has no double-dummy values, for the cell's tooltip (the "dd" message's reason). */
function ddWhy(reason) {
  const known = ["timeout", "busy", "off", "unsupported"];
  return t(`summary.ddWhy.${known.includes(reason) ? reason : "error"}`);
}

/** One seat's double-dummy cell: "tricks (score)", "…" while *pending* (its tooltip says what is computed: a word
 * there would widen the column past a phone's width), else "not available". */
function ddText(dd, seat, pending) {
  const tricks = dd && Array.isArray(dd.tricks) ? dd.tricks[seat] : null;
  const score = dd && Array.isArray(dd.scores) ? dd.scores[seat] : null;
  if (tricks === null || tricks === undefined) return t(pending ? "summary.ddPending" : "summary.ddNone");
  return `${tricks}${score === null || score === undefined ? "" : ` (${signed(score)})`}`;
}
