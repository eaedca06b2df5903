"""Ctrl-C at the prompts of ``mizerka score``, typed at a real terminal (a pseudo-terminal): it says "Interrupted",
where the match stopped and how to resume it, and exits with status 130 as ``mizerka play`` does, never
"Input ended" (that is Ctrl-D) and never a finish with status 0 at the end question.  Ctrl-D keeps its meaning:
status 1 in the middle of a match, a normal finish at the end question.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from mizerka.record import read
from pty_helpers import CTRL_C, CTRL_D, at_terminal

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")

NAMES = ["Ala", "Bolek", "Cezary"]


def whole_match() -> list[str]:
    """A whole match's answers: every deal each player takes his quota."""
    keys = [*NAMES, "Cezary"]
    contracts = ["C", "D", "H", "S", "NT", "MZ"]
    for deal in range(18):
        dealer = (2 + deal) % 3
        keys.append(contracts[deal // 3])
        tricks = {(dealer + 1) % 3: 7, (dealer + 2) % 3: 5, dealer: 1}
        if contracts[deal // 3] == "MZ":
            tricks = {(dealer + 1) % 3: 1, (dealer + 2) % 3: 5, dealer: 7}
        keys.append(" ".join(str(tricks[s]) for s in range(3)))
    return [key + "\r" for key in keys]


@pytest.mark.parametrize("typed", [[], ["Ala\r"], ["Ala\r", "Bolek\r", "Cezary\r"]])
def test_ctrl_c_before_the_match_began(typed: list[str], tmp_path: Path) -> None:
    output, status = at_terminal(["--file", "m.mzn"], [*typed, CTRL_C], tmp_path)
    assert status == 130, output
    assert "Interrupted before the match began; nothing was saved." in output
    assert "Input ended" not in output and "Traceback" not in output and "Aborted" not in output
    assert not (tmp_path / "m.mzn").exists()


@pytest.mark.parametrize("typed", [[], ["H\r"], ["H\r", "5 4 4\r"]])
def test_ctrl_c_in_a_deal_says_where_and_keeps_the_file(typed: list[str], tmp_path: Path) -> None:
    keys = [f"{name}\r" for name in [*NAMES, "Cezary"]] + typed
    output, status = at_terminal(["--file", "m.mzn"], [*keys, CTRL_C], tmp_path)
    assert status == 130, output
    deal = 2 if len(typed) == 2 else 1
    assert f"Interrupted in deal {deal}; saved.  Resume with: mizerka score --resume m.mzn" in output
    assert "Input ended" not in output and "Traceback" not in output
    assert len(read(tmp_path / "m.mzn").deals) == len(typed) // 2 + len(typed) % 2


def test_ctrl_d_in_a_deal_is_still_the_end_of_input(tmp_path: Path) -> None:
    keys = [f"{name}\r" for name in [*NAMES, "Cezary"]] + ["H\r"]
    output, status = at_terminal(["--file", "m.mzn"], [*keys, CTRL_D], tmp_path)
    assert status == 1, output
    assert "Input ended in deal 1; saved." in output and "Interrupted" not in output


def test_ctrl_c_at_the_end_question_is_no_normal_finish(tmp_path: Path) -> None:
    output, status = at_terminal(["--file", "m.mzn", "--export-csv", "m.csv"], [*whole_match(), CTRL_C], tmp_path)
    assert "Press Enter to finish" in output, output
    assert status == 130, output
    assert "Interrupted after the last deal; saved." in output and "Traceback" not in output
    assert (tmp_path / "m.csv").exists()  # the exports are written, as at the end of input
    assert read(tmp_path / "m.mzn").is_over()


def test_at_a_terminal_the_answers_are_not_written_twice(tmp_path: Path) -> None:
    """The keeper writes an answer after its prompt only where the input is no terminal (a pipe, a file): at a
    terminal, which shows what is typed itself, each answer is there once."""
    keys = [f"{name}\r" for name in [*NAMES, "Cezary"]] + ["quit\r"]
    output, status = at_terminal(["--file", "m.mzn"], keys, tmp_path)
    assert status == 0, output
    lines = output.replace("\r\n", "\n").splitlines()
    assert "Name of player 2 (in order round the table): Bolek" in lines, output
    assert "Bolek" not in lines and lines.count("Who deals first (Ala, Bolek, Cezary): Cezary") == 1, output
