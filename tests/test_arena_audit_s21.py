"""Audit (session 21) of the arena: the t quantile of its intervals, level names in any case, records' folders
that already hold another run's records, and ``--budget`` fields a level never reads.  Each test pins one fix."""

from __future__ import annotations

import itertools
import json
import math
import statistics
from pathlib import Path

import pytest
from click.testing import CliRunner

import mizerka.arena
from mizerka.arena import ArenaError, ci95, run_arena
from mizerka.bots import BOT_LEVELS, UnknownBotError
from mizerka.cli import cli
from mizerka.rules import parse_variant

TINY = parse_variant("standard,contracts=NT")  # three deals a match
TINY_VARIANT = ["--variant", "standard,contracts=NT"]

# two-sided 95% Student's t quantiles t(0.975, df), from standard tables (four decimals)
T975 = {31: 2.0395, 32: 2.0369, 40: 2.0211, 59: 2.0010, 60: 2.0003, 115: 1.9808, 120: 1.9799, 1000: 1.9623}


@pytest.mark.parametrize("df", sorted(T975))
def test_ci95_uses_students_t_beyond_the_table(df: int) -> None:
    """From 32 values on ci95 used the normal 1.96: intervals 3.9% too narrow at 32 values, 1% at 116."""
    values = [float((i * 7) % 11) for i in range(df + 1)]
    expected = T975[df] * statistics.stdev(values) / math.sqrt(df + 1)
    assert ci95(values) == pytest.approx(expected, rel=1e-4)


def test_ci95_does_not_jump_between_31_and_32_values() -> None:
    """The factor fell from t(30) = 2.042 to 1.96 at 32 values; t shrinks steadily towards 1.96 instead."""
    samples = [[0.0, 2.0] * (n // 2) + [1.0] * (n % 2) for n in range(20, 200)]
    factors = [ci95(values) * math.sqrt(len(values)) / statistics.stdev(values) for values in samples]
    assert all(a > b for a, b in itertools.pairwise(factors))
    assert all(a - b < 0.01 for a, b in itertools.pairwise(factors))
    assert factors[-1] > statistics.NormalDist().inv_cdf(0.975)


def test_run_arena_reads_level_names_as_make_bot_does() -> None:
    """``run_arena(["Rules", ...])`` was an UnknownBotError while ``make_bot("Rules")`` made the rules bot."""
    result = run_arena(["Rules", " RANDOM ", "random"], 1, seed=1, rules=TINY, backend="serial", tables="rotations")
    assert result.bots == ("rules", "random", "random")
    assert result.to_dict()["bots"] == ["rules", "random", "random"]
    with pytest.raises(UnknownBotError, match="unknown bot 'Champion'"):
        run_arena(["Champion", "random", "random"], 1, rules=TINY, backend="serial")


def test_the_arena_command_reads_level_names_in_any_case() -> None:
    """``mizerka arena RULES Random random --budget RULES:...`` was refused; it now plays and reports lower case."""
    result = CliRunner().invoke(cli, ["arena", "RULES", "Random", "random", "-n", "1", "--workers", "1",
                                      "--tables", "rotations", *TINY_VARIANT, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output.strip().splitlines()[-1])["bots"] == ["rules", "random", "random"]
    pimc = CliRunner().invoke(cli, ["arena", "PIMC", "random", "random", "-n", "1", "--workers", "1",
                                    "--tables", "rotations", *TINY_VARIANT, "--budget", "Pimc:worlds=2", "--json"])
    assert pimc.exit_code == 0, pimc.output
    assert json.loads(pimc.output.strip().splitlines()[-1])["bots"] == ["pimc", "random", "random"]


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


@pytest.mark.parametrize(
    ("bots", "budget", "field", "reads"),
    [
        (["pimc", "random", "random"], "pimc:simulations=3000", "simulations", "time, worlds"),
        (["rules", "random", "random"], "rules:worlds=64", "worlds", "no budget field"),
        (["rules", "random", "random"], "Rules:time=1", "time", "no budget field"),
    ],
)
def test_a_budget_field_the_level_never_reads_is_refused(bots: list[str], budget: str, field: str,
                                                          reads: str) -> None:
    """``--budget pimc:simulations=3000`` ran and changed nothing, as a budget for a level not playing would."""
    result = CliRunner().invoke(cli, ["arena", *bots, "-n", "1", "--workers", "1", *TINY_VARIANT,
                                      "--budget", budget])
    assert result.exit_code == 2, result.output
    assert f"never reads {field}" in result.output and reads in result.output
    assert "Traceback" not in result.output


def test_the_fields_a_level_reads_come_from_its_default_budget() -> None:
    """One place per level: the fields its default budget sets, and the time with them for a search level."""
    reads = {name: level.bot_class.budget_fields for name, level in BOT_LEVELS.items()}
    assert reads == {
        "random": frozenset(), "rules": frozenset(), "pimc": {"time", "worlds"},
        "ismcts": {"time", "worlds", "simulations"}, "expert": {"time", "worlds", "simulations"},
    }
