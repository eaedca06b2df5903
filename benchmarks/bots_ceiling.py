"""How much would Expert gain if it knew every card?  A diagnostic of where its strength is limited.

Run: ``.venv/bin/python benchmarks/bots_ceiling.py --mode play [--deals 360] [--seed 900000]`` (``play-near`` also
takes ``[--swaps 2] [--worlds 8] [--opponents rules]``).

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
- ``play-rules-others`` and ``play-rules-hero``: the same playouts in the true world with the two kinds of player
  split, to say which half of ``play-rules`` its gain comes from: the opponents play Rules' card play and the hero
  the clairvoyant playout policy of ``fastsim`` (an exact model of the opponents, the hero's later cards chosen
  seeing every hand, as Expert's playouts choose them), or the other way round (the hero's later cards chosen
  from his own view, the opponents as the playout policy models them).
- ``play-near``: the playouts of ``play-rules-others`` (or, with ``--opponents policy``, the playout policy for
  every player) averaged over ``--worlds`` worlds near the true one: each the true deal with ``--swaps`` random
  cards of one opponent exchanged for cards of the other (voids shown in play respected), or, with ``--swaps
  sampled``, dealt at random from the hero's observation as the search levels deal their worlds.  It says how
  close to the truth the hidden cards must be known for an exact model of the opponents to pay.

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
from mizerka.bots.fastsim import Table, policy
from mizerka.bots.rules_bot import play_by_rules
from mizerka.deal import PLAYS, Deal, Observation, Phase, Play
from mizerka.rules import Contract, Rules

MODES = ("play", "play-solver", "exchange", "play-rules", "play-rules-others", "play-rules-hero", "play-near")
_near: dict[str, Any] = {"swaps": 2, "worlds": 8, "opponents": "rules"}

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


def _near_world(deal: Deal, hero: int, rng: random.Random, swaps: int | None) -> Deal:
    """The true *deal* with *swaps* random cards of one opponent exchanged for the other's (their places in the
    deck order swapped, the history replayed, so a swap that would break a void shown in play is not taken), or,
    with *swaps* ``None``, a deal sampled from the hero's observation."""
    if swaps is None:
        return Deal.from_observation(deal.observation(hero), rng)
    first, second = (s for s in deal.active_seats if s != hero)
    for _ in range(50):
        deck = list(deal.deck)
        where = {card: i for i, card in enumerate(deck)}
        mine = [c for c in range(52) if deal.hands[first] >> c & 1]
        theirs = [c for c in range(52) if deal.hands[second] >> c & 1]
        for _ in range(swaps if mine and theirs else 0):
            a, b = rng.choice(mine), rng.choice(theirs)
            deck[where[a]], deck[where[b]] = b, a
            where[a], where[b] = where[b], where[a]
            mine[mine.index(a)], theirs[theirs.index(b)] = b, a
        world = Deal(deck, rules=deal.rules, dealer=deal.dealer, allowed_contracts=deal.allowed_contracts)
        for action in deal.history:
            if not world.is_legal(action):
                break
            world.push(action)
        else:
            return world
    return deal.copy()


def _rollout_choice(deal: Deal, seat: int, expert_card: Play, mode: str, worlds: list[Deal]) -> Play:
    """The legal card whose playouts in *worlds* score best in total for *seat* (Expert's card on a tie): every
    player playing Rules' card play from his own view (``play-rules``), only the opponents while *seat* plays the
    clairvoyant playout policy (``play-rules-others``, and ``play-near`` with Rules opponents), only *seat* while
    the opponents play that policy (``play-rules-hero``), or nobody (``play-near`` with policy opponents)."""
    by_rules_opponents = mode in ("play-rules", "play-rules-others") or (
        mode == "play-near" and _near["opponents"] == "rules")
    by_rules_hero = mode in ("play-rules", "play-rules-hero")
    scores: dict[Play, int] = {}
    for action in list(deal.legal_actions):
        assert isinstance(action, Play)
        scores[action] = 0
        for start in worlds:
            world = start.copy()
            world.push(action)
            while world.phase is not Phase.DONE:
                if by_rules_hero if world.to_move == seat else by_rules_opponents:
                    world.push(play_by_rules(world.observation(world.to_move)).action)
                else:
                    world.push(PLAYS[policy(Table.from_deal(world))])
            scores[action] += world.scores()[seat]
    best = max(scores.values())
    if scores.get(expert_card, best - 1) == best:
        return expert_card
    return min((a for a, v in scores.items() if v == best), key=lambda a: int(a.card))


def hero_score(index: int, seed: int, mode: str | None) -> int:
    """The hero's score in paired deal *index*: Expert, informed as *mode* says (``None``: as it is)."""
    deal, hero = paired_start(index, seed)
    bots = [make_bot("expert", seed=5) if s == hero else make_bot("rules", seed=100 + s) for s in range(3)]
    _true["solve"] = mode == "play-solver"
    rng = random.Random(index)  # the near worlds' swaps
    while deal.phase is not Phase.DONE:
        seat = deal.to_move
        mine = mode is not None and seat == hero
        _true["deal"] = deal
        _true["play"] = mine and mode in ("play", "play-solver") and deal.phase is Phase.PLAY
        _true["exchange"] = mine and mode == "exchange" and deal.phase is Phase.EXCHANGE
        action = bots[seat].decide(deal.observation(seat)).action
        if (mine and mode is not None and mode.startswith(("play-rules", "play-near")) and deal.phase is Phase.PLAY
                and len(deal.legal_actions) > 1):
            assert isinstance(action, Play)
            if mode == "play-near":
                worlds = [_near_world(deal, seat, rng, _near["swaps"]) for _ in range(_near["worlds"])]
            else:
                worlds = [deal]
            action = _rollout_choice(deal, seat, action, mode, worlds)
        deal.push(action)
    _true["play"] = _true["exchange"] = False
    return deal.scores()[hero]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=MODES, required=True)
    parser.add_argument("--deals", type=int, default=360)
    parser.add_argument("--seed", type=int, default=900_000)
    parser.add_argument("--swaps", default="2", help="play-near: cards swapped between the opponents, or 'sampled'")
    parser.add_argument("--worlds", type=int, default=8, help="play-near: worlds a card is played out in")
    parser.add_argument("--opponents", choices=("rules", "policy"), default="rules",
                        help="play-near: how the opponents play in the playouts")
    args = parser.parse_args()
    if args.deals < 1:
        parser.error("--deals must be at least 1")
    if args.worlds < 1:
        parser.error("--worlds must be at least 1")
    if args.swaps != "sampled" and not (args.swaps.isascii() and args.swaps.isdigit()):
        parser.error(f"--swaps must be a whole number of swaps or 'sampled', not {args.swaps!r}")
    _near.update(swaps=None if args.swaps == "sampled" else int(args.swaps), worlds=args.worlds,
                 opponents=args.opponents)
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
        **({"swaps": args.swaps, "worlds": args.worlds, "opponents": args.opponents}
           if args.mode == "play-near" else {}),
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
