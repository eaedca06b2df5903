// Preferences, seat tokens and the player's profile, kept in localStorage (nothing here is secret but the seat
// tokens and the profile's key, which only ever go back to the server that issued them).

const PREFIX = "mizerka.";

function read(key, fallback) {
  try {
    const raw = localStorage.getItem(PREFIX + key);
    return raw === null ? fallback : JSON.parse(raw);
  } catch {
    return fallback;
  }
}

function write(key, value) {
  try {
    localStorage.setItem(PREFIX + key, JSON.stringify(value));
  } catch {
    /* private mode or full storage: the app still works, it just forgets */
  }
}

/** The remembered settings: player name, bot level and rules variant (the lobby's), whether quick play and the
 *  private table are rated (`rated`, `privateRated`: only with a profile), and the table's options: `autoPlay`,
 *  play the only legal card by itself (off unless chosen). */
export function prefs() {
  return { name: "", level: "rules", variant: "standard", autoPlay: false, rated: false, privateRated: false,
    ...read("prefs", {}) };
}

export function savePrefs(update) {
  write("prefs", { ...prefs(), ...update });
}

/** The player's profile on this device, `{key, id, name}` (the key is the profile's secret: it goes in a join, a
 *  quick play and `Authorization` of `GET /api/profile`, never in a link), or null. */
export function profile() {
  const kept = read("profile", null);
  return kept && typeof kept === "object" && typeof kept.key === "string" && kept.key
    ? { key: kept.key, id: String(kept.id ?? ""), name: String(kept.name ?? "") } : null;
}

export function saveProfile({ key, id, name }) {
  write("profile", { key, id, name });
}

export function forgetProfile() {
  try { localStorage.removeItem(`${PREFIX}profile`); } catch { /* nothing kept */ }
}

/** The seat token for *table*, if this browser holds a seat there: {token, seat}. */
export function seatFor(table) {
  const seats = read("seats", {});
  return seats[table] || null;
}

export function saveSeat(table, token, seat) {
  const seats = read("seats", {});
  seats[table] = { token, seat, at: Date.now() };
  // Keep the 50 most recent tables only.
  const entries = Object.entries(seats).sort((a, b) => (b[1].at || 0) - (a[1].at || 0)).slice(0, 50);
  write("seats", Object.fromEntries(entries));
}

export function forgetSeat(table) {
  const seats = read("seats", {});
  delete seats[table];
  write("seats", seats);
}

/** The score pad's key in localStorage (a `storage` event names it when another tab changes the match). */
export const SCOREPAD_KEY = `${PREFIX}scorepad`;

/** The score pad's match as kept, unparsed (js/scorepad.js reads it: it may be damaged or old); null if none. */
export function keptScorepad() {
  try {
    return localStorage.getItem(SCOREPAD_KEY);
  } catch {
    return null;
  }
}

/** The score pad's match (js/scorepad.js): the server's last answer, whose `record` is the score-only record. */
export function loadScorepad() {
  const saved = read("scorepad", null);
  return saved && typeof saved === "object" && saved.record ? saved : null;
}

/** Keep the score pad's match: the text kept, or null when the browser would not store it (private mode, full
 *  storage). */
export function saveScorepad(answer) {
  const text = JSON.stringify(answer);
  try {
    localStorage.setItem(SCOREPAD_KEY, text);
    return text;
  } catch {
    return null;
  }
}

export function forgetScorepad() {
  try { localStorage.removeItem(SCOREPAD_KEY); } catch { /* nothing kept */ }
}

/** The seats whose chat lines this browser hides at *table* (a per-player mute: the server knows nothing of it). */
export function chatMutes(table) {
  const entry = read("chatMutes", {})[table];
  return entry && Array.isArray(entry.seats) ? entry.seats.filter(Number.isInteger) : [];
}

export function saveChatMutes(table, seats) {
  const all = read("chatMutes", {});
  if (seats.length) all[table] = { seats, at: Date.now() };
  else delete all[table];
  // Keep the 50 most recent tables only, as for the seats.
  const entries = Object.entries(all).sort((a, b) => (b[1].at || 0) - (a[1].at || 0)).slice(0, 50);
  write("chatMutes", Object.fromEntries(entries));
}
