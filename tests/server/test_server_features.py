"""Features around the game: partial game records after each deal, double-dummy values after a deal, illegal
reasons as codes, every bot level, rematch over the websocket, abandoned-table cleanup, ``serve --open``."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import WS, ThreadServer, free_port

from mizerka.bots import BOT_LEVELS
from mizerka.bots.random_bot import RandomBot
from mizerka.cards import CARDS
from mizerka.deal import Deal, Phase
from mizerka.record import read_json, read_text
from mizerka.rules import parse_variant
from mizerka.server import workers
from mizerka.server.app import QuickPlay, SeatSpec
from mizerka.server.dd import DoubleDummy, dd_values, start_of_play
from mizerka.server.protocol import SERVER_ADAPTER
from mizerka.solver import Position, solve


def act_first(ws: WS) -> None:
    """Play the first legal action (keep in the exchange) if it is our turn, else read one message."""
    view = ws.view
    assert view is not None
    if view["your_turn"]:
        reply = ws.request({"type": "act", "action": view["legal"][0] if view["legal"] else "keep", "seq": ws.seq})
        assert reply["type"] == "ack" or reply.get("code") == "stale_seq", reply
    else:
        ws.recv()


def quickplay(server: ThreadServer, **body: Any) -> tuple[str, str]:
    joined = httpx.post(server.url + "/api/quickplay", json={"name": "Ala", **body})
    assert joined.status_code == 201, joined.text
    return joined.json()["table"]["id"], joined.json()["token"]


@pytest.mark.parametrize("reveal", [True, False])
def test_record_of_the_finished_deals_after_each_deal(server: ThreadServer, reveal: bool) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]
    table = httpx.post(server.url + "/api/tables", json={"seats": seats, "reveal": reveal,
                                                         "variant": "standard,contracts=NT"}).json()["id"]
    assert httpx.get(server.url + f"/api/tables/{table}/record").json()["error"] == "not_over"
    token = httpx.post(server.url + f"/api/tables/{table}/join", json={"name": "Ala"}).json()["token"]
    ws = WS(server.ws_url)
    ws.hello(table, token)
    checked = 0
    while ws.view is None or ws.view["phase"] != "over":
        act_first(ws)
        view = ws.view
        assert view is not None
        finished = len(view["score_sheet"])
        if finished == checked and not (view["phase"] in ("choose", "play") and checked < 2):
            continue
        # in the middle of a deal: the record holds exactly the finished deals, nothing of the current one
        response = httpx.get(server.url + f"/api/tables/{table}/record", params={"format": "json"})
        assert response.status_code == 200
        assert response.headers["content-disposition"] == f'attachment; filename="mizerka-{table}.json"'
        record = read_json(response.text)
        table_now = server.hub.tables[table].table
        assert table_now.match is not None
        over = table_now.match.is_over()
        assert len(record.deals) == (3 if over else table_now.match.deal_no - 1)
        if not over:  # the deal in progress is not in it, nor any card of it
            assert all(deal.is_over for deal in record.deals)
            assert table_now.match.deal_no not in [deal.number for deal in record.deals]
            if record.deals:
                assert record.score_only is (not reveal)
            if not reveal:
                assert all(d.deck is None and not d.tricks and not d.exchanges for d in record.deals)
        checked = finished
    ws.close()
    final = read_text(httpx.get(server.url + f"/api/tables/{table}/record").text)
    assert final.is_over() and not final.score_only and final.verify_commitments() == (1, 2, 3)


def test_double_dummy_values_of_a_deal_match_the_solver() -> None:
    deal = Deal.random(2)  # a deal the solver settles in a fraction of a second
    while deal.phase is not Phase.DONE:
        deal.push(deal.parse_action("keep") if deal.phase is Phase.EXCHANGE else next(iter(deal.legal_actions)))
    start = start_of_play(deal)
    assert start.history == deal.history[:4] and start.phase is Phase.PLAY
    values, reason = asyncio.run(DoubleDummy(limit=60).analyse(deal))
    assert reason is None and values is not None
    position = Position.from_deal(start)
    expected = [solve(position, seat) for seat in start.active_seats]
    by_seat = [expected[start.active_seats.index(s)] for s in range(3)]
    assert values["tricks"] == by_seat
    assert values["scores"] == [start.rules.score(start.role(s), start.contract, by_seat[s]) for s in range(3)]
    assert values == dd_values(start, list(by_seat))


def test_double_dummy_of_a_deal_drawing_from_a_stock_is_unsupported() -> None:
    """In seed002-literal the players draw from a stock during the first tricks: the solver cannot take the
    start of play (it used to be solved as if those cards did not exist, or fail as an "error")."""
    deal = Deal.random(3, rules=parse_variant("seed002-literal"))
    while deal.phase is not Phase.DONE:
        deal.push(deal.parse_action("keep") if deal.phase is Phase.EXCHANGE else next(iter(deal.legal_actions)))
    assert start_of_play(deal).stock
    assert asyncio.run(DoubleDummy(limit=60).analyse(deal)) == (None, "unsupported")


def test_double_dummy_past_its_limit_is_killed_and_reported() -> None:
    deal = Deal.random(1)  # a deal whose full analysis takes seconds
    while deal.phase is not Phase.DONE:
        deal.push(deal.parse_action("keep") if deal.phase is Phase.EXCHANGE else next(iter(deal.legal_actions)))
    runner = DoubleDummy(limit=0.001)
    start = time.monotonic()
    assert asyncio.run(runner.analyse(deal)) == (None, "timeout")
    assert time.monotonic() - start < 10 and not runner._procs


def play_until_dd(ws: WS) -> dict[str, Any]:
    """Play our seat's first legal actions until the server sends a ``dd`` message; return it."""
    deadline = time.monotonic() + 60
    while not any(m["type"] == "dd" for m in ws.log):
        assert time.monotonic() < deadline, "no dd message"
        if ws.view is not None and ws.view["phase"] == "over":
            ws.recv()
        else:
            act_first(ws)
    return next(m for m in ws.log if m["type"] == "dd")


def dd_after_the_first_deal(make_server: Any, **options: Any) -> tuple[ThreadServer, WS, dict[str, Any]]:
    """A server with *options*, our seat at a table of random bots, played until the server's first ``dd``
    message: that message, checked against the protocol's model and sent only after the deal is over."""
    server: ThreadServer = make_server(**options)
    table, token = quickplay(server, variant="standard,contracts=NT", level="random")
    ws = WS(server.ws_url)
    ws.hello(table, token)
    message = play_until_dd(ws)
    SERVER_ADAPTER.validate_python(message)
    deal_end = next(i for i, m in enumerate(ws.log) if m["type"] == "event" and m["event"]["kind"] == "deal_end")
    assert ws.log.index(message) > deal_end  # only after the deal is over
    return server, ws, message


def test_double_dummy_message_after_each_deal(make_server: Any) -> None:
    _, ws, message = dd_after_the_first_deal(make_server, dd_limit=20.0)
    if message["dd"] is None:
        assert message["reason"] in ("timeout", "busy")
    else:
        assert all(0 <= t <= 13 for t in message["dd"]["tricks"])
        sync = ws.request({"type": "sync", "last_seq": ws.seq})
        assert sync["view"]["score_sheet"][0]["dd"] == message["dd"]
        assert "dd_reason" not in sync["view"]["score_sheet"][0]
    ws.close()


def test_a_server_that_does_not_analyse_says_so_after_each_deal(make_server: Any) -> None:
    """With the analysis off (``--dd-limit 0``) every deal_end is still followed by a ``dd`` message, with no values
    and the reason ``off``: a client waiting for the values learns that none are coming."""
    server, ws, message = dd_after_the_first_deal(make_server, dd_limit=0.0)
    assert message == {"type": "dd", "deal_no": 1, "dd": None, "reason": "off"}
    assert server.hub.solvers is None or not server.hub.solvers._procs  # no solver ran
    while not ws.view["your_turn"]:  # the bots play on into the next deal: a sync now would race their events
        ws.recv()
    # the score sheet keeps why, for a client that lost the message with its connection
    row = ws.request({"type": "sync", "last_seq": ws.seq})["view"]["score_sheet"][0]
    assert row["dd"] is None and row["dd_reason"] == "off"
    ws.close()


def test_double_dummy_is_skipped_while_the_server_is_busy(make_server: Any) -> None:
    # any play at all counts as busy
    server, ws, message = dd_after_the_first_deal(make_server, dd_limit=20.0, dd_busy_rate=0.01)
    assert message["dd"] is None and message["reason"] == "busy"
    assert server.hub.dd_skipped == 1 and server.hub.solvers is not None and not server.hub.solvers._procs
    while not ws.view["your_turn"]:  # the bots play on into the next deal: a sync now would race their events
        ws.recv()
    sync = ws.request({"type": "sync", "last_seq": ws.seq})
    assert sync["view"]["score_sheet"][0]["dd"] is None and sync["view"]["score_sheet"][0]["dd_reason"] == "busy"
    ws.close()


def test_illegal_action_carries_a_reason_code(server: ThreadServer) -> None:
    table = httpx.post(server.url + "/api/tables", json={}).json()["id"]
    tokens = [httpx.post(server.url + f"/api/tables/{table}/join", json={"name": n}).json()["token"]
              for n in ("A", "B", "C")]
    ws = WS(server.ws_url)
    view = ws.hello(table, tokens[0])["view"]
    ws.hello(table, tokens[view["to_move"]])
    reply = ws.request({"type": "act", "action": "play AS"})
    assert reply["code"] == "illegal_action" and reply["reason"] == {"code": "wrong_phase"}
    SERVER_ADAPTER.validate_python(reply)
    ws.close()


def test_the_level_list_is_the_bot_list() -> None:
    """The API's levels are the bots' own list (an unknown one is 400 bad_bot): its schema names every one."""
    for model in (QuickPlay, SeatSpec):
        description = model.model_fields["level"].description or ""
        assert all(level in description for level in BOT_LEVELS), (model, description)


def test_every_bot_level_plays_and_slow_bots_hold_up_no_one(make_server: Any) -> None:
    server: ThreadServer = make_server()
    slow = [{"kind": "human"}, {"kind": "bot", "level": "pimc"}, {"kind": "bot", "level": "ismcts"}]
    tables = [httpx.post(server.url + "/api/tables", json={"seats": slow}).json()["id"],
              httpx.post(server.url + "/api/tables", json={"seats": [
                  {"kind": "human"}, {"kind": "bot", "level": "expert"}, {"kind": "bot", "level": "rules"}]}
              ).json()["id"]]
    clients = []
    for table in tables:
        token = httpx.post(server.url + f"/api/tables/{table}/join", json={"name": "Ala"}).json()["token"]
        ws = WS(server.ws_url)
        ws.hello(table, token)
        clients.append(ws)
    # a table of quick bots next to the searching ones: its bots answer at once
    quick, token = quickplay(server, level="rules")
    fast = WS(server.ws_url)
    fast.hello(quick, token)
    start = time.monotonic()
    while fast.seq < 12:
        act_first(fast)
    assert time.monotonic() - start < 20
    seen: set[str] = set()
    deadline = time.monotonic() + 90
    while not {"pimc", "ismcts", "expert"} <= seen and time.monotonic() < deadline:
        for ws in clients:
            with contextlib.suppress(TimeoutError):
                act_first(ws)
            for m in ws.log:
                if m["type"] == "event" and m["event"]["kind"] == "action" and ws.view is not None:
                    level = ws.view["players"][m["event"]["actor"]]["bot"]
                    if level is not None:
                        seen.add(level)
    assert {"pimc", "ismcts", "expert"} <= seen
    for ws in [*clients, fast]:
        ws.close()


def test_rematch_over_the_websocket(server: ThreadServer) -> None:
    table, token = quickplay(server, variant="standard,contracts=NT", level="random")
    ws = WS(server.ws_url)
    ws.hello(table, token)
    assert ws.request({"type": "rematch", "id": 1})["code"] == "not_over"
    while ws.view is None or ws.view["phase"] != "over":
        act_first(ws)
    ws.send({"type": "rematch"})
    message = ws.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "rematch")
    new = message["event"]["table"]
    assert new != table
    again = WS(server.ws_url)
    welcome = again.hello(new, token)  # the same token holds the same seat at the new table
    assert welcome["type"] == "welcome" and welcome["seat"] == 0
    assert welcome["view"]["status"] == "playing" and welcome["view"]["deal_no"] == 1
    assert [p["bot"] for p in welcome["view"]["players"]] == [None, "random", "random"]
    ws.close()
    again.close()


def test_a_rematch_vote_is_acknowledged_and_the_new_table_is_in_the_view(server: ThreadServer) -> None:
    """Each ``rematch`` gets an ``ack``: the first says who is still to ask, the last names the new table, and a
    late or repeated one names it too; a connection that missed the ``rematch`` event finds the table in its view.
    (A client that waited for a reply to its request got none until every human had asked.)"""
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}]
    table = httpx.post(server.url + "/api/tables", json={"seats": seats, "variant": "standard,contracts=NT"}).json()
    tokens = [httpx.post(server.url + f"/api/tables/{table['id']}/join", json={"name": name}).json()["token"]
              for name in ("Ala", "Bolek")]
    ala, bolek = WS(server.ws_url), WS(server.ws_url)
    assert ala.hello(table["id"], tokens[0])["seat"] == 0 and bolek.hello(table["id"], tokens[1])["seat"] == 1
    while ala.view is None or ala.view["phase"] != "over" or bolek.view is None or bolek.view["phase"] != "over":
        for ws in (ala, bolek):
            view = ws.view
            assert view is not None
            if view["your_turn"]:
                ws.request({"type": "act", "action": view["legal"][0] if view["legal"] else "keep", "seq": ws.seq})
            else:
                with contextlib.suppress(TimeoutError):
                    ws.recv(timeout=0.2)
    first = ala.request({"type": "rematch", "id": "r1"})
    assert first == {"type": "ack", "id": "r1", "seq": ala.seq, "action": "rematch", "table": None, "waiting": [1]}
    SERVER_ADAPTER.validate_python(first)
    view = ala.request({"type": "sync", "last_seq": ala.seq})["view"]
    assert view["rematch"] is None and view["rematch_asked"] == [0]
    # Bolek's result learns at once that Ala asked (his page said nothing until he asked too); Ala, who asked,
    # gets her ack instead
    told = bolek.until(lambda m: m["type"] == "rematch_asked")
    assert told == {"type": "rematch_asked", "seats": [0]}
    SERVER_ADAPTER.validate_python(told)
    assert not any(m["type"] == "rematch_asked" for m in ala.log)
    last = bolek.request({"type": "rematch", "id": "r2"})
    assert last["type"] == "ack" and last["waiting"] == [] and last["table"] not in (None, table["id"])
    new = last["table"]
    event = ala.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "rematch")
    assert event["event"]["table"] == new and event["view"]["rematch"] == new
    again = ala.request({"type": "rematch", "id": "r3"})
    assert again["table"] == new and again["waiting"] == []
    late = WS(server.ws_url)
    assert late.hello(table["id"], tokens[0])["view"]["rematch"] == new  # reloaded after the event
    there = WS(server.ws_url)
    assert there.hello(new, tokens[0])["seat"] == 0
    for ws in (ala, bolek, late, there):
        ws.close()


def test_abandoned_tables_are_closed_and_finished_ones_unloaded(make_server: Any) -> None:
    server: ThreadServer = make_server(abandon_after=0.3, cleanup_interval=3600)
    waiting = httpx.post(server.url + "/api/tables", json={}).json()["id"]
    playing, token = quickplay(server, level="random")
    ws = WS(server.ws_url)
    ws.hello(playing, token)
    time.sleep(0.5)
    assert server.call(server.hub.cleanup()) == [waiting]  # the watched table stays
    ws.close()
    time.sleep(0.5)
    assert server.call(server.hub.cleanup()) == [playing]
    assert server.hub.tables == {}
    for table in (waiting, playing):
        info = httpx.get(server.url + f"/api/tables/{table}").json()
        assert info["status"] == "abandoned"
    assert WS(server.ws_url).hello(playing, token)["code"] == "unknown_table"


def test_serve_open_prints_the_quickplay_address(tmp_path: Any) -> None:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "mizerka", "serve", "--open", "--no-browser", "--port", str(port), "--database",
         f"sqlite:///{tmp_path / 'db.sqlite3'}", "--log-level", "warning"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline().strip()
        assert line == f"Play against bots: http://127.0.0.1:{port}/?quickplay=1"
        page = httpx.get(f"http://127.0.0.1:{port}/?quickplay=1")  # listening already when printed
        assert page.status_code == 200 and "<html" in page.text.lower()
        assert json.loads(httpx.get(f"http://127.0.0.1:{port}/api/meta").text)["protocol"] == 1
    finally:
        process.terminate()
        process.wait(timeout=20)


def test_serve_refuses_no_browser_without_open(tmp_path: Any) -> None:
    """``--no-browser`` changes only what ``--open`` does: alone it did nothing, silently, and the server started
    without the address the flag was meant to print.  It is a usage error now (exit 2), before anything is opened.
    (The old command went on to the port held below and ended there, exit 1: the test cannot hang on it.)"""
    import socket

    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "HOME": str(tmp_path)}
        done = subprocess.run([sys.executable, "-m", "mizerka", "serve", "--no-browser", "--port", str(port)],
                              capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 2, done.stderr[-2000:]
    assert "Traceback" not in done.stderr and "mizerka server on" not in done.stderr and done.stdout == ""
    assert done.stderr.strip().splitlines()[-1] == (
        "Error: --no-browser only makes sense with --open (it keeps --open from opening a browser): add --open to "
        "print the address of a game against bots, or leave --no-browser out")
    assert not (tmp_path / "data").exists()  # no default database was made


def test_serve_on_a_port_in_use_says_so_and_makes_no_database(tmp_path: Any) -> None:
    """uvicorn's own start-up logged ``[Errno 98] ...`` and exited 3, the database made and migrated already."""
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        database = tmp_path / "db.sqlite3"
        done = subprocess.run([sys.executable, "-m", "mizerka", "serve", "--port", str(port), "--database",
                               f"sqlite:///{database}"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stderr
    assert done.stderr == f"Error: cannot listen on 127.0.0.1:{port}: Address already in use\n"
    assert not database.exists()


class _PublicOnly:
    """A logging handler that checks, as each line is written, that it names no card a spectator may not know."""

    def __init__(self, server: ThreadServer) -> None:
        import logging
        import re

        self.server = server
        self.card = re.compile(r"(?<![0-9A-Za-z])([2-9TJQKA][CDHS])(?![0-9A-Za-z])")
        self.lines = 0
        self.with_cards = 0
        self.problems: list[str] = []
        outer = self

        class Handler(logging.Handler):
            def emit(self, record: logging.LogRecord) -> None:
                outer.check(record.getMessage())

        self.handler = Handler(level=logging.DEBUG)

    def public(self) -> set[str]:
        """Cards public now at every live table: played, turned up, or in a deal that is over."""
        cards: set[str] = set()
        for live in self.server.hub.tables.values():
            match = live.table.match
            if match is None:
                continue
            for deal in match.deals:
                if deal.phase is Phase.DONE:
                    cards |= {str(card) for card in CARDS}
                    continue
                cards |= {str(CARDS[c]) for t in deal.tricks for c in t.cards}
                cards |= {str(CARDS[c]) for c in deal.trick}
                if deal.shown_card is not None:
                    cards.add(str(CARDS[deal.shown_card]))
        return cards

    def check(self, line: str) -> None:
        self.lines += 1
        found = set(self.card.findall(line))
        if found:
            self.with_cards += 1
            hidden = found - self.public()
            if hidden:
                self.problems.append(f"{sorted(hidden)} in {line}")


def test_log_lines_carry_public_information_only(make_server: Any) -> None:
    import logging

    server: ThreadServer = make_server(seed=11)  # hex table ids: no card-like text in them
    guard = _PublicOnly(server)
    logger = logging.getLogger("mizerka")
    old_level = logger.level
    logger.setLevel(logging.DEBUG)
    logger.addHandler(guard.handler)
    try:
        for variant, level in (("standard,contracts=NT+MZ", "rules"),
                               ("standard,show_trump_card,contracts=H", "random")):
            table, token = quickplay(server, variant=variant, level=level)
            ws = WS(server.ws_url)
            ws.hello(table, token)
            while ws.view is None or ws.view["phase"] != "over":
                view = ws.view
                if view is not None and view["your_turn"] and view["exchange"] and view["exchange"]["max"]:
                    discards = view["hand"][:min(2, view["exchange"]["max"])]
                    ws.request({"type": "act", "action": "exchange " + " ".join(discards)})
                else:
                    act_first(ws)
            ws.close()
    finally:
        logger.removeHandler(guard.handler)
        logger.setLevel(old_level)
    assert not guard.problems, guard.problems[:3]
    assert guard.lines > 200 and guard.with_cards > 100  # the check saw real lines with cards in them


class _FailingBot(RandomBot):
    """Raises on every decision, with a message naming a card (which no log line may show)."""

    def decide(self, observation: Any, budget: Any = None, rng: Any = None) -> Any:
        raise RuntimeError(f"boom holding {observation.hand}")


def test_a_bot_that_fails_at_a_live_table_is_stood_in_for_and_the_game_goes_on(
    server: ThreadServer, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A bot that raised (or chose an illegal action) used to leave its turn unplayed: the table waited for ever.
    A stand-in now plays its first legal action, and the log names the failure, not the cards."""
    monkeypatch.setitem(BOT_LEVELS, "random", dataclasses.replace(BOT_LEVELS["random"], bot_class=_FailingBot))
    monkeypatch.setattr(workers, "_BOTS", {})
    table, token = quickplay(server, variant="standard,contracts=NT", level="random")
    ws = WS(server.ws_url)
    ws.hello(table, token)
    deadline = time.monotonic() + 60
    with caplog.at_level(logging.ERROR):
        while not any(m["type"] == "event" and m["event"]["kind"] == "deal_end" for m in ws.log):
            assert time.monotonic() < deadline, "the game stalled at a failing bot's turn"
            act_first(ws)
    failures = [r.getMessage() for r in caplog.records if "failed at seat" in r.getMessage()]
    assert failures and all("RuntimeError" in f and "stand-in" in f and "boom" not in f for f in failures)


def test_debug_logging_prints_no_frame(tmp_path: Path) -> None:
    """``mizerka serve --log-level debug``: the websocket library logs every frame at debug level, and a frame
    holds a seat's token (``hello``) and its hidden discards (``act``); those lines are filtered out."""
    port = free_port()
    log = tmp_path / "server.log"
    with log.open("wb") as sink:
        process = subprocess.Popen(
            [sys.executable, "-m", "mizerka", "serve", "--host", "127.0.0.1", "--port", str(port), "--database",
             f"sqlite:///{tmp_path / 'db.sqlite'}", "--log-level", "debug"], stdout=subprocess.DEVNULL, stderr=sink)
        try:
            deadline = time.monotonic() + 60
            while True:
                assert process.poll() is None and time.monotonic() < deadline, log.read_text()
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(f"http://127.0.0.1:{port}/api/meta", timeout=1).status_code == 200:
                        break
                time.sleep(0.1)
            joined = httpx.post(f"http://127.0.0.1:{port}/api/quickplay", json={"name": "Ala", "level": "random"})
            table, token = joined.json()["table"]["id"], joined.json()["token"]
            ws = WS(f"ws://127.0.0.1:{port}/ws")
            ws.hello(table, token)
            discarded: list[str] = []
            while not discarded or (ws.view is not None and ws.view["phase"] == "exchange"):
                view = ws.view
                assert view is not None
                limit = view["exchange"]["max"] if view["your_turn"] and view["phase"] == "exchange" else 0
                if limit:  # (the seats before may have drawn the whole talon: then this deal has no exchange)
                    discarded = view["hand"][:min(2, limit)]
                    assert ws.request({"type": "act", "action": "exchange " + " ".join(discarded)})["type"] == "ack"
                else:
                    act_first(ws)
            ws.close()
            time.sleep(0.5)
        finally:
            process.terminate()
            process.wait(timeout=20)
    text = log.read_text()
    assert "DEBUG" in text  # debug logging is on
    assert token not in text and token[-12:] not in text
    assert '"act"' not in text and "TEXT" not in text, [line for line in text.splitlines() if "TEXT" in line][:3]


def test_a_hint_is_the_strongest_bots_decision(make_server: Any) -> None:
    """A hint is the expert bot's decision from the asking seat's view, as in the terminal game, not the casual
    bot's: in the contract choice and in the play, a legal action among the candidates it valued."""
    from mizerka.server.hub import HINT_LEVEL
    from mizerka.tui.model import HINT_LEVELS

    assert HINT_LEVEL == next(level for level in HINT_LEVELS if level in BOT_LEVELS) == "expert"
    server: ThreadServer = make_server()
    table, token = quickplay(server, variant="standard,contracts=NT+MZ", level="random")
    ws = WS(server.ws_url)
    ws.hello(table, token)
    asked: set[str] = set()
    deadline = time.monotonic() + 60
    while asked != {"choose", "play"}:
        assert time.monotonic() < deadline, f"asked only in {asked}"
        view = ws.view
        assert view is not None
        if view["your_turn"] and view["phase"] in ("choose", "play") and view["phase"] not in asked:
            hint = ws.request({"type": "hint", "id": len(asked)})
            SERVER_ADAPTER.validate_python(hint)
            assert hint["bot"] == "expert" and hint["action"] in view["legal"], (hint, view["legal"])
            assert hint["action"] in hint["evaluations"] or len(view["legal"]) == 1
            asked.add(view["phase"])
        act_first(ws)
    ws.close()
