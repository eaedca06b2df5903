"""Every refusal of a player's name carries a machine-readable ``reason`` beside its English message: the
profile's name (``POST /api/players``: ``bad_name``, ``name_taken``, a 422 about ``body.name``) and a seat's (a join,
a quick play, a pairing: a 422 about ``body.name``, ``bad_name``), so that a client says why in its own language
(the browser does: js/i18n.js ``nameRefusalText``).  The reason is ``{"code": "name_…", …its parameters}``, one of
:data:`mizerka.server.players.NAME_REASONS`; the message stays the server's English sentence.
"""

from __future__ import annotations

from typing import Any

import httpx
from server_helpers import SHORT, ThreadServer

from mizerka.server.players import NAME_REASONS

ZWSP = {"code": "name_unprintable_char", "char": "U+200B", "char_name": "ZERO WIDTH SPACE"}
FILLER = {"code": "name_invisible_char", "char": "U+3164", "char_name": "HANGUL FILLER"}
MARK = {"code": "name_leading_mark", "char": "U+0301", "char_name": "COMBINING ACUTE ACCENT"}

# a claimed name (POST /api/players, after "Ala" was claimed): the body sent, the status, the code, the reason, and
# a word of the English message, which stays as it was
CLAIMS: list[tuple[dict[str, Any], int, str, dict[str, Any], str]] = [
    ({"name": ""}, 422, "bad_request", {"code": "name_empty"}, "at least 1 character"),
    ({"name": "   "}, 422, "bad_request", {"code": "name_empty"}, "not only spaces"),
    ({}, 422, "bad_request", {"code": "name_needed"}, "Field required"),
    ({"name": "A" * 41}, 422, "bad_request", {"code": "name_too_long", "max": 40}, "at most 40 characters"),
    ({"name": "Ala\u200b"}, 422, "bad_request", ZWSP, "unprintable character U+200B (ZERO WIDTH SPACE)"),
    ({"name": "Ala\u3164"}, 400, "bad_name", FILLER, "invisible character U+3164 (HANGUL FILLER)"),
    ({"name": "\u0301Ala"}, 400, "bad_name", MARK, "combining mark U+0301"),
    ({"name": " .. "}, 400, "bad_name", {"code": "name_dots"}, "dots alone"),
    ({"name": "Bot:Expert"}, 400, "bad_name", {"code": "name_bot_prefix", "prefix": "bot:"}, "computer levels"),
    ({"name": "\ufdfa" * 7}, 400, "bad_name", {"code": "name_expands_too_long", "length": 126, "max": 120},
     "grows to 126 characters"),
    ({"name": "ＡＬＡ"}, 409, "name_taken", {"code": "name_taken"}, "is taken"),
]

# a seat's name, at each endpoint that takes one (the table's id filled in)
SEATS: list[tuple[str, dict[str, Any], dict[str, Any], str]] = [
    ("/api/tables/{table}/join", {"name": "Ola\u3164"}, FILLER, "U+3164"),
    ("/api/tables/{table}/join", {"name": "Ola\u200b"}, ZWSP, "U+200B"),
    ("/api/tables/{table}/join", {"name": "\u0301Ola"}, MARK, "U+0301"),
    ("/api/tables/{table}/join", {"name": "O" * 41}, {"code": "name_too_long", "max": 40}, "at most 40"),
    ("/api/tables/{table}/join", {"name": " "}, {"code": "name_empty"}, "not only spaces"),
    ("/api/quickplay", {"name": "Ola\u3164", "variant": SHORT}, FILLER, "U+3164"),
    ("/api/pair", {"name": "\u0301Ola", "variant": SHORT}, MARK, "U+0301"),
]


def refused(reply: httpx.Response, status: int, code: str, reason: dict[str, Any], said: str) -> None:
    body = reply.json()
    assert (reply.status_code, body["error"], body.get("reason")) == (status, code, reason), reply.text
    assert said in body["message"], reply.text


def test_every_reason_is_tried_here() -> None:
    tried = {case[3]["code"] for case in CLAIMS} | {case[2]["code"] for case in SEATS}
    assert tried | {"name_retired", "name_not_profile", "name_needed"} == set(NAME_REASONS)


def test_a_refused_profile_name_says_why(server: ThreadServer) -> None:
    assert httpx.post(server.url + "/api/players", json={"name": "Ala"}).status_code == 201
    for body, status, code, reason, said in CLAIMS:
        refused(httpx.post(server.url + "/api/players", json=body), status, code, reason, said)
    # a deleted profile's name is never another player's
    key = httpx.post(server.url + "/api/players", json={"name": "Ela"}).json()["key"]
    assert httpx.delete(server.url + "/api/profile", headers={"Authorization": f"Bearer {key}"}).status_code == 204
    refused(httpx.post(server.url + "/api/players", json={"name": "ela"}), 409, "name_taken", {"code": "name_retired"},
            "deleted profile")


def test_a_refused_seat_name_says_why(server: ThreadServer) -> None:
    table = httpx.post(server.url + "/api/tables", json={"variant": SHORT}).json()["id"]
    for path, body, reason, said in SEATS:
        refused(httpx.post(server.url + path.format(table=table), json=body), 422, "bad_request", reason, said)
    key = httpx.post(server.url + "/api/players", json={"name": "Ala"}).json()["key"]
    join = server.url + f"/api/tables/{table}/join"
    refused(httpx.post(join, json={"player_key": key, "name": "Ola"}), 400, "bad_name",
            {"code": "name_not_profile", "profile": "Ala"}, "not 'Ola''s")
    refused(httpx.post(join, json={}), 400, "bad_name", {"code": "name_needed"}, "a name is needed")
    assert all(seat["open"] for seat in httpx.get(server.url + f"/api/tables/{table}").json()["seats"])
    assert len(server.hub.tables) == 1  # no refused quick play or pairing made a table


def test_other_refusals_carry_no_name_reason(server: ThreadServer) -> None:
    """A table's name is not a player's, and a name that is not text is a malformed request: no reason."""
    for path, body in (("/api/tables", {"name": "T" * 61}), ("/api/players", {"name": 5}),
                       ("/api/pair", {"name": "Ola", "table_name": "\u3164"})):
        reply = httpx.post(server.url + path, json=body)
        assert reply.status_code == 422 and "reason" not in reply.json(), reply.text
