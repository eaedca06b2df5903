"""Benchmark of the RL environments, side by side with OpenSpiel's hearts from Python, on a single core.

An *environment step* is what a learning loop pays for one decision: read the observation tensor and the action
mask of the agent to move, pick a random legal action, apply it.

* PettingZoo: ``mizerka_v0.env()`` (with PettingZoo's order-enforcing wrapper), single deals, driven by
  ``agent_iter()`` / ``last()`` / ``step()``; each step's observation is the ``{"observation", "action_mask"}`` dict;
* Gymnasium: ``MizerkaSoloEnv(opponents="random")``, single deals; one step is the agent's action plus the two
  bots' replies up to its next turn (the ``rules`` opponents are measured too, for information);
* the anchor, in the same run: OpenSpiel's C++ hearts driven from Python with ``pyspiel``: per decision,
  ``information_state_tensor(player)`` as a ``float32`` array (hearts has no observation tensor),
  ``legal_actions()`` and ``apply_action``, chance outcomes sampled.  For context the bare loop without the tensor
  and OpenSpiel's own Python ``rl_environment.Environment("hearts")`` are reported as well.

Target: PettingZoo and Gymnasium steps/s >= 0.5 x the anchor (hearts with its tensor).  Figures are medians over
interleaved repeats; the machine is shared and noisy.  The last line is one JSON object.

    python benchmarks/envs.py [--seconds 1.0] [--repeats 5]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from mizerka.envs.gymnasium import MizerkaSoloEnv
from mizerka.envs.pettingzoo import mizerka_v0

TARGET_RATIO = 0.5


def rate(step: Callable[[], int], seconds: float) -> float:
    """Units per second of *step* (which returns how many units it did), run for about *seconds*."""
    done = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        done += step()
        now = time.perf_counter()
        if now >= deadline:
            return done / (now - start)


def pettingzoo_step(seed: int) -> Callable[[], int]:
    env = mizerka_v0.env()
    rng = random.Random(seed)
    episode = [seed]

    def step() -> int:
        episode[0] += 1
        env.reset(seed=episode[0])
        steps = 0
        for _ in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
        return steps

    return step


def gymnasium_step(seed: int, opponents: str) -> Callable[[], int]:
    env = MizerkaSoloEnv(opponents=opponents)
    rng = random.Random(seed)
    episode = [seed]

    def step() -> int:
        episode[0] += 1
        obs, _ = env.reset(seed=episode[0])
        steps = 0
        done = False
        while not done:
            legal = np.flatnonzero(obs["action_mask"])
            obs, _, terminated, truncated, _ = env.step(int(legal[rng.randrange(len(legal))]))
            done = terminated or truncated
            steps += 1
        return steps

    return step


def hearts_step(seed: int, with_tensor: bool) -> Callable[[], int] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("hearts")
    rng = random.Random(seed)

    def step() -> int:
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            if with_tensor:
                np.asarray(state.information_state_tensor(state.current_player()), dtype=np.float32)
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            steps += 1
        return steps

    return step


def hearts_rl_environment_step(seed: int) -> Callable[[], int] | None:
    try:
        from open_spiel.python import rl_environment
    except ImportError:
        return None
    env = rl_environment.Environment("hearts")
    rng = random.Random(seed)

    def step() -> int:
        time_step = env.reset()
        steps = 0
        while not time_step.last():
            player = time_step.observations["current_player"]
            legal = time_step.observations["legal_actions"][player]
            time_step = env.step([legal[rng.randrange(len(legal))]])
            steps += 1
        return steps

    return step


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="seconds per measurement (default 1.0)")
    parser.add_argument("--repeats", type=int, default=5, help="interleaved repeats (default 5)")
    args = parser.parse_args(argv)

    candidates: dict[str, Callable[[], int] | None] = {
        "pettingzoo": pettingzoo_step(1),
        "gymnasium_random_opponents": gymnasium_step(2, "random"),
        "gymnasium_rules_opponents": gymnasium_step(3, "rules"),
        "openspiel_hearts_with_tensor": hearts_step(4, with_tensor=True),
        "openspiel_hearts_bare": hearts_step(5, with_tensor=False),
        "openspiel_hearts_rl_environment": hearts_rl_environment_step(6),
    }
    measures = {name: fn for name, fn in candidates.items() if fn is not None}
    runs: dict[str, list[float]] = {name: [] for name in measures}
    for _ in range(args.repeats):
        for name, fn in measures.items():
            runs[name].append(rate(fn, args.seconds))
    medians = {name: statistics.median(values) for name, values in runs.items()}

    result: dict[str, Any] = {
        "benchmark": "envs",
        "unit": "environment steps per second (one decision: observation + mask + action)",
        "target_ratio": TARGET_RATIO,
        "repeats": args.repeats,
        "seconds_per_run": args.seconds,
        "python": platform.python_version(),
    }
    for name, value in medians.items():
        result[f"{name}_steps_per_s"] = round(value, 1)
        result[f"{name}_steps_per_s_runs"] = [round(v, 1) for v in runs[name]]
        print(f"{name:<36} {value:>10,.0f} steps/s", [round(v) for v in runs[name]])
    anchor = medians.get("openspiel_hearts_with_tensor")
    if anchor:
        ratios = {
            "pettingzoo": medians["pettingzoo"] / anchor,
            "gymnasium": medians["gymnasium_random_opponents"] / anchor,
        }
        for name, ratio in ratios.items():
            result[f"ratio_{name}_vs_openspiel_hearts"] = round(ratio, 3)
            print(f"ratio {name} / OpenSpiel hearts (with tensor): {ratio:.2f} (target >= {TARGET_RATIO})")
        bare = medians["openspiel_hearts_bare"]
        result["ratio_pettingzoo_vs_openspiel_hearts_bare"] = round(medians["pettingzoo"] / bare, 3)
        result["meets_target"] = all(r >= TARGET_RATIO for r in ratios.values())
    else:
        result["meets_target"] = None
        print("OpenSpiel not installed (pip install -e '.[openspiel]'): no anchor figure, no ratio", file=sys.stderr)
    print(json.dumps(result))
    return result


if __name__ == "__main__":
    main()
