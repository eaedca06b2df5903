"""Catch-ups (a ``sync``, or a ``hello`` with ``last_seq``): what each recipient is sent, and what repeating one
costs the server.

A client may ask for a table's whole journal (a ``sync`` from 0, or a ``hello`` from 0) as often as its rate allows,
twenty times a second.  Rendered and encoded afresh for its seat each time, that was about a millisecond of the
server's time for a finished 18-deal match's 813 events, 1.3-1.7 ms with the send, some 3% of a core per such
connection.  So the hub keeps each event's text per table and recipient (:class:`mizerka.server.hub.CatchUpCache`):
a repeated catch-up is a join of kept texts and the send (0.25-0.35 ms in all), a journal that grew has only its new
events rendered, and one cut by an undo or rebuilt by a reload is rendered anew.  The texts kept are bounded
(``ServerConfig.catch_up_cache``), the table caught up least recently losing its own first; with 0 nothing is kept.

What each recipient is sent is what the server sent it before it kept texts, to the byte: its own private events
(its exchanges) and nobody else's, whoever was caught up before it.

Every test runs a real server on 127.0.0.1 over SQLite, or PostgreSQL when MIZERKA_TEST_DATABASE_URL is set.
"""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import pytest
from server_helpers import WS, ThreadServer, UndoWS, new_table, play, play_until

import mizerka.server.hub as hub_module
from mizerka.server.encoding import encode
from mizerka.server.tables import Event, Table
from mizerka.server.views import build_view

RENDER = hub_module.render_events
"""The hub's own rendering, for the replies as the server built them before it kept texts (tests count the hub's
calls)."""


def finished(view: dict[str, Any]) -> bool:
    return bool(view["status"] == "finished")


class Renders:
    """The numbers of the events the hub renders for catch-ups (``render_events`` without a view: the live
    broadcasts, which carry one, are not counted): a kept text is not rendered, nor encoded, again."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.seqs: list[int] = []
        self._lock = threading.Lock()
        monkeypatch.setattr(hub_module, "render_events", self)

    def __call__(self, table: Table, events: list[Event], *args: Any, **kwargs: Any) -> list[dict[str, Any]]:
        if kwargs.get("view") is False:
            with self._lock:
                self.seqs.extend(event.seq for event in events)
        return RENDER(table, events, *args, **kwargs)

    def take(self) -> list[int]:
        """The numbers rendered since the last call, forgotten."""
        with self._lock:
            seqs, self.seqs = self.seqs, []
        return seqs


def raw_reply(ws: WS, message: dict[str, Any]) -> str:
    """Send *message*; the text of the reply that carries its id, as it came (not decoded and encoded again)."""
    ws.send(message)
    deadline = time.monotonic() + 10
    while True:
        raw = ws.conn.recv(timeout=max(deadline - time.monotonic(), 0.01))
        assert isinstance(raw, str)
        reply = json.loads(raw)
        if reply.get("id") == message["id"] and reply["type"] in ("snapshot", "welcome", "error"):
            assert reply["type"] != "error", reply
            return raw


def sync(ws: WS, request_id: str, last_seq: int = 0) -> str:
    return raw_reply(ws, {"type": "sync", "last_seq": last_seq, "id": request_id})


async def as_before(server: ThreadServer, table: str, seat: int | None, request_id: str, last_seq: int = 0) -> str:
    """The ``snapshot`` the server sent before it kept the events' texts: its fields in one message, every event
    rendered for *seat* and the whole encoded in one piece."""
    live = server.hub.tables[table]
    t = live.table
    return encode({"type": "snapshot", "id": request_id, "seq": t.seq, "epoch": t.epoch,
                   "view": build_view(t, seat, live.connected()),
                   "events": RENDER(t, t.events[last_seq:], seat, view=False)})


async def rendered(server: ThreadServer, table: str, seat: int | None, upto: int) -> list[dict[str, Any]]:
    """The table's first *upto* events rendered afresh for *seat*, as a client decodes them."""
    t = server.hub.tables[table].table
    return list(json.loads(encode(RENDER(t, t.events[:upto], seat, view=False))))


async def kept(server: ThreadServer, table: str, seat: int | None) -> str:
    """The events the hub's cache gives *seat* for a catch-up of the whole journal."""
    return server.hub.catch_up.events(server.hub.tables[table].table, seat, 0)


def exchangers(events: list[dict[str, Any]]) -> set[int]:
    """The seats whose exchanges' own cards (``discards``, ``drawn``: private to the seat) the events carry."""
    return {e["event"]["actor"] for e in events if "discards" in e["event"] or "drawn" in e["event"]}


def test_a_repeated_full_sync_is_the_same_reply_rendered_once(server: ThreadServer,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The first ``sync`` from 0 of a finished match renders its journal, and its text is the one the server sent
    before, to the byte; a second one, and a ``hello`` from 0, render no event again and send the same events."""
    table, token = new_table(server)
    play(server, table, token, finished)
    renders = Renders(monkeypatch)
    ws = WS(server.ws_url)
    try:
        ws.hello(table, token)
        first = sync(ws, "s")
        seq = json.loads(first)["seq"]
        assert sorted(set(renders.take())) == list(range(1, seq + 1))  # every event rendered, once for the cache
        assert first == server.call(as_before(server, table, 0, "s"))
        for _ in range(3):
            assert sync(ws, "s") == first
        assert renders.take() == []  # nothing rendered, nor encoded, again
        welcome = json.loads(raw_reply(ws, {"type": "hello", "protocol": 1, "table": table, "token": token,
                                            "last_seq": 0, "id": "h"}))
        assert welcome["type"] == "welcome" and welcome["events"] == json.loads(first)["events"]
        assert renders.take() == []
    finally:
        ws.close()


def test_each_seat_and_a_spectator_get_their_own_catch_up(server: ThreadServer) -> None:
    """Hidden information: once the seat's catch-up is kept (its exchanges' cards in it), a spectator's is its own,
    with no exchange's cards, and so is each other seat's, with its own exchanges' cards and no one else's: each the
    text the server sent that recipient before."""
    table, token = new_table(server)
    play(server, table, token, finished)
    ws, spectator = WS(server.ws_url), WS(server.ws_url)
    try:
        ws.hello(table, token)
        mine = sync(ws, "seat")
        assert mine == sync(ws, "seat")  # kept
        assert exchangers(json.loads(mine)["events"]) == {0}
        spectator.hello(table)
        theirs = sync(spectator, "spectator")
        assert theirs == server.call(as_before(server, table, None, "spectator"))
        assert exchangers(json.loads(theirs)["events"]) == set()
        assert theirs == sync(spectator, "spectator") and mine == sync(ws, "seat")  # each kept, each its own
        seq = json.loads(mine)["seq"]
        for seat in (1, 2, None):  # the bots' seats have no connection: the hub's texts for them
            events = json.loads(server.call(kept(server, table, seat)))
            assert events == server.call(rendered(server, table, seat, seq))
            assert exchangers(events) == ({seat} if seat is not None else set())
        assert mine == server.call(as_before(server, table, 0, "seat"))
    finally:
        ws.close()
        spectator.close()


def test_a_grown_journal_gives_a_new_catch_up(server: ThreadServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """Mid-match, a ``sync`` from 0 after the journal grew has every event up to the new end, and only the new
    events are rendered for it."""
    table, token = new_table(server)
    ws = WS(server.ws_url)
    try:
        ws.hello(table, token)
        play_until(ws, lambda view: view["deal_no"] >= 2 and view["your_turn"])
        renders = Renders(monkeypatch)
        first = json.loads(sync(ws, "before"))
        assert first["events"] == server.call(rendered(server, table, 0, first["seq"]))
        renders.take()
        play_until(ws, lambda view: ws.seq > first["seq"] + 3 and view["your_turn"])
        second = json.loads(sync(ws, "after"))
        assert second["seq"] > first["seq"]
        assert second["events"] == server.call(rendered(server, table, 0, second["seq"]))
        new = renders.take()
        assert new and min(new) > first["seq"], new  # the kept texts of the events before were joined as they were
    finally:
        ws.close()


async def reload(server: ThreadServer, table: str) -> None:
    """What a failed write does (:meth:`Hub._reload`): the table read back from the database, a new table object."""
    live = server.hub.tables[table]
    async with live.lock:
        live.table = await server.hub._reload(live.table, live.table.events, live.table.epoch)


def test_an_undo_or_a_reload_renders_the_journal_anew(server: ThreadServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """An undo cuts the journal (a new epoch) and a reload makes a new table object: a ``sync`` from 0 after either
    renders the whole journal again, and is the reply the server sent before (no event taken back in it)."""
    table, token = new_table(server)
    ws = UndoWS(server.ws_url)
    try:
        ws.hello(table, token)
        play_until(ws, lambda view: view["deal_no"] >= 2 and view["your_turn"] and view["can_undo"])
        renders = Renders(monkeypatch)
        before = json.loads(sync(ws, "kept"))
        renders.take()
        undone = ws.undo()
        assert undone["type"] == "snapshot" and undone["epoch"] == before["epoch"] + 1, undone
        after = sync(ws, "undone")
        assert after == server.call(as_before(server, table, 0, "undone"))
        seq = json.loads(after)["seq"]
        assert seq < before["seq"] and sorted(set(renders.take())) == list(range(1, seq + 1))
        server.call(reload(server, table))
        assert sync(ws, "reloaded") == server.call(as_before(server, table, 0, "reloaded"))
        assert sorted(set(renders.take())) == list(range(1, seq + 1))  # the new table's own texts
    finally:
        ws.close()


async def limit(server: ThreadServer, max_bytes: int) -> None:
    server.hub.catch_up.max_bytes = max_bytes


def waiting_for_me_in_deal_2(view: dict[str, Any]) -> bool:
    """Deal 2 begun and the table waiting for our seat: it stays as it is once we leave (the bots wait for us), so
    that two replies asked one after the other are of the same journal."""
    return bool(view["deal_no"] >= 2 and view["your_turn"])


def test_the_kept_texts_are_bounded(make_server: Any) -> None:
    """Past ``catch_up_cache`` bytes, the table caught up least recently loses its texts (it is rendered again when
    asked), and with 0 nothing is kept; the replies are the same all the same."""
    server = make_server()
    tables = [new_table(server) for _ in range(2)]
    for table, token in tables:
        play(server, table, token, waiting_for_me_in_deal_2)
    (first, _), (second, _) = tables
    cache = server.hub.catch_up
    spectator = WS(server.ws_url)
    try:
        spectator.hello(first)
        assert sync(spectator, "a") == server.call(as_before(server, first, None, "a"))
        assert first in cache and cache.size > 0
        server.call(limit(server, cache.size))  # room for the first table's texts alone
    finally:
        spectator.close()
    spectator = WS(server.ws_url)  # (a connection of its own: the helper follows one table's event numbers)
    try:
        spectator.hello(second)
        assert sync(spectator, "b") == server.call(as_before(server, second, None, "b"))
        assert first not in cache and cache.size <= cache.max_bytes
    finally:
        spectator.close()
    off = make_server(catch_up_cache=0)
    table, token = new_table(off)
    play(off, table, token, waiting_for_me_in_deal_2)
    spectator = WS(off.ws_url)
    try:
        spectator.hello(table)
        assert sync(spectator, "c") == off.call(as_before(off, table, None, "c"))
        assert table not in off.hub.catch_up and off.hub.catch_up.size == 0
    finally:
        spectator.close()
