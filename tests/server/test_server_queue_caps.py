"""What the server queues for a connection is bounded in characters.

A ``sync`` from ``last_seq`` 0 is answered with the table's whole journal (some 150,000 characters for a finished
match), and a client that asked within its message rate and never read made the server hold up to 4096 such
answers per connection: six connections grew the server by 860 MB in 30 s.  Now each connection, and each client
address for all its connections together, has a cap on the characters queued and not yet sent
(``ServerConfig.max_queued``, ``max_queued_per_address``; :class:`~mizerka.server.hub.OutboundCount`), past which
the connection is dropped.

The unit tests drive :class:`~mizerka.server.hub.Client` as the connection's sender does (take a message from the
queue, :meth:`~mizerka.server.hub.Client.sent` once the transport has it); one runs a real uvicorn on 127.0.0.1
(``server_helpers.ThreadServer``), where a spectator floods ``sync`` without reading (the repro, in small) while a
player at the same table plays on; the last checks ``mizerka serve``'s options for the caps.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from click.testing import CliRunner
from server_helpers import WS, ThreadServer, new_table, play_until
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from mizerka.server.command import serve_command
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
    for _ in range(3):
        client.send("x" * 300)
    assert (client.queued, client.closed, client.queue.qsize()) == (900, False, 3)
    assert client.outbound.by_address == {"203.0.113.7": 900}

    client.send("y" * 300)  # 1200 > 1000: dropped, never waited for
    assert client.closed
    assert client.queue.get_nowait() is None and client.queue.empty()  # what was queued is thrown away: the
    # sender takes the end mark next (the connection ends)
    assert client.queued == 0 and client.outbound.by_address == {}  # ... and given back
    client.send("z")
    assert client.queue.empty()  # a dropped client is sent nothing more

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
    assert (defaults.max_queued, defaults.max_queued_per_address) == (4 * 1024 * 1024, 32 * 1024 * 1024)


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
            try:
                flooder.send(sync)
            except ConnectionClosed:  # dropped between the count and the send: the server closed it
                break
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


# -- the command's options ---------------------------------------------------------------------------------


def test_serve_takes_the_caps_as_options(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    import logging

    import uvicorn

    configs: list[Any] = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, *args, **kwargs: configs.append(self.config))
    monkeypatch.setattr(logging, "basicConfig", lambda **kwargs: None)  # leave the test run's logging alone
    result = CliRunner().invoke(serve_command, [
        "--port", "0", "--database", f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "--max-queued", "5000", "--max-queued-per-address", "9000"])
    assert result.exit_code == 0, result.output
    [uv] = configs
    hub: Hub = uv.app.state.hub
    assert (hub.config.max_queued, hub.config.max_queued_per_address) == (5000, 9000)
    assert (hub.outbound.per_connection, hub.outbound.per_address) == (5000, 9000)
    for bad in (["--max-queued", "0"], ["--max-queued-per-address", "-1"]):
        result = CliRunner().invoke(serve_command, bad)
        assert result.exit_code == 2 and "max-queued" in result.output
