"""A click on the lobby or the table is never lost to a redraw during the press.

The lobby draws itself, then asks for its lists (open tables, recent matches, the profile) and redraws the whole
lobby as each arrives.  A list that arrived between the press of a button and its release rebuilt the button under
the pointer: the release landed on the new button and the browser fired no click at all.  A CI run lost a click on
"Play against the computer" that way (the test clicked as the page loaded); a player on a slow network would lose a
tap.  Now a press on a button holds the redraw back until the release.

The test holds the open tables' answer back with a route, presses the button, lets the answer in, waits until the
page has it, and releases: the click must arrive (the quick play is asked for; its route answers with a refusal,
which the lobby shows), and the held list is drawn after it.
"""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import expect
from web_helpers import VISIBLE_POINT, play_until, quickplay, view


def test_a_list_arriving_during_a_press_does_not_swallow_the_click(new_page: Any, web_server: Any) -> None:
    page = new_page()
    held: list[Any] = []
    page.route(re.compile(r".*/api/tables(\?.*)?$"), lambda route: held.append(route))
    asked: list[str] = []

    def refuse(route: Any) -> None:
        asked.append(route.request.url)
        route.fulfill(status=503, content_type="application/json",
                      body=json.dumps({"error": "server_full", "message": "the server keeps as many open tables "
                                                                          "as it may"}))

    page.route("**/api/quickplay", refuse)
    page.goto(web_server.url + "/")
    button = page.locator("#quickplay")
    expect(button).to_be_enabled()
    page.wait_for_function("() => performance.getEntriesByType('resource').some(e => e.name.includes('/api/history'))")
    assert len(held) == 1  # the open tables are not in yet
    box = button.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    held[0].continue_()  # the list arrives while the button is pressed
    page.wait_for_function("() => performance.getEntriesByType('resource').some(e => /\\/api\\/tables/.test(e.name))")
    page.wait_for_timeout(300)  # the answer's promise and the redraw it asks for
    page.mouse.up()
    expect(page.locator(".lobby .message.error")).to_contain_text("The server is full")
    assert len(asked) == 1
    expect(page.locator(".open-tables")).to_be_visible()  # the held redraw came after the click


def test_a_redraw_of_the_table_during_a_press_does_not_swallow_the_card(new_page: Any, web_server: Any) -> None:
    """The same at the table, where the hand is redrawn whenever news arrives (a server event, the end of a
    finished trick's display, 1.3 s after it): the player presses a card, the table is redrawn, the player
    releases, and the card is played."""
    page = new_page()
    quickplay(page, web_server.url)
    play_until(page, lambda: (v := view(page))["phase"] == "play" and v["your_turn"] and len(v["legal"]) > 1)
    before = view(page)
    card = before["legal"][0]
    point = page.locator(f'.hand .card[data-card="{card}"]').evaluate(VISIBLE_POINT)
    assert point is not None
    page.mouse.move(point[0], point[1])
    page.mouse.down()
    page.evaluate("() => window.mizerkaDebug.render()")  # news arrives while the card is pressed
    page.mouse.up()
    page.wait_for_function("seq => window.mizerkaDebug.view().seq > seq", arg=before["seq"])
    assert card not in view(page)["hand"]
