"""Copies of an environment in the middle of an episode: ``copy.deepcopy`` and ``pickle`` keep the game.

A search that plays ahead on a copy, or a vector environment that sends an environment to another process, needs
the copy to be the same game at the same point, continuing as the original would, and independent of it.
"""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from mizerka.envs.gymnasium import MizerkaSoloEnv
from mizerka.envs.pettingzoo import mizerka_v0

COPIES: dict[str, Callable[[Any], Any]] = {
    "deepcopy": copy.deepcopy,
    "pickle": lambda env: pickle.loads(pickle.dumps(env)),
}


def _pettingzoo_rest(env: Any) -> list[tuple[str, float, bool, bytes]]:
    """Play the episode out with the highest legal id each turn: who moved, what each saw and got."""
    seen = []
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        seen.append((agent, reward, terminated or truncated, obs["observation"].tobytes()))
        env.step(None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[-1]))
    return seen


@pytest.mark.parametrize("how", sorted(COPIES))
@pytest.mark.parametrize("kwargs", [{}, {"illegal_reward": -1.0}, {"mode": "match", "max_cycles": 30}])
def test_a_pettingzoo_copy_mid_episode_is_the_same_game(how: str, kwargs: dict[str, Any]) -> None:
    """The copy was a fresh environment rebuilt from the constructor's arguments (``EzPickle``): another agent to
    move, the first deal of seed 0 not yet begun, and the order wrapper still taking it for reset."""
    env = mizerka_v0.env(**kwargs)
    env.reset(seed=4)
    for _ in range(10):
        obs, *_ = env.last()
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    twin = COPIES[how](env)
    assert twin.agent_selection == env.agent_selection
    for agent in env.possible_agents:
        assert np.array_equal(twin.observe(agent)["observation"], env.observe(agent)["observation"])
        assert np.array_equal(twin.observe(agent)["action_mask"], env.observe(agent)["action_mask"])
    assert _pettingzoo_rest(twin) == _pettingzoo_rest(env)
    # independent of each other, and the seed's stream goes on alike in both
    env.reset()
    twin.reset()
    assert np.array_equal(
        twin.observe(twin.agent_selection)["observation"], env.observe(env.agent_selection)["observation"]
    )


@pytest.mark.parametrize("how", sorted(COPIES))
def test_a_pettingzoo_copy_does_not_share_the_game(how: str) -> None:
    env = mizerka_v0.env()
    env.reset(seed=2)
    twin = COPIES[how](env)
    obs, *_ = env.last()
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert twin.unwrapped.table.steps == 0 and env.unwrapped.table.steps == 1


def _gymnasium_rest(env: MizerkaSoloEnv, obs: dict[str, Any]) -> list[tuple[float, bool, bytes]]:
    seen = []
    while True:
        obs, reward, terminated, truncated, _ = env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
        seen.append((float(reward), terminated, obs["observation"].tobytes()))
        if terminated or truncated:
            return seen


@pytest.mark.parametrize("how", sorted(COPIES))
def test_a_gymnasium_copy_mid_episode_is_the_same_game(how: str) -> None:
    env = MizerkaSoloEnv(opponents="rules", mode="match")
    obs, _ = env.reset(seed=7)
    for _ in range(5):
        obs, *_ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    twin = COPIES[how](env)
    assert _gymnasium_rest(twin, obs) == _gymnasium_rest(env, obs)
