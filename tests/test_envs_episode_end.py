"""An action after the end of an episode: the specific error docs/envs.md names ("Bad input"), in every adapter."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from mizerka.envs.encoding import EnvActionError, IllegalEnvActionError
from mizerka.envs.pettingzoo import mizerka_v0


def _play_out(env: Any) -> None:
    """Play legal moves until the agent to move is terminated or truncated."""
    while True:
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            return
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))


@pytest.mark.parametrize("kwargs", [{}, {"illegal_reward": -1.0}, {"max_cycles": 2}])
@pytest.mark.parametrize("action", [3, 110, 200, -1, "x"])
def test_pettingzoo_refuses_an_action_after_the_end_with_the_documented_error(
    kwargs: dict[str, Any], action: object
) -> None:
    """PettingZoo's own dead-step check raised a plain ``ValueError`` ("when an agent is dead, the only valid action
    is None"), which no ``except EnvActionError`` catches, where the page promises ``IllegalEnvActionError``."""
    env = mizerka_v0.env(**kwargs)
    env.reset(seed=1)
    _play_out(env)
    agent = env.agent_selection
    with pytest.raises(IllegalEnvActionError, match=r"the episode is over \((terminated|truncated)\)"):
        env.step(action)
    assert env.agent_selection == agent and agent in env.agents  # nothing changed: the dead step is still due
    env.step(None)
    assert agent not in env.agents


def test_pettingzoo_refuses_an_action_after_an_illegal_move_ended_the_game() -> None:
    env = mizerka_v0.env(illegal_reward=-1.0)
    env.reset(seed=1)
    obs, *_ = env.last()
    env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))  # an id outside the mask ends the game
    assert all(env.terminations.values())
    with pytest.raises(IllegalEnvActionError, match="the episode is over"):
        env.step(5)
    env.step(None)


def test_pettingzoo_dead_steps_still_finish_the_episode() -> None:
    env = mizerka_v0.env()
    env.reset(seed=3)
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[-1]))
        assert agent
    assert env.agents == []


def test_gymnasium_and_openspiel_errors_after_the_end_are_env_action_errors() -> None:
    gymnasium_module = pytest.importorskip("mizerka.envs.gymnasium")
    env = gymnasium_module.MizerkaSoloEnv(opponents="random")
    obs, _ = env.reset(seed=0)
    terminated = False
    while not terminated:
        obs, _, terminated, _, _ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    with pytest.raises(EnvActionError, match=r"the episode is over \(or was never started\): call reset\(\)"):
        env.step(0)


@pytest.mark.parametrize("kwargs", [{"illegal_reward": -1.0}, {"max_cycles": 1}])
def test_pettingzoo_masks_nothing_once_an_episode_ended_early(kwargs: dict[str, Any]) -> None:
    """Truncated at ``max_cycles``, or ended by an illegal move, the deal is still in play: the mask kept listing its
    legal cards, though any of them was refused as "the episode is over"."""
    env = mizerka_v0.env(**kwargs)
    env.reset(seed=0)
    if "illegal_reward" in kwargs:
        obs, *_ = env.last()
        env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    else:
        _play_out(env)
    obs, _, terminated, truncated, _ = env.last()
    assert terminated or truncated
    assert not obs["action_mask"].any()
    assert all(not env.observe(agent)["action_mask"].any() for agent in env.agents)


def test_gymnasium_masks_nothing_once_an_illegal_move_ended_the_episode() -> None:
    gymnasium_module = pytest.importorskip("mizerka.envs.gymnasium")
    env = gymnasium_module.MizerkaSoloEnv(opponents="random", illegal_action="terminate")
    obs, _ = env.reset(seed=0)
    assert obs["action_mask"].any()
    obs, _, terminated, _, info = env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert terminated and "illegal_action" in info
    assert not obs["action_mask"].any()
