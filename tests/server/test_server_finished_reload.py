"""A finished table's link keeps working once the hub has unloaded the table from memory (docs/server.md,
*Tables* and *Limits*): a ``hello`` at it reads it back from the database, as its seat (with the token) or as a
spectator (where the table admits spectators), and gets the same final view as before; actions are refused as at any
finished match; a rematch can still be asked for.  A hello at a table not in memory costs a request of the address's
budget; a table without spectators stays its players' alone; a table closed unfinished stays closed.  Also after a
restart of the server.

* The tables read back have a cap of their own (``max_read_back``), apart from ``max_tables``: reading old matches
  never keeps a new table from being made, the one idle longest makes room for another, and the sweep unloads one
  after ``read_back_idle`` seconds without anyone at it.
* The server reads the table and checks a hello's access before it makes room among the tables read back: a refused
  hello (``bad_token``, ``spectators_off``, ``unknown_table``) unloads no idle read-back table to make room it will
  not use, and while every place is in use such a hello gets its final answer, not ``server_full`` (a "not now" the
  client would try again for ever).
* A deleted profile stays deleted at a finished table read back (its view, ``GET /api/tables/{id}``, the store after
  a restart), and a rematch made there never seats it again: an unrated one seats the human as no profile's, a rated
  one is refused ``profile_needed``.

Against SQLite, or PostgreSQL with MIZERKA_TEST_DATABASE_URL set."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
from server_helpers import SHORT, WS, ThreadServer, new_table, play, read_back, unload

from mizerka.server.db import Store
from mizerka.server.protocol import SERVER_ADAPTER


def finished(server: ThreadServer, **options: Any) -> tuple[str, str]:
    """A table of one human (us) and two random bots played to its end: its id and our token."""
    table, token = new_table(server, **options)
    play(server, table, token, lambda v: v["phase"] == "over")
    return table, token


def welcome(server: ThreadServer, table: str, token: str | None = None) -> tuple[WS, dict[str, Any]]:
    ws = WS(server.ws_url)
    reply = ws.hello(table, token)
    if reply["type"] == "welcome":
        SERVER_ADAPTER.validate_python(reply)
    return ws, reply


def finished_unloaded(server: ThreadServer, **options: Any) -> tuple[str, str]:
    """A table of one human (us) and two random bots played to its end (:func:`finished`), then unloaded from memory:
    its id and our token."""
    table, token = finished(server, **options)
    unload(server, table)
    return table, token


def hello(server: ThreadServer, table: str, token: str | None = None) -> dict[str, Any]:
    """The reply to a hello at *table* (as the seat of *token*, or as a spectator) on a connection of its own, closed
    at once."""
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


def final_views(server: ThreadServer, table: str, token: str) -> dict[str, Any]:
    """The seat's and a spectator's welcome at the table (both connected while the other says hello)."""
    seat_ws, seat = welcome(server, table, token)
    watch_ws, watch = welcome(server, table)
    assert seat["type"] == watch["type"] == "welcome", (seat, watch)
    seat_ws.close()
    watch_ws.close()
    return {"seat": seat, "spectator": watch}


def forget_annotations(views: dict[str, Any]) -> None:
    """*views* (:func:`final_views`) as a table read back from the database shows them (:func:`read_back`)."""
    for welcomed in views.values():
        welcomed["view"]["score_sheet"] = read_back(welcomed["view"]["score_sheet"])


def test_a_finished_table_unloaded_from_memory_welcomes_its_seat_and_a_spectator(make_server: Any) -> None:
    server: ThreadServer = make_server()
    table, token = finished(server)
    before = final_views(server, table, token)
    assert before["seat"]["view"]["phase"] == "over" and before["seat"]["view"]["status"] == "finished"
    unload(server, table)
    assert table not in server.hub.tables
    forget_annotations(before)

    seat_ws, seat = welcome(server, table, token)
    assert seat["type"] == "welcome", seat
    assert table in server.hub.tables  # read back and kept, read-only
    assert seat["seat"] == 0 and seat["seq"] == before["seat"]["seq"] and seat["epoch"] == before["seat"]["epoch"]
    assert seat["view"] == before["seat"]["view"]  # scores, score sheet, the last deal: the final position
    assert len(seat["view"]["score_sheet"]) == 6 and seat["view"]["totals"] == before["seat"]["view"]["totals"]
    watch_ws, watch = welcome(server, table)
    assert watch["type"] == "welcome" and watch["seat"] is None
    assert watch["view"] == before["spectator"]["view"]
    assert watch["view"]["hand"] == []  # a spectator holds no cards

    # read-only: an action is refused as at any finished match, and changes nothing
    refused = seat_ws.request({"type": "act", "id": 1, "action": "keep"})
    assert (refused["type"], refused["code"]) == ("error", "match_over"), refused
    assert watch_ws.request({"type": "act", "id": 2, "action": "keep"})["code"] == "no_seat"
    assert server.hub.tables[table].table.seq == before["seat"]["seq"]
    # the record is still there, the same as before
    assert httpx.get(f"{server.url}/api/tables/{table}/record").status_code == 200

    # the sweep unloads it again once nobody is at it
    server.config.abandon_after = 0.0
    assert server.call(server.hub.cleanup()) == []  # watched: it stays
    seat_ws.close()
    watch_ws.close()
    unload(server, table)
    assert table not in server.hub.tables


def test_a_rematch_can_still_be_asked_for_after_the_unload(make_server: Any) -> None:
    server: ThreadServer = make_server()
    table, token = finished(server)
    unload(server, table)
    ws, reply = welcome(server, table, token)
    assert reply["type"] == "welcome" and reply["view"]["rematch"] is None
    ack = ws.request({"type": "rematch", "id": "r"})
    assert ack["type"] == "ack" and ack["waiting"] == [] and ack["table"] not in (None, table), ack
    made = next(m for m in ws.log if m["type"] == "event" and m["event"]["kind"] == "rematch")  # before the ack
    assert made["event"]["table"] == ack["table"] and made["view"]["rematch"] == ack["table"]
    new_ws, new = welcome(server, ack["table"], token)  # the same token holds the same seat there
    assert new["type"] == "welcome" and new["seat"] == 0 and new["view"]["status"] == "playing"
    new_ws.close()
    ws.close()
    # unloaded once more, the table names its rematch: asking again says where it is
    unload(server, table)
    again_ws, again = welcome(server, table, token)
    assert again["view"]["rematch"] == ack["table"]
    repeat = again_ws.request({"type": "rematch", "id": "r2"})
    assert repeat["type"] == "ack" and repeat["table"] == ack["table"] and repeat["waiting"] == []
    again_ws.close()


def test_a_table_without_spectators_stays_its_players_alone(make_server: Any) -> None:
    server: ThreadServer = make_server()
    table, token = finished(server, visibility="private", spectators=False)
    unload(server, table)
    for wrong, code in ((None, "spectators_off"), ("not-a-token", "bad_token")):
        ws, reply = welcome(server, table, wrong)
        assert (reply["type"], reply["code"]) == ("error", code), reply
        assert set(reply) == {"type", "id", "code", "message"}  # nothing of the table in a refusal
        ws.close()
        assert table not in server.hub.tables  # a refused hello keeps nothing in memory
    ws, reply = welcome(server, table, token)
    assert reply["type"] == "welcome" and reply["seat"] == 0 and reply["view"]["phase"] == "over"
    ws.close()


def test_a_table_closed_unfinished_stays_closed_and_unknown_ids_are_unknown(make_server: Any) -> None:
    server: ThreadServer = make_server(abandon_after=0.3, cleanup_interval=3600)
    table, token = new_table(server)
    time.sleep(0.5)
    assert server.call(server.hub.cleanup()) == [table]  # closed (abandoned), unloaded
    for target, tok in ((table, token), (table, None), ("nosuchtable", None)):
        ws, reply = welcome(server, target, tok)
        assert (reply["type"], reply["code"]) == ("error", "unknown_table"), reply
        ws.close()
    assert server.hub.tables == {}


def test_a_table_read_back_does_not_take_a_place_of_max_tables(make_server: Any) -> None:
    """Reading finished tables back must never push out new play: they have their own cap (``max_read_back``)."""
    server: ThreadServer = make_server(max_tables=1, max_read_back=1)
    table, token = finished(server)
    unload(server, table)
    other = httpx.post(server.url + "/api/tables", json={})  # the one table the server may hold for play
    assert other.status_code == 201, other.text
    ws, reply = welcome(server, table, token)
    assert reply["type"] == "welcome", reply  # read back although max_tables is reached
    assert table in server.hub.tables
    ws.close()


def test_read_back_tables_never_keep_a_new_table_from_being_made(make_server: Any) -> None:
    server: ThreadServer = make_server(max_tables=2, max_read_back=1)
    first, first_token = finished(server)
    second, second_token = finished(server)
    unload(server, first)
    unload(server, second)
    ws = WS(server.ws_url)
    assert ws.hello(first, first_token)["type"] == "welcome"  # read back, and held: someone is at it
    assert server.hub.open_tables() == 0 and set(server.hub.read_back) == {first}
    # the one place for read-back tables is taken by a table with someone at it: no room for another
    other = WS(server.ws_url)
    refused = other.hello(second, second_token)
    assert (refused["type"], refused["code"]) == ("error", "server_full"), refused
    assert second not in server.hub.tables
    # ... and new play is not held up by it: both places of max_tables are free
    made = [httpx.post(server.url + "/api/tables", json={}) for _ in range(3)]
    assert [r.status_code for r in made] == [201, 201, 503], [r.text for r in made]
    # once nobody is at the first one, it makes room for the second
    ws.close()
    deadline = time.monotonic() + 10
    while server.hub.tables[first].clients:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    welcomed = other.hello(second, second_token)
    assert welcomed["type"] == "welcome" and welcomed["view"]["phase"] == "over", welcomed
    assert first not in server.hub.tables and set(server.hub.read_back) == {second}
    other.close()


def test_the_sweep_unloads_a_read_back_table_after_read_back_idle(make_server: Any) -> None:
    server: ThreadServer = make_server(read_back_idle=0.3, cleanup_interval=3600)
    table, token = finished(server)
    unload(server, table)
    assert hello(server, table, token)["type"] == "welcome"
    assert table in server.hub.tables
    played, played_token = new_table(server, SHORT)  # a table in play, idle as long: kept (abandon_after)
    time.sleep(0.5)
    assert server.call(server.hub.cleanup()) == [table]
    assert played in server.hub.tables and not server.hub.read_back
    assert hello(server, table, token)["type"] == "welcome"  # read back again on the next hello
    assert played_token


def test_a_refused_hello_evicts_no_idle_read_back_table(make_server: Any) -> None:
    server: ThreadServer = make_server(max_read_back=1)
    idle, idle_token = finished_unloaded(server)
    closed, _closed_token = finished_unloaded(server, spectators=False)
    other, _other_token = finished_unloaded(server)
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
    kept, kept_token = finished_unloaded(server)
    closed, _closed_token = finished_unloaded(server, spectators=False)
    other, other_token = finished_unloaded(server)
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


def test_a_hello_at_a_table_not_in_memory_is_charged_to_the_request_budget(make_server: Any) -> None:
    server: ThreadServer = make_server(limit_loopback=True, request_rate=0.001, request_burst=12)
    table, token = finished(server)
    ws, reply = welcome(server, table, token)  # in memory: no charge however often
    assert reply["type"] == "welcome"
    for _ in range(20):
        assert ws.hello(table, token)["type"] == "welcome"
    codes = [ws.hello(f"nosuch{i}")["code"] for i in range(12)]  # each reads the database
    assert "rate_limited" in codes and set(codes) == {"unknown_table", "rate_limited"}, codes
    first = codes.index("rate_limited")
    assert all(code == "rate_limited" for code in codes[first:])
    assert ws.hello(table, token)["type"] == "welcome"  # a table in memory costs nothing
    ws.close()


def test_a_hello_that_waited_while_the_sweep_unloaded_the_table_reads_it_back(make_server: Any) -> None:
    """The sweep took the table's lock before a hello that was waiting for it, and unloaded the table: the hello
    must not be welcomed at a table the hub no longer holds (nobody would ever unload it, nor see its events)."""
    server: ThreadServer = make_server(cleanup_interval=3600)
    table, token = finished(server)
    wait_unattended(server, table)  # else, on a loaded machine, the sweep found our closing connection still there
    live = server.hub.tables[table]
    server.config.abandon_after = 0.0

    async def sweep_first() -> list[str]:
        async with live.lock:  # something holds the lock; the sweep queues for it first
            sweep = asyncio.ensure_future(server.hub.cleanup())
            await asyncio.sleep(0.5)  # ... and the hello behind it
        return await sweep

    assert server.hub.loop is not None
    swept = asyncio.run_coroutine_threadsafe(sweep_first(), server.hub.loop)
    time.sleep(0.2)
    ws = WS(server.ws_url)
    ws.send({"type": "hello", "protocol": 1, "table": table, "token": token})
    assert swept.result(10) == [table]
    reply = ws.until(lambda m: m["type"] in ("welcome", "error"))
    assert reply["type"] == "welcome" and reply["seat"] == 0, reply
    assert table in server.hub.tables and server.hub.tables[table] is not live
    assert server.hub.tables[table].clients  # the connection is at the table the hub holds
    ws.close()


def test_after_a_restart_the_finished_table_welcomes_its_seat(make_server: Any) -> None:
    first: ThreadServer = make_server()
    table, token = finished(first)
    before = final_views(first, table, token)
    first.stop()
    forget_annotations(before)
    second: ThreadServer = make_server()
    assert table not in second.hub.tables  # a restart resumes only the tables waiting or playing
    seat_ws, seat = welcome(second, table, token)
    assert seat["type"] == "welcome" and seat["seat"] == 0 and seat["view"] == before["seat"]["view"]
    watch_ws, watch = welcome(second, table)
    assert watch["type"] == "welcome" and watch["view"] == before["spectator"]["view"]
    seat_ws.close()
    watch_ws.close()


# -- a deleted profile at a finished table read back ------------------------------------------------


def profile_table(server: ThreadServer, name: str, *, rated: bool) -> tuple[str, str, str]:
    """A finished table whose seat 0 is the profile *name*'s (two random bots with it): id, seat token, key."""
    key = httpx.post(server.url + "/api/players", json={"name": name}).json()["key"]
    seats = [{"kind": "human"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]
    created = httpx.post(server.url + "/api/tables", json={"seats": seats, "variant": SHORT, "rated": rated})
    assert created.status_code == 201, created.text
    table = created.json()["id"]
    joined = httpx.post(f"{server.url}/api/tables/{table}/join", json={"player_key": key})
    assert joined.status_code == 200, joined.text
    token = joined.json()["token"]
    play(server, table, token, lambda v: v["phase"] == "over")
    return table, token, key


def delete(server: ThreadServer, key: str) -> None:
    response = httpx.request("DELETE", server.url + "/api/profile", headers={"Authorization": f"Bearer {key}"})
    assert response.status_code == 204, response.text


def rematch(server: ThreadServer, table: str, token: str) -> str:
    """Ask for the rematch at *table* as its seat (the only human): the new table's id."""
    ws = WS(server.ws_url)
    try:
        assert ws.hello(table, token)["type"] == "welcome"
        ack = ws.request({"type": "rematch", "id": "r"})
    finally:
        ws.close()
    assert ack["type"] == "ack" and ack["table"], ack
    return str(ack["table"])


def test_a_deleted_profile_stays_deleted_at_a_finished_table_read_back(make_server: Any) -> None:
    server: ThreadServer = make_server()
    table, token, key = profile_table(server, "Zenon", rated=False)
    assert hello(server, table, token)["view"]["players"][0]["registered"] is True
    delete(server, key)
    before = hello(server, table, token)["view"]["players"][0]
    assert before["registered"] is False  # in memory: the delete took the profile off the seat
    unload(server, table)
    info = httpx.get(f"{server.url}/api/tables/{table}")  # the REST read of the table not in memory
    assert info.status_code == 200 and info.json()["seats"][0]["registered"] is False, info.text
    after = hello(server, table, token)["view"]["players"][0]
    assert after == before
    new = rematch(server, table, token)
    assert server.hub.tables[new].table.seats[0].player is None  # the human plays on, as no profile's
    seat = hello(server, new, token)
    assert seat["seat"] == 0 and seat["view"]["players"][0]["registered"] is False


def test_after_a_restart_too_and_in_the_store(make_server: Any, database_url: str) -> None:
    server: ThreadServer = make_server()
    table, token, key = profile_table(server, "Zofia", rated=False)
    delete(server, key)
    server.stop()
    store = Store(database_url)
    try:
        loaded = store.load(table)
        assert loaded is not None and loaded.seats[0].player is None
    finally:
        store.close()
    server = make_server()  # closed_players is empty here: the database says the profile is deleted
    assert hello(server, table, token)["view"]["players"][0]["registered"] is False
    new = rematch(server, table, token)
    assert server.hub.tables[new].table.seats[0].player is None


def test_a_rated_rematch_read_back_refuses_the_deleted_profile(make_server: Any) -> None:
    server: ThreadServer = make_server()
    table, token, key = profile_table(server, "Zbigniew", rated=True)
    delete(server, key)
    unload(server, table)
    ws = WS(server.ws_url)
    try:
        assert ws.hello(table, token)["view"]["players"][0]["registered"] is False
        reply = ws.request({"type": "rematch", "id": "r"})
    finally:
        ws.close()
    assert (reply["type"], reply["code"]) == ("error", "profile_needed"), reply
    assert all(live.table.parent != table for live in server.hub.tables.values())  # no rematch table was made
