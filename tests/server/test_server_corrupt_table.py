"""A table whose stored events do not fit it (a damaged database) is the server's fault, not the client's: every way
to ask for it answers ``corrupt`` with a 5xx status (it was 400, "your request was bad", which no retry or fix on
the client's side could change), the message names the table and the event, and the server goes on serving the
others."""

from __future__ import annotations

from typing import Any

import httpx
import sqlalchemy as sa
from server_helpers import WS, ThreadServer, new_table, play, unload

from mizerka.server.db import normalize_url


def test_a_table_whose_stored_events_do_not_fit_answers_corrupt_with_500(make_server: Any, database_url: str) -> None:
    server: ThreadServer = make_server()
    table, token = new_table(server, "standard,contracts=NT+MZ")
    play(server, table, token, lambda v: v["phase"] == "over")
    unload(server, table)
    healthy, healthy_token = new_table(server, "standard,contracts=NT+MZ")
    engine = sa.create_engine(normalize_url(database_url))
    try:
        with engine.begin() as connection:  # one event lost from the middle of the journal
            connection.execute(sa.text("DELETE FROM events WHERE table_id = :t AND seq = 5"), {"t": table})
    finally:
        engine.dispose()

    for path in ("", "/sheet", "/record"):
        reply = httpx.get(f"{server.url}/api/tables/{table}{path}", headers={"Authorization": f"Bearer {token}"})
        assert reply.status_code == 500, (path, reply.status_code, reply.text)
        error = reply.json()
        assert error["error"] == "corrupt" and table in error["message"] and "event" in error["message"], error
    ws = WS(server.ws_url)
    try:
        answer = ws.hello(table, token)
        assert answer["type"] == "error" and answer["code"] == "corrupt", answer
        assert ws.request({"type": "ping", "id": 1}) == {"type": "pong", "id": 1}  # the connection lives on
    finally:
        ws.close()
    assert httpx.get(f"{server.url}/api/tables/{healthy}").status_code == 200  # the others are served
    ws = WS(server.ws_url)
    try:
        assert ws.hello(healthy, healthy_token)["type"] == "welcome"
    finally:
        ws.close()
