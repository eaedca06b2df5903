"""Storage: SQLAlchemy on SQLite (the default) or PostgreSQL, the schema kept by alembic migrations.

Two tables hold everything (see ``migrations/versions``):

* ``tables`` — one row per table: settings, rules, seats, the deck orders and salts (server-side only:
  never sent to a client before the deal ends), status and a summary for the match history;
* ``events`` — each table's append-only journal, one row per numbered event.  Replaying it rebuilds the
  table (:meth:`mizerka.server.tables.Table.replay`).

All writes go through one writer thread that commits them in batches (group commit): a coroutine hands its
write over and awaits the commit, so an action is acknowledged and broadcast only once it is on disk, while
the event loop never blocks on the database.  SQLite runs in WAL mode with ``synchronous=NORMAL``: a commit
survives the server process being killed at any moment (it is in the WAL file when the call returns); only
a power cut can lose the last commits.  PostgreSQL commits are durable in the usual sense.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import logging
import queue
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Connection, Engine, event

from mizerka.server.tables import Event, Table

__all__ = ["Store", "metadata", "normalize_url", "upgrade"]

log = logging.getLogger("mizerka.server.db")

metadata = sa.MetaData()

tables_t = sa.Table(
    "tables",
    metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("updated_at", sa.Float, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("visibility", sa.String(16), nullable=False),
    sa.Column("variant", sa.String(200), nullable=False),
    sa.Column("settings", sa.Text, nullable=False),
    sa.Column("seats", sa.Text, nullable=False),
    sa.Column("initial_seats", sa.Text, nullable=False),
    sa.Column("first_dealer", sa.Integer, nullable=False),
    sa.Column("decks", sa.Text, nullable=False),
    sa.Column("salts", sa.Text, nullable=False),
    sa.Column("parent", sa.String(64), nullable=True),
    sa.Column("seq", sa.Integer, nullable=False),
    sa.Column("summary", sa.Text, nullable=True),
    sa.Index("ix_tables_status", "status", "updated_at"),
)

events_t = sa.Table(
    "events",
    metadata,
    sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("deal_no", sa.Integer, nullable=False),
    sa.Column("data", sa.Text, nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
)

_JSON_COLUMNS = ("settings", "seats", "initial_seats", "decks", "salts", "summary")


def normalize_url(url: str) -> str:
    """A database URL as SQLAlchemy takes it: PostgreSQL through psycopg 3, a bare path as a SQLite file.

    >>> normalize_url("postgresql://u:p@localhost/mizerka")
    'postgresql+psycopg://u:p@localhost/mizerka'
    >>> normalize_url("/tmp/m.sqlite3")
    'sqlite:////tmp/m.sqlite3'
    """
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    if "://" not in url:
        return "sqlite:///" + str(Path(url).expanduser())
    return url


def make_engine(url: str) -> Engine:
    url = normalize_url(url)
    if url.startswith("sqlite"):
        engine = sa.create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    return sa.create_engine(url, pool_pre_ping=True, pool_size=4, max_overflow=4)


def upgrade(engine: Engine) -> None:
    """Bring the schema up to the newest alembic revision."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def _event_rows(table_id: str, events: list[Event], now: float) -> list[dict[str, Any]]:
    return [{"table_id": table_id, "seq": e.seq, "kind": e.kind, "deal_no": e.deal_no,
             "data": json.dumps(e.to_json(), separators=(",", ":")), "created_at": now} for e in events]


def _summary(table: Table) -> dict[str, Any]:
    summary: dict[str, Any] = {"players": table.player_names(), "deal_no": table.deal_no,
                               "n_deals": table.rules.n_deals, "name": table.settings.name}
    if table.match is not None:
        summary["totals"] = table.match.totals
        if table.match.is_over():
            summary["winners"] = list(table.match.outcome().winners)
    return summary


def _table_values(table: Table, now: float, events: list[Event]) -> dict[str, Any]:
    """The columns of the table's row that *events* change (the seats and summary only when they can change)."""
    values: dict[str, Any] = {"status": table.status, "seq": table.seq, "updated_at": now}
    if any(e.kind != "action" for e in events):
        values["seats"] = json.dumps([s.to_json() for s in table.seats])
        values["summary"] = json.dumps(_summary(table))
    return values


WriteOp = Callable[[Connection], None]


class _Append:
    """A write of one table's new events and row changes; the writer merges a batch of them into two statements."""

    __slots__ = ("rows", "table_id", "values")

    def __init__(self, table_id: str, rows: list[dict[str, Any]], values: dict[str, Any]) -> None:
        self.table_id = table_id
        self.rows = rows
        self.values = values

    def __call__(self, connection: Connection) -> None:
        _append_many(connection, [self])


def _append_many(connection: Connection, appends: list[_Append]) -> None:
    rows = [row for a in appends for row in a.rows]
    if rows:
        connection.execute(events_t.insert(), rows)
    merged: dict[str, dict[str, Any]] = {}
    for a in appends:
        merged.setdefault(a.table_id, {}).update(a.values)
    groups: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    for table_id, values in merged.items():
        groups.setdefault(tuple(sorted(values)), []).append({"_id": table_id, **values})
    for keys, params in groups.items():
        statement = tables_t.update().where(tables_t.c.id == sa.bindparam("_id")).values(
            {k: sa.bindparam(k) for k in keys})
        connection.execute(statement, params)


def _settle(future: concurrent.futures.Future[None], error: BaseException | None) -> None:
    """Complete a write's future; one whose waiter was cancelled (a closed connection, a server stopping) is
    done already, and must not stop the writer thread: the write itself stands."""
    if future.done():
        return
    try:
        if error is None:
            future.set_result(None)
        else:
            future.set_exception(error)
    except concurrent.futures.InvalidStateError:  # cancelled between the check and the call
        pass


class Store:
    """The database behind the server: migrations on open, a writer thread, and the reads the server needs."""

    def __init__(self, url: str) -> None:
        self.url = normalize_url(url)
        if self.url.startswith("sqlite:///"):
            Path(self.url[len("sqlite:///"):]).parent.mkdir(parents=True, exist_ok=True)
        self.engine = make_engine(self.url)
        upgrade(self.engine)
        self._queue: queue.Queue[tuple[WriteOp, concurrent.futures.Future[None]] | None] = queue.Queue()
        self._writer = threading.Thread(target=self._write_loop, name="mizerka-db-writer", daemon=True)
        self._writer.start()
        self.commits = 0
        self.batches = 0

    # -- writing ------------------------------------------------------------------------------------

    def _write_loop(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            batch = [item]
            while len(batch) < 512:
                try:
                    nxt = self._queue.get_nowait()
                except queue.Empty:
                    break
                if nxt is None:
                    self._queue.put(None)
                    break
                batch.append(nxt)
            try:
                with self.engine.begin() as connection:
                    appends = [op for op, _ in batch if isinstance(op, _Append)]
                    for op, _ in batch:
                        if not isinstance(op, _Append):
                            op(connection)  # table inserts: always queued before the appends to their table
                    if appends:
                        _append_many(connection, appends)
            except Exception:
                # one bad write must not sink the others: retry each in its own transaction
                for op, future in batch:
                    try:
                        with self.engine.begin() as connection:
                            op(connection)
                    except Exception as error:
                        log.exception("write failed")
                        _settle(future, error)
                    else:
                        _settle(future, None)
            else:
                for _, future in batch:
                    _settle(future, None)
            self.batches += 1
            self.commits += len(batch)

    def submit(self, op: WriteOp) -> concurrent.futures.Future[None]:
        """Queue a write; the future completes once it is committed."""
        future: concurrent.futures.Future[None] = concurrent.futures.Future()
        self._queue.put((op, future))
        return future

    async def write(self, op: WriteOp) -> None:
        """Queue a write and wait until it is committed."""
        await asyncio.wrap_future(self.submit(op))

    def insert_table_op(self, table: Table) -> WriteOp:
        now = time.time()
        row = table.to_row()
        values = {key: json.dumps(value) if key in _JSON_COLUMNS else value for key, value in row.items()}
        values.update(created_at=now, updated_at=now, summary=json.dumps(_summary(table)), seq=0)
        events = _event_rows(table.id, list(table.events), now)
        values["seq"] = table.seq
        values["seats"] = json.dumps(row["seats"])

        def op(connection: Connection) -> None:
            connection.execute(tables_t.insert().values(**values))
            if events:
                connection.execute(events_t.insert(), events)

        return op

    def append_op(self, table: Table, events: list[Event]) -> WriteOp:
        now = time.time()
        rows = _event_rows(table.id, events, now)
        values = _table_values(table, now, events)
        table_id = table.id

        return _Append(table_id, rows, values)

    def close(self) -> None:
        self._queue.put(None)
        self._writer.join(timeout=30)
        self.engine.dispose()

    # -- reading ------------------------------------------------------------------------------------

    def _row(self, row: sa.Row[Any]) -> dict[str, Any]:
        data = dict(row._mapping)
        for key in _JSON_COLUMNS:
            if data.get(key) is not None:
                data[key] = json.loads(data[key])
        return data

    def _build(self, connection: Connection, row: dict[str, Any]) -> Table:
        table = Table.from_row(row)
        rows = connection.execute(
            sa.select(events_t.c.seq, events_t.c.kind, events_t.c.deal_no, events_t.c.data)
            .where(events_t.c.table_id == row["id"]).order_by(events_t.c.seq)
        )
        table.replay(Event.from_json(seq, kind, deal_no, json.loads(data)) for seq, kind, deal_no, data in rows)
        return table

    def load(self, table_id: str) -> Table | None:
        """The table with this id, rebuilt from its journal, or ``None``."""
        with self.engine.connect() as connection:
            found = connection.execute(sa.select(tables_t).where(tables_t.c.id == table_id)).first()
            if found is None:
                return None
            return self._build(connection, self._row(found))

    def load_active(self) -> list[Table]:
        """Every table that is waiting or playing (to resume after a restart)."""
        with self.engine.connect() as connection:
            rows = connection.execute(sa.select(tables_t).where(tables_t.c.status.in_(("waiting", "playing"))))
            return [self._build(connection, self._row(r)) for r in rows.all()]

    def history(self, limit: int, offset: int) -> list[dict[str, Any]]:
        """Finished public matches, newest first."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                sa.select(tables_t.c.id, tables_t.c.variant, tables_t.c.updated_at, tables_t.c.summary)
                .where(tables_t.c.status == "finished", tables_t.c.visibility == "public")
                .order_by(tables_t.c.updated_at.desc(), tables_t.c.id).limit(limit).offset(offset)
            ).all()
        result = []
        for table_id, variant, updated, summary in rows:
            data = json.loads(summary) if summary else {}
            result.append({"id": table_id, "variant": variant, "finished_at": updated,
                           "players": data.get("players", []), "totals": data.get("totals", []),
                           "winners": data.get("winners", []), "name": data.get("name", "")})
        return result

    def count_tables(self) -> int:
        with self.engine.connect() as connection:
            return int(connection.execute(sa.select(sa.func.count()).select_from(tables_t)).scalar_one())
