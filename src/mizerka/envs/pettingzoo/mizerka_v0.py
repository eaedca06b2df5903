"""Mizerka as a PettingZoo AEC environment: ``mizerka_v0``, three agents taking turns.

===================  ====================================================================
Import               ``from mizerka.envs.pettingzoo import mizerka_v0``, then ``mizerka_v0.env()``
Registry id          ``pettingzoo.make("aec", "mizerka/mizerka-v0")`` (PettingZoo ≥ 1.27)
Actions              ``Discrete(111)``
Parallel API         no (turn-based)
Agents               ``player_0``, ``player_1``, ``player_2`` (the seats)
Observation          ``Dict(observation=Box(-1, 1, (647,), float32), action_mask=Box(0, 1, (111,), int8))``
Render modes         ``"ansi"`` (returns the text), ``"human"`` (prints it)
===================  ====================================================================

The action ids and the observation layout are those of :mod:`mizerka.envs.encoding`.  The agent to move comes
from the rules (the trick's winner leads), not from a fixed rotation.  The exchange takes several steps of the same
agent: discard marks, then ``done``.

Rewards: when a deal ends, every agent receives its score for the deal (tricks − quota, or quota − tricks in
Mizerka).  ``mode="deal"`` (default) ends the episode after one deal; ``mode="match"`` plays the whole match (18
deals), each deal paying its scores as it ends, so the return is the match total.

Illegal actions: the raw environment raises :class:`~mizerka.envs.encoding.IllegalEnvActionError` (or
:class:`~mizerka.envs.encoding.ActionOutOfRangeError`) and changes nothing.  ``env(illegal_reward=-1.0)`` instead
wraps it in PettingZoo's ``TerminateIllegalWrapper``, which ends the game with that reward for the offender when
it plays an id 0–110 outside the mask; a value that is no id 0–110 at all still raises
:class:`~mizerka.envs.encoding.ActionOutOfRangeError` and changes nothing.

>>> from mizerka.envs.pettingzoo import mizerka_v0
>>> env = mizerka_v0.env()
>>> env.reset(seed=3)
>>> obs, reward, terminated, truncated, info = env.last()
>>> env.agent_selection, obs["observation"].shape, int(obs["action_mask"].sum())
('player_1', (647,), 6)

Version history:

* ``v0``: first release.
"""

from __future__ import annotations

import random
from typing import Any, Final, Literal

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from mizerka.envs.encoding import N_ACTIONS, OBSERVATION_SIZE, IllegalEnvActionError, check_action_id
from mizerka.envs.table import Mode, Table, check_options, check_reward, check_seed, seeded_random, whole_number
from mizerka.rules import Rules

__all__ = ["ENV_ID", "MizerkaEnv", "UnknownAgentError", "UnknownArgumentError", "env", "raw_env"]

ENV_ID: Final = "mizerka/mizerka-v0"

ObsDict = dict[str, npt.NDArray[Any]]


def _new_seed() -> int:
    return random.SystemRandom().randrange(1 << 62)


class UnknownAgentError(KeyError, ValueError):
    """An agent name that is not ``player_0``, ``player_1`` or ``player_2`` (a ``KeyError``, as PettingZoo's own
    games raise, and a ``ValueError``, as all of this package's bad input does)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class UnknownArgumentError(TypeError, ValueError):
    """A keyword :func:`env` or :func:`raw_env` does not take (a ``TypeError``, as Python raises for an unexpected
    keyword, and a ``ValueError``, as all of this package's bad input does)."""


class MizerkaEnv(AECEnv[str, ObsDict, int], EzPickle):  # type: ignore[misc]
    """The AEC environment.  Build it with :func:`env` (with PettingZoo's order checks) or :func:`raw_env`.

    Args:
        variant: a three-seat variant spec (``"standard"``, ``"no-exchange"``, ``"standard,show_trump_card"``) or a
            :class:`~mizerka.rules.Rules`.
        mode: ``"deal"`` (one deal per episode) or ``"match"`` (a whole match).
        render_mode: ``"ansi"`` (:meth:`render` returns the text), ``"human"`` (the text is printed after every
            reset and step, and :meth:`render` prints it and returns ``None``) or ``None``.
        render_seat: whose hand :meth:`render` shows (default ``None``: public information only).
        max_cycles: truncate the episode after this many cycles, a cycle being as many steps as there are agents
            (three), as PettingZoo counts them (``pettingzoo.make(..., max_cycles=N)`` passes it); default ``None``:
            never (a deal ends by itself within 56 steps, a match within 18 times that).

    Raises:
        RulesError: for an unknown variant, one that does not seat three, or one that is not zero-sum with 13 tricks.
        ValueError: for an unknown mode, render mode or render seat, or a ``max_cycles`` that is not a whole number
            from 1.
    """

    metadata: Final = {
        "render_modes": ["ansi", "human"],
        "name": "mizerka_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        variant: str | Rules = "standard",
        mode: Mode = "deal",
        render_mode: Literal["ansi", "human"] | None = None,
        render_seat: int | None = None,
        max_cycles: int | None = None,
    ) -> None:
        EzPickle.__init__(self, variant, mode, render_mode, render_seat, max_cycles)
        super().__init__()
        cycles = None if max_cycles is None else whole_number(max_cycles)
        if max_cycles is not None and (cycles is None or cycles < 1):
            raise ValueError(f"max_cycles must be a whole number from 1, or None, not {max_cycles!r}")
        self.max_cycles = cycles
        self._steps = 0  # steps of the episode so far, for max_cycles
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode must be 'ansi', 'human' or None, not {render_mode!r}")
        seat = None if render_seat is None else whole_number(render_seat)
        if render_seat is not None and seat not in (0, 1, 2):
            raise ValueError(f"render_seat must be 0, 1, 2 or None, not {render_seat!r}")
        self.render_mode = render_mode
        self.render_seat = seat
        self.table = Table(variant, mode=mode, seed=0)
        self.possible_agents = [f"player_{i}" for i in range(3)]
        self.agents = list(self.possible_agents)
        self._seat = {agent: i for i, agent in enumerate(self.possible_agents)}
        observation_space = spaces.Dict(
            {
                "observation": spaces.Box(-1.0, 1.0, (OBSERVATION_SIZE,), np.float32),
                "action_mask": spaces.Box(0, 1, (N_ACTIONS,), np.int8),
            }
        )
        self.observation_spaces = {a: observation_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(N_ACTIONS) for a in self.possible_agents}
        self._rng: random.Random | None = None
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.table.to_move]

    def _seat_of(self, agent: str) -> int:
        try:
            return self._seat[agent]
        except (KeyError, TypeError):
            raise UnknownAgentError(
                f"unknown agent {agent!r}: the agents are {', '.join(self.possible_agents)}"
            ) from None

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        self._seat_of(agent)  # an unknown agent: UnknownAgentError, naming the agents
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        self._seat_of(agent)  # an unknown agent: UnknownAgentError, naming the agents
        return self.action_spaces[agent]

    def __str__(self) -> str:
        return "mizerka_v0"

    # -- copying ----------------------------------------------------------------------------------

    def __getstate__(self) -> dict[str, Any]:
        """The whole environment, mid-episode included, for ``copy.deepcopy`` and ``pickle``.

        ``EzPickle``'s own state is only the constructor's arguments, from which it would build a fresh, unreset
        environment: a copy of a game in progress (for a search that plays ahead, or to send to another process)
        would silently have lost the game.
        """
        return self.__dict__.copy()

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    # -- the AEC protocol -------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new episode.  The same *seed* gives the same deck orders and dealer; ``seed=None`` continues
        the stream of the last seed (or starts one from the system's entropy).  *options* are accepted and ignored
        (the environment has none; PettingZoo's ``api_test`` passes a dict with an arbitrary key).

        Raises:
            ValueError: for a seed that is not an integer (NumPy integers are accepted) or ``None``, or options
                that are not a dict or ``None``; nothing changes.
        """
        checked = check_seed(seed)
        check_options(options)
        if checked is not None:
            self._rng = seeded_random(checked)
        elif self._rng is None:
            self._rng = random.Random(_new_seed())
        self.table.reset(self._rng.randrange(1 << 62))
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.table.to_move]
        self._steps = 0
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> ObsDict:
        seat = self._seat_of(agent)
        mask = self.table.mask(seat)
        # an agent whose episode ended early (truncated at max_cycles, or terminated by an illegal move under
        # ``illegal_reward``) may take no action but None, though its deal is still in play: its mask is all zero
        if self.terminations.get(agent) or self.truncations.get(agent):
            mask[:] = 0
        return {"observation": self.table.tensor(seat), "action_mask": mask}

    def step(self, action: Any) -> None:
        """Apply *action* (an id 0–110) for :attr:`agent_selection`.

        Raises:
            ActionOutOfRangeError: for anything but an integer id 0–110.
            IllegalEnvActionError: for an id the rules forbid now (see the action mask), anything but ``None``
                from an agent whose episode is over, or any step (``None`` too) once every agent has left (the
                dead steps are done: call :meth:`reset`); nothing changes.
        """
        agent = self.agent_selection
        if agent not in self.terminations:  # every agent has left (PettingZoo's order wrapper warns first)
            raise IllegalEnvActionError(
                f"illegal action {action!r}: the episode is over and every agent has left; call reset()"
            )
        if self.terminations[agent] or self.truncations[agent]:
            _check_dead_step(agent, self.terminations[agent], action)
            self._was_dead_step(action)
            return
        table = self.table
        table.step(action)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        scores = table.last_scores
        if scores is not None:
            for i, a in enumerate(self.possible_agents):
                self.rewards[a] = float(scores[i])
        # an info lasts until its agent acts again, like its accumulated reward: every agent reads a deal's
        # scores at its next turn (``last()``), not only the one that moves next
        self.infos[agent] = {}
        if scores is not None:
            for a in self.agents:
                self.infos[a] = {"deal_scores": list(scores)}
        self._steps += 1
        if table.is_over():
            for a in self.agents:
                self.terminations[a] = True
        else:
            self.agent_selection = self.possible_agents[table.to_move]
            if self.max_cycles is not None and self._steps >= self.max_cycles * len(self.possible_agents):
                for a in self.agents:
                    self.truncations[a] = True
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The table as text: public information plus ``render_seat``'s hand.  ``render_mode="ansi"`` returns it,
        ``"human"`` prints it and returns ``None``."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi' or 'human'")
            return None
        text = self.table.render(self.render_seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def state(self) -> npt.NDArray[np.float32]:
        """Not provided: a global state would reveal every hand; train from the observations."""
        raise NotImplementedError("mizerka_v0 has no global state (it would reveal the hidden cards)")

    def close(self) -> None:
        pass


def _check_dead_step(agent: str, terminated: bool, action: object) -> None:
    """Refuse an action from an agent whose episode is over: its only step is ``None`` (PettingZoo's dead step).

    Raises:
        IllegalEnvActionError: for anything but ``None`` (PettingZoo's own check raises a plain ``ValueError``).
    """
    if action is not None:
        how = "terminated" if terminated else "truncated"
        raise IllegalEnvActionError(
            f"illegal action {action!r} for {agent}: the episode is over ({how}); its only step is None, then reset()"
        )


_ARGUMENTS: Final = ("variant", "mode", "render_mode", "render_seat", "max_cycles")
"""The keywords :class:`MizerkaEnv` takes (its whole signature; a test keeps the two the same)."""


def raw_env(**kwargs: Any) -> MizerkaEnv:
    """The environment without wrappers (see :class:`MizerkaEnv` for the arguments).

    Raises:
        UnknownArgumentError: for a keyword the environment does not take (a misspelt ``render_mode``, say), which
            is named with the keywords it does take; and as :class:`MizerkaEnv` says.
    """
    unknown = [name for name in kwargs if name not in _ARGUMENTS]
    if unknown:
        raise UnknownArgumentError(f"mizerka_v0 takes no argument {unknown[0]!r}; its arguments are "
                                   f"{', '.join(_ARGUMENTS)} (and illegal_reward in env())")
    return MizerkaEnv(**kwargs)


class _ActionIdCheck(wrappers.BaseWrapper):  # type: ignore[misc]
    """Refuses a value that is no action id 0–110 before the wrapped ``TerminateIllegalWrapper`` sees it.

    That wrapper indexes the action mask with the action, so without this check ``111`` or ``2.5`` would fail with an
    ``IndexError`` and ``-1`` would be read as id 110.  A dead agent's step (``None``) passes through.
    """

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if agent in self.terminations and (self.terminations[agent] or self.truncations.get(agent, False)):
            _check_dead_step(agent, self.terminations[agent], action)
        elif agent in self.terminations:
            action = check_action_id(action)  # ActionOutOfRangeError; nothing changes
        super().step(action)


def env(*, illegal_reward: float | None = None, **kwargs: Any) -> AECEnv[str, ObsDict, int]:
    """The environment in PettingZoo's ``OrderEnforcingWrapper`` (errors for stepping before ``reset``).

    Args:
        illegal_reward: if given, an id 0–110 outside the action mask ends the game with this reward for the
            offender (PettingZoo's ``TerminateIllegalWrapper``) instead of raising; a value that is no id 0–110
            still raises :class:`~mizerka.envs.encoding.ActionOutOfRangeError`.
        **kwargs: passed to :class:`MizerkaEnv`.

    Raises:
        ValueError: for an ``illegal_reward`` that is not a finite number (``None`` aside), and as
            :func:`raw_env` and :class:`MizerkaEnv` say.
    """
    reward = None if illegal_reward is None else check_reward(illegal_reward, "illegal_reward")
    environment: AECEnv[str, ObsDict, int] = raw_env(**kwargs)
    if reward is not None:
        environment = wrappers.TerminateIllegalWrapper(environment, illegal_reward=reward)
        environment = _ActionIdCheck(environment)
    return wrappers.OrderEnforcingWrapper(environment)


def _register() -> None:
    import pettingzoo

    register = getattr(pettingzoo, "register", None)
    if register is None:  # PettingZoo < 1.27 has no registry
        return
    registry = getattr(pettingzoo, "aec_registry", {})
    if ENV_ID not in registry:
        register("aec", ENV_ID, entry_point="mizerka.envs.pettingzoo.mizerka_v0:env")


_register()
