"""The OpenSpiel game "mizerka": registration, OpenSpiel's consistency test, the observer; a state that is no
chance node has no chance outcomes (a specific error) and an outcome that is no card has no name; a game with variant
options reloads from its string and pickles, its string form takes options with ``;`` and ``:``, the variant's first
dealer agrees with the ``dealer`` parameter, and an action after the end says the deal is over."""

from __future__ import annotations

import math
import pickle
import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra (open_spiel) is not installed")
np = pytest.importorskip("numpy")

import mizerka.envs.openspiel  # noqa: E402, F401  (registers the game)
from mizerka.envs.encoding import (  # noqa: E402
    INFORMATION_STATE_SIZE,
    OBSERVATION_SIZE,
    RECALL_LAYOUT,
    ActionOutOfRangeError,
    IllegalEnvActionError,
    views,
)
from mizerka.rules import RulesError  # noqa: E402


def test_registered() -> None:
    assert "mizerka" in pyspiel.registered_names()
    game = pyspiel.load_game("mizerka")
    assert game.num_players() == 3 and game.num_distinct_actions() == 111
    assert game.observation_tensor_size() == OBSERVATION_SIZE
    assert game.information_state_tensor_size() == OBSERVATION_SIZE + 39 * 52 + 52  # + plays + first_cards
    assert (game.min_utility(), game.max_utility()) == (-12.0, 12.0)


@pytest.mark.parametrize("spec", ["mizerka", "mizerka(variant=no-exchange,dealer=2)"])
def test_random_sim_test(spec: str) -> None:
    pyspiel.random_sim_test(pyspiel.load_game(spec), num_sims=3, serialize=True, verbose=False)


def test_unsupported_variants_are_refused() -> None:
    with pytest.raises(RulesError, match="zero-sum"):
        pyspiel.load_game("mizerka(variant=seed002-literal)")


def test_variant_options_go_in_a_dict() -> None:
    """OpenSpiel's string syntax splits parameters at commas, so a variant with options needs the dict form."""
    game = pyspiel.load_game("mizerka", {"variant": "standard,show_trump_card"})
    assert game.rules.show_trump_card
    with pytest.raises(pyspiel.SpielError, match="show_trump_card"):
        pyspiel.load_game("mizerka(variant=standard,show_trump_card)")


def _play_to_the_end(seed: int):
    game = pyspiel.load_game("mizerka")
    state = game.new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choice(outcomes)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return game, state


def test_returns_are_the_deal_scores() -> None:
    _, state = _play_to_the_end(1)
    assert state.returns() == [float(s) for s in state.deal.scores()]
    assert sum(state.returns()) == 0.0


def test_observer_views_and_privacy() -> None:
    game = pyspiel.load_game("mizerka")
    state = game.new_initial_state()
    rng = random.Random(2)
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    from open_spiel.python.observation import make_observation

    private = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False))
    public = make_observation(
        game, pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE)
    )
    player = state.current_player()
    private.set_from(state, player)
    public.set_from(state, player)
    assert int(private.dict["hand"].sum()) == 6
    assert not public.dict["hand"].any()
    assert np.array_equal(views(private.tensor)["phase"], [1, 0, 0, 0])
    assert "hand" in private.string_from(state, player) and "hand" not in public.string_from(state, player)


def test_information_state_recalls_the_order_of_play() -> None:
    _game, state = _play_to_the_end(3)
    tensor = np.asarray(state.information_state_tensor(0), np.float32)
    assert tensor.shape == (INFORMATION_STATE_SIZE,)
    plays = tensor[OBSERVATION_SIZE : OBSERVATION_SIZE + 39 * 52].reshape(39, 52)
    assert (plays.sum(axis=1) == 1).all()
    order = [int(a) for a in state.history()[52:] if a < 52]  # player actions after the shuffle; ids < 52 are plays
    assert [int(np.argmax(row)) for row in plays] == order[-39:]
    first = tensor[OBSERVATION_SIZE + 39 * 52 :]
    assert np.flatnonzero(first).tolist() == sorted(int(c) for c in state.deal.observation(0).first_cards)
    parts = views(tensor)  # the same sections, named, after the observation's own views
    assert np.array_equal(parts["plays"], plays) and np.array_equal(parts["first_cards"], first)
    assert np.array_equal(parts["hand"], views(np.asarray(state.observation_tensor(0), np.float32))["hand"])
    assert list(parts)[-2:] == [name for name, _, _ in RECALL_LAYOUT]


def _deal_deck(game, deck, actions=()):
    state = game.new_initial_state()
    for card in deck:
        state.apply_action(card)
    for action in actions:
        state.apply_action(action)
    return state


def _same_view(a, b, player: int) -> tuple[bool, bool, bool, bool]:
    """Whether *player*'s information-state string, tensor, observation string and tensor agree in *a* and *b*."""
    return (
        a.information_state_string(player) == b.information_state_string(player),
        np.array_equal(a.information_state_tensor(player), b.information_state_tensor(player)),
        a.observation_string(player) == b.observation_string(player),
        np.array_equal(a.observation_tensor(player), b.observation_tensor(player)),
    )


def test_information_state_tensor_recalls_the_first_cards() -> None:
    """Forehand (seat 1) ends with the same 13 cards but held different six at the choice: its information
    state string and tensor both tell the two deals apart; the other seats, who saw neither card, cannot."""
    game = pyspiel.load_game("mizerka")  # dealer 0: forehand is seat 1, dealt deck positions 0, 4, 8, ...
    deck = list(range(52))
    random.Random(0).shuffle(deck)
    other = list(deck)
    other[0], other[24] = other[24], other[0]  # forehand's first card <-> its seventh (dealt after the choice)
    nt = 104 + 4
    a, b = _deal_deck(game, deck, [nt]), _deal_deck(game, other, [nt])
    assert a.deal.hands[1] == b.deal.hands[1]
    assert _same_view(a, b, 1) == (False, False, True, True)
    for seat in (0, 2):
        assert _same_view(a, b, seat) == (True, True, True, True)


def test_shown_card_is_in_the_strings() -> None:
    """show_trump_card: the turned-up talon card is public, in every seat's strings as in its tensors; the talon
    cards under it stay hidden."""
    game = pyspiel.load_game("mizerka", {"variant": "standard,show_trump_card", "dealer": 0})
    deck = list(range(52))
    random.Random(0).shuffle(deck)
    shown = list(deck)
    shown[51], shown[47] = shown[47], shown[51]  # the top talon card (turned up) <-> the one under it
    hidden = list(deck)
    hidden[43], hidden[47] = hidden[47], hidden[43]  # two talon cards under the top one
    hearts = 104 + 2
    a, b, c = (_deal_deck(game, d, [hearts]) for d in (deck, shown, hidden))
    assert a.deal.shown_card != b.deal.shown_card
    assert f"shown {a.deal.observation(None).shown_card}" in a.observation_string(0)
    for seat in range(3):
        assert _same_view(a, b, seat) == (False, False, False, False)
        assert _same_view(a, c, seat) == (True, True, True, True)


def _swap(action: int, x: int, y: int) -> int:
    """*action* with cards *x* and *y* exchanged (plays and discard marks name a card)."""
    if action >= 104:
        return action
    base, card = divmod(action, 52)
    return 52 * base + (y if card == x else x if card == y else card)


@pytest.mark.parametrize("variant", ["standard", "standard,show_trump_card", "no-exchange"])
def test_strings_and_tensors_tell_the_same_states_apart(variant: str) -> None:
    """Property: for every seat, two states give equal strings exactly when they give equal tensors (both for the
    information state and the observation).  The pairs: a random position, and the same actions on the deck with
    two cards exchanged, the actions naming them exchanged too or not.  Such pairs are often the same information
    set for some seats (the cards were hidden from them) and not for others."""
    game = pyspiel.load_game("mizerka", {"variant": variant})
    rng = random.Random(variant)
    agree = differ = 0
    for _ in range(4):
        deck = list(range(52))
        rng.shuffle(deck)
        state = _deal_deck(game, deck)
        actions: list[int] = []
        for _ in range(rng.randrange(45)):
            if state.is_terminal():
                break
            actions.append(rng.choice(state.legal_actions()))
            state.apply_action(actions[-1])
        for _ in range(25):
            i, j = rng.sample(range(52), 2)
            other = list(deck)
            other[i], other[j] = other[j], other[i]
            rename = rng.random() < 0.7
            try:
                twin = _deal_deck(game, other, [_swap(a, deck[i], deck[j]) if rename else a for a in actions])
            except IllegalEnvActionError:
                continue
            for seat in range(3):
                info_string, info_tensor, obs_string, obs_tensor = _same_view(state, twin, seat)
                assert info_string == info_tensor, (seat, state.information_state_string(seat))
                assert obs_string == obs_tensor, (seat, state.observation_string(seat))
                agree += info_string
                differ += not info_string
    assert agree and differ  # both kinds of pair occurred


def test_illegal_actions_raise() -> None:
    game = pyspiel.load_game("mizerka")
    state = game.new_initial_state()
    with pytest.raises(IllegalEnvActionError, match="not a card left"):
        state.apply_action(200)
    rng = random.Random(4)
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    with pytest.raises(IllegalEnvActionError, match="cannot play"):
        state.apply_action(0)
    with pytest.raises(ActionOutOfRangeError):
        state.apply_action(500)
    with pytest.raises(ActionOutOfRangeError):
        state.apply_action(-3)
    state.apply_action(state.legal_actions()[0])  # the position is unchanged: a legal action still works


def test_legality_check_agrees_with_the_mask() -> None:
    """The referee's quick check and the observation's legal ids agree on every id, all through random deals."""
    game = pyspiel.load_game("mizerka")
    rng = random.Random(6)
    for _ in range(3):
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        while not state.is_terminal():
            legal = set(state.legal_actions())
            assert {a for a in range(111) if state._is_legal(state.deal, a)} == legal
            state.apply_action(rng.choice(sorted(legal)))


# -- chance nodes, game strings and parameters, the end of the deal --------------------------------------------------


def _openspiel() -> Any:
    pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra (open_spiel) is not installed")
    import mizerka.envs.openspiel  # noqa: F401, F811  (registers the game)

    return pyspiel


def _dealt(game: Any, seed: int) -> Any:
    state = game.new_initial_state()
    rng = random.Random(seed)
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    return state


def test_chance_outcomes_outside_a_chance_node_raise_a_specific_error() -> None:
    pyspiel = _openspiel()
    from mizerka.envs.openspiel import NotAChanceNodeError

    game = pyspiel.load_game("mizerka")
    state = _dealt(game, 1)
    with pytest.raises(NotAChanceNodeError, match="not a chance node"):
        state.chance_outcomes()
    assert issubclass(NotAChanceNodeError, ValueError)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    with pytest.raises(NotAChanceNodeError):
        state.chance_outcomes()
    fresh = game.new_initial_state()
    assert len(fresh.chance_outcomes()) == 52 and math.isclose(sum(p for _, p in fresh.chance_outcomes()), 1.0)


@pytest.mark.parametrize("outcome", [52, 200, -1])
def test_action_to_string_refuses_a_chance_outcome_that_is_no_card(outcome: int) -> None:
    pyspiel = _openspiel()
    state = pyspiel.load_game("mizerka").new_initial_state()
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 51) == "deal AS"
    with pytest.raises(ActionOutOfRangeError):
        state.action_to_string(pyspiel.PlayerId.CHANCE, outcome)


@pytest.mark.parametrize(
    "variant",
    ["standard,show_trump_card", "no-exchange,show_trump_card", "standard,contracts=C+MZ,quota_ordinary=6/5/2"],
)
def test_a_game_with_variant_options_reloads_from_its_string_and_pickles(variant: str) -> None:
    """``str(game)`` must load the same game again: pickling games and states, ``serialize_game_and_state``
    and OpenSpiel's own ``random_sim_test(serialize=True)`` all go through it."""
    pyspiel = _openspiel()
    game = pyspiel.load_game("mizerka", {"variant": variant})
    again = pyspiel.load_game(str(game))
    assert again.rules == game.rules and str(again) == str(game)
    state = _dealt(game, 3)
    state.apply_action(state.legal_actions()[0])
    copy = pickle.loads(pickle.dumps(state))
    assert str(copy) == str(state) and copy.history() == state.history()
    _, restored = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert restored.history() == state.history()
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_the_string_form_takes_options_with_semicolons_and_colons() -> None:
    pyspiel = _openspiel()
    game = pyspiel.load_game("mizerka(variant=standard;show_trump_card;contracts:C+MZ,dealer=2)")
    assert game.rules.show_trump_card and len(game.rules.contracts) == 2 and game.dealer == 2
    assert game.rules == pyspiel.load_game("mizerka", {"variant": "standard,show_trump_card,contracts=C+MZ"}).rules


def test_the_variants_first_dealer_must_agree_with_the_dealer_parameter() -> None:
    pyspiel = _openspiel()
    assert pyspiel.load_game("mizerka", {"variant": "standard,first_dealer=2", "dealer": 2}).dealer == 2
    assert pyspiel.load_game("mizerka", {"variant": "standard,first_dealer=2"}).dealer == 2  # the default follows
    assert pyspiel.load_game("mizerka").dealer == 0
    with pytest.raises(RulesError, match="first_dealer=2"):
        pyspiel.load_game("mizerka", {"variant": "standard,first_dealer=2", "dealer": 1})


@pytest.mark.parametrize("dealer", [2.5, True, "1", 3, -2])
def test_the_game_class_refuses_a_dealer_that_is_no_seat(dealer: object) -> None:
    _openspiel()
    from mizerka.envs.openspiel import MizerkaGame

    with pytest.raises(RulesError, match="dealer"):
        MizerkaGame({"dealer": dealer})


def test_openspiel_action_after_the_end_says_the_deal_is_over() -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra (open_spiel) is not installed")
    import mizerka.envs.openspiel  # noqa: F401, F811

    state = pyspiel.load_game("mizerka").new_initial_state()
    rng = random.Random(1)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([outcome for outcome, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    returns = state.returns()
    for action in (0, 110):
        with pytest.raises(IllegalEnvActionError, match="the deal is over") as caught:
            state.apply_action(action)
        assert "not to move" not in str(caught.value)
    assert state.returns() == returns
