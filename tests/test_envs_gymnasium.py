"""The Gymnasium environment MizerkaSolo-v0: one agent against two bots."""

from __future__ import annotations

import pytest

gymnasium = pytest.importorskip("gymnasium", reason="the rl extra (gymnasium) is not installed")
np = pytest.importorskip("numpy")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import mizerka.envs.gymnasium  # noqa: E402, F401  (registers MizerkaSolo-v0)
from mizerka.bots import UnknownBotError  # noqa: E402
from mizerka.envs.encoding import CHOOSE_BASE, ActionOutOfRangeError, EnvActionError, IllegalEnvActionError  # noqa: E402
from mizerka.envs.gymnasium import MizerkaSoloEnv  # noqa: E402
from mizerka.rules import RulesError  # noqa: E402


@pytest.mark.parametrize(("opponents", "mode"), [("rules", "deal"), ("random", "match")])
def test_check_env(opponents: str, mode: str) -> None:
    env = gymnasium.make("MizerkaSolo-v0", opponents=opponents, mode=mode, render_mode="ansi")
    check_env(env.unwrapped)


def _episode(env: MizerkaSoloEnv, seed: int) -> tuple[float, list[int]]:
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total, actions = 0.0, []
    done = False
    while not done:
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        actions.append(action)
        obs, reward, terminated, truncated, _info = env.step(action)
        total += float(reward)
        done = terminated or truncated
    return total, actions


def test_the_return_is_the_agents_deal_score() -> None:
    env = MizerkaSoloEnv(opponents="rules")
    total, _ = _episode(env, 4)
    deal = env.table.deal
    assert total == deal.scores()[env.seat]


def test_a_match_returns_the_match_total() -> None:
    env = MizerkaSoloEnv(opponents="random", mode="match", seat=2)
    total, _ = _episode(env, 5)
    assert env.table.match.is_over()
    assert total == env.table.match.totals[2]


def test_same_seed_same_episode() -> None:
    first = _episode(MizerkaSoloEnv(opponents="rules"), 11)
    second = _episode(MizerkaSoloEnv(opponents="rules"), 11)
    assert first == second


def test_unmasked_illegal_action_is_penalized_not_fatal() -> None:
    env = MizerkaSoloEnv(opponents="random", seat=0)
    obs, _ = env.reset(seed=3)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    after, reward, terminated, truncated, info = env.step(illegal)
    assert reward == -1.0 and not terminated and not truncated
    assert "illegal_action" in info
    assert np.array_equal(after["observation"], obs["observation"])
    for _ in range(200):  # a random agent without the mask still makes progress and never crashes
        obs, reward, terminated, truncated, info = env.step(env.action_space.sample())
        if terminated:
            break


def test_illegal_action_policies() -> None:
    env = MizerkaSoloEnv(illegal_action="terminate", illegal_reward=-5.0, seat=1)
    obs, _ = env.reset(seed=3)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, terminated, _, _ = env.step(illegal)
    assert terminated and reward == -5.0
    with pytest.raises(EnvActionError, match="reset"):
        env.step(CHOOSE_BASE)
    strict = MizerkaSoloEnv(illegal_action="raise", seat=1)
    obs, _ = strict.reset(seed=3)
    with pytest.raises(IllegalEnvActionError):
        strict.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    with pytest.raises(ActionOutOfRangeError):
        strict.step(111)


def test_bad_arguments() -> None:
    with pytest.raises(UnknownBotError):
        MizerkaSoloEnv(opponents="grandmaster")
    with pytest.raises(ValueError, match="seat"):
        MizerkaSoloEnv(seat=3)
    with pytest.raises(ValueError, match="illegal_action"):
        MizerkaSoloEnv(illegal_action="ignore")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="opponents"):
        MizerkaSoloEnv(opponents=["rules"])


@pytest.mark.parametrize("seat", [1.0, True, "1", 3, -1])
def test_a_bad_seat_is_refused_by_the_constructor(seat: object) -> None:
    with pytest.raises(ValueError, match="seat"):
        MizerkaSoloEnv(opponents="random", seat=seat)  # type: ignore[arg-type]


def test_a_numpy_seat_is_accepted() -> None:
    env = MizerkaSoloEnv(opponents="random", seat=np.int64(2))
    _, info = env.reset(seed=0)
    assert info["seat"] == 2 and type(info["seat"]) is int


@pytest.mark.parametrize("opponents", [5, None, ("rules",), ("rules", "rules", "rules")])
def test_bad_opponents_are_refused(opponents: object) -> None:
    with pytest.raises(ValueError, match="opponents"):
        MizerkaSoloEnv(opponents=opponents)  # type: ignore[arg-type]


@pytest.mark.filterwarnings("ignore:variant .* not zero-sum")
@pytest.mark.parametrize("variant", ["seed002-literal", "standard,quota_ordinary=7/5/2"])
def test_variants_that_are_not_zero_sum_with_13_tricks_are_refused(variant: str) -> None:
    with pytest.raises(RulesError, match="zero-sum variant of 13 tricks"):
        MizerkaSoloEnv(opponents="random", variant=variant)
