"""The PettingZoo AEC environment mizerka_v0: conformance, rewards, modes, bad input."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("pettingzoo", reason="the rl extra (pettingzoo) is not installed")
np = pytest.importorskip("numpy")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from mizerka.envs.encoding import (  # noqa: E402
    CHOOSE_BASE,
    DONE,
    ActionOutOfRangeError,
    IllegalEnvActionError,
)
from mizerka.envs.pettingzoo import mizerka_v0  # noqa: E402
from mizerka.rules import RulesError  # noqa: E402


# api_test whitelists PettingZoo's own Dict-observation games by name; for any other env it warns about the
# {"observation", "action_mask"} dict that the classic games use.  Those two warnings are expected here.
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.parametrize("mode", ["deal", "match"])
def test_api_test(mode: str) -> None:
    api_test(mizerka_v0.env(mode=mode), num_cycles=150)


def test_seed_test() -> None:
    seed_test(mizerka_v0.env, num_cycles=150)
    seed_test(lambda: mizerka_v0.env(mode="match"), num_cycles=150)


def test_registered_in_the_pettingzoo_registry() -> None:
    import pettingzoo

    if not hasattr(pettingzoo, "make"):
        pytest.skip("PettingZoo < 1.27 has no registry")
    env = pettingzoo.make("aec", "mizerka/mizerka-v0")
    env.reset(seed=1)
    assert env.agent_selection in env.possible_agents


def _play_random(env, seed: int) -> tuple[dict[str, float], list[list[int]]]:
    env.reset(seed=seed)
    rng = random.Random(seed)
    returns = dict.fromkeys(env.possible_agents, 0.0)
    deal_scores: list[list[int]] = []
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _info = env.last()
        returns[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        action = int(rng.choice(list(legal)))
        env.step(action)
        if env.unwrapped.table.last_scores is not None:
            deal_scores.append(list(env.unwrapped.table.last_scores))
    return returns, deal_scores


def test_every_agent_reads_each_deals_scores_at_its_next_turn() -> None:
    """In match mode ``info["deal_scores"]`` reached only the agent that moved next: the step after the deal's
    end cleared every agent's info, so the other two never saw it."""
    env = mizerka_v0.env(mode="match")
    env.reset(seed=5)
    rng = random.Random(5)
    ended: list[list[int]] = []
    seen: dict[str, list[list[int]]] = {a: [] for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, _reward, terminated, truncated, info = env.last()
        if "deal_scores" in info:
            seen[agent].append(info["deal_scores"])
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(list(np.flatnonzero(obs["action_mask"])))))
        if env.unwrapped.table.last_scores is not None:
            ended.append(list(env.unwrapped.table.last_scores))
    assert len(ended) == 18
    assert all(scores == ended for scores in seen.values()), {a: len(s) for a, s in seen.items()}


def test_a_deal_pays_its_scores() -> None:
    env = mizerka_v0.env()
    returns, deals = _play_random(env, 3)
    assert len(deals) == 1
    assert [returns[f"player_{i}"] for i in range(3)] == [float(s) for s in deals[0]]
    assert sum(returns.values()) == 0.0


def test_a_match_pays_every_deal() -> None:
    env = mizerka_v0.env(mode="match")
    returns, deals = _play_random(env, 8)
    assert len(deals) == 18
    totals = [sum(d[i] for d in deals) for i in range(3)]
    assert [returns[f"player_{i}"] for i in range(3)] == [float(t) for t in totals]
    assert env.unwrapped.table.match.is_over()


def test_only_the_agent_to_move_has_a_mask() -> None:
    env = mizerka_v0.env()
    env.reset(seed=2)
    mover = env.agent_selection
    for agent in env.possible_agents:
        mask = env.observe(agent)["action_mask"]
        assert mask.any() == (agent == mover)


def test_illegal_action_raises_and_changes_nothing() -> None:
    env = mizerka_v0.env()
    env.reset(seed=2)
    before = env.observe(env.agent_selection)["observation"].copy()
    with pytest.raises(IllegalEnvActionError, match="cannot play"):
        env.step(0)  # a card play in the choose phase
    with pytest.raises(ActionOutOfRangeError):
        env.step(500)
    assert np.array_equal(env.observe(env.agent_selection)["observation"], before)
    env.step(CHOOSE_BASE + 5)  # still the same position: choosing works


def test_illegal_reward_option_terminates_instead() -> None:
    env = mizerka_v0.env(illegal_reward=-1.0)
    env.reset(seed=2)
    offender = env.agent_selection
    env.step(DONE)  # 'done' in the choose phase
    assert all(env.terminations.values())
    assert env.rewards[offender] == -1.0


def test_exchange_is_blind_and_takes_several_steps() -> None:
    env = mizerka_v0.env()
    env.reset(seed=9)
    env.step(CHOOSE_BASE + 4)
    agent = env.agent_selection
    obs = env.observe(agent)
    discard_ids = [a for a in np.flatnonzero(obs["action_mask"]) if 52 <= a < 104]
    env.step(int(discard_ids[0]))
    assert env.agent_selection == agent  # still exchanging: marks change nothing for the others
    env.step(DONE)
    assert env.agent_selection != agent


def test_render_ansi_shows_only_public_information() -> None:
    env = mizerka_v0.env(render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert "choose phase" in text and "hand" not in text
    seat_env = mizerka_v0.env(render_mode="ansi", render_seat=0)
    seat_env.reset(seed=1)
    assert "hand" in seat_env.render()


def test_bad_arguments() -> None:
    with pytest.raises(RulesError):
        mizerka_v0.env(variant="four-players")
    with pytest.raises(ValueError, match="mode"):
        mizerka_v0.env(mode="tournament")
    with pytest.raises(ValueError, match="render_mode"):
        mizerka_v0.env(render_mode="rgb_array")


@pytest.mark.filterwarnings("ignore:variant .* not zero-sum")
@pytest.mark.parametrize("variant", ["seed002-literal", "standard,quota_ordinary=7/5/2"])
def test_variants_that_are_not_zero_sum_with_13_tricks_are_refused(variant: str) -> None:
    with pytest.raises(RulesError, match="zero-sum variant of 13 tricks"):
        mizerka_v0.env(variant=variant)
    with pytest.raises(RulesError, match="zero-sum"):
        mizerka_v0.raw_env(variant=variant)


@pytest.mark.parametrize("bad", [111, -1, 2.5, "3", True])
def test_illegal_reward_option_still_refuses_values_that_are_no_id(bad: object) -> None:
    env = mizerka_v0.env(illegal_reward=-1.0)
    env.reset(seed=2)
    mover = env.agent_selection
    before = env.observe(mover)["observation"].copy()
    with pytest.raises(ActionOutOfRangeError):
        env.step(bad)
    assert not any(env.terminations.values()) and not any(env.truncations.values())
    assert env.agent_selection == mover and all(r == 0.0 for r in env.rewards.values())
    assert np.array_equal(env.observe(mover)["observation"], before)
    env.step(np.int64(DONE))  # an id in range outside the mask still ends the game with the penalty
    assert all(env.terminations.values())
    assert env.rewards[mover] == -1.0
    for _agent in env.agent_iter():  # the dead agents' steps (None) pass through
        env.step(None)
    assert not env.agents


def test_numpy_integer_seeds_are_accepted() -> None:
    env = mizerka_v0.env()
    env.reset(seed=np.int64(3))
    from_numpy = (env.agent_selection, env.observe(env.agent_selection)["observation"].copy())
    env.reset(seed=3)
    assert env.agent_selection == from_numpy[0]
    assert np.array_equal(env.observe(env.agent_selection)["observation"], from_numpy[1])


@pytest.mark.parametrize("seed", [[1], 2.5, "abc", True])
def test_bad_seeds_are_refused(seed: object) -> None:
    env = mizerka_v0.env()
    with pytest.raises(ValueError, match="seed"):
        env.reset(seed=seed)


def test_the_variants_first_dealer_is_honoured_in_deal_mode() -> None:
    env = mizerka_v0.raw_env(variant="standard,first_dealer=0")
    for seed in range(8):
        env.reset(seed=seed)
        assert env.table.deal.dealer == 0
    lot = mizerka_v0.raw_env()
    dealers = set()
    for seed in range(8):
        lot.reset(seed=seed)
        dealers.add(lot.table.deal.dealer)
    assert len(dealers) > 1  # without the option the dealer is still drawn from the seed


def test_render_seat_must_be_a_seat_number() -> None:
    for bad in (1.0, True, 3, "0"):
        with pytest.raises(ValueError, match="render_seat"):
            mizerka_v0.env(render_mode="ansi", render_seat=bad)
    env = mizerka_v0.env(render_mode="ansi", render_seat=np.int64(1))
    env.reset(seed=1)
    assert "hand" in env.render()


@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
def test_max_cycles_truncates_the_episode_as_pettingzoo_counts_cycles() -> None:
    """``pettingzoo.make(..., max_cycles=N)`` passes ``max_cycles`` to the environment (it used to fail with a
    ``TypeError``): after N cycles of three steps every agent is truncated, not terminated, and leaves with a dead
    step; a deal that ends first ends as always.  A ``max_cycles`` that is no whole number from 1 is refused."""
    import pettingzoo

    api_test(mizerka_v0.env(max_cycles=4), num_cycles=50)
    env = pettingzoo.make("aec", "mizerka/mizerka-v0", max_cycles=4) if hasattr(pettingzoo, "make") \
        else mizerka_v0.env(max_cycles=4)
    env.reset(seed=3)
    steps, ends = 0, {}
    for agent in env.agent_iter():
        obs, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            ends[agent] = (terminated, truncated)
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        steps += 1
    assert steps == 12 and ends == dict.fromkeys(env.possible_agents, (False, True))
    env.reset(seed=3)  # a new episode counts its cycles afresh
    assert not any(env.truncations.values()) and env.agents == env.possible_agents

    whole = mizerka_v0.env(max_cycles=1000)
    _returns, deal_scores = _play_random(whole, 5)
    assert len(deal_scores) == 1 and not any(whole.truncations.values())
    for bad in (0, -3, 2.5, "10", True):
        with pytest.raises(ValueError, match="max_cycles"):
            mizerka_v0.env(max_cycles=bad)
