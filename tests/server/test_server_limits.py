"""Who may have a table's record (tables without spectators), the caps on connections and on REST requests
(counted down on every way a connection ends), the cap on open tables, the database ``mizerka serve`` refuses,
paging of the table list, and ids no table can have.

* Past ``max_tables`` a new table is refused with 503 ``server_full``, quick play too (one client could create
  tables without end, some 27 KiB of memory each, all kept for an hour).
* ``mizerka serve`` refuses a database it cannot open in one line (exit 1, no traceback, no password), and an empty
  ``--database`` (``--database "$DB"`` with DB unset) as a usage error (exit 2) before anything is opened: it used to
  open the user's default database silently, where every other command refuses an empty file name.
* An id no table can have is an unknown table, 404 ``unknown_table``.  One the database cannot hold is never looked
  for (a NUL was a 500 on PostgreSQL); one too long for any table (65 characters or more: text pasted onto the end
  of an invitation link) gets the answer any unknown id gets, in every ``/api/tables/{id}...`` path, whatever the
  body, and in a websocket ``hello`` (it was a 422 format error, "String should have at most 64 characters", which
  the browser showed on a Polish page)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import WS, ThreadServer, play_until, post_table
from websockets.exceptions import ConnectionClosed

from mizerka.record import read_json
from mizerka.server.hub import ConnectionCount, Hub, RequestBudget, ServerConfig, address_key

SHORT = "standard,contracts=NT"  # three deals
BOTS = [{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]


def wait_for(predicate: Any, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError("the condition did not come true")
        time.sleep(0.02)


def record(server: ThreadServer, table: str, token: str | None = None, header: str | None = None) -> httpx.Response:
    headers = {"Authorization": header if header is not None else f"Bearer {token}"} if token or header else {}
    return httpx.get(server.url + f"/api/tables/{table}/record", params={"format": "json"}, headers=headers)


# -- the record of a table without spectators ---------------------------------------------------------


def test_record_of_a_table_without_spectators_is_for_its_players_only(make_server: Any) -> None:
    server: ThreadServer = make_server(abandon_after=0.2)
    table = httpx.post(server.url + "/api/tables", json={
        "seats": [{"kind": "human"}, *BOTS], "variant": SHORT, "spectators": False, "reveal": True,
        "visibility": "public"}).json()["id"]
    token = httpx.post(server.url + f"/api/tables/{table}/join", json={"name": "Ala"}).json()["token"]
    ws = WS(server.ws_url)
    ws.hello(table, token)
    play_until(ws, lambda v: len(v["score_sheet"]) >= 1 and v["phase"] in ("choose", "exchange", "play"))

    # the match is on, deal 1 is over and was revealed to the players: the record is theirs, nobody else's
    refused = record(server, table)
    assert refused.status_code == 403 and refused.json()["error"] == "spectators_off", refused.text
    assert set(refused.json()) == {"error", "message"} and "AS" not in refused.text
    for bad in ("Bearer not-a-token", "Basic QWxhOmtvdA==", "Bearer", "Bearer " + "x" * 150):
        response = record(server, table, header=bad)
        assert (response.status_code, response.json()["error"]) == (403, "bad_token"), (bad, response.text)
    mine = record(server, table, token)
    assert mine.status_code == 200, mine.text
    partial = read_json(mine.text)
    assert [d.number for d in partial.deals] == [1] and not partial.score_only

    play_until(ws, lambda v: v["phase"] == "over")
    ws.close()
    # the match is over: still the players' alone (every card of every deal is in it)
    assert record(server, table).json()["error"] == "spectators_off"
    assert record(server, table, "nope").json()["error"] == "bad_token"
    final = read_json(record(server, table, token).text)
    assert final.is_over() and final.verify_commitments() == (1, 2, 3)

    # unloaded from memory, read back from the database: the same rule, the same token
    time.sleep(0.3)
    assert table in server.call(server.hub.cleanup())
    assert table not in server.hub.tables
    assert record(server, table).json()["error"] == "spectators_off"
    assert read_json(record(server, table, token).text).verify_commitments() == (1, 2, 3)


def test_record_of_a_table_with_spectators_is_for_anyone_with_its_id(server: ThreadServer) -> None:
    """A private table that admits spectators: its id is its invite, and whoever has it may watch (and have the
    record); a token, if sent, must hold a seat there."""
    table = httpx.post(server.url + "/api/tables", json={
        "seats": [{"kind": "human"}, *BOTS], "variant": SHORT, "visibility": "private"}).json()["id"]
    token = httpx.post(server.url + f"/api/tables/{table}/join", json={"name": "Ala"}).json()["token"]
    spectator = WS(server.ws_url)
    assert spectator.hello(table)["type"] == "welcome"
    spectator.close()
    ws = WS(server.ws_url)
    ws.hello(table, token)
    play_until(ws, lambda v: len(v["score_sheet"]) >= 1)
    ws.close()
    anyone, seat = record(server, table), record(server, table, token)
    assert anyone.status_code == seat.status_code == 200 and anyone.text == seat.text
    assert record(server, table, "nope").json()["error"] == "bad_token"


# -- caps on websocket connections ------------------------------------------------------------------


def refused(server: ThreadServer) -> tuple[dict[str, Any], int | None]:
    """Open a connection that should be refused: its error reply and the close code."""
    ws = WS(server.ws_url)
    try:
        error = ws.recv()
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=5)
        assert closed.value.rcvd is not None
        return error, closed.value.rcvd.code
    finally:
        ws.close()


def test_websocket_connections_per_address_are_capped(make_server: Any) -> None:
    server: ThreadServer = make_server(max_connections_per_address=2, limit_loopback=True)
    first, second = WS(server.ws_url), WS(server.ws_url)
    for ws in (first, second):
        assert ws.request({"type": "ping", "id": 1})["type"] == "pong"
    error, code = refused(server)
    assert (error["type"], error["code"], code) == ("error", "too_many_connections", 1008)
    assert server.hub.connections.total == 2  # the refused one was never counted
    first.close()
    wait_for(lambda: server.hub.connections.total == 1)
    third = WS(server.ws_url)
    assert third.request({"type": "ping", "id": 2})["type"] == "pong"
    second.close()
    third.close()
    wait_for(lambda: server.hub.connections.total == 0 and not server.hub.connections.by_address)


def test_websocket_connections_in_all_are_capped_and_loopback_spared_per_address(make_server: Any) -> None:
    # without limit_loopback the per-address cap spares 127.0.0.1; the total cap applies to every connection
    server: ThreadServer = make_server(max_connections=3, max_connections_per_address=1)
    held = [WS(server.ws_url) for _ in range(3)]
    for ws in held:
        assert ws.request({"type": "ping", "id": 1})["type"] == "pong"
    error, code = refused(server)
    assert (error["code"], code) == ("too_many_connections", 1013)
    for ws in held:
        ws.close()
    wait_for(lambda: server.hub.connections.total == 0)


def test_connections_are_counted_down_on_every_way_they_end(make_server: Any) -> None:
    server: ThreadServer = make_server(max_connections=4)
    hub = server.hub
    table = httpx.post(server.url + "/api/tables", json={}).json()["id"]
    token = httpx.post(server.url + f"/api/tables/{table}/join", json={"name": "Ala"}).json()["token"]

    seated = WS(server.ws_url)  # closed by the client, cleanly, holding a seat
    seated.hello(table, token)
    assert hub.connections.total == 1
    seated.close()
    wait_for(lambda: hub.connections.total == 0)

    dropped = WS(server.ws_url)  # the network drops it: no close frame
    dropped.hello(table)
    dropped.conn.socket.close()
    wait_for(lambda: hub.connections.total == 0)
    with contextlib.suppress(Exception):
        dropped.close()

    # the handler fails on its way out (here: taking the connection off its table): given back all the same
    async def boom(*_args: Any) -> None:
        raise ValueError("boom")

    async def tasks() -> int:
        return len(asyncio.all_tasks())

    before = server.call(tasks())
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(hub, "detach", boom)
        broken = WS(server.ws_url)
        assert broken.request({"type": "ping", "id": 1})["type"] == "pong"
        broken.close()
        wait_for(lambda: hub.connections.total == 0)
        # and its sender task ended (it waited for its queue for ever: a task leaked per such connection)
        wait_for(lambda: server.call(tasks()) <= before)

    # the caps still admit as many as before
    held = [WS(server.ws_url) for _ in range(4)]
    for ws in held:
        assert ws.request({"type": "ping", "id": 1})["type"] == "pong"
    for ws in held:
        ws.close()
    wait_for(lambda: hub.connections.total == 0 and not hub.connections.by_address)


def test_a_silent_connection_dropped_by_the_heartbeat_is_counted_down(make_server: Any) -> None:
    server: ThreadServer = make_server(heartbeat=0.1)
    silent = WS(server.ws_url)  # never answers: three heartbeats of silence and the server drops it
    wait_for(lambda: server.hub.connections.total == 1)
    wait_for(lambda: server.hub.connections.total == 0, timeout=15)
    silent.close()


def test_a_fault_of_the_server_gets_an_error_reply_not_a_dropped_connection(
    server: ThreadServer, caplog: pytest.LogCaptureFixture
) -> None:
    """An exception the server did not foresee, while it handles a message, ended the connection; now the client
    gets ``internal`` and keeps it, and the log names the exception's type and place, never its message (which
    may hold a card of a seat's hand)."""
    hub = server.hub
    original = hub.handle

    async def faulty(client: Any, message: Any) -> None:
        if getattr(message, "type", None) == "sync":
            raise KeyError("AS KH the hidden hand")
        await original(client, message)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(hub, "handle", faulty)
        ws = WS(server.ws_url)
        with caplog.at_level(logging.ERROR, logger="mizerka.server"):
            reply = ws.request({"type": "sync", "id": 7, "last_seq": 0})
        assert (reply["type"], reply["id"], reply["code"]) == ("error", 7, "internal"), reply
        assert ws.request({"type": "ping", "id": 8}) == {"type": "pong", "id": 8}
        ws.close()
    lines = [r.getMessage() for r in caplog.records]
    assert any("KeyError" in line for line in lines), lines
    assert not any("hidden hand" in line or "AS KH" in line for line in lines), lines


def test_connection_count_and_request_budget_units() -> None:
    count = ConnectionCount(total=2, per_address=1)
    assert count.admit("a") is None and count.admit("a") == "address"
    assert count.admit("a", per_address=False) is None and count.admit("b") == "total"
    count.release("a")
    count.release("a")
    count.release("a")  # one release too many counts nothing below zero
    assert (count.total, count.by_address) == (0, {})

    budget = RequestBudget(rate=10.0, burst=5.0)
    for i in range(5000):  # one request from each of many addresses: the idle ones are forgotten
        assert budget.charge(f"10.0.{i // 256}.{i % 256}", now=i * 0.01) == 0.0
    assert len(budget) < 1100
    assert RequestBudget(rate=0.0, burst=1.0).charge("a") == 0.0  # rate 0: no limit
    assert address_key("2001:db8::1") == address_key("2001:db8::2") == "2001:db8::/64"
    assert address_key("2001:db8:0:1::1") != address_key("2001:db8::1")


# -- the REST request budget ------------------------------------------------------------------------


def test_rest_requests_per_address_are_rate_limited(make_server: Any) -> None:
    server: ThreadServer = make_server(request_rate=0.5, request_burst=3, limit_loopback=True)
    with httpx.Client(base_url=server.url) as http:
        assert [http.get("/api/meta").status_code for _ in range(3)] == [200, 200, 200]
        limited = http.get("/api/tables")
        assert limited.status_code == 429, limited.text
        assert limited.json()["error"] == "rate_limited" and set(limited.json()) == {"error", "message"}
        assert 1 <= int(limited.headers["Retry-After"]) <= 2
        assert http.post("/api/tables", json={}).status_code == 429  # refused before any work: no table made
        assert not server.hub.tables
        # a websocket connection attempt is charged to the same budget: an error reply, then close code 1008
        error, code = refused(server)
        assert (error["code"], code) == ("rate_limited", 1008)
        assert server.hub.connections.total == 0
        time.sleep(2.1)  # one request's worth refilled
        assert http.get("/api/meta").status_code == 200


def test_loopback_is_spared_the_request_budget_by_default(make_server: Any) -> None:
    server: ThreadServer = make_server(request_rate=0.5, request_burst=1)
    with httpx.Client(base_url=server.url) as http:
        assert {http.get("/api/meta").status_code for _ in range(10)} == {200}


# -- the number of open tables ---------------------------------------------------------------------


def test_the_number_of_open_tables_is_bounded(make_server: Any) -> None:
    """One client could create tables without end (2,000 in 15 s, ~27 KiB of memory each, all kept for an hour):
    past ``max_tables`` a new table is refused with 503 ``server_full``; quick-play too."""
    server: ThreadServer = make_server(max_tables=3)
    for _ in range(3):
        post_table(server)
    response = httpx.post(server.url + "/api/tables", json={})
    assert response.status_code == 503 and response.json()["error"] == "server_full", response.text
    response = httpx.post(server.url + "/api/quickplay", json={"name": "Ala"})
    assert response.status_code == 503 and response.json()["error"] == "server_full", response.text
    assert len(httpx.get(server.url + "/api/tables").json()) == 3


# -- the command's options ---------------------------------------------------------------------------


def test_serve_takes_the_limits_as_options() -> None:
    defaults = ServerConfig(database="sqlite://")
    assert (defaults.max_connections, defaults.max_connections_per_address) == (10_000, 256)
    assert (defaults.request_rate, defaults.request_burst, defaults.limit_loopback) == (20.0, 100.0, False)
    from click.testing import CliRunner

    from mizerka.server.command import serve_command

    result = CliRunner().invoke(serve_command, ["--help"])
    for option in ("--max-connections", "--max-connections-per-address", "--request-rate", "--request-burst",
                   "--limit-loopback"):
        assert option in result.output
    bad = CliRunner().invoke(serve_command, ["--max-connections", "0"])
    assert bad.exit_code == 2



@pytest.mark.parametrize(("database", "reason"), [
    ("notadb.txt", "file is not a database"),
    (".", "unable to open database file"),  # a directory
    ("nosuchdb://host/mizerka", "Can't load plugin: sqlalchemy.dialects:nosuchdb"),
    ("postgresql://ala:secret@127.0.0.1:1/mizerka", "Connection refused"),  # no server answers on port 1
])
def test_serve_refuses_a_bad_database_in_one_line(tmp_path: Any, database: str, reason: str) -> None:
    """``mizerka serve --database`` with a database it cannot open says so in one line and exits 1, before it
    listens, without a traceback and without the password (the server's start-up used to end in pages of them)."""
    (tmp_path / "notadb.txt").write_text("hello\n")
    done = subprocess.run([sys.executable, "-m", "mizerka", "serve", "--host", "127.0.0.1", "--port", "0",
                           "--database", database], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr + done.stdout and "secret" not in done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("Error: cannot open the database ") and reason in last, done.stderr


def test_serve_refuses_a_database_in_a_folder_that_does_not_exist(tmp_path: Path) -> None:
    """A mistyped folder in ``--database`` made the folders and a new, empty database without a word, so the
    operator's tables seemed gone; ``play --record`` and ``score --file`` already refused a missing folder."""
    database = f"sqlite:///{tmp_path / 'no' / 'such' / 'x.sqlite3'}"
    done = subprocess.run([sys.executable, "-m", "mizerka", "serve", "--host", "127.0.0.1", "--port", "0",
                           "--database", database], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last == (f"Error: cannot open the database {database}: the folder {str(tmp_path / 'no' / 'such')!r} "
                    "does not exist: create it first (a mistyped path would start a new, empty database)"), last
    assert not (tmp_path / "no").exists()


@pytest.mark.parametrize("value", ["", "   "])
def test_serve_refuses_an_empty_database_url(tmp_path: Path, value: str) -> None:
    """Refused with a usage error (exit 2) before anything is opened.  The old command went on with the default
    database (here in a scratch data folder) and then failed to bind the port held below, so it ended (exit 1)
    instead of serving: the test cannot hang on it."""
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "HOME": str(tmp_path)}
        result = subprocess.run([sys.executable, "-m", "mizerka", "serve", "--port", str(port), "--database", value],
                                capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 2, result.stderr[-2000:]
    assert "Traceback" not in result.stderr and "mizerka server on" not in result.stderr
    assert ("Error: Invalid value for '--database': give a database URL (sqlite:///path or "
            "postgresql://user:pw@host/db), not an empty value; leave the option out for the default database"
            ) in result.stderr
    assert not (tmp_path / "data").exists()  # no default database was created


@pytest.mark.parametrize("value", ["", "  "])
def test_serve_refuses_an_empty_host(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, value: str) -> None:
    """``--host ""`` (``--host "$HOST"`` with HOST unset) went to ``bind()``, which takes '' for every interface:
    the server meant for this machine listened on all of them.  Refused (exit 2) before any socket is made."""
    from click.testing import CliRunner

    from mizerka.server import command

    def no_listen(host: str, port: int) -> socket.socket:
        raise AssertionError(f"listen({host!r}, {port}) was called")

    monkeypatch.setattr(command, "listen", no_listen)
    result = CliRunner().invoke(command.serve_command, ["--host", value, "--port", "0", "--database",
                                                        str(tmp_path / "db.sqlite3")])
    assert result.exit_code == 2, result.output
    assert "Invalid value for '--host': give an address to bind" in result.output
    assert not (tmp_path / "db.sqlite3").exists()


@pytest.mark.parametrize("host", ["\udcff", "\u00e9" * 70])
def test_listen_names_a_host_that_cannot_be_encoded(host: str) -> None:
    """A byte that is no UTF-8 in ``--host`` (a lone surrogate to Python), or a label over 63 characters: ``bind()``
    raised TypeError ("encoding of hostname failed"), a traceback.  Nothing is bound either way."""
    import click

    from mizerka.server.command import listen

    with pytest.raises(click.ClickException, match="it is no host name or address"):
        listen(host, 0)


# -- paging of the table list -----------------------------------------------------------------------


def test_table_list_pages(server: ThreadServer) -> None:
    playing = httpx.post(server.url + "/api/tables", json={"seats": [{"kind": "bot", "level": "random"}] * 3})
    assert playing.json()["status"] == "playing"
    waiting = [httpx.post(server.url + "/api/tables", json={"name": f"T{i}"}).json()["id"] for i in range(4)]
    httpx.post(server.url + "/api/tables", json={"visibility": "private"})
    everything = httpx.get(server.url + "/api/tables")
    assert everything.status_code == 200 and everything.headers["X-Total-Count"] == "5"
    assert [t["id"] for t in everything.json()] == [*waiting, playing.json()["id"]]  # the joinable ones first
    page = httpx.get(server.url + "/api/tables", params={"limit": 2, "offset": 1})
    assert [t["id"] for t in page.json()] == waiting[1:3] and page.headers["X-Total-Count"] == "5"
    assert httpx.get(server.url + "/api/tables", params={"offset": 5}).json() == []
    assert len(httpx.get(server.url + "/api/tables", params={"limit": 500}).json()) == 5
    for params in ({"limit": 0}, {"limit": 501}, {"offset": -1}, {"limit": "ten"}, {"offset": 10**7}):
        response = httpx.get(server.url + "/api/tables", params=params)
        assert response.status_code == 422 and response.json()["error"] == "bad_request", (params, response.text)
        assert set(response.json()) == {"error", "message"}


def test_table_list_default_page_is_a_hundred(server: ThreadServer) -> None:
    async def open_tables() -> None:
        from mizerka.server.tables import SeatState, TableSettings

        for _ in range(105):
            await server.hub.create_table(TableSettings(), [SeatState.human()] * 3)

    server.call(open_tables())
    listed = httpx.get(server.url + "/api/tables")
    assert len(listed.json()) == 100 and listed.headers["X-Total-Count"] == "105"


# -- ids no table can have --------------------------------------------------------------------------


def test_an_id_no_table_can_have_is_not_looked_for(server: ThreadServer) -> None:
    """``GET /api/tables/%00`` was a 500 on PostgreSQL (which refuses a NUL in text): such an id is no table's, and
    it never reaches the database."""
    hub: Hub = server.hub

    def fail(table_id: str) -> None:
        raise AssertionError(f"the database was asked for {table_id!r}")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(hub._store(), "load", fail)
        for junk in ("\x00", "a\x00b", "x y", "é", "a/b"):
            assert server.call(hub.find(junk)) is None
        for path in ("/api/tables/%00", "/api/tables/%00/record", "/api/tables/a%00b/record?format=json"):
            response = httpx.get(server.url + path)
            assert (response.status_code, response.json()["error"]) == (404, "unknown_table"), (path, response.text)
    assert server.call(hub.find("NoSuchTable_-1")) is None  # a plausible id is looked for


def test_an_over_long_table_id_is_an_unknown_table_in_every_table_path(server: ThreadServer) -> None:
    long_id = "x" * 65
    cases: list[tuple[str, str, object]] = [
        ("get", "/api/tables/{}", None),
        ("post", "/api/tables/{}/join", {"name": "Ala"}),
        ("post", "/api/tables/{}/leave", {"token": "t" * 20}),
        ("get", "/api/tables/{}/sheet", None),
        ("get", "/api/tables/{}/record", None),
        ("get", "/api/tables/{}/deals/1/review", None),
    ]
    for method, path, body in cases:
        short = httpx.request(method, server.url + path.format("nope"), json=body)
        assert (short.status_code, short.json()["error"]) == (404, "unknown_table"), (path, short.text)
        response = httpx.request(method, server.url + path.format(long_id), json=body)
        assert response.status_code == 404, (path, response.text)
        # the very answer an unknown short id gets from this endpoint, with the long id in it
        assert response.json() == {"error": "unknown_table",
                                   "message": short.json()["message"].replace("'nope'", repr(long_id))}, path


def test_an_over_long_table_id_with_a_bad_body_is_still_an_unknown_table(server: ThreadServer) -> None:
    # the body is refused too (an empty name), but no table could have this id: the answer is about the table
    response = httpx.post(server.url + "/api/tables/" + "y" * 200 + "/join", json={"name": ""})
    assert (response.status_code, response.json()["error"]) == (404, "unknown_table"), response.text


def test_other_format_errors_keep_their_422(server: ThreadServer) -> None:
    response = httpx.post(server.url + "/api/tables/nope/join", json={"name": ""})
    assert (response.status_code, response.json()["error"]) == (422, "bad_request"), response.text
    response = httpx.get(server.url + "/api/tables/nope/record", params={"format": "pdf"})
    assert (response.status_code, response.json()["error"]) == (422, "bad_request"), response.text


def test_an_over_long_table_id_in_a_hello_is_an_unknown_table(server: ThreadServer) -> None:
    """The websocket's hello said "hello: table: String should have at most 64 characters" (a spectator's
    ``&watch=1`` link with text pasted on its end); it is an unknown table there too, and the connection lives."""
    ws = WS(server.ws_url)
    short = ws.hello("nope")
    assert (short["type"], short["code"]) == ("error", "unknown_table"), short
    reply = ws.hello("z" * 65)
    assert (reply["type"], reply["code"]) == ("error", "unknown_table"), reply
    assert len(reply["message"]) < 100
    assert ws.request({"type": "ping"})["type"] == "pong"
    ws.close()


def test_hub_admits_and_gives_back_a_connection() -> None:
    hub = Hub(ServerConfig(database="sqlite://"))
    assert hub.admit("127.0.0.1") is None and hub.connections.total == 1
    hub.connections.release(address_key("127.0.0.1"))
    assert hub.connections.total == 0
