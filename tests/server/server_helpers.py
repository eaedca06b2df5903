"""Helpers for the server tests: a database (SQLite, or PostgreSQL when MIZERKA_TEST_DATABASE_URL is set),
a real uvicorn on 127.0.0.1 (in a thread, or as a subprocess that can be killed), small clients, and the requests
many test files make (a table, a profile, a match played)."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import secrets
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

import httpx
import sqlalchemy as sa
import uvicorn
from websockets.sync.client import ClientConnection, connect

from mizerka.server.app import create_app
from mizerka.server.command import uvicorn_config
from mizerka.server.db import normalize_url
from mizerka.server.hub import Hub, ServerConfig
from mizerka.server.protocol import Snapshot

DB_ENV = "MIZERKA_TEST_DATABASE_URL"
SHORT = "standard,contracts=NT+MZ"  # six deals: a whole match in seconds


_schemas = itertools.count()


def fresh_schema(url: str) -> tuple[str, Callable[[], None]]:
    """A new, empty PostgreSQL schema for one test: its URL (the schema first on the search path) and a function
    that drops it.  Each test has its own, so that test runs sharing the database (two engineers, two CI jobs)
    and a server of an earlier test still shutting down never touch its tables.  Fails, never skips, when the
    database cannot be reached."""
    schema = f"t{os.getpid()}_{next(_schemas)}_{secrets.token_hex(3)}"
    engine = sa.create_engine(normalize_url(url))
    with engine.begin() as connection:
        connection.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    engine.dispose()
    separator = "&" if "?" in url else "?"

    def drop() -> None:
        engine = sa.create_engine(normalize_url(url))
        with engine.begin() as connection:
            connection.execute(sa.text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        engine.dispose()

    return f"{url}{separator}options=-csearch_path%3D{schema}", drop


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


RUNNING: set[ThreadServer] = set()
"""The servers started and not stopped yet: those a test left running are stopped at the session's end
(``tests/conftest.py``), before the interpreter is torn down under their threads."""


class ThreadServer:
    """uvicorn serving the app in a background thread, on a free loopback port."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.app = create_app(config)
        self.hub: Hub = self.app.state.hub
        self.port = free_port()
        # the settings `mizerka serve` runs with (its HTTP protocol, head limit and request deadline, the websocket
        # ceiling), so that the tests exercise what is served
        self.server = uvicorn.Server(uvicorn_config(self.app, config, host="127.0.0.1", port=self.port,
                                                    log_level="warning", lifespan="on"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def start(self) -> ThreadServer:
        RUNNING.add(self)
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)
        RUNNING.discard(self)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def call(self, coro: Any) -> Any:
        """Run a coroutine on the server's loop (to inspect or poke the hub) and wait for its result."""
        assert self.hub.loop is not None
        return asyncio.run_coroutine_threadsafe(coro, self.hub.loop).result(timeout=30)


class WS:
    """A small synchronous websocket client that speaks the protocol."""

    def __init__(self, url: str) -> None:
        self._stack = contextlib.ExitStack()
        self.conn: ClientConnection = self._stack.enter_context(connect(url, open_timeout=10, max_size=2**22))
        self.seq = 0
        self.view: dict[str, Any] | None = None
        self.log: list[dict[str, Any]] = []

    def send(self, message: dict[str, Any] | str) -> None:
        self.conn.send(message if isinstance(message, str) else json.dumps(message))

    def recv(self, timeout: float = 10) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.conn.recv(timeout=timeout))
        self.log.append(message)
        if message["type"] == "snapshot" and message.get("undone") is not None:
            # an undo's snapshot: the table as it is now, its number back where the card taken back was
            # (the events after it are gone, and their numbers will be given again)
            self.seq, self.view = message["seq"], message["view"]
        elif message["type"] == "event":
            assert message["seq"] == self.seq + 1, (message["seq"], self.seq)
            self.seq = message["seq"]
            if message.get("view") is not None:
                self.view = message["view"]
        elif message["type"] in ("welcome", "snapshot"):
            # The events after the request's last_seq; events broadcast while the request was in flight
            # may already have arrived, so the catch-up can overlap what we saw, but never leave a gap.
            for event in message["events"]:
                assert event["seq"] <= self.seq + 1 or self.seq == 0, (event["seq"], self.seq)
                self.seq = max(self.seq, event["seq"])
            assert message["seq"] >= self.seq, (message["seq"], self.seq)
            self.seq = message["seq"]
            self.view = message["view"]
        return message

    def until(self, predicate: Any, timeout: float = 20) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no matching message")
            message = self.recv(timeout=left)
            if predicate(message):
                return message

    def request(self, message: dict[str, Any], timeout: float = 10) -> dict[str, Any]:
        """Send and return the first reply that is not an event, presence, ping or dd (those come unasked)."""
        self.send(message)
        return self.until(lambda m: m["type"] not in ("event", "presence", "ping", "dd"), timeout)

    def hello(self, table: str, token: str | None = None, last_seq: int | None = None) -> dict[str, Any]:
        message: dict[str, Any] = {"type": "hello", "protocol": 1, "table": table}
        if token is not None:
            message["token"] = token
        if last_seq is not None:
            message["last_seq"] = last_seq
        reply = self.request(message)
        return reply

    def close(self) -> None:
        self._stack.close()


class UndoWS(WS):
    """The helpers' client (which takes an undo's snapshot, its number going back) with ``undo`` and ``act``."""

    def undo(self, request_id: Any = "u") -> dict[str, Any]:
        """Send ``undo``; the reply: the snapshot carrying our id, or the error."""
        self.send({"type": "undo", "id": request_id})
        reply = self.until(lambda m: m.get("id") == request_id and m["type"] in ("snapshot", "error"))
        if reply["type"] == "snapshot":
            Snapshot.model_validate(reply)  # the protocol's schema, its ``undone`` field included
        return reply

    def act(self, action: str) -> dict[str, Any]:
        reply = self.request({"type": "act", "action": action, "seq": self.seq})
        assert reply["type"] == "ack", reply
        return reply


def play_until(ws: WS, done: Any) -> None:
    """Play the first legal action at each of our turns until *done(view)*."""
    while ws.view is None or not done(ws.view):
        view = ws.view
        if view is not None and view["your_turn"]:
            reply = ws.request({"type": "act", "action": view["legal"][0] if view["legal"] else "keep",
                                "seq": ws.seq})
            assert reply["type"] == "ack" or reply.get("code") == "stale_seq", reply
        else:
            ws.recv()


def spawn_server(database: str, port: int, *extra: str) -> subprocess.Popen[bytes]:
    """``mizerka serve`` as a subprocess (for crash tests); returns once it answers."""
    process = subprocess.Popen(
        [sys.executable, "-m", "mizerka", "serve", "--host", "127.0.0.1", "--port", str(port), "--database", database,
         "--log-level", "warning", *extra],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError("the server exited: " + (process.stderr.read().decode() if process.stderr else ""))
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/meta", timeout=1).status_code == 200:
                return process
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("the server did not start")


def new_table(server: ThreadServer, variant: str = SHORT, **body: Any) -> tuple[str, str]:
    """A table of one human (us, "Ala", seated) and random bots, created with *body*'s options: its id and our
    token.  The default variant has six deals: a whole match in seconds."""
    n = 4 if variant.startswith("four-players") else 3
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * (n - 1)
    created = httpx.post(server.url + "/api/tables", json={"seats": seats, "variant": variant, **body})
    assert created.status_code == 201, created.text
    table = created.json()["id"]
    joined = httpx.post(server.url + f"/api/tables/{table}/join", json={"name": "Ala"})
    assert joined.status_code == 200, joined.text
    return table, joined.json()["token"]


def post_table(server: ThreadServer, **body: Any) -> str:
    """A table created by ``POST /api/tables`` with *body* as it is (the server's defaults for the rest, nobody
    seated): its id."""
    response = httpx.post(server.url + "/api/tables", json=body)
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


def play(server: ThreadServer, table: str, token: str, done: Any) -> None:
    """Sit at *table* with *token* and play the first legal action at each turn until *done(view)*."""
    ws = WS(server.ws_url)
    try:
        ws.hello(table, token)
        play_until(ws, done)
    finally:
        ws.close()


def claim(server: ThreadServer, name: str) -> tuple[dict[str, Any], str]:
    """Claim the profile *name*: the player as the server shows it, and its key."""
    reply = httpx.post(server.url + "/api/players", json={"name": name})
    assert reply.status_code == 201, reply.text
    body = reply.json()
    return body["player"], body["key"]


def profile(server: ThreadServer, key: str) -> httpx.Response:
    return httpx.get(server.url + "/api/profile", headers={"Authorization": f"Bearer {key}"})


def rated_quickplay(server: ThreadServer, key: str, **body: Any) -> dict[str, Any]:
    """A rated quick play of the profile whose key is *key*, against random bots in the short variant."""
    reply = httpx.post(server.url + "/api/quickplay",
                       json={"player_key": key, "rated": True, "variant": SHORT, "level": "random", **body})
    assert reply.status_code == 201, reply.text
    return reply.json()  # type: ignore[no-any-return]


def migrate(database_url: str, revision: str, *, down: bool = False) -> None:
    """Run the real alembic migrations of ``mizerka.server`` on *database_url* up (or *down*) to *revision*: the
    migration tests start from an older schema with rows in it."""
    from pathlib import Path

    from alembic import command
    from alembic.config import Config

    from mizerka.server import db

    engine = db.make_engine(database_url)
    try:
        config = Config()
        config.set_main_option("script_location", str(Path(db.__file__).parent / "migrations"))
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            (command.downgrade if down else command.upgrade)(config, revision)
    finally:
        engine.dispose()


def unload(server: ThreadServer, table: str) -> None:
    """What the hub's sweep does to a finished table nobody is at: it drops it from memory (the database keeps it).
    The idle times are set to zero for the sweep, then put back."""
    deadline = time.monotonic() + 10
    config = server.config
    old = config.abandon_after, config.read_back_idle
    try:
        while table in server.hub.tables:
            config.abandon_after = config.read_back_idle = 0.0
            server.call(server.hub.cleanup())
            assert time.monotonic() < deadline, "the table was not unloaded"
            time.sleep(0.05)
    finally:
        config.abandon_after, config.read_back_idle = old


def read_back(score_sheet: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A view's score-sheet rows as a table read back from the database shows them: the double-dummy values, and
    why a deal has none (``dd_reason``), live in memory only (docs/server.md), so a reload has neither."""
    return [{**{k: v for k, v in row.items() if k != "dd_reason"}, "dd": None} for row in score_sheet]
