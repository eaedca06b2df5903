// The table's chat: what the seated players say to each other (docs/protocol.md, "chat").
//
// The panel is built once per table page and lives beside the game's redraws: the table is redrawn on every event,
// the chat only when a chat message comes, so that what is being typed and the focus in the input survive play.
// It is collapsible (a toolbar button with the unread count opens it; on a phone it opens over the top of the
// table, never over the hand), hidden entirely when the table has no chat, and read-only for spectators.
//
// Everything people typed is put in the page with textContent only, never as HTML.  A preset travels as its code
// and is shown in the page's language.  Muting a player hides their lines on this device (kept in localStorage
// through store.js); the server knows nothing of it.

import { announce } from "./announce.js";
import { refusalReason, t } from "./i18n.js";
import { h } from "./sheet.js";
import { chatMutes, prefs, saveChatMutes, savePrefs } from "./store.js";

/** The preset codes the server accepts (CHAT_PRESETS in mizerka/server/protocol.py), in the order shown. */
export const CHAT_PRESETS = ["hello", "good_luck", "well_played", "thanks", "sorry", "one_moment", "bye"];

/** The longest text the server takes (it counts characters; the input's maxlength counts UTF-16 units: stricter). */
export const MAX_CHAT_CHARS = 200;

const KEEP = 100; // lines kept on the page

export class ChatPanel {
  /**
   * @param {{tableId: string, socket: () => import("./net.js").TableSocket | null}} options
   */
  constructor({ tableId, socket }) {
    this.tableId = tableId;
    this.socket = socket;
    this.messages = []; // the server's chat messages, oldest first
    this.unread = 0;
    this.open = Boolean(prefs().chatOpen);
    this.muted = new Set(chatMutes(tableId));
    this.view = null;
    this.nextId = 1;
    this.sent = new Map(); // request id → the text sent (cleared from the input once the server relays it)
    this.error = "";
    this.toggleBtn = null;
    this.muteKey = "";
    this.build();
  }

  /** Whether the table has a chat (its `chat` option; an older server sends none: no chat). */
  enabled(view = this.view) {
    return Boolean(view?.options?.chat);
  }

  // -- the DOM ------------------------------------------------------------------------------------

  /** (Re)build the panel, keeping what is typed (called again after a language switch). */
  build() {
    const draft = this.input?.value ?? "";
    // the live region (a log) holds the list of lines: a list may not be a log itself (its items would belong to no
    // list), and the box scrolls and takes the focus
    this.lines = h("ol", { class: "chat-lines" });
    this.log = h("div", { class: "chat-log", role: "log", "aria-live": "polite", "aria-label": t("chat.log"),
      tabindex: "0" }, this.lines);
    this.input = h("input", { type: "text", class: "chat-input", id: "chat-input", maxlength: String(MAX_CHAT_CHARS),
      autocomplete: "off", enterkeyhint: "send", "aria-describedby": "chat-error" });
    this.input.value = draft;
    this.errorOut = h("p", { class: "chat-error", id: "chat-error", role: "alert" }, this.error);
    const form = h("form", { class: "chat-form" },
      h("label", { class: "visually-hidden", for: "chat-input" }, t("chat.input")), this.input,
      h("button", { type: "submit", class: "btn primary chat-send" }, t("chat.send")));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const text = this.input.value.trim();
      if (!text) { this.showError(t("refusal.chat_empty")); return; }
      this.send({ text });
    });
    this.presets = h("div", { class: "chat-presets", role: "group", "aria-label": t("chat.presets") });
    for (const code of CHAT_PRESETS) {
      const button = h("button", { type: "button", class: "btn chat-preset", "data-preset": code }, presetText(code));
      button.addEventListener("click", () => this.send({ preset: code }));
      this.presets.append(button);
    }
    this.mutes = h("div", { class: "chat-mutes" });
    this.muteKey = "";
    this.note = h("p", { class: "chat-note" }, t("chat.spectator"));
    this.writer = h("div", { class: "chat-writer" }, this.presets, form, this.errorOut);
    const close = h("button", { type: "button", class: "btn close-sheet chat-close", "aria-label": t("common.close") }, "×");
    close.addEventListener("click", () => { this.setOpen(false); this.toggleBtn?.focus(); });
    this.panel = h("aside", { class: "chat-panel", id: "chat-panel", "aria-labelledby": "chat-title", hidden: true },
      h("div", { class: "sheet-head" }, h("h2", { id: "chat-title" }, t("chat.title")), close),
      this.log, this.note, this.writer, this.mutes);
    this.renderLog();
    if (this.view) this.update(this.view);
    return this.panel;
  }

  /** The toolbar's button that opens and closes the panel, with the unread count (a new one on each redraw). */
  toggleButton() {
    const button = h("button", { type: "button", class: "btn chat-toggle", "data-focus": "chat",
      "aria-expanded": String(this.open), "aria-controls": "chat-panel", "aria-keyshortcuts": "C" });
    button.addEventListener("click", () => {
      this.setOpen(!this.open);
      if (this.open) this.focusInside();
    });
    this.toggleBtn = button;
    this.renderToggle();
    return button;
  }

  renderToggle() {
    const button = this.toggleBtn;
    if (!button) return;
    button.setAttribute("aria-expanded", String(this.open));
    const parts = [t("chat.button")];
    if (this.unread) {
      parts.push(" ", h("span", { class: "chat-unread", "aria-hidden": "true" }, String(this.unread)),
        h("span", { class: "visually-hidden" }, `, ${t("chat.unread", { n: this.unread })}`));
    }
    button.replaceChildren(...parts);
  }

  setOpen(open) {
    this.open = open;
    savePrefs({ chatOpen: open });
    if (open) this.unread = 0;
    this.panel.hidden = !(open && this.enabled());
    this.renderToggle();
    if (open) this.log.scrollTop = this.log.scrollHeight;
  }

  toggle() {
    this.setOpen(!this.open);
    if (this.open) this.focusInside();
  }

  focusInside() {
    (this.view?.seat !== null && this.view?.seat !== undefined ? this.input : this.log).focus();
  }

  /** Follow the table's latest view: chat on or off, our seat, the players to mute. */
  update(view) {
    this.view = view;
    const on = this.enabled(view);
    this.panel.hidden = !(on && this.open);
    const player = view.seat !== null && view.seat !== undefined;
    this.writer.hidden = !player;
    this.note.hidden = player;
    // the mute buttons are redrawn only when the players change (a redraw would take the focus off them)
    const others = (view.players || []).filter((p) => p.kind === "human" && !p.open && p.seat !== view.seat);
    const key = others.map((p) => `${p.seat}:${p.name}:${this.muted.has(p.seat)}`).join("|");
    if (key !== this.muteKey) {
      this.muteKey = key;
      this.mutes.replaceChildren(...others.map((p) => this.muteButton(p)));
      if (others.length) this.mutes.append(h("p", { class: "chat-note" }, t("chat.mutedNote")));
    }
  }

  muteButton(player) {
    const muted = this.muted.has(player.seat);
    const name = player.name || `#${player.seat + 1}`;
    const button = h("button", { type: "button", class: "btn chat-mute", "data-seat": String(player.seat),
      "aria-pressed": String(muted) }, t(muted ? "chat.unmute" : "chat.mute", { name }));
    button.addEventListener("click", () => {
      if (this.muted.has(player.seat)) this.muted.delete(player.seat);
      else this.muted.add(player.seat);
      saveChatMutes(this.tableId, [...this.muted]);
      this.muteKey = "";
      if (this.view) this.update(this.view);
      this.renderLog();
      this.mutes.querySelector(`[data-seat="${player.seat}"]`)?.focus();
    });
    return button;
  }

  renderLog() {
    const lines = this.messages.filter((m) => !this.muted.has(m.seat)).map((m) => this.line(m));
    this.lines.replaceChildren(...(lines.length ? lines : [h("li", { class: "chat-empty" }, t("chat.empty"))]));
    this.log.scrollTop = this.log.scrollHeight;
  }

  line(message) {
    const item = h("li", { class: `chat-line${message.preset ? " preset" : ""}`, "data-seat": String(message.seat),
      "data-seq": String(message.seq) });
    const name = h("span", { class: "chat-name" });
    name.textContent = `${this.senderName(message)}: `; // textContent only: never markup from a player
    const said = h("span", { class: "chat-text" });
    said.textContent = this.said(message);
    item.append(name, said);
    return item;
  }

  senderName(message) {
    const mine = this.view && message.seat === this.view.seat;
    return mine ? t("table.you") : String(message.name ?? `#${message.seat + 1}`);
  }

  said(message) {
    return message.preset !== undefined && message.preset !== null ? presetText(message.preset) : String(message.text ?? "");
  }

  // -- messages -----------------------------------------------------------------------------------

  /** The welcome's history (the server's last messages): what the page shows from now on. */
  setHistory(history) {
    this.messages = Array.isArray(history) ? history.slice(-KEEP) : [];
    this.renderLog();
  }

  /** Take a server message if it is the chat's: a chat line, or the reply to one of our chat requests. */
  handles(message) {
    if (message.type === "chat") {
      this.receive(message);
      return true;
    }
    if (message.type === "error" && typeof message.id === "string" && this.sent.has(message.id)) {
      this.sent.delete(message.id);
      this.showError(message.code === "rate_limited" && message.retry_after
        ? t("chat.tooFast", { n: Math.max(1, Math.ceil(message.retry_after)) })
        : refusalReason(message.code) ?? t("error.refused", { reason: message.message || message.code }));
      return true;
    }
    return false;
  }

  receive(message) {
    if (this.messages.some((m) => m.seq === message.seq)) return;
    const sent = typeof message.id === "string" ? this.sent.get(message.id) : undefined;
    if (sent !== undefined) {
      this.sent.delete(message.id);
      if (this.input.value.trim() === sent) this.input.value = "";
      this.showError("");
    }
    const { id: _id, ...kept } = message;
    this.messages.push(kept);
    if (this.messages.length > KEEP) this.messages.shift();
    if (this.muted.has(message.seat)) return;
    const empty = this.lines.querySelector(".chat-empty");
    if (empty) empty.remove();
    this.lines.append(this.line(kept));
    while (this.lines.children.length > KEEP) this.lines.firstElementChild.remove();
    this.log.scrollTop = this.log.scrollHeight;
    const mine = this.view && message.seat === this.view.seat;
    if (!mine && (this.panel.hidden || !this.open)) {
      // the log speaks for itself while it is shown; closed, the page's announcer says it, and the button counts it
      this.unread += 1;
      this.renderToggle();
      announce(t("chat.says", { name: this.senderName(kept), text: this.said(kept) }));
    }
  }

  send(body) {
    const socket = this.socket();
    const id = `chat-${this.nextId++}`;
    this.sent.set(id, body.text ?? null);
    if (!socket || !socket.send({ type: "chat", id, ...body })) {
      this.sent.delete(id);
      this.showError(t("refusal.network"));
    }
  }

  showError(text) {
    this.error = text;
    this.errorOut.textContent = text;
  }
}

/** A preset's phrase in the page's language ("Powodzenia!"); a code newer than this page as the code itself. */
export function presetText(code) {
  const key = `chat.preset.${code}`;
  const text = t(key);
  return text === key ? String(code) : text;
}
