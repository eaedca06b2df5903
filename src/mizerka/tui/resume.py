"""``mizerka play --resume FILE``: take a match against computer players up again from its game record.

``mizerka play --record FILE`` writes the record of the finished deals after each deal, with two tags that say
how the match was set up: ``Seat`` (the human's seat) and ``Opponents`` (the computer players' levels, in seat
order, as ``--opponents`` takes them).  :func:`resume_match` reads such a record back, replays it card by card
with every check (:meth:`mizerka.record.MatchRecord.to_match`) and returns the match where the record ends, so
that a match left with ``x``, a closed terminal or a crash goes on at the next deal, with the same names, the
same variant and the same computer players.  The deals still to come are shuffled from ``--seed`` (a new random
seed by default).

Any other record of a played match can be continued too (one downloaded from a server's table, or written by the
library), given the seat to take (``--seat``); its computer players are then ``--opponents``.  A record that
ends in the middle of a deal goes on from that card.

This module needs only click and the core, like :mod:`mizerka.tui.command`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

import click

from mizerka.match import Match
from mizerka.record import MatchRecord, RecordError

__all__ = ["OPPONENTS_TAG", "SEAT_TAG", "Resumed", "resume_match", "resumed_tags", "setup_tags"]

SEAT_TAG = "Seat"
"""The record's header tag naming the human's seat (``mizerka play --record``)."""

OPPONENTS_TAG = "Opponents"
"""The record's header tag naming the computer players' levels in seat order, comma-separated."""

_OPTION = "'--resume'"


@dataclasses.dataclass(frozen=True)
class Resumed:
    """A match taken up again from its record.

    Attributes:
        match: the match where the record ends (the next deal dealt, or the deal in progress at its next card).
        seat: the human's seat.
        levels: the computer players' levels, in seat order.
        record: the record as it was read: its finished deals are written back as they were (with their
            commitments, if a server wrote them), and its tags are kept.
        path: the file it was read from.
        seed: the seed the deals still to come are shuffled from (``--seed``).
    """

    match: Match
    seat: int
    levels: list[str]
    record: MatchRecord
    path: Path
    seed: int

    @property
    def finished(self) -> int:
        """How many deals the record holds finished."""
        return sum(1 for deal in self.record.deals if deal.is_over)

    def where(self) -> str:
        """Where the match goes on, in words: ``deal 5 of 18``, or ``deal 5 of 18, at trick 3``."""
        from mizerka.deal import Phase

        match = self.match
        deal = match.deal
        text = f"deal {match.deal_no} of {match.n_deals}"
        if deal.phase is Phase.PLAY:
            text += f", at trick {len(deal.tricks) + 1}"
        elif deal.phase is Phase.EXCHANGE:
            text += ", in the exchange"
        return text

    def announcement(self) -> str:
        """The sentence both games open a resumed match with, in place of the earlier deals (the score sheet has
        them): where it goes on and where its next deals come from.  The line game then retells the deal in
        progress, if the record ends in one, and the full screen's log lists its events so far; neither retells
        an earlier deal.

        ``Resumed from game.mzn at deal 5 of 18, at trick 3; the deals to come are shuffled from seed 11.``
        """
        return (f"Resumed from {click.format_filename(self.path)} at {self.where()}; the deals to come are shuffled "
                f"from seed {self.seed}.")


def setup_tags(seat: int, levels: Sequence[str]) -> dict[str, str]:
    """The tags that let ``--resume`` set the table up again: the human's seat and the computer players' levels.

    >>> setup_tags(1, ["rules", "expert"])
    {'Seat': '1', 'Opponents': 'rules,expert'}
    """
    return {SEAT_TAG: str(seat), OPPONENTS_TAG: ",".join(levels)}


def resumed_tags(earlier: MatchRecord, seed: int, first_new_deal: int) -> dict[str, str]:
    """The header of a resumed match's record: the earlier record's tags, its ``Seed`` followed by the seed of the
    deals from *first_new_deal* on (so each stretch of the match can be dealt again).

    >>> from mizerka.record import MatchRecord
    >>> from mizerka.rules import STANDARD
    >>> earlier = MatchRecord(STANDARD, ("Ala", "Bolek", "Cezary"), 0, tags={"Seed": "7", "Event": "mizerka play"})
    >>> resumed_tags(earlier, 12, 5)
    {'Seed': '7; 12 from deal 5', 'Event': 'mizerka play'}
    """
    tags = dict(earlier.tags)
    before = tags.get("Seed", "").strip()
    tags["Seed"] = (f"{before}; " if before else "") + f"{seed} from deal {first_new_deal}"
    return tags


def _refuse(text: str) -> click.BadParameter:
    return click.BadParameter(text, param_hint=_OPTION)


def _read(text: str) -> tuple[Path, MatchRecord]:
    from mizerka.cli import STDIN, read_record_file

    if text == STDIN:
        raise _refuse("- would be standard input, where the game reads your moves: give the record's file name (a "
                      "file called - is ./-)")
    if not text.strip():
        raise _refuse("give the record's file name, e.g. --resume game.mzn")
    path = Path(text)
    shown = click.format_filename(text)
    if path.is_dir():
        raise _refuse(f"{shown!r} is a folder: give the record's file name")
    if not path.exists():
        raise _refuse(f"{shown!r}: no such file")
    try:
        return path, read_record_file(path)
    except OSError as error:
        raise _refuse(f"{shown!r} cannot be read: {error.strerror or error}") from None
    except RecordError as error:
        raise _refuse(f"{shown!r} is not a valid game record: {error}") from None


def _seat(record: MatchRecord, shown: str, seat: int | None) -> int:
    n = record.rules.n_seats
    tagged = record.tags.get(SEAT_TAG)
    if tagged is None:
        if seat is None:
            raise _refuse(f"{shown!r} does not say which seat is yours (mizerka play --record writes a Seat tag; this "
                          f"record has none): give --seat 0-{n - 1} as well")
        if seat >= n:
            raise click.BadParameter(f"seat {seat} is not at a {n}-player table (seats 0-{n - 1})",
                                     param_hint="'--seat'")
        return seat
    if not (tagged.isascii() and tagged.isdigit()) or int(tagged) >= n:
        raise _refuse(f"{shown!r} names seat {tagged!r} as yours, which is no seat at a {n}-player table")
    if seat is not None and seat != int(tagged):
        raise click.BadParameter(f"you hold seat {tagged} in {shown!r} (its Seat tag), not seat {seat}: leave "
                                 "--seat out", param_hint="'--seat'")
    return int(tagged)


def _levels(record: MatchRecord, shown: str, seat: int, opponents: str | None) -> list[str]:
    """The computer players' levels: ``--opponents`` if given, else the record's tag (``rules`` where it has none),
    checked as a new match's are; a bad tag is the record's fault, and said so."""
    from mizerka.bots import UnknownBotError, level_name
    from mizerka.terminal import check_play_options

    tagged = opponents is None
    text = record.tags.get(OPPONENTS_TAG, "rules") if opponents is None else opponents
    try:
        _, levels = check_play_options(record.rules, seat, record.players[seat], text)
        try:
            levels = [level_name(level) for level in levels]
        except UnknownBotError as unknown:
            raise click.BadParameter(str(unknown), param_hint="'--opponents'") from None
    except click.BadParameter as error:
        if not tagged and error.param_hint == "'--opponents'":
            raise
        what = f"its Opponents tag ({text!r})" if error.param_hint == "'--opponents'" else "your name in it"
        raise _refuse(f"{shown!r} cannot be played on: {what}: {error.message}") from None
    return levels


def resume_match(text: str, *, seed: int, seat: int | None = None, opponents: str | None = None) -> Resumed:
    """Read the record in the file named *text* and replay it into the match that goes on from it.

    Args:
        text: the file name, as ``--resume`` gave it.
        seed: shuffles the deals still to come (and seeds the computer players, as a new match's ``--seed``).
        seat: ``--seat`` if it was given: needed where the record has no ``Seat`` tag, else it must agree.
        opponents: ``--opponents`` if it was given: it replaces the record's ``Opponents`` (the default where the
            record has none is ``rules`` at every other seat).

    Raises:
        click.BadParameter: for a file that cannot be read or is no record of a played match, a match that is
            over, a seat that is missing or disagrees with the record, or levels that do not fit the table.
    """
    path, record = _read(text)
    shown = click.format_filename(text)
    if record.score_only:
        raise _refuse(f"{shown!r} is a score keeper's record (contracts and tricks, no cards), so there are no hands "
                      f"to play on: continue it with mizerka score --resume {shown}")
    if record.is_over():
        raise _refuse(f"the match in {shown!r} is over ({len(record.deals)} deals): nothing is left to play (mizerka "
                      f"replay {shown} shows it)")
    human = _seat(record, shown, seat)
    levels = _levels(record, shown, human, opponents)
    try:
        match = record.to_match(seed)
    except RecordError as error:
        raise _refuse(f"{shown!r} is not a valid game record: {error}") from None
    if match.is_over():  # a record whose last deal is played out but not marked finished cannot get here
        raise _refuse(f"the match in {shown!r} is over: nothing is left to play")
    return Resumed(match=match, seat=human, levels=levels, record=record, path=path, seed=seed)
