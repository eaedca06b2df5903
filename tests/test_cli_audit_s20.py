"""The command line after the audit of session 20: each test failed before its fix.

* ``mizerka score`` checks the files it will write before the first question, names the user's file (never the
  temporary one) when a write fails, and writes each export on its own;
* ``mizerka solve`` reads a record from a pipe as ``replay`` and ``analyse`` do, and a mistyped record name is
  told as a missing file, not as bad position text;
* ``mizerka analyse --help`` states the speed the docs measure, and a record with no card played is refused;
* a record's first dealer out of range is named as such, not as deal 1's dealer breaking the rotation.
"""

from __future__ import annotations

import io
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from mizerka.cli import cli
from mizerka.deal import Phase
from mizerka.match import Match
from mizerka.record import MatchRecord, RecordSyntaxError, read, read_text

RECORDS = Path(__file__).parent / "data" / "records"
NAMES = ["Ala", "Bolek", "Cezary"]
ONE_DEAL = "standard,contracts=NT,global_unique"
"""A variant of a single deal (one contract, used once by anybody): a whole match is six lines."""
MATCH = [*NAMES, "Ala", "NT", "5 4 4"]


def invoke(*args: str, input: str | bytes | io.BytesIO | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=input)


def score(tmp_path: Path, *options: str, lines: list[str] = MATCH) -> Result:
    return invoke("score", "--file", str(tmp_path / "s.mzn"), "--variant", ONE_DEAL, *options,
                  input="".join(line + "\n" for line in lines))


# -- mizerka score: the files are checked before the first question ----------------------------------------


@pytest.mark.parametrize("option", ["--export-csv", "--export-record", "--file"])
def test_a_file_in_a_missing_folder_is_refused_before_the_first_question(option: str, tmp_path: Path) -> None:
    """Before, the match was typed in whole and only then did the export fail (``--file``: after the names)."""
    bad = tmp_path / "nonexist" / "x.csv"
    args = ["score", "--variant", ONE_DEAL, option, str(bad)]
    if option != "--file":
        args += ["--file", str(tmp_path / "s.mzn")]
    result = invoke(*args, input="".join(line + "\n" for line in MATCH))
    assert result.exit_code == 2, result.output
    assert "Name of player 1" not in result.output
    assert f"'{option}'" in result.output and "does not exist" in result.output
    assert str(tmp_path / "nonexist") in result.output and ".tmp" not in result.output
    assert not (tmp_path / "s.mzn").exists()


def test_a_read_only_export_and_a_file_that_is_no_record_are_refused_up_front(tmp_path: Path) -> None:
    sheet = tmp_path / "sheet.csv"
    sheet.write_text("old sheet\n", encoding="utf-8")
    sheet.chmod(0o444)
    result = score(tmp_path, "--export-csv", str(sheet))
    assert result.exit_code == 2 and "Name of player 1" not in result.output
    assert "'--export-csv'" in result.output and "is read-only" in result.output
    notes = tmp_path / "notes.txt"
    notes.write_text("not a record\n", encoding="utf-8")
    result = score(tmp_path, "--export-record", str(notes))
    assert result.exit_code == 2 and "Name of player 1" not in result.output
    assert "'--export-record'" in result.output and "is not a mizerka game record" in result.output
    assert notes.read_text(encoding="utf-8") == "not a record\n"


def test_an_existing_sheet_and_record_are_replaced_by_the_exports(tmp_path: Path) -> None:
    """The up-front check must not refuse what an export may overwrite: any old CSV, an old record."""
    sheet, record = tmp_path / "sheet.csv", tmp_path / "rec.mzn"
    sheet.write_text("an older sheet\n", encoding="utf-8")
    first = score(tmp_path, "--export-record", str(record))
    assert first.exit_code == 0, first.output
    (tmp_path / "s.mzn").unlink()
    again = score(tmp_path, "--export-csv", str(sheet), "--export-record", str(record))
    assert again.exit_code == 0, again.output
    assert sheet.read_text(encoding="utf-8").startswith("deal,dealer,chooser")
    assert read(record) == read(tmp_path / "s.mzn") and read(record).is_over()


class _FolderGoesDuringTheMatch(io.BytesIO):
    """The keeper's typed lines; the first of them is read after the folder *folder* was removed (a USB stick
    pulled out during the match): the up-front check passed, the export at the end fails."""

    def __init__(self, data: bytes, folder: Path) -> None:
        super().__init__(data)
        self.folder = folder

    def _gone(self) -> None:
        if self.folder.exists():
            shutil.rmtree(self.folder)

    def read(self, size: int | None = -1) -> bytes:
        if size != 0:  # click asks read(0) to see that the stream is binary, before the command runs
            self._gone()
        return super().read(size)

    def read1(self, size: int | None = -1) -> bytes:
        self._gone()
        return super().read1(size)

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        self._gone()
        return super().readinto(buffer)

    def readline(self, size: int | None = -1) -> bytes:
        self._gone()
        return super().readline(size)


def test_an_export_that_fails_at_the_end_names_the_users_file_and_keeps_the_other(tmp_path: Path) -> None:
    """Before: the CSV export failed with a message naming '.x.csv.<hex>.tmp', and the record export after it
    was never written."""
    folder = tmp_path / "stick"
    folder.mkdir()
    sheet, record = folder / "x.csv", tmp_path / "y.mzn"
    typed = _FolderGoesDuringTheMatch("".join(line + "\n" for line in MATCH).encode(), folder)
    result = invoke("score", "--file", str(tmp_path / "s.mzn"), "--variant", ONE_DEAL, "--export-csv", str(sheet),
                    "--export-record", str(record), input=typed)
    assert "Name of player 1" in result.output and "Final standing" in result.output
    assert result.exit_code == 1, result.output
    assert f"cannot write the export {sheet}: No such file or directory" in result.output
    assert ".tmp" not in result.output
    assert f"Game record written to {record}." in result.output
    assert read(record) == read(tmp_path / "s.mzn") and read(record).is_over()


def test_every_export_that_fails_is_told(tmp_path: Path) -> None:
    folder = tmp_path / "stick"
    folder.mkdir()
    sheet, record = folder / "x.csv", folder / "y.json"
    typed = _FolderGoesDuringTheMatch("".join(line + "\n" for line in [*MATCH, "quit"]).encode(), folder)
    result = invoke("score", "--file", str(tmp_path / "s.mzn"), "--variant", ONE_DEAL, "--export-csv", str(sheet),
                    "--export-record", str(record), input=typed)
    assert result.exit_code == 1, result.output
    assert f"cannot write the export {sheet}" in result.output
    assert f"cannot write the export {record}" in result.output
    assert read(tmp_path / "s.mzn").is_over()  # the match itself is saved


# -- mizerka solve: a record from a pipe; a mistyped record name ----------------------------------------------


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


# -- mizerka analyse: the speed in its help; a record with nothing to judge --------------------------------------


def test_analyse_help_states_the_speed_the_docs_measure() -> None:
    """The help said "About 5 seconds per deal"; docs/analysis.md measures a median of 0.06 s a deal."""
    result = invoke("analyse", "--help")
    assert result.exit_code == 0
    help_text = " ".join(result.output.split())
    docs = " ".join((Path(__file__).parents[1] / "docs" / "analysis.md").read_text(encoding="utf-8").split())
    assert "5 seconds" not in help_text
    assert "most deals take well under a second" in help_text and "well under a second" in docs


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


# -- the record's first dealer ------------------------------------------------------------------------------------


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
