"""A hello that can never be welcomed at a finished table not in memory (docs/server.md, *Tables* and *Limits*):
the server reads the table and checks the hello's access before it makes room among the tables read back
(``max_read_back``), so that

* a refused hello (``bad_token``, ``spectators_off``, ``unknown_table``) unloads no idle read-back table to make
  room it will not use;
* while every read-back place is in use, such a hello gets its final answer, not ``server_full`` (a "not now" the
  client would try again for ever).

Against SQLite, or PostgreSQL with MIZERKA_TEST_DATABASE_URL set."""

from __future__ import annotations

import time
from typing import Any

from server_helpers import WS, ThreadServer, new_table, play, unload

SHORT = "standard,contracts=NT+MZ"


def finished(server: ThreadServer, **body: Any) -> tuple[str, str]:
    """A finished table of Ala and two bots, created with *body*'s options, and unloaded from memory: its id and
    Ala's token."""
    table, token = new_table(server, SHORT, **body)
    play(server, table, token, lambda v: v["phase"] == "over")
    unload(server, table)
    return table, token


def hello(server: ThreadServer, table: str, token: str | None = None) -> dict[str, Any]:
    ws = WS(server.ws_url)
    try:
        return ws.hello(table, token)
    finally:
        ws.close()


def wait_unattended(server: ThreadServer, table: str) -> None:
    """Wait until the server has seen the last connection at *table* go (its close is handled on the server's
    loop, a moment after ours)."""
    deadline = time.monotonic() + 10
    while server.hub.tables[table].clients:
        assert time.monotonic() < deadline, "the connection was never detached"
        time.sleep(0.02)


def test_a_refused_hello_evicts_no_idle_read_back_table(make_server: Any) -> None:
    server: ThreadServer = make_server(max_read_back=1)
    idle, idle_token = finished(server)
    closed, _closed_token = finished(server, spectators=False)
    other, _other_token = finished(server)
    assert hello(server, idle, idle_token)["type"] == "welcome"  # read back; nobody at it once we left
    wait_unattended(server, idle)
    assert set(server.hub.read_back) == {idle}

    for table, token, code in ((closed, "not-a-seat-token", "bad_token"),  # a token that holds no seat there
                               (closed, None, "spectators_off"),  # a spectator at a table that admits none
                               (other, "not-a-seat-token", "bad_token"),
                               ("NoSuchTable18", None, "unknown_table")):
        refused = hello(server, table, token)
        assert (refused["type"], refused["code"]) == ("error", code), (table, refused)
        assert set(server.hub.read_back) == {idle}, (table, code)  # the idle table kept its place
        assert table not in server.hub.tables

    # a hello that may see a table still makes room: the idle one goes for it
    assert hello(server, other)["type"] == "welcome"
    assert set(server.hub.read_back) == {other} and idle not in server.hub.tables


def test_every_place_in_use_still_gives_the_final_answer(make_server: Any) -> None:
    server: ThreadServer = make_server(max_read_back=1)
    kept, kept_token = finished(server)
    closed, _closed_token = finished(server, spectators=False)
    other, other_token = finished(server)
    someone = WS(server.ws_url)
    try:
        assert someone.hello(kept, kept_token)["type"] == "welcome"  # the one place, in use
        for table, token, code in ((closed, None, "spectators_off"),
                                   (closed, "not-a-seat-token", "bad_token"),
                                   ("NoSuchTable18", None, "unknown_table")):
            refused = hello(server, table, token)
            assert (refused["type"], refused["code"]) == ("error", code), (table, refused)
        # a hello that would be welcomed is told "not now": no room while someone is at the kept table
        busy = hello(server, other, other_token)
        assert (busy["type"], busy["code"]) == ("error", "server_full"), busy
        assert set(server.hub.read_back) == {kept}
    finally:
        someone.close()
