"""Benchmark of a deal's review (``mizerka.analysis.analyse_deal``) against scoring every card, on the same deals.

A review judges every card played: the best value for the player to move, the cards that reach it, and the value
of the card played.  Ours asks the solver exactly that (:func:`mizerka.solver.solve_best`, DDS's ``solutions=2``,
then the card played's own value where it is not among the best).  The anchor is what the review did before and
what DDS's ``SolveBoard`` with ``solutions=3`` does: every legal card's exact value (:func:`mizerka.solver.solve_all`).
Both must give the same verdicts on every card; the run checks it.

The deals are whole matches played by three Rules bots (seeded), so the positions are those of real play.  Each
deal is reviewed both ways back to back, in alternating order, and the figures are medians over the deals of a
contract kind (Mizerka, where the solver's proofs are dearest; and the trump and no-trump contracts together).

The last line of output is one JSON object with the figures.

    python benchmarks/analysis.py [--matches 6]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from functools import partial

from mizerka.analysis import DealAnalysis, analyse_deal
from mizerka.bots import make_bot
from mizerka.cards import Card
from mizerka.deal import Deal
from mizerka.match import Match
from mizerka.record import MatchRecord
from mizerka.solver import Position, backend, solve_all

TARGET_RATIO = 1.0
"""Ours ÷ the anchor, median over the Mizerka deals: the review must not cost more than scoring every card."""


def rules_match(seed: int) -> MatchRecord:
    """A whole match of three Rules bots, as a record."""
    match = Match(players=["A", "B", "C"], seed=seed)
    bots = [make_bot("rules", seed=seed * 3 + seat) for seat in range(3)]
    while not match.is_over():
        seat = match.to_move
        match.push(bots[seat].decide(match.observation(seat)).action)
    return MatchRecord.from_match(match)


def every_card(deal: Deal) -> dict[Card, int]:
    """The anchor's evaluation: every legal card's exact value (DDS's ``solutions=3``)."""
    return solve_all(Position.from_deal(deal), deal.to_move)


def timed(call: Callable[[], DealAnalysis]) -> tuple[float, DealAnalysis]:
    start = time.perf_counter()
    result = call()
    return time.perf_counter() - start, result


def main(argv: list[str] | None = None) -> dict[str, object]:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=6, help="Rules-bot matches whose deals are reviewed (18 each)")
    args = parser.parse_args(argv)
    if args.matches < 1:
        parser.error(f"--matches must be at least 1, not {args.matches}")

    times: dict[str, tuple[list[float], list[float]]] = {"mizerka": ([], []), "trumps_and_no_trump": ([], [])}
    different = 0
    for seed in range(args.matches):
        record = rules_match(seed)
        for number, drec in enumerate(record.deals, start=1):
            assert drec.contract is not None
            ours_first = number % 2 == 1
            runs: dict[bool, tuple[float, DealAnalysis]] = {}
            for fast in (ours_first, not ours_first):
                runs[fast] = timed(partial(analyse_deal, record, number, evaluate=None if fast else every_card))
            different += runs[True][1] != runs[False][1]
            kind = "mizerka" if drec.contract.is_mizerka else "trumps_and_no_trump"
            times[kind][0].append(runs[True][0])
            times[kind][1].append(runs[False][0])

    result: dict[str, object] = {"backend": backend(), "matches": args.matches, "verdicts_different": different}
    for kind, (ours, anchor) in times.items():
        ratio = statistics.median(o / a for o, a in zip(ours, anchor, strict=True))
        result[kind] = {
            "deals": len(ours),
            "ours_median_s": round(statistics.median(ours), 4),
            "ours_max_s": round(max(ours), 3),
            "ours_total_s": round(sum(ours), 2),
            "anchor_median_s": round(statistics.median(anchor), 4),
            "anchor_max_s": round(max(anchor), 3),
            "anchor_total_s": round(sum(anchor), 2),
            "ratio_median": round(ratio, 3),
            "ratio_total": round(sum(ours) / sum(anchor), 3),
        }
        print(f"{kind:>20}: {len(ours)} deals, ours median {statistics.median(ours):.3f} s (max {max(ours):.2f}, "
              f"total {sum(ours):.1f}), every card scored {statistics.median(anchor):.3f} s (max {max(anchor):.2f}, "
              f"total {sum(anchor):.1f}); ours / anchor {ratio:.2f} per deal, {sum(ours) / sum(anchor):.2f} in all")
    mizerka = result["mizerka"]
    assert isinstance(mizerka, dict)
    result["target_ratio"] = TARGET_RATIO
    result["meets_target"] = different == 0 and mizerka["ratio_median"] <= TARGET_RATIO
    print(f"verdicts different: {different}")
    print(json.dumps(result))
    return result


if __name__ == "__main__":
    main()
