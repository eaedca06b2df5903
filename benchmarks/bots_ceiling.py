"""How much would Expert gain if it knew every card?  A diagnostic of where its strength is limited.

Run: ``.venv/bin/python benchmarks/bots_ceiling.py --mode play [--deals 360] [--seed 900000]``.

The paired deal test of ``benchmarks/bots.py`` (deal *i* = ``Deal.random(seed + i)``, forehand's contract the
*i*-th in turn, the hero's role rotating, the hero against two Rules bots): Expert as it is, and Expert given
the true deal where it would otherwise sample worlds.  Each mode gives it one kind of perfect information:

- ``play``: its card play evaluates each card in the true world only (its policy playouts and late solving,
  unchanged); trump and no-trump deals (in Mizerka it plays by IS-MCTS, which this does not reach);
- ``play-solver``: the same, with every card solved exactly (the paranoid solver) in the true world;
- ``exchange``: its exchange simulation runs on the true world, the talon included; every contract;
- ``play-rules``: the card is chosen by playing each legal card out in the true world with every player,
  the hero too, playing the Rules level's card play from his own observation: the opponents exactly as
  they will play, the hero as Rules would (Expert's own card where it scores as well); trump and no-trump.

This is not a bot anyone can play against: it reads the hidden cards, which no bot of the package may do.
It only measures how far information, rather than the way Expert evaluates a choice, limits it.  The
last line is one JSON object: the lead per deal of the informed Expert over Expert, its 95% interval, per
contract.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import mizerka.bots.search as search
from bots import CONTRACT_NAMES, ci95, paired_start
from mizerka.bots import make_bot
from mizerka.bots.fastsim import Table
from mizerka.bots.rules_bot import play_by_rules
from mizerka.deal import Deal, Observation, Phase, Play
from mizerka.rules import Contract, Rules

MODES = ("play", "play-solver", "exchange", "play-rules")

_true: dict[str, Any] = {"deal": None, "play": False, "exchange": False, "solve": False}
_play_tables = search.play_tables
_raw_worlds = search._raw_worlds
_evaluate_table = search.evaluate_table


def _informed_play_tables(observation: Observation, count: int, rng: random.Random) -> list[Table] | None:
    if _true["play"]:
        return [Table.from_deal(_true["deal"])]
    return _play_tables(observation, count, rng)


def _informed_raw_worlds(observation: Observation, count: int, rng: random.Random, clock: Any,
                         contract: int) -> list[tuple[list[int], list[int]]]:
    if _true["exchange"]:
        return [search._raw_world(_true["deal"], contract)]
    return _raw_worlds(observation, count, rng, clock, contract)


def _informed_evaluate(table: Table, role: int, cards: list[int], rules: Rules, contract: Contract,
                       deeper: int = 0) -> dict[int, int]:
    return _evaluate_table(table, role, cards, rules, contract, 13 if _true["play"] and _true["solve"] else deeper)


search.play_tables = _informed_play_tables  # type: ignore[assignment]
search._raw_worlds = _informed_raw_worlds  # type: ignore[assignment]
search.evaluate_table = _informed_evaluate  # type: ignore[assignment]


def _rules_rollout_choice(deal: Deal, seat: int, expert_card: Play) -> Play:
    """The legal card whose Rules playout in the true *deal* scores best for *seat* (Expert's card on a tie)."""
    scores: dict[Play, int] = {}
    for action in list(deal.legal_actions):
        assert isinstance(action, Play)
        world = deal.copy()
        world.push(action)
        while world.phase is not Phase.DONE:
            world.push(play_by_rules(world.observation(world.to_move)).action)
        scores[action] = world.scores()[seat]
    best = max(scores.values())
    if scores.get(expert_card, best - 1) == best:
        return expert_card
    return min((a for a, v in scores.items() if v == best), key=lambda a: int(a.card))


def hero_score(index: int, seed: int, mode: str | None) -> int:
    """The hero's score in paired deal *index*: Expert, informed as *mode* says (``None``: as it is)."""
    deal, hero = paired_start(index, seed)
    bots = [make_bot("expert", seed=5) if s == hero else make_bot("rules", seed=100 + s) for s in range(3)]
    _true["solve"] = mode == "play-solver"
    while deal.phase is not Phase.DONE:
        seat = deal.to_move
        mine = mode is not None and seat == hero
        _true["deal"] = deal
        _true["play"] = mine and mode in ("play", "play-solver") and deal.phase is Phase.PLAY
        _true["exchange"] = mine and mode == "exchange" and deal.phase is Phase.EXCHANGE
        action = bots[seat].decide(deal.observation(seat)).action
        if mine and mode == "play-rules" and deal.phase is Phase.PLAY:
            assert isinstance(action, Play)
            action = _rules_rollout_choice(deal, seat, action)
        deal.push(action)
    _true["play"] = _true["exchange"] = False
    return deal.scores()[hero]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=MODES, required=True)
    parser.add_argument("--deals", type=int, default=360)
    parser.add_argument("--seed", type=int, default=900_000)
    args = parser.parse_args()
    if args.deals < 1:
        parser.error("--deals must be at least 1")
    started = time.perf_counter()
    rows: list[tuple[int, int]] = []
    for index in range(args.deals):
        if args.mode != "exchange" and index % 6 == int(Contract.MIZERKA):
            continue
        informed = hero_score(index, args.seed, args.mode)
        plain = hero_score(index, args.seed, None)
        rows.append((index % 6, informed - plain))
        if len(rows) % 60 == 0:
            diffs = [d for _, d in rows]
            print(f"{len(rows)} deals: {statistics.fmean(diffs):+.3f} ± {ci95(diffs):.3f} "
                  f"({time.perf_counter() - started:.0f} s)", flush=True)
    diffs = [d for _, d in rows]
    out: dict[str, object] = {
        "mode": args.mode, "seed": args.seed, "deals": len(diffs),
        "informed_lead_per_deal": round(statistics.fmean(diffs), 3), "ci95": round(ci95(diffs), 3),
        "differing": sum(1 for d in diffs if d), "seconds": round(time.perf_counter() - started, 1),
    }
    for contract, name in enumerate(CONTRACT_NAMES):
        mine = [d for c, d in rows if c == contract]
        if mine:
            out[name] = round(statistics.fmean(mine), 3)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
