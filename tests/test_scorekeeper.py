"""The scorekeeper for a real table (``mizerka score``), driven through click's CLI runner as a keeper would.

The reference for a whole match is a match the engine played with random bots: its contracts and tricks are typed
into the scorekeeper, which must arrive at the engine's scores, totals and winners.  A trick count of any length is
read as a count (too many tricks), never as a word.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from mizerka.bots import make_bot
from mizerka.cli import cli
from mizerka.match import Match
from mizerka.record import read
from mizerka.rules import STANDARD, Contract, parse_variant
from mizerka.scorekeeper import EntryError, ScoreKeeper

NAMES = ["Ala", "Bolek", "Cezary"]


def engine_match(seed: int = 11) -> Match:
    """A whole match played by the engine with random bots: the 'real table' whose score we keep."""
    match = Match(STANDARD, players=NAMES, seed=seed)
    bots = [make_bot("random", seed=seed + s) for s in range(3)]
    while not match.is_over():
        seat = match.to_move
        match.push(bots[seat].decide(match.observation(seat)).action)
    return match


def entries(match: Match) -> list[str]:
    """What the keeper types for *match*: names, first dealer, then contract and tricks (seat order) per deal."""
    lines = [*NAMES, NAMES[match.first_dealer]]
    for result in match.results():
        lines.append(str(result.contract))
        lines.append(" ".join(str(t) for t in result.tricks))
    return lines


def run(args: list[str], lines: list[str]) -> Result:
    return CliRunner().invoke(cli, ["score", *args], input="".join(line + "\n" for line in lines))


@pytest.fixture(scope="module")
def played() -> Match:
    return engine_match()


def test_whole_match_matches_the_engine(played: Match, tmp_path: Path) -> None:
    save = tmp_path / "match.mzn"
    result = run(["--file", str(save)], entries(played))
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Not accepted" not in out
    assert out.count("Deal 18 (") == 1 and "The match is over.  Final standing:" in out
    outcome = played.outcome()
    winner_names = [NAMES[s] for s in outcome.winners]
    assert all(name in out.split("Final standing:")[1] for name in winner_names)
    record = read(save)
    assert record.is_over() and record.score_only
    assert record.totals == tuple(played.totals)
    assert [(r.contract, r.tricks, r.scores) for r in record.results()] == [
        (r.contract, r.tricks, r.scores) for r in played.results()
    ]
    # the sheet in the seeds' form after the last deal: the grid with one X per contract and player
    grid = out.split("player  ♣  ♦  ♥  ♠  NT  MZ  total")[-1].splitlines()[1:4]
    for line, total in zip(grid, played.totals, strict=True):
        assert line.count("X") == 6 and line.split()[-1] == (f"{total:+d}" if total else "0")
    assert "take" in out and "avoid" in out


def test_resume_after_quit_and_after_end_of_input(played: Match, tmp_path: Path) -> None:
    lines = entries(played)
    save = tmp_path / "m.mzn"
    # stop with quit just after deal 5's contract: the contract is kept
    cut = 4 + 2 * 4 + 1
    first = run(["--file", str(save)], [*lines[:cut], "quit"])
    assert first.exit_code == 0, first.output
    assert "Resume with: mizerka score --resume" in first.output
    kept = read(save)
    assert len(kept.deals) == 5 and kept.deals[-1].contract is not None and not kept.deals[-1].is_over
    # input ends in deal 9 (after its contract and before its tricks): exit 1, everything saved
    second = run(["--resume", str(save)], lines[cut:cut + 8])
    assert second.exit_code == 1
    assert "Input ended in deal 9; saved" in second.output
    assert len(read(save).deals) == 9
    third = run(["--resume", str(save)], lines[cut + 8:])
    assert third.exit_code == 0, third.output
    assert "Resuming" in third.output and "Final standing" in third.output
    assert read(save).totals == tuple(played.totals)
    # a finished match resumes straight to its standing
    again = run(["--resume", str(save)], [])
    assert again.exit_code == 0 and "Final standing" in again.output


def test_exports(played: Match, tmp_path: Path) -> None:
    save, sheet, record_path = tmp_path / "m.mzn", tmp_path / "sheet.csv", tmp_path / "rec.json"
    result = run(["--file", str(save), "--export-csv", str(sheet), "--export-record", str(record_path)],
                 entries(played))
    assert result.exit_code == 0, result.output
    rows = list(csv.reader(io.StringIO(sheet.read_text(encoding="utf-8"))))
    assert rows[0][:5] == ["deal", "dealer", "chooser", "contract", "goal"]
    assert len(rows) == 1 + 18
    assert [int(v) for v in rows[-1][-3:]] == list(played.totals)
    for row, deal in zip(rows[1:], played.results(), strict=True):
        assert row[3] == str(deal.contract) and row[4] == deal.contract.goal
        assert tuple(int(v) for v in row[5:8]) == deal.tricks
    exported = read(record_path)
    assert record_path.read_text(encoding="utf-8").lstrip().startswith("{")
    assert exported.score_only and exported.totals == tuple(played.totals) and exported.is_over()
    # a text record by any other name
    text_path = tmp_path / "rec.mzn"
    assert run(["--resume", str(save), "--export-record", str(text_path)], []).exit_code == 0
    assert read(text_path) == exported


def test_undo(tmp_path: Path) -> None:
    save = tmp_path / "u.mzn"
    lines = ["Ala", "undo", "Ala", "Bolek", "Cezary", "undo", "Cezary", "Ala",
             "undo", "Ala",        # no contract yet: back to the first dealer, given again
             "NT", "undo", "H",    # contract undone and entered again
             "5 4 4", "undo", "4 5 4", "sheet", "quit"]
    result = run(["--file", str(save)], lines)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Undone: the name 'Ala'" in out and "Undone: the name 'Cezary'" in out
    assert "Undone: Ala as the first dealer." in out
    assert "Undone: deal 1's contract (NT)" in out and "Undone: deal 1's tricks" in out
    record = read(save)
    assert record.first_dealer == 0 and record.deals[0].contract is Contract.HEARTS
    assert record.deals[0].tricks_won == (4, 5, 4)


def test_shared_win_is_stated(tmp_path: Path) -> None:
    # everyone makes exactly his quota every deal: 0, 0, 0 and a three-way shared win
    keeper = ScoreKeeper.new(NAMES, "Ala")
    lines = [*NAMES, "Ala"]
    for _ in range(18):
        fh, mh, dl = (keeper.players[s] for s in keeper.active_of(keeper.deal_no))
        contract = keeper.allowed_contracts()[0]
        quotas = [STANDARD.quota(role, contract) for role in range(3)]
        keeper.enter_contract(contract)
        keeper.enter_tricks(f"{fh} {quotas[0]} {mh} {quotas[1]} {dl} {quotas[2]}")
        lines += [contract.symbol, f"{fh}={quotas[0]}, {mh}={quotas[1]}, {dl}={quotas[2]}"]
    assert keeper.outcome().winners == (0, 1, 2)
    result = run(["--file", str(tmp_path / "t.mzn")], lines)
    assert result.exit_code == 0, result.output
    assert "Ala, Bolek and Cezary share the win with 0 each." in result.output
    assert "1. Ala 0\n1. Bolek 0\n1. Cezary 0" in result.output


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        ([""], "Please answer"),
        (["   "], "Please answer"),
        (["undo"], "Nothing to undo yet"),
        (["Ala", "ala"], "'ala' is already a player; names must differ"),
        (["sheet"], "There is no sheet yet"),
        (["Quit"], "Stopped before the match began"),
        (["help"], "Contracts: C D H S"),
        (["12"], "a name cannot be a number"),
        (["x" * 41], "at most 40 characters"),
        (["Ala", "Bolek", "Cezary", "Dora"], "'Dora' is not a player (the players: Ala, Bolek, Cezary)"),
        (["Ala", "Bolek", "Bogdan", "Bo"], "'Bo' fits several players: Bolek, Bogdan"),
        (["Ala", "Bolek", "Cezary", "Ala", "X"], "'X' is not a contract: use one of C D H S NT MZ"),
        (["Ala", "Bolek", "Cezary", "Ala", "NT", "5 4"], "give 3 numbers, one each for Ala, Bolek, Cezary (got 2)"),
        (["Ala", "Bolek", "Cezary", "Ala", "NT", "5 4 3"], "the tricks add up to 12, not 13"),
        (["Ala", "Bolek", "Cezary", "Ala", "NT", "14 0 -1"], "Ala cannot take 14 tricks (0 to 13)"),
        (["Ala", "Bolek", "Cezary", "Ala", "NT", "five 4 4"], "'five' is neither a number of tricks nor a player"),
        (["Ala", "Bolek", "Cezary", "Ala", "NT", "Ala 5 Dora 4"], "'Dora' is neither a number of tricks"),
        (["Ala", "Bolek", "Cezary", "Ala", "NT", "Ala 5 Ala 4"], "Ala is named twice"),
        (["Ala", "Bolek", "Cezary", "Ala", "NT", "Ala 5"], "give the tricks of Bolek, Cezary too"),
        (["Ala", "Bolek", "Cezary", "Ala", "NT", "Ala 9 Bolek 9"], "already add up to 18, more than 13"),
        (["Ala", "Bolek", "Cezary", "Ala", "NT", "5 4 4", "NT", "5 4 4", "NT", "5 4 4", "nt"],
         "Bolek has no NT left to choose (already used); choose from ♣ ♦ ♥ ♠ MZ"),
    ],
)
def test_bad_entries_are_asked_again(lines: list[str], message: str, tmp_path: Path) -> None:
    save = tmp_path / "bad.mzn"
    result = run(["--file", str(save)], [*lines, "quit"])
    assert result.exit_code == 0, result.output
    assert message in result.output
    assert "Traceback" not in result.output
    if save.exists():  # whatever was accepted before is kept
        record = read(save)
        assert record.players[0] == lines[0]


def test_bad_entry_keeps_what_was_entered(tmp_path: Path) -> None:
    save = tmp_path / "keep.mzn"
    result = run(["--file", str(save)], ["Ala", "Bolek", "Cezary", "Ala", "NT", "5 4 3", "6 4 3", "quit"])
    assert result.exit_code == 0 and "the tricks add up to 12" in result.output
    assert read(save).deals[0].tricks_won == (6, 4, 3)


def test_sitting_out_and_variant_contracts() -> None:
    four = ScoreKeeper.new(["A", "B", "C", "D"], "A", parse_variant("four-players"))
    assert four.tricks_order() == [1, 2, 3]
    four.enter_contract("S")
    with pytest.raises(EntryError, match="A deals and sits out this deal"):
        four.enter_tricks("A 3, B 5, C 5")
    assert four.enter_tricks("B 7, C 5").tricks == (0, 7, 5, 1)
    short = ScoreKeeper.new(NAMES, 0, parse_variant("standard,contracts=NT+MZ"))
    with pytest.raises(EntryError, match="hearts is not played in this variant; choose from NT MZ"):
        short.enter_contract("H")
    with pytest.raises(EntryError, match="enter deal 1's contract first"):
        short.enter_tricks("7 5 1")


def test_command_line_errors(tmp_path: Path) -> None:
    existing = tmp_path / "exists.mzn"
    existing.write_text("junk", encoding="utf-8")
    result = run(["--file", str(existing)], [])  # no score record: not overwritten, and not to be resumed
    assert result.exit_code == 2 and "exists and is not a score record" in result.output
    assert "--resume" not in result.output.split("Error:")[1]
    result = run(["--resume", str(existing)], [])
    assert result.exit_code == 2 and "is not a valid score record" in result.output
    result = run(["--resume", str(tmp_path / "missing.mzn")], [])
    assert result.exit_code == 2 and "cannot read" in result.output
    result = run(["--resume", str(existing), "--file", str(existing)], [])
    assert result.exit_code == 2 and "not both" in result.output
    result = run(["--variant", "nonsense", "--file", str(tmp_path / "n.mzn")], [])
    assert result.exit_code == 2 and "nonsense" in result.output
    full = tmp_path / "full.mzn"
    match = Match(STANDARD, players=NAMES, seed=1)
    from mizerka.record import MatchRecord

    bot = make_bot("random", seed=1)
    for _ in range(5):
        match.push(bot.decide(match.observation(match.to_move)).action)
    full.write_text(MatchRecord.from_match(match).to_text(), encoding="utf-8")
    result = run(["--resume", str(full)], [])
    assert result.exit_code == 2 and "score-only records" in result.output
    for outcome in (run(["--file", str(tmp_path / "x.mzn")], ["Ala"]),):
        assert outcome.exit_code == 1 and "Traceback" not in outcome.output


def test_a_saved_deal_without_its_contract_is_entered_afresh(tmp_path: Path) -> None:
    """A valid record may end in a deal with only its number and dealer.  The keeper entered the next contract
    as a second deal of that number (refused for ever), and undo then failed on an assertion."""
    save = tmp_path / "begun.mzn"
    keeper = ScoreKeeper.new(NAMES, 2)
    keeper.enter_contract("H")
    keeper.enter_tricks("7 3 3")
    text = keeper.record.to_text().rstrip("\n") + '\n\n[Deal "2"]\n[Dealer "0"]\n'
    save.write_text(text, encoding="utf-8")
    resumed = ScoreKeeper.load(save)
    assert resumed.deal_no == 2 and resumed.pending is None and len(resumed.deals) == 1
    resumed.enter_contract("MZ")
    assert resumed.undo() == "deal 2's contract (MZ)" and len(resumed.deals) == 1
    result = run(["--resume", str(save)], ["MZ", "undo", "quit"])
    assert result.exit_code == 0 and "Undone: deal 2's contract (MZ)" in result.output
    assert "Traceback" not in result.output


def test_tricks_as_a_sequence_name_every_seat() -> None:
    three = ScoreKeeper.new(NAMES, 0)
    three.enter_contract("NT")
    for wrong in ((7, 5), (7, 5, 1, 0)):  # IndexError, and a silently dropped value, before
        with pytest.raises(EntryError, match="give 3 trick counts, one per seat"):
            three.enter_tricks(wrong)
    four = ScoreKeeper.new(["A", "B", "C", "D"], "A", parse_variant("four-players"))
    four.enter_contract("S")
    with pytest.raises(EntryError, match="A deals and sits out this deal: 0 tricks, not 9"):
        four.enter_tricks((9, 7, 5, 1))
    assert four.enter_tricks((0, 7, 5, 1)).tricks == (0, 7, 5, 1)


def test_names_and_dealers_that_are_not_text_are_refused() -> None:
    with pytest.raises(EntryError, match="a name is text"):
        ScoreKeeper.new(["A", None, "B"], 0)  # type: ignore[list-item]
    with pytest.raises(EntryError, match="the first dealer is a name or a seat number"):
        ScoreKeeper.new(["A", "B", "C"], None)  # type: ignore[arg-type]


@pytest.mark.parametrize("players", ["ABC", b"ABC", None, 3])
def test_players_that_are_no_list_of_names_are_refused(players: object) -> None:
    """"ABC" used to give the players A, B and C (``Match`` refuses it), and ``None`` a ``TypeError``."""
    with pytest.raises(EntryError, match="give the players' names as a list"):
        ScoreKeeper.new(players, 0)  # type: ignore[arg-type]


@pytest.mark.parametrize("tricks", [None, 13, 4.5, b"4 4 5"])
def test_tricks_that_are_no_text_nor_counts_are_refused(tricks: object) -> None:
    """They used to fail with a ``TypeError`` (``len()`` of a number); nothing is entered."""
    keeper = ScoreKeeper.new(["Ala", "Bolek", "Cezary"], 0)
    keeper.enter_contract("H")
    with pytest.raises(EntryError, match="give the tricks as text or as 3 counts"):
        keeper.enter_tricks(tricks)  # type: ignore[arg-type]
    assert keeper.deals[-1].tricks_won is None


def test_an_export_may_not_overwrite_the_saved_match(tmp_path: Path) -> None:
    save = tmp_path / "m.mzn"
    for option in ("--export-csv", "--export-record"):
        result = run(["--file", str(save), option, str(save)], ["Ala", "Bolek", "Cezary", "Ala", "quit"])
        assert result.exit_code == 2 and "is the file the match is saved in" in result.output
        assert not save.exists()


def test_the_two_exports_may_not_share_a_file(tmp_path: Path) -> None:
    """The record export would overwrite the CSV export (it is written second) without a word."""
    save, both = tmp_path / "m.mzn", tmp_path / "out.txt"
    result = run(["--file", str(save), "--export-csv", str(both), "--export-record", str(both)],
                 ["Ala", "Bolek", "Cezary", "Ala", "quit"])
    assert result.exit_code == 2 and "name the same file" in result.output
    assert not save.exists() and not both.exists()


def test_a_variant_warning_is_a_message_not_a_python_warning(tmp_path: Path) -> None:
    result = run(["--file", str(tmp_path / "w.mzn"), "--variant", "standard,quota_ordinary=7/5/2"], ["quit"])
    assert "warning: variant 'standard,quota_ordinary=7/5/2': quotas (7, 5, 2)" in result.output
    assert "UserWarning" not in result.output


def mistyped_last_deal(match: Match) -> list[str]:
    """The keeper's lines for *match* with the last deal's tricks mistyped (rotated: still 13, other scores)."""
    lines = entries(match)
    a, b, c = lines[-1].split()
    return [*lines[:-1], f"{b} {c} {a}"]


def test_the_last_deal_can_be_undone(played: Match, tmp_path: Path) -> None:
    """Once all 18 deals were in, the match ended at once: a mistyped last deal could not be taken back."""
    save = tmp_path / "last.mzn"
    lines = mistyped_last_deal(played)
    result = run(["--file", str(save)], [*lines, "undo", "sheet", entries(played)[-1]])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Traceback" not in out and "Not accepted" not in out
    assert out.count("The match is over.  Final standing:") == 2  # after the mistyped deal, and after the right one
    after_undo = out.split("Undone: deal 18's tricks.")[1].split("Deal 18 (")[0]
    assert "tricks of Ala, Bolek, Cezary" in after_undo  # deal 18 asks for its tricks again
    table = after_undo.split("deal  dealer")[1].splitlines()  # the sheet, as the keeper asked for it
    assert any(row.startswith("17 ") for row in table) and not any(row.startswith("18 ") for row in table)
    record = read(save)
    assert record.is_over() and record.totals == tuple(played.totals)
    assert [(r.contract, r.tricks) for r in record.results()] == [(r.contract, r.tricks) for r in played.results()]
    last_standing = out.split("Final standing:")[-1]
    assert all(f". {NAMES[s]} " in last_standing for s in played.outcome().winners)


def test_a_finished_match_resumed_can_undo_its_last_deal(played: Match, tmp_path: Path) -> None:
    """A finished match resumed went straight to its standing: its last deal could not be taken back either."""
    save = tmp_path / "done.mzn"
    assert run(["--file", str(save)], mistyped_last_deal(played)).exit_code == 0
    wrong = read(save)
    assert wrong.is_over() and wrong.totals != tuple(played.totals)
    # undo, then stop: the file keeps the undo, as after any other undo (deal 18 has its contract, no tricks)
    undone = run(["--resume", str(save)], ["undo", "quit"])
    assert undone.exit_code == 0, undone.output
    assert "Undone: deal 18's tricks." in undone.output and "Stopped in deal 18" in undone.output
    kept = read(save)
    assert not kept.is_over() and len(kept.deals) == 18
    assert kept.deals[-1].contract is played.results()[-1].contract and kept.deals[-1].tricks_won is None
    assert kept.totals == tuple(w - s for w, s in zip(wrong.totals, wrong.results()[-1].scores, strict=True))
    # resumed again: deal 18 asks for its tricks, and the right ones give the engine's totals
    fixed = run(["--resume", str(save)], [entries(played)[-1]])
    assert fixed.exit_code == 0 and "Final standing" in fixed.output, fixed.output
    assert read(save).is_over() and read(save).totals == tuple(played.totals)
    # the same in the library: a finished match loaded, undone, entered again
    keeper = ScoreKeeper.load(save)
    assert keeper.undo() == "deal 18's tricks"
    assert not keeper.is_over() and keeper.deal_no == 18 and keeper.pending is played.results()[-1].contract
    assert len(keeper.sheet().results) == 17
    assert keeper.enter_tricks(played.results()[-1].tricks).scores == played.results()[-1].scores
    assert keeper.is_over() and keeper.totals() == tuple(played.totals)


def test_the_end_question_refuses_other_answers(played: Match, tmp_path: Path) -> None:
    save = tmp_path / "end.mzn"
    result = run(["--file", str(save)], [*entries(played), "NT", "sheet", ""])
    assert result.exit_code == 0, result.output
    assert "Not accepted: the match is over; press Enter to finish, or type undo" in result.output
    assert read(save).totals == tuple(played.totals)


SPACED = ["Anna Maria", "Jan 2", "Ola"]


@pytest.mark.parametrize(
    "line",
    [
        "Anna Maria 5, Jan 2 4, Ola 4",
        "Anna Maria 5 Jan 2 4",  # Ola took the rest
        "Jan 2 4 Ola 4",
        "Ola 4 Jan 2 4",
        "jan 2=4 ola=4",
        "Anna Maria: 5; Jan 2: 4",
        "Anna Maria, 5, Jan 2, 4",  # a comma between a name and its number, as before
        '"Jan 2" 4 Ola 4',
        "„Jan 2” 4, 'Ola' 4",
        "Anna 5, Jan 4",  # shortenings still do
        "anna m 5 J 4",
        "5 4 4",
        "5, 4, 4",
    ],
)
def test_names_with_spaces_and_digits(line: str) -> None:
    """Names were split at spaces and their digits read as tricks: 'Anna Maria' and 'Jan 2' could not be named."""
    keeper = ScoreKeeper.new(SPACED, "Ola")
    keeper.enter_contract("H")
    assert keeper.enter_tricks(line).tricks == (5, 4, 4)


@pytest.mark.parametrize(
    ("players", "line", "message"),
    [
        # a shorter name whose number is the end of a longer name: which is meant?
        (["Jan", "Jan 2", "Ola"], "Jan 2 Ola 4",
         "'Jan 2' is ambiguous: the name Jan 2 (its tricks not given), or Jan with 2 tricks; write name=tricks "
         "(Jan=2) or put the name in quotes"),
        (SPACED, "Jan 2 Ola 4",
         "'Jan 2' is ambiguous: the name Jan 2 (its tricks not given), or 'Jan' (short for Jan 2) with 2 tricks"),
        # two names that differ only by punctuation at the end: both readings are whole, quotes decide
        (["Ala", "Ala:", "Ola"], "Ala: 5 Ola 4",
         "'Ala: 5 Ola 4' is ambiguous: it reads as Ala=5, Ola=4 and as Ala:=5, Ola=4; put the names in quotes"),
        (SPACED, '"Jan 2 4 Ola 4', "the quote \" before 'Jan 2 4 Ola 4' is not closed"),
        (SPACED, '"Jan 3" 4 Ola 4', "'Jan 3' is not a player (the players: Anna Maria, Jan 2, Ola)"),
        (["Jan 2", "Jan 3", "Ola"], "Jan 4 Ola 4", "'Jan' fits several players: Jan 2, Jan 3"),
        (SPACED, "Anna Maria", "the number of tricks after 'Anna Maria' is missing"),
        (SPACED, "Ola Jan 2", "'Jan' is not a number of tricks (for Ola)"),
        (SPACED, "Maria 5 Ola 4", "'Maria' is neither a number of tricks nor the start of a player's name"),
        (SPACED, "Ola 4 Dora 5", "'Dora' is neither a number of tricks nor a player's name (Anna Maria, Jan 2, Ola)"),
        (SPACED, "Ola 4 4", "'4' stands where a player's name should"),
        (SPACED, "Jan 2 4, Jan 2 5", "Jan 2 is named twice"),
    ],
)
def test_names_that_cannot_be_told_apart_are_refused(players: list[str], line: str, message: str) -> None:
    keeper = ScoreKeeper.new(players, 0)
    keeper.enter_contract("NT")
    before = keeper.record
    with pytest.raises(EntryError) as caught:
        keeper.enter_tricks(line)
    assert message in str(caught.value)
    assert keeper.record == before  # nothing changed


def test_the_longest_name_wins_and_quotes_or_equals_choose() -> None:
    keeper = ScoreKeeper.new(["Jan", "Jan 2", "Ola"], 2)
    keeper.enter_contract("NT")
    assert keeper.parse_tricks("Jan 2 4 Ola 4") == (5, 4, 4)  # "Jan 2" with 4, not Jan with 2
    assert keeper.parse_tricks("Jan 2 2 Ola 4 Jan 7") == (7, 2, 4)
    assert keeper.parse_tricks("Jan=2 Ola 4") == (2, 7, 4)
    assert keeper.parse_tricks('"Jan" 2 Ola 4') == (2, 7, 4)
    colon = ScoreKeeper.new(["Ala", "Ala:", "Ola"], 2)
    colon.enter_contract("NT")
    assert colon.parse_tricks('"Ala:" 5 Ola 4') == (4, 5, 4)


def test_names_of_numbers_alone_are_refused_and_an_old_one_is_not_guessed() -> None:
    with pytest.raises(EntryError, match="a name cannot be numbers alone"):
        ScoreKeeper.new(["2 4", "Ala", "Ola"], 0)
    # a record written elsewhere may hold such a name: "2 4 9" is then the numbers in order, or "2 4" with 9
    from mizerka.record import MatchRecord

    keeper = ScoreKeeper.from_record(MatchRecord(STANDARD, ("2 4", "Ala", "Ola"), 2, (), {}))
    keeper.enter_contract("NT")
    with pytest.raises(EntryError, match="'2 4 9' is ambiguous: the numbers for 2 4, Ala, Ola in that order, or "
                                         "2 4=9 by name; put the names in quotes"):
        keeper.enter_tricks("2 4 9")
    assert keeper.enter_tricks('"2 4" 9 Ala 2').tricks == (9, 2, 2)
    assert keeper.enter_contract("MZ") and keeper.enter_tricks("5 4 4").tricks == (5, 4, 4)


def test_names_with_spaces_and_digits_at_the_table(tmp_path: Path) -> None:
    save = tmp_path / "spaced.mzn"
    lines = ["Anna   Maria", "Jan 2", "Ola", "jan 2",  # Jan 2 deals first: Ola chooses
             "H", "Jan 2 Ola 4",  # ambiguous with the shortening "Jan": asked again
             "Anna Maria 5, Jan 2 4", "quit"]
    result = run(["--file", str(save)], lines)
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    assert "tricks of Anna Maria, Jan 2, Ola" in result.output
    assert "Not accepted: 'Jan 2' is ambiguous" in result.output
    record = read(save)
    assert record.players == ("Anna Maria", "Jan 2", "Ola") and record.first_dealer == 1
    assert record.deals[0].tricks_won == (5, 4, 4)


def test_a_very_long_line_is_an_entry_error() -> None:
    keeper = ScoreKeeper.new(SPACED, 0)
    keeper.enter_contract("NT")
    with pytest.raises(EntryError, match="Ola is named twice"):  # read in a loop: no RecursionError
        keeper.enter_tricks("Ola 4 " * 3000)
    with pytest.raises(EntryError, match="is ambiguous"):
        keeper.enter_tricks("Jan 2 " * 3000)


def test_a_refused_name_of_a_new_match_says_which_player_it_is() -> None:
    """The names of a new match come together (the browser's score pad sends them in one request): the refusal
    says whose name it is (session 14: only what was wrong)."""
    with pytest.raises(EntryError, match=r"^player 2's name: a name cannot hold control characters \(U\+0007\)$"):
        ScoreKeeper.new(["Ala", "Bo\x07lek", "Cezary"], first_dealer=0)
    with pytest.raises(EntryError, match=r"^player 3's name: 'ala' is already a player"):
        ScoreKeeper.new(["Ala", "Bolek", "ala"], first_dealer=0)


@pytest.mark.parametrize("line", ["\u0663 \uff15 5", "\uff17 5 1", "7 5 \u0661"])
def test_trick_counts_take_ascii_digits_only(line: str) -> None:
    """Arabic-Indic or full-width digits are not read as counts (every number the project reads is ASCII)."""
    keeper = ScoreKeeper.new(["A", "B", "C"], 0)
    keeper.enter_contract("NT")
    with pytest.raises(EntryError, match="neither a number of tricks nor a player's name"):
        keeper.enter_tricks(line)
    assert keeper.deals[-1].tricks_won is None


# -- a huge trick count ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("entry", ["99999999999999999999999999 0 0", "Ala 99999999999999999999999999 Bolek 0",
                                   "1" * 5000 + " 0 0"])
def test_a_huge_trick_count_is_too_many_tricks_not_a_word(entry: str) -> None:
    """More than 6 digits was no number to the trick reader: ``99999999999999999999999999 0 0`` was "neither a
    number of tricks nor a player's name", where -1 gets "Ala cannot take -1 tricks (0 to 13)"."""
    keeper = ScoreKeeper.new(["Ala", "Bolek", "Cezary"], 2)
    keeper.enter_contract("H")
    with pytest.raises(EntryError) as info:
        keeper.parse_tricks(entry)
    message = str(info.value)
    assert "cannot take " in message and "… tricks (0 to 13)" in message and len(message) < 100, message
