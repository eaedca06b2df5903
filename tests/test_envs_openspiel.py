"""The OpenSpiel game "mizerka": registration, OpenSpiel's consistency test, the observer."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra (open_spiel) is not installed")
np = pytest.importorskip("numpy")

import mizerka.envs.openspiel  # noqa: E402, F401  (registers the game)
from mizerka.envs.encoding import OBSERVATION_SIZE, ActionOutOfRangeError, IllegalEnvActionError, views  # noqa: E402
from mizerka.rules import RulesError  # noqa: E402


def test_registered() -> None:
    assert "mizerka" in pyspiel.registered_names()
    game = pyspiel.load_game("mizerka")
    assert game.num_players() == 3 and game.num_distinct_actions() == 111
    assert game.observation_tensor_size() == OBSERVATION_SIZE
    assert (game.min_utility(), game.max_utility()) == (-12.0, 12.0)


@pytest.mark.parametrize("spec", ["mizerka", "mizerka(variant=no-exchange,dealer=2)"])
def test_random_sim_test(spec: str) -> None:
    pyspiel.random_sim_test(pyspiel.load_game(spec), num_sims=3, serialize=False, verbose=False)


def test_unsupported_variants_are_refused() -> None:
    with pytest.raises(RulesError, match="zero-sum"):
        pyspiel.load_game("mizerka(variant=seed002-literal)")


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
    tensor = np.asarray(state.information_state_tensor(0))
    plays = tensor[OBSERVATION_SIZE:].reshape(39, 52)
    assert (plays.sum(axis=1) == 1).all()
    order = [int(a) for a in state.history()[52:] if a < 52]  # player actions after the shuffle; ids < 52 are plays
    assert [int(np.argmax(row)) for row in plays] == order[-39:]


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
