"""Max^n (each for himself): the C extension against the pure-Python search, the vectors, the limits."""

from __future__ import annotations

import random

import pytest

from mizerka.cards import Card, CardSet
from mizerka.solver import HandSizeError, Position, solve
from mizerka.solver.maxn import (
    MAXN_KERNEL_MAX_CARDS,
    MAXN_MAX_CARDS,
    maxn_backend,
    solve_maxn,
    solve_maxn_all,
)
from solver_helpers import random_contract, random_position

needs_kernel = pytest.mark.skipif(
    maxn_backend() != "kernel", reason="the C extension mizerka.solver._maxn is not built (pip install -e .)"
)


def _positions(seed: int, count: int, max_cards: int) -> list[Position]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        n = rng.choice((3, 3, 3, 2, 4))
        trump, misere = random_contract(rng)
        must_trump = trump is not None and rng.random() < 0.2
        out.append(random_position(rng, n, rng.randint(1, max_cards), trump=trump, misere=misere,
                                   must_trump=must_trump))
    return out


@needs_kernel
def test_the_kernel_gives_the_reference_vectors_for_every_card() -> None:
    for position in _positions(7, 400, 4):
        assert solve_maxn(position, impl="kernel") == solve_maxn(position, impl="reference"), position
        assert solve_maxn_all(position, impl="kernel") == solve_maxn_all(position, impl="reference"), position


@pytest.mark.parametrize("impl", ["kernel", "reference"])
def test_the_value_is_the_vector_of_the_card_the_tie_break_picks(impl: str) -> None:
    if impl == "kernel" and maxn_backend() != "kernel":
        pytest.skip("the C extension mizerka.solver._maxn is not built")
    for position in _positions(8, 150, 4 if impl == "reference" else 6):
        vector = solve_maxn(position, impl=impl)  # type: ignore[arg-type]
        assert sum(vector) == position.tricks_left
        by_card = solve_maxn_all(position, impl=impl)  # type: ignore[arg-type]
        assert list(by_card) == position.legal_cards()
        mover, after = position.to_move, (position.to_move + 1) % position.n_players
        if position.misere:
            best = min(by_card.items(), key=lambda kv: (kv[1][mover], -kv[1][after], kv[0]))
        else:
            best = min(by_card.items(), key=lambda kv: (-kv[1][mover], kv[1][after], kv[0]))
        assert best[1] == vector


@needs_kernel
def test_each_player_gets_at_least_what_he_can_force_against_a_coalition() -> None:
    # max^n is subgame perfect: by induction a player's max^n result is never worse than his paranoid value
    for position in _positions(9, 200, 6):
        vector = solve_maxn(position)
        for player in range(position.n_players):
            paranoid = solve(position, player)
            if position.misere:
                assert vector[player] <= paranoid
            else:
                assert vector[player] >= paranoid


def test_a_player_with_nothing_to_gain_does_not_join_a_coalition() -> None:
    # NT, player 1 leads and takes no trick whatever he leads.  Paranoid (for player 0), he leads the nine of
    # diamonds so that player 2 takes both tricks and player 0 none.  Each for himself, the tie-break has him
    # hurt the next player in turn (player 2): he leads the jack of clubs, and player 0 takes both.
    position = Position.from_text("NT; lead 1; S:8 H:- D:- C:K / S:- H:- D:9 C:J / S:- H:7 D:T C:-")
    assert solve(position, 0) == 0
    assert solve_maxn(position) == (2, 0, 0)
    expected = {Card.from_str("JC"): (2, 0, 0), Card.from_str("9D"): (0, 0, 2)}
    assert solve_maxn_all(position, impl="reference") == expected
    if maxn_backend() == "kernel":
        assert solve_maxn_all(position, impl="kernel") == expected


def test_hands_too_large_for_the_implementation_are_refused() -> None:
    seven = random_position(random.Random(1), 3, MAXN_MAX_CARDS + 1)
    with pytest.raises(HandSizeError, match=f"at most {MAXN_MAX_CARDS} cards"):
        solve_maxn(seven, impl="reference")
    too_big = random_position(random.Random(2), 3, MAXN_KERNEL_MAX_CARDS + 1)
    with pytest.raises(HandSizeError):
        solve_maxn_all(too_big)


@needs_kernel
def test_the_kernel_takes_larger_endings_and_rejects_bad_raw_input() -> None:
    position = random_position(random.Random(3), 3, MAXN_KERNEL_MAX_CARDS, trump=3)
    assert sum(solve_maxn(position)) == position.tricks_left
    from mizerka.solver import _maxn  # type: ignore[attr-defined]

    overlapping = (CardSet.from_str("AS").mask, CardSet.from_str("AS").mask, CardSet.from_str("KS").mask)
    with pytest.raises(ValueError, match="disjoint"):
        _maxn.maxn(overlapping, 0, (), -1, False, False)
    with pytest.raises(ValueError, match="2 to 4 hands"):
        _maxn.maxn((1,), 0, (), -1, False, False)
