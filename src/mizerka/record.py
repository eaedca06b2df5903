"""Game records: a match written down so that it can be checked, replayed and shared.

A :class:`MatchRecord` holds the rules, the players, the first dealer and one :class:`DealRecord` per deal
played so far.  A deal is recorded in one of two forms:

* **full**: the deck order (which fixes every hand, the six cards forehand saw and the talon), the contract,
  the discards of each exchange and every card played, trick by trick.  Replaying it reproduces the match;
* **score-only**: the contract and the tricks each seat took, as a score keeper at a real table writes them.

Either way the record also carries each finished deal's tricks and scores; they are checked, never trusted.
A record is validated when it is built (however it is built), so every :class:`MatchRecord` that exists
obeys every rule.  It reads and writes two forms that round-trip exactly:

* a text form, tag pairs and sections in the spirit of PGN and PBN (:meth:`MatchRecord.to_text`,
  :func:`read_text`), one ``[Deal "n"]`` block per deal;
* JSON (:meth:`MatchRecord.to_json`, :func:`read_json`) with the same fields.

>>> match = Match(seed=3, players=["Ala", "Bolek", "Cezary"])
>>> for _ in range(60):                      # a deal and a half: first legal action each time
...     _ = match.play(match.deal.forced_action() or next(iter(match.legal_actions)))
...
>>> record = MatchRecord.from_match(match, event="Doctest", salts=["00ff"] * 2)
>>> text = record.to_text()
>>> print(text[:text.index("[Deal")].strip())
[RecordVersion "1"]
[Event "Doctest"]
[Generator "mizerka ..."]
[Variant "standard"]
[Player0 "Ala"]
[Player1 "Bolek"]
[Player2 "Cezary"]
[FirstDealer "0"]
[Result "*"]
>>> read_text(text) == record == read_json(record.to_json())
True
>>> [d.scores for d in record.deals]
[(3, 1, -4), None]
>>> record.verify_commitments()
(1, 2)

Deal commitment: before a deal, a server publishes ``commit(deck, salt)``, a salted SHA-256 of the deck order;
the record reveals the salt, and anyone holding the published commitment can check the deck was not changed
(:meth:`MatchRecord.verify_commitments`).

Every error raised on bad input is a :class:`RecordError` (a ``ValueError``): :class:`RecordSyntaxError` for text
or JSON that cannot be read (with the line number where there is one), :class:`CommitmentError` for a deck that
does not match its commitment, plain :class:`RecordError` for a record that breaks a rule (with the deal, trick
and card where they apply).  Nothing is half-built: a reader returns a whole, valid record or raises.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import secrets
import unicodedata
import warnings
from collections.abc import Iterable, Mapping, Sequence
from random import Random
from typing import Final

from mizerka.cards import CARDS, Card, CardParseError, CardSet, parse_cards
from mizerka.deal import (
    Action,
    Choose,
    DeckError,
    Exchange,
    IllegalActionError,
    InvalidActionError,
    Phase,
    Play,
    check_deck,
    deal_piles,
)
from mizerka.match import DealResult, Match, MatchError, Outcome
from mizerka.rules import Contract, ExchangeMode, Role, Rules, RulesError, parse_variant

__all__ = [
    "BIDI_CONTROLS",
    "JSON_FORMAT",
    "MAX_RECORD_BYTES",
    "QUOTE_CHARS",
    "RECORD_VERSION",
    "CommitmentError",
    "DealRecord",
    "MatchRecord",
    "RecordError",
    "RecordSyntaxError",
    "char_name",
    "char_reason",
    "check_name",
    "commit",
    "deck_text",
    "from_dict",
    "is_default_ignorable",
    "name_key",
    "new_salt",
    "quoted",
    "read",
    "read_json",
    "read_text",
]

RECORD_VERSION: Final = 1
"""The version of the record format this module writes and reads (the ``RecordVersion`` tag)."""

JSON_FORMAT: Final = "mizerka-record"
"""The ``format`` field of a JSON record."""

MAX_RECORD_BYTES: Final = 16 * 1024 * 1024
"""The largest file :func:`read` takes (a whole match is tens of kilobytes): a bigger one, or an endless one
such as ``/dev/zero``, is refused instead of filling the memory."""

RESERVED_TAGS: Final = frozenset(
    {"RecordVersion", "Variant", "FirstDealer", "Result", "Player0", "Player1", "Player2", "Player3", "Deal"}
)
"""Header tags with a meaning of their own; every other header tag (Event, Site, Date, …) is kept as given."""

_TAG_NAME: Final = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,63}")
_SALT: Final = re.compile(r"[0-9A-Za-z+/=_-]{1,128}")
_COMMIT: Final = re.compile(r"sha256:[0-9a-f]{64}")
_TAG_LINE: Final = re.compile(r'\[([A-Za-z][A-Za-z0-9_]*)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]')
_EXCHANGE_LINE: Final = re.compile(r"([0-9]{1,2})\s*:\s*(.*)")
_PLAY_LINE: Final = re.compile(r"([0-9]{1,3})\s+@([0-9]{1,2})\s*:\s*(.*)")
_LINE_BREAKS: Final = frozenset("\u2028\u2029")
"""Line and paragraph separators: not control characters, but editors and :meth:`str.splitlines` end a line at
them (as :meth:`str.splitlines` does at some C0 and C1 controls), so a record refuses them wherever it refuses a
control character: a name holding one would display as two lines."""
_STRAY: Final = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029]")
"""The characters no line of the text form holds outside a comment, and no list of cards holds in either form:
every C0 control but the tab, DEL, every C1 control, and the line and paragraph separators.  The text form's lines
end with LF or CRLF alone (the reader splits at LF and takes one CR off the end), so a form feed, a lone CR, a
NEL (U+0085) or U+2029 never starts a line of its own: it stays where it is and is refused there, by name
(:func:`_named`), with its line.  A tag value is stricter still (no tab either: :func:`_check_text`)."""
_ESCAPES: Final = frozenset('"\\')
"""The characters a tag value escapes with a backslash (``\\"`` and ``\\\\``), as PGN does, and the only escapes the
reader takes: the writer (:func:`_escape`) writes no other, so any other (``\\l``, ``\\n``) is a typing slip or
another format's escape, and reading it as the bare letter would record a name nobody wrote."""
_CONTROL_NAMES: Final[tuple[str, ...]] = (
    # U+0000-U+001F
    "NULL", "START OF HEADING", "START OF TEXT", "END OF TEXT", "END OF TRANSMISSION", "ENQUIRY", "ACKNOWLEDGE",
    "ALERT", "BACKSPACE", "CHARACTER TABULATION", "LINE FEED", "LINE TABULATION", "FORM FEED", "CARRIAGE RETURN",
    "SHIFT OUT", "SHIFT IN", "DATA LINK ESCAPE", "DEVICE CONTROL ONE", "DEVICE CONTROL TWO", "DEVICE CONTROL THREE",
    "DEVICE CONTROL FOUR", "NEGATIVE ACKNOWLEDGE", "SYNCHRONOUS IDLE", "END OF TRANSMISSION BLOCK", "CANCEL",
    "END OF MEDIUM", "SUBSTITUTE", "ESCAPE", "FILE SEPARATOR", "GROUP SEPARATOR", "RECORD SEPARATOR", "UNIT SEPARATOR",
    # U+007F
    "DELETE",
    # U+0080-U+009F
    "PADDING CHARACTER", "HIGH OCTET PRESET", "BREAK PERMITTED HERE", "NO BREAK HERE", "INDEX", "NEXT LINE",
    "START OF SELECTED AREA", "END OF SELECTED AREA", "CHARACTER TABULATION SET",
    "CHARACTER TABULATION WITH JUSTIFICATION", "LINE TABULATION SET", "PARTIAL LINE FORWARD", "PARTIAL LINE BACKWARD",
    "REVERSE LINE FEED", "SINGLE SHIFT TWO", "SINGLE SHIFT THREE", "DEVICE CONTROL STRING", "PRIVATE USE ONE",
    "PRIVATE USE TWO", "SET TRANSMIT STATE", "CANCEL CHARACTER", "MESSAGE WAITING", "START OF GUARDED AREA",
    "END OF GUARDED AREA", "START OF STRING", "SINGLE GRAPHIC CHARACTER INTRODUCER", "SINGLE CHARACTER INTRODUCER",
    "CONTROL SEQUENCE INTRODUCER", "STRING TERMINATOR", "OPERATING SYSTEM COMMAND", "PRIVACY MESSAGE",
    "APPLICATION PROGRAM COMMAND",
)
"""The names of the control characters U+0000-U+001F, U+007F and U+0080-U+009F, in that order: the Unicode name
aliases (NameAliases.txt) that :func:`unicodedata.lookup` takes, since the controls have no name of their own
(:func:`unicodedata.name` knows none).  For 0x1C-0x1F the better known of two aliases (``FILE SEPARATOR`` rather
than ``INFORMATION SEPARATOR FOUR``)."""
BIDI_CONTROLS: Final = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Unicode's bidirectional formatting characters (ALM, LRM, RLM, the embeddings, overrides and isolates): invisible,
they reorder the text around them, so a name holding one can display as another name (``"\\u202eakrezim"``, with a
right-to-left override, shows as ``mizerka``).  The server and the score keeper refuse them in names too, as
characters that are not printable (:meth:`str.isprintable`); this module is standard-library only and imports
neither, so the set is spelt out here."""
BLANKS: Final = frozenset({"\u115f", "\u1160", "\u2800", "\u3164", "\uffa0"})
"""Letters and symbols that draw as blank space (the Hangul fillers, the empty braille pattern): a name of them
would show as nothing, and a chat message of them and spaces alone says nothing (``mizerka.server.chat``)."""
DEFAULT_IGNORABLE: Final = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180B, 0x180F),
    (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)
"""Unicode's ``Default_Ignorable_Code_Point`` property (DerivedCoreProperties.txt of Unicode 14, the version of Python
3.11's :mod:`unicodedata`, which lacks the property), as inclusive ranges: characters a renderer shows as nothing,
such as the soft hyphen U+00AD, the zero-width space U+200B, the word joiner U+2060, the variation selectors, the
combining grapheme joiner, Khmer's inherent vowels, the bidirectional controls and the tags.  The server's chat and
seat names refuse the same set (``mizerka.server.chat`` imports it from here)."""


def is_default_ignorable(ch: str) -> bool:
    """Whether the character *ch* is a default-ignorable code point (:data:`DEFAULT_IGNORABLE`).

    >>> is_default_ignorable("\ufe0f"), is_default_ignorable("a")
    (True, False)
    """
    code = ord(ch)
    return any(low <= code <= high for low, high in DEFAULT_IGNORABLE)
QUOTE_CHARS: Final = 40
"""How much of an over-long value a message quotes (then "…"): a message names the value, it does not repeat it."""


def quoted(text: str) -> str:
    """*text* as a refusal quotes it: ``repr``, cut after :data:`QUOTE_CHARS` characters with "…" when longer (a
    record's messages about a value, the line game's about an answer).

    >>> quoted("Ala"), quoted("x" * 50)
    ("'Ala'", "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'…")
    """
    return repr(text) if len(text) <= QUOTE_CHARS else repr(text[:QUOTE_CHARS]) + "…"


_EMOJI_SELECTORS: Final = frozenset("\ufe0e\ufe0f")
"""The text and emoji presentation selectors: after a symbol (``"❤\\ufe0f"``, as phone keyboards write it) they
choose how it is drawn, and a name may hold them there; anywhere else they are invisible."""
_INT: Final = re.compile(r"[+-]?[0-9]{1,6}")  # ASCII digits only: \d would also take other scripts' digits


# -- errors ---------------------------------------------------------------------------------------


class RecordError(ValueError):
    """A record that breaks a rule, or cannot be read.

    Attributes:
        reason: what is wrong, in words.
        deal_no: the deal (1-based) where the problem is, or ``None`` for the match header.
        trick_no: the trick (1-based) where it is, or ``None``.
        card: the offending card, or ``None``.
        code: what is wrong with a text value (a player's name, a tag's value) as a word a program can tell
            apart, where the check gives one (:func:`check_name`: ``not_text``, ``too_long``, ``control_char``,
            ``bidi_control``, ``empty``, ``surrogate``, ``invisible_char``, ``leading_mark``), else ``None``: a
            client can then say it in its own language, the message being English.
        char: the character the refusal names (with ``control_char``, ``bidi_control``, ``surrogate``,
            ``invisible_char`` and ``leading_mark``), else ``None``.
    """

    code: str | None = None
    char: str | None = None

    def __init__(
        self,
        reason: str,
        *,
        deal_no: int | None = None,
        trick_no: int | None = None,
        card: Card | None = None,
    ) -> None:
        self.reason = reason
        self.deal_no = deal_no
        self.trick_no = trick_no
        self.card = card
        super().__init__(self._where() + reason)

    def _where(self) -> str:
        parts = []
        if self.deal_no is not None:
            parts.append(f"deal {self.deal_no}")
        if self.trick_no is not None:
            parts.append(f"trick {self.trick_no}")
        if self.card is not None:
            parts.append(f"card {self.card}")
        return ", ".join(parts) + ": " if parts else ""


class RecordSyntaxError(RecordError):
    """Text or JSON that is not a record at all: a malformed line, a missing or misspelt field, a bad value.

    Attributes:
        line_no: the line (1-based) of the text form, or ``None`` (JSON, or a problem with no one line).
    """

    def __init__(
        self, reason: str, *, line_no: int | None = None, deal_no: int | None = None, trick_no: int | None = None
    ) -> None:
        self.line_no = line_no
        super().__init__(reason, deal_no=deal_no, trick_no=trick_no)

    def _where(self) -> str:
        where = super()._where()
        if self.line_no is None:
            return where
        return f"line {self.line_no}, {where}" if where else f"line {self.line_no}: "


class CommitmentError(RecordError):
    """A deck order that does not match the commitment published for it."""


# -- commitments ----------------------------------------------------------------------------------


def deck_text(deck: Sequence[int]) -> str:
    """The canonical text of a deck order: the 52 cards, top first, as ``str(Card)``, one space apart.

    >>> deck_text(range(52))[:14]
    '2C 3C 4C 5C 6C'
    """
    return " ".join(str(CARDS[c]) for c in deck)


def commit(deck: Sequence[int], salt: str) -> str:
    """The commitment to a deck order: ``"sha256:"`` and the hex SHA-256 of ``salt + ":" + deck_text(deck)``
    (UTF-8).  Publish it before the deal; reveal the salt afterwards.

    >>> commit(range(52), "abc")[:19]
    'sha256:120c30861dca'

    Raises:
        RecordError: for a salt that is not 1-128 characters of ``0-9 A-Z a-z + / = _ -``, or a bad deck.
    """
    if not isinstance(salt, str) or not _SALT.fullmatch(salt):
        shown = quoted(salt) if isinstance(salt, str) else f"of type {type(salt).__name__}"
        raise RecordError(f"invalid salt {shown}: expected 1-128 characters of 0-9 A-Z a-z + / = _ -")
    try:
        cards = check_deck(deck)
    except DeckError as error:
        raise RecordError(str(error)) from None
    return "sha256:" + hashlib.sha256(f"{salt}:{deck_text(cards)}".encode()).hexdigest()


def new_salt(rng: Random | None = None) -> str:
    """A fresh salt of 32 hex digits: from *rng* when given (reproducible, for tests), else from :mod:`secrets`
    (unpredictable, as a real commitment needs)."""
    if rng is None:
        return secrets.token_hex(16)
    return f"{rng.getrandbits(128):032x}"


# -- the record -----------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class DealRecord:
    """One deal as recorded.

    A *full* deal has a ``deck``; a *score-only* deal has none, and then no exchanges and no tricks.
    Fields that a record may leave out (``leaders``, ``tricks_won``, ``scores``) are filled in by
    :class:`MatchRecord`, which checks any that are given.

    Attributes:
        number: the deal's number in the match, from 1.
        dealer: the dealing seat.
        deck: the deck order, top card first, or ``None`` (score-only).
        contract: the contract forehand chose, or ``None`` before the choice.
        exchanges: the discards of each exchange so far, in exchange order (forehand, middlehand, dealer);
            an empty set keeps the hand.  Empty in variants without an exchange.
        tricks: the cards of each trick in order of play; the last one may be unfinished.
        leaders: the seat that led each trick.
        tricks_won: the tricks each seat took, once the deal is over.
        scores: each seat's score for the deal, once it is over.
        commit: the commitment published for the deck before the deal (``"sha256:…"``), if any.
        salt: the salt of the commitment, revealed after the deal, if any.
    """

    number: int
    dealer: int
    deck: tuple[Card, ...] | None = None
    contract: Contract | None = None
    exchanges: tuple[CardSet, ...] = ()
    tricks: tuple[tuple[Card, ...], ...] = ()
    leaders: tuple[int, ...] | None = None
    tricks_won: tuple[int, ...] | None = None
    scores: tuple[int, ...] | None = None
    commit: str | None = None
    salt: str | None = None

    @property
    def score_only(self) -> bool:
        return self.deck is None

    @property
    def is_over(self) -> bool:
        """Whether the deal is finished (its tricks and scores are known)."""
        return self.tricks_won is not None

    def actions(self) -> list[Action]:
        """The deal's actions in order, as :meth:`Deal.push` takes them (empty for a score-only deal)."""
        if self.deck is None or self.contract is None:
            return []
        actions: list[Action] = [Choose(self.contract)]
        actions.extend(Exchange(discards) for discards in self.exchanges)
        actions.extend(Play(card) for trick in self.tricks for card in trick)
        return actions


@dataclasses.dataclass(frozen=True)
class MatchRecord:
    """A match, finished or not, as a record.  Building one validates it against every rule.

    Attributes:
        rules: the rules played.
        players: one name per seat.
        first_dealer: the seat that dealt the first deal.
        deals: the deals so far; every one but the last is finished.
        tags: other header tags, in order (``Event``, ``Site``, ``Date``, ``Generator``, …).

    Raises:
        RecordError: on the first rule the record breaks, naming the deal, trick, card and reason.
        CommitmentError: if a deck does not match its commitment and salt.
    """

    rules: Rules
    players: tuple[str, ...]
    first_dealer: int
    deals: tuple[DealRecord, ...] = ()
    tags: Mapping[str, str] = dataclasses.field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", tuple(self.players))
        object.__setattr__(self, "deals", tuple(self.deals))
        object.__setattr__(self, "tags", dict(self.tags))
        object.__setattr__(self, "deals", _validate(self))

    # -- building -----------------------------------------------------------------------------------

    @classmethod
    def from_match(
        cls,
        match: Match,
        *,
        event: str | None = None,
        site: str | None = None,
        date: str | None = None,
        salts: Sequence[str | None] | None = None,
        tags: Mapping[str, str] | None = None,
    ) -> MatchRecord:
        """The record of *match* so far.

        Args:
            event, site, date: the ``Event``, ``Site`` and ``Date`` tags (a date as ``YYYY.MM.DD``).
            salts: one salt per deal (or ``None``), in deal order; a salted deal gets its commitment.
            tags: more header tags.

        Raises:
            RecordError: if the rules cannot be written as a variant, or a salt or tag is invalid.
        """
        from mizerka import __version__

        all_tags: dict[str, str] = {}
        for name, value in (("Event", event), ("Site", site), ("Date", date)):
            if value is not None:
                all_tags[name] = value
        all_tags.update(tags or {})
        all_tags.setdefault("Generator", f"mizerka {__version__}")
        actions = [list(deal.history) for deal in match.deals]
        return cls.from_actions(
            match.rules, match.players, match.first_dealer, match.decks, actions, salts=salts, tags=all_tags
        )

    @classmethod
    def from_actions(
        cls,
        rules: Rules,
        players: Sequence[str],
        first_dealer: int,
        decks: Sequence[Sequence[int]],
        actions: Sequence[Sequence[Action]],
        *,
        salts: Sequence[str | None] | None = None,
        commits: Sequence[str | None] | None = None,
        tags: Mapping[str, str] | None = None,
    ) -> MatchRecord:
        """A full record from deck orders and each deal's action list (as a server stores a table).

        *commits* are the commitments published before each deal; with *salts* they are checked, and a salt
        without a commitment gets one computed.

        Raises:
            RecordError: on the first action that breaks a rule, and for the same reasons as the constructor.
        """
        if len(actions) > len(decks):
            raise RecordError(f"{len(actions)} action lists but only {len(decks)} deck orders")
        salts = list(salts or [])
        commits = list(commits or [])
        n = rules.n_seats
        deals = []
        for index, deal_actions in enumerate(actions):
            number = index + 1
            try:
                deck = tuple(CARDS[c] for c in check_deck(decks[index]))
            except DeckError as error:
                raise RecordError(str(error), deal_no=number) from None
            salt = salts[index] if index < len(salts) else None
            published = commits[index] if index < len(commits) else None
            if salt is not None and published is None:
                published = commit(deck, salt)
            contract: Contract | None = None
            exchanges: list[CardSet] = []
            plays: list[Card] = []
            for action in deal_actions:
                if isinstance(action, Choose):
                    if contract is not None or exchanges or plays:
                        raise RecordError(f"a second contract choice ({action})", deal_no=number)
                    contract = action.contract
                elif isinstance(action, Exchange):
                    if plays:
                        raise RecordError(f"an exchange ({action}) after play began", deal_no=number)
                    exchanges.append(action.discards)
                elif isinstance(action, Play):
                    plays.append(CARDS[action.card])
                else:
                    raise RecordError(f"{_shown(action)} is not an action", deal_no=number)
            if contract is None and (exchanges or plays):
                raise RecordError("an exchange or a card before the contract choice", deal_no=number)
            tricks = tuple(tuple(plays[i:i + 3]) for i in range(0, len(plays), 3))
            deals.append(
                DealRecord(
                    number=number,
                    dealer=(first_dealer + index) % n,
                    deck=deck,
                    contract=contract,
                    exchanges=tuple(exchanges),
                    tricks=tricks,
                    commit=published,
                    salt=salt,
                )
            )
        return cls(rules, tuple(players), first_dealer, tuple(deals), dict(tags or {}))

    # -- reading the record -------------------------------------------------------------------------

    @property
    def score_only(self) -> bool:
        """Whether the deals are recorded by contract and tricks only (no deck, no cards)."""
        return bool(self.deals) and self.deals[0].deck is None

    def is_over(self) -> bool:
        """Whether the match is finished: every deal played to the end."""
        return len(self.deals) == self.rules.n_deals and self.deals[-1].is_over

    @property
    def totals(self) -> tuple[int, ...]:
        """Each seat's total over the finished deals."""
        totals = [0] * self.rules.n_seats
        for deal in self.deals:
            for seat, score in enumerate(deal.scores or ()):
                totals[seat] += score
        return tuple(totals)

    def outcome(self) -> Outcome:
        """Totals and winners of a finished match.

        Raises:
            RecordError: if the match is not over.
        """
        if not self.is_over():
            raise RecordError(f"the match is not over: {len(self.deals)} of {self.rules.n_deals} deals recorded")
        totals = self.totals
        best = max(totals)
        return Outcome(totals, tuple(seat for seat, total in enumerate(totals) if total == best))

    def results(self) -> list[DealResult]:
        """The finished deals, as :meth:`Match.results` gives them (exchange counts ``None`` if unknown)."""
        results = []
        n = self.rules.n_seats
        for deal in self.deals:
            if deal.tricks_won is None or deal.scores is None or deal.contract is None:
                continue
            counts: list[int | None] = [None] * n
            if deal.deck is not None and self.rules.exchange_mode is ExchangeMode.STANDARD:
                for i, discards in enumerate(deal.exchanges):
                    counts[(deal.dealer + 1 + i) % n] = len(discards)
            results.append(
                DealResult(
                    deal_no=deal.number,
                    dealer=deal.dealer,
                    chooser=(deal.dealer + 1) % n,
                    contract=deal.contract,
                    tricks=deal.tricks_won,
                    scores=deal.scores,
                    exchange_counts=tuple(counts),
                )
            )
        return results

    def to_match(self, seed: int | None = None) -> Match:
        """Replay the record (with every check) into a :class:`Match` at the point where the record ends.

        Deals beyond the recorded ones are shuffled from *seed*.

        Raises:
            RecordError: for a score-only record, which has no cards to replay.
        """
        if self.score_only:
            raise RecordError("a score-only record has no deck orders or cards to replay")
        return _replay(self, seed)

    def verify_commitments(self, published: Mapping[int, str] | None = None) -> tuple[int, ...]:
        """Check the decks against their commitments; return the numbers of the deals whose deck was verified.

        The record's own commitments were checked against its salts when it was built.  *published* maps deal
        numbers to the commitments announced before those deals (as a player saw them); each must equal the
        record's commitment and be verifiable from its deck and salt.

        Raises:
            CommitmentError: for a published commitment that the record's deck and salt do not reproduce.
        """
        for number, announced in (published or {}).items():
            if not isinstance(number, int) or not 1 <= number <= len(self.deals):
                raise CommitmentError(f"a commitment was published for deal {number!r}, which is not recorded")
            deal = self.deals[number - 1]
            if deal.deck is None or deal.salt is None:
                raise CommitmentError("the record reveals no deck and salt to check the commitment", deal_no=number)
            if commit(deal.deck, deal.salt) != announced:
                raise CommitmentError(
                    f"the deck does not match the commitment published before the deal ({announced})", deal_no=number
                )
        return tuple(d.number for d in self.deals if d.deck is not None and d.salt is not None)

    # -- writing ------------------------------------------------------------------------------------

    def to_text(self) -> str:
        """The text form (see ``docs/record.md``); :func:`read_text` reads it back to an equal record."""
        lines = [f'[RecordVersion "{RECORD_VERSION}"]']
        lines.extend(_tag(name, value) for name, value in self.tags.items())
        lines.append(_tag("Variant", self.rules.spec()))
        lines.extend(_tag(f"Player{seat}", name) for seat, name in enumerate(self.players))
        lines.append(_tag("FirstDealer", str(self.first_dealer)))
        lines.append(_tag("Result", _numbers(self.totals, signed=True) if self.is_over() else "*"))
        for deal in self.deals:
            lines.append("")
            lines.extend(self._deal_lines(deal))
        return "\n".join(lines) + "\n"

    def _deal_lines(self, deal: DealRecord) -> list[str]:
        n = self.rules.n_seats
        lines = [_tag("Deal", str(deal.number)), _tag("Dealer", str(deal.dealer))]
        if deal.commit is not None:
            lines.append(_tag("Commit", deal.commit))
        if deal.salt is not None:
            lines.append(_tag("Salt", deal.salt))
        if deal.deck is not None:
            lines.append(_tag("Deck", deck_text(deal.deck)))
            first, rest, talon = deal_piles(deal.deck, self.rules.deal_pattern, self.rules.cards_before_choice)
            for role in Role:
                seat = (deal.dealer + 1 + role) % n
                lines.append(f"% seat {seat} {role.short}: {CardSet(first[role] + rest[role]).grouped()}")
            lines.append("% talon, top first: " + " ".join(str(CARDS[c]) for c in reversed(talon)))
        if deal.contract is not None:
            lines.append(_tag("Contract", str(deal.contract)))
        if deal.exchanges:
            lines.append("[Exchange]")
            for i, discards in enumerate(deal.exchanges):
                lines.append(f"{(deal.dealer + 1 + i) % n}: {_cards(discards)}")
        if deal.tricks:
            lines.append("[Play]")
            assert deal.leaders is not None
            for i, (leader, cards) in enumerate(zip(deal.leaders, deal.tricks, strict=True), start=1):
                lines.append(f"{i} @{leader}: {' '.join(str(c) for c in cards)}")
        if deal.tricks_won is not None:
            lines.append(_tag("Tricks", _numbers(deal.tricks_won)))
        if deal.scores is not None:
            lines.append(_tag("Scores", _numbers(deal.scores, signed=True)))
        return lines

    def to_dict(self) -> dict[str, object]:
        """The JSON form as Python data (see :meth:`to_json`)."""
        return {
            "format": JSON_FORMAT,
            "version": RECORD_VERSION,
            "tags": dict(self.tags),
            "variant": self.rules.spec(),
            "players": list(self.players),
            "first_dealer": self.first_dealer,
            "result": list(self.totals) if self.is_over() else None,
            "deals": [
                {
                    "deal": d.number,
                    "dealer": d.dealer,
                    "commit": d.commit,
                    "salt": d.salt,
                    "deck": deck_text(d.deck) if d.deck is not None else None,
                    "contract": str(d.contract) if d.contract is not None else None,
                    "exchanges": [_cards(x) for x in d.exchanges],
                    "tricks": [
                        {"leader": leader, "cards": " ".join(str(c) for c in cards)}
                        for leader, cards in zip(d.leaders or (), d.tricks, strict=True)
                    ],
                    "tricks_won": list(d.tricks_won) if d.tricks_won is not None else None,
                    "scores": list(d.scores) if d.scores is not None else None,
                }
                for d in self.deals
            ],
        }

    def to_json(self, *, indent: int | None = 1) -> str:
        """The JSON form; :func:`read_json` reads it back to an equal record."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False) + "\n"


# -- helpers for writing ---------------------------------------------------------------------------


def _escape(value: str) -> str:
    """*value* as it stands between the quotes of a tag: a backslash before each ``"`` and ``\\`` (the only two
    escapes, :data:`_ESCAPES`), as PGN writes a tag value."""
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _unescape(value: str, what: str, line_no: int, deal_no: int | None = None) -> str:
    r"""The tag value that *value* (the text between a tag's quotes) stands for: the inverse of :func:`_escape`.

    A backslash escapes a quote or a backslash and nothing else.  Any other escape is refused, naming *what* (the
    tag) and the line, rather than read as the bare character: ``[Player1 "A\la"]`` is a slip, not the name
    ``Ala`` (which, were another player called Ala, would then be refused as a second "Ala" on no line at all).

    >>> print(_unescape(r'Ala \"the ace\" C:\\', "tag Event", 2))
    Ala "the ace" C:\
    >>> _unescape(r"A\la", "tag Event", 2)
    Traceback (most recent call last):
    ...
    mizerka.record.RecordSyntaxError: line 2: tag Event holds \l, which is no escape: a tag value escapes only ...
    """
    def one(found: re.Match[str]) -> str:
        ch = found.group(1)
        if ch in _ESCAPES:
            return ch
        escape = f"\\{ch}" if ch.isprintable() and not ch.isspace() else f"a backslash before {_named(ch)}"
        raise RecordSyntaxError(
            f"{what} holds {escape}, which is no escape: a tag value escapes only a quote, as \\\", and a backslash,"
            " as \\\\",
            line_no=line_no, deal_no=deal_no,
        )

    return re.sub(r"\\(.)", one, value, flags=re.DOTALL)


def _tag(name: str, value: str) -> str:
    return f'[{name} "{_escape(value)}"]'


def _numbers(values: Iterable[int], *, signed: bool = False) -> str:
    return " ".join(f"{v:+d}" if signed and v else str(v) for v in values)


def _cards(cards: CardSet) -> str:
    return str(cards) if cards else "-"


# -- validation ------------------------------------------------------------------------------------


def _check_text(what: str, value: object, line_no: int | None = None, deal_no: int | None = None) -> str:
    """*value* if it is a usable name or tag value, else a :class:`RecordError` naming *what* and the problem
    (a :class:`RecordSyntaxError` with the line, when the text form gives one, and the deal, for a deal's tag).

    A value is one line of at most 1000 characters, with no control character (C0, the tab among them, DEL or
    C1), no line or paragraph separator and no bidirectional control (:func:`_check_bidi`)."""
    def refuse(reason: str, code: str, char: str | None = None) -> RecordError:
        if line_no is not None:
            return _coded(RecordSyntaxError(reason, line_no=line_no, deal_no=deal_no), code, char)
        return _coded(RecordError(reason, deal_no=deal_no), code, char)

    if not isinstance(value, str):
        raise refuse(f"{what} must be text, not {type(value).__name__}", "not_text")
    rule = "must be one line of at most 1000 characters without control characters"
    if len(value) > 1000:
        raise refuse(f"{what} {quoted(value)} {rule}, not {len(value)} characters", "too_long")
    for ch in value:
        if ord(ch) < 32 or 127 <= ord(ch) < 160 or ch in _LINE_BREAKS:
            raise refuse(f"{what} {quoted(value)} {rule}, but it holds {_named(ch)}", "control_char", ch)
    _check_bidi(what, value, line_no, deal_no)
    return value


def _named(ch: str) -> str:
    """*ch* as a message names it: :func:`char_name`, and for a control character, which has no Unicode name, its
    name alias (:data:`_CONTROL_NAMES`), so that a message says what the invisible character is.

    >>> _named("\u2029"), _named("\x0c"), _named("\x85")
    ('U+2029 (PARAGRAPH SEPARATOR)', 'U+000C (FORM FEED)', 'U+0085 (NEXT LINE)')
    """
    code = ord(ch)
    index = code if code < 0x20 else 0x20 if code == 0x7F else code - 0x80 + 0x21 if 0x80 <= code < 0xA0 else -1
    return f"U+{code:04X} ({_CONTROL_NAMES[index]})" if index >= 0 else char_name(ch)


def _no_stray(text: str, what: str, *, line_no: int | None = None, deal_no: int | None = None,
              trick_no: int | None = None) -> str:
    """*text*, or a :class:`RecordSyntaxError` naming the first character :data:`_STRAY` finds in it: a JSON
    field's cards, contract or variant holds no control character but the tab (``"QS\\u000cJS"`` would read as two
    cards, split where nobody sees a space), as no line of the text form does."""
    if (stray := _STRAY.search(text)) is not None:
        raise RecordSyntaxError(f"{_named(stray.group())} in {what} {quoted(text)}: a value holds no control"
                                " character but the tab and no line separator (spaces separate its parts)",
                                line_no=line_no, deal_no=deal_no, trick_no=trick_no)
    return text


def _stray_reason(ch: str) -> str:
    """Why a line of the text form (not a comment) may not hold *ch*, one of :data:`_STRAY`."""
    if ch == "\r":
        return (f"the line holds {_named(ch)} before its end: a line ends with LF or CRLF, and a CR alone ends no"
                " line")
    return (f"the line holds {_named(ch)}: outside a comment, a line holds no control character but the tab and"
            " no line or paragraph separator (a line ends with LF or CRLF)")


def _check_bidi(what: str, value: str, line_no: int | None = None, deal_no: int | None = None) -> None:
    """Refuse a bidirectional control character in *value* (see :data:`BIDI_CONTROLS`)."""
    for ch in value:
        if ch in BIDI_CONTROLS:
            reason = (f"{what} {quoted(value)} holds the bidirectional control character {char_name(ch)}, "
                      f"which can make it display as other text")
            if line_no is None:
                raise _coded(RecordError(reason, deal_no=deal_no), "bidi_control", ch)
            raise _coded(RecordSyntaxError(reason, line_no=line_no, deal_no=deal_no), "bidi_control", ch)


def _coded(error: RecordError, code: str, char: str | None = None) -> RecordError:
    """*error* with its :attr:`~RecordError.code` and :attr:`~RecordError.char` set."""
    error.code, error.char = code, char
    return error


def check_name(name: object, what: str = "the name", line_no: int | None = None) -> str:
    """*name* if a record may hold it as a player's name, else a :class:`RecordError` naming *what* and the problem
    (a :class:`RecordSyntaxError` with the line, when the text form gives one).

    A name is text like every value a record holds (one line of at most 1000 characters, no control character, no
    bidirectional control: :data:`BIDI_CONTROLS`), and it must also show what it is, since the record, the score
    sheet and the replay tell the players apart by their names alone.  So it may not hold:

    * a character that draws nothing: a default-ignorable code point (a zero-width space U+200B, a word joiner
      U+2060, a soft hyphen U+00AD, a variation selector, …; only U+FE0E and U+FE0F right after a symbol, as in
      ``"❤\\ufe0f"``, choose how that symbol is drawn and may stay), any other format character (category Cf), a
      blank filler such as U+3164, or a lone surrogate, which no file can hold;
    * a combining mark first (``"\\u0301"``): it has no letter to sit on and draws on whatever comes before.

    Letters of any script, accents on them, emoji and spaces are fine.  Whether two names can be told apart is the
    record's check (:func:`name_key`), not this one's: a name that differs from another only by a space at an end,
    which is not seen, has the other's key and is refused as the same name.  The same rule applies however a name
    comes in: a record read from a file, one built from a match, and ``mizerka play --name`` before a match is
    recorded.

    >>> check_name("Łukasz Ǆ 王 😀")
    'Łukasz Ǆ 王 😀'
    >>> check_name("Ala\\u200b")
    Traceback (most recent call last):
    ...
    mizerka.record.RecordError: the name 'Ala\\u200b' holds the invisible character U+200B (ZERO WIDTH SPACE), ...
    >>> check_name("\\u0301", "player 2's name")
    Traceback (most recent call last):
    ...
    mizerka.record.RecordError: player 2's name '\\u0301' begins with the combining mark U+0301 (COMBINING ACUTE ...
    """
    def refuse(reason: str, code: str, char: str | None = None) -> RecordError:
        error = RecordSyntaxError(reason, line_no=line_no) if line_no is not None else RecordError(reason)
        return _coded(error, code, char)

    text = _check_text(what, name, line_no)
    if not text.strip():
        raise refuse(f"{what} is empty" if not text else f"{what} {quoted(text)} has no visible character", "empty")
    for i, ch in enumerate(text):
        if ch in _EMOJI_SELECTORS and i > 0 and unicodedata.category(text[i - 1]).startswith("S"):
            continue
        category = unicodedata.category(ch)
        if category == "Cs":
            raise refuse(f"{what} {quoted(text)} holds {char_name(ch)}, half of a surrogate pair, which is no "
                         "character and cannot be written as UTF-8", "surrogate", ch)
        if ch in BLANKS or category == "Cf" or is_default_ignorable(ch):
            raise refuse(f"{what} {quoted(text)} holds the invisible character {char_name(ch)}, with which it "
                         "can pass for another name (or for none); a player's name must show what it is",
                         "invisible_char", ch)
    if unicodedata.category(text[0]).startswith("M"):
        raise refuse(f"{what} {quoted(text)} begins with the combining mark {char_name(text[0])}, which has no "
                     "letter to sit on", "leading_mark", text[0])
    return text


def name_key(name: str) -> str:
    """The form under which two players' names are one name: NFKC-normalised, case-folded, runs of spaces made one
    space, and again until nothing changes.  One round is not always enough: case folding can undo NFKC (``"ß"``
    folds to ``"ss"``, and ``"ss"`` with U+0301 after it composes to ``"sś"``), and a key must be its own key, since
    a server's profile page is found by ``name_key(id)``; a name whose first round is already its own key (nearly
    every name) keeps that key.  A
    record refuses two players whose names have the same key ("Ala" and "ALA", "Ala" and the full-width "Ａｌａ"):
    they cannot be told apart on a score sheet, nor when a score keeper names a player.  It is the server's key for
    a table's names and profiles (``mizerka.server.players.name_key``).

    >>> name_key("ＡＬＡ  Kot") == name_key("ala kot") == "ala kot"
    True
    >>> name_key("Stra\u00df\u0301e") == name_key("Stras\u015be") == "stras\u015be"
    True
    """
    key = name
    while (again := " ".join(unicodedata.normalize("NFKC", key).casefold().split())) != key:
        key = again
    return key


def _shown(value: object) -> str:
    """Any value as a message shows it: its ``repr``, cut after 60 characters with "…" when longer (a JSON record's
    field may hold a list or a text of any length)."""
    text = repr(value)
    return text if len(text) <= 60 else text[:60] + "…"


def char_name(ch: str) -> str:
    """A character as a refusal names it: its code point and Unicode name (the chat's refusals use it too).

    >>> char_name("\u202e")
    'U+202E (RIGHT-TO-LEFT OVERRIDE)'
    """
    name = unicodedata.name(ch, "")
    return f"U+{ord(ch):04X} ({name})" if name else f"U+{ord(ch):04X}"


def char_reason(code: str, ch: str) -> dict[str, str]:
    """The machine-readable reason of a name refused for the character *ch* (the lobby's and the score pad's
    ``reason``): *code*, the code point and the Unicode name (``""`` for a code point without one), as
    :func:`char_name` writes them in the message.

    >>> char_reason("name_invisible_char", "\u200b")
    {'code': 'name_invisible_char', 'char': 'U+200B', 'char_name': 'ZERO WIDTH SPACE'}
    """
    return {"code": code, "char": f"U+{ord(ch):04X}", "char_name": unicodedata.name(ch, "")}


def _validate(record: MatchRecord) -> tuple[DealRecord, ...]:
    """Check the whole record; return its deals with the derived fields filled in."""
    rules = record.rules
    if not isinstance(rules, Rules):
        raise RecordError(f"rules must be a Rules object, not {type(rules).__name__}")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            written = parse_variant(rules.spec())
    except RulesError as error:  # Rules.spec() refuses rules no variant spec can express, naming the field
        raise RecordError(f"rules {rules.name!r} cannot be written as a variant: {error}") from None
    if written != rules:
        raise RecordError(f"rules {rules.name!r} cannot be written as a variant (spec {rules.spec()!r})")
    n = rules.n_seats
    if len(record.players) != n:
        raise RecordError(f"variant {rules.name!r} seats {n} players, not {len(record.players)}")
    seats_by_key: dict[str, int] = {}
    for seat, name in enumerate(record.players):
        key = name_key(check_name(name, f"player {seat}'s name"))
        if key in seats_by_key:
            other = seats_by_key[key]
            if record.players[other] == name:
                raise RecordError(f"player names must differ: players {other} and {seat} are both {quoted(name)}")
            raise RecordError(
                f"player names must differ: player {other}'s name {quoted(record.players[other])} and player "
                f"{seat}'s name {quoted(name)} differ only in case, spacing or the Unicode form of their "
                "characters, so they cannot be told apart"
            )
        seats_by_key[key] = seat
    for name, value in record.tags.items():
        if not isinstance(name, str) or not _TAG_NAME.fullmatch(name) or name in RESERVED_TAGS:
            raise RecordError(f"invalid tag name {_shown(name)}")
        _check_text(f"tag {name}", value)
    first = record.first_dealer
    if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < n:
        raise RecordError(f"the first dealer must be a seat 0-{n - 1}, not {first!r}")
    if rules.first_dealer is not None and rules.first_dealer != first:
        raise RecordError(f"the first dealer is seat {first}, but the variant says seat {rules.first_dealer}")
    deals = record.deals
    if len(deals) > rules.n_deals:
        raise RecordError(f"{len(deals)} deals recorded, but a match of {rules.name!r} has {rules.n_deals}")
    for index, deal in enumerate(deals):
        if not isinstance(deal, DealRecord):
            raise RecordError(f"deal {index + 1} is not a DealRecord")
        _check_deal_shape(deal, index + 1, record)
    if any(d.deck is None for d in deals) and any(d.deck is not None for d in deals):
        number = next(d.number for d in deals if (d.deck is None) != (deals[0].deck is None))
        raise RecordError("full deals (with a deck) and score-only deals cannot be mixed", deal_no=number)
    if deals and deals[0].deck is None:
        return _validate_scores_only(record)
    _replay(record, 0)
    return record.deals  # _replay stored the filled-in deals


def _check_deal_shape(deal: DealRecord, number: int, record: MatchRecord) -> None:
    n = record.rules.n_seats
    for what, value in (("deal number", deal.number), ("dealer", deal.dealer)):
        if not isinstance(value, int) or isinstance(value, bool):  # 1.0 == 1, but a seat or a number is whole
            raise RecordError(f"the {what} must be a whole number, not {_shown(value)}", deal_no=number)
    if deal.leaders is not None and not all(isinstance(v, int) and not isinstance(v, bool) for v in deal.leaders):
        raise RecordError(f"the trick leaders must be seats (whole numbers), not {_shown(deal.leaders)}",
                          deal_no=number)
    if deal.number != number:
        raise RecordError(f"deal number {deal.number!r} where deal {number} was expected", deal_no=number)
    dealer = (record.first_dealer + number - 1) % n
    if deal.dealer != dealer:
        raise RecordError(
            f"the dealer is seat {deal.dealer!r}, but the deal passes left to seat {dealer}", deal_no=number
        )
    if deal.contract is not None and not isinstance(deal.contract, Contract):
        raise RecordError(f"{deal.contract!r} is not a contract", deal_no=number)
    if deal.salt is not None and (deal.commit is None or deal.deck is None):
        raise RecordError("a salt needs a commitment and a deck to check", deal_no=number)
    if deal.commit is not None and (not isinstance(deal.commit, str) or not _COMMIT.fullmatch(deal.commit)):
        shown = quoted(deal.commit) if isinstance(deal.commit, str) else f"of type {type(deal.commit).__name__}"
        raise RecordError(f"invalid commitment {shown} (expected sha256: and 64 hex digits)", deal_no=number)
    if deal.deck is not None:
        try:
            check_deck(deal.deck)
        except DeckError as error:
            raise RecordError(str(error), deal_no=number) from None
        if deal.salt is not None:
            try:
                expected = commit(deal.deck, deal.salt)
            except RecordError as error:
                raise RecordError(error.reason, deal_no=number) from None
            if expected != deal.commit:
                raise CommitmentError("the deck and salt do not match the commitment", deal_no=number)
    if deal.deck is None and (deal.exchanges or deal.tricks):
        raise RecordError("a score-only deal (no deck) records no exchanges or cards", deal_no=number)
    for what, values in (("the tricks", deal.tricks_won), ("the scores", deal.scores)):
        if values is not None and (problem := _per_seat_problem(what, values, n)) is not None:
            raise RecordError(problem, deal_no=number)


def _per_seat_problem(what: str, values: object, n: int) -> str | None:
    """Why *values* are not a deal's tricks or scores (*what*) for *n* seats, or ``None`` if they are: *n* whole
    numbers in a tuple.  The message shows numbers as a record writes them (``5 4 4``), never as a Python tuple.

    >>> _per_seat_problem("the tricks", (5, 4, 4, 0), 3)
    'the tricks must be 3 whole numbers, one per seat, not 4: 5 4 4 0'
    """
    if not isinstance(values, tuple) or not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        return f"{what} must be {n} whole numbers, one per seat, not {_shown(values)}"
    if len(values) != n:
        given = f"{len(values)}: {_numbers(values)}" if values else "none"
        return f"{what} must be {n} whole numbers, one per seat, not {given}"
    return None


def _trick_size_problem(cards: Sequence[Card], trick_no: int, n_tricks: int) -> str | None:
    """Why a trick of *cards*, the *trick_no*-th of the *n_tricks* a deal records, has the wrong number of cards,
    or ``None``: a trick has three (the dealer of a four-player deal sits out), and only the last one recorded, in
    an unfinished deal, may have fewer (one or two).  The message shows the cards as a record writes them.

    >>> _trick_size_problem(parse_cards("3D 2D KD 2C"), 1, 1)
    'a trick has three cards, not 4: 3D 2D KD 2C'
    >>> _trick_size_problem(parse_cards("3D 2D"), 1, 2)
    'a trick has three cards, not 2: 3D 2D; only the last trick of an unfinished deal has fewer'
    """
    count = len(cards)
    if 1 <= count <= 3 and (count == 3 or trick_no == n_tricks):
        return None
    shown = f"{count}: {' '.join(str(c) for c in cards)}" if cards else "none"
    more = "; only the last trick of an unfinished deal has fewer" if 0 < count < 3 else ""
    return f"a trick has three cards, not {shown}{more}"


def _claims(deal: DealRecord, tricks_won: tuple[int, ...], scores: tuple[int, ...]) -> None:
    if deal.tricks_won is not None and deal.tricks_won != tricks_won:
        raise RecordError(
            f"the record says the seats took {_numbers(deal.tricks_won)} tricks, but play gives {_numbers(tricks_won)}",
            deal_no=deal.number,
        )
    if deal.scores is not None and deal.scores != scores:
        raise RecordError(
            f"the record says the scores are {_numbers(deal.scores, signed=True)}, "
            f"but the rules give {_numbers(scores, signed=True)}",
            deal_no=deal.number,
        )


def _unfinished(deal: DealRecord, is_last: bool) -> None:
    if not is_last:
        raise RecordError("the deal is unfinished, but another deal follows", deal_no=deal.number)
    if deal.tricks_won is not None or deal.scores is not None:
        raise RecordError("tricks or scores are recorded for an unfinished deal", deal_no=deal.number)


def _validate_scores_only(record: MatchRecord) -> tuple[DealRecord, ...]:
    rules = record.rules
    n = rules.n_seats
    used: dict[tuple[int, Contract], int] = {}
    out = []
    for index, deal in enumerate(record.deals):
        number = index + 1
        is_last = index == len(record.deals) - 1
        active = tuple((deal.dealer + 1 + role) % n for role in Role)
        if deal.contract is None:
            _unfinished(deal, is_last)
            out.append(dataclasses.replace(deal, leaders=()))
            continue
        contract = deal.contract
        chooser = -1 if rules.global_unique_contracts else active[0]
        if contract not in rules.contracts:
            raise RecordError(f"contract {contract} is not played in this variant", deal_no=number)
        if used.get((chooser, contract), 0) >= rules.uses_per_contract:
            who = "somebody" if chooser < 0 else f"forehand (seat {chooser})"
            raise RecordError(f"{who} has already used contract {contract}", deal_no=number)
        used[chooser, contract] = used.get((chooser, contract), 0) + 1
        if deal.tricks_won is None:
            _unfinished(deal, is_last)
            out.append(dataclasses.replace(deal, leaders=()))
            continue
        won = deal.tricks_won
        for seat, count in enumerate(won):
            if seat not in active and count != 0:
                raise RecordError(f"seat {seat} sits out this deal but is said to take {count} tricks", deal_no=number)
            if not 0 <= count <= rules.n_tricks:
                raise RecordError(f"seat {seat} cannot take {count} tricks", deal_no=number)
        if sum(won) != rules.n_tricks:
            raise RecordError(f"the tricks add up to {sum(won)}, not {rules.n_tricks}", deal_no=number)
        scores = [0] * n
        for role, seat in enumerate(active):
            scores[seat] = rules.score(role, contract, won[seat])
        _claims(deal, won, tuple(scores))
        out.append(dataclasses.replace(deal, leaders=(), scores=tuple(scores)))
    return tuple(out)


def _replay(record: MatchRecord, seed: int | None) -> Match:
    """Replay a full record with every check; store the filled-in deals on the record; return the match."""
    decks = [d.deck for d in record.deals if d.deck is not None]
    try:
        with warnings.catch_warnings():  # a non-zero-sum variant's warning: the record says its variant anyway
            warnings.simplefilter("ignore")
            match = Match(record.rules, players=record.players, first_dealer=record.first_dealer, decks=decks,
                          seed=seed)
    except (MatchError, RulesError) as error:
        raise RecordError(str(error)) from None
    out = []
    for index, drec in enumerate(record.deals):
        number = index + 1
        is_last = index == len(record.deals) - 1
        deal = match.deal

        def act(action: Action, trick_no: int | None = None, card: Card | None = None, *, at: int = number) -> None:
            try:
                match.play(action)
            except (IllegalActionError, InvalidActionError, MatchError) as error:
                raise RecordError(str(error), deal_no=at, trick_no=trick_no, card=card) from None

        if drec.contract is None:
            if drec.exchanges or drec.tricks:
                raise RecordError("exchanges or cards are recorded before the contract choice", deal_no=number)
            _unfinished(drec, is_last)
            out.append(dataclasses.replace(drec, leaders=()))
            continue
        act(Choose(drec.contract))
        for i, discards in enumerate(drec.exchanges):
            if not isinstance(discards, CardSet):
                raise RecordError(f"exchange {i + 1}: the discards are a CardSet, not a {type(discards).__name__}",
                                  deal_no=number)
            act(Exchange(discards))
        leaders: list[int] = []
        for t, cards in enumerate(drec.tricks, start=1):
            if t > record.rules.n_tricks:  # else the engine's word for it: a card in the next deal's choose phase
                raise RecordError(f"a deal has {record.rules.n_tricks} tricks, so trick {t} is one too many",
                                  deal_no=number, trick_no=t)
            if not isinstance(cards, tuple):
                raise RecordError(f"a trick's cards are a tuple of cards, not a {type(cards).__name__}",
                                  deal_no=number, trick_no=t)
            if (problem := _trick_size_problem(cards, t, len(drec.tricks))) is not None:
                raise RecordError(problem, deal_no=number, trick_no=t)
            if deal.phase is Phase.PLAY and not deal.trick:
                leader = deal.to_move
                if drec.leaders is not None and t <= len(drec.leaders) and drec.leaders[t - 1] != leader:
                    raise RecordError(
                        f"the trick is said to be led by seat {drec.leaders[t - 1]}, but seat {leader} leads it",
                        deal_no=number, trick_no=t,
                    )
                leaders.append(leader)
            for card in cards:
                if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card < 52:
                    raise RecordError(f"{_shown(card)} is not a card", deal_no=number, trick_no=t)
                act(Play(CARDS[card]), t, CARDS[card])
        if drec.leaders is not None and len(drec.leaders) != len(drec.tricks):
            raise RecordError(f"{len(drec.leaders)} trick leaders for {len(drec.tricks)} tricks", deal_no=number)
        filled = dataclasses.replace(drec, deck=tuple(CARDS[c] for c in deal.deck), leaders=tuple(leaders))
        if deal.phase is Phase.DONE:
            won, scores = tuple(deal.tricks_won), tuple(deal.scores())
            _claims(drec, won, scores)
            filled = dataclasses.replace(filled, tricks_won=won, scores=scores)
        else:
            _unfinished(drec, is_last)
        out.append(filled)
    object.__setattr__(record, "deals", tuple(out))
    return match


# -- reading the text form ---------------------------------------------------------------------------


def _int(text: str, what: str, line_no: int, deal_no: int | None = None) -> int:
    if not _INT.fullmatch(text.strip()):
        raise RecordSyntaxError(f"{what} must be a whole number, not {quoted(text)}", line_no=line_no,
                                deal_no=deal_no)
    return int(text)


def _ints(text: str, what: str, line_no: int, deal_no: int | None) -> tuple[int, ...]:
    return tuple(_int(part, what, line_no, deal_no) for part in text.split())


def _card_list(text: str, line_no: int | None, deal_no: int | None, trick_no: int | None = None) -> list[Card]:
    """The cards of *text*, or a :class:`RecordSyntaxError` at *line_no* (``None`` in JSON, which has no lines).

    Spaces (or tabs, or commas) separate the cards; a control character or a line separator does not, though
    :meth:`str.split` would split at it (:func:`_no_stray`)."""
    _no_stray(text, "the cards", line_no=line_no, deal_no=deal_no, trick_no=trick_no)
    try:
        return parse_cards(text)
    except CardParseError as error:
        raise RecordSyntaxError(str(error), line_no=line_no, deal_no=deal_no, trick_no=trick_no) from None


class _TextDeal:
    """One ``[Deal "n"]`` block as the text reader collects it, each entry with its line for the messages: the
    tags (value, line), the exchanges (seat, discards, line) and the tricks (leader, cards, line)."""

    def __init__(self, number: int, line_no: int) -> None:
        self.number = number
        self.line_no = line_no
        self.tags: dict[str, tuple[str, int]] = {}
        self.exchanges: list[tuple[int, CardSet, int]] = []
        self.tricks: list[tuple[int, tuple[Card, ...], int]] = []
        self.sections: set[str] = set()


_DEAL_TAGS: Final = frozenset({"Dealer", "Commit", "Salt", "Deck", "Contract", "Tricks", "Scores"})


def read_text(text: str) -> MatchRecord:
    """Read the text form of a record, checking every rule.

    Lines end with LF or CRLF, and with nothing else: the text is split at LF alone and one CR is taken off the end
    of each line, so a form feed, a lone CR, a NEL (U+0085) or a line or paragraph separator (U+2028, U+2029), at
    which :meth:`str.splitlines` would also split, stays inside its line.  There it is refused, named, with its
    line: outside a comment a line holds no control character but the tab (:data:`_STRAY`), and a tag value not
    even that (:func:`_check_text`).  A comment (a line whose first non-blank character is ``%``) is skipped
    whatever it holds, and counts as one line, as it does in an editor.

    Raises:
        RecordSyntaxError: for a line that cannot be read, naming the line.
        RecordError: for the first rule the record breaks, naming the deal, trick, card and reason.
        CommitmentError: for a deck that does not match its commitment.
    """
    if not isinstance(text, str):
        raise RecordSyntaxError(f"a record is text, not {type(text).__name__}")
    text = text.removeprefix("\ufeff")  # a byte order mark, as some editors write
    header: dict[str, tuple[str, int]] = {}
    deals: list[_TextDeal] = []
    section: str | None = None
    for line_no, raw in enumerate(text.split("\n"), start=1):
        raw = raw.removesuffix("\r")  # a CRLF line end
        line = raw.strip()
        if line.startswith("%"):
            continue  # a comment, whatever it holds
        current = deals[-1] if deals else None
        number = current.number if current else None
        match = _TAG_LINE.fullmatch(line) if line.startswith("[") else None
        if (stray := _STRAY.search(raw)) is not None:
            at = stray.start() - (len(raw) - len(raw.lstrip()))  # where it is in *line*
            if match is None or match.group(2) is None or not match.start(2) <= at < match.end(2):
                raise RecordSyntaxError(_stray_reason(stray.group()), line_no=line_no, deal_no=number)
            # else it is inside a tag value, refused below as that tag's (or player's name's) character
        if not line:
            continue
        if line.startswith("["):
            if match is None:
                raise RecordSyntaxError(f"malformed tag {line[:60]!r}", line_no=line_no, deal_no=number)
            name, quoted = match.group(1), match.group(2)
            section = None
            if quoted is None:
                if current is None or name not in ("Exchange", "Play"):
                    raise RecordSyntaxError(f"[{name}] is no section here", line_no=line_no, deal_no=number)
                if name in current.sections:
                    raise RecordSyntaxError(f"a second [{name}] section", line_no=line_no, deal_no=number)
                current.sections.add(name)
                section = name
                continue
            # in every tag, before its value is read; a player's name is named as check_name names it
            is_player = current is None and name in ("Player0", "Player1", "Player2", "Player3")
            what = f"player {name[-1]}'s name (tag {name})" if is_player else f"tag {name}"
            value = _check_text(what, _unescape(quoted, what, line_no, number), line_no, number)
            if name == "Deal":
                expected = len(deals) + 1
                if _int(value, "the deal number", line_no) != expected:
                    raise RecordSyntaxError(f"deal {value!r} where deal {expected} was expected", line_no=line_no)
                deals.append(_TextDeal(expected, line_no))
            elif current is None:
                if name in header:
                    raise RecordSyntaxError(f"a second {name} tag", line_no=line_no)
                header[name] = (value, line_no)
            else:
                if name not in _DEAL_TAGS:
                    raise RecordSyntaxError(f"unknown tag {name} in a deal", line_no=line_no, deal_no=number)
                if name in current.tags:
                    raise RecordSyntaxError(f"a second {name} tag", line_no=line_no, deal_no=number)
                current.tags[name] = (value, line_no)
            continue
        if current is None or section is None:
            raise RecordSyntaxError(f"unexpected line {line[:60]!r} outside a section", line_no=line_no, deal_no=number)
        if section == "Exchange":
            m = _EXCHANGE_LINE.fullmatch(line)
            if m is None:
                raise RecordSyntaxError(f"malformed exchange line {line[:60]!r}", line_no=line_no, deal_no=number)
            rest = m.group(2).strip()
            cards = [] if rest in ("-", "") else _card_list(rest, line_no, number)
            discards = CardSet(cards)
            if len(discards) != len(cards):
                raise RecordSyntaxError("a card is discarded twice", line_no=line_no, deal_no=number)
            current.exchanges.append((int(m.group(1)), discards, line_no))
        else:
            m = _PLAY_LINE.fullmatch(line)
            if m is None:
                raise RecordSyntaxError(f"malformed trick line {line[:60]!r}", line_no=line_no, deal_no=number)
            trick_no = int(m.group(1))
            if trick_no != len(current.tricks) + 1:
                raise RecordSyntaxError(
                    f"trick {trick_no} where trick {len(current.tricks) + 1} was expected",
                    line_no=line_no, deal_no=number,
                )
            cards = _card_list(m.group(3), line_no, number, trick_no)
            current.tricks.append((int(m.group(2)), tuple(cards), line_no))
    return _build_from_text(header, deals)


def _build_from_text(header: dict[str, tuple[str, int]], text_deals: list[_TextDeal]) -> MatchRecord:
    version = header.pop("RecordVersion", None)
    if version is None:
        raise RecordSyntaxError("no RecordVersion tag: this is not a mizerka record")
    if version[0] != str(RECORD_VERSION):
        raise RecordSyntaxError(
            f"record version {quoted(version[0])} is not supported (this is version {RECORD_VERSION})",
            line_no=version[1],
        )
    if "Variant" not in header:
        raise RecordSyntaxError("no Variant tag")
    spec, line_no = header.pop("Variant")
    rules = _rules(spec, line_no)
    n = rules.n_seats
    players = []
    for seat in range(n):
        entry = header.pop(f"Player{seat}", None)
        if entry is None:
            raise RecordSyntaxError(f"no Player{seat} tag")
        players.append(check_name(entry[0], f"player {seat}'s name (tag Player{seat})", entry[1]))
    for seat in range(n, 4):
        if f"Player{seat}" in header:
            raise RecordSyntaxError(f"Player{seat} tag in a {n}-player variant", line_no=header[f"Player{seat}"][1])
    if "FirstDealer" not in header:
        raise RecordSyntaxError("no FirstDealer tag")
    first_text, line_no = header.pop("FirstDealer")
    first_dealer = _int(first_text, "the first dealer", line_no)
    if not 0 <= first_dealer < n:  # before the deals' Dealer tags are checked against it
        raise RecordSyntaxError(f"the first dealer must be a seat 0-{n - 1}, not {first_dealer}", line_no=line_no)
    result = header.pop("Result", None)
    tags = {name: value for name, (value, _) in header.items()}  # each value was checked on its line
    deals = []
    for td in text_deals:
        deals.append(_deal_from_text(td, rules, (first_dealer + td.number - 1) % n))
    record = _construct(rules, players, first_dealer, deals, tags)
    if result is None:
        if record.is_over():  # as in JSON: a finished match states its result, the check on the deals' totals
            raise RecordSyntaxError(_NO_RESULT)
    else:
        _check_result(record, result[0], result[1])
    return record


def _rules(spec: object, line_no: int | None = None) -> Rules:
    if not isinstance(spec, str):
        raise RecordSyntaxError(f"the variant must be text, not {_shown(spec)}", line_no=line_no)
    _no_stray(spec, "the variant", line_no=line_no)
    if not spec.strip():  # 'standard' is written out by every writer: an empty tag is a lost value, not a default
        raise RecordSyntaxError("the variant is empty (a record names it, e.g. 'standard')", line_no=line_no)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return parse_variant(spec)
    except RulesError as error:
        raise RecordSyntaxError(str(error), line_no=line_no) from None


def _construct(
    rules: Rules, players: list[str], first_dealer: int, deals: list[DealRecord], tags: dict[str, str]
) -> MatchRecord:
    return MatchRecord(rules, tuple(players), first_dealer, tuple(deals), tags)


_NO_RESULT: Final = "the result is missing, but the match is over: a finished match states its totals"
"""Both forms refuse a finished match without its result (the text form's ``Result`` tag, JSON's ``result``);
an unfinished one may leave it out (as ``*`` or ``null``)."""


def _check_result(record: MatchRecord, value: str, line_no: int) -> None:
    if value.strip() == "*":
        if record.is_over():
            raise RecordSyntaxError(f"the result is '*' but the match is over: {_numbers(record.totals, signed=True)}",
                                    line_no=line_no)
        return
    if not record.is_over():
        raise RecordSyntaxError(f"a result {quoted(value)} for a match that is not over", line_no=line_no)
    if _ints(value, "a total", line_no, None) != record.totals:
        raise RecordSyntaxError(
            f"the result says {quoted(value)}, but the deals add up to {_numbers(record.totals, signed=True)}",
            line_no=line_no,
        )


def _deal_from_text(td: _TextDeal, rules: Rules, rotation: int) -> DealRecord:
    """The deal *td* collected, as a :class:`DealRecord` for *rules*, whose dealer must be seat *rotation*.

    What can be checked on a line is checked here, so that the message gives the line: the dealer, the deck's and
    the contract's text, the seat of each exchange, the number of tricks and of cards in each, and the number of
    values in ``Tricks`` and ``Scores``.  The rest (is the card in hand, do the scores agree) needs the replay, in
    :class:`MatchRecord`, and is named by deal, trick and card."""
    n = rules.n_seats
    number = td.number
    tags = td.tags

    def get(name: str) -> tuple[str, int] | None:
        return tags.get(name)

    dealer_tag = get("Dealer")
    if dealer_tag is None:
        raise RecordSyntaxError("no Dealer tag", line_no=td.line_no, deal_no=number)
    dealer = _int(dealer_tag[0], "the dealer", dealer_tag[1], number)
    if dealer != rotation:
        raise RecordSyntaxError(f"the dealer is seat {dealer}, but the deal passes left to seat {rotation}",
                                line_no=dealer_tag[1], deal_no=number)
    deck: tuple[Card, ...] | None = None
    if (entry := get("Deck")) is not None:
        deck = tuple(_card_list(entry[0], entry[1], number))
        try:
            check_deck(deck)
        except DeckError as error:
            raise RecordSyntaxError(str(error), line_no=entry[1], deal_no=number) from None
    contract: Contract | None = None
    if (entry := get("Contract")) is not None:
        try:
            contract = Contract.from_str(entry[0])
        except RulesError as error:
            raise RecordSyntaxError(str(error), line_no=entry[1], deal_no=number) from None
    exchanges = []
    for i, (seat, discards, line_no) in enumerate(td.exchanges):
        expected = (dealer + 1 + i) % n
        if seat != expected:
            raise RecordSyntaxError(
                f"exchange {i + 1} is by seat {expected}, not seat {seat}", line_no=line_no, deal_no=number
            )
        exchanges.append(discards)
    for t, (_, cards, line_no) in enumerate(td.tricks, start=1):
        if t > rules.n_tricks:
            raise RecordSyntaxError(f"a deal has {rules.n_tricks} tricks, so trick {t} is one too many",
                                    line_no=line_no, deal_no=number, trick_no=t)
        if (problem := _trick_size_problem(cards, t, len(td.tricks))) is not None:
            raise RecordSyntaxError(problem, line_no=line_no, deal_no=number, trick_no=t)
    tricks_won = scores = None
    if (entry := get("Tricks")) is not None:
        tricks_won = _ints(entry[0], "a trick count", entry[1], number)
        if (problem := _per_seat_problem("the tricks", tricks_won, n)) is not None:
            raise RecordSyntaxError(problem, line_no=entry[1], deal_no=number)
    if (entry := get("Scores")) is not None:
        scores = _ints(entry[0], "a score", entry[1], number)
        if (problem := _per_seat_problem("the scores", scores, n)) is not None:
            raise RecordSyntaxError(problem, line_no=entry[1], deal_no=number)
    commit_tag, salt_tag = get("Commit"), get("Salt")
    return DealRecord(
        number=number,
        dealer=dealer,
        deck=deck,
        contract=contract,
        exchanges=tuple(exchanges),
        tricks=tuple(cards for _, cards, _ in td.tricks),
        leaders=tuple(leader for leader, _, _ in td.tricks),
        tricks_won=tricks_won,
        scores=scores,
        commit=commit_tag[0] if commit_tag else None,
        salt=salt_tag[0] if salt_tag else None,
    )


# -- reading JSON -----------------------------------------------------------------------------------


def _field(data: Mapping[str, object], key: str, kind: type | tuple[type, ...], where: str, *,
           optional: bool = False, deal_no: int | None = None, trick_no: int | None = None) -> object:
    """``data[key]``, checked to be a *kind*.  *where* names the object for the message ("the record"); inside
    a deal or a trick it is empty, since the error's place (``deal 3, trick 2: ``) already names it."""
    if key not in data or data[key] is None:
        if optional:
            return None
        raise RecordSyntaxError(f"{where} has no {key!r} field" if where else f"no {key!r} field",
                                deal_no=deal_no, trick_no=trick_no)
    value = data[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        prefix = f"{where}: field" if where else "field"
        raise RecordSyntaxError(f"{prefix} {key!r} has the wrong type ({type(value).__name__})",
                                deal_no=deal_no, trick_no=trick_no)
    return value


_MATCH_KEYS: Final = frozenset({"format", "version", "tags", "variant", "players", "first_dealer", "result", "deals"})
_DEAL_KEYS: Final = frozenset(
    {"deal", "dealer", "commit", "salt", "deck", "contract", "exchanges", "tricks", "tricks_won", "scores"}
)


class _DuplicateKey(Exception):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _no_duplicates(pairs: list[tuple[str, object]]) -> dict[str, object]:
    """A JSON object as a dict, refusing a key given twice (``json`` would keep the last one silently, where the
    text form refuses a second tag)."""
    data: dict[str, object] = {}
    for key, value in pairs:
        if key in data:
            raise _DuplicateKey(key)
        data[key] = value
    return data


def read_json(text: str | bytes) -> MatchRecord:
    """Read the JSON form of a record, checking every rule.

    Raises:
        RecordSyntaxError: for text that is not JSON, or JSON that is not a record (a missing, unknown or
            ill-typed field).
        RecordError, CommitmentError: as :func:`read_text`.
    """
    if isinstance(text, bytes):
        text = text.removeprefix(b"\xef\xbb\xbf")
    elif isinstance(text, str):
        text = text.removeprefix("\ufeff")  # a byte order mark, as some editors write
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicates)
    except _DuplicateKey as error:
        raise RecordSyntaxError(f"the field {error.key!r} is given twice") from None
    except (ValueError, RecursionError, TypeError) as error:
        line = getattr(error, "lineno", None)
        raise RecordSyntaxError(f"not JSON: {error}", line_no=line) from None
    return from_dict(data)


def from_dict(data: object) -> MatchRecord:
    """A record from the Python data of the JSON form (:meth:`MatchRecord.to_dict`).

    Raises:
        RecordSyntaxError, RecordError, CommitmentError: as :func:`read_json`.
    """
    if not isinstance(data, dict):
        raise RecordSyntaxError("a JSON record is an object")
    unknown = sorted(str(k) for k in set(data) - _MATCH_KEYS)
    if unknown:
        raise RecordSyntaxError(f"unknown field(s) {', '.join(unknown)}")
    if data.get("format") != JSON_FORMAT:
        raise RecordSyntaxError(f"the format field must be {JSON_FORMAT!r}: this is not a mizerka record")
    if type(data.get("version")) is not int or data.get("version") != RECORD_VERSION:
        raise RecordSyntaxError(f"record version {_shown(data.get('version'))} is not supported")
    rules = _rules(_field(data, "variant", str, "the record"))
    players = _field(data, "players", list, "the record")
    assert isinstance(players, list)
    if not all(isinstance(p, str) for p in players):
        raise RecordSyntaxError("the players must be names (text)")
    first_dealer = _field(data, "first_dealer", int, "the record")
    assert isinstance(first_dealer, int)
    tags = _field(data, "tags", dict, "the record", optional=True) or {}
    assert isinstance(tags, dict)
    raw_deals = _field(data, "deals", list, "the record")
    assert isinstance(raw_deals, list)
    deals = [_deal_from_json(raw, index + 1) for index, raw in enumerate(raw_deals)]
    record = _construct(rules, players, first_dealer, deals, tags)
    result = data.get("result")
    if result is None:
        if record.is_over():
            raise RecordSyntaxError(_NO_RESULT)
    else:
        if not isinstance(result, list) or not record.is_over():
            raise RecordSyntaxError(f"a result {_shown(result)} for a match that is not over, or not a list of totals")
        if not all(isinstance(r, int) and not isinstance(r, bool) for r in result):  # 10.0 == 10, True == 1
            raise RecordSyntaxError(f"the result's totals must be whole numbers, not {_shown(result)}")
        if tuple(result) != record.totals:
            raise RecordError(f"the result says {_shown(result)}, but the deals add up to {list(record.totals)}")
    return record


def _deal_from_json(raw: object, number: int) -> DealRecord:
    where = ""  # the error's place says "deal N"
    if not isinstance(raw, dict):
        raise RecordSyntaxError("a deal is an object", deal_no=number)
    unknown = sorted(str(k) for k in set(raw) - _DEAL_KEYS)
    if unknown:
        raise RecordSyntaxError(f"unknown field(s) {', '.join(unknown)}", deal_no=number)
    if _field(raw, "deal", int, where, deal_no=number) != number:
        raise RecordSyntaxError(f"deal number {raw['deal']!r} where deal {number} was expected", deal_no=number)
    dealer = _field(raw, "dealer", int, where, deal_no=number)
    assert isinstance(dealer, int)

    def cards(text: object, trick_no: int | None = None) -> list[Card]:
        if not isinstance(text, str):
            raise RecordSyntaxError(f"cards must be text, not {_shown(text)}", deal_no=number, trick_no=trick_no)
        return [] if text.strip() == "-" else _card_list(text, None, number, trick_no)

    deck_field = _field(raw, "deck", str, where, optional=True, deal_no=number)
    deck = tuple(cards(deck_field)) if deck_field is not None else None
    if deck is not None:
        try:
            check_deck(deck)
        except DeckError as error:
            raise RecordSyntaxError(str(error), deal_no=number) from None
    contract_field = _field(raw, "contract", str, where, optional=True, deal_no=number)
    contract = None
    if contract_field is not None:
        assert isinstance(contract_field, str)
        try:
            contract = Contract.from_str(_no_stray(contract_field, "the contract", deal_no=number))
        except RulesError as error:
            raise RecordSyntaxError(str(error), deal_no=number) from None
    exchanges = []
    raw_exchanges = _field(raw, "exchanges", list, where, optional=True, deal_no=number) or []
    assert isinstance(raw_exchanges, list)
    for item in raw_exchanges:
        listed = cards(item)
        discards = CardSet(listed)
        if len(discards) != len(listed):
            raise RecordSyntaxError("a card is discarded twice", deal_no=number)
        exchanges.append(discards)
    tricks, leaders = [], []
    raw_tricks = _field(raw, "tricks", list, where, optional=True, deal_no=number) or []
    assert isinstance(raw_tricks, list)
    for trick_no, item in enumerate(raw_tricks, start=1):
        if not isinstance(item, dict) or set(item) != {"leader", "cards"}:
            raise RecordSyntaxError("a trick is an object with 'leader' and 'cards'", deal_no=number, trick_no=trick_no)
        leader = _field(item, "leader", int, "", deal_no=number, trick_no=trick_no)
        assert isinstance(leader, int)
        leaders.append(leader)
        tricks.append(tuple(cards(item["cards"], trick_no)))
    numbers: list[tuple[int, ...] | None] = []
    for key in ("tricks_won", "scores"):
        values = _field(raw, key, list, where, optional=True, deal_no=number)
        if values is None:
            numbers.append(None)
            continue
        assert isinstance(values, list)
        if not all(isinstance(v, int) and not isinstance(v, bool) and abs(v) < 10**6 for v in values):
            raise RecordSyntaxError(f"{key} must be whole numbers", deal_no=number)
        numbers.append(tuple(values))
    commit_field = _field(raw, "commit", str, where, optional=True, deal_no=number)
    salt_field = _field(raw, "salt", str, where, optional=True, deal_no=number)
    return DealRecord(
        number=number,
        dealer=dealer,
        deck=deck,
        contract=contract,
        exchanges=tuple(exchanges),
        tricks=tuple(tricks),
        leaders=tuple(leaders),
        tricks_won=numbers[0],
        scores=numbers[1],
        commit=commit_field,  # type: ignore[arg-type]
        salt=salt_field,  # type: ignore[arg-type]
    )


# -- either form --------------------------------------------------------------------------------------


def read(source: str | bytes | os.PathLike[str]) -> MatchRecord:
    """Read a record in either form: JSON if its first non-blank character is ``{``, else the text form.

    *source* is the record itself (``str`` or UTF-8 ``bytes``), or a path (:class:`os.PathLike`, e.g.
    :class:`pathlib.Path`) to a file holding it.  A ``str`` is always the text: a file name given as a ``str``
    is refused with a message that says to wrap it in :class:`pathlib.Path`.

    Raises:
        RecordSyntaxError, RecordError, CommitmentError: as :func:`read_text` and :func:`read_json`.
        OSError: if the file cannot be read.

    A file larger than :data:`MAX_RECORD_BYTES` is a :class:`RecordSyntaxError`.
    """
    given_str = isinstance(source, str)  # (only then can a file name have been meant: the hint below)
    if isinstance(source, os.PathLike):
        with open(source, "rb") as file:
            source = file.read(MAX_RECORD_BYTES + 1)
        if len(source) > MAX_RECORD_BYTES:
            raise RecordSyntaxError(f"the file is larger than {MAX_RECORD_BYTES // (1024 * 1024)} MiB: not a record")
    if isinstance(source, bytes):
        try:
            source = source.decode("utf-8")
        except UnicodeDecodeError as error:
            raise RecordSyntaxError(f"a record is UTF-8 text: {error}") from None
    if not isinstance(source, str):
        raise RecordSyntaxError(f"a record is text, not {type(source).__name__}")
    source = source.removeprefix("\ufeff")
    if source.lstrip().startswith("{"):
        return read_json(source)
    if source.lstrip().startswith("["):  # a tag, or JSON that is no object: '[]' read as a "malformed tag '[]'"
        try:
            data = json.loads(source)
        except (ValueError, RecursionError):
            pass  # no JSON: the text form's tag (its own message)
        else:
            raise RecordSyntaxError(f"a JSON record is an object ({{...}}), not a list of {len(data)} item"
                                    f"{'' if len(data) == 1 else 's'}: this is not a mizerka record")
    try:
        return read_text(source)
    except RecordSyntaxError as error:
        one_line = source.strip()
        if not given_str or not one_line or "\n" in one_line:
            raise
        # a one-line str is most often a file name passed where the record's text goes (python-chess's readers
        # take a file, ours the text): say how to read the file
        raise RecordSyntaxError(
            f"{error.reason}; read() takes the record's text, so a file name given as a str is read as text:"
            f" to read the file, pass pathlib.Path({quoted(one_line)})",
            line_no=error.line_no,
        ) from None
