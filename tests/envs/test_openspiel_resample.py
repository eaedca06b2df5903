"""The OpenSpiel game's ``resample_from_infostate``: worlds one player cannot tell from the real one.

A resampled state must give that player the same information state, observation and legal actions, keep his
own cards and every public action, put the hidden cards elsewhere in some draws, respect the voids shown in play,
draw only from the probability sampler, and be an ordinary state (history, serialization).  OpenSpiel's Python
IS-MCTS bot plays through it; the C++ ``pyspiel.ISMCTSBot`` cannot (see docs/envs.md), which a canary test
pins down.
"""

from __future__ import annotations

import math
import random

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra (open_spiel) is not installed")
np = pytest.importorskip("numpy")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import mizerka.envs.openspiel  # noqa: E402, F401  (registers the game)
from mizerka.cards import SUIT_MASKS  # noqa: E402
from mizerka.deal import Phase  # noqa: E402
from mizerka.envs.encoding import DONE  # noqa: E402
from mizerka.rules import RulesError  # noqa: E402

VARIANTS = (
    "standard",
    "no-exchange",
    "standard,show_trump_card",
    "standard,seed002_blocks",
    "standard,contracts=NT+MZ",
)


def _game(variant: str = "standard", dealer: int = 0):
    return pyspiel.load_game("mizerka", {"variant": variant, "dealer": dealer})


def _sampler(seed: int):
    return pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0)


def _random_state(game, seed: int, decisions: int):
    """A state after the shuffle and *decisions* random player actions (fewer if the deal ends first)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    for _ in range(decisions):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def _play_until(game, seed: int, stop):
    """Random play from a fresh shuffle until ``stop(state)`` holds; ``None`` if the deal ends first."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    while not state.is_terminal():
        if stop(state):
            return state
        state.apply_action(rng.choice(state.legal_actions()))
    return state if stop(state) else None


def _find(game, stop, start: int = 0):
    """The first state of random play (seeds *start*, *start* + 1, ...) where ``stop`` holds."""
    for seed in range(start, start + 100):
        state = _play_until(game, seed, stop)
        if state is not None:
            return state
    raise AssertionError("no random deal reached the state wanted")


def _assert_indistinguishable(original, world, player: int) -> None:
    assert world.information_state_string(player) == original.information_state_string(player)
    assert np.array_equal(world.information_state_tensor(player), original.information_state_tensor(player))
    assert world.observation_string(player) == original.observation_string(player)
    assert np.array_equal(world.observation_tensor(player), original.observation_tensor(player))
    assert world.current_player() == original.current_player()
    assert world.is_terminal() == original.is_terminal()
    assert world.legal_actions(player) == original.legal_actions(player)
    if original.current_player() == player:
        assert world.legal_actions() == original.legal_actions()
    assert world.move_number() == original.move_number()
    assert len(world.history()) == len(original.history())
    if original.deal is not None:
        assert world.deal.hands[player] == original.deal.hands[player]
        assert world.deal.observation(player) == original.deal.observation(player)


def _hidden(state, player: int) -> tuple[object, ...]:
    """What *player* does not see: the others' hands and discards, the talon, the deck order."""
    deal = state.deal
    others = tuple(deal.hands[seat] for seat in range(3) if seat != player)
    return (others, tuple(deal.talon), tuple(deal.deck))


# -- indistinguishable, at every phase ---------------------------------------------------------------


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from(VARIANTS),
    dealer=st.integers(0, 2),
    seed=st.integers(0, 2**32 - 1),
    decisions=st.integers(0, 70),
    player=st.integers(0, 2),
    sampler_seed=st.integers(0, 2**31 - 1),
)
def test_the_player_cannot_tell_the_world_from_the_state(
    variant: str, dealer: int, seed: int, decisions: int, player: int, sampler_seed: int
) -> None:
    state = _random_state(_game(variant, dealer), seed, decisions)
    world = state.resample_from_infostate(player, _sampler(sampler_seed))
    assert type(world) is type(state)
    _assert_indistinguishable(state, world, player)
    # the public view too: every public action, the exchange counts, the tricks, the hand sizes
    assert world.deal.observation(None) == state.deal.observation(None)
    assert world.deal.actors == state.deal.actors
    assert [hand.bit_count() for hand in world.deal.hands] == [hand.bit_count() for hand in state.deal.hands]


def _choose(state) -> bool:
    return state.deal.phase is Phase.CHOOSE


def _exchange(state) -> bool:
    return state.deal.phase is Phase.EXCHANGE


def _exchange_marked(state) -> bool:
    return state.deal.phase is Phase.EXCHANGE and state.pending != 0


def _mid_trick(state) -> bool:
    return state.deal.phase is Phase.PLAY and len(state.deal.trick) in (1, 2) and len(state.deal.tricks) >= 2


def _late_trick(state) -> bool:
    return state.deal.phase is Phase.PLAY and len(state.deal.tricks) >= 9 and len(state.deal.trick) == 2


PHASES = {"choose": _choose, "exchange": _exchange, "marked": _exchange_marked, "mid-trick": _mid_trick}


@pytest.mark.parametrize("phase", list(PHASES))
@pytest.mark.parametrize("seed", range(4))
def test_every_phase_for_every_player(phase: str, seed: int) -> None:
    state = _find(_game(), PHASES[phase], 100 * seed)
    sampler = _sampler(seed)
    for player in range(3):
        worlds = [state.resample_from_infostate(player, sampler) for _ in range(8)]
        for world in worlds:
            _assert_indistinguishable(state, world, player)
        # the hidden cards move: in some of the draws they are not where they are in the state
        assert any(_hidden(world, player) != _hidden(state, player) for world in worlds)
        assert len({_hidden(world, player) for world in worlds}) > 1


def test_pending_marks() -> None:
    """The mover's own marks stay as they are for him; for the others, as many marks from his new hand."""
    state = _find(_game(), lambda s: s.deal.phase is Phase.EXCHANGE and s.pending.bit_count() >= 2, 7)
    mover = state.current_player()
    sampler = _sampler(1)
    for _ in range(10):
        world = state.resample_from_infostate(mover, sampler)
        assert world.pending == state.pending
        for player in range(3):
            if player == mover:
                continue
            world = state.resample_from_infostate(player, sampler)
            _assert_indistinguishable(state, world, player)
            assert world.pending.bit_count() == state.pending.bit_count()
            assert world.pending & ~world.deal.hands[mover] == 0
    # the world plays on: the mover can finish his exchange there
    world.apply_action(DONE)
    assert world.deal.exchange_counts[mover] == state.pending.bit_count()


def test_chance_nodes_and_the_end_of_the_deal() -> None:
    """While the deck is shuffled nobody has seen a card; a finished deal resamples like any other state."""
    game = _game()
    state = game.new_initial_state()
    for card in (5, 17, 40):
        state.apply_action(card)
    sampler = _sampler(3)
    worlds = [state.resample_from_infostate(1, sampler) for _ in range(6)]
    for world in worlds:
        assert world.is_chance_node() and len(world.deck) == 3 and len(set(world.deck)) == 3
        assert world.information_state_string(1) == state.information_state_string(1)
    assert len({tuple(world.deck) for world in worlds}) > 1
    assert len(game.new_initial_state().resample_from_infostate(0, sampler).history()) == 0

    done = _random_state(game, 11, 200)
    assert done.is_terminal()
    for player in range(3):
        world = done.resample_from_infostate(player, sampler)
        _assert_indistinguishable(done, world, player)
        assert world.returns() == done.returns()


# -- voids ------------------------------------------------------------------------------------------


def _shown_void(state) -> bool:
    return state.deal.phase is Phase.PLAY and any(state.deal.observation(None).voids().values())


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), variant=st.sampled_from(VARIANTS), extra=st.integers(0, 12))
def test_a_player_who_showed_a_void_gets_no_card_of_that_suit(seed: int, variant: str, extra: int) -> None:
    game = _game(variant)
    state = _play_until(game, seed, _shown_void)
    if state is None or state.is_terminal():
        return
    rng = random.Random(seed)
    for _ in range(extra):  # play on a little: more voids, later tricks
        if state.is_terminal():
            return
        state.apply_action(rng.choice(state.legal_actions()))
    voids = state.deal.observation(None).voids()
    sampler = _sampler(seed % 2**31)
    for player in range(3):
        for _ in range(5):
            world = state.resample_from_infostate(player, sampler)
            for seat, suits in voids.items():
                for suit in suits:
                    assert world.deal.hands[seat] & SUIT_MASKS[int(suit)] == 0, (player, seat, suit)


def test_voids_with_few_cards_left() -> None:
    """Late in the deal the voids pin the hidden cards down hard; the worlds still fit them."""
    found = 0
    for seed in range(60):
        state = _play_until(_game(), seed, lambda s: _late_trick(s) and _shown_void(s))
        if state is None or state.is_terminal():
            continue
        found += 1
        voids = state.deal.observation(None).voids()
        for player in range(3):
            world = state.resample_from_infostate(player, _sampler(seed))
            _assert_indistinguishable(state, world, player)
            for seat, suits in voids.items():
                assert all(world.deal.hands[seat] & SUIT_MASKS[int(suit)] == 0 for suit in suits)
        if found >= 5:
            break
    assert found >= 5


# -- randomness: the sampler only, never the real hidden cards ------------------------------------


def test_the_draws_come_from_the_sampler() -> None:
    state = _find(_game(), _mid_trick, 4)
    a = state.resample_from_infostate(2, _sampler(9))
    b = state.resample_from_infostate(2, _sampler(9))
    c = state.resample_from_infostate(2, _sampler(10))
    assert a.history() == b.history() and str(a) == str(b)
    assert a.history() != c.history()

    calls = []

    def counting() -> float:
        calls.append(None)
        return random.random()

    state.resample_from_infostate(2, counting)
    assert calls  # an arbitrary callable returning floats in [0, 1) will do


@pytest.mark.parametrize("phase", list(PHASES))
def test_the_world_does_not_depend_on_the_real_hidden_cards(phase: str) -> None:
    """Two states the player cannot tell apart give the same world for the same sampler draws."""
    state = _find(_game(), PHASES[phase], 21)
    for player in range(3):
        twin = state.resample_from_infostate(player, _sampler(5))
        assert _hidden(twin, player) != _hidden(state, player)
        a = state.resample_from_infostate(player, _sampler(77))
        b = twin.resample_from_infostate(player, _sampler(77))
        assert a.history() == b.history() and str(a) == str(b)


# -- an ordinary state -------------------------------------------------------------------------------


def test_the_world_is_an_ordinary_state() -> None:
    game = _game("standard,show_trump_card")
    state = _find(game, _mid_trick, 8)
    world = state.resample_from_infostate(0, _sampler(2))
    replayed = game.new_initial_state()
    for action in world.history():
        replayed.apply_action(action)
    assert str(replayed) == str(world)
    _, restored = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, world))
    assert str(restored) == str(world) and restored.history() == world.history()
    clone = world.clone()
    rng = random.Random(0)
    while not world.is_terminal():  # the world plays to the end; the original is untouched
        world.apply_action(rng.choice(world.legal_actions()))
    assert str(clone) != str(world) and not state.is_terminal()


# -- bad input ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("player", [3, -1, -2, 7, True, 1.0, "0", None])
def test_a_player_out_of_range_is_refused(player: object) -> None:
    state = _random_state(_game(), 1, 3)
    with pytest.raises(RulesError, match="player_id must be a player 0-2"):
        state.resample_from_infostate(player, _sampler(0))
    fresh = _game().new_initial_state()  # also while shuffling
    with pytest.raises(RulesError, match="player_id"):
        fresh.resample_from_infostate(3, _sampler(0))


def test_a_numpy_player_id_is_a_player() -> None:
    state = _random_state(_game(), 1, 3)
    _assert_indistinguishable(state, state.resample_from_infostate(np.int64(1), _sampler(0)), 1)


@pytest.mark.parametrize("value", [1.0, -0.25, 2, math.nan, "0.5", None, True])
def test_a_sampler_outside_0_1_is_refused(value: object) -> None:
    state = _random_state(_game(), 1, 0)
    with pytest.raises(RulesError, match=r"probability sampler must return a float in \[0, 1\)"):
        state.resample_from_infostate(0, lambda: value)


def test_a_sampler_that_is_not_callable_is_refused() -> None:
    state = _random_state(_game(), 1, 0)
    with pytest.raises(TypeError, match="must be callable"):
        state.resample_from_infostate(0, 0.5)


# -- OpenSpiel's IS-MCTS ---------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["standard", "no-exchange,show_trump_card"])
def test_python_ismcts_plays_a_whole_deal(variant: str) -> None:
    """``open_spiel.python.algorithms.ismcts.ISMCTSBot`` resamples through the Python method at every move
    (and checks each world's information state against the real one)."""
    from open_spiel.python.algorithms import ismcts, mcts

    game = _game(variant)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bots = [ismcts.ISMCTSBot(game, evaluator, 2.0, 6, random_state=np.random.RandomState(seat)) for seat in range(3)]
    rng = random.Random(5)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            continue
        action = bots[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    assert moves >= 40
    assert sum(state.returns()) == 0.0


def test_cpp_ismcts_cannot_call_the_python_method() -> None:
    """Canary for a pyspiel limitation (docs/envs.md): the C++ bot calls ``State::ResampleFromInfostate`` in C++,
    which the trampoline of Python states does not forward to Python.  (``step`` is not tried: it releases the GIL
    and crashes the interpreter on any Python game.)  If this starts to pass, update docs/envs.md."""
    state = _find(_game(), _choose)
    bot = pyspiel.ISMCTSBot(0, pyspiel.RandomRolloutEvaluator(1, 0), 2.0, 4)
    with pytest.raises(pyspiel.SpielError, match="ResampleFromInfostate"):
        bot.get_policy(state)


def test_undo_action_is_not_available() -> None:
    """Canary: pyspiel does not forward ``UndoAction`` to Python states either, and a Python override could not
    rewind the C++ history, so the game does not offer it (docs/envs.md)."""
    state = _random_state(_game(), 1, 1)
    last = state.history()[-1]
    with pytest.raises(pyspiel.SpielError, match="UndoAction"):
        state.undo_action(1, last)
    assert "undo_action" not in vars(type(state))
