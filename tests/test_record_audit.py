"""Game records: what an audit of ``mizerka.record`` found, each pinned by a test that failed before its fix.

* A message shows cards and numbers as a record writes them, never as Python reprs: a trick of four cards was
  ``not (Card.from_str('3D'), …)``, a Tricks tag of four numbers ``not (1, 4, 4, 5)``.  The text form names the
  line of each.
* The text form's lines end with LF or CRLF only.  ``str.splitlines`` also ended them at a form feed, a lone CR, the
  information separators U+001C-U+001E, NEL, U+2028 and U+2029: a comment holding a form feed ran on as a line of
  its own (``unexpected line 'with form feed' outside a section``), a separator in a tag cut it in two (``malformed
  tag '[Player1 "A'``) and every line number after it was one too high.  Now such a character stays in its line and
  is refused there by name, or skipped with the comment that holds it.
* A tag value escapes ``"`` and ``\\`` and nothing else: ``[Player1 "A\\la"]`` was read as ``Ala``.
* An empty variant (``[Variant ""]``) was read as the standard rules; every writer names the variant, so an empty one
  is a value lost on the way and is refused.
"""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest

from mizerka.cards import parse_cards
from mizerka.record import (
    DealRecord,
    MatchRecord,
    RecordError,
    RecordSyntaxError,
    commit,
    from_dict,
    read,
    read_json,
    read_text,
)
from mizerka.rules import STANDARD

RECORDS = Path(__file__).parent / "data" / "records"
TEXT = (RECORDS / "standard-seed7.mzn").read_text(encoding="utf-8")
JSON_TEXT = (RECORDS / "standard-seed7.json").read_text(encoding="utf-8")

FIRST_TRICK = "1 @2: TC 6C 7C"  # deal 1's first trick line in standard-seed7.mzn
SPLITLINES_ONLY = {  # where str.splitlines ends a line, but LF and CRLF do not
    "\x0b": "U+000B (LINE TABULATION)",
    "\x0c": "U+000C (FORM FEED)",
    "\r": "U+000D (CARRIAGE RETURN)",
    "\x1c": "U+001C (FILE SEPARATOR)",
    "\x1d": "U+001D (GROUP SEPARATOR)",
    "\x1e": "U+001E (RECORD SEPARATOR)",
    "\x85": "U+0085 (NEXT LINE)",
    "\u2028": "U+2028 (LINE SEPARATOR)",
    "\u2029": "U+2029 (PARAGRAPH SEPARATOR)",
}
BREAKS_NAMED = [pytest.param(ch, named, id=f"U+{ord(ch):04X}") for ch, named in sorted(SPLITLINES_ONLY.items())]


@pytest.fixture(scope="module")
def finished() -> MatchRecord:
    return read_text(TEXT)


def line_of(text: str, start: str) -> int:
    """The 1-based number of the first line of *text* (split at LF, as the reader splits) starting with *start*."""
    return next(no for no, line in enumerate(text.split("\n"), start=1) if line.startswith(start))


def code(ch: str) -> str:
    return f"U+{ord(ch):04X}"


# -- 1. cards and numbers as a record writes them, with the line in the text form ----------------------------------


def test_a_trick_of_four_cards_is_shown_as_cards_with_its_line_in_the_text_form() -> None:
    bad = TEXT.replace(FIRST_TRICK, FIRST_TRICK + " 2C", 1)
    with pytest.raises(RecordSyntaxError) as info:
        read_text(bad)
    line_no = line_of(TEXT, FIRST_TRICK)
    assert str(info.value) == f"line {line_no}, deal 1, trick 1: a trick has three cards, not 4: TC 6C 7C 2C"
    assert (info.value.line_no, info.value.deal_no, info.value.trick_no) == (line_no, 1, 1)


def test_a_trick_of_four_cards_is_shown_as_cards_in_json() -> None:
    data = json.loads(JSON_TEXT)
    data["deals"][0]["tricks"][0]["cards"] = "TC 6C 7C 2C"
    with pytest.raises(RecordError) as info:
        read_json(json.dumps(data))
    assert str(info.value) == "deal 1, trick 1: a trick has three cards, not 4: TC 6C 7C 2C"


def test_a_short_trick_before_the_last_is_shown_as_cards_with_its_line() -> None:
    bad = TEXT.replace(FIRST_TRICK, "1 @2: TC 6C", 1)
    with pytest.raises(RecordSyntaxError) as info:
        read_text(bad)
    assert info.value.line_no == line_of(TEXT, FIRST_TRICK)
    assert str(info.value).endswith("a trick has three cards, not 2: TC 6C; only the last trick of an unfinished "
                                    "deal has fewer")
    empty = TEXT.replace(FIRST_TRICK, "1 @2:", 1)
    with pytest.raises(RecordSyntaxError, match=r"a trick has three cards, not none$"):
        read_text(empty)


def test_a_trick_built_in_python_is_shown_as_cards_too(finished: MatchRecord) -> None:
    deal = finished.deals[0]
    four = (tuple(parse_cards("TC 6C 7C 2C")), *deal.tricks[1:])
    with pytest.raises(RecordError) as info:
        MatchRecord(STANDARD, finished.players, finished.first_dealer,
                    (DealRecord(1, deal.dealer, deal.deck, deal.contract, deal.exchanges, four),))
    assert str(info.value) == "deal 1, trick 1: a trick has three cards, not 4: TC 6C 7C 2C"
    as_list = (list(deal.tricks[0]), *deal.tricks[1:])  # a list where the record holds a tuple
    with pytest.raises(RecordError, match="a trick's cards are a tuple of cards, not a list") as info:
        MatchRecord(STANDARD, finished.players, finished.first_dealer,
                    (DealRecord(1, deal.dealer, deal.deck, deal.contract, deal.exchanges, as_list),))  # type: ignore[arg-type]
    assert "Card.from_str" not in str(info.value)


@pytest.mark.parametrize("tag", ["Tricks", "Scores"])
def test_a_tricks_or_scores_tag_of_four_numbers_is_shown_as_numbers_with_its_line(tag: str) -> None:
    start = f'[{tag} "'
    bad = TEXT.replace(start, start + "1 ", 1)
    with pytest.raises(RecordSyntaxError) as info:
        read_text(bad)
    assert (info.value.line_no, info.value.deal_no) == (line_of(TEXT, start), 1)
    message = str(info.value)
    assert f"the {tag.lower()} must be 3 whole numbers, one per seat, not 4: 1 " in message
    assert "(" not in message


def test_json_tricks_won_of_two_numbers_are_shown_as_numbers() -> None:
    data = json.loads(JSON_TEXT)
    data["deals"][0]["tricks_won"] = [5, 4]
    with pytest.raises(RecordError) as info:
        from_dict(data)
    assert str(info.value) == "deal 1: the tricks must be 3 whole numbers, one per seat, not 2: 5 4"


def test_a_long_salt_or_commitment_is_quoted_cut_short() -> None:
    with pytest.raises(RecordError) as info:
        commit(range(52), "!" * 500)
    assert "…" in str(info.value) and len(str(info.value)) < 200


# -- 2. lines end with LF or CRLF only; other line breaks and controls are named --------------------------------


@pytest.mark.parametrize("ch", sorted(SPLITLINES_ONLY), ids=code)
def test_a_comment_may_hold_any_character_and_counts_as_one_line(finished: MatchRecord, ch: str) -> None:
    comment = "% seat 2 FH:"
    commented = TEXT.replace(comment, f"% a comment{ch}with {code(ch)}", 1)
    assert read_text(commented) == finished
    assert read(commented.encode()) == finished
    # a later error is placed on its own line: the comment did not count as two
    bad = commented.replace(FIRST_TRICK, "1 @2: TC 6C XX", 1)
    with pytest.raises(RecordSyntaxError, match="invalid card 'XX'") as info:
        read_text(bad)
    assert info.value.line_no == line_of(TEXT, FIRST_TRICK)


@pytest.mark.parametrize(("ch", "named"), BREAKS_NAMED)
def test_a_line_break_in_a_tag_is_named_with_the_tag_and_line(ch: str, named: str) -> None:
    bad = TEXT.replace('[Player1 "Bolek"]', f'[Player1 "Bo{ch}lek"]', 1)
    with pytest.raises(RecordSyntaxError) as info:
        read_text(bad)
    line_no = line_of(TEXT, "[Player1 ")
    assert info.value.line_no == line_no
    message = str(info.value)
    assert message.startswith(f"line {line_no}: player 1's name (tag Player1) ")
    assert message.endswith(f"but it holds {named}")
    assert ch not in message  # shown escaped, not acted on by a terminal


@pytest.mark.parametrize(("ch", "named"), BREAKS_NAMED)
def test_a_line_break_in_a_trick_line_is_named_with_its_line(ch: str, named: str) -> None:
    bad = TEXT.replace(FIRST_TRICK, f"1 @2: TC{ch}6C 7C", 1)
    with pytest.raises(RecordSyntaxError) as info:
        read_text(bad)
    line_no = line_of(TEXT, FIRST_TRICK)
    assert (info.value.line_no, info.value.deal_no) == (line_no, 1)
    assert str(info.value).startswith(f"line {line_no}, deal 1: the line holds {named}")


@pytest.mark.parametrize("ch", ["\x00", "\x1b", "\x7f", "\x9b"], ids=code)
def test_other_controls_outside_a_tag_are_named_too(ch: str) -> None:
    bad = TEXT.replace("[Exchange]", f"[Exchange]{ch}", 1)
    with pytest.raises(RecordSyntaxError) as info:
        read_text(bad)
    assert info.value.line_no == line_of(TEXT, "[Exchange]")
    assert f"the line holds {code(ch)} (" in str(info.value)


def test_a_tab_still_separates_the_parts_of_a_line(finished: MatchRecord) -> None:
    assert read_text(TEXT.replace(FIRST_TRICK, "1\t@2:\tTC\t6C 7C", 1)) == finished


def test_lone_cr_line_ends_are_refused_naming_the_cr_but_crlf_reads(finished: MatchRecord) -> None:
    assert read_text(TEXT.replace("\n", "\r\n")) == finished
    with pytest.raises(RecordSyntaxError) as info:
        read_text(TEXT.replace("\n", "\r"))
    assert info.value.line_no == 1
    assert "U+000D (CARRIAGE RETURN) before its end: a line ends with LF or CRLF" in str(info.value)


@pytest.mark.parametrize("field", ["deck", "exchange", "trick"])
def test_json_cards_split_by_a_control_or_separator_are_refused(field: str) -> None:
    data = json.loads(JSON_TEXT)
    deal = data["deals"][0]
    if field == "deck":
        deal["deck"] = deal["deck"].replace(" ", "\x0c", 1)
    elif field == "exchange":
        deal["exchanges"][1] = deal["exchanges"][1].replace(" ", "\u2029", 1)
    else:
        deal["tricks"][0]["cards"] = "TC\x1c6C 7C"
    with pytest.raises(RecordSyntaxError, match=r"^deal 1(, trick 1)?: U\+[0-9A-F]{4} \([A-Z ]+\) in the cards '"):
        read_json(json.dumps(data))


def test_every_control_name_is_a_unicode_name_alias() -> None:
    from mizerka.record import _named

    for code_point in (*range(0x20), 0x7F, *range(0x80, 0xA0)):
        ch = chr(code_point)
        named = _named(ch)
        assert named.startswith(f"{code(ch)} (") and named.endswith(")")
        assert unicodedata.lookup(named[len(code(ch)) + 2:-1]) == ch


@pytest.mark.parametrize(("field", "value"), [("contract", "H\u2028"), ("variant", "standard\x0c")])
def test_a_json_contract_or_variant_holding_a_control_or_separator_is_refused(field: str, value: str) -> None:
    data = json.loads(JSON_TEXT)  # each was read as if the character were not there
    if field == "contract":
        data["deals"][0]["contract"] = value
    else:
        data["variant"] = value
    with pytest.raises(RecordSyntaxError, match=rf"U\+{ord(value[-1]):04X} \([A-Z ]+\) in the {field} "):
        read_json(json.dumps(data))


@pytest.mark.parametrize("value", ["", "  "])
def test_an_empty_variant_is_refused_not_read_as_the_standard_rules(value: str) -> None:
    bad = TEXT.replace('[Variant "standard"]', f'[Variant "{value}"]', 1)  # was read as the standard rules
    assert bad != TEXT
    with pytest.raises(RecordSyntaxError, match=r"the variant is empty") as caught:
        read_text(bad)
    assert caught.value.line_no == line_of(TEXT, "[Variant ")
    data = json.loads(JSON_TEXT)
    data["variant"] = value
    with pytest.raises(RecordSyntaxError, match=r"the variant is empty"):
        read_json(json.dumps(data))


# -- 3. a tag value escapes a quote and a backslash, and nothing else ----------------------------------------------


def test_a_bad_escape_in_a_name_is_refused_naming_it_and_the_line() -> None:
    bad = TEXT.replace('[Player1 "Bolek"]', '[Player1 "Bo\\lek"]', 1)  # was read as "Bolek"
    with pytest.raises(RecordSyntaxError) as info:
        read_text(bad)
    line_no = line_of(TEXT, "[Player1 ")
    assert info.value.line_no == line_no
    assert str(info.value).startswith(f"line {line_no}: player 1's name (tag Player1) holds \\l, which is no escape: "
                                      "a tag value escapes only a quote, as \\\", and a backslash, as \\\\")


@pytest.mark.parametrize(("value", "shown"), [
    ("Club\\nnight", "\\n"),
    ("Club\\tnight", "\\t"),
    ("Club\\u0041", "\\u"),
    ("Club\\ night", "a backslash before U+0020 (SPACE)"),
    ("Club\\'s night", "\\'"),
])
def test_any_other_escape_in_a_tag_is_refused(value: str, shown: str) -> None:
    bad = TEXT.replace('[Event "Golden record"]', f'[Event "{value}"]', 1)
    with pytest.raises(RecordSyntaxError) as info:
        read_text(bad)
    assert info.value.line_no == line_of(TEXT, "[Event ")
    assert f"tag Event holds {shown}, which is no escape" in str(info.value)


def test_a_bad_escape_in_a_deal_tag_names_the_deal() -> None:
    bad = TEXT.replace('[Contract "H"]', '[Contract "\\H"]', 1)
    with pytest.raises(RecordSyntaxError, match=r"tag Contract holds \\H, which is no escape") as info:
        read_text(bad)
    assert (info.value.line_no, info.value.deal_no) == (line_of(TEXT, '[Contract "H"]'), 1)


def test_the_escapes_the_writer_writes_read_back() -> None:
    record = MatchRecord(STANDARD, ('Ala "As"', "Bo\\lek", "\\\\\"\\"), 0, tags={"Event": 'a \\" b \\\\'})
    text = record.to_text()
    assert '[Player1 "Bo\\\\lek"]' in text
    assert read_text(text) == record

