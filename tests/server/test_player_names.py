"""The rules of a player's name, a profile's and a seat's (mizerka.server.players): no invisible character (every
default-ignorable code point), a unique form that is its own form (name_key is idempotent, and revision 0003 moves
the ids stored under the old one), and a page that opens by its id whatever the name holds ("/"), dots alone being
refused.

A seat's name (a join, a quick play) follows one rule with a profile's (:func:`mizerka.server.players.check_visible`):
a name that would pass for another player's or show as a blank ("Ala" + U+034F next to the real Ala, a Hangul
filler, a variation selector after a letter) is refused naming the character, and nobody is seated under it;
visible names of any script stay allowed, and an emoji's presentation selector is dropped, not refused."""

from __future__ import annotations

import itertools
import json
import unicodedata
from typing import Any
from urllib.parse import quote

import httpx
import pytest
import sqlalchemy as sa
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError
from server_helpers import ThreadServer, migrate

from mizerka.server.app import JoinRequest, QuickPlay
from mizerka.server.chat import BLANKS
from mizerka.server.players import DEFAULT_IGNORABLE, check_name, check_visible, name_key
from mizerka.server.tables import TableError


def one_round(name: str) -> str:
    """The name key as it was before it became idempotent: one round of NFKC and case folding."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


# -- name_key --------------------------------------------------------------------------------------

# characters whose case folding or compatibility form undoes NFKC with a combining mark after them, and marks
_TRICKY = "ßẞİĤǰΐΰﬀﬁﬅſẛᾀﬓ\u0345\u0307\u0301\u0316\u0331\u0302\u0308\u0342\u0313 "
names = st.one_of(st.text(), st.text(st.sampled_from(_TRICKY + "aesıiIj"), max_size=8))


@settings(max_examples=2000, deadline=None)
@given(names)
def test_the_name_key_is_its_own_key(name: str) -> None:
    key = name_key(name)
    assert name_key(key) == key


@settings(max_examples=2000, deadline=None)
@given(names)
def test_a_key_that_was_its_own_key_is_unchanged(name: str) -> None:
    """Stored ids stay valid: where one round already gave a fixed point, the key is that round's."""
    old = one_round(name)
    if one_round(old) == old:
        assert name_key(name) == old


def test_every_letter_with_a_combining_mark_has_a_key_that_is_its_own_key() -> None:
    """Latin, Greek and Cyrillic letters before each combining diacritical mark (628 pairs were not)."""
    marks = [chr(c) for c in range(0x300, 0x370)]
    bad = [f"U+{ord(ch):04X} U+{ord(mark):04X}" for ch in map(chr, range(0x530)) for mark in marks
           if name_key(name_key(ch + mark + "e")) != name_key(ch + mark + "e")]
    assert bad == []


def test_the_twin_forms_of_a_name_share_a_key() -> None:
    assert name_key("Straß\u0301e") == name_key("Stras\u015be") == name_key("STRASŚE") == "stras\u015be"
    assert name_key("Ala") == "ala" and name_key(" ＡＬＡ  kot ") == "ala kot"


# -- invisible characters --------------------------------------------------------------------------

IGNORABLE = [chr(c) for low, high in DEFAULT_IGNORABLE for c in range(low, high + 1)]


def test_the_default_ignorable_table_holds_the_characters_that_show_nothing() -> None:
    named = {0x034F, *range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0), 0x180B, 0x180C, 0x180D, 0x180F, 0x17B4,
             0x17B5, 0x115F, 0x1160, 0x3164, 0xFFA0, 0x00AD, 0x200B, 0x200D, 0x2060, 0xFEFF, 0x1D173, 0x1BCA0}
    assert named <= {ord(ch) for ch in IGNORABLE}
    assert all(low <= high for low, high in DEFAULT_IGNORABLE)
    assert all(a[1] < b[0] for a, b in itertools.pairwise(DEFAULT_IGNORABLE))
    # every format character is one but for Unicode's exceptions (prepended concatenation marks, interlinear
    # annotation and hieroglyph controls, to Unicode 15.1), which check_name refuses as format characters anyway
    shown = {0x0600, 0x0601, 0x0602, 0x0603, 0x0604, 0x0605, 0x06DD, 0x070F, 0x0890, 0x0891, 0x08E2, 0x110BD,
             0x110CD, 0xFFF9, 0xFFFA, 0xFFFB, *range(0x13430, 0x13440)}
    format_characters = {c for c in range(0x110000) if unicodedata.category(chr(c)) == "Cf"}
    assert format_characters - shown - {ord(ch) for ch in IGNORABLE} == set()


@pytest.mark.parametrize("where", ["Ala{}", "A{}la", "{}Ala"])
def test_every_default_ignorable_code_point_is_refused_by_name(where: str) -> None:
    accepted = []
    for ch in IGNORABLE:
        try:
            check_name(where.format(ch))
        except TableError as e:
            assert e.code == "bad_name" and f"U+{ord(ch):04X}" in e.message and "invisible" in e.message, e
        else:
            accepted.append(f"U+{ord(ch):04X}")
    assert accepted == []


@pytest.mark.parametrize("name", ["Zoë", "Łukasz", "José", "Ala Kot", "AC/DC", "..x", "a.b.", "Ðorđe", "😀", "ﷺ"])
def test_visible_names_stay_allowed(name: str) -> None:
    assert check_name(name) == (name, name_key(name))


@pytest.mark.parametrize("name", [".", "..", "...", " .. ", "．．", "\u2025", "\u2026"])
def test_a_name_of_dots_alone_is_refused(name: str) -> None:
    with pytest.raises(TableError, match="dots alone") as refused:
        check_name(name)
    assert refused.value.code == "bad_name"


# -- the API ---------------------------------------------------------------------------------------


def claim(server: ThreadServer, name: str) -> httpx.Response:
    return httpx.post(server.url + "/api/players", json={"name": name})


def page(server: ThreadServer, player_id: str) -> httpx.Response:
    """What players.js requests: ``/api/players/${encodeURIComponent(id)}``."""
    return httpx.get(server.url + "/api/players/" + quote(player_id, safe="-_.!~*'()"))


def test_a_profile_whose_name_folds_twice_opens_at_its_own_id_and_has_no_twin(server: ThreadServer) -> None:
    made = claim(server, "Straß\u0301e")
    assert made.status_code == 201, made.text
    player = made.json()["player"]
    assert player["id"] == "stras\u015be"
    found = page(server, player["id"])
    assert found.status_code == 200 and found.json()["name"] == "Straß\u0301e", found.text
    assert page(server, "STRASŚE").json()["id"] == player["id"]  # by name, ignoring case
    twin = claim(server, "Stras\u015be")
    assert twin.status_code == 409 and twin.json()["error"] == "name_taken", twin.text


def test_a_name_with_a_slash_has_a_page(server: ThreadServer) -> None:
    for name in ("AC/DC", "a/..", "../x", "/x/", "a%2Fb"):
        made = claim(server, name)
        assert made.status_code == 201, made.text
        player_id = made.json()["player"]["id"]
        found = page(server, player_id)
        assert found.status_code == 200 and found.json()["name"] == name, found.text
    assert page(server, "ac/dc").json()["name"] == "AC/DC"
    assert httpx.get(server.url + "/api/players/AC%2FDC").json()["id"] == "ac/dc"
    assert httpx.get(server.url + "/api/players/nobody/else").json()["error"] == "unknown_player"
    assert httpx.get(server.url + "/api/players/bot:expert").json()["kind"] == "bot"


@pytest.mark.parametrize(("name", "said"), [
    ("..", "dots alone"), (".", "dots alone"), ("．．", "dots alone"),
    ("Ala\u034f", "U+034F"), ("Ala\ufe0f", "U+FE0F"), ("Ala\U000e0100", "U+E0100"), ("Ala\u180b", "U+180B"),
    ("Ala\u17b4", "U+17B4"), ("Ala\u3164", "U+3164"), ("Ala\uffa0", "U+FFA0"), ("\u115fAla", "U+115F"),
])
def test_an_invisible_or_dotted_name_is_refused_by_the_api(server: ThreadServer, name: str, said: str) -> None:
    assert claim(server, "Ala").status_code == 201
    reply = claim(server, name)
    assert reply.status_code == 400 and reply.json()["error"] == "bad_name" and said in reply.json()["message"], (
        reply.text)


# -- revision 0003 ---------------------------------------------------------------------------------


def _profile(player_id: str, name: str, key_hash: str, created_at: float) -> dict[str, Any]:
    return {"id": player_id, "name": name, "kind": "human", "key_hash": key_hash, "created_at": created_at,
            "updated_at": created_at, "mu": 27.5, "sigma": 7.0, "games": 1, "wins": 1, "deals": 6, "deals_won": 4}


def _seat(player: str | None) -> dict[str, Any]:
    return {"kind": "human", "level": "random", "name": "x", "token_hash": None, "standin": False, "player": player}


def test_revision_0003_moves_an_old_style_id_to_its_own_key(database_url: str) -> None:
    from mizerka.server.db import Store, events_t, make_engine, players_t, results_t, tables_t

    migrate(database_url, "0002")
    old, new = "strass\u0301e", "stras\u015be"  # the id one round gave "Straß\u0301e", and its own key
    clash_old, clash_new = "ss\u0301a", "s\u015ba"  # an old-style id whose new one was claimed since
    seats = json.dumps([_seat(old), _seat(None), _seat("ala")])
    engine = make_engine(database_url)
    try:
        with engine.begin() as connection:
            connection.execute(players_t.insert(), [
                _profile(old, "Straß\u0301e", "a" * 64, 1.0), _profile("ala", "Ala", "b" * 64, 2.0),
                _profile(clash_old, "ß\u0301a", "c" * 64, 3.0), _profile(clash_new, "Sśa", "d" * 64, 4.0),
            ])
            connection.execute(tables_t.insert().values(
                id="t1", created_at=1.0, updated_at=1.0, status="finished", visibility="public",
                variant="standard", settings="{}", seats=seats, initial_seats=seats, first_dealer=0, decks="[]",
                salts="[]", parent=None, seq=1, summary=None))
            connection.execute(events_t.insert().values(
                table_id="t1", seq=1, kind="seat", deal_no=0, created_at=1.0,
                data=json.dumps({"public": {"seat": 0}, "private": {}, "server": {"state": _seat(old)}})))
            connection.execute(results_t.insert(), [
                {"table_id": "t1", "seat": seat, "player_id": player, "total": 5, "rank": 1, "won": True, "deals": 6,
                 "deals_won": 4, "mu_before": 25.0, "sigma_before": 8.3, "mu_after": 27.5, "sigma_after": 7.0,
                 "finished_at": 5.0}
                for seat, player in [(0, old), (1, clash_old), (2, "ala")]])
    finally:
        engine.dispose()

    store = Store(database_url)  # upgrades to the newest revision
    try:
        moved = store.player(new)
        assert moved is not None and moved.name == "Straß\u0301e" and moved.games == 1 and moved.mu == 27.5
        assert store.player(old) is None
        assert store.player_by_key("a" * 64) == moved  # the player's key still finds it
        assert store.player("ala") is not None  # an id that was its own key stays
        kept = store.player(clash_old)  # a clash: both profiles stay as they were
        assert kept is not None and kept.name == "ß\u0301a" and store.player_by_key("c" * 64) == kept
        assert store.player(clash_new) is not None and store.player_by_key("d" * 64) == store.player(clash_new)
        with store.engine.connect() as connection:
            results = dict(connection.execute(sa.select(results_t.c.seat, results_t.c.player_id)).all())
            row = connection.execute(sa.select(tables_t.c.seats, tables_t.c.initial_seats)).one()
            event = connection.execute(sa.select(events_t.c.data)).scalar_one()
        assert results == {0: new, 1: clash_old, 2: "ala"}
        for text in row:
            assert [s["player"] for s in json.loads(text)] == [new, None, "ala"]
        assert json.loads(event)["server"]["state"]["player"] == new
    finally:
        store.close()


# -- the names at a table --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("first", "second"), [("Zo\u00eb", "Zoe\u0308"), ("\u00c1", "A\u0301"),
                                               ("Ala", "\uff21\uff4c\uff41"), ("Ala", "ALA"), ("Ala Kot", "Ala  Kot")])
def test_a_seats_name_that_reads_as_one_taken_gets_a_number(first: str, second: str) -> None:
    """The table's names keep anyone from passing for another player (in the chat, the start's players, the match):
    compared by case alone, "Zoe" and a combining diaeresis stood beside "Zoë" written as one character, shown the
    same; names are now compared as profiles' are (name_key)."""
    from mizerka.server.tables import SeatState, Table, TableSettings

    table = Table.new("t", TableSettings(), [SeatState.human(), SeatState.human(), SeatState.bot("rules")], seed=1)
    table.join(first, token_hash="a")
    table.join(second, token_hash="b")
    assert table.player_names()[:2] == [first, f"{second} (2)"]
    assert table.match is not None and table.match.players[:2] == (first, f"{second} (2)")


@pytest.mark.parametrize("name", ["\u0301Ala", "\u0308"])
def test_a_name_that_begins_with_a_combining_mark_is_refused(name: str) -> None:
    """Such a seat's name was taken, and then the table's record could not be built: a record refuses it
    (:func:`mizerka.record.check_name`), so the server's names follow the record's rule."""
    from mizerka.record import RecordError
    from mizerka.record import check_name as record_check

    with pytest.raises(TableError, match="begins with the combining mark"):
        check_name(name)
    with pytest.raises(RecordError):
        record_check(name)
    assert check_name("Zoe\u0308")  # a mark after its letter is an accent


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
    assert set(body) == {"error", "message", "reason"} and body["error"] == "bad_request", body
    assert "name" in body["message"] and "invisible" in body["message"] and said in body["message"], body
    assert body["reason"]["code"] == "name_invisible_char" and body["reason"]["char"] == said, body  # for a client
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
