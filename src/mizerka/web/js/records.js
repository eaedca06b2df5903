// A game record reviewed in the browser (`/?review=1`, linked from the lobby), as a chess site's "import game": a
// record written by `mizerka play --record`, downloaded from a table, or kept by the score keeper, in either form
// (text or JSON, docs/record.md), chosen as a file or pasted.  **Open** sends it to `POST /api/records/review`
// (`"deal": null`), which answers its score sheet, drawn as a finished match's page draws its own (history.js);
// each deal played with cards has a Review button opening the review dialog (review.js) with the same endpoint's
// review of that deal (`"deal": n`).  The server keeps nothing of the record: the page sends it again each time.

import { announce } from "./announce.js";
import { apiResponse } from "./net.js";
import { lang, refusalText, t } from "./i18n.js";
import { matchLines, matchSheet, openReviewDialog } from "./history.js";
import { h } from "./sheet.js";

export const RECORD_REVIEW_URL = "/api/records/review";
/** The largest record the server reads (its `record_too_large` above): a larger one is refused before sending. */
export const MAX_RECORD_BYTES = 2 * 1024 * 1024;
const OPEN_TIMEOUT_MS = 60_000; // a score sheet is quick to make, but up to 2 MiB go up on a slow line first

/** A size in MiB, in the page's language, rounded up (a file just over the limit is not "2 MiB"): "3.4 MiB". */
function mib(bytes) {
  const tenths = Math.ceil((bytes / (1024 * 1024)) * 10) / 10;
  const number = new Intl.NumberFormat(lang(), { maximumFractionDigits: 1 }).format(tenths);
  return `${number} MiB`;
}

/** The bytes *text* takes in UTF-8 (what the server counts). */
function byteLength(text) {
  return new Blob([text]).size;
}

/**
 * What a refusal about a sent record means, in the page's language, where a table's wording would not fit (a
 * table's `unknown_deal` says "at this table"), or null: then it is any refusal.  `bad_record` says the server's
 * own words after the lead-in ("line 3: …": where the record goes wrong, which the page cannot translate).
 */
export function recordReason(error) {
  if (error?.code === "bad_record") return t("record.badRecord", { message: error.message || "" });
  if (error?.code === "unknown_deal") return t("record.unknownDeal");
  if (error?.code === "deal_not_over") return t("record.dealNotOver");
  return null;
}

/** The record's summary as the match page reads a sheet: the seats as `seatName` takes them, the Event as its name. */
function asSheet(summary) {
  const tags = summary.tags && typeof summary.tags === "object" ? summary.tags : {};
  return { ...summary, tags, name: tags.Event || "",
    players: (summary.players || []).map((name, seat) => ({ seat, name: String(name ?? "") })) };
}

export class RecordPage {
  constructor(root, hooks) {
    this.root = root;
    this.hooks = hooks; // {goLobby()}
    this.text = ""; // the textarea's text (kept across a redraw: a change of language)
    this.note = null; // a quiet line about the form ("game.mzn is read…")
    this.error = null; // {text, code} of the last refusal, shown under the form
    this.busy = false;
    this.reading = null; // a chosen file being read (Open waits for it)
    this.data = null; // the summary of the record opened
    this.opened = null; // the text it was made from (what a deal's review sends)
    this.reviews = {}; // complete reviews of the record opened, kept for the page's life (as at a match's page)
    this.abort = new AbortController();
    this.dialogs = h("div", { class: "dialogs" });
  }

  start() {
    this.render();
    this.root.querySelector("#record-title")?.focus();
  }

  destroy() {
    this.destroyed = true;
    this.abort.abort();
    for (const dialog of this.dialogs.querySelectorAll("dialog[open]")) dialog.close();
  }

  rerender() {
    this.render();
  }

  render() {
    if (this.destroyed) return;
    const focusKey = document.activeElement?.dataset?.focus ?? document.activeElement?.id;
    const back = h("button", { type: "button", class: "btn", id: "back-to-lobby" }, t("error.backToLobby"));
    back.addEventListener("click", () => this.hooks.goLobby());

    this.file = h("input", { type: "file", id: "record-file", accept: ".mzn,.txt,.json" });
    this.file.addEventListener("change", () => this.pick(this.file));
    this.textarea = h("textarea", { id: "record-text", rows: 8, spellcheck: "false", autocomplete: "off",
      placeholder: '[Variant "standard"]…' });
    this.textarea.value = this.text;
    this.textarea.addEventListener("input", () => { this.text = this.textarea.value; });
    this.openButton = h("button", { type: "submit", class: "btn primary", id: "record-open" }, t("record.open"));
    this.messages = h("div", { class: "record-messages" });
    const form = h("form", { class: "record-form", novalidate: true },
      h("div", { class: "form-row" }, h("label", { for: "record-file" }, t("record.file")), this.file),
      h("div", { class: "record-paste" }, h("label", { for: "record-text" }, t("record.paste")), this.textarea),
      this.messages,
      h("div", { class: "dialog-foot" }, this.openButton));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.open();
    });
    this.result = h("div", { class: "record-result-box" });
    const page = h("section", { class: "record-page panel", "aria-labelledby": "record-title" },
      h("div", { class: "panel-head" }, h("h2", { id: "record-title", tabindex: "-1" }, t("record.title")), back),
      h("p", { class: "muted" }, t("record.help")), form, this.result, this.dialogs);
    this.root.replaceChildren(page);
    this.renderMessages();
    this.renderResult();
    if (focusKey) (page.querySelector(`[data-focus="${focusKey}"]`) ?? document.getElementById(focusKey))?.focus();
  }

  /** The note, the refusal and the busy state under the form. */
  renderMessages() {
    if (!this.messages) return;
    this.openButton.disabled = this.busy;
    this.openButton.setAttribute("aria-busy", this.busy ? "true" : "false");
    const invalid = Boolean(this.error) && this.error.code !== "network";
    this.textarea.setAttribute("aria-invalid", invalid ? "true" : "false");
    if (invalid) this.textarea.setAttribute("aria-describedby", "record-error");
    else this.textarea.removeAttribute("aria-describedby");
    this.messages.replaceChildren(...[ // replaceChildren would write a null as "null"
      this.busy ? h("p", { class: "loading record-busy", role: "status" }, t("record.opening")) : null,
      !this.busy && this.note ? h("p", { class: "message info record-note" }, this.note) : null, // announced
      this.error ? h("p", { class: "message error", id: "record-error", role: "alert", "data-code": this.error.code },
        this.error.text) : null].filter(Boolean));
  }

  fail(text, code) {
    this.error = { text, code };
    this.note = null;
    this.renderMessages();
  }

  /** A file chosen: its text goes into the textarea (what Open sends); one over 2 MiB is refused at once. */
  pick(input) {
    const file = input.files?.[0];
    if (!file) return;
    this.error = null;
    this.note = null;
    if (file.size > MAX_RECORD_BYTES) {
      this.reading = null;
      input.value = "";
      this.fail(t("record.fileTooLarge", { size: mib(file.size) }), "file_too_large");
      return;
    }
    const reading = file.text().then((text) => {
      if (this.reading !== reading || this.destroyed) return;
      this.text = text;
      this.textarea.value = text;
      this.note = t("record.fileRead", { name: file.name });
      announce(this.note);
    }, () => {
      if (this.reading !== reading || this.destroyed) return;
      input.value = "";
      this.error = { text: t("record.fileUnreadable"), code: "file_unreadable" };
    }).finally(() => {
      if (this.reading !== reading) return;
      this.reading = null;
      this.renderMessages();
    });
    this.reading = reading;
    this.renderMessages();
  }

  /** Open: send the record for its score sheet. */
  async open() {
    if (this.busy) return;
    if (this.reading) await this.reading;
    if (this.destroyed || this.error?.code === "file_unreadable") return;
    const text = this.textarea.value;
    this.text = text;
    if (!text.trim()) {
      this.fail(t("record.empty"), "empty");
      this.textarea.focus();
      return;
    }
    if (byteLength(text) > MAX_RECORD_BYTES) {
      this.fail(t("record.tooLarge"), "record_too_large");
      this.textarea.focus();
      return;
    }
    this.busy = true;
    this.error = null;
    this.note = null;
    this.data = null;
    this.renderResult();
    this.renderMessages();
    let data = null;
    try {
      ({ data } = await apiResponse("POST", RECORD_REVIEW_URL, { record: text, deal: null },
        { signal: this.abort.signal, timeout: OPEN_TIMEOUT_MS }));
    } catch (error) {
      if (this.destroyed) return;
      this.busy = false;
      this.fail(error.code === "network" ? t("error.network")
        : recordReason(error) ?? refusalText(error.code, error.message, { seconds: error.retryAfter }), error.code);
      this.openButton.focus();
      return;
    }
    if (this.destroyed) return;
    this.busy = false;
    this.data = asSheet(data);
    this.opened = text;
    this.reviews = {}; // another record's reviews are not this one's
    this.renderMessages();
    this.renderResult();
    this.root.querySelector("#record-result-title")?.focus();
  }

  /** The record opened: its title, rules, players and totals, tags, and the score sheet with its Review buttons. */
  renderResult() {
    if (!this.result) return;
    const d = this.data;
    if (!d) {
      this.result.replaceChildren();
      return;
    }
    const tags = [d.tags.Date ? t("record.date", { date: d.tags.Date }) : null,
      d.tags.Site ? t("record.site", { site: d.tags.Site }) : null].filter(Boolean);
    const reviewable = !d.score_only && d.score_sheet.some((row) => row.reviewable);
    const section = h("section", { class: "record-result", "aria-labelledby": "record-result-title",
      "data-deals": String(d.score_sheet.length) },
    h("h3", { id: "record-result-title", tabindex: "-1" }, d.name || t("record.resultTitle")),
    ...matchLines(d),
    tags.length ? h("p", { class: "record-tags" }, tags.join(" · ")) : null,
    d.complete ? null : h("p", { class: "record-incomplete" },
      t("record.incomplete", { n: d.score_sheet.length, total: d.n_deals })),
    d.score_only ? h("p", { class: "message info record-score-only" }, t("record.scoreOnly"))
      : reviewable ? h("p", { class: "muted" }, t("match.help")) : null,
    matchSheet(d, d.score_only ? null : (n, key) => this.openReview(n, key)));
    this.result.replaceChildren(section);
  }

  /** The review dialog of deal *n* of the record opened; closing it gives the focus back to its button. */
  openReview(n, focusKey = null) {
    const record = this.opened;
    openReviewDialog(this.dialogs, {
      tableId: null, dealNo: n, token: null, viewSeat: null, cache: this.reviews, reasonOf: recordReason,
      load: async (signal) => (await apiResponse("POST", RECORD_REVIEW_URL, { record, deal: n },
        { signal, timeout: 0 })).data, // the server's review_limit bounds it; closing aborts
    }, () => {
      if (focusKey && !this.destroyed) this.root.querySelector(`[data-focus="${focusKey}"]`)?.focus();
    });
  }
}
