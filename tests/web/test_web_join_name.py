"""The name a friend sits down under, asked on the invite link's page, in real chromium.

A friend who opens an invite link lands on the table's join page, not in the lobby, and never saw the lobby's name
field: he used to sit down as "Player" (the default name), beside every other friend who did the same, so that the
seats, the chat and the score sheet could not tell them apart.  The join page now asks for the name, filled with
the one this browser remembers, which the lobby then shows too; Enter takes the free seat.  With a profile kept in
the browser there is no field: the seat takes the profile's name.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect
from web_helpers import api_get, api_post, claim_profile, wait_for_table

SEATS = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}]


def table_with_a_free_seat(base: str) -> str:
    """A table of three seats, Ala at the first (joined through the REST API), a bot at the third: seat 1 is free."""
    table = str(api_post(base, "/api/tables", {"variant": "standard,contracts=NT+MZ", "seats": SEATS})["id"])
    assert api_post(base, f"/api/tables/{table}/join", {"name": "Ala"})["seat"] == 0
    return table


def test_the_join_page_asks_for_the_name_and_enter_takes_the_seat(new_page: Any, web_server: Any) -> None:
    base = web_server.url
    table = table_with_a_free_seat(base)
    page = new_page()
    page.goto(f"{base}/?table={table}")
    field = page.locator("#join-name")
    expect(field).to_be_visible()
    expect(field).to_have_value("")
    expect(field).to_have_attribute("placeholder", "Player")
    expect(page.get_by_label("Your name")).to_have_count(1)
    field.fill("Edyta")
    field.press("Enter")
    wait_for_table(page)
    assert api_get(base, f"/api/tables/{table}")["seats"][1]["name"] == "Edyta"

    page.goto(base + "/")  # the lobby shows the name given on the join page
    expect(page.locator("#player-name")).to_have_value("Edyta")
    other = table_with_a_free_seat(base)
    page.goto(f"{base}/?table={other}")
    expect(page.locator("#join-name")).to_have_value("Edyta")


def test_the_name_is_asked_when_sitting_in_for_the_computer_too(new_page: Any, web_server: Any) -> None:
    base = web_server.url
    table = str(api_post(base, "/api/tables", {"variant": "standard,contracts=NT+MZ", "seats": [
        {"kind": "human"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]})["id"])
    assert api_post(base, f"/api/tables/{table}/join", {"name": "Ala"})["seat"] == 0  # the match begins
    page = new_page()
    page.goto(f"{base}/?table={table}")
    page.fill("#join-name", "Franek")
    page.click("#take-over-2")
    wait_for_table(page)
    assert api_get(base, f"/api/tables/{table}")["seats"][2]["name"] == "Franek"


def test_a_profile_sits_under_its_name_without_a_field(new_page: Any, web_server: Any) -> None:
    base = web_server.url
    table = table_with_a_free_seat(base)
    page = new_page()
    page.goto(base + "/")
    claim_profile(page, base, "Grzegorz")
    page.goto(f"{base}/?table={table}")
    expect(page.locator("#join-table")).to_be_visible()
    expect(page.locator("#join-name")).to_have_count(0)
    page.click("#join-table")
    wait_for_table(page)
    seat = api_get(base, f"/api/tables/{table}")["seats"][1]
    assert seat["name"] == "Grzegorz" and seat["registered"], seat
