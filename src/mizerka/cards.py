"""Cards, suits, ranks and sets of cards.

Everything here is game-neutral trick-taking machinery: Mizerka uses the whole 52-card deck, Preferans
the 32-card piquet deck (:data:`DECK_32`), and the same integers and masks serve both.

A card is an integer 0–51: ``card = 13 * suit + rank``, with suits ordered clubs, diamonds, hearts,
spades (bridge order) and ranks 2 (0) up to ace (12).  Within one suit a higher card is a higher bit, so
"the highest card of a suit in a hand" is a ``bit_length`` away.  :class:`Card` is a value type on top of
that int, and :class:`CardSet` is a 52-bit mask with the whole ``set`` API.

>>> Card.from_str("10h")
Card.from_str('TH')
>>> print(Card.from_str("q♠").unicode())
Q♠
>>> hand = CardSet.from_str("S:AKQ H:T92 D:- C:32")
>>> len(hand), Card.from_str("KS") in hand
(8, True)
>>> print(hand)
AS KS QS TH 9H 2H 3C 2C
>>> print(hand.grouped())
S:AKQ H:T92 D:- C:32
>>> CardSet.from_str(hand.grouped()) == hand
True
>>> print(hand & CardSet.suit(Suit.HEARTS))
TH 9H 2H
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator
from typing import Final, SupportsIndex

from mizerka._checks import shown

__all__ = [
    "ALL_CARDS_MASK",
    "CARDS",
    "DECK_32",
    "DECK_52",
    "SUIT_MASKS",
    "Card",
    "CardParseError",
    "CardSet",
    "Rank",
    "Suit",
    "mask_indices",
    "parse_cards",
]


class CardParseError(ValueError):
    """Text, an index or a mask that does not describe a card or a set of cards.  The message quotes the input."""


def _check_index(what: str, value: object, size: int) -> None:
    """Refuse anything but an int ``0 <= value < size`` (a bool is a flag, not an index).

    Raises:
        CardParseError: naming *what* and the value.
    """
    if type(value) is bool or not isinstance(value, int) or not 0 <= value < size:
        raise CardParseError(f"invalid {what}: {shown(value)} (expected an int 0-{size - 1})")


class Suit(enum.IntEnum):
    """The four suits, in bridge order (clubs lowest).

    >>> Suit.from_str("♥"), Suit.HEARTS.letter, Suit.HEARTS.symbol
    (<Suit.HEARTS: 2>, 'H', '♥')
    """

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        """One upper-case letter: ``C``, ``D``, ``H`` or ``S``."""
        return "CDHS"[self]

    @property
    def symbol(self) -> str:
        """The Unicode suit symbol: ``♣``, ``♦``, ``♥`` or ``♠``."""
        return "♣♦♥♠"[self]

    @property
    def is_red(self) -> bool:
        """Hearts and diamonds are red."""
        return self in (Suit.DIAMONDS, Suit.HEARTS)

    @classmethod
    def from_str(cls, text: str) -> Suit:
        """Parse a suit letter (any case), symbol or English name.

        Raises:
            CardParseError: if *text* names no suit.
        """
        if not isinstance(text, str):
            raise CardParseError(f"invalid suit: {shown(text)} (expected text)")
        key = text.strip().replace("\ufe0f", "").lower()
        try:
            return _SUIT_BY_TEXT[key]
        except KeyError:
            raise CardParseError(f"invalid suit: {shown(text)} (expected one of C D H S or ♣ ♦ ♥ ♠)") from None


class Rank(enum.IntEnum):
    """Card ranks, 2 lowest and ace highest (the order of every suit in Mizerka and Preferans).

    >>> Rank.from_str("10") is Rank.TEN, Rank.TEN.letter, Rank.TEN.label
    (True, 'T', '10')
    """

    TWO = 0
    THREE = 1
    FOUR = 2
    FIVE = 3
    SIX = 4
    SEVEN = 5
    EIGHT = 6
    NINE = 7
    TEN = 8
    JACK = 9
    QUEEN = 10
    KING = 11
    ACE = 12

    @property
    def letter(self) -> str:
        """One character: ``2``–``9``, ``T``, ``J``, ``Q``, ``K``, ``A``."""
        return "23456789TJQKA"[self]

    @property
    def label(self) -> str:
        """The printed index: like :attr:`letter`, but ten is ``10``."""
        return "10" if self is Rank.TEN else self.letter

    @classmethod
    def from_str(cls, text: str) -> Rank:
        """Parse ``2``–``10``, ``T``, ``J``, ``Q``, ``K`` or ``A`` in any case.

        Raises:
            CardParseError: if *text* names no rank.
        """
        if not isinstance(text, str):
            raise CardParseError(f"invalid rank: {shown(text)} (expected text)")
        key = text.strip().upper()
        try:
            return _RANK_BY_TEXT[key]
        except KeyError:
            raise CardParseError(f"invalid rank: {shown(text)} (expected one of 2-9, T or 10, J, Q, K, A)") from None


_SUIT_BY_TEXT: Final[dict[str, Suit]] = {}
for _suit in Suit:
    for _key in (_suit.letter, _suit.symbol, _suit.name, _suit.name[:-1]):
        _SUIT_BY_TEXT[_key.lower()] = _suit
for _key, _suit in (("♧", Suit.CLUBS), ("♢", Suit.DIAMONDS), ("♡", Suit.HEARTS), ("♤", Suit.SPADES)):
    _SUIT_BY_TEXT[_key] = _suit

_RANK_BY_TEXT: Final[dict[str, Rank]] = {r.letter: r for r in Rank}
_RANK_BY_TEXT["10"] = Rank.TEN


class Card(int):
    """One card: an int 0–51 (``13 * suit + rank``) with a value type on top.

    Cards compare and hash as their ints, so they index lists and build masks directly
    (``1 << card``).  ``str`` is the two-letter form, :meth:`unicode` the printed index with its
    symbol, and ``repr`` pastes back into Python.

    >>> card = Card.from_str("J♦")
    >>> int(card), card.suit, card.rank
    (22, <Suit.DIAMONDS: 1>, <Rank.JACK: 9>)
    >>> str(card), card.unicode(), Card(51)
    ('JD', 'J♦', Card.from_str('AS'))
    """

    __slots__ = ()

    def __new__(cls, value: SupportsIndex) -> Card:
        if isinstance(value, str):
            raise CardParseError(f"invalid card index: {shown(value)} (an int 0-51; Card.from_str reads text)")
        if type(value) is bool:  # True == 1, but a flag is no card
            raise CardParseError(f"invalid card index: {shown(value)} (expected an int 0-51, not a bool)")
        try:
            index = value.__index__()
        except AttributeError:
            raise CardParseError(f"invalid card index: {shown(value)} (expected an int 0-51)") from None
        if not 0 <= index < 52:
            raise CardParseError(f"invalid card index: {shown(index)} (expected 0-51)")
        return super().__new__(cls, index)

    @classmethod
    def make(cls, rank: Rank | int, suit: Suit | int) -> Card:
        """The card of *rank* (0–12) in *suit* (0–3).

        >>> Card.make(Rank.QUEEN, Suit.HEARTS)
        Card.from_str('QH')

        Raises:
            CardParseError: for a rank or suit out of range (``13 * suit + rank`` alone would silently name
                another card: rank 13 of clubs is the two of diamonds).
        """
        _check_index("rank", rank, 13)
        _check_index("suit", suit, 4)
        return CARDS[13 * suit + rank]

    @property
    def suit(self) -> Suit:
        return Suit(self // 13)

    @property
    def rank(self) -> Rank:
        return Rank(self % 13)

    @property
    def mask(self) -> int:
        """The one-bit mask of this card."""
        return 1 << self

    @classmethod
    def from_str(cls, text: str) -> Card:
        """Parse one card: rank then suit (``AS``, ``10♥``, ``t♥``) or suit then rank (``SA``, ``♥10``).

        Raises:
            CardParseError: if *text* is not exactly one card; the message quotes it.
        """
        if not isinstance(text, str):
            raise CardParseError(f"invalid card: {shown(text)} (expected text like 'AS')")
        key = text.strip().replace("\ufe0f", "").upper()
        card = _CARD_BY_TEXT.get(key)
        if card is None:
            raise CardParseError(f"invalid card: {shown(text)} (expected a rank and a suit, like 'AS', '10♥' or 'T♥')")
        return card

    def unicode(self) -> str:
        """The printed form: index and suit symbol, e.g. ``10♥``."""
        return self.rank.label + self.suit.symbol

    def __str__(self) -> str:
        return "23456789TJQKA"[self % 13] + "CDHS"[self // 13]

    def __repr__(self) -> str:
        return f"Card.from_str({str(self)!r})"


CARDS: Final[tuple[Card, ...]] = tuple(int.__new__(Card, i) for i in range(52))
"""The 52 :class:`Card` objects, indexed by their int."""

_CARD_BY_TEXT: Final[dict[str, Card]] = {}
for _card in CARDS:
    _rank, _s = Rank(_card % 13), Suit(_card // 13)
    for _rank_text in {_rank.letter, _rank.label}:
        for _suit_text in (_s.letter, _s.symbol):
            _CARD_BY_TEXT[_rank_text + _suit_text] = _card
            _CARD_BY_TEXT[_suit_text + _rank_text] = _card
for _white, _black in zip("♧♢♡♤", "♣♦♥♠", strict=True):
    for _key2, _card in list(_CARD_BY_TEXT.items()):
        if _black in _key2:
            _CARD_BY_TEXT[_key2.replace(_black, _white)] = _card

ALL_CARDS_MASK: Final = (1 << 52) - 1
SUIT_MASKS: Final[tuple[int, int, int, int]] = (0x1FFF, 0x1FFF << 13, 0x1FFF << 26, 0x1FFF << 39)
"""The 13-bit mask of each suit, indexed by :class:`Suit`."""


def parse_cards(text: str) -> list[Card]:
    """Parse cards separated by spaces or commas, in the order given (duplicates kept).

    >>> parse_cards("AS, 10h 2♣")
    [Card.from_str('AS'), Card.from_str('TH'), Card.from_str('2C')]

    Raises:
        CardParseError: naming the first token that is not a card.
    """
    if not isinstance(text, str):
        raise CardParseError(f"invalid cards: {shown(text)} (expected text like 'AS KH')")
    tokens = text.replace(",", " ").split()
    cards: list[Card] = []
    for token in tokens:
        try:
            cards.append(Card.from_str(token))
        except CardParseError:
            raise CardParseError(f"invalid card {shown(token)} in {shown(text)}") from None
    return cards


def mask_indices(mask: int) -> list[int]:
    """The card ints in a mask, ascending: the loop every search over masks needs.

    >>> mask_indices(0b1010_0000_0000_0001)
    [0, 13, 15]

    Raises:
        CardParseError: for a negative mask (in two's complement it has infinitely many bits set).
    """
    indices = []
    while mask > 0:  # not ``while mask``: a negative mask never runs out of bits
        low = mask & -mask
        indices.append(low.bit_length() - 1)
        mask ^= low
    if mask:  # checked after the loop, so a valid mask pays nothing for it
        raise CardParseError(f"invalid card mask: {shown(mask)} (expected a non-negative int)")
    return indices


_set_mask = object.__setattr__


class CardSet:
    """An immutable set of cards stored as a 52-bit mask, with the whole ``frozenset`` API.

    Iteration is in ascending card order (clubs 2 first).  ``str`` lists the cards from spades down to
    clubs, high to low; :meth:`grouped` writes a hand by suit, and :meth:`from_str` reads both forms.

    >>> a = CardSet.from_str("AS KS 2C")
    >>> b = CardSet.from_str("KS QH")
    >>> print(a | b, "/", a & b, "/", a - b, "/", a ^ b)
    AS KS QH 2C / KS / AS 2C / AS QH 2C
    >>> a > CardSet.from_str("AS"), int(CardSet.from_str("2C 3C"))
    (True, 3)
    >>> CardSet.from_str("AS 2C")
    CardSet.from_str('AS 2C')
    """

    __slots__ = ("mask",)

    mask: int

    def __init__(self, cards: int | Iterable[int] = 0) -> None:
        """A set from a 52-bit mask (an int) or from card ints / :class:`Card` objects.

        Raises:
            CardParseError: for a mask outside 52 bits, a card that is not an int 0–51, text (use
                :meth:`from_str`), a bool, or anything else that is neither an int nor an iterable.
        """
        if isinstance(cards, int):
            if type(cards) is bool:
                raise CardParseError(f"invalid cards: {shown(cards)} (a 52-bit mask or card ints, not a bool)")
            mask = int(cards)
            if mask & ~ALL_CARDS_MASK:
                raise CardParseError(f"invalid card mask: {shown(cards)} (expected a 52-bit mask)")
        else:
            if isinstance(cards, str):
                raise CardParseError(f"invalid cards: {shown(cards)} (ints 0-51; CardSet.from_str reads text)")
            mask = 0
            try:
                for card in cards:
                    try:
                        index = card.__index__()
                    except AttributeError:
                        raise CardParseError(f"invalid card index: {shown(card)} (expected an int 0-51)") from None
                    if not 1 < index < 52 and (not 0 <= index < 52 or card is True or card is False):
                        # a bool is a flag, not card 0 or 1 (asked only of indices 0 and 1: they cost nothing more)
                        raise CardParseError(f"invalid card index: {shown(card)} (expected an int 0-51)")
                    mask |= 1 << index
            except TypeError:  # not iterable (None, 3.0), or an element whose __index__ refuses
                raise CardParseError(
                    f"invalid cards: {cards!r} (expected a 52-bit mask or an iterable of card ints)"
                ) from None
        object.__setattr__(self, "mask", mask)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("CardSet is immutable")

    @classmethod
    def from_mask(cls, mask: int) -> CardSet:
        """A set from a mask already known to be valid (no checks: for hot paths inside the library)."""
        self = object.__new__(cls)
        _set_mask(self, "mask", mask)
        return self

    # -- text -------------------------------------------------------------------------------------

    @classmethod
    def from_str(cls, text: str) -> CardSet:
        """Parse a list of cards (``AS KH 10♦``) or a hand grouped by suit (``S:AKQ H:T92 D:- C:32``).

        Duplicates are an error: a set cannot hold a card twice.

        Raises:
            CardParseError: quoting the input and the bad part.
        """
        if not isinstance(text, str):
            raise CardParseError(f"invalid cards: {shown(text)} (expected text like 'AS KH' or 'S:AK H:-')")
        mask = 0
        if ":" in text:
            seen_suits: set[Suit] = set()
            for group in text.split():
                suit_text, sep, ranks = group.partition(":")
                if not sep:
                    raise CardParseError(f"invalid suit group {shown(group)} in {shown(text)} (expected like 'S:AKQ')")
                try:
                    suit = Suit.from_str(suit_text)
                except CardParseError:
                    raise CardParseError(f"invalid suit {shown(suit_text)} in {shown(text)}") from None
                if suit in seen_suits:
                    raise CardParseError(f"suit {suit.letter} given twice in {shown(text)}")
                seen_suits.add(suit)
                if ranks in ("-", ""):
                    continue
                i = 0
                while i < len(ranks):
                    step = 2 if ranks.startswith("10", i) else 1
                    try:
                        rank = Rank.from_str(ranks[i : i + step])
                    except CardParseError:
                        raise CardParseError(f"invalid rank {ranks[i : i + step]!r} in {shown(text)}") from None
                    bit = 1 << (13 * suit + rank)
                    if mask & bit:
                        raise CardParseError(f"duplicate card {CARDS[13 * suit + rank]} in {shown(text)}")
                    mask |= bit
                    i += step
            return cls(mask)
        for card in parse_cards(text):
            bit = 1 << card
            if mask & bit:
                raise CardParseError(f"duplicate card {card} in {shown(text)}")
            mask |= bit
        return cls(mask)

    def cards(self) -> list[Card]:
        """The cards in display order: spades down to clubs, high to low in each suit."""
        return sorted((CARDS[c] for c in mask_indices(self.mask)), key=lambda c: (-(c // 13), -(c % 13)))

    def __str__(self) -> str:
        return " ".join(str(c) for c in self.cards())

    def unicode(self) -> str:
        """Display order with printed indices and suit symbols: ``A♠ 10♥ 2♣``."""
        return " ".join(c.unicode() for c in self.cards())

    def grouped(self, *, unicode: bool = False) -> str:
        """The hand grouped by suit, spades first: ``S:AKQ H:T92 D:- C:32`` (or ``♠:AKQ …``)."""
        parts = []
        for suit in reversed(Suit):
            bits = (self.mask >> (13 * suit)) & 0x1FFF
            ranks = "".join(
                (Rank(r).label if unicode else Rank(r).letter) for r in range(12, -1, -1) if bits >> r & 1
            )
            parts.append(f"{suit.symbol if unicode else suit.letter}:{ranks or '-'}")
        return " ".join(parts)

    def __repr__(self) -> str:
        return f"CardSet.from_str({str(self)!r})" if self.mask else "CardSet()"

    # -- constructors -----------------------------------------------------------------------------

    @classmethod
    def suit(cls, suit: Suit | int) -> CardSet:
        """All 13 cards of one suit.

        Raises:
            CardParseError: for a suit that is not 0–3 (``SUIT_MASKS[-1]`` would be spades).
        """
        _check_index("suit", suit, 4)
        return cls.from_mask(SUIT_MASKS[suit])

    @classmethod
    def full(cls) -> CardSet:
        """The 52-card deck."""
        return cls(ALL_CARDS_MASK)

    # -- set protocol -----------------------------------------------------------------------------

    def __contains__(self, card: object) -> bool:
        if not isinstance(card, int) or not 0 <= card < 52:
            return False
        return bool(self.mask >> card & 1)

    def __iter__(self) -> Iterator[Card]:
        # listed eagerly: a set has at most 52 cards, and a list iterates faster than a generator
        cards = []
        mask = self.mask
        while mask:
            low = mask & -mask
            cards.append(CARDS[low.bit_length() - 1])
            mask ^= low
        return iter(cards)

    def __reversed__(self) -> Iterator[Card]:
        mask = self.mask
        while mask:
            index = mask.bit_length() - 1
            yield CARDS[index]
            mask ^= 1 << index

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __bool__(self) -> bool:
        return bool(self.mask)

    def __int__(self) -> int:
        return self.mask

    def __index__(self) -> int:
        return self.mask

    def __hash__(self) -> int:
        # A CardSet equals the built-in set of its card ints (see __eq__), so it hashes like that frozenset:
        # equal objects must hash equal, or a dict or set could hold both as different keys.
        return hash(frozenset(mask_indices(self.mask)))

    def __eq__(self, other: object) -> bool:
        """Equal to another CardSet with the same cards, or to a ``set``/``frozenset`` exactly when the
        frozenset of this set's card ints is (so ``{"x"}`` or ``{99}`` is simply unequal)."""
        if isinstance(other, CardSet):
            return self.mask == other.mask
        if isinstance(other, (set, frozenset)):
            return frozenset(mask_indices(self.mask)) == other
        return NotImplemented

    @staticmethod
    def _coerce(other: object) -> CardSet:
        if isinstance(other, CardSet):
            return other
        if isinstance(other, Iterable):
            return CardSet(other)
        raise TypeError(f"expected a CardSet or an iterable of cards, not {type(other).__name__}")

    def __or__(self, other: CardSet | Iterable[int]) -> CardSet:
        return CardSet(self.mask | CardSet._coerce(other).mask)

    __ror__ = __or__

    def __and__(self, other: CardSet | Iterable[int]) -> CardSet:
        return CardSet(self.mask & CardSet._coerce(other).mask)

    __rand__ = __and__

    def __sub__(self, other: CardSet | Iterable[int]) -> CardSet:
        return CardSet(self.mask & ~CardSet._coerce(other).mask)

    def __rsub__(self, other: CardSet | Iterable[int]) -> CardSet:
        return CardSet(CardSet._coerce(other).mask & ~self.mask)

    def __xor__(self, other: CardSet | Iterable[int]) -> CardSet:
        return CardSet(self.mask ^ CardSet._coerce(other).mask)

    __rxor__ = __xor__

    def __invert__(self) -> CardSet:
        """The complement within the 52-card deck."""
        return CardSet(ALL_CARDS_MASK & ~self.mask)

    def __le__(self, other: CardSet | Iterable[int]) -> bool:
        return self.mask & ~CardSet._coerce(other).mask == 0

    def __lt__(self, other: CardSet | Iterable[int]) -> bool:
        mask = CardSet._coerce(other).mask
        return self.mask != mask and self.mask & ~mask == 0

    def __ge__(self, other: CardSet | Iterable[int]) -> bool:
        return CardSet._coerce(other).mask & ~self.mask == 0

    def __gt__(self, other: CardSet | Iterable[int]) -> bool:
        mask = CardSet._coerce(other).mask
        return self.mask != mask and mask & ~self.mask == 0

    def union(self, *others: Iterable[int]) -> CardSet:
        mask = self.mask
        for other in others:
            mask |= CardSet._coerce(other).mask
        return CardSet(mask)

    def intersection(self, *others: Iterable[int]) -> CardSet:
        mask = self.mask
        for other in others:
            mask &= CardSet._coerce(other).mask
        return CardSet(mask)

    def difference(self, *others: Iterable[int]) -> CardSet:
        mask = self.mask
        for other in others:
            mask &= ~CardSet._coerce(other).mask
        return CardSet(mask)

    def symmetric_difference(self, other: Iterable[int]) -> CardSet:
        return self ^ CardSet._coerce(other)

    def isdisjoint(self, other: Iterable[int]) -> bool:
        return not self.mask & CardSet._coerce(other).mask

    def issubset(self, other: Iterable[int]) -> bool:
        return self <= CardSet._coerce(other)

    def issuperset(self, other: Iterable[int]) -> bool:
        return self >= CardSet._coerce(other)

    def copy(self) -> CardSet:
        return self

    def __copy__(self) -> CardSet:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> CardSet:
        return self

    def __reduce__(self) -> tuple[type[CardSet], tuple[int]]:
        return CardSet, (self.mask,)

    # -- card-game helpers ------------------------------------------------------------------------

    def of_suit(self, suit: Suit | int) -> CardSet:
        """The cards of one suit in this set.

        Raises:
            CardParseError: for a suit that is not 0–3.
        """
        _check_index("suit", suit, 4)
        return CardSet.from_mask(self.mask & SUIT_MASKS[suit])

    def highest(self) -> Card:
        """The card with the highest index (the highest spade, else the highest heart, …).

        Raises:
            ValueError: if the set is empty.
        """
        if not self.mask:
            raise ValueError("highest() of an empty CardSet")
        return CARDS[self.mask.bit_length() - 1]

    def lowest(self) -> Card:
        """The card with the lowest index.

        Raises:
            ValueError: if the set is empty.
        """
        if not self.mask:
            raise ValueError("lowest() of an empty CardSet")
        return CARDS[(self.mask & -self.mask).bit_length() - 1]


DECK_52: Final = CardSet(ALL_CARDS_MASK)
"""The Mizerka deck: 52 cards."""

DECK_32: Final = CardSet(sum(((1 << 8) - 1) << (13 * s + 5) for s in range(4)))
"""The piquet deck of Preferans: 7 to ace in each suit, 32 cards."""
