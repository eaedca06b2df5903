"""Computer players at five levels, behind one protocol.

>>> from mizerka import Deal
>>> from mizerka.bots import make_bot, Budget, BOT_LEVELS
>>> list(BOT_LEVELS)[:2]
['random', 'rules']
>>> bot = make_bot("rules", seed=1)
>>> deal = Deal.random(5, dealer=2)
>>> decision = bot.decide(deal.observation(deal.to_move))
>>> decision.action in deal.legal_actions
True
>>> sorted(decision.evaluations) == sorted(str(c) for c in deal.allowed_contracts)
True
>>> make_bot("grandmaster")
Traceback (most recent call last):
...
mizerka.bots.base.UnknownBotError: unknown bot 'grandmaster' (expected one of: random, rules...)

A bot sees only an :class:`~mizerka.deal.Observation` (build it with ``Deal.observation(seat)`` or
``Match.observation(seat)``), a :class:`Budget` and an RNG, and answers with a :class:`Decision`.
See ``docs/bots.md`` for the levels, their default budgets and how they are measured.
"""

from __future__ import annotations

import dataclasses
import threading
from typing import Final

from mizerka._checks import whole_number
from mizerka.bots.base import (
    Bot,
    BotError,
    Budget,
    BudgetError,
    Decision,
    NotMyTurnError,
    UnknownBotError,
    exchange_limit,
)
from mizerka.bots.expert import ExpertBot
from mizerka.bots.random_bot import RandomBot
from mizerka.bots.rules_bot import RulesBot
from mizerka.bots.search import ISMCTSBot, PIMCBot
from mizerka.rules import STANDARD, Rules

__all__ = [
    "BOT_LEVELS",
    "SEARCH_LEVELS",
    "Bot",
    "BotError",
    "BotLevel",
    "Budget",
    "BudgetError",
    "Decision",
    "NotMyTurnError",
    "UnknownBotError",
    "exchange_limit",
    "level_name",
    "make_bot",
    "warm_up",
    "warm_up_in_background",
]


@dataclasses.dataclass(frozen=True)
class BotLevel:
    """One level of play: its name, a short badge for user interfaces, its class and default budget."""

    name: str
    badge: str
    description: str
    bot_class: type[Bot]

    @property
    def default_budget(self) -> Budget:
        return self.bot_class.default_budget


def _level(cls: type[Bot]) -> BotLevel:
    return BotLevel(cls.name, cls.badge, cls.description, cls)


BOT_LEVELS: Final[dict[str, BotLevel]] = {
    level.name: level for level in map(_level, (RandomBot, RulesBot, PIMCBot, ISMCTSBot, ExpertBot))
}
"""The levels, weakest first: name → :class:`BotLevel`."""


def level_name(name: object) -> str:
    """The canonical name of the level *name* names: case and surrounding spaces do not matter.

    Every place that reads a level's name (:func:`make_bot`, the arena, ``mizerka play --opponents``,
    ``mizerka arena`` and its ``--budget``) reads it through this function, so that one accepts what another
    does, and reports it in this form.

    >>> level_name(" PIMC ")
    'pimc'

    Raises:
        UnknownBotError: for a name that is no level (or not text).
    """
    key = name.strip().lower() if isinstance(name, str) else None
    if key is None or key not in BOT_LEVELS:
        raise UnknownBotError(f"unknown bot {name!r} (expected one of: {', '.join(BOT_LEVELS)})")
    return key


def make_bot(name: str, *, seed: int | None = None, budget: Budget | None = None) -> Bot:
    """A bot of the named level.

    Args:
        name: one of :data:`BOT_LEVELS` (case-insensitive).
        seed: makes its choices reproducible (default 0).
        budget: overrides fields of the level's default budget.

    Raises:
        UnknownBotError: for a name that is no level.
        BudgetError: for a budget that is not a :class:`Budget`.
    """
    level = BOT_LEVELS[level_name(name)]
    if seed is not None:
        checked = whole_number(seed)  # a NumPy integer too, as a Budget's counts take one
        if checked is None:
            raise BotError(f"a bot's seed must be an int, not {seed!r}")
        seed = checked
    return level.bot_class(seed=seed, budget=budget)


SEARCH_LEVELS: Final = frozenset({"pimc", "ismcts", "expert"})
"""The levels that choose contracts by simulation, and so use the table :func:`warm_up` computes."""


def warm_up(rules: Rules = STANDARD) -> None:
    """Compute, once per process, what the levels' first decisions under *rules* would otherwise build.

    A search bot prices a contract with the option values of the contracts it still has to choose
    (:func:`mizerka.bots.search.option_values`, about a second on one core) or, in variants those do not model
    (repeated or shared contracts, drawing during play), with each contract's average score
    (:func:`~mizerka.bots.search.contract_baselines`, about a quarter of a second): tables simulated once per
    process and cached after.  Built inside a decision they are charged to it, so a bot with a time budget
    overruns its first contract choice in a process.  A program that will ask a bot soon, or times its
    decisions, calls this beforehand (a server's worker when it starts, a local game in a background thread
    while the human thinks; the arena calls each seated level's :meth:`Bot.warm_up` before play), so no first
    decision waits for it.  It changes no decision: the tables are constants of the rules.

    Raises:
        BotError: for *rules* that are not a :class:`~mizerka.rules.Rules`.
    """
    if not isinstance(rules, Rules):
        raise BotError(f"warm_up needs a Rules (see mizerka.parse_variant), not {rules!r}")
    for bot_class in dict.fromkeys(level.bot_class for level in BOT_LEVELS.values()):
        bot_class.warm_up(rules)


def warm_up_in_background(rules: Rules = STANDARD) -> threading.Thread:
    """Run :func:`warm_up` in a daemon thread (started, returned): for a local game, where the human's
    first decision gives it the time.  A bot that needs the table before it is done computes it too."""
    thread = threading.Thread(target=warm_up, args=(rules,), name="mizerka-bots-warm-up", daemon=True)
    thread.start()
    return thread
