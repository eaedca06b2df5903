"""Faults of the database under play: a write lock held elsewhere, a database that went away, a write or a COMMIT
that fails.  Whatever the database does, the server answers everyone else meanwhile, a table is never ahead of its
journal, and once the database is back play goes on.

* A SQLite database whose write lock another connection holds (another process, an operator's ``sqlite3`` shell, a
  second server started on the same file by mistake) stops no client: the event loop commits a SQLite file itself,
  and a write waits in the queue while the loop serves every other client, new connections' handshakes and pings
  included (the driver's busy handler used to sleep in the loop for up to 30 s a try, and once more for each write
  of the batch).  The waiting action is neither acknowledged nor shown before it is stored; past
  ``SQLITE_LOCK_WAIT`` it fails with ``internal``, nothing changed.
* A write that fails while the database can be neither written nor read leaves the table as stored: it is rebuilt
  from the events stored before (the failed write's events used to stay in memory, be sent to whoever synced, and
  the next write stored its events after them: a gap in the journal, and the table no longer replayed).
* A bot whose decision could not be stored is asked again and the table plays on (it used to stay marked as asked,
  and the table waited for that bot for good, a reconnection not helping).
* A COMMIT that fails is rolled back and the batch's writes are tried again one by one (SQLite left the transaction
  open, and every later write at every table failed ``internal`` until a restart).

Every test runs a real server on 127.0.0.1 over SQLite, or PostgreSQL when MIZERKA_TEST_DATABASE_URL is set; the
lock and COMMIT tests are SQLite's alone and skip on PostgreSQL.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from server_helpers import DB_ENV, SHORT, WS, ThreadServer, fresh_schema, new_table, play_until

from mizerka.server import db
from mizerka.server.db import normalize_url, sqlite_path


def my_turn(ws: WS, server: ThreadServer, table: str) -> None:
    """Read until it is our seat's turn and we have every event of the table (none is on its way to us)."""
    while ws.view is None or not ws.view["your_turn"] or ws.seq != server.call(table_seq(server, table)):
        with contextlib.suppress(TimeoutError):
            ws.recv(timeout=0.5)


@contextmanager
def seated_at_my_turn(server: ThreadServer, table: str, token: str) -> Iterator[WS]:
    """Our seat's connection to *table* (a hello with *token*), once it is our turn (:func:`my_turn`); closed at the
    end."""
    ws = WS(server.ws_url)
    try:
        ws.hello(table, token)
        my_turn(ws, server, table)
        yield ws
    finally:
        ws.close()


def an_action(ws: WS) -> dict[str, Any]:
    assert ws.view is not None
    return {"type": "act", "action": ws.view["legal"][0] if ws.view["legal"] else "keep", "seq": ws.seq}


def received(ws: WS, seconds: float) -> list[dict[str, Any]]:
    """The messages that come within *seconds*."""
    messages = []
    deadline = time.monotonic() + seconds
    with contextlib.suppress(TimeoutError):
        while (left := deadline - time.monotonic()) > 0:
            messages.append(ws.recv(timeout=left))
    return messages


def stored_seqs(database_url: str, table: str) -> list[int]:
    engine = sa.create_engine(normalize_url(database_url))
    try:
        with engine.connect() as connection:
            rows = connection.execute(sa.text("SELECT seq FROM events WHERE table_id = :t ORDER BY seq"), {"t": table})
            return [int(seq) for (seq,) in rows]
    finally:
        engine.dispose()


async def table_seq(server: ThreadServer, table: str) -> int:
    """The table's last event number, once whatever holds its lock (a write, a reload) is done."""
    live = server.hub.tables[table]
    async with live.lock:
        return live.table.seq


@contextmanager
def write_lock(database_url: str) -> Iterator[sqlite3.Connection]:
    """Hold the SQLite database's write lock from another connection (as another process would) for the body."""
    path = sqlite_path(normalize_url(database_url))
    assert path is not None
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    try:
        other.execute("BEGIN IMMEDIATE")
        yield other
    finally:
        other.execute("ROLLBACK")
        other.close()


def sqlite_only(server: ThreadServer) -> None:
    assert server.hub.store is not None
    if not server.hub.store.inline:
        pytest.skip("the event loop commits only a SQLite file itself")


def test_a_database_locked_elsewhere_stops_no_client(make_server: Any, database_url: str) -> None:
    """While another connection holds the write lock, an action waits (not acknowledged, not stored), and the server
    answers everyone else meanwhile: a new connection is accepted and its ping answered.  Once the lock is let go,
    the action is stored and acknowledged."""
    server = make_server()
    sqlite_only(server)
    table, token = new_table(server)
    with seated_at_my_turn(server, table, token) as ws, contextlib.ExitStack() as others:
        before = ws.seq
        with write_lock(database_url):
            ws.send({**an_action(ws), "id": "locked"})
            # the server's loop is free: a handshake and a ping go through while the write waits for the lock (the
            # old code slept in the driver's busy handler, 30 s, and this connection timed out)
            other = WS(server.ws_url)
            others.callback(other.close)
            assert other.request({"type": "ping", "id": 7}) == {"type": "pong", "id": 7}
            # nothing acknowledged, nothing shown, before it is stored
            assert not [m for m in received(ws, 0.3) if m["type"] in ("ack", "event", "error")]
            assert stored_seqs(database_url, table)[-1] == before
        ack = ws.until(lambda m: m["type"] == "ack" and m["id"] == "locked")
        assert ack["seq"] == before + 1
        assert stored_seqs(database_url, table)[: before + 1] == list(range(1, before + 2))


def test_a_lock_held_too_long_fails_the_write_cleanly(make_server: Any, database_url: str,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A lock held past ``SQLITE_LOCK_WAIT`` fails the waiting write with ``internal`` (nothing changed: the table is
    where it was, in memory and on disk), and once the lock is gone the same action is accepted."""
    monkeypatch.setattr(db, "SQLITE_LOCK_WAIT", 0.5, raising=False)
    server = make_server()
    sqlite_only(server)
    table, token = new_table(server)
    with seated_at_my_turn(server, table, token) as ws:
        before = ws.seq
        action = an_action(ws)
        with write_lock(database_url):
            reply = ws.request({**action, "id": "locked"}, timeout=20)
            assert reply["type"] == "error" and reply["code"] == "internal" and reply["id"] == "locked", reply
            assert server.call(table_seq(server, table)) == before
        assert stored_seqs(database_url, table)[-1] == before
        reply = ws.request({**action, "id": "again"})
        assert reply["type"] == "ack" and reply["seq"] == before + 1, reply


class DatabaseDown:
    """Make the hub's store fail every write and every table read (a database that went away), counting the tries.
    With *after_seq*, only the writes of a table's events numbered past it fail (a bot's, after the human's)."""

    def __init__(self, server: ThreadServer, after_seq: int | None = None) -> None:
        assert server.hub.store is not None
        self.store = server.hub.store
        self.after_seq = after_seq
        self.writes = 0
        self.reads = 0
        self._lock = threading.Lock()

    def _count(self, kind: str) -> None:
        with self._lock:
            setattr(self, kind, getattr(self, kind) + 1)
        raise sqlite3.OperationalError("disk I/O error (the test's database is down)")

    def _writes(self, commit: Callable[[list[Any]], None]) -> Callable[[list[Any]], None]:
        def fail(ops: list[Any]) -> None:
            firsts = [op.rows[0]["seq"] for op in ops if isinstance(op, db._Append) and op.rows]
            if self.after_seq is None or any(seq > self.after_seq for seq in firsts):
                self._count("writes")
            commit(ops)
        return fail

    def _reads(self, *_args: Any) -> Any:
        self._count("reads")

    def __enter__(self) -> DatabaseDown:
        # the inline path (a SQLite file) and the writer thread's (PostgreSQL) look the commit up on the instance
        self.store._sqlite_commit = self._writes(self.store._sqlite_commit)  # type: ignore[method-assign,assignment]
        self.store._engine_commit = self._writes(self.store._engine_commit)  # type: ignore[method-assign,assignment]
        self.store.load = self._reads  # type: ignore[method-assign,assignment]
        return self

    def __exit__(self, *_exc: object) -> None:
        for name in ("_sqlite_commit", "_engine_commit", "load"):
            self.store.__dict__.pop(name, None)


def test_a_failed_write_with_the_database_down_leaves_the_table_as_stored(make_server: Any,
                                                                          database_url: str) -> None:
    """The human's action cannot be stored, nor the table read back: the client gets ``internal``, and the table in
    memory is the stored one (the old code kept the unstored event: a sync was sent it, and the next action was
    stored after it, leaving a gap in the journal).  Once the database is back, the same action is accepted and the
    journal stays whole, the table replaying to what is in memory."""
    server = make_server()
    table, token = new_table(server)
    with seated_at_my_turn(server, table, token) as ws:
        before = ws.seq
        action = an_action(ws)
        with DatabaseDown(server) as down:
            reply = ws.request({**action, "id": "down"})
            assert reply["type"] == "error" and reply["code"] == "internal", reply
            assert down.writes >= 1 and down.reads >= 1
        assert server.call(table_seq(server, table)) == before
        snapshot = ws.request({"type": "sync", "last_seq": before})
        assert snapshot["seq"] == before and snapshot["events"] == [], snapshot  # no event that was never stored
        reply = ws.request({**action, "id": "up"})
        assert reply["type"] == "ack" and reply["seq"] == before + 1, reply
        seqs = stored_seqs(database_url, table)
        assert seqs == list(range(1, len(seqs) + 1)) and len(seqs) >= before + 1  # no gap
        assert server.hub.store is not None
        replayed = server.hub.store.load(table)  # what a restart resumes: it replays
        assert replayed is not None and replayed.seq >= before + 1


def test_a_bot_whose_decision_could_not_be_stored_plays_again(make_server: Any, database_url: str) -> None:
    """A bot's decision is lost with a write that failed while the database was down (its write and the read back
    both failed); once the database is back, the bot is asked again and the table plays on (the old code left the
    table waiting for that bot for good)."""
    server = make_server(bot_delay=0.2)
    table, token = new_table(server)
    with seated_at_my_turn(server, table, token) as ws:
        while True:  # act until a bot is to act next (a human may have two decisions in a row)
            my_turn(ws, server, table)
            # the human's write is stored, the next one (a bot's) fails, and so does the read back
            with DatabaseDown(server, after_seq=ws.seq + 1) as down:
                reply = ws.request(an_action(ws))
                assert reply["type"] == "ack" and reply["seq"] == ws.seq, reply
                mine = reply["seq"]
                if server.call(table_seq(server, table)) == mine and server.hub.tables[table].table.to_move == 0:
                    continue  # our turn again: no bot's write
                deadline = time.monotonic() + 15
                while down.reads < 1:
                    assert time.monotonic() < deadline, "the bot never tried to store its decision"
                    time.sleep(0.02)
                break
        assert server.call(table_seq(server, table)) == mine  # nothing unstored kept in memory
        event = ws.until(lambda m: m["type"] == "event", timeout=20)  # asked again: it plays
        assert event["seq"] == mine + 1
        seqs = stored_seqs(database_url, table)
        assert seqs == list(range(1, len(seqs) + 1)) and seqs[-1] >= mine + 1


def test_a_bot_whose_move_could_not_be_stored_is_asked_again(make_server: Any) -> None:
    """A failed write of a bot's move reloaded the table but left it marked as asked: nobody asked the bot again,
    and the table stalled for good (a reconnection did not help)."""
    server = make_server(grace=60, bot_delay=0.0)
    store = server.hub.store
    real = store.write
    failed: list[int] = []

    async def write_failing_once(op: Any) -> Any:
        rows = getattr(op, "rows", None) or []
        if not failed and any(r.get("kind") == "action" and json.loads(r["data"])["public"].get("actor") != 2
                              for r in rows):  # the first move of a bot (the human sits at seat 2)
            failed.append(1)
            raise RuntimeError("the database is away for a moment (injected)")
        return await real(op)

    store.write = write_failing_once  # type: ignore[method-assign]
    table = httpx.post(server.url + "/api/tables", json={"variant": SHORT, "seats": [
        {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}, {"kind": "human"}]}).json()["id"]
    token = httpx.post(f"{server.url}/api/tables/{table}/join", json={"name": "Ala"}).json()["token"]
    ws = WS(server.ws_url)
    ws.hello(table, token)
    play_until(ws, lambda v: v["deal_no"] >= 2)  # the whole first deal: the bots went on after the failure
    assert failed == [1]
    ws.close()


def test_a_failed_commit_does_not_wedge_the_database(make_server: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A COMMIT that fails (SQLite leaves the transaction open after some failed COMMITs: a busy database, a full
    disk, a deferred constraint, the one used here) is rolled back: the old code left the transaction open, every
    later BEGIN failed ("cannot start a transaction within a transaction"), and every action at every table was
    refused ``internal`` until a restart.  Now the batch's writes are tried again one by one and stored."""
    server = make_server()
    sqlite_only(server)
    table, token = new_table(server)
    apply = db._sqlite_apply
    armed = threading.Event()

    def failing_commit(cursor: sqlite3.Cursor, ops: list[Any]) -> None:
        apply(cursor, ops)
        if armed.is_set():  # once: a row whose table does not exist, its check deferred to the COMMIT
            armed.clear()
            cursor.execute("PRAGMA defer_foreign_keys=ON")
            cursor.execute("INSERT INTO chat (table_id, seq, seat, name, text, preset, created_at) "
                           "VALUES ('no such table', 1, 0, 'x', 'x', NULL, 0)")

    monkeypatch.setattr(db, "_sqlite_apply", failing_commit)
    with seated_at_my_turn(server, table, token) as ws:
        before = ws.seq
        armed.set()
        reply = ws.request({**an_action(ws), "id": "commit fails"})
        assert not armed.is_set()  # the COMMIT failed once
        assert reply["type"] == "ack" and reply["seq"] == before + 1, reply  # stored on its own try
        my_turn(ws, server, table)
        reply = ws.request({**an_action(ws), "id": "next"})
        assert reply["type"] == "ack", reply


@contextmanager
def silent_postgresql() -> Iterator[str]:
    """The URL of a "PostgreSQL server" on 127.0.0.1 that takes TCP connections and never says a word: a database
    host that hangs.  libpq, connecting to it, waits for the server's first reply."""
    import socket

    listener = socket.create_server(("127.0.0.1", 0))
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.1)
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                accepted.append(listener.accept()[0])

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield f"postgresql://ala:secret@127.0.0.1:{listener.getsockname()[1]}/mizerka"
    finally:
        stop.set()
        thread.join()
        for conn in accepted:
            conn.close()
        listener.close()


def connect_seconds(engine: sa.Engine, limit: float) -> float | None:
    """How long *engine* took to fail to connect, or ``None`` if it was still waiting after *limit* seconds."""
    failed: list[float] = []
    start = time.monotonic()

    def connect() -> None:
        with contextlib.suppress(sa.exc.OperationalError), engine.connect():
            pass
        failed.append(time.monotonic() - start)

    thread = threading.Thread(target=connect, daemon=True)
    thread.start()
    thread.join(limit)
    return failed[0] if failed else None


def test_a_postgresql_server_that_does_not_answer_fails_a_new_connection_in_bounded_time(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """libpq waits for a silent server as long as TCP does (here: for ever) unless ``connect_timeout`` is set: every
    write queued behind that connection waited with it.  The engine sets it (``POSTGRESQL_CONNECT_ARGS``), and TCP
    keepalives for a connection whose server went silent later; a URL that sets its own keeps it."""
    pytest.importorskip("psycopg", reason="the PostgreSQL driver (the server extra's psycopg) is not installed")
    monkeypatch.setitem(db.POSTGRESQL_CONNECT_ARGS, "connect_timeout", 1)
    with silent_postgresql() as url:
        engine = db.make_engine(url)
        try:
            took = connect_seconds(engine, 15)
        finally:
            engine.dispose()
        assert took is not None and took < 10, took
    monkeypatch.setitem(db.POSTGRESQL_CONNECT_ARGS, "connect_timeout", 600)
    with silent_postgresql() as url:
        engine = db.make_engine(url + "?connect_timeout=1")  # the URL's own wins
        try:
            took = connect_seconds(engine, 15)
        finally:
            engine.dispose()
        assert took is not None and took < 10, took


def real_postgresql() -> str:
    url = os.environ.get(DB_ENV)
    if not url:
        pytest.skip(f"needs a PostgreSQL server ({DB_ENV}; .ci/run starts one and sets it)")
    return url


def setting(engine: sa.Engine, name: str) -> str:
    with engine.connect() as connection:
        return str(connection.exec_driver_sql(f"SHOW {name}").scalar())


def test_a_postgresql_statement_that_hangs_is_cancelled(monkeypatch: pytest.MonkeyPatch) -> None:
    """PostgreSQL lets a statement wait for ever (a lock held by another client, a disk that stalls): the engine sets
    a 30 s ``statement_timeout``, also next to a URL's own ``options`` (the tests' search_path), unless the URL sets
    one of its own."""
    url, drop = fresh_schema(real_postgresql())
    try:
        engine = db.make_engine(url)
        assert setting(engine, "statement_timeout") == "30s"
        assert setting(engine, "search_path") == url.rsplit("%3D", 1)[1]  # and the URL's own options too
        engine.dispose()
        engine = db.make_engine(url + "%20-c%20statement_timeout%3D45000")  # the URL's own limit wins
        assert setting(engine, "statement_timeout") == "45s"
        engine.dispose()
        monkeypatch.setitem(db.POSTGRESQL_CONNECT_ARGS, "options", "-c statement_timeout=300")
        engine = db.make_engine(url)
        start = time.monotonic()
        with pytest.raises(sa.exc.OperationalError, match="statement timeout"), engine.connect() as connection:
            connection.exec_driver_sql("SELECT pg_sleep(5)")
        assert time.monotonic() - start < 4
        engine.dispose()
    finally:
        drop()


def test_a_schema_upgrade_runs_without_the_statement_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """A migration may rewrite a large table: it runs with no ``statement_timeout``, and the engine's connections
    have theirs again afterwards."""
    from alembic import command

    url, drop = fresh_schema(real_postgresql())
    seen: list[str] = []
    upgrade = command.upgrade

    def watched(config: Any, revision: str) -> None:
        seen.append(str(config.attributes["connection"].exec_driver_sql("SHOW statement_timeout").scalar()))
        upgrade(config, revision)

    monkeypatch.setattr(command, "upgrade", watched)
    try:
        engine = db.make_engine(url)
        db.upgrade(engine)
        assert seen == ["0"]
        assert setting(engine, "statement_timeout") == "30s"
        with engine.connect() as connection:  # the schema is there
            assert connection.exec_driver_sql("SELECT count(*) FROM alembic_version").scalar() == 1
        engine.dispose()
    finally:
        drop()
