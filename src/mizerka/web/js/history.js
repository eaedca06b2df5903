// A finished match, read only (`/?match=ID`, opened from the lobby's "Recent games"): its score sheet
// (`GET /api/tables/{id}/sheet`), the record's downloads, and a Review button per deal opening the review dialog
// (`GET /api/tables/{id}/deals/{n}/review`).  It needs no token: a finished match's record is for whoever may
// watch its table; this browser's seat token, when it holds one, is sent all the same (a table without
// spectators is its players' only).

import { apiResponse } from "./net.js";
import { contractName, lang, listOf, nameAsPlayed, refusalText, seatName, signed, t, variantName } from "./i18n.js";
import { ReviewDialog } from "./review.js";
import { CONTRACT_CODES, contractIndex, h, nameNode, renderScoreSheet, slot, withNodes } from "./sheet.js";
import { seatFor } from "./store.js";

const NO = new Set(["no", "false", "0", "off"]);

/**
 * One option of a variant spec (as `Rules.spec` writes it) in the page's language; an unknown one as written.  The
 * `contracts=` option is worded from *contracts*, the variant's contracts as the server read them (the answer's
 * `contracts`): the page never parses the rules' own words for them.
 */
function optionLabel(option, contracts) {
  const [rawKey, ...value] = option.trim().split("=");
  const key = rawKey.trim().toLowerCase().replace(/-/g, "_");
  const text = value.length ? value.join("=").trim() : null;
  const off = text !== null && NO.has(text.toLowerCase());
  if (key === "contracts" && text) {
    const codes = Array.isArray(contracts) ? contracts.map((c) => String(c).toUpperCase()) : [];
    if (codes.length && codes.every((c) => CONTRACT_CODES.includes(c))) {
      return t("variantOpt.contracts", { list: listOf(codes.map((c) => contractName(contractIndex(c)))) });
    }
  } else if (key === "show_trump_card" || key === "global_unique") {
    return t(`variantOpt.${key}${off ? "_no" : ""}`);
  } else if ((key === "seed002_blocks" || key === "round_robin") && text === null) {
    return t(`variantOpt.${key}`);
  } else if (key === "first_dealer" && text) {
    return text.toLowerCase() === "lot" ? t("variantOpt.first_dealer_lot") : t("variantOpt.first_dealer", { n: text });
  } else if ((key === "uses" || key === "uses_per_contract") && text) {
    return t("variantOpt.uses", { n: text });
  } else if ((key === "quota_ordinary" || key === "quota_mizerka") && text) {
    return t(`variantOpt.${key}`, { q: text });
  }
  return option.trim();
}

/**
 * A variant as words: its base name in the page's language, then its options, also in words where known.
 * *contracts*: its contracts as the server gives them beside the variant (`contracts`), for its `contracts=` option.
 */
export function variantLabel(variant, contracts = null) {
  const [base, ...rest] = String(variant).split(",");
  const options = rest.filter((o) => o.trim()).map((o) => optionLabel(o, contracts));
  return options.length ? `${variantName(base)} (${options.join(", ")})` : variantName(base);
}

/** When a match ended (seconds since the epoch), in the page's language. */
export function endedAt(seconds) {
  try {
    return new Intl.DateTimeFormat(lang(), { dateStyle: "medium", timeStyle: "short" }).format(new Date(seconds * 1000));
  } catch {
    return "";
  }
}

/**
 * Players with their totals, "Ala +3, Bot 2 −1, Bot 3 −2", as a fragment of the page: each name in an element of
 * its own (sheet.js `nameNode`), so right-to-left names keep the line's order and each total its sign.
 */
export function playersWithTotals(players, totals) {
  const line = document.createDocumentFragment();
  players.forEach((name, i) => {
    if (i) line.append(", ");
    line.append(nameNode(name));
    if (totals[i] !== undefined) line.append(` ${signed(totals[i])}`);
  });
  return line;
}

/**
 * The lines under a match's title, as its page shows them: the rules and the number of deals, then the players with
 * their totals.  *d*: a finished match's sheet (`GET /api/tables/{id}/sheet`), or a game record's summary read the
 * same way (records.js): `players` (the seats, as `seatName` takes them), `variant`, `contracts`, `totals`,
 * `score_sheet`.
 */
export function matchLines(d) {
  const names = d.players.map((p, i) => seatName(p, d.players) || `#${i + 1}`);
  return [
    h("p", { class: "match-meta" },
      `${variantLabel(d.variant, d.contracts)} · ${t("match.deals", { n: d.score_sheet.length })}`),
    h("p", { class: "match-players" },
      withNodes(t("match.players", { names: slot(0) }), () => playersWithTotals(names, d.totals)))];
}

/**
 * A match's score sheet (sheet.js) from the same *d* as `matchLines`, with *onReview(n, focusKey)* on its deals
 * (none on a row marked `reviewable: false`).  A match not over (a record's `complete: false`) has no winner yet.
 */
export function matchSheet(d, onReview = null) {
  const over = d.complete !== false;
  const view = { players: d.players, status: over ? "finished" : "playing", phase: over ? "over" : "play",
    totals: d.totals, used: d.used, seat: null, score_sheet: d.score_sheet };
  return renderScoreSheet(view, over ? d.winners : null, { contracts: d.contracts, onReview });
}

/**
 * Open the review dialog (review.js, *options* as its constructor's) in *dialogs*, a page's box of dialogs, unless
 * one is open there already; *onClose()* when it closes (say, to give the focus back to the button that opened it).
 */
export function openReviewDialog(dialogs, options, onClose = null) {
  if (dialogs.querySelector("dialog[open]")) return null;
  const review = new ReviewDialog(options);
  review.dialog.className = "dialog review-dialog";
  dialogs.append(review.dialog);
  review.dialog.showModal();
  review.dialog.addEventListener("close", () => {
    review.dialog.remove();
    onClose?.();
  });
  review.load();
  return review;
}

export class MatchPage {
  constructor(root, id, hooks) {
    this.root = root;
    this.id = id;
    this.hooks = hooks; // {goLobby(), openTable(id)}
    this.data = null;
    this.error = null;
    this.reviews = {}; // complete reviews, kept for the page's life (as at the table)
    this.dialogs = h("div", { class: "dialogs" });
  }

  async start() {
    this.render();
    const token = seatFor(this.id)?.token ?? null;
    if (!this.id) {
      this.error = { code: "unknown_table", message: "" };
      this.render();
      return;
    }
    try {
      const headers = token ? { Authorization: `Bearer ${token}` } : {};
      ({ data: this.data } = await apiResponse("GET", `/api/tables/${encodeURIComponent(this.id)}/sheet`, undefined,
        { headers }));
    } catch (error) {
      this.error = error;
    }
    if (!this.destroyed) this.render();
  }

  destroy() {
    this.destroyed = true;
    for (const dialog of this.dialogs.querySelectorAll("dialog[open]")) dialog.close();
  }

  rerender() {
    this.render();
  }

  errorText() {
    const error = this.error;
    if (error.code === "network") return t("error.network");
    // no such table, or an id no table can have (the server refuses it before looking: 404 or 422)
    if (["unknown_table", "not_found", "bad_request"].includes(error.code)) return t("match.notFound");
    return refusalText(error.code, error.message, { seconds: error.retryAfter });
  }

  backButton() {
    const back = h("button", { type: "button", class: "btn", id: "back-to-lobby" }, t("error.backToLobby"));
    back.addEventListener("click", () => this.hooks.goLobby());
    return back;
  }

  render() {
    if (this.destroyed) return;
    const focusKey = document.activeElement?.dataset?.focus ?? document.activeElement?.id;
    const page = h("section", { class: "match-page panel", "aria-labelledby": "match-title", "data-table": this.id });
    if (this.error) {
      page.classList.add("error-screen");
      page.append(h("h2", { id: "match-title" }, t("match.title")),
        h("p", { class: "error-text", role: "alert", "data-code": this.error.code }, this.errorText()));
      // a match still in play (a link shared too early): the way to its table, where one may sit, play on or watch
      const toTable = this.error.code === "not_over" && this.hooks.openTable
        ? h("button", { type: "button", class: "btn primary", id: "to-table" }, t("match.toTable")) : null;
      toTable?.addEventListener("click", () => this.hooks.openTable(this.id));
      page.append(h("div", { class: "dialog-foot" }, this.backButton(), toTable));
      this.root.replaceChildren(page);
      (toTable ?? page.querySelector("#back-to-lobby")).focus();
      return;
    }
    if (!this.data) {
      page.append(h("h2", { id: "match-title" }, t("match.title")), h("p", { class: "loading", role: "status" },
        t("match.loading")));
      this.root.replaceChildren(page);
      return;
    }
    const d = this.data;
    const url = `/api/tables/${encodeURIComponent(this.id)}/record`;
    page.append(
      h("div", { class: "panel-head" }, h("h2", { id: "match-title", tabindex: "-1" }, d.name || t("match.title")),
        this.backButton()),
      ...matchLines(d),
      h("p", { class: "muted" }, t("match.help")));
    page.append(matchSheet(d, (n, key) => this.openReview(n, key)));
    // the record's downloads: without a token, as any spectator (a seat's token cannot go in a link)
    if (!seatFor(this.id)) {
      page.append(h("p", { class: "match-downloads" },
        h("a", { class: "btn small", href: url, download: `mizerka-${this.id}.txt`, id: "match-record" }, t("match.recordText")),
        " ",
        h("a", { class: "btn small", href: `${url}?format=json`, download: `mizerka-${this.id}.json` }, t("match.recordJson"))));
    }
    page.append(this.dialogs);
    this.root.replaceChildren(page);
    const again = focusKey ? page.querySelector(`[data-focus="${focusKey}"]`) ?? document.getElementById(focusKey) : null;
    (again ?? page.querySelector("#match-title")).focus();
  }

  /** The review dialog of deal *n* (review.js); closing it gives the focus back to its button. */
  openReview(n, focusKey = null) {
    const seats = this.data?.players ?? [];
    const names = seats.map((p) => seatName(p, seats));
    openReviewDialog(this.dialogs, {
      tableId: this.id, dealNo: n, token: seatFor(this.id)?.token ?? null, viewSeat: seatFor(this.id)?.seat ?? null,
      cache: this.reviews,
      nameOf: (who, players) => nameAsPlayed(players[who], seats[who], seats) || names[who] || `#${who + 1}`,
    }, () => {
      if (focusKey && !this.destroyed) this.root.querySelector(`[data-focus="${focusKey}"]`)?.focus();
    });
  }
}
