"""Audit (session 18) of the bots and the arena: each defect found, pinned by a test that fails on the old code.

* the search levels' once-per-process tables were built inside the first decision, against its time budget,
  and ``warm_up`` skipped the table the variants outside the option-value model read;
* the arena played the late answer of a bot that ran out of time (the docs promise the stand-in), refused
  rules no records can name only after playing, and stopped on a bot error it could not describe;
* the rules level thought a turned-up talon card out of play (the first player who exchanged anything drew
  it) and kept voids shown before a later draw from the stock (seed002-literal);
* ``Budget`` refused a ``numpy.int64`` count and accepted absurd ones.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import warnings
from collections.abc import Callable
from pathlib import Path

import pytest

from mizerka import Deal, Match, Phase, parse_variant
from mizerka.arena import ArenaError, match_seed, run_arena, stand_in
from mizerka.bots import BOT_LEVELS, BotLevel, Budget, BudgetError, Decision, make_bot, warm_up
from mizerka.bots.base import MAX_SIMULATIONS, MAX_WORLDS
from mizerka.bots.heuristics import contract_estimate
from mizerka.bots.random_bot import RandomBot
from mizerka.bots.rules_bot import (
    _Table,
    binding_voids,
    discard_order,
    exchange_by_rules,
    shown_card_holder,
)
from mizerka.bots.search import contract_baselines, contract_values, option_values
from mizerka.cards import CARDS, SUIT_MASKS, CardSet
from mizerka.deal import Exchange, Observation
from mizerka.record import read
from mizerka.rules import Contract, get_variant

SHORT = parse_variant("standard,contracts=NT+MZ")
"""Six deals a match."""


# -- 1. the first decision in a process keeps its time budget: the arena warms the tables up --------------------

_ARENA_CHILD = r"""
import json, warnings
warnings.simplefilter("ignore")
from mizerka import parse_variant
from mizerka.arena import run_arena
from mizerka.bots import Budget
rules = parse_variant("standard,contracts=C+NT+MZ")   # its option-value table takes about 0.8 s to build
budget = Budget(time=0.02, worlds=4)                  # a decision takes a few ms, well inside the limit below
out = {}
for backend, matches in (("process", 2), ("serial", 1)):  # the workers first: this process is still cold
    result = run_arena(["pimc", "random", "random"], matches, rules=rules, seed=5, backend=backend, workers=2,
                       budgets=[budget, None, None], decision_limit=0.4, tables="rotations")
    out[backend] = [str(incident) for incident in result.incidents]
print(json.dumps(out))
"""


def test_the_arena_builds_a_search_levels_tables_before_its_first_decision_is_timed() -> None:
    """The option values were simulated inside the first contract choice of every process (0.8 s here, 1.3 s in
    the standard game), which the arena then reported as a time incident: in each worker of the process pool,
    and in the serial run.  A fresh interpreter, so that no table is cached yet."""
    child = subprocess.run([sys.executable, "-c", _ARENA_CHILD], capture_output=True, text=True, timeout=300)
    assert child.returncode == 0, child.stderr[-2000:]
    incidents = json.loads(child.stdout.splitlines()[-1])
    assert incidents == {"process": [], "serial": []}


@pytest.mark.parametrize(
    "spec",
    [
        "standard,uses=2,contracts=D+MZ,quota_mizerka=2/5/6",  # repeated contracts: each contract's average
        "standard,global_unique,contracts=C+H+NT",  # shared contracts: the same
        "seed002-literal,contracts=S+MZ",  # drawing during play: the same, by checked deals
        "standard,contracts=C+H+NT+MZ,quota_ordinary=6/5/2",  # the option-value model
    ],
)
def test_warm_up_builds_every_table_a_first_contract_choice_reads(spec: str) -> None:
    """``warm_up`` computed only the option values: the variants outside their model priced contracts by
    ``contract_baselines``, built inside the first choice (0.27 s against a 0.05 s budget).  The variants
    here are used by no other test, so their tables are not cached before ``warm_up``."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # seed002-literal is not zero-sum, and says so
        rules = parse_variant(spec)
        warm_up(rules)
        tables = (contract_baselines, option_values, contract_values)
        before = [table.cache_info().misses for table in tables]
        deal = Deal.random(5, rules=rules, dealer=2)
        observation = deal.observation(deal.to_move)
        assert observation.phase is Phase.CHOOSE and len(observation.legal_actions) > 1
        for level in ("pimc", "ismcts", "expert"):
            make_bot(level, seed=1, budget=Budget(worlds=1)).decide(observation)
        assert [table.cache_info().misses for table in tables] == before


def test_warm_up_names_rules_that_are_not_rules() -> None:
    with pytest.raises(ValueError, match="warm_up needs a Rules"):
        warm_up("standard")  # type: ignore[arg-type]


# -- 3. a late answer is replaced by the stand-in, as documented -----------------------------------------------


def test_a_decision_over_its_time_limit_is_replaced_by_the_stand_in(tmp_path: Path) -> None:
    """The arena reported the overrun but played the bot's own late action.  With a limit every decision
    overruns, so every action of every recorded match must be the stand-in's for its position."""
    result = run_arena(["random", "random", "random"], 1, rules=SHORT, seed=3, backend="serial",
                       decision_limit=1e-9, record_dir=tmp_path, tables="rotations")
    assert result.incidents and {i.kind for i in result.incidents} == {"time"}
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 3
    for path in files:
        recorded = read(path).to_match()
        replay = Match(SHORT, players=recorded.players, seed=match_seed(3, 0))
        while not replay.is_over():
            replay.push(stand_in(replay))
        assert [d.history for d in recorded.deals] == [d.history for d in replay.deals]
        assert any(isinstance(a, Exchange) for d in recorded.deals for a in d.history)  # exchanges: kept hands


# -- 4. rules that no records can name are refused before play --------------------------------------------------


def test_rules_no_record_can_name_are_refused_before_play_and_described_without_a_spec(tmp_path: Path) -> None:
    """With a records' folder the run played its first table and then stopped with RecordError; without one,
    ``to_dict`` raised RulesError after the whole run."""
    rules = SHORT.replace(cards_before_choice=13)
    with pytest.raises(ArenaError, match="cannot save records of these rules: cards_before_choice=13"):
        run_arena(["rules", "random", "random"], 2, rules=rules, seed=1, backend="serial", record_dir=tmp_path)
    assert list(tmp_path.iterdir()) == []
    described = run_arena(["rules", "random", "random"], 1, rules=rules, seed=1, backend="serial").to_dict()
    data = json.loads(json.dumps(described))
    assert data["variant"] is None
    assert data["rules"]["cards_before_choice"] == 13 and data["rules"]["contracts"] == ["NT", "MZ"]
    plain = json.loads(json.dumps(run_arena(["rules", "random", "random"], 1, rules=SHORT, seed=1,
                                            backend="serial").to_dict()))
    assert parse_variant(plain["variant"]) == SHORT and plain["rules"]["exchange_mode"] == "standard"


# -- the arena reports a bot it cannot describe, and stops for KeyboardInterrupt / SystemExit -------------------


class _Unprintable(Exception):
    def __str__(self) -> str:
        raise RuntimeError("this exception cannot be written")


class _Faceless:
    """An action whose repr raises."""

    def __repr__(self) -> str:
        raise RuntimeError("this action cannot be written")


class _UnprintableErrorBot(RandomBot):
    name = "unprintable"
    badge = "Unprintable"
    description = "Raises an exception whose str() raises."

    def play(self, observation: Observation, budget: Budget, rng: random.Random) -> Decision:
        raise _Unprintable()


class _FacelessBot(RandomBot):
    name = "faceless"
    badge = "Faceless"
    description = "Answers the contract choice with an object whose repr() raises."

    def choose(self, observation: Observation, budget: Budget, rng: random.Random) -> Decision:
        return Decision(_Faceless())  # type: ignore[arg-type]


def test_a_bot_error_that_cannot_be_written_is_still_an_incident(monkeypatch: pytest.MonkeyPatch) -> None:
    """``f"{error}"`` and ``f"{action!r}"`` raised inside the arena's handler, and the run stopped."""
    monkeypatch.setitem(BOT_LEVELS, "unprintable", BotLevel("unprintable", "U", "test", _UnprintableErrorBot))
    monkeypatch.setitem(BOT_LEVELS, "faceless", BotLevel("faceless", "F", "test", _FacelessBot))
    result = run_arena(["unprintable", "faceless", "random"], 1, rules=SHORT, seed=2, backend="serial",
                       tables="rotations")
    assert result.matches == 1
    errors = [i for i in result.incidents if i.bot == "unprintable"]
    assert errors and all(i.kind == "error" for i in errors)
    assert "_Unprintable: <_Unprintable object, whose str() raised RuntimeError>" in errors[0].detail
    illegal = [i for i in result.incidents if i.bot == "faceless"]
    assert illegal and all(i.kind == "illegal" for i in illegal)
    assert "<_Faceless object, whose repr() raised RuntimeError>" in illegal[0].detail


@pytest.mark.parametrize("stop", [KeyboardInterrupt, SystemExit])
def test_keyboard_interrupt_and_system_exit_still_stop_the_run(
    monkeypatch: pytest.MonkeyPatch, stop: type[BaseException]
) -> None:
    """A guard for the change above: only ``Exception`` is a bot's incident; the user's Ctrl-C stops the run."""

    class _Stopper(RandomBot):
        name = "stopper"

        def play(self, observation: Observation, budget: Budget, rng: random.Random) -> Decision:
            raise stop()

    monkeypatch.setitem(BOT_LEVELS, "stopper", BotLevel("stopper", "S", "test", _Stopper))
    with pytest.raises(stop):
        run_arena(["stopper", "random", "random"], 1, rules=SHORT, seed=2, backend="serial")


# -- 5. the rules level knows who holds a turned-up talon card -----------------------------------------------


SHOWN = parse_variant("standard,show_trump_card")


def _to_exchange(seed: int, contract: str) -> Deal:
    deal = Deal.random(seed, rules=SHOWN, dealer=seed % 3)
    deal.play(contract)
    return deal


def test_the_first_player_to_exchange_draws_the_turned_up_card_in_the_rules_levels_exchange() -> None:
    """The exchange drew its imagined cards from the unseen ones only, never the turned-up card, although that
    card is the talon's top: the first player who discards anything draws it.  With one discard the draw is
    therefore known, and the evaluation is that exact hand's, not an average over random draws."""
    checked = 0
    for seed in range(6):
        deal = _to_exchange(seed, "H")
        shown = deal.shown_card
        assert shown is not None
        observation = deal.observation(deal.to_move)  # forehand: nobody has drawn yet
        assert shown_card_holder(observation) is None
        contract = Contract.HEARTS
        hand = observation.hand.mask
        weakest = discard_order(hand, int(contract))[0]
        evaluations = exchange_by_rules(observation, random.Random(seed)).evaluations
        kept = (hand & ~(1 << weakest)) | 1 << shown
        role = observation.role
        assert role is not None
        expected = contract_estimate(kept, int(contract)) - SHOWN.quota(role, contract)
        assert evaluations[str(Exchange(CardSet([weakest])))] == round(expected, 3)
        checked += 1
        # forehand discards one card (and draws the shown card): middlehand's draws no longer include it
        deal.play(Exchange(CardSet([weakest])))
        assert shown_card_holder(deal.observation(deal.to_move)) == deal.active_seats[0]
    assert checked == 6


def _play_shown_deals(check: Callable[[Deal, Observation, int, int], None]) -> None:
    """Rules bots play seeds 6, 86 and 222 of ``standard,show_trump_card`` in spades (a high spade turned up);
    *check* sees every decision of a seat other than the one holding the turned-up card, while it holds it."""
    for seed in (6, 86, 222):
        deal = _to_exchange(seed, "S")
        shown = deal.shown_card
        assert shown is not None
        bots = {s: make_bot("rules", seed=s) for s in range(3)}
        holder = None
        while deal.phase is Phase.EXCHANGE:
            seat = deal.to_move
            action = bots[seat].decide(deal.observation(seat)).action
            if holder is None and isinstance(action, Exchange) and action.discards:
                holder = seat
            deal.play(action)
        assert holder is not None and deal.hands[holder] >> shown & 1
        while deal.phase is Phase.PLAY:
            seat = deal.to_move
            observation = deal.observation(seat)
            if seat != holder and deal.hands[holder] >> shown & 1:
                check(deal, observation, holder, shown)
            deal.play(bots[seat].decide(observation).action)


def test_the_rules_level_plays_as_if_the_turned_up_card_were_held_until_played() -> None:
    """Seat 0 led the queen of spades 'to draw trumps with a master trump' while the turned-up king of spades
    was in seat 1's hand (seed 6; seeds 86 and 222 alike): the card was taken as out of play."""
    misjudged: list[str] = []
    decisions = 0

    def check(deal: Deal, observation: Observation, holder: int, shown: int) -> None:
        nonlocal decisions
        decision = make_bot("rules", seed=observation.seat).decide(observation)
        card = decision.action.card  # type: ignore[union-attr]
        reason = str(decision.info.get("reason", ""))
        decisions += 1
        if card // 13 == shown // 13 and card < shown and ("master" in reason or "sure winner" in reason):
            misjudged.append(f"{CARDS[card]} ({reason}) below {CARDS[shown]}")

    _play_shown_deals(check)
    assert decisions > 0 and misjudged == []


def test_the_rules_levels_table_puts_the_turned_up_card_in_its_holders_hand() -> None:
    seen = 0

    def check(deal: Deal, observation: Observation, holder: int, shown: int) -> None:
        nonlocal seen
        assert shown_card_holder(observation) == holder
        table = _Table(observation)
        third = next(s for s in table.opponents if s != holder)
        assert table.unseen_for(holder) >> shown & 1 and not table.unseen_for(third) >> shown & 1
        assert table.unseen_above(shown - 1) >> shown & 1  # a card below it is no master
        assert table.may_hold(holder, shown // 13)
        seen += 1

    _play_shown_deals(check)
    assert seen > 0


# -- 6. the rules level drops voids shown before a later draw --------------------------------------------------


def test_the_rules_level_forgets_a_void_once_the_player_has_drawn_since() -> None:
    """seed002-literal: a player draws from the stock after each card while it lasts, so a suit he failed to
    follow may come back.  The rules level ruled such a suit out for good (it read ``Observation.voids``)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rules = get_variant("seed002-literal")
    wrong = []
    kept = 0
    dropped = 0
    for seed in range(6):
        deal = Deal.random(seed, rules=rules, dealer=seed % 3)
        bots = {s: make_bot("rules", seed=s) for s in range(3)}
        while deal.phase is not Phase.DONE:
            seat = deal.to_move
            observation = deal.observation(seat)
            if deal.phase is Phase.PLAY:
                table = _Table(observation)
                voids = binding_voids(observation)
                for other in table.opponents:
                    for suit in range(4):
                        holds = bool(deal.hands[other] & SUIT_MASKS[suit])
                        if holds and not table.may_hold(other, suit):
                            wrong.append((seed, len(observation.tricks), other, suit))
                    kept += len(voids[other])
                    dropped += len(observation.voids()[other] - voids[other])
                    # a void that binds is true: the seat holds no card of that suit
                    assert not any(deal.hands[other] & SUIT_MASKS[int(s)] for s in voids[other])
            deal.play(bots[seat].decide(observation).action)
    assert wrong == []
    assert kept > 0 and dropped > 0  # voids shown after the stock ran out still count; earlier ones do not


def test_voids_bind_as_before_where_nobody_draws_during_play() -> None:
    deal = Deal.random(4, dealer=1)
    bots = {s: make_bot("rules", seed=s) for s in range(3)}
    while deal.phase is not Phase.DONE:
        observation = deal.observation(deal.to_move)
        if deal.phase is Phase.PLAY:
            assert binding_voids(observation) == observation.voids()
        deal.play(bots[deal.to_move].decide(observation).action)


# -- Budget: any integral count, and no absurd one -------------------------------------------------------------


class _Count:
    """An integral number that is not an int (as numpy's integers are): it has ``__index__``."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value


def test_a_budget_takes_any_integral_count_as_a_plain_int() -> None:
    """``Budget(worlds=numpy.int64(8))`` was refused: 'must be a whole number of at least 1, not np.int64(8)'."""
    budget = Budget(worlds=_Count(8), simulations=_Count(300))  # type: ignore[arg-type]
    assert budget == Budget(worlds=8, simulations=300)
    assert type(budget.worlds) is int and type(budget.simulations) is int
    numpy = pytest.importorskip("numpy")
    from_numpy = Budget(time=numpy.float32(0.5), worlds=numpy.int64(8))
    assert from_numpy == Budget(time=0.5, worlds=8) and type(from_numpy.worlds) is int
    assert make_bot("pimc", budget=from_numpy).budget.worlds == 8
    for bad in (True, 8.0, "8", _Count(0), _Count(-3)):
        with pytest.raises(BudgetError, match="budget worlds must be a whole number of at least 1"):
            Budget(worlds=bad)  # type: ignore[arg-type]


def test_a_budget_refuses_absurd_counts() -> None:
    """``Budget(worlds=10**12)`` was accepted: without a time budget a bot would deal them all before answering."""
    assert Budget(worlds=MAX_WORLDS, simulations=MAX_SIMULATIONS).worlds == MAX_WORLDS
    with pytest.raises(BudgetError, match=f"budget worlds must be at most {MAX_WORLDS:,}"):
        Budget(worlds=MAX_WORLDS + 1)
    with pytest.raises(BudgetError, match=f"budget simulations must be at most {MAX_SIMULATIONS:,}"):
        Budget(simulations=10**400)
    with pytest.raises(BudgetError, match="at most"):
        Budget.parse("worlds=1000000000000")

