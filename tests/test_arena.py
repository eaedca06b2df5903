"""The duplicate arena: determinism across backends and workers, incidents, records, the command, and the 95%
interval (Student's t for any number of values, without a jump to the normal 1.96 at 32 of them; no interval at all
from one duplicate match: ``null`` in the JSON, ``–`` in the table)."""

from __future__ import annotations

import importlib.util
import itertools
import json
import math
import random
import re
import statistics
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from mizerka import VARIANTS, parse_variant
from mizerka.arena import NO_INTERVAL, ArenaError, ci95, match_seed, run_arena, seatings
from mizerka.bots import BOT_LEVELS, BotLevel, Budget, Decision, UnknownBotError
from mizerka.bots.base import Bot
from mizerka.bots.random_bot import RandomBot
from mizerka.cli import cli
from mizerka.deal import Choose, Observation

FAST = ["rules", "random", "random"]
SHORT = parse_variant("standard,contracts=NT+MZ")
"""Six deals a match: keeps these tests quick."""


def test_results_do_not_depend_on_backend_or_workers() -> None:
    serial = run_arena(FAST, 2, rules=SHORT, seed=11, backend="serial")
    parallel = run_arena(FAST, 2, rules=SHORT, seed=11, backend="process", workers=2)
    assert serial.points == parallel.points
    assert serial.points != run_arena(FAST, 2, rules=SHORT, seed=12, backend="serial").points


def test_the_process_pool_holds_a_window_of_jobs_not_one_per_match(monkeypatch: pytest.MonkeyPatch) -> None:
    """A long run submits a few matches ahead per worker as others finish, never every match at once (a run of
    millions of matches held a future for each before the first one was played); the results are the same."""
    import concurrent.futures

    import mizerka.arena as arena

    in_flight: list[int] = []
    most = 0

    class CountingPool(concurrent.futures.ProcessPoolExecutor):
        def submit(self, *args: object, **kwargs: object) -> concurrent.futures.Future[object]:  # type: ignore[override]
            nonlocal most
            future = super().submit(*args, **kwargs)  # type: ignore[arg-type]
            in_flight.append(1)
            most = max(most, len(in_flight))
            future.add_done_callback(lambda _: in_flight.pop())
            return future

    monkeypatch.setattr(arena, "ProcessPoolExecutor", CountingPool)
    matches = 12
    windowed = run_arena(FAST, matches, rules=SHORT, seed=3, backend="process", workers=1 + 1, tables="rotations")
    assert 2 <= most <= arena._IN_FLIGHT * 2 < matches
    assert windowed.points == run_arena(FAST, matches, rules=SHORT, seed=3, backend="serial", tables="rotations").points


def test_duplicate_matches_are_zero_sum_and_rank_rules_first() -> None:
    result = run_arena(FAST, 2, rules=SHORT, seed=5, backend="serial")
    assert result.tables_per_match == 6 and result.deals_per_match == 6
    for points in result.points:
        assert abs(sum(points)) < 1e-9
    assert result.ranking()[0].bot == "rules"
    lead, half = result.difference(0, 1)
    assert lead > 0 and half >= 0
    assert "rules" in result.table()
    assert json.loads(json.dumps(result.to_dict()))["matches"] == 2


def test_seats_are_rotated_with_the_same_decks() -> None:
    # the same bot in every seat: every table plays the same decks, so per-table totals differ only by seat
    result = run_arena(["random", "random", "random"], 1, rules=SHORT, seed=3, backend="serial")
    assert abs(sum(result.points[0])) < 1e-9
    assert match_seed(3, 0) != match_seed(3, 1) and match_seed(3, 0) == match_seed(3, 0)


class _BrokenBot(RandomBot):
    name = "broken"
    badge = "Broken"
    description = "Raises on every third card play."

    def play(self, observation: Observation, budget: Budget, rng: random.Random) -> Decision:
        if len(observation.tricks) % 3 == 1:
            raise RuntimeError("boom")
        return super().play(observation, budget, rng)


def test_a_failing_bot_is_reported_and_the_run_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BOT_LEVELS, "broken", BotLevel("broken", "Broken", "test", _BrokenBot))
    result = run_arena(["broken", "rules", "rules"], 1, rules=SHORT, seed=2, backend="serial")
    assert result.matches == 1 and result.incidents
    incident = result.incidents[0]
    assert incident.bot == "broken" and incident.kind == "error" and "boom" in incident.detail
    assert incident.seat in (0, 1, 2) and "actions" in incident.position
    assert "seat" in str(incident)


class _MalformedBot(RandomBot):
    name = "malformed"
    badge = "Malformed"
    description = "Answers the contract choice with an unhashable contract."

    def choose(self, observation: Observation, budget: Budget, rng: random.Random) -> Decision:
        return Decision(Choose([]))  # type: ignore[arg-type]


def test_a_malformed_action_is_reported_as_illegal_and_the_run_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """Checking ``Choose([])`` against the legal actions raised TypeError (a list is unhashable) outside the
    arena's guard, and the whole run stopped."""
    monkeypatch.setitem(BOT_LEVELS, "malformed", BotLevel("malformed", "Malformed", "test", _MalformedBot))
    result = run_arena(["malformed", "random", "random"], 1, rules=SHORT, seed=2, backend="serial")
    chosen = [i for i in result.incidents if i.bot == "malformed"]
    assert result.matches == 1 and chosen and all(i.kind == "illegal" for i in chosen)
    assert "[] is not a contract" in chosen[0].detail


def test_time_overruns_are_reported() -> None:
    result = run_arena(FAST, 1, rules=SHORT, seed=1, backend="serial", decision_limit=1e-9)
    assert any(i.kind == "time" for i in result.incidents)


def test_records_are_saved_for_replay(tmp_path: Path) -> None:
    from mizerka.record import read

    result = run_arena(FAST, 1, rules=SHORT, seed=4, backend="serial", record_dir=tmp_path)
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 6
    record = read(files[0])
    match = record.to_match()
    assert match.is_over() and list(match.totals) == list(record.totals)
    assert result.matches == 1


def test_bad_arguments_are_named() -> None:
    with pytest.raises(UnknownBotError, match="'nobody'"):
        run_arena(["nobody", "rules", "rules"], 1)
    with pytest.raises(ArenaError, match="seats 3 bots, not 2"):
        run_arena(["rules", "rules"], 1)
    with pytest.raises(ArenaError, match="matches"):
        run_arena(FAST, 0)
    with pytest.raises(ArenaError, match="workers"):
        run_arena(FAST, 1, rules=SHORT, workers=0)
    with pytest.raises(ArenaError, match="backend"):
        run_arena(FAST, 1, rules=SHORT, backend="mpi")
    with pytest.raises(ArenaError, match="one budget"):
        run_arena(FAST, 1, rules=SHORT, budgets=[None])
    with pytest.raises(ArenaError, match="list of bot names"):
        run_arena("rules", 1)  # type: ignore[arg-type]
    with pytest.raises(ArenaError, match="workers"):
        run_arena(FAST, 1, rules=SHORT, workers=True)
    for seed in ("abc", 1.5, None):
        with pytest.raises(ArenaError, match="seed"):
            run_arena(FAST, 1, rules=SHORT, seed=seed)  # type: ignore[arg-type]
    for limit in ("x", -1, 0, float("nan"), float("inf")):
        with pytest.raises(ArenaError, match="decision_limit"):
            run_arena(FAST, 1, rules=SHORT, decision_limit=limit)  # type: ignore[arg-type]
    with pytest.raises(ArenaError, match="rules must be a Rules"):
        run_arena(FAST, 1, rules="standard")  # type: ignore[arg-type]
    with pytest.raises(ArenaError, match="progress"):
        run_arena(FAST, 1, rules=SHORT, progress=5)  # type: ignore[arg-type]


def test_four_player_variant_needs_four_bots() -> None:
    with pytest.raises(ArenaError, match="seats 4"):
        run_arena(FAST, 1, rules=VARIANTS["four-players"])


def test_confidence_interval() -> None:
    assert ci95([1.0]) == 0.0
    assert ci95([1.0, 1.0, 1.0]) == 0.0
    assert 0 < ci95([0.0, 2.0] * 20) < 1


@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="Ray is not installed (the 'ray' extra)")
def test_ray_backend_gives_the_same_results() -> None:
    import ray

    try:
        by_ray = run_arena(FAST, 2, rules=SHORT, seed=11, backend="ray", workers=2)
    finally:
        ray.shutdown()
    by_processes = run_arena(FAST, 2, rules=SHORT, seed=11, backend="process", workers=2)
    assert by_ray.points == by_processes.points
    assert by_ray.incidents == by_processes.incidents == []


def test_rotations_seat_each_bot_once_per_seat_and_parts_join() -> None:
    assert seatings(3, "rotations") == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    assert sorted(seatings(3)) == sorted(itertools.permutations(range(3)))
    whole = run_arena(FAST, 3, rules=SHORT, seed=4, backend="serial", tables="rotations")
    assert whole.tables_per_match == 3
    first = run_arena(FAST, 1, rules=SHORT, seed=4, backend="serial", tables="rotations")
    rest = run_arena(FAST, 2, rules=SHORT, seed=4, backend="serial", tables="rotations", start=1)
    assert [r.index for r in rest.results] == [1, 2]
    assert first.points + rest.points == whole.points
    with pytest.raises(ArenaError, match="table plan"):
        run_arena(FAST, 1, tables="some")
    with pytest.raises(ArenaError, match="start"):
        run_arena(FAST, 1, start=-1)


def test_arena_command(tmp_path: Path) -> None:
    runner = CliRunner()
    plot = tmp_path / "scores.svg"
    args = ["arena", *FAST, "-n", "2", "--variant", "standard,contracts=NT+MZ", "--backend", "serial"]
    result = runner.invoke(cli, [*args, "--plot", str(plot), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output.strip().splitlines()[-1])
    assert data["bots"] == FAST and data["matches"] == 2
    assert plot.exists() and plot.read_text().lstrip().startswith("<?xml")
    table = runner.invoke(cli, ["arena", *FAST, "-n", "1", "--workers", "1", "--variant", "standard,contracts=NT"])
    assert table.exit_code == 0 and "rules" in table.output
    rotations = runner.invoke(cli, ["arena", *FAST, "-n", "1", "--backend", "serial", "--tables", "rotations",
                                    "--variant", "standard,contracts=NT", "--json"])
    assert rotations.exit_code == 0, rotations.output
    assert json.loads(rotations.output.strip().splitlines()[-1])["tables_per_match"] == 3


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["rules", "rules"], "seats 3 bots"),
        (["rules", "rules", "champion"], "unknown bot 'champion'"),
        (["rules", "rules", "rules", "-n", "0"], "matches must be"),
        (["rules", "rules", "rules", "--budget", "pimc:depth=2"], "invalid budget item"),
        (["rules", "rules", "rules", "--budget", "pimc:worlds=0"], "worlds"),
        (["rules", "rules", "rules", "--variant", "nonsense"], "nonsense"),
        (["rules", "rules", "rules", "--plot", "x.gif"], ".png or .svg"),
        (["rules", "rules", "rules", "--tables", "some"], "some"),
        (["rules", "rules", "rules", "--plot", "/nonexistent-folder/x.png"], "not a writable folder"),
        # a folder inside a file: refused before the first match, not with a traceback after it
        (["rules", "rules", "rules", "--save-records", str(Path(__file__) / "records")], "cannot save records"),
    ],
)
def test_arena_command_rejects_bad_input(args: list[str], message: str) -> None:
    result = CliRunner().invoke(cli, ["arena", *args])
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_bot_class_protocol() -> None:
    assert issubclass(_BrokenBot, Bot)


def test_the_plain_text_ranking_shows_no_interval_after_one_match() -> None:
    """One duplicate match has no 95% interval: the library's table says ``–`` as the command's does, not
    ``± 0.000`` (which reads as a certain result); from two matches on it gives the interval."""
    one = run_arena(FAST, 1, rules=SHORT, seed=5, backend="serial")
    rows = one.table().splitlines()[1:]
    assert len(rows) == 3 and all(row.count(f"± {NO_INTERVAL}") == 2 for row in rows), one.table()
    assert "0.000" not in one.table()
    two = run_arena(FAST, 2, rules=SHORT, seed=5, backend="serial")
    assert NO_INTERVAL not in two.table() and two.table().count("±") == 6
    # one rule, read by the table and by the command alike
    assert (one.has_interval, two.has_interval) == (False, True)


# -- the 95% interval ------------------------------------------------------------------------------------------------

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


ARENA = ("arena", "rules", "random", "random", "-n", "1", "--backend", "serial", "--tables", "rotations")


def run(*args: str, charset: str = "utf-8", input: str | None = None) -> Result:
    """The command in-process, its standard output encoded with *charset* strictly (a character the charset lacks
    raises UnicodeEncodeError, where a real stream of ``mizerka`` writes ``?``: either way the suit is lost)."""
    return CliRunner(charset=charset).invoke(cli, list(args), input=input)


def test_arena_json_gives_no_interval_for_one_match() -> None:
    """`--matches 1` gave "per_deal_ci": 0.0, a certain result; there is no interval from one match."""
    result = run(*ARENA, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["matches"] == 1
    for row in data["stats"]:
        assert row["per_match_ci"] is None and row["per_deal_ci"] is None
        assert isinstance(row["per_match"], float) and isinstance(row["per_deal"], float)


def test_arena_table_shows_a_dash_for_the_interval_of_one_match() -> None:
    result = run(*ARENA)
    assert result.exit_code == 0, result.output
    rows = [line for line in result.stdout.splitlines() if ": rules" in line or ": random" in line]
    assert len(rows) == 3
    for line in rows:
        cells = [cell.strip() for cell in re.split(r"[│┃|]", line) if cell.strip()]
        assert cells[3] == "–" and cells[5] == "–", line  # the two "± 95%" columns
    assert "0.000" not in result.stdout and "1 duplicate match ×" in result.stdout
