"""Undo in the browser: at a game against the computer, play a card, press Undo (then the U key), and the card is
back in the hand, the focus on it, and the screen reader told what was taken back."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import expect
from test_web_polish import quickplay_seat
from web_helpers import click_card, open_seat, play_through_protocol, play_until, quickplay, view


def test_undo_brings_the_card_back_into_the_hand(new_page: Any, web_server: Any) -> None:
    page = new_page()
    quickplay(page, web_server.url)

    def my_card_now() -> bool:
        v = view(page)
        return bool(v.get("phase") == "play" and v.get("your_turn") and len(v["hand"]) >= 4
                    and not page.locator("dialog[open]").count())

    play_until(page, my_card_now, timeout=90)
    before = view(page)
    assert not page.locator(".undo-btn").count() or before["can_undo"]
    for attempt, how in enumerate(("button", "key")):
        card = page.locator(".hand .card.playable").first
        code = card.get_attribute("data-card")
        click_card(page, card)
        page.wait_for_function("seq => window.mizerkaDebug.view().seq > seq", arg=before["seq"])
        assert code not in view(page)["hand"]
        undo = page.locator(".undo-btn")
        expect(undo).to_be_visible()
        expect(undo).to_have_text("Undo")
        if how == "button":
            undo.click()
        else:
            page.locator("body").focus()
            page.keyboard.press("u")
        page.wait_for_function(
            "([seq, code]) => { const v = window.mizerkaDebug.view(); return v.seq === seq && v.hand.includes(code); }",
            arg=[before["seq"], code])
        after = view(page)
        assert after["hand"] == before["hand"] and after["trick"] == before["trick"] and after["your_turn"]
        expect(page.locator(f'.hand .card[data-card="{code}"]')).to_have_count(1)
        # the focus is on the hand (on the card taken back), and the live region said what was taken back
        assert page.evaluate("() => document.activeElement.closest('.hand') !== null")
        page.wait_for_function(
            "n => window.mizerkaDebug.announcements().filter(s => s.startsWith('Taken back: You:')).length > n",
            arg=attempt)
    # play goes on from there: the bots answer the card played now (or, when it ended the trick and won it, the
    # player leads the next one: his turn again, with no bot card in between)
    click_card(page, page.locator(".hand .card.playable").first)
    page.wait_for_function(
        "seq => { const v = window.mizerkaDebug.view(); return v.seq > seq + 1 || (v.seq > seq && v.your_turn); }",
        arg=before["seq"], timeout=20000)


def test_a_reconnection_after_an_undo_says_the_journal_epoch(new_page: Any, web_server: Any) -> None:
    """After an undo the event numbers past the cut name other events: the page keeps the journal's ``epoch`` of
    its last welcome or snapshot and says it with ``last_seq`` when it reconnects (docs/protocol.md), so that a
    page that missed an undo is told ``bad_seq`` (and starts afresh) instead of going on from numbers that now
    name other events.  Here the page saw the undo: its hello after a dropped connection is taken as it is."""
    table, token, seat = quickplay_seat(web_server.url)
    play_through_protocol(web_server, table, token, lambda v: (
        v["phase"] == "play" and v["your_turn"] and v["can_undo"] and len(v["hand"]) >= 3))
    page = new_page()
    hellos: list[dict[str, Any]] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: hellos.extend(
        m for m in [json.loads(payload)] if m.get("type") == "hello")))
    open_seat(page, web_server.url, table, token, seat)
    page.wait_for_function("() => window.mizerkaDebug.view().can_undo")
    seq = view(page)["seq"]
    page.locator(".undo-btn").click()
    page.wait_for_function("seq => window.mizerkaDebug.view().seq < seq", arg=seq)
    back = view(page)["seq"]
    page.evaluate("() => window.mizerkaDebug.socket.simulateDrop()")
    page.wait_for_function("() => window.mizerkaDebug.states.filter(s => s === 'open').length >= 2")
    assert hellos[-1]["last_seq"] == back and hellos[-1]["epoch"] == 1, hellos
    assert view(page)["seq"] == back and view(page)["your_turn"]
