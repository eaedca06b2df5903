"""Second audit of game records (session 13): the result of a finished match, line separators in names and tags,
a byte order mark, JSON keys given twice."""

from __future__ import annotations

from pathlib import Path

import pytest

from mizerka.record import MatchRecord, RecordError, RecordSyntaxError, from_dict, read, read_json, read_text
from mizerka.rules import STANDARD

RECORDS = Path(__file__).parent / "data" / "records"


@pytest.fixture(scope="module")
def finished() -> MatchRecord:
    return read(RECORDS / "standard-seed7.mzn")


def without_result(text: str) -> str:
    return "".join(line for line in text.splitlines(keepends=True) if not line.startswith("[Result"))


# -- the result: both forms agree ----------------------------------------------------------------------


def test_finished_text_record_without_result_is_refused_like_json(finished: MatchRecord) -> None:
    assert finished.is_over()
    with pytest.raises(RecordSyntaxError, match="the result is missing, but the match is over"):
        read_text(without_result(finished.to_text()))
    data = finished.to_dict()
    data["result"] = None
    with pytest.raises(RecordSyntaxError, match="the result is missing, but the match is over"):
        from_dict(data)
    del data["result"]
    with pytest.raises(RecordSyntaxError, match="the result is missing, but the match is over"):
        from_dict(data)


def test_unfinished_record_may_leave_out_its_result_in_both_forms() -> None:
    partial = read(RECORDS / "partial.mzn")
    assert not partial.is_over()
    assert read_text(without_result(partial.to_text())) == partial
    data = partial.to_dict()
    del data["result"]
    assert from_dict(data) == partial


# -- names and tags: what the writer writes, the reader reads --------------------------------------------


@pytest.mark.parametrize("separator", ["\u2028", "\u2029"])
def test_line_separator_in_a_name_or_tag_is_refused_when_built(separator: str) -> None:
    with pytest.raises(RecordError, match="player 0's name"):
        MatchRecord(STANDARD, (f"Ala{separator}Ola", "Bolek", "Cezary"), 0)
    with pytest.raises(RecordError, match="tag Event"):
        MatchRecord(STANDARD, ("Ala", "Bolek", "Cezary"), 0, tags={"Event": f"Club{separator}night"})


def test_json_with_a_line_separator_in_a_name_is_refused_not_left_unwritable(finished: MatchRecord) -> None:
    data = finished.to_dict()
    data["players"] = ["Ala\u2028Ola", "East", "West"]
    with pytest.raises(RecordError, match="must be one line"):
        from_dict(data)


def test_other_unicode_in_names_round_trips() -> None:
    # "Zoë" with a combining diaeresis; it had a left-to-right mark (U+200E), a bidirectional control character that
    # records now refuse (tests/test_record_bidi_and_lines.py), as the server and the score keeper do
    record = MatchRecord(STANDARD, ("Łucja Żak", "Zoe\u0308", "李"), 0, tags={"Event": "Śród 🂡"})
    assert read_text(record.to_text()) == record == read_json(record.to_json())


# -- odd input -----------------------------------------------------------------------------------------------


def test_byte_order_mark_is_read_by_each_reader(finished: MatchRecord) -> None:
    assert read_text("\ufeff" + finished.to_text()) == finished
    assert read_json("\ufeff" + finished.to_json()) == finished
    assert read_json(b"\xef\xbb\xbf" + finished.to_json().encode()) == finished


def test_crlf_text_reads_the_same(finished: MatchRecord) -> None:
    assert read(finished.to_text().replace("\n", "\r\n").encode()) == finished


@pytest.mark.parametrize(("key", "anchor"), [("result", '"format": '), ("players", '"format": '),
                                             ("scores", '"deal": 1, ')])
def test_json_key_given_twice_is_refused_like_a_second_tag(finished: MatchRecord, key: str, anchor: str) -> None:
    text = finished.to_json(indent=None)
    assert anchor in text
    doubled = text.replace(anchor, f'"{key}": null, {anchor}', 1)  # json.loads alone keeps the last value silently
    with pytest.raises(RecordSyntaxError, match=f"the field '{key}' is given twice"):
        read_json(doubled)


def test_second_header_tag_is_refused_in_text(finished: MatchRecord) -> None:
    with pytest.raises(RecordSyntaxError, match="a second Event tag"):
        read_text(finished.to_text().replace('[Event "', '[Event "x"]\n[Event "', 1))
