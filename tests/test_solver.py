"""The reference solver against brute-force minimax, the API, positions, errors and max^n."""

from __future__ import annotations

import random

import pytest

from mizerka.cards import Card, CardSet
from mizerka.solver import (
    DuplicateCardError,
    FollowSuitError,
    HandSizeError,
    InvalidPositionError,
    NotOnLeadError,
    Position,
    cli_solve,
    solve,
    solve_all,
    solve_maxn,
)
from mizerka.solver import _masks as masks
from mizerka.solver.reference import ReferenceSolver, brute_force_value, normalized_key
from solver_helpers import random_contract, random_position


def test_reference_matches_brute_force_on_thousands_of_small_endings() -> None:
    rng = random.Random(20240601)
    checked = 0
    for _ in range(2500):
        n = rng.choice((3, 3, 4))
        cards = rng.choice((3, 3, 4)) if n == 3 else 3
        trump, misere = random_contract(rng)
        sides = (0, 1, 0, 1) if n == 4 else None
        position = random_position(rng, n, cards, trump=trump, misere=misere, sides=sides,
                                   must_trump=rng.random() < 0.1)
        seat = rng.randrange(n)
        count_mask, max_mask = masks(position, seat)
        expected = brute_force_value(position, count_mask, max_mask)
        assert ReferenceSolver(position, count_mask, max_mask).value() == expected, (str(position), seat)
        assert solve(position, seat, impl="reference") == expected
        checked += 1
    assert checked == 2500


def test_every_card_value_matches_brute_force_after_playing_it() -> None:
    rng = random.Random(7)
    for _ in range(300):
        trump, misere = random_contract(rng)
        position = random_position(rng, 3, rng.choice((3, 4)), trump=trump, misere=misere)
        seat = rng.randrange(3)
        values = solve_all(position, seat, impl="reference")
        assert set(values) == set(position.legal_cards())
        count_mask, max_mask = masks(position, seat)
        for card, value in values.items():
            after = position.play(card)
            tricks_done = 0
            if not after.trick and len(position.trick) == 2:  # the card closed a trick
                tricks_done = count_mask >> after.leader & 1
            assert value == tricks_done + brute_force_value(after, count_mask, max_mask)
        best = (max if max_mask >> position.to_move & 1 else min)(values.values())
        assert best == solve(position, seat, impl="reference")


def test_normalized_key_merges_positions_that_differ_only_in_played_cards() -> None:
    a = [CardSet.from_str("AS 9S 5H").mask, CardSet.from_str("KS 2S AH").mask]
    b = [CardSet.from_str("AS TS 9H").mask, CardSet.from_str("QS 3S KH").mask]
    c = [CardSet.from_str("AS 2S 5H").mask, CardSet.from_str("KS 9S AH").mask]
    assert normalized_key(a, 1) == normalized_key(b, 1)
    assert normalized_key(a, 1) != normalized_key(c, 1)
    assert normalized_key(a, 0) != normalized_key(a, 1)


def test_position_text_round_trip_and_views() -> None:
    rng = random.Random(3)
    for _ in range(50):
        trump, misere = random_contract(rng)
        position = random_position(rng, 3, 5, trump=trump, misere=misere)
        assert Position.from_text(str(position)) == position
        assert eval(repr(position), {"Position": Position}) == position
    dotted = Position.from_text("NT; lead 1; AK.-.-.- / Q2.-.-.- / -.-.A2.-")
    assert dotted.hands[2] == CardSet.from_str("AD 2D").mask


@pytest.mark.parametrize(
    ("text", "error", "words"),
    [
        ("NT; lead 0; S:AK H:- D:- C:- / S:A2 H:- D:- C:- / S:- H:32 D:- C:-", DuplicateCardError, "AS"),
        ("NT; lead 0; S:AK H:- D:- C:- / S:Q H:- D:- C:- / S:- H:32 D:- C:-", HandSizeError,
         "player 1 holds 1 card but should hold 2"),
        ("NT; lead 0; S:K H:- D:- C:- / S:Q2 H:- D:- C:- / S:- H:432 D:- C:-; trick AS", HandSizeError, "player 2"),
        ("NT; lead 0; S:K H:- D:- C:- / S:Q H:- D:- C:- / S:- H:54 D:- C:-; trick AS 3H", FollowSuitError, "QS"),
        ("NT; lead 0; S:K H:- D:- C:- / S:Q H:- D:- C:- / S:- H:32 D:- C:-; trick AS QS", DuplicateCardError,
         "QS"),
        ("NT; lead 0; S:K H:- D:- C:- / S:Q H:- D:- C:- / S:- H:3 D:- C:-; to-move 2", NotOnLeadError,
         "player 2"),
        ("NT; lead 5; S:K H:- D:- C:- / S:Q H:- D:- C:- / S:- H:3 D:- C:-", NotOnLeadError, "leader 5"),
        ("XX; lead 0; S:K H:- D:- C:- / S:Q H:- D:- C:- / S:- H:3 D:- C:-", InvalidPositionError, "XX"),
    ],
)
def test_impossible_positions_raise_errors_that_name_the_problem(
    text: str, error: type[Exception], words: str
) -> None:
    with pytest.raises(error, match=words):
        Position.from_text(text)
    assert issubclass(error, ValueError)


def test_must_trump_revoke_is_caught() -> None:
    with pytest.raises(FollowSuitError, match="must trump"):
        Position.from_text("H; lead 0; must-trump; S:K H:- D:- C:- / S:- H:2 D:- C:- / S:- H:3 D:- C:5; trick AS 4D")


def test_solving_for_a_seat_that_does_not_play_is_an_error() -> None:
    position = Position((CardSet.from_str("AS").mask, CardSet.from_str("KS").mask, CardSet.from_str("QS").mask),
                        0, seats=(1, 2, 3))
    assert solve(position, 1) == 1
    with pytest.raises(NotOnLeadError, match="seat 0"):
        solve(position, 0)


def _maxn_brute(position: Position) -> tuple[int, ...]:
    """Max^n without memo, with the documented tie-break, as an independent check."""
    n = position.n_players
    player = position.to_move
    if not position.hands[player]:
        return (0,) * n
    best: tuple[int, ...] | None = None
    best_rank: tuple[int, int] | None = None
    for card in position.legal_cards():
        after = position.play(card)
        value = list(_maxn_brute(after))
        if not after.trick and len(position.trick) == n - 1:
            value[after.leader] += 1
        own, nxt = value[player], value[(player + 1) % n]
        rank = (-own, nxt) if position.misere else (own, -nxt)
        if best_rank is None or rank > best_rank:
            best, best_rank = tuple(value), rank
    assert best is not None
    return best


def test_maxn_matches_an_unmemoised_search_and_sums_to_the_tricks_left() -> None:
    rng = random.Random(11)
    for _ in range(150):
        trump, misere = random_contract(rng)
        position = random_position(rng, 3, 3, trump=trump, misere=misere)
        vector = solve_maxn(position)
        assert vector == _maxn_brute(position)
        assert sum(vector) == position.tricks_left
    with pytest.raises(HandSizeError):
        solve_maxn(random_position(random.Random(1), 3, 9))


def test_cli_solve_lists_every_legal_card() -> None:
    text = "MZ; lead 1; S:AK H:- D:- C:2 / S:Q2 H:- D:- C:3 / S:- H:- D:A2 C:4"
    out = cli_solve(text, impl="reference")
    position = Position.from_text(text)
    for card in position.legal_cards():
        assert Card(card).unicode() in out


def test_position_from_a_rules_engine_deal_mid_trick() -> None:
    from mizerka.deal import Deal, Phase

    rng = random.Random(3)
    for _ in range(20):
        deal = Deal.random(rng)
        stop = rng.randint(8, 16)
        while not (deal.phase is Phase.PLAY and sum(h.bit_count() for h in deal.hands) <= stop):
            deal.push(rng.choice(list(deal.legal_actions)))
        position = Position.from_deal(deal)
        assert position.seat_labels()[position.to_move] == deal.to_move
        assert position.legal_mask() == deal.legal_play_mask()
        values = solve_all(position, deal.to_move, impl="reference")
        assert set(values) == set(position.legal_cards())
        assert position.misere == (deal.contract is not None and deal.contract.is_mizerka)
