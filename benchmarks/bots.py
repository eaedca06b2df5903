"""Benchmark of the bot levels: decision times, PIMC worlds/s, ISMCTS simulations/s against OpenSpiel's C++
IS-MCTS on hearts, and a duplicate-arena ladder.

    .venv/bin/python benchmarks/bots.py                 # the full run (long: hours on two cores)
    .venv/bin/python benchmarks/bots.py --quick         # a smoke run: few samples, 2 matches per pair
    .venv/bin/python benchmarks/bots.py --matches 60 --workers 16 --skip-timing
    .venv/bin/python benchmarks/bots.py --skip-timing --skip-ladder --paired "expert>rules" --deals 600

Rates (PIMC worlds/s, IS-MCTS simulations/s, ours and OpenSpiel's) are per CPU second of the process doing the
work, which stays stable on a shared machine; decision times are wall clock.

Targets (issue 4): ISMCTS ≥ 0.5× OpenSpiel's C++ IS-MCTS simulations/s; every level's p90 decision time ≤ 1 s
on one core with its default budget; a strict ladder (each level beats the one below with 95% confidence);
expert beats rules by ≥ 1.0 point per deal.  The last line printed is one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import hashlib
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

import mizerka
from mizerka import Deal, Match, Phase
from mizerka.arena import TABLES, ArenaResult, DuplicateResult, Incident, ci95, run_arena
from mizerka.bots import BOT_LEVELS, make_bot
from mizerka.bots.search import _Clock, play_by_ismcts, play_by_pimc
from mizerka.deal import Observation
from mizerka.rules import Contract, Rules
from mizerka.solver import Position, solve_all
from mizerka.solver.maxn import solve_maxn_all

LADDER = [("rules", "random"), ("pimc", "rules"), ("ismcts", "pimc"), ("expert", "ismcts"), ("expert", "rules")]
"""The ladder pairs: the four adjacent levels, and expert against rules (target: a lead of ≥ 1 point per deal)."""

CONTRACT_NAMES = tuple(str(c) for c in Contract)
"""C, D, H, S, NT, MZ: the contracts by number, as the figures name them."""


def decision_points(n_matches: int, seed: int) -> dict[str, list[Observation]]:
    """Observations at contract choices, exchanges and card plays from matches between rules bots."""
    points: dict[str, list[Observation]] = {"choose": [], "exchange": [], "play": []}
    bots = [make_bot("rules", seed=s) for s in range(3)]
    for m in range(n_matches):
        match = Match(seed=seed + m)
        while not match.is_over():
            seat = match.to_move
            obs = match.observation(seat)
            phase = {Phase.CHOOSE: "choose", Phase.EXCHANGE: "exchange", Phase.PLAY: "play"}[obs.phase]
            forced = (phase != "exchange" and len(obs.legal_actions) == 1) or (
                phase == "exchange" and not obs.talon_size
            )
            if not forced:
                points[phase].append(obs)
            match.push(bots[seat].decide(obs).action)
    return points


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def time_decisions(points: dict[str, list[Observation]], per_phase: int, seed: int) -> dict[str, dict[str, float]]:
    rng = random.Random(seed)
    sample = {phase: rng.sample(obs, min(per_phase, len(obs))) for phase, obs in points.items()}
    out: dict[str, dict[str, float]] = {}
    for level in BOT_LEVELS:
        bot = make_bot(level, seed=1)
        bot.decide(sample["choose"][0])  # warm caches (the contract baselines)
        row: dict[str, float] = {}
        for phase, observations in sample.items():
            times = []
            for obs in observations:
                started = time.perf_counter()
                bot.decide(obs)
                times.append((time.perf_counter() - started) * 1000)
            row[f"{phase}_median_ms"] = round(statistics.median(times), 2)
            row[f"{phase}_p90_ms"] = round(percentile(times, 0.9), 2)
        out[level] = row
        print(f"{level:>8}: " + "  ".join(f"{k} {v}" for k, v in row.items()), flush=True)
    return out


def pimc_worlds_per_second(points: list[Observation], n: int) -> float:
    worlds = 0
    started = time.process_time()
    for obs in points[:n]:
        worlds += int(play_by_pimc(obs, 16, random.Random(1), _Clock(None)).info["worlds"])  # type: ignore[call-overload]
    return worlds / (time.process_time() - started)


def ismcts_sims_per_second(seconds: float, epsilon: float = 0.1, pool: int = 48) -> float:
    """Our IS-MCTS on Mizerka card play from the second trick on (as the OpenSpiel figure), 500 simulations a move.

    *epsilon* 0.1 is the bot's own ε-greedy policy playout; 1.0 plays random rollouts, like OpenSpiel's
    ``RandomRolloutEvaluator``.  *pool* is the number of determinizations drawn per move: the bot's 48, or 500
    (a fresh world for every simulation, as OpenSpiel's ``max_world_samples=-1`` does).  The time counted is
    the whole decision, the drawing of the worlds included."""
    rng = random.Random(5)
    sims = 0
    spent = 0.0
    deal_seed = 0
    while spent < seconds:
        deal = Deal.random(deal_seed, dealer=deal_seed % 3)
        deal_seed += 1
        for text in (("H", "NT", "MZ", "S")[deal_seed % 4], "keep", "keep", "keep"):
            deal.play(text)
        while not deal.is_over():
            legal = deal.legal_play_mask()
            if len(deal.tricks) >= 1 and legal & (legal - 1):
                obs = deal.observation(deal.to_move)
                started = time.process_time()
                decision = play_by_ismcts(obs, 500, pool, random.Random(sims), _Clock(None), epsilon=epsilon)
                spent += time.process_time() - started
                sims += int(decision.info["simulations"])  # type: ignore[call-overload]
            cards = [c for c in range(52) if legal >> c & 1]
            deal.push_card(rng.choice(cards))
    return sims / spent


OPENSPIEL_START = 70
"""OpenSpiel's hearts history length (52 deal outcomes, the pass direction, 12 passes, the first trick) from
which its C++ IS-MCTS is timed.  ``ISMCTSBot.step`` crashes (SIGSEGV) on hearts positions in the pass phase
and in the first trick (open_spiel 2.0.2, with max_world_samples -1 or a number, either final policy type and
allow_inconsistent_action_sets on or off; use_observation_string=True raises "ObservationString is not
implemented"), so the anchor is measured from the second trick on, where it runs."""


def openspiel_ismcts_sims_per_second(seconds: float) -> float | None:
    """OpenSpiel's C++ IS-MCTS on hearts card play from the second trick on, 500 simulations a move."""
    try:
        import numpy as np
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("hearts")
    evaluator = pyspiel.RandomRolloutEvaluator(1, 1)
    sims_per_move = 500
    bot = pyspiel.ISMCTSBot(1, evaluator, 2.0, sims_per_move, -1, pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
                            False, False)
    rng = np.random.RandomState(1)
    sims = 0
    spent = 0.0
    while spent < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(actions, p=probs)))
                continue
            legal = state.legal_actions()
            if len(state.history()) < OPENSPIEL_START or len(legal) == 1:
                state.apply_action(legal[rng.randint(len(legal))])
                continue
            started = time.process_time()
            action = bot.step(state)
            spent += time.process_time() - started
            sims += sims_per_move
            state.apply_action(action)
    return sims / spent


def openspiel_in_subprocess(seconds: float) -> tuple[float | None, str]:
    """OpenSpiel's C++ IS-MCTS, measured in a child process: a crash in the binding must not end the run."""
    import subprocess

    code = (
        "import sys; sys.path.insert(0, 'benchmarks'); import bots; "
        f"print(bots.openspiel_ismcts_sims_per_second({seconds}))"
    )
    try:
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=seconds * 10 + 60)
    except subprocess.TimeoutExpired:
        return None, "OpenSpiel IS-MCTS timed out"
    if done.returncode != 0:
        return None, f"OpenSpiel IS-MCTS failed (exit code {done.returncode}: {done.stderr.strip()[-200:]})"
    value = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else "None"
    if value == "None":
        return None, "open_spiel is not installed (pip install 'mizerka[bench]')"
    return float(value), (
        f"measured on hearts from history length {OPENSPIEL_START} on (the second trick): ISMCTSBot.step crashes "
        "(SIGSEGV) in the pass phase and the first trick"
    )


PLAY_CODE_EXCLUDED = frozenset({"server", "web", "tui", "envs"})
"""Packages of ``mizerka`` that cannot change a bot's decisions (front ends); the rest is fingerprinted."""

PLAY_CODE_EXCLUDED_FILES = frozenset({
    "__main__.py", "cli.py", "terminal.py", "analysis.py", "record.py", "scorekeeper.py", "scoresheet.py",
    "bots/cli.py", "solver/cli.py", "undo.py",
})
"""Modules outside those packages that no match of the arena runs (the command line, the analysis, records,
score sheets, undo): left out of the fingerprint since session 11, so that fixing them keeps the ledger."""

LEVEL_MODULES = {"expert": "bots/expert.py"}
"""Modules that only one level uses: a pair's fingerprint leaves out those of the levels not in the pair, so
that work on Expert keeps the record of the lower pairs' matches."""


COMPILED_SOLVER = frozenset({"solver/_kernel.c", "solver/_maxn.c", "solver/_glue.h"})
"""The compiled solver's sources.  A bot uses the solver only through its values (:func:`solver_answers`), so
the fingerprint takes those instead of this text: a faster kernel that answers the same keeps the ledger.  The
kernels' values are checked against the pure-Python reference by the test suite and against DDS."""


@functools.cache
def solver_answers() -> bytes:
    """A digest of the solver's answers on 240 fixed positions: paranoid ``solve_all`` in every kind of
    contract (3 to 8 cards a hand, part of a trick played or not, every seat) and max^n ``solve_maxn_all``
    on the small ones."""
    rng = random.Random(20_241_130)
    digest = hashlib.sha256()
    for index in range(240):
        cards = 3 + index % 6
        trump = (None, None, 0, 1, 2, 3)[index % 6]
        misere = index % 6 == 0
        deck = rng.sample(range(52), 3 * cards)
        hands = tuple(sum(1 << c for c in deck[i * cards:(i + 1) * cards]) for i in range(3))
        position = Position(hands, rng.randrange(3), (), trump, misere)
        for _ in range(rng.randrange(3)):
            position = position.play(rng.choice(position.legal_cards()))
        answers: list[object] = [sorted((int(c), v) for c, v in solve_all(position, rng.randrange(3)).items())]
        if cards <= 5:
            answers.append(sorted((int(c), v) for c, v in solve_maxn_all(position).items()))
        digest.update(repr(answers).encode())
    return digest.digest()


def play_code_fingerprint(levels: tuple[str, ...] = tuple(LEVEL_MODULES)) -> str:
    """A hash of every source file of ``mizerka`` that can change how *levels* play a match (the engine, the
    bots, the solver's Python code) and of the compiled solver's answers (:func:`solver_answers`), so that a
    ledger of matches is reused only by code that plays the same."""
    root = Path(mizerka.__file__).parent
    skipped = ({module for level, module in LEVEL_MODULES.items() if level not in levels} | COMPILED_SOLVER
               | PLAY_CODE_EXCLUDED_FILES)
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root)
        if (path.suffix in {".py", ".c", ".h"} and relative.parts[0] not in PLAY_CODE_EXCLUDED
                and relative.as_posix() not in skipped):
            digest.update(str(relative).encode() + b"\0" + path.read_bytes() + b"\0")
    digest.update(b"solver answers\0" + solver_answers())
    return digest.hexdigest()[:16]


class Ledger:
    """Finished ladder matches in a JSON-lines file, so that a ladder can be played in pieces (one run stops,
    the next goes on from the first match not yet played) and the figures rest on every match played.

    A line is one duplicate match of one pair; it is reused only for the same pair, arena seed, seatings and
    fingerprint of the pair's code (:func:`play_code_fingerprint`), since all four decide its result (the arena
    derives everything else from the seed and the match index)."""

    def __init__(self, path: Path | None, seed: int, tables: str) -> None:
        self.path, self.seed, self.tables = path, seed, tables
        self.stale = 0

    def _key(self, pair: str) -> dict[str, object]:
        fingerprint = play_code_fingerprint(tuple(pair.split(">")))
        return {"pair": pair, "seed": self.seed, "tables": self.tables, "fingerprint": fingerprint}

    def load(self, pair: str) -> tuple[list[DuplicateResult], float]:
        """The matches 0, 1, 2, ... of *pair* already played (the unbroken run from match 0) and their
        seconds."""
        if self.path is None or not self.path.exists():
            return [], 0.0
        found: dict[int, tuple[DuplicateResult, float]] = {}
        key = self._key(pair)
        for number, line in enumerate(self.path.read_text().splitlines(), 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                if row["pair"] != pair:
                    continue
                if any(row[k] != v for k, v in key.items()):
                    self.stale += 1
                    continue
                result = DuplicateResult(
                    index=int(row["index"]), points=tuple(float(x) for x in row["points"]), deals=int(row["deals"]),
                    tables=int(row["tables_per_match"]),
                    incidents=tuple(Incident(**incident) for incident in row["incidents"]),
                    decision_seconds=tuple(float(x) for x in row["decision_seconds"]),
                )
                found[result.index] = (result, float(row["seconds"]))
            except (ValueError, KeyError, TypeError) as error:
                raise ValueError(f"ledger {self.path}, line {number}: not a ladder match ({error})") from None
        results, seconds = [], 0.0
        while len(results) in found:
            result, spent = found[len(results)]
            results.append(result)
            seconds += spent
        return results, seconds

    def save(self, pair: str, results: tuple[DuplicateResult, ...], seconds: float) -> None:
        """Append *results* (one arena call's matches, *seconds* of wall clock in all)."""
        if self.path is None:
            return
        key = self._key(pair)
        with self.path.open("a") as handle:
            for result in results:
                row = key | {
                    "index": result.index, "points": list(result.points), "deals": result.deals,
                    "tables_per_match": result.tables,
                    "incidents": [dataclasses.asdict(incident) for incident in result.incidents],
                    "decision_seconds": list(result.decision_seconds), "seconds": round(seconds / len(results), 3),
                }
                handle.write(json.dumps(row) + "\n")


def ladder(
    matches: int, workers: int | None, seed: int, tables: str, minutes: float | None, pairs: list[tuple[str, str]],
    caps: dict[tuple[str, str], int] | None = None, ledger_path: Path | None = None,
) -> dict[str, dict[str, object]]:
    """Each pair as ``[higher, lower, lower]``, played in rounds of a few duplicate matches per pair until every
    pair has *matches* (or its own cap in *caps*) or the time (*minutes*) is up; the figures say how many
    matches each pair got.  With *ledger_path*, the matches already in that file are reused and every new one is
    appended to it (see :class:`Ledger`)."""
    deadline = None if minutes is None else time.perf_counter() + 60 * minutes
    chunk = max(2, workers or os.cpu_count() or 1)
    wanted = {pair: min(matches, (caps or {}).get(pair, matches)) for pair in pairs}
    ledger = Ledger(ledger_path, seed, tables)
    results: dict[tuple[str, str], list[DuplicateResult]] = {}
    seconds: dict[tuple[str, str], float] = {}
    out: dict[str, dict[str, object]] = {}

    def report(pair: tuple[str, str]) -> None:
        high, low = pair
        out[f"{high}>{low}"] = row = _ladder_row(
            ArenaResult((high, low, low), seed, Rules(), tuple(results[pair])), seconds[pair])
        print(f"{high + '>' + low:>16}: {row['lead_per_deal']:+.3f} ± {row['ci95']:.3f} points/deal over "
              f"{row['matches']} duplicate matches ({tables} tables, {seconds[pair]:.0f} s)", flush=True)

    for pair in pairs:
        loaded, spent = ledger.load(f"{pair[0]}>{pair[1]}")
        results[pair], seconds[pair] = loaded[: wanted[pair]], spent
        if loaded:
            print(f"ledger {ledger_path}: {len(loaded)} matches of {pair[0]}>{pair[1]} already played", flush=True)
            report(pair)
    if ledger.stale:
        print(f"ledger {ledger_path}: {ledger.stale} matches left out (another seed, seatings or code)", flush=True)
    while any(len(results[pair]) < wanted[pair] for pair in pairs):
        if deadline is not None and time.perf_counter() > deadline:
            break
        for pair in pairs:
            done = len(results[pair])
            if done >= wanted[pair] or (deadline is not None and time.perf_counter() > deadline):
                continue
            high, low = pair
            started = time.perf_counter()
            part = run_arena([high, low, low], min(chunk, wanted[pair] - done), seed=seed, workers=workers,
                             tables=tables, start=done)
            spent = time.perf_counter() - started
            seconds[pair] += spent
            results[pair].extend(part.results)
            ledger.save(f"{high}>{low}", part.results, spent)
            report(pair)
    return out


def _ladder_row(result: ArenaResult, seconds: float) -> dict[str, object]:
    # the higher bot's lead over the mean of the two lower copies, paired by duplicate match
    deals = result.deals_per_match
    diffs = [(p[0] - (p[1] + p[2]) / 2) / deals for p in result.points]
    lead = statistics.fmean(diffs)
    half = ci95(diffs)
    return {
        "lead_per_deal": round(lead, 3),
        "ci95": round(half, 3),
        "significant": len(diffs) > 1 and lead - half > 0,
        "matches": len(diffs),
        "seconds": round(seconds, 1),
        "incidents": len(result.incidents),
    }


def _continue_with_rules(deal: Deal, seat: int, action: object) -> int:
    """*seat*'s score when *action* is played in *deal* and Rules bots (seeing only observations) finish it."""
    world = deal.copy()
    world.push(action)  # type: ignore[arg-type]
    finishers = [make_bot("rules", seed=11 + s) for s in range(len(world.hands))]
    while world.phase is not Phase.DONE:
        s = world.to_move
        world.push(finishers[s].decide(world.observation(s)).action)
    return world.scores()[seat]


def _attribute_match(args: tuple[str, int, int]) -> list[tuple[str, str, float]]:
    level, index, seed = args
    from mizerka.arena import match_seed
    from mizerka.bots.search import contract_baselines

    ms = match_seed(seed, index)
    hero = index % 3
    match = Match(seed=ms)
    bots = [make_bot(level if s == hero else "rules", seed=ms % 1000 + s) for s in range(3)]
    shadow = make_bot("rules", seed=ms % 1000 + hero)
    rows: list[tuple[str, str, float]] = []
    while not match.is_over():
        seat = match.to_move
        obs = match.observation(seat)
        action = bots[seat].decide(obs).action
        if seat == hero:
            alt = shadow.decide(obs).action
            kind = obs.phase.name.lower()
            gain = 0.0
            if kind == "choose":
                contract = str(action.contract)  # type: ignore[union-attr]
                if alt != action:
                    # relative to each contract's average: using a contract now gives it up for later
                    base = contract_baselines(obs.rules)
                    gain = (_continue_with_rules(match.deal, seat, action) - base[action.contract]) - (  # type: ignore[union-attr]
                        _continue_with_rules(match.deal, seat, alt) - base[alt.contract])  # type: ignore[union-attr]
            else:
                contract = str(obs.contract)
                if alt != action:
                    gain = _continue_with_rules(match.deal, seat, action) - _continue_with_rules(match.deal, seat, alt)
            rows.append((kind, contract, gain))
        match.push(action)
    return rows


def attribution(level: str, matches: int, seed: int, workers: int | None) -> dict[str, dict[str, float]]:
    """Where *level* gains on Rules: per decision kind and contract, points per deal.

    *level* sits in one seat (rotating by match) against two Rules bots; at each of its decisions the Rules
    bot is asked too, and where they differ both actions are played on from the same position to the end of
    the deal by Rules bots.  The difference in the seat's score, summed and divided by the deals played, is
    what that kind of decision gains per deal (contract choices are compared relative to each contract's
    average score, the price of using it now)."""
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=workers) as pool:
        rows = [r for part in pool.map(_attribute_match, [(level, i, seed) for i in range(matches)]) for r in part]
    deals = matches * Match().n_deals
    out: dict[str, dict[str, float]] = {}
    for kind in ("choose", "exchange", "play"):
        mine = [r for r in rows if r[0] == kind]
        row = {"per_deal": round(sum(g for _, _, g in mine) / deals, 3),
               "differing": sum(1 for _, _, g in mine if g), "decisions": len(mine)}
        for contract in CONTRACT_NAMES:
            row[contract] = round(sum(g for _, c, g in mine if c == contract) / deals, 3)
        out[kind] = row
        print(f"{kind:>8}: {row}", flush=True)
    return out


def paired_start(index: int, seed: int) -> tuple[Deal, int]:
    """Deal *index* of the paired deal test with forehand's contract chosen, and the hero's seat."""
    from mizerka.deal import CHOICES

    deal = Deal.random(seed + index, dealer=index % 3)
    deal.push(CHOICES[index % 6])  # forehand's contract: each contract in turn, as often as in a match
    return deal, deal.active_seats[(index // 6) % 3]  # the hero's role: in turn, every contract in every role


def _paired_deal(level: str, index: int, seed: int) -> tuple[int, float]:
    """Deal *index* of the paired deal test with *level* in the hero seat: its score and slowest decision (s)."""
    deal, hero = paired_start(index, seed)
    bots = [make_bot(level, seed=5) if s == hero else make_bot("rules", seed=100 + s) for s in range(3)]
    slowest = 0.0
    while deal.phase is not Phase.DONE:
        seat = deal.to_move
        started = time.perf_counter()
        deal.push(bots[seat].decide(deal.observation(seat)).action)
        if seat == hero:
            slowest = max(slowest, time.perf_counter() - started)
    return deal.scores()[hero], slowest


def paired_deals(pair: tuple[str, str], deals: int, seed: int, skip: frozenset[int] = frozenset()) -> dict[str, object]:
    """Two levels compared on the same *deals*, each in turn in the hero seat against two Rules bots.

    Deal *i* is ``Deal.random(seed + i)``, forehand's contract is the *i*-th in turn (contracts in *skip*, by
    number, are left out), the hero's role rotates; the exchanges and the play follow.  The Rules bots
    decide from observations only, so where the two heroes decide alike the deal repeats exactly and only
    their different decisions count: a paired test of exchange and card play (not the contract choice)
    that needs far fewer deals than a ladder of matches.  Returns the first level's lead per deal with a
    95% interval, per contract, and the number of deals played differently."""
    first, second = pair
    rows = []
    for i in range(deals):
        if i % 6 in skip:
            continue
        a, _ = _paired_deal(first, i, seed)
        b, _ = _paired_deal(second, i, seed)
        rows.append((i % 6, a - b))
    diffs = [d for _, d in rows]
    out: dict[str, object] = {
        "lead_per_deal": round(statistics.fmean(diffs), 3), "ci95": round(ci95(diffs), 3), "deals": len(diffs),
        "differing": sum(1 for d in diffs if d),
    }
    for contract, name in enumerate(CONTRACT_NAMES):
        mine = [d for c, d in rows if c == contract]
        if mine:
            out[name] = round(statistics.fmean(mine), 3)
    print(f"{first}-{second} (paired deals): {out}", flush=True)
    return out


def policy_agreement(level: str, deals: int, seed: int) -> dict[str, object]:
    """How well the playout policy predicts a level's card play: three bots of *level* play deal *i* =
    ``Deal.random(seed + i)`` with forehand's contract the *i*-th in turn (trump and no-trump contracts only),
    and at every card they play the clairvoyant policy of ``fastsim`` is asked in the true world.  The share
    of plays where the policy's card is the one played, or equivalent to it (no card in play between them
    but the player's own), by contract kind and position in the trick (lead, second, third hand).  Search
    levels weight their worlds and play out their futures with this policy; this says how far it models
    each kind of opponent."""
    from mizerka.bots.fastsim import Table, policy
    from mizerka.deal import CHOICES, Play

    agree: dict[str, int] = {}
    total: dict[str, int] = {}
    for i in range(deals):
        if i % 6 == 5:  # the Mizerka contract: left out
            continue
        deal = Deal.random(seed + i, dealer=i % 3)
        deal.push(CHOICES[i % 6])
        bots = [make_bot(level, seed=100 + s) for s in range(3)]
        while deal.phase is not Phase.DONE:
            action = bots[deal.to_move].decide(deal.observation(deal.to_move)).action
            if deal.phase is Phase.PLAY and isinstance(action, Play):
                table = Table.from_deal(deal)
                guess, card = policy(table), int(action.card)
                same = guess == card
                if not same and guess // 13 == card // 13:  # equivalent: no one else's card in play between
                    in_play = table.hands[0] | table.hands[1] | table.hands[2] | sum(1 << c for c in table.trick)
                    low, high = min(guess, card), max(guess, card)
                    same = not in_play & ~table.hands[table.to_move] & ((1 << high) - (2 << low))
                key = f"{'NT' if i % 6 == 4 else 'T'} {('lead', 'second', 'third')[len(table.trick)]}"
                total[key] = total.get(key, 0) + 1
                agree[key] = agree.get(key, 0) + same
            deal.push(action)
    out: dict[str, object] = {key: round(agree[key] / total[key], 3) for key in sorted(total)}
    out["plays"] = sum(total.values())
    print(f"policy agreement with {level}: {out}", flush=True)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=60, help="duplicate matches per ladder pair (default 60)")
    parser.add_argument("--quick", action="store_true", help="a smoke run: 2 matches per pair, few timing samples")
    parser.add_argument("--workers", type=int, default=None, help="arena processes (default: all CPUs)")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--skip-timing", action="store_true")
    parser.add_argument("--skip-ladder", action="store_true")
    parser.add_argument("--tables", choices=TABLES, default="all",
                        help="seatings per duplicate match: all 6 permutations (default) or the 3 rotations")
    parser.add_argument("--minutes", type=float, default=None,
                        help="stop the ladder after this long and report the matches played so far")
    parser.add_argument("--ledger", type=Path, default=None, metavar="FILE",
                        help="reuse the ladder matches recorded in FILE and append the new ones (JSON lines), so a "
                             "ladder can be played in several runs")
    parser.add_argument("--pairs", default=None,
                        help="comma-separated pairs such as pimc>rules,ismcts>pimc; 'rules>random:12' caps a pair's "
                             "matches below --matches (a pair far apart needs fewer)")
    parser.add_argument("--attribution", type=int, default=0, metavar="N",
                        help="also attribute --attribution-level's gain on Rules to its decisions over N matches")
    parser.add_argument("--attribution-level", default="expert", choices=list(BOT_LEVELS))
    parser.add_argument("--paired", default=None, metavar="A>B",
                        help="also compare two levels on the same deals against two Rules bots (see paired_deals)")
    parser.add_argument("--deals", type=int, default=120, help="deals of the --paired test (default 120)")
    parser.add_argument("--paired-seed", type=int, default=900_000, help="deal i of the --paired test is "
                        "Deal.random(paired-seed + i) (default 900000)")
    parser.add_argument("--skip-contracts", default="", metavar="LIST",
                        help="contracts left out of the --paired test, e.g. MZ or C,D")
    parser.add_argument("--agreement", default=None, metavar="LEVEL", choices=list(BOT_LEVELS),
                        help="also measure how often the playout policy plays LEVEL's card (see policy_agreement; "
                        "--deals deals from --paired-seed)")
    args = parser.parse_args(argv)
    matches = 2 if args.quick else args.matches
    per_phase = 6 if args.quick else 30
    figures: dict[str, object] = {"matches_per_pair": matches}
    if not args.skip_timing:
        points = decision_points(1 if args.quick else 2, args.seed)
        figures["decision_ms"] = timing = time_decisions(points, per_phase, args.seed)
        figures["p90_max_ms"] = max(v for row in timing.values() for k, v in row.items() if k.endswith("p90_ms"))
        figures["pimc_worlds_per_s"] = round(pimc_worlds_per_second(points["play"], 5 if args.quick else 20), 1)
        seconds = 2.0 if args.quick else 10.0
        # like for like: random rollouts and a fresh world per simulation on both sides (the target ratio);
        # beside it the bot as it plays (its ε-greedy policy playouts and a pool of 48 worlds)
        ours_random = ismcts_sims_per_second(seconds, epsilon=1.0, pool=500)
        ours = ismcts_sims_per_second(seconds)
        theirs, openspiel_note = openspiel_in_subprocess(seconds)
        figures["openspiel_note"] = openspiel_note
        figures["ismcts_random_rollout_sims_per_s"] = round(ours_random, 1)
        figures["ismcts_policy_sims_per_s"] = round(ours, 1)
        figures["openspiel_ismcts_sims_per_s"] = None if theirs is None else round(theirs, 1)
        figures["ismcts_ratio"] = None if not theirs else round(ours_random / theirs, 4)
        figures["ismcts_ratio_note"] = (
            "like for like: random rollouts and a fresh determinization per simulation on both sides, card play "
            "from the second trick; ours on Mizerka (3 players), OpenSpiel's C++ ISMCTSBot on hearts (4 players)"
        )
        figures["ismcts_policy_ratio"] = None if not theirs else round(ours / theirs, 4)
        print(f"PIMC worlds/s {figures['pimc_worlds_per_s']}; ISMCTS sims/s {ours_random:.0f} (random rollouts, "
              f"like for like), {ours:.0f} (the bot's policy playouts); OpenSpiel C++ IS-MCTS (hearts, random "
              f"rollouts) sims/s {theirs}", flush=True)
    if not args.skip_ladder:
        pairs = LADDER
        caps: dict[tuple[str, str], int] = {}
        if args.pairs is not None:
            pairs = []
            for text in args.pairs.split(","):
                spec, colon, cap = text.strip().partition(":")
                high, sep, low = spec.partition(">")
                if not sep or high not in BOT_LEVELS or low not in BOT_LEVELS or (colon and not cap.isdigit()):
                    parser.error(f"invalid pair {text!r} (expected higher>lower[:matches], e.g. pimc>rules)")
                pairs.append((high, low))
                if colon:
                    caps[(high, low)] = int(cap)
        figures["ladder_tables"] = args.tables
        figures["ladder"] = steps = ladder(matches, args.workers, args.seed, args.tables, args.minutes, pairs, caps,
                                                 args.ledger)
        adjacent = [f"{h}>{lo}" for h, lo in LADDER[:4]]
        figures["ladder_strict"] = all(k in steps and steps[k]["significant"] for k in adjacent)
        expert = steps.get("expert>rules")
        figures["expert_minus_rules_per_deal"] = None if expert is None else expert["lead_per_deal"]
    if args.paired:
        high, sep, low = args.paired.partition(">")
        if not sep or high not in BOT_LEVELS or low not in BOT_LEVELS:
            parser.error(f"invalid --paired {args.paired!r} (expected A>B with two levels, e.g. expert>rules)")
        names = CONTRACT_NAMES
        skipped = [c.strip().upper() for c in args.skip_contracts.split(",") if c.strip()]
        if any(c not in names for c in skipped):
            parser.error(f"invalid --skip-contracts {args.skip_contracts!r} (contracts: {', '.join(names)})")
        figures["paired"] = paired_deals((high, low), args.deals, args.paired_seed,
                                         frozenset(names.index(c) for c in skipped))
    if args.agreement:
        figures["policy_agreement"] = policy_agreement(args.agreement, args.deals, args.paired_seed)
    if args.attribution:
        figures["attribution"] = attribution(args.attribution_level, args.attribution, args.seed, args.workers)
    figures["targets"] = {
        "ismcts_ratio_min": 0.5,
        "p90_ms_max": 1000,
        "ladder_strict": True,
        "expert_minus_rules_per_deal_min": 1.0,
        "matches_per_pair_min": 60,
    }
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
