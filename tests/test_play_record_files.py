"""``mizerka play --record FILE``: the file itself.

A symbolic link to a record elsewhere updates that record and stays a link; a read-only record is refused at the start
and left as it was, and one made read-only mid-match is not replaced (the game says so); a record keeps its
permissions; a name as long as the file system allows is written (the temporary file's name must fit too); after the
last deal a failed write does not promise another deal.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from click.testing import CliRunner

from mizerka.cli import cli
from mizerka.match import Match
from mizerka.record import MatchRecord, read
from mizerka.rules import parse_variant
from mizerka.terminal import RecordFile, write_atomically
from test_play_record import OPTIONS, SEED, scripted_match

OLD = MatchRecord.from_match(Match(parse_variant("standard"), players=["A", "B", "C"], seed=1)).to_text()


def play(path: Path | str, extra: list[str] | None = None) -> tuple[int, str]:
    _, answers = scripted_match(stop_in_deal=2)
    result = CliRunner().invoke(cli, [*OPTIONS, "--record", str(path)],
                                input="\n".join([*answers, *(extra or [])]) + "\nquit\n")
    assert "Traceback" not in result.output and not (result.exception and not isinstance(result.exception,
                                                                                       SystemExit))
    return result.exit_code, result.output


def test_a_link_to_a_record_elsewhere_updates_that_record_and_stays_a_link(tmp_path: Path) -> None:
    (tmp_path / "records").mkdir()
    target = tmp_path / "records" / "game.mzn"
    target.write_text(OLD, encoding="utf-8")
    link = tmp_path / "game.mzn"
    link.symlink_to(target)
    code, output = play(link)
    assert code == 0, output
    assert link.is_symlink() and link.resolve() == target.resolve()  # before: the link became a copy
    assert read(target).players == ("You", "Ala", "Bolek") and len(read(target).deals) == 1
    assert sorted(p.name for p in (tmp_path / "records").iterdir()) == ["game.mzn"]


def test_a_read_only_record_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "game.mzn"
    path.write_text(OLD, encoding="utf-8")
    path.chmod(0o444)
    code, output = play(path)
    assert code == 2 and "is read-only: it is not overwritten" in " ".join(output.split()), output
    assert path.read_text(encoding="utf-8") == OLD and stat.S_IMODE(path.stat().st_mode) == 0o444


def test_a_record_made_read_only_mid_match_is_not_replaced_and_the_game_says_so(tmp_path: Path) -> None:
    match, _ = scripted_match(stop_in_deal=2)
    path = tmp_path / "game.mzn"
    record = RecordFile(path, seed=SEED)
    path.write_text(OLD, encoding="utf-8")
    path.chmod(0o444)
    try:
        record.save(match)
        raise AssertionError("a read-only record was replaced")
    except PermissionError as error:
        assert "read-only" in record.failure(error)
    assert path.read_text(encoding="utf-8") == OLD
    assert record.where().endswith("the file is read-only.")


def test_a_record_keeps_its_permissions(tmp_path: Path) -> None:
    path = tmp_path / "game.mzn"
    path.write_text("old\n", encoding="utf-8")
    path.chmod(0o600)
    old_umask = os.umask(0o022)
    try:
        write_atomically(path, "new\n")
    finally:
        os.umask(old_umask)
    assert path.read_text(encoding="utf-8") == "new\n" and stat.S_IMODE(path.stat().st_mode) == 0o600  # before: 644


def test_a_name_as_long_as_the_file_system_allows(tmp_path: Path) -> None:
    path = tmp_path / ("g" * 250 + ".mzn")  # 254 bytes: the temporary file's name must not be longer than 255
    code, output = play(path)
    assert code == 0, output
    assert len(read(path).deals) == 1


def test_after_the_last_deal_a_failed_write_does_not_promise_another_deal(tmp_path: Path) -> None:
    record = RecordFile(tmp_path / "game.mzn", seed=SEED)
    text = record.failure(OSError(28, "No space left on device"), match_over=True)
    assert text == f"The record could not be written to {tmp_path / 'game.mzn'}: No space left on device."
