"""PettingZoo environments for Mizerka (the ``rl`` extra).

``mizerka_v0`` is the turn-based (AEC) environment, laid out like PettingZoo's own classic games::

    from mizerka.envs.pettingzoo import mizerka_v0
    env = mizerka_v0.env()

Importing this package also registers it as ``"mizerka/mizerka-v0"`` in PettingZoo's registry (PettingZoo ≥ 1.27):
``pettingzoo.make("aec", "mizerka/mizerka-v0")``.
"""

from mizerka.envs.pettingzoo import mizerka_v0

__all__ = ["mizerka_v0"]
