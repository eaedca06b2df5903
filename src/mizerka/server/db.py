"""Storage: SQLAlchemy on SQLite (the default) or PostgreSQL, the schema kept by alembic migrations.

Two tables hold every game (see ``migrations/versions``):

* ``tables`` — one row per table: settings, rules, seats, the deck orders and salts (server-side only:
  never sent to a client before the deal ends), status and a summary for the match history;
* ``events`` — each table's append-only journal, one row per numbered event.  Replaying it rebuilds the
  table (:meth:`mizerka.server.tables.Table.replay`).

Two more hold the players (:mod:`mizerka.server.players`):

* ``players`` — one row per profile (its key's SHA-256, never the key) and one per bot level: rating and
  statistics;
* ``results`` — one row per seat of each finished rated match, with its player's rating before and after.
  They are written with the match's last event, in its transaction, with the players' new ratings.

And one the table chat (:mod:`mizerka.server.chat`):

* ``chat`` — one row per chat message of a table: its number, the sender's seat and name, its text or preset.
  A message is relayed only once it is committed (:meth:`Store.chat_op`), and a table's last ones are read back
  with it (:meth:`Store.chat_history`), after a restart or when a finished table is loaded again.

Writes are committed in batches (group commit): a coroutine hands its write over and awaits the commit, so
an action is acknowledged and broadcast only once it is committed.  How a batch is committed depends on the
database:

* a SQLite file: on the event loop itself, once per turn of the loop (every write queued while the loop ran
  its ready callbacks goes into one transaction), through the plain ``sqlite3`` driver.  A commit in WAL mode
  is a ``write()`` of a few pages to the WAL file, tens of microseconds: cheaper than handing the batch to a
  thread, whose every step would wait for the event loop's GIL (that wait was most of an action's latency
  under load).  The one slow part of SQLite's WAL mode, the checkpoint (copying the WAL back into the
  database file, with two ``fsync`` calls), is taken off the loop: the writing connection never checkpoints
  (``wal_autocheckpoint=0``), a checkpointer thread with a connection of its own does it every
  :data:`CHECKPOINT_INTERVAL` seconds (``PASSIVE``: it never blocks the writer; the ``sqlite3`` driver lets go
  of the GIL while it works).
* PostgreSQL (or an in-memory SQLite database): in a writer thread, which commits whatever is queued in one
  transaction; the driver waits for the server without the GIL.

Durability.  SQLite runs in WAL mode with ``synchronous=NORMAL``: when COMMIT returns, the transaction's
frames, with their commit marker, have been written to the WAL file by ``write()``, that is into the
operating system's page cache, which belongs to the kernel and not to the process.  Killing the server at
any moment (``kill -9`` included) therefore loses no committed transaction: the next process to open the
database replays the WAL.  What ``NORMAL`` gives up against ``FULL`` is the ``fsync`` of the WAL at each
commit, so an operating-system crash or a power cut can lose the last commits (the database stays
consistent).  The checkpoints do ``fsync``.  PostgreSQL commits are durable in the usual sense.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import logging
import queue
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Connection, Engine, event

from mizerka.server.encoding import encode
from mizerka.server.players import DEFAULT_MU, DEFAULT_SIGMA, PROVISIONAL_GAMES, SeatResult, Standing
from mizerka.server.tables import Event, Table, TableError

__all__ = ["DatabaseError", "Store", "check_database", "metadata", "normalize_url", "upgrade"]

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

players_t = sa.Table(
    "players",
    metadata,
    sa.Column("id", sa.String(255), primary_key=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("key_hash", sa.String(64), nullable=True, unique=True),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("updated_at", sa.Float, nullable=False),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("wins", sa.Integer, nullable=False),
    sa.Column("deals", sa.Integer, nullable=False),
    sa.Column("deals_won", sa.Integer, nullable=False),
    sa.Index("ix_players_rating", "games", "mu"),
)

results_t = sa.Table(
    "results",
    metadata,
    sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("player_id", sa.String(255), sa.ForeignKey("players.id", ondelete="CASCADE"), nullable=False),
    sa.Column("total", sa.Integer, nullable=False),
    sa.Column("rank", sa.Integer, nullable=False),
    sa.Column("won", sa.Boolean, nullable=False),
    sa.Column("deals", sa.Integer, nullable=False),
    sa.Column("deals_won", sa.Integer, nullable=False),
    sa.Column("mu_before", sa.Float, nullable=False),
    sa.Column("sigma_before", sa.Float, nullable=False),
    sa.Column("mu_after", sa.Float, nullable=False),
    sa.Column("sigma_after", sa.Float, nullable=False),
    sa.Column("finished_at", sa.Float, nullable=False),
    sa.Index("ix_results_player", "player_id", "finished_at"),
)

chat_t = sa.Table(
    "chat",
    metadata,
    sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("name", sa.Text, nullable=False),
    sa.Column("text", sa.Text, nullable=True),
    sa.Column("preset", sa.String(32), nullable=True),
    sa.Column("created_at", sa.Float, nullable=False),
)

_STANDING_COLUMNS = ("id", "name", "kind", "mu", "sigma", "games", "wins", "deals", "deals_won", "created_at")

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
    """The engine for *url*.  Its statements' parameters (events, deck orders, hands) are kept out of its log
    lines and out of the messages of its errors, which the server logs: logs carry public information only."""
    url = normalize_url(url)
    if url.startswith("sqlite"):
        engine = sa.create_engine(url, connect_args={"check_same_thread": False, "timeout": 30},
                                  hide_parameters=True)

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    given = sa.engine.make_url(url).query  # the URL's own settings win over the defaults below
    defaults = {key: value for key, value in POSTGRESQL_CONNECT_ARGS.items() if key not in given}
    if "options" in given and "options" in POSTGRESQL_CONNECT_ARGS:
        # the URL's options (a search_path, say) keep the statement limit unless they set one of their own
        own = given["options"] if isinstance(given["options"], str) else " ".join(given["options"])
        if "statement_timeout" not in own:
            defaults["options"] = f"{own} {POSTGRESQL_CONNECT_ARGS['options']}"
    return sa.create_engine(url, pool_pre_ping=True, pool_size=4, max_overflow=4, hide_parameters=True,
                            connect_args=defaults)


POSTGRESQL_CONNECT_ARGS: dict[str, int | str] = {
    "connect_timeout": 10,
    "keepalives": 1,
    "keepalives_idle": 30,
    "keepalives_interval": 10,
    "keepalives_count": 3,
    "options": "-c statement_timeout=30000",
}
"""libpq's settings for a PostgreSQL connection, unless the URL's query sets them: a new connection that is not made
within 10 s fails (libpq's default is to wait as long as the system's TCP does, minutes for a host that went away;
the writes queued behind it then fail as any failed write does, and the table is read back or rebuilt), and a
connection whose server went silent is given up after about a minute of unanswered TCP keepalives.  A statement on a
server that answers but is slow (a lock held elsewhere, an overloaded disk) is cancelled after 30 s, as SQLite's
``timeout`` gives up waiting for a lock (PostgreSQL's own default is to wait for ever); it then fails as any failed
write does.  A URL whose ``options`` set a ``statement_timeout`` (``?options=-c%20statement_timeout%3D60000``) keep
theirs; other ``options`` (a ``search_path``) get this limit added.  Schema upgrades (:func:`upgrade`) run without
it."""


def upgrade(engine: Engine) -> None:
    """Bring the schema up to the newest alembic revision."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":  # a migration may rewrite a large table: no statement limit
            connection.exec_driver_sql("SET LOCAL statement_timeout = 0")
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def _event_rows(table_id: str, events: list[Event], now: float) -> list[dict[str, Any]]:
    return [{"table_id": table_id, "seq": e.seq, "kind": e.kind, "deal_no": e.deal_no,
             "data": encode(e.to_json()), "created_at": now} for e in events]


def _chat_message(seq: int, seat: int, name: str, text: str | None, preset: str | None) -> dict[str, Any]:
    """A stored chat row as the ``chat`` message the table received (``text`` or ``preset``, whichever it has)."""
    message: dict[str, Any] = {"type": "chat", "seq": seq, "seat": seat, "name": name}
    if preset is not None:
        message["preset"] = preset
    else:
        message["text"] = text
    return message


def _summary(table: Table) -> dict[str, Any]:
    names = table.player_names()
    summary: dict[str, Any] = {"players": names, "default_names": table.default_named(names),
                               "deal_no": table.deal_no, "n_deals": table.rules.n_deals, "name": table.settings.name}
    if table.epoch:  # the journal's undo count (Table.epoch): a resumed table keeps it
        summary["epoch"] = table.epoch
    if table.match is not None:
        summary["totals"] = table.match.totals
        if table.match.is_over():
            summary["winners"] = list(table.match.outcome().winners)
    return summary


def _listed(summary: dict[str, Any]) -> dict[str, Any]:
    """What a finished match's listing (the recent games, a profile's matches) takes from its stored summary; a
    summary stored before ``default_names`` was kept names no seat's name as the server's own."""
    return {"players": summary.get("players", []), "default_names": summary.get("default_names", []),
            "totals": summary.get("totals", []), "winners": summary.get("winners", []),
            "name": summary.get("name", "")}


def _table_values(table: Table, now: float, events: list[Event]) -> dict[str, Any]:
    """The columns of the table's row that *events* change (the seats and summary only when they can change)."""
    values: dict[str, Any] = {"status": table.status, "seq": table.seq, "updated_at": now}
    if any(e.kind != "action" for e in events):
        values["seats"] = encode([s.to_json() for s in table.seats])
        values["summary"] = encode(_summary(table))
    return values


WriteOp = Callable[[Connection], None]
"""A write: called with a SQLAlchemy connection inside the batch's transaction (the writer thread's path).
The store's own writes (:class:`_Insert`, :class:`_Append`) are data as well, so that the SQLite path can run
them through the plain driver."""


class _Insert:
    """A new table's row and its first events."""

    __slots__ = ("rows", "values")

    def __init__(self, values: dict[str, Any], rows: list[dict[str, Any]]) -> None:
        self.values = values
        self.rows = rows

    def __call__(self, connection: Connection) -> None:
        connection.execute(tables_t.insert().values(**self.values))
        if self.rows:
            connection.execute(events_t.insert(), self.rows)


class _Chat:
    """A chat message of a table (a ``chat`` row): a write apart from the table's events, which it does not touch."""

    __slots__ = ("row",)

    def __init__(self, row: dict[str, Any]) -> None:
        self.row = row

    def __call__(self, connection: Connection) -> None:
        connection.execute(chat_t.insert(), [self.row])


class _Append:
    """A write of one table's new events and row changes; the writer merges a batch of them into two statements.

    With ``truncate_after`` set (an undo: :meth:`mizerka.server.tables.Table.undo`) the table's events numbered
    above it are deleted first, in the same transaction as the rows and values that follow.  A batch holds at
    most one write of a table (the hub awaits each write under the table's lock before it makes the next), so
    deleting before the batch's inserts keeps the journal in order.
    """

    __slots__ = ("results", "rows", "standings", "table_id", "truncate_after", "values")

    def __init__(self, table_id: str, rows: list[dict[str, Any]], values: dict[str, Any],
                 truncate_after: int | None = None, results: list[dict[str, Any]] | None = None,
                 standings: list[dict[str, Any]] | None = None) -> None:
        self.table_id = table_id
        self.rows = rows
        self.values = values
        self.truncate_after = truncate_after
        self.results = results or []  # a rated match's end: its seats' results (``results`` rows)
        self.standings = standings or []  # ... and its players' new ratings (``players`` updates, by id)

    def __call__(self, connection: Connection) -> None:
        _append_many(connection, [self])


def _update_groups(appends: list[_Append]) -> dict[tuple[str, ...], list[dict[str, Any]]]:
    """The row updates of *appends*: the last values per table, grouped by the columns they set."""
    merged: dict[str, dict[str, Any]] = {}
    for a in appends:
        merged.setdefault(a.table_id, {}).update(a.values)
    groups: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    for table_id, values in merged.items():
        groups.setdefault(tuple(sorted(values)), []).append({"_id": table_id, **values})
    return groups


def _truncations(appends: list[_Append]) -> list[dict[str, Any]]:
    """The deletes of the undos among *appends*: a table's id and the last event number it keeps."""
    return [{"_id": a.table_id, "_after": a.truncate_after} for a in appends if a.truncate_after is not None]


def _append_many(connection: Connection, appends: list[_Append]) -> None:
    cuts = _truncations(appends)
    if cuts:
        connection.execute(events_t.delete().where(events_t.c.table_id == sa.bindparam("_id"),
                                                   events_t.c.seq > sa.bindparam("_after")), cuts)
    rows = [row for a in appends for row in a.rows]
    if rows:
        connection.execute(events_t.insert(), rows)
    for keys, params in _update_groups(appends).items():
        statement = tables_t.update().where(tables_t.c.id == sa.bindparam("_id")).values(
            {k: sa.bindparam(k) for k in keys})
        connection.execute(statement, params)
    results = [row for a in appends for row in a.results]
    if results:
        connection.execute(results_t.insert(), results)
    for standing in (row for a in appends for row in a.standings):  # in order: one player may be in two
        connection.execute(players_t.update().where(players_t.c.id == standing["id"]).values(
            {k: v for k, v in standing.items() if k != "id"}))


_EVENTS_INSERT = ("INSERT INTO events (table_id, seq, kind, deal_no, data, created_at) "
                  "VALUES (:table_id, :seq, :kind, :deal_no, :data, :created_at)")


_CHAT_INSERT = ("INSERT INTO chat (table_id, seq, seat, name, text, preset, created_at) "
                "VALUES (:table_id, :seq, :seat, :name, :text, :preset, :created_at)")


def _sqlite_apply(cursor: sqlite3.Cursor, ops: list[_Insert | _Append | _Chat]) -> None:
    """Run *ops* (in order: a table's insert is queued before its appends) through the plain sqlite3 driver."""
    inserts = [op for op in ops if isinstance(op, _Insert)]
    appends = [op for op in ops if isinstance(op, _Append)]
    chats = [op.row for op in ops if isinstance(op, _Chat)]
    for op in inserts:
        names = list(op.values)
        cursor.execute(f"INSERT INTO tables ({', '.join(names)}) VALUES ({', '.join(':' + k for k in names)})",
                       op.values)
        if op.rows:
            cursor.executemany(_EVENTS_INSERT, op.rows)
    cuts = _truncations(appends)
    if cuts:
        cursor.executemany("DELETE FROM events WHERE table_id = :_id AND seq > :_after", cuts)
    rows = [row for a in appends for row in a.rows]
    if rows:
        cursor.executemany(_EVENTS_INSERT, rows)
    for keys, params in _update_groups(appends).items():
        cursor.executemany(f"UPDATE tables SET {', '.join(f'{k} = :{k}' for k in keys)} WHERE id = :_id", params)
    results = [row for a in appends for row in a.results]
    if results:
        names = list(results[0])
        cursor.executemany(f"INSERT INTO results ({', '.join(names)}) VALUES ({', '.join(':' + k for k in names)})",
                           results)
    for standing in (row for a in appends for row in a.standings):
        columns = [k for k in standing if k != "id"]
        cursor.execute(f"UPDATE players SET {', '.join(f'{k} = :{k}' for k in columns)} WHERE id = :id", standing)
    if chats:  # after the inserts: a chat row names its table
        cursor.executemany(_CHAT_INSERT, chats)


def _settle(future: concurrent.futures.Future[None] | asyncio.Future[None], error: BaseException | None) -> None:
    """Complete a write's future; one whose waiter was cancelled (a closed connection, a server stopping) is
    done already, and must not stop the writer: the write itself stands."""
    if future.done():
        return
    try:
        if error is None:
            future.set_result(None)
        else:
            future.set_exception(error)
    except (concurrent.futures.InvalidStateError, asyncio.InvalidStateError):  # cancelled meanwhile
        pass


CHECKPOINT_INTERVAL = 0.5
"""Seconds between the checkpointer thread's checkpoints of a SQLite database."""

SQLITE_LOCK_WAIT = 30.0
"""Seconds the inline writer (a SQLite file) waits for the database's write lock held by another connection before
the writes queued meanwhile fail (``internal`` to whoever made them); meanwhile it tries again every
:data:`SQLITE_LOCK_RETRY` seconds, and the event loop serves everyone else."""

SQLITE_LOCK_RETRY = 0.05
"""Seconds between two tries of the inline writer at a database locked by another connection."""

_SQLITE_BUSY, _SQLITE_LOCKED = 5, 6


def _locked(error: BaseException) -> bool:
    """Whether *error* is SQLite's "database is locked" (``SQLITE_BUSY``, ``SQLITE_LOCKED``, their extended codes)."""
    return (isinstance(error, sqlite3.OperationalError)
            and (getattr(error, "sqlite_errorcode", 0) & 0xFF) in (_SQLITE_BUSY, _SQLITE_LOCKED))


def sqlite_path(url: str) -> str | None:
    """The file of a SQLite URL, or ``None`` when it is not a SQLite file (another database, or in memory).

    >>> sqlite_path("sqlite:////tmp/m.sqlite3"), sqlite_path("sqlite:///:memory:"), sqlite_path("postgresql://h/d")
    ('/tmp/m.sqlite3', None, None)
    """
    parsed = sa.engine.make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:") or parsed.query:
        return None
    return str(parsed.database)


class DatabaseError(ValueError):
    """The database cannot be opened or brought up to date: an unknown kind of URL, a server that does not answer
    or refuses the login, a file that is no SQLite database."""


def shown_url(url: str) -> str:
    """*url* as it may be printed: without its password, whether written before the host or, as libpq also
    reads it, as the query's ``password`` (SQLAlchemy hides only the first).

    >>> shown_url("postgresql://ala:secret@db.example/mizerka")
    'postgresql+psycopg://ala:***@db.example/mizerka'
    >>> shown_url("postgresql://ala@db.example/mizerka?password=secret&sslmode=require")
    'postgresql+psycopg://ala@db.example/mizerka?password=***&sslmode=require'
    """
    try:
        parsed = sa.engine.make_url(normalize_url(url))
        secret = [key for key in parsed.query if key.lower() == "password"]
        if secret:
            parsed = parsed.update_query_dict({key: "***" for key in secret})
        return parsed.render_as_string(hide_password=True).replace("=%2A%2A%2A", "=***")  # the query's quoting
    except Exception:  # not even a URL: the text as given
        return url


def check_database(url: str, *, make_folder: bool = True) -> None:
    """Open the database at *url* and bring its schema up to date, as the server does when it starts, so that a
    bad ``--database`` is told in one line before the server listens (inside the server's start-up it ends in a
    page of tracebacks).  A SQLite file's folder is made when missing, unless *make_folder* is false (a path the
    user typed: ``serve --database``; the default database's folder is the server's own to make).

    >>> check_database("nosuchdb://ala:secret@h/db")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mizerka.server.db.DatabaseError: cannot open the database nosuchdb://ala:***@h/db: Can't load plugin...

    Raises:
        DatabaseError: naming the database (its password hidden) and the driver's reason.
    """
    try:
        normalized = normalize_url(url)
        path = sqlite_path(normalized)
        if path is not None:
            folder = Path(path).parent
            if not make_folder and not folder.is_dir():
                raise DatabaseError(f"the folder {str(folder)!r} does not exist: create it first (a mistyped path "
                                    "would start a new, empty database)")
            folder.mkdir(parents=True, exist_ok=True)
        engine = make_engine(normalized)
        try:
            upgrade(engine)
        finally:
            engine.dispose()
    except Exception as error:
        reason = getattr(error, "orig", None) or error  # the driver's own error, without SQLAlchemy's wrapping
        first = (str(reason).strip().splitlines() or [type(reason).__name__])[0]
        raise DatabaseError(f"cannot open the database {shown_url(url)}: {first}") from None


def _sqlite_connect(path: str) -> sqlite3.Connection:
    """A connection of the store's own (explicit transactions: ``isolation_level=None``)."""
    connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=30)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=NORMAL")
    connection.execute("PRAGMA foreign_keys=ON")
    return connection


class Store:
    """The database behind the server: migrations on open, group commit, and the reads the server needs.

    *inline* chooses how writes are committed (see the module's docstring): on the event loop through the
    plain sqlite3 driver (``True``; only for a SQLite file), or by a writer thread (``False``).  The default,
    ``None``, takes the first for a SQLite file and the second for anything else.
    """

    def __init__(self, url: str, *, inline: bool | None = None) -> None:
        self.url = normalize_url(url)
        path = sqlite_path(self.url)
        if path is not None:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        if inline and path is None:
            raise ValueError(f"inline commits need a SQLite file, not {self.url!r}")
        self.engine = make_engine(self.url)
        upgrade(self.engine)
        self.inline = path is not None if inline is None else inline
        self.commits = 0
        self.batches = 0
        self._queue: queue.Queue[tuple[WriteOp, concurrent.futures.Future[None]] | None] = queue.Queue()
        self._pending: list[tuple[_Insert | _Append | _Chat, asyncio.Future[None]]] = []
        self._flush_scheduled = False
        self._locked_since: float | None = None  # when the inline writer first found the database locked
        self._closing = threading.Event()
        self._sqlite: sqlite3.Connection | None = None
        self._threads: list[threading.Thread] = []
        if self.inline:
            assert path is not None
            self._sqlite = _sqlite_connect(path)
            self._sqlite.execute("PRAGMA wal_autocheckpoint=0")  # the checkpointer thread does it, off the loop
            # never wait for a lock inside the driver: that wait would stop the event loop (see flush)
            self._sqlite.execute("PRAGMA busy_timeout=0")
            self._threads.append(threading.Thread(target=self._checkpoint_loop, args=(path,),
                                                  name="mizerka-db-checkpoint", daemon=True))
        else:
            self._threads.append(threading.Thread(target=self._write_loop, name="mizerka-db-writer", daemon=True))
        for thread in self._threads:
            thread.start()

    # -- writing: the writer thread -----------------------------------------------------------------

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
            self._commit_batch(batch, self._engine_commit)

    def _engine_commit(self, ops: Sequence[WriteOp]) -> None:
        """Commit *ops* in one transaction through SQLAlchemy (the writer thread's path)."""
        with self.engine.begin() as connection:
            appends = [op for op in ops if isinstance(op, _Append)]
            for op in ops:
                if not isinstance(op, _Append):
                    op(connection)  # table inserts: always queued before the appends to their table
            if appends:
                _append_many(connection, appends)

    def _commit_batch(self, batch: Sequence[tuple[Any, Any]], commit: Callable[[list[Any]], None]
                      ) -> list[tuple[Any, Any]]:
        """Commit a batch of ``(op, future)`` in one transaction with *commit* and settle the futures.  If the
        transaction fails, one bad write must not sink the others: each is retried in its own transaction.

        Returns the writes neither committed nor settled because another connection holds the SQLite database's
        write lock (inline commits only, :func:`_locked`): :meth:`flush` tries them again a moment later."""
        try:
            commit([op for op, _ in batch])
        except Exception as error:
            if self.inline and _locked(error):
                return list(batch)
            for i, (op, future) in enumerate(batch):
                try:
                    commit([op])
                except Exception as error:
                    if self.inline and _locked(error):
                        return list(batch[i:])
                    log.exception("write failed")
                    _settle(future, error)
                else:
                    _settle(future, None)
        else:
            for _, future in batch:
                _settle(future, None)
        self.batches += 1
        self.commits += len(batch)
        return []

    def submit(self, op: WriteOp) -> concurrent.futures.Future[None]:
        """Queue a write for the writer thread; the future completes once it is committed.

        Raises:
            RuntimeError: the store commits inline (it has no writer thread): use :meth:`write`.
        """
        if self.inline:
            raise RuntimeError("this store commits on the event loop: use Store.write")
        future: concurrent.futures.Future[None] = concurrent.futures.Future()
        self._queue.put((op, future))
        return future

    async def write(self, op: WriteOp) -> None:
        """Queue a write and wait until it is committed.

        Raises:
            TypeError: an inline store is given a write other than the store's own (:meth:`insert_table_op`,
                :meth:`append_op`, :meth:`chat_op`).
        """
        if not self.inline:
            await asyncio.wrap_future(self.submit(op))
            return
        if not isinstance(op, (_Insert, _Append, _Chat)):
            raise TypeError(f"an inline store writes only its own operations, not {op!r}")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        self._pending.append((op, future))
        if not self._flush_scheduled:
            self._flush_scheduled = True
            loop.call_soon(self.flush)  # after the callbacks of this turn of the loop: they join the batch
        await future

    # -- writing: inline (a SQLite file) ------------------------------------------------------------

    def flush(self) -> None:
        """Commit every queued write in one transaction and complete their futures (on the event loop)."""
        self._flush_scheduled = False
        batch, self._pending = self._pending, []
        if not batch:
            return
        left = self._commit_batch(batch, self._sqlite_commit)
        if not left:
            self._locked_since = None
            return
        # another connection holds the write lock (another process, an operator's sqlite3 shell, this server's
        # engine in a thread): the loop must not wait for it (sqlite3's busy handler sleeps, and every client,
        # every table with it), so the writes wait in the queue, in their order, and the loop goes on
        now = time.monotonic()
        if self._locked_since is None:
            self._locked_since = now
        if now - self._locked_since < SQLITE_LOCK_WAIT:
            self._pending[:0] = left
            self._flush_scheduled = True
            asyncio.get_running_loop().call_later(SQLITE_LOCK_RETRY, self.flush)
            return
        log.error("the database has been locked by another connection for %.0f s: %d writes failed",
                  now - self._locked_since, len(left))
        self._locked_since = None
        for _, future in left:
            _settle(future, sqlite3.OperationalError("database is locked"))

    def _sqlite_commit(self, ops: list[_Insert | _Append | _Chat]) -> None:
        assert self._sqlite is not None
        cursor = self._sqlite.cursor()
        cursor.execute("BEGIN IMMEDIATE")
        try:
            _sqlite_apply(cursor, ops)
            cursor.execute("COMMIT")
        except BaseException:
            # a failed COMMIT (SQLITE_BUSY, a full disk) may leave the transaction open: every later BEGIN would
            # fail ("cannot start a transaction within a transaction") and no write would ever be stored again
            if self._sqlite.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    cursor.execute("ROLLBACK")
            raise

    def _checkpoint_loop(self, path: str) -> None:
        """Copy the WAL back into the database file now and then, off the event loop (PASSIVE: never blocks)."""
        connection = _sqlite_connect(path)
        try:
            while not self._closing.wait(CHECKPOINT_INTERVAL):
                for _ in range(5):  # again while the writer added frames meanwhile, so that the WAL can restart
                    try:
                        _busy, logged, done = connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
                    except sqlite3.Error:
                        log.exception("checkpoint failed")
                        break
                    if logged == done:
                        break
        finally:
            connection.close()

    def insert_table_op(self, table: Table) -> WriteOp:
        now = time.time()
        row = table.to_row()
        values = {key: json.dumps(value) if key in _JSON_COLUMNS else value for key, value in row.items()}
        values.update(created_at=now, updated_at=now, summary=json.dumps(_summary(table)), seq=0)
        events = _event_rows(table.id, list(table.events), now)
        values["seq"] = table.seq
        values["seats"] = json.dumps(row["seats"])
        return _Insert(values, events)

    def append_op(
        self, table: Table, events: list[Event], *, truncate_after: int | None = None,
        rated: tuple[list[SeatResult], dict[str, Standing]] | None = None,
    ) -> WriteOp:
        """The write of *table*'s new *events* and its row's changed columns.  With *truncate_after* (an undo),
        first delete the table's events numbered above it: the removal and the new events commit in one
        transaction, so the stored journal is always one that replays (SQLite and PostgreSQL alike).  With
        *rated* (the end of a rated match: :func:`mizerka.server.players.rate_match`'s answer), its results and
        its players' new standings are written in the same transaction."""
        now = time.time()
        rows = _event_rows(table.id, events, now)
        values = _table_values(table, now, events)
        if truncate_after is not None:  # the summary (totals, deal number) may not change, but the seats may have
            values["seats"] = encode([s.to_json() for s in table.seats])
            values["summary"] = encode(_summary(table))
        results: list[dict[str, Any]] = []
        standings: list[dict[str, Any]] = []
        if rated is not None:
            seat_results, after = rated
            results = [{"table_id": table.id, "seat": r.seat, "player_id": r.player, "total": r.total,
                        "rank": r.rank, "won": r.won, "deals": r.deals, "deals_won": r.deals_won,
                        "mu_before": r.before[0], "sigma_before": r.before[1], "mu_after": r.after[0],
                        "sigma_after": r.after[1], "finished_at": now} for r in seat_results]
            standings = [{"id": s.id, "mu": s.mu, "sigma": s.sigma, "games": s.games, "wins": s.wins,
                          "deals": s.deals, "deals_won": s.deals_won, "updated_at": now} for s in after.values()]
        return _Append(table.id, rows, values, truncate_after, results, standings)

    def chat_op(self, table_id: str, message: dict[str, Any]) -> WriteOp:
        """The write of one chat message of table *table_id*: the ``chat`` message as
        :meth:`mizerka.server.chat.ChatRoom.post` made it (``seq``, ``seat``, ``name``, and ``text`` or ``preset``).
        Its own row, in the batch of whatever else is committed then: it changes nothing of the table's journal."""
        return _Chat({"table_id": table_id, "seq": message["seq"], "seat": message["seat"], "name": message["name"],
                      "text": message.get("text"), "preset": message.get("preset"), "created_at": time.time()})

    def close(self) -> None:
        """Commit what is still queued, stop the threads, checkpoint, close the connections."""
        if self.inline:
            assert self._sqlite is not None
            batch, self._pending = self._pending, []
            if batch:  # the loop is gone or stopping: commit them, nobody waits for the futures any more
                with contextlib.suppress(Exception):
                    # off the loop now (a thread): this one commit may wait for a lock held elsewhere
                    self._sqlite.execute(f"PRAGMA busy_timeout={int(SQLITE_LOCK_WAIT * 1000)}")
                    self._sqlite_commit([op for op, _ in batch])
            self._closing.set()
            for thread in self._threads:
                thread.join(timeout=30)
            with contextlib.suppress(sqlite3.Error):
                self._sqlite.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            self._sqlite.close()
        else:
            self._queue.put(None)
            for thread in self._threads:
                thread.join(timeout=30)
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
        """The table with this id, rebuilt from its journal, or ``None``; a seat whose profile was deleted is no
        profile's (:meth:`_forget_closed`)."""
        with self.engine.connect() as connection:
            found = connection.execute(sa.select(tables_t).where(tables_t.c.id == table_id)).first()
            if found is None:
                return None
            table = self._build(connection, self._row(found))
            self._forget_closed(connection, [table])
            return table

    def load_active(self) -> list[Table]:
        """Every table that is waiting or playing (to resume after a restart).  As in :meth:`load`, a seat whose
        profile was deleted since (one it gave up during the match: docs/server.md, *Deleting a profile*) is no
        profile's, as it was in memory before the restart (:meth:`_forget_closed`)."""
        with self.engine.connect() as connection:
            rows = connection.execute(sa.select(tables_t).where(tables_t.c.status.in_(("waiting", "playing"))))
            tables = [self._build(connection, self._row(r)) for r in rows.all()]
            self._forget_closed(connection, tables)
            return tables

    @staticmethod
    def _forget_closed(connection: Connection, tables: Sequence[Table]) -> None:
        """Make every seat of *tables* whose profile was deleted (its row ``closed``, :meth:`delete_player`) no
        profile's, as the hub makes the seats of the tables it holds when the profile is deleted: the journal
        replays the old id into the seat, and a finished table read back (for a hello, ``GET /api/tables/{id}``)
        must show it as it showed before it was unloaded (not ``registered``), nor seat that profile again at a
        rematch."""
        ids = {seat.player for table in tables for seat in table.seats if seat.player is not None}
        if not ids:
            return
        closed: set[str] = set()
        listed = sorted(ids)
        for start in range(0, len(listed), 500):  # a few hundred bound parameters a query, whatever the database
            closed.update(connection.execute(sa.select(players_t.c.id).where(
                players_t.c.id.in_(listed[start:start + 500]), players_t.c.kind == "closed")).scalars())
        for table in tables:
            for seat in table.seats:
                if seat.player in closed:
                    seat.player = None
                    table.seat_version += 1

    def chat_history(self, table_ids: Sequence[str], limit: int) -> dict[str, list[dict[str, Any]]]:
        """The last *limit* chat messages of each of these tables, oldest first, as the ``chat`` messages the
        table received (a table without any is left out)."""
        found: dict[str, list[dict[str, Any]]] = {}
        with self.engine.connect() as connection:
            for table_id in table_ids:  # each the newest *limit* by the primary key's order: an index read each
                rows = connection.execute(
                    sa.select(chat_t.c.seq, chat_t.c.seat, chat_t.c.name, chat_t.c.text, chat_t.c.preset)
                    .where(chat_t.c.table_id == table_id).order_by(chat_t.c.seq.desc()).limit(limit)
                ).all()
                if rows:
                    found[table_id] = [_chat_message(*row) for row in reversed(rows)]
        return found

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
            result.append({"id": table_id, "variant": variant, "finished_at": updated, **_listed(data)})
        return result

    # -- players (mizerka.server.players) ------------------------------------------------------------

    def create_player(self, player_id: str, name: str, key_hash: str) -> Standing:
        """Make a profile (a write of its own, outside the batches: nothing else refers to it yet).

        Raises:
            TableError: ``name_taken`` when a profile (or a bot level) has this id already.
        """
        now = time.time()
        standing = Standing(player_id, name, "human", created_at=now)
        row = {column: getattr(standing, column) for column in _STANDING_COLUMNS}
        try:
            with self.engine.begin() as connection:
                connection.execute(players_t.insert().values(key_hash=key_hash, updated_at=now, **row))
        except sa.exc.IntegrityError:
            with self.engine.connect() as connection:
                kind = connection.execute(sa.select(players_t.c.kind).where(players_t.c.id == player_id)).scalar()
            if kind == "closed":
                raise TableError("name_taken", f"the name {name!r} belonged to a deleted profile: a name is never "
                                               "given to another player", {"code": "name_retired"}) from None
            raise TableError("name_taken", f"the name {name!r} is taken (names are compared ignoring case)",
                             {"code": "name_taken"}) from None
        return standing

    def delete_player(self, player_id: str) -> None:
        """Delete a profile's key, rating, statistics and results (a write of its own).  Its row stays, closed, so
        that its name (the id) is never another player's: a seat or a result that names it can never be credited
        to someone else.  The other players' ratings keep the moves those results gave them: a rating is a
        history, not a sum to take apart."""
        with self.engine.begin() as connection:
            connection.execute(results_t.delete().where(results_t.c.player_id == player_id))
            connection.execute(players_t.update().where(players_t.c.id == player_id, players_t.c.kind == "human")
                               .values(kind="closed", key_hash=None, mu=DEFAULT_MU, sigma=DEFAULT_SIGMA, games=0,
                                       wins=0, deals=0, deals_won=0, updated_at=time.time()))

    def _standings(self, condition: sa.ColumnElement[bool]) -> list[Standing]:
        """The standings that meet *condition*; never a closed (deleted) profile's."""
        with self.engine.connect() as connection:
            rows = connection.execute(sa.select(*(players_t.c[c] for c in _STANDING_COLUMNS))
                                      .where(condition, players_t.c.kind != "closed"))
            return [Standing(**dict(row._mapping)) for row in rows]

    def player(self, player_id: str) -> Standing | None:
        """The standing of a profile or bot level by id, or ``None``."""
        found = self._standings(players_t.c.id == player_id)
        return found[0] if found else None

    def player_by_key(self, key_hash: str) -> Standing | None:
        """The profile whose key has this SHA-256, or ``None``."""
        found = self._standings(players_t.c.key_hash == key_hash)
        return found[0] if found else None

    def standings(self, ids: Sequence[str]) -> dict[str, Standing]:
        """The standings of these ids (those that exist)."""
        return {s.id: s for s in self._standings(players_t.c.id.in_(list(set(ids))))}

    def leaderboard(self, limit: int, offset: int) -> tuple[list[Standing], int]:
        """Profiles and bot levels with a rated match, the established ones first (:data:`PROVISIONAL_GAMES` rated
        matches or more), each part by rating (μ, unrounded) then name; and how many there are."""
        played = sa.and_(players_t.c.games > 0, players_t.c.kind != "closed")
        with self.engine.connect() as connection:
            total = int(connection.execute(sa.select(sa.func.count()).select_from(players_t).where(played))
                        .scalar_one())
            rows = connection.execute(
                sa.select(*(players_t.c[c] for c in _STANDING_COLUMNS)).where(played)
                .order_by((players_t.c.games < PROVISIONAL_GAMES), players_t.c.mu.desc(), players_t.c.name,
                          players_t.c.id)
                .limit(limit).offset(offset))
            return [Standing(**dict(row._mapping)) for row in rows], total

    def results(self, player_id: str, limit: int) -> list[dict[str, Any]]:
        """A player's rated matches, newest first: the seat's result and the match's summary (with the table's
        visibility: the id of a private table is its invite, which a player's public page must not give away)."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                sa.select(results_t, tables_t.c.variant, tables_t.c.summary, tables_t.c.visibility)
                .join(tables_t, tables_t.c.id == results_t.c.table_id)
                .where(results_t.c.player_id == player_id)
                .order_by(results_t.c.finished_at.desc(), results_t.c.table_id, results_t.c.seat).limit(limit)
            ).all()
        found = []
        for row in rows:
            data = dict(row._mapping)
            summary = json.loads(data.pop("summary") or "{}")
            found.append({**data, **_listed(summary)})
        return found

    def count_tables(self) -> int:
        with self.engine.connect() as connection:
            return int(connection.execute(sa.select(sa.func.count()).select_from(tables_t)).scalar_one())
