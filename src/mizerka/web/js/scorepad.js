// The score pad: the paper score sheet of a match played with real cards at a real table (`/?scorepad=1`).
//
// No scoring here: every entry (the setup, a contract, a deal's tricks, an undo, a finished deal corrected) goes to
// the server
// (`POST /api/scorepad`), which applies it with the project's ScoreKeeper and answers the whole new state.  The
// page keeps that answer (its `record` is the score-only game record) in localStorage, so a reload resumes the
// match, and renders from it; a refused entry or a lost connection changes nothing that was kept.
//
// What is kept is checked, never trusted: a reload asks the server for the state of the kept record (an older
// page, a hand edit or a damaged store shows a way out: download what is kept, start again), and before each
// entry the page compares what is kept with what it last read or wrote, so that a second tab on the same match
// never has its entries overwritten unseen (the page shows the other tab's state instead, and says so); each entry
// is one step under a lock the tabs share (Web Locks), so two tabs' entries take turns.

import { announce, announceUrgent } from "./announce.js";
import { confirmDialog } from "./confirm.js";
import { contractName, listOf, nameRefusalText, refusalText, signed, t, variantName } from "./i18n.js";
import { api } from "./net.js";
import { contractIndex, contractLabel, h, renderScoreSheet } from "./sheet.js";
import { SCOREPAD_KEY, forgetScorepad, keptScorepad, prefs, saveScorepad } from "./store.js";

const TRICKS = 13; // a deal's tricks where an older server's answer does not say (n_tricks)
const FIRST_CONTRACT = "sp-first-contract"; // focusAfter: the first contract that may still be chosen

/** The seats in play in the deal, in seat order (the sheet's columns; the server gives them in role order). */
function activeSeats(answer) {
  return [...(answer.active || [])].sort((x, y) => x - y);
}

function seatsOf(variant) {
  return variant === "four-players" ? 4 : 3;
}

/** Today's date where the player is, as a file name gives it (2026-12-06): the UTC date was yesterday's in Poland
 *  just after midnight. */
function localDate(now = new Date()) {
  const two = (n) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${two(now.getMonth() + 1)}-${two(now.getDate())}`;
}

/** A whole number of tricks typed in a field, or null. */
function count(text) {
  const value = String(text ?? "").trim();
  return /^\d{1,2}$/.test(value) ? Number(value) : null;
}

/** The server's English reason, in the page's language where it is one the page knows. */
function reasonText(message) {
  const sum = /^the tricks add up to (\d+), not (\d+)\.?$/i.exec(String(message || "").trim());
  if (sum) return t("scorepad.sumWrong", { n: sum[1], total: sum[2] });
  return message;
}

/** The player a refused setup's *reason* names (from 1, as the server's "player 3's name"), or null. */
function reasonPlayer(reason) {
  const player = reason && typeof reason === "object" ? reason.player : null;
  return Number.isInteger(player) && player > 0 ? player : null;
}

/**
 * Why the server refused a new match's setup, in the page's language, from the error's `reason` (docs/protocol.md):
 * a name's reason as the lobby says it (`nameRefusalText`), after whose name it is; the rest of the setup (the
 * number of names, the first dealer, the rules) by its own sentence.  Null for no reason or one the page has no
 * sentence for: then the server's message is said.
 */
function setupRefusalText(reason) {
  const code = reason && typeof reason === "object" ? reason.code : null;
  if (typeof code !== "string") return null;
  const text = (value) => (typeof value === "string" || typeof value === "number" ? String(value) : "");
  if (code.startsWith("name_")) {
    if (t(`nameRefusal.${code}`) === `nameRefusal.${code}`) return null; // a code this page does not know
    const why = nameRefusalText(reason, "");
    const player = reasonPlayer(reason);
    return player === null ? t("scorepad.notAccepted", { reason: why })
      : t("scorepad.nameRefused", { n: player, reason: why });
  }
  const key = `scorepad.setupRefusal.${code}`;
  if (t(key) === key) return null;
  return t(key, { seats: text(reason.seats), count: text(reason.count), name: text(reason.name),
    variant: text(reason.variant) });
}

/** What a refused or failed call means, in the page's language. */
export function scorepadErrorText(error) {
  switch (error.code) {
    case "network": return t("scorepad.offline");
    case "bad_setup": return setupRefusalText(error.reason)
      ?? t("scorepad.notAccepted", { reason: reasonText(error.message) });
    case "bad_entry": return t("scorepad.notAccepted", { reason: reasonText(error.message) });
    case "bad_record": return t("scorepad.badRecord", { reason: error.message });
    case "bad_request": return t("scorepad.badRequest", { reason: error.message });
    default: return refusalText(error.code, error.message, { seconds: error.retryAfter });
  }
}

/** Run *task* holding the score pad's lock, shared by this browser's tabs on the page's origin (Web Locks).  A
 *  page served without a secure context (plain http to another machine on a LAN) has no Web Locks: there the
 *  comparisons before and after the request still catch what another tab wrote, all but a narrow window. */
function withPadLock(task) {
  const locks = globalThis.navigator?.locks;
  return locks ? locks.request(`${SCOREPAD_KEY}.entry`, task) : task();
}

/** Whether *a* has every field of a server answer the page renders (an older page kept less). */
function isAnswer(a) {
  return Boolean(a) && typeof a === "object" && a.record && typeof a.record === "object"
    && ["players", "rows", "totals", "contracts", "allowed", "active", "used"].every((k) => Array.isArray(a[k]))
    && typeof a.n_deals === "number" && typeof a.over === "boolean";
}

/** What is kept, read: {answer} to show (and check), {record} to ask the server about, {problem}, or {} for none. */
function readKept(raw) {
  if (raw === null || raw === undefined) return {};
  let kept;
  try {
    kept = JSON.parse(raw);
  } catch {
    kept = null;
  }
  if (!kept || typeof kept !== "object" || Array.isArray(kept) || !kept.record || typeof kept.record !== "object"
      || Array.isArray(kept.record)) {
    return { problem: { raw, text: () => t("scorepad.problemUnreadable") } };
  }
  return isAnswer(kept) ? { answer: kept, record: kept.record } : { record: kept.record };
}

/** A click that is the second of a double click (its target may be a button drawn by the first one's answer). */
function onSingleClick(button, action) {
  button.addEventListener("click", (event) => {
    if (event.detail > 1) {
      event.preventDefault();
      return;
    }
    action(event);
  });
}

function download(name, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = h("a", { href: url, download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export class Scorepad {
  constructor(root, hooks = {}) {
    this.root = root;
    this.hooks = hooks; // {goLobby()}
    this.kept = keptScorepad(); // the text kept, as this page last read or wrote it
    const kept = readKept(this.kept);
    this.answer = kept.answer ?? null; // the server's last answer, or null before a match is set up
    this.problem = kept.problem ?? null; // what is kept cannot be used: {raw, text(), retry}
    this.toCheck = kept.record ?? null; // the kept record, to be checked with the server at the start
    this.elsewhere = false; // the match was changed in another tab: said until the next entry
    this.variants = null;
    this.busy = false; // an entry is on its way to the server
    this.locking = false; // an entry waits for another tab's to finish (or is on its way)
    this.error = null; // {text, where: "setup" | "entry" | "fix", field}
    this.onStorage = (event) => {
      if ((event.key === SCOREPAD_KEY || event.key === null) && !this.busy && !this.destroyed) this.adoptKept();
    };
    window.addEventListener("storage", this.onStorage);
    const p = prefs();
    const variant = this.answer?.variant ?? p.variant ?? "standard";
    this.setup = { variant, names: [], firstDealer: 0 };
    this.draft = null; // the tricks being entered: {deal, values: {seat: text}, lastTouched}
    this.fixing = null; // a finished deal being corrected: {deal, contract, values: {seat: text}, lastTouched}
    this.focusAfter = null; // an element id to focus after the next render
  }

  async start() {
    this.render();
    if (this.toCheck) await this.check();
    try {
      const meta = await api("GET", "/api/meta");
      this.variants = meta.variants;
    } catch {
      this.variants = null; // the setup still offers the remembered variant
    }
    if (!this.destroyed && !this.answer) this.render();
  }

  destroy() {
    this.destroyed = true;
    window.removeEventListener("storage", this.onStorage);
    this.confirm?.close();
  }

  rerender() {
    this.render();
  }

  // -- talking to the server --------------------------------------------------------------------------------

  /** Ask the server for the state of the kept record (it is the judge of what a record holds). */
  async check() {
    const record = this.toCheck;
    if (!record || this.busy) return;
    this.busy = true;
    const raw = this.kept;
    try {
      const answer = await api("POST", "/api/scorepad", { record, new: null, entry: null });
      if (this.destroyed || raw !== this.kept) return;
      this.answer = answer;
      this.problem = null;
      this.toCheck = null;
      const text = JSON.stringify(answer);
      if (text !== raw) this.keep(answer); // an older page's form, brought up to date
    } catch (error) {
      if (this.destroyed || raw !== this.kept) return;
      if (error.code === "bad_record" || error.code === "bad_request") {
        this.answer = null;
        this.toCheck = null;
        this.problem = { raw, text: () => t("scorepad.problemRefused", { reason: error.message }) };
        announceUrgent(this.problem.text());
        this.focusAfter = "sp-problem-title";
      } else if (!this.answer) { // offline, or too many requests: nothing to show yet, try again later
        this.problem = { raw, text: () => scorepadErrorText(error), retry: true };
        this.focusAfter = "sp-problem-title";
      } // else the kept answer is shown, as it was kept; the next entry is checked by the server anyway
    } finally {
      this.busy = false;
      if (!this.destroyed) this.render();
    }
  }

  /** Keep *answer* on this device; when the browser will not (storage full, or blocked), the export panel says
   *  so instead of "The match is kept on this device", and the play goes on in memory. */
  keep(answer) {
    const text = saveScorepad(answer);
    this.notKept = text === null;
    if (text !== null) this.kept = text;
    else announceUrgent(t("scorepad.notKept"));
  }

  /** Another tab or window changed the kept match: show it as it is now, say so; false when nothing changed. */
  adoptKept() {
    const raw = keptScorepad();
    if (raw === this.kept) return false;
    const before = this.answer;
    this.kept = raw;
    const kept = readKept(raw);
    this.answer = kept.answer ?? null;
    this.problem = kept.problem ?? null;
    this.toCheck = kept.record ?? null;
    this.error = null;
    if (this.draft && (!this.answer || this.answer.deal_no !== this.draft.deal || !this.answer.pending)) this.draft = null;
    if (this.fixing && !this.answer?.rows?.some((row) => row.deal === this.fixing.deal)) this.fixing = null;
    const same = before && this.answer && JSON.stringify(before.record) === JSON.stringify(this.answer.record);
    if (!same) {
      this.elsewhere = true;
      announceUrgent(t("scorepad.elsewhere"));
    }
    if (!this.answer && !this.problem && !this.toCheck) this.setup.names = [...(before?.players ?? this.setup.names)];
    this.render();
    if (this.toCheck) this.check();
    return true;
  }

  /** Send an entry (or the setup of a new match); keep the answer; say what changed.  The whole step (compare
   *  what is kept, ask the server, keep its answer) holds the score pad's lock across this browser's tabs, so that
   *  two tabs' entries never interleave: the second waits, then finds the first one's entry and shows it instead
   *  of sending its own, which was made on the match as it was before. */
  async send(entry, setup = null) {
    if (this.busy || this.locking) return;
    const seen = this.kept; // the match as this tab showed it when the entry was made
    this.locking = true;
    try {
      await withPadLock(() => this.sendHeld(entry, setup, seen));
    } finally {
      this.locking = false;
    }
  }

  async sendHeld(entry, setup, seen) {
    if (this.destroyed || this.busy) return;
    // another tab's change is shown first (a storage event may have shown it already), never overwritten unseen
    if (this.adoptKept() || this.kept !== seen) return;
    this.busy = true;
    this.root.querySelector(".scorepad")?.setAttribute("aria-busy", "true");
    const before = this.answer;
    try {
      const answer = await api("POST", "/api/scorepad",
        { record: setup ? null : before?.record ?? null, new: setup, entry });
      if (keptScorepad() !== this.kept) { // another tab wrote while this entry was on its way: theirs is kept
        this.busy = false;
        this.adoptKept();
        return;
      }
      this.answer = answer;
      this.keep(answer);
      this.error = null;
      this.elsewhere = false;
      this.afterAnswer(before, answer, entry);
    } catch (error) {
      // the sentence is made at each render, so that it follows a change of language
      this.error = { text: () => scorepadErrorText(error), where: setup ? "setup" : entry?.correct ? "fix" : "entry",
        code: error.code, message: error.message, reason: error.reason ?? null };
      announceUrgent(this.error.text());
      this.focusAfter = null;
    } finally {
      this.busy = false;
      if (!this.destroyed) this.render();
    }
  }

  afterAnswer(before, answer, entry) {
    const names = answer.players;
    if (!entry) { // a new match
      this.draft = null;
      announce(t("scorepad.announceNew", { info: this.dealInfo(answer) }));
      this.focusAfter = "sp-deal-title";
      return;
    }
    if (entry.contract) {
      this.draft = this.freshDraft(answer);
      announce(t("announce.chose", { name: names[answer.chooser], contract: contractName(contractIndex(entry.contract)) }));
      this.focusAfter = `sp-tricks-${activeSeats(answer)[0]}`;
      return;
    }
    if (entry.tricks) {
      this.draft = null;
      const row = answer.rows[answer.rows.length - 1];
      const scores = row.scores.map((s, seat) => (s === null ? null : `${names[seat]} ${signed(s)}`)).filter(Boolean);
      let text = `${t("announce.dealOver", { n: row.deal })} ${t("announce.scores", { list: listOf(scores) })}`;
      if (answer.over) text += ` ${this.winnerText(answer)}`;
      announce(text);
      this.focusAfter = "sp-deal-title";
      return;
    }
    if (entry.correct) {
      this.fixing = null;
      const row = answer.rows.find((r) => r.deal === entry.correct.deal);
      const scores = row.scores.map((s, seat) => (s === null ? null : `${names[seat]} ${signed(s)}`)).filter(Boolean);
      announce(`${t("scorepad.corrected", { n: row.deal })} ${t("announce.scores", { list: listOf(scores) })}`);
      this.focusAfter = answer.over ? "sp-deal-title" : this.focusOfEntry(answer);
      return;
    }
    if (entry.undo) {
      if (before?.pending && !answer.pending) {
        this.draft = null;
        announce(t("scorepad.undoneContract", { n: before.deal_no }));
        // in deal 1 nothing is left to undo, and a disabled Undo takes no focus: the contracts are next anyway
        this.focusAfter = answer.rows?.length ? "sp-undo" : FIRST_CONTRACT;
        return;
      } else {
        // the tricks taken back wait in the fields, to be corrected
        const row = before?.rows?.[before.rows.length - 1];
        this.draft = this.freshDraft(answer, row?.tricks);
        announce(row ? t("scorepad.undoneTricks", { n: row.deal }) : answer.undone || t("scorepad.undo"));
      }
      this.focusAfter = "sp-undo";
    }
  }

  /** Where the entry of the deal in progress starts: its first count, or its first contract still to choose. */
  focusOfEntry(answer) {
    return answer.pending ? `sp-tricks-${activeSeats(answer)[0]}` : FIRST_CONTRACT;
  }

  /** Correct finished deal *n*: its row's contract and tricks, in a panel in place of the entry. */
  openFix(n) {
    const row = this.answer?.rows?.find((r) => r.deal === n);
    if (!row || this.busy) return;
    if (this.fixing?.deal === n) { // its button is pressed: a second press closes the panel
      this.closeFix();
      return;
    }
    const values = {};
    row.tricks.forEach((count, seat) => { if (count !== null) values[seat] = String(count); });
    this.fixing = { deal: n, contract: String(row.contract).toUpperCase(), values, lastTouched: false };
    if (this.error?.where === "fix") this.error = null;
    this.focusAfter = "sp-fix-title";
    this.render();
  }

  closeFix() {
    const n = this.fixing?.deal;
    this.fixing = null;
    if (this.error?.where === "fix") this.error = null;
    this.focusAfter = n ? `sp-fix-${n}` : "sp-deal-title";
    this.render();
  }

  freshDraft(answer, tricks = null) {
    const values = {};
    for (const seat of activeSeats(answer)) values[seat] = tricks && tricks[seat] !== null ? String(tricks[seat]) : "";
    return { deal: answer.deal_no, values, lastTouched: false };
  }

  // -- rendering ------------------------------------------------------------------------------------------

  dealInfo(a) {
    return [t("table.deal", { n: a.deal_no, total: a.n_deals }), t("scorepad.deals", { name: a.players[a.dealer] }),
      t("scorepad.chooses", { name: a.players[a.chooser] })].join(" · ");
  }

  winnerText(a) {
    const winners = a.winners ?? [];
    return t("sheet.winner", { n: winners.length, names: listOf(winners.map((i) => a.players[i])) });
  }

  render() {
    if (this.destroyed) return;
    const active = document.activeElement;
    const focusId = this.focusAfter ?? (active && this.root.contains(active) ? active.id : null);
    const caret = active instanceof HTMLInputElement && active.type === "text" ? [active.selectionStart, active.selectionEnd] : null;
    this.focusAfter = null;
    const pad = h("div", { class: "scorepad", "aria-busy": this.busy ? "true" : null });
    pad.append(h("h1", { class: "sp-title" }, t("scorepad.title")));
    if (this.elsewhere && !this.problem) {
      pad.append(h("p", { class: "message info", id: "sp-elsewhere", role: "status" }, t("scorepad.elsewhere")));
    }
    if (this.problem) this.renderProblem(pad, this.problem);
    else if (this.answer) this.renderMatch(pad, this.answer);
    else if (this.toCheck) pad.append(h("p", { class: "loading", role: "status" }, t("scorepad.checking")));
    else this.renderSetup(pad);
    this.root.replaceChildren(pad);
    const target = focusId === FIRST_CONTRACT ? this.root.querySelector(".sp-contract:not([disabled])")
      : focusId ? document.getElementById(focusId) : null;
    if (target && !target.disabled) {
      target.focus();
      if (caret && target instanceof HTMLInputElement && target.type === "text" && focusId === active?.id) {
        target.setSelectionRange(caret[0], caret[1]);
      }
    }
  }

  errorBox(where, id = "sp-error") {
    if (!this.error || this.error.where !== where) return null;
    return h("p", { class: "message error", id, role: "alert", "data-code": this.error.code }, this.error.text());
  }

  // -- what is kept cannot be used: download it, start again ---------------------------------------------

  renderProblem(pad, problem) {
    const stamp = localDate();
    const save = h("button", { type: "button", class: "btn", id: "sp-problem-download" }, t("scorepad.problemDownload"));
    save.addEventListener("click", () => download(`mizerka-score-kept-${stamp}.json`, problem.raw ?? "",
      "application/json"));
    const fresh = h("button", { type: "button", class: "btn primary", id: "sp-problem-new" }, t("scorepad.problemNew"));
    fresh.addEventListener("click", () => {
      let players = [];
      try {
        const kept = JSON.parse(problem.raw);
        players = Array.isArray(kept?.record?.players) ? kept.record.players.filter((p) => typeof p === "string") : [];
      } catch { /* the names are typed again */ }
      forgetScorepad();
      this.kept = null;
      this.problem = null;
      this.toCheck = null; // an older page's record still to be checked would keep "Loading the kept match…" up
      this.elsewhere = false;
      // by code points, as the server counts a name: slicing UTF-16 units could halve an emoji
      this.setup.names = players.map((p) => Array.from(p).slice(0, 40).join(""));
      this.focusAfter = "sp-name-0";
      this.render();
    });
    const buttons = h("div", { class: "sp-buttons" }, save, fresh);
    if (problem.retry) {
      const retry = h("button", { type: "button", class: "btn", id: "sp-problem-retry" }, t("scorepad.retry"));
      retry.addEventListener("click", () => {
        this.problem = null;
        this.toCheck = readKept(this.kept).record ?? null;
        this.render();
        this.check();
      });
      buttons.prepend(retry);
    }
    pad.append(h("section", { class: "panel sp-problem", id: "sp-problem", "aria-labelledby": "sp-problem-title" },
      h("h2", { id: "sp-problem-title", tabindex: "-1" }, t("scorepad.problemTitle")),
      h("p", { class: "message error", role: "alert" }, problem.text()),
      h("p", { class: "muted" }, t("scorepad.problemHelp")),
      buttons));
  }

  // -- the setup: names, who deals first, the rules -----------------------------------------------------

  renderSetup(pad) {
    const s = this.setup;
    const n = seatsOf(s.variant);
    const variants = this.variants ?? [s.variant];
    const variant = h("select", { id: "sp-variant" });
    for (const v of variants) variant.append(h("option", { value: v, selected: v === s.variant }, variantName(v)));
    variant.addEventListener("change", () => {
      s.variant = variant.value;
      this.render();
    });

    const nameOf = (i) => (s.names[i] || "").trim() || t("scorepad.player", { n: i + 1 });
    const dealer = h("select", { id: "sp-dealer" });
    const fillDealer = () => {
      dealer.replaceChildren();
      for (let i = 0; i < n; i += 1) dealer.append(h("option", { value: i, selected: i === s.firstDealer }, nameOf(i)));
    };
    fillDealer();
    dealer.addEventListener("change", () => { s.firstDealer = Number(dealer.value); });
    if (s.firstDealer >= n) s.firstDealer = 0;

    const error = this.errorBox("setup", "sp-setup-error");
    const fields = h("fieldset", { class: "sp-names" }, h("legend", {}, t("scorepad.players")));
    for (let i = 0; i < n; i += 1) {
      const id = `sp-name-${i}`;
      const input = h("input", { id, type: "text", maxlength: 40, autocomplete: "off", autocapitalize: "words",
        value: s.names[i] ?? "", "aria-describedby": error ? "sp-setup-error" : null,
        "aria-invalid": error && this.error.field === i ? "true" : null });
      input.addEventListener("input", () => {
        s.names[i] = input.value;
        fillDealer();
      });
      fields.append(h("div", { class: "form-row" }, h("label", { for: id }, t("scorepad.player", { n: i + 1 })), input));
    }
    if (error) fields.append(error);

    const startButton = h("button", { type: "submit", id: "sp-start", class: "btn primary big" }, t("scorepad.start"));
    const form = h("form", { class: "panel sp-setup", "aria-labelledby": "sp-setup-title", novalidate: true },
      h("h2", { id: "sp-setup-title" }, t("scorepad.setup")),
      h("p", { class: "muted" }, t("scorepad.help")),
      h("div", { class: "form-row" }, h("label", { for: "sp-variant" }, t("lobby.variant")), variant),
      fields,
      h("div", { class: "form-row" }, h("label", { for: "sp-dealer" }, t("scorepad.firstDealer")), dealer),
      startButton);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const players = Array.from({ length: n }, (_, i) => (s.names[i] || "").trim());
      await this.send(null, { players, first_dealer: s.firstDealer, variant: s.variant });
      if (this.error?.where === "setup") {
        // the field the server names: its reason's player (a reason without one names no name: the first dealer,
        // the rules), else, from a server that gives no reason, "player 3's name: …" in its message, else a name
        // quoted in the message
        const reason = this.error.reason;
        const message = String(this.error.message || "").toLowerCase();
        const numbered = /^player (\d+)'s name/.exec(message);
        const player = reasonPlayer(reason) ?? (numbered ? Number(numbered[1]) : null);
        const field = player !== null ? player - 1 : reason?.code ? -1
          : players.findIndex((name) => name && message.includes(name.toLowerCase()));
        const empty = players.findIndex((name) => !name);
        this.error.field = field >= 0 && field < n ? field
          : !reason?.code && message.includes("empty") && empty >= 0 ? empty : null;
        const dealer = reason?.code === "no_seat" || reason?.code === "dealer_fixed";
        this.focusAfter = this.error.field !== null ? `sp-name-${this.error.field}` : dealer ? "sp-dealer" : "sp-name-0";
        this.render();
      }
    });
    pad.append(form);
  }

  // -- a match ------------------------------------------------------------------------------------------

  renderMatch(pad, a) {
    pad.append(this.renderTotals(a));
    const fixRow = this.fixing ? a.rows.find((r) => r.deal === this.fixing.deal) : null;
    if (!fixRow) this.fixing = null;
    const entry = fixRow ? this.renderFix(a, fixRow)
      : h("section", { class: "panel sp-entry", "aria-labelledby": "sp-deal-title" });
    if (fixRow) {
      // the deal in progress waits as it was (its counts typed so far are kept in the draft)
    } else if (a.over) {
      entry.append(h("h2", { id: "sp-deal-title", tabindex: "-1" }, t("scorepad.over")),
        h("p", { class: "winner-banner sp-winner" }, this.winnerText(a)),
        h("p", { class: "muted" }, t("scorepad.overHelp")));
    } else {
      entry.append(h("h2", { id: "sp-deal-title", class: "sp-deal-info", tabindex: "-1" }, this.dealInfo(a)));
      if (a.pending) this.renderTricks(entry, a);
      else this.renderContracts(entry, a);
    }
    if (!fixRow) {
      const error = this.errorBox("entry");
      if (error) entry.append(error);
      const undo = h("button", { type: "button", id: "sp-undo", class: "btn",
        disabled: !(a.rows.length || a.pending) }, "↶ ", t("scorepad.undo"));
      onSingleClick(undo, () => this.send({ undo: true }));
      entry.append(h("div", { class: "sp-actions" }, undo));
    }
    pad.append(entry);

    const sheet = h("section", { class: "panel sp-sheet", "aria-labelledby": "sp-sheet-title" },
      h("h2", { id: "sp-sheet-title" }, t("sheet.title")),
      renderScoreSheet(this.sheetView(a), a.over ? a.winners : null, { showTricks: true, contracts: a.contracts,
        onEdit: { label: t("scorepad.fix"), aria: (n) => t("scorepad.fixDeal", { n }), id: (n) => `sp-fix-${n}`,
          open: (n) => this.openFix(n), current: this.fixing?.deal ?? null } }));
    pad.append(sheet);
    pad.append(this.renderExport(a));
  }

  /** The answer in the shape of the table's View, for sheet.js. */
  sheetView(a) {
    return {
      players: a.players.map((name) => ({ name })),
      status: a.over ? "finished" : "playing",
      phase: a.over ? "over" : "play",
      seat: null,
      totals: a.totals,
      used: a.used,
      score_sheet: a.rows.map((r) => ({ deal_no: r.deal, contract: r.contract, goal: r.goal, chooser: r.chooser,
        tricks: r.tricks, scores: r.scores, totals: r.totals })),
    };
  }

  renderTotals(a) {
    const list = h("ul", { class: "sp-totals-list" });
    const winners = new Set(a.over ? a.winners ?? [] : []);
    a.players.forEach((name, seat) => {
      list.append(h("li", { class: winners.has(seat) ? "winner" : "", "data-seat": seat },
        h("span", { class: "sp-total-name" }, name), " ",
        h("span", { class: `sp-total-value ${a.totals[seat] > 0 ? "plus" : a.totals[seat] < 0 ? "minus" : ""}` },
          signed(a.totals[seat]))));
    });
    return h("section", { class: "sp-totals", "aria-label": t("sheet.totals") }, list);
  }

  renderContracts(entry, a) {
    const group = h("div", { class: "sp-contracts", role: "group", "aria-labelledby": "sp-contract-title" });
    const allowed = new Set(a.allowed.map((c) => String(c).toUpperCase()));
    for (const code of a.contracts) {
      const upper = String(code).toUpperCase();
      const ok = allowed.has(upper);
      const avoid = upper === "MZ";
      const button = h("button", { type: "button", class: `btn sp-contract ${avoid ? "avoid" : "take"}`,
        id: `sp-contract-${upper}`, "data-contract": upper, disabled: !ok },
        contractLabel(upper), h("span", { class: "goal" }, t(avoid ? "table.avoid" : "table.take")),
        ok ? null : h("span", { class: "visually-hidden" }, ` (${t("scorepad.used")})`));
      onSingleClick(button, () => this.send({ contract: upper }));
      group.append(button);
    }
    entry.append(h("h3", { id: "sp-contract-title" }, t("scorepad.contract", { name: a.players[a.chooser] })), group);
  }

  renderTricks(entry, a) {
    if (!this.draft || this.draft.deal !== a.deal_no) this.draft = this.freshDraft(a);
    const draft = this.draft;
    const seats = activeSeats(a);
    const upper = String(a.pending).toUpperCase();
    const avoid = upper === "MZ";

    const change = h("button", { type: "button", id: "sp-change", class: "btn small" }, t("scorepad.change"));
    onSingleClick(change, () => this.send({ undo: true }));
    entry.append(h("p", { class: `sp-chosen ${avoid ? "avoid" : "take"}` },
      h("span", {}, t("scorepad.chosen")), " ", contractLabel(upper), " ",
      h("span", { class: `goal ${avoid ? "avoid" : "take"}` }, t(avoid ? "table.avoid" : "table.take")), " ", change));

    const form = h("form", { class: "sp-tricks", "aria-labelledby": "sp-tricks-title", novalidate: true });
    form.append(h("h3", { id: "sp-tricks-title" }, t("scorepad.tricks", { n: a.deal_no })));
    this.countFields(form, a, draft, seats, "sp");
    const save = h("button", { type: "submit", id: "sp-save", class: "btn primary big" }, t("scorepad.save"));
    onSingleClick(save, () => {}); // the second click of a double click submits nothing
    form.append(save);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const tricks = this.readCounts(a, draft, seats, "sp", "entry");
      if (tricks) this.send({ tricks });
    });
    entry.append(form);
  }

  /** The count fields of a deal's tricks into *form*: for each seat in play in *seats* a field between − and +,
   *  the last seat's count worked out from the others until it is typed in, and the sum.  *p* starts the ids
   *  ("sp" for the deal in progress, "sp-fix" for a correction), *draft* holds what is typed. */
  countFields(form, a, draft, seats, p) {
    const last = seats[seats.length - 1];
    const out = a.players.map((_, seat) => seat).filter((seat) => !seats.includes(seat));
    for (const seat of out) form.append(h("p", { class: "muted sp-out" }, t("scorepad.sitsOut", { name: a.players[seat] })));
    const inputs = {};
    const tricksOfDeal = a.n_tricks ?? TRICKS; // 17 in seed002-literal, whose players draw from a stock
    const sum = h("p", { class: "sp-sum", id: `${p}-sum`, "aria-live": "off" });
    const update = () => {
      if (!draft.lastTouched) {
        const others = seats.filter((seat) => seat !== last).map((seat) => count(draft.values[seat]));
        const rest = others.every((v) => v !== null) ? tricksOfDeal - others.reduce((x, y) => x + y, 0) : null;
        draft.values[last] = rest !== null && rest >= 0 ? String(rest) : "";
        if (inputs[last]) inputs[last].value = draft.values[last];
      }
      const total = seats.reduce((x, seat) => x + (count(draft.values[seat]) ?? 0), 0);
      sum.textContent = t("scorepad.sum", { n: total, total: tricksOfDeal });
      // marked once every count is in (the server has the last word: it checks the entry)
      sum.classList.toggle("wrong", total !== tricksOfDeal && seats.every((seat) => count(draft.values[seat]) !== null));
    };
    for (const seat of seats) {
      const name = a.players[seat];
      const id = `${p}-tricks-${seat}`;
      const input = h("input", { id, type: "number", inputmode: "numeric", min: 0, max: tricksOfDeal, step: 1,
        value: draft.values[seat] ?? "", "aria-label": t("scorepad.tricksOf", { name }), "data-seat": seat,
        "aria-describedby": seat === last ? `${p}-sum ${p}-last-help` : `${p}-sum`, class: "sp-count" });
      inputs[seat] = input;
      const set = (text) => {
        draft.values[seat] = text;
        // emptied while it is typed in, the last count stays the player's (refilled at once, backspace did
        // nothing and a 3 typed over the 1 made 13); it is worked out again once the field is left empty
        if (seat === last) draft.lastTouched = String(text).trim() !== "" || document.activeElement === input;
        update();
      };
      input.addEventListener("input", () => set(input.value));
      if (seat === last) {
        input.addEventListener("blur", () => {
          if (String(input.value).trim() === "" && draft.lastTouched) {
            draft.lastTouched = false;
            update();
          }
        });
      }
      const step = (delta) => {
        const now = count(input.value) ?? (delta > 0 ? 0 : 1);
        input.value = String(Math.max(0, Math.min(tricksOfDeal, now + delta)));
        set(input.value);
        // a screen reader said nothing on − and +: the field changed away from its focus, the sum is not live
        announce(`${name}: ${input.value}. ${sum.textContent}`);
      };
      const less = h("button", { type: "button", class: "btn sp-step", id: `${p}-less-${seat}`,
        "aria-label": t("scorepad.less", { name }) }, "−");
      const more = h("button", { type: "button", class: "btn sp-step", id: `${p}-more-${seat}`,
        "aria-label": t("scorepad.more", { name }) }, "+");
      less.addEventListener("click", () => step(-1));
      more.addEventListener("click", () => step(1));
      form.append(h("div", { class: "sp-trick-row" }, h("label", { for: id, class: "sp-name" }, name), less, input, more));
    }
    form.append(h("p", { class: "muted sp-last-help", id: `${p}-last-help` },
      t("scorepad.lastHelp", { name: a.players[last], total: tricksOfDeal })));
    form.append(sum);
    update();
  }

  /** The counts of *draft* by seat (null for a seat sitting out), or null after saying, in the page's language,
   *  which count is missing or too high (the server's reason would be English). */
  readCounts(a, draft, seats, p, where) {
    const tricksOfDeal = a.n_tricks ?? TRICKS;
    const tricks = a.players.map(() => null);
    for (const seat of seats) {
      const value = count(draft.values[seat]);
      if (value === null || value > tricksOfDeal) {
        const name = a.players[seat];
        const text = value === null ? () => t("scorepad.missing", { name })
          : () => t("scorepad.tooMany", { name, total: tricksOfDeal });
        this.error = { text, where, code: value === null ? "missing" : "too_many" };
        announceUrgent(this.error.text());
        this.focusAfter = `${p}-tricks-${seat}`;
        this.render();
        return null;
      }
      tricks[seat] = value;
    }
    return tricks;
  }

  /** The panel that corrects finished deal *row* (in place of the entry): its contract among those its chooser may
   *  have, its tricks; the later deals stay as they are. */
  renderFix(a, row) {
    const fix = this.fixing;
    const panel = h("section", { class: "panel sp-entry sp-fix", "aria-labelledby": "sp-fix-title" });
    panel.append(h("h2", { id: "sp-fix-title", tabindex: "-1" }, t("scorepad.fixDeal", { n: row.deal })),
      h("p", { class: "muted" }, t("scorepad.fixHelp", { name: a.players[row.chooser] })));
    const group = h("div", { class: "sp-contracts", role: "group", "aria-labelledby": "sp-fix-contract-title" });
    const choices = new Set((row.contract_choices ?? a.contracts).map((c) => String(c).toUpperCase()));
    for (const code of a.contracts) {
      const upper = String(code).toUpperCase();
      const avoid = upper === "MZ";
      const ok = choices.has(upper);
      const button = h("button", { type: "button", class: `btn sp-contract ${avoid ? "avoid" : "take"}`,
        id: `sp-fix-contract-${upper}`, "data-contract": upper, disabled: !ok,
        "aria-pressed": upper === fix.contract ? "true" : "false" },
        contractLabel(upper), h("span", { class: "goal" }, t(avoid ? "table.avoid" : "table.take")),
        ok ? null : h("span", { class: "visually-hidden" }, ` (${t("scorepad.used")})`));
      button.addEventListener("click", () => {
        fix.contract = upper;
        this.focusAfter = button.id;
        this.render();
      });
      group.append(button);
    }
    panel.append(h("h3", { id: "sp-fix-contract-title" }, t("scorepad.contract", { name: a.players[row.chooser] })),
      group);
    const seats = row.tricks.map((n, seat) => (n === null ? null : seat)).filter((seat) => seat !== null);
    const form = h("form", { class: "sp-tricks", "aria-labelledby": "sp-fix-tricks-title", novalidate: true });
    form.append(h("h3", { id: "sp-fix-tricks-title" }, t("scorepad.tricks", { n: row.deal })));
    this.countFields(form, a, fix, seats, "sp-fix");
    const save = h("button", { type: "submit", id: "sp-fix-save", class: "btn primary big" }, t("scorepad.fixSave"));
    onSingleClick(save, () => {});
    const cancel = h("button", { type: "button", id: "sp-fix-cancel", class: "btn" }, t("common.cancel"));
    cancel.addEventListener("click", () => this.closeFix());
    form.append(h("div", { class: "sp-buttons" }, save, cancel));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const tricks = this.readCounts(a, fix, seats, "sp-fix", "fix");
      if (tricks) this.send({ correct: { deal: row.deal, contract: fix.contract, tricks } });
    });
    panel.append(form);
    const error = this.errorBox("fix");
    if (error) panel.append(error);
    panel.addEventListener("keydown", (event) => {
      if (event.key === "Escape") {
        event.preventDefault();
        this.closeFix();
      }
    });
    return panel;
  }

  renderExport(a) {
    const stamp = localDate();
    const base = `mizerka-score-${stamp}`;
    const text = h("button", { type: "button", class: "btn", id: "sp-download-text" }, t("scorepad.downloadText"));
    text.addEventListener("click", () => download(`${base}.mzn`, a.text, "text/plain;charset=utf-8"));
    const json = h("button", { type: "button", class: "btn", id: "sp-download-json" }, t("scorepad.downloadJson"));
    json.addEventListener("click", () => download(`${base}.json`, `${JSON.stringify(a.record, null, 1)}\n`,
      "application/json"));
    const csv = h("button", { type: "button", class: "btn", id: "sp-download-csv" }, t("scorepad.downloadCsv"));
    // with a byte-order mark: Excel reads a CSV without one in the system's code page, and "Michał" came out garbled
    csv.addEventListener("click", () => download(`${base}.csv`, `\ufeff${a.csv}`, "text/csv;charset=utf-8"));
    const fresh = h("button", { type: "button", class: "btn", id: "sp-new" }, t("scorepad.new"));
    fresh.addEventListener("click", () => this.askNewMatch(fresh));
    return h("section", { class: "panel sp-export", "aria-labelledby": "sp-export-title" },
      h("h2", { id: "sp-export-title" }, t("scorepad.export")),
      this.notKept ? h("p", { class: "message error", id: "sp-not-kept", role: "alert" }, t("scorepad.notKept"))
        : h("p", { class: "muted" }, t("scorepad.kept")),
      h("div", { class: "sp-buttons" }, text, json, csv),
      h("div", { class: "sp-buttons" }, fresh));
  }

  /** "New match", after a confirmation (the match is forgotten on this device). */
  askNewMatch(opener) {
    if (this.confirm) return;
    this.confirm = confirmDialog({ name: "sp-new", title: t("scorepad.new"), text: t("scorepad.newConfirm"),
      yes: t("scorepad.newYes"), opener, onClose: () => { this.confirm = null; }, onYes: () => {
        const old = this.answer;
        forgetScorepad();
        this.kept = null;
        this.elsewhere = false;
        this.answer = null;
        this.draft = null;
        this.fixing = null;
        this.error = null;
        this.setup = { variant: old?.variant ?? this.setup.variant, names: [...(old?.players ?? [])], firstDealer: 0 };
        this.focusAfter = "sp-name-0";
        this.render();
        this.start();
      } });
  }
}
