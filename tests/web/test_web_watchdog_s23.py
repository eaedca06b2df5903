"""A connection that stalls or dies without a word is given up and opened again (session 23), in real chromium.

The page's socket (js/net.js) waited for ever on a connection that brought nothing: a hello never answered (a
handshake or a hello lost on a network that changed under it), or an open connection gone silent (a laptop woken
from sleep, a router restarted), which a browser may take minutes to notice.  The page said "connecting…", or
showed a frozen table, while the server gave the unattended seat to a stand-in.  Now:

* no welcome within ``HELLO_TIMEOUT_MS`` of opening a connection: the socket closes it and connects again;
* no frame from the server for ``QUIET_TIMEOUT_MS``: the socket pings it; a live server answers (pong) and the
  connection stays; nothing for ``PING_TIMEOUT_MS`` more: the socket connects again, with its seat and the last
  event it saw, as after any network blip.

The connections pass through Playwright's websocket routing, which can hold back what either side sends (a lost
link), and the page's clock is Playwright's, moved forward by the test instead of waiting the real seconds.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from web_helpers import view, wait_for_table

pytest.importorskip("fastapi", reason="the browser tests need the 'server' extra (pip install -e '.[dev]')")

# js/net.js's defaults (test_the_defaults_are_the_documented_ones reads them from the page)
HELLO_TIMEOUT_MS = 20_000
QUIET_TIMEOUT_MS = 25_000
PING_TIMEOUT_MS = 10_000


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
