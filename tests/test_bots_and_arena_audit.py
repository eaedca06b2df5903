"""The bots' answers and the arena, as a demanding researcher uses them: what an audit found, one test each.

* An exchange by simulation reported means of every candidate, also those its successive halving dropped after a
  quarter of the worlds: a dropped one could show a higher figure than the exchange chosen, so a hint seemed to
  advise against its own numbers.  Only the finalists, each over all the worlds, are reported now.
* ``--plot`` after one match drew an empty chart (a line through one point draws nothing), with ticks at 0.96 …
* A bot's error whose message holds a line break printed its incident over two lines (tests/test_arena_incidents.py).
* ``ArenaResult.difference`` took -2 as the bot counted from the end and raised ``IndexError`` or ``TypeError``.
* ``make_bot`` refused a NumPy integer seed, which a :class:`Budget`'s counts accept; ``Budget.parse`` took
  ``worlds=1_000`` and an Arabic-Indic digit; a decision asked of a finished deal said "seat -1 is" to move.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from mizerka import Match, parse_variant
from mizerka.arena import ArenaError, run_arena
from mizerka.bots import BotError, Budget, BudgetError, NotMyTurnError, make_bot
from mizerka.bots.search import _Clock, exchange_by_simulation
from mizerka.cli import cli
from mizerka.deal import Observation, Phase

TINY = ["--variant", "standard,contracts=NT"]  # three deals a match


def _exchange_observations(count: int) -> list[Observation]:
    """Forehand's exchange in the first deal of *count* matches (a contract chosen by a Rules bot)."""
    out = []
    for seed in range(count):
        match = Match(seed=seed)
        match.push(make_bot("rules", seed=1).decide(match.observation(match.to_move)).action)
        out.append(match.observation(match.to_move))
    return out


def test_an_exchange_reports_only_its_finalists_and_the_chosen_one_leads_them() -> None:
    for observation in _exchange_observations(6):
        assert observation.phase is Phase.EXCHANGE
        decision = exchange_by_simulation(observation, 16, random.Random(3), _Clock(None))
        figures = decision.evaluations
        assert 1 <= len(figures) <= 4, figures  # the four best of the first quarter, not every candidate
        chosen = str(decision.action)
        assert chosen in figures and figures[chosen] == max(figures.values()), (chosen, figures)


def test_a_plot_of_one_match_shows_its_points(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    plot = tmp_path / "one.svg"
    result = CliRunner().invoke(cli, ["arena", "random", "rules", "random", "-n", "1", *TINY, "--backend", "serial",
                                      "--plot", str(plot)])
    assert result.exit_code == 0, result.output
    svg = plot.read_text(encoding="utf-8")
    assert svg.count('xlink:href="#m') >= 3  # a marker for each bot's one point
    assert ">0.96<" not in svg and ">1.04<" not in svg  # no fractional match counts on the axis


def test_a_difference_names_its_bots_by_index_only() -> None:
    result = run_arena(["random", "rules", "random"], 1, seed=1, workers=1, tables="rotations",
                       rules=parse_variant("standard,contracts=NT"))
    assert result.difference(1, 0) == result.difference(np.int64(1), 0)
    for bad in (3, -1, -2, "rules", 1.0, True):
        with pytest.raises(ArenaError, match="no bot has the index"):
            result.difference(bad, 0)  # type: ignore[arg-type]
        with pytest.raises(ArenaError, match="no bot has the index"):
            result.difference(0, bad)  # type: ignore[arg-type]


def test_a_numpy_seed_is_a_seed() -> None:
    match = Match(seed=4)
    observation = match.observation(match.to_move)
    plain = make_bot("rules", seed=3).decide(observation).action
    assert make_bot("rules", seed=np.int64(3)).decide(observation).action == plain  # type: ignore[arg-type]
    for bad in (3.0, "3", True, np.bool_(True)):
        with pytest.raises(BotError, match="seed must be an int"):
            make_bot("rules", seed=bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["worlds=1_000", "worlds=\u0663", "time=1_0.5", "simulations=1e3", "time=0x10"])
def test_a_budget_is_written_in_plain_numbers(text: str) -> None:
    with pytest.raises(BudgetError, match="write a plain number"):
        Budget.parse(text)


def test_plain_budgets_still_read() -> None:
    assert Budget.parse(" worlds = 40 , time=.5") == Budget(time=0.5, worlds=40)
    assert Budget.parse("time=1e-1,simulations=+200") == Budget(time=0.1, simulations=200)


def test_a_decision_on_a_finished_deal_says_the_deal_is_over() -> None:
    match = Match(parse_variant("standard,contracts=NT"), seed=2)
    bot = make_bot("random", seed=1)
    while match.deal.phase is not Phase.DONE:
        match.push(bot.decide(match.observation(match.to_move)).action)
    observation = match.deal.observation(0)
    with pytest.raises(NotMyTurnError, match=r"^seat 0 is not to move: the deal is over$"):
        bot.decide(observation)

