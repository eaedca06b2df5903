"""``mizerka solve``: text positions, moments of record files, and bad input (message, non-zero exit).

The record to solve: one read from a pipe (``/dev/stdin``, ``<(cat game.mzn)``), as ``replay`` reads it; a mistyped
record name is told as a missing file, not as bad position text (text with a ``;`` is still position text); a folder
is named as one.  The deal and the moment: by default the last deal that reached its play (a record saved during
deal 2's exchange solves deal 1), the deals that can be solved named when the one asked for cannot be; ``--card``
needs ``--trick`` (alone it was ignored, and another moment solved).
"""

from __future__ import annotations

import io
import os
import warnings
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from deal_helpers import record_in_deal_2_exchange
from mizerka.cards import CARDS
from mizerka.cli import cli
from mizerka.deal import Phase
from mizerka.match import Match
from mizerka.record import MatchRecord, RecordError, read
from mizerka.rules import get_variant
from mizerka.solver import InvalidPositionError, Position, cli_solve, format_solution, solve_all
from mizerka.solver.cli import position_from_record
from mizerka.solver.position import StockNotEmptyError

RECORDS = Path(__file__).parent / "data" / "records"
TEXT = "NT; lead 0; S:AK H:- D:- C:2 / S:Q2 H:- D:- C:3 / S:- H:- D:A2 C:4"


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def test_text_position_prints_every_legal_card_value() -> None:
    result = run("solve", TEXT)
    assert result.exit_code == 0, result.output
    assert result.output == cli_solve(TEXT) + "\n"
    lines = result.output.splitlines()
    assert [line.split() for line in lines[2:]] == [["A♠", "2"], ["K♠", "2"], ["2♣", "0"]]


def test_text_position_for_another_seat() -> None:
    result = run("solve", TEXT, "--seat", "2")
    assert result.exit_code == 0, result.output
    assert "tricks for seat 2" in result.output
    assert result.output == cli_solve(TEXT, 2) + "\n"


def test_record_moment_matches_the_solver_on_the_replayed_deal() -> None:
    record = read(RECORDS / "standard-seed7.mzn")
    number, deal, position = position_from_record(record, 1, trick=4, card=2)
    assert number == 1 and len(deal.tricks) == 3 and len(deal.trick) == 1
    values = solve_all(position, deal.to_move)
    assert set(values) == {CARDS[c] for c in range(52) if deal.legal_play_mask() >> c & 1}
    result = run("solve", str(RECORDS / "standard-seed7.mzn"), "--deal", "1", "--trick", "4", "--card", "2")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[2:] == format_solution(position, values, deal.to_move).splitlines()


def test_after_counts_cards_and_agrees_with_trick_and_card() -> None:
    record = read(RECORDS / "standard-seed7.mzn")
    by_trick = position_from_record(record, 2, trick=5, card=3)[2]
    by_count = position_from_record(record, 2, after=14)[2]
    assert by_trick == by_count
    opening = position_from_record(record, 2, after=0)[2]
    assert opening.trick == () and sum(h.bit_count() for h in opening.hands) == 39


def test_default_moment_is_the_current_position_of_a_deal_in_play() -> None:
    record = read(RECORDS / "partial.mzn")
    number, deal, position = position_from_record(record)
    last = record.deals[-1]
    assert number == last.number
    assert len(deal.tricks) * 3 + len(deal.trick) == sum(len(t) for t in last.tricks)
    assert position == Position.from_deal(deal)
    result = run("solve", str(RECORDS / "partial.mzn"))
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"deal {number}, ")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("solve", "NT; lead 0; S:AK / S:AQ / S:23"), "more than one hand"),
        (("solve", "XX; lead 0"), "unknown part"),
        (("solve", TEXT, "--seat", "7"), "seat"),
        (("solve", "no-such-file", "--deal", "1"), "need a record file"),
        (("solve", str(RECORDS / "score-only.mzn")), "score-only"),
        (("solve", str(RECORDS / "partial.mzn"), "--after", "500"), "is not in it"),
        # named as asked, not as a card count computed from it ("the position after 2999…97 cards")
        (("solve", str(RECORDS / "partial.mzn"), "--trick", str(10**30)),
         f"deal 3 records 26 cards; trick {10**30} card 1 is not in it"),
        (("solve", str(RECORDS / "standard-seed7.mzn"), "--deal", "1", "--after", "39"), "is over"),
        (("solve", str(RECORDS / "standard-seed7.mzn"), "--deal", "99"), "no play"),
        (("solve", str(RECORDS / "standard-seed7.mzn"), "--trick", "1", "--card", "4"), "cards run from 1"),
        (("solve", str(RECORDS / "standard-seed7.mzn"), "--trick", "1", "--after", "2"), "not both"),
    ],
)
def test_bad_input_is_a_message_and_a_non_zero_exit(args: tuple[str, ...], message: str) -> None:
    result = run(*args)
    assert result.exit_code != 0
    assert isinstance(result.exception, SystemExit), result.exception  # no traceback
    assert message in result.output


def test_unreadable_record_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.mzn"
    bad.write_text("[RecordVersion \"1\"]\n[Deal \"x\"]\n")
    result = run("solve", str(bad))
    assert result.exit_code != 0 and isinstance(result.exception, SystemExit)
    assert str(bad) in result.output
    with pytest.raises(RecordError):
        position_from_record(read(RECORDS / "score-only.mzn"))


def first_legal_record(variant: str, actions: int) -> MatchRecord:
    """A record of *actions* actions of a seed-5 match, the first legal action each time."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # seed002-literal warns that it is not zero-sum
        match = Match(get_variant(variant), players=["A", "B", "C"], seed=5)
        for _ in range(actions):
            match.push(next(iter(match.legal_actions)))
        return MatchRecord.from_match(match)


LITERAL_WARNING = "ignore:variant 'seed002-literal'"  # its quotas are not zero-sum: it says so on every match


@pytest.mark.filterwarnings(LITERAL_WARNING)
def test_a_deal_drawing_from_its_stock_is_refused_not_solved_wrong(tmp_path: Path) -> None:
    """seed002-literal: 12 stock cards drawn during tricks 1-4 (17 tricks).  Solving the opening lead as a
    13-trick deal gave wrong values; mid-trick it failed on hand sizes.  Now a specific error, exit 1."""
    record = first_legal_record("seed002-literal", 1 + 14)  # the contract, then 14 cards: trick 5, 2nd card
    assert record.to_match().deal.phase is Phase.PLAY
    path = tmp_path / "literal.mzn"
    path.write_text(record.to_text(), encoding="utf-8")
    for after in (0, 4, 11):
        with pytest.raises(StockNotEmptyError, match=f"{12 - after} card\\(s\\) in its stock") as info:
            position_from_record(record, after=after)
        assert isinstance(info.value, InvalidPositionError) and isinstance(info.value, ValueError)
        assert "--after 12" in str(info.value)
        result = run("solve", str(path), "--after", str(after))
        assert result.exit_code == 2, result.output
        assert isinstance(result.exception, SystemExit), result.exception  # no traceback
        assert "stock" in result.output and "should hold" not in result.output
    # the stock is used up after 12 cards: from then on the deal is an ordinary 13-trick position
    _, deal, position = position_from_record(record, after=12)
    assert not deal.stock and [h.bit_count() for h in position.hands] == [13, 13, 13]
    _, deal, position = position_from_record(record)  # the current moment: trick 5, second card
    assert position.trick and position == Position.from_deal(deal)


@pytest.mark.filterwarnings(LITERAL_WARNING)
def test_from_deal_refuses_a_stock_at_the_opening_lead() -> None:
    deal = first_legal_record("seed002-literal", 1).to_match().deal
    assert deal.phase is Phase.PLAY and len(deal.stock) == 12
    with pytest.raises(StockNotEmptyError, match=r"needs every card in the hands.*12 card"):
        Position.from_deal(deal)


def test_a_deal_still_in_its_exchange_is_not_over(tmp_path: Path) -> None:
    """A record that stops during the exchange was reported as 'deal 1 is over after 0 cards'."""
    record = first_legal_record("standard", 2)  # the contract and the first hand's exchange
    assert record.to_match().deal.phase is Phase.EXCHANGE
    path = tmp_path / "exchange.mzn"
    path.write_text(record.to_text(), encoding="utf-8")
    for extra in ((), ("--after", "0")):
        result = run("solve", str(path), *extra)
        assert result.exit_code == 2 and isinstance(result.exception, SystemExit), result.output
        assert "has not reached its play" in result.output and "exchange" in result.output
        assert "is over" not in result.output
    with pytest.raises(RecordError, match="in the exchange"):
        position_from_record(record)


def test_a_record_position_says_which_hand_is_which_seat() -> None:
    """The position's text numbers its hands in the order of play, the lines after it name table seats: the
    output maps one to the other, and the printed position, solved for the hand of the seat to play, gives the
    same values."""
    record = Path(__file__).parent / "data" / "records" / "partial.mzn"
    result = run("solve", str(record), "--deal", "1", "--after", "36")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[1] == "hands in the position below, in order: seat 1, seat 2, seat 0"
    seats = [int(part.split()[-1]) for part in lines[1].split(": ", 1)[1].split(", ")]
    to_play = int(lines[3].split()[1])
    again = run("solve", lines[2], "--seat", str(seats.index(to_play)))
    assert again.exit_code == 0, again.output
    assert again.output.splitlines()[2:] == lines[4:]


# -- a position with no card left to play ------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "NT; lead 0; - / - / -",
        "MZ; lead 2; S:- H:- D:- C:- / S:- H:- D:- C:- / S:- H:- D:- C:-",
        "H; lead 1; ... / ... / ...",
        "S; lead 3; sides 0 1 0 1; - / - / - / -",
    ],
)
def test_a_position_with_no_card_left_says_so_and_exits_2(text: str) -> None:
    """Every trick played: it printed the position, a header and no card at all, with exit code 0."""
    result = run("solve", text)
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit), result.exception  # no traceback
    assert "no card is left to play" in result.output
    assert "values are tricks" not in result.output  # not the empty list of values


def test_a_position_with_no_card_left_still_names_a_bad_seat() -> None:
    result = run("solve", "NT; lead 0; - / - / -", "--seat", "7")
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit), result.output
    assert "seat 7" in result.output and "no card is left" not in result.output
    result = run("solve", "NT; lead 0; - / - / -", "--seat", "2")
    assert result.exit_code == 2 and "no card is left to play" in result.output


def test_a_finished_deal_of_a_record_says_no_card_is_left_and_the_tricks_taken() -> None:
    record = read(RECORDS / "standard-seed7.mzn")
    taken = record.deals[0].tricks_won
    assert taken is not None
    for moment in (("--after", "39"), ("--trick", "14")):
        result = run("solve", str(RECORDS / "standard-seed7.mzn"), "--deal", "1", *moment)
        assert result.exit_code == 2 and isinstance(result.exception, SystemExit), result.output
        assert "is over after 39 cards: no card is left to play" in result.output
        assert f"tricks taken, by seat: {list(taken)}" in result.output
    with pytest.raises(RecordError, match="no card is left to play"):
        position_from_record(record, 1, after=39)


def test_maxn_prints_every_players_tricks_after_each_card_the_movers_best_first() -> None:
    result = run("solve", TEXT, "--maxn")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[1] == "seat 0 to play; each player for himself (max^n); tricks for seats 0, 1, 2"
    assert [line.split() for line in lines[2:]] == [["A♠", "2", "0", "1"], ["K♠", "2", "0", "1"],
                                                   ["2♣", "0", "0", "3"]]


def test_maxn_in_mizerka_puts_the_movers_fewest_tricks_first() -> None:
    text = "MZ; lead 0; S:2 H:- D:5 C:- / S:3 H:K D:- C:- / S:4 H:Q D:- C:-"
    result = run("solve", text, "--maxn")
    assert result.exit_code == 0, result.output
    rows = [line.split() for line in result.output.splitlines()[2:]]
    # the 2 of spades is overtaken; the 5 of diamonds led wins (nobody else has one), and the others then
    # throw their spades so that the 2 of spades wins the last trick too
    assert rows == [["2♠", "0", "1", "1"], ["5♦", "2", "0", "0"]]


def test_maxn_of_a_record_moment_agrees_with_the_library_and_names_the_seats() -> None:
    from mizerka.solver.maxn import solve_maxn_all

    path = RECORDS / "standard-seed7.mzn"
    result = run("solve", str(path), "--deal", "1", "--after", "15", "--maxn")
    assert result.exit_code == 0, result.output
    _, _, position = position_from_record(read(path), 1, after=15)
    vectors = solve_maxn_all(position)
    rows = {line.split()[0]: tuple(int(v) for v in line.split()[1:]) for line in result.output.splitlines()[4:]}
    assert rows == {card.unicode(): vector for card, vector in vectors.items()}
    labels = ", ".join(str(seat) for seat in position.seat_labels())
    assert f"tricks for seats {labels}" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("solve", TEXT, "--maxn", "--seat", "1"), "--seat does not go with --maxn"),
        (("solve", "NT; lead 0; S:AKQJT98765432 H:- D:- C:- / S:- H:AKQJT98765432 D:- C:- / "
          "S:- H:- D:AKQJT98765432 C:-", "--maxn"), "at most 8 cards per hand, got 13"),
        (("solve", str(RECORDS / "standard-seed7.mzn"), "--deal", "1", "--after", "3", "--maxn"),
         "at most 8 cards per hand, got 12"),
    ],
)
def test_maxn_refusals_are_a_message_and_exit_2(args: tuple[str, ...], message: str) -> None:
    result = run(*args)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


# -- the record to solve: a pipe, a missing or mistyped name, a folder; the deal and the moment ----------------------


def invoke(*args: str, input: str | bytes | io.BytesIO | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=input)


@pytest.mark.skipif(not os.path.isdir("/dev/fd"), reason="needs /dev/fd (Linux, macOS)")
def test_solve_reads_a_record_from_a_pipe_as_replay_does() -> None:
    """``cat game.mzn | mizerka solve /dev/stdin`` and ``mizerka solve <(cat game.mzn)`` both name a pipe's
    end /dev/fd/N; before, it was read as position text ("bad position: invalid card 'dev'")."""
    text = (RECORDS / "standard-seed7.mzn").read_bytes()
    expected = invoke("solve", str(RECORDS / "standard-seed7.mzn"), "--deal", "1")
    assert expected.exit_code == 0, expected.output
    results = []
    for command in ("replay", "solve"):
        reader, writer = os.pipe()
        try:
            os.write(writer, text)  # a record of 14 kB fits in the pipe's buffer
            os.close(writer)
            extra = ["--deal", "1"] if command == "solve" else []
            results.append(invoke(command, f"/dev/fd/{reader}", *extra))
        finally:
            os.close(reader)
    replayed, solved = results
    assert replayed.exit_code == 0, replayed.output
    assert solved.exit_code == 0, solved.output
    assert solved.output == expected.output


@pytest.mark.parametrize(("source", "more"), [
    ("gam.mzn", False),
    ("records/friday.JSON", False),
    ("records/friday", True),  # no ';' and no record's ending: the message says it is no position either
    ("NT", True),
])
def test_a_missing_record_is_told_as_a_missing_file(source: str, more: bool, tmp_path: Path) -> None:
    result = invoke("solve", source)
    assert result.exit_code == 2, result.output
    assert f"Error: no such file: '{source}'" in result.output
    assert "bad position" not in result.output and "unknown part" not in result.output
    assert ("nor is it a position" in result.output) is more


@pytest.mark.parametrize(("source", "problem"), [
    ("XX; lead 0", "unknown part 'XX'"),
    ("NT; lead 0; S:AK / S:AQ / S:23", "more than one hand"),
])
def test_text_with_a_semicolon_is_still_position_text(source: str, problem: str) -> None:
    result = invoke("solve", source)
    assert result.exit_code == 2 and "bad position" in result.output and problem in result.output


def test_solve_names_a_folder_instead_of_parsing_its_path_as_a_position(tmp_path: Path) -> None:
    result = invoke("solve", str(tmp_path))
    assert result.exit_code == 2
    assert "a folder, not a record file" in result.output and "bad position" not in result.output


def test_solve_defaults_to_the_last_deal_that_reached_its_play(tmp_path: Path) -> None:
    record = record_in_deal_2_exchange()
    number, deal, _ = position_from_record(record)
    assert number == 1 and deal.phase is Phase.PLAY and not deal.tricks  # deal 1 is over: its opening lead
    path = tmp_path / "exchange.mzn"
    path.write_text(record.to_text(), encoding="utf-8")
    result = run("solve", str(path))
    assert result.exit_code == 0, result.output
    assert result.output.startswith("deal 1, ")
    # asked for by number, deal 2 keeps its error, which now names the deals that can be solved
    asked = run("solve", str(path), "--deal", "2")
    assert asked.exit_code == 2 and "deal 2 has not reached its play yet" in asked.output
    assert "deals that can be solved: 1" in asked.output
    with pytest.raises(RecordError, match=r"deals that can be solved: 1\)"):
        position_from_record(record, 2)


def test_a_record_with_no_deal_in_play_says_none_can_be_solved(tmp_path: Path) -> None:
    match = Match(get_variant("standard"), players=["A", "B", "C"], seed=5)
    match.push(next(iter(match.legal_actions)))  # the contract: deal 1 in its exchange
    path = tmp_path / "first.mzn"
    path.write_text(MatchRecord.from_match(match).to_text(), encoding="utf-8")
    result = run("solve", str(path))
    assert result.exit_code == 2 and "has not reached its play yet" in result.output
    assert "deals that can be solved: none" in result.output


def test_card_without_trick_is_refused_not_ignored() -> None:
    """``--card 3`` alone, or with ``--after``, was silently ignored: the command solved another moment."""
    path = str(RECORDS / "standard-seed7.mzn")
    for extra in (("--card", "3"), ("--card", "2", "--after", "5"), ("--card", "1")):
        result = CliRunner().invoke(cli, ["solve", path, *extra])
        assert result.exit_code == 2, result.output
        assert isinstance(result.exception, SystemExit), result.exception  # no traceback
        assert "give --trick too" in result.output
    record = read(RECORDS / "standard-seed7.mzn")
    with pytest.raises(RecordError, match="give --trick too"):
        position_from_record(record, 1, card=2)
    for bad in ({"trick": True}, {"after": 1.5}, {"deal_no": "1"}):
        with pytest.raises(RecordError, match="must be a whole number"):
            position_from_record(record, **bad)  # type: ignore[arg-type]
    assert position_from_record(record, 1, trick=2) == position_from_record(record, 1, trick=2, card=1)
