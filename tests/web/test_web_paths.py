"""The page's own addresses (js/paths.js), in real chromium against the real server.

The table's address was spelled in five places of the client (the router's redirects, the invite, the profile
panel's link to a seat); they now all come from ``tablePath``, and the match, player, score pad and leaderboard
addresses from their own helpers.  Each address must read back, through the router's ``URLSearchParams``, as the
id it was made from, whatever characters the id holds, and the table's must open that table.
"""

from __future__ import annotations

from typing import Any

from web_helpers import api_post, wait_for_table

ODD_IDS = ["Vq3xY", "a b", "x&watch=1", "bot:expert", "ż#?/%"]


def test_every_address_reads_back_as_its_id(new_page: Any, web_server: Any) -> None:
    page = new_page()
    page.goto(web_server.url + "/")
    read = page.evaluate("""async (ids) => {
      const paths = await import('/js/paths.js');
      const back = (path, key) => new URLSearchParams(new URL(path, location.origin).search).get(key);
      return {
        fixed: [paths.LOBBY_PATH, paths.SCOREPAD_PATH, paths.LEADERBOARD_PATH, paths.REVIEW_PATH],
        rows: ids.map((id) => ({
          table: back(paths.tablePath(id), 'table'),
          plain: back(paths.tablePath(id), 'watch'),
          watched: back(paths.tablePath(id, { watch: true }), 'table'),
          watch: back(paths.tablePath(id, { watch: true }), 'watch'),
          match: back(paths.matchPath(id), 'match'),
          player: back(paths.playerPath(id), 'player'),
        })),
      };
    }""", ODD_IDS)
    assert read["fixed"] == ["/", "/?scorepad=1", "/?leaderboard=1", "/?review=1"]
    for wanted, row in zip(ODD_IDS, read["rows"], strict=True):
        assert row == {"table": wanted, "plain": None, "watched": wanted, "watch": "1", "match": wanted,
                       "player": wanted}, wanted


def test_the_invite_link_opens_its_table(new_page: Any, web_server: Any) -> None:
    base = web_server.url
    seats = [{"kind": "human"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]
    table = api_post(base, "/api/tables", {"variant": "standard", "seats": seats})["id"]
    page = new_page()
    page.goto(base + "/")
    invite = page.evaluate("async (id) => (await import('/js/table.js')).inviteUrl(id)", table)
    assert invite == f"{base}/?table={table}"
    page.goto(invite + "&watch=1")
    assert wait_for_table(page)["table"] == table
