"""Clients that take nothing of what the server sends them are cut, over HTTP and over the websocket; a client
that reads, however slowly, gets everything.

* **An HTTP client that asks and never reads the answers** (a "slow read": requests for the largest script of the
  browser client pipelined, none of the answers read).  The server wrote what the client took and waited for the
  rest for good, so the connection and its file descriptor were held as long as the client liked, and a few hundred
  such used up the server's descriptors.  Now a connection whose client takes no byte of what is buffered for it for
  :data:`~mizerka.server.command.SEND_TIMEOUT_SECONDS` is cut (:class:`~mizerka.server.command.WriteDeadlines`; 60 s
  as served, 2 s here), and so is one closed with bytes unsent, :data:`~mizerka.server.command.CLOSE_GRACE_SECONDS`
  after the close (tested on a bare asyncio server: uvicorn's own closes come after its last write has mostly reached
  the system's buffers on loopback).
* **A websocket client that stops reading** filled its connection's buffers; the server dropped it (its queue past
  the cap) or closed it (the heartbeat: silent for three heartbeats), but the connection never ended: its reader
  waited for a next message that never came, its sender for buffers that never drained, and asyncio closes a
  transport only once the client has taken its buffer.  The connection, counted against its address's cap, and its
  file descriptor were held for good.  Now the reader of a dropped client stops at once (``Client.cut``), and its
  transport is cut by the same deadlines.

The stalled clients are real ones over TCP with a small receive buffer (so that what they do not read stays with
the server); the websocket ones stop reading after one queued message and send no pings of their own (a client with
pings would end the connection itself).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import WS, ThreadServer, new_table
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

import mizerka.server.command as command
from mizerka.server.command import CLOSE_GRACE_SECONDS
from mizerka.server.hub import Client, ServerConfig

# -- an HTTP client that reads no answer ----------------------------------------------------------------------------

WEB = Path(command.__file__).resolve().parent.parent / "web"
SCRIPT = "/js/i18n.js"
REQUESTS = 100  # 9 MB: more than the system buffers of a loopback connection take


@pytest.fixture
def web_server(make_server: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """A server of the browser client's files whose send timeout is 2 s."""
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


def transports(server: ThreadServer) -> int:
    """The connections uvicorn holds open (HTTP and websocket)."""
    return len(server.server.server_state.connections)


def test_a_client_that_reads_no_answer_is_cut(web_server: Any) -> None:
    size = (WEB / SCRIPT.lstrip("/")).stat().st_size
    assert size > 64 * 1024  # more than asyncio's buffer, ten times over
    with slow_socket(web_server.port) as sock:
        deadline = time.monotonic() + 10
        while transports(web_server) != 1:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        start = time.monotonic()
        while transports(web_server) == 1:  # held while the client reads nothing
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
    assert httpx.get(web_server.url + SCRIPT).status_code == 200  # the server serves on


def test_a_client_that_reads_slowly_gets_every_answer(web_server: Any) -> None:
    size = (WEB / SCRIPT.lstrip("/")).stat().st_size
    with slow_socket(web_server.port) as sock:
        sock.settimeout(10)
        got = bytearray()
        start = time.monotonic()
        while time.monotonic() - start < 3 * command.SEND_TIMEOUT_SECONDS:  # 4 KB every half second
            got += sock.recv(4096)
            time.sleep(0.5)
        assert transports(web_server) == 1
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


# -- a websocket client that stops reading ---------------------------------------------------------------------


def wait_for(predicate: Any, timeout: float) -> float:
    """Wait until *predicate* holds; the seconds it took."""
    start = time.monotonic()
    while not predicate():
        assert time.monotonic() - start < timeout, "the condition did not come true"
        time.sleep(0.02)
    return time.monotonic() - start


@contextmanager
def stalled_spectator(server: ThreadServer, table: str, others: int) -> Iterator[tuple[ClientConnection, Client]]:
    """A spectator of *table* (where *others* are connected) that sends its hello and then neither reads nor
    writes, and its client in the hub."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", server.port))
    with connect(server.ws_url, sock=sock, open_timeout=10, max_size=None, max_queue=1, ping_interval=None,
                 compression=None) as ws:  # compressed, the messages below would fill no buffer
        ws.send(json.dumps({"type": "hello", "protocol": 1, "table": table}))
        clients = server.hub.tables[table].clients
        wait_for(lambda: len(clients) == others + 1, 20)
        yield ws, next(c for c in clients if c.seat is None)


def push(server: ThreadServer, client: Client, until: Any) -> int:
    """Queue messages of 100,000 characters for *client* on the server's loop, as a busy table would, until
    *until* () holds; how many."""

    async def run() -> int:
        n = 0
        while not until():
            client.send("x" * 100_000)
            n += 1
            await asyncio.sleep(0.002)
            assert n < 2000, "the client's buffers never filled"
        return n

    return int(server.call(run()))


def test_a_client_dropped_for_not_reading_lets_its_connection_go(make_server: Any) -> None:
    cap = 128 * 1024
    server: ThreadServer = make_server(max_queued=cap, max_queued_per_address=64 * cap, limit_loopback=True)
    table, token = new_table(server)
    player = WS(server.ws_url)
    player.hello(table, token)
    with stalled_spectator(server, table, 1) as (_ws, client):
        open_before = transports(server)
        push(server, client, lambda: client.closed)
        assert client.dropped
        # the connection is let go at once, and its place given back, with no message from the client
        wait_for(lambda: server.hub.connections.total == 1, 5)
        assert len(server.hub.tables[table].clients) == 1
        # its transport, with megabytes the client never took, is cut after the grace
        took = wait_for(lambda: transports(server) == open_before - 1, CLOSE_GRACE_SECONDS + 10)
        assert took >= CLOSE_GRACE_SECONDS - 1
    assert player.request({"type": "ping", "id": "still"}) == {"type": "pong", "id": "still"}
    player.close()


def test_a_silent_client_with_full_buffers_is_closed_by_the_heartbeat(make_server: Any,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Under its queue's cap, so never dropped: the heartbeat closes it (three heartbeats without a word), which
    sends what is queued, then the close frame; the client takes none of it, and the send timeout cuts it.
    (Alone at the table: a test client that answers no ping would be closed by the heartbeat too.)"""
    monkeypatch.setattr(command, "SEND_TIMEOUT_SECONDS", 2.0)
    server: ThreadServer = make_server(heartbeat=1.0, limit_loopback=True)
    table, _token = new_table(server)
    with stalled_spectator(server, table, 0) as (_ws, client):
        open_before = transports(server)
        push(server, client, lambda: client.queued > 1_000_000)  # the sender takes no more: the buffers are full
        assert not client.closed
        wait_for(lambda: client.closed, 10)  # the heartbeat
        assert not client.dropped
        wait_for(lambda: server.hub.connections.total == 0 and transports(server) == open_before - 1,
                 command.SEND_TIMEOUT_SECONDS + 10)


def test_a_slow_reader_closed_by_the_server_gets_everything_first(make_server: Any,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The deadlines cut only a client that takes nothing: one that reads, however slowly, is sent all
    that was queued for it, then the close frame, though that takes it many times the send timeout."""
    monkeypatch.setattr(command, "SEND_TIMEOUT_SECONDS", 1.0)
    monkeypatch.setattr(command, "CLOSE_GRACE_SECONDS", 1.0)
    server: ThreadServer = make_server(limit_loopback=True)
    table, _token = new_table(server)
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # what it has not read stays with the server
    sock.connect(("127.0.0.1", server.port))
    with connect(server.ws_url, sock=sock, open_timeout=10, max_size=None, max_queue=1, ping_interval=None,
                 compression=None) as reader:
        reader.send(json.dumps({"type": "hello", "protocol": 1, "table": table}))
        clients = server.hub.tables[table].clients
        wait_for(lambda: len(clients) == 1, 20)
        client = next(iter(clients))

        async def flood_and_close() -> None:
            for i in range(40):  # 4 MB, all queued before the close
                client.send(f"{i:02d}" + "x" * 99_998)
            client.close()

        server.call(flood_and_close())
        got = []
        start = time.monotonic()
        try:
            while True:
                text = reader.recv(timeout=30)
                if isinstance(text, str) and len(text) == 100_000:
                    got.append(text[:2])
                if time.monotonic() - start < 4 * command.SEND_TIMEOUT_SECONDS:
                    time.sleep(0.25)  # 400 KB a second, for four times the send timeout
        except ConnectionClosed as closed:
            assert closed.rcvd is not None and closed.rcvd.code == 1000
        assert got == [f"{i:02d}" for i in range(40)]
