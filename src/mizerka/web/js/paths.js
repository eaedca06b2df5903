// The page's own addresses, spelled in one place.  The router in main.js reads them back from the query string:
//
//   /                   the lobby
//   /?quickplay=1       start a game against bots at once (what `make run` prints)
//   /?table=ID          a table: your seat if this browser holds one, else join or watch
//   /?table=ID&watch=1  watch a table
//   /?scorepad=1        the score pad: the score sheet of a match played with real cards
//   /?match=ID          a finished match, read only: its score sheet and each deal's review (the lobby's recent games)
//   /?leaderboard=1     the leaderboard of rated play
//   /?player=ID         a player's page: rating, statistics, recent rated matches (a bot level's id: bot:expert)
//   /?review=1          review a game record (a file or pasted text): its score sheet and each deal's review
//
// An id is always encoded, so that an id the server never makes still gives an address that reads back as itself.

export const LOBBY_PATH = "/";
export const SCOREPAD_PATH = "/?scorepad=1";
export const LEADERBOARD_PATH = "/?leaderboard=1";
export const REVIEW_PATH = "/?review=1";

/** The address of table *id*; with *watch*, as a spectator.
 *
 *      tablePath("Vq3x")                 // "/?table=Vq3x"
 *      tablePath("a b", { watch: true }) // "/?table=a%20b&watch=1"
 */
export function tablePath(id, { watch = false } = {}) {
  return `/?table=${encodeURIComponent(id)}${watch ? "&watch=1" : ""}`;
}

/** The address of a finished match's read-only page (its id is its table's). */
export function matchPath(id) {
  return `/?match=${encodeURIComponent(id)}`;
}

/** The address of a player's page (a bot level's id is "bot:expert"). */
export function playerPath(id) {
  return `/?player=${encodeURIComponent(id)}`;
}
