"""The lobby's REST API against a real uvicorn, fuzzed with schemathesis; the websocket decoder with hypothesis;
crash recovery: kill -9 mid-deal, restart, and the table resumes exactly where its record says.

Every refusal of the REST API has the API's shape, ``{"error", "message"}``, with its documented status and code: a
body of the wrong type is refused naming the field, never coerced (``"seat": true`` took seat 1, ``"hints": "no"``
turned hints off); an unknown path is 404 ``not_found`` and a wrong method 405 ``method_not_allowed``; a bot level
the server does not offer, in a table's seats, is 400 ``bad_bot`` naming it and the levels offered (a level of
another type being a schema error); a long ``Authorization`` header is the documented 403 (``bad_token`` at a
table's endpoints, ``bad_key`` at the profile's), not a schema's 422."""

from __future__ import annotations

import contextlib
import json
import os
import signal
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from server_helpers import WS, ThreadServer, free_port, new_table, post_table, spawn_server

from mizerka.bots import BOT_LEVELS
from mizerka.record import read_text
from mizerka.server.protocol import CLIENT_TYPES, ERROR_CODES, ProtocolError, decode_client_message


def test_lobby_create_join_list_history_and_export(server: ThreadServer) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "level": "rules"}, {"kind": "bot", "level": "random"}]
    created = httpx.post(server.url + "/api/tables",
                         json={"name": "Friday", "variant": "standard,contracts=NT", "seats": seats})
    assert created.status_code == 201
    table = created.json()
    assert table["status"] == "waiting" and table["seats"][0]["open"] and table["invite"].endswith(table["id"])
    listed = httpx.get(server.url + "/api/tables").json()
    assert [t["id"] for t in listed] == [table["id"]]
    private = httpx.post(server.url + "/api/tables", json={"visibility": "private"}).json()
    assert private["id"] not in [t["id"] for t in httpx.get(server.url + "/api/tables").json()]
    assert httpx.post(server.url + f"/api/tables/{table['id']}/record").status_code == 405
    assert httpx.get(server.url + f"/api/tables/{table['id']}/record").json()["error"] == "not_over"
    joined = httpx.post(server.url + f"/api/tables/{table['id']}/join", json={"name": "Ala"}).json()
    again = httpx.post(server.url + f"/api/tables/{table['id']}/join", json={"name": "Bolek", "seat": 0})
    assert again.status_code == 409 and again.json()["error"] == "seat_taken"
    ws = WS(server.ws_url)
    ws.hello(table["id"], joined["token"])
    while ws.view is None or ws.view["phase"] != "over":
        view = ws.view
        if view is not None and view["your_turn"]:
            ws.request({"type": "act", "action": view["legal"][0] if view["legal"] else "keep"})
        else:
            ws.recv()
    ws.close()
    record = httpx.get(server.url + f"/api/tables/{table['id']}/record")
    parsed = read_text(record.text)
    assert parsed.is_over and len(parsed.deals) == 3
    assert parsed.verify_commitments() == (1, 2, 3)
    as_json = httpx.get(server.url + f"/api/tables/{table['id']}/record", params={"format": "json"})
    assert json.loads(as_json.text)["format"] == "mizerka-record"
    history = httpx.get(server.url + "/api/history").json()
    assert [h["id"] for h in history] == [table["id"]] and sum(history[0]["totals"]) == 0


def test_bad_requests_get_specific_errors(server: ThreadServer) -> None:
    cases: list[tuple[str, str, Any, int, str]] = [
        ("post", "/api/tables", {"variant": "chess"}, 400, "bad_variant"),
        ("post", "/api/tables", {"variant": "standard,uses=²"}, 400, "bad_variant"),  # '²'.isdigit(), int('²') fails
        ("post", "/api/quickplay", {"name": "Ala", "variant": "standard,first_dealer=¹"}, 400, "bad_variant"),
        ("post", "/api/tables", {"name": "Friday\x00\x1b[31m"}, 422, "bad_request"),
        ("post", "/api/tables", {"seats": [{"kind": "human"}]}, 400, "bad_seats"),
        ("post", "/api/tables", {"seats": [{"kind": "robot"}] * 3}, 422, "bad_request"),
        ("post", "/api/tables", {"turn_timer": 1}, 422, "bad_request"),
        ("post", "/api/tables/nope/join", {"name": "Ala"}, 404, "unknown_table"),
        ("post", "/api/quickplay", {"name": "   "}, 422, "bad_request"),
        ("post", "/api/quickplay", {"name": "Ala", "level": "grandmaster"}, 400, "bad_bot"),
        ("post", "/api/quickplay", {"name": "Ala", "level": 3}, 422, "bad_request"),
        ("get", "/api/tables/nope", None, 404, "unknown_table"),
        ("get", "/api/history?limit=0", None, 422, "bad_request"),
    ]
    for method, path, body, status, code in cases:
        response = httpx.request(method, server.url + path, json=body)
        assert (response.status_code, response.json()["error"]) == (status, code), (path, body, response.text)
    assert httpx.get(server.url + "/api/tables").json() == []


def test_rest_bodies_of_the_wrong_type_are_refused_not_coerced(server: ThreadServer) -> None:
    """``"seat": true`` took seat 1, ``"seat": "2"`` seat 2, ``"hints": "no"`` turned hints off: wrong types were
    coerced instead of being refused with a message that names the field."""
    table = post_table(server)
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


def test_openapi_schema_fuzzed_with_schemathesis(server: ThreadServer) -> None:
    schema = schemathesis.openapi.from_url(server.url + "/api/openapi.json")
    counted = 0
    for result in schema.get_all_operations():
        operation = result.ok()
        for mode in (GenerationMode.NEGATIVE, GenerationMode.POSITIVE):
            strategy = operation.as_strategy(generation_mode=mode)

            @settings(max_examples=15, deadline=None, database=None, suppress_health_check=list(HealthCheck))
            @given(case=strategy)
            def run(case: Any) -> None:
                nonlocal counted
                before = len(httpx.get(server.url + "/api/tables").json())
                response = case.call(base_url=server.url, timeout=10)
                case.validate_response(response, checks=[not_a_server_error])
                counted += 1
                if response.status_code >= 400:  # a refused request: an error reply, and nothing changed
                    body = response.json()
                    # (a refused player's name also says why: a "reason")
                    assert set(body) - {"reason"} == {"error", "message"} or "detail" in body, body
                    assert len(httpx.get(server.url + "/api/tables").json()) == before

            try:
                run()
            except Unsatisfiable:  # nothing to break in an operation without parameters or body
                assert mode is GenerationMode.NEGATIVE and not operation.body and not operation.query
    assert counted > 50


@settings(max_examples=400, deadline=None)
@given(st.one_of(
    st.text(max_size=300),
    st.binary(max_size=300),
    st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
                 lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                 max_leaves=12).map(json.dumps),
    st.fixed_dictionaries({"type": st.sampled_from(CLIENT_TYPES)},
                          optional={"id": st.integers() | st.text(max_size=5), "protocol": st.integers(),
                                    "table": st.text(max_size=70), "token": st.text(max_size=130) | st.none(),
                                    "last_seq": st.integers(), "action": st.text(max_size=210),
                                    "seq": st.integers() | st.text(max_size=3), "x": st.integers()}).map(json.dumps),
))
def test_the_decoder_never_crashes(raw: str | bytes) -> None:
    try:
        message = decode_client_message(raw)
    except ProtocolError as error:
        assert error.code in ERROR_CODES and error.message
    else:
        assert message.type in CLIENT_TYPES


def test_kill_9_mid_deal_and_the_table_resumes_identical(database_url: str, tmp_path: Any) -> None:
    port = free_port()
    options = ("--bot-delay", "0", "--grace", "600")
    process = spawn_server(database_url, port, *options)
    url = f"http://127.0.0.1:{port}"
    try:
        created = httpx.post(url + "/api/tables", json={"seats": [{"kind": "human"}, {"kind": "human"},
                                                                  {"kind": "bot", "level": "rules"}]}).json()
        tokens = [httpx.post(url + f"/api/tables/{created['id']}/join", json={"name": n}).json()["token"]
                  for n in ("Ala", "Bolek")]
        clients = [WS(f"ws://127.0.0.1:{port}/ws") for _ in tokens]
        for ws, token in zip(clients, tokens, strict=True):
            ws.hello(created["id"], token)
        acked = 0
        while acked < 30:  # into the second trick or beyond, mid-deal
            for ws in clients:
                while ws.view is not None and ws.view["your_turn"]:
                    view = ws.view
                    reply = ws.request({"type": "act", "action": view["legal"][-1] if view["legal"] else "keep",
                                        "seq": ws.seq})
                    if reply["type"] == "ack":
                        acked += 1
                if ws.view is not None and not ws.view["your_turn"]:
                    with contextlib.suppress(TimeoutError):
                        ws.recv(timeout=0.2)
        last = clients[0]
        before = {"seq": last.seq, "view": last.view}
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=10)
        for ws in clients:
            ws.close()
    finally:
        if process.poll() is None:
            process.kill()
    process = spawn_server(database_url, port, *options)
    try:
        ws = WS(f"ws://127.0.0.1:{port}/ws")
        welcome = ws.hello(created["id"], tokens[0], last_seq=0)
        # every acknowledged event is there, with the same numbers; the state is the one the events describe
        assert welcome["seq"] >= before["seq"]
        numbers = [e["seq"] for e in welcome["events"]]
        assert numbers == list(range(1, welcome["seq"] + 1))
        seen = {m["seq"]: m["event"] for m in last.log if m["type"] == "event"}
        for event in welcome["events"]:
            if event["seq"] in seen:
                assert event["event"] == seen[event["seq"]]
        if welcome["seq"] == before["seq"]:
            view, old = dict(welcome["view"]), dict(before["view"] or {})
            for key in ("players",):  # connection state differs after a restart
                view.pop(key)
                old.pop(key)
            for row in view["score_sheet"] + old.get("score_sheet", []):
                row.pop("dd")  # double-dummy values live in memory only: a restart forgets them (docs/server.md)
            assert view == old
        ws.close()
    finally:
        process.kill()
        process.wait(timeout=10)


@pytest.mark.parametrize("spec", ["standard", "no-exchange"])
def test_restart_replays_to_the_same_state(make_server: Any, spec: str) -> None:
    server: ThreadServer = make_server()
    joined = httpx.post(server.url + "/api/quickplay", json={"name": "Ala", "variant": spec}).json()
    ws = WS(server.ws_url)
    ws.hello(joined["table"]["id"], joined["token"])
    while ws.view is None or ws.view["deal_no"] < 3:
        view = ws.view
        if view is not None and view["your_turn"]:
            ws.request({"type": "act", "action": view["legal"][0] if view["legal"] else "keep"})
        else:
            ws.recv()
    ws.close()
    table_id = joined["table"]["id"]
    live = server.hub.tables[table_id]
    server.stop()
    original = live.table
    again: ThreadServer = make_server()
    restored = again.hub.tables[table_id].table
    assert restored.seq == original.seq and restored.match is not None and original.match is not None
    assert restored.match.history() == original.match.history()
    assert [s.to_json() for s in restored.seats] == [s.to_json() for s in original.seats]
    assert [e.render(0) for e in restored.events] == [e.render(0) for e in original.events]


def test_head_and_the_api_root_and_unreadable_bodies_get_the_apis_answers(server: ThreadServer) -> None:
    """Found by an audit: HEAD on a GET endpoint was "not found" (FastAPI's routes have no HEAD, and the
    browser files' mount at "/" took it); ``/api`` itself answered in Starlette's shape; a body nested too deeply or
    not UTF-8 was a bare 400 "There was an error parsing the body"; a join's seat 4 or more was 422 (a schema bound)
    where seat 3 is ``bad_seat``."""
    for path in ("/api/meta", "/api/tables", "/api/history", "/api/leaderboard"):
        got, head = httpx.get(server.url + path), httpx.head(server.url + path)
        assert (head.status_code, head.content) == (200, b""), path
        assert head.headers["content-type"] == got.headers["content-type"], path
    missing = httpx.head(server.url + "/api/tables/nope")
    assert (missing.status_code, missing.content) == (404, b"")
    root = httpx.get(server.url + "/api")
    assert (root.status_code, root.json()["error"]) == (404, "not_found")

    nested = '{"name": ' + "[" * 5000 + "]" * 5000 + "}"
    utf8 = b'{"name": "Ala\xff"}'
    for body, message in ((nested.encode(), "nested too deeply"), (utf8, "not UTF-8 text (byte 13)")):
        for path in ("/api/tables", "/api/scorepad"):
            response = httpx.post(server.url + path, content=body, headers={"content-type": "application/json"})
            assert (response.status_code, response.json()["error"]) == (422, "bad_request"), (path, response.text)
            assert message in response.json()["message"], response.text
    assert httpx.get(server.url + "/api/tables").json() == []  # nothing was made

    table = httpx.post(server.url + "/api/tables", json={}).json()["id"]
    for seat in (3, 4, -1, 10**30):
        response = httpx.post(f"{server.url}/api/tables/{table}/join", json={"name": "Ala", "seat": seat})
        assert (response.status_code, response.json()["error"]) == (400, "bad_seat"), (seat, response.text)
        assert len(response.json()["message"]) < 60
    assert all(s["name"] is None for s in httpx.get(f"{server.url}/api/tables/{table}").json()["seats"])


# -- a bot level the server does not offer, in a table's seats ------------------------------------


@pytest.mark.parametrize(("level", "shown"), [
    ("grandmaster", "'grandmaster'"), ("", "''"), ("Rules", "'Rules'"), ("x" * 3000, repr("x" * 40 + "…")),
])
def test_an_unknown_bot_level_in_a_tables_seats_is_a_400_bad_bot_naming_it(
    server: ThreadServer, level: str, shown: str,
) -> None:
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": level}]
    reply = httpx.post(server.url + "/api/tables", json={"seats": seats})
    assert reply.status_code == 400, reply.text
    body = reply.json()
    assert set(body) == {"error", "message"} and body["error"] == "bad_bot", body
    assert shown in body["message"] and all(known in body["message"] for known in BOT_LEVELS), body
    assert len(body["message"]) < 200
    assert server.hub.tables == {}  # nothing was made


def test_the_offered_bot_levels_still_make_a_table_and_a_level_of_another_type_is_a_schema_error(
    server: ThreadServer,
) -> None:
    for level in BOT_LEVELS:
        seats = [{"kind": "human"}, {"kind": "bot", "level": level}, {"kind": "bot"}]
        made = httpx.post(server.url + "/api/tables", json={"seats": seats})
        assert made.status_code == 201, made.text
        assert [s["bot"] for s in made.json()["seats"]] == [None, level, "rules"]  # "rules" when not given
    typed = httpx.post(server.url + "/api/tables", json={"seats": [{"kind": "human"}] * 2 + [
        {"kind": "bot", "level": 5}]})
    assert typed.status_code == 422 and typed.json()["error"] == "bad_request", typed.text
    human = httpx.post(server.url + "/api/tables", json={"seats": [{"kind": "human"}] * 2 + [
        {"kind": "human", "level": "grandmaster"}]})
    assert human.status_code == 400 and human.json()["error"] == "bad_seats", human.text


# -- a long Authorization header: the documented 403, not a schema's 422 ---------------------------

LONG_HEADERS = ["Bearer " + "x" * 200, "Bearer " + "x" * 600, "x" * 1000]


@pytest.mark.parametrize("spectators", [True, False])
def test_a_long_authorization_header_is_a_403_bad_token_at_every_table_endpoint(
    server: ThreadServer, spectators: bool,
) -> None:
    table, token = new_table(server, spectators=spectators)
    paths = [f"/api/tables/{table}/record", f"/api/tables/{table}/record?format=json", f"/api/tables/{table}/sheet",
             f"/api/tables/{table}/deals/1/review"]
    for path in paths:
        for header in LONG_HEADERS:
            reply = httpx.get(server.url + path, headers={"Authorization": header})
            assert reply.status_code == 403 and reply.json()["error"] == "bad_token", (path, len(header), reply.text)
        # the seat's own token still passes the check (the answer is then about the match: nothing finished yet)
        mine = httpx.get(server.url + path, headers={"Authorization": f"Bearer {token}"})
        assert mine.status_code not in (403, 422), (path, mine.text)


def test_a_long_authorization_header_is_a_403_bad_key_at_the_profile_endpoints(server: ThreadServer) -> None:
    for header in LONG_HEADERS:
        for method in ("GET", "DELETE"):
            reply = httpx.request(method, server.url + "/api/profile", headers={"Authorization": header})
            assert reply.status_code == 403 and reply.json()["error"] == "bad_key", (method, len(header), reply.text)
