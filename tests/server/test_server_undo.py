"""Undo ("take back") over the websocket at a table of one human and bots: the message, its refusals, the journal
cut in the database (and a restart from it), and a bot's decision asked for before an undo never played after it.

The rule itself (what an undo takes back) is :mod:`mizerka.undo`'s and is tested there; these tests check that the
server applies it, stores it, and tells every client.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from server_helpers import ThreadServer, UndoWS, play_until

from mizerka.deal import Play
from mizerka.match import Match
from mizerka.record import read_text
from mizerka.server.db import Store, normalize_url, sqlite_path
from mizerka.server.protocol import CLIENT_TYPES, ERROR_CODES, View
from mizerka.server.tables import SeatState, Table, TableSettings

VARIANT = "standard,contracts=NT+MZ"  # six deals: a whole match in a few seconds with bots at full speed


def quickplay(server: ThreadServer, variant: str = VARIANT) -> tuple[str, str]:
    joined = httpx.post(server.url + "/api/quickplay", json={"name": "Ala", "variant": variant})
    assert joined.status_code == 201, joined.text
    body = joined.json()
    return body["table"]["id"], body["token"]


def sit(server: ThreadServer, table: str, token: str | None) -> UndoWS:
    ws = UndoWS(server.ws_url)
    welcome = ws.hello(table, token)
    assert welcome["type"] == "welcome", welcome
    return ws


def my_turn_to_play(view: dict[str, Any]) -> bool:
    return bool(view["your_turn"] and view["phase"] == "play")


def stored_events(url: str, table: str) -> tuple[int, int]:
    """How many events the database holds for *table*, and the highest number."""
    engine = sa.create_engine(normalize_url(url))
    try:
        with engine.connect() as connection:
            count, top = connection.execute(sa.text(
                "SELECT COUNT(*), MAX(seq) FROM events WHERE table_id = :t"), {"t": table}).one()
    finally:
        engine.dispose()
    return int(count), int(top or 0)


def test_undo_is_a_client_message_with_its_error_codes() -> None:
    assert "undo" in CLIENT_TYPES
    assert {"undo_not_allowed", "undo_refused"} <= set(ERROR_CODES)
    assert "can_undo" in View.model_fields


def test_undo_after_a_card_restores_hand_and_trick_and_the_match_plays_on_to_its_record(
        server: ThreadServer) -> None:
    table, token = quickplay(server)
    ws = sit(server, table, token)
    # a card of ours in the middle of a deal: we have played one before it (so it is not the first after our
    # exchange) and tricks remain after it (so the deal goes on)
    play_until(ws, lambda v: my_turn_to_play(v) and len(v["hand"]) in range(4, 10))
    before = ws.view
    assert before is not None and before["can_undo"] is True  # our earlier card could be taken back
    card = before["legal"][-1]
    ws.act(card)
    play_until(ws, lambda v: v["your_turn"] or v["deal_no"] != before["deal_no"])
    assert ws.view is not None and ws.view["deal_no"] == before["deal_no"]
    assert ws.view["can_undo"] is True and card not in ws.view["hand"]
    reply = ws.undo(7)
    assert reply["type"] == "snapshot", reply
    assert reply["undone"]["seat"] == 0 and reply["undone"]["actions"][0] == {"seat": 0, "action": card}
    assert all(a["seat"] != 0 for a in reply["undone"]["actions"][1:])  # the bots' cards after ours
    after = reply["view"]
    assert after["hand"] == before["hand"] and card in after["hand"]
    assert after["trick"] == before["trick"] and after["last_trick"] == before["last_trick"]
    assert after["tricks_won"] == before["tricks_won"] and after["hand_sizes"] == before["hand_sizes"]
    assert after["your_turn"] and after["legal"] == before["legal"] and after["seq"] == before["seq"]
    assert reply["seq"] == before["seq"] == ws.seq
    count, top = stored_events(server.config.database, table)
    assert count == top == before["seq"]  # the journal in the database is cut to match
    # the bots play again after our new card, and the match goes on to its end
    other = next((c for c in before["legal"] if c != card), card)
    ack = ws.act(other)
    assert ack["seq"] == before["seq"] + 1
    # (unless our card ended the trick and won it: then we lead again, and the bots play after that card; the
    # event that says so may have come before the ack, read by act(), which is why the view is looked at first)
    if not (ws.view is not None and ws.view["seq"] >= ack["seq"] and ws.view["your_turn"]):
        ws.until(lambda m: m["type"] == "event" and ((m["event"]["kind"] == "action" and m["event"]["actor"] != 0)
                                                     or bool((m.get("view") or {}).get("your_turn"))))
    play_until(ws, lambda v: v["phase"] == "over")
    view = ws.view
    assert view is not None and view["status"] == "finished" and not view["can_undo"]
    # the match the server kept equals a replay of its final actions, and so do its record and stored journal
    live = server.hub.tables[table].table
    assert live.match is not None and live.seq == view["seq"]
    replay = Match(live.rules, players=live.player_names(), first_dealer=live.first_dealer, decks=live.decks)
    for actions in live.match.history():
        for action in actions:
            replay.push(action)
    assert replay.is_over() and replay.totals == live.match.totals == view["totals"]
    text = httpx.get(server.url + f"/api/tables/{table}/record").text
    record = read_text(text)
    assert list(record.totals) == view["totals"]
    assert [d.actions() for d in record.deals] == live.match.history()
    assert server.hub.store is not None
    stored = server.hub.store.load(table)
    assert stored is not None and stored.match is not None
    assert stored.match.history() == live.match.history() and stored.seq == live.seq


def test_undo_across_a_completed_trick(server: ThreadServer) -> None:
    table, token = quickplay(server)
    ws = sit(server, table, token)
    # we lead a trick after the first: the bots complete it, and our card and theirs come back
    play_until(ws, lambda v: my_turn_to_play(v) and v["trick"] is None and v["tricks_played"] >= 1
               and len(v["hand"]) >= 3)
    before = ws.view
    assert before is not None
    ws.act(before["legal"][0])
    play_until(ws, lambda v: v["your_turn"] or v["deal_no"] != before["deal_no"])
    assert ws.view is not None and ws.view["tricks_played"] == before["tricks_played"] + 1
    reply = ws.undo()
    assert reply["type"] == "snapshot", reply
    assert len(reply["undone"]["actions"]) >= 3  # our card, the bots' two, and whatever followed
    after = reply["view"]
    assert after["tricks_played"] == before["tricks_played"] and after["tricks_won"] == before["tricks_won"]
    assert after["trick"] is None and after["last_trick"] == before["last_trick"]
    assert after["hand"] == before["hand"] and after["your_turn"]
    # undo after undo goes further back, card by card
    again = ws.undo("u2")
    assert again["type"] == "snapshot" and again["seq"] < reply["seq"]
    assert again["undone"]["actions"][0]["seat"] == 0


def expect_refused(ws: UndoWS, code: str, *words: str) -> None:
    """An undo refused with *code* (its message holding *words*): nothing changes, the connection stays."""
    seq, view = ws.seq, ws.view
    reply = ws.undo("no")
    assert reply["type"] == "error" and reply["code"] == code, reply
    for word in words:
        assert word in reply["message"], reply["message"]
    assert ws.request({"type": "ping", "id": "p"})["type"] == "pong"
    snapshot = ws.request({"type": "sync", "id": "s", "last_seq": seq})
    assert snapshot["type"] == "snapshot" and snapshot["seq"] == seq and snapshot["events"] == []
    assert view is not None and snapshot["view"]["hand"] == view["hand"]


def test_undo_is_refused_at_the_contract_and_at_the_first_card_after_the_exchange(server: ThreadServer) -> None:
    table, token = quickplay(server)
    ws = sit(server, table, token)
    # we are forehand in one of the first three deals: our contract, then our exchange
    play_until(ws, lambda v: v["your_turn"] and v["phase"] == "choose" and len(v["legal"]) > 1)
    assert ws.view is not None and not ws.view["can_undo"]
    expect_refused(ws, "undo_refused", "no card")
    ws.act(ws.view["legal"][0])
    play_until(ws, lambda v: v["your_turn"])
    assert ws.view is not None and ws.view["phase"] == "exchange" and not ws.view["can_undo"]
    expect_refused(ws, "undo_refused", "contract")
    ws.act("keep")
    play_until(ws, my_turn_to_play)
    assert not ws.view["can_undo"]
    expect_refused(ws, "undo_refused", "exchange")
    # after our first card of the deal it may be taken back, and no further than it
    first = ws.view
    ws.act(first["legal"][0])
    play_until(ws, lambda v: v["your_turn"])
    assert ws.view["can_undo"]
    assert ws.undo()["view"]["hand"] == first["hand"]
    assert not ws.view["can_undo"]
    expect_refused(ws, "undo_refused", "exchange")


def test_undo_is_not_allowed_for_a_spectator_nor_at_a_table_with_two_humans(server: ThreadServer) -> None:
    table, token = quickplay(server)
    player = sit(server, table, token)
    play_until(player, lambda v: my_turn_to_play(v))
    player.act(player.view["legal"][0])
    play_until(player, lambda v: v["your_turn"])
    watcher = sit(server, table, None)
    assert watcher.view is not None and watcher.view["can_undo"] is False and watcher.view["hand"] == []
    expect_refused(watcher, "undo_not_allowed", "spectator")
    # the spectator gets the snapshot of an undo too: its own view (no hand), with what was taken back
    reply = player.undo()
    assert reply["type"] == "snapshot"
    seen = watcher.until(lambda m: m["type"] == "snapshot" and m.get("undone") is not None)
    assert seen["id"] is None and seen["view"]["seat"] is None and seen["view"]["hand"] == []
    assert seen["seq"] == reply["seq"] and seen["undone"] == reply["undone"]
    assert seen["view"]["trick"] == reply["view"]["trick"]

    created = httpx.post(server.url + "/api/tables", json={
        "variant": VARIANT, "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "rules"}]})
    assert created.status_code == 201, created.text
    pair = created.json()["id"]
    tokens = [httpx.post(server.url + f"/api/tables/{pair}/join", json={"name": name}).json()["token"]
              for name in ("Ala", "Bolek")]
    players = [sit(server, pair, t) for t in tokens]
    for _ in range(2000):  # both humans play on until a trick is complete (each has a card to take back), and
        for ws in players:  # stop when one of them is to play: the table waits for him
            drain(ws)
        views = [ws.view for ws in players]
        assert all(v is not None and not v["can_undo"] for v in views)
        if all(v["tricks_played"] >= 1 for v in views) and any(v["your_turn"] for v in views):
            break
        for ws in players:
            view = ws.view
            if view["your_turn"]:
                ws.act(view["legal"][0] if view["legal"] else "keep")
    else:
        raise AssertionError("no trick was completed")
    for ws in players:
        expect_refused(ws, "undo_not_allowed", "computer")


def drain(ws: UndoWS) -> None:
    """Read what has come for *ws* so far."""
    while True:
        try:
            ws.recv(timeout=0.05)
        except TimeoutError:
            return


def test_the_undone_table_resumes_from_the_database_after_a_restart(make_server: Any) -> None:
    first = make_server()
    table, token = quickplay(first)
    ws = sit(first, table, token)
    play_until(ws, lambda v: my_turn_to_play(v) and len(v["hand"]) in range(4, 10))
    before = ws.view
    ws.act(before["legal"][0])
    play_until(ws, lambda v: v["your_turn"])
    undone = ws.undo()["view"]
    ws.close()
    first.stop()
    count, top = stored_events(first.config.database, table)
    assert count == top == before["seq"] == undone["seq"]
    second = make_server()
    again = sit(second, table, token)
    view = again.view
    assert view is not None and view["seq"] == before["seq"]
    for key in ("hand", "trick", "last_trick", "tricks_won", "legal", "your_turn", "can_undo", "totals"):
        assert view[key] == undone[key] == before[key], key
    again.act(before["legal"][-1])  # and play goes on from there
    play_until(again, lambda v: v["your_turn"] or v["deal_no"] != before["deal_no"])


def test_a_client_back_from_before_an_undo_is_refused_by_the_journal_epoch(make_server: Any) -> None:
    """A connection away during an undo comes back with a ``last_seq`` not past the table's last event: the numbers
    it saw after the cut name other events now, so a catch-up from there would not follow what it had.  The
    ``epoch`` it saw its numbers in (welcome, snapshot) tells: another epoch gets ``bad_seq`` and changes nothing,
    the right one gets its events, and a restart keeps the epoch (in the row's summary)."""
    server = make_server()
    table, token = quickplay(server)
    player = sit(server, table, token)
    play_until(player, lambda v: my_turn_to_play(v) and v["trick"] is None and len(v["hand"]) in range(4, 9)
               and v["can_undo"])
    card = player.view["legal"][0]
    watcher = UndoWS(server.ws_url)
    assert watcher.hello(table)["epoch"] == 0
    player.act(card)
    play_until(player, lambda v: v["your_turn"])
    watcher.until(lambda m: m["type"] == "event" and m["seq"] == player.seq)
    seen = watcher.seq  # the watcher saw our card and the bots' after it, then went away
    watcher.close()
    reply = player.undo()
    assert reply["epoch"] == 1 and reply["seq"] < seen
    other = next(c for c in player.view["legal"] if c != card) if len(player.view["legal"]) > 1 else card
    player.act(other)
    # stop at our turn: the bots wait for us, so the table's last event stays put while the checks below read it
    play_until(player, lambda v: player.seq >= seen and v["your_turn"])
    back = UndoWS(server.ws_url)
    back.send({"type": "hello", "id": "h", "protocol": 1, "table": table, "last_seq": seen, "epoch": 0})
    refused = back.until(lambda m: m.get("id") == "h")
    assert refused["type"] == "error" and refused["code"] == "bad_seq" and "undo" in refused["message"], refused
    fresh = back.hello(table, None, seen - 1)  # an older client, without epoch: the number alone is checked
    assert fresh["type"] == "welcome" and fresh["epoch"] == 1
    back.send({"type": "sync", "id": "s", "last_seq": seen - 1, "epoch": 0})
    assert back.until(lambda m: m.get("id") == "s")["code"] == "bad_seq"
    back.send({"type": "sync", "id": "s2", "last_seq": reply["seq"], "epoch": 1})
    caught = back.until(lambda m: m.get("id") == "s2")
    assert caught["type"] == "snapshot" and caught["epoch"] == 1
    live = server.hub.tables[table].table
    assert caught["seq"] == live.seq
    assert [e["seq"] for e in caught["events"]] == list(range(reply["seq"] + 1, live.seq + 1))
    assert caught["events"][0]["event"]["card"] == other  # the events after the cut as they are now
    back.close()
    player.close()
    server.stop()
    _, now = stored_events(server.config.database, table)
    second = make_server()
    resumed = UndoWS(second.ws_url)
    resumed.send({"type": "hello", "id": "h", "protocol": 1, "table": table, "token": token, "last_seq": now,
                  "epoch": 1})
    assert resumed.until(lambda m: m.get("id") == "h")["type"] == "welcome"  # the same epoch after the restart
    resumed.send({"type": "sync", "id": "s", "last_seq": now, "epoch": 0})
    assert resumed.until(lambda m: m.get("id") == "s")["code"] == "bad_seq"


def test_a_bot_decision_asked_for_before_an_undo_is_never_played(make_server: Any) -> None:
    delay = 1.5
    server = make_server()
    table, token = quickplay(server)
    ws = sit(server, table, token)
    # a card of ours that a bot answers (we do not end the trick), with another card we could play instead
    play_until(ws, lambda v: my_turn_to_play(v) and v["trick"] is not None and len(v["trick"]["cards"]) == 1
               and len(v["legal"]) >= 2)
    before = ws.view
    assert before is not None
    server.config.bot_delay = delay  # from now on each bot decision takes this long (read at each bot turn)
    ws.act(before["legal"][0])  # the next bot starts thinking about the trick with this card in it
    started = time.monotonic()
    reply = ws.undo()
    assert reply["type"] == "snapshot" and reply["undone"]["actions"] == [{"seat": 0, "action": before["legal"][0]}]
    time.sleep(0.6)  # the old question is answered before the new one could be
    ws.act(before["legal"][1])  # the same event number as the card taken back, the same bot to move
    replayed = time.monotonic()
    event = ws.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "action", timeout=10)
    answered = time.monotonic()
    assert event["event"]["actor"] != 0
    # the bot answered the new position, after its own delay: not the stale decision, due at started + delay
    assert answered - replayed >= delay - 0.2, (answered - started, answered - replayed)
    assert event["event"]["trick"]["cards"][1:] == [before["legal"][1], event["event"]["card"]]
    assert event["seq"] == before["seq"] + 2


@pytest.mark.parametrize("inline", [True, False], ids=["sqlite-inline", "writer-thread"])
def test_the_store_cuts_the_journal_of_an_undo_in_one_write(database_url: str, inline: bool) -> None:
    """Both write paths (the event loop's sqlite3 and the writer thread's SQLAlchemy, which PostgreSQL uses): the
    events past the cut go, the new ones come, and the table reloads as it is in memory.  With
    MIZERKA_TEST_DATABASE_URL set, the writer-thread case runs on PostgreSQL (the inline one needs a SQLite file)."""
    if inline and sqlite_path(normalize_url(database_url)) is None:
        pytest.skip("inline commits need a SQLite file")
    table = Table.new("u1", TableSettings(variant=VARIANT),
                      [SeatState.human(), SeatState.bot("rules"), SeatState.bot("rules")], seed=3)
    _, joined = table.join("Ala", token_hash="h")
    match = table.match
    assert match is not None

    def first() -> Any:
        legal = list(match.deal.legal_actions)
        return legal[0] if legal else match.deal.parse_action("keep")

    def ours_played() -> bool:
        return any(isinstance(x, Play) for a, x in zip(match.deal.actors, match.deal.history, strict=True) if a == 0)

    # our card in the middle of a trick (another seat plays next), with a card of ours before it in the deal
    while not (match.to_move == 0 and match.deal.phase.name == "PLAY" and len(match.deal.trick) < 2
               and ours_played()):
        table.act(match.to_move, first())
    table.act(0, first())
    standin = table.set_standin(0, True)  # a stand-in came meanwhile: its seat event lies among the removed ones
    assert match.to_move != 0
    table.act(match.to_move, first())
    store = Store(database_url, inline=inline)

    async def run() -> Table | None:
        await store.write(store.insert_table_op(table))
        before = table.seq
        undone = table.undo(0)
        assert undone.after < before and [e.kind for e in undone.events] == ["seat"]
        assert undone.events[0].public == standin[0].public and table.seats[0].standin
        await store.write(store.append_op(table, undone.events, truncate_after=undone.after))
        return await asyncio.to_thread(store.load, "u1")

    try:
        loaded = asyncio.run(run())
    finally:
        store.close()
    assert loaded is not None and loaded.match is not None and table.match is not None
    assert loaded.seq == table.seq and loaded.match.history() == table.match.history()
    assert [e.kind for e in loaded.events] == [e.kind for e in table.events] and loaded.seats[0].standin
    assert joined[0].kind == "seat"
