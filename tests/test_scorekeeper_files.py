"""``mizerka score``'s files (``--file``, ``--export-csv``, ``--export-record``), checked before the first question.

A file in a missing folder, a read-only export and a file that is no record are refused before the keeper types the
match in (the export failed at the end, after the whole match); what an export may overwrite (any old CSV, an old
record) is not refused.  An export that fails at the end all the same (a USB stick pulled out during the match) names
the user's file, never the temporary one, every other export is still written, and each failure is told.
"""

from __future__ import annotations

import io
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from input_helpers import InputThen
from mizerka.cli import cli
from mizerka.record import read

NAMES = ["Ala", "Bolek", "Cezary"]


ONE_DEAL = "standard,contracts=NT,global_unique"
"""A variant of a single deal (one contract, used once by anybody): a whole match is six lines."""


MATCH = [*NAMES, "Ala", "NT", "5 4 4"]


def invoke(*args: str, input: str | bytes | io.BytesIO | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=input)


def score(tmp_path: Path, *options: str, lines: list[str] = MATCH) -> Result:
    return invoke("score", "--file", str(tmp_path / "s.mzn"), "--variant", ONE_DEAL, *options,
                  input="".join(line + "\n" for line in lines))


# -- checked before the first question -------------------------------------------------------------------------------


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


# -- an export that fails at the end ---------------------------------------------------------------------------------


def remove(folder: Path) -> None:
    """The folder gone, as a USB stick pulled out during the match: the check at the start passed, the export at
    the end fails."""
    if folder.exists():
        shutil.rmtree(folder)


def test_an_export_that_fails_at_the_end_names_the_users_file_and_keeps_the_other(tmp_path: Path) -> None:
    """Before: the CSV export failed with a message naming '.x.csv.<hex>.tmp', and the record export after it
    was never written."""
    folder = tmp_path / "stick"
    folder.mkdir()
    sheet, record = folder / "x.csv", tmp_path / "y.mzn"
    typed = InputThen("".join(line + "\n" for line in MATCH).encode(), lambda: remove(folder))
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
    typed = InputThen("".join(line + "\n" for line in [*MATCH, "quit"]).encode(), lambda: remove(folder))
    result = invoke("score", "--file", str(tmp_path / "s.mzn"), "--variant", ONE_DEAL, "--export-csv", str(sheet),
                    "--export-record", str(record), input=typed)
    assert result.exit_code == 1, result.output
    assert f"cannot write the export {sheet}" in result.output
    assert f"cannot write the export {record}" in result.output
    assert read(tmp_path / "s.mzn").is_over()  # the match itself is saved


@pytest.mark.parametrize("option", ["--export-csv", "--export-record"])
def test_an_export_that_is_a_link_to_itself_is_refused_not_a_traceback(option: str, tmp_path: Path) -> None:
    """Before: ``Path.resolve()`` (comparing the export with the saved file) raised RuntimeError ("Symlink loop")
    at a link that points to itself, a traceback before the first question."""
    loop = tmp_path / "loop.csv"
    loop.symlink_to(loop.name)
    result = score(tmp_path, option, str(loop))
    assert result.exit_code == 2, result.output
    assert not isinstance(result.exception, RuntimeError)
    assert f"'{option}'" in result.output and "exists and is not a regular file" in result.output
    assert "Name of player 1" not in result.output and not (tmp_path / "s.mzn").exists()


@pytest.mark.timeout(60)
@pytest.mark.parametrize("option", ["--file", "--resume"])
def test_a_fifo_or_a_device_is_refused_unread(option: str, tmp_path: Path) -> None:
    """Before: ``--file FIFO`` read the FIFO to tell whether it held a score record (and ``--resume FIFO`` to load
    it), waiting for ever for a writer; a name that is no regular file is refused before anything is read."""
    fifo = tmp_path / "fifo.mzn"
    os.mkfifo(fifo)
    for name in (str(fifo), os.devnull):
        result = invoke("score", option, name, input="".join(line + "\n" for line in MATCH))
        assert result.exit_code == 2, result.output
        assert f"'{option}'" in result.output and "exists and is not a regular file" in result.output
        assert "Name of player 1" not in result.output
    assert fifo.is_fifo() and sorted(p.name for p in tmp_path.iterdir()) == ["fifo.mzn"]


@pytest.mark.timeout(60)
@pytest.mark.parametrize("option", ["--file", "--resume"])
def test_the_refusal_of_a_fifo_stands_without_the_output_check(
        option: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The FIFO is refused by its own check, not only because the output check happens to refuse every name that
    is no regular file: with that check made to pass everything, the FIFO is still refused unread."""
    import mizerka.scorekeeper as scorekeeper

    monkeypatch.setattr(scorekeeper, "_check_output", lambda option, path, *, record: None)
    fifo = tmp_path / "fifo.mzn"
    os.mkfifo(fifo)
    result = invoke("score", option, str(fifo), input="".join(line + "\n" for line in MATCH))
    assert result.exit_code == 2, result.output
    assert f"'{option}'" in result.output and "is not a regular file: give a file's name" in result.output
    assert "Name of player 1" not in result.output and fifo.is_fifo()
