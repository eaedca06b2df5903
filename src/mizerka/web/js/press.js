// A press on a control holds a screen's redraws back until it ends.
//
// The lobby and the table redraw whole parts of the page as news arrives (a list, a server event, the end of a
// finished trick's display).  A redraw between the press of a button and its release rebuilds the button under the
// pointer: the release lands on the new one, and the browser fires no click at all.  So a redraw asked for during a
// press waits for the release and runs just after the click it makes (docs/web.md); at most PRESS_HOLD_MS after it
// was held, so a press that never ends (released outside the window) freezes nothing.

/** The longest a press holds a redraw back, in ms. */
export const PRESS_HOLD_MS = 2000;

/** What a press must start on to hold redraws back: the things a lost click would matter on. */
const CONTROLS = "button, a, input, label";

export class PressHold {
  /** @param {() => void} redraw the screen's own render, run once a held redraw may go on */
  constructor(redraw) {
    this.redraw = redraw;
    this.pressed = false;
    this.held = null; // the timer of a held redraw
    this.onPress = (event) => {
      this.pressed = Boolean(event.target instanceof Element && event.target.closest(CONTROLS));
    };
    this.onRelease = () => {
      this.pressed = false;
      if (this.held !== null) {
        clearTimeout(this.held);
        this.held = setTimeout(() => this.flush(), 0); // after the click this release makes
      }
    };
  }

  start() {
    document.addEventListener("pointerdown", this.onPress, true);
    document.addEventListener("pointerup", this.onRelease, true);
    document.addEventListener("pointercancel", this.onRelease, true);
  }

  stop() {
    document.removeEventListener("pointerdown", this.onPress, true);
    document.removeEventListener("pointerup", this.onRelease, true);
    document.removeEventListener("pointercancel", this.onRelease, true);
    clearTimeout(this.held);
    this.held = null;
  }

  /** Whether a redraw asked for now must wait (a press is on: it runs once the press ends).  The screen's render
   *  asks this first. */
  holds() {
    if (this.pressed) {
      if (this.held === null) this.held = setTimeout(() => this.flush(), PRESS_HOLD_MS);
      return true;
    }
    if (this.held !== null) { // drawn now: the held redraw is this one
      clearTimeout(this.held);
      this.held = null;
    }
    return false;
  }

  flush() {
    this.held = null;
    this.pressed = false;
    this.redraw();
  }
}
