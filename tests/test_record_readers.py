"""What the record readers take and refuse (:func:`mizerka.record.read`, ``read_text``, ``read_json``,
``from_dict``), and ``mizerka replay`` with them: a message that says where, never a traceback.

* The result: a finished match without its result is refused, in both forms alike; an unfinished one may leave it
  out.
* Odd input: a byte order mark and CRLF line ends are read; a JSON key given twice is refused like a second header
  tag (``json.loads`` alone keeps the last value silently).
* A file larger than any record (``/dev/zero`` too) is refused before it fills the memory.
* JSON records: an error names its deal (and trick) once, and no line (they said ``line 0``); the version is the
  integer 1; totals, deal numbers and dealers are whole numbers, not floats equal to them.
* The text form: numbers in ASCII digits; a first dealer out of range named on its own line (the message blamed deal
  1's dealer); a fourteenth trick called one too many (it was played into the next deal).
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from mizerka.cli import cli
from mizerka.record import (
    DealRecord,
    MatchRecord,
    RecordError,
    RecordSyntaxError,
    from_dict,
    read,
    read_json,
    read_text,
)

RECORDS = Path(__file__).parent / "data" / "records"
JSON_RECORD: dict[str, Any] = json.loads((RECORDS / "standard-seed7.json").read_text(encoding="utf-8"))
TEXT_RECORD = (RECORDS / "standard-seed7.mzn").read_text(encoding="utf-8")


def mutated(change: dict[str, Any] | None = None, **deal_one: Any) -> dict[str, Any]:
    """The golden JSON record with the match fields of *change* and deal 1's fields of *deal_one* replaced."""
    data = copy.deepcopy(JSON_RECORD)
    data.update(change or {})
    data["deals"][0].update(deal_one)
    return data


def replay(tmp_path: Path, data: dict[str, Any] | str, name: str = "record.json") -> tuple[int, str]:
    """``mizerka replay`` of *data* (JSON data, or the text of a record): its exit code and output."""
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    result = CliRunner().invoke(cli, ["replay", str(path)])
    assert "Traceback" not in result.output, result.output
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def finished() -> MatchRecord:
    return read(RECORDS / "standard-seed7.mzn")


def without_result(text: str) -> str:
    return "".join(line for line in text.splitlines(keepends=True) if not line.startswith("[Result"))


# -- the result: both forms agree ------------------------------------------------------------------------------------


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


# -- odd input: a byte order mark, CRLF, a key or tag given twice ----------------------------------------------------


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


# -- a file that never ends or is huge -------------------------------------------------------------------------------


def test_read_refuses_a_file_larger_than_a_record_instead_of_filling_the_memory(tmp_path: Path,
                                                                                 monkeypatch: pytest.MonkeyPatch
                                                                                 ) -> None:
    import mizerka.record as record_module

    monkeypatch.setattr(record_module, "MAX_RECORD_BYTES", 1000)
    big = tmp_path / "big.mzn"
    big.write_text((RECORDS / "partial.mzn").read_text(encoding="utf-8") + "%" * 2000 + "\n", encoding="utf-8")
    with pytest.raises(RecordSyntaxError, match="larger than"):
        read(big)
    small = tmp_path / "small.mzn"
    small.write_text("%\n" * 10, encoding="utf-8")
    with pytest.raises(RecordSyntaxError, match="RecordVersion"):
        read(small)


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_replay_of_an_endless_file_stops_with_a_message() -> None:
    code = ("import resource, sys; resource.setrlimit(resource.RLIMIT_AS, (1 << 31, 1 << 31)); "
            "sys.argv = ['mizerka', 'replay', '/dev/zero']; from mizerka.cli import main; main()")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and "larger than" in done.stderr


# -- JSON records: the place named once, no line 0; whole numbers ----------------------------------------------------


def test_json_errors_name_the_deal_once() -> None:
    data = json.loads((RECORDS / "standard-seed7.json").read_text(encoding="utf-8"))
    data["deals"][0]["dealer"] = "1"
    with pytest.raises(RecordSyntaxError) as caught:
        read_json(json.dumps(data))
    assert str(caught.value) == "deal 1: field 'dealer' has the wrong type (str)"
    data = json.loads((RECORDS / "standard-seed7.json").read_text(encoding="utf-8"))
    data["deals"][0]["tricks"][1]["leader"] = "0"
    with pytest.raises(RecordSyntaxError) as caught:
        read_json(json.dumps(data))
    assert str(caught.value) == "deal 1, trick 2: field 'leader' has the wrong type (str)"
    assert caught.value.trick_no == 2
    del data["deals"][0]["deal"]
    with pytest.raises(RecordSyntaxError) as caught:
        read_json(json.dumps(data))
    assert str(caught.value) == "deal 1: no 'deal' field"


def test_json_version_must_be_the_integer_one() -> None:
    data = json.loads((RECORDS / "standard-seed7.json").read_text(encoding="utf-8"))
    data["version"] = 1.0
    with pytest.raises(RecordSyntaxError, match="version"):
        read_json(json.dumps(data))


@pytest.mark.parametrize(("change", "where", "card"), [
    ({"deck": JSON_RECORD["deals"][0]["deck"].replace("TD", "XX", 1)}, "deal 1: ", "XX"),
    ({"exchanges": ["QQ", *JSON_RECORD["deals"][0]["exchanges"][1:]]}, "deal 1: ", "QQ"),
    ({"tricks": [{"leader": 2, "cards": "TC 6C ZZ"}, *JSON_RECORD["deals"][0]["tricks"][1:]]}, "deal 1, trick 1: ",
     "ZZ"),
])
def test_a_bad_card_in_a_json_record_is_placed_by_deal_not_at_line_0(
        tmp_path: Path, change: dict[str, Any], where: str, card: str) -> None:
    """JSON has no lines, but the reader passed line 0 for a card in a deck, an exchange or a trick, and the message
    began ``line 0, deal 1: invalid card 'XX'``."""
    with pytest.raises(RecordSyntaxError) as info:
        from_dict(mutated(**change))
    assert info.value.line_no is None
    assert str(info.value).startswith(f"{where}invalid card {card!r}"), str(info.value)
    code, output = replay(tmp_path, mutated(**change))
    assert code != 0 and f"{where}invalid card {card!r}" in output and "line 0" not in output, output


@pytest.mark.parametrize("result", [[10.0, 1, -11], [10, 1.0, -11.0]])
def test_a_result_of_floats_is_refused(tmp_path: Path, result: list[float]) -> None:
    """``"result": [10.0, 1, -11]`` was taken, since 10.0 == 10: a total is a whole number, as a bool already was
    refused."""
    with pytest.raises(RecordSyntaxError, match=r"the result's totals must be whole numbers, not \[10"):
        from_dict(mutated({"result": result}))
    code, output = replay(tmp_path, mutated({"result": result}))
    assert code != 0 and "whole numbers" in output, output


@pytest.mark.parametrize("field", ["number", "dealer"])
def test_a_deal_record_with_a_float_number_or_dealer_is_refused(field: str) -> None:
    """A :class:`DealRecord` built in Python with ``number=1.0`` or ``dealer=1.0`` passed (1.0 == 1) and was
    written back as ``[Deal "1.0"]``, a record no reader takes."""
    record = from_dict(JSON_RECORD)
    deal = record.deals[0]
    bad = DealRecord(**{**{f: getattr(deal, f) for f in ("number", "dealer", "deck", "contract", "exchanges",
                                                           "tricks")}, field: float(getattr(deal, field))})
    with pytest.raises(RecordError, match=f"deal 1: the {'deal number' if field == 'number' else 'dealer'} must be "
                                          "a whole number, not 1.0"):
        MatchRecord(record.rules, record.players, record.first_dealer, (bad,))


# -- the text form: ASCII digits, the first dealer, a deal's tricks --------------------------------------------------


def test_text_record_numbers_are_ascii_digits() -> None:
    text = (RECORDS / "score-only.mzn").read_text(encoding="utf-8")
    assert '[FirstDealer "0"]' in text
    with pytest.raises(RecordSyntaxError, match="first dealer must be a whole number"):
        read_text(text.replace('[FirstDealer "0"]', '[FirstDealer "\u0660"]'))  # Arabic-Indic zero


@pytest.mark.parametrize("first", ["-1", "5", "4", "7"])
def test_a_first_dealer_out_of_range_is_named_on_its_own_line(first: str) -> None:
    """-1 and 5 are not congruent to deal 1's Dealer tag (seat 1): the message blamed line 14's dealer before."""
    text = (RECORDS / "standard-seed7.mzn").read_text(encoding="utf-8")
    assert '[FirstDealer "1"]' in text
    lines = text.splitlines()
    line_no = next(n for n, line in enumerate(lines, 1) if line.startswith("[FirstDealer "))
    with pytest.raises(RecordSyntaxError, match=f"the first dealer must be a seat 0-2, not {first}") as caught:
        read_text(text.replace('[FirstDealer "1"]', f'[FirstDealer "{first}"]'))
    assert caught.value.line_no == line_no
    assert "passes left" not in str(caught.value)


def test_a_fourteenth_trick_is_called_one_too_many(tmp_path: Path) -> None:
    """A 14th trick line in a deal's [Play] was played into the next deal ("cannot play a card in the choose
    phase"), or after the last deal ("the match is over")."""
    first = TEXT_RECORD.replace("13 @2: 9H 7D 9S\n", "13 @2: 9H 7D 9S\n14 @2: 9H 7D 9S\n", 1)
    last_line = TEXT_RECORD.rpartition("\n13 @")[2]
    last_line = "13 @" + last_line.split("\n", 1)[0]
    last = TEXT_RECORD.replace(last_line, last_line + "\n14 " + last_line[3:])
    for text, deal in ((first, 1), (last, 18)):
        with pytest.raises(RecordSyntaxError) as info:
            read_text(text)
        [line_no] = [no for no, line in enumerate(text.split("\n"), 1) if line.startswith("14 @")]  # named too
        assert str(info.value) == (f"line {line_no}, deal {deal}, trick 14: a deal has 13 tricks, so trick 14 is one"
                                   " too many")
        code, output = replay(tmp_path, text, "record.mzn")
        assert code != 0 and "trick 14 is one too many" in output, output
    data = mutated()
    data["deals"][0]["tricks"].append({"leader": 2, "cards": "9H 7D 9S"})
    with pytest.raises(RecordError, match="deal 1, trick 14: a deal has 13 tricks, so trick 14 is one too many"):
        from_dict(data)
