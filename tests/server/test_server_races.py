"""Races of the hub: two requests at one table, or at the server's table cap, at the same moment.  Each test makes
its race happen every time, never by luck: it holds the table's lock while the requests queue for it (in an order it
waits for), or starts the racing calls in one step of the server's loop.

* A ``rematch`` that waited while a ``leave`` on another connection gave its seat up gets ``no_seat`` (it recorded a
  wish of no seat, and every hello and sync at the table failed ``internal`` until a restart); the table itself
  records seats only.
* Table creations started together never pass ``--max-tables`` (each checked the cap before any write ended).
* At the cap, a leave that would make the rematch is done and answered as done, the wishes dropped (the leaver was
  answered ``server_full``, and the player who asked was left waiting).
* A join with a player key that waited for the table's lock while its profile was deleted is refused ``bad_key``.

Every test runs a real server on 127.0.0.1 over SQLite, or PostgreSQL when MIZERKA_TEST_DATABASE_URL is set.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
from server_helpers import WS, ThreadServer, play_until

from mizerka.server.hub import LiveTable
from mizerka.server.tables import SeatState, TableError, TableSettings

SHORT = "standard,contracts=NT+MZ"  # six deals: a whole match in seconds
HUMAN: dict[str, Any] = {"kind": "human"}
BOT: dict[str, Any] = {"kind": "bot", "level": "random"}


def waiting_for_lock(server: ThreadServer, live: LiveTable) -> int:
    """How many tasks wait for the table's lock now (asyncio's lock keeps its waiters in ``_waiters``)."""
    async def count() -> int:
        return len(getattr(live.lock, "_waiters", None) or ())
    return int(server.call(count()))


def until_waiting(server: ThreadServer, live: LiveTable, n: int) -> None:
    """Return once *n* tasks wait for the table's lock (the requests sent have reached it, in the order sent)."""
    deadline = time.monotonic() + 10
    while waiting_for_lock(server, live) < n:
        assert time.monotonic() < deadline, "the request never came to wait for the table's lock"
        time.sleep(0.01)


@contextmanager
def lock_held(server: ThreadServer, live: LiveTable) -> Iterator[None]:
    """Hold *live*'s lock on the server's loop for the body of the ``with``: requests sent meanwhile queue for it."""
    release = threading.Event()
    taken = threading.Event()

    async def hold() -> None:
        async with live.lock:
            taken.set()
            await asyncio.to_thread(release.wait, 20)

    assert server.hub.loop is not None
    held = asyncio.run_coroutine_threadsafe(hold(), server.hub.loop)
    assert taken.wait(10)
    try:
        yield
    finally:
        release.set()
        held.result(timeout=20)


def finished(view: dict[str, Any]) -> bool:
    return bool(view["status"] == "finished")


def finished_two_humans(server: ThreadServer) -> tuple[str, list[str], WS, WS]:
    """A finished match of two humans (A at seat 0, B at seat 1) and a bot: the table, the two tokens, and A's and
    B's connections."""
    created = httpx.post(server.url + "/api/tables", json={"variant": SHORT, "seats": [HUMAN, HUMAN, BOT]})
    assert created.status_code == 201, created.text
    table = created.json()["id"]
    tokens = []
    for seat, name in enumerate(("A", "B")):
        joined = httpx.post(f"{server.url}/api/tables/{table}/join", json={"name": name, "seat": seat})
        assert joined.status_code == 200, joined.text
        tokens.append(joined.json()["token"])
    a, b = WS(server.ws_url), WS(server.ws_url)
    a.hello(table, tokens[0])
    b.hello(table, tokens[1])
    other = threading.Thread(target=play_until, args=(b, finished))
    other.start()
    play_until(a, finished)
    other.join(timeout=120)
    assert not other.is_alive()
    return table, tokens, a, b


def reply_to(ws: WS, request_id: str) -> dict[str, Any]:
    return ws.until(lambda m: m.get("id") == request_id and m["type"] not in ("event", "presence", "ping", "dd"))


def test_a_rematch_that_waited_for_a_leave_of_its_seat_gets_no_seat(server: ThreadServer) -> None:
    """A holds her seat on two connections; one sends ``leave`` and the other ``rematch`` at the same moment.  The
    rematch waited for the table's lock while the leave made its connection a spectator's, then recorded a wish
    of no seat (``vote_rematch(None)``): the view's ``rematch_asked`` could not be sorted, and every hello and
    sync at the table failed (``internal``) until a restart.  Now it gets ``no_seat``, and the table answers."""
    table, tokens, a, b = finished_two_humans(server)
    a2 = WS(server.ws_url)
    assert a2.hello(table, tokens[0])["seat"] == 0
    live = server.hub.tables[table]
    with lock_held(server, live):
        a2.send({"type": "leave", "id": "leave"})
        until_waiting(server, live, 1)
        a.send({"type": "rematch", "id": "rematch"})
        until_waiting(server, live, 2)  # the rematch queues behind the leave
    refused = reply_to(a, "rematch")
    assert refused["type"] == "error" and refused["code"] == "no_seat", refused
    assert live.table.rematch_votes == set()
    welcome = WS(server.ws_url).hello(table, tokens[1])
    assert welcome["type"] == "welcome", welcome
    assert welcome["view"]["rematch_asked"] == [] and welcome["view"]["players"][0]["connected"] is False
    assert b.request({"type": "sync", "last_seq": 0, "id": "s"})["type"] == "snapshot"
    ack = b.request({"type": "rematch", "id": "r"})  # nobody else seated: B's wish makes the rematch
    assert ack["type"] == "ack" and ack["table"] is not None, ack
    for ws in (a, a2, b):
        ws.close()


def test_the_table_itself_refuses_a_wish_of_no_seat(server: ThreadServer) -> None:
    """The second guard: ``vote_rematch`` records seats only, whoever calls it."""
    table, _tokens, a, b = finished_two_humans(server)
    live = server.hub.tables[table].table
    for bad in (None, -1, 3, True, "0"):
        with pytest.raises(TableError) as refused:
            live.vote_rematch(bad)  # type: ignore[arg-type]
        assert refused.value.code == "no_seat"
    assert live.rematch_votes == set()
    for ws in (a, b):
        ws.close()


def test_concurrent_creations_never_pass_the_table_cap(make_server: Any) -> None:
    """``create_table`` checked the cap, awaited the database write, and only then added its table: ten creations
    started together all passed the check (30 concurrent ``POST /api/tables`` under a cap of 5 all got 201).  The
    creations are started in one step of the server's loop, so every check runs before any write ends."""
    server = make_server(max_tables=3)
    hub = server.hub
    settings = TableSettings(variant=SHORT)

    async def burst() -> list[Any]:
        return await asyncio.gather(*(hub.create_table(settings, [SeatState.human(), SeatState.bot("random"),
                                                                  SeatState.bot("random")]) for _ in range(10)),
                                    return_exceptions=True)

    results = server.call(burst())
    made = [r for r in results if isinstance(r, LiveTable)]
    refused = [r for r in results if isinstance(r, TableError)]
    assert len(made) == 3 and len(refused) == 7, results
    assert {error.code for error in refused} == {"server_full"}
    assert len(hub.tables) == 3 and hub.open_tables() == 3
    assert hub._creating == 0  # every place taken for a creation was given back
    again = httpx.post(server.url + "/api/tables", json={"variant": SHORT, "seats": [HUMAN, BOT, BOT]})
    assert again.status_code == 503 and again.json()["error"] == "server_full"


def test_the_rest_creations_at_once_never_pass_the_table_cap(make_server: Any) -> None:
    """The same through the API: concurrent ``POST /api/tables`` under a cap get 201 only up to the cap."""
    server = make_server(max_tables=4)

    async def burst() -> list[int]:
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
            replies = await asyncio.gather(*(http.post("/api/tables", json={"variant": SHORT, "seats": [
                HUMAN, BOT, BOT]}) for _ in range(16)))
        return [reply.status_code for reply in replies]

    codes = asyncio.run(burst())
    assert codes.count(201) <= 4 and codes.count(201) + codes.count(503) == 16, codes
    assert server.hub.open_tables() <= 4


@pytest.mark.parametrize("how", ["websocket", "rest"])
def test_a_leave_at_the_table_cap_is_done_though_the_rematch_cannot_be_made(make_server: Any, how: str) -> None:
    """At the ``--max-tables`` cap, B asked for a rematch and A leaves: the leave took effect (committed, A's
    connection a spectator's), but A was answered ``server_full`` (503 by REST), the error of the rematch table
    that could not be made.  Now the leave is answered as done; B's wish is dropped and B gets a fresh snapshot
    saying nobody has asked (B was left waiting for ever), and B's next rematch request gets ``server_full``."""
    server = make_server(max_tables=1)
    table, tokens, a, b = finished_two_humans(server)
    asked = b.request({"type": "rematch", "id": "r1"})
    assert asked["type"] == "ack" and asked["waiting"] == [0], asked
    if how == "rest":
        left = httpx.post(f"{server.url}/api/tables/{table}/leave", json={"token": tokens[0]})
        assert left.status_code == 200, left.text
        assert left.json()["seats"][0]["name"] == "A"
    else:
        a.send({"type": "leave", "id": "leave"})
        a.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "seat" and m["event"]["seat"] == 0)
        a.until(lambda m: m["type"] == "snapshot")  # the wishes dropped: every connection's fresh view
        pong = a.request({"type": "ping", "id": "after"})  # handled after the leave: its reply came before this
        assert pong == {"type": "pong", "id": "after"}
        assert not [m for m in a.log if m.get("id") == "leave"], a.log
    snapshot = b.until(lambda m: m["type"] == "snapshot")
    assert snapshot["view"]["rematch_asked"] == [] and snapshot["id"] is None, snapshot
    live = server.hub.tables[table]
    assert live.table.seats[0].token_hash is None and live.table.rematch_table is None
    assert live.table.rematch_votes == set()
    if how == "rest":
        a.until(lambda m: m["type"] == "snapshot")
    assert a.request({"type": "rematch", "id": "r2"})["code"] == "no_seat"  # the seat is given up
    again = b.request({"type": "rematch", "id": "r3"})
    assert again["type"] == "error" and again["code"] == "server_full", again
    a.close()
    b.close()


def test_a_join_that_waited_while_its_profile_was_deleted_is_refused(server: ThreadServer) -> None:
    """A join with a player key read the profile, then waited for the table's lock; ``DELETE /api/profile`` ran
    meanwhile (the profile held no seat yet, so the delete was not refused as ``seated``).  The join seated the
    deleted profile as registered.  Now it checks again under the lock: 403 ``bad_key``, and the seat stays open."""
    claimed = httpx.post(server.url + "/api/players", json={"name": "Gone"})
    assert claimed.status_code == 201, claimed.text
    key = claimed.json()["key"]
    created = httpx.post(server.url + "/api/tables", json={"variant": SHORT, "seats": [HUMAN, HUMAN, HUMAN]})
    assert created.status_code == 201, created.text
    table = created.json()["id"]
    live = server.hub.tables[table]
    replies: dict[str, httpx.Response] = {}

    def later(name: str, call: Callable[[], httpx.Response]) -> threading.Thread:
        thread = threading.Thread(target=lambda: replies.setdefault(name, call()))
        thread.start()
        return thread

    with lock_held(server, live):
        joiner = later("join", lambda: httpx.post(f"{server.url}/api/tables/{table}/join",
                                                  json={"player_key": key}, timeout=30))
        until_waiting(server, live, 1)  # the key was read: the join waits for the lock
        gone = httpx.delete(server.url + "/api/profile", headers={"Authorization": f"Bearer {key}"})
        assert gone.status_code == 204, gone.text
    joiner.join(timeout=30)
    join = replies["join"]
    assert join.status_code == 403 and join.json()["error"] == "bad_key", join.text
    seats = httpx.get(f"{server.url}/api/tables/{table}").json()["seats"]
    assert all(seat["open"] for seat in seats), seats
    assert all(seat.player is None and seat.token_hash is None for seat in live.table.seats)
