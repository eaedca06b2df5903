"""The game driver behind the environments: a deal or a whole match, stepped by action ids.

:class:`Table` owns a :class:`~mizerka.match.Match` (or, for single deals, a one-deal schedule), keeps the exchanging
seat's pending discard marks, validates every action id, and reports the scores of each deal as it ends.  Every
view it gives a seat (tensor, legal ids) is built from that seat's :meth:`~mizerka.match.Match.observation`.

>>> table = Table(mode="deal", seed=11)
>>> table.to_move, table.legal_ids()[:2]
(2, [104, 105])
>>> table.step(109)            # forehand chooses Mizerka
>>> table.phase.name, table.to_move
('EXCHANGE', 2)
>>> table.step(3)
Traceback (most recent call last):
...
mizerka.envs.encoding.IllegalEnvActionError: illegal action 3 (play 5C) for seat 2: cannot play 5C in the exchange phase
"""

from __future__ import annotations

import dataclasses
import math
import numbers
from collections.abc import Mapping
from typing import Final, Literal

import numpy as np
import numpy.typing as npt

from mizerka._checks import seeded_random as seeded_random  # re-exported with whole_number: the environments
from mizerka._checks import whole_number as whole_number  # import both from here
from mizerka.cards import CARDS, CardSet
from mizerka.deal import CHOICES, PLAYS, Action, Deal, Exchange, Observation, Phase
from mizerka.envs.encoding import (
    CHOOSE_BASE,
    DISCARD_BASE,
    DONE,
    N_ACTIONS,
    IllegalEnvActionError,
    ObservationEncoder,
    check_action_id,
    illegal_reason,
    legal_action_ids,
)
from mizerka.match import Match
from mizerka.rules import STANDARD, Contract, Rules, RulesError, parse_variant

__all__ = ["Mode", "Table", "check_options", "check_reward", "check_seed", "resolve_rules", "seeded_random"]

Mode = Literal["deal", "match"]
MODES: Final = ("deal", "match")


def check_seed(seed: object, *, negative: bool = True) -> int | None:
    """A reset seed: ``None`` or an integer (NumPy integers accepted, ``bool`` not), as a plain int.

    Args:
        negative: whether a negative seed is allowed (Gymnasium's seeding takes none).

    Raises:
        ValueError: for anything else (a float, a string, a list...), or a negative seed where none is allowed.
    """
    if seed is None:
        return None
    value = whole_number(seed)
    if value is None:
        raise ValueError(f"seed must be an integer or None, not {seed!r}")
    if value < 0 and not negative:
        raise ValueError(f"seed must be a non-negative integer or None, not {value}")
    return value


def check_options(options: object) -> None:
    """Refuse reset options that are not a dict (or ``None``).  The environments take no options: the keys of a
    dict are ignored, as PettingZoo's ``api_test`` passes one with an arbitrary key.

    Raises:
        ValueError: for options that are not a dict or ``None``.
    """
    if options is not None and not isinstance(options, Mapping):
        raise ValueError(f"options must be a dict or None, not {options!r}")


def check_reward(value: object, name: str) -> float:
    """A reward given as an argument, as a float: a finite real number (NumPy numbers accepted, ``bool`` not).

    Raises:
        ValueError: for anything else (``None``, text, NaN, an infinity...), naming the argument.
    """
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be a finite number, not {value!r}")
    reward = float(value)
    if not math.isfinite(reward):
        raise ValueError(f"{name} must be a finite number, not {reward}")
    return reward


def resolve_rules(variant: str | Rules) -> Rules:
    """A :class:`Rules` from a variant spec (``"standard"``, ``"no-exchange,show_trump_card"``) or rules object.

    The environments take zero-sum variants of three seats and 13 tricks: the observation scales trick counts by
    13 and the rewards are zero-sum (the OpenSpiel game declares ``ZERO_SUM``).

    Raises:
        RulesError: for an unknown variant, one that does not seat exactly three players, one with more than 13
            tricks a deal (``seed002-literal``), or one whose quotas do not add up to the tricks (not zero-sum).
    """
    rules = variant if isinstance(variant, Rules) else parse_variant(variant)
    label = variant if isinstance(variant, str) else rules.name
    if rules.n_seats != 3:
        raise RulesError(f"the environments seat three players; variant {rules.name!r} seats {rules.n_seats}")
    if rules.n_tricks != 13:
        raise RulesError(
            f"the environments need a zero-sum variant of 13 tricks; "
            f"variant {label!r} plays {rules.n_tricks} tricks a deal"
        )
    if not rules.zero_sum:
        raise RulesError(
            f"the environments need a zero-sum variant of 13 tricks; variant {label!r} has quotas "
            f"{'/'.join(map(str, rules.quota_ordinary))} and {'/'.join(map(str, rules.quota_mizerka))}, "
            f"which do not add up to 13"
        )
    return rules


class Table:
    """A deal (``mode="deal"``) or a match of ``rules.n_deals`` deals (``mode="match"``), driven by action ids.

    Args:
        rules: the variant (three seats).
        mode: ``"deal"`` plays one deal; ``"match"`` a whole match.  The (first) dealer is the variant's
            ``first_dealer`` if it sets one, else drawn from the seed.
        seed: seeds the deck orders (and the first dealer).

    Raises:
        RulesError: for a variant the environments do not take (see :func:`resolve_rules`).
        ValueError: for an unknown mode.
    """

    def __init__(self, rules: Rules | str = STANDARD, *, mode: Mode = "deal", seed: int | None = None) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be 'deal' or 'match', not {mode!r}")
        self.rules = resolve_rules(rules)
        self.mode: Mode = mode
        self.encoder = ObservationEncoder()
        self.reset(seed)

    def reset(self, seed: int | None) -> None:
        """Start again from a fresh deal or match, shuffled from *seed* (each integer its own stream)."""
        rng = seeded_random(seed)
        rules = self.rules
        if self.mode == "deal":
            # one deal: a match whose schedule stops after the first deal; the dealer is the variant's first dealer
            # if it names one, else drawn from the seed (drawn either way, so the deck order does not depend on it)
            drawn_dealer = rng.randrange(rules.n_seats)
            first_dealer = drawn_dealer if rules.first_dealer is None else rules.first_dealer
            self.match = Match(rules, seed=rng.randrange(1 << 62), first_dealer=first_dealer)
            self.n_deals = 1
        else:
            self.match = Match(rules, seed=rng.randrange(1 << 62))
            self.n_deals = rules.n_deals
        self.pending = 0
        self.deals_done = 0
        self.last_scores: list[int] | None = None
        self._cache_key = -1
        self._cache: dict[int, Observation] = {}
        self._fields_key: tuple[int, int, bool] = (-1, -1, False)
        self._fields: tuple[int, tuple[int, ...], tuple[tuple[Contract, ...], ...]] = (0, (), ())
        self.steps = 0

    # -- reading ----------------------------------------------------------------------------------

    @property
    def deal(self) -> Deal:
        return self.match.deal

    @property
    def phase(self) -> Phase:
        return self.deal.phase

    @property
    def to_move(self) -> int:
        """The seat to act, or -1 when the episode is over."""
        return -1 if self.is_over() else self.deal.to_move

    def is_over(self) -> bool:
        return self.deals_done >= self.n_deals

    def observation(self, seat: int) -> Observation:
        """The seat's :meth:`Match.observation` (cached until the next action).

        For speed it is assembled as :meth:`Match.observation` does: the deal's :meth:`Deal.observation` with the
        match's public fields (deal number, totals, contracts used), which change only with a contract choice or
        a deal's end and are cached in between.  A single deal has no match fields.
        """
        if self._cache_key != self.steps:
            self._cache.clear()
            self._cache_key = self.steps
        obs = self._cache.get(seat)
        if obs is None:
            obs = self.deal.observation(seat)
            if self.mode == "match":
                fields = self._match_fields()
                obs = dataclasses.replace(obs, deal_no=fields[0], totals=fields[1], used=fields[2])
            self._cache[seat] = obs
        return obs

    def _match_fields(self) -> tuple[int, tuple[int, ...], tuple[tuple[Contract, ...], ...]]:
        key = (len(self.match.deals), self.deals_done, self.deal.contract is None)
        if self._fields_key != key:
            public = self.match.observation(None)
            self._fields = (public.deal_no, public.totals, public.used)
            self._fields_key = key
        return self._fields

    def pending_for(self, seat: int) -> int:
        """The discard marks *seat* has made in its unfinished exchange (0 for anyone else)."""
        return self.pending if self.deal.phase is Phase.EXCHANGE and self.deal.to_move == seat else 0

    def tensor(self, seat: int, out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
        """The seat's observation tensor (see :mod:`mizerka.envs.encoding`)."""
        return self.encoder.encode(self.observation(seat), self.pending_for(seat), out)

    def legal_ids(self, seat: int | None = None) -> list[int]:
        """The legal action ids of *seat* (default: the seat to move), ascending; empty if it is not to move."""
        if self.is_over():
            return []
        if seat is None:
            seat = self.deal.to_move
        return legal_action_ids(self.observation(seat), self.pending_for(seat))

    def mask(self, seat: int) -> npt.NDArray[np.int8]:
        """The legal ids of *seat* as a 0/1 ``int8`` vector of length 111 (all zero when it is not to move)."""
        mask = np.zeros(N_ACTIONS, np.int8)
        ids = self.legal_ids(seat)
        if ids:
            mask[ids] = 1
        return mask

    # -- acting -----------------------------------------------------------------------------------

    def illegal_reason(self, action: int) -> str | None:
        """Why id *action* is illegal for the seat to move, or ``None``."""
        if self.is_over():
            return "the episode is over"
        seat = self.deal.to_move
        return illegal_reason(self.observation(seat), self.pending_for(seat), action)

    def step(self, action: object) -> None:
        """Apply an action id for the seat to move.

        Raises:
            ActionOutOfRangeError: for anything but an integer 0–110.
            IllegalEnvActionError: for an id the rules forbid now; nothing changes.
        """
        action_id = check_action_id(action)
        reason = self.illegal_reason(action_id)
        if reason is not None:
            from mizerka.envs.encoding import action_name

            raise IllegalEnvActionError(
                f"illegal action {action_id} ({action_name(action_id)}) for seat {self.to_move}: {reason}"
            )
        self.apply_legal(action_id)

    def apply_legal(self, action_id: int) -> None:
        """Apply an id already known to be legal (no checks)."""
        self.last_scores = None
        if action_id < DISCARD_BASE:
            self._push(PLAYS[action_id])
        elif action_id < CHOOSE_BASE:
            self.pending |= 1 << (action_id - DISCARD_BASE)
            self.steps += 1
        elif action_id < DONE:
            self._push(CHOICES[action_id - CHOOSE_BASE])
        else:
            discards = self.pending
            self.pending = 0
            self._push(Exchange(CardSet(discards)))

    def apply_action(self, action: Action) -> None:
        """Apply a whole engine action (a bot's :class:`~mizerka.deal.Decision` action) after checking it.

        Raises:
            IllegalActionError: if the rules forbid it.
        """
        if self.pending:
            raise IllegalEnvActionError("finish the pending exchange with 'done' first")
        self.last_scores = None
        self._push(self.deal.check(action))  # in the form the deal stores (a Play of a plain int reads as its card)

    def _push(self, action: Action) -> None:
        deal = self.deal
        self.match.push(action)
        self.steps += 1
        if deal.phase is Phase.DONE:
            self.deals_done += 1
            self.last_scores = deal.scores()
            if self.mode == "deal" and len(self.match.deals) > 1:
                # a single deal: drop the next deal the match started, so the finished deal stays current
                self.match.deals.pop()
                self.match.decks.pop()

    def render(self, seat: int | None = None) -> str:
        """A text picture of the table as *seat* sees it (``None``: public information only)."""
        obs = self.match.observation(seat)
        deal_text = f"deal {obs.deal_no}/{self.n_deals}" if self.mode == "match" else "single deal"
        lines = [f"Mizerka, {deal_text}, dealer seat {obs.dealer}, {obs.phase.name.lower()} phase"]
        if obs.contract is not None:
            lines.append(f"contract: {obs.contract.label} ({obs.contract.goal}), chosen by seat {obs.active_seats[0]}")
        for s in range(self.rules.n_seats):
            role = ("FH", "MH", "D")[obs.active_seats.index(s)]
            count = obs.exchange_counts[s]
            exchanged = "" if count is None else f", exchanged {count}"
            line = f"  seat {s} {role:>2}: {obs.hand_sizes[s]} cards, {obs.tricks_won[s]} tricks{exchanged}"
            if s == seat:
                line += f"  hand {obs.hand.grouped()}"
            if obs.totals and self.mode == "match":  # a single deal has no match totals (its tensor shows none)
                line += f"  total {obs.totals[s]}"
            lines.append(line)
        if obs.trick:
            lines.append("  trick: " + " ".join(str(CARDS[c]) for c in obs.trick))
        if obs.to_move >= 0:
            lines.append(f"  to move: seat {obs.to_move}")
        if obs.scores is not None:
            lines.append("  scores: " + " ".join(f"{x:+d}" for x in obs.scores))
        return "\n".join(lines)
