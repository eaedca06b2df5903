"""Every refusal of a score pad's new match (``POST /api/scorepad``, 400 ``bad_setup``) carries a machine-readable
``reason`` beside its English message, as a refused name in the lobby does: the names (with ``player``, the name's
number from 1; the lobby's codes where the meaning is the same), the number of names, the first dealer and the
variant, so that the page says why in its own language (js/scorepad.js).  The message stays the score keeper's
English sentence, word for word.

A name of any length or characters is the score keeper's to judge, not the schema's: a name over 200 characters and
one holding a lone surrogate (JSON ``"\\ud800"``, which strict validation refuses) were a 422 ``bad_request`` with no
reason, which the page could only show in English, marking no field.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from server_helpers import ThreadServer

from mizerka.record import RecordError
from mizerka.record import check_name as check_record_name
from mizerka.scorekeeper import EntryError, ScoreKeeper, check_names
from mizerka.server.players import NAME_REASONS
from mizerka.server.scorepad import SETUP_REASONS

NAMES = ["Ala", "Bolek", "Cezary"]


def char(code: str, point: str, name: str, player: int) -> dict[str, Any]:
    return {"code": code, "char": point, "char_name": name, "player": player}


# the new match (its fields over the defaults: NAMES, first dealer 0, standard), the reason, the message in full
SETUPS: list[tuple[dict[str, Any], dict[str, Any], str]] = [
    ({"players": ["Ala", "ala", "Cezary"]}, {"code": "name_repeated", "same_as": 1, "player": 2},
     "player 2's name: 'ala' is already a player; names must differ"),
    ({"players": ["Ala", "Bolek", "ＡＬＡ"]}, {"code": "name_repeated", "same_as": 1, "player": 3},
     "player 3's name: 'ＡＬＡ' is already a player; names must differ"),
    ({"players": ["Ala", "", "Cezary"]}, {"code": "name_empty", "player": 2},
     "player 2's name: a name needs at least one visible character"),
    ({"players": ["   ", "Bolek", "Cezary"]}, {"code": "name_empty", "player": 1},
     "player 1's name: a name needs at least one visible character"),
    ({"players": ["Ala", "5", "Cezary"]}, {"code": "name_number", "player": 2},
     "player 2's name: a name cannot be a number (numbers are tricks)"),
    ({"players": ["Ala", "Bolek", "2 4"]}, {"code": "name_numbers", "player": 3},
     "player 3's name: a name cannot be numbers alone (numbers are tricks)"),
    ({"players": ["Ala", "Undo", "Cezary"]}, {"code": "name_command_word", "word": "Undo", "player": 2},
     "player 2's name: 'Undo' is a command word; choose another name"),
    ({"players": ["A" * 41, "Bolek", "Cezary"]}, {"code": "name_too_long", "max": 40, "player": 1},
     "player 1's name: a name can be at most 40 characters long"),
    ({"players": ["Ala", "Bolek\u200b", "Cezary"]}, char("name_invisible_char", "U+200B", "ZERO WIDTH SPACE", 2),
     "player 2's name: the name 'Bolek\\u200b' holds the invisible character U+200B (ZERO WIDTH SPACE), with which "
     "it can pass for another name (or for none); a player's name must show what it is"),
    ({"players": ["Ala", "\u3164", "Cezary"]}, char("name_invisible_char", "U+3164", "HANGUL FILLER", 2),
     "player 2's name: the name 'ㅤ' holds the invisible character U+3164 (HANGUL FILLER), with which it can pass "
     "for another name (or for none); a player's name must show what it is"),
    ({"players": ["Ala", "Bolek", "\u0301Cezary"]},
     char("name_leading_mark", "U+0301", "COMBINING ACUTE ACCENT", 3),
     "player 3's name: the name '\u0301Cezary' begins with the combining mark U+0301 (COMBINING ACUTE ACCENT), "
     "which has no letter to sit on"),
    ({"players": ["Ala", "Bo\u202elek", "Cezary"]},
     char("name_unprintable_char", "U+202E", "RIGHT-TO-LEFT OVERRIDE", 2),
     "player 2's name: the name 'Bo\\u202elek' holds the bidirectional control character U+202E (RIGHT-TO-LEFT "
     "OVERRIDE), which can make it display as other text"),
    ({"players": ["Ala", "Bo\x07lek", "Cezary"]}, char("name_unprintable_char", "U+0007", "", 2),
     "player 2's name: a name cannot hold control characters (U+0007)"),
    ({"players": ["Ala", "Bolek", "Cez\ue000"]}, char("name_unprintable_char", "U+E000", "", 3),
     "player 3's name: a name cannot hold the unprintable character U+E000"),
    # a name over the 200 characters the schema allowed, one over a record's own 1000 (still `max` 40), one as long
    # as the body allows; a character refused among the first 200 is named, one after them is not
    ({"players": ["Ala", "B" * 201, "Cezary"]}, {"code": "name_too_long", "max": 40, "player": 2},
     "player 2's name: a name can be at most 40 characters long"),
    ({"players": ["Ala", "Bolek", "C" * 1001]}, {"code": "name_too_long", "max": 40, "player": 3},
     "player 3's name: a name can be at most 40 characters long"),
    ({"players": ["A" * 60000, "Bolek", "Cezary"]}, {"code": "name_too_long", "max": 40, "player": 1},
     "player 1's name: a name can be at most 40 characters long"),
    ({"players": ["Ala", "Bolek", "C" * 300 + "\u200b"]}, {"code": "name_too_long", "max": 40, "player": 3},
     "player 3's name: a name can be at most 40 characters long"),
    ({"players": ["Ala", "\u200b" + "B" * 300, "Cezary"]}, char("name_invisible_char", "U+200B", "ZERO WIDTH SPACE", 2),
     f"player 2's name: the name '\\u200b{'B' * 39}'… holds the invisible character U+200B (ZERO WIDTH SPACE), "
     "with which it can pass for another name (or for none); a player's name must show what it is"),
    # a lone surrogate, half of a character: valid JSON, but no text
    ({"players": ["Ala", "Bo\ud800lek", "Cezary"]}, char("name_unprintable_char", "U+D800", "", 2),
     "player 2's name: the name 'Bo\\ud800lek' holds U+D800, half of a surrogate pair, which is no character and "
     "cannot be written as UTF-8"),
    ({"players": ["\udfff", "Bolek", "Cezary"]}, char("name_unprintable_char", "U+DFFF", "", 1),
     "player 1's name: the name '\\udfff' holds U+DFFF, half of a surrogate pair, which is no character and cannot "
     "be written as UTF-8"),
    ({"players": ["Ala", "Bolek"]}, {"code": "player_count", "seats": 3, "count": 2},
     "this variant seats 3 players, not 2"),
    ({"variant": "four-players"}, {"code": "player_count", "seats": 4, "count": 3},
     "this variant seats 4 players, not 3"),
    ({"first_dealer": 3}, {"code": "no_seat", "seat": 3}, "there is no seat 3"),
    ({"first_dealer": -1}, {"code": "no_seat", "seat": -1}, "there is no seat -1"),
    ({"variant": "standard,first_dealer=1"}, {"code": "dealer_fixed", "seat": 1, "name": "Bolek"},
     "this variant has Bolek deal first"),
    ({"variant": "nope"}, {"code": "variant_invalid", "variant": "nope"},
     "unknown variant: 'nope' (known: standard, no-exchange, four-players, seed002-literal)"),
    ({"variant": "standard,nonsense=3"}, {"code": "variant_invalid", "variant": "standard,nonsense=3"},
     "unknown option 'nonsense=3' in 'standard,nonsense=3' (known: "),
]


def new(**fields: Any) -> dict[str, Any]:
    return {"record": None, "new": {"players": NAMES, "first_dealer": 0, **fields}}


def post(server: ThreadServer, body: Any) -> httpx.Response:
    """*body* sent as ASCII JSON, a lone surrogate as its escape (``"\\ud800"``), which no UTF-8 body can hold."""
    return httpx.post(server.url + "/api/scorepad", content=json.dumps(body), timeout=10,
                      headers={"Content-Type": "application/json"})


def test_every_setup_refusal_says_why(server: ThreadServer) -> None:
    for fields, reason, message in SETUPS:
        reply = post(server, new(**fields))
        body = reply.json()
        assert (reply.status_code, body["error"], body.get("reason")) == (400, "bad_setup", reason), reply.text
        assert set(body) == {"error", "message", "reason"}, body
        if message.endswith(": "):  # the variant's options, listed in full
            assert body["message"].startswith(message), body
        else:
            assert body["message"] == message, body


def test_every_reason_is_tried_and_listed() -> None:
    tried = {reason["code"] for _, reason, _ in SETUPS}
    assert tried == set(SETUP_REASONS)
    # a name's reasons are the lobby's where the lobby has one: the same code, the same parameters
    lobby = {code for code in SETUP_REASONS if code in NAME_REASONS}
    assert lobby == {"name_empty", "name_too_long", "name_unprintable_char", "name_invisible_char",
                     "name_leading_mark"}
    assert all(code.startswith("name_") for code in SETUP_REASONS if code not in
               {"player_count", "no_seat", "dealer_fixed", "variant_invalid"})


def test_a_name_is_judged_whatever_its_length_as_mizerka_score_judges_it(server: ThreadServer) -> None:
    """The schema no longer cuts a name off at 200 characters: the score keeper folds its spaces first, so a name
    that folds to one of 40 characters or fewer is taken, folded, as ``mizerka score`` takes it; and a name given
    with an entry is refused before the entry is tried."""
    spaced = "Ala" + " " * 300 + "Kot"
    reply = post(server, {**new(players=[spaced, "Bolek", "Cezary"]), "entry": {"contract": "H"}})
    assert reply.status_code == 200, reply.text
    assert reply.json()["players"] == ["Ala Kot", "Bolek", "Cezary"] and reply.json()["pending"] == "H"
    assert reply.json()["players"] == list(ScoreKeeper.new([spaced, "Bolek", "Cezary"], 0).players)
    refusal = post(server, {**new(players=["Ala", "Bo\ud800", "C" * 500]), "entry": {"contract": "H"}})
    assert (refusal.status_code, refusal.json()["error"]) == (400, "bad_setup"), refusal.text
    assert refusal.json()["reason"] == char("name_unprintable_char", "U+D800", "", 2)


@pytest.mark.parametrize("players", [
    ["Ala", 7, "Cezary"], ["Ala", None, "Cezary"], ["Ala", ["Bolek"], "Cezary"], "Ala Bolek Cezary",
    [*NAMES, *NAMES, "Dorota", "Ewa", "Felek"],
])
def test_names_that_are_no_list_of_text_are_still_the_schemas(server: ThreadServer, players: Any) -> None:
    reply = post(server, new(players=players))
    assert (reply.status_code, reply.json()["error"]) == (422, "bad_request"), reply.text
    assert "reason" not in reply.json()


def test_entries_and_records_have_no_reason(server: ThreadServer) -> None:
    url = server.url + "/api/scorepad"
    start = httpx.post(url, json={**new(), "entry": None}, timeout=10).json()
    entry = httpx.post(url, json={"record": start["record"], "entry": {"tricks": [5, 4, 4]}}, timeout=10).json()
    assert entry["error"] == "bad_entry" and "reason" not in entry, entry
    record = httpx.post(url, json={"record": {**start["record"], "extra": 1}}, timeout=10).json()
    assert record["error"] == "bad_record" and "reason" not in record, record


@pytest.mark.parametrize(("players", "reason"), [
    (["Ala", "Ala"], {"code": "name_repeated", "same_as": 1, "player": 2}),
    (["Ala", "B" * 1001], {"code": "name_too_long", "max": 1000, "player": 2}),
    (["Ala", "B\u2060"], {"code": "name_invisible_char", "char": "U+2060", "char_name": "WORD JOINER", "player": 2}),
])
def test_the_score_keeper_gives_the_reason(players: list[str], reason: dict[str, Any]) -> None:
    """The terminal's scorekeeper raises the same reasons (mizerka score's prompts show only the message)."""
    with pytest.raises(EntryError) as caught:
        check_names(players)
    assert caught.value.reason == reason


def test_the_keepers_other_refusals_have_none() -> None:
    keeper = ScoreKeeper.new(NAMES, 0)
    with pytest.raises(EntryError) as caught:
        keeper.enter_tricks("5 4 4")
    assert caught.value.reason is None
    assert str(caught.value) == "enter deal 1's contract first"


@pytest.mark.parametrize(("name", "code", "point"), [
    ("", "empty", None), ("Ala\u200b", "invisible_char", "\u200b"), ("\u0301Ala", "leading_mark", "\u0301"),
    ("Ala\u202e", "bidi_control", "\u202e"), ("Ala\x0c", "control_char", "\x0c"), ("A" * 1001, "too_long", None),
    (7, "not_text", None),
])
def test_a_records_refusal_of_a_name_names_its_kind(name: object, code: str, point: str | None) -> None:
    with pytest.raises(RecordError) as caught:
        check_record_name(name)
    assert (caught.value.code, caught.value.char) == (code, point)
