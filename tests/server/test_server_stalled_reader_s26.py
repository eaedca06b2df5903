"""A websocket client that stops reading is let go (session 26).

A client that stopped reading filled its connection's buffers; the server then dropped it (its queue past the cap)
or closed it (the heartbeat: silent for three heartbeats), but the connection never ended.  Its reader waited for a
next message that never came, its sender for buffers that never drained, and asyncio closes a transport only once
the client has taken its buffer: uvicorn's own ping timeout closed it no better.  So the connection, counted
against its address's cap, and its file descriptor were held for good (a raw client of this kind still held both
after 120 s).  Now the reader of a dropped client stops at once (``Client.cut``), and a transport whose client
takes nothing is cut: :data:`SEND_TIMEOUT_SECONDS` after its writing paused, :data:`CLOSE_GRACE_SECONDS` after its
close (:class:`~mizerka.server.command.WriteDeadlines`).

The stalled client here is a real one over TCP: a small receive buffer, a websocket library that stops reading
after one queued message, and no pings of its own (a client with pings would end the connection itself).
"""

from __future__ import annotations

import asyncio
import json
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from server_helpers import WS, ThreadServer, new_table
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

import mizerka.server.command as command
from mizerka.server.command import CLOSE_GRACE_SECONDS
from mizerka.server.hub import Client


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


def transports(server: ThreadServer) -> int:
    """The connections uvicorn holds open (HTTP and websocket)."""
    return len(server.server.server_state.connections)


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
