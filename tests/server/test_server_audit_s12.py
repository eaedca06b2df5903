"""Defects found by the second server audit (s12): each test failed on the code before its fix.

Every server here is a real uvicorn on 127.0.0.1 (the ``make_server`` / ``server`` fixtures)."""

from __future__ import annotations

import socket
from typing import Any

import httpx
import pytest
from server_helpers import WS, ThreadServer
from websockets.exceptions import ConnectionClosed


def new_table(server: ThreadServer, **body: Any) -> str:
    response = httpx.post(server.url + "/api/tables", json=body)
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


def join(server: ThreadServer, table: str, name: str, seat: int | None = None) -> httpx.Response:
    return httpx.post(server.url + f"/api/tables/{table}/join", json={"name": name, "seat": seat})


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


def test_a_seat_given_up_during_the_match_is_taken_over_under_the_newcomers_name(server: ThreadServer,
                                                                                ws_factory: Any) -> None:
    """A human who leaves gives the seat to a bot.  ``join`` once seated anyone on it *under the leaver's name*
    (session 12); since session 28 a newcomer may take such a seat over at an unrated table (docs/server.md), and he
    sits there under his own name: nobody passes for the player who left."""
    table = new_table(server, seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "human"}])
    tokens = [join(server, table, name).json()["token"] for name in ("Ala", "Bolek", "Cezary")]
    left = httpx.post(server.url + f"/api/tables/{table}/leave", json={"token": tokens[0]})
    assert left.status_code == 200 and left.json()["status"] == "playing"
    seat = left.json()["seats"][0]
    assert not seat["open"] and seat["takeover"] and seat["standin"]
    response = join(server, table, "Dorota")
    assert response.status_code == 200, response.text
    assert response.json()["seat"] == 0
    info = httpx.get(server.url + f"/api/tables/{table}").json()
    assert info["seats"][0]["name"] == "Dorota" and not info["seats"][0]["standin"]
    assert not info["seats"][0]["takeover"]
    # nobody else takes it now: it is Dorota's, and no other seat is free
    for seat_asked in (None, 0):
        refused = join(server, table, "Mallory", seat_asked)
        assert refused.status_code == 409, refused.text
        assert refused.json()["error"] in ("table_full", "seat_taken")
    # before the start a seat given up opens again, and may be taken
    waiting = new_table(server)
    token = join(server, waiting, "Ala").json()["token"]
    assert httpx.post(server.url + f"/api/tables/{waiting}/leave", json={"token": token}).status_code == 200
    assert join(server, waiting, "Bolek", 0).status_code == 200


def test_rest_bodies_of_the_wrong_type_are_refused_not_coerced(server: ThreadServer) -> None:
    """``"seat": true`` took seat 1, ``"seat": "2"`` seat 2, ``"hints": "no"`` turned hints off: wrong types were
    coerced instead of being refused with a message that names the field."""
    table = new_table(server)
    for seat in (True, "2", 1.0):
        response = httpx.post(server.url + f"/api/tables/{table}/join", json={"name": "Ala", "seat": seat})
        assert response.status_code == 422, (seat, response.text)
        assert response.json()["error"] == "bad_request" and "seat" in response.json()["message"]
    for body in ({"hints": "no"}, {"reveal": 0}, {"visibility": 1}, {"turn_timer": "30"}, {"turn_timer": True}):
        response = httpx.post(server.url + "/api/tables", json=body)
        assert response.status_code == 422, (body, response.text)
        assert response.json()["error"] == "bad_request"
    response = httpx.post(server.url + "/api/tables", content=b'{"turn_timer": NaN}',
                          headers={"content-type": "application/json"})
    assert response.status_code == 422 and "finite" in response.json()["message"], response.text
    # an integer where a number is asked for is fine
    assert httpx.post(server.url + "/api/tables", json={"turn_timer": 30}).status_code == 201
    assert httpx.get(server.url + f"/api/tables/{table}").json()["seats"][1]["open"]


def test_unknown_paths_and_wrong_methods_get_the_api_error_shape(server: ThreadServer) -> None:
    """A 404 for an unknown path and a 405 for a wrong method answered ``{"detail": ...}``, not the API's
    ``{"error", "message"}`` that every other refusal has."""
    cases = [("DELETE", "/api/tables/abc", 405, "method_not_allowed"), ("PUT", "/api/tables", 405,
             "method_not_allowed"), ("GET", "/api/nothing-here", 404, "not_found"),
             ("GET", "/api/tables/abc/join", 405, "method_not_allowed")]
    for method, path, status, code in cases:
        response = httpx.request(method, server.url + path)
        assert response.status_code == status, (method, path, response.text)
        body = response.json()
        assert body["error"] == code and body["message"], body


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
    assert new_table(server)  # and the server goes on


def test_the_number_of_open_tables_is_bounded(make_server: Any) -> None:
    """One client could create tables without end (2,000 in 15 s, ~27 KiB of memory each, all kept for an hour):
    past ``max_tables`` a new table is refused with 503 ``server_full``; quick-play too."""
    server: ThreadServer = make_server(max_tables=3)
    for _ in range(3):
        new_table(server)
    response = httpx.post(server.url + "/api/tables", json={})
    assert response.status_code == 503 and response.json()["error"] == "server_full", response.text
    response = httpx.post(server.url + "/api/quickplay", json={"name": "Ala"})
    assert response.status_code == 503 and response.json()["error"] == "server_full", response.text
    assert len(httpx.get(server.url + "/api/tables").json()) == 3


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
