"""A table id too long for any table (65 characters or more: text pasted onto the end of an invitation link) is an
unknown table in every ``/api/tables/{id}…`` path: 404 ``unknown_table`` with the message any unknown id gets, not
a 422 format error (whose English "String should have at most 64 characters" the browser showed on a Polish page).
Found by the browser audit of session 21; against a real server on 127.0.0.1.
"""

from __future__ import annotations

import httpx
from server_helpers import WS, ThreadServer


def test_an_over_long_table_id_is_an_unknown_table_in_every_table_path(server: ThreadServer) -> None:
    long_id = "x" * 65
    cases: list[tuple[str, str, object]] = [
        ("get", "/api/tables/{}", None),
        ("post", "/api/tables/{}/join", {"name": "Ala"}),
        ("post", "/api/tables/{}/leave", {"token": "t" * 20}),
        ("get", "/api/tables/{}/sheet", None),
        ("get", "/api/tables/{}/record", None),
        ("get", "/api/tables/{}/deals/1/review", None),
    ]
    for method, path, body in cases:
        short = httpx.request(method, server.url + path.format("nope"), json=body)
        assert (short.status_code, short.json()["error"]) == (404, "unknown_table"), (path, short.text)
        response = httpx.request(method, server.url + path.format(long_id), json=body)
        assert response.status_code == 404, (path, response.text)
        # the very answer an unknown short id gets from this endpoint, with the long id in it
        assert response.json() == {"error": "unknown_table",
                                   "message": short.json()["message"].replace("'nope'", repr(long_id))}, path


def test_an_over_long_table_id_with_a_bad_body_is_still_an_unknown_table(server: ThreadServer) -> None:
    # the body is refused too (an empty name), but no table could have this id: the answer is about the table
    response = httpx.post(server.url + "/api/tables/" + "y" * 200 + "/join", json={"name": ""})
    assert (response.status_code, response.json()["error"]) == (404, "unknown_table"), response.text


def test_other_format_errors_keep_their_422(server: ThreadServer) -> None:
    response = httpx.post(server.url + "/api/tables/nope/join", json={"name": ""})
    assert (response.status_code, response.json()["error"]) == (422, "bad_request"), response.text
    response = httpx.get(server.url + "/api/tables/nope/record", params={"format": "pdf"})
    assert (response.status_code, response.json()["error"]) == (422, "bad_request"), response.text


def test_an_over_long_table_id_in_a_hello_is_an_unknown_table(server: ThreadServer) -> None:
    """The websocket's hello said "hello: table: String should have at most 64 characters" (a spectator's
    ``&watch=1`` link with text pasted on its end); it is an unknown table there too, and the connection lives."""
    ws = WS(server.ws_url)
    short = ws.hello("nope")
    assert (short["type"], short["code"]) == ("error", "unknown_table"), short
    reply = ws.hello("z" * 65)
    assert (reply["type"], reply["code"]) == ("error", "unknown_table"), reply
    assert len(reply["message"]) < 100
    assert ws.request({"type": "ping"})["type"] == "pong"
    ws.close()
