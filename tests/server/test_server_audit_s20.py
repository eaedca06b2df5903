"""The lobby API where an audit (session 20) found it wrong: seat names that passed for another player or showed
as a blank, a bot level in a table's seats answered with another code than the documented one, and a long
``Authorization`` header answered 422 where the documented refusal is 403.

Every test runs a real server on 127.0.0.1 over SQLite, or PostgreSQL when MIZERKA_TEST_DATABASE_URL is set.
"""

from __future__ import annotations

import unicodedata
from typing import Any

import httpx
import pytest
from pydantic import ValidationError
from server_helpers import ThreadServer, new_table

from mizerka.bots import BOT_LEVELS
from mizerka.server.app import JoinRequest, QuickPlay
from mizerka.server.chat import BLANKS
from mizerka.server.players import DEFAULT_IGNORABLE, check_name, check_visible
from mizerka.server.tables import TableError

# -- seat names: no invisible character ------------------------------------------------------------

HUMANS = {"seats": [{"kind": "human"}] * 3}


def open_table(server: ThreadServer, body: dict[str, Any] | None = None) -> str:
    created = httpx.post(server.url + "/api/tables", json=HUMANS if body is None else body)
    assert created.status_code == 201, created.text
    return str(created.json()["id"])


def seat_names(server: ThreadServer, table: str) -> list[str | None]:
    return [seat["name"] for seat in httpx.get(server.url + f"/api/tables/{table}").json()["seats"]]


INVISIBLE = [
    ("Ala\u034f", "U+034F"),  # combining grapheme joiner: shows as "Ala" next to the real Ala
    ("\u3164", "U+3164"),  # Hangul filler: a blank name
    ("Ala\ufe00", "U+FE00"),  # a variation selector
    ("Ala\u17b4", "U+17B4"),  # a Khmer inherent vowel: draws nothing
    ("\u2800\u2800", "U+2800"),  # the empty braille pattern: blank
    ("Ala\u180b", "U+180B"),  # a Mongolian free variation selector
    ("Ala\U000e0100", "U+E0100"),  # a supplementary variation selector
    ("\u115fAla", "U+115F"),  # a Hangul choseong filler
]


@pytest.mark.parametrize(("name", "said"), INVISIBLE)
def test_a_seat_name_with_an_invisible_character_is_refused_at_a_join(
    server: ThreadServer, name: str, said: str,
) -> None:
    table = open_table(server)
    assert httpx.post(server.url + f"/api/tables/{table}/join", json={"name": "Ala"}).status_code == 200
    reply = httpx.post(server.url + f"/api/tables/{table}/join", json={"name": name})
    assert reply.status_code == 422, reply.text
    body = reply.json()
    assert set(body) == {"error", "message"} and body["error"] == "bad_request", body
    assert "name" in body["message"] and "invisible" in body["message"] and said in body["message"], body
    assert seat_names(server, table) == ["Ala", None, None]  # nobody was seated under it


@pytest.mark.parametrize(("name", "said"), INVISIBLE[:3])
def test_a_seat_name_with_an_invisible_character_is_refused_at_quick_play(
    server: ThreadServer, name: str, said: str,
) -> None:
    reply = httpx.post(server.url + "/api/quickplay", json={"name": name, "level": "random"})
    assert reply.status_code == 422 and reply.json()["error"] == "bad_request", reply.text
    assert said in reply.json()["message"] and "invisible" in reply.json()["message"], reply.text
    assert server.hub.tables == {}  # no table was made for the refused name


def test_visible_seat_names_of_any_script_stay_allowed(server: ThreadServer) -> None:
    names = ["Łukasz Żółć", "Иван Петров", "王小明", "😀 Ala", "Zoe\u0308", "Ala", "..", "bot:x", "AC/DC"]
    shown: list[str | None] = []
    for start in range(0, len(names), 3):
        batch = names[start:start + 3]
        table = open_table(server)
        for name in batch:
            reply = httpx.post(server.url + f"/api/tables/{table}/join", json={"name": f"  {name} "})
            assert reply.status_code == 200, (name, reply.text)
        shown += seat_names(server, table)[:len(batch)]
    assert shown == ["Łukasz Żółć", "Иван Петров", "王小明", "😀 Ala", "Zoe\u0308", "Ala", "..", "bot:x", "AC/DC"]
    quick = httpx.post(server.url + "/api/quickplay", json={"name": "Ala Kot 🐱", "level": "random"})
    assert quick.status_code == 201 and quick.json()["table"]["seats"][0]["name"] == "Ala Kot 🐱", quick.text


@pytest.mark.parametrize(("name", "said"), [("A\u00adla", "U+00AD (SOFT HYPHEN)"), ("A\u200bla", "U+200B"),
                                             ("Ala\u202e", "U+202E"), ("A\x1bla", "U+001B")])
def test_an_unprintable_seat_name_is_refused_naming_the_character(server: ThreadServer, name: str, said: str) -> None:
    table = open_table(server)
    reply = httpx.post(server.url + f"/api/tables/{table}/join", json={"name": name})
    assert reply.status_code == 422 and reply.json()["error"] == "bad_request", reply.text
    assert said in reply.json()["message"] and "printable" in reply.json()["message"], reply.text


def _seat_name_refused(name: str) -> bool:
    """Whether a join and a quick play refuse *name* (their bodies are checked as the server checks them)."""
    refused = []
    for model in (JoinRequest, QuickPlay):
        try:
            model.model_validate({"name": name})
        except ValidationError:
            refused.append(True)
        else:
            refused.append(False)
    assert refused[0] == refused[1], name
    return refused[0]


def _profile_name_refused(name: str) -> bool:
    try:
        check_name(name)
    except TableError:
        return True
    return False


def test_seat_names_and_profile_names_refuse_the_same_characters() -> None:
    """One rule (mizerka.server.players.check_visible) for both: every default-ignorable code point, blank
    filler and format character is refused in either, and the visible ones are allowed in both."""
    suspects = {chr(c) for low, high in DEFAULT_IGNORABLE for c in range(low, high + 1)} | set(BLANKS)
    suspects |= {chr(c) for c in range(0x110000) if unicodedata.category(chr(c)) in ("Cf", "Zl", "Zp")}
    differ = [f"U+{ord(ch):04X}" for ch in sorted(suspects)
              if not (_seat_name_refused(f"A{ch}la") and _profile_name_refused(f"A{ch}la"))]
    assert differ == []
    for name in ("Zoë", "Łukasz", "Ðorđe", "Иван", "王小明", "😀", "❤", "Ala Kot", "ﷺ", "A\u0301la"):
        assert not _seat_name_refused(name) and not _profile_name_refused(name), name
        check_visible(name)



def test_an_emojis_presentation_selector_is_dropped_not_refused(server: ThreadServer) -> None:
    """A phone keyboard writes ❤ as ❤ + U+FE0F: such a name is taken, as the symbol alone, for a seat and for a
    profile; after a letter, where the selector draws nothing ("Ala" + U+FE0F passing for Ala), it is refused."""
    for name in ("Ola \u2764\ufe0f", "\u263a\ufe0e Ola"):
        assert not _seat_name_refused(name) and not _profile_name_refused(name), name
        assert _seat_name_refused(name.replace("\u2764", "a").replace("\u263a", "a"))
    table = open_table(server)
    reply = httpx.post(server.url + f"/api/tables/{table}/join", json={"name": "Ola \u2764\ufe0f"})
    assert reply.status_code == 200, reply.text
    assert seat_names(server, table)[0] == "Ola \u2764"
    assert check_name("Ola \u2764\ufe0f") == check_name("Ola \u2764")  # one profile name, not two look-alikes
    assert _profile_name_refused("Ala\ufe0f") and _seat_name_refused("Ala\ufe0f")


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
