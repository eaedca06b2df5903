"""What an audit found in the finished-table read-back and the stored chat (docs/server.md, *Tables* and *Limits*):

* a deleted profile stays deleted at a finished table read back from the database (its view, ``GET
  /api/tables/{id}``) and is never seated again by a rematch made there, rated or not;
* the finished tables read back for a hello have a cap of their own (``max_read_back``), apart from ``max_tables``:
  reading old matches never keeps a new table from being made, the one idle longest makes room for another, and
  the sweep unloads one after ``read_back_idle`` seconds without anyone at it;
* a chat message whose write reported a failure never gives its number out again (the write may have committed):
  the next messages are stored and relayed.

Against SQLite, or PostgreSQL with MIZERKA_TEST_DATABASE_URL set."""

from __future__ import annotations

import time
from typing import Any

import httpx
from server_helpers import WS, ThreadServer, new_table, play, unload

from mizerka.server.db import Store

SHORT = "standard,contracts=NT+MZ"


def welcome(server: ThreadServer, table: str, token: str | None = None) -> dict[str, Any]:
    ws = WS(server.ws_url)
    try:
        return ws.hello(table, token)
    finally:
        ws.close()


def finished(server: ThreadServer) -> tuple[str, str]:
    table, token = new_table(server, SHORT)
    play(server, table, token, lambda v: v["phase"] == "over")
    return table, token


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
    assert welcome(server, table, token)["view"]["players"][0]["registered"] is True
    delete(server, key)
    before = welcome(server, table, token)["view"]["players"][0]
    assert before["registered"] is False  # in memory: the delete took the profile off the seat
    unload(server, table)
    info = httpx.get(f"{server.url}/api/tables/{table}")  # the REST read of the table not in memory
    assert info.status_code == 200 and info.json()["seats"][0]["registered"] is False, info.text
    after = welcome(server, table, token)["view"]["players"][0]
    assert after == before
    new = rematch(server, table, token)
    assert server.hub.tables[new].table.seats[0].player is None  # the human plays on, as no profile's
    seat = welcome(server, new, token)
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
    assert welcome(server, table, token)["view"]["players"][0]["registered"] is False
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
    assert welcome(server, table, token)["type"] == "welcome"
    assert table in server.hub.tables
    played, played_token = new_table(server, SHORT)  # a table in play, idle as long: kept (abandon_after)
    time.sleep(0.5)
    assert server.call(server.hub.cleanup()) == [table]
    assert played in server.hub.tables and not server.hub.read_back
    assert welcome(server, table, token)["type"] == "welcome"  # read back again on the next hello
    assert played_token


def test_a_chat_number_whose_write_reported_a_failure_is_never_given_again(make_server: Any) -> None:
    """The write of a message committed, but its answer said it failed (the connection lost on the way back): the
    row is stored under its number, and every later message must still be stored (a number given again would hit
    the stored row's key for ever)."""
    server: ThreadServer = make_server()
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}]
    table = httpx.post(server.url + "/api/tables", json={"seats": seats, "variant": SHORT}).json()["id"]
    tokens = [httpx.post(f"{server.url}/api/tables/{table}/join", json={"name": n}).json()["token"]
              for n in ("Ala", "Bolek")]
    ala, bolek = WS(server.ws_url), WS(server.ws_url)
    ala.hello(table, tokens[0])
    bolek.hello(table, tokens[1])
    store = server.hub.store
    assert store is not None
    real_write, real_chat_op = store.write, store.chat_op
    chat_ops: list[Any] = []  # only a chat message's write fails: the table's own events (a bot, a seat) go on

    def chat_op(*args: Any, **kwargs: Any) -> Any:
        op = real_chat_op(*args, **kwargs)
        chat_ops.append(op)
        return op

    async def write_then_fail(op: Any) -> None:  # the real write, then the failure a lost answer reports
        await real_write(op)
        if any(op is chat for chat in chat_ops):
            chat_ops.clear()  # once
            raise ConnectionError("the connection was lost after the commit")

    store.write = write_then_fail  # type: ignore[method-assign]
    store.chat_op = chat_op  # type: ignore[method-assign]
    try:
        ala.send({"type": "chat", "id": "c1", "text": "committed, reported lost"})
        reply = ala.until(lambda m: m.get("id") == "c1")
        assert (reply["type"], reply["code"]) == ("error", "internal"), reply
    finally:
        store.write, store.chat_op = real_write, real_chat_op  # type: ignore[method-assign]
    numbers = []
    for i in range(3):
        ala.send({"type": "chat", "id": f"n{i}", "text": f"next {i}"})
        sent = ala.until(lambda m, i=i: m.get("id") == f"n{i}")
        assert sent["type"] == "chat", sent
        numbers.append(sent["seq"])
        assert bolek.until(lambda m: m["type"] == "chat")["text"] == f"next {i}"
    assert numbers == [2, 3, 4]  # number 1 is the stored row's: a gap for the clients, never a clash
    ala.close()
    bolek.close()
    stored = store.chat_history([table], 50)[table]  # what a restart would give back: the row, then the rest
    assert [(m["seq"], m["text"]) for m in stored] == [(1, "committed, reported lost"), (2, "next 0"),
                                                       (3, "next 1"), (4, "next 2")]
