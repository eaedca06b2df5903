"""The store's group commit: the writer thread (PostgreSQL) and the commits on the event loop (a SQLite file).

Either way a write is committed before its waiter goes on, a write whose waiter gave up still stands, and one
bad write does not sink the others of its batch.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("sqlalchemy", reason="the server tests need the 'server' extra (pip install -e '.[dev]')")

import sqlalchemy as sa

from mizerka.server.db import Store, make_engine, sqlite_path
from mizerka.server.tables import Event, SeatState, Table, TableSettings


def new_table(table_id: str) -> Table:
    return Table.new(table_id, TableSettings(), [SeatState.human(), SeatState.bot("rules"), SeatState.bot("rules")],
                     seed=1)


def test_a_cancelled_waiter_does_not_stop_the_writer(database_url: str, tmp_path: Path) -> None:
    store = Store(database_url, inline=False)  # the writer thread, on SQLite as well as on PostgreSQL
    try:
        table = new_table("w1")
        release = threading.Event()

        def blocker(_connection: Any) -> None:
            release.wait(10)  # holds the writer so that the next write waits in its queue

        first = store.submit(blocker)
        insert = store.submit(store.insert_table_op(table))
        assert insert.cancel()  # its waiter is gone (a closed connection): the write itself stays queued
        release.set()
        first.result(10)
        _, events = table.join("Ala", token_hash="h")
        store.submit(store.append_op(table, events)).result(10)  # the writer is still alive and committing
        loaded = store.load("w1")
        assert loaded is not None and loaded.seq == table.seq and loaded.status == "playing"
    finally:
        store.close()


def committed_seq(path: str, table_id: str) -> int | None:
    """The table's last stored event, read by a connection of another's (what a restarted server would see)."""
    with sqlite3.connect(path) as connection:
        row = connection.execute("SELECT max(seq) FROM events WHERE table_id = ?", (table_id,)).fetchone()
    return None if row is None else row[0]


def test_inline_writes_of_one_turn_of_the_loop_commit_together_before_their_waiters_go_on(tmp_path: Path) -> None:
    path = tmp_path / "inline.sqlite3"
    store = Store(f"sqlite:///{path}")
    assert store.inline and sqlite_path(store.url) == str(path)

    async def play() -> None:
        tables = [new_table(f"t{i}") for i in range(4)]
        await asyncio.gather(*(store.write(store.insert_table_op(t)) for t in tables))
        batches = store.batches

        async def join(table: Table) -> None:
            _, events = table.join("Ala", token_hash="h")
            await store.write(store.append_op(table, events))
            assert committed_seq(str(path), table.id) == table.seq  # on disk before the waiter goes on

        await asyncio.gather(*(join(t) for t in tables))
        assert store.batches == batches + 1  # the four writes of one turn of the loop: one transaction

    try:
        asyncio.run(play())
        loaded = store.load("t3")
        assert loaded is not None and loaded.status == "playing"
    finally:
        store.close()


def test_an_inline_write_stands_when_its_waiter_is_cancelled_and_a_bad_write_sinks_no_other(tmp_path: Path) -> None:
    path = tmp_path / "inline.sqlite3"
    store = Store(f"sqlite:///{path}")

    async def play() -> None:
        good, orphan = new_table("good"), new_table("orphan")
        await store.write(store.insert_table_op(good))
        _, events = good.join("Ala", token_hash="h")
        duplicate = store.append_op(good, [Event(1, "seat", 0, {})])  # event 1 is stored already: refused
        waiter = asyncio.ensure_future(store.write(store.insert_table_op(orphan)))
        await asyncio.sleep(0)  # queued
        waiter.cancel()
        results = await asyncio.gather(store.write(store.append_op(good, events)), store.write(duplicate),
                                       return_exceptions=True)
        assert results[0] is None and isinstance(results[1], sqlite3.IntegrityError)

    try:
        asyncio.run(play())
        assert committed_seq(str(path), "good") is not None and store.load("orphan") is not None
        with pytest.raises(RuntimeError, match=r"use Store\.write"):
            store.submit(lambda _connection: None)
    finally:
        store.close()


def test_inline_commits_need_a_sqlite_file() -> None:
    with pytest.raises(ValueError, match="SQLite file"):
        Store("sqlite:///:memory:", inline=True)


def test_the_database_errors_the_server_logs_carry_no_statement_parameters(database_url: str) -> None:
    """A failed write is logged with its error, whose message would quote the statement's parameters (events,
    deck orders, hands): the engine hides them, on SQLite and PostgreSQL alike."""
    engine = make_engine(database_url)
    with pytest.raises(sa.exc.DBAPIError) as failure, engine.connect() as connection:
        connection.execute(sa.text("INSERT INTO no_such_table VALUES (:hand)"), {"hand": "AS KH QD"})
    assert "AS KH QD" not in str(failure.value) and "hidden" in str(failure.value)
    engine.dispose()
