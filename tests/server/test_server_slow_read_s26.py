"""An HTTP client that asks and never reads the answers is cut (session 26).

A "slow read": a client pipelines requests for the largest script of the browser client and reads none of the
answers.  The server wrote what the client took and waited for the rest for good, so the connection and its file
descriptor were held as long as the client liked (still after 40 s in a first try), and a few hundred such used up
the server's descriptors.  Now a connection whose client takes no byte of what is buffered for it for
:data:`~mizerka.server.command.SEND_TIMEOUT_SECONDS` is cut (:class:`~mizerka.server.command.WriteDeadlines`; 60 s
as served, 2 s here).  A client that reads, however slowly, gets every answer whole.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import mizerka.server.command as command
from mizerka.server.hub import ServerConfig

WEB = Path(command.__file__).resolve().parent.parent / "web"
SCRIPT = "/js/i18n.js"
REQUESTS = 100  # 9 MB: more than the system buffers of a loopback connection take


@pytest.fixture
def server(make_server: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setattr(command, "SEND_TIMEOUT_SECONDS", 2.0)
    assert ServerConfig.web_dir is not None
    return make_server(web_dir=WEB)


def slow_socket(port: int) -> socket.socket:
    """A connection to *port* with a small receive buffer (so that what it does not read stays with the server),
    the requests sent."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", port))
    sock.sendall(f"GET {SCRIPT} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode() * REQUESTS)
    return sock


def transports(server: Any) -> int:
    return len(server.server.server_state.connections)


def test_a_client_that_reads_no_answer_is_cut(server: Any) -> None:
    size = (WEB / SCRIPT.lstrip("/")).stat().st_size
    assert size > 64 * 1024  # more than asyncio's buffer, ten times over
    with slow_socket(server.port) as sock:
        deadline = time.monotonic() + 10
        while transports(server) != 1:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        start = time.monotonic()
        while transports(server) == 1:  # held while the client reads nothing
            assert time.monotonic() - start < command.SEND_TIMEOUT_SECONDS + 10, "the connection was never cut"
            time.sleep(0.05)
        assert time.monotonic() - start >= command.SEND_TIMEOUT_SECONDS - 1
        # the client, reading now, gets what had reached the system's buffers, then the end: not every answer
        sock.settimeout(10)
        got = 0
        with contextlib.suppress(ConnectionResetError):
            while chunk := sock.recv(65536):
                got += len(chunk)
        assert got < REQUESTS * size
    assert httpx.get(server.url + SCRIPT).status_code == 200  # the server serves on


def test_a_client_that_reads_slowly_gets_every_answer(server: Any) -> None:
    size = (WEB / SCRIPT.lstrip("/")).stat().st_size
    with slow_socket(server.port) as sock:
        sock.settimeout(10)
        got = bytearray()
        start = time.monotonic()
        while time.monotonic() - start < 3 * command.SEND_TIMEOUT_SECONDS:  # 4 KB every half second
            got += sock.recv(4096)
            time.sleep(0.5)
        assert transports(server) == 1
        while got.count(b"HTTP/1.1 200 OK") < REQUESTS or len(got) < REQUESTS * size:
            chunk = sock.recv(65536)
            assert chunk, "the connection was closed"
            got += chunk
    assert got.count(b"HTTP/1.1 200 OK") == REQUESTS
    assert len(got) > REQUESTS * size


# -- the close's deadline, on a bare asyncio server: uvicorn's own closes come after its last write has mostly reached
# the system's buffers on loopback, which leaves nothing to test

PAYLOAD = 8 * 1024 * 1024


class WriteAndClose(asyncio.Protocol):
    """Writes :data:`PAYLOAD` bytes to each connection and closes it at once, through :class:`WriteDeadlines`."""

    def __init__(self, ends: list[float]) -> None:
        self.ends = ends

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.deadlines = command.WriteDeadlines(asyncio.get_running_loop(), logging.getLogger("test"), "test")
        wrapped = self.deadlines.wrap(transport)
        wrapped.write(bytes(PAYLOAD))
        self.closed_at = time.monotonic()
        wrapped.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self.deadlines.lost()
        self.ends.append(time.monotonic() - self.closed_at)


@pytest.fixture
def bare_server(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[int, list[float]]]:
    monkeypatch.setattr(command, "CLOSE_GRACE_SECONDS", 1.0)
    loop = asyncio.new_event_loop()
    ends: list[float] = []
    server = loop.run_until_complete(loop.create_server(lambda: WriteAndClose(ends), "127.0.0.1", 0))
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    yield server.sockets[0].getsockname()[1], ends
    loop.call_soon_threadsafe(server.close)
    loop.call_soon_threadsafe(loop.stop)
    thread.join(timeout=10)


def small_buffer_connection(port: int) -> socket.socket:
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", port))
    sock.settimeout(10)
    return sock


def test_a_closed_connection_whose_client_takes_nothing_is_cut(bare_server: tuple[int, list[float]]) -> None:
    port, ends = bare_server
    with small_buffer_connection(port):
        deadline = time.monotonic() + 10
        while not ends:
            assert time.monotonic() < deadline, "the connection was never cut"
            time.sleep(0.05)
    assert ends[0] >= 0.9


def test_a_slow_reader_of_a_closed_connection_gets_everything(bare_server: tuple[int, list[float]]) -> None:
    """Closed at once with 8 MB unsent; read a few KB four times a second for four times the close's deadline,
    then at full speed: every byte the client takes starts the deadline again, and it gets all 8 MB."""
    port, ends = bare_server
    got = 0
    with small_buffer_connection(port) as sock:
        start = time.monotonic()
        while chunk := sock.recv(65536):
            got += len(chunk)
            if time.monotonic() - start < 4 * command.CLOSE_GRACE_SECONDS:
                time.sleep(0.25)
    assert got == PAYLOAD
    assert len(ends) == 1 and ends[0] > 3  # closed long after the deadline, never cut
