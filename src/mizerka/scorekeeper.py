"""The scorekeeper for a real card table: ``mizerka score``.

The cards are real; only the score is kept here.  Per deal the keeper enters the contract forehand chose and the
tricks each player took; :class:`ScoreKeeper` checks every entry against the rules before it accepts it, and
the score sheet comes out in the seeds' form (:class:`~mizerka.scoresheet.ScoreSheet`): players × contracts with
an X for each contract used, and one row per deal with "take" or "avoid", the scores and the running totals.

The state *is* a score-only :class:`~mizerka.record.MatchRecord` (contracts and tricks, no cards), so saving is
writing the record and resuming is reading it back; the record module validates it once more.

>>> keeper = ScoreKeeper.new(["Ala", "Bolek", "Cezary"], first_dealer="Cezary")
>>> keeper.dealer_name, keeper.chooser_name
('Cezary', 'Ala')
>>> keeper.enter_contract("hearts")
<Contract.HEARTS: 2>
>>> keeper.enter_tricks("5 4 4").scores
(-2, -1, 3)
>>> keeper.enter_contract("MZ"), keeper.enter_tricks("5 4 3")
Traceback (most recent call last):
...
mizerka.scorekeeper.EntryError: the tricks add up to 12, not 13
>>> keeper.enter_tricks("Ala 7, Cezary 3").tricks
(7, 3, 3)
>>> print(keeper.sheet().grid())
player  ♣  ♦  ♥  ♠  NT  MZ  total
Ala           X              -2
Bolek                   X    -3
Cezary                       +5

Every bad entry raises :class:`EntryError` (a ``ValueError``) with a message that names the problem, and
changes nothing.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import os
import re
import sys
import unicodedata
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final, NoReturn

import click

from mizerka._files import is_read_only, write_atomically
from mizerka.cli import ascii_text, read_variant, terminal_width, unicode_option
from mizerka.match import DealResult, Outcome
from mizerka.record import DealRecord, MatchRecord, RecordError, char_name, char_reason, name_key, read
from mizerka.record import check_name as check_record_name
from mizerka.rules import STANDARD, Contract, Role, Rules, RulesError
from mizerka.scoresheet import ScoreSheet, signed

__all__ = ["COMMAND_WORDS", "SETUP_REASONS", "EntryError", "ScoreKeeper", "score_command"]

COMMAND_WORDS = frozenset({"undo", "sheet", "help", "?", "quit", "exit"})
"""Words that are commands at every prompt (so they cannot be names)."""


class EntryError(ValueError):
    """An entry the scorekeeper cannot accept; the message says why.

    Attributes:
        reason: for a refused setup of a new match (:meth:`ScoreKeeper.new`), why, as a code and its parameters
            for a client to say in its own language (:data:`SETUP_REASONS`), e.g.
            ``{"code": "name_repeated", "player": 2, "same_as": 1}``; ``None`` for the other refusals.
    """

    def __init__(self, message: str, reason: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.reason = reason


SETUP_REASONS: Final = {
    # a name, as the lobby's names are refused (mizerka.server.players.NAME_REASONS: the same codes, the same
    # parameters), each with `player`: the name's number (from 1), as the message's "player N's name"
    "name_empty": "no name, or spaces alone",
    "name_too_long": "over `max` characters (40; 1000 for a record's own limit)",
    "name_unprintable_char": "a control, format or unprintable character: `char`, `char_name`",
    "name_invisible_char": "an invisible character (a blank filler, a default-ignorable one): `char`, `char_name`",
    "name_leading_mark": "begins with a combining mark, which has no letter to sit on: `char`, `char_name`",
    # a name, for what only the score keeper refuses
    "name_command_word": "a command word of the prompts (`word`: undo, sheet, help, ?, quit, exit)",
    "name_number": "a number, which reads as tricks",
    "name_numbers": "numbers alone (\"2 4\"), which read as tricks",
    "name_repeated": "the same as player `same_as`'s (from 1), ignoring case and compatibility forms",
    # the rest of the setup
    "player_count": "`count` names for a variant that seats `seats`",
    "no_seat": "the first dealer `seat` (from 0) is no seat",
    "dealer_fixed": "the variant has seat `seat` (`name`) deal first",
}
"""Why :meth:`ScoreKeeper.new` refuses a setup: the codes of :attr:`EntryError.reason`, each with what it means and
its parameters.  A name's reasons are the lobby's where they mean the same (docs/protocol.md), with ``player``."""

_RECORD_NAME_REASONS: Final = {
    "empty": "name_empty", "too_long": "name_too_long", "control_char": "name_unprintable_char",
    "bidi_control": "name_unprintable_char", "surrogate": "name_unprintable_char",
    "invisible_char": "name_invisible_char", "leading_mark": "name_leading_mark",
}
"""A record's refusal of a name (:attr:`mizerka.record.RecordError.code`) as a setup reason."""


def _record_reason(error: RecordError) -> dict[str, Any] | None:
    """The setup reason of a name the record refuses, where its code has one."""
    code = _RECORD_NAME_REASONS.get(error.code or "")
    if code is None:
        return None
    if code == "name_too_long":
        return {"code": code, "max": 1000}
    if code == "name_empty":
        return {"code": code}
    return char_reason(code, error.char) if error.char else {"code": code}


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


class ScoreKeeper:
    """A match at a real table, entered deal by deal.  The state is a score-only :class:`MatchRecord`.

    Build one with :meth:`new` (names and the first dealer) or :meth:`from_record` (resume).
    """

    def __init__(self, record: MatchRecord) -> None:
        if record.deals and not record.score_only:
            raise EntryError("this record holds the cards of the deals; the scorekeeper keeps score-only records")
        if record.deals and record.deals[-1].contract is None:
            # a deal begun in the record without its contract says nothing the keeper does not know (its number
            # and dealer follow from the deals before): it is entered afresh, contract first
            record = dataclasses.replace(record, deals=record.deals[:-1])
        self.record = record

    # -- building --------------------------------------------------------------------------------------

    @classmethod
    def new(cls, players: Sequence[str], first_dealer: str | int, rules: Rules = STANDARD) -> ScoreKeeper:
        """A fresh match.  *first_dealer* is a name (or a seat number from 0).

        Raises:
            EntryError: for a wrong number of names, an empty, repeated or reserved name, an unknown first dealer.
        """
        names = check_names(players)
        if len(names) != rules.n_seats:
            raise EntryError(f"this variant seats {rules.n_seats} players, not {len(names)}",
                             {"code": "player_count", "seats": rules.n_seats, "count": len(names)})
        if isinstance(first_dealer, bool) or not isinstance(first_dealer, int | str):
            raise EntryError(f"the first dealer is a name or a seat number, not {first_dealer!r}")
        seat = first_dealer if isinstance(first_dealer, int) else find_player(first_dealer, names)
        if not 0 <= seat < len(names):
            raise EntryError(f"there is no seat {seat}", {"code": "no_seat", "seat": seat})
        if rules.first_dealer is not None and rules.first_dealer != seat:
            raise EntryError(f"this variant has {names[rules.first_dealer]} deal first",
                             {"code": "dealer_fixed", "seat": rules.first_dealer, "name": names[rules.first_dealer]})
        try:
            return cls(MatchRecord(rules, tuple(names), seat, (), {"Event": "Scorekeeper"}))
        except RecordError as error:
            raise EntryError(str(error)) from None

    @classmethod
    def from_record(cls, record: MatchRecord) -> ScoreKeeper:
        """Any record, its names as they are (a record written elsewhere; see :meth:`load` for a resumed file)."""
        return cls(record)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> ScoreKeeper:
        """Resume from a saved file (``mizerka score --resume``).  Its players' names must be ones a new match
        accepts (:func:`check_names`): with two names equal but for case, a command word or a number for a name,
        a trick entry by name could never succeed, so such a file is refused, naming the player and the reason.

        Raises:
            EntryError: if the file is not a valid score-only record, or holds a name a new match refuses (the
                message names the problem).
            OSError: if it cannot be read.
        """
        try:
            record = read(Path(path))
        except RecordError as error:
            raise EntryError(f"{path} is not a valid score record: {error}") from None
        try:
            check_names(record.players)
        except EntryError as error:
            raise EntryError(f"{path} cannot be resumed: {error} (a new match refuses that name too)") from None
        try:
            return cls(record)
        except RecordError as error:
            raise EntryError(f"{path} is not a valid score record: {error}") from None

    # -- where the match stands ------------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        return self.record.rules

    @property
    def players(self) -> tuple[str, ...]:
        return self.record.players

    @property
    def deals(self) -> tuple[DealRecord, ...]:
        return self.record.deals

    @property
    def pending(self) -> Contract | None:
        """The contract of the deal being entered, once entered and before its tricks."""
        if self.deals and not self.deals[-1].is_over:
            return self.deals[-1].contract
        return None

    @property
    def deal_no(self) -> int:
        """The number (from 1) of the deal being entered (``n_deals + 1`` once the match is over)."""
        done = sum(1 for d in self.deals if d.is_over)
        return done + 1

    def is_over(self) -> bool:
        return self.record.is_over()

    def dealer_of(self, deal_no: int) -> int:
        return (self.record.first_dealer + deal_no - 1) % self.rules.n_seats

    def active_of(self, deal_no: int) -> tuple[int, ...]:
        """The seats in play in a deal, in role order (forehand, middlehand, dealer's role)."""
        dealer, n = self.dealer_of(deal_no), self.rules.n_seats
        return tuple((dealer + 1 + role) % n for role in Role)

    @property
    def dealer_name(self) -> str:
        return self.players[self.dealer_of(self.deal_no)]

    @property
    def chooser(self) -> int:
        return self.active_of(self.deal_no)[Role.FOREHAND]

    @property
    def chooser_name(self) -> str:
        return self.players[self.chooser]

    def used_by(self, seat: int | None, *, besides: int | None = None) -> list[Contract]:
        """Contracts used by *seat* in the entered deals (by anybody, with ``global_unique``), leaving out the deal
        numbered *besides* (the one being corrected)."""
        used = []
        for deal in self.deals:
            if deal.contract is None or deal.number == besides:
                continue
            if seat is None or self.rules.global_unique_contracts or self.active_of(deal.number)[0] == seat:
                used.append(deal.contract)
        return used

    def allowed_contracts(self) -> list[Contract]:
        """The contracts the current chooser may still choose."""
        used = self.used_by(self.chooser)
        return [c for c in self.rules.contracts if used.count(c) < self.rules.uses_per_contract]

    def correctable_contracts(self, deal_no: int) -> list[Contract]:
        """The contracts finished deal *deal_no* may be corrected to (its own among them): those its chooser may
        have with his other deals as they are.

        >>> keeper = ScoreKeeper.new(["Ala", "Bolek", "Cezary"], 0)
        >>> _ = keeper.enter_contract("S"); _ = keeper.enter_tricks("7 5 1")
        >>> [str(c) for c in keeper.correctable_contracts(1)]
        ['C', 'D', 'H', 'S', 'NT', 'MZ']
        """
        deal = self.finished_deal(deal_no)
        used = self.used_by(self.active_of(deal.number)[Role.FOREHAND], besides=deal.number)
        return [c for c in self.rules.contracts if used.count(c) < self.rules.uses_per_contract]

    def results(self) -> list[DealResult]:
        return self.record.results()

    def sheet(self) -> ScoreSheet:
        return ScoreSheet(self.players, self.results(), self.rules)

    def totals(self) -> tuple[int, ...]:
        return self.record.totals

    def outcome(self) -> Outcome:
        """The totals and the winners (everyone on the highest total shares the win)."""
        totals = self.totals()
        best = max(totals)
        return Outcome(totals, tuple(s for s, t in enumerate(totals) if t == best))

    # -- entries ---------------------------------------------------------------------------------------

    def parse_contract(self, text: str) -> Contract:
        """The contract *text* names, if the current chooser may choose it.

        Raises:
            EntryError: for no contract, one not in the variant, or one the chooser has used up.
        """
        if self.is_over():
            raise EntryError("the match is over: all deals are entered (undo takes back the last deal's tricks)")
        if self.pending is not None:
            raise EntryError(f"deal {self.deal_no}'s contract is already entered; enter its tricks (or undo)")
        contract = self.read_contract(text)
        allowed = self.allowed_contracts()
        left = " ".join(c.symbol for c in allowed)
        if contract not in self.rules.contracts:
            raise EntryError(f"{contract.label} is not played in this variant; choose from {left}")
        if contract not in allowed:
            who = "somebody" if self.rules.global_unique_contracts else self.chooser_name
            raise EntryError(f"{who} has no {contract.symbol} left to choose (already used); choose from {left}")
        return contract

    def enter_contract(self, text: str | Contract) -> Contract:
        """Record the contract of the current deal (its tricks follow)."""
        contract = self.parse_contract(str(text))
        deal = DealRecord(number=self.deal_no, dealer=self.dealer_of(self.deal_no), contract=contract)
        self._replace((*self.deals, deal))
        return contract

    def read_contract(self, text: str) -> Contract:
        """The contract *text* names: a letter, a suit symbol, or a name in English or Polish
        (:data:`POLISH_CONTRACTS`).

        Raises:
            EntryError: for text that names no contract, saying what may be typed.
        """
        try:
            polish = POLISH_CONTRACTS.get(_contract_key(text))
            return polish if polish is not None else Contract.from_str(text)  # (clubs is 0: no "or")
        except RulesError:
            options = " ".join(str(c) for c in self.rules.contracts)
            raise EntryError(f"{text.strip()!r} is not a contract: use one of {options}, a suit symbol, or a name "
                             "in English or Polish (hearts or kier, no-trump or bez atu, mizerka)") from None

    def tricks_order(self, deal_no: int | None = None) -> list[int]:
        """The seats whose tricks are entered for the current deal (or deal *deal_no*), in seat order (a sitting-out
        dealer is left out)."""
        active = set(self.active_of(self.deal_no if deal_no is None else deal_no))
        return [s for s in range(self.rules.n_seats) if s in active]

    def parse_tricks(self, text: str) -> tuple[int, ...]:
        """Tricks per seat from ``"7 5 1"`` (in the order of :meth:`tricks_order`) or ``"Ala 7, Bolek 5"``.

        In the named form one player may be left out: he took the tricks that are left.  A name may hold spaces
        and digits: the line is read with the players' names in mind (see :class:`_TrickReader`), so with the
        players ``Anna Maria``, ``Jan 2`` and ``Ola``, ``"Anna Maria 5, Jan 2 4"`` gives Ola the 4 left.  Where
        names overlap the longest wins (``"Jan 2 4"`` is Jan 2 with 4, even beside a player ``Jan``); a name in
        quotes (``'"Jan 2" 4'``) or ended by ``=`` (``"Jan=2"``) says it plainly.  A line the names leave in
        doubt is refused, and the message says how it could read.

        Raises:
            EntryError: for a missing contract, a bad number, an unknown, ambiguous or repeated name, a player
                who sits out, a wrong count, or tricks that do not add up to the deal's number of tricks.
        """
        if self.is_over():
            raise EntryError("the match is over: all deals are entered (undo takes back the last deal's tricks)")
        if self.pending is None:
            raise EntryError(f"enter deal {self.deal_no}'s contract first")
        return self._read_tricks(text, self.tricks_order())

    def _read_tricks(self, text: str, order: list[int]) -> tuple[int, ...]:
        """:meth:`parse_tricks` for a deal whose seats in play are *order*."""
        n_tricks = self.rules.n_tricks
        names = ", ".join(self.players[s] for s in order)
        text = " ".join(text.split())
        tokens = text.replace(",", " ").replace(";", " ").split()
        if not tokens:
            raise EntryError(f"give the tricks of {names}")
        reader = _TrickReader(text, self.players, names)
        by_seat: dict[int, int] = {}
        if all(_is_int(t) for t in tokens):
            named = reader.complete()
            if named:  # only a name made of numbers alone (an old record's) can read so: say so, guess nothing
                raise EntryError(f"{text!r} is ambiguous: the numbers for {names} in that order, or "
                                 f"{reader.spell(named[0])} by name; put the names in quotes")
            if len(tokens) != len(order):
                raise EntryError(f"give {len(order)} numbers, one each for {names} (got {len(tokens)})")
            for seat, token in zip(order, tokens, strict=True):
                by_seat[seat] = self._trick_count(seat, token)
        else:
            for pair in reader.choose():
                seat = pair.seat
                if seat not in order:
                    raise EntryError(f"{self.players[seat]} deals and sits out this deal")
                if seat in by_seat:
                    raise EntryError(f"{self.players[seat]} is named twice")
                by_seat[seat] = self._trick_count(seat, pair.count)
            missing = [s for s in order if s not in by_seat]
            if len(missing) == 1:
                rest = n_tricks - sum(by_seat.values())
                if rest < 0:
                    raise EntryError(f"the tricks already add up to {sum(by_seat.values())}, more than {n_tricks}")
                by_seat[missing[0]] = rest
            elif missing:
                raise EntryError("give the tricks of " + ", ".join(self.players[s] for s in missing) + " too")
        total = sum(by_seat.values())
        if total != n_tricks:
            raise EntryError(f"the tricks add up to {total}, not {n_tricks}")
        return tuple(by_seat.get(s, 0) for s in range(self.rules.n_seats))

    def _trick_count(self, seat: int, token: str) -> int:
        if not _is_int(token):
            raise EntryError(f"{token!r} is not a number of tricks (for {self.players[seat]})")
        digits = token.lstrip("+-").lstrip("0") or "0"
        if len(digits) > 6:  # no need to read it (int() refuses more than 4300 digits): it is far too many
            shown = token if len(token) <= 20 else f"{token[:20]}…"
            raise EntryError(f"{self.players[seat]} cannot take {shown} tricks (0 to {self.rules.n_tricks})")
        value = int(token)
        if not 0 <= value <= self.rules.n_tricks:
            raise EntryError(f"{self.players[seat]} cannot take {value} tricks (0 to {self.rules.n_tricks})")
        return value

    def enter_tricks(self, text: str | Sequence[int]) -> DealResult:
        """Record the tricks of the current deal; return its result (scores included).

        *text* is typed text (see :meth:`parse_tricks`) or a sequence of one count per seat, in seat order (0 for
        a dealer who sits out).
        """
        if not isinstance(text, str):
            text = self._counts_text(text, self.tricks_order())
        tricks = self.parse_tricks(text)
        last = dataclasses.replace(self.deals[-1], tricks_won=tricks)
        self._replace((*self.deals[:-1], last))
        return self.results()[-1]

    def _counts_text(self, counts: str | Sequence[int], order: list[int]) -> str:
        """One count per seat (0 for the dealer who sits out) as the line :meth:`parse_tricks` reads; text as it is."""
        if isinstance(counts, str):
            return counts
        if isinstance(counts, bytes) or not isinstance(counts, Sequence):
            raise EntryError(f"give the tricks as text or as {self.rules.n_seats} counts, one per seat, not "
                             f"{counts!r}")
        if len(counts) != self.rules.n_seats:
            raise EntryError(f"give {self.rules.n_seats} trick counts, one per seat (got {len(counts)})")
        idle = [s for s in range(self.rules.n_seats) if s not in order and counts[s]]
        if idle:
            raise EntryError(f"{self.players[idle[0]]} deals and sits out this deal: 0 tricks, not {counts[idle[0]]}")
        return " ".join(str(counts[s]) for s in order)

    def finished_deal(self, deal_no: object) -> DealRecord:
        """The finished deal numbered *deal_no* (a number, or its text), to correct.

        Raises:
            EntryError: for no number, a deal not entered yet, or the deal whose tricks are still to come.
        """
        text = str(deal_no).strip()
        done = [d for d in self.deals if d.is_over]
        if not text and done:
            which = "edit 1" if len(done) == 1 else f"edit N, N from 1 to {len(done)}"
            raise EntryError(f"say which finished deal to correct: {which}")
        if isinstance(deal_no, bool) or not _is_int(text) or len(text) > 6:
            raise EntryError(f"give the number of a finished deal to correct (edit 3), not {text!r}")
        number = int(text)
        if not done:
            raise EntryError("no deal is finished yet: there is nothing to correct (undo takes back an entry)")
        if not 1 <= number <= len(done):
            if self.pending is not None and number == self.deal_no:
                raise EntryError(f"deal {number} is the deal being entered: undo takes back its contract")
            can = "deal 1 can" if len(done) == 1 else f"deals 1 to {len(done)} can"
            raise EntryError(f"there is no finished deal {number}: {can} be corrected")
        return done[number - 1]

    def correct(self, deal_no: int, contract: str | Contract | None = None,
                tricks: str | Sequence[int] | None = None) -> DealResult:
        """Correct a finished deal: its contract (one its chooser may have, his other deals as they are: see
        :meth:`correctable_contracts`) and/or its tricks (typed as for :meth:`parse_tricks`, or one count per seat
        as :meth:`enter_tricks` takes them; ``None`` keeps them).  The later deals stay; only the scores of the
        deal change, and the totals with them.  Returns the deal's result as corrected.

        Raises:
            EntryError: for a deal that is not finished, a contract the chooser has used in another deal, or bad
                tricks; nothing changes.
        """
        deal = self.finished_deal(deal_no)
        new_contract = deal.contract
        assert new_contract is not None and deal.tricks_won is not None
        if contract is not None:
            new_contract = self.read_contract(str(contract))
            chooser = self.active_of(deal.number)[Role.FOREHAND]
            if new_contract not in self.rules.contracts:
                raise EntryError(f"{new_contract.label} is not played in this variant")
            if new_contract not in self.correctable_contracts(deal.number):
                who = "somebody" if self.rules.global_unique_contracts else self.players[chooser]
                other = next(d.number for d in self.deals if d.contract is new_contract and d.number != deal.number
                             and (self.rules.global_unique_contracts or self.active_of(d.number)[0] == chooser))
                raise EntryError(f"{who} chose {new_contract.symbol} in deal {other} already; correct that deal "
                                 f"first, or choose another contract for deal {deal.number}")
        if tricks is None:
            won = deal.tricks_won
        else:
            order = self.tricks_order(deal.number)
            won = self._read_tricks(self._counts_text(tricks, order), order)
        fixed = dataclasses.replace(deal, contract=new_contract, tricks_won=won, scores=None)
        self._replace(tuple(fixed if d.number == deal.number else d for d in self.deals))
        return self.results()[deal.number - 1]

    def undo(self) -> str:
        """Take back the last entry (a deal's tricks, else its contract); return what was undone.

        The last deal's tricks too, once the match is over: the match is unfinished again, its deal waits for
        its tricks, and entering them gives the totals afresh.

        Raises:
            EntryError: if nothing is entered yet.
        """
        if not self.deals:
            raise EntryError("there is nothing to undo")
        last = self.deals[-1]
        if last.is_over:
            self._replace((*self.deals[:-1], dataclasses.replace(last, tricks_won=None, scores=None)))
            return f"deal {last.number}'s tricks"
        self._replace(self.deals[:-1])
        assert last.contract is not None
        return f"deal {last.number}'s contract ({last.contract.symbol})"

    def _replace(self, deals: tuple[DealRecord, ...]) -> None:
        try:
            self.record = dataclasses.replace(self.record, deals=deals)
        except RecordError as error:  # pragma: no cover - the checks above come first
            raise EntryError(str(error)) from None

    # -- output ----------------------------------------------------------------------------------------

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the record to *path* atomically (a crash never leaves half a file): JSON for a name ending in
        ``.json``, the text form otherwise (:func:`_record_text`), so that :meth:`load` reads it back either way.

        Raises:
            OSError: if the file cannot be written (:class:`PermissionError` for a read-only file).
        """
        write_atomically(Path(path), _record_text(self.record, path))

    def to_csv(self) -> str:
        """One row per finished deal: dealer, chooser, contract, goal, then tricks, scores, totals per player.

        A name that a spreadsheet would read as a formula (it starts with ``=``, ``+``, ``-``, ``@``, a tab or
        a carriage return) is written after an apostrophe, which spreadsheets show as text:

        >>> _csv_text("=HYPERLINK(1)"), _csv_text("Ala")
        ("'=HYPERLINK(1)", 'Ala')
        """
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        heads = list(self.players)  # a header cell starts with its column's word: never a formula
        writer.writerow(
            ["deal", "dealer", "chooser", "contract", "goal",
             *(f"tricks {n}" for n in heads), *(f"score {n}" for n in heads), *(f"total {n}" for n in heads)]
        )
        names = [_csv_text(name) for name in self.players]
        sheet = self.sheet()
        for result, running in zip(sheet.results, sheet.running_totals(), strict=True):
            writer.writerow(
                [result.deal_no, names[result.dealer], names[result.chooser], str(result.contract),
                 result.contract.goal, *result.tricks, *result.scores, *running]
            )
        return out.getvalue()

    def standing(self) -> str:
        """The standing by total, highest first; equal totals share a place, and the top ones share the win."""
        outcome = self.outcome()
        order = sorted(range(len(self.players)), key=lambda s: -outcome.totals[s])
        lines = []
        for seat in order:
            place = 1 + sum(1 for t in outcome.totals if t > outcome.totals[seat])
            lines.append(f"{place}. {self.players[seat]} {signed(outcome.totals[seat])}")
        winners = [self.players[s] for s in outcome.winners]
        if len(winners) == 1:
            lines.append(f"{winners[0]} wins.")
        else:
            joined = ", ".join(winners[:-1]) + " and " + winners[-1]
            lines.append(f"{joined} share the win with {signed(outcome.totals[outcome.winners[0]])} each.")
        return "\n".join(lines)


def _record_text(record: MatchRecord, path: str | os.PathLike[str]) -> str:
    """*record* in the form a file named *path* gets: JSON when the name ends in ``.json`` (in any case), the text
    form otherwise.  It is the rule of ``mizerka play --record`` and of ``--export-record``, and the scorekeeper's
    own file follows it too (:meth:`ScoreKeeper.save`); :func:`mizerka.record.read` tells the two forms apart by
    their first character, so ``--resume`` takes either.

    >>> record = ScoreKeeper.new(["Ala", "Bolek", "Cezary"], 0).record
    >>> _record_text(record, "friday.JSON")[:1], _record_text(record, "friday.mzn")[:1]
    ('{', '[')
    """
    return record.to_json() if Path(path).suffix.lower() == ".json" else record.to_text()


POLISH_CONTRACTS: dict[str, Contract] = {
    "trefl": Contract.CLUBS, "trefle": Contract.CLUBS,
    "karo": Contract.DIAMONDS,
    "kier": Contract.HEARTS, "kiery": Contract.HEARTS,
    "pik": Contract.SPADES, "piki": Contract.SPADES,
    "bez atu": Contract.NO_TRUMP, "bezatu": Contract.NO_TRUMP, "bez atutu": Contract.NO_TRUMP, "ba": Contract.NO_TRUMP,
}
"""The contracts' names at a Polish table (Mizerka is a Polish game): the suits trefl, karo, kier, pik (and their
plurals), no-trump *bez atu* (``BA``); *mizerka* is the English name too.  ``mizerka score`` takes them beside the
names :meth:`Contract.from_str` reads (letters, symbols, English names)."""


def _contract_key(text: str) -> str:
    """*text* as a key of :data:`POLISH_CONTRACTS`: lower case, ``-`` and ``_`` as spaces, spaces collapsed."""
    return " ".join(text.replace("-", " ").replace("_", " ").split()).lower()


def _is_int(token: str) -> bool:
    """Whether *token* is a whole number in ASCII digits, as every number the project reads, of any length: a huge
    count is still a number (of too many tricks), not a word that names nobody.

    >>> _is_int("7"), _is_int("-1"), _is_int("9" * 30), _is_int("٣"), _is_int("7a")
    (True, True, True, False, False)
    """
    return re.fullmatch(r"[+-]?[0-9]+", token) is not None


_PAIR_SEPARATORS = ",;"
"""Separators between one player's tricks and the next (``"Ala 7, Bolek 5"``)."""

_COUNT_SEPARATORS = "=:"
"""Separators between a name and its tricks (``"Ala=7"``)."""

_SEPARATORS = _PAIR_SEPARATORS + _COUNT_SEPARATORS

_QUOTES = {'"': '"', "'": "'", "„": "”“", "“": "”", "«": "»"}
"""An opening quote and the closing quotes that end it (straight quotes, Polish „…”, English “…”)."""


@dataclasses.dataclass(frozen=True)
class _Pair:
    """One "name number" pair of a reading: the seat named, the name and the pair as typed, the number.

    *shadow* is the seat of a longer name that starts where this name does and runs over its number (``Jan 2``
    over ``Jan`` and ``2``), or ``None``.
    """

    seat: int
    typed: str
    span: str
    count: str
    shadow: int | None = None


@dataclasses.dataclass(frozen=True)
class _Reading:
    """One way to read a whole line as pairs.

    *loose*: it puts a ``,`` between a name and its number or an ``=`` between two pairs (taken only when no
    reading is strict).  *shadowed*: one of its names is shadowed by a longer one (see :class:`_Pair`); such a
    reading is never taken, it only explains the refusal.
    """

    pairs: tuple[_Pair, ...]
    loose: bool = False

    @property
    def shadowed(self) -> _Pair | None:
        return next((p for p in self.pairs if p.shadow is not None), None)


class _TrickReader:
    """Every way a line of tricks reads as "name number" pairs, the players' names being known.

    Names may hold spaces, digits and punctuation (``Anna Maria``, ``Jan 2``), so the words of a line cannot be
    told apart by their look: ``2`` is a number of tricks, or the end of ``Jan 2``.  Instead, wherever a name is
    due, every name that fits there is tried:

    * a player's **full name** (case ignored) that ends where a word ends;
    * a **shortening**: whole words that start one player's name only (``Bo`` for ``Bolek``, ``Anna M``);
    * anything in **quotes**, a full name or a shortening (``"Jan 2"``, Polish ``„Jan 2”``).

    After the name comes its number of tricks, then the next name.  The **longest name wins** where names
    overlap: a reading that takes ``Jan`` with 2 tricks where the line could go on with the name ``Jan 2`` is
    never taken.  :meth:`choose` takes the reading when there is exactly one, and otherwise raises an
    :class:`EntryError` that says why: a short name where a longer one may be meant, two readings (both spelled
    out; rare: names that differ only by punctuation at their end), or, with no reading at all, the
    problem found furthest into the line.

    >>> players = ["Jan", "Jan 2", "Ola"]
    >>> [(players[p.seat], p.count) for p in _TrickReader("Jan 2 4, Ola 4", players, "").choose()]
    [('Jan 2', '4'), ('Ola', '4')]
    >>> [(players[p.seat], p.count) for p in _TrickReader("Jan=2 Ola 4", players, "").choose()]
    [('Jan', '2'), ('Ola', '4')]
    >>> _TrickReader("Jan 2 Ola 4", players, "").choose()
    Traceback (most recent call last):
    ...
    mizerka.scorekeeper.EntryError: 'Jan 2' is ambiguous: the name Jan 2 (its tricks not given), or Jan with 2 tricks; \
write name=tricks (Jan=2) or put the name in quotes
    """

    KEEP = 2
    """Readings kept per kind and place: enough to tell one from several, and the work stays small."""

    def __init__(self, text: str, players: Sequence[str], names: str) -> None:
        self.text = text
        self.players = tuple(" ".join(p.split()) for p in players)
        self.names = names  # the players in play, for the messages
        self.memo: dict[int, list[_Reading]] = {}
        self.failure: tuple[int, str] | None = None

    # -- the line, piece by piece ------------------------------------------------------------------------

    def fail(self, at: int, message: str) -> None:
        """Note why a reading stops at *at*; the one that got furthest is the one reported."""
        if self.failure is None or at > self.failure[0]:
            self.failure = (at, message)

    def skip(self, at: int) -> tuple[int, str]:
        """The next place after spaces and separators, and the separators skipped."""
        start = at
        while at < len(self.text) and (self.text[at].isspace() or self.text[at] in _SEPARATORS):
            at += 1
        return at, "".join(self.text[start:at].split())

    def word_end(self, at: int) -> int:
        while at < len(self.text) and not self.text[at].isspace() and self.text[at] not in _SEPARATORS:
            at += 1
        return at

    def ends_word(self, at: int) -> bool:
        return at == len(self.text) or self.text[at].isspace() or self.text[at] in _SEPARATORS

    def fitting(self, typed: str) -> list[int]:
        """The seats *typed* may name: the player of exactly that name, else every player whose name starts so."""
        key = " ".join(typed.split()).lower()
        exact = [s for s, name in enumerate(self.players) if name.lower() == key]
        if exact or not key:
            return exact
        return [s for s, name in enumerate(self.players) if name.lower().startswith(key)]

    def several(self, typed: str, seats: list[int]) -> str:
        return f"{typed!r} fits several players: " + ", ".join(self.players[s] for s in seats)

    def names_at(self, at: int) -> list[tuple[int, int]]:
        """The names that can start at *at*, as (seat, where the name ends), in the order found."""
        text = self.text
        found: dict[tuple[int, int], None] = {}
        closers = _QUOTES.get(text[at], "")
        if closers:
            close = next((i for i in range(at + 1, len(text)) if text[i] in closers), None)
            if close is None:
                self.fail(at, f"the quote {text[at]} before {text[at + 1:]!r} is not closed")
            else:
                inner, seats = text[at + 1:close], self.fitting(text[at + 1:close])
                if len(seats) == 1:
                    found[seats[0], close + 1] = None
                else:
                    self.fail(at, self.several(inner, seats) if seats else
                              f"{inner!r} is not a player (the players: {', '.join(self.players)})")
        for seat, name in enumerate(self.players):
            end = at + len(name)
            if name and text[at:end].lower() == name.lower() and self.ends_word(end):
                found[seat, end] = None
        end = self.word_end(at)
        while end > at:  # shortenings: one word, two words, ... while they still start a name
            seats = self.fitting(text[at:end])
            if not seats:
                break
            if len(seats) == 1:
                found[seats[0], end] = None
            else:
                self.fail(at, self.several(text[at:end], seats))
            if end + 1 < len(text) and text[end] == " " and text[end + 1] not in _SEPARATORS:
                end = self.word_end(end + 1)
            else:
                break
        if not found:
            word = text[at:self.word_end(at)]
            if _is_int(word):
                self.fail(at, f"{word!r} stands where a player's name should: write the tricks as numbers for "
                              f"{self.names} in that order, or as 'name number' pairs")
            else:
                self.fail(at, f"{word!r} is neither a number of tricks nor the start of a player's name "
                              f"({self.names})")
        return list(found)

    def steps(self, at: int) -> list[tuple[_Pair, bool, int]] | None:
        """The pairs that can come next after *at* (where the last pair ended): (pair, whether it is loose,
        where it ends); ``None`` at the end of the line."""
        start, gap = self.skip(at)
        if start == len(self.text):
            return None
        loose_gap = at > 0 and any(c in _COUNT_SEPARATORS for c in gap)
        names = self.names_at(start)
        steps = []
        for seat, end in names:
            count_at, between = self.skip(end)
            count_end = self.word_end(count_at)
            count = self.text[count_at:count_end]
            if not count:
                self.fail(count_at, f"the number of tricks after {self.text[start:end]!r} is missing")
            elif not _is_int(count):
                self.fail(count_at, f"{count!r} is not a number of tricks (for {self.players[seat]})")
            else:
                shadow = next((s for s, e in names if e > count_at), None)
                pair = _Pair(seat, self.text[start:end], self.text[start:count_end], count, shadow)
                steps.append((pair, loose_gap or any(c in _PAIR_SEPARATORS for c in between), count_end))
        return steps

    def read_from(self, at: int) -> list[_Reading]:
        """The readings of the line from *at* to its end, at most KEEP of each kind.

        Each place is read once, the line's end first (a loop, not recursion: a long line is no risk).
        """
        steps: dict[int, list[tuple[_Pair, bool, int]] | None] = {}
        todo = [at]
        while todo:
            place = todo[-1]
            if place in self.memo:
                todo.pop()
                continue
            if place not in steps:
                steps[place] = self.steps(place)
            after = [end for _, _, end in steps[place] or () if end not in self.memo]
            if after:
                todo.extend(after)
                continue
            todo.pop()
            readings: list[_Reading] = []
            kept: dict[tuple[bool, bool], int] = {}
            seen: set[tuple[bool, bool, tuple[tuple[int, str], ...]]] = set()
            if steps[place] is None:
                readings.append(_Reading(()))
            for pair, loose, end in steps[place] or ():
                for rest in self.memo[end]:
                    reading = _Reading((pair, *rest.pairs), loose or rest.loose)
                    kind = (reading.loose, reading.shadowed is not None)
                    # two ways to the same tricks are one reading: the full name "Ada=" and the shortening "Ada"
                    # then "=" both give Ada her number (counted twice, the line was "ambiguous" between equals)
                    same = (*kind, tuple((p.seat, p.count) for p in reading.pairs))
                    if kept.get(kind, 0) < self.KEEP and same not in seen:
                        kept[kind] = kept.get(kind, 0) + 1
                        seen.add(same)
                        readings.append(reading)
            self.memo[place] = readings
        return self.memo[at]

    # -- the verdict ---------------------------------------------------------------------------------------

    def spell(self, reading: _Reading) -> str:
        """A reading with no doubt left: ``Ala 2=2, Ala=5``."""
        return ", ".join(f"{self.players[p.seat]}={p.count}" for p in reading.pairs)

    def complete(self) -> list[_Reading]:
        """The readings that may be taken (none shadowed), the strict ones first."""
        return sorted((r for r in self.read_from(0) if r.shadowed is None), key=lambda r: r.loose)

    def choose(self) -> tuple[_Pair, ...]:
        """The pairs of the one reading the line has.

        Raises:
            EntryError: when there are several (two are spelled out), only shadowed ones, or none (then a word
                that is neither a number nor in any name, else the problem found furthest into the line).
        """
        readings = self.read_from(0)
        for loose in (False, True):
            taken = [r for r in readings if r.loose is loose and r.shadowed is None]
            if len(taken) == 1:
                return taken[0].pairs
            if taken:
                example = taken[0].pairs[0]
                raise EntryError(f"{self.text!r} is ambiguous: it reads as {self.spell(taken[0])} and as "
                                 f"{self.spell(taken[1])}; put the names in quotes "
                                 f'("{self.players[example.seat]}" {example.count})')
        shadowed = [r.shadowed for r in readings if r.shadowed is not None]
        if shadowed:
            pair = shadowed[0]
            assert pair.shadow is not None
            name, longer = self.players[pair.seat], self.players[pair.shadow]
            short = name if pair.typed.lower() == name.lower() else f"{pair.typed!r} (short for {name})"
            raise EntryError(f"{pair.span!r} is ambiguous: the name {longer} (its tricks not given), or {short} "
                             f"with {pair.count} tricks; write name=tricks ({pair.typed}={pair.count}) or put "
                             f"the name in quotes")
        for word in re.split(r"[\s,;=:]+", self.text):  # a word that is in no name: no reading could hold it
            bare = word.strip("".join(_QUOTES) + "”»")
            if bare and not _is_int(bare) and not any(bare.lower() in name.lower() for name in self.players):
                raise EntryError(f"{bare!r} is neither a number of tricks nor a player's name ({self.names})")
        if self.failure is None:  # pragma: no cover - every reading that stops says why
            raise EntryError(f"write the tricks as numbers for {self.names} in that order, or as 'name number' pairs")
        raise EntryError(self.failure[1])


def check_name(name: str, taken: Sequence[str]) -> str:
    """A player's name, stripped, if it is usable: not empty, printable, one a record may hold (no invisible
    character, no combining mark first: :func:`mizerka.record.check_name`), not a command word, not a number (nor
    numbers alone, like ``2 4``: they would read as tricks), not taken: not the same as another's under the record's
    :func:`~mizerka.record.name_key` ("Straße" is "STRASSE", "Ala" the full-width "Ａla").  Spaces and digits are
    fine (``Jan 2``).  The record would refuse the same names, but only once the match is made, after the question
    that follows the names: so each name is refused at its own prompt.

    Raises:
        EntryError: naming the problem, with its reason (:data:`SETUP_REASONS`).
    """
    if not isinstance(name, str):
        raise EntryError(f"a name is text, not {name!r}")
    name = " ".join(name.split())
    if not name:
        raise EntryError("a name needs at least one visible character", {"code": "name_empty"})
    control = next((c for c in name if unicodedata.category(c) == "Cc"), None)
    if control is not None:
        raise EntryError(f"a name cannot hold control characters ({char_name(control)})",
                         char_reason("name_unprintable_char", control))
    try:
        check_record_name(name)
    except RecordError as error:  # names the character: "holds the invisible character U+200B (ZERO WIDTH SPACE)"
        raise EntryError(str(error), _record_reason(error)) from None
    unprintable = next((c for c in name if not c.isprintable()), None)
    if unprintable is not None:  # what the record's check leaves: a private-use or unassigned code point
        raise EntryError(f"a name cannot hold the unprintable character {char_name(unprintable)}",
                         char_reason("name_unprintable_char", unprintable))
    if len(name) > 40:
        raise EntryError("a name can be at most 40 characters long", {"code": "name_too_long", "max": 40})
    if name.lower() in COMMAND_WORDS:
        raise EntryError(f"{name!r} is a command word; choose another name", {"code": "name_command_word",
                                                                              "word": name})
    if _is_int(name):
        raise EntryError("a name cannot be a number (numbers are tricks)", {"code": "name_number"})
    words = [word for word in re.split(r"[\s,;=:]+", name) if word]
    if words and all(_is_int(word) for word in words):
        raise EntryError("a name cannot be numbers alone (numbers are tricks)", {"code": "name_numbers"})
    key = name_key(name)
    same = next((seat for seat, other in enumerate(taken) if name_key(other) == key), None)
    if same is not None:
        raise EntryError(f"{name!r} is already a player; names must differ",
                         {"code": "name_repeated", "same_as": same + 1})
    return name


def check_names(players: Sequence[str]) -> list[str]:
    """Every player's name checked by :func:`check_name` in seat order (a later one against those before it),
    for a new match and for a resumed record alike.

    Raises:
        EntryError: ``player N's name: …`` for the first name refused (N from 1), its reason with ``player``: N
            (:data:`SETUP_REASONS`), or for *players* that are no list of names (one text, say).
    """
    if isinstance(players, (str, bytes)) or not isinstance(players, Sequence):  # "ABC" is no list of three names
        raise EntryError(f"give the players' names as a list, not {players!r}")
    names: list[str] = []
    for number, name in enumerate(players, 1):
        try:
            names.append(check_name(name, names))
        except EntryError as error:  # which of the names: a form of several names shows them all at once
            reason = None if error.reason is None else {**error.reason, "player": number}
            raise EntryError(f"player {number}'s name: {error}", reason) from None
    return names


def find_player(text: str, players: Sequence[str]) -> int:
    """The seat of the player named *text* (as the record compares names, :func:`~mizerka.record.name_key`: case
    ignored, "STRASSE" for "Straße"; a unique start of the name will do).

    Raises:
        EntryError: for a name that is nobody's, or that fits several players.
    """
    if not isinstance(text, str):
        raise EntryError(f"a player is named by text, not {text!r}")
    key = name_key(text)
    exact = [s for s, name in enumerate(players) if name_key(name) == key]
    if exact:
        return exact[0]
    starts = [s for s, name in enumerate(players) if key and name_key(name).startswith(key)]
    if len(starts) == 1:
        return starts[0]
    known = ", ".join(players)
    if starts:
        raise EntryError(f"{text.strip()!r} fits several players: " + ", ".join(players[s] for s in starts))
    raise EntryError(f"{text.strip()!r} is not a player (the players: {known})")


# -- the command ---------------------------------------------------------------------------------------------

HELP = """\
At any prompt:  undo   take back the last entry      sheet  show the score sheet
                help   this help (also ?)             quit   stop (the match is saved; resume with --resume)
Contracts: C D H S (or ♣ ♦ ♥ ♠, or the suit's name: clubs/trefl, diamonds/karo, hearts/kier, spades/pik),
           NT (no-trump, bez atu), MZ (Mizerka: avoid tricks).
Tricks: the numbers in the order asked ("7 5 1"), or by name ("Ala 7, Bolek 5"; one name may be left out).
       Names may hold spaces and digits ("Jan 2 4": the longest name that fits is read); to be plain, put
       a name in quotes ("Jan 2" 4) or end it with = (Jan=2).
Before the first contract, undo goes back to the seating (the first dealer, then the names).
After the last deal, undo takes its tricks back: the match goes on until they are entered again.
Once the deals have begun, edit N corrects finished deal N (its contract, its tricks; Enter keeps each), the
later deals staying as they are."""


_HELP_SYMBOLS = " ♣ ♦ ♥ ♠, or"
"""The suit symbols in :data:`HELP`, left out with ``--ascii`` (the letters are named next to them)."""

UNREADABLE = "\ufffd"
"""The replacement character: what a byte the input's encoding cannot decode becomes (``mizerka.cli.main`` makes
the standard input decode so, instead of ending in a traceback).  An answer holding it is refused: a name saved
with it would be a garbled name in the record."""


def unreadable_text() -> str:
    """The refusal of an answer holding :data:`UNREADABLE`: it names the input's encoding and how to read UTF-8."""
    encoding = getattr(sys.stdin, "encoding", None) or "its encoding"
    # the hint to read UTF-8 only where the input is not read as UTF-8 already: there, bytes it cannot read are no
    # UTF-8 at all (a file in another encoding), and the setting would change nothing
    utf8 = encoding.lower().replace("-", "").replace("_", "") in ("utf8", "utf8sig")
    hint = ("the file of answers is not in UTF-8" if utf8
            else "for a file of answers in UTF-8, set PYTHONIOENCODING=utf-8")
    return (f"Not accepted: the answer holds bytes the input's encoding ({encoding}) cannot read; type it again "
            f"({hint}).")


class _Quit(Exception):
    pass


class _Undo(Exception):
    pass


class _Reseat(Exception):
    """``undo`` before the first contract: back to the seating questions (the first dealer, then the names)."""


class _SaveFailed(click.ClickException):
    """The save file cannot be written (or removed): ``Error: cannot save to FILE: …``, exit code 1.

    A class of its own, so that only a failure of *the file* is told as one.  Any other ``OSError`` of the session
    is the standard output's (``mizerka score > /dev/full``, a pipe closed by ``| head -1``): it is left to
    :func:`mizerka.cli.main` and click, which tell it as every command does (``Error: cannot write the output:
    …``; a closed pipe, silently), exit code 1, the save file as the last entry left it.
    """


class _Edit(Exception):
    """``edit N``: correct finished deal N (*what* is the N typed, maybe empty)."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


_EDIT = re.compile(r"edit(?:\s+(\S+))?", re.IGNORECASE)
"""``edit`` or ``edit N``: a command once the deals have begun (before, such an answer is a name: ``Edit``)."""


class _Session:
    """The prompts of ``mizerka score``: every answer is checked, and a bad one is asked again."""

    def __init__(self, path: Path, *, unicode: bool = True) -> None:
        self.path = path
        self.unicode = unicode
        self.keeper: ScoreKeeper | None = None

    def save(self, keeper: ScoreKeeper) -> None:
        """Save *keeper* to the session's file (after every entry, every undo and every correction).

        Raises:
            _SaveFailed: if the file cannot be written, naming it and the reason.
        """
        try:
            keeper.save(self.path)
        except OSError as error:
            raise _SaveFailed(f"cannot save to {self.path}: {error.strerror or error}") from None

    def unsave(self) -> bool:
        """Remove the session's file, because the seating it holds was undone; return whether there was one.

        A record cannot hold a seating half given (names without a first dealer), and a file left as it was
        would bring back at ``--resume`` the names and the dealer the keeper took back, so the file goes: from
        then on it holds what the screen shows, no match, until the seating is complete and saved again.  It holds
        no deal (the seating is undone only before the first contract).  A symbolic link is followed, as
        :meth:`ScoreKeeper.save` follows it: the file it points to is removed, and written there again.

        Raises:
            _SaveFailed: if the file is there and cannot be removed.
        """
        try:
            Path(os.path.realpath(self.path)).unlink()
        except FileNotFoundError:
            return False
        except OSError as error:
            raise _SaveFailed(f"cannot remove {self.path}, whose seating was undone: "
                              f"{error.strerror or error}") from None
        return True

    def plain(self, text: str) -> str:
        """*text* as this session writes it: unchanged, or in ASCII without :attr:`unicode` (suit letters, ``->``:
        :func:`mizerka.cli.ascii_text`, the one mapping every command's ``--ascii`` uses)."""
        return text if self.unicode else ascii_text(text)

    def echo(self, text: str) -> None:
        """Write a line of the session (:meth:`plain`)."""
        click.echo(self.plain(text))

    def read_answer(self, prompt: str) -> str:
        """Write *prompt* (and ``": "``) and read one answer, as typed.

        At a terminal the answer is read by ``click.prompt`` (line editing), and the terminal shows it as it is
        typed.  From anything else (answers piped from a file or a script) nothing shows it, and the transcript on
        the standard output read as prompts without answers, all on one line: there the answer is written after
        its prompt, and the line ended, as a REPL echoes what it reads from a pipe.  The answer is echoed as the
        session writes (:meth:`plain`: with ``--ascii``, ``♥`` is ``H``).

        Raises:
            click.Abort: the input ended (Ctrl-D at a terminal).
            KeyboardInterrupt: Ctrl-C.
        """
        stdin = sys.stdin
        if stdin is not None and stdin.isatty():
            try:
                return str(click.prompt(prompt, default="", show_default=False, prompt_suffix=": "))
            except click.Abort as abort:
                # click answers Ctrl-C and the end of input alike (Abort); the one it caught is the context
                if isinstance(abort.__context__, KeyboardInterrupt):
                    raise KeyboardInterrupt from None
                raise
        click.echo(f"{prompt}: ", nl=False)
        line = stdin.readline() if stdin is not None else ""  # a closed input (<&-) reads as an empty one
        if not line:
            raise click.Abort
        answer = line.rstrip("\r\n")
        click.echo(self.plain(answer))
        return answer

    def ask(self, text: str, *, empty: bool = False) -> str:
        """Prompt until there is an answer (:meth:`read_answer`); handle the commands that mean the same
        everywhere.

        With *empty*, an empty answer (just Enter) is an answer too.
        """
        while True:
            raw = self.read_answer(self.plain(text))
            answer = " ".join(raw.split())
            word = answer.lower()
            if not answer and empty:
                return answer
            if UNREADABLE in answer:
                self.echo(unreadable_text())
            elif not answer:
                self.echo("Please answer (type ? for help).")
            elif word in ("help", "?"):
                self.echo(HELP if self.unicode else HELP.replace(_HELP_SYMBOLS, ""))
            elif word in ("quit", "exit"):
                raise _Quit
            elif word == "undo":
                raise _Undo
            elif self.keeper is not None and (edit := _EDIT.fullmatch(answer)) is not None:
                raise _Edit(edit.group(1) or "")
            elif word == "sheet":
                if self.keeper is None:
                    self.echo("There is no sheet yet: the names come first.")
                else:
                    self.echo(self.keeper.sheet().text(terminal_width()))
            else:
                return answer

    def setup(self, rules: Rules) -> ScoreKeeper:
        self.echo(f"New match, {rules.spec()}: {rules.n_deals} deals for {rules.n_seats} players.")
        return self.setup_rest(rules, [])

    def setup_rest(self, rules: Rules, names: list[str]) -> ScoreKeeper:
        while len(names) < rules.n_seats:
            try:
                question = f"Name of player {len(names) + 1} (in order round the table)"
                names.append(check_name(self.ask(question), names))
            except EntryError as error:
                self.echo(f"Not accepted: {error}.")
            except _Undo:
                if names:
                    self.echo(f"Undone: the name {names.pop()!r}.")
                else:
                    self.echo("Nothing to undo yet.")
        return self.setup_from(rules, names)

    def setup_from(self, rules: Rules, names: list[str]) -> ScoreKeeper:
        while True:
            first: str | int
            if rules.first_dealer is not None:
                first = rules.first_dealer
            else:
                try:
                    first = self.ask(f"Who deals first ({', '.join(names)})")
                except _Undo:
                    self.echo(f"Undone: the name {names.pop()!r}.")
                    return self.setup_rest(rules, names)
            try:
                return ScoreKeeper.new(names, first, rules)
            except EntryError as error:
                self.echo(f"Not accepted: {error}.")
                if rules.first_dealer is not None:  # nothing was asked here: asking nothing again would loop for ever
                    self.echo(f"Undone: the name {names.pop()!r}.")
                    return self.setup_rest(rules, names)

    def run(self, keeper: ScoreKeeper) -> None:
        """Ask for the deals until the match is over and the keeper is done with it."""
        self.keeper = keeper
        while True:
            self.run_deals(keeper)
            if self.finish(keeper):
                return

    def run_deals(self, keeper: ScoreKeeper) -> None:
        while not keeper.is_over():
            no = keeper.deal_no
            try:
                if keeper.pending is None:
                    left = " ".join(c.symbol for c in keeper.allowed_contracts())
                    prompt = (f"Deal {no} of {keeper.rules.n_deals}, {keeper.dealer_name} deals. "
                              f"Contract chosen by {keeper.chooser_name} [{left}]")
                    answer = self.ask(prompt)
                    try:
                        keeper.enter_contract(answer)
                    except EntryError as error:
                        self.echo(f"Not accepted: {error}.")
                        continue
                    self.save(keeper)
                else:
                    names = ", ".join(keeper.players[s] for s in keeper.tricks_order())  # names may hold spaces
                    contract = keeper.pending
                    prompt = f"Deal {no}, {contract.symbol} ({contract.goal}): tricks of {names}"
                    answer = self.ask(prompt)
                    try:
                        result = keeper.enter_tricks(answer)
                    except EntryError as error:
                        self.echo(f"Not accepted: {error}.")
                        continue
                    self.save(keeper)
                    self.show_result(keeper, result)
            except _Undo:
                if not keeper.deals:  # nothing entered yet: the seating is the last answer, and it may be wrong
                    raise _Reseat from None
                try:
                    what = keeper.undo()
                except EntryError as error:
                    self.echo(f"Not accepted: {error}.")
                    continue
                self.save(keeper)
                self.echo(f"Undone: {what}.")
            except _Edit as edit:
                self.correct(keeper, edit.what)

    def reseat(self, keeper: ScoreKeeper) -> ScoreKeeper:
        """``undo`` before the first contract: ask the seating again, from the first dealer (or, where the variant
        fixes him, from the last name) back, as ``undo`` does during the names.

        The file is removed at once (:meth:`unsave`) and the keeper is told so: until the seating is complete
        again there is no match to save, and ``quit``, the end of input or Ctrl-C then say that nothing was saved,
        as during the first seating.  The caller saves the new seating when this returns it.
        """
        names = list(keeper.players)
        self.keeper = None
        removed = self.unsave()
        if keeper.rules.first_dealer is None:
            self.echo(f"Undone: {keeper.players[keeper.dealer_of(1)]} as the first dealer.")
        else:
            self.echo(f"Undone: the name {names.pop()!r}.")
        if removed:
            self.echo(f"Removed {self.path}: the match is saved again once the seating is complete.")
        if keeper.rules.first_dealer is None:
            return self.setup_from(keeper.rules, names)
        return self.setup_rest(keeper.rules, names)

    def correct(self, keeper: ScoreKeeper, what: str) -> bool:
        """``edit N``: ask deal N's contract and tricks again (Enter keeps each), then save and show the deal;
        return whether the deal was corrected.

        ``undo`` at these two questions drops the correction (nothing changes); so does a refused deal number.
        """
        try:
            deal = keeper.finished_deal(what)
        except EntryError as error:
            self.echo(f"Not accepted: {error}.")
            return False
        assert deal.contract is not None and deal.tricks_won is not None
        n, order = deal.number, keeper.tricks_order(deal.number)
        chooser = keeper.players[keeper.active_of(n)[Role.FOREHAND]]
        try:
            while True:
                answer = self.ask(f"Correcting deal {n}, {keeper.players[deal.dealer]} dealt. Contract chosen by "
                                  f"{chooser} [{deal.contract.symbol}; Enter keeps it]", empty=True)
                try:
                    contract = ScoreKeeper(keeper.record).correct(n, contract=answer or None).contract
                    break
                except EntryError as error:
                    self.echo(f"Not accepted: {error}.")
            names = ", ".join(keeper.players[s] for s in order)
            kept = " ".join(str(deal.tricks_won[s]) for s in order)
            while True:
                answer = self.ask(f"Deal {n}, {contract.symbol} ({contract.goal}): tricks of {names} "
                                  f"[{kept}; Enter keeps them]", empty=True)
                try:
                    result = keeper.correct(n, contract=contract, tricks=answer or None)
                    break
                except EntryError as error:
                    self.echo(f"Not accepted: {error}.")
        except _Undo:
            self.echo(f"Not corrected: deal {n} is as it was.")
            return False
        except _Edit:
            self.echo(f"Not accepted: finish the correction of deal {n} first (or undo to drop it).")
            return self.correct(keeper, str(n))
        self.save(keeper)
        self.echo(f"Corrected deal {n}.")
        self.show_result(keeper, result)
        return True

    def finish(self, keeper: ScoreKeeper) -> bool:
        """The match is over: show the standing, then let the keeper take back the last deal's tricks.

        A mistyped last deal is found when the standing is read, so the end is a question too: Enter (or quit, or
        the end of input) finishes; undo takes the tricks back, is saved like every undo, and returns ``False``:
        the match is unfinished again and the deals go on.  The same question ends a finished match resumed
        from its file.
        """
        self.echo("The match is over.  Final standing:")
        self.echo(keeper.standing())
        last = keeper.deals[-1].number
        while True:
            try:
                answer = self.ask(f"Press Enter to finish, or type undo to take back deal {last}'s tricks", empty=True)
            except _Undo:
                what = keeper.undo()
                self.save(keeper)
                self.echo(f"Undone: {what}.")
                return False
            except _Edit as edit:
                if self.correct(keeper, edit.what):
                    self.echo(keeper.standing())
                continue
            except _Quit:
                return True
            except click.Abort:  # the end of input (Ctrl-C is a KeyboardInterrupt): the match is over and saved
                self.echo("")
                return True
            if not answer:
                return True
            self.echo(f"Not accepted: the match is over; press Enter to finish, or type undo to take back deal "
                       f"{last}'s tricks.")

    def show_result(self, keeper: ScoreKeeper, result: DealResult) -> None:
        names = keeper.players
        active = keeper.active_of(result.deal_no)
        parts = []
        for role, seat in enumerate(active):
            quota = keeper.rules.quota(role, result.contract)
            parts.append(f"{names[seat]} {result.tricks[seat]} of {quota} → {signed(result.scores[seat])}")
        self.echo(f"Deal {result.deal_no} ({result.contract.label}, {result.contract.goal}): " + "; ".join(parts))
        self.echo("")
        self.echo(keeper.sheet().text(terminal_width()))
        self.echo("")


def _csv_text(text: str) -> str:
    """*text* for a CSV cell that a spreadsheet will not run as a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def _check_output(option: str, path: Path, *, record: bool) -> None:
    """Refuse, before the first question, a file ``mizerka score`` could not write at the end (or as it goes):
    ``mizerka play --record``'s check (:func:`mizerka.terminal.check_record_path`): a name that is a folder, a
    folder that does not exist or cannot be written, a read-only file, and, for a game record (*record*: ``--file``
    and ``--export-record``), an existing file that is not a mizerka record, which is never overwritten (the CSV
    sheet replaces an existing regular file of any content).

    Raises:
        click.BadParameter: saying why, with *option* as its name (exit code 2).
    """
    from mizerka.terminal import check_record_path

    check_record_path(os.fspath(path), option, any_file=not record)


def _export(keeper: ScoreKeeper, csv_path: Path | None, record_path: Path | None) -> bool:
    """Write the exports asked for, each on its own: one that fails leaves the other written.

    Each failure is told on the standard error, naming the user's file (never the temporary file written
    first).  Returns whether every export asked for was written.
    """
    exports: list[tuple[Path, str, str]] = []
    if csv_path is not None:
        exports.append((csv_path, keeper.to_csv(), "Score sheet written to {} (CSV)."))
    if record_path is not None:
        exports.append((record_path, _record_text(keeper.record, record_path), "Game record written to {}."))
    written = True
    for path, text, done in exports:
        shown = click.format_filename(path)
        try:
            write_atomically(path, text)
        except OSError as error:
            click.echo(f"Error: cannot write the export {shown}: {error.strerror or error}", err=True)
            written = False
        else:
            click.echo(done.format(shown))
    return written


def _file_name(ctx: click.Context, param: click.Parameter, value: str | None) -> Path | None:
    """The file an option of ``mizerka score`` names (``--file``, ``--resume``, the exports), as a :class:`Path`.

    The text is checked as typed, before it becomes a path: ``Path("")`` is ``.``, the current folder, so ``--file
    ""`` used to say that ``.`` exists and ``--resume ""`` that ``.`` could not be read.  An empty name (or one of
    spaces only) is refused as ``mizerka play --record ""`` refuses it
    (:func:`mizerka.terminal.check_record_path`), in the same words.  ``--resume -`` is refused too: ``replay -``
    reads a record from standard input, but the score keeper reads its entries there.

    Raises:
        click.BadParameter: ``give a file name, e.g. --file game.mzn`` (exit code 2).
    """
    if value is None:
        return None
    option = param.opts[0] if param.opts else f"--{param.name}"
    if not value.strip():
        example = "sheet.csv" if option == "--export-csv" else "game.mzn"
        raise click.BadParameter(f"give a file name, e.g. {option} {example}", ctx=ctx, param=param)
    if value == "-" and option == "--resume":  # replay - and analyse - read a record from standard input
        raise click.BadParameter("- would be standard input, where the score keeper reads your entries: give the "
                                 "saved file's name (a file called - is ./-)", ctx=ctx, param=param)
    from mizerka.terminal import check_record_path, names_a_folder

    if names_a_folder(value):  # Path("games/") is games: the match would be saved to a file called games
        check_record_path(value, option, any_file=True)  # refuses it, in play --record's words
    return Path(value)


def _same_file(first: Path, second: Path) -> bool:
    """Whether the file names *first* and *second* lead to one file (through links too).

    :func:`os.path.realpath`, not :meth:`Path.resolve`, which raises :class:`RuntimeError` at a symbolic link that
    points to itself on the Pythons before 3.13 (``--export-csv loop``: a traceback); the looping name is then
    refused by :func:`_check_output`.
    """
    return os.path.realpath(first) == os.path.realpath(second)


def _not_a_file(path: Path) -> bool:
    """Whether *path* exists (or is a link, even a broken or looping one) but is no regular file: a folder, a
    FIFO, a device such as ``/dev/null``; such a name is refused before anything is read from it."""
    return (path.exists() or path.is_symlink()) and not path.is_file()


def _refuse_not_a_file(option: str, path: Path, *, record: bool) -> NoReturn:
    """Refuse *path*, which :func:`_not_a_file` found to be no regular file, before anything is read from it.

    :func:`_check_output` says what it is in ``mizerka play --record``'s words (a folder, a FIFO, a device); should
    it ever let such a name through, the refusal here still stands.

    Raises:
        click.BadParameter: saying why, for *option* (exit code 2).
    """
    _check_output(option, path, record=record)
    raise click.BadParameter(f"{click.format_filename(path)!r} is not a regular file: give a file's name",
                             param_hint=f"'{option}'")


def _refuse_existing(path: Path) -> click.UsageError:
    """Why ``--file PATH`` of a new match is refused when *PATH* exists: a new match never overwrites a file.

    A score record that ``--resume`` can continue is pointed to it; any other file (notes, a record of a match
    played with cards, a record whose names a new match refuses) is said to be no score record, and resuming it is
    not suggested: ``--resume`` would refuse it.
    """
    try:
        ScoreKeeper.load(path)
    except OSError as error:
        return click.UsageError(f"{path} exists and cannot be read ({error.strerror or error}): it is not "
                                "overwritten; choose another --file")
    except EntryError:
        return click.UsageError(f"{path} exists and is not a score record: it is not overwritten; choose another "
                                "--file, or remove it")
    return click.UsageError(f"{path} exists: continue it with --resume {path}, or choose another --file")


def _check_resumable(path: Path) -> None:
    """Refuse, before the first question, a ``--resume`` file (read and valid) that the next entry could not be
    saved to: a read-only file (the first answer was lost: the save after it failed), or a folder that cannot be
    written (each save writes a new file beside the old one, then puts it in place).  ``--file`` and the exports
    are checked so too (:func:`_check_output`).

    Raises:
        click.BadParameter: saying why, for ``--resume`` (exit code 2).
    """
    if is_read_only(Path(os.path.realpath(path))):
        raise click.BadParameter(f"{click.format_filename(path)!r} is read-only: the entries could not be saved to "
                                 "it (make it writable first)", param_hint="'--resume'")
    _check_output("--resume", path, record=False)


@click.command("score")
@click.option("--file", "path", type=click.Path(dir_okay=False), callback=_file_name, default=None,
              help="where to save the match as you go (JSON if the name ends .json)  [default: mizerka-score.mzn]")
@click.option("--resume", type=click.Path(dir_okay=False), callback=_file_name, default=None,
              help="continue the match saved in this file (and keep saving there)")
@click.option("--variant", "variant", default="standard", show_default=True, metavar="SPEC",
              help="variant name and options, e.g. 'standard,first_dealer=0' (a new match only)")
@click.option("--export-csv", type=click.Path(dir_okay=False), callback=_file_name, default=None,
              help="at the end, write the score sheet as CSV here")
@click.option("--export-record", type=click.Path(dir_okay=False), callback=_file_name, default=None,
              help="at the end, write a game record (contracts and tricks only; JSON if the name ends .json)")
@unicode_option
def score_command(path: Path | None, resume: Path | None, variant: str, export_csv: Path | None,
                  export_record: Path | None, unicode: bool) -> None:
    """Keep the score of a match played with real cards.

    Enter the names and the first dealer, then per deal the contract and the tricks each player took.
    Every entry is checked; the sheet is shown after each deal and saved as you go.  Type ? at any
    prompt for help, undo to take back the last entry, quit to stop (resume later with --resume FILE).
    With --ascii (the default where the output cannot encode suit symbols) the contracts are written C D H S.
    """
    if resume is not None and path is not None:
        raise click.UsageError("give --resume FILE to continue a match, or --file FILE to start one, not both")
    saved_to = resume if resume is not None else path if path is not None else Path("mizerka-score.mzn")
    for option, export in (("--export-csv", export_csv), ("--export-record", export_record)):
        if export is not None and _same_file(export, saved_to):
            raise click.UsageError(f"{option} {export} is the file the match is saved in: the export would "
                                   f"overwrite it; choose another file")
    if export_csv is not None and export_record is not None and _same_file(export_csv, export_record):
        raise click.UsageError(f"--export-csv and --export-record name the same file ({export_csv}): the second "
                               "export would overwrite the first; choose two files")
    # a file that cannot be written is refused now, not after the whole match has been typed in
    if export_csv is not None:
        _check_output("--export-csv", export_csv, record=False)
    if export_record is not None:
        _check_output("--export-record", export_record, record=True)
    if resume is not None:
        if variant != "standard":
            raise click.UsageError("the variant of a resumed match is the one in its file; leave out --variant")
        if _not_a_file(resume):  # a FIFO, a device: never saved back to (and a FIFO's read would wait for ever)
            _refuse_not_a_file("--resume", resume, record=False)
        try:
            keeper = ScoreKeeper.load(resume)
        except OSError as error:
            raise click.UsageError(f"cannot read {resume}: {error.strerror or error}") from None
        except EntryError as error:
            raise click.UsageError(str(error)) from None
        _check_resumable(resume)
        path = resume
        click.echo(f"Resuming {resume}: {', '.join(keeper.players)}; "
                   f"{keeper.deal_no - 1} of {keeper.rules.n_deals} deals entered.")
        if keeper.results():
            sheet = keeper.sheet().text(terminal_width())
            click.echo(sheet if unicode else ascii_text(sheet))
    else:
        path = path if path is not None else Path("mizerka-score.mzn")
        rules, _ = read_variant(variant)
        if _not_a_file(path):  # refused unread: reading a FIFO to tell what it holds would wait for ever
            _refuse_not_a_file("--file", path, record=True)
        if path.exists():
            raise _refuse_existing(path)
        _check_output("--file", path, record=True)
        keeper = None
    session = _Session(path, unicode=unicode)
    # Only the save file's failures are caught here (_SaveFailed: "cannot save to FILE"); an OSError of the
    # standard output goes on to mizerka.cli.main, which says "cannot write the output".
    try:
        if keeper is None:
            keeper = session.setup(rules)
            session.save(keeper)
            click.echo(f"Saving to {path} after every entry.  Type ? for help.")
        while True:
            try:
                session.run(keeper)
                break
            except _Reseat:
                # the seating is asked again and the file is removed meanwhile: there is no match to stop in
                seated, keeper = keeper, None
                keeper = session.reseat(seated)
                session.save(keeper)
                click.echo(f"Saving to {path} after every entry.")
    except _Quit:
        if keeper is None:
            click.echo("Stopped before the match began; nothing was saved.")
            return
        click.echo(f"Stopped in deal {keeper.deal_no}.  Resume with: mizerka score --resume {path}")
        if not _export(keeper, export_csv, export_record):
            raise click.exceptions.Exit(1) from None
        return
    except click.Abort:
        if keeper is None:
            click.echo("\nInput ended before the match began; nothing was saved.", err=True)
        else:
            _export(keeper, export_csv, export_record)
            click.echo(f"\nInput ended in deal {keeper.deal_no}; saved.  Resume with: mizerka score --resume {path}",
                       err=True)
        raise click.exceptions.Exit(1) from None
    except KeyboardInterrupt:  # Ctrl-C: said as such, status 130 (as mizerka play), never "Aborted!" or "Input ended"
        if keeper is None:
            click.echo("\nInterrupted before the match began; nothing was saved.", err=True)
        else:
            _export(keeper, export_csv, export_record)
            where = "after the last deal" if keeper.is_over() else f"in deal {keeper.deal_no}"
            click.echo(f"\nInterrupted {where}; saved.  Resume with: mizerka score --resume {path}", err=True)
        raise click.exceptions.Exit(130) from None
    if not _export(keeper, export_csv, export_record):
        raise click.exceptions.Exit(1)
