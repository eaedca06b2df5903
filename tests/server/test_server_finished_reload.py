"""A finished table's link keeps working once the hub has unloaded the table from memory (docs/server.md,
*Tables*): a ``hello`` at it reads it back from the database, as its seat (with the token) or as a spectator (where
the table admits spectators), and gets the same final view as before; actions are refused as at any finished
match; a rematch can still be asked for.  The table counts against ``max_tables`` and the sweep unloads it again;
a hello at a table not in memory costs a request of the address's budget; a table without spectators stays its
players' alone; a table closed unfinished stays closed.  Also after a restart of the server."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
from server_helpers import WS, ThreadServer, new_table, play, unload

from mizerka.server.protocol import SERVER_ADAPTER


def finished(server: ThreadServer, **options: Any) -> tuple[str, str]:
    """A table of one human (us) and two random bots played to its end: its id and our token."""
    table, token = new_table(server, **options)
    play(server, table, token, lambda v: v["phase"] == "over")
    return table, token


def welcome(server: ThreadServer, table: str, token: str | None = None) -> tuple[WS, dict[str, Any]]:
    ws = WS(server.ws_url)
    reply = ws.hello(table, token)
    if reply["type"] == "welcome":
        SERVER_ADAPTER.validate_python(reply)
    return ws, reply


def final_views(server: ThreadServer, table: str, token: str) -> dict[str, Any]:
    """The seat's and a spectator's welcome at the table (both connected while the other says hello)."""
    seat_ws, seat = welcome(server, table, token)
    watch_ws, watch = welcome(server, table)
    assert seat["type"] == watch["type"] == "welcome", (seat, watch)
    seat_ws.close()
    watch_ws.close()
    return {"seat": seat, "spectator": watch}


def test_a_finished_table_unloaded_from_memory_welcomes_its_seat_and_a_spectator(make_server: Any) -> None:
    server: ThreadServer = make_server()
    table, token = finished(server)
    before = final_views(server, table, token)
    assert before["seat"]["view"]["phase"] == "over" and before["seat"]["view"]["status"] == "finished"
    unload(server, table)
    assert table not in server.hub.tables

    seat_ws, seat = welcome(server, table, token)
    assert seat["type"] == "welcome", seat
    assert table in server.hub.tables  # read back and kept, read-only
    assert seat["seat"] == 0 and seat["seq"] == before["seat"]["seq"] and seat["epoch"] == before["seat"]["epoch"]
    assert seat["view"] == before["seat"]["view"]  # scores, score sheet, the last deal: the final position
    assert len(seat["view"]["score_sheet"]) == 6 and seat["view"]["totals"] == before["seat"]["view"]["totals"]
    watch_ws, watch = welcome(server, table)
    assert watch["type"] == "welcome" and watch["seat"] is None
    assert watch["view"] == before["spectator"]["view"]
    assert watch["view"]["hand"] == []  # a spectator holds no cards

    # read-only: an action is refused as at any finished match, and changes nothing
    refused = seat_ws.request({"type": "act", "id": 1, "action": "keep"})
    assert (refused["type"], refused["code"]) == ("error", "match_over"), refused
    assert watch_ws.request({"type": "act", "id": 2, "action": "keep"})["code"] == "no_seat"
    assert server.hub.tables[table].table.seq == before["seat"]["seq"]
    # the record is still there, the same as before
    assert httpx.get(f"{server.url}/api/tables/{table}/record").status_code == 200

    # the sweep unloads it again once nobody is at it
    server.config.abandon_after = 0.0
    assert server.call(server.hub.cleanup()) == []  # watched: it stays
    seat_ws.close()
    watch_ws.close()
    unload(server, table)
    assert table not in server.hub.tables


def test_a_rematch_can_still_be_asked_for_after_the_unload(make_server: Any) -> None:
    server: ThreadServer = make_server()
    table, token = finished(server)
    unload(server, table)
    ws, reply = welcome(server, table, token)
    assert reply["type"] == "welcome" and reply["view"]["rematch"] is None
    ack = ws.request({"type": "rematch", "id": "r"})
    assert ack["type"] == "ack" and ack["waiting"] == [] and ack["table"] not in (None, table), ack
    made = next(m for m in ws.log if m["type"] == "event" and m["event"]["kind"] == "rematch")  # before the ack
    assert made["event"]["table"] == ack["table"] and made["view"]["rematch"] == ack["table"]
    new_ws, new = welcome(server, ack["table"], token)  # the same token holds the same seat there
    assert new["type"] == "welcome" and new["seat"] == 0 and new["view"]["status"] == "playing"
    new_ws.close()
    ws.close()
    # unloaded once more, the table names its rematch: asking again says where it is
    unload(server, table)
    again_ws, again = welcome(server, table, token)
    assert again["view"]["rematch"] == ack["table"]
    repeat = again_ws.request({"type": "rematch", "id": "r2"})
    assert repeat["type"] == "ack" and repeat["table"] == ack["table"] and repeat["waiting"] == []
    again_ws.close()


def test_a_table_without_spectators_stays_its_players_alone(make_server: Any) -> None:
    server: ThreadServer = make_server()
    table, token = finished(server, visibility="private", spectators=False)
    unload(server, table)
    for wrong, code in ((None, "spectators_off"), ("not-a-token", "bad_token")):
        ws, reply = welcome(server, table, wrong)
        assert (reply["type"], reply["code"]) == ("error", code), reply
        assert set(reply) == {"type", "id", "code", "message"}  # nothing of the table in a refusal
        ws.close()
        assert table not in server.hub.tables  # a refused hello keeps nothing in memory
    ws, reply = welcome(server, table, token)
    assert reply["type"] == "welcome" and reply["seat"] == 0 and reply["view"]["phase"] == "over"
    ws.close()


def test_a_table_closed_unfinished_stays_closed_and_unknown_ids_are_unknown(make_server: Any) -> None:
    server: ThreadServer = make_server(abandon_after=0.3, cleanup_interval=3600)
    table, token = new_table(server)
    time.sleep(0.5)
    assert server.call(server.hub.cleanup()) == [table]  # closed (abandoned), unloaded
    for target, tok in ((table, token), (table, None), ("nosuchtable", None)):
        ws, reply = welcome(server, target, tok)
        assert (reply["type"], reply["code"]) == ("error", "unknown_table"), reply
        ws.close()
    assert server.hub.tables == {}


def test_a_table_read_back_does_not_take_a_place_of_max_tables(make_server: Any) -> None:
    """Reading finished tables back must never push out new play: they have their own cap (``max_read_back``)."""
    server: ThreadServer = make_server(max_tables=1, max_read_back=1)
    table, token = finished(server)
    unload(server, table)
    other = httpx.post(server.url + "/api/tables", json={})  # the one table the server may hold for play
    assert other.status_code == 201, other.text
    ws, reply = welcome(server, table, token)
    assert reply["type"] == "welcome", reply  # read back although max_tables is reached
    assert table in server.hub.tables
    ws.close()


def test_a_hello_at_a_table_not_in_memory_is_charged_to_the_request_budget(make_server: Any) -> None:
    server: ThreadServer = make_server(limit_loopback=True, request_rate=0.001, request_burst=12)
    table, token = finished(server)
    ws, reply = welcome(server, table, token)  # in memory: no charge however often
    assert reply["type"] == "welcome"
    for _ in range(20):
        assert ws.hello(table, token)["type"] == "welcome"
    codes = [ws.hello(f"nosuch{i}")["code"] for i in range(12)]  # each reads the database
    assert "rate_limited" in codes and set(codes) == {"unknown_table", "rate_limited"}, codes
    first = codes.index("rate_limited")
    assert all(code == "rate_limited" for code in codes[first:])
    assert ws.hello(table, token)["type"] == "welcome"  # a table in memory costs nothing
    ws.close()


def test_a_hello_that_waited_while_the_sweep_unloaded_the_table_reads_it_back(make_server: Any) -> None:
    """The sweep took the table's lock before a hello that was waiting for it, and unloaded the table: the hello
    must not be welcomed at a table the hub no longer holds (nobody would ever unload it, nor see its events)."""
    server: ThreadServer = make_server(cleanup_interval=3600)
    table, token = finished(server)
    live = server.hub.tables[table]
    server.config.abandon_after = 0.0

    async def sweep_first() -> list[str]:
        async with live.lock:  # something holds the lock; the sweep queues for it first
            sweep = asyncio.ensure_future(server.hub.cleanup())
            await asyncio.sleep(0.5)  # ... and the hello behind it
        return await sweep

    assert server.hub.loop is not None
    swept = asyncio.run_coroutine_threadsafe(sweep_first(), server.hub.loop)
    time.sleep(0.2)
    ws = WS(server.ws_url)
    ws.send({"type": "hello", "protocol": 1, "table": table, "token": token})
    assert swept.result(10) == [table]
    reply = ws.until(lambda m: m["type"] in ("welcome", "error"))
    assert reply["type"] == "welcome" and reply["seat"] == 0, reply
    assert table in server.hub.tables and server.hub.tables[table] is not live
    assert server.hub.tables[table].clients  # the connection is at the table the hub holds
    ws.close()


def test_after_a_restart_the_finished_table_welcomes_its_seat(make_server: Any) -> None:
    first: ThreadServer = make_server()
    table, token = finished(first)
    before = final_views(first, table, token)
    first.stop()
    second: ThreadServer = make_server()
    assert table not in second.hub.tables  # a restart resumes only the tables waiting or playing
    seat_ws, seat = welcome(second, table, token)
    assert seat["type"] == "welcome" and seat["seat"] == 0 and seat["view"] == before["seat"]["view"]
    watch_ws, watch = welcome(second, table)
    assert watch["type"] == "welcome" and watch["view"] == before["spectator"]["view"]
    seat_ws.close()
    watch_ws.close()
