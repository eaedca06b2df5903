"""The C kernel against the reference (Mizerka positions) and against DDS (bridge deals, via endplay)."""

from __future__ import annotations

import random
import sys
import threading
from collections.abc import Callable
from functools import partial
from pathlib import Path

import pytest

from mizerka.solver import DEFAULT_TT_MB, Position, backend, set_table_size, solve, solve_all
from solver_helpers import random_contract, random_ending, random_position

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from solver_bridge import bridge_position, endplay_card_to_int, random_bridge_hands, to_pbn

pytestmark = pytest.mark.skipif(backend() != "kernel", reason="the C kernel is not built")


def test_kernel_matches_reference_in_every_contract() -> None:
    rng = random.Random(99)
    for i in range(600):
        position, seat = random_ending(rng)
        assert solve(position, seat, impl="kernel") == solve(position, seat, impl="reference"), (str(position), seat)
        if i % 6 == 0:
            assert solve_all(position, seat, impl="kernel") == solve_all(position, seat, impl="reference")


@pytest.mark.parametrize(
    ("label", "n", "sides", "contracts"),
    [
        ("bridge suit contracts", 4, (0, 1, 0, 1), [(t, False) for t in range(4)]),
        ("bridge no-trump", 4, (0, 1, 0, 1), [(None, False)]),
        ("Mizerka misere", 3, None, [(None, True)]),
        ("Mizerka trumps", 3, None, [(t, False) for t in range(4)] + [(None, False)]),
    ],
)
def test_every_bound_agrees_with_the_reference_on_short_endings(
    label: str, n: int, sides: tuple[int, ...] | None, contracts: list[tuple[int | None, bool]]
) -> None:
    """The kernel's cut-offs (sure tricks, length tricks, later tricks, the misere's forced tricks and
    safe exits) fire most often in short endings: each must never cut a position whose value lies on
    the other side.  A broken bound showed up here as one wrong value in a few thousand."""
    rng = random.Random(len(label) * 7919)
    for _ in range(1200):
        trump, misere = rng.choice(contracts)
        cards = rng.randint(2, 4) if n == 4 else rng.randint(2, 6)
        position = random_position(rng, n, cards, trump=trump, misere=misere, sides=sides, mid_trick=False,
                                   must_trump=rng.random() < 0.1)
        seat = rng.randrange(n)
        assert solve(position, seat, impl="kernel") == solve(position, seat, impl="reference"), (str(position), seat)


def _few_suit_position(rng: random.Random, n: int, cards: int, sides: tuple[int, ...] | None) -> tuple[Position, int]:
    """A position dealt from two or three suits only: long suits shared by both hands of a side, where
    the joint runs and the summed side suits of the sure-trick count fire."""
    suits = rng.sample(range(4), rng.choice((2, 3)))
    deck = rng.sample([13 * suit + rank for suit in suits for rank in range(13)], n * cards)
    hands = tuple(sum(1 << c for c in deck[i * cards : (i + 1) * cards]) for i in range(n))
    trump = rng.choice([None, None, *suits])
    return Position(hands, rng.randrange(n), (), trump, False, sides, rng.random() < 0.1), rng.randrange(n)


@pytest.mark.parametrize(("n", "sides"), [(4, (0, 1, 0, 1)), (3, None)])
def test_joint_runs_agree_with_the_reference_on_few_suit_endings(n: int, sides: tuple[int, ...] | None) -> None:
    """The side's joint run of one suit (both hands, entries both ways, length tricks, then the hand left
    on lead cashing its own winners) and side suits added up while trumps are out are checked where they
    fire most: endings dealt from two or three suits."""
    rng = random.Random(4242 + n)
    for _ in range(700):
        position, seat = _few_suit_position(rng, n, rng.randint(2, 4) if n == 4 else rng.randint(2, 6), sides)
        assert solve(position, seat, impl="kernel") == solve(position, seat, impl="reference"), (str(position), seat)


def _side_run_position(rng: random.Random, n: int) -> tuple[Position, int]:
    """An ending where one side holds most of the high cards, split at random between its two hands in
    three or four suits (bridge: a partnership; three hands: the two others against the counted seat),
    so that each hand has winners and entries to the other: where the side's run across both hands
    fires.  No trumps, or the other side void in trumps."""
    cards = rng.randint(3, 4) if n == 4 else rng.randint(3, 6)
    suits = rng.sample(range(4), rng.choice((3, 4)))
    deck = sorted(rng.sample([13 * suit + rank for suit in suits for rank in range(13)], n * cards),
                  key=lambda card: card % 13)
    side = [0, 2] if n == 4 else rng.sample(range(3), 2)
    rest = [p for p in range(n) if p not in side]
    high, low = deck[len(deck) - 2 * cards :], deck[: len(deck) - 2 * cards]
    for _ in range(rng.randrange(3)):  # a few of the other side's cards swapped in
        i, j = rng.randrange(len(high)), rng.randrange(len(low))
        high[i], low[j] = low[j], high[i]
    rng.shuffle(high)
    rng.shuffle(low)
    parts = {side[0]: high[:cards], side[1]: high[cards:]}
    for k, p in enumerate(rest):
        parts[p] = low[k * cards : (k + 1) * cards]
    hands = tuple(sum(1 << c for c in parts[p]) for p in range(n))
    others = sum(hands[p] for p in rest)
    trumps = [None, None] + [t for t in suits if not others >> (13 * t) & 0x1FFF]
    leader = rng.choice(side) if rng.random() < 0.8 else rng.randrange(n)
    position = Position(hands, leader, (), rng.choice(trumps), False, (0, 1, 0, 1) if n == 4 else None)
    seat = rng.randrange(n) if n == 4 else rest[0] if rng.random() < 0.7 else rng.randrange(n)
    return position, seat


@pytest.mark.parametrize("n", [4, 3])
def test_the_side_run_agrees_with_the_reference(n: int) -> None:
    """The quick tricks of the side on lead across both of its hands (any suit, either hand on lead,
    crossing to the partner's winners and back, a void hand discarding only cards of suits where the side
    has no winner) fire where one side holds most of the high cards in several suits.  A build that let
    the void hand discard any card, or that kept only the lowest winning card's cut, failed here."""
    rng = random.Random(6161 + n)
    for _ in range(500 if n == 4 else 700):
        position, seat = _side_run_position(rng, n)
        assert solve(position, seat, impl="kernel") == solve(position, seat, impl="reference"), (str(position), seat)


def _ducks(mine: list[int], theirs: list[int]) -> bool:
    """Can the seat always play under the card led in a suit (ranks of its cards and of the others')?"""
    seen_mine = seen_theirs = 0
    for rank in sorted(mine + theirs):
        if rank in mine:
            seen_mine += 1
            if seen_mine == len(mine):
                return True
        else:
            seen_theirs += 1
            if seen_theirs > seen_mine:
                return False
    return True


def _misere_ending(rng: random.Random, low_seat: bool) -> tuple[Position, int]:
    """A misere ending dealt from one to three suits; with *low_seat* the seat holds low cards: either
    the lowest ranks of the deal (one maybe swapped for a high one), or cards interleaved with the
    others' so that in every suit it can always play under the card led."""
    cards = rng.randint(2, 7)
    suits = rng.sample(range(4), rng.choice((1, 2, 3)) if cards <= 4 else rng.choice((2, 3)))
    seat = rng.randrange(3)
    for _ in range(200):
        deck = rng.sample([13 * suit + rank for suit in suits for rank in range(13)], 3 * cards)
        if low_seat and rng.random() < 0.5:  # the lowest ranks, one card maybe swapped for a high one
            deck.sort(key=lambda card: card % 13)
            low, high = deck[:cards], deck[cards:]
            rng.shuffle(high)
            if rng.random() < 0.5:
                i = rng.randrange(cards)
                low[i], high[0] = high[0], low[i]
            order = [seat, *(p for p in range(3) if p != seat)]
            parts = {order[0]: low, order[1]: high[:cards], order[2]: high[cards:]}
            deck = [card for p in range(3) for card in parts[p]]
            break
        mine = deck[seat * cards : (seat + 1) * cards]
        theirs = [card for card in deck if card not in mine]
        if not low_seat or all(_ducks([c % 13 for c in mine if c // 13 == suit],
                                      [c % 13 for c in theirs if c // 13 == suit]) for suit in suits):
            break
    hands = tuple(sum(1 << c for c in deck[i * cards : (i + 1) * cards]) for i in range(3))
    position = Position(hands, rng.randrange(3), (), None, True)
    if rng.random() < 0.3:
        for _ in range(rng.randrange(3)):
            position = position.play(rng.choice(position.legal_cards()))
    return position, seat


def test_the_misere_ducking_bounds_agree_with_the_reference() -> None:
    """The Mizerka contract's bounds that let the seat duck (it can always play under the card led, so it
    takes no more tricks, or none after one exit when on lead; or it keeps an exit for the trick after
    one forced on it) fire where the seat holds low cards or cards interleaved with the others'.  A build
    that kept one cut per suit for the ducking bound (blocks whose order it relies on) gave wrong values
    here."""
    rng = random.Random(8080)
    for i in range(1500):
        position, seat = _misere_ending(rng, low_seat=i % 4 != 3)
        assert solve(position, seat, impl="kernel") == solve(position, seat, impl="reference"), (str(position), seat)


def _mixed_ending(rng: random.Random) -> tuple[Position, int]:
    """A short ending of one of five kinds: the misere dealt from one to three suits or from all four,
    any Mizerka contract, a bridge deal from few suits, a three-hand deal from few suits; half of the
    few-suit ones with part of a trick played."""
    kind = rng.randrange(5)
    if kind in (1, 2):
        trump, misere = (None, True) if kind == 1 else random_contract(rng)
        position = random_position(rng, 3, rng.randint(2, 7), trump=trump, misere=misere,
                                   must_trump=rng.random() < 0.1)
        return position, rng.randrange(3)
    n, cards = (4, rng.randint(2, 5)) if kind == 3 else (3, rng.randint(2, 7))
    size = n * cards
    suits = rng.sample(range(4), rng.choice((1, 2, 2, 3)) if size <= 13 else rng.choice((2, 3)) if size <= 26 else 3)
    deck = rng.sample([13 * suit + rank for suit in suits for rank in range(13)], size)
    hands = tuple(sum(1 << c for c in deck[i * cards : (i + 1) * cards]) for i in range(n))
    misere = kind == 0
    trump = None if misere else rng.choice([None, None, *suits])
    position = Position(hands, rng.randrange(n), (), trump, misere, (0, 1, 0, 1) if n == 4 else None)
    if rng.random() < 0.5:
        for _ in range(rng.randrange(n)):
            position = position.play(rng.choice(position.legal_cards()))
    return position, rng.randrange(n)


def test_block_partitions_agree_with_the_reference_on_mixed_endings() -> None:
    """The table's block partitions (only how many cards of a block each hand holds is kept), the runs
    that must stay runs in every position of a class and the small cards skipped by block are checked
    on short endings of every kind, mid-trick ones included.  Builds that dropped one cut of an entry,
    the cuts around a run or the block bounds of a skipped card each gave wrong values here."""
    rng = random.Random(11)
    for _ in range(1500):
        position, seat = _mixed_ending(rng)
        assert solve(position, seat, impl="kernel") == solve(position, seat, impl="reference"), (str(position), seat)


def _trick_in_progress(rng: random.Random) -> tuple[Position, int]:
    """A short ending with part of a trick played: bridge (suit contracts, no-trump, must-trump), three
    hands with a side of two, where the side to move may win the trick in progress by force, or the
    misere, where the others may force the trick on the seat."""
    kind = rng.randrange(6)
    cards = rng.randint(3, 5)
    if kind >= 4:
        position = random_position(rng, 3, rng.randint(3, 6), misere=True)
    elif kind == 0:
        position = random_position(rng, 4, cards, trump=rng.choice([None, None, 0, 3]), sides=(0, 1, 0, 1))
    elif kind == 1:
        position = random_position(rng, 3, cards, trump=rng.choice([None, 1, 2]))
    elif kind == 2:
        position = random_position(rng, 3, cards, trump=rng.choice([None, 2]), sides=(0, 1, 1))
    else:
        position = random_position(rng, 4, cards, trump=rng.choice([None, 3]), sides=(0, 1, 0, 1), must_trump=True)
    return position, rng.randrange(len(position.hands))


def test_the_trick_in_progress_cut_agrees_with_the_reference() -> None:
    """After the lead, the side that wins the trick by force (the highest card of the suit led still to
    come, or a ruff no opponent can over-ruff) cuts off at once when that trick, with the winner's cashing
    tricks in no-trump or once no other hand holds a trump, decides the search.  Builds that kept no cut
    below the winning card, that let an opponent's ruff pass, that dropped the cut below the winner's second
    top card, or that counted the winner's cashing tricks while another hand held a trump each gave wrong
    values here; in the misere, builds that forgot a hand unable to go under the seat's card, before or
    after it."""
    rng = random.Random(31)
    for _ in range(3000):
        position, seat = _trick_in_progress(rng)
        assert solve_all(position, seat, impl="kernel") == solve_all(position, seat, impl="reference"), (
            str(position), seat)


def test_a_crossing_to_the_partner_respects_must_trump() -> None:
    """A sure-trick bound once counted the partner's clubs after a crossing, though under must-trump
    the leader, void in clubs with a trump, has to ruff his partner's winner and then lead his losers."""
    position = Position.from_text(
        "S; lead 0; sides 0 1 0 1; must-trump; S:- H:K42 D:- C:9 / S:T H:- D:- C:KT43 / "
        "S:- H:Q86 D:4 C:8 / S:Q93 H:5 D:3 C:-; trick JC")
    assert set(solve_all(position, 0, impl="reference").values()) == {1}
    assert solve_all(position, 0, impl="kernel") == solve_all(position, 0, impl="reference")


def test_one_seat_against_three_agrees_with_the_reference() -> None:
    """Four hands with no sides: the seat against a coalition of three.  The joint and side runs follow
    two hands of a side; with a third, that hand may have to overtake with its only card of the suit and
    take the lead (here South's queen of spades), so those bounds stand aside.  They once cut this
    position (North on lead after the trick, the seat East takes its king of hearts) and others like it."""
    position = Position.from_text("NT; lead 3; S:T4 H:- D:6 C:- / S:7 H:K D:- C:A / S:3 H:T6 D:A C:- / "
                                  "S:Q H:8 D:T C:-; trick 5S JS 2S")
    assert set(solve_all(position, 1, impl="reference").values()) == {1}
    assert solve_all(position, 1, impl="kernel") == solve_all(position, 1, impl="reference")
    rng = random.Random(81)
    for _ in range(1500):
        cards, trump, misere = rng.randint(2, 4), rng.choice([None, None, 3]), rng.random() < 0.3
        # a misere position has no trumps (Position refuses them); the draws stay the same
        position = random_position(rng, 4, cards, trump=None if misere else trump, misere=misere)
        seat = rng.randrange(4)
        assert solve_all(position, seat, impl="kernel") == solve_all(position, seat, impl="reference"), (
            str(position), seat)


def test_kernel_solve_all_agrees_with_its_own_solve() -> None:
    rng = random.Random(5)
    for _ in range(40):
        trump, misere = random_contract(rng)
        position = random_position(rng, 3, 8, trump=trump, misere=misere)
        values = solve_all(position, 0)
        best = (min if misere == (position.to_move == 0) else max)(values.values())
        assert best == solve(position, 0)


def test_a_tiny_table_gives_the_same_values() -> None:
    """A 1 MB table fills its buckets at once, so replacement runs all the time: values must not change."""
    from mizerka.solver import _kernel  # type: ignore[attr-defined]

    rng = random.Random(31)
    positions = []
    for _ in range(6):
        trump, misere = random_contract(rng)
        positions.append(random_position(rng, 3, 10, trump=trump, misere=misere, mid_trick=False))
    small = [(rng.randrange(3), p) for p in positions]
    endings = [(rng.randrange(3), random_position(rng, 3, 6, trump=rng.choice((None, 2)))) for _ in range(60)]
    expected = [solve(p, seat) for seat, p in small]
    try:
        set_table_size(1)
        assert _kernel.table_bytes() <= 1024 * 1024
        assert [solve(p, seat) for seat, p in small] == expected
        for seat, p in endings:
            assert solve(p, seat, impl="kernel") == solve(p, seat, impl="reference"), (str(p), seat)
    finally:
        set_table_size(DEFAULT_TT_MB)
    assert _kernel.table_bytes() <= DEFAULT_TT_MB * 1024 * 1024


def test_the_table_forgets_everything_when_its_generation_wraps() -> None:
    """A solve stamps the buckets it writes with the table's generation, and a later solve reads only buckets
    with its own.  After 2**32 solves the counter wraps: a bucket stamped with the value it wraps to would pass
    for the new solve's, with bounds on another seat's tricks.  The wrap must forget every bucket."""
    from mizerka.solver import _kernel  # type: ignore[attr-defined]

    rng = random.Random(12)
    checked = 0
    for _ in range(12):
        position = random_position(rng, 3, 7, trump=None, mid_trick=False)
        first, second = rng.sample(range(3), 2)
        expected = solve(position, second, impl="reference")
        _kernel._set_generation(0)  # the next solve runs as generation 1
        solve(position, first, impl="kernel")
        _kernel._set_generation(2**32 - 1)  # the next solve wraps round to generation 1
        assert solve(position, second, impl="kernel") == expected, (str(position), first, second)
        checked += solve(position, first, impl="reference") != expected
    assert checked, "no position where the two seats' values differ: the test would prove nothing"


def _at_once(calls: list[Callable[[], object]]) -> list[object]:
    """Run the calls in as many threads, released together, and return their results in order."""
    barrier = threading.Barrier(len(calls))
    results: list[object] = [None] * len(calls)

    def run(i: int) -> None:
        barrier.wait()
        results[i] = calls[i]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def test_searches_in_several_threads_at_once_give_the_values_of_one_at_a_time() -> None:
    """A search releases the GIL, but its table is global: each extension lets one search run at a time.  Without
    that, one position solved for its three seats in three threads at once read each other's table entries
    (bounds on another seat's tricks): about half the values came out wrong."""
    from mizerka.solver.maxn import solve_maxn_all

    rng = random.Random(14)
    for _ in range(8):
        trump, misere = rng.choice([None, 2]), rng.random() < 0.4  # a misere has no trumps: the draws stay the same
        position = random_position(rng, 3, 11, trump=None if misere else trump, misere=misere, mid_trick=False)
        seats = range(3)
        expected = [solve(position, seat, impl="kernel") for seat in seats]
        assert _at_once([partial(solve, position, seat, impl="kernel") for seat in seats]) == expected, str(position)
    for _ in range(4):  # solve_all, max^n and a table resize, all at once
        position = random_position(rng, 3, 6, trump=None, mid_trick=False)
        expected_all = [solve_all(position, seat, impl="kernel") for seat in range(3)]
        expected_maxn = solve_maxn_all(position)
        calls: list[Callable[[], object]] = [partial(solve_all, position, seat, impl="kernel") for seat in range(3)]
        calls += [partial(solve_maxn_all, position), partial(solve_maxn_all, position),
                  partial(set_table_size, DEFAULT_TT_MB)]
        results = _at_once(calls)
        assert results[:3] == expected_all and results[3:5] == [expected_maxn] * 2, str(position)


endplay = pytest.importorskip("endplay")


def _dds() -> tuple[object, object, object, object, object]:
    import endplay._dds as dds_module
    from endplay.dds import solve_board
    from endplay.dds.solve import SolveMode
    from endplay.types import Deal, Denom, Player

    dds_module.SetMaxThreads(1)
    return Deal, Denom, Player, solve_board, SolveMode


def test_kernel_matches_dds_on_200_bridge_positions() -> None:
    """200 random deals of 6 cards a hand, West on lead, in no-trump and in spades; every lead in NT.

    Full 13-card deals are compared in ``benchmarks/solver.py`` (too slow for the test suite).
    """
    deal_cls, denom, player, solve_board, mode = _dds()
    rng = random.Random(2024)
    for i in range(200):
        hands = random_bridge_hands(rng, 6)
        for trump, strain in ((None, denom.nt), (3, denom.spades)):  # type: ignore[attr-defined]
            deal = deal_cls(to_pbn(hands), first=player.west, trump=strain)  # type: ignore[operator]
            expected = solve_board(deal, mode.OptimalOne)._data.score[0]  # type: ignore[attr-defined,operator]
            assert solve(bridge_position(hands, 3, trump), 3) == expected, (to_pbn(hands), trump)
        if i % 4 == 0:
            deal = deal_cls(to_pbn(hands), first=player.west, trump=denom.nt)  # type: ignore[operator,attr-defined]
            dds_cards = {endplay_card_to_int(c): v for c, v in solve_board(deal, mode.Default)}  # type: ignore
            ours = solve_all(bridge_position(hands, 3, None), 3)
            assert {int(c): v for c, v in ours.items()} == dds_cards, to_pbn(hands)
