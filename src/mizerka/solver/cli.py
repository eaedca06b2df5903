"""``mizerka solve``: the double-dummy value of every legal card of a position.

The position is either text in :meth:`Position.from_text` form, or a game record file (``.mzn`` text or JSON,
read by :func:`mizerka.record.read`; ``-`` reads it from standard input, :func:`mizerka.cli.read_record_file`) with
options that pick a moment of one of its deals:

* ``--deal N``: the deal (from 1; default: the last deal that has reached its play);
* ``--trick T`` and ``--card K``: just before the K-th card (from 1, default 1) of trick T (from 1); ``--card``
  needs ``--trick``;
* ``--after N``: after the first N cards of the deal's play (0 = before the opening lead).

Without ``--trick``/``--after`` the position is the current one of a deal still in play, or the opening lead
of a finished deal.  Values are paranoid (the two others play together against the seat) and count the
seat's tricks from the chosen moment on; ``--seat`` picks the seat (default: the player to move).

``--maxn`` solves the same moment with each player for himself instead (:mod:`mizerka.solver.maxn`, endings
of at most :data:`~mizerka.solver.maxn.MAXN_KERNEL_MAX_CARDS` cards a hand): after each legal card, every
player's tricks from then on, the mover's best first.

Bad input prints a message naming the problem and exits with a non-zero code, never a traceback.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import click

from mizerka.cli import STDIN, InputError, read_record_file, record_file_name, unicode_option
from mizerka.deal import Deal, Phase, Play
from mizerka.record import MatchRecord, RecordError
from mizerka.solver import InvalidPositionError, Position, StockNotEmptyError, cli_solve, format_solution, solve_all
from mizerka.solver.maxn import solve_maxn_all

__all__ = ["format_maxn", "position_from_record", "solve_command"]

_T = TypeVar("_T")

_RECORD_SUFFIXES = (".mzn", ".json")
"""The endings of a record file's name (the text form, JSON); no position's text ends so."""

_EXAMPLE = "NT; lead 0; S:AK H:- D:- C:2 / S:Q2 H:- D:- C:3 / S:- H:- D:A2 C:4"


def _names_a_file(source: str) -> bool:
    """Whether *source*, an argument of ``mizerka solve`` that is no existing file, names a file all the same (one
    mistyped, or gone) rather than being a position's text.

    A position has at least three parts separated by ``;`` (the contract, ``lead N`` and the hands), so text
    without a ``;`` is no position; and no position's text ends with a record's suffix (:data:`_RECORD_SUFFIXES`).
    Everything else is position text, and a mistake in it is told as one.

    >>> _names_a_file("gam.mzn"), _names_a_file("records/friday"), _names_a_file("my;game.JSON")
    (True, True, True)
    >>> _names_a_file("NT; lead 0; S:AK / S:Q2 / D:A2"), _names_a_file("XX; lead 0")
    (False, False)
    """
    return ";" not in source or source.lower().endswith(_RECORD_SUFFIXES)


def format_maxn(position: Position, *, unicode: bool = True) -> str:
    """Human text for max^n (each player for himself): after each legal card of the player to move, every
    player's tricks from this moment on, the mover's best card first (most own tricks, fewest in Mizerka).

    >>> print(format_maxn(Position.from_text("NT; lead 0; S:AK H:- D:- C:2 / S:Q2 H:- D:- C:3 / S:- H:- D:A2 C:4")))
    NT; lead 0; S:AK H:- D:- C:2 / S:Q2 H:- D:- C:3 / S:- H:- D:A2 C:4
    seat 0 to play; each player for himself (max^n); tricks for seats 0, 1, 2
      A♠ 2 0 1
      K♠ 2 0 1
      2♣ 0 0 3

    Raises:
        HandSizeError: for an ending too large for max^n (the message gives the limit).
    """
    vectors = solve_maxn_all(position)
    mover = position.to_move
    labels = position.seat_labels()
    sign = 1 if position.misere else -1  # sort key: the mover's best first
    lines = [f"{position}",
             f"seat {labels[mover]} to play; each player for himself (max^n); tricks for seats "
             + ", ".join(str(seat) for seat in labels)]
    for card, vector in sorted(vectors.items(), key=lambda kv: (sign * kv[1][mover], -int(kv[0]))):
        label = card.unicode() if unicode else str(card)
        lines.append(f"{label:>4} " + " ".join(str(tricks) for tricks in vector))
    return "\n".join(lines)


def _interruptible(work: Callable[[], _T]) -> _T:
    """Run *work* (a search) in a daemon thread and wait for it in short steps, so that Ctrl-C stops the command.

    The compiled searches stop at a KeyboardInterrupt by themselves in the main thread (they poll for signals every
    2^19 nodes); the command does not rely on it: waiting in ``join(timeout)`` steps lets the main thread see the
    interrupt at once whatever searches, the pure-Python reference included; the search thread is not stopped, so the
    process prints ``Aborted!`` and ends at once with exit status 130 (128 + SIGINT), without waiting for the
    thread.  *work*'s exceptions are raised again here.
    """
    outcome: list[_T] = []
    failure: list[BaseException] = []

    def target() -> None:
        try:
            outcome.append(work())
        except BaseException as error:  # handed to the main thread, which reports it
            failure.append(error)

    worker = threading.Thread(target=target, name="mizerka-solve", daemon=True)
    try:
        worker.start()
        while worker.is_alive():
            worker.join(0.05)
    except KeyboardInterrupt:
        with contextlib.suppress(OSError, ValueError):
            sys.stdout.flush()
        with contextlib.suppress(OSError, ValueError):
            click.echo("Aborted!", err=True)
            sys.stderr.flush()
        os._exit(130)
    if failure:
        raise failure[0]
    return outcome[0]


def position_from_record(
    record: MatchRecord,
    deal_no: int | None = None,
    *,
    trick: int | None = None,
    card: int | None = None,
    after: int | None = None,
) -> tuple[int, Deal, Position]:
    """The deal's number, the rules-engine deal and the solver position at one moment of a full *record*.

    Args:
        record: a record with cards (not score-only).
        deal_no: the deal, from 1; by default the last deal that has reached its play (a record saved during
            deal 2's exchange gives deal 1), or the last deal with a contract if none has.
        trick, card: stop just before card *card* (from 1; default 1) of trick *trick* (from 1); *card* needs
            *trick*.
        after: stop after the first *after* cards of the play (0 = before the opening lead).

    Without *trick* and *after*: the deal's current position while it is in play, else its opening lead.

    Raises:
        RecordError: a score-only record, a deal that is not there or has no contract, a deal whose record
            stops before its play (in the exchange), a moment past the recorded cards or one that is not a
            card play (the deal is over), a number that is not a whole number, *card* without *trick*, or
            both *trick* and *after*.
        StockNotEmptyError: at a moment when cards are still drawn from a stock (seed002-literal's first
            tricks): the solver cannot take it.
        InvalidPositionError: if the position cannot be built otherwise (should not happen for a valid record).
    """
    if not isinstance(record, MatchRecord):
        raise RecordError(f"expected a MatchRecord, not {type(record).__name__}")
    for name, value in (("deal", deal_no), ("trick", trick), ("card", card), ("after", after)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise RecordError(f"--{name} must be a whole number, not {value!r}")
    if card is not None and trick is None:
        raise RecordError(f"--card {card} picks a card of a trick: give --trick too")
    card = 1 if card is None else card
    if record.score_only:
        raise RecordError("a score-only record has no cards to solve")
    record.to_match()  # replays the whole record with every check of the rules engine
    with_contract = [d.number for d in record.deals if d.contract is not None and d.deck is not None]
    if not with_contract:
        raise RecordError("no deal of the record has a contract yet: there is no play to solve")
    in_play = [number for number in with_contract if _reaches_play(record, number)]
    if deal_no is None:  # the last deal that can be solved; if none can, the last one's problem is told below
        deal_no = in_play[-1] if in_play else with_contract[-1]
    if deal_no not in with_contract:
        raise RecordError(f"deal {deal_no} has no play in this record "
                          f"(deals with a contract: {', '.join(map(str, with_contract))})")
    if trick is not None and after is not None:
        raise RecordError("give either --trick/--card or --after, not both")
    drec = record.deals[deal_no - 1]
    assert drec.deck is not None
    n_players = len(Deal(drec.deck, rules=record.rules, dealer=drec.dealer).active_seats)
    recorded = sum(len(t) for t in drec.tricks)
    if trick is not None:
        if trick < 1 or not 1 <= card <= n_players:
            raise RecordError(f"trick numbers start at 1 and cards run from 1 to {n_players}, "
                              f"not trick {trick} card {card}")
        stop = (trick - 1) * n_players + card - 1
    elif after is not None:
        if after < 0:
            raise RecordError(f"--after counts cards already played, it cannot be {after}")
        stop = after
    else:
        stop = recorded if not drec.is_over else 0
    if stop > recorded:  # a moment past the record: named as it was asked for (not as a computed card count)
        moment = f"trick {trick} card {card}" if trick is not None else f"the position after {stop} cards"
        raise RecordError(f"deal {deal_no} records {recorded} cards; {moment} is not in it")
    deal = Deal(drec.deck, rules=record.rules, dealer=drec.dealer)
    played = 0
    for action in drec.actions():
        if isinstance(action, Play):
            if played == stop:
                break
            played += 1
        deal.push(action)
    if deal.phase is Phase.EXCHANGE or deal.phase is Phase.CHOOSE:
        stage = "the exchange" if deal.phase is Phase.EXCHANGE else "the choice of the contract"
        raise RecordError(f"deal {deal_no} has not reached its play yet: the record stops in {stage}, "
                          f"there is no card play to solve (deals that can be solved: "
                          f"{', '.join(map(str, in_play)) or 'none'})")
    if deal.phase is not Phase.PLAY:
        raise RecordError(f"deal {deal_no} is over after {played} cards: no card is left to play, nothing to solve "
                          f"(tricks taken, by seat: {list(deal.tricks_won)})")
    try:
        position = Position.from_deal(deal)
    except StockNotEmptyError as error:  # each card played draws one: the stock is gone that many cards later
        usable = played + len(deal.stock)
        raise StockNotEmptyError(f"deal {deal_no}, after {played} cards: {error}; the first moment the solver "
                                 f"can take is --after {usable}") from None
    return deal_no, deal, position


def _reaches_play(record: MatchRecord, deal_no: int) -> bool:
    """Whether the record's deal *deal_no* (one with a contract and a deck) gets past its exchange: its
    recorded actions, replayed, end in the play or after it."""
    drec = record.deals[deal_no - 1]
    assert drec.deck is not None
    deal = Deal(drec.deck, rules=record.rules, dealer=drec.dealer)
    for action in drec.actions():
        deal.push(action)
    return deal.phase is Phase.PLAY or deal.phase is Phase.DONE


@click.command("solve")
@click.argument("source", metavar="POSITION|RECORD")
@click.option("--seat", type=int, default=None, help="whose tricks to count (default: the player to move)")
@click.option("--deal", "deal_no", type=int, default=None, help="record: the deal (from 1; default: the last)")
@click.option("--trick", type=int, default=None, help="record: stop before a card of this trick (from 1)")
@click.option("--card", type=int, default=None, help="record: the card of --trick (from 1; default: 1)")
@click.option("--after", type=int, default=None, help="record: stop after this many cards of the play")
@click.option("--maxn", is_flag=True,
              help="each player for himself (max^n) instead of the two others against the seat: every player's "
                   "tricks after each card (small endings: at most 8 cards a hand, 6 without the compiled "
                   "extension)")
@unicode_option
def solve_command(
    source: str, seat: int | None, deal_no: int | None, trick: int | None, card: int | None, after: int | None,
    maxn: bool, unicode: bool,
) -> None:
    """Print the double-dummy value of every legal card: a position as text, or a moment of a record file.

    POSITION is text like "NT; lead 0; S:AK H:- D:- C:2 / S:Q2 H:- D:- C:3 / S:- H:- D:A2 C:4"
    (see docs/solver.md); a path to an existing file (or a pipe, like /dev/stdin), or - for standard
    input, is read as a game record instead, and --deal, --trick, --card or --after pick the moment
    (default: the current position of a deal in play, else the opening lead of the last deal).  Values
    are the seat's tricks from that moment on, the two others playing together against it; with --maxn,
    every player's tricks, each playing for himself.
    Ctrl-C stops a long search at once (message "Aborted!", exit status 130).
    """
    if maxn and seat is not None:
        raise click.UsageError("--seat does not go with --maxn: max^n gives every player's tricks")
    record_options = deal_no is not None or trick is not None or after is not None or card is not None
    if source != STDIN and os.path.isdir(source):
        raise InputError(f"{source}: a folder, not a record file or a position")
    # a file, a pipe (/dev/stdin, bash's <(...)), a device, or '-' for standard input: read as replay reads it
    if source == STDIN or os.path.exists(source):
        try:
            record = read_record_file(Path(source))
            number, deal, position = position_from_record(record, deal_no, trick=trick, card=card, after=after)
            if seat is None:
                seat = deal.to_move
            if maxn:
                output = _interruptible(lambda: format_maxn(position, unicode=unicode))
            else:
                values = _interruptible(lambda: solve_all(position, seat))
                output = format_solution(position, values, seat, unicode=unicode)
        except (RecordError, InvalidPositionError, OSError) as error:
            raise InputError(f"{record_file_name(source)}: {error}") from None
        click.echo(f"deal {number}, "
                   f"{deal.contract.label if deal.contract is not None else '?'}, "
                   f"trick {len(deal.tricks) + 1}, tricks so far {list(deal.tricks_won)}")
        # the position's text numbers its hands in the order of play ("lead 1" is its hand 1), the lines
        # below name table seats: say which hand is which seat
        click.echo("hands in the position below, in order: "
                   + ", ".join(f"seat {seat}" for seat in position.seat_labels()))
        click.echo(output)
        return
    if record_options:
        raise click.UsageError(f"--deal, --trick, --card and --after need a record file; no file {source!r}")
    if _names_a_file(source):
        hint = "" if source.lower().endswith(_RECORD_SUFFIXES) else (
            f"; nor is it a position, whose parts are separated by ';' (e.g. {_EXAMPLE!r})")
        raise InputError(f"no such file: {click.format_filename(source)!r}{hint}")
    try:
        position = Position.from_text(source)
        over = not any(position.hands) and not position.trick
        if over and seat is not None:
            position.player_of(seat)  # a seat that does not play is still the problem named
        if over:
            answer = None
        elif maxn:
            answer = _interruptible(lambda: format_maxn(position, unicode=unicode))
        else:
            answer = _interruptible(lambda: cli_solve(source, seat, unicode=unicode))
    except ValueError as error:  # InvalidPositionError, CardParseError, a bad contract: all ValueErrors
        raise InputError(f"bad position: {error}") from None
    if answer is None:  # every trick played: no legal card, no value (it printed an empty list, exit 0)
        raise InputError("no card is left to play in this position: every trick has been played, nothing to "
                         "solve (a position's text does not say who took the tricks)")
    click.echo(answer)

