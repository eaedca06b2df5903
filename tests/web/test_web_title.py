"""The tab's title says when it is your turn, in real chromium against the real server.

A player who waits for people at a table in one tab and reads something in another did not see his turn come: the
title was always "Mizerka".  Now it is "Your turn · Mizerka" (in the page's language) while his seat is to act, and
"Mizerka" otherwise; a spectator's title never claims a turn.
"""

from __future__ import annotations

import time
from typing import Any

from playwright.sync_api import expect
from web_helpers import act_once, api_post, seat_at, view, wait_for_table

SEATS = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}]


def to_act(pages: list[Any], timeout: float = 20.0) -> Any:
    """The page whose seat is to act, once one is (the bot plays its turns meanwhile)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for page in pages:
            if page.locator("dialog.summary-dialog[open]").count():
                page.locator("dialog.summary-dialog[open] .btn.primary").click()
            if view(page).get("your_turn"):
                return page
        time.sleep(0.05)
    raise AssertionError("nobody's turn came")


def test_the_title_says_when_it_is_your_turn(new_page: Any, web_server: Any) -> None:
    base = web_server.url
    table = api_post(base, "/api/tables", {"variant": "standard,contracts=NT+MZ", "seats": SEATS})["id"]
    invite = f"{base}/?table={table}"
    pages = [seat_at(new_page, base, invite, name) for name in ("Ala", "Bolek")]
    watcher = new_page()
    watcher.goto(invite + "&watch=1")
    wait_for_table(watcher)
    for _ in range(4):  # four turns in a row, whoever's they are
        page = to_act(pages)
        other = pages[1 - pages.index(page)]
        expect(page).to_have_title("Your turn · Mizerka")
        expect(other).to_have_title("Mizerka")
        expect(watcher).to_have_title("Mizerka")
        assert act_once(page) is not None
    # in the page's language
    page = to_act(pages)
    page.select_option("#lang-select", "pl")
    expect(page).to_have_title("Twój ruch · Mizerka")
    # back in the lobby the title is the game's name again
    page.goto(base + "/")
    expect(page).to_have_title("Mizerka")
