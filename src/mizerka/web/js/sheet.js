// The score sheet: players × contracts with the used marks, one row per deal with "take" or "avoid",
// the deal's scores and the running totals (the tricks of each deal are in its end-of-deal summary), and a winner banner at the end of the match.

import { contractName, listOf, signed, t } from "./i18n.js";
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
  if (short) span.setAttribute("title", contractName(index));
  if (short) span.setAttribute("aria-label", contractName(index));
  return span;
}

/** The winners of a finished match: every seat with the top total (a shared win when several). */
export function winnersOf(totals) {
  const best = Math.max(...totals);
  return totals.map((v, i) => (v === best ? i : -1)).filter((i) => i >= 0);
}

/**
 * Build the score sheet for *view* (the server's View).  *winners* is the list from the match_end event when
 * known, else it is worked out from the totals once the match is over.  With *onReview*, each deal's row has a
 * "Review" button that calls `onReview(dealNo, focusKey)` (the rows are finished deals only: never the deal in
 * progress).  With *showTricks*, each deal's row shows its tricks in a column of their own (the score pad, which has
 * no deal summary).  A seat without a score in a deal (four players: the dealer sits out) shows "–" there.
 * *contracts*, when given, are the grid's columns (the variant's contract codes); a row's *goal* ("take" or
 * "avoid"), when given, is its goal.
 */
export function renderScoreSheet(view, winners = null, { onReview = null, showTricks = false, contracts = null } = {}) {
  const names = view.players.map((p, i) => p.name || `#${i + 1}`);
  const root = h("div", { class: "score-sheet" });
  const over = view.status === "finished" || view.phase === "over";
  if (over) {
    const who = winners ?? winnersOf(view.totals);
    root.append(h("p", { class: "winner-banner", role: "status" },
      t("sheet.winner", { n: who.length, names: listOf(who.map((i) => names[i])) })));
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
  for (let g = 0; g < 2; g += 1) for (const name of names) sub.append(h("th", { scope: "col", class: "who" }, name));
  deals.append(h("thead", {}, top, sub));
  const rows = h("tbody");
  for (const row of view.score_sheet) {
    const avoid = row.goal ? row.goal === "avoid" : String(row.contract).toUpperCase() === "MZ";
    const number = h("th", { scope: "row" }, String(row.deal_no));
    if (onReview) { // beside the deal's number: no column more, the sheet still fits its panel
      const key = `review-${row.deal_no}`;
      const button = h("button", { type: "button", class: "btn small review-btn", "data-focus": key,
        "data-deal": String(row.deal_no), "aria-label": t("review.buttonDeal", { n: row.deal_no }) }, t("review.button"));
      button.addEventListener("click", () => onReview(row.deal_no, key));
      number.classList.add("deal-cell");
      number.append(" ", button);
    }
    const tr = h("tr", {},
      number,
      h("td", { class: "contract-cell" }, contractLabel(row.contract, { short: true }), " ",
        h("span", { class: `goal ${avoid ? "avoid" : "take"}` }, t(avoid ? "table.avoid" : "table.take"))));
    const tricks = row.tricks.map((n) => (n === null || n === undefined ? "–" : String(n)));
    tr.title = `${names[row.chooser]} · ${t("sheet.tricks")}: ${tricks.join(" / ")}`;
    if (showTricks) tr.append(h("td", { class: "num tricks-cell" }, tricks.join(" ")));
    for (const s of row.scores) {
      tr.append(s === null || s === undefined ? h("td", { class: "num out" }, "–")
        : h("td", { class: `num ${s > 0 ? "plus" : s < 0 ? "minus" : ""}` }, signed(s)));
    }
    for (const s of row.totals) tr.append(h("td", { class: "num total" }, signed(s)));
    rows.append(tr);
  }
  deals.append(rows);
  root.append(h("div", { class: "sheet-scroll" }, deals));
  return root;
}
