"""A finished match's table link, in real chromium against the real server.

* Opened once the server has unloaded the table from memory (a day later, or after a restart), the page shows the
  final position, the result dialog with the score sheet, the record's download and the last deal's review, not
  "This table does not exist or has ended."  The seat's page still offers "Play again", and it works; a
  spectator's page offers the way back to the lobby.
* The join page of a finished rated table says the match is over, and no longer asks the visitor to claim a name
  and "open this link again" to sit there (nobody sits down at a finished match), with or without a profile, the
  table in memory or not.
* A spectator's result dialog of a finished match ends with its buttons, not with the text "null" (the DOM's own
  ``append`` writes a ``null`` as that word); the seat's dialog keeps its "Play again".
"""

from __future__ import annotations

import re
import threading
from typing import Any

from playwright.sync_api import expect
from server_helpers import read_back
from test_web_history import finished_public_match, post
from web_helpers import (
    SHORT,
    api_get,
    api_post,
    finished_table,
    keep_profile,
    open_seat,
    play_through_protocol,
    unload,
    view,
    wait_for_other_table,
    wait_for_table,
    wait_for_view_of,
)

# the rated table's note on its join page, in both its forms (main.js showJoin: join.ratedClaim, join.rated)
CLAIM_NOTE = "only players with a claimed name can sit here"
RATED_NOTE = "the result changes the players' ratings"


def test_a_finished_tables_link_after_the_unload_shows_the_final_position(new_page: Any, web_server: Any) -> None:
    base = web_server.url
    table, entry = finished_public_match(base, web_server, "Yesterday")
    unload(web_server, table)

    # a browser without a seat at it: the link says the match is over (not "does not exist"), and offers its final
    # position and its score sheet page
    watcher = new_page()
    watcher.goto(f"{base}/?table={table}")
    expect(watcher.locator(".join-screen .over-text")).to_have_text("The match at this table is over.")
    expect(watcher.get_by_text("This table does not exist or has ended.")).to_have_count(0)
    expect(watcher.get_by_role("link", name="Score sheet and replay")).to_have_attribute("href", f"/?match={table}")
    watcher.get_by_role("button", name="See the final position").click()
    v = wait_for_table(watcher)
    assert v["status"] == "finished" and v["phase"] == "over" and v["seat"] is None
    assert v["totals"] == entry["totals"] and v["hand"] == []
    over = watcher.locator("dialog.over-dialog[open]")
    expect(over).to_be_visible()
    expect(over.locator(".sheet-deals tbody tr")).to_have_count(6)
    expect(over.get_by_role("button", name="Back to the lobby")).to_be_focused()
    expect(over.get_by_role("button", name="Play again")).to_have_count(0)
    expect(over.get_by_role("button", name="Review the last deal")).to_have_count(1)
    assert table in web_server.hub.tables  # read back from the database

    # in Polish, the join screen of the finished table
    polish = new_page()
    polish.goto(base + "/")
    polish.select_option("#lang-select", "pl")
    polish.goto(f"{base}/?table={table}")
    expect(polish.locator(".join-screen .over-text")).to_have_text("Partia przy tym stole już się skończyła.")
    expect(polish.get_by_role("button", name="Zobacz wynik końcowy")).to_be_visible()


def test_the_seat_comes_back_to_its_finished_table_and_plays_again(new_page: Any, web_server: Any) -> None:
    base = web_server.url
    seats = [{"kind": "human"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]
    table = post(base, "/api/tables", {"seats": seats, "variant": "standard,contracts=NT+MZ",
                                       "visibility": "private", "spectators": False})["id"]
    joined = post(base, f"/api/tables/{table}/join", {"name": "Ala"})
    final = play_through_protocol(web_server, table, joined["token"], lambda v: v["phase"] == "over")
    unload(web_server, table)

    page = new_page()
    v = open_seat(page, base, table, joined["token"], joined["seat"])
    assert v["seat"] == joined["seat"] and v["phase"] == "over" and v["totals"] == final["totals"]
    assert v["score_sheet"] == read_back(final["score_sheet"])  # read back from the database: no annotations
    over = page.locator("dialog.over-dialog[open]")
    expect(over).to_be_visible()
    expect(over.locator(".sheet-deals tbody tr")).to_have_count(6)
    expect(over.locator(".winner-banner")).to_have_count(1)
    play_again = over.get_by_role("button", name="Play again")
    expect(play_again).to_be_focused()
    play_again.click()
    new_table = wait_for_other_table(page, table)
    wait_for_view_of(page, new_table)
    assert view(page)["seat"] == joined["seat"] and view(page)["status"] == "playing"

    # a browser without the seat is told the match is over, and offered nothing to watch: the table admits no
    # spectators, and its link to watch it is refused
    stranger = new_page()
    stranger.goto(f"{base}/?table={table}")
    expect(stranger.locator(".join-screen .over-text")).to_be_visible()
    expect(stranger.locator("#watch-table")).to_have_count(0)
    expect(stranger.locator("#open-match")).to_have_count(0)
    stranger.goto(f"{base}/?table={table}&watch=1")
    expect(stranger.locator(".error-text")).to_have_text("This table admits no spectators.")


def dialog_text_nodes(dialog: Any) -> list[str]:
    """The text written straight into the dialog element, outside any of its parts (where a stray ``null`` went)."""
    nodes: list[str] = dialog.evaluate(
        "d => [...d.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent)")
    return nodes


def test_a_finished_rated_tables_join_page_asks_nobody_to_claim_a_name(new_page: Any, web_server: Any) -> None:
    base = web_server.url
    claimed = api_post(base, "/api/players", {"name": "Zosia Audyt"})
    seats = [{"kind": "human"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]
    table = api_post(base, "/api/tables", {"seats": seats, "variant": SHORT, "visibility": "public",
                                           "rated": True})["id"]
    joined = api_post(base, f"/api/tables/{table}/join", {"player_key": claimed["key"]})

    # while the match is on, a visitor without a profile is told to claim a name first (what the fix keeps)
    playing = new_page()
    playing.goto(f"{base}/?table={table}")
    expect(playing.locator(".join-screen .rated-note")).to_contain_text(CLAIM_NOTE)

    play_through_protocol(web_server, table, joined["token"], lambda v: v["phase"] == "over")
    assert api_get(base, f"/api/tables/{table}")["status"] == "finished"

    # the finished table in memory, a visitor without a profile: the match is over, and that is all
    visitor = new_page()
    visitor.goto(f"{base}/?table={table}")
    screen = visitor.locator(".join-screen")
    expect(screen.locator(".over-text")).to_have_text("The match at this table is over.")
    expect(visitor.get_by_role("button", name="See the final position")).to_be_visible()
    expect(screen.locator(".rated-note")).to_have_count(0)
    expect(screen).not_to_contain_text(CLAIM_NOTE)
    expect(screen).not_to_contain_text("open this link again")

    # unloaded from memory (a day later, a restart), a visitor holding a profile: no note of either kind
    unload(web_server, table)
    member = new_page()
    keep_profile(member, base, {"key": claimed["key"], "id": claimed["player"]["id"],
                                "name": claimed["player"]["name"]})
    member.goto(f"{base}/?table={table}")
    screen = member.locator(".join-screen")
    expect(screen.locator(".over-text")).to_have_text("The match at this table is over.")
    expect(screen.locator(".rated-note")).to_have_count(0)
    expect(screen).not_to_contain_text(RATED_NOTE)
    expect(screen).not_to_contain_text(CLAIM_NOTE)


def test_the_spectators_result_dialog_has_no_stray_null(new_page: Any, web_server: Any) -> None:
    base = web_server.url
    table, joined, _final = finished_table(web_server, spectators=True)
    unload(web_server, table)

    # a visitor who opens the link and asks for the final position: a spectator of the finished match
    visitor = new_page()
    visitor.goto(f"{base}/?table={table}")
    visitor.get_by_role("button", name="See the final position").click()
    dialog = visitor.locator("dialog.over-dialog[open]")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_role("button", name="Back to the lobby")).to_be_visible()
    expect(dialog.get_by_role("button", name="Play again")).to_have_count(0)
    assert visitor.evaluate("() => window.mizerkaDebug.view().seat") is None
    assert dialog_text_nodes(dialog) == []
    assert not re.search(r"\bnull\b", dialog.inner_text()), dialog.inner_text()

    # the watch link straight away: the same dialog, the same ending
    watcher = new_page()
    watcher.goto(f"{base}/?table={table}&watch=1")
    dialog = watcher.locator("dialog.over-dialog[open]")
    expect(dialog.get_by_role("button", name="Back to the lobby")).to_be_visible()
    assert dialog_text_nodes(dialog) == []
    assert not re.search(r"\bnull\b", dialog.inner_text()), dialog.inner_text()

    # the seat's dialog still has its "Play again" (and no "null" either)
    seat = new_page()
    open_seat(seat, base, table, joined["token"], joined["seat"])
    dialog = seat.locator("dialog.over-dialog[open]")
    expect(dialog.get_by_role("button", name="Play again")).to_be_visible()
    assert "null" not in dialog_text_nodes(dialog)
    assert not re.search(r"\bnull\b", dialog.inner_text()), dialog.inner_text()


def test_a_player_who_leaves_after_the_match_is_shown_as_gone_not_as_a_bot(new_page: Any, web_server: Any) -> None:
    """Bolek left once the match was over: Ala's page showed his seat played by a computer (a Bot badge, the
    stand-in the server gave it), as if a bot had taken his place in the finished match.  It keeps his name now,
    marked as gone."""
    base = web_server.url
    table = api_post(base, "/api/tables", {"seats": [{"kind": "human"}, {"kind": "human"},
                                                     {"kind": "bot", "level": "random"}],
                                           "variant": SHORT, "visibility": "private"})["id"]
    ala = api_post(base, f"/api/tables/{table}/join", {"name": "Ala"})
    bolek = api_post(base, f"/api/tables/{table}/join", {"name": "Bolek"})

    def over(v: dict[str, Any]) -> bool:
        return bool(v["phase"] == "over")

    other = threading.Thread(target=play_through_protocol, args=(web_server, table, bolek["token"], over))
    other.start()
    play_through_protocol(web_server, table, ala["token"], over)
    other.join()
    page = new_page()
    open_seat(page, base, table, ala["token"], ala["seat"])
    expect(page.locator("dialog.over-dialog[open]")).to_be_visible()
    page.keyboard.press("Escape")
    api_post(base, f"/api/tables/{table}/leave", {"token": bolek["token"]})
    seat = page.locator(f'.seat[data-seat="{bolek["seat"]}"]')
    expect(seat.locator(".left-badge")).to_have_text("left the table")
    expect(seat.locator(".seat-name")).to_have_text("Bolek")
    expect(seat.locator(".bot-badge")).to_have_count(0)
    assert view(page)["players"][bolek["seat"]]["left"] is True
