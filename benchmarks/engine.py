"""Benchmark of the core engine, side by side with OpenSpiel's hearts, on a single core.

Figures (per CPU second of this process; medians over several interleaved repeats, as the machine is shared):

* random full deals per second through the public API: a shuffled :class:`~mizerka.deal.Deal`, the
  contract chosen at random from ``deal.legal_actions``, three random exchanges (a random size, then a
  random subset of the hand: not all 8,192 subsets are listed), and 39 card plays, each chosen from the
  legal action list generated at that step and applied with ``deal.push``;
* push/pop pairs per second, over every legal card in positions taken from random deals;
* the size of a deal copy in bytes (memory allocated by ``deal.copy()`` in the middle of play, measured with
  tracemalloc);
* with the ``bench`` extra installed: OpenSpiel hearts random games per second driven from Python
  (``pyspiel.load_game("hearts")``, chance outcomes sampled, a random legal action each turn), measured in the
  same run, and the ratio ours / OpenSpiel's (the median of the ratios of back-to-back runs).
  Target: ratio >= 1.0.

The last line of output is one JSON object with all figures.

    python benchmarks/engine.py [--seconds 0.5] [--repeats 9]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

from mizerka.cards import CardSet
from mizerka.deal import Deal, Exchange, Phase

TARGET_RATIO = 1.0


EXCHANGE, PLAY = Phase.EXCHANGE, Phase.PLAY  # module names: reading an enum member is slow in Python 3.11


def random_deal(rng: random.Random) -> Deal:
    """Play one random deal to the end through the public API."""
    deal = Deal.random(rng, dealer=rng.randrange(3))
    legal = list(deal.legal_actions)  # the contract choice
    deal.push(legal[rng.randrange(len(legal))])
    while deal.phase is EXCHANGE:
        hand = list(deal.hand(deal.to_move))
        size = rng.randint(0, min(len(deal.talon), len(hand)))
        deal.push(Exchange(CardSet(rng.sample(hand, size))))
    while deal.phase is PLAY:
        legal = list(deal.legal_actions)
        deal.push(legal[rng.randrange(len(legal))])
    return deal


def rate(step: Callable[[], int], seconds: float) -> float:
    """Units per CPU second of *step* (which returns how many units it did), run for about *seconds*.

    CPU time of this (single-threaded, pinned) process, not wall time: on a shared machine the time spent
    waiting for the core would otherwise count against whichever side happened to be running.
    """
    done = 0
    start = time.process_time()
    deadline = start + seconds
    while True:
        done += step()
        now = time.process_time()
        if now >= deadline:
            return done / (now - start)


def deals_step(rng: random.Random) -> Callable[[], int]:
    def step() -> int:
        for _ in range(10):
            random_deal(rng)
        return 10

    return step


def play_positions(count: int, seed: int) -> list[Deal]:
    """Deals stopped at random points of the play phase."""
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        deal = Deal.random(rng)
        deal.push(next(iter(deal.legal_actions)))
        while deal.phase is Phase.EXCHANGE:
            deal.push(Exchange(CardSet()))
        stop = rng.randrange(39)
        for _ in range(stop):
            legal = list(deal.legal_actions)
            deal.push(legal[rng.randrange(len(legal))])
        positions.append(deal)
    return positions


def push_pop_step(positions: list[Deal]) -> Callable[[], int]:
    def step() -> int:
        pairs = 0
        for deal in positions:
            for action in deal.legal_actions:
                deal.push(action)
                deal.pop()
                pairs += 1
        return pairs

    return step


def copy_size(positions: list[Deal]) -> int:
    """Bytes allocated by one ``deal.copy()`` (mean over the positions)."""
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        copies = [deal.copy() for deal in positions]
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert len(copies) == len(positions)
    return round((after - before) / len(positions))


def openspiel_step(rng: random.Random) -> Callable[[], int] | None:
    try:
        import pyspiel  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return None
    game = pyspiel.load_game("hearts")

    def one_game() -> None:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])

    def step() -> int:
        for _ in range(10):
            one_game()
        return 10

    return step


def pin_to_one_core() -> int | None:
    """Run on a single core (where the OS allows it); returns the core."""
    if hasattr(os, "sched_setaffinity"):
        core = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {core})
        return core
    return None


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=0.5, help="seconds per measurement (default 0.5)")
    parser.add_argument("--repeats", type=int, default=9, help="interleaved repeats; medians are reported")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args(argv)
    core = pin_to_one_core()

    rng = random.Random(args.seed)
    positions = play_positions(200, args.seed)
    ours_step = deals_step(rng)
    pairs_step = push_pop_step(positions)
    spiel_step = openspiel_step(random.Random(args.seed))
    for warm in (ours_step, pairs_step, spiel_step):  # steady state: imports done, lookup tables filled
        if warm is not None:
            rate(warm, args.seconds)

    ours: list[float] = []
    spiel: list[float] = []
    pairs: list[float] = []
    for _ in range(args.repeats):
        ours.append(rate(ours_step, args.seconds))
        if spiel_step is not None:
            spiel.append(rate(spiel_step, args.seconds))
        pairs.append(rate(pairs_step, args.seconds))

    deals_per_s = statistics.median(ours)
    result: dict[str, Any] = {
        "benchmark": "engine",
        "deals_per_s": round(deals_per_s, 1),
        "deals_per_s_runs": [round(x, 1) for x in ours],
        "push_pop_pairs_per_s": round(statistics.median(pairs)),
        "deal_copy_bytes": copy_size(positions),
        "openspiel_hearts_games_per_s": None,
        "openspiel_hearts_games_per_s_runs": None,
        "ratio_vs_openspiel": None,
        "ratio_runs": None,
        "target_ratio": TARGET_RATIO,
        "meets_target": None,
        "repeats": args.repeats,
        "seconds_per_run": args.seconds,
        "core": core,
        "python": platform.python_version(),
    }
    print(f"random full deals/s (choice, 3 exchanges, 39 plays): {deals_per_s:,.0f}", result["deals_per_s_runs"])
    print(f"push/pop pairs/s:                                     {result['push_pop_pairs_per_s']:,}")
    print(f"deal copy, bytes:                                     {result['deal_copy_bytes']:,}")
    if spiel:
        spiel_per_s = statistics.median(spiel)
        # ours and OpenSpiel's run back to back in each repeat: the median of those paired ratios is the
        # figure least disturbed by other load on a shared machine
        ratio = statistics.median(o / s for o, s in zip(ours, spiel, strict=True))
        result.update(
            openspiel_hearts_games_per_s=round(spiel_per_s, 1),
            openspiel_hearts_games_per_s_runs=[round(x, 1) for x in spiel],
            ratio_vs_openspiel=round(ratio, 3),
            ratio_runs=[round(o / s, 3) for o, s in zip(ours, spiel, strict=True)],
            meets_target=ratio >= TARGET_RATIO,
        )
        runs = result["openspiel_hearts_games_per_s_runs"]
        print(f"OpenSpiel hearts random games/s (from Python):        {spiel_per_s:,.0f}", runs)
        print(f"ratio ours / OpenSpiel:                               {ratio:.2f} (target >= {TARGET_RATIO})")
    else:
        print("OpenSpiel not installed (pip install -e '.[bench]'): no anchor figure, no ratio", file=sys.stderr)
    print(json.dumps(result))
    return result


if __name__ == "__main__":
    main()
