"""The analysis refuses what it cannot judge: a message that names the problem, never a traceback.

The library (:func:`mizerka.analysis.analyse`, :func:`~mizerka.analysis.analyse_deal`) raises ``RecordError`` (a
``ValueError``) for a deal whose contract was chosen but no card played (it returned an empty analysis: "no
errors"), a deal number that is no whole number (``True`` was deal 1), deal numbers that are no collection of them,
and what is no record; it takes each deal once (``[1, 1]`` analysed deal 1 twice).

``mizerka analyse`` says it and exits with status 2: a missing file, a folder, a file that is no record, truncated
records, deal numbers out of range (thousands of digits too) or in digits that are not ASCII, a record in which no
deal has reached its play (it printed an empty report and exited with 0), unknown options.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from mizerka.analysis import analyse, analyse_deal
from mizerka.cli import cli
from mizerka.deal import Phase
from mizerka.match import Match
from mizerka.record import MatchRecord, RecordError
from test_analysis_report import golden as golden  # the fixture, re-exported for pytest

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "data" / "records" / "standard-seed7.mzn"
RECORDS = Path(__file__).parent / "data" / "records"
NAMES = ["Ala", "Bolek", "Cezary"]


def invoke(*args: str, input: str | bytes | io.BytesIO | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=input)


TEXT = "NT; lead 0; S:AK H:- D:- C:2 / S:Q2 H:- D:- C:3 / S:- H:- D:A2 C:4"


# -- the library -----------------------------------------------------------------------------------------------------


def record_in_the_second_deals_exchange() -> MatchRecord:
    match = Match(seed=5, players=["Ala", "Bolek", "Cezary"])
    for _ in range(4 + 3 * 13 + 1 + 2):  # deal 1 whole; deal 2's contract and two exchanges
        match.play(match.deal.forced_action() or next(iter(match.legal_actions)))
    return MatchRecord.from_match(match)


def test_a_deal_without_a_card_played_is_refused_by_the_library() -> None:
    record = record_in_the_second_deals_exchange()
    assert record.deals[1].contract is not None and not record.deals[1].tricks
    with pytest.raises(RecordError, match="deal 2: the deal has not reached its play") as caught:
        analyse_deal(record, 2)
    assert isinstance(caught.value, ValueError) and caught.value.deal_no == 2
    with pytest.raises(RecordError, match="has not reached its play"):
        analyse(record, [1, 2])
    assert [d.deal_no for d in analyse(record).deals] == [1]  # by default only the deals with play


@pytest.mark.parametrize("deal_no", [True, 1.0, "1", None])
def test_the_analysis_refuses_a_deal_number_that_is_not_a_number(deal_no: object) -> None:
    """True was deal 1; 1.0 and "1" reached a TypeError."""
    record = MatchRecord.from_match(Match(players=["A", "B", "C"], seed=1))
    with pytest.raises(RecordError, match="deal number must be a whole number"):
        analyse_deal(record, deal_no)  # type: ignore[arg-type]
    with pytest.raises(RecordError, match="deal number must be a whole number"):
        analyse(record, [deal_no])  # type: ignore[list-item]


def test_the_analysis_refuses_what_is_not_a_record_or_a_list_of_deals() -> None:
    record = MatchRecord.from_match(Match(players=["A", "B", "C"], seed=1))
    with pytest.raises(RecordError, match="collection of deal numbers"):
        analyse(record, 1)  # type: ignore[arg-type]
    with pytest.raises(RecordError, match="collection of deal numbers"):
        analyse(record, "1")
    for call in (lambda: analyse(None), lambda: analyse_deal(TEXT, 1)):  # type: ignore[arg-type]
        with pytest.raises(RecordError, match="takes a MatchRecord"):
            call()


def test_the_analysis_takes_each_deal_once() -> None:
    """``analyse(record, [1, 1])`` analysed deal 1 twice (the command line removed the repeat; the library did
    not); an unhashable item is no deal number."""
    match = Match(players=["A", "B", "C"], seed=4)
    while match.deal_no == 1:
        match.play(min(match.deal.legal_actions, key=str))
    record = MatchRecord.from_match(match)
    assert [d.deal_no for d in analyse(record, [1, 1]).deals] == [1]
    with pytest.raises(RecordError, match="collection of deal numbers"):
        analyse(record, [[1]])  # type: ignore[list-item]


# -- mizerka analyse -------------------------------------------------------------------------------------------------


def bad_inputs(tmp: Path) -> list[tuple[list[str], str]]:
    text = GOLDEN.read_text(encoding="utf-8")
    (tmp / "not-a-record.txt").write_text("Ala 7, Bolek 4, Cezary 2\nthat was a good deal\n", encoding="utf-8")
    (tmp / "truncated.mzn").write_text(text[: len(text) // 3], encoding="utf-8")
    (tmp / "truncated.json").write_text(MatchRecord.from_match(Match(seed=1, players=["A", "B", "C"])).to_json()[:200],
                                        encoding="utf-8")
    no_play = Match(seed=5, players=["Ala", "Bolek", "Cezary"])
    no_play.play(no_play.deal.forced_action() or next(iter(no_play.legal_actions)))  # a contract, no card
    (tmp / "no-play.mzn").write_text(MatchRecord.from_match(no_play).to_text(), encoding="utf-8")
    golden = str(GOLDEN)
    return [
        ([str(tmp / "missing.mzn")], "does not exist"),
        ([str(tmp)], "is a directory"),
        ([str(tmp / "not-a-record.txt")], "not-a-record.txt: line 1"),
        ([str(tmp / "truncated.mzn")], "truncated.mzn: line"),
        ([str(tmp / "truncated.json")], "truncated.json: line"),
        ([golden, "--deal", "19"], "deal 19 has no play in this record"),
        ([golden, "--deal", "0"], "deal 0 has no play in this record"),
        ([golden, "--deal", "99999999"], "past the last deal of any match"),
        ([str(tmp / "no-play.mzn")], "no deal of the record has reached its play"),
        ([golden, "--depth", "3"], "No such option"),
        ([golden, "--deal"], "requires an argument"),
    ]


def test_bad_input_is_a_message_and_exit_status_2(tmp_path: Path) -> None:
    for args, message in bad_inputs(tmp_path):
        result = CliRunner().invoke(cli, ["analyse", *args])
        assert result.exit_code == 2, (args, result.output)
        assert isinstance(result.exception, SystemExit) and "Traceback" not in result.output, args
        assert message in result.output.replace("'", ""), (args, result.output)
        assert "analysing deal" not in result.output, args


@pytest.mark.parametrize("deals", ["9" * 5000, "1-" + "9" * 5000])
def test_analyse_a_deal_number_too_long_for_int_is_a_usage_error(deals: str) -> None:
    result = invoke("analyse", str(RECORDS / "partial.mzn"), "--deal", deals)
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "past the last deal" in result.output


def test_analyse_deal_numbers_are_ascii_digits() -> None:
    result = invoke("analyse", str(RECORDS / "partial.mzn"), "--deal", "\u0663")  # Arabic-Indic three
    assert result.exit_code == 2
    assert "is not a deal number" in result.output


def _record_stopped_in_the_exchange() -> str:
    match = Match(seed=11, players=NAMES)
    while match.deal.phase is not Phase.EXCHANGE:
        match.push(next(iter(match.legal_actions)))
    return MatchRecord.from_match(match).to_text()


@pytest.mark.parametrize("options", [[], ["--json"]])
def test_analyse_of_a_record_with_no_card_played_is_refused(options: list[str], tmp_path: Path) -> None:
    """Before: an empty report ("0 cards with a choice", or JSON without deals) and exit code 0."""
    path = tmp_path / "exchange.mzn"
    path.write_text(_record_stopped_in_the_exchange(), encoding="utf-8")
    result = invoke("analyse", str(path), *options)
    assert result.exit_code == 2, result.output
    assert "no deal of the record has reached its play" in result.output
    assert "cards with a choice" not in result.output
    solved = invoke("solve", str(path))  # the same record, refused by solve as well
    assert solved.exit_code == 2


def test_a_record_that_breaks_a_rule_is_told_as_replay_and_solve_tell_it(tmp_path: Path) -> None:
    """``mizerka analyse`` printed click's "Usage: ... Try 'mizerka analyse --help'" banner before the message (a
    usage error), where ``replay`` and ``solve`` print only the ``Error:`` line: a bad record is no usage error."""
    text = GOLDEN.read_text(encoding="utf-8")
    assert "1 @2: TC 6C 7C" in text
    path = tmp_path / "bad.mzn"
    path.write_text(text.replace("1 @2: TC 6C 7C", "1 @2: TC 7C 6C"), encoding="utf-8")
    said = {command: CliRunner().invoke(cli, [command, str(path)]) for command in ("analyse", "replay", "solve")}
    for command, result in said.items():
        assert result.exit_code == 2, (command, result.output)
        assert result.stdout == "" and "Usage:" not in result.stderr and "Try 'mizerka" not in result.stderr
        assert result.stderr == (f"Error: {path}: deal 1, trick 1, card 7C: illegal action 7C: 7C is not in seat "
                                 "0's hand\n"), (command, result.stderr)
    score_only = CliRunner().invoke(cli, ["analyse", str(RECORDS / "score-only.mzn")])
    assert score_only.exit_code == 2 and score_only.stderr.startswith("Error: ") and "Usage:" not in score_only.stderr
