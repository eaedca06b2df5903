"""An audit of the lobby, the profile panel and the join page as a demanding player uses them (js/lobby.js,
js/players.js, js/main.js), in real chromium against the real server.

* a seat's name holding an invisible character (a zero-width space or a Hangul filler, pasted along with the
  name) is refused by the server with a 422 about ``body.name``: the lobby said so in the server's English words
  ("The server refused: body.name: Value error, …") whatever the page's language;
* the join page of an invite link sent the same refusal to the error screen, whose only way on is "Back to the
  lobby": the invite was lost, although the player only had to type the name again;
* a claimed name holding such a character was answered "A name is 1 to 40 printable characters, not only
  spaces", which the player, seeing a short visible name, cannot make sense of;
* on a phone, a refusal of a button far down the lobby (Find players, Join in the open tables) was written at the
  top of the page, more than a screen above: nothing seemed to happen.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from playwright.sync_api import expect
from web_helpers import api_get, api_post, wait_for_table

PHONE = {"width": 360, "height": 740}
SEATS = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}]

BAD_NAME_EN = "This name cannot be used: it holds an invisible or unprintable character"
BAD_NAME_PL = "Tej nazwy nie można użyć: zawiera niewidoczny lub niedrukowalny znak"


def unique(stem: str) -> str:
    """A name no other test has claimed on the session's server (names are unique ignoring case)."""
    return f"{stem}{uuid.uuid4().hex[:6]}"


def private_table_with_a_free_seat(base: str) -> str:
    """A private table (off the open tables) of three seats, Ala at the first, a bot at the third: seat 1 free."""
    table = str(api_post(base, "/api/tables", {"variant": "standard,contracts=NT+MZ", "seats": SEATS,
                                               "visibility": "private"})["id"])
    assert api_post(base, f"/api/tables/{table}/join", {"name": "Ala"})["seat"] == 0
    return table


def test_a_seat_name_with_an_invisible_character_is_refused_in_the_players_language(
        new_page: Any, web_server: Any) -> None:
    page = new_page()
    page.goto(web_server.url + "/")
    page.fill("#player-name", "Ala\u200b")  # a zero-width space pasted along
    page.click("#quickplay")
    error = page.locator(".lobby > .message.error")
    expect(error).to_contain_text(BAD_NAME_EN)
    expect(error).not_to_contain_text("body.name")
    expect(page).not_to_have_url("?table=")
    page.select_option("#lang-select", "pl")
    page.fill("#player-name", "Ala\u3164")  # a Hangul filler: printable, but shows nothing
    page.click("#quickplay")
    expect(error).to_contain_text(BAD_NAME_PL)
    expect(error).not_to_contain_text("body.name")


def test_the_join_page_keeps_the_invite_when_the_name_is_refused(new_page: Any, web_server: Any) -> None:
    base = web_server.url
    table = private_table_with_a_free_seat(base)
    page = new_page()
    page.goto(f"{base}/?table={table}")
    page.fill("#join-name", "Edyta\u3164")
    page.click("#join-table")
    # still the join page: the refusal beside the field, which has the focus to type the name again
    note = page.locator(".join-screen .join-name-error")
    expect(note).to_contain_text(BAD_NAME_EN)
    expect(page.locator("#back-to-lobby")).to_be_visible()
    expect(page.locator("#join-name")).to_be_focused()
    assert api_get(base, f"/api/tables/{table}")["seats"][1]["open"]
    page.fill("#join-name", "Edyta")
    page.click("#join-table")
    wait_for_table(page)
    assert api_get(base, f"/api/tables/{table}")["seats"][1]["name"] == "Edyta"


def test_a_claim_with_an_invisible_character_says_why(new_page: Any, web_server: Any) -> None:
    page = new_page()
    page.goto(web_server.url + "/")
    for name in (unique("Ala") + "\u200b", "\u202e" + unique("Ola")):  # a zero-width space; a direction override
        page.fill("#claim-name", name)
        page.click("#claim-submit")
        error = page.locator(".profile-error")
        expect(error).to_contain_text("no invisible or blank characters")
        expect(error).not_to_contain_text("not only spaces")
        expect(page.locator("#claim-name")).to_be_focused()
    page.fill("#claim-name", "   ")  # only spaces: refused before asking, in those words
    page.click("#claim-submit")
    expect(page.locator(".profile-error")).to_have_text("A name is 1 to 40 printable characters, not only spaces.")


def test_a_refusal_far_down_the_lobby_is_brought_into_view_on_a_phone(new_page: Any, web_server: Any) -> None:
    page = new_page(viewport=PHONE)
    page.route("**/api/pair", lambda route: route.fulfill(
        status=503, content_type="application/json",
        body=json.dumps({"error": "server_full", "message": "the server is full"})))
    page.goto(web_server.url + "/")
    expect(page.locator("#pair")).to_be_visible()
    # on a phone the button is more than a screen below the top of the page, where the lobby writes a refusal
    assert page.evaluate("() => document.getElementById('pair').getBoundingClientRect().top + scrollY") > 740
    page.locator("#pair").click()  # scrolled to by the click
    error = page.locator(".lobby > .message.error")
    expect(error).to_have_text("The server is full: no new table can be opened just now. Try again later.")
    expect(error).to_be_in_viewport()
