"""Contracts, seat roles, quotas, and the named rule variants of Mizerka.

Everything here follows ``RULES.md`` §8 of the project's rule book.  A :class:`Rules` object is an
immutable bundle of options; :data:`VARIANTS` holds the named variants and :func:`parse_variant`
reads a variant name with options, as the command line and game records write it.

>>> rules = get_variant("standard")
>>> rules.n_deals, rules.quota(Role.FOREHAND, Contract.HEARTS), rules.quota(Role.FOREHAND, Contract.MIZERKA)
(18, 7, 1)
>>> short = parse_variant("standard,contracts=NT+MZ,first_dealer=2")
>>> short.n_deals, [str(c) for c in short.contracts], short.first_dealer
(6, ['NT', 'MZ'], 2)
>>> get_variant("four-players").n_deals
24
"""

from __future__ import annotations

import contextlib
import dataclasses
import enum
import warnings
from typing import Final

from mizerka._checks import shown, whole_number
from mizerka.cards import Suit

__all__ = [
    "STANDARD",
    "VARIANTS",
    "Contract",
    "DealPattern",
    "ExchangeMode",
    "Role",
    "Rules",
    "RulesError",
    "check_seat",
    "get_variant",
    "parse_variant",
]


class RulesError(ValueError):
    """An unknown variant, a bad option, or a combination of options that cannot be played."""


class Contract(enum.IntEnum):
    """The six contracts.  The four suit contracts make that suit trumps; no-trump and Mizerka have none.

    In Mizerka the aim is to *avoid* tricks; in every other ("ordinary") contract it is to take them.

    >>> Contract.from_str("nt"), Contract.from_str("♦"), Contract.from_str("mizerka")
    (<Contract.NO_TRUMP: 4>, <Contract.DIAMONDS: 1>, <Contract.MIZERKA: 5>)
    >>> Contract.HEARTS.trump, Contract.MIZERKA.goal
    (<Suit.HEARTS: 2>, 'avoid')
    """

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3
    NO_TRUMP = 4
    MIZERKA = 5

    @property
    def trump(self) -> Suit | None:
        """The trump suit, or ``None`` in no-trump and Mizerka."""
        return Suit(self.value) if self.value < 4 else None

    @property
    def is_mizerka(self) -> bool:
        return self is Contract.MIZERKA

    @property
    def goal(self) -> str:
        """``"take"`` for the ordinary contracts, ``"avoid"`` for Mizerka (the score sheet's header)."""
        return "avoid" if self is Contract.MIZERKA else "take"

    @property
    def symbol(self) -> str:
        """``♣ ♦ ♥ ♠ NT MZ``: the short printed form."""
        return ("♣", "♦", "♥", "♠", "NT", "MZ")[self]

    @property
    def label(self) -> str:
        """The English name: ``clubs``, …, ``no-trump``, ``Mizerka``."""
        return ("clubs", "diamonds", "hearts", "spades", "no-trump", "Mizerka")[self]

    def __str__(self) -> str:
        return ("C", "D", "H", "S", "NT", "MZ")[self]

    @classmethod
    def from_str(cls, text: str) -> Contract:
        """Parse ``C D H S NT MZ``, the one-letter ``N`` and ``M``, ``DIA``, a suit symbol or name,
        ``no-trump``/``sans``, ``mizerka``.

        >>> Contract.from_str("n"), Contract.from_str("♠"), Contract.from_str("mizerka")
        (<Contract.NO_TRUMP: 4>, <Contract.SPADES: 3>, <Contract.MIZERKA: 5>)

        Raises:
            RulesError: if *text* names no contract; the message quotes it.
        """
        if not isinstance(text, str):
            raise RulesError(f"invalid contract: {shown(text)} (expected text like 'NT')")
        key = text.strip().replace("\ufe0f", "").lower().replace("_", "-").replace(" ", "-")
        try:
            return _CONTRACT_BY_TEXT[key]
        except KeyError:
            raise RulesError(
                f"invalid contract: {shown(text)} (expected one of C, D, H, S, NT, MZ or a suit symbol)"
            ) from None


_MIZERKA: Final = Contract.MIZERKA  # a module name: reading an enum member costs a descriptor call in Python 3.11

_CONTRACT_BY_TEXT: Final[dict[str, Contract]] = {}
for _c in Contract:
    for _key in (str(_c), _c.symbol, _c.label, _c.name, _c.name.replace("_", "-")):
        _CONTRACT_BY_TEXT[_key.lower()] = _c
for _key, _c in {
    "dia": Contract.DIAMONDS, "club": Contract.CLUBS, "diamond": Contract.DIAMONDS, "heart": Contract.HEARTS,
    "spade": Contract.SPADES, "notrump": Contract.NO_TRUMP, "no-trumps": Contract.NO_TRUMP,
    "notrumps": Contract.NO_TRUMP, "sans": Contract.NO_TRUMP, "n": Contract.NO_TRUMP, "m": Contract.MIZERKA,
    "♧": Contract.CLUBS, "♢": Contract.DIAMONDS, "♡": Contract.HEARTS, "♤": Contract.SPADES,
}.items():
    _CONTRACT_BY_TEXT[_key] = _c


class Role(enum.IntEnum):
    """A seat's role in one deal, in order of play to the first trick.

    Forehand sits at the dealer's left, chooses the contract and leads; middlehand sits at the
    dealer's right; the dealer plays third.  (With four at the table the dealer sits out and the
    third role, with the dealer's quotas, goes to the dealer's right.)
    """

    FOREHAND = 0
    MIDDLEHAND = 1
    DEALER = 2

    @property
    def short(self) -> str:
        return ("FH", "MH", "D")[self]


class DealPattern(enum.Enum):
    """How the deck order is dealt (RULES.md §2.2, §3.3).  Both patterns are equivalent in play."""

    ROUND_ROBIN_4_PILES = "round-robin"
    """One card at a time to forehand, middlehand, dealer and the talon; the talon's top is the last card."""
    SEED002_BLOCKS = "seed002-blocks"
    """Rounds of three to the players (6, then 7 each); the talon is the last 13 cards, the first on top."""


class ExchangeMode(enum.Enum):
    """What happens with the talon (RULES.md §2.5, §3.3)."""

    STANDARD = "standard"
    """One blind exchange each: forehand, middlehand, dealer, limited by the cards left in the talon."""
    NONE = "none"
    """No exchange; the 13-card talon is dead."""
    REPLENISH = "replenish"
    """Seed 002 as written: one stock card set aside, then each player draws after playing while the stock lasts."""


@dataclasses.dataclass(frozen=True)
class Rules:
    """One complete set of rules.  Build variants with :func:`get_variant`, :func:`parse_variant` or
    :meth:`replace`; the constructor checks that the combination can be played.

    Attributes:
        name: the variant's name, as records and the command line write it.
        n_seats: players at the table, 3, or 4 when the dealer sits out each deal.
        contracts: the contracts each player must choose.
        uses_per_contract: how often each player chooses each contract.
        global_unique_contracts: a contract, once chosen by anybody, is gone for everyone (short match).
        quota_ordinary, quota_mizerka: tricks expected of forehand, middlehand, dealer.
        cards_before_choice: how many cards each player holds when forehand chooses.
        deal_pattern: see :class:`DealPattern`.
        exchange_mode: see :class:`ExchangeMode`.
        show_trump_card: in a trump contract the top talon card is turned up as a reminder (never changes trumps).
        first_dealer: the seat that deals first, or ``None`` to draw it by lot from the match's seed.
        source: where the rule comes from.
    """

    name: str = "standard"
    n_seats: int = 3
    contracts: tuple[Contract, ...] = tuple(Contract)
    uses_per_contract: int = 1
    global_unique_contracts: bool = False
    quota_ordinary: tuple[int, int, int] = (7, 5, 1)
    quota_mizerka: tuple[int, int, int] = (1, 5, 7)
    cards_before_choice: int = 6
    deal_pattern: DealPattern = DealPattern.ROUND_ROBIN_4_PILES
    exchange_mode: ExchangeMode = ExchangeMode.STANDARD
    show_trump_card: bool = False
    first_dealer: int | None = None
    source: str = "RULES.md §8 (PAGAT, S000, C4A, OGR; S002 scoring)"

    def __post_init__(self) -> None:
        for name, text in (("name", self.name), ("source", self.source)):
            if not isinstance(text, str):
                raise RulesError(f"{name} must be text, not {text!r}")
        for name, flag in (("global_unique_contracts", self.global_unique_contracts),
                           ("show_trump_card", self.show_trump_card)):
            if type(flag) is not bool:  # 'no' is truthy: a flag must be True or False
                raise RulesError(f"{name} must be True or False, not {flag!r}")
        if self.first_dealer is not None and (
            type(self.first_dealer) is bool or not isinstance(self.first_dealer, int)
        ):
            raise RulesError(f"first_dealer must be a seat number or None (by lot), not {self.first_dealer!r}")
        for name, value in (("n_seats", self.n_seats), ("uses_per_contract", self.uses_per_contract),
                            ("cards_before_choice", self.cards_before_choice)):
            if not isinstance(value, int) or isinstance(value, bool):
                raise RulesError(f"{name} must be a whole number, not {value!r}")
        for name, quotas in (("quota_ordinary", self.quota_ordinary), ("quota_mizerka", self.quota_mizerka)):
            if not isinstance(quotas, tuple) or any(not isinstance(q, int) or isinstance(q, bool) for q in quotas):
                raise RulesError(f"{name} must be a tuple of three whole numbers, not {quotas!r}")
        if not isinstance(self.contracts, tuple) or any(not isinstance(c, Contract) for c in self.contracts):
            raise RulesError(f"contracts must be a tuple of Contract values, not {self.contracts!r}")
        if not isinstance(self.deal_pattern, DealPattern) or not isinstance(self.exchange_mode, ExchangeMode):
            raise RulesError("deal_pattern and exchange_mode must be DealPattern and ExchangeMode values")
        if self.n_seats not in (3, 4):
            raise RulesError(f"n_seats must be 3 or 4, not {self.n_seats!r}")
        if not self.contracts:
            raise RulesError("the contract list is empty")
        if len(set(self.contracts)) != len(self.contracts):
            raise RulesError(f"a contract is listed twice in {[str(c) for c in self.contracts]}")
        if not 1 <= self.uses_per_contract <= 6:
            raise RulesError(f"uses_per_contract must be 1-6, not {self.uses_per_contract!r}")
        if self.deal_pattern is DealPattern.SEED002_BLOCKS and self.cards_before_choice != 6:
            raise RulesError("the seed002-blocks deal pauses after exactly 6 cards")
        if not 1 <= self.cards_before_choice <= 13:
            raise RulesError(f"cards_before_choice must be 1-13, not {self.cards_before_choice!r}")
        for quotas in (self.quota_ordinary, self.quota_mizerka):
            if len(quotas) != 3 or any(not 0 <= q <= self.n_tricks for q in quotas):
                raise RulesError(f"quotas must be three numbers 0-{self.n_tricks}, not {quotas!r}")
        if self.first_dealer is not None and not 0 <= self.first_dealer < self.n_seats:
            raise RulesError(f"first_dealer must be a seat 0-{self.n_seats - 1}, not {self.first_dealer!r}")
        if self.exchange_mode is ExchangeMode.REPLENISH and self.n_seats != 3:
            raise RulesError("the replenishing deal of seed 002 is for three players")
        if self.zero_sum_note is not None:
            warnings.warn(self.zero_sum_note, stacklevel=3)

    @property
    def n_tricks(self) -> int:
        """Tricks per deal: 13, or 17 when the players replenish from the stock (seed 002 literal)."""
        return 17 if self.exchange_mode is ExchangeMode.REPLENISH else 13

    @property
    def zero_sum(self) -> bool:
        """Whether every deal's scores add up to zero (the quotas add up to the tricks)."""
        return sum(self.quota_ordinary) == self.n_tricks and sum(self.quota_mizerka) == self.n_tricks

    @property
    def zero_sum_note(self) -> str | None:
        """What a user is told about a variant whose scores are not zero-sum (``None`` for one whose are).

        >>> get_variant("seed002-literal").zero_sum_note.split(": ")[1]
        'quotas (7, 5, 1) / (1, 5, 7) do not add up to the 17 tricks of a deal, so scores are not zero-sum'
        >>> print(get_variant("standard").zero_sum_note)
        None
        >>> parse_variant("standard,quota_ordinary=7/5/2").zero_sum_note.split(":")[0]
        "variant 'standard,quota_ordinary=7/5/2'"
        """
        if self.zero_sum:
            return None
        label = self.name
        if "VARIANTS" in globals():  # the options too (not while the variant table itself is being made)
            with contextlib.suppress(RulesError):  # rules no spec can write: their name, as before
                label = self.spec()
        return (f"variant {label!r}: quotas {self.quota_ordinary} / {self.quota_mizerka} do not add up to "
                f"the {self.n_tricks} tricks of a deal, so scores are not zero-sum")

    @property
    def n_deals(self) -> int:
        """Deals in a match: every player chooses every contract ``uses_per_contract`` times."""
        if self.global_unique_contracts:
            return len(self.contracts) * self.uses_per_contract
        return self.n_seats * len(self.contracts) * self.uses_per_contract

    def quota(self, role: Role | int, contract: Contract) -> int:
        """Tricks expected of *role* (0–2, forehand to dealer) in *contract*.

        Raises:
            RulesError: for a role that is not 0–2 or a contract that is not a :class:`Contract` (or its int):
                ``quota_ordinary[-1]`` would be the dealer's, and ``"MZ"`` is not ``Contract.MIZERKA``.
        """
        if type(contract) is not Contract:
            contract = _contract_arg(contract)
        if (type(role) is not int and type(role) is not Role) or not 0 <= role <= 2:
            _check_role(role)
        return self.quota_mizerka[role] if contract is _MIZERKA else self.quota_ordinary[role]

    def score(self, role: Role | int, contract: Contract, tricks: int) -> int:
        """A deal's score: tricks − quota, or quota − tricks in Mizerka.

        >>> STANDARD.score(Role.FOREHAND, Contract.HEARTS, 9), STANDARD.score(Role.FOREHAND, Contract.MIZERKA, 9)
        (2, -8)

        Raises:
            RulesError: for a role or contract that :meth:`quota` refuses, or a trick count that is no whole number
                from 0 to :attr:`n_tricks` (a deal has no more tricks to take).
        """
        quota = self.quota(role, contract)
        count = whole_number(tricks)
        if count is None or not 0 <= count <= self.n_tricks:
            raise RulesError(f"tricks must be a whole number 0-{self.n_tricks}, not {tricks!r}")
        return quota - count if contract == _MIZERKA else count - quota

    def replace(self, **changes: object) -> Rules:
        """A copy with some options changed, checked like the constructor.

        Raises:
            RulesError: for an unknown option or a combination that cannot be played.
        """
        fields = {f.name for f in dataclasses.fields(self)}
        unknown = sorted(set(changes) - fields)
        if unknown:
            raise RulesError(f"unknown rules option(s): {', '.join(unknown)}")
        try:
            return dataclasses.replace(self, **changes)  # type: ignore[arg-type]
        except TypeError as error:
            raise RulesError(str(error)) from None

    def spec(self) -> str:
        """The text :func:`parse_variant` reads back to equal rules: the variant's name plus the changed options.

        >>> STANDARD.replace(uses_per_contract=2, show_trump_card=True).spec()
        'standard,show_trump_card,uses=2'

        Only the options of :data:`OPTIONS_HELP` can be written; the rest (the number of seats, the exchange
        mode, the cards dealt before the choice, the source) come with a named variant.

        Raises:
            RulesError: naming the first field that no variant spec can express (a name that is not a
                variant, or a field that differs from the named variant's), rather than text that reads
                back to other rules.
        """
        base = VARIANTS.get(self.name)
        if base is None:
            raise RulesError(
                f"rules named {self.name!r} cannot be written as a variant spec (known: {', '.join(VARIANTS)})"
            )
        for field in _FIXED_BY_NAME:
            value = getattr(self, field)
            if value != getattr(base, field):
                raise RulesError(
                    f"{field}={value!r} cannot be written as a variant spec: no option sets it, and the "
                    f"{self.name!r} variant has {getattr(base, field)!r}"
                )
        parts = [self.name]
        if self.deal_pattern is not base.deal_pattern:
            parts.append("seed002-blocks" if self.deal_pattern is DealPattern.SEED002_BLOCKS else "round-robin")
        if self.show_trump_card != base.show_trump_card:
            parts.append("show_trump_card" if self.show_trump_card else "show_trump_card=no")
        if self.first_dealer != base.first_dealer:
            parts.append(f"first_dealer={'lot' if self.first_dealer is None else self.first_dealer}")
        if self.contracts != base.contracts:
            parts.append("contracts=" + "+".join(str(c) for c in self.contracts))
        if self.uses_per_contract != base.uses_per_contract:
            parts.append(f"uses={self.uses_per_contract}")
        if self.global_unique_contracts != base.global_unique_contracts:
            parts.append("global_unique" if self.global_unique_contracts else "global_unique=no")
        if self.quota_ordinary != base.quota_ordinary:
            parts.append("quota_ordinary=" + "/".join(map(str, self.quota_ordinary)))
        if self.quota_mizerka != base.quota_mizerka:
            parts.append("quota_mizerka=" + "/".join(map(str, self.quota_mizerka)))
        return ",".join(parts)


_FIXED_BY_NAME: Final = ("n_seats", "exchange_mode", "cards_before_choice", "source")
"""The fields of :class:`Rules` that only a variant's name sets: :meth:`Rules.spec` cannot write other values."""


def _contract_arg(value: object) -> Contract:
    """*value* as a contract for :meth:`Rules.quota` and :meth:`Rules.score`: a Contract or its int 0–5.

    Raises:
        RulesError: for anything else, such as text (use :meth:`Contract.from_str`) or a bool.
    """
    if type(value) is bool or not isinstance(value, int) or not 0 <= value <= 5:
        raise RulesError(f"invalid contract: {shown(value)} (expected a Contract, see Contract.from_str)")
    return Contract(value)


def check_seat(seat: object, n_seats: int, *, spectator: bool = False) -> int:
    """*seat* as a seat number of a table of *n_seats* (``spectator``: the caller also takes ``None``, and the
    message says so).

    Raises:
        RulesError: for anything that is not a seat at this table (a bool is no seat).
    """
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n_seats:
        also = ", or None for a spectator" if spectator else ""
        raise RulesError(f"invalid seat: {seat!r} (expected 0-{n_seats - 1}{also})")
    return seat


def _check_role(value: object) -> None:
    """Refuse anything but a role 0–2 (a :class:`Role` or its int).

    Raises:
        RulesError: naming the value.
    """
    if type(value) is bool or not isinstance(value, int) or not 0 <= value <= 2:
        raise RulesError(f"invalid role: {value!r} (expected a Role or 0-2)")


STANDARD: Final = Rules()
"""The standard game (RULES.md §8, V0): PAGAT's rules, clarified by S000, C4A and OGR; S002's scoring."""


def _make_variants() -> dict[str, Rules]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        literal = Rules(
            name="seed002-literal",
            deal_pattern=DealPattern.SEED002_BLOCKS,
            exchange_mode=ExchangeMode.REPLENISH,
            show_trump_card=True,
            source="S002 as written (RULES.md §3.2–3.3): 17 tricks, drawing in tricks 1–4; not zero-sum",
        )
    return {
        "standard": STANDARD,
        "no-exchange": Rules(
            name="no-exchange",
            exchange_mode=ExchangeMode.NONE,
            source="S002 read without its inconsistent drawing sentence (RULES.md §3.3)",
        ),
        "four-players": Rules(
            name="four-players",
            n_seats=4,
            source="PAGAT-DE: four at the table, the dealer sits out (RULES.md §4 V1; quota mapping derived)",
        ),
        "seed002-literal": literal,
    }


VARIANTS: Final[dict[str, Rules]] = _make_variants()
"""The named variants.  Each one's ``source`` names where it comes from."""

OPTIONS_HELP: Final = {
    "show_trump_card": "turn up the top talon card in a trump contract, as a reminder only (S002)",
    "seed002-blocks": "deal in rounds of three, 6 then 7 each, the talon being the last 13 cards (S002)",
    "first_dealer=N": "seat N deals first (default: drawn by lot from the match seed)",
    "contracts=NT+MZ+…": "the contracts of a shorter or custom match (C4A mentions a short variant)",
    "uses=N": "how many times each player chooses each contract",
    "global_unique": "each contract is played once in total, whoever chooses it (short match)",
    "quota_ordinary=7/5/1, quota_mizerka=1/5/7": "quotas of forehand/middlehand/dealer",
}


def get_variant(name: str) -> Rules:
    """The named variant.

    Raises:
        RulesError: for an unknown name, listing the known ones.
    """
    if not isinstance(name, str):
        raise RulesError(f"unknown variant: {name!r} (expected a name like 'standard')")
    try:
        return VARIANTS[name.strip().lower().replace("_", "-")]  # no_exchange too, as the options take both
    except KeyError:
        raise RulesError(f"unknown variant: {name!r} (known: {', '.join(VARIANTS)})") from None


def _is_number(text: str) -> bool:
    """ASCII digits only: ``str.isdigit`` also accepts superscripts such as '²', which ``int`` rejects, and
    ``int`` accepts '٣', ' 7' and '7_0'."""
    return text.isascii() and text.isdigit()


_MAX_DIGITS: Final = 9
"""Significant digits a number in a variant spec may have: every option's valid values are far smaller."""
_MAX_TEXT: Final = 4300
"""Digits, leading zeros included, a number in a variant spec may have: ``int``'s default limit, beyond which it
raised a bare ValueError, so no longer number was ever read."""


def _number(key: str, value: str) -> int:
    """The int of *value*, already known to be ASCII digits (leading zeros allowed, as ``int`` allows them).

    Raises:
        RulesError: for more than :data:`_MAX_DIGITS` significant digits or :data:`_MAX_TEXT` digits in all,
            naming the option and (the start of) the value.
    """
    digits = value.lstrip("0") or "0"
    if len(digits) > _MAX_DIGITS or len(value) > _MAX_TEXT:
        shown = repr(value) if len(value) <= 20 else f"{value[:20]!r}... ({len(value)} digits)"
        raise RulesError(f"invalid {key}: {shown} (a number far too large)")
    return int(digits)


def _parse_quotas(key: str, value: str) -> tuple[int, int, int]:
    parts = [p.strip() for p in value.replace("+", "/").split("/")]
    if len(parts) != 3 or not all(_is_number(p) for p in parts):
        raise RulesError(f"invalid {key}: {value!r} (expected three numbers like 7/5/1)")
    return _number(key, parts[0]), _number(key, parts[1]), _number(key, parts[2])


def _parse_flag(key: str, value: str | None) -> bool:
    if value is None or value.lower() in ("yes", "true", "on", "1"):
        return True
    if value.lower() in ("no", "false", "off", "0"):
        return False
    raise RulesError(f"invalid value for {key}: {value!r} (expected yes or no)")


def parse_variant(text: str) -> Rules:
    """Read a variant name followed by comma-separated options, as :meth:`Rules.spec` writes them.

    >>> parse_variant("no-exchange,show_trump_card").show_trump_card
    True
    >>> parse_variant("standard,uses=1,uses=2")
    Traceback (most recent call last):
    ...
    mizerka.rules.RulesError: option 'uses=2' sets uses_per_contract a second time in 'standard,uses=1,uses=2'

    Raises:
        RulesError: naming the unknown variant or the bad option.
    """
    if not isinstance(text, str):
        raise RulesError(f"invalid variant: {text!r} (expected text like 'standard,show_trump_card')")
    name, *options = [part.strip() for part in text.split(",")]
    rules = get_variant(name or "standard")
    changes: dict[str, object] = {}

    def put(field: str, value: object) -> None:
        if field in changes:  # 'first_dealer=1,first_dealer=2': which one was meant?  (the last one was taken)
            raise RulesError(f"option {option!r} sets {field} a second time in {text!r}")
        changes[field] = value

    for option in options:
        key, sep, value_text = option.partition("=")
        key = key.strip().lower().replace("-", "_")
        value: str | None = value_text.strip() if sep else None
        if key == "show_trump_card":
            put("show_trump_card", _parse_flag(key, value))
        elif key in ("seed002_blocks", "round_robin") and value is None:
            put("deal_pattern",
                DealPattern.SEED002_BLOCKS if key == "seed002_blocks" else DealPattern.ROUND_ROBIN_4_PILES)
        elif key == "first_dealer" and value is not None:
            if value.lower() == "lot":
                put("first_dealer", None)
            elif _is_number(value):
                put("first_dealer", _number(key, value))
            else:
                raise RulesError(f"invalid first_dealer: {value!r} (expected a seat number or 'lot')")
        elif key == "contracts" and value:
            put("contracts", tuple(Contract.from_str(c) for c in value.split("+")))
        elif key in ("uses", "uses_per_contract") and value is not None:
            if not _is_number(value):
                raise RulesError(f"invalid uses: {value!r} (expected a number)")
            put("uses_per_contract", _number("uses", value))
        elif key == "global_unique":
            put("global_unique_contracts", _parse_flag(key, value))
        elif key in ("quota_ordinary", "quota_mizerka") and value is not None:
            put(key, _parse_quotas(key, value))
        else:
            raise RulesError(f"unknown option {option!r} in {text!r} (known: {', '.join(OPTIONS_HELP)})")
    return rules.replace(**changes) if changes else rules
