"""The bot worker processes, fed from the event loop: decisions come back to their callers, and a worker that
dies fails only what it held and is replaced.  Asked to, the workers build a variant's search tables ahead of
play (``warm``), in the background; a replacement builds those of the variants asked before."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
from pathlib import Path

import pytest

from mizerka.bots import warm_up
from mizerka.bots.search import option_values
from mizerka.match import Match
from mizerka.rules import STANDARD, parse_variant
from mizerka.server.hub import Hub, ServerConfig
from mizerka.server.tables import SeatState, TableSettings
from mizerka.server.workers import (
    IN_FLIGHT,
    ProcessWorkers,
    ThreadWorkers,
    WarmUpError,
    WorkerDied,
    WorkerError,
    decide,
)

USES_2 = parse_variant("standard,uses=2")  # priced by contract baselines (option values do not model it)
SHORT = parse_variant("standard,contracts=NT+MZ")  # priced by option values, quick to build (two contracts)


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


async def replaced(pool: ProcessWorkers, index: int, pid: int | None) -> None:
    """Wait until the pool has noticed the death of its worker *index* (process *pid*) and started another."""
    for _ in range(600):
        if pool._workers[index].process.pid != pid:
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the dead worker was not replaced")


def test_a_pool_warmed_for_variants_holds_their_tables_in_every_worker_before_a_decision_there(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """``warm`` has each worker build a variant's contract prices in the background (both kinds: baselines for
    ``uses=2``, option values for a short match); a variant asked again is not sent again; the question
    ``tables_ready`` tells the truth for one never warmed; a worker holding a decision gets no warm-up before
    it has answered; decisions are the ones made anywhere else."""
    caplog.set_level(logging.INFO, logger="mizerka.server")
    match = Match(USES_2, seed=3)
    observation = match.observation(match.to_move)
    assert observation.phase.name == "CHOOSE" and observation.rules == USES_2
    standard = Match(seed=3)
    pool = ProcessWorkers(2, "test-variants")

    async def run() -> None:
        first = asyncio.ensure_future(pool.decide("pimc", standard.observation(standard.to_move), 5))
        await asyncio.sleep(0)
        assert [len(worker.in_flight) for worker in pool._workers] == [1, 0]
        pool.warm(USES_2)
        pool.warm(SHORT)
        pool.warm(USES_2)  # remembered: nothing new to do
        # the idle worker starts at once; the busy one is sent its warm-ups once it has answered
        assert [worker.job is not None for worker in pool._workers] == [False, True]
        assert (await asyncio.wait_for(first, 120)).action == decide(
            "pimc", standard.observation(standard.to_move), 5).action
        assert await asyncio.wait_for(pool.tables_ready(USES_2), 120) == [True, True]
        assert await asyncio.wait_for(pool.tables_ready(SHORT), 120) == [True, True]
        # never warmed: not built before the question (which builds it)
        uses_3 = parse_variant("standard,uses=3")
        assert await asyncio.wait_for(pool.tables_ready(uses_3), 120) == [False, False]
        assert await asyncio.wait_for(pool.tables_ready(uses_3), 120) == [True, True]
        decision = await asyncio.wait_for(pool.decide("pimc", observation, 5), 120)
        assert decision.action == decide("pimc", observation, 5).action

    try:
        asyncio.run(run())
    finally:
        pool.stop()
    asked = [r.getMessage() for r in caplog.records if "warming up for" in r.getMessage()]
    assert asked == ["bot workers test-variants: warming up for standard,uses=2",
                     "bot workers test-variants: warming up for standard,contracts=NT+MZ"]


def test_warming_refuses_what_is_not_rules_and_a_failed_warm_up_leaves_the_worker_playing(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Something that is not rules, or rules that cannot be sent, are refused by both pools with a
    ``WarmUpError`` naming the problem; rules that break the warm-up inside a worker are logged there, and the
    same worker process goes on deciding."""
    broken = STANDARD.replace(name="broken")
    object.__setattr__(broken, "contracts", ("X",))  # hashes and pickles, but no table can be built for it
    shell = STANDARD.replace(name="shell")
    object.__setattr__(shell, "quota_ordinary", [7, 5, 1])  # a list: such rules cannot even be hashed
    threads = ThreadWorkers(1, "test-threads")
    try:
        with pytest.raises(WarmUpError, match=r"warms up for a Rules .* not str"):
            threads.warm("standard,uses=2")  # type: ignore[arg-type]
        with pytest.raises(WarmUpError, match="cannot be sent to a bot worker"):
            threads.warm(shell)
        assert threads.warm(USES_2) is None  # accepted; the thread pool builds nothing ahead (see its docstring)
    finally:
        threads.stop()
    caplog.set_level(logging.INFO, logger="mizerka.server")
    match = Match(seed=3)
    observation = match.observation(match.to_move)
    pool = ProcessWorkers(1, "test-broken")

    async def run() -> None:
        with pytest.raises(WarmUpError, match="not str"):
            pool.warm("standard,uses=2")  # type: ignore[arg-type]
        with pytest.raises(WarmUpError, match="cannot be sent to a bot worker"):
            pool.warm(shell)
        pid = pool._workers[0].process.pid
        pool.warm(broken)
        pool.warm(USES_2)
        # answered after both warm-ups: the broken one failed in the worker, the next one still ran
        assert await asyncio.wait_for(pool.tables_ready(USES_2), 120) == [True]
        with pytest.raises(WorkerError, match="job failed: TypeError"):
            await asyncio.wait_for(pool.tables_ready(broken), 120)
        decision = await asyncio.wait_for(pool.decide("rules", observation, 1), 60)
        assert decision.action == decide("rules", observation, 1).action
        assert pool._workers[0].process.pid == pid and pool._workers[0].process.is_alive()

    try:
        asyncio.run(run())
    finally:
        pool.stop()
    failures = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(failures) == 1 and "the warm-up for 'broken' failed (TypeError" in failures[0], failures


def test_a_worker_started_in_place_of_a_dead_one_warms_the_variants_asked_before() -> None:
    """The replacement of a killed worker builds the remembered variants' tables before it is asked; a variant
    a worker died warming up for is not tried again (it may be what killed it), and the question pending when
    it died fails as a dead worker's."""
    pool = ProcessWorkers(1, "test-replaced")

    async def run() -> None:
        pool.warm(USES_2)
        assert await asyncio.wait_for(pool.tables_ready(USES_2), 120) == [True]
        first = pool._workers[0].process.pid
        assert first is not None
        os.kill(first, signal.SIGKILL)
        await replaced(pool, 0, first)
        assert await asyncio.wait_for(pool.tables_ready(USES_2), 120) == [True]  # a fresh process, warmed

        second = pool._workers[0].process.pid
        assert second is not None and second != first
        pool.warm(SHORT)
        question = asyncio.ensure_future(pool.tables_ready(SHORT))
        await asyncio.sleep(0)
        assert pool._workers[0].job is not None  # the warm-up for SHORT is under way: the worker dies in it
        os.kill(second, signal.SIGKILL)
        with pytest.raises(WorkerDied):
            await asyncio.wait_for(question, 60)
        await replaced(pool, 0, second)
        assert await asyncio.wait_for(pool.tables_ready(SHORT), 120) == [False]  # not warmed again
        assert await asyncio.wait_for(pool.tables_ready(USES_2), 120) == [True]  # still remembered

    try:
        asyncio.run(run())
    finally:
        pool.stop()


def test_the_hub_warms_its_searching_pool_for_variant_tables_once_their_match_starts(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A variant table with a searching bot gets the slow pool warmed for its rules when its match starts (the
    last seat taken), and again when a restarted server resumes it in play; a table that only waits for players
    is not warmed (it may never start: making tables must not keep the bots' processes busy), nor a variant
    table of quick bots only."""
    config = ServerConfig(database=f"sqlite:///{tmp_path / 'warm.sqlite3'}", bot_pool="process", bot_workers=1,
                          slow_bot_workers=1, dd_limit=0.0, review_limit=0.0, gc_freeze=False, web_dir=None)
    uses_3 = parse_variant("standard,uses=3")
    waiting_only = parse_variant("standard,uses=2,first_dealer=1")

    def warmed() -> list[str]:
        return [r.getMessage().rsplit(" ", 1)[-1] for r in caplog.records if "warming up for" in r.getMessage()]

    async def made() -> None:
        hub = Hub(config)
        await hub.start()
        try:
            assert isinstance(hub.slow_pool, ProcessWorkers)
            with caplog.at_level(logging.INFO, logger="mizerka.server"):
                playing = await hub.create_table(TableSettings(variant=USES_2.spec()),
                                                 [SeatState.human(), SeatState.bot("pimc"), SeatState.bot("rules")])
                await hub.create_table(TableSettings(variant=waiting_only.spec()),
                                       [SeatState.human(), SeatState.bot("pimc"), SeatState.bot("rules")])
                await hub.create_table(TableSettings(variant=uses_3.spec()),
                                       [SeatState.human(), SeatState.bot("rules"), SeatState.bot("random")])
                assert warmed() == []  # nothing has started
                await hub.join(playing.table.id, "Ala")
                assert playing.table.status == "playing"
                assert warmed() == [USES_2.spec()]
                # the warm-up reached the worker: its tables are there (the question waits behind the warm-up)
                assert await asyncio.wait_for(hub.slow_pool.tables_ready(USES_2), 120) == [True]
        finally:
            await hub.stop()

    async def resumed() -> None:
        caplog.clear()
        hub = Hub(config)
        with caplog.at_level(logging.INFO, logger="mizerka.server"):
            await hub.start()
        try:
            assert warmed() == [USES_2.spec()]  # the table in play, not the one still waiting
        finally:
            await hub.stop()

    asyncio.run(made())
    asyncio.run(resumed())
