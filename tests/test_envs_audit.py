"""Defects found by an audit of the RL interfaces, each pinned by a test that fails without its fix.

* A negative reset seed gave the same episodes as its absolute value (``random.Random`` seeds with ``abs(n)``).
* PettingZoo's raw environment, stepped once every agent had left, failed with a bare ``KeyError``.
* ``ObservationEncoder.encode_public`` took any viewpoint: 5 was read as seat 2, 1.0 failed in NumPy's indexing.
"""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy", reason="the rl extra (numpy) is not installed")
pytest.importorskip("pettingzoo", reason="the rl extra (pettingzoo) is not installed")
pytest.importorskip("gymnasium", reason="the rl extra (gymnasium) is not installed")

from mizerka.envs.encoding import IllegalEnvActionError  # noqa: E402
from mizerka.envs.pettingzoo import mizerka_v0  # noqa: E402
from mizerka.envs.table import Table, seeded_random  # noqa: E402


def _play_out(env: mizerka_v0.MizerkaEnv, seed: int) -> None:
    """Play random legal actions, then every agent's dead step, until every agent has left."""
    rng = random.Random(seed)
    while env.agents:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        env.step(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]).tolist()))


# -- negative seeds --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [5, 1, 12345])
def test_a_negative_seed_is_not_the_same_episode_as_its_absolute_value(seed: int) -> None:
    positive, negative = mizerka_v0.raw_env(), mizerka_v0.raw_env()
    positive.reset(seed=seed)
    negative.reset(seed=-seed)
    assert positive.table.match.decks[0] != negative.table.match.decks[0]
    assert Table(seed=seed).match.decks[0] != Table(seed=-seed).match.decks[0]


def test_a_negative_seed_is_still_reproducible_and_other_seeds_are_unchanged() -> None:
    first, second = mizerka_v0.raw_env(), mizerka_v0.raw_env()
    first.reset(seed=-7)
    second.reset(seed=-7)
    assert first.table.match.decks[0] == second.table.match.decks[0]
    assert np.array_equal(first.observe("player_0")["observation"], second.observe("player_0")["observation"])
    # a non-negative seed draws as before (random.Random's own stream), so recorded experiments replay
    assert seeded_random(7).random() == random.Random(7).random()
    assert seeded_random(None).random() != seeded_random(None).random()


# -- the raw environment after every agent has left ------------------------------------------------------------------


@pytest.mark.parametrize("action", [0, 110, None])
def test_the_raw_environment_refuses_a_step_once_every_agent_has_left(action: object) -> None:
    env = mizerka_v0.raw_env()
    env.reset(seed=2)
    _play_out(env, 2)
    assert env.agents == []
    rewards = dict(env.rewards)
    with pytest.raises(IllegalEnvActionError, match="every agent has left"):
        env.step(action)
    assert env.agents == [] and env.rewards == rewards
    env.reset(seed=2)  # and a reset starts again
    assert env.agents == env.possible_agents


# -- encode_public's viewpoint ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("viewpoint", [3, 5, -1, True, 1.0, "1", None])
def test_encode_public_refuses_a_viewpoint_that_is_no_seat(viewpoint: object) -> None:
    from mizerka.deal import Deal
    from mizerka.envs.encoding import ObservationEncoder

    public = Deal.random(3, dealer=0).observation(None)
    with pytest.raises(ValueError, match="viewpoint"):
        ObservationEncoder().encode_public(public, viewpoint)  # type: ignore[arg-type]


def test_encode_public_takes_every_seat_and_numpy_integers() -> None:
    from mizerka.deal import Deal
    from mizerka.envs.encoding import ObservationEncoder, views

    public = Deal.random(3, dealer=0).observation(None)
    encoder = ObservationEncoder()
    tensors = [encoder.encode_public(public, seat) for seat in range(3)]
    assert np.array_equal(encoder.encode_public(public, np.int64(2)), tensors[2])
    # seats are relative to the viewpoint: forehand (seat 1) is "to move" at relative seat (1 - viewpoint) % 3
    assert [int(np.argmax(views(t)["to_move"])) for t in tensors] == [1, 0, 2]
