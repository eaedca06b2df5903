"""The terminal game: a whole match of Mizerka against computer players, played at the keyboard.

:class:`TerminalGame` runs the loop: it asks the human seat for its actions through a ``read(prompt)`` callable,
asks each computer seat's chooser for its, applies every action to a :class:`~mizerka.match.Match` with full
checking, and writes what happens through a ``write(text)`` callable.  Everything it shows the human is built
from ``match.observation(seat)`` or from the finished deal's observation for that seat: other players' cards never
appear, and their exchanges show only how many cards they changed.

``mizerka play`` (:data:`play_command`) wires the loop to the terminal and to bots from :mod:`mizerka.bots`.
Tests drive the same loop with scripted answers:

>>> from mizerka.match import Match
>>> from mizerka.deal import KEEP
>>> from mizerka.rules import parse_variant
>>> match = Match(parse_variant("standard,contracts=NT,first_dealer=2"), players=["You", "Ala", "Bolek"], seed=3)
>>> first = lambda obs: obs.legal_actions[0] if obs.legal_actions else KEEP
>>> out = []
>>> game = TerminalGame(match, 0, {1: first, 2: first}, read=lambda prompt: "-" if "discard" in prompt
...                     else str(match.observation(0).legal_actions[0]), write=out.append)
>>> outcome = game.run()
>>> match.is_over(), sum(outcome.totals)
(True, 0)
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime
import os
import random
import re
import secrets
import shlex
import sys
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click

from mizerka._files import is_read_only as _read_only
from mizerka._files import write_atomically
from mizerka.cards import CARDS, Card, CardSet
from mizerka.cli import (
    VARIANT_WARNED,
    ascii_text,
    format_cards,
    stdout_takes_unicode,
    suit_order,
    terminal_width,
    variant_option,
)
from mizerka.deal import (
    Action,
    Choose,
    Deal,
    Exchange,
    IllegalActionError,
    InvalidActionError,
    Observation,
    Phase,
    Play,
)
from mizerka.match import Match, MatchError, Outcome
from mizerka.record import QUOTE_CHARS, quoted
from mizerka.rules import STANDARD, Contract, Role, Rules
from mizerka.scoresheet import signed, totals_text
from mizerka.undo import UndoError, take_back

if TYPE_CHECKING:
    from mizerka.bots.base import Decision
    from mizerka.tui.resume import Resumed

__all__ = ["RECORD_AT_SERVER", "Chooser", "QuitGame", "RecordFile", "TerminalGame", "ascii_text", "check_record_path",
           "counted", "hint_text", "names_a_folder", "play_command", "refusal_text", "signed",
           "write_atomically"]

Chooser = Callable[[Observation], Action]
"""A computer seat: given its observation, return its action."""

_HELP_COMMANDS = """\
Commands at any prompt:
  hand    show your hand            sheet   show the score sheet
  last    show the last trick       help    this help (also ?)
  review [N]  a finished deal (the last one, or deal N) judged card by card by the solver
"""
UNDO_HELP_TEXT = """\
  undo, u at your card: take back your last card and the computer players' actions after it, and choose
          again; undo again goes back further, card by card, but never past your exchange, the contract
          or into an earlier deal
"""
_HELP_REST = """\
  quit    leave the match
Contracts: C D H S (or ♣ ♦ ♥ ♠) make that suit trumps, NT is no-trump, MZ is Mizerka (avoid tricks).
Cards: rank then suit, e.g. AS, 10H, TH, 10♥, 7c.  Exchange: the cards to discard in one go, e.g. '2C 7D',
or - to keep your hand.  The exchange is blind and happens once: you draw from the top of the talon."""

HELP_TEXT = _HELP_COMMANDS + _HELP_REST
"""The help of the prompts that every line game shares (a server's table too, which adds ``undo`` only where
every other seat is a computer player's)."""

HINT_HELP_TEXT = """\
  hint    what the expert bot would do in your place, from what you see only, with its expected scores
"""
LOCAL_HELP_TEXT = _HELP_COMMANDS + HINT_HELP_TEXT + UNDO_HELP_TEXT + _HELP_REST
"""The help of a local game against computer players: :data:`HELP_TEXT` with ``hint`` and ``undo``."""

BOT_NAMES = ("Ala", "Bolek", "Cezary", "Danuta", "Edek")

REVIEW_WIDTH = 79
"""The widest line of the ``review`` command's text: it fits an 80-column terminal."""


_ASCII_HELP = ((" (or ♣ ♦ ♥ ♠)", ""), ("TH, 10♥, 7c", "TH, 7c"))
"""The help's examples with suit symbols, left out with ``--ascii`` (the letters are named next to them)."""
def counted(number: int, noun: str) -> str:
    """*number* and *noun*, plural unless one: ``counted(1, "card")`` is ``'1 card'``, ``counted(0, "card")``
    ``'0 cards'``."""
    return f"{number} {noun}{'' if number == 1 else 's'}"


def refusal_text(obs: Observation, card: Card, *, playable: bool = True, unicode: bool = True) -> str:
    """Why *card* cannot be played now, in the player's own words: what both terminal games say when a card is
    refused (from the seat's observation only, :meth:`~mizerka.deal.Observation.why_illegal`).

    *playable*: whether the seat has any card to play now (``False``: not its turn to play a card).

    >>> from mizerka.deal import Deal
    >>> deal = Deal(list(range(52)), dealer=0)
    >>> for action in ("H", "keep", "-", "keep", "AC"):   # seat 1 leads a club in a hearts contract
    ...     _ = deal.play(action)
    >>> obs = deal.observation(2)
    >>> refusal_text(obs, Card.from_str("KH"))
    'K♥ cannot be played: follow suit (♣ clubs were led)'
    >>> refusal_text(obs, Card.from_str("AC"), unicode=False)
    'AC is not in your hand'
    """
    name = card.unicode() if unicode else str(card)
    if card not in obs.hand:
        return f"{name} is not in your hand"
    if not playable:
        return f"it is not your turn to play a card ({name} stays in your hand)"
    reason = obs.why_illegal(card)
    if reason is not None and reason.code != "not_in_hand":
        suit = f"{reason.suit.symbol} {reason.suit.name.lower()}" if unicode else reason.suit.name.lower()
        if reason.code == "follow":
            return f"{name} cannot be played: follow suit ({suit} were led)"
        return f"{name} cannot be played: you must trump ({suit})"
    return f"{name} cannot be played now"


MAX_ANSWER_CHARS = 200
"""The longest answer given to the engine: no card, contract, discards or command is near it (five discards,
``10♥ 10♠ 10♦ 10♣ 9♥``, are 19 characters).  A longer line, a pasted page or a megabyte piped in, is refused as it
stands, and echoed (:func:`_read_line`) only in part."""


def brief_refusal(message: str, answer: str) -> str:
    """*message*, an engine's refusal of *answer*, quoting at most the start of it: every quotation of the answer,
    or of a word of it, longer than :data:`~mizerka.record.QUOTE_CHARS` is cut (:func:`~mizerka.record.quoted`), so
    that a long bad answer is named once in a line, not repeated three times in full ("invalid action 'x…': invalid
    card 'x…' in 'x…'").

    >>> print(brief_refusal(f"invalid action {'Q' * 45!r}: invalid card {'Q' * 45!r}", "Q" * 45))
    invalid action 'QQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQ'…: invalid card 'QQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQ'…
    """
    pieces = {answer, answer.strip(), *answer.replace(",", " ").split()}
    for piece in sorted((p for p in pieces if len(p) > QUOTE_CHARS), key=len, reverse=True):
        message = message.replace(repr(piece), quoted(piece))
    return message


def hint_text(source: str, action: str, evaluations: Mapping[str, float], *, unicode: bool = True) -> str:
    """A hint as the terminal games write it: the advised action, then what the figures are, the bot's expected
    score of its best candidates (the advised one first, at most four; cards shown as the game shows them).

    *source* says whose advice it is (``"expert bot, from your view only"``); *action* and the keys of
    *evaluations* are action texts (``"6C"``, ``"exchange 5H 2D"``, ``"NT"``).  For a contract the figures
    are this deal's score only: the bot also keeps the better contracts for later deals, so its choice need
    not be the highest figure, and the text says so.

    >>> hint_text("expert bot", "6C", {"6C": 2.29, "JC": 2.06, "5D": 1.9})
    'Hint (expert bot): 6♣   expected score: 6♣ +2.3, J♣ +2.1, 5♦ +1.9'
    >>> print(hint_text("expert bot", "NT", {"C": -0.84, "NT": -1.35, "MZ": -2.8}, unicode=False))
    ... # doctest: +NORMALIZE_WHITESPACE
    Hint (expert bot): NT   expected score in this deal: NT -1.4, C -0.8, MZ -2.8 (the choice also keeps the
    better contracts for later deals)
    """
    def shown(text: str) -> str:
        with contextlib.suppress(ValueError):
            card = Card.from_str(text)
            return card.unicode() if unicode else str(card)
        return text

    text = f"Hint ({source}): {shown(action)}"
    figures = sorted(evaluations.items(), key=lambda kv: (kv[0] != action, -kv[1]))[:4]
    if not figures:
        return text
    is_contract = all(_is_contract(key) for key, _ in figures)
    text += ("   expected score in this deal: " if is_contract else "   expected score: ")
    text += ", ".join(f"{shown(key)} {value:+.1f}" for key, value in figures)
    if is_contract:
        text += " (the choice also keeps the better contracts for later deals)"
    return text


def _is_contract(text: str) -> bool:
    try:
        Contract.from_str(text)
    except ValueError:
        return False
    return True


class QuitGame(Exception):
    """The human asked to leave the match."""


class TerminalGame:
    """One match at the terminal: a human at *seat*, a chooser at every other seat.

    Args:
        match: the match to play (from its current position).
        seat: the human's seat.
        opponents: a chooser for each other seat (seats that sit out in a deal are never asked).
        read: returns the human's answer to a prompt; raises :class:`EOFError` at the end of input.
        write: shows one block of text.
        unicode: suit symbols (``10♥``) rather than letters (``TH``).
        colour: style the text with ANSI codes (click strips them when the output is not a terminal).
        record: writes the record of the finished deals after each deal, and says where it is at the end.

    Raises:
        ValueError: if a seat other than the human's has no chooser.
    """

    offers_review = True
    """Whether ``review`` can judge a finished deal (a game whose whole match is on this machine)."""

    record: RecordFile | None = None
    """Where the record of the finished deals is written after each deal (``--record FILE``), if anywhere."""

    def __init__(
        self,
        match: Match,
        seat: int,
        opponents: Mapping[int, Chooser],
        *,
        read: Callable[[str], str],
        write: Callable[[str], None],
        unicode: bool = True,
        colour: bool = False,
        record: RecordFile | None = None,
        hint: Callable[[Observation], Decision] | None = None,
    ) -> None:
        missing = [s for s in range(match.rules.n_seats) if s != seat and s not in opponents]
        if missing:
            raise ValueError(f"no computer player for seat(s) {missing}")
        self.match = match
        self.seat = seat
        self.opponents = dict(opponents)
        self.read = read
        self.write = write
        self.unicode = unicode
        self.colour = colour
        self.record = record
        self.hint = hint
        self.names = match.players
        self._seen = 0  # history entries of the current deal already reported
        self._keep_announced = False  # the forced keep (empty talon) was already said: report it once
        self._stock_seen = CardSet()  # the cards drawn from the stock in this deal already reported

    # -- text helpers -------------------------------------------------------------------------------------

    def plain(self, text: str) -> str:
        """*text* as this game writes it: unchanged, or in ASCII only without :attr:`unicode`
        (:func:`ascii_text`)."""
        return text if self.unicode else ascii_text(text)

    def help_text(self) -> str:
        """The help of the prompts (:data:`LOCAL_HELP_TEXT`), in ASCII without :attr:`unicode`."""
        if self.unicode:
            return LOCAL_HELP_TEXT
        text = LOCAL_HELP_TEXT
        for phrase, replacement in _ASCII_HELP:
            text = text.replace(phrase, replacement)
        return ascii_text(text)

    def _style(self, text: str, **style: object) -> str:
        return click.style(text, **style) if self.colour else text  # type: ignore[arg-type]

    def card(self, card: int) -> str:
        c = CARDS[card]
        text = c.unicode() if self.unicode else str(c)
        return self._style(text, fg="red") if c.suit.is_red else text

    def cards(self, cards: Sequence[int]) -> str:
        return " ".join(self.card(c) for c in cards) if cards else "-"

    def sheet_text(self) -> str:
        """The match's score sheet, its suit symbols as letters (:meth:`plain`) unless :attr:`unicode`."""
        return self.plain(self.match.score_sheet().text(terminal_width()))

    def hand_text(self, hand: CardSet, trump: int | None) -> str:
        return format_cards(hand, unicode=self.unicode, trump=trump)

    def who(self, seat: int) -> str:
        return "you" if seat == self.seat else self.names[seat]

    def who_cap(self, seat: int) -> str:
        """:meth:`who` with a capital letter, to open a sentence."""
        name = self.who(seat)
        return name[:1].upper() + name[1:]

    def contract_text(self, contract: Contract) -> str:
        if contract.trump is not None:
            symbol = contract.symbol if self.unicode else str(contract)
            return f"{symbol} {contract.label} (trumps; take tricks)"
        if contract.is_mizerka:
            return "Mizerka (no trumps; avoid tricks)"
        return "no-trump (take tricks)"

    def tricks_line(self, obs: Observation) -> str:
        if obs.contract is None:
            return ""
        parts = []
        for role, seat in enumerate(obs.active_seats):
            quota = obs.rules.quota(role, obs.contract)
            parts.append(f"{self.who_cap(seat)} {obs.tricks_won[seat]} (quota {quota})")
        return self.plain("Tricks: " + " · ".join(parts))

    def totals_line(self, totals: Sequence[int]) -> str:
        return self.plain("Totals: " + totals_text(totals, self.who_cap))

    # -- the loop -----------------------------------------------------------------------------------------

    def run(self) -> Outcome:
        """Play the match to its end and return the outcome.

        Raises:
            QuitGame: when the human types ``quit``.
            EOFError: when the input ends.
        """
        match = self.match
        while not match.is_over():
            deal = match.deal
            if not deal.history:
                self.announce_deal()
            seat = deal.to_move
            if seat == self.seat:
                action = self.ask_human(deal)
            else:
                action = self.opponents[seat](match.observation(seat))
                try:
                    match.play(action)
                except (IllegalActionError, MatchError) as error:
                    raise RuntimeError(f"computer player {self.names[seat]} broke the rules: {error}") from None
            self.report(deal)
            if deal.is_over():
                self.finish_deal(deal)
        outcome = match.outcome()
        winners = " and ".join(self.who(s) for s in outcome.winners)
        self.write(self._style("The match is over.", bold=True) + " " + self.totals_line(outcome.totals))
        if self.seat in outcome.winners:
            text = "You win!" if not outcome.shared else f"The win is shared: {winners}."
        else:
            text = f"The winner: {winners}" + (" (shared)." if outcome.shared else ".")
        self.write(self._style(text, bold=True))
        if self.record is not None:
            with contextlib.suppress(OSError, ValueError):  # the last deal's write, tried again: where() says a failure
                self.record.save(self.match)
            self.write(self.record.where())
        return outcome

    def save_record(self) -> None:
        """Write the record of the finished deals to :attr:`record`; a failure is said, and the game goes on."""
        if self.record is None:
            return
        try:
            self.record.save(self.match)
        except (OSError, ValueError) as error:
            self.write(self._style(self.record.failure(error, match_over=self.match.is_over()), fg="yellow"))

    def announce_deal(self, *, going_on: bool = False) -> None:
        """Open a deal: its number, dealer, roles and the totals, then the human's first cards; a deal *going_on*
        (a resumed match's deal in progress, which :meth:`report` then tells) gets the header only."""
        match, obs = self.match, self.match.observation(self.seat)
        roles = [f"{role.short} {self.who(seat)}" for role, seat in zip(Role, obs.active_seats, strict=True)]
        header = f"═══ Deal {match.deal_no} of {match.n_deals} ═══  dealer: {self.who(obs.dealer)} · "
        header += " · ".join(roles)
        self.write("")
        self.write(self._style(self.plain(header), bold=True))
        if match.deal_no > 1:
            self.write(self.totals_line(obs.totals))
        self._seen = 0
        self._stock_seen = CardSet()
        if obs.role is None:
            self.write("You deal and sit out this deal.")
            return
        if going_on:
            return
        chooser = obs.active_seats[0]
        if chooser != self.seat:
            self.write(f"Your first {len(obs.hand)} cards: {self.hand_text(obs.hand, None)}")
            self.write(f"{self.who_cap(chooser)} (forehand) is choosing the contract.")

    # -- the human's turn ---------------------------------------------------------------------------------

    def ask_human(self, deal: Deal) -> Action:
        """Prompt until the human gives a legal action (or a command that ends the game), apply it, return it."""
        match = self.match
        forced = deal.forced_action()
        obs = match.observation(self.seat)
        if forced is not None and (
            (deal.phase is Phase.CHOOSE)
            or (deal.phase is Phase.EXCHANGE)
            or (deal.phase is Phase.PLAY and len(obs.hand) == 1)
        ):
            if isinstance(forced, Choose):
                self.write(f"Your only unused contract is {self.contract_text(forced.contract)}: it is chosen for you.")
            elif isinstance(forced, Exchange):
                self.write("The talon is empty: you keep your hand.")
                self._keep_announced = True
            else:
                self.write(f"You play your last card, {self.card(forced.card)}.")
            return match.play(forced)
        prompt = self.show_turn(obs)
        while True:
            answer = self.read(prompt).strip()
            command = answer.lower()
            if command in ("?", "help"):
                self.write(self.help_text())
            elif command == "hand":
                self.write(self.hand_line(match.observation(self.seat)))
            elif command == "sheet":
                self.write(self.sheet_text())
            elif command in ("last", "last trick"):
                self.write(self.last_trick(match.observation(self.seat)))
            elif command.split(maxsplit=1)[:1] == ["review"]:
                self.write(self.review(command[len("review"):].strip()))
            elif command == "hint":
                self.write(self.hint_line())
            elif command in ("undo", "u"):
                if self.undo():
                    prompt = self.show_turn(match.observation(self.seat))
            elif command in ("quit", "exit"):  # not "q": a queen's rank typed without its suit left the match
                raise QuitGame
            elif not answer:
                self.write("Please answer (type ? for help).")
            elif len(answer) > MAX_ANSWER_CHARS:
                self.write(self._style(self.plain(f"Not accepted: {quoted(answer)} ({len(answer)} characters) is no "
                                                  "card, contract or command (type ? for help)"), fg="yellow"))
            else:
                try:
                    return match.play(answer)
                except (InvalidActionError, IllegalActionError) as error:
                    reason = brief_refusal(self.refusal(deal, answer, error), answer)
                    self.write(self._style(self.plain(f"Not accepted: {reason}"), fg="yellow"))

    def hint_line(self) -> str:
        """What the hint bot would do in the human's place, from the human's observation only (``hint``)."""
        if self.hint is None:
            return "This game gives no hints."
        decision = self.hint(self.match.observation(self.seat))
        return hint_text("expert bot, from your view only", str(decision.action), decision.evaluations,
                         unicode=self.unicode)

    def refusal(self, deal: Deal, answer: str, error: ValueError) -> str:
        """What to say when *answer* is refused: for a card of the hand that may not be played now, the reason in
        the player's words (:func:`refusal_text`); for discards not all in the hand, which ones; otherwise the
        engine's message."""
        if deal.phase is Phase.EXCHANGE:
            try:
                action = deal.parse_action(answer)
            except ValueError:
                return str(error)
            if isinstance(action, Exchange) and isinstance(action.discards, CardSet):
                hand = self.match.observation(self.seat).hand
                stray = [card for card in action.discards if card not in hand]
                if stray:
                    names = ", ".join(self.card(card) for card in stray)
                    return f"{names} {'is' if len(stray) == 1 else 'are'} not in your hand"
            return str(error)
        if deal.phase is Phase.PLAY:
            try:
                action = deal.parse_action(answer)
            except ValueError:
                return str(error)
            if isinstance(action, Play):
                return refusal_text(self.match.observation(self.seat), CARDS[action.card], unicode=self.unicode)
        return str(error)

    def undo(self) -> bool:
        """The ``undo`` command: take back the human's last card of this deal and every computer player's action
        after it (:func:`mizerka.undo.take_back`), say what was taken back, and return ``True``; the caller
        then asks again.  When nothing can be taken back (no card of the human's in this deal yet, or it would
        go past his exchange, the contract or into a finished deal) say why, change nothing, return ``False``.

        Here the match is local (the game at a server's table asks the server instead,
        :meth:`mizerka.tui.remote.RemoteLineGame.undo`): a computer player is asked again from its observation
        when play comes round to it, and the report of new events starts again from the position after the undo
        (so a trick taken back and completed anew is shown once more, with its new cards).
        """
        match = self.match
        try:
            taken = take_back(match, self.seat)
        except UndoError as error:
            self.write(self._style(self.plain(f"Cannot undo: {error}."), fg="yellow"))
            return False
        self._seen = len(match.deal.history)
        shown = ", ".join(f"{self.who(seat)} {self.card(action.card)}" for seat, action in taken
                          if isinstance(action, Play))
        count = len(taken)
        self.write(f"Taken back: {shown} ({counted(count, 'card')}).  Choose your card again.")
        return True

    def review(self, argument: str = "") -> str:
        """The ``review [N]`` command: finished deal *N* (default: the last one) judged card by card, as text
        (:func:`mizerka.analysis.format_analysis`'s report, with the hands at the start of play); or a sentence
        saying why not (no such finished deal).  It changes nothing, and never shows the deal in progress."""
        from mizerka.tui.review import build_review, check_reviewable, finished_deals, finished_record, review_text

        finished = finished_deals(self.match)
        dots = "…" if self.unicode else "..."
        if not argument:
            if not finished:
                return "No deal is finished yet: a review is of a finished deal."
            number = finished[-1]
        elif argument.isascii() and argument.isdigit():
            digits = argument.lstrip("0") or "0"
            if len(digits) > 6:  # a number, but of no deal (and int() of thousands of digits would fail)
                shown = digits if len(digits) <= 12 else digits[:12] + dots
                return f"There is no deal {shown}: the match has deals 1-{self.match.n_deals}."
            number = int(digits)
        else:
            return f"Not a deal number: {argument!r}.  Type review, or review N for deal N (e.g. review 1)."
        refusal = check_reviewable(self.match, number)
        if refusal is not None:
            return refusal
        self.write(f"Analysing deal {number}{dots} (the solver judges every card: seconds for a Mizerka deal)")
        try:
            result = build_review(finished_record(self.match), number, n_deals=self.match.n_deals)
        except ValueError as error:  # RecordError, the solver's InvalidPositionError: said, never a traceback
            return f"Deal {number} could not be analysed: {error}"
        return review_text(result, unicode=self.unicode, width=REVIEW_WIDTH)

    def hand_line(self, obs: Observation, hand: CardSet | None = None) -> str:
        """``Your hand: …``, trumps first once there is a contract: the seat's hand now, or *hand* (the hand it held
        earlier in the deal, which :meth:`report` shows when it retells a deal)."""
        trump = obs.contract.trump if obs.contract is not None else None
        return f"Your hand: {self.hand_text(obs.hand if hand is None else hand, trump)}"

    def last_trick(self, obs: Observation) -> str:
        if not obs.tricks:
            return "No trick has been played in this deal yet."
        trick = obs.tricks[-1]
        return self.plain(f"Last trick: {self.trick_text(obs, trick.leader, trick.cards)} → {self.who(trick.winner)} "
                          "won it.")

    def trick_text(self, obs: Observation, leader: int, cards: Sequence[Card]) -> str:
        order = obs.active_seats
        start = order.index(leader)
        return ", ".join(f"{self.who(order[(start + i) % 3])} {self.card(c)}" for i, c in enumerate(cards))

    def show_turn(self, obs: Observation) -> str:
        """Write what the human needs to decide, and return the prompt."""
        rules = obs.rules
        if obs.phase is Phase.CHOOSE:
            self.write(f"Your first {len(obs.hand)} cards: {self.hand_text(obs.hand, None)}")
            options = " ".join((c.symbol if self.unicode else str(c)) for c in obs.allowed_contracts)
            used = [c for c in rules.contracts if c not in obs.allowed_contracts]
            if used:
                self.write("Already chosen: " + " ".join((c.symbol if self.unicode else str(c)) for c in used))
            letters = "/".join(str(c) for c in obs.allowed_contracts)
            return f"You are forehand. Choose a contract [{options}] ({letters}): "
        if obs.phase is Phase.EXCHANGE:
            self.write(self.hand_line(obs))
            done = [(s, n) for s, n in zip(range(rules.n_seats), obs.exchange_counts, strict=True) if n is not None]
            if done:
                self.write("Exchanged so far: " + ", ".join(f"{self.who(s)} {n}" for s, n in done))
            limit = min(obs.talon_size, len(obs.hand))
            self.write(f"Your one blind exchange: the talon holds {counted(obs.talon_size, 'card')}.")
            return f"Cards to discard (at most {limit}), or - to keep: "
        # play phase
        stock = f"  Stock: {counted(obs.stock_size, 'card')}." if obs.stock_size else ""
        if not obs.trick:
            self.write(f"Trick {len(obs.tricks) + 1} of {rules.n_tricks}: you lead.  {self.tricks_line(obs)}{stock}")
        else:
            self.write(
                f"Trick {len(obs.tricks) + 1} of {rules.n_tricks}: {self.trick_text(obs, obs.trick_leader, obs.trick)}"
                f", your turn.  {self.tricks_line(obs)}{stock}"
            )
        self.write(self.hand_line(obs))
        legal = CardSet(a.card for a in obs.legal_actions if isinstance(a, Play))
        trump = obs.contract.trump if obs.contract is not None else None
        ordered = [c for suit in suit_order(trump) for c in legal.of_suit(suit).cards()]
        return f"Your card [{' '.join(self.card(c) for c in ordered)}]: "

    # -- reporting ----------------------------------------------------------------------------------------

    def report(self, deal: Deal) -> None:
        """Write the new public events of *deal* (from the human's observation of it): after each action, or all
        at once for the deal in progress of a resumed match (:func:`play_line_game`), told as they were seen then
        (the hand shown with the contract is the one held at that point, not the hand of now)."""
        obs = deal.observation(self.seat)
        entries = obs.history[self._seen :]
        plays_before = sum(1 for _, a in obs.history[: self._seen] if isinstance(a, Play))
        self._seen = len(obs.history)
        for actor, action in entries:
            if isinstance(action, Choose):
                verb = "choose" if actor == self.seat else "chooses"
                text = f"{self.who_cap(actor)} {verb} {self.contract_text(action.contract)}."
                self.write(self._style(text, bold=True))
                if obs.role is not None and obs.phase is not Phase.EXCHANGE:  # else the exchange prompt shows it
                    # the hand as it was when the contract was said, from the seat's own knowledge: every card
                    # dealt to it (its hand then, in a game told as it goes).  A deal retold on resuming is told in
                    # one go from its observation of now, whose hand has lost the cards played since and changed
                    # with the exchange and the stock draws told after this line
                    self.write(self.hand_line(obs, obs.dealt))
                if obs.shown_card is not None:
                    self.write(f"Turned-up talon card (a reminder only): {self.card(obs.shown_card)}")
            elif isinstance(action, Exchange):  # only the human's own exchange shows its cards
                if action.discards:
                    self.write(
                        f"You discard {self.cards(action.discards.cards())} "
                        f"and draw {self.cards(obs.drawn.cards())}."
                    )
                elif not self._keep_announced:
                    self.write("You keep your hand.")
                self._keep_announced = False
            elif isinstance(action, int):
                if action:
                    self.write(f"{self.who_cap(actor)} exchanges {counted(action, 'card')}.")
                else:
                    self.write(f"{self.who_cap(actor)} keeps.")
            elif isinstance(action, Play):
                plays_before += 1
                if plays_before % 3 == 0:
                    trick = obs.tricks[plays_before // 3 - 1]
                    winner = self._style(self.who_cap(trick.winner), bold=True)
                    self.write(self.plain(
                        f"Trick {plays_before // 3}: {self.trick_text(obs, trick.leader, trick.cards)}"
                        f" → {winner} {'win' if trick.winner == self.seat else 'wins'}."
                    ))
        drawn = obs.stock_drawn - self._stock_seen
        if drawn:  # seed002-literal: a card drawn from the stock after each of one's plays in the first tricks
            self._stock_seen = self._stock_seen | drawn
            self.write(f"You draw {self.cards(drawn.cards())} from the stock "
                       f"({counted(obs.stock_size, 'card')} left in it).")
        if obs.phase is Phase.PLAY and not obs.tricks and not obs.trick and entries:
            leader = obs.active_seats[0]
            self.write(f"Play begins: {self.who(leader)} {'lead' if leader == self.seat else 'leads'}.")

    def finish_deal(self, deal: Deal) -> None:
        obs = deal.observation(self.seat)
        assert obs.contract is not None and obs.scores is not None
        parts = []
        for role, seat in enumerate(obs.active_seats):
            quota = obs.rules.quota(role, obs.contract)
            parts.append(f"{self.who_cap(seat)} {obs.tricks_won[seat]} of {quota} → {signed(obs.scores[seat])}")
        goal = "take" if obs.contract.goal == "take" else "avoid"
        number = next(i for i, d in enumerate(self.match.deals, start=1) if d is deal)
        self.write(self._style(f"Deal {number} is over ({obs.contract.label}, {goal}): ", bold=True)
                   + self.plain("; ".join(parts)))
        self.write("")
        self.write(self.sheet_text())
        self.save_record()
        if self.offers_review and not self.match.is_over():
            self.write(f"(Type review at your next prompt to see deal {number} judged card by card.)")


# -- mizerka play ------------------------------------------------------------------------------------------


def make_opponents(
    levels: Sequence[str], seats: Sequence[int], seed: int, rules: Rules = STANDARD
) -> dict[int, Chooser]:
    """A chooser per computer seat, from bot levels of :mod:`mizerka.bots` seeded from the match seed (the
    searching levels' tables are computed in the background meanwhile, for *rules*).

    Raises:
        ValueError: for an unknown level (the bots' ``UnknownBotError``).
    """
    from mizerka.bots import SEARCH_LEVELS, Bot, make_bot, warm_up_in_background

    if SEARCH_LEVELS & set(levels):
        warm_up_in_background(rules)

    def chooser(bot: Bot) -> Chooser:
        def choose(observation: Observation) -> Action:
            return bot.decide(observation).action

        return choose

    return {
        seat: chooser(make_bot(level, seed=seed * 10 + index + 1))
        for index, (level, seat) in enumerate(zip(levels, seats, strict=True))
    }


_ANSI = re.compile(r"(\x1b\[[0-9;]*m)")


def _read_line(prompt: str) -> str:
    """Read one answer: with line editing at a terminal (the arrows, the history: :mod:`readline`, where Python
    has it), from a plain stream otherwise.  A byte-order mark before an answer (a file of answers saved by Windows
    Notepad) is dropped."""
    stdin = sys.stdin
    if stdin.isatty():
        if _line_editing():
            # readline counts every character of the prompt as a column: the colours' codes are marked as taking
            # none, or the cursor lands beside the text it edits
            prompt = _ANSI.sub("\x01\\1\x02", prompt)
        return input(prompt).lstrip("\ufeff")
    click.echo(prompt, nl=False)
    line = stdin.readline()
    if not line:
        raise EOFError
    answer = line.rstrip("\r\n").lstrip("\ufeff")
    # keeps a transcript readable when the answers come from a file or a pipe; a line too long to be an answer is
    # echoed in part, as the refusal quotes it (counting the same characters: the answer without its spaces)
    shown = answer if len(answer) <= MAX_ANSWER_CHARS else f"{answer[:QUOTE_CHARS]}… ({len(answer.strip())} characters)"
    click.echo(shown)
    return answer


def _line_editing() -> bool:
    """Whether :func:`input` edits lines with :mod:`readline` (imported here, once: importing it turns it on)."""
    try:
        import readline  # noqa: F401  (imported for its side effect)
    except ImportError:  # not on every platform (Windows)
        return False
    return True


def check_play_options(rules: Rules, seat: int, name: str, opponents: str) -> tuple[str, list[str]]:
    """The human's name and the opponents' levels, checked against the table of *rules*.

    The name is stripped and must be one a game record can hold (:func:`mizerka.record.check_name`: at most 1000
    characters, nothing invisible in it), checked here, before the match: ``--record FILE`` and the ``review``
    command build the match's record, and a name the record refused would leave the whole match unrecorded.

    Raises:
        click.BadParameter: for a seat, name or list of levels that cannot be used.
    """
    n = rules.n_seats
    if seat >= n:
        raise click.BadParameter(f"seat {seat} is not at a {n}-player table (seats 0-{n - 1})", param_hint="'--seat'")
    from mizerka.record import RecordError, check_name

    name = name.strip()
    if not name:
        raise click.BadParameter("give a name with at least one visible character", param_hint="'--name'")
    try:  # the record's own rule: a name it refuses would leave the whole match unrecorded (--record FILE)
        check_name(name, "the name")
    except RecordError as error:
        raise click.BadParameter(f"{error} (a game record could not hold it)", param_hint="'--name'") from None
    if not name.isprintable():  # inside a name, a space other than ' ' (a no-break space, U+3000, ...) too
        raise click.BadParameter("give a name with at least one visible character", param_hint="'--name'")
    levels = [level.strip().lower() for level in opponents.split(",")]
    if len(levels) == 1:
        levels *= n - 1
    if len(levels) != n - 1 or not all(levels):
        raise click.BadParameter(
            f"give {n - 1} levels separated by commas, or one for all, not {opponents!r}", param_hint="'--opponents'"
        )
    return name, levels


def new_match(rules: Rules, players: Sequence[str], seed: int) -> Match:
    """The match of a game at the terminal or in the TUI.  A variant's warning (its scores are not zero-sum)
    is said once as a ``warning:`` line, not as Python's warning with a source line, and not at all if
    ``--variant`` has said it already."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        match = Match(rules, players=players, seed=seed)
    context = click.get_current_context(silent=True)
    if context is None or not context.meta.get(VARIANT_WARNED):
        for warning in caught:
            click.echo(f"warning: {warning.message}", err=True)
    return match


# -- --record FILE -----------------------------------------------------------------------------------------

RECORD_AT_SERVER = (
    "--record cannot be used with --connect: the server keeps the table's record; download it from the table's "
    "web page (or GET /api/tables/ID/record)"
)
"""Why ``mizerka play --connect URL --record FILE`` is refused."""


def _is_record(path: Path) -> bool:
    from mizerka.record import RecordError, read

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            read(path)
    except (RecordError, OSError):
        return False
    return True


def names_a_folder(text: str) -> bool:
    """Whether the file name *text*, as typed, can only name a folder: it ends with a separator, or its last
    part is ``.`` or ``..``.  :class:`~pathlib.Path` drops a trailing ``/`` and a last ``.`` (``Path("games/")``
    is ``games``), so the check is made on the text, before it becomes a path, or ``--file games/`` would write a
    file called ``games``.

    >>> names_a_folder("games/"), names_a_folder("x.mzn/."), names_a_folder(".."), names_a_folder("game.mzn")
    (True, True, True, False)
    """
    return os.path.basename(text) in ("", ".", "..") or text.endswith(("/", os.sep))


def check_record_path(text: str, option: str = "--record", *, any_file: bool = False) -> Path:
    """The file that ``--record`` (or another *option* naming a file to write) names, checked before the match
    starts (nothing is created).

    Refused: an empty name, a folder, a file in a folder that does not exist or cannot be written, an existing
    file that is not a mizerka game record (an old record is replaced by the new one; with *any_file*, for a file
    that is no record, such as ``mizerka score --export-csv``'s sheet, any regular file is), and a read-only file.
    A symbolic link to a file is followed: the file it points to is replaced, in that folder, and the link stays.

    Raises:
        click.BadParameter: saying why, with *option* as its name (exit code 2).
    """

    def refuse(reason: str) -> click.BadParameter:
        return click.BadParameter(reason, param_hint=f"'{option}'")

    if not text.strip():
        raise refuse(f"give a file name, e.g. {option} game.mzn")
    shown = click.format_filename(text)
    path = Path(text)
    if names_a_folder(text) and not path.is_dir() and (path.exists() or path.is_symlink()):
        # 'x.mzn/' where x.mzn is a file: no folder to put a file in, and Path() would drop the '/' (the file itself)
        ending = text[-1] if text.endswith(("/", os.sep)) else os.path.basename(text)
        raise refuse(f"{shown!r} names a folder (it ends with {ending!r}), but {click.format_filename(path)!r} is "
                     f"not one: give the file's name without the {ending!r} at the end")
    if names_a_folder(text) or path.is_dir():
        raise refuse(f"{shown!r} is a folder: give a file name, e.g. {click.format_filename(path / 'game.mzn')}")
    folder = path.parent
    if not folder.exists():
        raise refuse(f"the folder {click.format_filename(folder)!r} does not exist: create it first")
    if not folder.is_dir():
        raise refuse(f"{click.format_filename(folder)!r} is not a folder")
    if path.exists() or path.is_symlink():
        if not path.is_file():
            raise refuse(f"{shown!r} exists and is not a regular file")
        if not any_file and not _is_record(path):
            raise refuse(f"{shown!r} exists and is not a mizerka game record: it is not overwritten "
                         "(choose another name, or remove it)")
        if _read_only(Path(os.path.realpath(path))):
            raise refuse(f"{shown!r} is read-only: it is not overwritten (make it writable, or choose another "
                         "name)")
        folder = Path(os.path.realpath(path)).parent  # a link's record is written where the link points
    if not os.access(folder, os.W_OK | os.X_OK):
        raise refuse(f"the folder {click.format_filename(folder)!r} is not writable")
    probe = folder / f".{path.name[:64]}.{secrets.token_hex(6)}.tmp"
    try:  # a read-only file system passes os.access for root: try it
        os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        os.unlink(probe)
    except OSError as error:
        raise refuse(f"cannot write in the folder {click.format_filename(folder)!r}: {error.strerror}") from None
    return path


class RecordFile:
    """Where ``mizerka play --record FILE`` keeps the record of a local match's finished deals.

    :meth:`save` writes the record (:func:`mizerka.tui.review.finished_record`: never the deal in progress) as
    JSON when the name ends in ``.json``, else in the text form, atomically (:func:`write_atomically`).  The
    header has the tags ``Event`` (``mizerka play``), ``Date``, ``Seed`` (the match's ``--seed``), the tags
    given as *tags* (``Seat`` and ``Opponents``, which ``mizerka play --resume`` reads back:
    :func:`mizerka.tui.resume.setup_tags`) and ``Generator``.

    The record of a resumed match (*earlier*) keeps the earlier record's finished deals as they were read (with
    their commitments, if a server wrote them) and its tags, with its ``Seed`` followed by this seed and the
    first deal it shuffled (:func:`mizerka.tui.resume.resumed_tags`).

    Args:
        path: the file, checked by :func:`check_record_path`.
        seed: the match's seed.
        date: the ``Date`` tag (default: today, ``YYYY.MM.DD``; a resumed match keeps the earlier record's).
        tags: more header tags.
        earlier: the match as it was resumed (:func:`mizerka.tui.resume.resume_match`), if it was.
    """

    def __init__(self, path: Path, *, seed: int, date: str | None = None, tags: Mapping[str, str] | None = None,
                 earlier: Resumed | None = None) -> None:
        self.path = path
        self.seed = seed
        self.date = date if date is not None else datetime.date.today().strftime("%Y.%m.%d")
        self.tags = dict(tags or {})
        self.earlier = earlier
        self.as_json = path.suffix.lower() == ".json"
        self.replaces = path.is_file()  # an old record, checked by check_record_path
        # the resumed match's own file: it holds the earlier deals already, and the record goes on in it
        self.goes_on = earlier is not None and self.replaces and path.samefile(earlier.path)
        # the finished deals written so far
        self.deals: list[int] = list(range(1, earlier.finished + 1)) if earlier is not None and self.goes_on else []
        self.error: str | None = None  # why the last write failed, if it did

    @property
    def name(self) -> str:
        return click.format_filename(self.path)

    def text(self, match: Match) -> str:
        """The record of *match*'s finished deals, in this file's form."""
        from mizerka import __version__
        from mizerka.tui.review import finished_record

        if self.earlier is None:
            tags = {"Event": "mizerka play", "Date": self.date, "Seed": str(self.seed)}
        else:
            from mizerka.tui.resume import resumed_tags

            tags = resumed_tags(self.earlier.record, self.seed, len(self.earlier.record.deals) + 1)
            tags.setdefault("Date", self.date)
        tags.update(self.tags)
        tags["Generator"] = f"mizerka {__version__}"
        record = finished_record(match, tags=tags)
        if self.earlier is not None:  # its finished deals as they were read (a server's commitments kept)
            kept = self.earlier.record.deals[:self.earlier.finished]
            record = dataclasses.replace(record, deals=tuple(kept) + tuple(record.deals[len(kept):]))
        return record.to_json() if self.as_json else record.to_text()

    def save(self, match: Match) -> bool:
        """Write the record if a deal has finished since the last write; return whether it wrote.

        Raises:
            OSError: if the file cannot be written (it is then as it was).
        """
        from mizerka.tui.review import finished_deals

        finished = finished_deals(match)
        if not finished or finished == self.deals:
            return False
        try:
            write_atomically(self.path, self.text(match))
        except (OSError, ValueError) as error:
            self.error = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
            raise
        self.deals = finished
        self.error = None
        return True

    def announcement(self) -> str:
        """What the game says at its start about the record: where it goes (it replaces an old record there), or,
        for a match resumed from this file, that it goes on there."""
        if self.goes_on:
            return f"The record goes on in {self.name} after each deal."
        replaced = " (it replaces the old record there)" if self.replaces else ""
        return f"The record of the finished deals goes to {self.name} after each deal{replaced}."

    def failure(self, error: Exception, *, match_over: bool = False) -> str:
        """What to say when :meth:`save` failed with *error* (the game goes on, the next deal tries again; after
        the last deal, *match_over*, the end of the match tries once more)."""
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        if match_over:
            return f"The record could not be written to {self.name}: {reason}."
        return (f"The record could not be written to {self.name}: {reason}; the match goes on, and the next "
                "finished deal tries again.")

    def where(self) -> str:
        """A sentence saying where the record is and what to do with it (or that nothing was written)."""
        from mizerka.tui.review import deal_range

        kept = " (the old record in it is left as it was)" if self.replaces else ""
        if not self.deals:
            if self.error is not None:
                return f"The record could not be written to {self.name}: {self.error}{kept}."
            return f"No deal was finished: nothing was written to {self.name}{kept}."
        shell_name = shlex.quote(self.name)
        failed = f" (the last write failed: {self.error})" if self.error is not None else ""
        return (f"The record of {deal_range(self.deals)} is in {self.name}: "
                f"mizerka replay {shell_name} / mizerka analyse {shell_name}{failed}")


def computer_names(name: str) -> Iterator[str]:
    """The names the computer players take in turn beside a human called *name*: :data:`BOT_NAMES`, less any that
    reads as his (told apart as a record tells names apart, :func:`mizerka.record.name_key`: with "ＡＬＡ" at the
    table no computer is called "Ala", or no record could hold the match).

    >>> list(computer_names("\uff21\uff2c\uff21"))[:2]
    ['Bolek', 'Cezary']
    """
    from mizerka.record import name_key

    return iter(b for b in BOT_NAMES if name_key(b) != name_key(name))


def local_table(
    seed: int | None, rules: Rules, seat: int, name: str, opponents: str, record_name: str | None,
    resumed: Resumed | None = None,
) -> tuple[Match, int, list[str], int, RecordFile | None]:
    """The table of a match at this terminal, the line game's and the full screen's alike: the options checked,
    then the match dealt, or *resumed* (``--resume FILE``: its match, seat and levels, and its file for the record
    unless ``--record`` names another).  Returns the match, the human's seat, the computer players' levels (in seat
    order), the seed (a random one if *seed* is None) and the record file, if any.

    Raises:
        click.BadParameter: for a seat, name, level or record file that cannot be used.
    """
    from mizerka.bots import UnknownBotError, level_name
    from mizerka.tui.resume import setup_tags

    record_path: Path | None
    if resumed is not None:  # its seat and levels were checked when it was read
        seat, levels, match = resumed.seat, resumed.levels, resumed.match
        record_path = (check_record_path(record_name) if record_name is not None
                       else check_record_path(str(resumed.path), "--resume"))
    else:
        name, levels = check_play_options(rules, seat, name, opponents)
        try:  # before the match is dealt (a variant's warning would come first)
            for level in levels:
                level_name(level)
        except UnknownBotError as error:
            raise click.BadParameter(str(error), param_hint="'--opponents'") from None
        record_path = check_record_path(record_name) if record_name is not None else None
    if seed is None:
        seed = random.SystemRandom().randrange(1_000_000)
    if resumed is None:
        bot_names = computer_names(name)
        players = [name if s == seat else next(bot_names) for s in range(rules.n_seats)]
        match = new_match(rules, players, seed)
    record = (RecordFile(record_path, seed=seed, tags=setup_tags(seat, levels), earlier=resumed)
              if record_path is not None else None)
    return match, seat, levels, seed, record


def _set_up_play(
    seed: int | None, rules: Rules, seat: int, name: str, opponents: str, unicode: bool | None,
    record_name: str | None, resumed: Resumed | None = None,
) -> tuple[TerminalGame, list[str], int]:
    """What ``mizerka play --plain`` builds before its first question: the table (:func:`local_table`), the
    computer players and the hint bot.  Returns the game, the computer players' levels (in seat order) and the
    seed."""
    from mizerka.bots import make_bot

    match, seat, levels, seed, record = local_table(seed, rules, seat, name, opponents, record_name, resumed)
    others = [s for s in range(match.rules.n_seats) if s != seat]
    try:
        choosers = make_opponents(levels, others, seed, match.rules)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="'--opponents'") from None
    if unicode is None:
        unicode = stdout_takes_unicode()
    hint_bot = make_bot("expert", seed=seed * 10 + 9)  # the full-screen game's hint bot, seeded alike
    game = TerminalGame(match, seat, choosers, read=_read_line, write=click.echo, unicode=unicode, colour=True,
                        record=record, hint=hint_bot.decide)
    return game, levels, seed


@click.command("play")
@click.option(
    "--seed", type=click.IntRange(min=0), default=None, help="seed for the deals and the bots (default: random)"
)
@variant_option
@click.option(
    "--seat",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    help="your seat, 0 to n-1 (seat 0 need not deal first: the first dealer is drawn by lot from the seed, "
    "unless --variant sets first_dealer=S)",
)
@click.option("--name", default="You", show_default=True, help="your name on the score sheet")
@click.option(
    "--opponents",
    default="rules",
    show_default=True,
    metavar="LEVEL[,LEVEL]",
    help="computer players' levels, one per other seat, or one for all (random, rules, …)",
)
@click.option("--unicode/--ascii", default=None, help="suit symbols or letters (default: what the terminal shows)")
@click.option("--record", "record_name", metavar="FILE", default=None,
              help="write the record of the finished deals to FILE after each deal (JSON if it ends in .json, "
                   "else text; an existing file is replaced only if it is a mizerka record)")
def play_command(seed: int | None, rules: Rules, seat: int, name: str, opponents: str, unicode: bool | None,
                 record_name: str | None = None) -> None:
    """Play a whole match in the terminal against computer players.

    You hold one seat; type your contract, your discards and your cards when asked.  Type ? at any prompt for
    help, `sheet` for the score sheet, `quit` to leave.
    """
    play_line_game(seed, rules, seat, name, opponents, unicode, record_name)


def play_line_game(seed: int | None, rules: Rules, seat: int, name: str, opponents: str, unicode: bool | None,
                   record_name: str | None = None, resumed: Resumed | None = None) -> None:
    """The line game of ``mizerka play --plain`` (:data:`play_command`), new or *resumed*
    (``--resume FILE``: :func:`mizerka.tui.resume.resume_match`), from its first words to its last."""
    try:
        game, levels, seed = _set_up_play(seed, rules, seat, name, opponents, unicode, record_name, resumed)
    except KeyboardInterrupt:  # Ctrl-C while the bots are made: as in the match, not click's "Aborted!" (exit 1)
        click.echo("\nInterrupted before the match began.", err=True)
        raise click.exceptions.Exit(130) from None
    match, record, players = game.match, game.record, game.match.players
    seat = game.seat
    rules = match.rules
    name = players[seat]
    others = [s for s in range(rules.n_seats) if s != seat]
    table = ", ".join(f"{players[s]} ({lv})" for s, lv in zip(others, levels, strict=True))
    click.echo(f"Mizerka, {rules.spec()}: {match.n_deals} deals.  You are {name}, seat {seat}; against {table}.")
    if resumed is not None:
        click.echo(resumed.announcement() + "  " + game.totals_line(match.totals))
        click.echo("Type ? at any prompt for help (sheet: the score sheet, with the earlier deals).")
    else:
        click.echo(f"Seed {seed} (play it again with --seed {seed}).  Type ? at any prompt for help.")
    if record is not None:
        click.echo(record.announcement())
    if resumed is not None and match.deal.history:  # the loop announces only a deal not yet begun
        game.announce_deal(going_on=True)
        game.report(match.deal)  # what the deal's record says so far, as the human saw it
    try:
        game.run()
    except QuitGame:
        click.echo(f"You left the match in deal {match.deal_no} of {match.n_deals}.")
        click.echo(game.totals_line(match.totals))
        if record is not None:
            click.echo(record.where())
    except EOFError:
        click.echo(f"\nInput ended: the match stops in deal {match.deal_no} of {match.n_deals}.", err=True)
        if record is not None:
            click.echo(record.where(), err=True)
        raise click.exceptions.Exit(1) from None
    except KeyboardInterrupt:
        click.echo(f"\nInterrupted: the match stops in deal {match.deal_no} of {match.n_deals}.", err=True)
        if record is not None:
            click.echo(record.where(), err=True)
        raise click.exceptions.Exit(130) from None
    except RuntimeError as error:
        raise click.ClickException(str(error)) from None

