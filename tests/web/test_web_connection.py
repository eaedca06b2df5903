"""The page's connection to the server lost and found again, in real chromium against the real server.

A connection that stalls or dies without a word is given up and opened again.  The page's socket (js/net.js)
waited for ever on a connection that brought nothing: a hello never answered (a handshake or a hello lost on a
network that changed under it), or an open connection gone silent (a laptop woken from sleep, a router restarted),
which a browser may take minutes to notice.  The page said "connecting…", or showed a frozen table, while the
server gave the unattended seat to a stand-in.  Now:

* no welcome within ``HELLO_TIMEOUT_MS`` of opening a connection: the socket closes it and connects again;
* no frame from the server for ``QUIET_TIMEOUT_MS``: the socket pings it; a live server answers (pong) and the
  connection stays; nothing for ``PING_TIMEOUT_MS`` more: the socket connects again, with its seat and the last
  event it saw, as after any network blip.

Those tests route the connections through Playwright's websocket routing, which can hold back what either side
sends (a lost link), and the page's clock is Playwright's, moved forward by the test instead of waiting the real
seconds.

While the connection is down, a card clicked says it was not sent ("Not sent: the server cannot be reached;
reconnecting…"), never "The server refused: …" (the server refused nothing: it was not reached), and the sentence
goes once the connection is back (it used to stay under the seat until the next card was played).  The same seat
open in two tabs (two connections) follows itself: what one does, the other sees.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import expect
from web_helpers import VISIBLE_POINT, play_until, quickplay, quickplay_seat, seat_page, view, wait_for_table

pytest.importorskip("fastapi", reason="the browser tests need the 'server' extra (pip install -e '.[dev]')")

# js/net.js's defaults (test_the_defaults_are_the_documented_ones reads them from the page)
HELLO_TIMEOUT_MS = 20_000
QUIET_TIMEOUT_MS = 25_000
PING_TIMEOUT_MS = 10_000

NOT_SENT = "Not sent: the server cannot be reached; reconnecting…"


class Link:
    """What the page's websocket connections went through: each connection's route, the frames the page sent on
    each, and a switch that makes the first connection lose everything both ways (a dead network)."""

    def __init__(self, *, answer_first_hello: bool = True) -> None:
        self.routes: list[Any] = []
        self.sent: list[list[dict[str, Any]]] = []  # per connection, the page's frames
        self.alive = True
        self.answer_first_hello = answer_first_hello

    def route(self, ws: Any) -> None:
        index = len(self.routes)
        self.routes.append(ws)
        self.sent.append([])
        if index == 0 and not self.answer_first_hello:
            # the handshake is taken, and the hello never answered: a stalled connection
            ws.on_message(lambda message: self.sent[index].append(json.loads(message)))
            return
        server = ws.connect_to_server()
        first = index == 0

        def from_page(message: Any) -> None:
            self.sent[index].append(json.loads(message))
            if self.alive or not first:
                server.send(message)

        def from_server(message: Any) -> None:
            if self.alive or not first:
                ws.send(message)

        ws.on_message(from_page)
        server.on_message(from_server)


def open_quickplay(page: Any, base_url: str, link: Link) -> None:
    page.clock.install()
    page.route_web_socket(re.compile(r"/ws$"), link.route)
    page.goto(base_url + "/?quickplay=1")
    page.wait_for_url(re.compile(r"\?table="))


def states(page: Any) -> list[str]:
    return list(page.evaluate("() => window.mizerkaDebug.states"))


def test_the_defaults_are_the_documented_ones(new_page: Any, web_server: Any) -> None:
    page = new_page()
    page.goto(web_server.url + "/")
    defaults = page.evaluate("""async () => {
        const net = await import("/js/net.js");
        return [net.HELLO_TIMEOUT_MS, net.QUIET_TIMEOUT_MS, net.PING_TIMEOUT_MS];
    }""")
    assert defaults == [HELLO_TIMEOUT_MS, QUIET_TIMEOUT_MS, PING_TIMEOUT_MS]


def test_a_hello_never_answered_is_given_up_and_the_page_connects_again(new_page: Any, web_server: Any) -> None:
    page = new_page()
    link = Link(answer_first_hello=False)
    open_quickplay(page, web_server.url, link)
    page.wait_for_function("() => window.mizerkaDebug && window.mizerkaDebug.socket.state === 'connecting'")
    page.wait_for_function("() => true")  # the hello is on its way
    assert len(link.routes) == 1 and view(page) == {}
    page.clock.fast_forward(HELLO_TIMEOUT_MS - 2_000)
    page.wait_for_timeout(300)
    assert len(link.routes) == 1, "given up before its time"
    assert [m["type"] for m in link.sent[0]] == ["hello"]
    page.clock.fast_forward(3_000)  # past the welcome's timeout: closed, and opened again after the backoff
    v = wait_for_table(page)
    assert len(link.routes) == 2 and v["seat"] is not None and v["phase"] in ("choose", "exchange", "play")
    # ("connecting" at first came before the hook's list; the page never had a welcome, so it is "connecting" again)
    assert states(page) == ["reconnecting", "connecting", "open"], states(page)


def test_a_connection_gone_silent_is_pinged_then_given_up(new_page: Any, web_server: Any) -> None:
    page = new_page()
    link = Link()
    open_quickplay(page, web_server.url, link)
    first = wait_for_table(page)
    # a live connection, quiet for a while: the page pings, the server answers, the connection stays
    page.clock.fast_forward(QUIET_TIMEOUT_MS + 1_000)
    page.wait_for_function("() => true")
    page.wait_for_timeout(300)
    assert {"type": "ping", "id": None} in link.sent[0], link.sent[0]
    page.clock.fast_forward(PING_TIMEOUT_MS + 1_000)
    page.wait_for_timeout(300)
    assert len(link.routes) == 1 and states(page) == ["open"], states(page)
    # the network dies without a word: the page's ping brings nothing, and it connects again
    link.alive = False
    pings = link.sent[0].count({"type": "ping", "id": None})
    page.clock.fast_forward(QUIET_TIMEOUT_MS + 1_000)
    page.wait_for_timeout(300)
    assert link.sent[0].count({"type": "ping", "id": None}) == pings + 1
    assert len(link.routes) == 1
    page.clock.fast_forward(PING_TIMEOUT_MS + 1_000)
    page.wait_for_function("() => window.mizerkaDebug.states.includes('reconnecting')")
    page.wait_for_function("() => window.mizerkaDebug.socket.state === 'open'")
    assert len(link.routes) == 2
    hello = link.sent[1][0]
    assert hello["type"] == "hello" and hello["table"] == first["table"] and hello.get("token")
    assert isinstance(hello.get("last_seq"), int)  # the seat, and the last event it saw: nothing is replayed twice
    assert view(page)["seat"] == first["seat"]


def test_a_card_clicked_while_offline_is_not_sent_not_refused(new_page: Any, web_server: Any) -> None:
    page, _ = quickplay_seat(new_page, web_server.url, "standard")
    play_until(page, lambda: view(page).get("phase") == "play" and bool(view(page).get("your_turn"))
               and not page.locator("dialog[open]").count())
    context = page.context
    context.set_offline(True)  # the network is gone: the reconnections fail until it is back
    try:
        page.evaluate("() => window.mizerkaDebug.socket.simulateDrop()")
        page.wait_for_function("() => window.mizerkaDebug.socket.state !== 'open'")
        card = page.locator(".hand .card.playable").first
        point = card.evaluate(VISIBLE_POINT)
        assert point is not None
        page.mouse.click(point[0], point[1])
        message = page.locator(".me .message.error")
        expect(message).to_have_text(NOT_SENT)
        assert "refused" not in message.inner_text().lower()
    finally:
        context.set_offline(False)
    # once the network is back the page reconnects and the card can be played
    page.wait_for_function("() => window.mizerkaDebug.socket.state === 'open'", timeout=30_000)


def test_the_not_sent_message_goes_once_the_connection_is_back(new_page: Any, web_server: Any) -> None:
    """A card clicked while the connection was down said "Not sent: … reconnecting…", and the sentence stayed under
    the seat after the page had reconnected, until the next card was played.  It goes when the connection is
    back (the welcome of the new connection)."""
    page, _, _, _ = seat_page(new_page, web_server.url)
    play_until(page, lambda: view(page).get("phase") == "play" and bool(view(page).get("your_turn"))
               and not page.locator("dialog[open]").count())
    context = page.context
    context.set_offline(True)
    try:
        page.evaluate("() => window.mizerkaDebug.socket.simulateDrop()")
        page.wait_for_function("() => window.mizerkaDebug.socket.state !== 'open'")
        point = page.locator(".hand .card.playable").first.evaluate(VISIBLE_POINT)
        assert point is not None
        page.mouse.click(point[0], point[1])
        expect(page.locator(".me .message.error")).to_have_text(NOT_SENT)
    finally:
        context.set_offline(False)
    page.wait_for_function("() => window.mizerkaDebug.socket.state === 'open'", timeout=30_000)
    expect(page.locator(".me .message")).to_have_count(0)
    assert view(page)["your_turn"]  # the card is still to be played: nothing was sent


def test_two_tabs_with_the_same_seat_follow_each_other(new_page: Any, web_server: Any) -> None:
    """Checked, fine before: the same seat open in two tabs; what one does, the other sees."""
    page = new_page()
    v = quickplay(page, web_server.url)
    other = page.context.new_page()
    other.goto(f"{web_server.url}/?table={v['table']}")
    assert wait_for_table(other)["seat"] == v["seat"]
    play_until(page, lambda: view(page).get("phase") == "play" and view(page).get("tricks_played", 0) >= 1)
    other.wait_for_function("s => window.mizerkaDebug.view().seq >= s", arg=view(page)["seq"])
    assert view(other)["hand"] == view(page)["hand"]
