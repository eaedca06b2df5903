"""Train a small policy for Mizerka with REINFORCE on the CPU, then measure it against the random and rules bots.

An example of using ``MizerkaSolo-v0`` (``pip install 'mizerka[rl]'``); it needs only NumPy.  The policy is a
linear softmax over the 111 action ids, restricted to the action mask:

    logits = W · observation + b,   π(a | s) ∝ exp(logits[a]) over the legal a

and REINFORCE (Williams, 1992) with a running-mean baseline nudges it towards the actions of deals that scored
above average.  Training plays single deals against two random bots, in a random seat, for ``--minutes``.

Evaluation plays ``--eval-deals`` fresh deals against each opponent level, for the trained policy and for the
untrained (uniform random) one, and reports:

* the win rate: the share of deals in which the agent's score is the table's highest (a tie for the highest
  counts as a fraction, 1/2 or 1/3), with a 95% confidence interval (normal approximation);
* the mean deal score, with its 95% confidence interval.

This is an example, not a test: the figures depend on the time given and on the machine.

    python examples/train_reinforce.py [--minutes 3] [--eval-deals 400] [--seed 0]
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from mizerka.envs.encoding import N_ACTIONS, OBSERVATION_SIZE
from mizerka.envs.gymnasium import MizerkaSoloEnv


class LinearPolicy:
    """A masked softmax over ``W · x + b``."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.weights = np.zeros((N_ACTIONS, OBSERVATION_SIZE), np.float64)
        self.bias = np.zeros(N_ACTIONS, np.float64)
        self.rng = rng

    def probabilities(self, x: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> npt.NDArray[np.float64]:
        logits = self.weights @ x + self.bias
        logits = np.where(mask.astype(bool), logits, -np.inf)
        logits -= logits.max()
        p = np.exp(logits)
        return np.asarray(p / p.sum(), dtype=np.float64)

    def act(self, obs: dict[str, Any], greedy: bool = False) -> tuple[int, npt.NDArray[np.float64]]:
        p = self.probabilities(obs["observation"], obs["action_mask"])
        action = int(np.argmax(p)) if greedy else int(self.rng.choice(N_ACTIONS, p=p))
        return action, p


def train(policy: LinearPolicy, minutes: float, seed: int, learning_rate: float) -> dict[str, Any]:
    env = MizerkaSoloEnv(opponents="random")
    deadline = time.monotonic() + 60.0 * minutes
    baseline = 0.0
    episodes = 0
    recent: list[float] = []
    while time.monotonic() < deadline:
        obs, _ = env.reset(seed=seed * 1_000_003 + episodes)
        trajectory: list[tuple[npt.NDArray[np.float32], int, npt.NDArray[np.float64]]] = []
        total = 0.0
        done = False
        while not done:
            action, p = policy.act(obs)
            trajectory.append((obs["observation"], action, p))
            obs, reward, terminated, truncated, _ = env.step(action)
            total += float(reward)
            done = terminated or truncated
        advantage = total - baseline
        baseline += 0.01 * (total - baseline)
        for x, action, p in trajectory:  # ∇ log π(a|s) = (onehot(a) − π) ⊗ x for a linear softmax
            grad = -p
            grad[action] += 1.0
            policy.weights += learning_rate * advantage * np.outer(grad, x)
            policy.bias += learning_rate * advantage * grad
        recent.append(total)
        episodes += 1
    return {"episodes": episodes, "mean_score_last_500": statistics.fmean(recent[-500:]) if recent else None}


def interval(values: list[float]) -> tuple[float, float, float]:
    """Mean and a 95% normal-approximation confidence interval."""
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else float("nan")
    return mean, mean - half, mean + half


def wilson(rate: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """A 95% Wilson score interval for a rate observed over *n* deals.  Unlike the normal approximation it does not
    collapse to a point when every deal went the same way: no win in 10 deals still allows a rate up to 0.28.

    >>> [round(x, 3) for x in wilson(0.0, 10)]
    [0.0, 0.278]
    """
    centre = (rate + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(rate * (1 - rate) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def evaluate(policy: LinearPolicy | None, opponents: str, deals: int, seed: int) -> dict[str, Any]:
    env = MizerkaSoloEnv(opponents=opponents)
    rng = np.random.default_rng(seed)
    wins: list[float] = []
    scores: list[float] = []
    for episode in range(deals):
        obs, _ = env.reset(seed=10_000_019 * (seed + 1) + episode)
        done = False
        while not done:
            if policy is None:
                action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            else:
                action, _ = policy.act(obs, greedy=True)
            obs, _, terminated, truncated, _ = env.step(action)
            done = terminated or truncated
        table_scores = env.table.deal.scores()
        mine = table_scores[env.seat]
        best = max(table_scores)
        wins.append(1.0 / table_scores.count(best) if mine == best else 0.0)
        scores.append(float(mine))
    win = statistics.fmean(wins)
    win_low, win_high = wilson(win, len(wins))  # within 0-1, and never of zero width
    score, score_low, score_high = interval(scores)
    return {
        "opponents": opponents,
        "deals": deals,
        "win_rate": round(win, 3),
        "win_rate_ci95": [round(win_low, 3), round(win_high, 3)],
        "mean_score": round(score, 2),
        "mean_score_ci95": [round(score_low, 2), round(score_high, 2)],
    }


def positive_float(text: str) -> float:
    """An argparse type: a finite number above zero (``nan``, ``inf``, zero and negatives are refused)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value) or value <= 0.0:
        raise argparse.ArgumentTypeError(f"{text!r} must be a finite number above 0")
    return value


def whole_number(least: int, too_small: str) -> Callable[[str], int]:
    """An argparse type: a whole number of at least *least*; *too_small* is the refusal's reason after the text.

    >>> whole_number(2, "is too few: evaluate at least 2 deals")("1")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: '1' is too few: evaluate at least 2 deals
    """
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"{text!r} {too_small}")
        return value
    return parse


at_least_two = whole_number(2, "is too few: evaluate at least 2 deals")
"""A number of deals: a confidence interval needs two samples."""
non_negative_int = whole_number(0, "must be 0 or more")
"""A seed."""


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Parse the arguments (bad ones: a usage message and exit status 2), train, evaluate, print the results."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=positive_float, default=3.0, help="training time, above 0 (default 3)")
    parser.add_argument(
        "--eval-deals", type=at_least_two, default=400, help="deals per evaluation, at least 2 (default 400)"
    )
    parser.add_argument("--seed", type=non_negative_int, default=0, help="random seed, 0 or more (default 0)")
    parser.add_argument(
        "--learning-rate", type=positive_float, default=0.002, help="step size, a finite number above 0 (default 0.002)"
    )
    args = parser.parse_args(argv)

    policy = LinearPolicy(np.random.default_rng(args.seed))
    training = train(policy, args.minutes, args.seed, args.learning_rate)
    print(f"trained for {args.minutes} min: {training['episodes']} deals against two random bots")
    results: dict[str, Any] = {"training": training, "trained": [], "untrained": []}
    for opponents in ("random", "rules"):
        for label, who in (("trained", policy), ("untrained", None)):
            result = evaluate(who, opponents, args.eval_deals, args.seed + 1)
            results[label].append(result)
            print(
                f"{label:>9} vs {opponents:<6}: win rate {result['win_rate']:.3f} "
                f"(95% CI {result['win_rate_ci95'][0]:.3f}-{result['win_rate_ci95'][1]:.3f}), "
                f"mean score {result['mean_score']:+.2f} "
                f"(95% CI {result['mean_score_ci95'][0]:+.2f} to {result['mean_score_ci95'][1]:+.2f})"
            )
    print(json.dumps(results))
    return results


if __name__ == "__main__":
    main()
