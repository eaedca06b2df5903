"""Three ways one client could exhaust the game server, found by a security audit (session 22), and their bounds.

* **What the server queues for a connection** is bounded in characters, per connection and per client address
  (``ServerConfig.max_queued``, ``max_queued_per_address``; :class:`~mizerka.server.hub.OutboundCount`): a
  ``sync`` from ``last_seq`` 0 is answered with the table's whole journal, and a client that asked within its
  message rate and never read made the server hold up to 4096 such answers per connection (hundreds of MB).
* **A request that never arrives whole** (slowloris: half a request line, or nothing at all) held its connection
  for ever; now it has ``ServerConfig.request_timeout`` seconds (:class:`~mizerka.server.command.RequestDeadline`).
* **A request head of any length** was read whole into memory (uvicorn's httptools parser has no limit); the server
  now runs h11, whose head is limited to :data:`~mizerka.server.command.MAX_HEAD_BYTES` (16 KiB).

The unit tests drive :class:`~mizerka.server.hub.Client` as the connection's sender does (take a message from the
queue, :meth:`~mizerka.server.hub.Client.sent` once the transport has it); the others run a real uvicorn on
127.0.0.1 with the settings ``mizerka serve`` uses (``server_helpers.ThreadServer``), over raw sockets where the
HTTP framing itself is under test.
"""

from __future__ import annotations

import json
import socket
import time
from typing import Any

import httpx
import pytest
import uvicorn
from click.testing import CliRunner
from server_helpers import WS, ThreadServer, new_table, play_until
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from mizerka.server.command import MAX_HEAD_BYTES, RequestDeadline, serve_command
from mizerka.server.encoding import encode
from mizerka.server.hub import Client, Hub, OutboundCount, ServerConfig

# -- the outbound queue, bounded in characters: units ------------------------------------------------------


def config(**options: Any) -> ServerConfig:
    return ServerConfig(database="sqlite://", **options)


def take(client: Client) -> str:
    """What the connection's sender does with the next message: the transport takes it."""
    text = client.queue.get_nowait()
    assert text is not None
    client.sent(text)
    return text


def test_a_client_whose_queue_passes_its_cap_is_dropped() -> None:
    client = Client(config(max_queued=1000, max_queued_per_address=10_000), "203.0.113.7")
    stops: list[str] = []
    client.on_drop = lambda: stops.append("stop")
    for _ in range(3):
        client.send("x" * 300)
    assert (client.queued, client.closed, client.queue.qsize()) == (900, False, 3)
    assert client.outbound.by_address == {"203.0.113.7": 900}

    client.send("y" * 300)  # 1200 > 1000: dropped, never waited for
    assert client.closed and stops == ["stop"]  # the connection is told to stop at once
    assert client.queue.get_nowait() is None and client.queue.empty()  # what was queued is thrown away
    assert client.queued == 0 and client.outbound.by_address == {}  # ... and given back
    client.send("z")
    assert client.queue.empty() and stops == ["stop"]  # a dropped client is sent nothing more

    # one message alone over the cap is refused the same way
    big = Client(config(max_queued=1000), "203.0.113.7")
    big.send({"type": "snapshot", "events": ["e" * 2000]})
    assert big.closed and big.queue.get_nowait() is None and big.outbound.by_address == {}


def test_a_queue_full_of_messages_drops_its_client_and_gives_its_characters_back() -> None:
    """The queue's bound in messages (4096) stays; a client dropped by it gives back what it held too (before, the
    full queue could not even take the close mark, and the client was closed only for its next send)."""
    client = Client(config(), "203.0.113.7")
    for _ in range(client.queue.maxsize):
        client.send("p")
    assert not client.closed and client.queued == client.queue.maxsize
    client.send("p")
    assert client.closed and client.queued == 0 and client.outbound.by_address == {}
    assert client.queue.get_nowait() is None


def test_the_connections_of_one_address_share_its_cap() -> None:
    hub = Hub(config(max_queued=1000, max_queued_per_address=1500, limit_loopback=False))
    first, second = hub.new_client("203.0.113.7"), hub.new_client("203.0.113.7")
    other = hub.new_client("203.0.113.8")
    neighbour = hub.new_client("2001:db8:1:2::7")  # one IPv6 /64 counts as one address
    same_home = hub.new_client("2001:db8:1:2:ffff::9")
    first.send("a" * 800)
    second.send("b" * 800)  # each under the connection's cap, together over the address's
    assert not first.closed and second.closed
    other.send("c" * 800)
    neighbour.send("d" * 800)
    same_home.send("e" * 800)
    assert not other.closed and not neighbour.closed and same_home.closed
    assert hub.outbound.by_address == {"203.0.113.7": 800, "203.0.113.8": 800, "2001:db8:1:2::/64": 800}
    take(first)  # sent: the address has room again
    third = hub.new_client("203.0.113.7")
    third.send("f" * 800)
    assert not third.closed and hub.outbound.by_address["203.0.113.7"] == 800

    # the machine's own clients are spared the address's cap (as they are spared the connection caps) ...
    local = [hub.new_client("127.0.0.1") for _ in range(3)]
    for client in local:
        client.send("g" * 800)
    assert not any(client.closed for client in local)
    local[0].send("h" * 800)  # ... never the connection's
    assert local[0].closed
    # ... unless --limit-loopback
    strict = Hub(config(max_queued=1000, max_queued_per_address=1500, limit_loopback=True))
    one, two = strict.new_client("127.0.0.1"), strict.new_client("127.0.0.1")
    one.send("i" * 800)
    two.send("j" * 800)
    assert not one.closed and two.closed


def test_what_is_sent_or_left_at_the_end_is_given_back() -> None:
    hub = Hub(config(max_queued=1000, max_queued_per_address=1500, limit_loopback=False))
    reader = hub.new_client("203.0.113.7")
    for _ in range(1000):  # 600,000 characters in all, 600 at a time: a client that reads never trips the caps
        reader.send("r" * 300)
        reader.send("s" * 300)
        take(reader)
        take(reader)
    assert not reader.closed and reader.queued == 0 and hub.outbound.by_address == {}

    # the connection ends with messages queued: they are given back, the one the sender holds too
    leaving, staying = hub.new_client("203.0.113.7"), hub.new_client("203.0.113.7")
    staying.send("t" * 400)
    for _ in range(3):
        leaving.send("u" * 300)
    in_flight = leaving.queue.get_nowait()  # the sender has it; the transport has not taken it yet
    assert hub.outbound.by_address == {"203.0.113.7": 1300}
    leaving.close()
    leaving.release()
    assert hub.outbound.by_address == {"203.0.113.7": 400} and leaving.queue.empty()
    assert in_flight is not None
    leaving.sent(in_flight)  # the send finishes after the end: not given back twice
    leaving.release()  # nor at a second end
    assert hub.outbound.by_address == {"203.0.113.7": 400}
    staying.send("v" * 600)  # the room the ended connection held is there for its address's others
    assert not staying.closed and hub.outbound.by_address == {"203.0.113.7": 1000}


def test_outbound_count_unit() -> None:
    count = OutboundCount(per_connection=10, per_address=15)
    assert count.charge("a", held=0, size=10) is None
    assert count.charge("a", held=10, size=1) == "connection"
    assert count.charge("a", held=0, size=6) == "address"
    assert count.charge("a", held=0, size=6, per_address=False) is None  # counted, not capped
    assert count.by_address == {"a": 16}
    count.release("a", 16)
    count.release("a", 5)  # never below nothing
    assert count.by_address == {}
    defaults = ServerConfig(database="sqlite://")
    assert (defaults.max_queued, defaults.max_queued_per_address, defaults.request_timeout) == (
        4 * 1024 * 1024, 32 * 1024 * 1024, 10.0)


# -- the outbound queue on a real server --------------------------------------------------------------------


def test_a_client_flooding_sync_without_reading_is_dropped_while_the_table_plays_on(make_server: Any) -> None:
    """The audit's repro in small: a spectator asks for the whole journal again and again (``sync`` from
    ``last_seq`` 0, within its message rate) and never reads.  Its connection is dropped once its queue passes the
    cap, long before the 4096 messages that were the only bound; the player at the same table, who reads, plays on
    and is never dropped, though he is sent many times the cap over the match."""
    cap = 128 * 1024
    server: ThreadServer = make_server(max_queued=cap, max_queued_per_address=64 * cap, limit_loopback=True)
    table, token = new_table(server)
    player = WS(server.ws_url)
    player.hello(table, token)
    play_until(player, lambda v: len(v["score_sheet"]) >= 2)  # a journal of two deals: a few dozen KiB a sync

    with connect(server.ws_url, open_timeout=10, max_size=None) as flooder:  # reads 16 messages, then no more
        flooder.send(json.dumps({"type": "hello", "protocol": 1, "table": table}))
        wait_for(lambda: server.hub.connections.total == 2 and len(server.hub.tables[table].clients) == 2)
        sync = json.dumps({"type": "sync", "last_seq": 0})
        sent = 0
        while server.hub.connections.total == 2 and sent < 2500:  # far fewer than 4096 answers
            flooder.send(sync)
            sent += 1
        wait_for(lambda: server.hub.connections.total == 1)
        assert len(server.hub.tables[table].clients) == 1, sent  # only the player is left at the table
        # what the flooder had queued was given back: only the player's messages are counted now
        wait_for(lambda: server.hub.outbound.by_address.get("127.0.0.1", 0) < cap)

        # the flooder's end of the connection: what the kernel held for it, then the close
        with pytest.raises(ConnectionClosed):
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                flooder.recv(timeout=10)

    play_until(player, lambda v: v["phase"] == "over")  # the table plays on for the reading client
    assert sum(len(encode(m)) for m in player.log) > 2 * cap  # sent far more than the cap, never dropped
    assert player.request({"type": "ping", "id": "still"}) == {"type": "pong", "id": "still"}
    player.close()


def wait_for(predicate: Any, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "the condition did not come true"
        time.sleep(0.02)


# -- a deadline for each HTTP request; the request head's limit ---------------------------------------------


def read_all(sock: socket.socket, timeout: float = 10.0) -> bytes:
    """Everything the server sends until it closes the connection (fails if it does not within *timeout*)."""
    sock.settimeout(timeout)
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    return data


def read_response(sock: socket.socket) -> bytes:
    """One response with a Content-Length body, the connection left open."""
    sock.settimeout(10)
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n")
                  if line.lower().startswith(b"content-length"))
    while len(body) < length:
        body += sock.recv(65536)
    return head + b"\r\n\r\n" + body


def test_a_request_that_does_not_arrive_whole_in_time_is_closed(make_server: Any) -> None:
    server: ThreadServer = make_server(request_timeout=1.0)
    address = ("127.0.0.1", server.port)
    half = socket.create_connection(address)
    half.sendall(b"GET /api/meta HTTP/1.1\r\nHost: x\r\n")  # never the blank line that ends the head
    silent = socket.create_connection(address)  # sends nothing at all
    slow_body = socket.create_connection(address)
    slow_body.sendall(b"POST /api/players HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                      b"Content-Length: 40\r\n\r\n{\"na")
    start = time.monotonic()
    answered = read_all(half)
    assert answered.startswith(b"HTTP/1.1 408 "), answered
    assert read_all(silent) == b""  # closed without a word: no request was begun
    assert read_all(slow_body) == b""  # the application had the request; its body never came
    assert time.monotonic() - start < 5
    for sock in (half, silent, slow_body):
        sock.close()
    assert httpx.get(server.url + "/api/players/Ala").status_code == 404  # the slow body made no profile

    # a head that trickles in, but whole within the deadline, is answered
    with socket.create_connection(address) as trickle:
        for piece in (b"GET /api/meta HT", b"TP/1.1\r\nHost: x\r\n", b"\r\n"):
            trickle.sendall(piece)
            time.sleep(0.25)
        assert read_response(trickle).startswith(b"HTTP/1.1 200 ")

    # keep-alive: the deadline counts from each request's first byte, not the idle time between two requests
    with socket.create_connection(address) as kept:
        kept.sendall(b"GET /api/meta HTTP/1.1\r\nHost: x\r\n\r\n")
        assert read_response(kept).startswith(b"HTTP/1.1 200 ")
        time.sleep(1.6)  # longer than the deadline, shorter than uvicorn's keep-alive (5 s)
        kept.sendall(b"GET /api/meta HTTP/1.1\r\nHost: x\r\n\r\n")
        assert read_response(kept).startswith(b"HTTP/1.1 200 ")

    # a websocket is past the deadline once its upgrade request is in
    ws = WS(server.ws_url)
    time.sleep(1.6)
    assert ws.request({"type": "ping", "id": 1}) == {"type": "pong", "id": 1}
    ws.close()


def test_a_request_head_over_16_kib_is_refused(server: ThreadServer) -> None:
    address = ("127.0.0.1", server.port)
    with socket.create_connection(address) as ok:  # a long head within the limit is served
        ok.sendall(b"GET /api/meta HTTP/1.1\r\nHost: x\r\nX-Pad: " + b"a" * (MAX_HEAD_BYTES // 2) + b"\r\n\r\n")
        assert read_response(ok).startswith(b"HTTP/1.1 200 ")
    with socket.create_connection(address) as long:  # an unfinished head past the limit is refused
        long.sendall(b"GET /api/meta HTTP/1.1\r\nHost: x\r\nX-Pad: " + b"a" * (MAX_HEAD_BYTES + 1024))
        answered = read_all(long)
        assert answered.startswith(b"HTTP/1.1 400 "), answered[:100]
    # one header line without end: the server closes the connection after some KiB, not after the 300 MB
    with socket.create_connection(address) as endless:
        endless.sendall(b"GET /api/meta HTTP/1.1\r\nHost: x\r\nX-Pad: ")
        sent = 0
        with pytest.raises(OSError):  # the server's reset, once it has closed the connection
            while sent < 64 * 1024 * 1024:
                endless.sendall(b"a" * 65536)
                sent += 65536
        assert sent < 16 * 1024 * 1024


def test_serve_runs_the_request_deadline_and_takes_the_new_limits_as_options(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    configs: list[uvicorn.Config] = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, *args, **kwargs: configs.append(self.config))
    import logging

    monkeypatch.setattr(logging, "basicConfig", lambda **kwargs: None)  # leave the test run's logging alone
    result = CliRunner().invoke(serve_command, [
        "--port", "0", "--database", f"sqlite:///{tmp_path / 'db.sqlite3'}", "--request-timeout", "3.5",
        "--max-queued", "5000", "--max-queued-per-address", "9000"])
    assert result.exit_code == 0, result.output
    [uv] = configs
    assert isinstance(uv.http, type) and issubclass(uv.http, RequestDeadline) and uv.http.request_timeout == 3.5
    assert uv.h11_max_incomplete_event_size == MAX_HEAD_BYTES
    app: Any = uv.app
    hub: Hub = app.state.hub
    assert (hub.config.max_queued, hub.config.max_queued_per_address, hub.config.request_timeout) == (
        5000, 9000, 3.5)
    assert (hub.outbound.per_connection, hub.outbound.per_address) == (5000, 9000)
    for bad in (["--request-timeout", "0"], ["--max-queued", "0"]):
        assert CliRunner().invoke(serve_command, bad).exit_code == 2


def test_the_test_servers_run_what_serve_runs(server: ThreadServer) -> None:
    """The whole tests/server suite exercises the HTTP protocol ``mizerka serve`` runs (not uvicorn's default,
    httptools, which has neither the deadline nor the head limit)."""
    protocol = server.server.config.http
    assert isinstance(protocol, type) and issubclass(protocol, RequestDeadline)
    assert protocol.request_timeout == server.config.request_timeout


def test_many_half_open_connections_leave_the_server_to_others(make_server: Any) -> None:
    """The slowloris itself: while 100 connections hold half a request each, others are served, and once their
    deadline passes the server has closed every one of them."""
    server: ThreadServer = make_server(request_timeout=1.0)
    held = []
    for _ in range(100):
        sock = socket.create_connection(("127.0.0.1", server.port))
        sock.sendall(b"GET /api/meta HTTP/1.1\r\nHost: x\r\n")
        held.append(sock)
    assert httpx.get(server.url + "/api/meta", timeout=5).status_code == 200
    start = time.monotonic()
    for sock in held:
        assert read_all(sock).startswith(b"HTTP/1.1 408 ")
        sock.close()
    assert time.monotonic() - start < 10
