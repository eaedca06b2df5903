"""The websocket against a real uvicorn: bad input, tokens, spectators, reconnect, stand-ins, heartbeats, the message
rate, and a connection whose sender fails.

Bad input gets its own error code and the connection goes on (a request ``id`` that is valid JSON but no Unicode
text, a lone surrogate, is refused: echoed in the reply, its encoding failed in the sender, which died silently).  A
client sending as fast as it can is answered ``rate_limited``, keeps its connection and is read at its rate: a
connection with more than 100 messages refused within a second is not read for a second (every frame used to be
read, parsed and refused, a core's worth of work taken from every table).  A message that cannot be sent closes the
connection (1011) rather than leaving it reading and never answering."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import logging
import os
import socket
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from click.testing import CliRunner
from server_helpers import WS, ThreadServer
from websockets.exceptions import ConnectionClosed

from mizerka.server.command import WS_MAX_SIZE, serve_command
from mizerka.server.hub import ServerConfig
from mizerka.server.protocol import MAX_MESSAGE_BYTES, SERVER_ADAPTER


def new_table(server: ThreadServer, **body: Any) -> str:
    response = httpx.post(server.url + "/api/tables", json=body)
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


def join(server: ThreadServer, table: str, name: str, seat: int | None = None) -> dict[str, Any]:
    response = httpx.post(server.url + f"/api/tables/{table}/join", json={"name": name, "seat": seat})
    assert response.status_code == 200, response.text
    return dict(response.json())


def two_humans(server: ThreadServer, **options: Any) -> tuple[str, dict[str, Any], dict[str, Any]]:
    table = new_table(server, seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}],
                      **options)
    return table, join(server, table, "Ala", 0), join(server, table, "Bolek", 1)


def three_humans(server: ThreadServer) -> tuple[str, list[dict[str, Any]]]:
    """A table where nothing moves unless a test acts."""
    table = new_table(server)
    return table, [join(server, table, name) for name in ("Ala", "Bolek", "Cezary")]


def test_bad_input_gets_a_specific_error_and_the_connection_stays(server: ThreadServer, ws_factory: Any) -> None:
    table, tokens = three_humans(server)
    ala = tokens[0]
    ws: WS = ws_factory()
    cases: list[tuple[Any, str]] = [
        ("{not json", "bad_json"),
        ("[1, 2]", "bad_message"),
        ({"no": "type"}, "bad_message"),
        ({"type": "dance"}, "unknown_type"),
        ({"type": "act", "action": "AS"}, "not_joined"),
        ("x" * 5000, "too_large"),
        ({"type": "hello", "protocol": 99, "table": table}, "bad_version"),
        ({"type": "hello", "protocol": 1, "table": "nope"}, "unknown_table"),
        ({"type": "hello", "protocol": 1, "table": table, "token": "forged"}, "bad_token"),
        ({"type": "hello", "protocol": 1, "table": table, "extra": 1}, "bad_message"),
        ({"type": "hello", "protocol": "1", "table": table}, "bad_message"),
        ({"type": "hello", "protocol": 1, "table": table, "token": ala["token"], "last_seq": 10**6}, "bad_seq"),
    ]
    for message, code in cases:
        reply = ws.request({"id": 1, **message} if isinstance(message, dict) and "type" in message else message)
        assert reply["type"] == "error" and reply["code"] == code, (message, reply)
        assert reply["message"]
    welcome = ws.hello(table, ala["token"])
    assert welcome["type"] == "welcome" and welcome["seat"] == 0
    view = welcome["view"]
    seq = welcome["seq"]
    to_move = view["to_move"]
    assert view["phase"] == "choose"
    if to_move != 0:
        assert ws.request({"type": "act", "action": view["allowed_contracts"][0]})["code"] == "not_your_turn"
        view = ws.hello(table, tokens[to_move]["token"])["view"]
    assert ws.request({"type": "act", "action": "play AS"})["code"] == "illegal_action"
    assert ws.request({"type": "act", "action": "flurb"})["code"] == "invalid_action"
    assert ws.request({"type": "act", "action": view["legal"][0], "seq": seq + 5})["code"] == "bad_seq"
    assert ws.request({"type": "act", "action": view["legal"][0], "seq": seq - 1})["code"] == "stale_seq"
    # nothing changed, and the connection still works
    snapshot = ws.request({"type": "sync", "last_seq": seq})
    assert snapshot["type"] == "snapshot" and snapshot["seq"] == seq and snapshot["events"] == []
    assert ws.request({"type": "ping", "id": "p"}) == {"type": "pong", "id": "p"}


def test_a_request_id_with_a_lone_surrogate_is_refused_and_the_connection_goes_on(server: ThreadServer,
                                                                                  ws_factory: Any) -> None:
    """``"id": "\\ud800"`` is valid JSON but no Unicode text.  The id was taken and echoed in the reply, whose
    encoding to UTF-8 then failed in the connection's sender task: the sender died silently and the connection
    never got another message (no reply, no events, no pong)."""
    ws: WS = ws_factory()
    ws.send('{"type": "ping", "id": "\\ud800"}')
    reply = ws.recv(timeout=5)
    assert reply["type"] == "error" and reply["code"] == "bad_message" and reply["id"] is None
    assert "id" in reply["message"]
    assert ws.request({"type": "ping", "id": "alive"}) == {"type": "pong", "id": "alive"}


def test_a_frame_far_over_the_protocol_limit_gets_too_large_and_the_connection_stays(
        server: ThreadServer, ws_factory: Any) -> None:
    """A 200 KB frame, over the 64 KiB the websocket layer once read at most, gets the ``too_large`` reply like any
    other oversized message (it used to drop the connection, close code 1009), and the connection goes on."""
    ws: WS = ws_factory()
    frame = json.dumps({"type": "ping", "id": "big", "pad": "x" * 200_000})
    assert MAX_MESSAGE_BYTES < 65536 < len(frame)
    for raw in (frame, frame.encode()):  # a text frame, and the same bytes as a binary frame
        ws.conn.send(raw)
        reply = ws.recv()
        assert reply["type"] == "error" and reply["code"] == "too_large", reply
        assert f"{len(frame)} bytes" in reply["message"]
    assert ws.request({"type": "ping", "id": "after"}) == {"type": "pong", "id": "after"}


def test_oversized_frames_under_the_default_rate_limit_get_too_large_not_a_drop(make_server: Any) -> None:
    """At the default limits a 200 KB frame is charged as one byte over the protocol's limit (it has been read
    already), so the first of a volley is answered ``too_large``, not ``rate_limited``; the rest of the volley
    may be rate limited, and the connection and the next message go on."""
    defaults = ServerConfig(database="sqlite://")
    server: ThreadServer = make_server(rate=defaults.rate, burst=defaults.burst)
    ws = WS(server.ws_url)
    for _ in range(5):
        ws.send("x" * 200_000)
    ws.send({"type": "ping", "id": "after"})
    replies: list[dict[str, Any]] = []
    while not replies or replies[-1]["type"] != "pong":
        replies.append(ws.recv())
    assert replies[-1] == {"type": "pong", "id": "after"}
    errors = replies[:-1]
    assert 1 <= len(errors) <= 5, replies
    assert errors[0]["type"] == "error" and errors[0]["code"] == "too_large", replies
    assert all(r["type"] == "error" and r["code"] in ("rate_limited", "too_large") for r in errors), replies
    assert ws.request({"type": "ping", "id": "again"}) == {"type": "pong", "id": "again"}
    ws.close()


def test_a_frame_over_the_transport_ceiling_closes_the_connection_with_1009(make_server: Any) -> None:
    """A frame of exactly WS_MAX_SIZE bytes is still read (and refused as ``too_large``); one byte more is not
    read at all: the websocket layer closes the connection with RFC 6455's 1009, "message too big"."""
    server: ThreadServer = make_server(burst=2 * WS_MAX_SIZE / 1024)  # the rate limit lets the largest frame in
    ws = WS(server.ws_url)
    at_ceiling = json.dumps("x" * (WS_MAX_SIZE - 2))
    assert len(at_ceiling) == WS_MAX_SIZE
    ws.send(at_ceiling)
    reply = ws.recv()
    assert reply["type"] == "error" and reply["code"] == "too_large", reply
    # the frame one byte over, written to the socket by hand: the client's own send holds its connection's lock until
    # every byte is out, so its reader could not take the server's close frame, which comes as soon as the frame's
    # header is read, before the server's close resets the connection under the rest (a flaky failure)
    payload = b"x" * (WS_MAX_SIZE + 1)
    frame = bytes([0x81, 0x80 | 127]) + len(payload).to_bytes(8, "big") + bytes(4) + payload  # masked by zeros
    with contextlib.suppress(OSError):
        ws.conn.socket.sendall(frame)
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            ws.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009, closed.value
    ws.close()


def test_mizerka_serve_runs_uvicorn_with_the_transport_ceiling(monkeypatch: pytest.MonkeyPatch,
                                                                tmp_path: Path) -> None:
    """``mizerka serve`` gives uvicorn the WS_MAX_SIZE the test servers (server_helpers.ThreadServer) run with."""
    configs: list[uvicorn.Config] = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, *args, **kwargs: configs.append(self.config))
    monkeypatch.setattr(logging, "basicConfig", lambda **kwargs: None)  # leave the test run's logging alone
    result = CliRunner().invoke(serve_command, ["--port", "0", "--database", f"sqlite:///{tmp_path / 'db.sqlite3'}"])
    assert result.exit_code == 0, result.output
    assert [c.ws_max_size for c in configs] == [WS_MAX_SIZE]


def test_nobody_acts_without_the_seat_token(server: ThreadServer, ws_factory: Any) -> None:
    table, tokens = three_humans(server)
    spectator: WS = ws_factory()
    welcome = spectator.hello(table)
    assert welcome["seat"] is None and welcome["view"]["hand"] == []
    for action in ("NT", "MZ", "AS", "keep"):
        assert spectator.request({"type": "act", "action": action})["code"] == "no_seat"
    clients = []
    for joined in tokens:
        ws: WS = ws_factory()
        ws.hello(table, joined["token"])
        clients.append(ws)
    to_move = clients[0].view["to_move"] if clients[0].view else None
    assert to_move in (0, 1, 2)
    legal = clients[to_move].view["legal"]  # type: ignore[index]
    for seat, ws in enumerate(clients):  # another seat's connection (token) cannot act for the one to move
        if seat != to_move:
            assert ws.request({"type": "act", "action": legal[0]})["code"] == "not_your_turn"
    assert clients[0].request({"type": "hello", "protocol": 1, "table": table, "token": tokens[1]["token"] + "x"}
                              )["code"] == "bad_token"
    ack = clients[to_move].request({"type": "act", "action": legal[0]})
    assert ack["type"] == "ack"
    # leave by REST with a wrong token is refused; the seat stays
    response = httpx.post(server.url + f"/api/tables/{table}/leave", json={"token": "wrong"})
    assert response.status_code == 403 and response.json()["error"] == "bad_token"


def test_reconnect_gets_a_snapshot_and_the_missed_events(make_server: Any, ws_factory: Any) -> None:
    server: ThreadServer = make_server(grace=0.3)
    table, ala, _ = two_humans(server)
    watcher = WS(server.ws_url)
    watcher.hello(table)
    ws = WS(server.ws_url)
    ws.hello(table, ala["token"])
    seen = ws.seq
    ws.close()
    # while Ala is gone, Bolek's seat is also empty: after the grace period bots stand in and play on
    deadline = time.monotonic() + 20
    while watcher.seq < seen + 8 and time.monotonic() < deadline:
        watcher.recv()
    kinds = [m["event"] for m in watcher.log if m["type"] == "event"]
    assert any(e["kind"] == "seat" and e["seat"] == 0 and e["standin"] for e in kinds)
    back = WS(server.ws_url)
    welcome = back.hello(table, ala["token"], last_seq=seen)
    assert [e["seq"] for e in welcome["events"]] == list(range(seen + 1, welcome["seq"] + 1))
    assert welcome["view"]["seat"] == 0 and len(welcome["view"]["hand"]) > 0
    for event in welcome["events"]:
        SERVER_ADAPTER.validate_python(event)
    handed_back = back.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "seat"
                             and m["event"]["seat"] == 0)
    assert handed_back["event"]["standin"] is False
    back.close()
    watcher.close()


def test_rate_limit_and_heartbeat(make_server: Any) -> None:
    server: ThreadServer = make_server(rate=5.0, burst=5.0, heartbeat=0.2)
    ws = WS(server.ws_url)
    for _ in range(40):
        ws.send({"type": "ping"})
    replies = []
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:
        try:
            replies.append(ws.recv(timeout=0.5))
        except (TimeoutError, ConnectionClosed):  # silent for three heartbeats: the server drops us too
            break
    types = [r["type"] for r in replies]
    assert types.count("pong") < 20 and any(r.get("code") == "rate_limited" for r in replies)
    assert "ping" in types  # the server's heartbeat
    ws.close()
    # a client that never answers is dropped after three heartbeats
    silent = WS(server.ws_url)
    time.sleep(1.5)
    with pytest.raises(ConnectionClosed):
        for _ in range(50):
            silent.conn.recv(timeout=2)
    silent.close()


def flood_socket(port: int) -> socket.socket:
    """A websocket opened by hand (no client library: nothing of its own to block on), ready to flood."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                 f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(4096)
    assert head.startswith(b"HTTP/1.1 101"), head
    return sock


def masked_frame(text: str) -> bytes:
    data = text.encode()
    assert len(data) < 126
    mask = os.urandom(4)
    return bytes([0x81, 0x80 | len(data)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))


def test_a_client_sending_as_fast_as_it_can_is_read_at_its_rate(make_server: Any) -> None:
    """A client that sends pings without pause, at the default rate limit (20 a second, bursts of 60), is answered
    ``rate_limited`` and keeps its connection, and the server reads its messages at about its rate, no faster: the
    old server read, parsed and refused every one of them (tens of thousands a second, a core's worth of work taken
    from every table), this one stops reading for a second once more than 100 were refused within one."""
    defaults = ServerConfig(database="sqlite://")
    server = make_server(rate=defaults.rate, burst=defaults.burst)
    handled = 0
    handle_raw = server.hub.handle_raw

    async def counting(client: Any, raw: str | bytes) -> None:
        nonlocal handled
        handled += 1
        await handle_raw(client, raw)

    server.hub.handle_raw = counting  # the app looks it up on the hub for each message
    sock = flood_socket(server.port)
    stop = threading.Event()
    sent = 0
    batch = masked_frame('{"type":"ping"}') * 100

    def flood() -> None:
        nonlocal sent
        sock.settimeout(0.2)
        while not stop.is_set():
            try:
                sock.sendall(batch)
            except TimeoutError:  # the server does not read: the network's buffers are full
                continue
            sent += 100

    flooder = threading.Thread(target=flood, daemon=True)
    flooder.start()
    other = WS(server.ws_url)
    try:
        time.sleep(1.0)
        # the server answers everyone else meanwhile
        assert other.request({"type": "ping", "id": "other"}) == {"type": "pong", "id": "other"}
        time.sleep(1.0)
        stop.set()
        flooder.join(timeout=10)
        took = handled
        assert sent > 5000, sent  # it did flood
        # read at its rate: a burst, then about a second's worth per second (the old code: every message sent)
        assert took < 1000, (took, sent)
        sock.settimeout(2)
        answer = b""
        while b"rate_limited" not in answer:
            chunk = sock.recv(65536)
            assert chunk, "the server closed the flooding connection"
            answer += chunk
        assert server.hub.connections.total == 2  # both still open: refused messages, not a dropped connection
    finally:
        stop.set()
        sock.close()
        other.close()


def test_a_message_that_cannot_be_sent_closes_the_connection(server: ThreadServer,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """If sending a message fails, the connection is closed (1011) rather than left reading and never answering:
    the sender task used to die silently, and every later reply, event and ping was lost."""
    from starlette.websockets import WebSocket

    real = WebSocket.send_text

    async def send_text(self: WebSocket, data: str) -> None:
        if "poison" in data:
            raise RuntimeError("cannot send this one")
        await real(self, data)

    monkeypatch.setattr(WebSocket, "send_text", send_text)
    ws = WS(server.ws_url)
    assert ws.request({"type": "ping", "id": "fine"}) == {"type": "pong", "id": "fine"}
    ws.send({"type": "ping", "id": "poison"})
    with pytest.raises(ConnectionClosed) as closed:
        ws.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1011
    ws.close()


def test_every_server_message_fits_the_protocol_models(server: ThreadServer, ws_factory: Any) -> None:
    joined = httpx.post(server.url + "/api/quickplay", json={"name": "Ala"}).json()
    ws: WS = ws_factory()
    ws.hello(joined["table"]["id"], joined["token"])
    hint = ws.request({"type": "hint", "id": 3}) if ws.view and ws.view["your_turn"] else None
    if hint is not None:
        assert hint["type"] == "hint"
    for _ in range(200):
        assert ws.view is not None
        if ws.view["your_turn"]:
            view = ws.view
            if view["legal"]:
                action = view["legal"][0]
            else:
                action = "exchange " + " ".join(view["hand"][:1]) if view["exchange"]["max"] else "keep"
            reply = ws.request({"type": "act", "action": action})
            assert reply["type"] == "ack", (reply, action, view["exchange"])
        else:
            ws.recv()
    for message in ws.log:
        SERVER_ADAPTER.validate_python(message)
    for message in ws.log:  # deck orders only in the reveal of a finished deal
        if message["type"] == "event" and "reveal" in message["event"]:
            assert message["event"]["kind"] == "deal_end"
            del message["event"]["reveal"]
        assert '"deck"' not in json.dumps(message)


def test_a_leave_takes_the_seat_from_every_connection_with_its_token(server: ThreadServer, ws_factory: Any) -> None:
    """Two connections hold seat 0 with one token; one of them leaves.  The other must lose the seat too:
    kept, it went on seeing the hand of whoever sat there next, and could act for him or give his seat up."""
    table = new_table(server)  # three human seats, filled before the start
    ala = join(server, table, "Ala", 0)
    first: WS = ws_factory()
    second: WS = ws_factory()
    first.hello(table, ala["token"])
    assert second.hello(table, ala["token"])["seat"] == 0
    first.send({"type": "leave", "id": "bye"})
    first.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "seat" and m["event"]["open"])
    later = join(server, table, "Ola", 0)  # before the start the seat opens again: a new player takes it
    join(server, table, "Bolek")
    join(server, table, "Cezary")
    second.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "start")
    snapshot = second.request({"type": "sync", "last_seq": 0})
    assert snapshot["view"]["seat"] is None and snapshot["view"]["hand"] == []
    for message in ({"type": "act", "action": "NT"}, {"type": "leave"}, {"type": "hint"}):
        assert second.request(message)["code"] == "no_seat", message
    assert WS(server.ws_url).hello(table, ala["token"])["code"] == "bad_token"
    assert WS(server.ws_url).hello(table, later["token"])["seat"] == 0  # Ola's seat is still hers


def test_a_hello_that_waited_for_a_leave_of_its_token_is_refused(server: ThreadServer) -> None:
    """The hello checks its token, then waits for the table's lock; a leave that holds the lock before it gives
    the token up.  The hello must check again under the lock, or it joins with a seat its token no longer holds."""
    table = new_table(server, seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "human"}])
    ala = join(server, table, "Ala", 0)
    live = server.hub.tables[table]
    release = threading.Event()

    async def hold() -> None:
        async with live.lock:
            await asyncio.to_thread(release.wait, 10)

    held = asyncio.run_coroutine_threadsafe(hold(), server.hub.loop)  # type: ignore[arg-type]
    leave: dict[str, httpx.Response] = {}
    leaver = threading.Thread(target=lambda: leave.setdefault(
        "reply", httpx.post(server.url + f"/api/tables/{table}/leave", json={"token": ala["token"]}, timeout=20)))
    leaver.start()
    time.sleep(0.3)  # the leave now waits for the lock
    ws = WS(server.ws_url)
    ws.send({"type": "hello", "protocol": 1, "table": table, "token": ala["token"], "id": "h"})
    time.sleep(0.3)  # and the hello after it
    release.set()
    leaver.join()
    held.result(timeout=20)
    assert leave["reply"].status_code == 200
    reply = ws.until(lambda m: m["type"] in ("welcome", "error"))
    assert reply["type"] == "error" and reply["code"] == "bad_token", reply
    assert all(client.seat is None for client in live.clients)
    ws.close()


def test_leaving_a_table_without_spectators_takes_the_connection_off_it(server: ThreadServer, ws_factory: Any) -> None:
    table = new_table(server, spectators=False)
    ala = join(server, table, "Ala", 0)
    assert WS(server.ws_url).hello(table)["code"] == "spectators_off"
    ws: WS = ws_factory()
    ws.hello(table, ala["token"])
    ws.send({"type": "leave"})
    ws.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "seat")
    assert ws.request({"type": "sync", "last_seq": 0})["code"] == "not_joined"
