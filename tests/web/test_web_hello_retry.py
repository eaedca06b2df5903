"""A hello answered "not now" is tried again, in real chromium against the real server; a final answer is final.

* A browser that opens (or reloads) a finished table's link while the server has no room to read it back
  (``server_full``; the same for ``rate_limited``) says so on the page ("The server is busy; trying again…") and
  says hello again after a backoff, and is welcomed once there is room; a real refusal (``unknown_table``) stays
  final.
* While every place for finished tables read back from the database is in use, a hello that can never be welcomed
  (a finished table that admits no spectators, no such table) gets its final answer at once, not "The server is
  busy; trying again…" for ever, and takes no place.
* A connection the server refuses before the hello is answered (too many connection attempts from this address:
  ``rate_limited`` without an id, then the close) is the hello's "not now": the page waits with the hello's backoff
  and says the server is busy, never "Reconnecting…" (it was never connected), and gets in once the address may
  connect again; the same for a server (or an address) holding as many connections as it may
  (``too_many_connections``).  These two run on servers of their own.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import expect
from server_helpers import WS, ThreadServer
from test_web_history import post
from web_helpers import (
    HUMAN_AND_BOTS,
    SHORT,
    api_post,
    finished_table,
    play_through_protocol,
    unload,
    wait_for_view_of,
)

from mizerka.server.hub import RequestBudget, ServerConfig, address_key


def test_a_full_server_is_tried_again_until_it_has_room(new_page: Any, web_server: Any) -> None:
    base = web_server.url
    seats = [{"kind": "human"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]
    table = post(base, "/api/tables", {"seats": seats, "variant": "standard,contracts=NT+MZ",
                                       "visibility": "private"})["id"]
    joined = post(base, f"/api/tables/{table}/join", {"name": "Ala"})
    final = play_through_protocol(web_server, table, joined["token"], lambda v: v["phase"] == "over")
    unload(web_server, table)

    page = new_page()
    page.goto(base + "/")
    page.evaluate("([t, token, seat]) => localStorage.setItem('mizerka.seats', "
                  "JSON.stringify({[t]: {token, seat, at: Date.now()}}))", [table, joined["token"], joined["seat"]])
    config = web_server.config
    room = config.max_read_back
    config.max_read_back = 0  # no finished table may be read back: every hello at it gets server_full
    try:
        page.goto(f"{base}/?table={table}")
        banner = page.locator(".conn-banner")
        expect(banner).to_be_visible()
        expect(banner).to_contain_text("The server is busy; trying again in")
        page.wait_for_function("() => window.mizerkaDebug.states.filter((s) => s === 'waiting').length >= 2",
                               timeout=15_000)  # tried again, and answered "not now" again
        expect(page.get_by_text("This table does not exist or has ended.")).to_have_count(0)
        assert table not in web_server.hub.tables
    finally:
        config.max_read_back = room
    page.wait_for_function("() => window.mizerkaDebug.view() !== null", timeout=45_000)
    v = page.evaluate("() => window.mizerkaDebug.view()")
    assert v["seat"] == joined["seat"] and v["phase"] == "over" and v["totals"] == final["totals"]
    expect(page.locator(".conn-banner")).to_be_hidden()
    expect(page.locator("dialog.over-dialog[open]")).to_be_visible()


def test_a_real_refusal_stays_final(new_page: Any, web_server: Any) -> None:
    page = new_page()
    page.goto(f"{web_server.url}/?table=NoSuchTable42")
    expect(page.get_by_text("This table does not exist or has ended.")).to_be_visible()
    states = page.evaluate("() => window.mizerkaDebug ? window.mizerkaDebug.states : []")
    assert "waiting" not in states


def test_a_hello_that_can_never_be_welcomed_is_refused_at_once_on_a_full_server(new_page: Any,
                                                                               web_server: Any) -> None:
    base = web_server.url
    kept, _kept_joined, _ = finished_table(web_server, spectators=True)
    private, _private_joined, _ = finished_table(web_server, spectators=False)
    unload(web_server, kept)
    unload(web_server, private)
    config = web_server.config
    room = config.max_read_back
    someone = WS(web_server.ws_url)
    try:
        # someone watches a finished table read back from the database: with one place, it is the one in use
        assert someone.hello(kept)["type"] == "welcome"
        assert kept in web_server.hub.read_back
        config.max_read_back = 1
        for url, refusal in ((f"{base}/?table={private}&watch=1", "This table admits no spectators."),
                             (f"{base}/?table=NoSuchTable18&watch=1", "This table does not exist or has ended.")):
            page = new_page()
            page.goto(url)
            expect(page.get_by_text(refusal)).to_be_visible(timeout=20_000)
            states = page.evaluate("() => window.mizerkaDebug ? window.mizerkaDebug.states : []")
            assert "waiting" not in states, (url, states)  # never "the server is busy; trying again"
            expect(page.get_by_text("The server is busy")).to_have_count(0)
        assert private not in web_server.hub.tables  # a refused hello keeps nothing in memory
        assert kept in web_server.hub.read_back  # ... and takes no place from the one in use
    finally:
        config.max_read_back = room
        someone.close()


def test_a_connection_refused_as_rate_limited_waits_like_a_hello_not_now(new_page: Any, tmp_path: Path) -> None:
    # a server of its own: its address budget is spent on purpose, which no other test may meet
    server = ThreadServer(ServerConfig(database=f"sqlite:///{tmp_path / 'limits.sqlite3'}", bot_delay=0.0,
                                       rate=1000.0, burst=1000.0, grace=30.0)).start()
    try:
        base = server.url
        table = api_post(base, "/api/tables", {"seats": HUMAN_AND_BOTS, "variant": SHORT,
                                               "visibility": "private", "spectators": True})["id"]
        api_post(base, f"/api/tables/{table}/join", {"name": "Ala"})
        assert table in server.hub.tables  # in play: a hello there reads nothing, only the connection is charged

        page = new_page()
        attempts: list[str] = []
        page.on("websocket", lambda ws: attempts.append(ws.url))
        page.goto(base + "/")  # the client's files (not charged) and the lobby, before the limit is set

        # the per-address budget now holds for this machine too, spent already and hardly refilled: every
        # connection attempt is refused (rate_limited, no id, close 1008).  It is spent here, not by a request
        # of the test's: a lobby fetch still in flight could take the one request first (a 429 for the test's)
        budget = RequestBudget(0.01, 1.0)
        budget.charge(address_key("127.0.0.1"))
        server.hub.requests = budget
        server.config.limit_loopback = True
        attempts.clear()  # the table's connections only
        page.goto(f"{base}/?table={table}&watch=1")
        banner = page.locator(".conn-banner")
        expect(banner).to_contain_text("The server is busy; trying again in", timeout=20_000)
        # refused again on the next try (the hello's backoff: about 1 s, then 2 s): still waiting, not reconnecting
        page.wait_for_function("() => window.mizerkaDebug.states.filter((s) => s === 'waiting' "
                               "|| s === 'reconnecting').length >= 2", timeout=30_000)
        states = page.evaluate("() => window.mizerkaDebug.states")
        assert set(states) <= {"waiting", "connecting"}, states
        assert len(attempts) >= 2
        expect(page.get_by_text("Reconnecting")).to_have_count(0)
        expect(banner).to_have_text(re.compile(r"The server is busy; trying again in \d+ s"))

        # the address may connect again: the next hello of the page gets in
        server.config.limit_loopback = False
        v = wait_for_view_of(page, table, timeout=45_000)
        assert v["seat"] is None and v["status"] == "playing"
        expect(banner).to_be_hidden()
        states = page.evaluate("() => window.mizerkaDebug.states")
        assert "reconnecting" not in states and states[-1] == "open", states
    finally:
        server.stop()


def test_a_server_holding_all_its_connections_is_waited_for_like_a_hello_not_now(new_page: Any, tmp_path: Path) -> None:
    """``too_many_connections`` (an error without an id, then the close 1013) before the hello is answered: the page
    says the server is busy and tries again with the hello's backoff, and gets in once a connection is free."""
    server = ThreadServer(ServerConfig(database=f"sqlite:///{tmp_path / 'full.sqlite3'}", bot_delay=0.0,
                                       rate=1000.0, burst=1000.0, grace=30.0, max_connections=1)).start()
    try:
        base = server.url
        table = api_post(base, "/api/tables", {"seats": HUMAN_AND_BOTS, "variant": SHORT,
                                               "visibility": "private", "spectators": True})["id"]
        api_post(base, f"/api/tables/{table}/join", {"name": "Ala"})
        holder = WS(server.ws_url)  # the server's one connection
        page = new_page()
        page.goto(f"{base}/?table={table}&watch=1")
        banner = page.locator(".conn-banner")
        expect(banner).to_contain_text("The server is busy; trying again in", timeout=20_000)
        states = page.evaluate("() => window.mizerkaDebug.states")
        assert set(states) <= {"waiting", "connecting"}, states
        holder.close()  # a connection is free again: the next try gets in
        v = wait_for_view_of(page, table, timeout=45_000)
        assert v["seat"] is None
        states = page.evaluate("() => window.mizerkaDebug.states")
        assert "reconnecting" not in states and states[-1] == "open", states
        expect(banner).to_be_hidden()
    finally:
        server.stop()
