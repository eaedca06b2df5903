"""Audit of the deal review (``GET /api/tables/{id}/deals/{n}/review``): what a client asking for reviews must not
be able to do to the server (keep the live games' double-dummy values out, leave workers behind), and the deal
numbers it may write."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

from server_helpers import ThreadServer
from test_server_review import in_deal_two, new_table, play, review

from mizerka.deal import Deal, Phase
from mizerka.server import dd as dd_module
from mizerka.server.dd import DoubleDummy


def slow_review(_record: Any, seconds: float) -> None:
    """A review's stand-in that takes *seconds* (run in the worker process: module level, picklable)."""
    time.sleep(seconds)


def finished_deal(seed: int = 2) -> Deal:
    deal = Deal.random(seed)  # a deal the solver settles in a fraction of a second
    while deal.phase is not Phase.DONE:
        deal.push(deal.parse_action("keep") if deal.phase is Phase.EXCHANGE else next(iter(deal.legal_actions)))
    return deal


def test_reviews_cannot_keep_the_deal_end_analysis_out(monkeypatch: Any) -> None:
    """A client asking for the reviews of many deals at once filled the shared queue (16 waiting), and the next
    live deal's double-dummy values were refused as ``busy``: reviews may fill only part of the queue, and a free
    slot goes to a deal-end analysis before any waiting review."""
    monkeypatch.setattr(dd_module, "review_deal", slow_review)
    deal = finished_deal()

    async def scenario() -> tuple[Any, list[Any], float]:
        runner = DoubleDummy(limit=60, workers=1)
        reviews = [asyncio.create_task(runner.review(None, 1.0, 30)) for _ in range(20)]  # type: ignore[arg-type]
        await asyncio.sleep(0.3)
        started = time.monotonic()
        try:
            result = await runner.analyse(deal)
            took = time.monotonic() - started
        finally:
            runner.stop()
            for task in reviews:
                task.cancel()
            outcomes = await asyncio.gather(*reviews, return_exceptions=True)
        return result, outcomes, took

    (values, reason), outcomes, took = asyncio.run(scenario())
    assert reason is None and values is not None, reason
    assert took < 20  # after the review running when it came, not after every review waiting
    busy = [o for o in outcomes if o == (None, "busy")]
    assert len(busy) >= 20 - 1 - 4  # past the reviews' share of the queue: busy at once


def test_a_deal_end_analysis_is_served_before_waiting_reviews(monkeypatch: Any) -> None:
    monkeypatch.setattr(dd_module, "review_deal", slow_review)
    deal = finished_deal()
    order: list[str] = []

    async def scenario() -> None:
        runner = DoubleDummy(limit=60, workers=1)

        async def one_review(name: str) -> None:
            await runner.review(None, 0.5, 30)  # type: ignore[arg-type]
            order.append(name)

        async def analysis() -> None:
            values, reason = await runner.analyse(deal)
            assert reason is None and values is not None
            order.append("dd")

        first = asyncio.create_task(one_review("r1"))
        await asyncio.sleep(0.1)
        second = asyncio.create_task(one_review("r2"))
        await asyncio.sleep(0.1)
        await asyncio.gather(first, second, analysis())
        runner.stop()

    asyncio.run(scenario())
    assert order == ["r1", "dd", "r2"]


def test_a_cancelled_waiter_gives_its_turn_on(monkeypatch: Any) -> None:
    monkeypatch.setattr(dd_module, "review_deal", slow_review)

    async def scenario() -> list[Any]:
        runner = DoubleDummy(limit=60, workers=1)
        first = asyncio.create_task(runner.review(None, 0.3, 30))  # type: ignore[arg-type]
        await asyncio.sleep(0.05)
        gone = asyncio.create_task(runner.review(None, 0.3, 30))  # type: ignore[arg-type]
        last = asyncio.create_task(runner.review(None, 0.3, 30))  # type: ignore[arg-type]
        await asyncio.sleep(0.05)
        gone.cancel()
        results = await asyncio.gather(first, last)
        assert runner._free == 1 and runner._waiting == 0
        runner.stop()
        return list(results)

    assert asyncio.run(scenario()) == [(None, None), (None, None)]


def test_zero_padded_deal_numbers_are_the_deal(make_server: Any) -> None:
    """'01' was deal 1 but a longer zero padding ('0000000000001', 13 characters) was refused as ``bad_deal``
    (only the first 12 characters were read: zeros)."""
    server: ThreadServer = make_server()
    table, token = new_table(server)
    play(server, table, token, in_deal_two)
    assert review(server, table, "01").status_code == 200
    for padded in ("0" * 12 + "1", "0" * 39 + "1"):
        response = review(server, table, padded)
        assert response.status_code == 200, response.text
        assert response.json()["deal"] == 1
    response = review(server, table, "0" * 40)
    assert (response.status_code, response.json()["error"]) == (400, "bad_deal")
    response = review(server, table, "0" * 20 + "9" * 20)
    assert (response.status_code, response.json()["error"]) == (404, "unknown_deal")
    assert "9" * 20 in response.json()["message"]


def test_a_review_in_flight_does_not_hold_the_shutdown_up(make_server: Any, monkeypatch: Any) -> None:
    """uvicorn waits for the open requests before the app's shutdown (which killed the workers): a review waiting
    for a long analysis held the server's stop up for ``review_limit`` seconds (a minute here, 30 s by default;
    each review waiting behind it as long again).  ``mizerka serve`` halts the analyses first: the request is
    answered at once (``busy``), its worker killed."""

    async def long_review(self: DoubleDummy, record: Any, deal_no: int, limit: float) -> Any:
        return await self.run(slow_review, (record, 60.0), limit, priority=1)

    monkeypatch.setattr(DoubleDummy, "review", long_review)
    server: ThreadServer = make_server(review_limit=120.0, dd_busy_rate=0.0)
    table, token = new_table(server)
    play(server, table, token, in_deal_two)
    answers: list[Any] = []
    asking = threading.Thread(target=lambda: answers.append(review(server, table, 1)))
    asking.start()
    solvers = server.hub.solvers
    assert solvers is not None
    deadline = time.monotonic() + 30
    while not solvers._procs:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    processes = list(solvers._procs)

    async def halt() -> None:
        server.hub.halt_analyses()

    started = time.monotonic()
    server.call(halt())
    asking.join(timeout=30)
    assert not asking.is_alive() and time.monotonic() - started < 10
    assert answers[0].status_code == 200 and answers[0].json()["analysis"] == "busy"
    assert all(not p.is_alive() for p in processes)
    assert review(server, table, 1).json()["analysis"] == "busy"  # nothing starts any more
    started = time.monotonic()
    server.stop()
    assert time.monotonic() - started < 10
