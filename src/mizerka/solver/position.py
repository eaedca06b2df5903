"""Solver positions: hands around a table, the trick in progress, trumps and the goal.

A :class:`Position` is game-general.  It holds the hands of the *playing* seats only, in clockwise
order of play (index 0, 1, … — called "players" below), a side id per player (``None`` = each for
himself, as in Mizerka), the player who led the current trick and the cards already played to it,
the trump suit (``None`` for no-trump), whether the goal is to *avoid* tricks (``misere``, the
Mizerka contract), and the Preferans ``must_trump`` flag.  ``seats`` gives each player's seat number
at the real table, so that ``solve(position, seat)`` can be called with the seat a :class:`Deal`
uses (in the four-player variant the dealer sits out and is not a player here).

Every constructor validates: an impossible position raises a subclass of
:class:`InvalidPositionError` (itself a :class:`ValueError`) naming the problem.

The text form (``str(position)``) reads back with :meth:`Position.from_text`:

>>> text = "NT; lead 0; S:AK H:- D:- C:2 / S:Q2 H:- D:- C:3 / S:- H:- D:A2 C:4"
>>> p = Position.from_text(text)
>>> str(p) == text, p.to_move, p.tricks_left
(True, 0, 3)
>>> Position.from_text("NT; lead 0; S:A H:- D:- C:- / S:K H:- D:- C:- / S:- H:2 D:- C:-; trick AS KS")
Traceback (most recent call last):
...
mizerka.solver.position.DuplicateCardError: card AS is in the trick and in the hand of player 0
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any, Final, Protocol

from mizerka._checks import whole_number
from mizerka.cards import ALL_CARDS_MASK, CARDS, SUIT_MASKS, CardParseError, CardSet, parse_cards
from mizerka.tricks import legal_plays, trick_winner_index

__all__ = [
    "DealLike",
    "DuplicateCardError",
    "FollowSuitError",
    "HandSizeError",
    "InvalidPositionError",
    "NotOnLeadError",
    "Position",
    "StockNotEmptyError",
]

CONTRACT_CODES: Final[dict[str, tuple[int | None, bool]]] = {
    "C": (0, False),
    "D": (1, False),
    "DIA": (1, False),
    "H": (2, False),
    "S": (3, False),
    "NT": (None, False),
    "MZ": (None, True),
}
"""Contract codes of the text form: ``(trump, misere)``.  ``MZ`` is Mizerka (no trumps, avoid tricks)."""


class InvalidPositionError(ValueError):
    """A position that cannot arise in play.  Subclasses name the problem; the message shows it."""


class DuplicateCardError(InvalidPositionError):
    """A card held twice, or held and also lying in the current trick."""


class HandSizeError(InvalidPositionError):
    """Hands whose sizes do not fit the trick in progress (or a player count the solver cannot take)."""


class FollowSuitError(InvalidPositionError):
    """A card in the current trick that breaks the follow rule (a revoke)."""


class NotOnLeadError(InvalidPositionError):
    """A seat named as leader or as the player to move that is not the one on lead / to move."""


class StockNotEmptyError(InvalidPositionError):
    """A deal whose stock still holds cards that are drawn during play (the seed002-literal variant).

    The solver needs every card still to be played in the hands; before the stock is used up it cannot take
    the position (the value would ignore the cards still to be drawn).
    """


class DealLike(Protocol):
    """What :meth:`Position.from_deal` reads from a rules-engine ``Deal`` (read-only attributes)."""

    @property
    def hands(self) -> list[int]: ...
    @property
    def active_seats(self) -> tuple[int, ...]: ...
    @property
    def contract(self) -> Any: ...
    @property
    def trump(self) -> int | None: ...
    @property
    def trick_leader(self) -> int: ...
    @property
    def trick(self) -> list[int]: ...
    @property
    def to_move(self) -> int: ...
    @property
    def phase(self) -> Any: ...
    # Also read when present: ``stock``, the cards still drawn during play (must be empty to solve).


def _card_name(card: int) -> str:
    return str(CARDS[card])


def _whole(value: object, what: str, error: type[InvalidPositionError] = InvalidPositionError) -> int:
    """*value* as a plain int: an int or anything with ``__index__`` (a NumPy integer), but never a bool.

    Raises:
        *error* (an :class:`InvalidPositionError`): for a bool, a float, text or anything else, naming *what*.
    """
    number = whole_number(value)
    if number is None:
        raise error(f"{what} must be a whole number, not {value!r}")
    return number


def check_impl(impl: object) -> None:
    """Refuse a solver *impl* that is not ``"kernel"``, ``"reference"`` or ``None`` (the check of every entry point
    of :mod:`mizerka.solver` and :mod:`mizerka.solver.maxn`).

    Raises:
        ValueError: for anything else, quoting it.
    """
    if impl is not None and impl not in ("kernel", "reference"):
        raise ValueError(f"impl must be 'kernel', 'reference' or None (the kernel when it loads), not {impl!r}")


def check_position(position: object, who: str = "the solver",
                   advice: str = "build one with Position.from_text or Position.from_deal") -> None:
    """Refuse anything but a :class:`Position` given to a solver.

    Args:
        who: the solver named in the message.
        advice: a hint added in parentheses, or ``""`` for none.

    Raises:
        InvalidPositionError: naming *who* and the type given.
    """
    if not isinstance(position, Position):
        hint = f" ({advice})" if advice else ""
        raise InvalidPositionError(f"{who} takes a Position, not {type(position).__name__}{hint}")


def _flag(value: object, what: str) -> bool:
    if not isinstance(value, bool):  # 'no' and 0.5 are truthy: a flag must be True or False
        raise InvalidPositionError(f"{what} must be True or False, not {value!r}")
    return value


def _numbers(value: object, what: str, item: str) -> tuple[int, ...]:
    """A sequence of whole numbers (a tuple, a list, a NumPy array) as a tuple of ints.  Text, a set (no order)
    or a mapping is no such sequence."""
    if type(value) is tuple and all(type(number) is int for number in value):  # the common case, and the quick one
        return value
    if isinstance(value, (str, bytes, AbstractSet, Mapping)) or not isinstance(value, Iterable):
        raise InvalidPositionError(f"{what} must be a sequence of whole numbers, not {value!r}")
    return tuple(_whole(number, item) for number in value)


@dataclass(frozen=True)
class Position:
    """A position to solve.  Build it directly, or with :meth:`from_deal` / :meth:`from_text`.

    Attributes:
        hands: each player's cards as a 52-bit mask, in clockwise order of play.
        leader: the player (index into ``hands``) who led the current trick, or leads next.
        trick: the cards already played to the current trick, in order, starting with the leader's.
        trump: the trump suit (0 clubs … 3 spades), or ``None`` for no trumps.
        misere: ``True`` when the goal is to avoid tricks (Mizerka).
        sides: a side id per player (bridge: ``(0, 1, 0, 1)``); ``None`` means each for himself.
        must_trump: a player void in the suit led must trump if able (Preferans).
        seats: the table seat of each player (defaults to ``0 … n-1``).

    Every field is checked for its type (whole numbers are ints or NumPy integers, never bools, floats or text;
    the flags are bools) and stored as plain ints and tuples.

    Raises:
        DuplicateCardError, HandSizeError, FollowSuitError, NotOnLeadError: on an impossible position.
        InvalidPositionError: on a field of the wrong type, or trumps in a misere position (Mizerka has none).

    >>> p = Position((CardSet.from_str("AS 2S").mask, CardSet.from_str("KS 3S").mask), leader=1)
    >>> p.to_move, p.tricks_left, p.legal_cards()
    (1, 2, [Card.from_str('3S'), Card.from_str('KS')])
    """

    hands: tuple[int, ...]
    leader: int
    trick: tuple[int, ...] = ()
    trump: int | None = None
    misere: bool = False
    sides: tuple[int, ...] | None = None
    must_trump: bool = False
    seats: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        # every field is checked for its type first (a bool is no number, 'no' is no flag), then normalised
        # to plain ints and tuples; NumPy integers are taken as the ints they hold
        hands = _numbers(self.hands, "hands", "a hand (a card mask)")
        trick = _numbers(self.trick, "the trick", "a card of the trick (an index 0-51)")
        leader = self.leader if type(self.leader) is int else _whole(self.leader, "the leader", NotOnLeadError)
        trump = self.trump if self.trump is None or type(self.trump) is int else _whole(
            self.trump, "trump (a suit 0-3 or None)")
        sides = None if self.sides is None else _numbers(self.sides, "sides", "a side id")
        seats = None if self.seats is None else _numbers(self.seats, "seats", "a seat")
        _flag(self.misere, "misere")
        _flag(self.must_trump, "must_trump")
        for name, value in (("hands", hands), ("trick", trick), ("leader", leader), ("trump", trump),
                            ("sides", sides), ("seats", seats)):
            object.__setattr__(self, name, value)
        n = len(hands)
        if not 2 <= n <= 4:
            raise HandSizeError(f"the solver takes 2 to 4 playing hands, got {n}")
        if trump is not None and trump not in range(4):
            raise InvalidPositionError(f"trump must be a suit 0-3 or None, got {trump!r}")
        if trump is not None and self.misere:
            raise InvalidPositionError(
                f"a misere (Mizerka) position is played without trumps, but trump {trump} was given"
            )
        if sides is not None and len(sides) != n:
            raise InvalidPositionError(f"sides {sides!r} do not give one side per hand ({n} hands)")
        if seats is not None and (len(seats) != n or len(set(seats)) != n):
            raise InvalidPositionError(f"seats {seats!r} do not name {n} distinct seats")
        if seats is not None and min(seats) < 0:
            raise InvalidPositionError(f"seats {seats!r} are table seats, numbered from 0")
        if not 0 <= self.leader < n:
            raise NotOnLeadError(f"leader {self.leader} is not one of the players 0-{n - 1}")
        seen = 0
        for player, hand in enumerate(self.hands):
            if hand & ~ALL_CARDS_MASK or hand < 0:
                raise InvalidPositionError(f"hand of player {player} is not a 52-bit mask: {hand!r}")
            if hand & seen:
                card = (hand & seen).bit_length() - 1
                raise DuplicateCardError(f"card {_card_name(card)} is in more than one hand")
            seen |= hand
        if len(self.trick) >= n:
            raise HandSizeError(f"a trick in progress holds at most {n - 1} cards, got {len(self.trick)}")
        in_hands = seen
        for card in self.trick:
            if not 0 <= card < 52:
                raise InvalidPositionError(f"invalid card index {card} in the trick")
            if in_hands >> card & 1:
                holder = next(p for p, h in enumerate(self.hands) if h >> card & 1)
                raise DuplicateCardError(f"card {_card_name(card)} is in the trick and in the hand of player {holder}")
            if seen >> card & 1:
                raise DuplicateCardError(f"card {_card_name(card)} is twice in the trick")
            seen |= 1 << card
        sizes = [h.bit_count() for h in self.hands]
        played = {(self.leader + i) % n for i in range(len(self.trick))}
        full = sizes[self.to_move]
        for player, size in enumerate(sizes):
            expected = full - 1 if player in played else full
            if size != expected:
                raise HandSizeError(
                    f"player {player} holds {size} card{'' if size == 1 else 's'} but should hold {expected} "
                    f"(hand sizes {sizes}, leader {self.leader}, {len(self.trick)} card(s) in the trick)"
                )
        if played and full == 0:
            raise HandSizeError(f"a trick is in progress but player {self.to_move} has no card to play")
        if self.trick:
            led = self.trick[0] // 13
            for i, card in enumerate(self.trick[1:], start=1):
                player = (self.leader + i) % n
                hand = self.hands[player]
                if card // 13 != led and hand & SUIT_MASKS[led]:
                    raise FollowSuitError(
                        f"player {player} played {_card_name(card)} to a {'CDHS'[led]} lead "
                        f"while holding {CardSet(hand & SUIT_MASKS[led])}"
                    )
                if (
                    self.must_trump
                    and self.trump is not None
                    and card // 13 not in (led, self.trump)
                    and hand & SUIT_MASKS[self.trump]
                ):
                    raise FollowSuitError(
                        f"player {player} discarded {_card_name(card)} while holding trumps "
                        f"{CardSet(hand & SUIT_MASKS[self.trump])} (must trump)"
                    )

    # -- derived facts ----------------------------------------------------------------------------

    @property
    def n_players(self) -> int:
        return len(self.hands)

    @property
    def to_move(self) -> int:
        """The player whose turn it is."""
        return (self.leader + len(self.trick)) % len(self.hands)

    @property
    def tricks_left(self) -> int:
        """Tricks still to be completed, counting the one in progress."""
        return self.hands[self.to_move].bit_count()

    def seat_labels(self) -> tuple[int, ...]:
        """The table seat of each player."""
        return self.seats if self.seats is not None else tuple(range(len(self.hands)))

    def player_of(self, seat: int) -> int:
        """The player index of a table *seat*.

        Raises:
            NotOnLeadError: if *seat* is not one of the playing seats, or not a seat number at all (a bool, a
                float, text).
        """
        labels = self.seat_labels()
        seat = _whole(seat, "the seat", NotOnLeadError)
        if seat not in labels:
            raise NotOnLeadError(f"seat {seat} is not one of the playing seats {labels}")
        return labels.index(seat)

    def side_mask(self, player: int) -> int:
        """Bit mask of the players on *player*'s side (just *player* when each plays for himself)."""
        if self.sides is None:
            return 1 << player
        return sum(1 << p for p, s in enumerate(self.sides) if s == self.sides[player])

    def legal_mask(self) -> int:
        """The cards the player to move may play, as a mask."""
        led = self.trick[0] // 13 if self.trick else None
        return legal_plays(self.hands[self.to_move], led, self.trump, must_trump=self.must_trump)

    def legal_cards(self) -> list[Any]:
        """The legal cards of the player to move, lowest first (as :class:`~mizerka.cards.Card`)."""
        return list(CardSet(self.legal_mask()))

    def play(self, card: int) -> Position:
        """The position after the player to move plays *card* (which must be legal).

        Raises:
            InvalidPositionError: if *card* is not a card index 0-51 or not a legal play here.
        """
        card = _whole(card, "a card (an index 0-51)")
        if not 0 <= card < 52:
            raise InvalidPositionError(f"{card} is not a card: card indices run from 0 to 51")
        if not self.legal_mask() >> card & 1:
            raise InvalidPositionError(f"{_card_name(card)} is not a legal card in {self}")
        hands = list(self.hands)
        hands[self.to_move] &= ~(1 << card)
        trick = (*self.trick, card)
        leader = self.leader
        if len(trick) == len(hands):
            leader = (leader + trick_winner_index(trick, self.trump)) % len(hands)
            trick = ()
        return Position(tuple(hands), leader, trick, self.trump, self.misere, self.sides, self.must_trump, self.seats)

    # -- constructors -----------------------------------------------------------------------------

    @classmethod
    def from_deal(cls, deal: DealLike) -> Position:
        """The position of a rules-engine ``Deal`` in its play phase.

        Only the active seats become players (the dealer who sits out in the four-player variant is
        dropped); ``seats`` keeps their table numbers, so ``solve(position, deal.to_move)`` works.

        Raises:
            StockNotEmptyError: if cards are still drawn from a stock during play (seed002-literal's first
                tricks): the solver needs every card in the hands.
            InvalidPositionError: if the deal is not in its play phase, or is inconsistent.
        """
        missing = [name for name in ("hands", "active_seats", "contract", "trump", "trick_leader", "trick", "to_move",
                                     "phase") if not hasattr(deal, name)]
        if missing:
            raise InvalidPositionError(f"from_deal needs a rules-engine Deal, not {type(deal).__name__} "
                                       f"(it has no {', '.join(missing)})")
        phase = getattr(deal.phase, "name", str(deal.phase))
        if phase != "PLAY":
            raise InvalidPositionError(f"a deal can only be solved in its play phase, not {phase}")
        stock = len(getattr(deal, "stock", ()) or ())
        if stock:
            raise StockNotEmptyError(
                f"the solver needs every card in the hands: this deal still has {stock} card(s) in its stock, "
                f"drawn during play (it can be solved once the stock is used up)"
            )
        players = tuple(deal.active_seats)
        if deal.trick_leader not in players:
            raise NotOnLeadError(f"trick leader {deal.trick_leader} is not an active seat {players}")
        leader = players.index(deal.trick_leader)
        contract = deal.contract
        misere = bool(getattr(contract, "is_mizerka", False))
        position = cls(
            hands=tuple(deal.hands[s] for s in players),
            leader=leader,
            trick=tuple(deal.trick),
            trump=None if deal.trump is None else int(deal.trump),
            misere=misere,
            seats=players,
        )
        expected = players[position.to_move]
        if deal.to_move != expected:
            raise NotOnLeadError(f"the deal says seat {deal.to_move} is to move, but it is seat {expected}'s turn")
        return position

    @classmethod
    def from_text(cls, text: str) -> Position:
        """Parse the text form: parts separated by ``;``.

        * the contract: ``C``, ``D`` (or ``DIA``), ``H``, ``S``, ``NT`` or ``MZ`` (Mizerka);
        * ``lead N``: the player (0-based, in the order the hands are written) who led / leads;
        * the hands, clockwise in order of play, separated by ``/``, each like ``S:AKQ H:T92 D:- C:32``,
          a list of cards ``AS KS``, or PBN's dotted ``AKQ.T92..32`` (spades first); ``hands`` may prefix them;
        * optional ``trick AS KS``: the cards played to the current trick, leader's first;
        * optional ``sides 0 1 0 1``, ``must-trump``, and ``to-move N`` (checked against the position).

        Each part may be given once.

        Raises:
            CardParseError: on a bad card.
            InvalidPositionError: on a bad or repeated part, text that is not a string, or an impossible position.

        >>> p = Position.from_text("S; lead 3; sides 0 1 0 1; AK.-.-.- / QJ.-.-.- / 32.-.-.- / T9.-.-.-")
        >>> p.trump, p.sides, p.n_players
        (3, (0, 1, 0, 1), 4)
        """
        trump: int | None = None
        misere = False
        contract_seen = False
        leader: int | None = None
        hands: list[int] | None = None
        trick: tuple[int, ...] = ()
        sides: tuple[int, ...] | None = None
        must_trump = False
        to_move: int | None = None
        if not isinstance(text, str):
            raise InvalidPositionError(f"a position's text must be a string, not {type(text).__name__}")
        seen: dict[str, str] = {}
        for raw in text.split(";"):
            part = raw.strip()
            if not part:
                continue
            word, _, rest = part.partition(" ")
            key = word.lower()
            kind = ("contract" if part.upper() in CONTRACT_CODES else
                    "to-move" if key in ("to-move", "to_move") else
                    "must-trump" if key in ("must-trump", "must_trump") else
                    "hands" if key == "hands" or (key not in ("lead", "trick", "sides") and "/" in part) else key)
            if kind in seen:  # two contracts or two leads: which one is meant?
                raise InvalidPositionError(f"two {kind} parts, {seen[kind]!r} and {part!r}, in position {text!r}")
            seen[kind] = part
            if part.upper() in CONTRACT_CODES:
                trump, misere = CONTRACT_CODES[part.upper()]
                contract_seen = True
            elif key == "lead":
                leader = _parse_int(rest, part, text)
            elif key in ("to-move", "to_move"):
                to_move = _parse_int(rest, part, text)
            elif key == "trick":
                trick = tuple(int(c) for c in parse_cards(rest))
            elif key == "sides":
                sides = tuple(_parse_int(s, part, text) for s in rest.replace(",", " ").split())
            elif key in ("must-trump", "must_trump"):
                if rest.strip():
                    raise InvalidPositionError(f"'must-trump' takes nothing after it, not {part!r}, in {text!r}")
                must_trump = True
            elif key == "hands" or "/" in part:
                body = rest if key == "hands" else part
                hands = [_parse_hand(h, text) for h in body.split("/")]
            else:
                raise InvalidPositionError(f"unknown part {part!r} in position {text!r}")
        if not contract_seen:
            raise InvalidPositionError(f"no contract (one of {' '.join(CONTRACT_CODES)}) in position {text!r}")
        if hands is None:
            raise InvalidPositionError(f"no hands (separated by '/') in position {text!r}")
        if leader is None:
            raise NotOnLeadError(f"no 'lead N' part in position {text!r}")
        position = cls(tuple(hands), leader, trick, trump, misere, sides, must_trump)
        if to_move is not None and to_move != position.to_move:
            raise NotOnLeadError(f"player {to_move} is not to move in {text!r}: it is player {position.to_move}'s turn")
        return position

    def __str__(self) -> str:
        code = "MZ" if self.misere else "NT" if self.trump is None else "CDHS"[self.trump]
        parts = [code, f"lead {self.leader}"]
        if self.sides is not None:
            parts.append("sides " + " ".join(str(s) for s in self.sides))
        if self.must_trump:
            parts.append("must-trump")
        parts.append(" / ".join(CardSet(h).grouped() for h in self.hands))
        if self.trick:
            parts.append("trick " + " ".join(_card_name(c) for c in self.trick))
        return "; ".join(parts)

    def __repr__(self) -> str:
        if self.seats is not None and self.seats != tuple(range(len(self.hands))):
            return f"Position.from_text({str(self)!r}) with seats {self.seats!r}"
        return f"Position.from_text({str(self)!r})"


_INT = re.compile(r"[+-]?[0-9]+")
"""A number of the text form: ASCII digits only (``int`` also reads other scripts' digits and ``1_0``)."""


def _parse_int(word: str, part: str, text: str) -> int:
    try:
        if _INT.fullmatch(word.strip()) is None:
            raise ValueError(word)
        return int(word.strip())
    except ValueError:  # also a number of more digits than int() reads
        raise InvalidPositionError(f"expected a number in {part!r} of position {text!r}") from None


def _parse_hand(hand_text: str, text: str) -> int:
    body = hand_text.strip()
    if ":" not in body and "." in body:
        groups = body.split(".")
        if len(groups) != 4:
            raise CardParseError(f"dotted hand {body!r} in {text!r} needs 4 suits (spades first)")
        body = " ".join(f"{s}:{g or '-'}" for s, g in zip("SHDC", groups, strict=True))
    if body in ("", "-"):
        return 0
    return CardSet.from_str(body).mask

