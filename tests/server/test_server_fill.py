"""``fill``: a seated player starts a waiting table at once, with computer players in its open seats
(docs/protocol.md, *Client → server*; docs/server.md, *Tables*), against a real server on 127.0.0.1.

Each open seat becomes a bot's for good (a ``seat`` event each, to everyone at the table, naming the bot as the
``start`` event does: ``Bot 2``, made distinct from a human's name as the table makes it), the match starts as when
the last human joins, the journal keeps it (a restart resumes the match with its bots), and the lobby lists the table
as playing.  Every refusal is one ``error`` reply and changes nothing."""

from __future__ import annotations

import logging
from typing import Any

import httpx
import pytest
from server_helpers import WS, ThreadServer, new_table, play_until

from mizerka.server.protocol import CLIENT_TYPES, ERROR_CODES, ProtocolError, decode_client_message

SHORT = "standard,contracts=NT+MZ"  # six deals: a whole match in seconds


def human_table(server: ThreadServer, variant: str = SHORT, n: int = 3, **body: Any) -> str:
    """A public table of *n* human seats, nobody seated yet."""
    created = httpx.post(server.url + "/api/tables",
                         json={"variant": variant, "seats": [{"kind": "human"}] * n, **body})
    assert created.status_code == 201, created.text
    return str(created.json()["id"])


def join(server: ThreadServer, table: str, **body: Any) -> str:
    joined = httpx.post(server.url + f"/api/tables/{table}/join", json=body)
    assert joined.status_code == 200, joined.text
    return str(joined.json()["token"])


def sit(server: ThreadServer, table: str, token: str | None) -> WS:
    ws = WS(server.ws_url)
    welcome = ws.hello(table, token)
    assert welcome["type"] == "welcome", welcome
    return ws


def info(server: ThreadServer, table: str) -> dict[str, Any]:
    reply = httpx.get(server.url + f"/api/tables/{table}")
    assert reply.status_code == 200, reply.text
    body: dict[str, Any] = reply.json()
    return body


def events_until(ws: WS, kind: str) -> list[dict[str, Any]]:
    """The events *ws* receives up to the first of *kind* (included)."""
    seen: list[dict[str, Any]] = []
    while not seen or seen[-1]["kind"] != kind:
        message = ws.until(lambda m: m["type"] == "event")
        seen.append(message["event"])
    return seen


def quiet(ws: WS) -> None:
    """Nothing reached *ws* but the answer to a ping: no event, no view (a refusal changed nothing)."""
    before = len(ws.log)
    assert ws.request({"type": "ping", "id": "q"}) == {"type": "pong", "id": "q"}
    assert [m["type"] for m in ws.log[before:]] == ["pong"], ws.log[before:]


def over(view: dict[str, Any]) -> bool:
    return bool(view["phase"] == "over")


def test_fill_is_a_client_message_and_its_codes_are_listed() -> None:
    assert "fill" in CLIENT_TYPES
    assert {"already_started", "bad_bot", "no_seat", "match_over"} <= set(ERROR_CODES)
    assert decode_client_message('{"type": "fill"}').level == "rules"  # type: ignore[union-attr]
    assert decode_client_message('{"type": "fill", "level": "expert", "id": 3}').level == "expert"  # type: ignore[union-attr]
    for raw, where in (('{"type": "fill", "level": 3}', "level"), ('{"type": "fill", "level": null}', "level"),
                       ('{"type": "fill", "level": ["rules"]}', "level"), ('{"type": "fill", "seats": 2}', "seats")):
        with pytest.raises(ProtocolError) as error:
            decode_client_message(raw)
        assert error.value.code == "bad_message" and where in error.value.message, error.value


def test_meta_lists_the_new_codes(server: ThreadServer) -> None:
    codes = httpx.get(server.url + "/api/meta").json()["error_codes"]
    assert {"already_started", "bad_bot"} <= set(codes)


def test_fill_seats_default_bots_starts_the_match_and_everyone_at_the_table_sees_it(server: ThreadServer) -> None:
    table = human_table(server)
    ala = sit(server, table, join(server, table, name="Ala"))
    bolek = sit(server, table, join(server, table, name="Bolek"))
    watcher = sit(server, table, None)
    listed = httpx.get(server.url + "/api/tables").json()
    assert [(t["id"], t["status"]) for t in listed] == [(table, "waiting")]
    reply = ala.request({"type": "fill", "id": "f1"})
    assert reply == {"type": "ack", "id": "f1", "seq": ala.seq, "action": "fill"}, reply
    for ws in (ala, bolek, watcher):
        seen = [e for e in ws.log if e["type"] == "event"]
        if ws is not ala:  # the others get them too, in the same order, with their own views
            seen = [{"event": e} for e in events_until(ws, "deal")]
        kinds = [m["event"]["kind"] for m in seen]
        assert kinds[-3:] == ["seat", "start", "deal"], kinds
        seat_event = seen[-3]["event"]
        assert {k: seat_event[k] for k in ("seat", "seat_kind", "bot", "open", "standin", "name")} == {
            "seat": 2, "seat_kind": "bot", "bot": "rules", "open": False, "standin": False, "name": "Bot 3"}
        assert seen[-2]["event"]["players"] == ["Ala", "Bolek", "Bot 3"]
        view = ws.view
        assert view is not None and view["status"] == "playing" and view["deal_no"] == 1
        assert [(p["kind"], p["bot"], p["open"]) for p in view["players"]] == [
            ("human", None, False), ("human", None, False), ("bot", "rules", False)]
    assert ala.seq == bolek.seq == watcher.seq == reply["seq"]
    assert watcher.view is not None and watcher.view["hand"] == []  # a spectator still sees no cards
    listed = httpx.get(server.url + "/api/tables").json()
    assert [(t["id"], t["status"]) for t in listed] == [(table, "playing")]
    # never re-opened: the filled seat is the bot's, which a human may only take over during the match, and
    # then it is his
    taken = httpx.post(server.url + f"/api/tables/{table}/join", json={"name": "Cezary"}).json()
    assert taken["seat"] == 2 and taken["table"]["seats"][2]["kind"] == "human"
    assert httpx.post(server.url + f"/api/tables/{table}/join", json={"name": "Darek"}).json()["error"] == \
        "table_full"
    assert httpx.post(server.url + f"/api/tables/{table}/join",
                      json={"name": "Darek", "seat": 2}).json()["error"] == "seat_taken"
    for ws in (ala, bolek, watcher):
        ws.close()


def test_a_filled_seat_event_names_the_bot_as_the_start_event_does(server: ThreadServer) -> None:
    table = human_table(server)
    # a human who calls himself "Bot 2": the bot at seat 1 is then "Bot 2 (2)", as the table's names make it
    ala = sit(server, table, join(server, table, name="Bot 2"))
    watcher = sit(server, table, None)
    reply = ala.request({"type": "fill", "level": "random", "id": "f"})
    assert reply["type"] == "ack", reply
    for ws in (ala, watcher):
        seen = ([m["event"] for m in ws.log if m["type"] == "event"] if ws is ala
                else events_until(ws, "deal"))
        seats = [e for e in seen if e["kind"] == "seat"]
        start = next(e for e in seen if e["kind"] == "start")
        assert [(e["seat"], e["name"], e["seat_kind"], e["bot"]) for e in seats] == [
            (1, "Bot 2 (2)", "bot", "random"), (2, "Bot 3", "bot", "random")], seats
        assert start["players"] == ["Bot 2", "Bot 2 (2)", "Bot 3"]
        ws.close()


def test_fill_with_a_level_and_the_bots_play_the_match_out(server: ThreadServer) -> None:
    table = human_table(server)
    ala = sit(server, table, join(server, table, name="Ala"))
    reply = ala.request({"type": "fill", "level": "random", "id": 1})
    assert reply["type"] == "ack" and reply["action"] == "fill", reply
    seat_events = [m["event"] for m in ala.log if m["type"] == "event" and m["event"]["kind"] == "seat"]
    assert [(e["seat"], e["seat_kind"], e["bot"], e["open"]) for e in seat_events[-2:]] == [
        (1, "bot", "random", False), (2, "bot", "random", False)]
    play_until(ala, over)
    assert ala.view is not None and ala.view["status"] == "finished" and len(ala.view["score_sheet"]) == 6
    actors = {m["event"]["actor"] for m in ala.log if m["type"] == "event" and m["event"]["kind"] == "action"}
    assert actors == {0, 1, 2}  # the bots played their seats
    assert info(server, table)["status"] == "finished"
    ala.close()


def test_refusals_change_nothing(server: ThreadServer) -> None:
    table = human_table(server)
    ala = sit(server, table, join(server, table, name="Ala"))
    watcher = sit(server, table, None)
    stranger = WS(server.ws_url)  # connected, no hello
    before = info(server, table)
    cases: list[tuple[WS, dict[str, Any], str, str]] = [
        (watcher, {"type": "fill"}, "no_seat", "spectators"),
        (stranger, {"type": "fill"}, "not_joined", "hello"),
        (ala, {"type": "fill", "level": "grandmaster"}, "bad_bot", "'grandmaster'"),
        (ala, {"type": "fill", "level": "Rules"}, "bad_bot", "'Rules'"),
        (ala, {"type": "fill", "level": ""}, "bad_bot", "''"),
        (ala, {"type": "fill", "level": 2}, "bad_message", "level"),
        (ala, {"type": "fill", "level": None}, "bad_message", "level"),
        (ala, {"type": "fill", "level": True}, "bad_message", "level"),
        (ala, {"type": "fill", "bots": "rules"}, "bad_message", "bots"),
    ]
    for ws, message, code, named in cases:
        reply = ws.request({**message, "id": code})
        assert reply["type"] == "error" and reply["code"] == code and reply["id"] == code, (message, reply)
        assert named in reply["message"], (message, reply)
    long = ala.request({"type": "fill", "level": "x" * 3000})
    assert long["code"] == "bad_bot" and len(long["message"]) < 200 and "random, rules, pimc" in long["message"]
    for ws in (ala, watcher):
        quiet(ws)
    assert info(server, table) == before and before["status"] == "waiting"
    assert server.hub.tables[table].table.seq == 1  # Ala's seat event, nothing since
    for ws in (ala, watcher, stranger):
        ws.close()


def test_a_seat_given_up_fills_nothing_and_the_reopened_seat_is_filled(server: ThreadServer) -> None:
    table = human_table(server)
    ala = sit(server, table, join(server, table, name="Ala"))
    bolek = sit(server, table, join(server, table, name="Bolek"))
    bolek.send({"type": "leave"})  # before the start the seat opens again; the connection stays, as a spectator's
    assert events_until(bolek, "seat")[-1]["open"] is True
    reply = bolek.request({"type": "fill"})
    assert reply["code"] == "no_seat", reply
    ala.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "seat" and m["event"]["open"])
    quiet(ala)
    reply = ala.request({"type": "fill", "level": "random"})
    assert reply["type"] == "ack", reply
    view = ala.view
    assert view is not None and [(p["kind"], p["bot"]) for p in view["players"]] == [
        ("human", None), ("bot", "random"), ("bot", "random")]
    ala.close()
    bolek.close()


def test_a_started_or_finished_table_refuses_a_fill(server: ThreadServer) -> None:
    started, token = new_table(server)  # its only human seat taken: it started then
    ala = sit(server, started, token)
    reply = ala.request({"type": "fill", "level": "random"})
    assert reply["code"] == "already_started", reply
    ala.close()

    table = human_table(server)
    bolek = sit(server, table, join(server, table, name="Bolek"))
    assert bolek.request({"type": "fill", "level": "random"})["type"] == "ack"
    reply = bolek.request({"type": "fill", "level": "random"})
    assert reply["code"] == "already_started" and "started" in reply["message"], reply
    view = bolek.view
    assert view is not None and view["status"] == "playing"
    play_until(bolek, over)
    before = server.hub.tables[table].table.seq
    reply = bolek.request({"type": "fill", "level": "rules"})
    assert reply["code"] == "match_over", reply
    reply = bolek.request({"type": "fill", "level": "nobody"})  # the state is named before the level
    assert reply["code"] == "match_over", reply
    quiet(bolek)
    assert server.hub.tables[table].table.seq == before and info(server, table)["status"] == "finished"
    bolek.close()


def test_a_restart_after_a_fill_resumes_the_match_with_its_bots(make_server: Any) -> None:
    server: ThreadServer = make_server()
    table = human_table(server, visibility="private")
    other = human_table(server)  # a public table still waiting: the lobby lists it first
    token = join(server, table, name="Ala")
    ala = sit(server, table, token)
    assert ala.request({"type": "fill", "level": "random"})["type"] == "ack"
    ala.close()
    original = server.hub.tables[table].table
    server.stop()
    again: ThreadServer = make_server()
    restored = again.hub.tables[table].table
    assert restored.status == "playing"
    assert [(s.kind, s.level) for s in restored.seats] == [("human", "rules"), ("bot", "random"), ("bot", "random")]
    assert [s.to_json() for s in restored.seats] == [s.to_json() for s in original.seats]
    assert [e.render(0) for e in restored.events] == [e.render(0) for e in original.events[:len(restored.events)]]
    assert [t["id"] for t in httpx.get(again.url + "/api/tables").json()] == [other]  # private: not listed
    ala = sit(again, table, token)
    view = ala.view
    assert view is not None and [(p["kind"], p["bot"]) for p in view["players"]][1:] == [
        ("bot", "random"), ("bot", "random")]
    play_until(ala, over)  # the resumed bots play their seats out
    assert ala.view is not None and ala.view["status"] == "finished"
    ala.close()


def test_the_lobby_lists_a_filled_public_table_as_playing_after_a_restart(make_server: Any) -> None:
    server: ThreadServer = make_server()
    filled, waiting = human_table(server), human_table(server)
    ala = sit(server, filled, join(server, filled, name="Ala"))
    listed = httpx.get(server.url + "/api/tables").json()
    assert [(t["id"], t["status"]) for t in listed] == [(filled, "waiting"), (waiting, "waiting")]
    assert ala.request({"type": "fill"})["type"] == "ack"
    ala.close()

    def lobby(at: ThreadServer) -> list[tuple[str, str, list[str]]]:
        return [(t["id"], t["status"], [s["kind"] for s in t["seats"]])
                for t in httpx.get(at.url + "/api/tables").json()]

    expected = [(waiting, "waiting", ["human"] * 3), (filled, "playing", ["human", "bot", "bot"])]
    assert lobby(server) == expected
    server.stop()
    assert lobby(make_server()) == expected


def test_four_players_fill_seats_three_bots(server: ThreadServer) -> None:
    table = human_table(server, variant="four-players,contracts=NT+MZ", n=4)
    ala = sit(server, table, join(server, table, name="Ala"))
    assert ala.request({"type": "fill", "level": "random"})["type"] == "ack"
    seat_events = [m["event"] for m in ala.log if m["type"] == "event" and m["event"]["kind"] == "seat"]
    assert [(e["seat"], e["bot"]) for e in seat_events[-3:]] == [(1, "random"), (2, "random"), (3, "random")]
    view = ala.view
    assert view is not None and view["status"] == "playing" and len(view["players"]) == 4
    assert [p["kind"] for p in view["players"]] == ["human", "bot", "bot", "bot"]
    ala.close()


def test_a_rated_table_is_filled_as_it_could_have_been_made(server: ThreadServer) -> None:
    """A rated table may seat bots (quick play does), so its open seats may be filled: the match is rated against
    the bots' entries, as one made with them would be; it stays rated (no hints, no undo)."""
    claimed = httpx.post(server.url + "/api/players", json={"name": "Ala"})
    assert claimed.status_code == 201, claimed.text
    table = human_table(server, rated=True)
    token = join(server, table, player_key=claimed.json()["key"])
    ala = sit(server, table, token)
    assert ala.request({"type": "fill", "level": "random"})["type"] == "ack"
    view = ala.view
    assert view is not None and view["options"]["rated"] and not view["options"]["hints"]
    assert view["players"][0]["registered"] and view["can_undo"] is False
    assert [p["kind"] for p in view["players"]] == ["human", "bot", "bot"]
    ala.close()


def test_a_filled_one_human_table_allows_undo_as_one_made_with_bots(server: ThreadServer) -> None:
    """Filled, a table of one human and bots is such a table: its human may take back cards (undo_allowed)."""
    table = human_table(server)
    token = join(server, table, name="Ala")
    assert server.hub.tables[table].table.undo_allowed(0) is False  # two open human seats
    ala = sit(server, table, token)
    assert ala.request({"type": "fill", "level": "random"})["type"] == "ack"
    assert server.hub.tables[table].table.undo_allowed(0) is True
    ala.close()


def test_a_searching_bot_filled_in_at_a_variant_warms_the_slow_pool(make_server: Any,
                                                                    caplog: pytest.LogCaptureFixture) -> None:
    """The table was made with humans only (nothing to warm); a fill seating pimc at a variant has the searching
    bots' process pool build that variant's tables (Hub._warm_for), as a table made with pimc would."""
    server: ThreadServer = make_server(bot_pool="process", bot_workers=1, slow_bot_workers=1)
    table = human_table(server, variant="standard,contracts=NT+MZ,first_dealer=1")
    ala = sit(server, table, join(server, table, name="Ala"))
    with caplog.at_level(logging.INFO, logger="mizerka.server"):
        assert ala.request({"type": "fill", "level": "pimc"})["type"] == "ack"
    warmed = [r.getMessage() for r in caplog.records if "warming up for" in r.getMessage()]
    spec = server.hub.tables[table].table.rules.spec()
    assert warmed == [f"bot workers slow-bot: warming up for {spec}"], warmed
    ala.close()


def test_a_rated_table_is_filled_only_while_every_seated_player_is_there(server: ThreadServer) -> None:
    """A rated match is not started for a player who is away: with Ola seated but not connected, Ala's fill is
    refused (``players_away``, naming the seat) and changes nothing; once Ola is back, it starts the match."""
    keys = []
    for name in ("Ala", "Ola"):
        claimed = httpx.post(server.url + "/api/players", json={"name": name})
        assert claimed.status_code == 201, claimed.text
        keys.append(claimed.json()["key"])
    table = human_table(server, rated=True)
    ala = sit(server, table, join(server, table, player_key=keys[0]))
    ola_token = join(server, table, player_key=keys[1])  # seated (seat 1), no connection
    refused = ala.request({"type": "fill", "level": "random"})
    assert refused["type"] == "error" and refused["code"] == "players_away", refused
    assert "seat 1 is away" in refused["message"]
    quiet(ala)
    assert info(server, table)["status"] == "waiting"
    ola = sit(server, table, ola_token)
    try:
        assert ala.request({"type": "fill", "level": "random"})["type"] == "ack"
        view = ala.view
        assert view is not None and [p["kind"] for p in view["players"]] == ["human", "human", "bot"]
        assert info(server, table)["status"] == "playing"
    finally:
        ola.close()
        ala.close()
