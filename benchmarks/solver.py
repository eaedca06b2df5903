"""Benchmark of the double-dummy solver kernel against DDS (endplay, one thread).

Run: ``.venv/bin/python benchmarks/solver.py [--bridge-deals 200] [--spades-deals 50] [--nine-left 200]
[--mizerka-deals 50] [--seed 1]``.

Reports, on the same seeded deals for both solvers:

* full 13-card Mizerka deals, forehand's value, in a trump contract, no-trump and Mizerka: median / p90 ms;
  beside them, for information, the same solves as a match deals them (``mizerka_full_deal_match_mix``: each
  trump solve counted four times, as 18 deals hold 12 in trumps, 3 in no-trump and 3 in Mizerka); the target is
  judged on each contract type alone (``targets_met``), the strictest reading of the issue's "a full Mizerka deal";
* full bridge deals, no-trump, West on lead (DDS ``SolveBoard``, target -1, one solution): ours, DDS's, ratio;
* the same in a spades contract;
* bridge positions with 9 tricks left (no-trump): ours, DDS's, ratio;
* the kernel's nodes per second and the process's peak memory;
* the first solve of a fresh process (a 3-card bridge ending: the table's set-up, not the search), ours and
  DDS's, each in its own new interpreter, median of five.

Every bridge value is checked against DDS; a mismatch stops the run.  The last line printed is one JSON
object with every figure, the anchors, the ratios and the targets.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from mizerka.solver import DEFAULT_TT_MB, backend, kernel_nodes, solve
from solver_bridge import bridge_position, random_bridge_hands, to_pbn
from solver_helpers import random_position

ANCHORS = {"dds_full_nt_median_ms": 7.4, "dds_full_spades_median_ms": 12.9, "dds_9_left_median_ms": 0.31}
"""DDS figures from the research notes (200 deals, one thread); the ratios use DDS timed in the same run."""
TARGETS = {"bridge_full_ratio_max": 2.0, "bridge_9_left_ratio_max": 2.0, "mizerka_full_median_ms_max": 10.0}


def _summary(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    return {
        "median_ms": round(statistics.median(ordered) * 1e3, 3),
        "p90_ms": round(ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))] * 1e3, 3),
        "mean_ms": round(statistics.fmean(ordered) * 1e3, 3),
    }


def _timed(fn: Callable[[], int]) -> tuple[int, float]:
    start = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - start


FIRST_CALL = {
    "ours": """
import random, sys, time
sys.path.insert(0, {path!r})
from mizerka.solver import solve
from solver_bridge import bridge_position, random_bridge_hands
position = bridge_position(random_bridge_hands(random.Random(5), 3), 3, None)
start = time.perf_counter()
solve(position, 3)
print(time.perf_counter() - start)
""",
    "dds": """
import random, sys, time
sys.path.insert(0, {path!r})
import endplay._dds as dds_module
from endplay.dds import solve_board
from endplay.dds.solve import SolveMode
from endplay.types import Deal, Denom, Player
from solver_bridge import random_bridge_hands, to_pbn
dds_module.SetMaxThreads(1)
deal = Deal(to_pbn(random_bridge_hands(random.Random(5), 3)), first=Player.west, trump=Denom.nt)
start = time.perf_counter()
solve_board(deal, SolveMode.OptimalOne)
print(time.perf_counter() - start)
""",
}
"""The first solve in a new interpreter, timed inside it (imports excluded), for ours and for DDS."""


def _first_call_ms(which: str, repeats: int = 5) -> float:
    code = FIRST_CALL[which].format(path=str(Path(__file__).resolve().parent))
    times = [float(subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout)
             for _ in range(repeats)]
    return round(statistics.median(times) * 1e3, 3)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bridge-deals", type=int, default=200)
    parser.add_argument("--spades-deals", type=int, default=50)
    parser.add_argument("--nine-left", type=int, default=200)
    parser.add_argument("--mizerka-deals", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    import endplay._dds as dds_module
    from endplay.dds import solve_board
    from endplay.dds.solve import SolveMode
    from endplay.types import Deal, Denom, Player

    dds_module.SetMaxThreads(1)
    print(f"solver backend: {backend()}, table {DEFAULT_TT_MB} MB")
    figures: dict[str, object] = {"backend": backend()}
    search_time = 0.0
    nodes_before = kernel_nodes()

    rng = random.Random(args.seed)
    mizerka: dict[str, object] = {}
    mix: list[float] = []
    for name, trump, misere, weight in (("trump", 3, False, 4), ("no_trump", None, False, 1),
                                        ("mizerka", None, True, 1)):
        times = []
        for _ in range(args.mizerka_deals):
            position = random_position(rng, 3, 13, trump=trump, misere=misere, mid_trick=False)
            _, elapsed = _timed(lambda p=position: solve(p, p.leader))  # type: ignore[misc]
            times.append(elapsed)
        search_time += sum(times)
        mix += times * weight
        mizerka[name] = _summary(times)
        print(f"mizerka full deal, {name:9}: {mizerka[name]}")
    figures["mizerka_full_deal"] = mizerka
    figures["mizerka_full_deal_match_mix"] = _summary(mix)
    print(f"mizerka full deal, the contracts as a match deals them (4 : 1 : 1): {_summary(mix)}")

    def bridge_round(label: str, count: int, cards: int, trump: int | None = None) -> dict[str, object]:
        nonlocal search_time
        ours, theirs = [], []
        strain = Denom.nt if trump is None else Denom.spades
        for _ in range(count):
            hands = random_bridge_hands(rng, cards)
            deal = Deal(to_pbn(hands), first=Player.west, trump=strain)
            expected, dds_elapsed = _timed(lambda d=deal: solve_board(d, SolveMode.OptimalOne)._data.score[0])  # type: ignore[misc]
            position = bridge_position(hands, 3, trump)  # built outside the clock, like DDS's Deal
            value, elapsed = _timed(lambda p=position: solve(p, 3))  # type: ignore[misc]
            if value != expected:
                raise SystemExit(f"MISMATCH on {to_pbn(hands)}: ours {value}, DDS {expected}")
            ours.append(elapsed)
            theirs.append(dds_elapsed)
        search_time += sum(ours)
        result: dict[str, object] = {
            "deals": count,
            "identical": True,
            "ours": _summary(ours),
            "dds": _summary(theirs),
            "median_ratio": round(statistics.median(ours) / statistics.median(theirs), 2),
            "total_ratio": round(sum(ours) / sum(theirs), 2),
        }
        print(f"{label}: {result}")
        return result

    figures["bridge_9_left_nt"] = bridge_round("bridge, 9 tricks left, NT", args.nine_left, 9)
    figures["bridge_full_nt"] = bridge_round("bridge full deal, NT, West leads", args.bridge_deals, 13)
    figures["bridge_full_spades"] = bridge_round("bridge full deal, spades, West leads", args.spades_deals, 13, 3)

    first = {"ours_ms": _first_call_ms("ours"), "dds_ms": _first_call_ms("dds")}
    print(f"first solve of a fresh process (3-card ending): {first}")
    figures["first_solve"] = first

    nodes = kernel_nodes() - nodes_before
    figures["nodes_per_second"] = round(nodes / search_time) if search_time else 0
    figures["peak_memory_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    figures["anchors"] = ANCHORS
    figures["targets"] = TARGETS
    full, nine = figures["bridge_full_nt"], figures["bridge_9_left_nt"]
    assert isinstance(full, dict) and isinstance(nine, dict)
    figures["targets_met"] = {
        "bridge_full_ratio": full["median_ratio"] <= TARGETS["bridge_full_ratio_max"],
        "bridge_9_left_ratio": nine["median_ratio"] <= TARGETS["bridge_9_left_ratio_max"],
        "mizerka_full_median": all(  # every contract type on its own, the Mizerka contract included
            summary["median_ms"] <= TARGETS["mizerka_full_median_ms_max"]  # type: ignore[index]
            for summary in mizerka.values()
        ),
    }
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
