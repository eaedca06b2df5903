"""Mizerka for one agent against two bots: the Gymnasium environment ``MizerkaSolo-v0``.

Importing this module registers ``MizerkaSolo-v0`` (and ``mizerka/MizerkaSolo-v0``) with Gymnasium::

    import gymnasium as gym
    import mizerka.envs.gymnasium  # noqa: F401  (registers the id)
    env = gym.make("MizerkaSolo-v0", opponents="rules")

The agent takes one seat; the two bots (``"random"``, ``"rules"`` or any level of :func:`mizerka.bots.make_bot`) play
the others, each seeing only its own observation.  Spaces, action ids and the observation are those of
:mod:`mizerka.envs.encoding`: ``Discrete(111)`` actions and a ``Dict`` observation with the flat ``observation``
tensor and the ``action_mask``.

Reward: the agent's score of every deal that ends during the step (0 otherwise).  ``mode="deal"`` (default) is one
deal per episode, ``mode="match"`` a whole match.  The agent's seat is drawn from the seed unless ``seat`` is given.

An illegal action (one outside the mask, as ``env.action_space.sample()`` without the mask gives) is handled as
``illegal_action`` says:

* ``"penalize"`` (default): nothing changes, the reward is ``illegal_reward`` (default ``-1.0``), the episode goes on,
  and ``info["illegal_action"]`` names the reason;
* ``"terminate"``: the episode ends (``terminated=True``) with reward ``illegal_reward``;
* ``"raise"``: :class:`~mizerka.envs.encoding.IllegalEnvActionError` is raised and nothing changes.

A value that is not an id 0–110 at all always raises :class:`~mizerka.envs.encoding.ActionOutOfRangeError`.

>>> env = MizerkaSoloEnv(opponents="random")
>>> obs, info = env.reset(seed=1)
>>> obs["observation"].shape, info["seat"], int(obs["action_mask"].sum()) > 0
((647,), 1, True)
"""

from __future__ import annotations

from typing import Any, Final, Literal, SupportsFloat

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from mizerka.bots import Bot, make_bot
from mizerka.envs.encoding import N_ACTIONS, OBSERVATION_SIZE, EnvActionError, check_action_id
from mizerka.envs.table import Mode, Table, check_options, check_reward, check_seed, whole_number
from mizerka.rules import Rules

__all__ = ["ENV_ID", "MizerkaSoloEnv"]

ENV_ID: Final = "MizerkaSolo-v0"

ObsDict = dict[str, npt.NDArray[Any]]
IllegalPolicy = Literal["penalize", "terminate", "raise"]


class MizerkaSoloEnv(gymnasium.Env[ObsDict, np.int64]):
    """One seat at a Mizerka table, the other two played by bots.

    Args:
        opponents: a bot level for both opponents, or a pair of levels (next seat clockwise first).
        seat: the agent's seat 0–2, or ``None`` to draw it from each reset's seed.
        variant: a three-seat variant spec or :class:`~mizerka.rules.Rules`.
        mode: ``"deal"`` or ``"match"``.
        illegal_action: ``"penalize"``, ``"terminate"`` or ``"raise"`` (see the module's documentation).
        illegal_reward: the reward for an illegal action under ``"penalize"`` and ``"terminate"`` (a finite number).
        render_mode: ``"ansi"`` (:meth:`render` returns the text), ``"human"`` (the text is printed after every
            reset and step; :meth:`render` prints it and returns ``None``) or ``None``.  The picture shows public
            information and the agent's hand.

    Raises:
        UnknownBotError: for an unknown bot level.
        RulesError: for an unknown or four-seat variant, or one that is not zero-sum with 13 tricks.
        ValueError: for a bad seat (not an integer 0–2 or ``None``), opponents (not one level or a pair), mode,
            render mode, illegal-action policy or illegal reward (not a finite number).
    """

    metadata: Final = {"render_modes": ["ansi", "human"], "render_fps": 1}  # type: ignore[misc]

    def __init__(
        self,
        opponents: str | tuple[str, str] | list[str] = "rules",
        seat: int | None = None,
        variant: str | Rules = "standard",
        mode: Mode = "deal",
        illegal_action: IllegalPolicy = "penalize",
        illegal_reward: float = -1.0,
        render_mode: Literal["ansi", "human"] | None = None,
    ) -> None:
        if isinstance(opponents, str):
            levels = [opponents, opponents]
        elif isinstance(opponents, tuple | list) and len(opponents) == 2:
            levels = list(opponents)
        else:
            raise ValueError(f"opponents must be one bot level or two, not {opponents!r}")
        for level in levels:
            make_bot(level)  # raises UnknownBotError early
        self.opponent_levels = (levels[0], levels[1])
        fixed_seat = None if seat is None else whole_number(seat)
        if seat is not None and fixed_seat not in (0, 1, 2):
            raise ValueError(f"seat must be 0, 1, 2 or None, not {seat!r}")
        if illegal_action not in ("penalize", "terminate", "raise"):
            raise ValueError(f"illegal_action must be 'penalize', 'terminate' or 'raise', not {illegal_action!r}")
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode must be 'ansi', 'human' or None, not {render_mode!r}")
        self.illegal_reward = check_reward(illegal_reward, "illegal_reward")
        self.fixed_seat = fixed_seat
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self.table = Table(variant, mode=mode, seed=0)
        self.seat = 0 if fixed_seat is None else fixed_seat
        self.bots: dict[int, Bot] = {}
        self.observation_space = spaces.Dict(  # type: ignore[assignment]
            {
                "observation": spaces.Box(-1.0, 1.0, (OBSERVATION_SIZE,), np.float32),
                "action_mask": spaces.Box(0, 1, (N_ACTIONS,), np.int8),
            }
        )
        self.action_space = spaces.Discrete(N_ACTIONS)
        self._over = True

    def _obs(self) -> ObsDict:
        # an episode that ended early (``illegal_action="terminate"``) leaves a deal in play with legal cards; its
        # mask is all zero all the same, as at a natural end: no action is taken any more
        mask = self.table.mask(self.seat)
        if self._over:
            mask[:] = 0
        return {"observation": self.table.tensor(self.seat), "action_mask": mask}

    def _run_bots(self) -> float:
        """Let the bots move until it is the agent's turn or the episode ends; return the agent's deal scores."""
        reward = 0.0
        table = self.table
        while not table.is_over() and table.to_move != self.seat:
            bot_seat = table.to_move
            decision = self.bots[bot_seat].decide(table.observation(bot_seat))
            table.apply_action(decision.action)
            if table.last_scores is not None:
                reward += table.last_scores[self.seat]
        return reward

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsDict, dict[str, Any]]:
        """Deal anew; the bots move until the agent's first turn.  The same *seed* gives the same episode;
        ``seed=None`` continues the stream of the last seed.  *options* are accepted and ignored (there are none).

        Raises:
            ValueError: for a seed that is not a non-negative integer (NumPy integers are accepted) or ``None``,
                or options that are not a dict or ``None``; nothing changes.
        """
        checked = check_seed(seed, negative=False)
        check_options(options)
        super().reset(seed=checked)
        draw = self.np_random.integers(0, 1 << 62, size=4)
        self.seat = int(draw[0] % 3) if self.fixed_seat is None else self.fixed_seat
        self.table.reset(int(draw[1]))
        others = [(self.seat + 1) % 3, (self.seat + 2) % 3]
        self.bots = {
            others[0]: make_bot(self.opponent_levels[0], seed=int(draw[2])),
            others[1]: make_bot(self.opponent_levels[1], seed=int(draw[3])),
        }
        self._over = False
        self._run_bots()
        if self.render_mode == "human":
            self.render()
        return self._obs(), {"seat": self.seat}

    def step(self, action: Any) -> tuple[ObsDict, SupportsFloat, bool, bool, dict[str, Any]]:
        """Apply the agent's action id and let the bots reply.

        Raises:
            ActionOutOfRangeError: for anything but an integer id 0–110.
            IllegalEnvActionError: for an illegal id when ``illegal_action="raise"``.
            EnvActionError: when stepping after the episode ended (call ``reset``).
        """
        action_id = check_action_id(action)
        if self._over:
            raise EnvActionError("the episode is over (or was never started): call reset()")
        table = self.table
        reason = table.illegal_reason(action_id)
        if reason is not None:
            if self.illegal_action == "raise":
                table.step(action_id)  # raises IllegalEnvActionError with the reason
            info: dict[str, Any] = {"seat": self.seat, "illegal_action": reason}
            terminated = self.illegal_action == "terminate"
            self._over = terminated
            if self.render_mode == "human":
                self.render()
            return self._obs(), self.illegal_reward, terminated, False, info
        table.apply_legal(action_id)
        reward = 0.0
        if table.last_scores is not None:
            reward += table.last_scores[self.seat]
        reward += self._run_bots()
        terminated = table.is_over()
        self._over = terminated
        if self.render_mode == "human":
            self.render()
        return self._obs(), reward, terminated, False, {"seat": self.seat}

    def render(self) -> str | None:
        """The table as text: public information and the agent's own hand.  ``render_mode="ansi"`` returns it,
        ``"human"`` prints it and returns ``None``."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi' or 'human'")
            return None
        text = self.table.render(self.seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text


def _register() -> None:
    for env_id in (ENV_ID, f"mizerka/{ENV_ID}"):
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point="mizerka.envs.gymnasium:MizerkaSoloEnv")


_register()
