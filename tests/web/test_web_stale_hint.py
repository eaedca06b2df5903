"""A hint that comes back after the position it was asked for is gone, in real chromium against the real server.

A hint is the expert bot's decision, computed in the server's pool of searching bots: on a busy server it takes a
while.  A player who asked for one and played a card meanwhile got, when the answer came, "Suggested: Queen of
diamonds" under a later trick (the position the bot judged was gone), and that card marked as the suggestion
in the hand; in the exchange, the hint's discards were selected in an exchange already made.  The page now shows
a hint only for the position it was asked about.

The page's websocket is routed through Playwright, which holds back the server's hint reply until the test lets
it through.
"""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import expect
from web_helpers import api_post, open_seat, view


class HoldHints:
    """The page's connections, with the server's hint replies held back until ``release``."""

    def __init__(self) -> None:
        self.held: list[tuple[Any, str]] = []
        self.hold = True

    def route(self, ws: Any) -> None:
        server = ws.connect_to_server()

        def from_server(message: Any) -> None:
            if self.hold and isinstance(message, str) and json.loads(message).get("type") == "hint":
                self.held.append((ws, message))
            else:
                ws.send(message)

        server.on_message(from_server)
        ws.on_message(lambda message: server.send(message))

    def release(self) -> None:
        self.hold = False
        for ws, message in self.held:
            ws.send(message)
        self.held.clear()


def my_turn_to_play(page: Any) -> dict[str, Any]:
    """Play the page's seat (first contract, keep the hand, first legal card) until it is to play a card."""
    page.wait_for_function("""() => { const v = window.mizerkaDebug.view();
        return v && v.your_turn && ["choose", "exchange", "play"].includes(v.phase); }""")
    for _ in range(60):
        v = view(page)
        if v["your_turn"] and v["phase"] == "play":
            return v
        if v["your_turn"] and v["phase"] == "choose":
            page.locator("dialog[open] .contract-btn").first.click()
        elif v["your_turn"] and v["phase"] == "exchange":
            page.locator(".exchange-confirm").click()
        page.wait_for_function(f"""() => {{ const v = window.mizerkaDebug.view();
            return v.seq !== {v["seq"]} && (v.your_turn || v.phase === "play"); }}""")
        page.wait_for_function("() => window.mizerkaDebug.view().your_turn")
    raise AssertionError("never the seat's turn to play")


def test_a_hint_for_a_position_gone_by_is_not_shown(new_page: Any, web_server: Any) -> None:
    entry = api_post(web_server.url, "/api/quickplay", {"name": "Ala", "level": "random"})
    table, token, seat = entry["table"]["id"], entry["token"], entry["seat"]
    page = new_page()
    hints = HoldHints()
    page.route_web_socket(re.compile(r"/ws$"), hints.route)
    open_seat(page, web_server.url, table, token, seat)
    before = my_turn_to_play(page)
    page.locator(".hint-btn").click()
    # the hint is on its way (held back); the player does not wait for it and plays a card
    card = before["legal"][-1]
    page.locator(f'.hand .card[data-card="{card}"]').evaluate("(button) => button.click()")
    page.wait_for_function(f"() => window.mizerkaDebug.view().seq > {before['seq']}")
    assert card not in view(page)["hand"]
    hints.release()
    page.wait_for_timeout(500)  # the answer arrives and is handled
    expect(page.locator(".me")).not_to_contain_text("Suggested")
    expect(page.locator(".hand .card.hinted")).to_have_count(0)
    # a hint asked for now is shown
    mine = my_turn_to_play(page)
    page.locator(".hint-btn").click()
    expect(page.locator(".me")).to_contain_text("Suggested")
    assert view(page)["seq"] == mine["seq"]
