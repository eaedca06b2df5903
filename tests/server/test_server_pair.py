"""Quick pairing with other people (``POST /api/pair``), against a real server on 127.0.0.1.

A caller is seated at the public table waiting under the same rules (and rated or not, as asked) that has the most
players already, where someone seated is connected or a seat was taken moments ago; else at a new public table of
human seats, which the next caller joins.  Pairings run one at a time, so callers arriving together meet at one
table.  Bad input is an error reply that changes nothing.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from typing import Any

import httpx
import pytest
from server_helpers import WS, ThreadServer

import mizerka.server.hub as hub_module

SHORT = "standard,contracts=NT+MZ"


def pair(server: ThreadServer, **body: Any) -> dict[str, Any]:
    answer = httpx.post(server.url + "/api/pair", json={"variant": SHORT, **body})
    assert answer.status_code == 201, answer.text
    result: dict[str, Any] = answer.json()
    return result


def connect(server: ThreadServer, result: dict[str, Any]) -> WS:
    ws = WS(server.ws_url)
    welcome = ws.hello(result["table"]["id"], result["token"])
    assert welcome["type"] == "welcome", welcome
    return ws


def listed(server: ThreadServer) -> dict[str, dict[str, Any]]:
    return {tb["id"]: tb for tb in httpx.get(server.url + "/api/tables?limit=500").json()}


def test_three_callers_meet_at_one_table_and_the_fourth_opens_the_next(server: ThreadServer) -> None:
    first = pair(server, name="Ala", table_name="Ala's table")
    table = first["table"]["id"]
    assert first["seat"] == 0
    shown = listed(server)[table]
    assert shown["status"] == "waiting" and shown["name"] == "Ala's table" and shown["variant"] == SHORT
    assert [seat["kind"] for seat in shown["seats"]] == ["human"] * 3
    sockets = [connect(server, first)]
    second = pair(server, name="Bolek", table_name="Bolek's table")
    assert second["table"]["id"] == table and second["seat"] == 1
    sockets.append(connect(server, second))
    third = pair(server, name="Celina")
    assert third["table"]["id"] == table and third["seat"] == 2
    assert listed(server)[table]["status"] == "playing"
    fourth = pair(server, name="Darek", table_name="Darek's table")
    assert fourth["table"]["id"] != table and fourth["seat"] == 0
    assert listed(server)[fourth["table"]["id"]]["name"] == "Darek's table"
    for ws in sockets:
        ws.close()


def test_the_fullest_table_is_chosen_and_the_rules_must_match(server: ThreadServer) -> None:
    # two waiting tables under the same rules: one with one player, one with two
    one = pair(server, name="Ala")
    ws_one = connect(server, one)
    other_rules = pair(server, name="Ewa", variant="standard,contracts=C+MZ")
    assert other_rules["table"]["id"] != one["table"]["id"]
    two = httpx.post(server.url + "/api/tables", json={"variant": SHORT, "seats": [{"kind": "human"}] * 3})
    two_id = two.json()["id"]
    tokens = [httpx.post(f"{server.url}/api/tables/{two_id}/join", json={"name": n}).json()["token"]
              for n in ("Bolek", "Celina")]
    ws_two = WS(server.ws_url)
    assert ws_two.hello(two_id, tokens[0])["type"] == "welcome"
    joined = pair(server, name="Franek")
    assert joined["table"]["id"] == two_id  # two players were waiting there, one at Ala's
    assert listed(server)[two_id]["status"] == "playing"
    # a rated caller is not seated at an unrated table
    key = httpx.post(server.url + "/api/players", json={"name": "Gosia"}).json()["key"]
    rated = pair(server, player_key=key, rated=True)
    assert rated["table"]["id"] != one["table"]["id"] and rated["table"]["options"]["rated"] is True
    for ws in (ws_one, ws_two):
        ws.close()


def test_a_table_whose_players_have_gone_is_passed_over(server: ThreadServer,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hub_module, "PAIR_FRESH_SECONDS", 0.5)
    first = pair(server, name="Ala")
    ws = connect(server, first)
    ws.close()  # Ala's page is gone
    import time

    time.sleep(1.0)
    second = pair(server, name="Bolek")
    assert second["table"]["id"] != first["table"]["id"] and second["seat"] == 0
    # a table just sat at, its page not yet connected, is still found
    third = pair(server, name="Celina")
    assert third["table"]["id"] == second["table"]["id"]


def test_with_nobody_waiting_a_caller_sits_in_for_a_computer_player_at_a_match_under_way(
        server: ThreadServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ala waited at her listed table, then filled it with bots.  Bolek, finding nobody waiting, is
    seated in place of one of them (an unrated match), not at a table of his own where he would wait alone; a
    waiting table still comes first, and a match whose player has gone, or a rated one, is passed over."""
    monkeypatch.setattr(hub_module, "PAIR_FRESH_SECONDS", 0.5)
    ala = pair(server, name="Ala")
    table = ala["table"]["id"]
    ws_ala = connect(server, ala)
    assert ws_ala.request({"type": "fill", "level": "random"})["type"] == "ack"
    assert listed(server)[table]["status"] == "playing"
    bolek = pair(server, name="Bolek")
    assert bolek["table"]["id"] == table and bolek["seat"] == 1
    seats = listed(server)[table]["seats"]
    assert [(s["name"], s["kind"], s["takeover"]) for s in seats] == [
        ("Ala", "human", False), ("Bolek", "human", False), ("Bot 3", "bot", True)]
    # a table waiting for players comes before a match under way
    created = httpx.post(server.url + "/api/tables",
                         json={"variant": SHORT, "visibility": "public", "seats": [{"kind": "human"}] * 3}).json()
    cezary = httpx.post(f"{server.url}/api/tables/{created['id']}/join", json={"name": "Cezary"}).json()
    ws_cezary = connect(server, cezary)
    assert pair(server, name="Ewa")["table"]["id"] == created["id"]
    # other rules, or a rated game, are never paired into this match
    assert pair(server, name="Gosia", variant="standard,contracts=C+MZ")["table"]["id"] != table
    key = httpx.post(server.url + "/api/players", json={"name": "Greta"}).json()["key"]
    assert pair(server, player_key=key, rated=True)["table"]["id"] != table
    assert listed(server)[table]["seats"][2]["takeover"]
    ws_cezary.close()

    # a match whose human has gone is no one to play with
    hanna = pair(server, name="Hanna", variant="standard,contracts=H+MZ")
    ws_hanna = connect(server, hanna)
    assert ws_hanna.request({"type": "fill", "level": "random"})["type"] == "ack"
    ws_hanna.close()
    import time

    time.sleep(0.3)
    ignored = pair(server, name="Igor", variant="standard,contracts=H+MZ")
    assert ignored["table"]["id"] != hanna["table"]["id"] and ignored["seat"] == 0
    ws_ala.close()


def test_callers_arriving_together_meet_at_one_table(server: ThreadServer, monkeypatch: pytest.MonkeyPatch) -> None:
    # each write to the database takes a while, as on a loaded server: a second caller arrives while the first
    # caller's table is being stored (without the pairing lock each would make a table of its own)
    store = server.hub._store()
    write = store.write

    async def slow_write(op: Any) -> None:
        await asyncio.sleep(0.3)
        await write(op)

    monkeypatch.setattr(store, "write", slow_write)
    with concurrent.futures.ThreadPoolExecutor(max_workers=3) as pool:
        results = list(pool.map(lambda n: pair(server, name=n), ["Ala", "Bolek", "Celina"]))
    assert len({r["table"]["id"] for r in results}) == 1
    assert sorted(r["seat"] for r in results) == [0, 1, 2]


def test_a_profile_is_not_paired_with_itself(server: ThreadServer) -> None:
    key = httpx.post(server.url + "/api/players", json={"name": "Hania"}).json()["key"]
    first = pair(server, player_key=key)
    second = pair(server, player_key=key)  # another tab of the same player: a table of its own
    assert second["table"]["id"] != first["table"]["id"]


@pytest.mark.parametrize(("body", "status", "code"), [
    ({"name": "Ala", "rated": True}, 403, "profile_needed"),
    ({"name": "Ala", "variant": "no-such-game"}, 400, None),
    ({"name": "Ala", "table_name": "a\x07b"}, 422, None),
    ({"name": "Ala", "table_name": "x" * 61}, 422, None),
    ({"name": "Ala", "seats": []}, 422, None),
    ({"player_key": "not-a-key"}, 403, "bad_key"),
])
def test_bad_input_is_refused_and_changes_nothing(server: ThreadServer, body: dict[str, Any], status: int,
                                                  code: str | None) -> None:
    before = listed(server)
    answer = httpx.post(server.url + "/api/pair", json={"variant": SHORT, **body})
    assert answer.status_code == status, answer.text
    if code is not None:
        assert answer.json()["error"] == code
    assert listed(server) == before
