"""The arena's records' folder (``record_dir``, ``mizerka arena --save-records``), checked before any match is played.

An empty name is refused (``''`` was the current folder), and a budget that is no ``Budget`` before the folder is
made; a folder that holds another run's records is refused, naming a file, and nothing is changed (a second run
replaced the first one's records without a word), while other files, and records of matches or tables the run does
not play, are left alone (a long run played in parts).  Rules that no record can name are refused before play (the
run stopped after its first table); without a folder the JSON describes them without a variant spec.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

import mizerka.arena
from mizerka import parse_variant
from mizerka.arena import ArenaError, run_arena
from mizerka.cli import cli

FAST = ["rules", "random", "random"]
TINY_VARIANT = ["--variant", "standard,contracts=NT"]  # three deals a match
TINY = parse_variant("standard,contracts=NT")  # three deals a match


SHORT = parse_variant("standard,contracts=NT+MZ")
"""Six deals a match."""


def test_an_empty_records_folder_is_refused_and_nothing_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--save-records ''`` was read as the current folder: every table's record was written there."""
    monkeypatch.chdir(tmp_path)
    for empty in ("", "  "):
        result = CliRunner().invoke(cli, ["arena", *FAST, "-n", "1", *TINY_VARIANT, "--save-records", empty])
        assert result.exit_code == 2, result.output
        assert "records' folder must be named" in result.output and "Traceback" not in result.output
    assert os.listdir(tmp_path) == []


def test_run_arena_refuses_an_empty_records_folder_and_budgets_that_are_no_budgets(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``record_dir=""`` wrote every record into the current folder; a budget given as text failed mid-run,
    after the records' folder was made."""
    from mizerka.arena import ArenaError

    monkeypatch.chdir(tmp_path)
    with pytest.raises(ArenaError, match="folder is empty"):
        run_arena(["rules", "random", "random"], 1, backend="serial", record_dir="")
    assert list(tmp_path.iterdir()) == []
    made = tmp_path / "made"
    with pytest.raises(ArenaError, match="must be a Budget"):
        run_arena(["rules", "random", "random"], 1, backend="serial",
                  budgets=["worlds=2", None, None], record_dir=made)  # type: ignore[list-item]
    assert not made.exists()


def test_a_records_folder_holding_another_runs_records_is_refused(tmp_path: Path) -> None:
    """A second run into a folder of records replaced the first run's files without a word (and a shorter one
    left a folder mixing two runs).  It is refused before any match is played, and nothing is changed."""
    run_arena(["rules", "random", "random"], 2, seed=1, rules=TINY, backend="serial", tables="rotations",
              record_dir=tmp_path)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    assert sorted(before) == [f"match{m:05d}-table{t}.json" for m in range(2) for t in range(3)]
    assert mizerka.arena.record_name(1, 2) == "match00001-table2.json"
    played: list[int] = []
    with pytest.raises(ArenaError, match=r"already holds 'match00000-table0\.json'.*empty or new folder"):
        run_arena(["random", "random", "random"], 1, seed=2, rules=TINY, backend="serial", tables="rotations",
                  record_dir=tmp_path, progress=lambda done, total: played.append(done))
    assert played == []
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_a_records_folder_is_refused_only_for_files_the_run_would_write(tmp_path: Path) -> None:
    """Other files, and records of matches or tables this run does not play, are left alone: matches 2 and 3 go
    next to matches 0 and 1 (a long run played in parts), and the parts' records do not collide."""
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    (tmp_path / "match00002-table5.json").write_text("{}", encoding="utf-8")  # table 5: not in a rotations run
    run_arena(["rules", "random", "random"], 2, seed=1, rules=TINY, backend="serial", tables="rotations",
              record_dir=tmp_path)
    run_arena(["rules", "random", "random"], 2, seed=1, rules=TINY, backend="serial", tables="rotations",
              record_dir=tmp_path, start=2)
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "mine"
    assert len(list(tmp_path.glob("match*.json"))) == 4 * 3 + 1


def test_the_arena_command_refuses_a_records_folder_of_another_run(tmp_path: Path) -> None:
    """``--save-records DIR`` a second time into the same folder: an error naming a file, exit 2, no traceback."""
    args = ["arena", "rules", "random", "random", "-n", "1", "--workers", "1", "--tables", "rotations",
            *TINY_VARIANT, "--save-records", str(tmp_path)]
    assert CliRunner().invoke(cli, args).exit_code == 0
    again = CliRunner().invoke(cli, args)
    assert again.exit_code == 2, again.output
    assert "match00000-table0.json" in again.output and "Traceback" not in again.output


def test_rules_no_record_can_name_are_refused_before_play_and_described_without_a_spec(tmp_path: Path) -> None:
    """With a records' folder the run played its first table and then stopped with RecordError; without one,
    ``to_dict`` raised RulesError after the whole run."""
    rules = SHORT.replace(cards_before_choice=13)
    with pytest.raises(ArenaError, match="cannot save records of these rules: cards_before_choice=13"):
        run_arena(["rules", "random", "random"], 2, rules=rules, seed=1, backend="serial", record_dir=tmp_path)
    assert list(tmp_path.iterdir()) == []
    described = run_arena(["rules", "random", "random"], 1, rules=rules, seed=1, backend="serial").to_dict()
    data = json.loads(json.dumps(described))
    assert data["variant"] is None
    assert data["rules"]["cards_before_choice"] == 13 and data["rules"]["contracts"] == ["NT", "MZ"]
    plain = json.loads(json.dumps(run_arena(["rules", "random", "random"], 1, rules=SHORT, seed=1,
                                            backend="serial").to_dict()))
    assert parse_variant(plain["variant"]) == SHORT and plain["rules"]["exchange_mode"] == "standard"


def test_a_records_folder_that_is_a_device_a_fifo_or_a_looping_link_is_refused(tmp_path: Path) -> None:
    """click refuses a regular file; ``/dev/null``, a FIFO or a link to itself got "cannot save records in
    '/dev/null': File exists" (the folder's making failed), a message that named no problem the user could see."""
    fifo, loop = tmp_path / "fifo", tmp_path / "loop"
    os.mkfifo(fifo)
    loop.symlink_to(loop.name)
    for name in (os.devnull, str(fifo), str(loop)):
        result = CliRunner().invoke(cli, ["arena", *FAST, "-n", "1", *TINY_VARIANT, "--save-records", name])
        assert result.exit_code == 2, result.output
        assert f"{name!r} exists and is not a folder" in result.output and "File exists" not in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fifo", "loop"]
