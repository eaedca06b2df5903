"""The duplicate arena: bots play the same deck orders from every seat, so that the luck of the cards cancels.

One **duplicate match** is one set of deck orders (a whole match: 18 deals in the standard game) played at
``n!`` tables, one per permutation of the bots over the seats (6 for three bots).  Every bot therefore
holds every hand from every seat.  A bot's result for the duplicate match is its mean total over those
tables: *points per match*; divided by the deals in a match it is *points per deal*.  The ranking
reports each mean with a 95% confidence interval over the duplicate matches.

Everything is derived from ``(seed, match index)``: the deck orders, the first dealer and each bot's
seed.  Matches are independent jobs, so the results are identical for the same seed whatever the
backend (``"serial"``, ``"process"``, ``"ray"``) and the number of workers.  (A bot given a *time*
budget is the exception: its choices depend on the machine's speed.)

A bot that raises, returns an illegal action or overruns its time is reported with the match, table,
seat and position (an :class:`Incident`); a legal stand-in action (:func:`stand_in`) is played for it, in
place of a late answer too, and the run goes on.  Before the first decision of a duplicate match each seated
level computes the tables its decisions build once per process (:meth:`mizerka.bots.Bot.warm_up`), so that
they are not charged to a decision's time.

>>> result = run_arena(["rules", "random", "random"], matches=1, seed=3, backend="serial")
>>> result.matches, result.tables_per_match, result.deals_per_match
(1, 6, 18)
>>> abs(sum(result.points[0])) < 1e-9          # the game is zero-sum, and so is every duplicate match
True
>>> [row.bot for row in result.ranking()][0]
'rules'

This module needs only the standard library; ``mizerka arena`` (in :mod:`mizerka.bots.cli`) adds the
progress bar, the table and the plot.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import itertools
import json
import math
import os
import re
import statistics
import time
import traceback
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from itertools import islice
from pathlib import Path
from typing import Final, Literal

from mizerka._checks import whole_number
from mizerka.bots import BOT_LEVELS, Budget, level_name, make_bot
from mizerka.deal import KEEP, Action, Phase
from mizerka.match import Match
from mizerka.rules import STANDARD, Rules, RulesError

__all__ = [
    "BACKENDS",
    "NO_INTERVAL",
    "TABLES",
    "ArenaError",
    "ArenaResult",
    "BotStats",
    "DuplicateResult",
    "Incident",
    "match_seed",
    "play_duplicate",
    "record_name",
    "run_arena",
    "seatings",
    "stand_in",
]

Backend = Literal["serial", "process", "ray"]
BACKENDS: tuple[str, ...] = ("process", "serial", "ray")
TABLES: tuple[str, ...] = ("all", "rotations")
"""How a duplicate match seats the bots: every permutation (``n!`` tables), or the ``n`` rotations of the given
order (each bot still plays every hand from every seat once; half the tables for three bots)."""
_IN_FLIGHT = 4
"""Duplicate matches submitted ahead per worker: enough to keep every worker busy, few enough to stay small."""


def seatings(n: int, tables: str = "all") -> list[tuple[int, ...]]:
    """The seat permutations of a duplicate match: ``perm[seat]`` is the index of the bot in that seat.

    >>> seatings(3, "rotations")
    [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    >>> len(seatings(3))
    6
    """
    if tables == "rotations":
        return [tuple((seat + shift) % n for seat in range(n)) for shift in range(n)]
    return list(itertools.permutations(range(n)))


class ArenaError(ValueError):
    """A bad arena argument: the message names it."""


@dataclasses.dataclass(frozen=True)
class Incident:
    """A bot that failed during a run: it raised, returned an illegal action, or overran its time."""

    bot: str
    kind: str  # "error", "illegal" or "time"
    match: int
    table: int
    seat: int
    deal_no: int
    trick: int
    position: str
    detail: str

    def __str__(self) -> str:
        return (
            f"{self.bot} ({self.kind}) in match {self.match}, table {self.table}, seat {self.seat}, "
            f"deal {self.deal_no}, trick {self.trick}: {self.detail} [position: {self.position}]"
        )


@dataclasses.dataclass(frozen=True)
class DuplicateResult:
    """One duplicate match: each bot's mean total over the tables, and what went wrong."""

    index: int
    points: tuple[float, ...]
    deals: int
    tables: int
    incidents: tuple[Incident, ...]
    decision_seconds: tuple[float, ...]  # summed thinking time per bot (wall clock; reporting only)


@dataclasses.dataclass(frozen=True)
class BotStats:
    """One row of the ranking."""

    bot: str
    index: int
    per_match: float
    per_match_ci: float
    per_deal: float
    per_deal_ci: float


def match_seed(seed: int, index: int) -> int:
    """The seed of duplicate match *index* in an arena run with *seed*: a stable hash of both."""
    digest = hashlib.sha256(f"mizerka-arena/{seed}/{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


_T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
        2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042)
"""Student's t quantile t(0.975, df) for df = 1 … 30 (standard tables, three decimals)."""
_Z975 = statistics.NormalDist().inv_cdf(0.975)


def t975(df: int) -> float:
    """Student's t quantile t(0.975, *df*): the factor of a two-sided 95% interval of a mean over df + 1 values.

    The table up to 30 degrees of freedom; beyond, the Cornish-Fisher expansion of t around the normal quantile
    z = 1.95996 to the 1/df⁴ term, within 1e-4 of the exact value there (and tending to z, never reaching it).

    >>> [round(t975(df), 4) for df in (40, 60, 120)]
    [2.0211, 2.0003, 1.9799]
    """
    if df < 1:
        raise ValueError(f"Student's t needs at least 1 degree of freedom, not {df}")
    if df <= len(_T95):
        return _T95[df - 1]
    z = _Z975
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
    return z + g1 / df + g2 / df**2 + g3 / df**3 + g4 / df**4


NO_INTERVAL: Final = "–"
"""What a ranking shows for a 95% interval that cannot be computed (from fewer than two matches; :func:`ci95` gives
0 there, which would read as a certain result)."""


def ci95(values: Sequence[float]) -> float:
    """Half-width of the 95% confidence interval of the mean (Student's t for every count, :func:`t975`; 0 for
    fewer than two values)."""
    n = len(values)
    if n < 2:
        return 0.0
    return t975(n - 1) * statistics.stdev(values) / math.sqrt(n)


@dataclasses.dataclass(frozen=True)
class ArenaResult:
    """The outcome of :func:`run_arena`: per-match points for every bot, and the incidents."""

    bots: tuple[str, ...]
    seed: int
    rules: Rules
    results: tuple[DuplicateResult, ...]

    @property
    def matches(self) -> int:
        return len(self.results)

    @property
    def has_interval(self) -> bool:
        """Whether the 95% intervals can be computed: from two matches on (:func:`ci95` gives 0 for one, which would
        read as a certain result; rankings show :data:`NO_INTERVAL` instead)."""
        return self.matches >= 2

    @property
    def points(self) -> list[tuple[float, ...]]:
        """Each duplicate match's mean points per bot (a match = all of the rules' deals)."""
        return [r.points for r in self.results]

    @property
    def deals_per_match(self) -> int:
        return self.results[0].deals if self.results else self.rules.n_deals

    @property
    def tables_per_match(self) -> int:
        return self.results[0].tables if self.results else math.factorial(len(self.bots))

    @property
    def incidents(self) -> list[Incident]:
        return [i for r in self.results for i in r.incidents]

    def stats(self) -> list[BotStats]:
        """Per bot, in the order given: mean points per match and per deal with 95% intervals."""
        out = []
        deals = self.deals_per_match
        for i, bot in enumerate(self.bots):
            values = [p[i] for p in self.points]
            mean = statistics.fmean(values) if values else 0.0
            half = ci95(values)
            out.append(BotStats(bot, i, mean, half, mean / deals, half / deals))
        return out

    def ranking(self) -> list[BotStats]:
        """:meth:`stats`, best first."""
        return sorted(self.stats(), key=lambda s: -s.per_match)

    def difference(self, a: int, b: int) -> tuple[float, float]:
        """Bot *a*'s mean lead over bot *b* in points per deal, and its 95% half-interval (paired by match).

        Raises:
            ArenaError: for *a* or *b* that is no bot's index, 0 to the number of bots − 1 (a negative one counted
                from the end, as a list would, read as another bot).
        """
        for index in (a, b):
            if whole_number(index) is None or not 0 <= index < len(self.bots):
                raise ArenaError(f"no bot has the index {index!r}: give 0 to {len(self.bots) - 1}")
        deals = self.deals_per_match
        diffs = [(p[a] - p[b]) / deals for p in self.points]
        return (statistics.fmean(diffs) if diffs else 0.0), ci95(diffs)

    def running(self) -> list[list[float]]:
        """Per bot, the running mean points per deal after each match (for the plot)."""
        deals = self.deals_per_match
        curves: list[list[float]] = [[] for _ in self.bots]
        sums = [0.0] * len(self.bots)
        for n, p in enumerate(self.points, start=1):
            for i in range(len(self.bots)):
                sums[i] += p[i]
                curves[i].append(sums[i] / n / deals)
        return curves

    def table(self) -> str:
        """The ranking as plain text: mean points per deal and per match, each ± its 95% half-interval (``–`` after
        a single match, where there is none)."""
        interval = self.has_interval
        lines = [f"{'#':>2}  {'bot':<12} {'points/deal':>18} {'points/match':>18}"]
        for rank, s in enumerate(self.ranking(), start=1):
            deal_ci = f"{s.per_deal_ci:<6.3f}" if interval else f"{NO_INTERVAL:<6}"
            match_ci = f"{s.per_match_ci:<6.2f}" if interval else f"{NO_INTERVAL:<6}"
            lines.append(f"{rank:>2}  {s.bot:<12} {s.per_deal:>+9.3f} ± {deal_ci} {s.per_match:>+9.2f} ± {match_ci}")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, object]:
        """The result as plain data (for JSON).  ``"variant"`` is the rules' variant spec
        (:meth:`~mizerka.rules.Rules.spec`, which :func:`~mizerka.rules.parse_variant` reads back), or ``None`` for
        rules that no spec can write (built with :meth:`~mizerka.rules.Rules.replace`); ``"rules"`` always holds
        every field of the rules, so such a run is described all the same."""
        try:
            variant: str | None = self.rules.spec()
        except RulesError:
            variant = None
        return {
            "bots": list(self.bots),
            "seed": self.seed,
            "variant": variant,
            "rules": _rules_dict(self.rules),
            "matches": self.matches,
            "deals_per_match": self.deals_per_match,
            "tables_per_match": self.tables_per_match,
            "stats": [dataclasses.asdict(s) for s in self.stats()],
            "points": [list(p) for p in self.points],
            "incidents": [dataclasses.asdict(i) for i in self.incidents],
        }


def _rules_dict(rules: Rules) -> dict[str, object]:
    """Every field of *rules* as JSON-ready data: contracts by their text, the enums by their values."""
    out: dict[str, object] = {}
    for field in dataclasses.fields(rules):
        value = getattr(rules, field.name)
        if field.name == "contracts":
            value = [str(contract) for contract in value]
        elif isinstance(value, enum.Enum):
            value = value.value
        elif isinstance(value, tuple):
            value = list(value)
        out[field.name] = value
    return out


@dataclasses.dataclass(frozen=True)
class _Job:
    bots: tuple[str, ...]
    budgets: tuple[Budget | None, ...]
    rules: Rules
    seed: int
    decision_limit: float | None
    record_dir: str | None
    tables: str = "all"


def _describe(value: object, text: Callable[[object], str] = repr) -> str:
    """``repr(value)`` (or *text*), or a plain description where the bot's object cannot even describe itself:
    a broken ``__repr__`` / ``__str__`` must not stop the run that reports it."""
    try:
        return text(value)
    except Exception as error:
        return f"<{type(value).__name__} object, whose {text.__name__}() raised {type(error).__name__}>"


def _error_text(error: BaseException) -> str:
    """The exception being handled as ``Type: message | traceback``, safe against a broken ``__str__`` (the
    traceback module writes such a message as ``<exception str() failed>``)."""
    return f"{type(error).__name__}: {_one_line(_describe(error, str))} | {traceback.format_exc(limit=2)!r}"


def _one_line(text: str) -> str:
    """*text* with its line breaks written as ``\\n``, so that an incident stays one line of the report."""
    return text.replace("\r", "\\r").replace("\n", "\\n")


def _position_text(match: Match) -> str:
    deal = match.deal
    codes = " ".join(str(a.code) for a in deal.history)
    return f"deck {','.join(map(str, deal.deck))}; dealer {deal.dealer}; actions {codes or '-'}"


def stand_in(match: Match) -> Action:
    """The action played for a bot that failed (it raised, answered illegally or ran out of time): keep the hand
    in the exchange, else the first legal action.  The arena and the game server both play it, so a failed bot
    costs the same in either.

    >>> from mizerka.match import Match
    >>> stand_in(Match(seed=1))  # forehand's contract: the first one he may choose
    Choose(contract=<Contract.CLUBS: 0>)
    """
    if match.deal.phase is Phase.EXCHANGE:
        return KEEP
    return next(iter(match.legal_actions))


def play_duplicate(job: _Job, index: int) -> DuplicateResult:
    """Play duplicate match *index*: the same deck orders at one table per seat permutation."""
    seed = match_seed(job.seed, index)
    n = len(job.bots)
    # the tables a level builds once per process, before any decision is timed (every backend runs this function)
    for bot_class in dict.fromkeys(BOT_LEVELS[name].bot_class for name in job.bots):
        bot_class.warm_up(job.rules)
    totals = [0.0] * n
    seconds = [0.0] * n
    incidents: list[Incident] = []
    deals = 0
    perms = seatings(n, job.tables)
    for table, perm in enumerate(perms):  # perm[seat] = bot index
        names = [f"{perm[s]}:{job.bots[perm[s]]}" for s in range(n)]
        match = Match(job.rules, players=names, seed=seed)
        bots = [
            make_bot(job.bots[perm[s]], seed=(seed + 7919 * table + 104_729 * s) % (1 << 62),
                     budget=job.budgets[perm[s]])
            for s in range(n)
        ]
        while not match.is_over():
            seat = match.to_move
            bot_index = perm[seat]
            observation = match.observation(seat)
            started = time.perf_counter()
            problem: tuple[str, str] | None = None
            action: Action | None = None
            try:
                decision = bots[seat].decide(observation)
                action = decision.action
            except Exception as error:  # a broken bot must not stop the run (KeyboardInterrupt, SystemExit do)
                problem = ("error", _error_text(error))
            else:
                if action is None:  # no action at all: reported like an illegal one (it was played for silently)
                    problem = ("illegal", f"returned {_describe(decision)}, which holds no action")
            elapsed = time.perf_counter() - started
            seconds[bot_index] += elapsed
            if action is not None:
                try:
                    reason = match.deal.illegal_reason(action)
                except Exception as error:  # an action so malformed that checking it fails
                    reason = f"{type(error).__name__}: {_one_line(_describe(error, str))}"
                if reason is not None:
                    problem = ("illegal", f"returned {_describe(action)}, which is illegal: {reason}")
                    action = None
            limit = job.decision_limit
            budget_time = bots[seat].budget.time
            if limit is None and budget_time is not None:
                limit = 1.5 * budget_time + 0.05
            if problem is None and limit is not None and elapsed > limit:
                problem = ("time", f"took {elapsed:.3f} s (limit {limit:.3f} s)")
                action = None  # a late answer is not played: the stand-in is, as for any failed decision
            if problem is not None:
                incidents.append(
                    Incident(
                        job.bots[bot_index], problem[0], index, table, seat, match.deal_no,
                        len(match.deal.tricks) + 1, _position_text(match), problem[1],
                    )
                )
            match.push(action if action is not None else stand_in(match))
        for seat in range(n):
            totals[perm[seat]] += match.totals[seat]
        deals = match.n_deals
        if job.record_dir is not None:
            _save_record(match, Path(job.record_dir), index, table, job)
    return DuplicateResult(
        index, tuple(t / len(perms) for t in totals), deals, len(perms), tuple(incidents), tuple(seconds)
    )


def _save_record(match: Match, folder: Path, index: int, table: int, job: _Job) -> None:
    from mizerka.record import MatchRecord

    folder.mkdir(parents=True, exist_ok=True)
    record = MatchRecord.from_match(
        match, event="mizerka arena", tags={"ArenaSeed": str(job.seed), "ArenaMatch": str(index), "Table": str(table)}
    )
    (folder / record_name(index, table)).write_text(record.to_json(), encoding="utf-8")


def record_name(index: int, table: int) -> str:
    """The file name of the record of duplicate match *index*, table *table*, in a run's records' folder.

    >>> record_name(7, 2)
    'match00007-table2.json'
    """
    return f"match{index:05d}-table{table}.json"


_RECORD_NAME = re.compile(r"match(\d+)-table(\d+)\.json")


def _check_no_records(folder: Path, indices: range, tables: int) -> None:
    """Refuse a folder that already holds a file this run would write: another run's record would be replaced
    without a word, and a shorter run would leave the folder mixing two runs under one naming scheme.  The folder
    is listed once (not one look-up per record, which a run of a million matches would pay before its first)."""
    try:
        names = sorted(os.listdir(folder))
    except OSError as error:
        raise ArenaError(f"cannot save records in {str(folder)!r}: {error.strerror or error}") from None
    for name in names:
        found = _RECORD_NAME.fullmatch(name)
        if found is None:
            continue
        index, table = int(found[1]), int(found[2])
        if index in indices and table < tables and record_name(index, table) == name:
            raise ArenaError(
                f"{str(folder)!r} already holds {name!r}, a record this run would write (over another run's): "
                "choose an empty or new folder for the records"
            )


def _check_options(seed: object, rules: object, decision_limit: object, progress: object) -> None:
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ArenaError(f"the seed must be a whole number, not {seed!r}")
    if not isinstance(rules, Rules):
        raise ArenaError(f"rules must be a Rules (see mizerka.parse_variant), not {rules!r}")
    if decision_limit is not None and (
        not isinstance(decision_limit, int | float) or isinstance(decision_limit, bool)
        or not math.isfinite(decision_limit) or decision_limit <= 0
    ):
        raise ArenaError(f"decision_limit must be a positive number of seconds, not {decision_limit!r}")
    if progress is not None and not callable(progress):
        raise ArenaError(f"progress must be a function of (done, total), not {progress!r}")


def _check_record_dir(folder: Path) -> None:
    """Make the records' folder and write a file in it now, before any match is played, not after the first."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / f".mizerka-arena-{os.getpid()}.tmp"
        probe.write_text("", encoding="utf-8")
        probe.unlink()
    except OSError as error:
        raise ArenaError(f"cannot save records in {str(folder)!r}: {error.strerror or error}") from None


def _check(bots: Sequence[str], matches: int, rules: Rules, workers: int | None, backend: str,
           budgets: Sequence[Budget | None] | None, tables: str = "all", start: int = 0) -> None:
    if isinstance(bots, str) or not isinstance(bots, Sequence):
        raise ArenaError(f"bots must be a list of bot names, not {bots!r}")
    if len(bots) != rules.n_seats:
        raise ArenaError(f"the {rules.name} game seats {rules.n_seats} bots, not {len(bots)}")
    for name in bots:
        level_name(name)  # an UnknownBotError naming it
    if not isinstance(matches, int) or isinstance(matches, bool) or matches < 1:
        raise ArenaError(f"matches must be a whole number of at least 1, not {matches!r}")
    if workers is not None and (not isinstance(workers, int) or isinstance(workers, bool) or workers < 1):
        raise ArenaError(f"workers must be a whole number of at least 1, not {workers!r}")
    if backend not in BACKENDS:
        raise ArenaError(f"unknown backend {backend!r} (expected one of: {', '.join(BACKENDS)})")
    if budgets is not None and (isinstance(budgets, str) or not isinstance(budgets, Sequence)):
        raise ArenaError(f"budgets must be a list with one Budget (or None) per bot, not {budgets!r}")
    if budgets is not None and len(budgets) != len(bots):
        raise ArenaError(f"give one budget (or None) per bot: {len(bots)} bots, {len(budgets)} budgets")
    for budget in budgets or ():
        if budget is not None and not isinstance(budget, Budget):
            raise ArenaError(f"a budget must be a Budget (or None), not {budget!r}: see Budget.parse for text")
    if tables not in TABLES:
        raise ArenaError(f"unknown table plan {tables!r} (expected one of: {', '.join(TABLES)})")
    if not isinstance(start, int) or isinstance(start, bool) or start < 0:
        raise ArenaError(f"start must be a match index of at least 0, not {start!r}")


def run_arena(
    bots: Sequence[str],
    matches: int,
    *,
    seed: int = 0,
    rules: Rules = STANDARD,
    budgets: Sequence[Budget | None] | None = None,
    workers: int | None = None,
    backend: str = "process",
    decision_limit: float | None = None,
    record_dir: str | os.PathLike[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
    tables: str = "all",
    start: int = 0,
) -> ArenaResult:
    """Play *matches* duplicate matches between *bots* (one name per seat) and return the results.

    Args:
        bots: bot level names, as many as the rules seat (three in the standard game); case does not matter
            (:func:`~mizerka.bots.level_name`), the result names them in lower case.
        matches: duplicate matches to play; each is ``n!`` whole matches on the same deck orders.
        seed: the arena seed; everything else is derived from it.
        rules: the variant.
        budgets: per bot, a :class:`~mizerka.bots.Budget` overriding its level's default (or ``None``).
        workers: processes (or Ray tasks in flight) for the ``process`` / ``ray`` backends; default: CPUs.
        backend: ``"process"`` (default), ``"serial"`` or ``"ray"`` (needs the ``ray`` extra).
        decision_limit: seconds a decision may take before it is reported (default: 1.5 × a time budget + 0.05 s).
        record_dir: save every table's match record (JSON, :mod:`mizerka.record`) in this folder, as
            :func:`record_name`; a folder that already holds a file of that name for this run is refused.
        progress: called with ``(done, total)`` after each duplicate match.
        tables: ``"all"`` seat permutations per duplicate match (default) or their ``"rotations"`` only
            (:func:`seatings`).
        start: the index of the first duplicate match (matches ``start`` … ``start + matches - 1`` are
            played), so that a long run can be played in parts and the parts' results joined.

    Raises:
        ArenaError: for a bad argument; UnknownBotError: for an unknown bot.
    """
    _check_options(seed, rules, decision_limit, progress)
    _check(bots, matches, rules, workers, backend, budgets, tables, start)
    if record_dir is not None:
        if not str(record_dir).strip():  # Path("") is the current folder: every record would land there
            raise ArenaError("the records' folder is empty: name a folder to save the match records in")
        try:  # a record names its variant by spec: rules no spec can write could not be saved after the first table
            rules.spec()
        except RulesError as error:
            raise ArenaError(f"cannot save records of these rules: {error}") from None
        _check_record_dir(Path(record_dir))
        _check_no_records(Path(record_dir), range(start, start + matches), len(seatings(len(bots), tables)))
    job = _Job(
        tuple(level_name(name) for name in bots),  # 'PIMC' plays, and is reported, as 'pimc'
        tuple(budgets) if budgets is not None else (None,) * len(bots), rules, seed, decision_limit,
        None if record_dir is None else str(record_dir), tables,
    )
    indices = range(start, start + matches)
    results: dict[int, DuplicateResult] = {}

    def done(result: DuplicateResult) -> None:
        results[result.index] = result
        if progress is not None:
            progress(len(results), matches)

    if backend == "serial" or (backend == "process" and (workers == 1 or matches == 1)):
        for index in indices:
            done(play_duplicate(job, index))
    elif backend == "process":
        pool_size = min(workers or os.cpu_count() or 1, matches)
        with ProcessPoolExecutor(max_workers=pool_size) as pool:
            # a window of jobs in flight (a few per worker, so none waits idle), not one future per match: a run
            # of millions of matches would otherwise hold millions of futures before the first one finishes
            todo = iter(indices)
            window = {pool.submit(play_duplicate, job, index) for index in islice(todo, _IN_FLIGHT * pool_size)}
            while window:
                finished, window = wait(window, return_when=FIRST_COMPLETED)
                for future in finished:
                    done(future.result())
                window |= {pool.submit(play_duplicate, job, index) for index in islice(todo, len(finished))}
    else:
        for result in _run_ray(job, indices, workers):
            done(result)
    return ArenaResult(job.bots, seed, rules, tuple(results[i] for i in indices))


def _run_ray(job: _Job, indices: range, workers: int | None) -> list[DuplicateResult]:
    try:
        import ray  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        raise ArenaError("the ray backend needs Ray: pip install 'mizerka[ray]'") from None
    if not ray.is_initialized():
        ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
    remote = ray.remote(play_duplicate)
    todo = iter(indices)
    cpus = ray.cluster_resources().get("CPU", 1)  # type: ignore[no-untyped-call, unused-ignore]
    window = max(1, int(cpus)) * _IN_FLIGHT  # as for the process pool: a few jobs ahead per core
    pending = [remote.remote(job, index) for index in islice(todo, window)]
    out: list[DuplicateResult] = []
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        out.extend(ray.get(ready))
        pending.extend(remote.remote(job, index) for index in islice(todo, len(ready)))
    return out


def result_json(result: ArenaResult) -> str:
    """The result as one JSON object (for ``--json``)."""
    return json.dumps(result.to_dict())
