"""An exchange with an empty talon, in real chromium against the real server.

When the players before have drawn the whole talon (forehand may exchange all 13 cards), the next player's
exchange can only keep the hand (the view's ``exchange.max`` is 0), and the page says so: "The talon is empty…",
with "Keep my hand".  It used to ask all the same to select the cards to discard ("The talon holds 0 cards."), every
card looked selectable, and a card pressed answered "You may discard at most 0."  Each card now says only that there
is nothing to exchange it for, since the bar gives the whole sentence.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect
from server_helpers import WS
from web_helpers import api_post, open_seat, view

THREE_HUMANS = [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}]


def test_an_empty_talon_leaves_only_keeping_the_hand(new_page: Any, web_server: Any) -> None:
    base = web_server.url
    table = api_post(base, "/api/tables", {"seats": THREE_HUMANS, "visibility": "private", "chat": False})["id"]
    joined = [api_post(base, f"/api/tables/{table}/join", {"name": name}) for name in ("Ala", "Bolek", "Cezary")]
    by_seat = {j["seat"]: j for j in joined}
    forehand = WS(web_server.ws_url)
    try:
        first = forehand.hello(table, by_seat[0]["token"])["view"]
        fh = first["to_move"]
        mh = (fh + 1) % 3  # middlehand: the next clockwise, the next to exchange
        forehand.hello(table, by_seat[fh]["token"])
        reply = forehand.request({"type": "act", "id": "c", "action": forehand.view["legal"][0]})
        assert reply["type"] == "ack", reply
        assert forehand.view is not None and forehand.view["phase"] == "exchange"  # the events come before the ack
        hand = forehand.view["hand"]
        assert len(hand) == 13
        reply = forehand.request({"type": "act", "id": "x", "action": "exchange " + " ".join(hand)})
        assert reply["type"] == "ack", reply
    finally:
        forehand.close()

    page = new_page()
    open_seat(page, base, table, by_seat[mh]["token"], mh)
    page.wait_for_function("() => window.mizerkaDebug.view().your_turn")
    v = view(page)
    assert v["phase"] == "exchange" and v["exchange"] == {"max": 0} and v["talon_size"] == 0
    bar = page.locator(".exchange-bar")
    expect(bar).to_contain_text("The talon is empty: there is nothing to draw, so you keep your hand.")
    expect(bar).not_to_contain_text("Select the cards to discard")
    expect(bar.locator(".exchange-selected")).to_be_hidden()  # "0 cards selected": nothing is to be selected
    # no card can be selected: each says why, and pressing one selects nothing
    cards = page.locator(".hand .card")
    expect(cards).to_have_count(13)
    expect(page.locator(".hand .card.playable")).to_have_count(0)
    expect(cards.first).to_have_attribute("aria-disabled", "true")
    # a card's own reason is short: the bar above already gives the whole sentence, and the tip under the hand
    # used to repeat it word for word
    expect(cards.first).to_have_attribute("data-reason", "There is nothing to exchange it for.")
    cards.first.hover()
    expect(page.locator(".hand-tip")).to_have_text("There is nothing to exchange it for.")
    assert page.locator(".me").inner_text().count("The talon is empty") == 1
    cards.first.evaluate("(card) => card.click()")
    expect(page.locator(".hand .card.selected")).to_have_count(0)
    expect(page.locator(".me .message.error")).to_contain_text(": There is nothing to exchange it for.")
    expect(page.locator(".me")).not_to_contain_text("at most 0")
    confirm = page.locator(".exchange-confirm")
    expect(confirm).to_have_text("Keep my hand")
    confirm.click()
    page.wait_for_function(f"() => window.mizerkaDebug.view().exchange_counts[{mh}] === 0")
    expect(page.locator(".exchange-bar")).to_have_count(0)
