"""Giving a seat up before the match, in real chromium against the real server.

A friend who sat down at the wrong table, or who makes room for someone else, had no way to leave it from the
browser: the server's ``leave`` was never sent by the page, and closing the page kept the seat taken (before the
start no computer player stands in), so the table stayed full for whoever the link was meant for.  The waiting
panel now offers **Leave this table** to a seated player: after a confirmation the seat opens again, the browser
forgets its token, and the lobby opens; the others see the seat empty.
"""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect
from web_helpers import api_get, api_post, open_seat

TWO_FRIENDS_AND_A_BOT = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}]
THREE_FRIENDS = [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}]


def test_a_seated_player_leaves_a_waiting_table(new_page: Any, web_server: Any) -> None:
    base = web_server.url
    table = api_post(base, "/api/tables", {"seats": TWO_FRIENDS_AND_A_BOT, "visibility": "private"})["id"]
    ala = api_post(base, f"/api/tables/{table}/join", {"name": "Ala"})
    page = new_page()
    v = open_seat(page, base, table, ala["token"], ala["seat"])
    assert v["status"] == "waiting" and v["seat"] == ala["seat"]
    leave = page.locator("#leave-table")
    expect(leave).to_have_text("Leave this table")

    # Cancel, or Escape, changes nothing (Escape is the dialog's: the score sheet open beside stays open)
    leave.click()
    dialog = page.locator("dialog.leave-confirm[open]")
    expect(dialog).to_contain_text("Leave this table?")
    expect(page.locator("#leave-cancel")).to_be_focused()
    page.locator("#leave-cancel").click()
    expect(dialog).to_have_count(0)
    expect(page.locator("#sheet-panel")).to_be_visible()
    leave.click()
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    expect(page.locator("#sheet-panel")).to_be_visible()
    expect(leave).to_be_focused()
    seats = api_get(base, f"/api/tables/{table}")["seats"]
    assert seats[ala["seat"]]["open"] is False and seats[ala["seat"]]["name"] == "Ala"

    # Leave: the seat opens again, the browser forgets it, the lobby opens
    leave.click()
    page.locator("#leave-yes").click()
    page.wait_for_url(re.compile(r"/$"))
    seats = api_get(base, f"/api/tables/{table}")["seats"]
    assert seats[ala["seat"]]["open"] is True
    kept = page.evaluate("() => JSON.parse(localStorage.getItem('mizerka.seats') || '{}')")
    assert table not in kept
    # the table's link now offers the seat to take, as to anyone
    page.goto(f"{base}/?table={table}")
    expect(page.locator("#join-table")).to_be_visible()
    # someone else takes the seat she gave up; the old token holds nothing any more
    bolek = api_post(base, f"/api/tables/{table}/join", {"name": "Bolek"})
    assert bolek["seat"] == ala["seat"]


def test_the_others_see_the_seat_open_again(new_page: Any, web_server: Any) -> None:
    base = web_server.url
    table = api_post(base, "/api/tables", {"seats": THREE_FRIENDS, "visibility": "private"})["id"]
    ala = api_post(base, f"/api/tables/{table}/join", {"name": "Ala"})
    edyta = api_post(base, f"/api/tables/{table}/join", {"name": "Edyta"})
    ala_page = new_page()
    open_seat(ala_page, base, table, ala["token"], ala["seat"])
    edyta_page = new_page()
    open_seat(edyta_page, base, table, edyta["token"], edyta["seat"])
    seats = ala_page.locator(".waiting-seats li")
    expect(seats.nth(edyta["seat"])).to_have_text("Edyta")
    edyta_page.locator("#leave-table").click()
    edyta_page.locator("#leave-yes").click()
    edyta_page.wait_for_url(re.compile(r"/$"))
    expect(seats.nth(edyta["seat"])).to_have_text("empty seat")
    # once the match is on, the waiting panel and its Leave are gone
    ala_page.locator(".fill-btn").click()
    ala_page.wait_for_function("() => window.mizerkaDebug.view().status === 'playing'")
    expect(ala_page.locator("#leave-table")).to_have_count(0)
