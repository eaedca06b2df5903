// Screen-reader announcements through an aria-live region.  Plays and turns are announced politely;
// errors assertively.  The text only ever names cards that are public (played) or the reader's own.

let polite = null;
let assertive = null;
const log = [];

export function initAnnouncer() {
  polite = document.getElementById("announce-polite");
  assertive = document.getElementById("announce-assertive");
}

function put(region, text) {
  if (!region || !text) return;
  log.push(text);
  if (log.length > 100) log.shift();
  // Append a fresh node so that repeating the same sentence is still announced.
  const line = document.createElement("p");
  line.textContent = text;
  region.appendChild(line);
  while (region.childNodes.length > 5) region.removeChild(region.firstChild);
}

export function announce(text) {
  put(polite, text);
}

export function announceUrgent(text) {
  put(assertive, text);
}

/** The last announcements (newest last), for tests and the on-screen log. */
export function recentAnnouncements() {
  return [...log];
}
