"""Exact double-dummy solver for Mizerka (and any trick-taking game with 2–4 hands and fixed sides).

``solve(position, seat)`` gives the tricks *seat* takes from here to the end when every card is
visible and play is perfect.  In Mizerka three players play each for himself, so "perfect" needs a
definition; the solver uses the **paranoid** one: the other two play as a coalition against *seat*.
*Seat* maximises its tricks in a trump or no-trump contract and minimises them in Mizerka.  When the
position has ``sides`` (bridge: N/S against E/W) *seat*'s whole side is counted and plays together.

Two implementations answer behind this one API:

* the accelerated kernel ``mizerka.solver._kernel`` (a C extension built by ``pip install``);
* the pure-Python :mod:`mizerka.solver.reference`, the same algorithm written to be read, used as
  the oracle in tests.  If the kernel cannot be imported the reference runs, after one warning.

Both implement the DDS techniques listed in :mod:`mizerka.solver.reference`.  :func:`solve_maxn`
adds the max^n value (each player for himself) of small endings.

>>> p = Position.from_text("NT; lead 0; S:AK H:- D:- C:2 / S:Q2 H:- D:- C:3 / S:- H:- D:A2 C:4")
>>> solve(p, 0), solve(p, 2)
(2, 1)
>>> solve_all(p, 0)
{Card.from_str('2C'): 0, Card.from_str('KS'): 2, Card.from_str('AS'): 2}
>>> solve(p.play(Card.from_str("2C")), 0)   # leading the club gives the lead away for good
0
>>> solve_best(p, 0)                         # the value and the cards that keep it, for less work
BestCards(value=2, cards=(Card.from_str('KS'), Card.from_str('AS')))
"""

from __future__ import annotations

import importlib
import warnings
from typing import Any, Literal, NamedTuple

from mizerka._checks import whole_number
from mizerka.cards import CARDS, Card
from mizerka.solver.maxn import MAXN_MAX_CARDS, solve_maxn
from mizerka.solver.position import (
    DealLike,
    DuplicateCardError,
    FollowSuitError,
    HandSizeError,
    InvalidPositionError,
    NotOnLeadError,
    Position,
    StockNotEmptyError,
    check_impl,
    check_position,
)
from mizerka.solver.reference import ReferenceSolver

__all__ = [
    "DEFAULT_TT_MB",
    "MAXN_MAX_CARDS",
    "MAX_TT_MB",
    "BestCards",
    "DealLike",
    "DuplicateCardError",
    "FollowSuitError",
    "HandSizeError",
    "InvalidPositionError",
    "NotOnLeadError",
    "Position",
    "StockNotEmptyError",
    "TableSizeError",
    "backend",
    "cli_solve",
    "format_solution",
    "set_table_size",
    "solve",
    "solve_all",
    "solve_best",
    "solve_maxn",
]

Backend = Literal["kernel", "reference"]

DEFAULT_TT_MB = 64
"""Default size of the kernel's transposition table in megabytes (see :func:`set_table_size`)."""

MAX_TT_MB = 1 << 20
"""The largest table :func:`set_table_size` takes, in megabytes (1 TiB; the system may refuse less)."""


class TableSizeError(ValueError):
    """A transposition-table size that is not a whole number of megabytes in range, or that the system could not
    map (the table in use is kept)."""

_kernel: Any
try:
    # by its full name: ``from mizerka.solver import _kernel`` here, in the package's own __init__, would report
    # a missing extension as "cannot import name '_kernel' from partially initialized module ... (most likely due
    # to a circular import)", which sends a user looking for a bug that is not there
    _kernel = importlib.import_module("mizerka.solver._kernel")
    _KERNEL_ERROR: str | None = None
except ImportError as error:  # pragma: no cover - depends on the build
    _kernel = None
    _KERNEL_ERROR = str(error)

_warned = False


def backend() -> Backend:
    """``"kernel"`` when the C extension is loaded, else ``"reference"``."""
    return "kernel" if _kernel is not None else "reference"


def set_table_size(megabytes: int) -> None:
    """Resize the kernel's transposition table (bounded; 64 MB by default).  No-op for the reference.

    Raises:
        TableSizeError: for a size that is not a whole number of megabytes from 1 to :data:`MAX_TT_MB`, or
            one the system cannot map; the table in use is then kept as it was.
    """
    size = whole_number(megabytes)  # a NumPy integer is a whole number, a bool is not
    if size is None:
        raise TableSizeError(f"the table size must be a whole number of megabytes, not {megabytes!r}")
    megabytes = size
    if not 1 <= megabytes <= MAX_TT_MB:
        raise TableSizeError(f"the table size must be from 1 to {MAX_TT_MB} MB, got {megabytes}")
    if _kernel is not None:
        try:
            _kernel.set_table_size(megabytes * 1024 * 1024)
        except MemoryError:
            raise TableSizeError(f"the system could not map a table of {megabytes} MB; "
                                 f"the table in use is kept") from None


def kernel_nodes() -> int:
    """Nodes searched by the kernel since it was loaded (0 without the kernel)."""
    return int(_kernel.nodes()) if _kernel is not None else 0


def _choose(impl: Backend | None) -> Backend:
    global _warned
    check_impl(impl)
    if impl == "reference":
        return "reference"
    if _kernel is None:
        if impl == "kernel":
            raise RuntimeError(f"the solver kernel is not available: {_KERNEL_ERROR}")
        if not _warned:
            _warned = True
            warnings.warn(
                f"mizerka.solver: the C kernel could not be loaded ({_KERNEL_ERROR}); "
                "using the pure-Python reference solver, which is much slower",
                RuntimeWarning,
                stacklevel=3,
            )
        return "reference"
    return "kernel"


def _masks(position: Position, seat: int) -> tuple[int, int]:
    """(count_mask, max_mask) of the two-sided search for *seat*."""
    check_position(position)
    player = position.player_of(seat)
    side = position.side_mask(player)
    everyone = (1 << position.n_players) - 1
    if position.misere:
        return side, everyone & ~side
    return side, side


def _kernel_args(position: Position, count_mask: int, max_mask: int) -> tuple[object, ...]:
    return (
        position.hands,
        position.leader,
        position.trick,
        -1 if position.trump is None else position.trump,
        count_mask,
        max_mask,
        position.must_trump,
    )


def solve(position: Position, seat: int, *, impl: Backend | None = None) -> int:
    """The tricks *seat* (with its side, if any) takes from here to the end under perfect play.

    The trick in progress counts.  Paranoid: everyone not on *seat*'s side plays against it.

    Args:
        position: the position; *seat* is a table seat (``position.seats``, by default 0 … n-1).
        seat: the seat whose tricks are counted.
        impl: force ``"kernel"`` or ``"reference"``; by default the kernel when it loads.

    Raises:
        NotOnLeadError: if *seat* is not a playing seat (or not a seat number at all).
        InvalidPositionError: if *position* is not a :class:`Position`.
        ValueError: if *impl* is not ``"kernel"``, ``"reference"`` or ``None``.
    """
    check_impl(impl)
    count_mask, max_mask = _masks(position, seat)
    if _choose(impl) == "kernel":
        return int(_kernel.solve(*_kernel_args(position, count_mask, max_mask)))
    return ReferenceSolver(position, count_mask, max_mask).value()


def solve_all(position: Position, seat: int, *, impl: Backend | None = None) -> dict[Card, int]:
    """:func:`solve`'s value after each legal card of the player to move, lowest card first.

    Like DDS's ``SolveBoard`` with every card scored; the player to move need not be *seat*.  Raises as
    :func:`solve`.
    """
    check_impl(impl)
    count_mask, max_mask = _masks(position, seat)
    if _choose(impl) == "kernel":
        pairs = _kernel.solve_all(*_kernel_args(position, count_mask, max_mask))
        return {CARDS[card]: int(value) for card, value in sorted(pairs)}
    values = ReferenceSolver(position, count_mask, max_mask).move_values()
    return {CARDS[card]: value for card, value in values.items()}


class BestCards(NamedTuple):
    """:func:`solve_best`'s answer: the position's value and every legal card that keeps it."""

    value: int
    """The tricks the seat takes from here under perfect play, as :func:`solve` gives them."""
    cards: tuple[Card, ...]
    """Every legal card of the player to move whose value (as :func:`solve_all` gives it) is *value*, lowest
    first."""


def solve_best(position: Position, seat: int, *, impl: Backend | None = None) -> BestCards:
    """The position's value for *seat* and every legal card of the player to move that keeps it: DDS's
    ``SolveBoard`` with ``solutions=2``, where :func:`solve_all` is ``solutions=3``.

    A review asks no more than this (and the value of the card played, if it is not among these), and it costs
    less than scoring every card: after the value, each card is one zero-window search at that value instead of
    an exact value of its own.  A card worse than the best needs only the proof that it is worse, not the dearer
    one that it is no worse still (in the misere: that the others cannot force one trick more on the seat).
    Raises as :func:`solve`.
    """
    check_impl(impl)
    count_mask, max_mask = _masks(position, seat)
    if _choose(impl) == "kernel":
        value, cards = _kernel.solve_best(*_kernel_args(position, count_mask, max_mask))
        return BestCards(int(value), tuple(CARDS[card] for card in sorted(cards)))
    values = ReferenceSolver(position, count_mask, max_mask).move_values()
    if not values:  # the play is over: nothing to choose, nothing more to take
        return BestCards(0, ())
    keep = max if (max_mask >> position.to_move) & 1 else min
    best = keep(values.values())
    return BestCards(best, tuple(CARDS[card] for card, value in values.items() if value == best))


def format_solution(position: Position, values: dict[Card, int], seat: int, *, unicode: bool = True) -> str:
    """Human text for :func:`solve_all`'s result: best cards first, one ``card value`` per line.

    Cards are written with suit symbols (``10♠``), or with *unicode* false in letters (``TS``), right-aligned in
    four columns either way.
    """
    goal = "fewest" if position.misere else "most"
    player = position.to_move
    lines = [
        f"{position}",
        f"seat {position.seat_labels()[player]} to play; values are tricks for seat {seat} "
        f"({goal} is best for it)",
    ]
    reverse = not position.misere
    for card, value in sorted(values.items(), key=lambda kv: (kv[1] if reverse else -kv[1], kv[0]), reverse=True):
        lines.append(f"{card.unicode() if unicode else str(card):>4} {value}")
    return "\n".join(lines)


def cli_solve(text: str, seat: int | None = None, *, impl: Backend | None = None, unicode: bool = True) -> str:
    """What ``mizerka solve`` prints: the value of every legal card of the position in *text*.

    *text* is a position in :meth:`Position.from_text` form.  *seat* defaults to the player to move.

    >>> print(cli_solve("NT; lead 0; S:AK H:- D:- C:2 / S:Q2 H:- D:- C:3 / S:- H:- D:A2 C:4"))
    NT; lead 0; S:AK H:- D:- C:2 / S:Q2 H:- D:- C:3 / S:- H:- D:A2 C:4
    seat 0 to play; values are tricks for seat 0 (most is best for it)
      A♠ 2
      K♠ 2
      2♣ 0

    Raises:
        InvalidPositionError, CardParseError: on bad text.
    """
    check_impl(impl)
    position = Position.from_text(text)
    if seat is None:
        seat = position.seat_labels()[position.to_move]
    return format_solution(position, solve_all(position, seat, impl=impl), seat, unicode=unicode)

