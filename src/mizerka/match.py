"""A match: 18 deals (24 with four players), the dealer moving left, contracts tracked, totals kept.

A :class:`Match` owns its deals.  Actions go to the current deal through :meth:`Match.push` /
:meth:`Match.play`; when a deal ends the next one starts at once, from the next deck order.  Deck orders
come from a seeded RNG or are given (a duplicate arena gives the same orders to every table).

>>> match = Match(seed=7, players=["Ala", "Bolek", "Cezary"])
>>> match.n_deals, match.deal_no, match.dealer
(18, 1, 1)
>>> while not match.is_over():
...     match.push(next(iter(match.legal_actions)))     # always the first legal action
>>> sum(match.totals)                                    # every deal is zero-sum
0
>>> [len(u) for u in match.used]
[6, 6, 6]
>>> print(match.score_sheet().grid())                    # doctest: +NORMALIZE_WHITESPACE
player   ♣  ♦  ♥  ♠  NT  MZ  total
Ala      X  X  X  X  X   X   ...
Bolek    X  X  X  X  X   X   ...
Cezary   X  X  X  X  X   X   ...
"""

from __future__ import annotations

import dataclasses
import random
import warnings
from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING

from mizerka._checks import seeded_random
from mizerka.deal import Action, Deal, IllegalActionError, LegalActions, Observation, Phase, check_deck
from mizerka.rules import STANDARD, Contract, Role, Rules, RulesError, check_seat

if TYPE_CHECKING:
    from mizerka.scoresheet import ScoreSheet

__all__ = ["DealResult", "IllegalActionError", "Match", "MatchError", "Outcome", "check_seat"]


class MatchError(ValueError):
    """A match that cannot be set up as asked, or an action after its end."""


@dataclasses.dataclass(frozen=True)
class DealResult:
    """One finished deal as the score sheet shows it."""

    deal_no: int
    dealer: int
    chooser: int
    contract: Contract
    tricks: tuple[int, ...]
    scores: tuple[int, ...]
    exchange_counts: tuple[int | None, ...]


@dataclasses.dataclass(frozen=True)
class Outcome:
    """The end of a match: totals and the winners (equal highest totals share the win)."""

    totals: tuple[int, ...]
    winners: tuple[int, ...]

    @property
    def shared(self) -> bool:
        return len(self.winners) > 1


class Match:
    """A whole match.

    Args:
        rules: the rules; ``rules.n_deals`` deals are played.
        players: display names, one per seat (default ``P0``, ``P1``, …).
        seed: seeds the RNG that draws the first dealer (when the rules leave it to lot) and shuffles
            every deck not given in *decks*; every int gives its own match (``-5`` is not ``5``).
        first_dealer: overrides the rules' first dealer.
        decks: deck orders to use, in deal order; later deals are shuffled from the seed.

    Raises:
        MatchError: for a wrong number of names (or one text instead of a list of names, or a name that is
            not text), a seed that is not
            an int, a bad first dealer (a bool is no seat) or a bad deck order.
    """

    def __init__(
        self,
        rules: Rules = STANDARD,
        *,
        players: Sequence[str] | None = None,
        seed: int | None = None,
        first_dealer: int | None = None,
        decks: Iterable[Sequence[int]] | None = None,
    ) -> None:
        if not isinstance(rules, Rules):
            raise MatchError(f"rules must be a Rules object (see get_variant), not {rules!r}")
        if not rules.zero_sum:
            warnings.warn(
                f"variant {rules.name!r}: the quotas do not add up to the {rules.n_tricks} tricks of a deal, "
                "so this match's scores are not zero-sum",
                stacklevel=2,
            )
        self.rules = rules
        n = rules.n_seats
        if players is None:
            players = [f"P{i}" for i in range(n)]
        elif isinstance(players, (str, bytes)):  # "ABC" is a sequence of three one-letter names, but not meant so
            raise MatchError(f"players must be a list of {n} names, not the text {players!r}")
        elif not isinstance(players, Sequence):
            raise MatchError(f"players must be a list of {n} names, not {players!r}")
        wrong = [p for p in players if not isinstance(p, str)]
        if wrong:
            raise MatchError(f"a player's name is text, not {wrong[0]!r}")
        players = list(players)
        if len(players) != n:
            raise MatchError(f"this variant seats {n} players, not {len(players)}")
        if len(set(players)) != n:
            raise MatchError(f"player names must differ: {players}")
        self.players: tuple[str, ...] = tuple(players)
        if seed is not None and (type(seed) is bool or not isinstance(seed, int)):
            raise MatchError(f"seed must be an int or None, not {seed!r}")
        self.seed = seed
        self._rng = seeded_random(seed)  # random.Random(-5) would shuffle as random.Random(5)
        if first_dealer is None:
            first_dealer = rules.first_dealer
        if first_dealer is None:
            first_dealer = self._rng.randrange(n)
        if not isinstance(first_dealer, int) or isinstance(first_dealer, bool) or not 0 <= first_dealer < n:
            raise MatchError(f"first dealer must be a seat 0-{n - 1}, not {first_dealer!r}")
        self.first_dealer = first_dealer
        if decks is not None and (isinstance(decks, (str, bytes, Mapping, AbstractSet))
                                  or not isinstance(decks, Iterable)):  # a dict or a set has no deal order
            raise MatchError(f"decks must be a list of deck orders, not {decks!r}")
        try:
            self._given_decks = [check_deck(d) for d in decks] if decks is not None else []
        except TypeError:  # an object that says it is iterable and is not (a 0-d NumPy array)
            raise MatchError(f"decks must be a list of deck orders, not {decks!r}") from None
        except ValueError as error:
            raise MatchError(str(error)) from None
        self.decks: list[tuple[int, ...]] = []
        self._shuffled: list[tuple[int, ...]] = []  # every deck order drawn so far, kept when a deal is popped
        self.deals: list[Deal] = []
        self._start_deal()

    # -- deals ------------------------------------------------------------------------------------

    def _next_deck(self) -> tuple[int, ...]:
        index = len(self.decks)
        if index < len(self._given_decks):
            return self._given_decks[index]
        if index < len(self._shuffled):  # the deal was started before and popped again: same deck order
            return self._shuffled[index]
        deck = list(range(52))
        self._rng.shuffle(deck)
        while len(self._shuffled) < index:  # keep indices aligned with deal numbers
            self._shuffled.append(self._given_decks[len(self._shuffled)])
        self._shuffled.append(tuple(deck))
        return self._shuffled[index]

    def _start_deal(self) -> None:
        deal_no = len(self.deals) + 1
        dealer = (self.first_dealer + deal_no - 1) % self.rules.n_seats
        deck = self._next_deck()
        chooser = (dealer + 1) % self.rules.n_seats
        allowed = self.available_contracts(chooser)
        if not allowed:
            raise MatchError(f"seat {chooser} has no contract left to choose in deal {deal_no}")
        self.decks.append(deck)
        self.deals.append(Deal(deck, rules=self.rules, dealer=dealer, allowed_contracts=allowed))

    def available_contracts(self, seat: int) -> frozenset[Contract]:
        """The contracts *seat* may still choose.

        Raises:
            MatchError: for a seat outside the table (it would have every contract left).
        """
        self._check_seat(seat)
        rules = self.rules
        counts: dict[Contract, int] = {}
        for deal in self.deals:
            if deal.contract is not None and (rules.global_unique_contracts or deal.forehand == seat):
                counts[deal.contract] = counts.get(deal.contract, 0) + 1
        return frozenset(c for c in rules.contracts if counts.get(c, 0) < rules.uses_per_contract)

    @property
    def deal(self) -> Deal:
        """The current deal (the last one, once the match is over)."""
        return self.deals[-1]

    @property
    def deal_no(self) -> int:
        return len(self.deals)

    @property
    def n_deals(self) -> int:
        return self.rules.n_deals

    @property
    def dealer(self) -> int:
        return self.deal.dealer

    @property
    def to_move(self) -> int:
        """The seat to act, or -1 when the match is over."""
        return -1 if self.is_over() else self.deal.to_move

    def is_over(self) -> bool:
        return len(self.deals) == self.rules.n_deals and self.deal.phase is Phase.DONE

    @property
    def legal_actions(self) -> LegalActions:
        return self.deal.legal_actions

    @property
    def used(self) -> list[list[Contract]]:
        """The contracts each seat has chosen so far, in order."""
        used: list[list[Contract]] = [[] for _ in range(self.rules.n_seats)]
        for deal in self.deals:
            if deal.contract is not None:
                used[deal.forehand].append(deal.contract)
        return used

    def results(self) -> list[DealResult]:
        """The finished deals."""
        results = []
        for number, deal in enumerate(self.deals, start=1):
            if deal.phase is Phase.DONE and deal.contract is not None:
                results.append(
                    DealResult(
                        deal_no=number,
                        dealer=deal.dealer,
                        chooser=deal.forehand,
                        contract=deal.contract,
                        tricks=tuple(deal.tricks_won),
                        scores=tuple(deal.scores()),
                        exchange_counts=tuple(deal.exchange_counts),
                    )
                )
        return results

    @property
    def totals(self) -> list[int]:
        """Each seat's running total over the finished deals."""
        totals = [0] * self.rules.n_seats
        for deal in self.deals:
            if deal.phase is Phase.DONE:
                for seat, score in enumerate(deal.scores()):
                    totals[seat] += score
        return totals

    def outcome(self) -> Outcome:
        """Totals and winners.

        Raises:
            MatchError: before the match is over.
        """
        if not self.is_over():
            raise MatchError(f"the match is not over: deal {self.deal_no} of {self.n_deals}")
        totals = tuple(self.totals)
        best = max(totals)
        return Outcome(totals, tuple(seat for seat, t in enumerate(totals) if t == best))

    # -- actions ----------------------------------------------------------------------------------

    def push(self, action: Action) -> None:
        """Apply an action to the current deal **without checking it**, starting the next deal when one ends."""
        deal = self.deal
        deal.push(action)
        if deal.phase is Phase.DONE and len(self.deals) < self.rules.n_deals:
            self._start_deal()

    def play(self, action: Action | str) -> Action:
        """Parse (if text), check and apply an action.

        Raises:
            InvalidActionError, IllegalActionError: as :meth:`Deal.play`; nothing changes.
            MatchError: after the end of the match.
        """
        if self.is_over():
            raise MatchError("the match is over")
        deal = self.deal
        if isinstance(action, str):
            action = deal.parse_action(action)
        action = deal.check(action)
        self.push(action)
        return action

    def pop(self) -> Action:
        """Undo the last action, reopening the previous deal if the current one has no action yet.

        Raises:
            IndexError: at the very start of the match.
        """
        if not self.deal.history:
            if len(self.deals) == 1:
                raise IndexError("pop at the start of the match")
            self.deals.pop()
            self.decks.pop()
        return self.deal.pop()

    def history(self) -> list[list[Action]]:
        """The actions of every deal so far."""
        return [list(deal.history) for deal in self.deals]

    # -- views ------------------------------------------------------------------------------------

    def observation(self, seat: int | None) -> Observation:
        """The current deal's :meth:`Deal.observation` for *seat*, with the match's public facts added."""
        obs = self.deal.observation(seat)
        return dataclasses.replace(
            obs,
            deal_no=self.deal_no,
            totals=tuple(self.totals),
            used=tuple(tuple(u) for u in self.used),
        )

    def role_of(self, seat: int, deal_no: int | None = None) -> Role | None:
        """The seat's role in deal *deal_no* (1 up to the current deal; default: the current one).

        Raises:
            MatchError: for a seat outside the table or a deal not yet started (deal 0 or -1 is no deal:
                they are not read as "the current one" or "the last one").
        """
        self._check_seat(seat)
        if deal_no is None:
            deal_no = self.deal_no
        elif isinstance(deal_no, bool) or not isinstance(deal_no, int) or not 1 <= deal_no <= self.deal_no:
            raise MatchError(f"invalid deal number: {deal_no!r} (expected 1-{self.deal_no})")
        return self.deals[deal_no - 1].role(seat)

    def _check_seat(self, seat: object) -> None:
        """Refuse anything but a seat at this table.

        Raises:
            MatchError: naming the seat.
        """
        try:
            check_seat(seat, self.rules.n_seats)
        except RulesError as error:
            raise MatchError(str(error)) from None

    def copy(self) -> Match:
        """An independent copy, as :meth:`Deal.copy` makes of a deal: each deal copied (with its undo history),
        the RNG in the same state but separate, so playing on either one leaves the other as it was and both
        shuffle the same deck orders from here on.  ``copy.copy(match)`` does the same."""
        other = type(self).__new__(type(self))
        other.__dict__.update(self.__dict__)
        other._rng = random.Random()
        other._rng.setstate(self._rng.getstate())
        other._given_decks = list(self._given_decks)
        other.decks = list(self.decks)
        other._shuffled = list(self._shuffled)
        other.deals = [deal.copy() for deal in self.deals]
        return other

    __copy__ = copy

    def score_sheet(self) -> ScoreSheet:
        """The score sheet: players × contracts with used marks, one row per deal, running totals."""
        from mizerka.scoresheet import ScoreSheet

        return ScoreSheet.from_match(self)

    def __repr__(self) -> str:
        return (
            f"<Match {self.rules.name} deal {self.deal_no}/{self.n_deals} "
            f"totals={self.totals} over={self.is_over()}>"
        )



