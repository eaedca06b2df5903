"""Taking a seat over from the computer during a match, against a real server on 127.0.0.1.

A friend who arrives after the match began (its free seats filled with computer players), or a stranger at a listed
table whose player left, sits in for the bot: at an unrated table, a seat a bot plays for good may be joined during
the match.  The newcomer sees that seat's cards from then on and nothing more; the bot that played it stands in while
he is away.  A rated match's seats, a seat whose human is only away, and a bot's seat before the match are not taken.
A seat its human gave up during the match is taken over under the newcomer's own name (it used to be taken under the
leaver's: the newcomer passed for the player who left); before the start, a seat given up simply opens again.
"""

from __future__ import annotations

import contextlib
from typing import Any

import httpx
import pytest
from server_helpers import WS, ThreadServer, play_until, post_table

SHORT = "standard,contracts=NT+MZ"


def create(server: ThreadServer, seats: list[dict[str, Any]], **body: Any) -> str:
    response = httpx.post(server.url + "/api/tables", json={"variant": SHORT, "seats": seats, **body})
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


def join(server: ThreadServer, table: str, **body: Any) -> httpx.Response:
    return httpx.post(f"{server.url}/api/tables/{table}/join", json=body)


def info(server: ThreadServer, table: str) -> dict[str, Any]:
    answer: dict[str, Any] = httpx.get(f"{server.url}/api/tables/{table}").json()
    return answer


def bots_fill(server: ThreadServer, table: str, token: str, level: str = "random") -> WS:
    """Sit with *token* and start the match now, computer players of *level* in the free seats."""
    ws = WS(server.ws_url)
    assert ws.hello(table, token)["type"] == "welcome"
    reply = ws.request({"type": "fill", "level": level})
    assert reply["type"] == "ack", reply
    assert ws.view is not None and ws.view["status"] == "playing"
    return ws


def test_a_friend_who_comes_late_takes_over_a_computer_player_and_plays_its_cards(server: ThreadServer) -> None:
    table = create(server, [{"kind": "human"}] * 3)
    ala = join(server, table, name="Ala").json()
    ws_ala = bots_fill(server, table, ala["token"], "rules")
    listed = info(server, table)
    assert listed["status"] == "playing"
    assert [s["takeover"] for s in listed["seats"]] == [False, True, True]
    assert [s["kind"] for s in listed["seats"]] == ["human", "bot", "bot"]

    bolek = join(server, table, name="Bolek")  # no seat named: the first one a bot plays
    assert bolek.status_code == 200, bolek.text
    assert bolek.json()["seat"] == 1
    seat = bolek.json()["table"]["seats"][1]
    assert seat == {**seat, "name": "Bolek", "kind": "human", "bot": None, "standin": False, "takeover": False,
                    "since_deal": 1}
    ws_bolek = WS(server.ws_url)
    welcome = ws_bolek.hello(table, bolek.json()["token"])
    assert welcome["type"] == "welcome" and welcome["view"]["seat"] == 1
    # he sees his seat's cards (the view is the seat's observation), and plays when it is his turn
    view = welcome["view"]
    assert view["players"][1]["name"] == "Bolek"
    assert view["hand"] or view["phase"] in ("choose", "exchange")
    # Ala, at a table that has another human now, sees him sit down
    ws_ala.until(lambda m: m.get("type") == "event" and m["event"]["kind"] == "seat" and m["event"]["seat"] == 1)
    deal_no = view["deal_no"]
    sockets, plays = (ws_ala, ws_bolek), 0
    while not (ws_bolek.view is not None and ws_bolek.view["deal_no"] > deal_no):  # both play on, to the next deal
        assert plays < 200
        for ws in sockets:
            v = ws.view
            if v is not None and v["your_turn"]:
                reply = ws.request({"type": "act", "action": v["legal"][0] if v["legal"] else "keep", "seq": ws.seq})
                assert reply["type"] == "ack" or reply.get("code") == "stale_seq", reply
                plays += 1
            else:
                with contextlib.suppress(TimeoutError):
                    ws.recv(timeout=0.2)
    assert any(m.get("type") == "ack" for m in ws_bolek.log)  # Bolek played cards of his own
    # the last bot's seat may still be taken over; then the table is full
    assert join(server, table, name="Celina", seat=2).json()["seat"] == 2
    assert [s["since_deal"] for s in info(server, table)["seats"]] == [0, 1, deal_no + 1]
    full = join(server, table, name="Darek")
    assert full.status_code == 409 and full.json()["error"] == "table_full"
    for ws in (ws_ala, ws_bolek):
        ws.close()


def test_a_seat_whose_player_is_away_or_gone_and_a_rated_match_are_not_taken_over(server: ThreadServer) -> None:
    # a seat whose human is away keeps its token: his stand-in plays it until he is back, and it is his
    table = create(server, [{"kind": "human"}] * 3)
    tokens = [join(server, table, name=n).json()["token"] for n in ("Ala", "Bolek", "Cezary")]
    assert info(server, table)["status"] == "playing"
    assert not any(s["takeover"] for s in info(server, table)["seats"])
    away = join(server, table, name="Mallory", seat=1)
    assert away.status_code == 409 and away.json()["error"] == "seat_taken"
    assert join(server, table, name="Mallory").json()["error"] == "table_full"
    # once he gives it up, it may be taken over
    assert httpx.post(f"{server.url}/api/tables/{table}/leave", json={"token": tokens[1]}).status_code == 200
    assert [s["takeover"] for s in info(server, table)["seats"]] == [False, True, False]

    # a bot's seat before the match begins is the bot's: the table was made so
    waiting = create(server, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}])
    refused = join(server, waiting, name="Ewa", seat=2)
    assert refused.status_code == 409 and refused.json()["error"] == "seat_taken"
    assert not info(server, waiting)["seats"][2]["takeover"]

    # a rated match: the seats keep the results of those who sat there
    keys = [httpx.post(server.url + "/api/players", json={"name": n}).json()["key"] for n in ("Gosia", "Hubert")]
    rated = create(server, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}], rated=True)
    rated_tokens = [join(server, rated, player_key=k).json()["token"] for k in keys]
    assert info(server, rated)["status"] == "playing"
    assert httpx.post(f"{server.url}/api/tables/{rated}/leave", json={"token": rated_tokens[0]}).status_code == 200
    assert not any(s["takeover"] for s in info(server, rated)["seats"])
    key = httpx.post(server.url + "/api/players", json={"name": "Iga"}).json()["key"]
    for seat in (0, 2):
        answer = join(server, rated, player_key=key, seat=seat)
        assert answer.status_code == 409 and answer.json()["error"] == "seat_taken", answer.text
        assert "rated" in answer.json()["message"]
    assert join(server, rated, player_key=key).json()["error"] == "table_full"
    assert info(server, rated)["seats"][0]["name"] == "Gosia"


def test_a_seat_given_up_during_the_match_is_taken_over_under_the_newcomers_name(server: ThreadServer,
                                                                                ws_factory: Any) -> None:
    """A human who leaves gives the seat to a bot.  ``join`` once seated anyone on it *under the leaver's name*
    (once); now a newcomer may take such a seat over at an unrated table (docs/server.md), and he
    sits there under his own name: nobody passes for the player who left."""
    table = post_table(server, seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "human"}])
    tokens = [join(server, table, name=name, seat=None).json()["token"] for name in ("Ala", "Bolek", "Cezary")]
    left = httpx.post(server.url + f"/api/tables/{table}/leave", json={"token": tokens[0]})
    assert left.status_code == 200 and left.json()["status"] == "playing"
    seat = left.json()["seats"][0]
    assert not seat["open"] and seat["takeover"] and seat["standin"]
    response = join(server, table, name="Dorota", seat=None)
    assert response.status_code == 200, response.text
    assert response.json()["seat"] == 0
    info = httpx.get(server.url + f"/api/tables/{table}").json()
    assert info["seats"][0]["name"] == "Dorota" and not info["seats"][0]["standin"]
    assert not info["seats"][0]["takeover"]
    # nobody else takes it now: it is Dorota's, and no other seat is free
    for seat_asked in (None, 0):
        refused = join(server, table, name="Mallory", seat=seat_asked)
        assert refused.status_code == 409, refused.text
        assert refused.json()["error"] in ("table_full", "seat_taken")
    # before the start a seat given up opens again, and may be taken
    waiting = post_table(server)
    token = join(server, waiting, name="Ala", seat=None).json()["token"]
    assert httpx.post(server.url + f"/api/tables/{waiting}/leave", json={"token": token}).status_code == 200
    assert join(server, waiting, name="Bolek", seat=0).status_code == 200


def test_a_newcomer_sees_only_his_seat_and_the_bot_stands_in_while_he_is_away(make_server: Any) -> None:
    server = make_server(grace=0.2)
    table = create(server, [{"kind": "human"}] * 3)
    ala = join(server, table, name="Ala").json()
    ws_ala = bots_fill(server, table, ala["token"], "rules")
    taken = join(server, table, name="Bolek", seat=2).json()
    seats = info(server, table)["seats"]
    assert seats[2]["kind"] == "human" and seats[2]["name"] == "Bolek"
    # he never connects: after the grace period the computer player he took over from plays for him again
    # (when his turn comes: Ala plays on meanwhile)
    play_until(ws_ala, lambda view: view["players"][2]["standin"])
    seat = info(server, table)["seats"][2]
    assert seat["standin"] and seat["bot"] == "rules" and not seat["takeover"]  # it is still his seat
    ws_bolek = WS(server.ws_url)
    view = ws_bolek.hello(table, taken["token"])["view"]
    assert view["seat"] == 2
    # his seat's cards and no other's: Ala's view holds her hand, his holds his, and they share nothing
    assert ws_ala.view is not None and view["hand"] and ws_ala.view["hand"]
    assert not set(view["hand"]) & set(ws_ala.view["hand"])
    assert all("hand" not in other for other in view["players"])
    ws_ala.close()
    ws_bolek.close()


def test_a_profile_that_gave_its_seat_up_may_come_back_but_not_hold_two(server: ThreadServer) -> None:
    key = httpx.post(server.url + "/api/players", json={"name": "Jola"}).json()["key"]
    table = create(server, [{"kind": "human"}] * 3)
    jola = join(server, table, player_key=key).json()
    bots_fill(server, table, jola["token"]).close()
    twice = join(server, table, player_key=key, seat=1)
    assert twice.status_code == 409 and twice.json()["error"] == "already_seated"
    assert httpx.post(f"{server.url}/api/tables/{table}/leave", json={"token": jola["token"]}).status_code == 200
    back = join(server, table, player_key=key, seat=0)
    assert back.status_code == 200, back.text
    assert info(server, table)["seats"][0]["registered"]


def test_the_record_names_who_sat_in_and_from_which_deal() -> None:
    """A record has one name per seat, the one the match began with; ``SatIn<seat>`` says who took the seat over,
    from which deal (both newcomers of a seat taken over twice), and the views' ``since_deal`` the latest."""
    from mizerka.server.app import table_record
    from mizerka.server.tables import SeatState, Table, TableSettings

    table = Table.new("t", TableSettings(), [SeatState.human(), SeatState.bot("rules"), SeatState.bot("random")],
                      seed=4)
    table.join("Ala", token_hash="a")
    table.join("Bolek", token_hash="b", seat=2)
    assert table.match is not None
    while table.match.deal_no < 3:
        table.act(table.match.to_move, table.match.deal.forced_action() or next(iter(table.match.legal_actions)))
    table.leave(2)  # Bolek gives the seat up: a bot plays it, and it may be taken over again
    table.join("Celina", token_hash="c", seat=2)
    table.join("Darek", token_hash="d", seat=1)
    assert table.takeovers() == [(2, 1, "Bolek"), (2, 3, "Celina"), (1, 3, "Darek")]
    record = table_record(table)
    assert record.players == ("Ala", "Bot 2", "Bot 3")
    assert record.tags["SatIn2"] == "deal 1: Bolek; deal 3: Celina" and record.tags["SatIn1"] == "deal 3: Darek"
    assert '[SatIn2 "deal 1: Bolek; deal 3: Celina"]' in record.to_text()
    assert [seat.since_deal for seat in table.seats] == [0, 3, 3]


def test_the_score_sheet_names_who_played_each_seat_in_each_deal() -> None:
    """The views name who plays each seat *now*; a row of the score sheet names who played it in that deal, where
    someone sat in for a seat's player during the match (``players``), so that a newcomer is not shown as the chooser
    of a deal he never played.  A match nobody sat in keeps its rows as they were."""
    from mizerka.server.tables import SeatState, Table, TableSettings
    from mizerka.server.views import build_view

    def finish_deal(table: Table) -> None:
        assert table.match is not None
        deal_no = table.match.deal_no
        while table.match.deal_no == deal_no:
            table.act(table.match.to_move, table.match.deal.forced_action() or next(iter(table.match.legal_actions)))

    plain = Table.new("p", TableSettings(), [SeatState.human(), SeatState.bot("rules"), SeatState.bot("random")],
                      seed=4)
    plain.join("Ala", token_hash="a")
    finish_deal(plain)
    assert "players" not in build_view(plain, 0)["score_sheet"][0]

    table = Table.new("t", TableSettings(), [SeatState.human(), SeatState.bot("rules"), SeatState.bot("random")],
                      seed=4)
    table.join("Ala", token_hash="a")
    finish_deal(table)
    table.join("Bolek", token_hash="b", seat=2)  # in deal 2
    finish_deal(table)
    finish_deal(table)
    table.leave(2)
    table.join("Celina", token_hash="c", seat=2)  # in deal 4
    finish_deal(table)
    view = build_view(table, None)
    assert [p["name"] for p in view["players"]] == ["Ala", "Bot 2", "Celina"]
    assert [row["players"] for row in view["score_sheet"]] == [
        ["Ala", "Bot 2", "Bot 3"], ["Ala", "Bot 2", "Bolek"], ["Ala", "Bot 2", "Bolek"], ["Ala", "Bot 2", "Celina"]]
    assert build_view(table, 0)["score_sheet"] == view["score_sheet"]  # public: the same for every recipient


def test_a_profile_never_holds_two_hands_of_one_deal(server: ThreadServer) -> None:
    """A profile that gave its seat up during a deal used to be seated at once at another seat of the same deal (a
    bot's seat it took over): it then knew two hands of that deal, against a human at the table.  It may take its
    own seat back (a join without a seat does so first), and another seat from the next deal only."""
    key = httpx.post(server.url + "/api/players", json={"name": "Jola"}).json()["key"]
    table = create(server, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}])
    jola = join(server, table, player_key=key).json()
    assert join(server, table, name="Bolek").status_code == 200  # the match begins: deal 1
    assert httpx.post(f"{server.url}/api/tables/{table}/leave", json={"token": jola["token"]}).status_code == 200
    before = info(server, table)["seats"]
    hop = join(server, table, player_key=key, seat=2)
    assert hop.status_code == 409 and hop.json()["error"] == "held_another_seat", hop.text
    assert "seat 0 in this deal" in hop.json()["message"]
    assert info(server, table)["seats"] == before  # nothing changed
    back = join(server, table, player_key=key)  # no seat named: its own seat first, though seat 2 is free too
    assert back.status_code == 200 and back.json()["seat"] == 0, back.text


def test_a_profile_may_take_another_seat_from_the_next_deal() -> None:
    """The rule is about one deal's cards: a profile that gave its seat up in deal 1 may sit in for a bot in deal 2;
    a newcomer who took its old seat over meanwhile does not make it forget what it saw in deal 1."""
    from mizerka.server.tables import SeatState, Table, TableError, TableSettings

    table = Table.new("t", TableSettings(), [SeatState.human(), SeatState.bot("rules"), SeatState.bot("random")],
                      seed=4)
    table.join("Jola", token_hash="a", player="jola")
    table.leave(0)
    table.join("Edyta", token_hash="e", seat=0)  # someone takes Jola's old seat over, in deal 1
    assert table.profile_seats_this_deal("jola") == {0}
    with pytest.raises(TableError, match="played seat 0 in this deal"):
        table.join("Jola", token_hash="b", seat=1, player="jola")
    assert table.seats[1].kind == "bot" and table.seats[1].player is None
    assert table.match is not None
    while table.match.deal_no == 1:
        table.act(table.match.to_move, table.match.deal.forced_action() or next(iter(table.match.legal_actions)))
    assert table.profile_seats_this_deal("jola") == set()
    seat, _ = table.join("Jola", token_hash="b", seat=1, player="jola")
    assert seat == 1 and table.seats[1].player == "jola"
