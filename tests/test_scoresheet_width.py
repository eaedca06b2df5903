"""The score sheet on a narrow terminal: the table of deals leaves out the dealer and goal columns when it would
overrun the terminal (80 columns: three names of up to six letters fit), then each deal's scores if it still would
(four players), and keeps every column where there is room or no terminal at all (a file, a pipe: every reader of
the output gets the same table)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from mizerka.cli import cli, terminal_width
from mizerka.match import DealResult
from mizerka.rules import Contract, get_variant
from mizerka.scoresheet import ScoreSheet
from pty_helpers import at_terminal

NAMES = ["Ala", "Bolek", "Cezary"]
RESULTS = [DealResult(1, 2, 0, Contract.HEARTS, (5, 4, 4), (-2, -1, 3), (0, 0, 0)),
           DealResult(2, 0, 1, Contract.MIZERKA, (7, 3, 3), (0, -2, 2), (0, 0, 0))]


def widest(text: str) -> int:
    return max(len(line) for line in text.splitlines())


def test_the_table_keeps_every_column_where_it_fits() -> None:
    sheet = ScoreSheet(NAMES, RESULTS)
    full = sheet.table()
    assert widest(full) > 80 and full.splitlines()[0].split()[:6] == ["deal", "dealer", "chooser", "contract",
                                                                        "goal", "tricks"]
    assert sheet.table(width=widest(full)) == full and sheet.table(width=200) == full
    assert sheet.text() == str(sheet) == sheet.grid() + "\n\n" + full


def test_a_narrow_terminal_drops_the_dealer_and_the_goal() -> None:
    sheet = ScoreSheet(NAMES, RESULTS)
    narrow = sheet.table(width=80)
    assert widest(narrow) <= 80
    header, *rows = narrow.splitlines()
    assert header.split() == ["deal", "chooser", "contract", "tricks", *NAMES, "|", *NAMES]
    assert rows[1].split() == ["2", "Bolek", "MZ", "7", "3", "3", "0", "-2", "+2", "|", "-2", "-3", "+5"]
    assert sheet.text(80) == sheet.grid() + "\n\n" + narrow
    # names too long for any terminal: the narrow table is still the narrowest there is
    long = ScoreSheet(["Aleksandra", "Bolesław", "Czesława"], RESULTS)
    assert widest(long.table(width=60)) > 60 and "goal" not in long.table(width=60)


def test_four_players_narrowed_keep_the_sitting_out_dash() -> None:
    rules = get_variant("four-players")
    results = [DealResult(1, 3, 0, Contract.CLUBS, (7, 5, 1, 0), (0, 0, 0, 0), (0, 0, 0, 0))]
    sheet = ScoreSheet(["Ala", "Bolek", "Cezary", "Dorota"], results, rules)
    narrow = sheet.table(width=80)  # eight name columns: the deal's scores go too, the running totals stay
    assert widest(narrow) <= 80
    header, row = narrow.splitlines()
    assert header.split() == ["deal", "chooser", "contract", "tricks", "|", "Ala", "Bolek", "Cezary", "Dorota"]
    assert row.split() == ["1", "Ala", "♣", "7", "5", "1", "-", "|", "0", "0", "0", "0"]


def test_the_deals_scores_go_only_where_the_first_narrowing_is_not_enough() -> None:
    rules = get_variant("four-players")
    results = [DealResult(1, 3, 0, Contract.CLUBS, (8, 4, 1, 0), (1, -1, 0, 0), (0, 0, 0, 0))]
    sheet = ScoreSheet(["Ala", "Bolek", "Cezary", "Dorota"], results, rules)
    first = sheet.table(width=widest(sheet.table()) - 1)  # one column short of the full table
    assert "goal" not in first and first.splitlines()[0].split().count("Ala") == 2
    assert sheet.table(width=widest(first)) == first
    assert sheet.table(width=widest(first) - 1).splitlines()[0].split().count("Ala") == 1


def test_no_terminal_no_width() -> None:
    """Under a test runner, a pipe or a file, the output is no terminal: every column is written."""
    assert terminal_width() is None
    result = CliRunner().invoke(cli, ["replay", "tests/data/records/standard-seed7.mzn"])
    assert result.exit_code == 0 and "dealer  chooser  contract  goal" in result.output


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
@pytest.mark.parametrize(("columns", "narrow"), [(80, True), (120, False)])
def test_mizerka_score_at_a_terminal_fits_its_width(tmp_path: Path, columns: int, narrow: bool) -> None:
    keys = [f"{key}\r" for key in [*NAMES, "Cezary", "H", "5 4 4", "S", "7 5 1", "sheet", "quit"]]
    output, status = at_terminal(["--file", "m.mzn"], keys, tmp_path, columns=columns)
    assert status == 0, output
    lines = output.replace("\r", "").splitlines()
    tables = [line for line in lines if line.startswith("deal ")]
    assert tables and all(("dealer" not in t) is narrow for t in tables)
    assert widest("\n".join(line for line in lines if "|" in line)) <= columns


def test_replay_at_a_terminal_fits_its_width(tmp_path: Path) -> None:
    record = Path("tests/data/records/standard-seed7.mzn").resolve()
    output, status = at_terminal([str(record)], [], tmp_path, command="replay", columns=80)
    assert status == 0, output
    table = [line for line in output.replace("\r", "").splitlines() if "|" in line]
    assert len(table) == 19 and widest("\n".join(table)) <= 80 and "goal" not in table[0]
