"""An audit of the lobby's REST endpoints (src/mizerka/server/app.py) with the input a careless or mischievous
client sends.

A listed table's name is shown in every lobby's open tables.  A name of blank-looking characters alone (the
Hangul filler U+3164, the empty braille pattern U+2800) passed the printable check and was listed as a blank row
that nobody could tell apart; a player's name obeys a rule against such characters (players.check_visible), and a
table's name, which the lobby builds from one, now refuses a name that shows nothing (422 ``bad_request``, naming
the field).  A name with a visible character and a blank-looking one, or no name at all, is still fine.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from server_helpers import SHORT, ThreadServer


@pytest.mark.parametrize(("path", "field"), [("/api/tables", "name"), ("/api/pair", "table_name")])
@pytest.mark.parametrize("blank", ["\u3164", "\u2800\u2800", " \u3164 \u115f ", "\u200b\u3164"])
def test_a_table_name_that_shows_nothing_is_refused(server: ThreadServer, path: str, field: str, blank: str) -> None:
    body: dict[str, Any] = {"variant": SHORT, field: blank}
    if path == "/api/pair":
        body["name"] = "Ala"
    answer = httpx.post(server.url + path, json=body)
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"] == "bad_request"
    assert answer.json()["message"].startswith(f"body.{field}:"), answer.text
    listed = httpx.get(server.url + "/api/tables").json()
    assert not [t for t in listed if t["name"] and not t["name"].strip("\u3164\u2800\u115f\u200b ")]


@pytest.mark.parametrize("name", ["", "   ", "Ala's table", "Stół \u3164 Ali", "ㅎㅎ"])
def test_a_table_name_that_shows_something_or_none_is_accepted(server: ThreadServer, name: str) -> None:
    answer = httpx.post(server.url + "/api/tables", json={"variant": SHORT, "name": name, "visibility": "private"})
    assert answer.status_code == 201, answer.text
    assert answer.json()["name"] == name.strip()
