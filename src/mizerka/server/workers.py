"""Bot decisions in a pool of worker processes, driven from the event loop itself.

Each worker is a spawned process joined to the server by a pipe.  The event loop pickles a request
(level, the seat's observation, a seed) into a worker's pipe and is woken by the answer
(``loop.add_reader``): no thread of the server takes part.  :class:`concurrent.futures.ProcessPoolExecutor`,
used before, runs two helper threads per pool (a manager and a queue feeder) that hand every request and
every answer over through the GIL; under load, with the event loop holding the GIL most of the time, those
handovers were a large part of the latency of every table.

A worker is sent at most :data:`IN_FLIGHT` requests at once (so that a pipe never fills and a write never
blocks the loop); the rest wait in the pool's queue and go to whichever worker answers first.  A worker runs
below the server's priority and exits when the server is gone (even killed with ``kill -9``); one that dies
is replaced, and the decisions it held fail with :class:`WorkerError`.

Besides decisions a worker takes *background jobs*: :meth:`ProcessWorkers.warm` has every worker build the
tables the searching bots' first decisions under a variant need (:func:`mizerka.bots.warm_up`) before a table
of that variant asks for one.  A worker is sent one job at a time, and only while it holds no decision; one
that is sent a decision meanwhile makes the decision first.  So a warm-up never queues in front of a decision
already waiting, and one arriving while it runs waits at most for that one job (about a second, once per
worker and variant: the time the decision would otherwise have spent building the same tables).

:class:`ThreadWorkers` has the same interface on threads (``--bot-pool thread``: tests, small machines).
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import contextlib
import logging
import multiprocessing
import os
import pickle
import random
import threading
import time
from multiprocessing.connection import Connection
from typing import Any, Protocol

from mizerka.bots import Decision, make_bot, warm_up
from mizerka.bots.search import contract_baselines, option_values, option_values_apply
from mizerka.deal import Observation
from mizerka.rules import STANDARD, Rules

__all__ = ["IN_FLIGHT", "REMEMBERED_VARIANTS", "ProcessWorkers", "ThreadWorkers", "WarmUpError", "WorkerDied",
           "WorkerError", "Workers", "decide", "tables_ready"]

log = logging.getLogger("mizerka.server")

IN_FLIGHT = 2
"""Requests a worker process holds at once: one it works on, one ready for when it is done."""

BOT_NICE = 5
"""How much lower than the server's the bot worker processes' priority is: a bot has ``bot_delay`` for its
decision anyway, so on a busy machine the event loop (and with it every client's latency) goes first."""


REMEMBERED_VARIANTS = 16
"""How many variants a :class:`ProcessWorkers` pool remembers having warmed (the most recently asked), to warm
them again in a worker that replaces a dead one.  The searching bots cache the tables of 16 sets of rules per
process (``functools.lru_cache(maxsize=16)`` in :mod:`mizerka.bots.search`): a replacement warmed for more
would only build tables that its caches then drop."""


class WarmUpError(ValueError):
    """Rules a pool cannot warm up for: not a :class:`~mizerka.rules.Rules`, or rules that cannot be hashed or
    pickled for a worker process."""


class WorkerError(RuntimeError):
    """A bot decision that did not come back: the bot raised, or its worker process died."""


class WorkerDied(WorkerError):
    """The worker process died while it held the decision (the same request may succeed on its successor)."""


_BOTS: dict[str, Any] = {}


def decide(level: str, observation: Observation, seed: int) -> Decision:
    """One bot decision, in a worker (a module-level function, so that a worker process can run it)."""
    bot = _BOTS.get(level)
    if bot is None:
        bot = _BOTS[level] = make_bot(level)
    decision: Decision = bot.decide(observation, rng=random.Random(seed))
    return decision


def tables_ready(rules: Rules) -> bool:
    """Whether this process had the searching bots' contract prices for *rules* cached: the option values
    where they model *rules*, else the contract baselines (:func:`mizerka.bots.search.warm_up_tables`).

    A ``functools`` cache cannot be asked whether it holds a key, so the table is looked up and the cache's
    miss count compared: the answer is the state before the call, and the table is built (about a second)
    when it was not there.  :meth:`ProcessWorkers.tables_ready` asks this in each worker, which shows what a
    warm-up did.
    """
    if option_values_apply(rules):
        misses = option_values.cache_info().misses
        option_values(rules)
        return option_values.cache_info().misses == misses
    misses = contract_baselines.cache_info().misses
    contract_baselines(rules)
    return contract_baselines.cache_info().misses == misses


def _packed(rules: object) -> tuple[Rules, bytes, str]:
    """*rules* checked and pickled for a worker, and a name for them in the log.

    The rules travel pickled inside the request, unpickled by the worker on its own (:func:`_background_job`):
    rules that a worker cannot unpickle fail that job, never the worker's reading of its pipe.

    Raises:
        WarmUpError: for something that is not a Rules, or rules that cannot be hashed or pickled.
    """
    if not isinstance(rules, Rules):
        raise WarmUpError(f"a bot pool warms up for a Rules (see mizerka.parse_variant), not {type(rules).__name__}")
    try:
        hash(rules)  # the pool remembers them in a dict
        body = pickle.dumps(rules, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception as error:
        raise WarmUpError(f"these rules cannot be sent to a bot worker ({type(error).__name__}: {error})") from error
    try:
        label = rules.spec()
    except Exception:  # rules no variant spec writes (a name of their own): named as they name themselves
        label = repr(getattr(rules, "name", "?"))
    return rules, body, label


def _background_job(kind: str, body: bytes) -> bool | None:
    """A background job in a worker: ``warm`` (:func:`mizerka.bots.warm_up`) or ``ready``
    (:func:`tables_ready`) for the pickled rules *body*."""
    rules = pickle.loads(body)
    if kind == "warm":
        warm_up(rules)
        return None
    if kind == "ready":
        if not isinstance(rules, Rules):
            raise WarmUpError(f"not a Rules: {type(rules).__name__}")
        return tables_ready(rules)
    raise ValueError(f"no background job {kind!r}")


class Workers(Protocol):
    """What the hub needs of a pool."""

    async def decide(self, level: str, observation: Observation, seed: int) -> Decision: ...

    def warm(self, rules: Rules) -> None:
        """Prepare the pool for decisions under *rules* ahead of play, without delaying any (may do nothing).

        Raises:
            WarmUpError: for rules the pool cannot warm up for.
        """

    def stop(self) -> None: ...


class ThreadWorkers:
    """The pool on threads: decisions share the server's GIL (fine for tests and a few tables)."""

    def __init__(self, workers: int, name: str) -> None:
        self._executor = concurrent.futures.ThreadPoolExecutor(workers, thread_name_prefix=name)

    async def decide(self, level: str, observation: Observation, seed: int) -> Decision:
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor, decide, level, observation, seed)
        except Exception as error:  # as the process pool reports it: the caller handles one kind of failure
            raise WorkerError(f"the bot failed: {error}") from error

    def warm(self, rules: Rules) -> None:
        """Check *rules* as :meth:`ProcessWorkers.warm` does, and warm up nothing.

        The threads share the server's process, and with it its GIL: building a variant's tables here (about
        a second of Python) would stall the event loop, every table's, at the moment a table is made, where the
        first search decision under those rules builds them on a bot's thread anyway.  This pool does not warm
        up the standard game either: ``--bot-pool thread`` is for tests and small machines, where a first
        contract choice that overruns its time budget once per variant costs less than a stalled loop.

        Raises:
            WarmUpError: for something that is not a Rules, or rules that cannot be hashed or pickled.
        """
        _packed(rules)

    def stop(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)


def _worker_main(connection: Connection, parent: int, warm: bool = False) -> None:
    """A worker process: lower priority, exit with the server, warm up if asked, then answer requests until
    the pipe closes (requests sent meanwhile wait in the pipe)."""
    with contextlib.suppress(OSError):
        os.nice(BOT_NICE)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()
    if warm:
        try:
            warm_up()
        except Exception:  # a failed warm-up only costs the first decision the same work
            log.exception("bot worker warm-up failed")
    later: collections.deque[tuple[int, str, Any]] = collections.deque()  # background jobs received
    while True:
        try:
            if later and not connection.poll():  # a background job only when no decision waits in the pipe
                request_id, kind, body = later.popleft()
            else:
                request_id, kind, body = connection.recv()
                if kind != "decide":
                    later.append((request_id, kind, body))
                    continue
        except (EOFError, OSError):
            return
        try:
            if kind == "decide":
                level, observation, seed = body
                result: Decision | bool | None = decide(level, observation, seed)
            else:
                result = _background_job(kind, body)
            answer: tuple[int, Decision | bool | None, str | None] = (request_id, result, None)
        except Exception as error:  # the bot's (or a warm-up's) failure goes back to the server, the worker stays
            answer = (request_id, None, f"{type(error).__name__}: {error}")
        try:
            connection.send(answer)
        except (EOFError, OSError):
            return


class _Job:
    """A background job for one worker: a warm-up (*rules* set, no *future*: nobody waits for it) or a
    :func:`tables_ready` question (*future* set)."""

    __slots__ = ("future", "label", "payload", "request_id", "rules")

    def __init__(self, request_id: int, payload: bytes, label: str, rules: Rules | None,
                 future: asyncio.Future[Any] | None) -> None:
        self.request_id = request_id
        self.payload = payload
        self.label = label
        self.rules = rules
        self.future = future


class _Worker:
    __slots__ = ("connection", "in_flight", "job", "jobs", "process")

    def __init__(self, process: Any, connection: Connection) -> None:
        self.process = process
        self.connection = connection
        self.in_flight: dict[int, asyncio.Future[Decision]] = {}
        self.jobs: collections.deque[_Job] = collections.deque()  # background jobs not yet sent
        self.job: _Job | None = None  # the background job sent and not yet answered


class ProcessWorkers:
    """*workers* spawned processes fed from the event loop (see the module's docstring).

    With *warm*, each process (a replacement too) first runs :func:`mizerka.bots.warm_up`: the pool of the
    searching bots, so no first contract choice waits for the option-value table.  Other variants are warmed
    on request (:meth:`warm`), in the background.

    The processes start with the pool (in the caller's thread: spawning takes a moment); the pool is then
    used from one event loop only.
    """

    def __init__(self, workers: int, name: str, warm: bool = False) -> None:
        self.name = name
        self.warm_standard = warm
        self._context = multiprocessing.get_context("spawn")  # forked, a worker would inherit the listening socket
        self._workers = [self._start() for _ in range(workers)]
        self._waiting: collections.deque[tuple[int, bytes]] = collections.deque()
        self._futures: dict[int, asyncio.Future[Any]] = {}
        self._ids = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopped = False
        # the variants asked of :meth:`warm`, the most recent last (at most REMEMBERED_VARIANTS), pickled and
        # named for the log: a worker that replaces a dead one warms them too
        self._remembered: collections.OrderedDict[Rules, tuple[bytes, str]] = collections.OrderedDict()

    def _start(self) -> _Worker:
        mine, theirs = self._context.Pipe(duplex=True)
        process = self._context.Process(target=_worker_main, args=(theirs, os.getpid(), self.warm_standard),
                                        daemon=True, name=f"mizerka-{self.name}")
        process.start()
        theirs.close()
        return _Worker(process, mine)

    def _attach(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        for worker in self._workers:
            loop.add_reader(worker.connection.fileno(), self._readable, worker)

    def _next_id(self) -> int:
        self._ids += 1
        return self._ids

    async def decide(self, level: str, observation: Observation, seed: int) -> Decision:
        """The decision of a bot of *level* for *observation* (the seat's own: all the bot may know)."""
        if self._stopped:
            raise WorkerError("the bot pool is stopped")
        if self._loop is None:
            self._attach(asyncio.get_running_loop())
        assert self._loop is not None
        request_id = self._next_id()
        future: asyncio.Future[Decision] = self._loop.create_future()
        self._futures[request_id] = future
        payload = pickle.dumps((request_id, "decide", (level, observation, seed)), protocol=pickle.HIGHEST_PROTOCOL)
        # a worker busy with a background job counts as holding one decision more
        worker = min(self._workers, key=lambda w: len(w.in_flight) + (w.job is not None))
        if len(worker.in_flight) < IN_FLIGHT:
            self._send(worker, request_id, payload)
        else:
            self._waiting.append((request_id, payload))
        try:
            return await future
        finally:
            self._futures.pop(request_id, None)

    def warm(self, rules: Rules) -> None:
        """Have every worker build the tables the searching bots' first decisions under *rules* need
        (:func:`mizerka.bots.warm_up`), ahead of play, so that none of those decisions pays for them.

        It returns at once: each worker does it as a background job, when it holds no decision, once per
        variant (the standard game of a pool made with *warm* is done already; a variant asked again is not
        sent again).  The pool remembers the last :data:`REMEMBERED_VARIANTS` variants asked, and a worker
        started in place of a dead one warms those too, except one that a worker died warming up for (it is
        not tried again).  A warm-up that fails in a worker is logged; the worker goes on, and its first
        decision under those rules builds the tables as it would have without the warm-up.  Called outside an
        event loop, it queues the jobs until the pool's first decision or question attaches it to one.

        Raises:
            WarmUpError: for something that is not a Rules, or rules that cannot be hashed or pickled (the
                pool and its workers are unchanged).
        """
        rules, body, label = _packed(rules)
        if self._stopped or (self.warm_standard and rules == STANDARD):
            return
        if rules in self._remembered:
            self._remembered.move_to_end(rules)
            return
        self._remembered[rules] = (body, label)
        while len(self._remembered) > REMEMBERED_VARIANTS:
            self._remembered.popitem(last=False)
        log.info("bot workers %s: warming up for %s", self.name, label)
        for worker in self._workers:
            self._queue_warm(worker, rules, body, label)
        if self._loop is None:
            with contextlib.suppress(RuntimeError):  # no running loop: the jobs wait for one
                self._attach(asyncio.get_running_loop())
        for worker in self._workers:
            self._feed_jobs(worker)

    def _queue_warm(self, worker: _Worker, rules: Rules, body: bytes, label: str) -> None:
        request_id = self._next_id()
        payload = pickle.dumps((request_id, "warm", body), protocol=pickle.HIGHEST_PROTOCOL)
        worker.jobs.append(_Job(request_id, payload, label, rules, None))
        # a worker that never idles keeps at most as many warm-ups waiting as the pool remembers variants
        waiting = [job for job in worker.jobs if job.rules is not None]
        if len(waiting) > REMEMBERED_VARIANTS:
            worker.jobs.remove(waiting[0])

    async def tables_ready(self, rules: Rules) -> list[bool]:
        """For each worker, in the pool's order: whether it held the searching bots' contract prices for
        *rules* before this question (:func:`tables_ready`; a worker that did not builds them now, so the
        answer is worth one asking).  The question is a background job: it is answered after the warm-ups asked
        of the worker before it, and so shows what they did.  For tests and diagnostics.

        Raises:
            WarmUpError: as :meth:`warm`.
            WorkerError: the question failed in a worker, or the pool is stopped (:class:`WorkerDied`: a worker
                died meanwhile).
        """
        rules, body, label = _packed(rules)
        if self._stopped:
            raise WorkerError("the bot pool is stopped")
        if self._loop is None:
            self._attach(asyncio.get_running_loop())
        assert self._loop is not None
        futures: dict[int, asyncio.Future[Any]] = {}
        for worker in self._workers:
            request_id = self._next_id()
            future: asyncio.Future[Any] = self._loop.create_future()
            futures[request_id] = self._futures[request_id] = future
            payload = pickle.dumps((request_id, "ready", body), protocol=pickle.HIGHEST_PROTOCOL)
            worker.jobs.append(_Job(request_id, payload, label, None, future))
        for worker in self._workers:
            self._feed_jobs(worker)
        try:
            answers = await asyncio.gather(*futures.values(), return_exceptions=True)
        finally:
            for request_id in futures:
                self._futures.pop(request_id, None)
        for answer in answers:
            if isinstance(answer, BaseException):
                raise answer
        return [bool(answer) for answer in answers]

    def _send(self, worker: _Worker, request_id: int, payload: bytes) -> None:
        future = self._futures.get(request_id)
        if future is None or future.done():  # its caller gave up meanwhile
            return
        worker.in_flight[request_id] = future
        try:
            worker.connection.send_bytes(payload)
        except OSError:
            self._replace(worker)

    def _feed_jobs(self, worker: _Worker) -> None:
        """Send *worker* its next background job if it has none under way and holds no decision."""
        if self._loop is None or self._stopped or worker.job is not None or worker.in_flight:
            return
        while worker.jobs:
            job = worker.jobs.popleft()
            if job.future is not None and job.future.done():  # its caller gave up meanwhile
                continue
            worker.job = job
            try:
                worker.connection.send_bytes(job.payload)
            except OSError:
                self._replace(worker)
            return

    def _readable(self, worker: _Worker) -> None:
        try:
            while worker.connection.poll():
                request_id, result, error = worker.connection.recv()
                job = worker.job
                if job is not None and job.request_id == request_id:
                    worker.job = None
                    self._job_done(job, result, error)
                    continue
                future = worker.in_flight.pop(request_id, None)
                if future is not None and not future.done():
                    if error is None:
                        future.set_result(result)
                    else:
                        future.set_exception(WorkerError(f"the bot failed: {error}"))
        except (EOFError, OSError):
            self._replace(worker)
            return
        self._feed(worker)
        self._feed_jobs(worker)

    def _job_done(self, job: _Job, result: object, error: str | None) -> None:
        if job.future is None:  # a warm-up: a failure costs the first decision under those rules the same work
            if error is not None:
                log.warning("bot workers %s: the warm-up for %s failed (%s)", self.name, job.label, error)
        elif not job.future.done():
            if error is None:
                job.future.set_result(result)
            else:
                job.future.set_exception(WorkerError(f"the bot worker's job failed: {error}"))

    def _feed(self, worker: _Worker) -> None:
        while self._waiting and len(worker.in_flight) < IN_FLIGHT:
            request_id, payload = self._waiting.popleft()
            self._send(worker, request_id, payload)

    def _replace(self, worker: _Worker) -> None:
        """A worker died: fail what it held, start another in its place (warmed for the variants remembered)."""
        if worker not in self._workers:
            return
        if self._loop is not None:
            self._loop.remove_reader(worker.connection.fileno())
        worker.connection.close()
        for future in worker.in_flight.values():
            if not future.done():
                future.set_exception(WorkerDied("the bot's worker process died"))
        if worker.job is not None and worker.job.rules is not None and not self._stopped:
            # perhaps the rules killed it: a successor is not asked again (whatever killed it, the first decision
            # under them builds the tables, as without the warm-up)
            self._remembered.pop(worker.job.rules, None)
            log.error("bot worker %s died during the warm-up for %s; it is not tried again", self.name,
                      worker.job.label)
        for job in [worker.job, *worker.jobs]:
            if job is not None and job.future is not None and not job.future.done():
                job.future.set_exception(WorkerDied("the bot's worker process died"))
        worker.job = None
        worker.jobs.clear()
        with contextlib.suppress(Exception):
            worker.process.kill()
        index = self._workers.index(worker)
        if self._stopped:
            return
        log.error("bot worker %s died; starting another", self.name)
        self._workers[index] = fresh = self._start()
        for rules, (body, label) in self._remembered.items():
            self._queue_warm(fresh, rules, body, label)
        if self._loop is not None:
            self._loop.add_reader(fresh.connection.fileno(), self._readable, fresh)
        self._feed(fresh)
        self._feed_jobs(fresh)

    def stop(self) -> None:
        """Close the pipes (the workers exit), kill what is left, fail every waiting decision and question."""
        self._stopped = True
        for worker in self._workers:
            if self._loop is not None and not self._loop.is_closed():
                with contextlib.suppress(Exception):
                    self._loop.remove_reader(worker.connection.fileno())
            worker.connection.close()
        for future in list(self._futures.values()):
            if not future.done():
                future.cancel()
        for worker in self._workers:
            worker.process.join(timeout=1)
            if worker.process.is_alive():
                worker.process.kill()
