"""The bot worker processes, fed from the event loop: decisions come back to their callers, and a worker that
dies fails only what it held and is replaced."""

from __future__ import annotations

import asyncio
import os
import signal

import pytest

from mizerka.bots import warm_up
from mizerka.bots.search import option_values
from mizerka.match import Match
from mizerka.server.workers import IN_FLIGHT, ProcessWorkers, WorkerError, decide


def test_process_workers_answer_every_caller_and_survive_a_dead_worker() -> None:
    match = Match(seed=7)
    observations = [match.observation(match.to_move)]
    pool = ProcessWorkers(1, "test")

    async def run() -> None:
        many = 2 * IN_FLIGHT + 3  # more than the worker holds at once: the rest wait in the pool's queue
        decisions = await asyncio.gather(*(pool.decide("rules", observations[0], seed) for seed in range(many)))
        assert [d.action for d in decisions] == [decide("rules", observations[0], s).action for s in range(many)]
        with pytest.raises(WorkerError, match="the bot failed: UnknownBotError"):
            await pool.decide("no-such-level", observations[0], 1)
        worker = pool._workers[0]
        pending = asyncio.ensure_future(pool.decide("pimc", observations[0], 1))  # searches: still busy
        await asyncio.sleep(0)  # sent: the worker holds it when it is killed
        assert len(worker.in_flight) == 1
        os.kill(worker.process.pid, signal.SIGKILL)
        with pytest.raises(WorkerError, match="died"):
            await asyncio.wait_for(pending, 30)
        assert pool._workers[0] is not worker  # replaced, and it answers
        again = await asyncio.wait_for(pool.decide("rules", observations[0], 0), 60)
        assert again.action == decisions[0].action

    try:
        asyncio.run(run())
    finally:
        pool.stop()


def test_a_warm_pool_prices_contracts_before_its_first_request_and_decides_as_in_process() -> None:
    """The searching bots' pool computes the option-value table when each worker starts (``warm``), so a
    first contract choice does not pay for it; the decision is the one the bot makes anywhere else."""
    match = Match(seed=3)
    observation = match.observation(match.to_move)
    assert observation.phase.name == "CHOOSE"
    warm_up()
    assert option_values.cache_info().currsize >= 1  # what warm_up computes, cached for the process
    pool = ProcessWorkers(1, "test-warm", warm=True)
    try:
        decision = asyncio.run(asyncio.wait_for(pool.decide("pimc", observation, 5), 120))
        assert decision.action == decide("pimc", observation, 5).action
    finally:
        pool.stop()
