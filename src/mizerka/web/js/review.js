// The review of a finished deal, like a chess site's analysis board: every seat's hand at the start of play, the
// exchanges, and every card played, judged by the server's exact double-dummy solver
// (`GET /api/tables/{id}/deals/{n}/review`).
//
// The server answers only for a deal the table's record shows in full (after the match, or after each deal at a
// table with the `reveal` option); the page never asks for the deal in progress.  Everything drawn here comes
// from that answer: nothing is worked out or guessed on the client.
//
// Keys inside the dialog: ← → card by card, Page Up / Page Down trick by trick, Home the start of play, End the
// last card; Escape closes.

import { announce } from "./announce.js";
import { cardElement, cardCode, parseCard, sortHand, suitOf, rankOf, isRed } from "./cards.js";
import { cardName, contractName, lang, rankIndex, refusalReason, signed, suitName, t } from "./i18n.js";
import { ApiError, apiResponse } from "./net.js";
import { contractIndex, h } from "./sheet.js";

const TRUMP_INDEX = { C: 0, D: 1, H: 2, S: 3 };
const SUIT_SYMBOLS = "♣♦♥♠";
const ANALYSIS_KEYS = { off: "review.analysis.off", timeout: "review.analysis.timeout", busy: "review.analysis.busy",
  error: "review.analysis.error" };

export function reviewUrl(table, deal) {
  return `/api/tables/${encodeURIComponent(table)}/deals/${encodeURIComponent(deal)}/review`;
}

/** "Ace of hearts or King of hearts" (the language's own "or"). */
function listOr(items) {
  try {
    return new Intl.ListFormat(lang(), { type: "disjunction" }).format(items);
  } catch {
    return items.join(", ");
  }
}

const nameOfCard = (code) => cardName(parseCard(code));

/** A navigator button's picture (decorative: the button is named by its label). */
function icon(path) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("class", "rv-icon");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const shape = document.createElementNS(ns, "path");
  shape.setAttribute("d", path);
  svg.append(shape);
  return svg;
}

/** Every card played, in order, with its place: {trick, index, seat, card, value, best, best_cards, cost, choices}. */
function flatten(tricks) {
  const steps = [];
  tricks.forEach((trick, ti) => {
    trick.cards.forEach((entry, ci) => steps.push({ ...entry, trick: ti, index: ci }));
  });
  return steps;
}

function judged(step) {
  return step.cost !== null && step.cost !== undefined && step.value !== null && step.value !== undefined;
}

/**
 * One review dialog (`.dialog`): shown at once by its owner (saying "Analysing the deal…"), then `load()` fills it
 * when the answer comes; a refusal is shown in it, in the page's language.
 *
 * The answer is the table's (`GET reviewUrl(tableId, dealNo)`, with the seat's *token*), unless *load* gives it:
 * `load(signal)` resolves to the same answer from elsewhere (a game record's deal: `POST /api/records/review`,
 * records.js), or rejects with an ApiError; *signal* aborts when the dialog closes.  *reasonOf(error)*, when given,
 * words a refusal first (null: as any refusal), say a record's `unknown_deal`, which is no table's.
 *
 * @param {{tableId: string, dealNo: number, token: string|null, viewSeat: number|null,
 *   nameOf: (seat: number, players: string[]) => string, cache: object,
 *   load?: (signal: AbortSignal) => Promise<object>, reasonOf?: (error: ApiError) => string|null}} options
 */
export class ReviewDialog {
  constructor({ tableId, dealNo, token, viewSeat, nameOf, cache, load = null, reasonOf = null }) {
    this.tableId = tableId;
    this.loader = load;
    this.reasonOf = reasonOf;
    this.dealNo = dealNo;
    this.token = token;
    this.viewSeat = viewSeat;
    this.nameOfSeat = nameOf;
    this.cache = cache ?? {};
    this.data = null;
    this.pos = 0;
    this.abort = new AbortController();
    this.dialog = h("dialog", { "aria-labelledby": "review-title", "data-deal": String(dealNo), "data-state": "loading" });
    this.dialog.addEventListener("close", () => this.abort.abort());
    this.dialog.addEventListener("keydown", (event) => this.onKey(event));
    this.title = h("h2", { id: "review-title", tabindex: "-1" }, t("review.titleShort", { n: dealNo }));
    const close = h("button", { type: "button", class: "btn close-review", "aria-label": t("common.close") }, "×");
    close.addEventListener("click", () => this.dialog.close());
    this.status = h("p", { class: "rv-status", role: "status" }, t("review.loading"));
    this.body = h("div", { class: "rv-body" });
    const done = h("button", { type: "button", class: "btn rv-done" }, t("common.close"));
    done.addEventListener("click", () => this.dialog.close());
    this.dialog.append(h("div", { class: "rv-head" }, this.title, close), this.status, this.body,
      h("div", { class: "dialog-foot" }, done));
  }

  /** Show the answer (or the refusal) once the server gives it.  The dialog must be open already. */
  async load() {
    this.title.focus();
    let data = this.cache[this.dealNo];
    if (!data) {
      try {
        if (this.loader) {
          data = await this.loader(this.abort.signal);
        } else {
          const headers = this.token ? { Authorization: `Bearer ${this.token}` } : {};
          ({ data } = await apiResponse("GET", reviewUrl(this.tableId, this.dealNo), undefined,
            { headers, signal: this.abort.signal, timeout: 0 })); // the server's review_limit bounds it; closing aborts
        }
      } catch (error) {
        if (this.abort.signal.aborted) return;
        this.showRefusal(error);
        return;
      }
      if (this.abort.signal.aborted) return;
      // a complete analysis never changes: keep it for this page's life
      if (data && data.analysis === "ok") this.cache[this.dealNo] = data;
    }
    try {
      this.show(data);
    } catch (error) { // an answer this page cannot read: say so in the dialog, never break the table
      delete this.cache[this.dealNo];
      this.data = null; // so the dialog's keys do nothing (they read the answer's tricks)
      this.steps = [];
      this.body.replaceChildren();
      this.showRefusal(new ApiError(0, "internal", String(error)));
    }
  }

  showRefusal(error) {
    const code = error instanceof ApiError ? error.code : "network";
    const reason = code === "network" ? t("error.network") : this.reasonOf?.(error)
      ?? refusalReason(code, { seconds: error.retryAfter }) ?? (error.message || code);
    this.dialog.dataset.state = "refused";
    this.dialog.dataset.code = code;
    this.title.textContent = t("review.titleShort", { n: this.dealNo });
    this.status.className = "rv-status message error";
    this.status.setAttribute("role", "alert");
    this.status.textContent = code === "network" ? reason : t("error.refused", { reason });
    this.dialog.querySelector(".rv-done")?.focus();
  }

  nameOf(seat) {
    return this.nameOfSeat ? this.nameOfSeat(seat, this.data.players) : (this.data.players[seat] || `#${seat + 1}`);
  }

  // -- the answer --------------------------------------------------------------------------------

  show(data) {
    this.data = data;
    this.avoid = data.contract?.goal === "avoid";
    this.trump = data.contract?.trump ? TRUMP_INDEX[data.contract.trump] : null;
    this.steps = flatten(data.tricks || []);
    this.dialog.dataset.state = "ready";
    this.dialog.dataset.analysis = data.analysis;
    this.dialog.classList.toggle("avoid", this.avoid);

    const code = data.contract.code;
    this.title.replaceChildren(t("summary.title", { n: data.deal, contract: contractName(contractIndex(code)) }), " ",
      h("span", { class: `goal ${this.avoid ? "avoid" : "take"}` }, t(this.avoid ? "table.avoid" : "table.take")));
    // a suit contract says its trumps (no trumps and Mizerka say it in their name)
    const trumps = this.trump === null ? null : t("table.trumps", { suit: suitName(this.trump) });

    // Why some cards carry no verdict (the play is shown all the same).
    const notes = [];
    if (data.analysis !== "ok") notes.push(t(ANALYSIS_KEYS[data.analysis] ?? "review.analysis.error"));
    if ((data.unjudged_tricks || []).length && data.analysis === "ok") {
      notes.push(t("review.unjudgedTricks", { list: data.unjudged_tricks.join(", ") }));
    }
    this.status.className = `rv-status${data.analysis === "ok" ? "" : " message info"}`;
    this.status.textContent = [trumps ? `${trumps}.` : null, ...notes].filter(Boolean).join(" ");

    // The navigator (focus starts on it), the small table with the current trick and the verdict.
    this.nav = this.navigator();
    this.trickBox = h("div", { class: "rv-trick", role: "img" });
    this.trickLabel = h("p", { class: "rv-trick-label" });
    this.verdict = h("div", { class: "rv-verdict" });
    const board = h("section", { class: "rv-board", "aria-label": t("review.board") },
      h("div", { class: "rv-felt" }, this.trickLabel, this.trickBox), this.verdict);
    this.hands = h("section", { class: "rv-hands", "aria-label": t("review.hands") });
    this.moves = this.moveList();
    this.body.replaceChildren(this.nav.root, board,
      h("h3", { class: "rv-sub" }, t("review.hands")), this.hands,
      h("h3", { class: "rv-sub", id: "rv-moves-title" }, t("review.moves")),
      h("p", { class: "rv-help" }, t("review.movesHelp")), this.moves.root,
      h("h3", { class: "rv-sub" }, t("review.byPlayer")), this.summaryTable(),
      ...[this.exchangeList()].filter(Boolean)); // none without an exchange (the DOM would write a null as "null")
    this.go(0, { say: false, focus: false });
    this.nav.next.focus();
    announce(`${this.title.textContent}. ${t("review.keys")}`);
  }

  navigator() {
    const button = (cls, label, text, keys, to) => {
      const b = h("button", { type: "button", class: `btn rv-nav-btn ${cls}`, "aria-label": label, title: label,
        "aria-keyshortcuts": keys }, text);
      b.addEventListener("click", () => {
        if (b.getAttribute("aria-disabled") === "true") return;
        this.go(to());
      });
      return b;
    };
    const first = button("rv-first", t("review.first"), icon("M3 2h2v12H3zM14 2v12L6 8z"), "Home", () => 0);
    const prev = button("rv-prev", t("review.prev"), icon("M12 2v12L4 8z"), "ArrowLeft", () => this.pos - 1);
    const next = button("rv-next", t("review.next"), icon("M4 2v12l8-6z"), "ArrowRight", () => this.pos + 1);
    const last = button("rv-last", t("review.last"), icon("M11 2h2v12h-2zM2 2v12l8-6z"), "End", () => this.steps.length);
    const where = h("span", { class: "rv-where" });
    const root = h("div", { class: "rv-nav", role: "group", "aria-label": t("review.navigator") },
      first, prev, where, next, last);
    return { root, first, prev, next, last, where };
  }

  /** Every card of the deal, trick by trick, errors marked; one tab stop (the current card), arrows move. */
  moveList() {
    const root = h("ol", { class: "rv-moves", "aria-labelledby": "rv-moves-title" });
    const buttons = [];
    (this.data.tricks || []).forEach((trick) => {
      const row = h("li", { class: "rv-move-trick" }, h("span", { class: "rv-move-no", "aria-hidden": "true" }, String(trick.no)));
      trick.cards.forEach((entry) => {
        const k = buttons.length + 1; // the position after this card
        const step = this.steps[k - 1];
        const card = parseCard(entry.card);
        const error = judged(step) && step.cost > 0;
        const label = `${t("review.trickNo", { n: trick.no })}, ${this.nameOf(entry.seat)}: ${cardName(card)}. ` +
          this.verdictOf(step).text;
        const b = h("button", { type: "button", class: `rv-move${error ? " error" : ""}${judged(step) ? "" : " unjudged"}`,
          tabindex: "-1", "data-step": String(k), "data-card": cardCode(card), "aria-label": label },
        h("span", { class: `rv-move-card ${isRed(suitOf(card)) ? "red" : "black"}` },
          `${rankIndex(rankOf(card))}${SUIT_SYMBOLS[suitOf(card)]}`),
        error ? h("span", { class: "rv-move-cost", "aria-hidden": "true" }, this.costShort(step.cost)) : null);
        b.addEventListener("click", () => this.go(k));
        buttons.push(b);
        row.append(b);
      });
      root.append(row);
    });
    return { root, buttons };
  }

  summaryTable() {
    const table = h("table", { class: "rv-summary" });
    table.append(h("thead", {}, h("tr", {},
      h("th", { scope: "col" }, t("sheet.player")),
      h("th", { scope: "col" }, t("summary.tricks")),
      h("th", { scope: "col" }, t("summary.score")),
      h("th", { scope: "col", title: t("review.choicesHelp") }, t("review.choices")),
      h("th", { scope: "col" }, t("review.errors")),
      h("th", { scope: "col" }, t(this.avoid ? "review.extraCol" : "review.lostCol")))));
    const body = h("tbody");
    for (const seat of this.data.seats) {
      const mine = this.steps.filter((s) => s.seat === seat);
      const withChoice = mine.filter((s) => judged(s) && s.choices > 1);
      const errors = mine.filter((s) => judged(s) && s.cost > 0);
      const lost = errors.reduce((sum, s) => sum + s.cost, 0);
      const score = this.data.scores?.[seat];
      const won = this.data.tricks_won?.[seat];
      body.append(h("tr", { "data-seat": String(seat) },
        h("th", { scope: "row" }, this.nameOf(seat)),
        h("td", { class: "num" }, won === null || won === undefined ? "" : String(won)),
        h("td", { class: `num ${score > 0 ? "plus" : score < 0 ? "minus" : ""}` },
          score === null || score === undefined ? "" : signed(score)),
        h("td", { class: "num rv-choices" }, String(withChoice.length)),
        h("td", { class: `num rv-errors${errors.length ? " minus" : ""}` }, String(errors.length)),
        h("td", { class: "num rv-lost" }, String(lost))));
    }
    table.append(body);
    return table;
  }

  exchangeList() {
    const exchanges = this.data.exchanges || [];
    if (!exchanges.length) return null;
    const list = h("ul", { class: "rv-exchanges" });
    for (const ex of exchanges) {
      const item = h("li", {}, h("strong", {}, `${this.nameOf(ex.seat)}: `));
      if (!ex.discarded.length) {
        item.append(t("review.kept"));
      } else {
        item.append(
          h("span", { class: "rv-ex-line" }, `${t("review.discarded", { n: ex.discarded.length })} `,
            ex.discarded.map(nameOfCard).join(", ")),
          h("span", { class: "rv-ex-line" }, `${t("review.drawn", { n: ex.drawn.length })} `,
            ex.drawn.map(nameOfCard).join(", ")));
      }
      list.append(item);
    }
    return h("div", { class: "rv-exchange-box" }, h("h3", { class: "rv-sub" }, t("review.exchanges")), list);
  }

  // -- stepping ----------------------------------------------------------------------------------

  costShort(cost) {
    return this.avoid ? `+${cost}` : `\u2212${cost}`;
  }

  /** The verdict on one card: {kind: best|forced|error|none, text}. */
  verdictOf(step) {
    if (!judged(step)) return { kind: "none", text: t("review.unjudged") };
    if (step.cost > 0) {
      return { kind: "error", text: t(this.avoid ? "review.taken" : "review.lost", { n: step.cost }) };
    }
    if (step.choices <= 1) return { kind: "forced", text: t("review.forced") };
    return { kind: "best", text: t("review.best") };
  }

  /** Go to position *k*: 0 is the start of play, k the moment after the k-th card. */
  go(k, { say = true, focus = true } = {}) {
    const total = this.steps.length;
    const pos = Math.max(0, Math.min(total, k));
    const inMoves = this.moves.root.contains(document.activeElement);
    this.pos = pos;
    this.dialog.dataset.pos = String(pos);
    const step = pos ? this.steps[pos - 1] : null;

    // the navigator: its ends say so (aria-disabled keeps the focus on a button that can go no further)
    const atStart = pos === 0;
    const atEnd = pos === total;
    for (const [b, off] of [[this.nav.first, atStart], [this.nav.prev, atStart], [this.nav.next, atEnd], [this.nav.last, atEnd]]) {
      b.setAttribute("aria-disabled", String(off));
    }
    this.nav.where.textContent = step
      ? `${t("review.trickNo", { n: this.data.tricks[step.trick].no })} · ${t("review.step", { n: pos, total })}`
      : t("review.start");

    this.drawTrick(step);
    this.drawVerdict(step);
    this.drawHands(pos);
    this.moves.buttons.forEach((b, i) => {
      const current = i === pos - 1;
      b.classList.toggle("current", current);
      if (current) b.setAttribute("aria-current", "step");
      else b.removeAttribute("aria-current");
      b.tabIndex = current || (pos === 0 && i === 0) ? 0 : -1;
    });
    const currentMove = this.moves.buttons[Math.max(0, pos - 1)];
    // the focus follows the current card in the list of cards (when it was there); else nothing scrolls
    if (focus && inMoves && currentMove) currentMove.focus();
    if (say) announce(this.stepText(step));
  }

  stepText(step) {
    if (!step) return t("review.start");
    const trick = this.data.tricks[step.trick];
    let text = `${t("review.trickNo", { n: trick.no })}, ${t("review.step", { n: this.pos, total: this.steps.length })}. ` +
      `${this.nameOf(step.seat)}: ${nameOfCard(step.card)}. ${this.verdictOf(step).text}.`;
    if (judged(step) && step.cost > 0 && step.best_cards?.length) {
      text += ` ${t("review.bestCards", { cards: listOr(step.best_cards.map(nameOfCard)) })}.`;
    }
    if (step.index === trick.cards.length - 1) text += ` ${t("review.winner", { name: this.nameOf(trick.winner) })}.`;
    return text;
  }

  /** The seats around the small table: the viewer's (or the first) at the bottom, the others clockwise. */
  places() {
    const seats = this.data.seats;
    const n = this.data.players.length;
    const base = seats.includes(this.viewSeat) ? this.viewSeat : seats[0];
    const others = seats.filter((s) => s !== base).sort((a, b) => ((a - base + n) % n) - ((b - base + n) % n));
    const out = { [base]: "bottom" };
    const spots = others.length === 2 ? ["left", "right"] : ["left", "top", "right"];
    others.forEach((s, i) => { out[s] = spots[i]; });
    return out;
  }

  drawTrick(step) {
    const box = this.trickBox;
    box.replaceChildren();
    if (!step) {
      this.trickLabel.textContent = "";
      box.setAttribute("aria-label", t("review.start"));
      return;
    }
    const trick = this.data.tricks[step.trick];
    const places = this.places();
    const shown = trick.cards.slice(0, step.index + 1);
    const complete = shown.length === trick.cards.length;
    const names = [];
    shown.forEach((entry, i) => {
      const card = cardElement(parseCard(entry.card));
      card.removeAttribute("role");
      card.classList.add(`at-${places[entry.seat] ?? "top"}`);
      if (i === shown.length - 1) card.classList.add("fresh");
      if (complete && entry.seat === trick.winner) card.classList.add("winner");
      box.append(card);
      names.push(`${this.nameOf(entry.seat)}: ${nameOfCard(entry.card)}`);
    });
    this.trickLabel.textContent = `${t("review.trickNo", { n: trick.no })}` +
      (complete ? ` · ${t("review.winner", { name: this.nameOf(trick.winner) })}` : "");
    box.setAttribute("aria-label", `${this.trickLabel.textContent}: ${names.join(", ")}`);
  }

  drawVerdict(step) {
    const box = this.verdict;
    box.replaceChildren();
    if (!step) {
      box.dataset.kind = "start";
      box.append(h("p", { class: "rv-help rv-keys" }, t("review.keys")));
      return;
    }
    const verdict = this.verdictOf(step);
    box.dataset.kind = verdict.kind;
    box.append(h("p", { class: "rv-who" }, `${this.nameOf(step.seat)}: `, h("strong", { class: "rv-card-name" }, nameOfCard(step.card))),
      h("p", { class: `rv-mark rv-${verdict.kind}` }, verdict.text));
    if (judged(step)) {
      if (step.cost > 0 && step.best_cards?.length) {
        box.append(h("p", { class: "rv-best" }, t("review.bestCards", { cards: listOr(step.best_cards.map(nameOfCard)) })));
      }
      const facts = [t("review.value", { tricks: t("table.tricks", { n: step.value }) })];
      if (step.cost > 0 && step.best !== null && step.best !== undefined) {
        facts.push(t("review.bestValue", { tricks: t("table.tricks", { n: step.best }) }));
      }
      if (step.choices > 1) facts.push(t("review.choicesN", { n: step.choices }));
      box.append(h("p", { class: "rv-facts" }, facts.join(" ")));
    }
  }

  drawHands(pos) {
    const played = new Set(this.steps.slice(0, pos).map((s) => parseCard(s.card)));
    const current = pos ? parseCard(this.steps[pos - 1].card) : null;
    const places = this.places();
    const order = Object.entries(places).sort(([, a], [, b]) => ["left", "top", "right", "bottom"].indexOf(a)
      - ["left", "top", "right", "bottom"].indexOf(b)).map(([s]) => Number(s));
    const rows = [];
    for (const seat of order) {
      const cards = sortHand((this.data.hands[seat] || []).map(parseCard), this.trump);
      const hand = h("div", { class: "rv-hand", role: "group", "aria-label": this.nameOf(seat), "data-seat": String(seat),
        "data-count": String(cards.length) });
      hand.style.setProperty("--n", String(Math.max(cards.length, 1)));
      for (const card of cards) {
        const node = cardElement(card);
        if (played.has(card)) {
          node.classList.add("played");
          node.setAttribute("aria-label", `${cardName(card)} (${t("review.played")})`);
        }
        if (card === current) node.classList.add("current");
        hand.append(node);
      }
      // forehand chooses the contract; with the dealer at the table, the third seat is middlehand
      const role = seat === this.data.chooser ? t("table.forehand") : seat === this.data.dealer ? t("table.dealer")
        : this.data.seats.includes(this.data.dealer) ? t("table.middlehand") : null;
      rows.push(h("div", { class: "rv-seat" },
        h("p", { class: "rv-seat-name" }, this.nameOf(seat), role ? h("span", { class: "rv-role" }, ` · ${role}`) : null),
        hand));
    }
    this.hands.replaceChildren(...rows);
  }

  onKey(event) {
    if (!this.data || event.altKey || event.ctrlKey || event.metaKey) return;
    const total = this.steps.length;
    // the positions at the end of each trick
    const ends = this.steps.map((s, i) => (s.index === this.data.tricks[s.trick].cards.length - 1 ? i + 1 : null))
      .filter((k) => k !== null);
    let to = null;
    switch (event.key) {
      case "ArrowRight": to = this.pos + 1; break;
      case "ArrowLeft": to = this.pos - 1; break;
      case "Home": to = 0; break;
      case "End": to = total; break;
      case "PageDown": to = ends.find((k) => k > this.pos) ?? total; break;
      case "PageUp": to = [...ends].reverse().find((k) => k < this.pos) ?? 0; break;
      default: return;
    }
    event.preventDefault();
    this.go(to);
  }
}
