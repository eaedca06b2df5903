"""One deal of Mizerka as a state machine: deal, contract choice, exchange, thirteen tricks, score.

A :class:`Deal` starts from a deck order (the shuffled deck, top card first) and is driven by
actions: :class:`Choose` a contract, :class:`Exchange` cards with the talon, :class:`Play` a card.

* :meth:`Deal.push` applies an action **without checking it** (fast, for search and replay of
  trusted data); :meth:`Deal.play` parses text, checks the action against the rules and raises
  :class:`IllegalActionError` naming the reason; :meth:`Deal.pop` undoes the last action.
* :attr:`Deal.legal_actions` is a lazy, set-like view of what the player to move may do.
* :meth:`Deal.observation` is exactly what one seat may know; every view of the game for a player,
  a bot, a client or a log is built from it.  :meth:`Deal.from_observation` deals the unknown cards
  at random, consistently with an observation, for search.

>>> deal = Deal(list(range(52)), dealer=0)      # an unshuffled deck; seat 1 is forehand
>>> deal.phase, deal.to_move
(<Phase.CHOOSE: 0>, 1)
>>> print(CardSet(deal.hands[1]))                # forehand's first six cards
9D 5D AC TC 6C 2C
>>> deal.play("NT")
Choose(contract=<Contract.NO_TRUMP: 4>)
>>> deal.play("exchange 2C 6C")
Exchange(discards=CardSet.from_str('6C 2C'))
>>> _ = deal.play("-"), deal.play("keep")       # middlehand and dealer keep their hands
>>> deal.phase, deal.to_move, deal.exchange_counts
(<Phase.PLAY: 2>, 1, [0, 2, 0])
>>> deal.play("KH")
Traceback (most recent call last):
...
mizerka.deal.IllegalActionError: illegal action KH: KH is not in seat 1's hand
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Iterable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from random import Random
from typing import Final, NamedTuple, TypeAlias

from mizerka._checks import seeded_random, whole_number
from mizerka.cards import CARDS, Card, CardParseError, CardSet, Suit, parse_cards
from mizerka.rules import STANDARD, Contract, DealPattern, ExchangeMode, Role, Rules, RulesError, check_seat
from mizerka.tricks import IllegalPlay, legal_plays, winner_of_three
from mizerka.tricks import why_illegal as _why_illegal

__all__ = [
    "Action",
    "Choose",
    "Deal",
    "DeckError",
    "Exchange",
    "IllegalActionError",
    "InvalidActionError",
    "Observation",
    "Phase",
    "Play",
    "Trick",
    "action_from_code",
    "deal_piles",
]


class DeckError(ValueError):
    """A deck order that is not the 52 cards, each once."""


class InvalidActionError(ValueError):
    """Text or a code that does not describe an action."""


class IllegalActionError(ValueError):
    """An action the rules forbid in the current position.  The message names the reason."""


class Phase(enum.IntEnum):
    """Where a deal stands.  Dealing itself is automatic: a new deal waits for the contract."""

    CHOOSE = 0
    EXCHANGE = 1
    PLAY = 2
    DONE = 3


# Module constants for the phases: reading an enum member as ``Phase.PLAY`` costs a descriptor call in
# Python 3.11, which shows in the hot paths.
_CHOOSE: Final = Phase.CHOOSE
_EXCHANGE: Final = Phase.EXCHANGE
_PLAY: Final = Phase.PLAY
_DONE: Final = Phase.DONE

# -- actions --------------------------------------------------------------------------------------

CHOOSE_BASE: Final = 52
EXCHANGE_BASE: Final = 64


class Play(NamedTuple):
    """Play a card to the trick.  Code: the card's int, 0–51."""

    card: Card

    @property
    def code(self) -> int:
        return int(self.card)

    def __str__(self) -> str:
        return str(self.card)


class Choose(NamedTuple):
    """Forehand chooses the contract.  Code: 52 + the contract (52–57)."""

    contract: Contract

    @property
    def code(self) -> int:
        return CHOOSE_BASE + int(self.contract)

    def __str__(self) -> str:
        return str(self.contract)


class Exchange(NamedTuple):
    """Discard these cards face down and draw as many from the top of the talon, in one go.

    An empty set keeps the hand.  Code: 64 + the 52-bit mask of the discards.
    """

    discards: CardSet

    @property
    def code(self) -> int:
        return EXCHANGE_BASE + self.discards.mask

    def __str__(self) -> str:
        return f"exchange {self.discards or '-'}"


Action: TypeAlias = Play | Choose | Exchange

PLAYS: Final[tuple[Play, ...]] = tuple(Play(c) for c in CARDS)
CHOICES: Final[tuple[Choose, ...]] = tuple(Choose(c) for c in Contract)
KEEP: Final = Exchange(CardSet())


def action_from_code(code: int) -> Action:
    """The action with this stable int code (see each action type).

    >>> action_from_code(51), action_from_code(57)
    (Play(card=Card.from_str('AS')), Choose(contract=<Contract.MIZERKA: 5>))
    >>> action_from_code(64 + 3)
    Exchange(discards=CardSet.from_str('3C 2C'))

    Raises:
        InvalidActionError: for a code that is no action.
    """
    if not isinstance(code, int) or code < 0 or type(code) is bool:
        raise InvalidActionError(f"invalid action code: {code!r}")
    if code < 52:
        return PLAYS[code]
    if code < CHOOSE_BASE + 6:
        return CHOICES[code - CHOOSE_BASE]
    if EXCHANGE_BASE <= code < EXCHANGE_BASE + (1 << 52):
        return Exchange(CardSet(code - EXCHANGE_BASE))
    raise InvalidActionError(f"invalid action code: {code!r}")


class Trick(NamedTuple):
    """A completed trick: who led, the cards in order of play, and who won it."""

    leader: int
    cards: tuple[Card, ...]
    winner: int


# -- dealing --------------------------------------------------------------------------------------


def deal_piles(deck: Sequence[int], pattern: DealPattern, before_choice: int = 6) -> tuple[
    list[list[int]], list[list[int]], list[int]
]:
    """Split a deck order into the piles of forehand, middlehand, dealer(-role) and the talon.

    Returns ``(first, rest, talon)``: the three players' cards dealt before the contract choice and
    after it, each in dealing order, and the talon from bottom to top (``talon[-1]`` is drawn first).

    >>> first, rest, talon = deal_piles(range(52), DealPattern.ROUND_ROBIN_4_PILES)
    >>> first[0], talon[-3:]
    ([0, 4, 8, 12, 16, 20], [43, 47, 51])
    >>> first, rest, talon = deal_piles(range(52), DealPattern.SEED002_BLOCKS)
    >>> first[0], rest[0][:2], talon[-1]
    ([0, 3, 6, 9, 12, 15], [18, 21], 39)
    """
    if pattern is DealPattern.ROUND_ROBIN_4_PILES:
        piles = [list(deck[p::4]) for p in range(4)]
        first = [piles[p][:before_choice] for p in range(3)]
        rest = [piles[p][before_choice:] for p in range(3)]
        return first, rest, piles[3]
    first = [[deck[3 * r + p] for r in range(6)] for p in range(3)]
    rest = [[deck[18 + 3 * r + p] for r in range(7)] for p in range(3)]
    return first, rest, list(reversed(deck[39:52]))


def _mask(cards: Sequence[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


_DECK_SET: Final = frozenset(range(52))
_UNORDERED: Final = (str, bytes, AbstractSet, Mapping, CardSet)
"""What :func:`check_deck` refuses as a deck order: text, and collections without an order (or of keys)."""


_PLAIN_INTS: Final = {int}
_CARD_TYPES: Final = frozenset({int, Card})


def check_deck(deck: Sequence[int]) -> tuple[int, ...]:
    """The deck order as a tuple of plain card ints, checked to hold each of the 52 cards once.

    The cards may be ints or :class:`Card` objects (or other ints, such as NumPy's).  Nothing is coerced:
    ``5.9``, ``"5"`` or ``True`` is no card, even though ``int()`` would make one of it; and a set (a
    ``CardSet`` included) is no order.

    Raises:
        DeckError: naming the order's wrong type, or a missing, duplicated or invalid card.
    """
    if type(deck) is not list and type(deck) is not tuple and isinstance(deck, _UNORDERED):
        raise DeckError(f"a deck order is a sequence of card ints, not a {type(deck).__name__}")
    try:
        items = tuple(deck)
    except TypeError:
        raise DeckError(f"invalid deck order: {deck!r} (expected a sequence of 52 card ints)") from None
    kinds = {*map(type, items)}
    if kinds == _PLAIN_INTS:  # the common case: nothing to convert
        cards = items
    else:
        if not kinds <= _CARD_TYPES:
            for item in items:
                if type(item) is bool or not hasattr(type(item), "__index__"):
                    raise DeckError(f"invalid deck order: {item!r} is no card (expected ints 0-51)")
        cards = tuple(map(int, items))
    if len(cards) == 52 and frozenset(cards) == _DECK_SET:  # the common case, checked at C speed
        return cards
    if len(cards) != 52:
        raise DeckError(f"a deck order has 52 cards, not {len(cards)}")
    seen = 0
    for card in cards:
        if not 0 <= card < 52:
            raise DeckError(f"invalid card index {card} in the deck order")
        if seen >> card & 1:
            raise DeckError(f"card {CARDS[card]} appears twice in the deck order")
        seen |= 1 << card
    return cards


# -- the deal -------------------------------------------------------------------------------------

class _PlayUndo(NamedTuple):
    """Undo record of a card play after which the player drew from the stock (seed002-literal).  A plain
    card play's undo record is just the int of the seat that played."""

    seat: int
    drawn: int


_EMPTY: Final = CardSet()
_new_trick: Final = tuple.__new__  # Trick(...) without the Python-level NamedTuple constructor


class _Snapshot(NamedTuple):
    phase: Phase
    to_move: int
    hands: tuple[int, ...]
    dealt: tuple[int, ...]
    talon: tuple[int, ...]
    dead: tuple[int, ...]
    drawn: tuple[int, ...]
    exchange_counts: tuple[int | None, ...]
    contract: Contract | None
    trump: int | None
    shown_card: int | None
    set_aside: int | None
    stock: tuple[int, ...]


_BITS: Final = tuple(1 << c for c in range(52))
_Seating: TypeAlias = tuple[tuple[int, int, int], tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...]]
_SEATINGS: dict[tuple[int, int], _Seating] = {}
_CONTRACT_SETS: dict[tuple[Contract, ...], frozenset[Contract]] = {}


def _seating(n: int, dealer: int) -> _Seating:
    """For a table of *n* seats and a dealer: the active seats (forehand, middlehand, dealer-role), each seat's
    role (-1 for a dealer who sits out), the next active seat clockwise, and the order of play from each leader."""
    fh, mh, third = (dealer + 1) % n, (dealer + 2) % n, (dealer + 3) % n
    roles = [-1] * n
    nxt = [-1] * n
    order: list[tuple[int, ...]] = [() for _ in range(n)]
    for role, seat in enumerate((fh, mh, third)):
        roles[seat] = role
    nxt[fh], nxt[mh], nxt[third] = mh, third, fh
    order[fh], order[mh], order[third] = (fh, mh, third), (mh, third, fh), (third, fh, mh)
    return (fh, mh, third), tuple(roles), tuple(nxt), tuple(order)


_CONTRACT_TYPE: Final = frozenset({Contract})


def _contracts_arg(contracts: object) -> frozenset[Contract]:
    """*contracts* (Contract values or their ints 0–5) as a frozenset of :class:`Contract`.

    Raises:
        RulesError: for something that is not a collection of contracts (a bool is no contract).
    """
    if isinstance(contracts, (str, bytes)) or not isinstance(contracts, Iterable):
        raise RulesError(f"invalid allowed contracts: {contracts!r} (expected Contract values)")
    allowed = []
    for item in contracts:
        if type(item) is bool or not hasattr(type(item), "__index__") or not 0 <= item.__index__() < len(Contract):
            raise RulesError(f"invalid allowed contracts: {contracts!r} ({item!r} is not a contract)")
        allowed.append(Contract(item.__index__()))
    return frozenset(allowed)


def _all_contracts(rules: Rules) -> frozenset[Contract]:
    allowed = _CONTRACT_SETS.get(rules.contracts)
    if allowed is None:
        allowed = _CONTRACT_SETS[rules.contracts] = frozenset(rules.contracts)
    return allowed


class Deal:
    """One deal, from the deck order to the score.

    Seats are absolute (0 … ``rules.n_seats - 1``, clockwise); roles are relative to the dealer:
    :attr:`active_seats` lists the three playing seats as (forehand, middlehand, dealer-role).

    Args:
        deck: the deck order, top card first: 52 card ints or :class:`Card` objects.
        rules: the rules (default :data:`~mizerka.rules.STANDARD`).
        dealer: the dealing seat.
        allowed_contracts: the contracts forehand may still choose (the match knows which);
            default: all of the rules' contracts.

    Raises:
        DeckError: for a deck order that is not the 52 cards once each.
        RulesError: for a dealer outside the table or an empty contract choice.
    """

    __slots__ = (
        "_first",
        "_n_tricks",
        "_next",
        "_order_from",
        "_plays",
        "_rest",
        "_talon_full",
        "_undo",
        "active_seats",
        "allowed_contracts",
        "contract",
        "dead",
        "dealer",
        "dealt",
        "deck",
        "drawn",
        "exchange_counts",
        "first_cards",
        "hands",
        "history",
        "legal_actions",
        "phase",
        "played",
        "roles",
        "rules",
        "set_aside",
        "shown_card",
        "stock",
        "talon",
        "to_move",
        "trick",
        "trick_leader",
        "tricks",
        "tricks_won",
        "trump",
    )

    rules: Rules
    dealer: int
    deck: tuple[int, ...]
    active_seats: tuple[int, int, int]
    roles: tuple[int, ...]
    allowed_contracts: frozenset[Contract]
    phase: Phase
    hands: list[int]
    first_cards: list[int]
    dealt: list[int]
    talon: list[int]
    dead: list[int]
    drawn: list[int]
    exchange_counts: list[int | None]
    contract: Contract | None
    trump: int | None
    to_move: int
    trick_leader: int
    trick: list[int]
    tricks: list[Trick]
    tricks_won: list[int]
    played: int
    shown_card: int | None
    set_aside: int | None
    stock: list[int]
    history: list[Action]
    legal_actions: LegalActions
    """The actions the player to move may take: a lazy, set-like view that follows the deal as it changes
    (an attribute, not a property, because search reads it at every step)."""

    def __init__(
        self,
        deck: Sequence[int],
        *,
        rules: Rules = STANDARD,
        dealer: int = 0,
        allowed_contracts: frozenset[Contract] | set[Contract] | Sequence[Contract] | None = None,
    ) -> None:
        if not isinstance(rules, Rules):
            raise RulesError(f"rules must be a Rules object (see get_variant), not {rules!r}")
        self.deck = check_deck(deck)
        n = rules.n_seats
        if not isinstance(dealer, int) or type(dealer) is bool or not 0 <= dealer < n:
            raise RulesError(f"dealer must be a seat 0-{n - 1}, not {dealer!r}")
        self.rules = rules
        self._n_tricks = rules.n_tricks
        self.dealer = dealer
        seating = _SEATINGS.get((n, dealer))
        if seating is None:
            seating = _SEATINGS[n, dealer] = _seating(n, dealer)
        self.active_seats, self.roles, self._next, self._order_from = seating
        fh = self.active_seats[0]
        if allowed_contracts is None:
            allowed = _all_contracts(rules)
        elif (
            type(allowed_contracts) is frozenset
            and allowed_contracts <= _all_contracts(rules)
            and {*map(type, allowed_contracts)} <= _CONTRACT_TYPE  # {0, 4} <= {Contract.CLUBS, ...} too
        ):
            allowed = allowed_contracts
        else:
            allowed = _contracts_arg(allowed_contracts)
        if not allowed:
            raise RulesError("forehand has no contract left to choose")
        if not allowed <= set(rules.contracts):
            raise RulesError(f"contracts {sorted(str(c) for c in allowed)} are not all in the rules' list")
        self.allowed_contracts = allowed

        first, rest, talon = deal_piles(self.deck, rules.deal_pattern, rules.cards_before_choice)
        self._first = first
        self._rest = rest
        self._talon_full = talon
        self.hands = [0] * n
        self.first_cards = [0] * n
        for role, seat in enumerate(self.active_seats):
            self.first_cards[seat] = self.hands[seat] = sum(map(_BITS.__getitem__, first[role]))
        self.dealt = list(self.first_cards)
        self.talon = []
        self.dead = [0] * n
        self.drawn = [0] * n
        self.exchange_counts = [None] * n
        self.contract = None
        self.trump = None
        self.phase = _CHOOSE
        self.to_move = fh
        self.trick_leader = fh
        self.trick = []
        self.tricks = []
        self.tricks_won = [0] * n
        self.played = 0
        self.shown_card = None
        self.set_aside = None
        self.stock = []
        self.history = []
        self._undo: list[int | _PlayUndo | _Snapshot] = []
        self.legal_actions = LegalActions(self)
        self._plays: tuple[Play, ...] | None = None  # the legal plays, listed once per position

    @classmethod
    def random(
        cls,
        rng: Random | int | None = None,
        *,
        rules: Rules = STANDARD,
        dealer: int = 0,
        allowed_contracts: frozenset[Contract] | None = None,
    ) -> Deal:
        """A deal from a shuffled deck.  *rng* is a :class:`random.Random`, a seed (an int: every int gives its own
        deal, ``-5`` is not ``5``) or ``None`` (a fresh shuffle).

        Raises:
            DeckError: for a seed that is no int (a bool, a float, text).
        """
        if rng is None:
            rng = seeded_random(None)
        elif not isinstance(rng, Random):
            seed = whole_number(rng)
            if seed is None:
                raise DeckError(f"a deal's seed is an int, None or a random.Random, not {rng!r}")
            rng = seeded_random(seed)
        deck = list(range(52))
        rng.shuffle(deck)
        return cls(deck, rules=rules, dealer=dealer, allowed_contracts=allowed_contracts)

    # -- reading the position ---------------------------------------------------------------------

    @property
    def forehand(self) -> int:
        return self.active_seats[0]

    @property
    def middlehand(self) -> int:
        return self.active_seats[1]

    @property
    def n_tricks(self) -> int:
        return self.rules.n_tricks

    def hand(self, seat: int) -> CardSet:
        """The cards *seat* holds now (``hands[seat]`` is the raw mask).

        Raises:
            RulesError: for a seat outside the table (``hands[-1]`` would be the last seat's hand).
        """
        if type(seat) is not int or not 0 <= seat < len(self.hands):
            check_seat(seat, self.rules.n_seats)
        return CardSet.from_mask(self.hands[seat])

    def role(self, seat: int) -> Role | None:
        """The seat's role in this deal, or ``None`` for a dealer who sits out.

        Raises:
            RulesError: for a seat outside the table.
        """
        if type(seat) is not int or not 0 <= seat < len(self.roles):
            check_seat(seat, self.rules.n_seats)
        role = self.roles[seat]
        return None if role < 0 else Role(role)

    def next_seat(self, seat: int) -> int:
        """The next playing seat clockwise."""
        return self._next[seat]

    def is_over(self) -> bool:
        return self.phase is _DONE

    @property
    def exchanger(self) -> int | None:
        """The seat whose exchange is due, in the exchange phase."""
        return self.to_move if self.phase is _EXCHANGE else None

    def legal_play_mask(self) -> int:
        """The mask of cards the player to move may play (0 outside the play phase)."""
        if self.phase is not _PLAY:
            return 0
        return legal_plays(self.hands[self.to_move], self.trick[0] // 13 if self.trick else None, None)

    def forced_action(self) -> Action | None:
        """The only legal action when there is exactly one (the sixth contract choice, an exchange with an
        empty talon, a single legal card); clients may apply it without asking, but it is still recorded."""
        if self.phase is _CHOOSE:
            return CHOICES[next(iter(self.allowed_contracts))] if len(self.allowed_contracts) == 1 else None
        if self.phase is _EXCHANGE:
            return KEEP if not self.talon else None
        mask = self.legal_play_mask()
        return PLAYS[mask.bit_length() - 1] if mask and mask & (mask - 1) == 0 else None

    def scores(self) -> list[int]:
        """Each seat's score for the deal (0 for a dealer who sits out).

        Raises:
            IllegalActionError: before the deal is over.
        """
        if self.phase is not _DONE or self.contract is None:
            raise IllegalActionError("the deal is not over: no score yet")
        rules = self.rules
        scores = [0] * rules.n_seats
        for role, seat in enumerate(self.active_seats):
            scores[seat] = rules.score(role, self.contract, self.tricks_won[seat])
        if sum(scores) and rules.zero_sum:  # RULES.md §8.5; an explicit raise, so that it survives python -O
            raise AssertionError(f"the deal's scores {scores} do not sum to zero under zero-sum rules {rules.name!r}")
        return scores

    # -- applying actions -------------------------------------------------------------------------

    def push(self, action: Action) -> None:
        """Apply *action* **without checking it**.  Fast; for search and for replaying trusted actions.

        An illegal action corrupts the deal silently; use :meth:`play` (or :meth:`check`) for input
        from outside.
        """
        self._plays = None
        if type(action) is not Play:
            if type(action) is Choose:
                self._push_choose(action[0])
            else:
                self._push_exchange(action[0].mask)  # type: ignore[union-attr]
            self.history.append(action)
            return
        # Playing a card is the hot path of search and simulation: kept flat on purpose (benchmarks/engine.py).
        card: int = action[0]
        self.history.append(action)
        seat = self.to_move
        bit = 1 << card
        hands = self.hands
        hands[seat] ^= bit
        self.played |= bit
        trick = self.trick
        trick.append(card)
        stock = self.stock
        if stock:
            drawn = stock.pop()
            hands[seat] |= 1 << drawn
            self._undo.append(_PlayUndo(seat, drawn))
        else:
            self._undo.append(seat)
        if len(trick) == 3:
            leader = self.trick_leader
            first, second, third = trick
            winner: int = self._order_from[leader][winner_of_three(first, second, third, self.trump)]
            self.tricks.append(_new_trick(Trick, (leader, (CARDS[first], CARDS[second], CARDS[third]), winner)))
            self.tricks_won[winner] += 1
            self.trick = []
            self.trick_leader = self.to_move = winner
            if len(self.tricks) == self._n_tricks:
                self.phase = _DONE
        else:
            self.to_move = self._next[seat]

    def push_card(self, card: int) -> None:
        """:meth:`push` of ``Play(card)`` with a raw card int, for search loops."""
        self.push(PLAYS[card])

    def _snapshot(self) -> _Snapshot:
        return _Snapshot(
            self.phase,
            self.to_move,
            tuple(self.hands),
            tuple(self.dealt),
            tuple(self.talon),
            tuple(self.dead),
            tuple(self.drawn),
            tuple(self.exchange_counts),
            self.contract,
            self.trump,
            self.shown_card,
            self.set_aside,
            tuple(self.stock),
        )

    def _push_choose(self, contract: Contract) -> None:
        self._undo.append(self._snapshot())
        self.contract = contract
        self.trump = contract.trump
        rules = self.rules
        for role, seat in enumerate(self.active_seats):
            self.hands[seat] |= _mask(self._rest[role])
        self.dealt = list(self.hands)
        talon = list(self._talon_full)
        if rules.exchange_mode is ExchangeMode.REPLENISH:
            self.set_aside = talon.pop()
            if rules.show_trump_card and self.trump is not None:
                self.shown_card = self.set_aside
            self.stock = talon
            self.talon = []
            self.phase = _PLAY
        else:
            self.talon = talon
            if rules.show_trump_card and self.trump is not None:
                self.shown_card = talon[-1]  # turned up as a reminder, whether or not the talon is exchanged
            self.phase = _PLAY if rules.exchange_mode is ExchangeMode.NONE else _EXCHANGE
        self.to_move = self.active_seats[0]

    def _push_exchange(self, discards: int) -> None:
        self._undo.append(self._snapshot())
        seat = self.to_move
        count = discards.bit_count()
        drawn = 0
        for _ in range(count):
            drawn |= 1 << self.talon.pop()
        self.hands[seat] = (self.hands[seat] & ~discards) | drawn
        self.dead[seat] = discards
        self.drawn[seat] = drawn
        self.exchange_counts[seat] = count
        if self.roles[seat] == Role.DEALER:
            self.phase = _PLAY
            self.to_move = self.active_seats[0]
        else:
            self.to_move = self._next[seat]

    def pop(self) -> Action:
        """Undo the last action and return it.

        Raises:
            IndexError: if no action has been applied.
        """
        if not self.history:
            raise IndexError("pop from a deal with no actions")
        action = self.history.pop()
        self._plays = None
        undo = self._undo.pop()
        if type(undo) is int or type(undo) is _PlayUndo:
            if not self.trick:
                last = self.tricks.pop()
                self.tricks_won[last.winner] -= 1
                self.trick = [int(c) for c in last.cards]
                self.trick_leader = last.leader
                self.phase = _PLAY
            card = self.trick.pop()
            seat = self._order_from[self.trick_leader][len(self.trick)]
            if type(undo) is _PlayUndo:
                self.hands[seat] ^= 1 << undo.drawn
                self.stock.append(undo.drawn)
            self.hands[seat] |= 1 << card
            self.played ^= 1 << card
            self.to_move = seat
            return action
        assert type(undo) is _Snapshot
        self.phase = undo.phase
        self.to_move = undo.to_move
        self.hands = list(undo.hands)
        self.dealt = list(undo.dealt)
        self.talon = list(undo.talon)
        self.dead = list(undo.dead)
        self.drawn = list(undo.drawn)
        self.exchange_counts = list(undo.exchange_counts)
        self.contract = undo.contract
        self.trump = undo.trump
        self.shown_card = undo.shown_card
        self.set_aside = undo.set_aside
        self.stock = list(undo.stock)
        return action

    def illegal_reason(self, action: object) -> str | None:
        """Why *action* is illegal now, or ``None`` if it is legal."""
        phase = self.phase
        if phase is _DONE:
            return "the deal is over"
        seat = self.to_move
        if isinstance(action, Play):
            if phase is not _PLAY:
                return f"cannot play a card in the {phase.name.lower()} phase"
            card = action.card
            if not isinstance(card, int) or not 0 <= card < 52 or isinstance(card, bool):
                return f"{card!r} is not a card"
            why = _why_illegal(self.hands[seat], card, self.trick[0] // 13 if self.trick else None, None)
            if why is None:
                return None
            if why.code == "not_in_hand":
                return f"{CARDS[card]} is not in seat {seat}'s hand"
            return f"must follow suit: {why.suit.name.lower()} were led and seat {seat} holds some"
        if isinstance(action, Choose):
            if phase is not _CHOOSE:
                return f"cannot choose a contract in the {phase.name.lower()} phase"
            if not isinstance(action.contract, Contract):
                return f"{action.contract!r} is not a contract"
            if action.contract not in self.allowed_contracts:
                if action.contract in self.rules.contracts:
                    if self.rules.global_unique_contracts:  # gone for everyone, whoever chose it
                        return f"contract {action.contract} has already been played in this match"
                    uses = self.rules.uses_per_contract
                    times = "" if uses == 1 else " twice" if uses == 2 else f" {uses} times"
                    return f"forehand (seat {seat}) has already used contract {action.contract}{times}"
                return f"contract {action.contract} is not played in this variant"
            return None
        if isinstance(action, Exchange):
            if phase is not _EXCHANGE:
                if phase is _PLAY and self.rules.exchange_mode is ExchangeMode.STANDARD:
                    return "every player has had their one exchange; play has begun"
                return f"cannot exchange in the {phase.name.lower()} phase"
            discards = action.discards.mask if isinstance(action.discards, CardSet) else -1
            if discards < 0:
                return f"{action.discards!r} is not a set of cards"
            stray = discards & ~self.hands[seat]
            if stray:
                return f"cannot discard {CardSet(stray)}: not in seat {seat}'s hand"
            count = discards.bit_count()
            if count > len(self.talon):
                return (
                    f"cannot discard {count} cards: only {len(self.talon)} left in the talon"
                )
            return None
        return f"{action!r} is not an action"

    def check(self, action: object) -> Action:
        """Return *action* if it is legal now, in the form the deal stores.

        A :class:`Play` of a plain int (``Play(0)``) is legal like ``Play(Card(0))``; it comes back as the
        ready-made ``PLAYS[0]``, whose card is a :class:`Card`, so that the history reads ``2C``, not ``0``,
        exactly as after ``deal.play("2C")``.  Pass the returned action to :meth:`push`.

        Raises:
            IllegalActionError: naming the reason.
        """
        reason = self.illegal_reason(action)
        if reason is not None:
            raise IllegalActionError(f"illegal action {action}: {reason}")
        if isinstance(action, Play):
            return PLAYS[action.card]
        return action  # type: ignore[return-value]

    def is_legal(self, action: object) -> bool:
        return self.illegal_reason(action) is None

    def parse_action(self, text: str) -> Action:
        """Read an action as text, in the light of the current phase.

        ``AS`` or ``play AS`` plays a card; ``NT`` or ``choose NT`` chooses a contract; ``exchange AS KS``,
        ``discard AS KS``, or in the exchange phase a plain card list, exchanges (``-``, ``keep``, ``pass`` or
        ``exchange -`` keeps the hand).

        A verb without its cards (``exchange``, ``discard`` or ``ex`` alone) is incomplete, not a keep: the one
        blind exchange is never spent on an answer that names no cards and no ``-``.

        >>> deal = Deal(list(range(52)), dealer=0)
        >>> _ = deal.play("NT")
        >>> deal.parse_action("exchange -") == deal.parse_action("keep") == KEEP
        True
        >>> deal.parse_action("discard")
        Traceback (most recent call last):
        ...
        mizerka.deal.InvalidActionError: incomplete action 'discard': name the cards to discard, or - to keep

        Raises:
            InvalidActionError: if *text* is no action, or an incomplete one; the message quotes it.
        """
        if not isinstance(text, str):
            raise InvalidActionError(f"expected an action as text, not {type(text).__name__}")
        words = text.strip().split(None, 1)
        if not words:
            raise InvalidActionError("empty action")
        verb = words[0].lower()
        rest = words[1] if len(words) > 1 else ""
        try:
            if verb in ("choose", "contract"):
                return CHOICES[Contract.from_str(rest)]
            if verb in ("exchange", "discard", "ex"):
                if not rest:  # not a keep: "-" (or "keep") says that
                    raise InvalidActionError(f"incomplete action {text.strip()!r}: name the cards to discard, "
                                             "or - to keep")
                return self._parse_discards(rest)
            if verb in ("keep", "pass") and not rest:
                return KEEP
            if verb == "play":
                return PLAYS[Card.from_str(rest)]
            if self.phase is _CHOOSE:
                return CHOICES[Contract.from_str(text)]
            if self.phase is _EXCHANGE:
                return self._parse_discards(text)
            return PLAYS[Card.from_str(text)]
        except (CardParseError, RulesError) as error:
            raise InvalidActionError(f"invalid action {text!r}: {error}") from None

    @staticmethod
    def _parse_discards(text: str) -> Exchange:
        text = text.strip()
        if text in ("-", "none", "keep"):
            return KEEP
        cards = parse_cards(text)
        if not cards:  # "," or "exchange ,,": no card named, and no "-": not a keep (the exchange is not undone)
            raise InvalidActionError(f"incomplete action {text!r}: name the cards to discard, or - to keep")
        mask = _mask(cards)
        if mask.bit_count() != len(cards):
            raise InvalidActionError(f"invalid exchange {text!r}: a card is listed twice")
        return Exchange(CardSet(mask))

    def play(self, action: Action | str) -> Action:
        """Parse (if text), check and apply an action; return it.

        Raises:
            InvalidActionError: for text that is no action.
            IllegalActionError: for an action the rules forbid now; the deal is unchanged.
        """
        if isinstance(action, str):
            action = self.parse_action(action)
        action = self.check(action)
        self.push(action)
        return action

    # -- copying and comparing --------------------------------------------------------------------

    def copy(self) -> Deal:
        """An independent copy (with the undo history, so the copy can :meth:`pop` too)."""
        other = Deal.__new__(Deal)
        for name in Deal.__slots__:
            value = getattr(self, name)
            if type(value) is list:
                value = list(value)
            setattr(other, name, value)
        other.legal_actions = LegalActions(other)
        return other

    __copy__ = copy

    def _key(self) -> tuple[object, ...]:
        return (
            self.rules,
            self.dealer,
            self.deck,
            self.allowed_contracts,
            tuple(self.history),
            self.phase,
            self.to_move,
            tuple(self.hands),
            tuple(self.talon),
            tuple(self.dead),
            tuple(self.exchange_counts),
            tuple(self.trick),
            tuple(self.tricks),
            tuple(self.tricks_won),
            tuple(self.stock),
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Deal):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<Deal dealer={self.dealer} phase={self.phase.name} contract={self.contract} "
            f"tricks={len(self.tricks)}/{self.rules.n_tricks} actions={len(self.history)}>"
        )

    def __str__(self) -> str:
        lines = [f"Deal, dealer seat {self.dealer}, {self.phase.name.lower()} phase"]
        if self.contract is not None:
            lines.append(f"Contract: {self.contract.label} ({self.contract.goal})")
        for seat in range(self.rules.n_seats):
            role = self.role(seat)
            name = role.short if role is not None else "out"
            extra = f"  tricks {self.tricks_won[seat]}" if self.contract is not None and role is not None else ""
            lines.append(f"  seat {seat} {name:>3}: {CardSet(self.hands[seat]).grouped()}{extra}")
        if self.trick:
            lines.append("  trick: " + " ".join(str(CARDS[c]) for c in self.trick))
        return "\n".join(lines)

    # -- observations -----------------------------------------------------------------------------

    def observation(self, seat: int | None) -> Observation:
        """What *seat* may know now, and nothing more (``None``: a spectator, public information only).

        Raises:
            RulesError: for a seat outside the table (a ``ValueError``; a bool is no seat).
        """
        n = self.rules.n_seats
        if seat is not None and (type(seat) is not int or not 0 <= seat < n):
            check_seat(seat, self.rules.n_seats, spectator=True)
        own = seat is not None
        hand_sizes = tuple(h.bit_count() for h in self.hands)
        is_to_move = own and self.phase is not _DONE and self.to_move == seat
        legal: tuple[Action, ...] = ()
        if is_to_move and self.phase is not _EXCHANGE:
            legal = tuple(self.legal_actions)
        return Observation(
            rules=self.rules,
            seat=seat,
            dealer=self.dealer,
            active_seats=self.active_seats,
            phase=self.phase,
            to_move=-1 if self.phase is _DONE else self.to_move,
            allowed_contracts=tuple(sorted(self.allowed_contracts)),
            contract=self.contract,
            hand=CardSet.from_mask(self.hands[seat]) if own else _EMPTY,  # type: ignore[index]
            first_cards=CardSet.from_mask(self.first_cards[seat]) if own else _EMPTY,  # type: ignore[index]
            dealt=CardSet.from_mask(self.dealt[seat]) if own else _EMPTY,  # type: ignore[index]
            discards=CardSet.from_mask(self.dead[seat]) if own else _EMPTY,  # type: ignore[index]
            drawn=CardSet.from_mask(self.drawn[seat]) if own else _EMPTY,  # type: ignore[index]
            exchange_counts=tuple(self.exchange_counts),
            talon_size=len(self.talon),
            stock_size=len(self.stock),
            shown_card=CARDS[self.shown_card] if self.shown_card is not None else None,
            hand_sizes=hand_sizes,
            tricks=tuple(self.tricks),
            trick_leader=self.trick_leader,
            trick=tuple(CARDS[c] for c in self.trick),
            tricks_won=tuple(self.tricks_won),
            scores=tuple(self.scores()) if self.phase is _DONE else None,
            history=self._public_history(seat),
            legal_actions=legal,
        )

    @property
    def actors(self) -> list[int]:
        """The seat that took each action of :attr:`history`."""
        return [
            undo if type(undo) is int else undo.seat if type(undo) is _PlayUndo else undo.to_move  # type: ignore[union-attr]
            for undo in self._undo
        ]

    def _public_history(self, seat: int | None) -> tuple[tuple[int, Action | int], ...]:
        """(actor, action) for every action so far, as *seat* may see them: another player's exchange is a count."""
        history: list[tuple[int, Action | int]] = list(zip(self.actors, self.history, strict=True))
        for i, (actor, action) in enumerate(history):
            if type(action) is Exchange and actor != seat:
                history[i] = (actor, len(action.discards))
            elif type(action) is Play:
                break
        return tuple(history)

    @classmethod
    def from_observation(cls, observation: Observation, rng: Random) -> Deal:
        """A deal consistent with everything *observation* shows, with the unknown cards dealt at random.

        The deal has a full deck order and replays the public history, so it is an ordinary deal that
        search can play on.  Its hidden cards respect the observer's own hand, discards and draws, the
        cards played, the voids shown in play, the public exchange counts and a turned-up talon card.
        See :mod:`mizerka.sampling` for the method.

        Raises:
            ValueError: if the observation is inconsistent (no deal can match it).
        """
        from mizerka.sampling import sample_deal

        return sample_deal(observation, rng)


# -- legal actions --------------------------------------------------------------------------------


# The Play actions of each 13-bit pattern of each suit, in ascending order, filled in as patterns occur:
# listing the legal cards is then one or four list lookups (the hot path of random play and search).
_SUIT_PLAYS: Final[tuple[list[tuple[Play, ...] | None], ...]] = tuple([()] + [None] * 8191 for _ in range(4))
_CLUB_PLAYS, _DIAMOND_PLAYS, _HEART_PLAYS, _SPADE_PLAYS = _SUIT_PLAYS


def _suit_plays(suit: int, bits: int) -> tuple[Play, ...]:
    """The :class:`Play` actions of the 13-bit pattern *bits* in *suit*, ascending (computed once, then kept)."""
    table = _SUIT_PLAYS[suit]
    plays = table[bits]
    if plays is None:
        base = 13 * suit
        plays = table[bits] = tuple(PLAYS[base + rank] for rank in range(13) if bits >> rank & 1)
    return plays


def _plays_in(mask: int) -> tuple[Play, ...]:
    """The :class:`Play` actions of the cards in *mask*, in ascending card order."""
    clubs = _CLUB_PLAYS[mask & 0x1FFF]
    diamonds = _DIAMOND_PLAYS[(mask >> 13) & 0x1FFF]
    hearts = _HEART_PLAYS[(mask >> 26) & 0x1FFF]
    spades = _SPADE_PLAYS[mask >> 39]
    if clubs is None or diamonds is None or hearts is None or spades is None:
        return tuple(play for suit in range(4) for play in _suit_plays(suit, (mask >> (13 * suit)) & 0x1FFF))
    return clubs + diamonds + hearts + spades


class LegalActions:
    """A lazy, set-like view of the legal actions of the player to move.

    Supports ``in``, iteration, ``len``, ``bool`` and :meth:`count`.  In the exchange phase it holds every
    subset of the hand up to the talon's size (up to 8,192), generated on demand.
    """

    __slots__ = ("_deal",)

    def __init__(self, deal: Deal) -> None:
        self._deal = deal

    def __contains__(self, action: object) -> bool:
        return self._deal.is_legal(action)

    def __iter__(self) -> Iterator[Action]:
        deal = self._deal
        if deal.phase is _PLAY:
            plays = deal._plays
            return iter(plays if plays is not None else self._list_plays())
        return self._iter_other()

    def _list_plays(self) -> tuple[Play, ...]:
        """The legal plays (play phase only), kept by the deal until its next push or pop."""
        deal = self._deal
        hand = deal.hands[deal.to_move]
        trick = deal.trick
        plays: tuple[Play, ...] | None
        if trick:
            suit = trick[0] // 13
            bits = (hand >> (13 * suit)) & 0x1FFF
            if bits:
                plays = _SUIT_PLAYS[suit][bits]
                if plays is None:
                    plays = _suit_plays(suit, bits)
                deal._plays = plays
                return plays
        plays = deal._plays = _plays_in(hand)
        return plays

    def _iter_other(self) -> Iterator[Action]:
        deal = self._deal
        phase = deal.phase
        if phase is _CHOOSE:
            for contract in sorted(deal.allowed_contracts):
                yield CHOICES[contract]
        elif phase is _EXCHANGE:
            hand = [CARDS[c] for c in CardSet(deal.hands[deal.to_move])]
            limit = min(len(deal.talon), len(hand))
            from itertools import combinations

            for size in range(limit + 1):
                for combo in combinations(hand, size):
                    yield Exchange(CardSet(_mask(combo)))

    def count(self) -> int:
        deal = self._deal
        if deal.phase is _PLAY:
            plays = deal._plays
            return len(plays if plays is not None else self._list_plays())
        if deal.phase is _CHOOSE:
            return len(deal.allowed_contracts)
        if deal.phase is _EXCHANGE:
            from math import comb

            size = deal.hands[deal.to_move].bit_count()
            return sum(comb(size, k) for k in range(min(len(deal.talon), size) + 1))
        return 0

    __len__ = count

    def __bool__(self) -> bool:
        return self._deal.phase is not _DONE

    def __repr__(self) -> str:
        if self._deal.phase is _EXCHANGE:
            return f"<LegalActions: {self.count()} exchanges>"
        return f"<LegalActions: {', '.join(str(a) for a in self)}>"


# -- observation ----------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Observation:
    """Everything one seat may know about a deal, and nothing more.

    ``seat`` is ``None`` for a spectator, whose hand, first cards, discards and draws are empty.
    ``first_cards`` are the cards the seat held when forehand chose the contract, ``dealt`` the cards dealt
    to it so far (the first cards during the choice, then all 13), ``drawn`` those it drew in its exchange.
    ``history`` lists ``(actor, action)`` pairs; another player's exchange appears only as its count.
    The match fields (``deal_no``, ``totals``, ``used``, ``names``) are filled by :meth:`Match.observation`.
    """

    rules: Rules
    seat: int | None
    dealer: int
    active_seats: tuple[int, int, int]
    phase: Phase
    to_move: int
    allowed_contracts: tuple[Contract, ...]
    contract: Contract | None
    hand: CardSet
    first_cards: CardSet
    dealt: CardSet
    discards: CardSet
    drawn: CardSet
    exchange_counts: tuple[int | None, ...]
    talon_size: int
    stock_size: int
    shown_card: Card | None
    hand_sizes: tuple[int, ...]
    tricks: tuple[Trick, ...]
    trick_leader: int
    trick: tuple[Card, ...]
    tricks_won: tuple[int, ...]
    scores: tuple[int, ...] | None
    history: tuple[tuple[int, Action | int], ...]
    legal_actions: tuple[Action, ...] = ()
    deal_no: int = 1
    totals: tuple[int, ...] = ()
    used: tuple[tuple[Contract, ...], ...] = ()

    @property
    def role(self) -> Role | None:
        if self.seat is None or self.seat not in self.active_seats:
            return None
        return Role(self.active_seats.index(self.seat))

    @property
    def played(self) -> CardSet:
        """Every card played so far, including the current trick."""
        mask = 0
        for trick in self.tricks:
            for card in trick.cards:
                mask |= 1 << card
        for card in self.trick:
            mask |= 1 << card
        return CardSet(mask)

    @property
    def stock_drawn(self) -> CardSet:
        """The cards this seat drew from the stock after its own cards (the ``seed002-literal`` variant, where each
        player draws after his card in the first tricks): what it holds and has played, less what it was dealt and
        kept and what it drew in its exchange.  Empty in the other variants, and for a spectator."""
        if self.seat is None:
            return CardSet()
        mine = CardSet(action.card for actor, action in self.history if actor == self.seat and isinstance(action, Play))
        return (self.hand | mine) - ((self.dealt - self.discards) | self.drawn)

    def known_cards(self) -> CardSet:
        """Every card whose place this seat knows: its hand, its discards, the cards played, a shown card."""
        known = self.hand | self.discards | self.played
        if self.shown_card is not None:
            known = known | CardSet([self.shown_card])
        return known

    def voids(self) -> dict[int, frozenset[Suit]]:
        """The suits each seat has shown it lacks, by failing to follow suit (public knowledge)."""
        shown: dict[int, set[Suit]] = {seat: set() for seat in self.active_seats}
        tricks = [(t.leader, t.cards) for t in self.tricks]
        if self.trick:
            tricks.append((self.trick_leader, self.trick))
        order = self.active_seats
        for leader, cards in tricks:
            led = cards[0] // 13
            start = order.index(leader)
            for i, card in enumerate(cards[1:], start=1):
                if card // 13 != led:
                    shown[order[(start + i) % 3]].add(Suit(led))
        return {seat: frozenset(suits) for seat, suits in shown.items()}

    def is_my_turn(self) -> bool:
        return self.seat is not None and self.phase is not _DONE and self.to_move == self.seat

    def why_illegal(self, card: int) -> IllegalPlay | None:
        """Why this seat may not play *card* to the trick in progress, or ``None`` if the follow rule allows it.

        :func:`mizerka.tricks.why_illegal` applied to the seat's hand, the suit led and the contract's trump,
        without a must-trump obligation (Mizerka has none), so the answer is ``"follow"``, ``"not_in_hand"`` or
        ``None``; :meth:`Deal.legal_play_mask` and :meth:`Deal.illegal_reason` apply the same rule.  Whose turn it
        is and the phase are the caller's business.

        >>> deal = Deal(list(range(52)), dealer=0)
        >>> for action in ("NT", "keep", "-", "keep", "JS"):   # seat 1 leads the jack of spades
        ...     _ = deal.play(action)
        >>> obs = deal.observation(2)
        >>> obs.why_illegal(Card.from_str("KH")), obs.why_illegal(Card.from_str("QS"))
        (IllegalPlay(code='follow', suit=<Suit.SPADES: 3>), None)
        >>> obs.why_illegal(Card.from_str("JS")).code
        'not_in_hand'
        """
        led = self.trick[0] // 13 if self.trick else None
        trump = self.contract.trump if self.contract is not None else None
        return _why_illegal(self.hand.mask, card, led, trump)
