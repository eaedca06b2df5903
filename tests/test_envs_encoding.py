"""The shared action ids and observation tensor, and the promise that no hidden card is ever encoded; pending marks
that are no cards of the hand, and ``out=`` arrays of the wrong shape or type, are refused before anything is
written."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy", reason="the rl extra (numpy) is not installed")

from mizerka.cards import CardSet  # noqa: E402
from mizerka.deal import Deal, Observation, Phase  # noqa: E402
from mizerka.envs.encoding import (  # noqa: E402
    CHOOSE_BASE,
    DISCARD_BASE,
    DONE,
    N_ACTIONS,
    OBSERVATION_LAYOUT,
    OBSERVATION_SIZE,
    ActionOutOfRangeError,
    ObservationEncoder,
    PendingMarksError,
    action_name,
    check_action_id,
    legal_action_ids,
    views,
)
from mizerka.envs.table import Table, resolve_rules  # noqa: E402
from mizerka.rules import RulesError  # noqa: E402

CARD_VIEWS = ("hand", "discards", "drawn", "pending", "played", "trick", "shown_card")


def test_layout_is_contiguous_and_documented() -> None:
    tensor = np.arange(OBSERVATION_SIZE, dtype=np.float32)
    parts = views(tensor)
    assert list(parts) == [name for name, _, _ in OBSERVATION_LAYOUT]
    flat = np.concatenate([v.reshape(-1) for v in parts.values()])
    assert np.array_equal(flat, tensor)  # every element belongs to exactly one view, in order
    assert all(meaning for _, _, meaning in OBSERVATION_LAYOUT)
    parts["hand"][0] = -5.0
    assert tensor[0] == -5.0  # views, not copies


def test_action_ids_have_one_meaning_each() -> None:
    names = [action_name(a) for a in range(N_ACTIONS)]
    assert len(set(names)) == N_ACTIONS
    assert names[0] == "play 2C" and names[51] == "play AS"
    assert names[DISCARD_BASE + 51] == "discard AS"
    assert names[CHOOSE_BASE + 4] == "choose NT" and names[DONE] == "done"


@pytest.mark.parametrize("bad", [-1, 111, 1.0, "3", None, True, np.array([1, 2])])
def test_out_of_range_actions_raise_a_specific_error(bad: object) -> None:
    with pytest.raises(ActionOutOfRangeError):
        check_action_id(bad)


def test_numpy_integers_are_accepted() -> None:
    assert check_action_id(np.int32(5)) == 5
    assert check_action_id(np.array(7)) == 7


def test_exchange_marks_ascend_and_respect_the_talon() -> None:
    deal = Deal.random(2, dealer=0)
    deal.play("MZ")
    obs = deal.observation(deal.to_move)
    hand = sorted(int(c) for c in obs.hand)
    ids = legal_action_ids(obs)
    assert ids == [DISCARD_BASE + c for c in hand] + [DONE]
    pending = 1 << hand[3]
    after = legal_action_ids(obs, pending)
    assert after == [DISCARD_BASE + c for c in hand[4:]] + [DONE]
    full = 0
    for card in hand[:13]:
        full |= 1 << card
    assert legal_action_ids(obs, full) == [DONE]  # 13 marks: the talon's size


def _allowed_cards(deal: Deal, seat: int, pending: int) -> int:
    """Every card *seat* may know the place of, computed from the true deal."""
    allowed = deal.hands[seat] | deal.dead[seat] | deal.drawn[seat] | deal.played | pending
    for card in deal.trick:
        allowed |= 1 << card
    if deal.shown_card is not None:
        allowed |= 1 << deal.shown_card
    return allowed


def _card_bits(tensor: np.ndarray) -> int:
    parts = views(tensor)
    mask = 0
    for name in CARD_VIEWS:
        cards = parts[name].reshape(-1, 52).any(axis=0)
        for card in np.flatnonzero(cards):
            mask |= 1 << int(card)
    return mask


@pytest.mark.parametrize("variant", ["standard", "standard,show_trump_card", "no-exchange"])
def test_observations_encode_no_hidden_card(variant: str) -> None:
    """At every step of many random deals, each seat's tensor mentions only cards that seat may know,
    and it is unchanged when the hidden cards are dealt differently (a resampled world)."""
    rng = random.Random(5)
    for episode in range(5):
        table = Table(variant, mode="deal", seed=episode)
        while not table.is_over():
            deal = table.deal
            for seat in range(3):
                pending = table.pending_for(seat)
                tensor = table.tensor(seat)
                parts = views(tensor)
                assert _card_bits(tensor) & ~_allowed_cards(deal, seat, pending) == 0
                assert CardSet(int(np.dot(parts["hand"], [1 << i for i in range(52)]))) == deal.hand(seat)
                if deal.phase is not Phase.DONE and rng.random() < 0.2:
                    world = Deal.from_observation(deal.observation(seat), random.Random(rng.random()))
                    assert world.hands != deal.hands or deal.phase is Phase.PLAY
                    encoder = ObservationEncoder()
                    seen = encoder.encode(deal.observation(seat), pending)
                    assert np.array_equal(encoder.encode(world.observation(seat), pending), seen)
            ids = table.legal_ids()
            table.step(rng.choice(ids))


def test_other_players_discards_stay_hidden() -> None:
    """After an exchange, the others see only how many cards were exchanged."""
    table = Table(mode="deal", seed=4)
    table.step(CHOOSE_BASE + 4)
    exchanger = table.to_move
    hand = sorted(int(c) for c in table.deal.hand(exchanger))
    for card in hand[:3]:
        table.step(DISCARD_BASE + card)
    table.step(DONE)
    for seat in range(3):
        parts = views(table.tensor(seat))
        rel = (exchanger - seat) % 3
        assert parts["exchange_counts"][rel] == pytest.approx(3 / 13)
        assert parts["exchanged"][rel] == 1.0
        if seat != exchanger:
            assert not parts["discards"].any() and not parts["drawn"].any()
            assert not any(parts["hand"][c] for c in hand[:3])
        else:
            assert [c for c in range(52) if parts["discards"][c]] == hand[:3]


def test_table_observation_is_the_match_observation() -> None:
    """The driver's cached observation is exactly Match.observation (match mode) / Deal.observation (one deal)."""
    rng = random.Random(7)
    for mode in ("match", "deal"):
        table = Table(mode=mode, seed=3)  # type: ignore[arg-type]
        for _ in range(150 if mode == "match" else 60):
            if table.is_over():
                break
            for seat in range(3):
                expected = table.match.observation(seat) if mode == "match" else table.deal.observation(seat)
                assert table.observation(seat) == expected
            table.step(rng.choice(table.legal_ids()))


@pytest.mark.filterwarnings("ignore:variant .* not zero-sum")
@pytest.mark.parametrize(
    ("variant", "problem"),
    [
        ("seed002-literal", "plays 17 tricks"),
        ("standard,quota_ordinary=7/5/2", "quotas 7/5/2 and 1/5/7"),
        ("standard,quota_mizerka=1/5/6", "quotas 7/5/1 and 1/5/6"),
    ],
)
def test_resolve_rules_refuses_variants_that_are_not_zero_sum_with_13_tricks(variant: str, problem: str) -> None:
    with pytest.raises(RulesError, match="zero-sum variant of 13 tricks") as refused:
        resolve_rules(variant)
    assert problem in str(refused.value)
    with pytest.raises(RulesError, match="zero-sum"):
        Table(variant)
    with pytest.raises(RulesError, match="seats 4"):
        resolve_rules("four-players")
    assert resolve_rules("no-exchange,show_trump_card").n_tricks == 13


@pytest.mark.parametrize("first_dealer", [0, 1, 2])
def test_a_single_deal_honours_the_variants_first_dealer(first_dealer: int) -> None:
    variant = f"standard,first_dealer={first_dealer}"
    for seed in range(8):
        assert Table(variant, mode="deal", seed=seed).deal.dealer == first_dealer
        assert Table(variant, mode="match", seed=seed).deal.dealer == first_dealer
        # the option changes the dealer only, not the deck order drawn from the seed
        assert Table(variant, mode="deal", seed=seed).match.decks == Table(mode="deal", seed=seed).match.decks
    assert len({Table(mode="deal", seed=seed).deal.dealer for seed in range(8)}) > 1  # no option: drawn by lot


def test_an_engine_action_with_a_plain_int_card_is_stored_as_the_deal_stores_it() -> None:
    """``Table.apply_action(Play(0))`` pushes what ``Deal.check`` returns: the history reads ``2C``, as after
    ``deal.play("2C")``, not ``0``."""
    from mizerka.cards import CARDS
    from mizerka.deal import KEEP, PLAYS, Phase, Play
    from mizerka.envs.table import Table

    table = Table(seed=3)
    deal = table.deal
    while deal.phase is not Phase.PLAY:
        table.apply_action(KEEP if deal.phase is Phase.EXCHANGE else next(iter(deal.legal_actions)))
    card = int(next(iter(deal.legal_actions)).card)  # type: ignore[union-attr]
    table.apply_action(Play(card))  # type: ignore[arg-type]
    assert deal.history[-1] is PLAYS[card] and str(deal.history[-1]) == str(CARDS[card])


# -- pending marks and out= arrays -----------------------------------------------------------------------------------


def exchanging_observation() -> Observation:
    """Forehand's observation at the start of its exchange (it may mark cards for discard)."""
    deal = Deal.random(1, dealer=0)
    deal.play("NT")
    return deal.observation(deal.to_move)


def bad_marks(observation: Observation) -> dict[str, int]:
    """Marks that are no mask of held cards: negative, a bit above 51, a card the seat does not hold."""
    not_held = next(card for card in range(52) if not observation.hand.mask >> card & 1)
    return {"negative": -1, "above 51": 1 << 60, "not held": 1 << not_held}


@pytest.mark.parametrize("kind", ["negative", "above 51", "not held"])
def test_encode_refuses_marks_that_are_not_held_cards(kind: str) -> None:
    """-1 used to loop for ever, bit 60 landed in the 'played' section, a card not held was encoded silently."""
    observation = exchanging_observation()
    pending = bad_marks(observation)[kind]
    encoder = ObservationEncoder()
    with pytest.raises(PendingMarksError, match="they must mark cards in the hand"):
        encoder.encode(observation, pending=pending)
    tensor = np.zeros(OBSERVATION_SIZE, np.float32)
    assert observation.seat is not None
    with pytest.raises(PendingMarksError):
        encoder.fill(tensor, observation, observation.seat, pending)
    assert not tensor.any()  # refused before anything is written


@pytest.mark.parametrize("kind", ["negative", "above 51", "not held"])
def test_legal_action_ids_refuses_marks_that_are_not_held_cards(kind: str) -> None:
    observation = exchanging_observation()
    with pytest.raises(PendingMarksError, match="they must mark cards in the hand"):
        legal_action_ids(observation, bad_marks(observation)[kind])


def test_marks_of_held_cards_are_still_encoded() -> None:
    observation = exchanging_observation()
    lowest = observation.hand.mask & -observation.hand.mask
    tensor = ObservationEncoder().encode(observation, pending=lowest)
    assert views(tensor)["pending"][lowest.bit_length() - 1] == 1.0
    assert int(views(tensor)["pending"].sum()) == 1
    assert legal_action_ids(observation, lowest)[-1] == 110  # done stays legal


@pytest.mark.parametrize(
    ("out", "message"),
    [
        (np.zeros(OBSERVATION_SIZE - 1, np.float32), "shape"),
        (np.zeros((1, OBSERVATION_SIZE), np.float32), "shape"),
        (np.zeros(OBSERVATION_SIZE, np.int8), "float array"),
        (np.zeros(OBSERVATION_SIZE, np.bool_), "float array"),
    ],
)
def test_encode_refuses_a_wrong_out_array(out: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ObservationEncoder().encode(exchanging_observation(), out=out)  # type: ignore[arg-type]


def test_encode_into_a_float64_out_array() -> None:
    observation = exchanging_observation()
    out = np.full(OBSERVATION_SIZE, 7.0, np.float64)
    result = ObservationEncoder().encode(observation, out=out)  # type: ignore[arg-type]
    assert result is out
    np.testing.assert_allclose(out, ObservationEncoder().encode(observation), rtol=1e-6)  # float32 vs float64
