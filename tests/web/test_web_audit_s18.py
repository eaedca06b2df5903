"""What an audit of the browser client found (session 18), in real chromium against the real server:

* the join page of a finished rated table says the match is over, and no longer asks the visitor to claim a name
  and "open this link again" to sit there (nobody sits down at a finished match);
* a spectator's result dialog of a finished match ends with its buttons, not with the text "null" (the DOM's own
  ``append`` writes a ``null`` as that word);
* while every place for finished tables read back from the database is in use, a hello that can never be welcomed
  (a finished table that admits no spectators, no such table) gets its final answer at once, not "The server is
  busy; trying again…" for ever;
* a connection the server refuses before the hello is answered (too many connection attempts from this address:
  ``rate_limited`` without an id, then the close) is the hello's "not now": the page waits with the hello's
  backoff and says the server is busy, never "Reconnecting…" (it was never connected), and gets in once the
  address may connect again; the same for a server (or an address) holding as many connections as it may
  (``too_many_connections``).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import expect
from server_helpers import WS, ThreadServer
from test_web_audit_s12 import open_seat, play_through_protocol
from test_web_finished_table import unload
from web_helpers import api_get, api_post, keep_profile, wait_for_view_of

from mizerka.server.hub import RequestBudget, ServerConfig, address_key

SHORT = "standard,contracts=NT+MZ"
HUMAN_AND_BOTS = [{"kind": "human"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]

# the rated table's note on its join page, in both its forms (main.js showJoin: join.ratedClaim, join.rated)
CLAIM_NOTE = "only players with a claimed name can sit here"
RATED_NOTE = "the result changes the players' ratings"


def finished_table(server: Any, **options: Any) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """A table of Ala and two bots (created with *options*), played to its end over the protocol: its id, the
    join's answer (token, seat) and the final view."""
    base = server.url
    table = api_post(base, "/api/tables", {"seats": HUMAN_AND_BOTS, "variant": SHORT, "visibility": "private",
                                           **options})["id"]
    joined = api_post(base, f"/api/tables/{table}/join", {"name": "Ala"})
    final = play_through_protocol(server, table, joined["token"], lambda v: v["phase"] == "over")
    return table, joined, final


def dialog_text_nodes(dialog: Any) -> list[str]:
    """The text written straight into the dialog element, outside any of its parts (where a stray ``null`` went)."""
    nodes: list[str] = dialog.evaluate(
        "d => [...d.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent)")
    return nodes


# -- 1. a finished rated table's join page -----------------------------------------------------------------------


def test_a_finished_rated_tables_join_page_asks_nobody_to_claim_a_name(new_page: Any, web_server: Any) -> None:
    base = web_server.url
    claimed = api_post(base, "/api/players", {"name": "Zosia Audyt"})
    seats = [{"kind": "human"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]
    table = api_post(base, "/api/tables", {"seats": seats, "variant": SHORT, "visibility": "public",
                                           "rated": True})["id"]
    joined = api_post(base, f"/api/tables/{table}/join", {"player_key": claimed["key"]})

    # while the match is on, a visitor without a profile is told to claim a name first (what the fix keeps)
    playing = new_page()
    playing.goto(f"{base}/?table={table}")
    expect(playing.locator(".join-screen .rated-note")).to_contain_text(CLAIM_NOTE)

    play_through_protocol(web_server, table, joined["token"], lambda v: v["phase"] == "over")
    assert api_get(base, f"/api/tables/{table}")["status"] == "finished"

    # the finished table in memory, a visitor without a profile: the match is over, and that is all
    visitor = new_page()
    visitor.goto(f"{base}/?table={table}")
    screen = visitor.locator(".join-screen")
    expect(screen.locator(".over-text")).to_have_text("The match at this table is over.")
    expect(visitor.get_by_role("button", name="See the final position")).to_be_visible()
    expect(screen.locator(".rated-note")).to_have_count(0)
    expect(screen).not_to_contain_text(CLAIM_NOTE)
    expect(screen).not_to_contain_text("open this link again")

    # unloaded from memory (a day later, a restart), a visitor holding a profile: no note of either kind
    unload(web_server, table)
    member = new_page()
    keep_profile(member, base, {"key": claimed["key"], "id": claimed["player"]["id"],
                                "name": claimed["player"]["name"]})
    member.goto(f"{base}/?table={table}")
    screen = member.locator(".join-screen")
    expect(screen.locator(".over-text")).to_have_text("The match at this table is over.")
    expect(screen.locator(".rated-note")).to_have_count(0)
    expect(screen).not_to_contain_text(RATED_NOTE)
    expect(screen).not_to_contain_text(CLAIM_NOTE)


# -- 2. the spectator's result dialog ----------------------------------------------------------------------------


def test_the_spectators_result_dialog_has_no_stray_null(new_page: Any, web_server: Any) -> None:
    base = web_server.url
    table, joined, _final = finished_table(web_server, spectators=True)
    unload(web_server, table)

    # a visitor who opens the link and asks for the final position: a spectator of the finished match
    visitor = new_page()
    visitor.goto(f"{base}/?table={table}")
    visitor.get_by_role("button", name="See the final position").click()
    dialog = visitor.locator("dialog.over-dialog[open]")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_role("button", name="Back to the lobby")).to_be_visible()
    expect(dialog.get_by_role("button", name="Play again")).to_have_count(0)
    assert visitor.evaluate("() => window.mizerkaDebug.view().seat") is None
    assert dialog_text_nodes(dialog) == []
    assert not re.search(r"\bnull\b", dialog.inner_text()), dialog.inner_text()

    # the watch link straight away: the same dialog, the same ending
    watcher = new_page()
    watcher.goto(f"{base}/?table={table}&watch=1")
    dialog = watcher.locator("dialog.over-dialog[open]")
    expect(dialog.get_by_role("button", name="Back to the lobby")).to_be_visible()
    assert dialog_text_nodes(dialog) == []
    assert not re.search(r"\bnull\b", dialog.inner_text()), dialog.inner_text()

    # the seat's dialog still has its "Play again" (and no "null" either)
    seat = new_page()
    open_seat(seat, base, table, joined["token"], joined["seat"])
    dialog = seat.locator("dialog.over-dialog[open]")
    expect(dialog.get_by_role("button", name="Play again")).to_be_visible()
    assert "null" not in dialog_text_nodes(dialog)
    assert not re.search(r"\bnull\b", dialog.inner_text()), dialog.inner_text()


# -- 3. a final refusal while every read-back place is in use ----------------------------------------------------


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


# -- 4. a connection refused before the hello is answered --------------------------------------------------------


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
