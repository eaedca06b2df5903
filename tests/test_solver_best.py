"""``solve_best``: the position's value and every card that keeps it (DDS's ``solutions=2``), which a review uses
instead of scoring every card.  It must say exactly what ``solve_all`` says of the best cards, in every contract,
mid-trick, for a seat that is not to move, with the kernel and with the reference."""

from __future__ import annotations

import random

import pytest

from mizerka.cards import Card
from mizerka.deal import Deal
from mizerka.solver import (
    BestCards,
    InvalidPositionError,
    NotOnLeadError,
    Position,
    backend,
    solve,
    solve_all,
    solve_best,
)
from solver_helpers import random_ending

KERNEL = pytest.mark.skipif(backend() != "kernel", reason="the C kernel is not built")


def best_of_all(position: Position, seat: int, impl: str) -> BestCards:
    """What solve_all says: the best value for the player to move (he maximises the seat's tricks when he is
    on its side outside the misere, or against it in the misere) and the cards that reach it."""
    values = solve_all(position, seat, impl=impl)  # type: ignore[arg-type]
    own_side = position.side_mask(position.player_of(seat)) >> position.to_move & 1
    best = (max if bool(own_side) != position.misere else min)(values.values())
    return BestCards(best, tuple(card for card, value in values.items() if value == best))


@pytest.mark.parametrize("impl", [pytest.param("kernel", marks=KERNEL), "reference"])
def test_the_best_cards_are_those_solve_all_scores_best(impl: str) -> None:
    rng = random.Random(41)
    for _ in range(300 if impl == "kernel" else 120):
        position, seat = random_ending(rng)
        best = solve_best(position, seat, impl=impl)  # type: ignore[arg-type]
        assert best == best_of_all(position, seat, "reference"), (str(position), seat)
        if not position.trick:  # on lead the best value is the position's value
            assert best.value == solve(position, seat, impl="reference")


@KERNEL
@pytest.mark.parametrize("contract", ["S", "NT", "MZ"])
def test_the_best_cards_of_whole_deals_agree_with_solve_all(contract: str) -> None:
    """Full 13-card hands, each seat to move in turn over the first trick and again at 8 tricks left."""
    rng = random.Random(contract)
    for _ in range(3):
        deal = Deal.random(rng.randrange(10**6))
        deal.push(deal.parse_action(contract))
        while deal.phase.name == "EXCHANGE":
            deal.push(deal.parse_action("keep"))
        for step in range(3 + 5 * 3 + 3):
            if step < 3 or step >= 18:
                position = Position.from_deal(deal)
                assert solve_best(position, deal.to_move) == best_of_all(position, deal.to_move, "kernel"), (
                    str(position))
            deal.push(next(iter(deal.legal_actions)))


def test_a_finished_play_has_no_best_card() -> None:
    position = Position.from_text("NT; lead 0; S:- H:- D:- C:- / S:- H:- D:- C:- / S:- H:- D:- C:-")
    assert solve_best(position, 0) == BestCards(0, ())
    assert solve_best(position, 0, impl="reference") == BestCards(0, ())


def test_equivalent_cards_are_best_together() -> None:
    # Mizerka, middlehand to move against forehand (seat 0): the touching 7 and 6 of hearts both hand forehand
    # his two tricks, where the ace of diamonds lets him off with none
    position = Position.from_text("MZ; lead 1; S:8 H:- D:- C:AQ / S:- H:76 D:A C:- / S:7 H:T D:- C:6")
    for impl in ("kernel", "reference") if backend() == "kernel" else ("reference",):
        assert solve_best(position, 0, impl=impl) == BestCards(2, (Card.from_str("6H"), Card.from_str("7H")))


def test_bad_input_is_refused_as_solve_refuses_it() -> None:
    position = Position.from_text("NT; lead 0; S:AK H:- D:- C:2 / S:Q2 H:- D:- C:3 / S:- H:- D:A2 C:4")
    with pytest.raises(NotOnLeadError):
        solve_best(position, 5)
    with pytest.raises(InvalidPositionError):
        solve_best("NT; lead 0", 0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="impl"):
        solve_best(position, 0, impl="fast")  # type: ignore[arg-type]
