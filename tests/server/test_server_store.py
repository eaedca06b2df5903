"""The store's writer thread: group commit, and a write whose waiter gave up still stands."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("sqlalchemy", reason="the server tests need the 'server' extra (pip install -e '.[dev]')")

from mizerka.server.db import Store
from mizerka.server.tables import SeatState, Table, TableSettings


def test_a_cancelled_waiter_does_not_stop_the_writer(database_url: str, tmp_path: Path) -> None:
    store = Store(database_url)
    try:
        table = Table.new("w1", TableSettings(), [SeatState.human(), SeatState.bot("rules"), SeatState.bot("rules")],
                          seed=1)
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
