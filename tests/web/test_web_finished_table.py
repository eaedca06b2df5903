"""A finished match's table link, opened once the server has unloaded the table from memory (a day later, or after
a restart), in real chromium against the real server: the page shows the final position, the result dialog with
the score sheet, the record's download and the last deal's review, not "This table does not exist or has ended."
The seat's page still offers "Play again", and it works; a spectator's page offers the way back to the lobby."""

from __future__ import annotations

import time
from typing import Any

from playwright.sync_api import expect
from test_web_audit_s12 import open_seat, play_through_protocol
from test_web_history import finished_public_match, post
from web_helpers import view, wait_for_other_table, wait_for_table, wait_for_view_of


def unload(server: Any, table: str) -> None:
    """What the hub's sweep does to a finished table nobody is at: it is dropped from memory (only this one: the
    other tests' tables of the shared server stay).  The connection that played it has closed, but the server
    detaches it a moment after the closing handshake (its reader sees the end, then the connection lets go):
    waited for, as the sweep, minutes later, never has to."""

    def drop() -> bool:
        live = server.hub.tables[table]
        assert live.table.status == "finished"
        if live.clients:
            return False
        del server.hub.tables[table]
        return True

    deadline = time.monotonic() + 10
    while not server.call(drop):
        assert time.monotonic() < deadline, "the table's last connection never let go"
        time.sleep(0.02)


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
    assert v["score_sheet"] == final["score_sheet"]
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
