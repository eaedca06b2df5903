"""The arena's options (``run_arena`` and ``mizerka arena``): workers, the plot, level names, budgets.

The process pool is no larger than the matches (``--workers 64 -n 2`` started 64 processes), and the results do not
depend on it; ``--plot .png`` is written under the name given (not ``.png.png``); level names are read in any case,
as ``make_bot`` reads them, and reported in lower case.  A ``--budget`` for a level that does not play is refused (a
typo went unnoticed), a level budgeted twice gets both fields, and a field the level never reads is refused: the
fields a level reads are those of its default budget.
"""

from __future__ import annotations

import concurrent.futures
import json
import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import mizerka.arena
import mizerka.bots.cli
from mizerka.arena import ArenaResult, run_arena
from mizerka.bots import BOT_LEVELS, Budget, UnknownBotError
from mizerka.cli import cli
from mizerka.rules import parse_variant

FAST = ["rules", "random", "random"]
TINY_VARIANT = ["--variant", "standard,contracts=NT"]  # three deals a match
TINY = parse_variant("standard,contracts=NT")  # three deals a match


# -- workers and the plot --------------------------------------------------------------------------------------------


def test_the_process_pool_is_no_larger_than_the_matches(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--workers 64 -n 2`` started 64 processes (the pool forks every worker at once); 10**6 exhausted the machine.
    The results do not depend on the workers, so the command asks for no more than one per match."""
    asked: list[int | None] = []
    real = concurrent.futures.ProcessPoolExecutor

    def spy(max_workers: int | None = None, **kwargs: Any) -> concurrent.futures.ProcessPoolExecutor:
        asked.append(max_workers)
        return real(max_workers=min(max_workers or 1, 2), **kwargs)  # never fork 64 here, even on the old code

    monkeypatch.setattr(mizerka.arena, "ProcessPoolExecutor", spy)
    runner = CliRunner()
    many = runner.invoke(cli, ["arena", *FAST, "-n", "2", *TINY_VARIANT, "--workers", "64", "--json"])
    assert many.exit_code == 0, many.output
    default = runner.invoke(cli, ["arena", *FAST, "-n", "2", *TINY_VARIANT, "--json"])  # default: the CPUs
    assert default.exit_code == 0, default.output
    assert asked and all(n is not None and n <= 2 for n in asked), asked
    serial = runner.invoke(cli, ["arena", *FAST, "-n", "2", *TINY_VARIANT, "--backend", "serial", "--json"])
    assert many.output.splitlines()[-1] == default.output.splitlines()[-1] == serial.output.splitlines()[-1]
    for bad in ("0", "-3"):  # still named by the arena
        refused = runner.invoke(cli, ["arena", *FAST, "-n", "2", *TINY_VARIANT, "--workers", bad])
        assert refused.exit_code == 2 and "workers must be" in refused.output


def test_a_plot_is_written_under_the_name_given(tmp_path: Path) -> None:
    """``--plot .png`` (a name that is all suffix) was saved as ``.png.png``: matplotlib added the suffix again."""
    plot = tmp_path / ".png"
    result = CliRunner().invoke(cli, ["arena", *FAST, "-n", "1", *TINY_VARIANT, "--plot", str(plot)])
    assert result.exit_code == 0, result.output
    assert plot.is_file() and plot.read_bytes().startswith(b"\x89PNG")
    assert sorted(p.name for p in tmp_path.iterdir()) == [".png"]


def test_a_plot_name_that_is_a_fifo_or_a_broken_link_is_refused_before_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--plot x.png`` where x.png is a FIFO failed after the whole run ("File or stream is not seekable", exit 1);
    it is refused before the first match, as a folder that cannot be written is."""
    fifo, dangling = tmp_path / "fifo.png", tmp_path / "gone.svg"
    os.mkfifo(fifo)
    dangling.symlink_to(tmp_path / "nowhere" / "x.svg")

    def no_run(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the arena ran")

    monkeypatch.setattr(mizerka.bots.cli, "run_arena", no_run)
    for plot in (fifo, dangling):
        result = CliRunner().invoke(cli, ["arena", *FAST, "-n", "1", *TINY_VARIANT, "--plot", str(plot)])
        assert result.exit_code == 2, result.output
        assert f"{str(plot)!r} exists and is not a regular file" in result.output
    assert fifo.is_fifo() and not (tmp_path / "nowhere").exists()


# -- level names -----------------------------------------------------------------------------------------------------


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


# -- budgets ---------------------------------------------------------------------------------------------------------


def test_a_budget_for_a_level_that_does_not_play_is_refused() -> None:
    """``--budget pimc:worlds=8`` in an arena without PIMC was silently ignored (a typo went unnoticed)."""
    result = CliRunner().invoke(cli, ["arena", *FAST, "-n", "1", *TINY_VARIANT, "--budget", "pimc:worlds=8"])
    assert result.exit_code == 2
    assert "no pimc bot plays in this arena" in result.output and "Traceback" not in result.output
    unknown = CliRunner().invoke(cli, ["arena", "rules", "random", "champion", "--budget", "pimc:worlds=8"])
    assert unknown.exit_code == 2 and "unknown bot 'champion'" in unknown.output  # the unknown bot comes first


def test_a_level_budgeted_twice_gets_both_fields(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--budget pimc:worlds=2 --budget pimc:time=5`` kept only the second: the worlds were dropped silently.
    (It was written with the rules level, which now refuses fields it never reads.)"""
    seen: list[list[Budget | None]] = []
    real = run_arena

    def spy(*args: Any, **kwargs: Any) -> ArenaResult:
        seen.append(list(kwargs["budgets"]))
        return real(*args, **kwargs)

    monkeypatch.setattr(mizerka.bots.cli, "run_arena", spy)
    result = CliRunner().invoke(cli, ["arena", "pimc", "random", "random", "-n", "1", *TINY_VARIANT,
                                      "--backend", "serial", "--budget", "pimc:worlds=2", "--budget", "pimc:time=5",
                                      "--budget", "pimc:worlds=3"])
    assert result.exit_code == 0, result.output
    assert seen == [[Budget(time=5.0, worlds=3), None, None]]


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


def test_an_empty_budget_and_a_negative_seed_are_refused() -> None:
    """``--budget pimc:`` changed nothing and was taken; ``--seed -1`` was taken where ``deal`` and ``play`` refuse
    it."""
    empty = CliRunner().invoke(cli, ["arena", "pimc", "random", "random", "-n", "1", "--budget", "pimc:"])
    assert empty.exit_code == 2 and "'pimc:' gives no budget field (e.g. 'pimc:worlds=8')" in empty.output
    negative = CliRunner().invoke(cli, ["arena", *FAST, "-n", "1", "--seed", "-1"])
    assert negative.exit_code == 2 and "Invalid value for '--seed'" in negative.output


def test_ctrl_c_is_exit_status_130_with_a_line_that_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """click's bare ``Aborted!`` with status 1, where every other command that runs long exits 130."""
    def interrupted(*args: Any, **kwargs: Any) -> ArenaResult:
        raise KeyboardInterrupt

    monkeypatch.setattr(mizerka.bots.cli, "run_arena", interrupted)
    result = CliRunner().invoke(cli, ["arena", *FAST, "-n", "1", *TINY_VARIANT])
    assert result.exit_code == 130, result.output
    assert result.stderr.strip().startswith("Aborted!: no result is printed") and result.stdout == ""


# -- the help --------------------------------------------------------------------------------------------------------


def test_the_help_names_the_levels_the_tables_the_variant_and_the_backend() -> None:
    """``mizerka arena --help`` named no bot level, said "the same decks, seats rotated" where the default plays
    every permutation of the seats, gave ``--variant TEXT  Rules variant, e.g. 'standard'.`` without pointing to
    ``mizerka rules``, and had no word for ``--backend``."""
    result = CliRunner().invoke(cli, ["arena", "--help"], terminal_width=80)
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert ", ".join(BOT_LEVELS) in text  # the code's own list, in its order (weakest first)
    assert "seats rotated" not in text
    assert "every order of the bots over the seats (--tables all, the default)" in text
    assert "only the rotations of the order given (--tables rotations)" in text
    assert "--variant SPEC Variant name and options, e.g. 'standard,show_trump_card' (see `mizerka rules`)" in text
    deal_variant = " ".join(CliRunner().invoke(cli, ["deal", "--help"]).output.split())
    assert "variant name and options, e.g. 'standard,show_trump_card' (see `mizerka rules`)" in deal_variant
    backend = text.split("--backend [process|serial|ray]")[1].split("--tables")[0]
    assert "worker processes" in backend and "Ray" in backend
