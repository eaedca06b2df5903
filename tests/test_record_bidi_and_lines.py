"""Game records: bidirectional control characters in names and tags are refused, as the server
and the score keeper refuse them; the text reader names the line of a wrong Result, a wrong Dealer and a name or
tag that cannot be used, as it does for its other errors."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from mizerka import Match
from mizerka.record import MatchRecord, RecordError, RecordSyntaxError, from_dict, read, read_json, read_text
from mizerka.rules import STANDARD

RECORDS = Path(__file__).parent / "data" / "records"

BIDI = [
    "\u061c",  # ARABIC LETTER MARK
    "\u200e",  # LEFT-TO-RIGHT MARK
    "\u200f",  # RIGHT-TO-LEFT MARK
    "\u202a", "\u202b", "\u202c", "\u202d", "\u202e",  # embeddings, pop, overrides
    "\u2066", "\u2067", "\u2068", "\u2069",  # isolates
]


@pytest.fixture(scope="module")
def finished() -> MatchRecord:
    return read(RECORDS / "standard-seed7.mzn")


def line_of(text: str, start: str) -> int:
    """The 1-based number of the first line of *text* that starts with *start*."""
    return next(no for no, line in enumerate(text.splitlines(), start=1) if line.startswith(start))


def with_line(text: str, start: str, new: str) -> str:
    """*text* with its first line starting with *start* replaced by *new*."""
    lines = text.splitlines()
    lines[line_of(text, start) - 1] = new
    return "\n".join(lines) + "\n"


def code(ch: str) -> str:
    return f"U+{ord(ch):04X}"


def pattern(ch: str) -> str:
    """:func:`code` as a regular expression."""
    return re.escape(code(ch))


# -- bidirectional control characters ------------------------------------------------------------------------


@pytest.mark.parametrize("ch", BIDI, ids=code)
def test_text_record_refuses_a_bidi_control_in_a_name_naming_the_line_and_tag(finished: MatchRecord, ch: str) -> None:
    text = finished.to_text()
    # with U+202E (right-to-left override), "keloB" displays as "Bolek": a name that is not what it shows
    bad = with_line(text, "[Player1 ", f'[Player1 "{ch}keloB"]')
    with pytest.raises(RecordSyntaxError) as info:
        read_text(bad)
    assert info.value.line_no == line_of(text, "[Player1 ")
    message = str(info.value)
    assert message.startswith(f"line {info.value.line_no}: ")
    assert "Player1" in message and "bidirectional control character" in message and code(ch) in message
    assert ch not in message  # the message itself shows the character escaped, not acting on the terminal
    with pytest.raises(RecordSyntaxError):
        read(bad.encode())


@pytest.mark.parametrize("ch", BIDI, ids=code)
def test_text_record_refuses_a_bidi_control_in_a_tag_value(finished: MatchRecord, ch: str) -> None:
    text = finished.to_text()
    bad = with_line(text, "[Event ", f'[Event "Golden {ch}record"]')
    with pytest.raises(RecordSyntaxError, match=rf"tag Event .*bidirectional control character {pattern(ch)}") as info:
        read_text(bad)
    assert info.value.line_no == line_of(text, "[Event ")


def test_text_record_refuses_a_bidi_control_in_a_deal_tag(finished: MatchRecord) -> None:
    text = finished.to_text()
    deck_line = line_of(text, "[Deck ")
    bad = text.replace('[Deck "', '[Deck "\u200e', 1)
    with pytest.raises(RecordSyntaxError, match=r"tag Deck .*U\+200E") as info:
        read_text(bad)
    assert (info.value.line_no, info.value.deal_no) == (deck_line, 1)


@pytest.mark.parametrize("ch", BIDI, ids=code)
def test_json_record_refuses_a_bidi_control_in_a_name_or_tag(finished: MatchRecord, ch: str) -> None:
    data = finished.to_dict()
    data["players"] = ["Ala", f"{ch}keloB", "Cezary"]
    with pytest.raises(RecordError, match=rf"player 1's name .*bidirectional control character {pattern(ch)}"):
        from_dict(data)
    with pytest.raises(RecordError, match=pattern(ch)):
        read_json(json.dumps(data))
    with pytest.raises(RecordError, match=pattern(ch)):
        read(json.dumps(data, ensure_ascii=False).encode())
    data = finished.to_dict()
    data["tags"] = {"Event": f"Golden {ch}record"}
    with pytest.raises(RecordError, match=rf"tag Event .*{pattern(ch)}"):
        from_dict(data)


def test_a_record_with_a_bidi_control_cannot_be_built_either() -> None:
    with pytest.raises(RecordError, match=r"player 2's name .*U\+202E"):
        MatchRecord(STANDARD, ("Ala", "Bolek", "\u202eyraz"), 0)
    with pytest.raises(RecordError, match=r"tag Site .*U\+2067"):
        MatchRecord(STANDARD, ("Ala", "Bolek", "Cezary"), 0, tags={"Site": "\u2067Warszawa"})
    match = Match(seed=1, players=["Ala", "Bolek\u202c", "Cezary"])  # the engine itself takes any name
    with pytest.raises(RecordError, match=r"player 1's name .*U\+202C"):
        MatchRecord.from_match(match)


def test_other_unicode_in_names_and_tags_still_round_trips() -> None:
    record = MatchRecord(STANDARD, ("Łucja Żak", "Zoe\u0308", "عليّ"), 0, tags={"Event": "שבת 🂡"})
    assert read_text(record.to_text()) == record == read_json(record.to_json())


# -- line numbers in the text reader -------------------------------------------------------------------------


def test_a_wrong_result_names_its_line(finished: MatchRecord) -> None:
    text = finished.to_text()
    result_line = line_of(text, "[Result ")
    for value, reason in (("+1 0 -1", "the result says '\\+1 0 -1', but the deals add up to"),
                          ("*", "the result is '\\*' but the match is over")):
        with pytest.raises(RecordSyntaxError, match=reason) as info:
            read_text(with_line(text, "[Result ", f'[Result "{value}"]'))
        assert info.value.line_no == result_line
        assert str(info.value).startswith(f"line {result_line}: ")
        assert isinstance(info.value, RecordError) and isinstance(info.value, ValueError)


def test_a_dealer_out_of_turn_names_its_line(finished: MatchRecord) -> None:
    text = finished.to_text()
    block = text.index('[Deal "2"]')
    dealer_line = text.count("\n", 0, block) + 2  # [Dealer] follows [Deal "2"]
    dealer = finished.deals[1].dealer
    bad = text[:block] + text[block:].replace(f'[Dealer "{dealer}"]', f'[Dealer "{(dealer + 1) % 3}"]', 1)
    with pytest.raises(RecordSyntaxError, match="passes left") as info:
        read_text(bad)
    assert (info.value.line_no, info.value.deal_no) == (dealer_line, 2)
    assert str(info.value).startswith(f"line {dealer_line}, deal 2: ")


@pytest.mark.parametrize(("ch", "shown"), [("\x07", r"U\+0007"), ("\t", r"U\+0009"), ("\x7f", r"U\+007F"),
                                           ("\x9b", r"U\+009B")])
def test_a_control_character_in_a_name_is_named_with_its_line(finished: MatchRecord, ch: str, shown: str) -> None:
    text = finished.to_text()
    with pytest.raises(RecordSyntaxError, match=f"player 1's name .* must be one line .* but it holds {shown}") as info:
        read_text(with_line(text, "[Player1 ", f'[Player1 "Bo{ch}lek"]'))
    assert info.value.line_no == line_of(text, "[Player1 ")
    with pytest.raises(RecordError, match=f"tag Event .* but it holds {shown}"):
        MatchRecord(STANDARD, ("Ala", "Bolek", "Cezary"), 0, tags={"Event": f"a{ch}b"})
