"""Is the shared trick-taking machinery ready for Preferans, as docs/architecture.md ("Towards Preferans") says?

Preferans (the notes ``shared/notes/preferans.md`` beside the repository, §2.2, §2.7) is played with the
32-card piquet deck (:data:`DECK_32`), three hands of 10 cards (two more in the talon), must-trump (R25: follow
suit, else trump if able, else any card; no obligation to overtake or to over-trump), trump and no-trump contracts
where the declarer plays alone against the two defenders, and the Misère, where the declarer alone avoids every
trick without trumps (R27, R28).  Raspasy (all-pass) is each for himself avoiding tricks: the max^n mode with
``misere``.

These tests check the rules primitives of :mod:`mizerka.tricks` and the double-dummy solver on such positions only:
the follow rule and the trick winner against independent oracles, the reference solver against brute-force minimax,
the C kernel against the reference, the kernel's own consistency on endings up to full 10-card deals, the
"Kovalevskaya misère" of the notes (§5.3), the text form of Preferans positions and max^n on short endings.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mizerka.cards import DECK_32, SUIT_MASKS, Card, CardSet, Rank, Suit, parse_cards
from mizerka.solver import (
    FollowSuitError,
    HandSizeError,
    InvalidPositionError,
    Position,
    backend,
    cli_solve,
    solve,
    solve_all,
    solve_best,
)
from mizerka.solver import _masks as masks
from mizerka.solver.maxn import maxn_backend, solve_maxn, solve_maxn_all
from mizerka.solver.reference import brute_force_value
from mizerka.tricks import legal_plays, trick_winner_index, why_illegal, winner_of_three

PIQUET: list[int] = [int(card) for card in DECK_32]
"""The 32 card ints of the piquet deck, lowest first."""

CONTRACTS: dict[str, tuple[int | None, bool]] = {
    "C": (Suit.CLUBS, False),
    "D": (Suit.DIAMONDS, False),
    "H": (Suit.HEARTS, False),
    "S": (Suit.SPADES, False),
    "NT": (None, False),
    "MZ": (None, True),  # the Misère: no trumps, the declarer avoids tricks
}
"""Every kind of Preferans contract the card play knows: a trump suit, no trumps, the Misère."""

needs_kernel = pytest.mark.skipif(backend() != "kernel", reason="the C kernel is not built (pip install -e .)")
needs_maxn_kernel = pytest.mark.skipif(maxn_backend() != "kernel",
                                       reason="the C max^n extension is not built (pip install -e .)")


# -- strategies -------------------------------------------------------------------------------------------------------


@st.composite
def preferans_positions(draw: st.DrawFn, min_cards: int, max_cards: int,
                        *, solo_sides: bool | None = None) -> tuple[Position, int]:
    """Three hands of N cards from the piquet deck, must-trump, any contract, a declarer seat, maybe mid-trick.

    With *solo_sides* the declarer is given his own side against the two defenders (``sides``); ``None`` draws it.
    """
    n = draw(st.integers(min_cards, max_cards))
    cards = draw(st.permutations(PIQUET))[: 3 * n]
    hands = tuple(sum(1 << card for card in cards[i * n : (i + 1) * n]) for i in range(3))
    trump, misere = CONTRACTS[draw(st.sampled_from(sorted(CONTRACTS)))]
    declarer = draw(st.integers(0, 2))
    solo = draw(st.booleans()) if solo_sides is None else solo_sides
    sides = tuple(int(player != declarer) for player in range(3)) if solo else None
    position = Position(hands, draw(st.integers(0, 2)), (), trump, misere, sides, must_trump=True)
    for _ in range(draw(st.integers(0, 2))):  # at most two cards: the trick stays in progress
        position = position.play(draw(st.sampled_from(position.legal_cards())))
    return position, declarer


def preferans_deal(seed: int) -> tuple[tuple[int, int, int], int]:
    """A seeded Preferans deal: three hands of 10 cards (first hand first) and the talon of 2, as masks."""
    cards = random.Random(seed).sample(PIQUET, 32)
    hands = tuple(sum(1 << card for card in cards[10 * i : 10 * i + 10]) for i in range(3))
    return (hands[0], hands[1], hands[2]), sum(1 << card for card in cards[30:])


def gained_by(position: Position, card: int, count_mask: int) -> tuple[Position, int]:
    """The position after *card*, and the counted trick it closed (0 or 1)."""
    after = position.play(card)
    closed = len(position.trick) == position.n_players - 1
    return after, (count_mask >> after.leader & 1) if closed else 0


def best_for_mover(position: Position, seat: int, values: Iterable[int]) -> int:
    """The best of *values* for the player to move: the highest if he wants *seat*'s count high, else the lowest."""
    _, max_mask = masks(position, seat)
    return max(values) if max_mask >> position.to_move & 1 else min(values)


# -- the deck ---------------------------------------------------------------------------------------------------------


def test_the_piquet_deck_holds_seven_to_ace_of_each_suit() -> None:
    assert len(DECK_32) == 32
    assert {Card(card).rank for card in DECK_32} == {Rank(r) for r in range(Rank.SEVEN, Rank.ACE + 1)}
    for suit in Suit:
        assert DECK_32.of_suit(suit) == CardSet.from_str(f"{suit.letter}:AKQJT987")
    assert CardSet.from_str(DECK_32.grouped()) == DECK_32
    assert not DECK_32.mask & CardSet.from_str("2S 6H 3D 5C").mask


# -- the follow rule with must-trump -----------------------------------------------------------------------------------


def expected_legal(hand: list[int], led_suit: int | None, trump: int | None, must_trump: bool) -> set[int]:
    """Preferans R25 written out card by card: follow suit, else (must-trump) a trump if any, else any card."""
    if led_suit is None:
        return set(hand)
    follow = {card for card in hand if card // 13 == led_suit}
    if follow:
        return follow
    trumps = {card for card in hand if trump is not None and card // 13 == trump}
    if must_trump and trumps:
        return trumps
    return set(hand)


suits_or_none = st.sampled_from([None, *range(4)])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIQUET), min_size=1, max_size=10, unique=True), suits_or_none, suits_or_none,
       st.booleans())
def test_legal_plays_and_why_illegal_follow_r25_on_the_piquet_deck(hand: list[int], led_suit: int | None,
                                                                    trump: int | None, must_trump: bool) -> None:
    mask = sum(1 << card for card in hand)
    legal = legal_plays(mask, led_suit, trump, must_trump=must_trump)
    assert set(CardSet(legal)) == expected_legal(hand, led_suit, trump, must_trump)
    for card in PIQUET:
        reason = why_illegal(mask, card, led_suit, trump, must_trump=must_trump)
        if card not in hand:
            assert reason is not None and reason.code == "not_in_hand" and reason.suit == card // 13
        elif legal >> card & 1:
            assert reason is None
        elif mask & SUIT_MASKS[led_suit]:  # type: ignore[index]
            assert reason is not None and (reason.code, reason.suit) == ("follow", led_suit)
        else:
            assert must_trump and reason is not None and (reason.code, reason.suit) == ("trump", trump)


def test_must_trump_by_hand_from_the_rules() -> None:
    hand = CardSet.from_str("S:- H:A7 D:- C:KQ8").mask  # void in spades, two trumps
    spade, heart, club = Suit.SPADES, Suit.HEARTS, Suit.CLUBS
    # void in the suit led, holding trumps: any trump, the low one too (no obligation to over-trump, R25)
    assert CardSet(legal_plays(hand, spade, heart, must_trump=True)) == CardSet.from_str("AH 7H")
    reason = why_illegal(hand, Card.from_str("8C"), spade, heart, must_trump=True)
    assert reason is not None and (reason.code, reason.suit) == ("trump", heart)
    # holding the suit led: follow, with any card of it (no obligation to overtake)
    assert CardSet(legal_plays(hand, club, heart, must_trump=True)) == CardSet.from_str("KC QC 8C")
    reason = why_illegal(hand, Card.from_str("7H"), club, heart, must_trump=True)
    assert reason is not None and (reason.code, reason.suit) == ("follow", club)
    # no trumps in the contract (no-trump, the Misère), or none in hand: any card
    assert legal_plays(hand, spade, None, must_trump=True) == hand
    no_trumps = CardSet.from_str("KD 9D 8C").mask
    assert legal_plays(no_trumps, spade, heart, must_trump=True) == no_trumps
    # Mizerka's rule, without must-trump, lets the void player discard
    assert legal_plays(hand, spade, heart) == hand


# -- the trick winner --------------------------------------------------------------------------------------------------


def expected_winner(cards: list[int], trump: int | None) -> int:
    """The highest trump, else the highest card of the suit led (R26); discards never win."""
    led = cards[0] // 13
    return max(range(len(cards)), key=lambda i: (cards[i] // 13 == trump, cards[i] // 13 == led, cards[i] % 13))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIQUET), min_size=3, max_size=3, unique=True), suits_or_none)
def test_the_trick_winner_of_a_three_card_trick(cards: list[int], trump: int | None) -> None:
    winner = trick_winner_index(cards, trump)
    assert winner == expected_winner(cards, trump)
    assert winner_of_three(cards[0], cards[1], cards[2], trump) == winner


def test_the_trick_winner_by_hand() -> None:
    assert trick_winner_index(parse_cards("AS 7H KS"), Suit.HEARTS) == 1  # the seven of trumps ruffs the ace
    assert trick_winner_index(parse_cards("7S 8H AH"), Suit.HEARTS) == 2  # over-ruffed
    assert trick_winner_index(parse_cards("7S AH AD"), Suit.CLUBS) == 0  # discards never win
    assert trick_winner_index(parse_cards("9D TD 7H"), None) == 1  # no trumps: the highest diamond


# -- the solver against brute force and against itself ---------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(preferans_positions(1, 4))
def test_the_reference_matches_brute_force_minimax(case: tuple[Position, int]) -> None:
    position, seat = case
    count_mask, max_mask = masks(position, seat)
    expected = brute_force_value(position, count_mask, max_mask)
    assert solve(position, seat, impl="reference") == expected
    values = solve_all(position, seat, impl="reference")
    assert set(values) == set(position.legal_cards())
    for card, value in values.items():
        after, gained = gained_by(position, card, count_mask)
        assert value == gained + brute_force_value(after, count_mask, max_mask), card
    assert best_for_mover(position, seat, values.values()) == expected


@needs_kernel
@settings(max_examples=300, deadline=None)
@given(preferans_positions(1, 7))
def test_the_kernel_matches_the_reference(case: tuple[Position, int]) -> None:
    position, seat = case
    value = solve(position, seat, impl="reference")
    assert solve(position, seat, impl="kernel") == value
    values = solve_all(position, seat, impl="kernel")
    assert values == solve_all(position, seat, impl="reference")
    best = solve_best(position, seat, impl="kernel")
    assert best.value == value
    assert best.cards == tuple(card for card, v in values.items() if v == value)


@needs_kernel
@settings(max_examples=150, deadline=None)
@given(preferans_positions(6, 10, solo_sides=False))
def test_the_kernel_is_consistent_up_to_ten_cards(case: tuple[Position, int]) -> None:
    """Each for his part of the declarer's game: the value is the mover's best card; each card's value is the trick
    it closes plus the value after it; the declarer's own side changes nothing (paranoid play is the coalition);
    and the declarer's count and the defenders' add up to the tricks left (a Misère too: the declarer avoiding
    tricks is the defenders' loading them on him)."""
    position, declarer = case
    value = solve(position, declarer, impl="kernel")
    count_mask, _ = masks(position, declarer)
    values = solve_all(position, declarer, impl="kernel")
    assert set(values) == set(position.legal_cards())
    assert best_for_mover(position, declarer, values.values()) == value
    for card, card_value in values.items():
        after, gained = gained_by(position, card, count_mask)
        assert card_value == gained + solve(after, declarer, impl="kernel"), card
    sides = tuple(int(player != declarer) for player in range(3))
    alone = Position(position.hands, position.leader, position.trick, position.trump, position.misere, sides,
                     must_trump=True)
    assert solve(alone, declarer, impl="kernel") == value
    for defender in range(3):
        if defender != declarer:
            assert solve(alone, defender, impl="kernel") == position.tricks_left - value


def test_must_trump_changes_the_value() -> None:
    # Hearts are trumps; the declarer leads the king of spades, which both defenders must ruff: the king of hearts
    # wins, the queen is wasted, and the declarer's jack of hearts makes the last trick.  Without must-trump the
    # second defender keeps his queen and over-ruffs the jack.
    text = "H; lead 0; must-trump; S:K H:J D:- C:- / S:- H:K D:- C:8 / S:- H:Q D:- C:7"
    position = Position.from_text(text)
    free = Position.from_text(text.replace("must-trump; ", ""))
    king, jack = Card.from_str("KS"), Card.from_str("JH")
    for impl in ("reference", "kernel") if backend() == "kernel" else ("reference",):
        assert solve_all(position, 0, impl=impl) == {jack: 0, king: 1}  # type: ignore[arg-type]
        assert solve(free, 0, impl=impl) == 0  # type: ignore[arg-type]
    count_mask, max_mask = masks(position, 0)
    assert brute_force_value(position, count_mask, max_mask) == 1
    assert brute_force_value(free, count_mask, max_mask) == 0


# -- whole deals and the notes' example --------------------------------------------------------------------------------


@needs_kernel
@pytest.mark.timeout(60)
@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("contract", sorted(CONTRACTS))
def test_a_full_ten_card_deal_in_every_contract(seed: int, contract: str) -> None:
    hands, talon = preferans_deal(seed)
    assert [h.bit_count() for h in hands] == [10, 10, 10] and talon.bit_count() == 2
    assert sum(hands) | talon == DECK_32.mask
    trump, misere = CONTRACTS[contract]
    for declarer in range(3):
        sides = tuple(int(player != declarer) for player in range(3))
        paranoid = Position(hands, 0, (), trump, misere, None, must_trump=True)  # the first hand leads (R3)
        alone = Position(hands, 0, (), trump, misere, sides, must_trump=True)
        value = solve(paranoid, declarer, impl="kernel")
        assert 0 <= value <= 10
        assert solve(alone, declarer, impl="kernel") == value
        assert solve(alone, (declarer + 1) % 3, impl="kernel") == 10 - value
        values = solve_all(paranoid, declarer, impl="kernel")
        assert set(values) == set(paranoid.legal_cards()) == set(CardSet(hands[0]))
        assert best_for_mover(paranoid, declarer, values.values()) == value
        assert solve_best(paranoid, declarer, impl="kernel").value == value


def test_a_full_deal_with_the_reference_in_a_trump_and_a_no_trump_contract() -> None:
    hands, _ = preferans_deal(4)
    for contract in ("S", "NT"):
        trump, misere = CONTRACTS[contract]
        position = Position(hands, 0, (), trump, misere, None, must_trump=True)
        value = solve(position, 1, impl="reference")
        if backend() == "kernel":
            assert solve(position, 1, impl="kernel") == value
        sides = (1, 0, 1)
        alone = Position(hands, 0, (), trump, misere, sides, must_trump=True)
        assert solve(alone, 0, impl="reference") == 10 - value


KOVALEVSKAYA = {
    # the notes' §5.3, order of play South, North (the declarer), East; South and East catch, ♣K ♣A are out of play
    "South": "S:QJ H:J7 D:KQJT C:97",
    "North": "S:T987 H:98 D:987 C:8",
    "East": "S:AK H:AKQT D:A C:QJT",
}


@pytest.mark.parametrize("impl", ["reference", "kernel"])
def test_the_kovalevskaya_misere(impl: str) -> None:
    if impl == "kernel" and backend() != "kernel":
        pytest.skip("the C kernel is not built")
    hands = " / ".join(KOVALEVSKAYA.values())
    south_leads = Position.from_text(f"MZ; lead 0; {hands}")
    values = solve_all(south_leads, 1, impl=impl)  # type: ignore[arg-type]
    # caught for exactly one trick, and only by a diamond lead
    assert max(values.values()) == solve(south_leads, 1, impl=impl) == 1  # type: ignore[arg-type]
    assert {card for card, v in values.items() if v == 1} == set(CardSet.from_str("KD QD JD TD"))
    assert {v for card, v in values.items() if card // 13 != Suit.DIAMONDS} == {0}
    # the declarer's blind lead: value 0; seven of his ten leads are safe, each diamond loses a trick
    declarer_leads = Position.from_text(f"MZ; lead 1; {hands}")
    values = solve_all(declarer_leads, 1, impl=impl)  # type: ignore[arg-type]
    assert solve(declarer_leads, 1, impl=impl) == 0  # type: ignore[arg-type]
    assert {card for card, v in values.items() if v == 0} == set(CardSet.from_str("S:T987 H:98 C:8"))
    assert {card for card, v in values.items() if v == 1} == set(CardSet.from_str("9D 8D 7D"))


# -- positions as text, seats, max^n -----------------------------------------------------------------------------------


def test_preferans_positions_as_text() -> None:
    grouped = "S; lead 2; must-trump; S:AKQJ H:T98 D:- C:7 / S:T9 H:A D:AKQ C:AK / S:87 H:KQ D:JT C:QJ"
    position = Position.from_text(grouped)
    assert position.must_trump and position.trump == Suit.SPADES and position.tricks_left == 8
    assert str(position) == grouped
    assert eval(repr(position), {"Position": Position}) == position
    dotted = Position.from_text("S; lead 2; must-trump; AKQJ.T98..7 / T9.A.AKQ.AK / 87.KQ.JT.QJ")
    printed = Position.from_text("S; lead 2; must-trump; A♠ K♠ Q♠ J♠ 10♥ 9♥ 8♥ 7♣ / 10♠ 9♠ A♥ A♦ K♦ Q♦ A♣ K♣ "
                                 "/ 8♠ 7♠ K♥ Q♥ J♦ 10♦ Q♣ J♣")
    assert dotted == printed == position
    # the third player leads a diamond; the first is void and must ruff, with any of his spades
    after = position.play(Card.from_str("TD"))
    assert after.to_move == 0 and CardSet(after.legal_mask()) == CardSet.from_str("AS KS QS JS")
    # a revoke against must-trump in the trick in progress: the second player discarded a club holding a trump
    with pytest.raises(FollowSuitError, match="must trump"):
        Position.from_text("S; lead 0; must-trump; S:- H:- D:K C:- / S:A H:- D:- C:- / S:K H:- D:Q C:-; trick AH AC")


def test_a_void_player_must_ruff_in_play_and_in_the_trick() -> None:
    position = Position.from_text("H; lead 0; must-trump; S:A8 H:- D:- C:- / S:- H:7 D:- C:A / S:KQ H:- D:- C:-")
    after = position.play(Card.from_str("AS"))
    assert after.legal_cards() == [Card.from_str("7H")]
    with pytest.raises(InvalidPositionError, match="not a legal card"):
        after.play(Card.from_str("AC"))


def test_the_position_is_deck_neutral() -> None:
    # Position and the solver take any of the 52 cards (docs: "cards are the 52 ints with DECK_32 for the piquet
    # deck"): a two of spades is no error there; the deck is the game's business, not the solver's.
    position = Position.from_text("NT; lead 0; must-trump; S:2 H:- D:- C:- / S:7 H:- D:- C:- / S:- H:A D:- C:-")
    assert solve(position, 1, impl="reference") == 1


def test_the_misere_is_played_without_trumps() -> None:
    with pytest.raises(InvalidPositionError, match="without trumps"):
        Position((CardSet.from_str("AS").mask, CardSet.from_str("KS").mask, CardSet.from_str("QS").mask), 0,
                 trump=Suit.HEARTS, misere=True)


def test_four_players_the_dealer_sitting_out() -> None:
    # at a four-player table the dealer (seat 0 here) sits out: the three active seats play, named by table seat
    hands, _ = preferans_deal(5)
    for contract in ("H", "MZ"):
        trump, misere = CONTRACTS[contract]
        table = Position(hands, 0, (), trump, misere, None, must_trump=True, seats=(1, 2, 3))
        plain = Position(hands, 0, (), trump, misere, None, must_trump=True)
        for seat in (1, 2, 3):
            assert solve(table, seat) == solve(plain, seat - 1)


def test_cli_solve_prints_every_legal_card_of_a_preferans_ending() -> None:
    text = "H; lead 0; must-trump; S:8 H:- D:- C:- / S:- H:7 D:- C:A / S:KQ H:- D:- C:-; trick AS"
    out = cli_solve(text)
    assert "must-trump" in out.splitlines()[0]
    # the only legal card is the ruff: it wins, and the ace of clubs the last trick
    assert out.splitlines()[-1].split() == ["7♥", "2"]
    assert len(out.splitlines()) == 3


@settings(max_examples=200, deadline=None)
@given(preferans_positions(1, 4, solo_sides=False))
def test_maxn_on_short_preferans_endings(case: tuple[Position, int]) -> None:
    """Max^n, each for himself: raspasy when ``misere`` (everyone avoids tricks), else three players each taking
    tricks; the vector adds up, and no player gets less than he can force against the other two together."""
    position, _ = case
    vector = solve_maxn(position, impl="reference")
    assert sum(vector) == position.tricks_left
    by_card = solve_maxn_all(position, impl="reference")
    assert list(by_card) == position.legal_cards()
    assert vector in by_card.values()
    if maxn_backend() == "kernel":
        assert solve_maxn(position, impl="kernel") == vector
        assert solve_maxn_all(position, impl="kernel") == by_card
    for player in range(3):
        paranoid = solve(position, player)
        assert vector[player] <= paranoid if position.misere else vector[player] >= paranoid


@needs_maxn_kernel
@settings(max_examples=80, deadline=None)
@given(preferans_positions(5, 8, solo_sides=False))
def test_the_maxn_kernel_takes_preferans_endings_of_eight_cards(case: tuple[Position, int]) -> None:
    position, _ = case
    vector = solve_maxn(position, impl="kernel")
    assert sum(vector) == position.tricks_left
    for player in range(3):
        paranoid = solve(position, player)
        assert vector[player] <= paranoid if position.misere else vector[player] >= paranoid


def test_maxn_refuses_a_whole_ten_card_deal() -> None:
    # documented limits (docs/solver.md: at most 8 cards a hand in C, 6 in Python): raspasy, each for himself, can
    # be searched only from the third trick of a Preferans deal on
    hands, _ = preferans_deal(6)
    raspasy = Position(hands, 0, (), None, True, None, must_trump=True)
    with pytest.raises(HandSizeError, match="at most"):
        solve_maxn(raspasy)
