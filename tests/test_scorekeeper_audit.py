"""``mizerka score``: the defects an audit found, one test (or a few) each.

* An ``undo`` back into the seating left the saved file as it was, so ``--resume`` brought back the names and the
  first dealer the keeper had taken back, and ``quit`` said "Stopped in deal 1" with no match seated.  The file is
  now removed at the undo (a record cannot hold a seating half given) and written again once the seating is
  complete; stopping meanwhile says that nothing was saved.
* A standard output that could not be written (``> /dev/full``, ``| head -1``) was blamed on the save file.
* ``--resume`` of a read-only file was accepted, and the first answer was lost when its save failed.
* ``--file ""`` and ``--resume ""`` read the empty name as ``.``; ``--file notes.txt`` suggested resuming notes.
* ``--variant seed002-literal`` gave no "not zero-sum" warning.
* ``--file x.json`` saved the text form (``play --record`` and ``--export-record`` write JSON there).
* "deals 1 to 1 can be corrected".
* Answers piped from a file were not shown: the transcript was its prompts, all on one line, without answers.

The subprocess tests run the real console entry (``python -m mizerka``): what happens to the standard output is
told by :func:`mizerka.cli.main` and click, which a :class:`~click.testing.CliRunner` leaves out.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import IO

import pytest
from click.testing import CliRunner, Result

from input_helpers import InputThen
from mizerka.cli import cli
from mizerka.match import Match
from mizerka.record import MatchRecord, read
from mizerka.rules import STANDARD
from mizerka.scorekeeper import EntryError, ScoreKeeper

NAMES = ["Ala", "Bolek", "Cezary"]


def run(args: list[str], lines: list[str], *, command: str = "score") -> Result:
    return CliRunner().invoke(cli, [command, *args], input="".join(line + "\n" for line in lines))


def mizerka(args: list[str], lines: list[str], stdout: IO[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """``mizerka ARGS`` as a process, its answers *lines*, its standard output *stdout*, its stderr captured."""
    return subprocess.run([sys.executable, "-m", "mizerka", *args], input="".join(line + "\n" for line in lines),
                          stdout=stdout, stderr=subprocess.PIPE, text=True, cwd=cwd, timeout=120)


def seated(path: Path, first_dealer: int = 1, deals: int = 0) -> bytes:
    """Save a match of :data:`NAMES` with *deals* deals entered to *path*; its bytes."""
    keeper = ScoreKeeper.new(NAMES, first_dealer)
    for _ in range(deals):
        keeper.enter_contract(keeper.allowed_contracts()[0])
        keeper.enter_tricks("5 4 4")
    keeper.save(path)
    return path.read_bytes()


# -- 1. undo back into the seating -------------------------------------------------------------------------------


def test_undo_into_the_seating_then_quit_leaves_no_stale_file(tmp_path: Path) -> None:
    """The audit's case: the file kept Player2 "Cezary" and the first dealer Bolek, and said "Stopped in deal 1"."""
    save = tmp_path / "u3.mzn"
    result = run(["--file", str(save)], [*NAMES, "Bolek", "undo", "undo", "Zofia", "Cezary", "quit"])
    assert result.exit_code == 0, result.output
    assert "Undone: Bolek as the first dealer." in result.output
    assert f"Removed {save}: the match is saved again once the seating is complete." in result.output
    assert "Stopped before the match began; nothing was saved." in result.output
    assert "Stopped in deal" not in result.output and "--resume" not in result.output
    assert not save.exists()


def test_undo_past_every_name_leaves_no_file_and_the_name_is_free_again(tmp_path: Path) -> None:
    save = tmp_path / "u4.mzn"
    result = run(["--file", str(save)], [*NAMES, "Bolek", *["undo"] * 5, "quit"])
    assert result.exit_code == 0, result.output
    assert "Nothing to undo yet." in result.output and "nothing was saved" in result.output
    assert not save.exists()
    again = run(["--file", str(save)], [*NAMES, "Ala", "quit"])  # was refused: "u4.mzn exists"
    assert again.exit_code == 0, again.output
    assert read(save).first_dealer == 0


def test_the_new_seating_is_saved_and_resumed(tmp_path: Path) -> None:
    save = tmp_path / "u5.mzn"
    result = run(["--file", str(save)], [*NAMES, "Bolek", "undo", "undo", "Zofia", "Zofia", "quit"])
    assert result.exit_code == 0, result.output
    assert result.output.count(f"Saving to {save} after every entry.") == 2
    assert "Stopped in deal 1." in result.output
    record = read(save)
    assert record.players == ("Ala", "Bolek", "Zofia") and record.first_dealer == 2
    resumed = run(["--resume", str(save)], ["quit"])
    assert "Resuming" in resumed.output and "Ala, Bolek, Zofia" in resumed.output and "Cezary" not in resumed.output


def test_the_file_goes_at_the_undo_not_at_the_end(tmp_path: Path) -> None:
    """What the screen shows after each undo is what the file holds, whatever ends the session: here the end of
    input (and a resumed file, holding the seating only, is removed alike)."""
    save = tmp_path / "r.mzn"
    seated(save)
    result = run(["--resume", str(save)], ["undo"])
    assert result.exit_code == 1, result.output
    assert "Input ended before the match began; nothing was saved." in result.output
    assert not save.exists()


def test_a_variant_that_fixes_the_first_dealer_removes_the_file_at_the_last_name(tmp_path: Path) -> None:
    save = tmp_path / "f.mzn"
    result = run(["--file", str(save), "--variant", "standard,first_dealer=0"], [*NAMES, "undo", "quit"])
    assert result.exit_code == 0, result.output
    assert "Undone: the name 'Cezary'." in result.output and "nothing was saved" in result.output
    assert not save.exists()


# -- 2. the standard output that fails is not the save file -----------------------------------------------------


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("resume", [False, True])
def test_a_full_output_is_told_as_the_output_not_the_save_file(resume: bool, tmp_path: Path) -> None:
    save = tmp_path / "full.mzn"
    before = seated(save, deals=1) if resume else None
    args = ["score", "--resume" if resume else "--file", str(save)]
    with open("/dev/full", "w") as full:
        done = mizerka(args, ["NT", "5 4 4"] if resume else ["A", "B", "C", "A", "quit"], full, tmp_path)
    assert done.returncode == 1
    assert done.stderr == "Error: cannot write the output: No space left on device\n"
    assert (save.read_bytes() if save.exists() else None) == before  # the save file as it was


def test_a_closed_pipe_is_not_blamed_on_the_save_file(tmp_path: Path) -> None:
    """``| head -1``: the reader goes away; the command stops (status 1) as every command does there, in silence
    (click's rule for a closed pipe), and nothing was entered, so nothing is saved."""
    save = tmp_path / "hp.mzn"
    process = subprocess.Popen([sys.executable, "-m", "mizerka", "score", "--file", str(save)], cwd=tmp_path,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stdout is not None
    process.stdout.close()  # before the interpreter has started: its first line meets a closed pipe
    _, stderr = process.communicate("A\nB\nC\nA\nquit\n", timeout=120)
    assert process.returncode == 1
    assert "cannot save" not in stderr and "Traceback" not in stderr
    assert not save.exists()


def test_a_save_that_fails_is_still_told_as_the_save_file(tmp_path: Path) -> None:
    save = tmp_path / "m.mzn"
    before = seated(save)
    typed = InputThen(b"NT\n", lambda: save.chmod(0o444))  # read-only once the checks at the start have passed
    result = CliRunner().invoke(cli, ["score", "--resume", str(save)], input=typed)
    assert result.exit_code == 1, result.output
    assert f"Error: cannot save to {save}: the file is read-only" in result.output
    assert save.read_bytes() == before


# -- 3. --resume of a read-only file -------------------------------------------------------------------------


def test_resume_of_a_read_only_file_is_refused_before_the_first_question(tmp_path: Path) -> None:
    """The mode is what is checked (as for ``--file`` and the exports), so the test holds for root too."""
    save = tmp_path / "r.mzn"
    before = seated(save)
    save.chmod(0o444)
    result = run(["--resume", str(save)], ["NT", "5 4 4"])
    assert result.exit_code == 2, result.output
    assert "'--resume'" in result.output and "is read-only" in result.output
    assert "Resuming" not in result.output and "Contract chosen by" not in result.output
    assert save.read_bytes() == before


def test_resume_of_a_writable_file_is_not_refused(tmp_path: Path) -> None:
    save = tmp_path / "w.mzn"
    seated(save)
    result = run(["--resume", str(save)], ["quit"])
    assert result.exit_code == 0 and "Stopped in deal 1" in result.output


# -- 4. empty names, a file that is no score record ---------------------------------------------------------


@pytest.mark.parametrize(("option", "example"), [
    ("--file", "game.mzn"), ("--resume", "game.mzn"), ("--export-csv", "sheet.csv"), ("--export-record", "game.mzn"),
])
@pytest.mark.parametrize("name", ["", "  "])
def test_an_empty_file_name_is_refused_as_play_refuses_it(option: str, example: str, name: str,
                                                          tmp_path: Path) -> None:
    args = [option, name] if option in ("--file", "--resume") else ["--file", str(tmp_path / "s.mzn"), option, name]
    result = run(args, [*NAMES, "Ala", "quit"])
    assert result.exit_code == 2, result.output
    assert f"Error: Invalid value for '{option}': give a file name, e.g. {option} {example}" in result.output
    assert "'.'" not in result.output and " . " not in result.output and "Name of player" not in result.output


def test_the_empty_name_is_worded_as_play_words_it(tmp_path: Path) -> None:
    play = run(["--plain", "--record", ""], ["quit"], command="play")
    score = run(["--file", ""], [])
    assert play.exit_code == score.exit_code == 2
    wording = play.output.split("Error: ")[1].replace("--record", "--file")
    assert score.output.split("Error: ")[1] == wording


def test_an_existing_file_that_is_no_score_record_is_not_offered_for_resume(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("shopping: bread, milk\n", encoding="utf-8")
    result = run(["--file", str(notes)], [*NAMES, "Ala", "quit"])
    assert result.exit_code == 2, result.output
    message = result.output.split("Error: ")[1]
    assert message.startswith(f"{notes} exists and is not a score record")
    assert "--resume" not in message and "Name of player" not in result.output
    assert notes.read_text(encoding="utf-8") == "shopping: bread, milk\n"
    # a record of a match played with cards is no score record either: --resume refuses it
    match = Match(STANDARD, players=NAMES, seed=1)
    match.play(match.deal.forced_action() or next(iter(match.legal_actions)))
    cards = tmp_path / "cards.mzn"
    cards.write_text(MatchRecord.from_match(match).to_text(), encoding="utf-8")
    result = run(["--file", str(cards)], [])
    assert result.exit_code == 2 and "exists and is not a score record" in result.output
    # a score record is pointed to --resume, as before
    save = tmp_path / "s.mzn"
    seated(save)
    result = run(["--file", str(save)], [])
    assert result.exit_code == 2 and f"{save} exists: continue it with --resume {save}" in result.output


# -- 5. a variant that is not zero-sum -------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["seed002-literal", "seed002-literal,first_dealer=1",
                                     "standard,quota_ordinary=7/5/2"])
def test_a_variant_that_is_not_zero_sum_is_warned_about_once(variant: str, tmp_path: Path) -> None:
    """A named variant (``seed002-literal``) said nothing: it is built without its warning."""
    result = run(["--file", str(tmp_path / "v.mzn"), "--variant", variant], ["quit"])
    assert result.exit_code == 0, result.output
    assert result.output.count("not zero-sum") == 1, result.output
    assert result.output.startswith("warning: variant ") and "UserWarning" not in result.output


def test_a_zero_sum_variant_warns_nothing(tmp_path: Path) -> None:
    result = run(["--file", str(tmp_path / "z.mzn"), "--variant", "standard,first_dealer=0"], ["quit"])
    assert "warning" not in result.output


# -- 6. a save file named .json -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["x.json", "X.JSON"])
def test_a_save_file_named_json_is_json_and_resumes(name: str, tmp_path: Path) -> None:
    save = tmp_path / name
    result = run(["--file", str(save)], [*NAMES, "Ala", "NT", "5 4 4", "quit"])
    assert result.exit_code == 0, result.output
    assert save.read_text(encoding="utf-8").startswith("{")
    first = read(save)
    assert first.players == tuple(NAMES) and len(first.deals) == 1
    resumed = run(["--resume", str(save)], ["H", "5 4 4", "quit"])
    assert resumed.exit_code == 0, resumed.output
    assert "Resuming" in resumed.output and "1 of 18 deals entered" in resumed.output
    assert save.read_text(encoding="utf-8").startswith("{")  # still JSON after the resumed entries
    assert [d.tricks_won for d in read(save).deals] == [(5, 4, 4), (5, 4, 4)]


def test_another_name_keeps_the_text_form(tmp_path: Path) -> None:
    save = tmp_path / "x.mzn"
    assert run(["--file", str(save)], [*NAMES, "Ala", "quit"]).exit_code == 0
    assert save.read_text(encoding="utf-8").startswith("[")


# -- 7. wording ---------------------------------------------------------------------------------------------


def test_one_finished_deal_is_worded_in_the_singular(tmp_path: Path) -> None:
    keeper = ScoreKeeper.new(NAMES, 0)
    keeper.enter_contract("NT")
    keeper.enter_tricks("5 4 4")
    with pytest.raises(EntryError) as refused:
        keeper.finished_deal(5)
    assert str(refused.value) == "there is no finished deal 5: deal 1 can be corrected"
    with pytest.raises(EntryError) as refused:
        keeper.finished_deal("")
    assert str(refused.value) == "say which finished deal to correct: edit 1"
    result = run(["--file", str(tmp_path / "e.mzn")], [*NAMES, "Ala", "NT", "5 4 4", "edit 9", "edit", "quit"])
    assert "Not accepted: there is no finished deal 9: deal 1 can be corrected." in result.output
    assert "Not accepted: say which finished deal to correct: edit 1." in result.output
    keeper.enter_contract("H")
    keeper.enter_tricks("5 4 4")
    with pytest.raises(EntryError, match="deals 1 to 2 can be corrected"):
        keeper.finished_deal(5)


# -- 8. answers from a file ------------------------------------------------------------------------------------


def test_answers_from_a_pipe_are_written_after_their_prompts(tmp_path: Path) -> None:
    """Through a pipe the transcript read "Name of player 1 (in order round the table): Name of player 2 ...: ..."
    on one line, without an answer: nothing shows what a pipe gives.  Each answer is written after its prompt now,
    as the session would have looked at a terminal (a refused one too, before its refusal); with ``--ascii`` a suit
    symbol is written as its letter, as every line of the session writes it."""
    answers = ["Ala", "Bolek", "Cezary", "cez", "  hearts ", "5 4 4", "♠", "7 7", "quit"]
    done = subprocess.run([sys.executable, "-m", "mizerka", "score", "--file", "x.mzn", "--ascii"],
                          input="".join(line + "\n" for line in answers), capture_output=True, text=True,
                          encoding="utf-8", cwd=tmp_path, env={**os.environ, "PYTHONIOENCODING": "utf-8"}, timeout=120)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    lines = done.stdout.splitlines()
    assert lines[:7] == [
        "New match, standard: 18 deals for 3 players.",
        "Name of player 1 (in order round the table): Ala",
        "Name of player 2 (in order round the table): Bolek",
        "Name of player 3 (in order round the table): Cezary",
        "Who deals first (Ala, Bolek, Cezary): cez",
        "Saving to x.mzn after every entry.  Type ? for help.",
        "Deal 1 of 18, Cezary deals. Contract chosen by Ala [C D H S NT MZ]:   hearts ",  # as read
    ]
    assert "Deal 1, H (take): tricks of Ala, Bolek, Cezary: 5 4 4" in lines
    spades = lines.index("Deal 2 of 18, Ala deals. Contract chosen by Bolek [C D H S NT MZ]: S")
    assert lines[spades + 1] == "Deal 2, S (take): tricks of Ala, Bolek, Cezary: 7 7"
    assert lines[spades + 2].startswith("Not accepted: ") and lines[spades + 3].endswith(": quit")
    assert lines[-1] == "Stopped in deal 2.  Resume with: mizerka score --resume x.mzn"
