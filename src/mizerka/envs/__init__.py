"""Reinforcement-learning environments for Mizerka (the ``rl`` and ``openspiel`` extras).

* :mod:`mizerka.envs.pettingzoo`: the AEC environment ``mizerka_v0`` for three learning agents;
* :mod:`mizerka.envs.gymnasium`: ``MizerkaSolo-v0``, one agent against two bots;
* :mod:`mizerka.envs.openspiel`: the OpenSpiel game ``mizerka``;
* :mod:`mizerka.envs.encoding`: the action ids and the observation tensor they all share.

Nothing is imported here, so that ``import mizerka.envs`` needs none of the optional packages.
See ``docs/envs.md`` for the spaces, the observation layout, the rewards and the version history.
"""
