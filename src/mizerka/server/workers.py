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
from mizerka.deal import Observation

__all__ = ["IN_FLIGHT", "ProcessWorkers", "ThreadWorkers", "WorkerDied", "WorkerError", "Workers", "decide"]

log = logging.getLogger("mizerka.server")

IN_FLIGHT = 2
"""Requests a worker process holds at once: one it works on, one ready for when it is done."""

BOT_NICE = 5
"""How much lower than the server's the bot worker processes' priority is: a bot has ``bot_delay`` for its
decision anyway, so on a busy machine the event loop (and with it every client's latency) goes first."""


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


class Workers(Protocol):
    """What the hub needs of a pool."""

    async def decide(self, level: str, observation: Observation, seed: int) -> Decision: ...

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
    while True:
        try:
            request_id, level, observation, seed = connection.recv()
        except (EOFError, OSError):
            return
        try:
            answer: tuple[int, Decision | None, str | None] = (request_id, decide(level, observation, seed), None)
        except Exception as error:  # the bot's failure goes back to the server, the worker stays
            answer = (request_id, None, f"{type(error).__name__}: {error}")
        try:
            connection.send(answer)
        except (EOFError, OSError):
            return


class _Worker:
    __slots__ = ("connection", "in_flight", "process")

    def __init__(self, process: Any, connection: Connection) -> None:
        self.process = process
        self.connection = connection
        self.in_flight: dict[int, asyncio.Future[Decision]] = {}


class ProcessWorkers:
    """*workers* spawned processes fed from the event loop (see the module's docstring).

    With *warm*, each process (a replacement too) first runs :func:`mizerka.bots.warm_up`: the pool of the
    searching bots, so no first contract choice waits for the option-value table.

    The processes start with the pool (in the caller's thread: spawning takes a moment); the pool is then
    used from one event loop only.
    """

    def __init__(self, workers: int, name: str, warm: bool = False) -> None:
        self.name = name
        self.warm = warm
        self._context = multiprocessing.get_context("spawn")  # forked, a worker would inherit the listening socket
        self._workers = [self._start() for _ in range(workers)]
        self._waiting: collections.deque[tuple[int, bytes]] = collections.deque()
        self._futures: dict[int, asyncio.Future[Decision]] = {}
        self._ids = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopped = False

    def _start(self) -> _Worker:
        mine, theirs = self._context.Pipe(duplex=True)
        process = self._context.Process(target=_worker_main, args=(theirs, os.getpid(), self.warm), daemon=True,
                                        name=f"mizerka-{self.name}")
        process.start()
        theirs.close()
        return _Worker(process, mine)

    def _attach(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        for worker in self._workers:
            loop.add_reader(worker.connection.fileno(), self._readable, worker)

    async def decide(self, level: str, observation: Observation, seed: int) -> Decision:
        """The decision of a bot of *level* for *observation* (the seat's own: all the bot may know)."""
        if self._stopped:
            raise WorkerError("the bot pool is stopped")
        if self._loop is None:
            self._attach(asyncio.get_running_loop())
        assert self._loop is not None
        self._ids += 1
        request_id = self._ids
        future: asyncio.Future[Decision] = self._loop.create_future()
        self._futures[request_id] = future
        payload = pickle.dumps((request_id, level, observation, seed), protocol=pickle.HIGHEST_PROTOCOL)
        worker = min(self._workers, key=lambda w: len(w.in_flight))
        if len(worker.in_flight) < IN_FLIGHT:
            self._send(worker, request_id, payload)
        else:
            self._waiting.append((request_id, payload))
        try:
            return await future
        finally:
            self._futures.pop(request_id, None)

    def _send(self, worker: _Worker, request_id: int, payload: bytes) -> None:
        future = self._futures.get(request_id)
        if future is None or future.done():  # its caller gave up meanwhile
            return
        worker.in_flight[request_id] = future
        try:
            worker.connection.send_bytes(payload)
        except OSError:
            self._replace(worker)

    def _readable(self, worker: _Worker) -> None:
        try:
            while worker.connection.poll():
                request_id, decision, error = worker.connection.recv()
                future = worker.in_flight.pop(request_id, None)
                if future is not None and not future.done():
                    if error is None:
                        future.set_result(decision)
                    else:
                        future.set_exception(WorkerError(f"the bot failed: {error}"))
        except (EOFError, OSError):
            self._replace(worker)
            return
        self._feed(worker)

    def _feed(self, worker: _Worker) -> None:
        while self._waiting and len(worker.in_flight) < IN_FLIGHT:
            request_id, payload = self._waiting.popleft()
            self._send(worker, request_id, payload)

    def _replace(self, worker: _Worker) -> None:
        """A worker died: fail what it held, start another in its place."""
        if worker not in self._workers:
            return
        if self._loop is not None:
            self._loop.remove_reader(worker.connection.fileno())
        worker.connection.close()
        for future in worker.in_flight.values():
            if not future.done():
                future.set_exception(WorkerDied("the bot's worker process died"))
        with contextlib.suppress(Exception):
            worker.process.kill()
        index = self._workers.index(worker)
        if self._stopped:
            return
        log.error("bot worker %s died; starting another", self.name)
        self._workers[index] = fresh = self._start()
        if self._loop is not None:
            self._loop.add_reader(fresh.connection.fileno(), self._readable, fresh)
        self._feed(fresh)

    def stop(self) -> None:
        """Close the pipes (the workers exit), kill what is left, fail every waiting decision."""
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
