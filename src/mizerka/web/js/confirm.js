// A modal yes/no question: the lobby's "Forget" and "Delete my profile" (players.js), the score pad's "New match"
// (scorepad.js).  The focus starts on Cancel; Escape cancels; either way out gives the focus back to the opener.

import { t } from "./i18n.js";
import { h } from "./sheet.js";

/**
 * Ask *text* under *title*, with Cancel and *yes*; *onYes* runs after a yes, *onClose* whenever the dialog closes.
 * *name* makes the ids (`NAME-title`, `NAME-text`, `NAME-cancel`, `NAME-yes`) and the class (`NAME-confirm`).
 * Returns the open dialog.
 */
export function confirmDialog({ name, title, text, yes, opener, onYes, onClose = () => {} }) {
  const cancel = h("button", { type: "button", class: "btn", id: `${name}-cancel` }, t("common.cancel"));
  const ok = h("button", { type: "button", class: "btn primary", id: `${name}-yes` }, yes);
  const dialog = h("dialog", { class: `dialog confirm-dialog ${name}-confirm`, "aria-labelledby": `${name}-title`,
    "aria-describedby": `${name}-text` },
  h("h2", { id: `${name}-title` }, title),
  h("p", { id: `${name}-text` }, text),
  h("div", { class: "dialog-foot" }, cancel, ok));
  const close = () => {
    dialog.close();
    dialog.remove();
    onClose();
  };
  const back = () => {
    close();
    document.getElementById(opener.id)?.focus();
  };
  cancel.addEventListener("click", back);
  dialog.addEventListener("cancel", (event) => {
    event.preventDefault();
    back();
  });
  ok.addEventListener("click", () => {
    close();
    onYes();
  });
  document.body.append(dialog);
  dialog.showModal();
  cancel.focus();
  return dialog;
}
