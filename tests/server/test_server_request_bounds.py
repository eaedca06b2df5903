"""What one HTTP request may take of the game server: the time to arrive whole, the size of its head, the size of
its body.  Without these bounds one client could hold the server's connections or memory.

* **A request that never arrives whole** (slowloris: half a request line, or nothing at all) held its connection
  for ever, and 300 of them stopped the server answering anyone; now it has ``ServerConfig.request_timeout``
  seconds (:class:`~mizerka.server.command.RequestDeadline`), counted from each request's first byte.
* **A request head of any length** was read whole into memory (uvicorn's httptools parser has no limit); the server
  runs h11, whose head is limited to :data:`~mizerka.server.command.MAX_HEAD_BYTES` (16 KiB).
* **A request body of any length** was read whole into memory before validation refused it (a 200 MB POST grew the
  server by 600 MB); anything over the limit gets 413 ``too_large``, by its declared length or, chunked, as soon as
  it passes the limit.

The tests run a real uvicorn on 127.0.0.1 with the settings ``mizerka serve`` uses (``server_helpers.ThreadServer``),
over raw sockets where the HTTP framing itself is under test.
"""

from __future__ import annotations

import socket
import time
from typing import Any

import httpx
import pytest
import uvicorn
from click.testing import CliRunner
from server_helpers import WS, ThreadServer, post_table

from mizerka.server.command import MAX_HEAD_BYTES, RequestDeadline, serve_command
from mizerka.server.hub import Hub


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
        assert answered.startswith(b"HTTP/1.1 431 "), answered[:100]
    # a whole head past the limit in one read (h11 alone took it, up to 256 KiB), also on a kept-alive connection
    # and behind a request being answered (pipelined)
    long_head = b"GET /api/meta HTTP/1.1\r\nHost: x\r\nX-Pad: " + b"a" * (4 * MAX_HEAD_BYTES) + b"\r\n\r\n"
    for before in (b"", b"GET /api/meta HTTP/1.1\r\nHost: x\r\n\r\n"):
        with socket.create_connection(address) as whole:
            whole.sendall(before + long_head)
            answered = read_all(whole)
            assert answered.count(b"HTTP/1.1 200 ") == (1 if before else 0), answered[:300]
            assert answered.count(b"HTTP/1.1 431 ") == 1, answered[-300:]
    with socket.create_connection(address) as kept:
        kept.sendall(b"GET /api/meta HTTP/1.1\r\nHost: x\r\n\r\n")
        assert read_response(kept).startswith(b"HTTP/1.1 200 ")
        kept.sendall(long_head)
        assert read_all(kept).startswith(b"HTTP/1.1 431 ")
    # exactly at the limit is served
    at_limit = b"GET /api/meta HTTP/1.1\r\nHost: x\r\nX-Pad: "
    at_limit += b"a" * (MAX_HEAD_BYTES - len(at_limit) - 4) + b"\r\n\r\n"
    assert len(at_limit) == MAX_HEAD_BYTES
    with socket.create_connection(address) as edge:
        edge.sendall(at_limit)
        assert read_response(edge).startswith(b"HTTP/1.1 200 ")
    # one header line without end: the server closes the connection after some KiB, not after the 300 MB
    with socket.create_connection(address) as endless:
        endless.sendall(b"GET /api/meta HTTP/1.1\r\nHost: x\r\nX-Pad: ")
        sent = 0
        with pytest.raises(OSError):  # the server's reset, once it has closed the connection
            while sent < 64 * 1024 * 1024:
                endless.sendall(b"a" * 65536)
                sent += 65536
        assert sent < 16 * 1024 * 1024


def test_a_huge_request_body_is_refused_before_it_is_read(server: ThreadServer) -> None:
    """Bodies had no limit: a 200 MB POST was read whole into memory (the server's peak memory grew by 600 MB)
    before validation refused it.  Now anything over the limit gets 413 ``too_large``, by its declared length or,
    chunked, as soon as it passes the limit, and the server goes on."""
    big = b'{"name": "' + b"a" * (2 << 20) + b'"}'
    response = httpx.post(server.url + "/api/tables", content=big, headers={"content-type": "application/json"})
    assert response.status_code == 413, response.text
    assert response.json()["error"] == "too_large"

    def chunks() -> Any:
        yield b'{"name": "'
        for _ in range(64):
            yield b"a" * 65536
        yield b'"}'

    response = httpx.post(server.url + "/api/tables", content=chunks(), headers={"content-type": "application/json"})
    assert response.status_code == 413, response.text
    assert response.json()["error"] == "too_large"
    # a lying Content-Length is no way around it either
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 99999999999\r\n\r\n{}")
        head = sock.recv(65536)
    assert head.startswith(b"HTTP/1.1 413"), head[:200]
    assert post_table(server)  # and the server goes on


def test_serve_runs_the_request_deadline_and_takes_its_option(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    configs: list[uvicorn.Config] = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, *args, **kwargs: configs.append(self.config))
    import logging

    monkeypatch.setattr(logging, "basicConfig", lambda **kwargs: None)  # leave the test run's logging alone
    result = CliRunner().invoke(serve_command, [
        "--port", "0", "--database", f"sqlite:///{tmp_path / 'db.sqlite3'}", "--request-timeout", "3.5"])
    assert result.exit_code == 0, result.output
    [uv] = configs
    assert isinstance(uv.http, type) and issubclass(uv.http, RequestDeadline) and uv.http.request_timeout == 3.5
    assert uv.h11_max_incomplete_event_size == MAX_HEAD_BYTES
    app: Any = uv.app
    hub: Hub = app.state.hub
    assert hub.config.request_timeout == 3.5
    for bad in (["--request-timeout", "0"], ["--request-timeout", "soon"]):
        result = CliRunner().invoke(serve_command, bad)
        assert result.exit_code == 2 and "--request-timeout" in result.output


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
