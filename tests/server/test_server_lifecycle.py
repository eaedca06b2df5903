"""A table's life cycle around its players: the turn timer, a stand-in, a rematch, the sweep of idle tables.

* The turn timer runs from the decision, not from the last hello (a spectator saying hello every 0.6 s used to keep
  a 1 s timer from ever running out), and stops once nobody is connected (the rules bot used to play on for the
  absent human at a table nobody watched).
* A stand-in bot never takes the seat of a human who is back, though his hello waited for the table's lock while
  the grace period ended.
* The rematch of a rated match plays on, and is rated, once everyone has gone (it used to wait unstarted, be swept
  as abandoned and never rated); a rematch is made as soon as the last player waited for leaves, by REST or by the
  websocket's ``leave`` (nobody was waited for any more, yet no table was made until someone asked again).
* The sweep spares a table that came to life (a join) while the sweep waited for its lock.

Every test runs a real server on 127.0.0.1 over SQLite, or PostgreSQL when MIZERKA_TEST_DATABASE_URL is set.
"""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import httpx
import pytest
from server_helpers import SHORT, WS, ThreadServer, claim, play_until

from mizerka.server.protocol import SERVER_ADAPTER
from mizerka.server.tables import SeatState, TableSettings

BOTS = [SeatState.bot("random"), SeatState.bot("random")]


def drain(ws: WS, seconds: float) -> list[dict[str, Any]]:
    """Every message for *seconds*."""
    out = []
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        try:
            out.append(ws.recv(timeout=left))
        except TimeoutError:
            break
    return out


def timed_table(server: ThreadServer, seconds: float) -> tuple[str, str, WS]:
    """A table with a turn timer, Ala seated against two bots and connected, at her first decision."""
    live = server.call(server.hub.create_table(TableSettings(variant=SHORT, turn_timer=seconds),
                                               [SeatState.human(), *BOTS]))
    table = live.table.id
    token = httpx.post(f"{server.url}/api/tables/{table}/join", json={"name": "Ala"}).json()["token"]
    ws = WS(server.ws_url)
    ws.hello(table, token)
    while not (ws.view and ws.view["your_turn"]):
        ws.recv()
    return table, token, ws


def test_a_hello_does_not_put_off_the_turn_timer(make_server: Any) -> None:
    """Each hello (a spectator's, the player's reconnection) started the timer afresh: a spectator saying hello
    every 0.6 s kept a 1 s timer from ever running out."""
    server = make_server(grace=60)
    table, _, ws = timed_table(server, 1.0)
    first = ws.seq
    spectator = WS(server.ws_url)
    start = time.monotonic()
    while time.monotonic() - start < 3.0:
        spectator.hello(table)
        drain(ws, 0.6)
    assert any(m["type"] == "event" and m["seq"] > first and m["event"].get("auto") for m in ws.log)
    spectator.close()
    ws.close()


def test_the_turn_timer_reaches_every_connection_and_a_reconnection(make_server: Any) -> None:
    """The browser had no way to show a turn timer: the view gives its length, never when it runs out.  Every
    connection gets a ``timer`` message when one starts (the decision's seat, event and epoch, the seconds left), and
    a hello while one runs gets what is left of it, from the server's deadline (a hello does not restart it)."""
    server = make_server(grace=60)
    table, token, ws = timed_table(server, 30.0)
    timer = next((m for m in ws.log if m["type"] == "timer"), None) or ws.until(lambda m: m["type"] == "timer")
    assert (timer["seat"], timer["seq"], timer["epoch"]) == (0, ws.seq, 0)
    assert 29.0 < timer["left"] <= 30.0
    spectator = WS(server.ws_url)
    spectator.hello(table)
    time.sleep(1.0)
    ws.close()
    again = WS(server.ws_url)
    again.hello(table, token)
    later = again.until(lambda m: m["type"] == "timer")
    assert (later["seat"], later["seq"], later["epoch"]) == (0, timer["seq"], 0)
    assert 27.0 < later["left"] < timer["left"] - 0.9
    seen = spectator.until(lambda m: m["type"] == "timer")
    assert seen["seq"] == timer["seq"] and seen["left"] <= timer["left"]
    assert not any(m["type"] == "timer" for m in drain(spectator, 0.3))  # the reconnection's is its own
    for message in (timer, later, seen):  # the protocol's models know the message (they did not)
        SERVER_ADAPTER.validate_python(message)
    spectator.close()
    again.close()


def test_the_turn_timer_stops_when_the_last_connection_goes(make_server: Any) -> None:
    """The timer set while someone watched went on after everyone left: the rules bot played for the absent human
    at a table nobody watched."""
    server = make_server(grace=60)
    table, _, ws = timed_table(server, 1.0)
    before = ws.seq
    ws.close()
    time.sleep(2.0)
    assert server.hub.tables[table].table.seq == before


def test_a_stand_in_never_takes_the_seat_of_a_human_who_is_back(make_server: Any) -> None:
    """The grace period ended while the human's hello waited for the table's lock (a slow write): the stand-in was
    put in after he was back, and played for him until he reconnected."""
    server = make_server(grace=0.5)
    table = httpx.post(server.url + "/api/tables", json={"variant": SHORT, "seats": [
        {"kind": "human"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]}).json()["id"]
    token = httpx.post(f"{server.url}/api/tables/{table}/join", json={"name": "Ala"}).json()["token"]
    ws = WS(server.ws_url)
    ws.hello(table, token)
    live = server.hub.tables[table]
    ws.close()
    while 0 not in live.grace:
        time.sleep(0.01)

    async def slow_write() -> None:
        async with live.lock:
            await asyncio.sleep(1.0)

    asyncio.run_coroutine_threadsafe(slow_write(), server.hub.loop)
    time.sleep(0.15)
    back = WS(server.ws_url)
    back.hello(table, token)  # waits for the lock; the grace period ends meanwhile
    drain(back, 0.8)
    assert 0 in live.connected() and not live.table.seats[0].standin
    back.close()


def test_a_rated_rematch_plays_on_when_everyone_has_gone(make_server: Any) -> None:
    """The rematch table of a rated match was made playing but never started: with the page closed it waited,
    was swept as abandoned and never rated."""
    server = make_server(grace=0.3, abandon_after=2.0, cleanup_interval=0.5)
    _, key = claim(server, "Ala")
    joined = httpx.post(server.url + "/api/quickplay", json={
        "variant": SHORT, "level": "random", "player_key": key, "rated": True}).json()
    ws = WS(server.ws_url)
    ws.hello(joined["table"]["id"], joined["token"])
    play_until(ws, lambda v: v["status"] == "finished")
    new = ws.request({"type": "rematch", "id": 1})["table"]
    ws.close()
    deadline = time.monotonic() + 60
    while httpx.get(f"{server.url}/api/tables/{new}").json()["status"] == "playing":
        assert time.monotonic() < deadline
        time.sleep(0.2)
    assert httpx.get(f"{server.url}/api/tables/{new}").json()["status"] == "finished"
    profile = httpx.get(server.url + "/api/profile", headers={"Authorization": f"Bearer {key}"}).json()
    assert profile["games"] == 2


def two_humans_finished(server: ThreadServer) -> tuple[str, str, str, WS, WS]:
    """A table of A, B and a bot whose match A and B have played to its end, both still connected: the table, A's
    and B's tokens and connections."""
    table = httpx.post(server.url + "/api/tables", json={"variant": SHORT, "seats": [
        {"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}]}).json()["id"]
    first = httpx.post(f"{server.url}/api/tables/{table}/join", json={"name": "A"}).json()["token"]
    second = httpx.post(f"{server.url}/api/tables/{table}/join", json={"name": "B"}).json()["token"]
    a, b = WS(server.ws_url), WS(server.ws_url)
    a.hello(table, first)
    b.hello(table, second)

    def finished(view: dict[str, Any]) -> bool:
        return bool(view["status"] == "finished")

    other = threading.Thread(target=play_until, args=(b, finished))
    other.start()
    play_until(a, finished)
    other.join()
    return table, first, second, a, b


@pytest.mark.parametrize("how", ["rest", "websocket"])
def test_the_rematch_is_made_when_the_last_one_waited_for_leaves(server: ThreadServer, how: str) -> None:
    """A asked for a rematch and B left instead of asking: nobody was waited for, yet no table was made until A
    asked again; B leaves by ``POST .../leave`` or by the websocket's ``leave`` (that one used to make none)."""
    table, _, second, a, b = two_humans_finished(server)
    ack = a.request({"type": "rematch", "id": 1})
    assert ack["table"] is None and ack["waiting"] == [1]
    if how == "rest":
        assert httpx.post(f"{server.url}/api/tables/{table}/leave", json={"token": second}).status_code == 200
    else:
        b.send({"type": "leave", "id": 2})  # answered by the seat event
    made = a.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "rematch")
    assert made["event"]["table"] == server.hub.tables[table].table.rematch_table is not None
    a.close()
    b.close()


def test_a_player_who_leaves_after_the_match_keeps_his_name_and_no_bot_stands_in(server: ThreadServer) -> None:
    """B gave his seat up once the match was over: the others were told that a computer played for him "while he
    was away" (a ``seat`` event with ``standin``), and the result's table showed his seat as a bot's.  Now the seat
    keeps his name and result, marked ``left``, neither played for nor open to anybody."""
    table, _, second, a, b = two_humans_finished(server)
    assert httpx.post(f"{server.url}/api/tables/{table}/leave", json={"token": second}).status_code == 200
    told = a.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "seat")
    SERVER_ADAPTER.validate_python(told)
    event = told["event"]
    assert (event["seat"], event["name"], event["left"]) == (1, "B", True)
    assert not event["standin"] and not event["open"] and event["bot"] is None
    player = told["view"]["players"][1]
    assert (player["name"], player["left"], player["standin"], player["open"], player["bot"]) == (
        "B", True, False, False, None)
    info = httpx.get(f"{server.url}/api/tables/{table}").json()
    assert info["seats"][1]["name"] == "B" and not info["seats"][1]["open"]
    # nobody may take the seat, and A's rematch is not held up by a player who has gone
    joined = httpx.post(f"{server.url}/api/tables/{table}/join", json={"name": "C"})
    assert joined.status_code == 409 and joined.json()["error"] == "match_over", joined.text
    assert a.request({"type": "rematch", "id": 1})["table"] is not None
    a.close()
    b.close()


def test_the_sweep_spares_a_table_that_came_to_life_while_it_waited(make_server: Any) -> None:
    """The sweep judged a table idle before it took the table's lock: a join committed while it waited for the
    lock got a seat at a table closed a moment later."""
    server = make_server(abandon_after=0.5, cleanup_interval=3600)
    table = httpx.post(server.url + "/api/tables", json={"variant": SHORT, "seats": [
        {"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}]}).json()["id"]
    live = server.hub.tables[table]
    time.sleep(0.7)  # idle long enough

    async def join_during_the_sweep() -> list[str]:
        async with live.lock:  # a join holds the lock while the sweep starts
            sweep = asyncio.ensure_future(server.hub.cleanup())
            await asyncio.sleep(0.1)
            live.last_activity = time.monotonic()  # what the join's write does
        return await sweep

    assert asyncio.run_coroutine_threadsafe(join_during_the_sweep(), server.hub.loop).result(10) == []
    assert table in server.hub.tables and server.hub.tables[table].table.status == "waiting"
