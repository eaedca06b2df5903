"""Fixtures for the server tests: a database (SQLite, or PostgreSQL when MIZERKA_TEST_DATABASE_URL is set),
a real uvicorn on 127.0.0.1, and websocket clients.  The helpers live in server_helpers.py."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the server tests need the 'server' extra (pip install -e '.[dev]')")

from server_helpers import DB_ENV, WS, ThreadServer, fresh_schema

from mizerka.server.hub import ServerConfig


@pytest.fixture
def database_url(tmp_path: Path) -> Iterator[str]:
    url = os.environ.get(DB_ENV)
    if url:
        schema_url, drop = fresh_schema(url)  # a schema of its own: concurrent runs cannot clobber each other
        yield schema_url
        drop()
    else:
        yield f"sqlite:///{tmp_path / 'server.sqlite3'}"


@pytest.fixture
def make_server(database_url: str) -> Iterator[Any]:
    servers: list[ThreadServer] = []

    def make(**options: Any) -> ThreadServer:
        options.setdefault("bot_delay", 0.0)
        options.setdefault("dd_limit", 0.0)
        options.setdefault("web_dir", None)
        options.setdefault("rate", 1000.0)
        options.setdefault("burst", 1000.0)
        options.setdefault("gc_freeze", False)  # many servers in one test process: freeze none of its garbage
        server = ThreadServer(ServerConfig(database=database_url, **options)).start()
        servers.append(server)
        return server

    yield make
    for server in servers:
        server.stop()


@pytest.fixture
def server(make_server: Any) -> ThreadServer:
    return make_server()  # type: ignore[no-any-return]


@pytest.fixture
def ws_factory(server: ThreadServer) -> Iterator[Any]:
    clients: list[WS] = []

    def make() -> WS:
        client = WS(server.ws_url)
        clients.append(client)
        return client

    yield make
    for client in clients:
        client.close()
