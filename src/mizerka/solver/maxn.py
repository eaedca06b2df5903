"""Max^n: each player for himself, for small endings.

In max^n every player picks the card that is best *for himself*: most own tricks in a trump or
no-trump contract, fewest in Mizerka.  The value is a vector (one trick count per player) and only
shallow pruning applies (a card that gives the mover everything left cannot be beaten), so the search
is kept to small endings.  Scores in Mizerka are linear in tricks against the quota, so the vector is
exactly what each player plays for.

Two implementations answer behind one API, as for the paranoid solver: the C extension
``mizerka.solver._maxn`` (built by ``pip install``; endings of up to :data:`MAXN_KERNEL_MAX_CARDS` cards
per hand) and the pure-Python search here (up to :data:`MAXN_MAX_CARDS`), used when the extension is
missing and as the oracle in tests.  Both give the same vectors.

**Tie-breaking rule.**  When two cards give the mover the same own value, he picks the one that
leaves the *fewest tricks to the next player in turn* in ordinary contracts and the *most* in Mizerka
(hurt the player after you); if still tied, the lowest card (lowest index: clubs 2 first).  Equivalent
cards always give the same vector.  The rule is deterministic, so results are reproducible.

>>> from mizerka.solver.position import Position
>>> p = Position.from_text("NT; lead 0; S:AK H:- D:- C:2 / S:Q2 H:- D:- C:3 / S:- H:- D:A2 C:4")
>>> solve_maxn(p)
(2, 0, 1)
>>> solve_maxn_all(p)[Card.from_str("2C")]    # leading the club hands the lead, and both tricks, away
(0, 0, 3)
"""

from __future__ import annotations

from typing import Final, Literal

from mizerka.cards import CARDS, Card, mask_indices
from mizerka.solver.position import HandSizeError, Position, check_impl, check_position
from mizerka.tricks import legal_plays, trick_winner_index

__all__ = ["MAXN_KERNEL_MAX_CARDS", "MAXN_MAX_CARDS", "maxn_backend", "solve_maxn", "solve_maxn_all"]

MAXN_MAX_CARDS: Final = 6
"""The largest hand (cards per player) the pure-Python search accepts (9 ms a world at 4 cards)."""

MAXN_KERNEL_MAX_CARDS: Final = 8
"""The largest hand the C extension accepts: a random three-hand ending of 8 cards each takes a few
milliseconds at the median (see ``docs/solver.md``); beyond that the time grows about tenfold a card."""

Backend = Literal["kernel", "reference"]

try:
    from mizerka.solver import _maxn  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on the build
    _maxn = None


def maxn_backend() -> Backend:
    """``"kernel"`` when the C max^n extension is loaded, else ``"reference"``."""
    return "kernel" if _maxn is not None else "reference"


def _use_kernel(position: Position, impl: Backend | None) -> bool:
    check_impl(impl)
    check_position(position, "max^n", advice="")
    largest = max(h.bit_count() for h in position.hands)
    kernel = _maxn is not None and impl != "reference"
    if impl == "kernel" and _maxn is None:
        raise RuntimeError("the max^n extension mizerka.solver._maxn is not available")
    limit = MAXN_KERNEL_MAX_CARDS if kernel else MAXN_MAX_CARDS
    if largest > limit:
        raise HandSizeError(f"max^n solves endings of at most {limit} cards per hand, got {largest}")
    return kernel


def _kernel_args(position: Position) -> tuple[object, ...]:
    return (position.hands, position.leader, position.trick, -1 if position.trump is None else position.trump,
            position.misere, position.must_trump)


def solve_maxn(position: Position, *, impl: Backend | None = None) -> tuple[int, ...]:
    """Tricks each player takes from here to the end under max^n play (see the module docstring).

    The vector is indexed by player (the order of ``position.hands``); the trick in progress counts.
    ``position.sides`` is ignored: max^n is each for himself.  *impl* forces ``"kernel"`` or
    ``"reference"``; by default the C extension when it loads.

    Raises:
        HandSizeError: if a hand holds more cards than the implementation accepts
            (:data:`MAXN_KERNEL_MAX_CARDS`, or :data:`MAXN_MAX_CARDS` for the reference).
        InvalidPositionError: if *position* is not a :class:`Position`.
        ValueError: if *impl* is not ``"kernel"``, ``"reference"`` or ``None``.
    """
    if _use_kernel(position, impl):
        return tuple(int(v) for v in _maxn.maxn(*_kernel_args(position)))
    return _Search(position).value(position.leader, list(position.trick))


def solve_maxn_all(position: Position, *, impl: Backend | None = None) -> dict[Card, tuple[int, ...]]:
    """:func:`solve_maxn`'s vector after each legal card of the player to move, lowest card first.

    What a player who plays each for himself needs at a decision: every card's outcome for everyone.
    """
    if _use_kernel(position, impl):
        return {CARDS[card]: tuple(int(v) for v in vector) for card, vector in _maxn.maxn_all(*_kernel_args(position))}
    search = _Search(position)
    return {CARDS[card]: search.after(position.leader, list(position.trick), card)
            for card in mask_indices(position.legal_mask())}


class _Search:
    """The pure-Python max^n search with a memo of trick-start positions (the reference)."""

    def __init__(self, position: Position) -> None:
        self.n = position.n_players
        self.trump = position.trump
        self.avoid = position.misere
        self.must_trump = position.must_trump
        self.hands = list(position.hands)
        self.memo: dict[tuple[tuple[int, ...], int], tuple[int, ...]] = {}

    def legal(self, hand: int, trick: list[int]) -> int:
        return legal_plays(hand, trick[0] // 13 if trick else None, self.trump, must_trump=self.must_trump)

    def winner(self, leader: int, trick: list[int]) -> int:
        return (leader + trick_winner_index(trick, self.trump)) % self.n

    def after(self, leader: int, trick: list[int], card: int) -> tuple[int, ...]:
        """The vector once the player to move plays *card*."""
        player = (leader + len(trick)) % self.n
        self.hands[player] ^= 1 << card
        played = [*trick, card]
        if len(played) == self.n:
            w = self.winner(leader, played)
            rest = self.value(w, [])
            value = tuple(v + (1 if p == w else 0) for p, v in enumerate(rest))
        else:
            value = self.value(leader, played)
        self.hands[player] ^= 1 << card
        return value

    def value(self, leader: int, trick: list[int]) -> tuple[int, ...]:
        """The vector of the position with *trick* led by *leader* (the hands as they are now)."""
        if not trick:
            key = (tuple(self.hands), leader)
            cached = self.memo.get(key)
            if cached is not None:
                return cached
        n = self.n
        player = (leader + len(trick)) % n
        if not self.hands[player]:
            return (0,) * n
        nxt_player = (player + 1) % n
        best: tuple[int, ...] | None = None
        best_rank: tuple[int, int] | None = None
        for card in mask_indices(self.legal(self.hands[player], trick)):
            value = self.after(leader, trick, card)
            own, nxt = value[player], value[nxt_player]
            rank = (-own, nxt) if self.avoid else (own, -nxt)
            if best_rank is None or rank > best_rank:  # strict: the lowest card wins remaining ties
                best, best_rank = value, rank
        assert best is not None
        if not trick:
            self.memo[(tuple(self.hands), leader)] = best
        return best
