"""Double-dummy values of a finished deal, and the review of its every card, computed in a killable worker
process with a time limit.

When a deal is over the server tells everyone what perfect play with all cards open would have given from
the position at the start of play (after the exchanges): for each active seat the paranoid value of
:func:`mizerka.solver.solve` (the two others play against it) and the score those tricks would make.  The
deal is over, so this reveals nothing a player may not know: the server sends it only after ``deal_end``.

A full deal can take the solver from a few hundredths of a second to half a minute, and the solver's C
kernel cannot be interrupted, so each analysis runs in its own process, forked from a forkserver that has the
solver loaded (a fork costs milliseconds), at the lowest priority (nice 19; not ``SCHED_IDLE``, which on
a machine kept busy by other work would never finish one) so that play keeps priority; a process still
running when the limit is up is killed.  :class:`DoubleDummy` limits how many run at once and how many may wait.

The same workers judge each card of a finished deal for its review (``GET /api/tables/{id}/deals/{n}/review``):
:meth:`DoubleDummy.review` runs :func:`mizerka.analysis.analyse_deal` in one, with its own time limit, sharing
the slots (so the two together never run more solvers at once than ``dd_workers``).

>>> deal = Deal.random(1)
>>> while deal.phase.name != "DONE":
...     deal.push(next(iter(deal.legal_actions)) if deal.phase.name != "EXCHANGE" else deal.parse_action("keep"))
>>> start = start_of_play(deal)
>>> (len(start.tricks), len(start.trick), start.phase.name)
(0, 0, 'PLAY')
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Any, TypeVar

from mizerka.deal import Deal, Phase

if TYPE_CHECKING:
    from mizerka.analysis import DealAnalysis
    from mizerka.record import MatchRecord

__all__ = ["DoubleDummy", "dd_values", "review_deal", "start_of_play"]

T = TypeVar("T")

log = logging.getLogger("mizerka.server")


def start_of_play(deal: Deal) -> Deal:
    """A copy of *deal* taken back to the start of its play phase (the contract chosen, every exchange made)."""
    start = deal.copy()
    while start.tricks or start.trick:
        start.pop()
    if start.phase is not Phase.PLAY:
        raise ValueError(f"the deal has not reached its play phase ({start.phase.name.lower()})")
    return start


def dd_tricks(deal: Deal) -> list[int | None]:
    """The paranoid double-dummy tricks of each seat of *deal*, by seat (runs in the worker process):
    :func:`mizerka.analysis.perfect_tricks`."""
    from mizerka.analysis import perfect_tricks

    return perfect_tricks(deal)


def dd_values(deal: Deal, tricks: list[int | None]) -> dict[str, list[int | None]]:
    """The ``dd`` payload: *tricks* (by seat, ``None`` for a seat that sits the deal out) and their scores
    (:func:`mizerka.analysis.perfect_scores`)."""
    from mizerka.analysis import perfect_scores

    return {"tricks": list(tricks), "scores": perfect_scores(deal, tricks)}


def review_deal(record: MatchRecord, deal_no: int) -> DealAnalysis:
    """Every card of deal *deal_no* of the full *record* judged by the solver (runs in the worker process)."""
    from mizerka.analysis import analyse_deal

    return analyse_deal(record, deal_no)


def _child(conn: Connection, target: Callable[..., Any], args: tuple[Any, ...], server_pid: int) -> None:
    """The worker: lowest priority, die with the server, compute ``target(*args)``, send the answer."""
    with contextlib.suppress(OSError):
        os.nice(19)

    def watch() -> None:
        while True:
            try:
                os.kill(server_pid, 0)
            except OSError:
                os._exit(0)
            time.sleep(0.5)

    threading.Thread(target=watch, daemon=True).start()
    try:
        conn.send(target(*args))
    finally:
        conn.close()


class DoubleDummy:
    """Runs double-dummy analyses (and deal reviews), at most *workers* at a time and *limit* seconds each (a
    review: its own limit), with at most *max_waiting* waiting for a slot.

    :meth:`analyse` answers the payload, or ``None`` with a reason (``timeout``, ``busy``, ``error``,
    ``unsupported``: a variant whose players draw from a stock during play, which the solver cannot take);
    :meth:`review` the deal's :class:`~mizerka.analysis.DealAnalysis`, or ``None`` with a reason (``timeout``,
    ``busy``, ``error``).
    """

    def __init__(self, limit: float, workers: int = 1, max_waiting: int = 16,
                 max_review_waiting: int | None = None) -> None:
        self.limit = limit
        self.max_waiting = max_waiting
        # reviews (asked for by any client) may fill only part of the queue, and a free slot goes to a deal-end
        # analysis first: a client asking for review after review must not keep the live games' values out
        self.max_review_waiting = max(1, max_waiting // 4) if max_review_waiting is None else max_review_waiting
        self._free = workers
        self._queues: tuple[collections.deque[asyncio.Future[None]], ...] = (collections.deque(), collections.deque())
        self._context: Any = None
        self._procs: set[Any] = set()
        self._stopped = False

    @property
    def _waiting(self) -> int:
        """How many analyses wait for a slot (both kinds)."""
        return sum(len(queue) for queue in self._queues)

    async def _acquire(self, priority: int) -> None:
        """Take a slot: at once when one is free and nobody waits, else in turn (priority 0, the deal-end
        analyses, before 1, the reviews)."""
        if self._free > 0 and not self._waiting:
            self._free -= 1
            return
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        queue = self._queues[priority]
        queue.append(waiter)
        try:
            await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():  # handed the slot, then cancelled: pass it on
                self._release()
            else:
                with contextlib.suppress(ValueError):
                    queue.remove(waiter)
            raise

    def _release(self) -> None:
        """Give a slot back: to the first waiter of the highest priority, else to the free ones."""
        for queue in self._queues:
            while queue:
                waiter = queue.popleft()
                if not waiter.done():
                    waiter.set_result(None)
                    return
        self._free += 1

    def _ctx(self) -> Any:
        if self._context is None:
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(["mizerka.server.dd", "mizerka.solver", "mizerka.analysis"])
            self._context = context
        return self._context

    async def analyse(self, deal: Deal) -> tuple[dict[str, list[int | None]] | None, str | None]:
        """The double-dummy values of the finished *deal* from the start of its play phase."""
        from mizerka.solver import Position, StockNotEmptyError

        if len(self._queues[0]) >= self.max_waiting:
            return None, "busy"
        start = start_of_play(deal)
        try:
            position = Position.from_deal(start)
        except StockNotEmptyError:  # cards drawn during play (seed002-literal): the solver cannot take it
            return None, "unsupported"
        del position  # built here only to refuse a deal the solver cannot take before a worker starts
        tricks, reason = await self.run(dd_tricks, (start,), self.limit)
        if tricks is None:
            return None, reason
        return dd_values(start, tricks), None

    async def review(self, record: MatchRecord, deal_no: int, limit: float) -> tuple[DealAnalysis | None, str | None]:
        """Judge every card of deal *deal_no* of the full *record* (:func:`mizerka.analysis.analyse_deal`) in a
        worker, within *limit* seconds.  Reviews wait behind the deal-end analyses, at most
        :attr:`max_review_waiting` of them (``busy`` past it)."""
        return await self.run(review_deal, (record, deal_no), limit, priority=1)

    async def run(self, target: Callable[..., T], args: tuple[Any, ...], limit: float,
                  priority: int = 0) -> tuple[T | None, str | None]:
        """``target(*args)`` in a worker process (*target* a module-level function, *args* and its answer
        picklable), once a slot is free, killed after *limit* seconds: its answer, or ``None`` and why not
        (``busy``: too many waiting already; ``timeout``; ``error``).  *priority* 0 (a deal-end analysis) is
        given a free slot before 1 (a review), which may have only :attr:`max_review_waiting` waiting."""
        cap = self.max_waiting if priority == 0 else self.max_review_waiting
        if len(self._queues[priority]) >= cap and not (self._free > 0 and not self._waiting):
            return None, "busy"
        if self._stopped:
            return None, "busy"
        await self._acquire(priority)
        try:
            if self._stopped:
                return None, "busy"
            return await self._run(target, args, limit)
        finally:
            self._release()

    async def _run(self, target: Callable[..., T], args: tuple[Any, ...], limit: float) -> tuple[T | None, str | None]:
        loop = asyncio.get_running_loop()
        context = self._ctx()
        receiver, sender = context.Pipe(duplex=False)
        process = context.Process(target=_child, args=(sender, target, args, os.getpid()), daemon=True)
        self._procs.add(process)  # before it starts: stop() (or a cancel) while it starts must not miss it
        starting = asyncio.ensure_future(asyncio.to_thread(process.start))
        try:
            await asyncio.shield(starting)
        except asyncio.CancelledError:  # the server stops: the process is killed once started
            starting.add_done_callback(lambda _f: self._kill(process))
            receiver.close()
            sender.close()
            raise
        except Exception:
            log.exception("the double-dummy worker did not start")
            self._procs.discard(process)
            receiver.close()
            sender.close()
            return None, "error"
        sender.close()
        if self._stopped:
            self._kill(process)
        ready: asyncio.Future[None] = loop.create_future()

        def readable() -> None:
            if not ready.done():
                ready.set_result(None)

        loop.add_reader(receiver.fileno(), readable)
        try:
            await asyncio.wait_for(ready, limit)
            try:
                result: T = receiver.recv()
            except (EOFError, OSError):  # the worker died (an exception in it, or killed) without an answer
                return None, "busy" if self._stopped else "error"
            return result, None
        except TimeoutError:
            return None, "timeout"
        finally:
            loop.remove_reader(receiver.fileno())
            receiver.close()
            if process.is_alive():
                process.kill()
            await asyncio.to_thread(process.join, 5)
            self._procs.discard(process)

    def _kill(self, process: Any) -> None:
        with contextlib.suppress(Exception):
            if process.is_alive():
                process.kill()
        if not process.is_alive():
            self._procs.discard(process)

    def stop(self) -> None:
        """Kill every analysis (and review) still running, and answer those waiting ``busy``: nothing more
        starts.  (Called as the server begins to stop, so that no request waiting for an analysis holds the
        shutdown up for its time limit, and again with the hub.)"""
        self._stopped = True
        for queue in self._queues:
            while queue:
                waiter = queue.popleft()
                if not waiter.done():
                    waiter.set_result(None)
        for process in list(self._procs):
            with contextlib.suppress(Exception):
                process.kill()
