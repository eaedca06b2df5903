// The score sheet: players × contracts with the used marks, one row per deal with "take" or "avoid",
// the deal's scores and the running totals (the tricks of each deal are in its end-of-deal summary), and a winner banner at the end of the match.

import { contractName, listOf, nameAsPlayed, seatName, signed, t } from "./i18n.js";
import { suitIcon } from "./cards.js";

export const CONTRACT_CODES = ["C", "D", "H", "S", "NT", "MZ"];

export function contractIndex(code) {
  const i = CONTRACT_CODES.indexOf(String(code).toUpperCase());
  if (i < 0) throw new Error(`unknown contract ${code}`);
  return i;
}

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}
export { h };

/**
 * A player's name isolated from the text around it (a <bdi> element): a right-to-left name such as "דוד" keeps
 * its own direction inside a left-to-right sentence, and the commas, signs and numbers beside it keep theirs, so
 * "דוד −5, علي +2" is not drawn as "2+ علي ,5− דוד".
 */
export function nameNode(name) {
  return h("bdi", { class: "player-name" }, name);
}

const SLOT = /\uE000(\d+)\uE001/g;

/** A marker standing for the *i*-th node in a translated sentence (private-use characters: no name has them). */
export function slot(i) {
  return `\uE000${i}\uE001`;
}

/**
 * *text* (a translated sentence made with `slot(i)` markers where names go) as a list of strings and nodes, each
 * marker replaced by `nodeOf(i)`: the names go into the sentence as elements, never as markup.
 */
export function withNodes(text, nodeOf) {
  const parts = [];
  let last = 0;
  for (const match of text.matchAll(SLOT)) {
    if (match.index > last) parts.push(text.slice(last, match.index));
    parts.push(nodeOf(Number(match[1])));
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}

/** Text for an attribute (a title), where no element can isolate a name: the FSI … PDI isolate characters. */
function isolated(name) {
  return `\u2068${name}\u2069`;
}

/**
 * A contract as a label with its suit drawn: ♥ Hearts.  *short* (the score sheet's columns and rows): a suit's
 * sign alone, No trumps and Mizerka as the language's abbreviation (NT / MZ, BA / M, БК / М), the full name for
 * screen readers.
 */
export function contractLabel(code, { short = false } = {}) {
  const index = contractIndex(code);
  const span = h("span", { class: `contract-label contract-${code.toLowerCase()}` });
  if (index < 4) span.append(suitIcon(index));
  if (!short || index >= 4) span.append(h("span", { class: short ? "contract-short" : "" }, short
    ? t(index === 4 ? "sheet.shortNT" : "sheet.shortMZ") : contractName(index)));
  if (short) {
    // an image named by the contract's full name: an aria-label on a span without a role is not read (and is not
    // allowed there); the sign or the abbreviation drawn inside stands for the name
    span.setAttribute("role", "img");
    span.setAttribute("aria-label", contractName(index));
    span.setAttribute("title", contractName(index));
  }
  return span;
}

/** The winners of a finished match: every seat with the top total (a shared win when several). */
export function winnersOf(totals) {
  const best = Math.max(...totals);
  return totals.map((v, i) => (v === best ? i : -1)).filter((i) => i >= 0);
}

/**
 * The seat that sat a deal out, or null: with four players the dealer takes no part in the deal (RULES.md V1).
 * The server's rows give him the integers 0 tricks and 0 score (its totals and the terminal client read them as
 * numbers), so a row of four scores that names its `dealer` tells the sheet whose "0" is no score at all.  Rows
 * without a `dealer` (the score pad's) mark the seat with a null score instead.
 */
function sittingOut(row) {
  return row.scores.length === 4 && Number.isInteger(row.dealer) ? row.dealer : null;
}

/**
 * Build the score sheet for *view* (the server's View).  *winners* is the list from the match_end event when
 * known, else it is worked out from the totals once the match is over.  With *onReview*, each deal's row has a
 * "Review" button that calls `onReview(dealNo, focusKey)` (the rows are finished deals only: never the deal in
 * progress; a row marked `reviewable: false`, a game record's deal without its cards, has none).  With *onEdit*
 * (the score pad), each deal's row has a "Correct" button that calls `onEdit.open(dealNo)` (`onEdit`:
 * `{label, aria(n), id(n), open(n), current}`, *current* the deal being corrected, its button pressed).
 * With *showTricks*, each deal's row shows its tricks in a column of their own (the score pad, which has
 * no deal summary).  A seat without a score in a deal (four players: the dealer sits out) shows "–" there, its
 * running total unchanged.
 * *contracts*, when given, are the grid's columns (the variant's contract codes, as the server gives them: the
 * view's and the match sheet's `contracts`; the page never reads them from the variant's spec); a row's *goal*
 * ("take" or "avoid"), when given, is its goal.
 */
export function renderScoreSheet(view, winners = null,
  { onReview = null, onEdit = null, showTricks = false, contracts = null } = {}) {
  // an open seat (a table waiting for players) is named as the table names it
  const names = view.players.map((p, i) => (p.open ? t("table.empty") : seatName(p, view.players) || `#${i + 1}`));
  const root = h("div", { class: "score-sheet" });
  const over = view.status === "finished" || view.phase === "over";
  if (over) {
    const who = winners ?? winnersOf(view.totals);
    root.append(h("p", { class: "winner-banner", role: "status" },
      withNodes(t("sheet.winner", { n: who.length, names: listOf(who.map((i) => slot(i))) }), (i) => nameNode(names[i]))));
  }

  // Players × contracts, with a mark for each contract used, and the totals.
  const grid = h("table", { class: "sheet-grid" });
  grid.append(h("caption", { class: "visually-hidden" }, t("sheet.title")));
  const head = h("tr", {}, h("th", { scope: "col" }, t("sheet.player")));
  const codes = (contracts || CONTRACT_CODES).map((c) => String(c).toUpperCase());
  for (const code of codes) head.append(h("th", { scope: "col" }, contractLabel(code, { short: true })));
  head.append(h("th", { scope: "col" }, t("sheet.total")));
  grid.append(h("thead", {}, head));
  const body = h("tbody");
  names.forEach((name, seat) => {
    const used = new Set((view.used[seat] || []).map((c) => String(c).toUpperCase()));
    const row = h("tr", { class: seat === view.seat ? "my-row" : "" }, h("th", { scope: "row" }, name));
    for (const code of codes) {
      const mark = used.has(code);
      row.append(h("td", { class: mark ? "used" : "unused", "aria-label": mark ? `${contractName(contractIndex(code))} ✓` : null },
        mark ? "✕" : ""));
    }
    row.append(h("td", { class: "total" }, signed(view.totals[seat] ?? 0)));
    body.append(row);
  });
  grid.append(body);
  root.append(grid);

  // One row per finished deal.
  if (!view.score_sheet.length) {
    root.append(h("p", { class: "sheet-empty" }, t("sheet.empty")));
    return root;
  }
  const deals = h("table", { class: "sheet-deals" });
  const top = h("tr", {},
    h("th", { scope: "col", rowspan: 2 }, t("sheet.deal")),
    h("th", { scope: "col", rowspan: 2 }, t("sheet.contract")),
    showTricks ? h("th", { scope: "col", rowspan: 2 }, t("sheet.tricks")) : null,
    h("th", { scope: "colgroup", colspan: names.length, class: "group" }, t("sheet.scores")),
    h("th", { scope: "colgroup", colspan: names.length, class: "group" }, t("sheet.totals")));
  const sub = h("tr");
  for (let g = 0; g < 2; g += 1) for (const name of names) {
    sub.append(h("th", { scope: "col", class: "who", title: name }, name)); // cut to 4.5em: the title has it whole
  }
  deals.append(h("thead", {}, top, sub));
  const rows = h("tbody");
  for (const row of view.score_sheet) {
    const avoid = row.goal ? row.goal === "avoid" : String(row.contract).toUpperCase() === "MZ";
    const number = h("th", { scope: "row" }, String(row.deal_no));
    if (onReview && row.reviewable !== false) { // beside the deal's number: no column more, the sheet still fits
      const key = `review-${row.deal_no}`;
      const button = h("button", { type: "button", class: "btn small review-btn", "data-focus": key,
        "data-deal": String(row.deal_no), "aria-label": t("review.buttonDeal", { n: row.deal_no }) }, t("review.button"));
      button.addEventListener("click", () => onReview(row.deal_no, key));
      number.classList.add("deal-cell");
      number.append(" ", button);
    }
    if (onEdit) { // the score pad: a finished deal corrected ({label, aria(n), id(n), open(n), current})
      const button = h("button", { type: "button", class: "btn small edit-btn", id: onEdit.id(row.deal_no),
        "data-deal": String(row.deal_no), "aria-label": onEdit.aria(row.deal_no),
        "aria-pressed": onEdit.current === row.deal_no ? "true" : "false" }, onEdit.label);
      button.addEventListener("click", () => onEdit.open(row.deal_no));
      number.classList.add("deal-cell");
      number.append(" ", button);
    }
    const tr = h("tr", {},
      number,
      h("td", { class: "contract-cell" }, contractLabel(row.contract, { short: true }), " ",
        h("span", { class: `goal ${avoid ? "avoid" : "take"}` }, t(avoid ? "table.avoid" : "table.take"))));
    const idle = sittingOut(row);
    const tricks = row.tricks.map((n, seat) => (n === null || n === undefined || seat === idle ? "–" : String(n)));
    // who played each seat in this deal: someone may have sat in for a seat's player since (row.players)
    const played = Array.isArray(row.players) && row.players.length === names.length
      ? row.players.map((name, seat) => nameAsPlayed(name, view.players[seat], view.players)) : names;
    tr.title = `${isolated(played[row.chooser])} · ${t("sheet.tricks")}: ${tricks.join(" / ")}`;
    if (showTricks) tr.append(h("td", { class: "num tricks-cell" }, tricks.join(" ")));
    row.scores.forEach((s, seat) => {
      const cell = s === null || s === undefined || seat === idle ? h("td", { class: "num out" }, "–")
        : h("td", { class: `num ${s > 0 ? "plus" : s < 0 ? "minus" : ""}` }, signed(s));
      if (played[seat] !== names[seat]) { // an earlier player of the seat: his name on the cell, the cell set apart
        cell.classList.add("earlier-player");
        cell.title = t("sheet.playedBy", { name: isolated(played[seat]) });
      }
      tr.append(cell);
    });
    for (const s of row.totals) tr.append(h("td", { class: "num total" }, signed(s)));
    rows.append(tr);
  }
  deals.append(rows);
  root.append(h("div", { class: "sheet-scroll" }, deals));
  return root;
}
