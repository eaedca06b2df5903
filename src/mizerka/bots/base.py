"""The bot protocol: budgets, decisions, the :class:`Bot` base class and its errors.

A bot sees one :class:`~mizerka.deal.Observation` (what its seat may know, nothing more), a
:class:`Budget` and a seeded :class:`random.Random`, and returns a :class:`Decision`: the action and
an ``info`` dictionary with its evaluation of the candidates.  It decides all three things a player
decides in Mizerka: the contract (forehand, from six cards), the exchange (which cards to discard,
the talon unseen) and the card to play.

>>> from mizerka.deal import Deal
>>> from mizerka.bots import make_bot
>>> deal = Deal.random(1, dealer=0)
>>> bot = make_bot("random", seed=3)
>>> decision = bot.decide(deal.observation(deal.to_move))
>>> decision.action in deal.legal_actions
True
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import math
import numbers
import operator
import random
import re
from collections.abc import Iterable
from typing import Any, ClassVar

from mizerka.cards import CARDS, CardSet
from mizerka.deal import Action, Choose, Exchange, Observation, Phase, Play
from mizerka.rules import Rules

# what Budget.parse reads as a number: ASCII digits, no "_" (Python's int() and float() take more, see there)
_COUNT_TEXT = re.compile(r"[+-]?[0-9]+", re.ASCII)
_TIME_TEXT = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|[+-]?(?:inf|infinity|nan)",
                        re.ASCII | re.IGNORECASE)

__all__ = [
    "MAX_SIMULATIONS",
    "MAX_WORLDS",
    "Bot",
    "BotError",
    "Budget",
    "BudgetError",
    "Decision",
    "NotMyTurnError",
    "UnknownBotError",
    "exchange_limit",
    "observation_key",
]


class BotError(ValueError):
    """Something a bot cannot do as asked.  The subclasses name the problem."""


class UnknownBotError(BotError):
    """A bot name that is not one of :data:`mizerka.bots.BOT_LEVELS`."""


class BudgetError(BotError):
    """A budget with a negative, zero, non-numeric or absurdly large limit."""


class NotMyTurnError(BotError):
    """An observation in which the bot's seat has nothing to decide."""


MAX_WORLDS = 1_000_000
"""The most worlds a :class:`Budget` may ask for: far beyond what a decision uses (the levels' defaults are 16 to
96, a second of PIMC is a few thousand worlds).  A larger count is a typo or an overflow, and without a time
budget a bot would try to deal it all before answering."""
MAX_SIMULATIONS = 100_000_000
"""The most simulations a :class:`Budget` may ask for (the levels' defaults are 3,000 and 4,000): without a time
budget ISMCTS would grow its tree for every one of them."""


@dataclasses.dataclass(frozen=True)
class Budget:
    """How much a bot may think about one decision, in the spirit of python-chess's ``Limit``.

    Every field is optional; ``None`` means "use the bot's default" (see :meth:`merged`).

    Attributes:
        time: seconds of thinking time (wall clock).  A time limit makes a search bot's choice depend on
            the machine's speed; leave it ``None`` for reproducible games.
        worlds: how many worlds (deals consistent with the observation) a sampling bot may solve, at most
            :data:`MAX_WORLDS`.
        simulations: how many simulations (playouts / tree iterations) a Monte Carlo bot may run, at most
            :data:`MAX_SIMULATIONS`.

    A count may be any integral number (``numpy.int64(8)`` too, read by ``operator.index``); it is kept as a
    plain ``int``.  A time may be any real number (``numpy.float32`` too).

    >>> Budget(worlds=20)
    Budget(time=None, worlds=20, simulations=None)
    >>> Budget(time=-1)
    Traceback (most recent call last):
    ...
    mizerka.bots.base.BudgetError: budget time must be a positive number of seconds, not -1
    """

    time: float | None = None
    worlds: int | None = None
    simulations: int | None = None

    def __post_init__(self) -> None:
        if self.time is not None:
            ok = isinstance(self.time, numbers.Real) and not isinstance(self.time, bool)
            try:
                seconds = float(self.time) if ok else math.nan
            except OverflowError:  # an int too large for a float (10**400)
                seconds = math.inf
            if not math.isfinite(seconds) or seconds <= 0:
                raise BudgetError(f"budget time must be a positive number of seconds, not {self.time!r}")
            if not isinstance(self.time, int | float):  # numpy.float32 and the like: a plain float from here on
                object.__setattr__(self, "time", seconds)
        for name, most in (("worlds", MAX_WORLDS), ("simulations", MAX_SIMULATIONS)):
            value = getattr(self, name)
            if value is None:
                continue
            count: int | None = None
            if not isinstance(value, bool):  # True is an int to Python, not a count to a reader
                try:
                    count = operator.index(value)  # any integral type (numpy.int64 too), never a float
                except TypeError:
                    count = None
            if count is None or count < 1:
                raise BudgetError(f"budget {name} must be a whole number of at least 1, not {value!r}")
            if count > most:
                raise BudgetError(f"budget {name} must be at most {most:,}, not {count:,}")
            if type(value) is not int:
                object.__setattr__(self, name, count)

    def merged(self, default: Budget) -> Budget:
        """This budget with every unset field taken from *default*.

        >>> Budget(worlds=5).merged(Budget(time=1.0, worlds=40))
        Budget(time=1.0, worlds=5, simulations=None)
        """
        return Budget(
            time=self.time if self.time is not None else default.time,
            worlds=self.worlds if self.worlds is not None else default.worlds,
            simulations=self.simulations if self.simulations is not None else default.simulations,
        )

    @classmethod
    def parse(cls, text: str) -> Budget:
        """Read ``"time=0.5,worlds=40,simulations=2000"`` (any subset, any order).

        >>> Budget.parse("worlds=12, time=0.25")
        Budget(time=0.25, worlds=12, simulations=None)

        Raises:
            BudgetError: naming the bad field or value, a field given twice, or *text* that is not text.
        """
        if not isinstance(text, str):
            raise BudgetError(f"a budget is text such as 'time=0.5,worlds=40', not {text!r}")
        fields: dict[str, Any] = {}
        for part in text.split(","):
            part = part.strip()
            if not part:
                continue
            key, sep, value = part.partition("=")
            key = key.strip()
            if not sep or key not in ("time", "worlds", "simulations"):
                raise BudgetError(f"invalid budget item {part!r} (expected time=S, worlds=N or simulations=N)")
            if key in fields:
                raise BudgetError(f"the budget gives {key} twice ({text!r}): give each field once")
            value = value.strip()
            # plain ASCII numbers only: Python's own readers also take "1_000", "٣" (an Arabic-Indic three) and
            # "1_0.5", which no one types as a budget
            pattern = _TIME_TEXT if key == "time" else _COUNT_TEXT
            if not pattern.fullmatch(value):
                raise BudgetError(f"invalid budget value in {part!r}: write a plain number, such as "
                                  f"{'time=0.5' if key == 'time' else key + '=40'}")
            fields[key] = float(value) if key == "time" else int(value)
        return cls(**fields)


@dataclasses.dataclass(frozen=True)
class Decision:
    """A bot's answer: the action, and what it thought.

    ``info`` may hold ``"evaluations"`` (each candidate's text → the bot's expected score for it, higher
    is better for the bot), ``"worlds"`` / ``"simulations"`` (the work done) and ``"level"``.

    The action is not always the candidate with the highest figure.  A contract's figure is its expected score
    in this deal, while the choice also weighs what using it now costs the later deals (each contract is chosen
    once).  An IS-MCTS card play takes the card searched most, whose mean may lie a little under a card's that
    was searched less.  An exchange by simulation gives only its finalists' figures, each over the same worlds.
    """

    action: Action
    info: dict[str, object] = dataclasses.field(default_factory=dict)

    @property
    def evaluations(self) -> dict[str, float]:
        """The candidates' expected scores (empty if the bot gave none)."""
        value = self.info.get("evaluations")
        return dict(value) if isinstance(value, dict) else {}


def exchange_limit(observation: Observation) -> int:
    """How many cards the seat may discard in its exchange: at most its hand and the talon's size."""
    return min(len(observation.hand), observation.talon_size)


def observation_key(observation: Observation) -> str:
    """A stable text naming the decision point (seat, deal and public history), used to seed a bot's RNG."""
    parts = [str(observation.seat), str(observation.deal_no), str(observation.dealer), str(observation.hand.mask)]
    for actor, action in observation.history:
        parts.append(f"{actor}:{action if isinstance(action, int) else action.code}")
    return hashlib.sha256(" ".join(parts).encode()).hexdigest()


def _check_observation(observation: Observation) -> None:
    """Refuse, with a :class:`BotError` naming the problem, an observation no deal can produce on the seat's turn.

    An observation built or edited by a program (not by :meth:`~mizerka.deal.Deal.observation`) may leave the
    seat nothing to decide with: no legal action in the contract choice or the play, an empty hand in the play, a
    legal card the hand does not hold.  A level would fail on it deep inside its search with an ``IndexError`` or a
    message that names nothing; this check runs once per decision, before any level, and costs a few
    comparisons (at most one per legal action, thirteen at most).  It does not prove the observation
    consistent (a sampler does that where it needs to); it catches what would make a decision impossible.
    """
    seat, phase, legal = observation.seat, observation.phase, observation.legal_actions
    if seat is None or not 0 <= seat < len(observation.hand_sizes):
        raise BotError(f"the observation's seat {seat!r} is not a seat of its deal")
    if phase is Phase.EXCHANGE:
        return  # any subset of the hand up to the talon's size: legal_actions is empty there by design
    if phase is Phase.PLAY and not observation.hand:
        raise BotError(f"seat {seat} is to play a card but holds none: the observation is inconsistent")
    if not legal:
        where = "contract choice" if phase is Phase.CHOOSE else "play"
        raise BotError(f"seat {seat} is to move in the {where} but the observation lists no legal action: it is "
                       "inconsistent")
    if phase is Phase.CHOOSE:
        for action in legal:
            if not isinstance(action, Choose):
                raise BotError(f"the observation lists {action!r} as legal in the contract choice, which is no "
                               "contract")
    else:
        hand = observation.hand
        for action in legal:
            if not isinstance(action, Play):
                raise BotError(f"the observation lists {action!r} as legal in the play, which is no card to play")
            if action.card not in hand:
                raise BotError(f"the observation lists {action.card} as legal, but seat {seat}'s hand ({hand}) "
                               "does not hold it")


class Bot:
    """Base class of every bot.  Subclasses implement :meth:`choose`, :meth:`exchange` and :meth:`play`.

    Args:
        seed: makes the bot's choices reproducible.  When :meth:`decide` gets no RNG, it seeds one from
            this seed and the observation, so the same observation always gets the same answer.
        budget: the default budget (fields left ``None`` fall back to the level's :attr:`default_budget`).
    """

    name: ClassVar[str] = "bot"
    badge: ClassVar[str] = "Bot"
    description: ClassVar[str] = ""
    default_budget: ClassVar[Budget] = Budget()
    budget_fields: ClassVar[frozenset[str]] = frozenset()
    """The :class:`Budget` fields this level's decisions read (``mizerka arena --budget`` refuses any other, which
    would change nothing).  A subclass that does not set it reads what its :attr:`default_budget` sets, and the
    time too when that sets a count (a search level stops on its clock as well as on its counts): derived once,
    when the class is made, so the default budget stays the one place that says it."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "budget_fields" not in cls.__dict__:
            default = cls.default_budget
            counts = {name for name in ("worlds", "simulations") if getattr(default, name) is not None}
            timed = {"time"} if counts or default.time is not None else set()
            cls.budget_fields = frozenset(counts | timed)

    def __init__(self, *, seed: int | None = None, budget: Budget | None = None) -> None:
        if budget is not None and not isinstance(budget, Budget):
            raise BudgetError(f"budget must be a Budget, not {type(budget).__name__}")
        self.seed = 0 if seed is None else seed
        self.budget = (budget or Budget()).merged(self.default_budget)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r} seed={self.seed} {self.budget}>"

    @classmethod
    def warm_up(cls, rules: Rules) -> None:
        """Compute, once per process, the tables this level's decisions under *rules* would otherwise build on
        their first call (none here; the search levels' contract prices, for one).

        A table built inside :meth:`decide` is charged to that decision, so a bot with a time budget would
        overrun it once per process.  The arena calls this for every level it seats before any decision is
        timed; a program that times a bot's decisions calls it too (or :func:`mizerka.bots.warm_up`).  It must
        not change any decision: the tables are constants of the rules, drawn with fixed seeds.
        """

    # -- the protocol -----------------------------------------------------------------------------

    def decide(
        self, observation: Observation, budget: Budget | None = None, rng: random.Random | None = None
    ) -> Decision:
        """The bot's action for the seat whose observation this is.

        Raises:
            NotMyTurnError: if the observation's seat is not to move.
            BotError: for an observation no deal can produce on the seat's turn (no legal action in the contract
                choice or the play, an empty hand in the play, a legal card the hand does not hold).
            BudgetError: for a *budget* that is not a :class:`Budget`.
            BotError: for an *rng* that is not a ``random.Random``.
        """
        if not isinstance(observation, Observation):
            raise BotError(f"a bot decides on an Observation, not {type(observation).__name__}")
        if not observation.is_my_turn():
            if observation.phase is Phase.DONE:
                raise NotMyTurnError(f"seat {observation.seat} is not to move: the deal is over")
            raise NotMyTurnError(f"seat {observation.seat} is not to move (seat {observation.to_move} is)")
        _check_observation(observation)
        if budget is not None and not isinstance(budget, Budget):
            raise BudgetError(f"budget must be a Budget, not {type(budget).__name__}")
        if rng is not None and not isinstance(rng, random.Random):
            raise BotError(f"rng must be a random.Random (or None), not {type(rng).__name__}")
        limits = self.budget if budget is None else budget.merged(self.budget)
        if rng is None:
            rng = random.Random(f"{self.seed}/{self.name}/{observation_key(observation)}")
        if observation.phase is Phase.CHOOSE:
            if len(observation.legal_actions) == 1:
                return Decision(observation.legal_actions[0], {"level": self.name, "forced": True})
            decision = self.choose(observation, limits, rng)
        elif observation.phase is Phase.EXCHANGE:
            if exchange_limit(observation) == 0:
                return Decision(Exchange(CardSet()), {"level": self.name, "forced": True})
            decision = self.exchange(observation, limits, rng)
        else:
            if len(observation.legal_actions) == 1:
                return Decision(observation.legal_actions[0], {"level": self.name, "forced": True})
            decision = self.play(observation, limits, rng)
        decision.info.setdefault("level", self.name)
        return decision

    async def decide_async(
        self, observation: Observation, budget: Budget | None = None, rng: random.Random | None = None
    ) -> Decision:
        """:meth:`decide` in a worker thread, so that an event loop (a server) keeps running meanwhile."""
        return await asyncio.to_thread(self.decide, observation, budget, rng)

    # -- what subclasses implement ----------------------------------------------------------------

    def choose(self, observation: Observation, budget: Budget, rng: random.Random) -> Decision:
        """Forehand's contract, from the first six cards."""
        raise NotImplementedError

    def exchange(self, observation: Observation, budget: Budget, rng: random.Random) -> Decision:
        """The cards to discard (at most :func:`exchange_limit`), before seeing the draws."""
        raise NotImplementedError

    def play(self, observation: Observation, budget: Budget, rng: random.Random) -> Decision:
        """The card to play."""
        raise NotImplementedError


def card_text(cards: Iterable[int]) -> str:
    """Cards as text, highest first (``"-"`` for none)."""
    names = [str(CARDS[c]) for c in sorted(cards, reverse=True)]
    return " ".join(names) or "-"
