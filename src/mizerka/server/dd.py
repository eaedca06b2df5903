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
from mizerka.rules import Role

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


def dd_tricks(position: Any, seats: tuple[int, ...]) -> list[int]:
    """The paranoid double-dummy tricks of each of *seats* (runs in the worker process)."""
    from mizerka.solver import solve

    return [solve(position, seat) for seat in seats]


def dd_values(deal: Deal, tricks: list[int]) -> dict[str, list[int | None]]:
    """The ``dd`` payload: tricks and scores by seat (``None`` for a seat that sits the deal out)."""
    assert deal.contract is not None
    n = deal.rules.n_seats
    by_seat: list[int | None] = [None] * n
    scores: list[int | None] = [None] * n
    for role, (seat, won) in enumerate(zip(deal.active_seats, tricks, strict=True)):
        by_seat[seat] = won
        scores[seat] = deal.rules.score(Role(role), deal.contract, won)
    return {"tricks": by_seat, "scores": scores}


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

    def __init__(self, limit: float, workers: int = 1, max_waiting: int = 16) -> None:
        self.limit = limit
        self.max_waiting = max_waiting
        self._slots = asyncio.Semaphore(workers)
        self._waiting = 0
        self._context: Any = None
        self._procs: set[Any] = set()

    def _ctx(self) -> Any:
        if self._context is None:
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(["mizerka.server.dd", "mizerka.solver", "mizerka.analysis"])
            self._context = context
        return self._context

    async def analyse(self, deal: Deal) -> tuple[dict[str, list[int | None]] | None, str | None]:
        """The double-dummy values of the finished *deal* from the start of its play phase."""
        from mizerka.solver import Position, StockNotEmptyError

        if self._waiting >= self.max_waiting:
            return None, "busy"
        start = start_of_play(deal)
        try:
            position = Position.from_deal(start)
        except StockNotEmptyError:  # cards drawn during play (seed002-literal): the solver cannot take it
            return None, "unsupported"
        seats = tuple(start.active_seats)
        tricks, reason = await self.run(dd_tricks, (position, seats), self.limit)
        if tricks is None:
            return None, reason
        return dd_values(start, tricks), None

    async def review(self, record: MatchRecord, deal_no: int, limit: float) -> tuple[DealAnalysis | None, str | None]:
        """Judge every card of deal *deal_no* of the full *record* (:func:`mizerka.analysis.analyse_deal`) in a
        worker, within *limit* seconds."""
        return await self.run(review_deal, (record, deal_no), limit)

    async def run(self, target: Callable[..., T], args: tuple[Any, ...], limit: float) -> tuple[T | None, str | None]:
        """``target(*args)`` in a worker process (*target* a module-level function, *args* and its answer
        picklable), once a slot is free, killed after *limit* seconds: its answer, or ``None`` and why not
        (``busy``: too many waiting already; ``timeout``; ``error``)."""
        if self._waiting >= self.max_waiting:
            return None, "busy"
        self._waiting += 1
        try:
            await self._slots.acquire()
        finally:
            self._waiting -= 1
        try:
            return await self._run(target, args, limit)
        finally:
            self._slots.release()

    async def _run(self, target: Callable[..., T], args: tuple[Any, ...], limit: float) -> tuple[T | None, str | None]:
        loop = asyncio.get_running_loop()
        context = self._ctx()
        receiver, sender = context.Pipe(duplex=False)
        process = context.Process(target=_child, args=(sender, target, args, os.getpid()), daemon=True)
        try:
            await asyncio.to_thread(process.start)
        except Exception:
            log.exception("the double-dummy worker did not start")
            receiver.close()
            sender.close()
            return None, "error"
        sender.close()
        self._procs.add(process)
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
                return None, "error"
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

    def stop(self) -> None:
        """Kill every analysis (and review) still running."""
        for process in list(self._procs):
            with contextlib.suppress(Exception):
                process.kill()
