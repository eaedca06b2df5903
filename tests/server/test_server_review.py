"""The review of a finished deal (``GET /api/tables/{id}/deals/{n}/review``): every card played, judged by the
exact solver in the double-dummy workers; who may have it (as the record), which deals, the errors, the
``--review-limit`` (off, timeout), the busy rule, and the cache (one analysis per deal, shared by concurrent
requests).

What a client asking for reviews must not be able to do to the server: reviews may fill only part of the shared
queue of the double-dummy workers, and a free worker goes to a deal-end analysis before any waiting review, so that
asking for many reviews at once never keeps the live games' double-dummy values out (they were refused ``busy``); a
waiter that gives up passes its turn on; ``mizerka serve`` halts the analyses before it stops, so a review in flight
is answered ``busy`` at once and holds the shutdown up no longer than that.  A deal number may carry any zero
padding ("0000000000001" was refused ``bad_deal``: only its first 12 characters were read)."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import httpx
import pytest
from click.testing import CliRunner
from server_helpers import ThreadServer, new_table, play

from mizerka.analysis import analyse_deal
from mizerka.cards import CARDS
from mizerka.deal import Deal, Exchange, Phase
from mizerka.record import MatchRecord, read_json
from mizerka.server import app as app_module
from mizerka.server import dd as dd_module
from mizerka.server.command import serve_command
from mizerka.server.dd import DoubleDummy
from mizerka.server.hub import ServerConfig
from mizerka.server.tables import card_list
from mizerka.server.views import _contract

SHORT = "standard,contracts=NT"  # three quick deals
KEYS = {"table", "deal", "players", "seats", "dealer", "chooser", "contract", "hands", "exchanges", "tricks",
        "tricks_won", "scores", "analysis", "unjudged_tricks"}
CARD_KEYS = {"seat", "card", "value", "best", "best_cards", "cost", "choices"}


def in_deal_two(view: dict[str, Any]) -> bool:
    """Deal 1 is over, deal 2 is being played and waits for us (so nothing moves while we ask)."""
    return view["deal_no"] == 2 and view["your_turn"] and view["phase"] in ("choose", "exchange", "play")


def review(server: ThreadServer, table: str, deal: int | str, token: str | None = None) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return httpx.get(server.url + f"/api/tables/{table}/deals/{deal}/review", headers=headers, timeout=60)


def full_record(server: ThreadServer, table: str, token: str | None = None) -> MatchRecord:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = httpx.get(server.url + f"/api/tables/{table}/record", params={"format": "json"}, headers=headers)
    assert response.status_code == 200, response.text
    return read_json(response.text)


def check_play(body: dict[str, Any], record: MatchRecord, table: str, number: int) -> None:
    """The review's play and result agree with the record, card for card."""
    assert set(body) == KEYS
    drec = record.deals[number - 1]
    assert drec.deck is not None and drec.contract is not None and drec.tricks_won is not None
    deal = Deal(drec.deck, rules=record.rules, dealer=drec.dealer)
    n = record.rules.n_seats
    active = list(deal.active_seats)
    assert (body["table"], body["deal"], body["players"]) == (table, number, list(record.players))
    assert (body["seats"], body["dealer"], body["chooser"]) == (active, drec.dealer, active[0])
    assert body["contract"] == _contract(drec.contract)
    assert [len(t["cards"]) for t in body["tricks"]] == [3] * len(drec.tricks)
    assert [[c["card"] for c in t["cards"]] for t in body["tricks"]] == [[str(c) for c in t] for t in drec.tricks]
    assert [t["leader"] for t in body["tricks"]] == list(drec.leaders or ())
    assert [t["no"] for t in body["tricks"]] == list(range(1, len(drec.tricks) + 1))
    for trick in body["tricks"]:
        start = active.index(trick["leader"])
        assert [c["seat"] for c in trick["cards"]] == [active[(start + i) % 3] for i in range(3)]
        assert all(set(c) == CARD_KEYS and c["choices"] >= 1 for c in trick["cards"])
    winners = [0] * n
    for trick in body["tricks"]:
        winners[trick["winner"]] += 1
    assert body["tricks_won"] == [drec.tricks_won[s] if s in active else None for s in range(n)]
    assert [w if s in active else None for s, w in enumerate(winners)] == body["tricks_won"]
    assert body["scores"] == [drec.scores[s] if s in active else None for s in range(n)]  # type: ignore[index]
    # the exchanges in order, and the hands at the start of play (after them), in the views' order
    assert len(body["exchanges"]) == len(drec.exchanges)
    for exchange, discards in zip(body["exchanges"], drec.exchanges, strict=True):
        assert exchange["discarded"] == card_list(discards) and len(exchange["drawn"]) == len(discards)
    assert [e["seat"] for e in body["exchanges"]] == active[:len(drec.exchanges)]
    for seat in range(n):
        if seat not in active:
            assert body["hands"][seat] == []
            continue
        hand = body["hands"][seat]
        assert hand == card_list([_code(c) for c in hand])  # the views' order
        if deal.rules.exchange_mode.name != "REPLENISH":  # every card of the hand is played, none drawn
            mine = [c["card"] for t in body["tricks"] for c in t["cards"] if c["seat"] == seat]
            assert sorted(hand) == sorted(mine)


def _code(text: str) -> int:
    return next(i for i, c in enumerate(CARDS) if str(c) == text)


def check_verdicts(body: dict[str, Any], record: MatchRecord, number: int) -> None:
    """The verdicts are analyse_deal's on the record, card for card."""
    assert body["analysis"] == "ok"
    expected = analyse_deal(record, number)
    assert body["unjudged_tricks"] == list(expected.unjudged_tricks)
    judged = iter(expected.plays)
    for trick in body["tricks"]:
        for card in trick["cards"]:
            if trick["no"] in expected.unjudged_tricks:
                assert (card["value"], card["best"], card["best_cards"], card["cost"]) == (None,) * 4
                continue
            verdict = next(judged)
            assert (verdict.trick_no, verdict.seat, str(verdict.card)) == (trick["no"], card["seat"], card["card"])
            assert card["value"] == verdict.value and card["best"] == verdict.best and card["cost"] == verdict.cost
            assert card["best_cards"] == [str(c) for c in verdict.best_cards]
            assert card["choices"] == verdict.choices
    assert next(judged, None) is None


# -- the review of a finished match -------------------------------------------------------------------


@pytest.mark.parametrize("variant", [SHORT, "four-players,contracts=NT"])
def test_review_of_every_deal_of_a_finished_match_is_the_analysis_of_its_record(make_server: Any,
                                                                                 variant: str) -> None:
    server: ThreadServer = make_server()
    table, token = new_table(server, variant, reveal=False)
    play(server, table, token, lambda v: v["phase"] == "over")
    record = full_record(server, table)
    assert record.is_over()
    for number in range(1, len(record.deals) + 1):
        response = review(server, table, number)
        assert response.status_code == 200, response.text
        body = response.json()
        check_play(body, record, table, number)
        check_verdicts(body, record, number)
        if variant.startswith("four"):  # a seat sits each deal out
            out = next(s for s in range(4) if s not in body["seats"])
            assert body["hands"][out] == [] and body["tricks_won"][out] is None and body["scores"][out] is None
    assert server.hub.reviews_run == len(record.deals)
    # the cache: asked again, no second analysis; the same answer
    again = review(server, table, 1)
    assert again.status_code == 200 and again.json() == review(server, table, 1).json()
    assert server.hub.reviews_run == len(record.deals)


@pytest.mark.filterwarnings("ignore:variant 'seed002-literal'")
def test_review_of_a_deal_drawing_from_a_stock_leaves_those_tricks_unjudged(make_server: Any) -> None:
    """seed002-literal: the players draw from a stock during the first tricks; the solver cannot judge those."""
    server: ThreadServer = make_server()
    table, token = new_table(server, "seed002-literal,contracts=NT")
    play(server, table, token, lambda v: v["deal_no"] == 2 and v["your_turn"])
    record = full_record(server, table)
    response = review(server, table, 1)
    assert response.status_code == 200, response.text
    body = response.json()
    check_play(body, record, table, 1)
    assert body["unjudged_tricks"] and body["unjudged_tricks"][0] == 1
    check_verdicts(body, record, 1)


# -- who may have it, which deals -----------------------------------------------------------------------


def test_review_is_for_whoever_may_have_the_deal_in_the_record(make_server: Any) -> None:
    server: ThreadServer = make_server()
    table, token = new_table(server, spectators=False, reveal=True)
    play(server, table, token, in_deal_two)
    refused = review(server, table, 1)
    assert (refused.status_code, refused.json()["error"]) == (403, "spectators_off"), refused.text
    assert set(refused.json()) == {"error", "message"}
    bad = review(server, table, 1, "not-a-token")
    assert (bad.status_code, bad.json()["error"]) == (403, "bad_token")
    mine = review(server, table, 1, token)
    assert mine.status_code == 200, mine.text
    record = full_record(server, table, token)
    check_play(mine.json(), record, table, 1)
    check_verdicts(mine.json(), record, 1)
    # the deal in progress: never, not even for a player
    current = review(server, table, 2, token)
    assert (current.status_code, current.json()["error"]) == (409, "deal_not_over"), current.text
    assert "tricks" not in current.json()
    unknown = httpx.get(server.url + "/api/tables/nosuchtable/deals/1/review")
    assert (unknown.status_code, unknown.json()["error"]) == (404, "unknown_table")


def test_review_of_a_finished_deal_of_a_match_in_progress_needs_reveal(make_server: Any) -> None:
    server: ThreadServer = make_server()
    hidden, hidden_token = new_table(server, reveal=False)
    shown, shown_token = new_table(server, reveal=True)
    play(server, hidden, hidden_token, in_deal_two)
    play(server, shown, shown_token, in_deal_two)
    refused = review(server, hidden, 1)
    assert (refused.status_code, refused.json()["error"]) == (409, "not_revealed"), refused.text
    assert review(server, hidden, 1, hidden_token).json()["error"] == "not_revealed"  # players too: as the record
    assert full_record(server, hidden).score_only
    assert review(server, shown, 1).status_code == 200
    assert server.hub.reviews_run == 1
    # once the match is over, every deal
    play(server, hidden, hidden_token, lambda v: v["phase"] == "over")
    assert review(server, hidden, 1).status_code == 200


def test_bad_deal_numbers_are_refused_and_change_nothing(make_server: Any) -> None:
    server: ThreadServer = make_server()
    waiting = httpx.post(server.url + "/api/tables", json={}).json()["id"]  # no player yet: no deal at all
    response = review(server, waiting, 1)
    assert (response.status_code, response.json()["error"]) == (404, "unknown_deal"), response.text
    table, token = new_table(server)
    play(server, table, token, in_deal_two)
    live = server.hub.tables[table].table
    seq = live.seq
    for deal, status, code in (("0", 400, "bad_deal"), ("-1", 400, "bad_deal"), ("x", 400, "bad_deal"),
                               ("1.5", 400, "bad_deal"), ("%20" "1", 400, "bad_deal"), ("١", 400, "bad_deal"),
                               ("99", 404, "unknown_deal"), ("3", 404, "unknown_deal"), ("9" * 30, 404, "unknown_deal"),
                               ("2", 409, "deal_not_over")):
        response = review(server, table, deal)
        assert (response.status_code, response.json()["error"]) == (status, code), (deal, response.text)
        assert set(response.json()) == {"error", "message"} and response.json()["message"]
    assert server.hub.tables[table].table is live and live.seq == seq and server.hub.reviews_run == 0
    assert review(server, table, "01").status_code == 200


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


# -- the limit, the busy rule, the cache ---------------------------------------------------------------


def test_review_limit_zero_gives_the_play_without_the_analysis(make_server: Any) -> None:
    server: ThreadServer = make_server(review_limit=0.0)
    table, token = new_table(server)
    play(server, table, token, in_deal_two)
    assert server.hub.solvers is None  # neither dd nor reviews: no workers at all
    body = review(server, table, 1).json()
    assert body["analysis"] == "off" and server.hub.reviews_run == 0
    check_play(body, full_record(server, table), table, 1)
    cards = [c for t in body["tricks"] for c in t["cards"]]
    assert all(c["value"] is c["best"] is c["best_cards"] is c["cost"] is None for c in cards)
    assert all(c["choices"] >= 1 for c in cards) and any(c["choices"] > 1 for c in cards)


def test_review_past_its_limit_is_a_timeout_remembered_for_a_while(make_server: Any) -> None:
    server: ThreadServer = make_server(review_limit=0.001)  # not even the worker's start fits in it
    table, token = new_table(server)
    play(server, table, token, in_deal_two)
    body = review(server, table, 1).json()
    assert body["analysis"] == "timeout"
    check_play(body, full_record(server, table), table, 1)
    assert all(c["value"] is None and c["choices"] >= 1 for t in body["tricks"] for c in t["cards"])
    assert review(server, table, 1).json() == body and server.hub.reviews_run == 1  # not tried again at once
    assert server.hub.solvers is not None and not server.hub.solvers._procs  # killed


def test_review_obeys_the_busy_rule_and_is_not_remembered_busy(make_server: Any) -> None:
    server: ThreadServer = make_server(dd_busy_rate=1.0)
    table, token = new_table(server)
    play(server, table, token, in_deal_two)

    async def flood() -> None:
        server.hub.rate.add(10_000)  # as if play were storing thousands of events a second

    server.call(flood())
    body = review(server, table, 1).json()
    assert body["analysis"] == "busy" and server.hub.reviews_run == 0 and body["tricks"]

    async def calm() -> None:
        server.hub.rate = type(server.hub.rate)()

    server.call(calm())
    assert review(server, table, 1).json()["analysis"] == "ok" and server.hub.reviews_run == 1


def test_concurrent_reviews_of_a_deal_share_one_analysis(make_server: Any) -> None:
    server: ThreadServer = make_server()
    table, token = new_table(server)
    play(server, table, token, in_deal_two)
    live = server.hub.tables[table].table
    from mizerka.server.app import table_record

    record = table_record(live)

    async def three() -> list[Any]:
        return list(await asyncio.gather(*(server.hub.review_analysis(table, record, 1) for _ in range(3))))

    results = server.call(three())
    assert server.hub.reviews_run == 1
    assert all(status == "ok" for _, status in results) and results[0][0] == results[1][0] == results[2][0]
    assert results[0][0] == analyse_deal(record, 1)
    started = time.monotonic()
    assert review(server, table, 1).json()["analysis"] == "ok" and server.hub.reviews_run == 1
    assert time.monotonic() - started < 5


def test_review_cache_is_bounded(make_server: Any) -> None:
    server: ThreadServer = make_server(review_cache=1)
    table, token = new_table(server)
    play(server, table, token, lambda v: v["deal_no"] == 3 and v["your_turn"])
    for number in (1, 2, 1):
        assert review(server, table, number).json()["analysis"] == "ok"
    assert server.hub.reviews_run == 3 and len(server.hub._reviews) == 1  # deal 1 was dropped for deal 2


def test_review_exchange_draws_are_the_cards_drawn(make_server: Any) -> None:
    """The exchanges as the deal made them: each seat's discards and the talon cards it drew, in order."""
    server: ThreadServer = make_server()
    table, token = new_table(server)
    play(server, table, token, in_deal_two)
    record = full_record(server, table)
    drec = record.deals[0]
    assert drec.deck is not None and drec.contract is not None
    deal = Deal(drec.deck, rules=record.rules, dealer=drec.dealer)
    expected = []
    for action in drec.actions():
        if isinstance(action, Exchange):
            seat = deal.to_move
            before = deal.hands[seat]
            deal.push(action)
            expected.append({"seat": seat, "discarded": card_list(before & ~deal.hands[seat]),
                             "drawn": card_list(deal.hands[seat] & ~before)})
        elif not deal.tricks and not deal.trick and deal.phase.name == "PLAY":
            break
        else:
            deal.push(action)
    body = review(server, table, 1).json()
    assert body["exchanges"] == expected
    assert body["hands"] == [card_list(deal.hands[s]) for s in range(3)]


# -- the reviews' share of the workers, and the shutdown ----------------------------------------------


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


# -- the option ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("args", "limit"), [([], 30.0), (["--review-limit", "0"], 0.0),
                                             (["--review-limit", "2.5"], 2.5)])
def test_serve_review_limit_option_reaches_the_hub(monkeypatch: pytest.MonkeyPatch, args: list[str],
                                                   limit: float) -> None:
    seen: list[ServerConfig] = []

    def create_app(config: ServerConfig) -> Any:
        seen.append(config)
        raise ValueError("not starting in this test")

    monkeypatch.setattr(app_module, "create_app", create_app)
    result = CliRunner().invoke(serve_command, ["--database", "sqlite:///:memory:", *args])
    assert result.exit_code == 1 and "not starting in this test" in result.output
    assert [c.review_limit for c in seen] == [limit]
    assert CliRunner().invoke(serve_command, ["--review-limit", "-1"]).exit_code == 2
