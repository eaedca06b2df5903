"""What the RL adapters accept (Gymnasium's ``MizerkaSoloEnv``, PettingZoo's ``mizerka_v0``).

A bad seed is a ``ValueError`` that changes nothing, NumPy integer seeds are taken as ints, and a reset without a
seed continues the seeded stream (the same in every run); reset options must be a dict; a bad ``illegal_reward`` is
refused and a numeric one is a float; an unknown agent is named in a ``ValueError`` (still a ``KeyError``).
"""

from __future__ import annotations

import math

import pytest

np = pytest.importorskip("numpy", reason="the rl extra (numpy) is not installed")
pytest.importorskip("pettingzoo", reason="the rl extra (pettingzoo) is not installed")
gymnasium = pytest.importorskip("gymnasium", reason="the rl extra (gymnasium) is not installed")

from mizerka.envs.gymnasium import MizerkaSoloEnv  # noqa: E402
from mizerka.envs.pettingzoo import mizerka_v0  # noqa: E402

# -- seeds -----------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [-1, 2.0, "3", True, [3], 10**30 + 0.5])
def test_gymnasium_refuses_a_bad_seed_with_a_value_error_and_changes_nothing(seed: object) -> None:
    env = MizerkaSoloEnv(opponents="random")
    obs, info = env.reset(seed=4)
    with pytest.raises(ValueError, match="seed"):
        env.reset(seed=seed)  # type: ignore[arg-type]
    assert env.seat == info["seat"]
    assert np.array_equal(env._obs()["observation"], obs["observation"])


def test_gymnasium_accepts_numpy_integer_seeds_like_ints() -> None:
    env = MizerkaSoloEnv(opponents="random")
    from_numpy, info_numpy = env.reset(seed=np.int64(7))
    from_int, info_int = env.reset(seed=7)
    assert info_numpy == info_int
    assert np.array_equal(from_numpy["observation"], from_int["observation"])


def test_a_reset_without_a_seed_continues_the_seeded_stream() -> None:
    """``reset()`` after ``reset(seed=s)`` is a new episode, and the same one in every run."""
    runs = []
    for _ in range(2):
        pz = mizerka_v0.env()
        pz.reset(seed=5)
        first = pz.observe(pz.agent_selection)["observation"].copy()
        pz.reset()
        solo = MizerkaSoloEnv(opponents="random")
        solo_first, _ = solo.reset(seed=5)
        solo_next, _ = solo.reset()
        runs.append((first, pz.observe(pz.agent_selection)["observation"].copy(), solo_first, solo_next))
    (a_first, a_next, a_solo, a_solo_next), (_, b_next, _, b_solo_next) = runs
    assert not np.array_equal(a_first, a_next) or not np.array_equal(a_solo["observation"], a_solo_next["observation"])
    assert np.array_equal(a_next, b_next)
    assert np.array_equal(a_solo_next["observation"], b_solo_next["observation"])


# -- options, rewards, agents ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("options", [5, "seat=1", [("seat", 1)]])
def test_reset_options_that_are_not_a_dict_are_refused(options: object) -> None:
    pz = mizerka_v0.env()
    pz.reset(seed=1)
    agent = pz.agent_selection
    with pytest.raises(ValueError, match="options"):
        pz.reset(seed=2, options=options)  # type: ignore[arg-type]
    assert pz.agent_selection == agent
    solo = MizerkaSoloEnv(opponents="random")
    solo.reset(seed=1)
    with pytest.raises(ValueError, match="options"):
        solo.reset(seed=2, options=options)  # type: ignore[arg-type]
    # a dict is accepted (PettingZoo's api_test passes one with an arbitrary key) and None too
    pz.reset(seed=2, options={"options": 1})
    solo.reset(seed=2, options={})


@pytest.mark.parametrize("reward", [None, "-1", True, math.nan, math.inf, [1.0]])
def test_a_bad_illegal_reward_is_refused(reward: object) -> None:
    with pytest.raises(ValueError, match="illegal_reward"):
        MizerkaSoloEnv(opponents="random", illegal_reward=reward)  # type: ignore[arg-type]
    if reward is not None:  # PettingZoo's default: no TerminateIllegalWrapper, illegal ids raise
        with pytest.raises(ValueError, match="illegal_reward"):
            mizerka_v0.env(illegal_reward=reward)  # type: ignore[arg-type]


def test_a_numeric_illegal_reward_is_accepted_as_a_float() -> None:
    env = MizerkaSoloEnv(opponents="random", illegal_reward=np.float32(-2.0), seat=0)
    obs, _ = env.reset(seed=3)
    _, reward, *_ = env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert reward == -2.0 and type(reward) is float
    pz = mizerka_v0.env(illegal_reward=-3)
    pz.reset(seed=2)
    offender = pz.agent_selection
    pz.step(110)  # 'done' in the choose phase
    assert pz.rewards[offender] == -3.0 and type(pz.rewards[offender]) is float


def test_pettingzoo_names_an_unknown_agent_with_a_value_error() -> None:
    env = mizerka_v0.env()
    env.reset(seed=1)
    for call in (env.observe, env.observation_space, env.action_space):
        with pytest.raises(ValueError, match="player_7"):
            call("player_7")
    with pytest.raises(KeyError):  # still a KeyError for code that catches that, as PettingZoo's games raise
        env.observe("player_7")


# -- the factories' keywords -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("factory", [mizerka_v0.env, mizerka_v0.raw_env])
def test_pettingzoo_names_an_unknown_keyword_with_a_value_error(factory: object) -> None:
    for bad in ({"unknown": 1}, {"render": "ansi"}, {"variant": "standard", "max_cycle": 3}):
        with pytest.raises(ValueError, match=f"no argument {next(k for k in bad if k != 'variant')!r}.*render_mode"):
            factory(**bad)  # type: ignore[operator]
        with pytest.raises(TypeError):  # still a TypeError, as Python raises for an unexpected keyword
            factory(**bad)  # type: ignore[operator]


def test_the_factories_know_every_keyword_of_the_environment() -> None:
    import inspect

    taken = tuple(inspect.signature(mizerka_v0.MizerkaEnv.__init__).parameters)[1:]
    assert taken == mizerka_v0._ARGUMENTS
    env = mizerka_v0.raw_env(variant="standard", mode="deal", render_mode="ansi", render_seat=0, max_cycles=5)
    env.reset(seed=1)
    assert "player_0" in env.agents
