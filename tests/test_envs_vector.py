"""Vectorised use: Gymnasium's vector environments (in this process and in subprocesses) and the named views of
a batch of observations."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")

import gymnasium
from gymnasium.vector import AsyncVectorEnv, SyncVectorEnv

from mizerka.envs.encoding import INFORMATION_STATE_SIZE, OBSERVATION_SIZE, views
from mizerka.envs.gymnasium import MizerkaSoloEnv


def _random_env() -> MizerkaSoloEnv:
    return MizerkaSoloEnv(opponents="random")


def _first_legal(masks: Any) -> Any:
    """The lowest legal id of each row (0 where the mask is empty: the step after the end, which resets)."""
    return np.array([int(np.flatnonzero(row)[0]) if row.any() else 0 for row in masks])


def _run(venv: Any, steps: int = 80) -> tuple[list[float], int]:
    obs, _ = venv.reset(seed=[1, 2, 3])
    total = np.zeros(3)
    episodes = 0
    for _ in range(steps):
        obs, reward, terminated, truncated, _ = venv.step(_first_legal(obs["action_mask"]))
        assert obs["observation"].shape == (3, OBSERVATION_SIZE) and obs["observation"].dtype == np.float32
        total += reward
        episodes += int(terminated.sum() + truncated.sum())
    venv.close()
    return total.tolist(), episodes


def test_sync_and_async_vector_environments_play_the_same_episodes() -> None:
    """``AsyncVectorEnv`` sends the environment to worker processes (it must pickle) and gets the same episodes."""
    sync = _run(SyncVectorEnv([_random_env] * 3))
    assert sync[1] > 0
    assert _run(AsyncVectorEnv([_random_env] * 3, context="spawn")) == sync
    made = gymnasium.make_vec("MizerkaSolo-v0", num_envs=3, vectorization_mode="sync", opponents="random")
    assert _run(made) == sync


def test_views_of_a_batch_keep_its_leading_axes() -> None:
    """``views`` sliced the first axis: a vector environment's ``(n, 647)`` batch failed with NumPy's reshape
    error."""
    venv = SyncVectorEnv([_random_env] * 2)
    obs, _ = venv.reset(seed=5)
    batch = obs["observation"]
    parts = views(batch)
    assert parts["played"].shape == (2, 3, 52) and parts["phase"].shape == (2, 4)
    for row in range(2):
        single = views(batch[row])
        for name, view in parts.items():
            assert np.array_equal(view[row], single[name]), name
    assert np.shares_memory(parts["hand"], batch)  # views, not copies
    venv.close()


@pytest.mark.parametrize("shape", [(OBSERVATION_SIZE + 111,), (OBSERVATION_SIZE, 2), (INFORMATION_STATE_SIZE + 1,), ()])
def test_views_refuse_an_array_that_is_no_observation(shape: tuple[int, ...]) -> None:
    """A flattened dict observation (the mask comes first, in the space's sorted key order) gave views of the wrong
    floats without a word."""
    with pytest.raises(ValueError, match=f"observation tensors of {OBSERVATION_SIZE} floats or information-state"):
        views(np.zeros(shape, np.float32))


def test_views_refuse_what_is_no_array() -> None:
    with pytest.raises(ValueError, match="not an array of shape list"):
        views([0.0] * OBSERVATION_SIZE)  # type: ignore[arg-type]
