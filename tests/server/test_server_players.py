"""Player profiles, rated tables and the leaderboard (mizerka.server.players; docs/server.md).

Every test runs a real server on 127.0.0.1 over SQLite, or PostgreSQL when MIZERKA_TEST_DATABASE_URL is set.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from server_helpers import SHORT, WS, ThreadServer, claim, play, play_until, profile, rated_quickplay

from mizerka.server.players import DEFAULT_MU, DEFAULT_SIGMA, Standing, display_rating, name_key, rate_match


def over(view: dict[str, Any]) -> bool:
    return view["status"] == "finished"


# -- profiles --------------------------------------------------------------------------------------


def test_a_claimed_name_gives_a_key_once_and_the_key_finds_the_profile(server: ThreadServer) -> None:
    player, key = claim(server, "  Ala  ")
    assert player["name"] == "Ala" and player["id"] == "ala" and player["kind"] == "human"
    assert player["rating"] == 1500 and player["provisional"] and player["games"] == 0 and player["recent"] == []
    assert len(key) >= 40
    found = profile(server, key)
    assert found.status_code == 200 and found.json()["name"] == "Ala"
    assert httpx.get(server.url + "/api/players/ALA").json()["id"] == "ala"  # by name, ignoring case
    stored = server.call(_stored_key_hashes(server))
    assert key not in stored and all(len(h) == 64 for h in stored)  # only the key's SHA-256 is kept


async def _stored_key_hashes(server: ThreadServer) -> list[str]:
    import sqlalchemy as sa

    from mizerka.server.db import players_t

    with server.hub._store().engine.connect() as connection:
        return [row[0] for row in connection.execute(sa.select(players_t.c.key_hash).where(
            players_t.c.key_hash.is_not(None)))]


@pytest.mark.parametrize("taken", ["ala", "ALA", "Ａｌａ", " ala "])
def test_a_name_is_taken_ignoring_case_and_compatibility_forms(server: ThreadServer, taken: str) -> None:
    claim(server, "Ala")
    reply = httpx.post(server.url + "/api/players", json={"name": taken})
    assert reply.status_code == 409 and reply.json()["error"] == "name_taken", reply.text
    assert "taken" in reply.json()["message"]


@pytest.mark.parametrize(("name", "status", "code", "said"), [
    ("Bot:Expert", 400, "bad_name", "computer levels"),
    ("bot:someday", 400, "bad_name", "computer levels"),  # a future level's entry too
    ("Ala\u3164", 400, "bad_name", "U+3164"), ("\u2800", 400, "bad_name", "U+2800"),
    ("\ufdfa" * 7, 400, "bad_name", "grows to 126 characters"),
    ("A\u200bla", 422, "bad_request", "printable"), ("Ala\u202e", 422, "bad_request", "printable"),
])
def test_a_name_that_would_not_show_what_it_is_is_refused(
    server: ThreadServer, name: str, status: int, code: str, said: str,
) -> None:
    reply = httpx.post(server.url + "/api/players", json={"name": name})
    assert reply.status_code == status and reply.json()["error"] == code and said in reply.json()["message"]
    assert httpx.get(server.url + "/api/players/bot:expert").json()["kind"] == "bot"


def test_a_long_name_within_the_compared_form_limit_is_a_profile_whose_page_opens(server: ThreadServer) -> None:
    player, _ = claim(server, "\ufdfa" * 6)  # 108 characters once spelled out
    assert len(player["id"]) == 108
    assert httpx.get(server.url + f"/api/players/{player['id']}").json()["name"] == "\ufdfa" * 6


@pytest.mark.parametrize("path", ["a%00b", "%00", "a%0Ab", "x" * 256])
def test_an_impossible_player_id_is_unknown_or_refused_never_a_crash(server: ThreadServer, path: str) -> None:
    reply = httpx.get(server.url + f"/api/players/{path}")
    assert reply.status_code in (404, 422) and reply.json()["error"] in ("unknown_player", "bad_request"), reply.text


@pytest.mark.parametrize(("body", "where"), [
    ({"name": ""}, "name"), ({"name": "   "}, "name"), ({"name": "x" * 41}, "name"), ({"name": "a\nb"}, "name"),
    ({"name": 7}, "name"), ({}, "name"), ({"name": "Ala", "key": "x"}, "key"),
])
def test_a_bad_claim_is_refused_with_the_field_named(server: ThreadServer, body: dict[str, Any], where: str) -> None:
    reply = httpx.post(server.url + "/api/players", json=body)
    assert reply.status_code == 422 and reply.json()["error"] == "bad_request" and where in reply.json()["message"]
    assert httpx.get(server.url + "/api/leaderboard").headers["X-Total-Count"] == "0"


@pytest.mark.parametrize("header", [None, "", "Bearer", "Basic abc", "Bearer nosuchkey", "Bearer " + "k" * 129])
def test_a_profile_request_without_a_known_key_is_refused(server: ThreadServer, header: str | None) -> None:
    claim(server, "Ala")
    headers = {} if header is None else {"Authorization": header}
    reply = httpx.get(server.url + "/api/profile", headers=headers)
    assert reply.status_code == 403 and reply.json()["error"] == "bad_key", reply.text


def test_an_unknown_player_is_a_404_naming_it(server: ThreadServer) -> None:
    reply = httpx.get(server.url + "/api/players/nobody")
    assert reply.status_code == 404 and reply.json()["error"] == "unknown_player"
    assert "nobody" in reply.json()["message"]


# -- seats -----------------------------------------------------------------------------------------


def test_a_seat_taken_with_a_key_is_the_profiles_and_everyone_sees_it_registered(server: ThreadServer) -> None:
    _, key = claim(server, "Ala")
    table = httpx.post(server.url + "/api/tables", json={"variant": SHORT}).json()["id"]
    joined = httpx.post(server.url + f"/api/tables/{table}/join", json={"player_key": key})
    assert joined.status_code == 200, joined.text
    seat = joined.json()["seat"]
    info = joined.json()["table"]["seats"][seat]
    assert info["name"] == "Ala" and info["registered"]
    anonymous = httpx.post(server.url + f"/api/tables/{table}/join", json={"name": "ala"}).json()
    assert not anonymous["table"]["seats"][anonymous["seat"]]["registered"]
    ws = WS(server.ws_url)
    try:
        welcome = ws.hello(table)  # a spectator
        assert [p["registered"] for p in welcome["view"]["players"]][:2] == [True, False]
        assert welcome["view"]["options"]["rated"] is False
    finally:
        ws.close()


def test_a_name_sent_with_a_key_must_be_the_profiles(server: ThreadServer) -> None:
    _, key = claim(server, "Ala")
    table = httpx.post(server.url + "/api/tables", json={"variant": SHORT}).json()["id"]
    wrong = httpx.post(server.url + f"/api/tables/{table}/join", json={"player_key": key, "name": "Ola"})
    assert wrong.status_code == 400 and wrong.json()["error"] == "bad_name" and "Ala" in wrong.json()["message"]
    right = httpx.post(server.url + f"/api/tables/{table}/join", json={"player_key": key, "name": "ALA"})
    assert right.status_code == 200 and right.json()["table"]["seats"][0]["name"] == "Ala"


def test_a_bad_key_or_no_name_takes_no_seat(server: ThreadServer) -> None:
    table = httpx.post(server.url + "/api/tables", json={"variant": SHORT}).json()["id"]
    bad = httpx.post(server.url + f"/api/tables/{table}/join", json={"player_key": "not-a-key"})
    assert bad.status_code == 403 and bad.json()["error"] == "bad_key"
    nameless = httpx.post(server.url + f"/api/tables/{table}/join", json={})
    assert nameless.status_code == 400 and nameless.json()["error"] == "bad_name"
    seats = httpx.get(server.url + f"/api/tables/{table}").json()["seats"]
    assert all(s["open"] for s in seats)
    quick = httpx.post(server.url + "/api/quickplay", json={"player_key": "not-a-key", "variant": SHORT})
    assert quick.status_code == 403 and quick.json()["error"] == "bad_key"
    assert len(server.hub.tables) == 1  # the refused quick play made no table


def test_a_rated_table_seats_only_profiles_once_each(server: ThreadServer) -> None:
    _, ala = claim(server, "Ala")
    _, ola = claim(server, "Ola")
    created = httpx.post(server.url + "/api/tables", json={
        "variant": SHORT, "rated": True, "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot",
                                                                                          "level": "random"}]})
    assert created.status_code == 201 and created.json()["options"]["rated"] and not created.json()["options"]["hints"]
    table = created.json()["id"]
    anonymous = httpx.post(server.url + f"/api/tables/{table}/join", json={"name": "Ela"})
    assert anonymous.status_code == 403 and anonymous.json()["error"] == "profile_needed"
    assert httpx.post(server.url + f"/api/tables/{table}/join", json={"player_key": ala}).status_code == 200
    twice = httpx.post(server.url + f"/api/tables/{table}/join", json={"player_key": ala})
    assert twice.status_code == 409 and twice.json()["error"] == "already_seated"
    second = httpx.post(server.url + f"/api/tables/{table}/join", json={"player_key": ola})
    assert second.status_code == 200 and second.json()["table"]["status"] == "playing"


def test_a_rated_table_with_hints_is_refused(server: ThreadServer) -> None:
    reply = httpx.post(server.url + "/api/tables", json={"variant": SHORT, "rated": True, "hints": True})
    assert reply.status_code == 400 and reply.json()["error"] == "bad_options" and "hints" in reply.json()["message"]
    assert not server.hub.tables


def test_rated_quick_play_needs_a_profile(server: ThreadServer) -> None:
    reply = httpx.post(server.url + "/api/quickplay", json={"name": "Ala", "rated": True, "variant": SHORT})
    assert reply.status_code == 403 and reply.json()["error"] == "profile_needed"
    assert not server.hub.tables


def test_a_rated_game_gives_no_hints_and_no_undo(server: ThreadServer) -> None:
    _, key = claim(server, "Ala")
    joined = rated_quickplay(server, key)
    assert joined["table"]["options"]["rated"] and not joined["table"]["options"]["hints"]
    ws = WS(server.ws_url)
    try:
        ws.hello(joined["table"]["id"], joined["token"])
        play_until(ws, lambda v: v["phase"] == "play" and v["your_turn"])
        hint = ws.request({"type": "hint", "id": 1})
        assert hint["type"] == "error" and hint["code"] == "hints_off"
        ws.request({"type": "act", "action": ws.view["legal"][0], "seq": ws.seq})  # type: ignore[index]
        undo = ws.request({"type": "undo", "id": 2})
        assert undo["type"] == "error" and undo["code"] == "undo_not_allowed" and "rated" in undo["message"]
        assert ws.view is not None and ws.view["can_undo"] is False
    finally:
        ws.close()


# -- ratings ---------------------------------------------------------------------------------------


def test_a_finished_rated_match_moves_the_ratings_and_statistics(server: ThreadServer) -> None:
    _, key = claim(server, "Ala")
    joined = rated_quickplay(server, key)
    table = joined["table"]["id"]
    ws = WS(server.ws_url)
    try:
        ws.hello(table, joined["token"])
        play_until(ws, over)
        assert ws.view is not None
        totals = ws.view["totals"]
    finally:
        ws.close()
    me = profile(server, key).json()
    best = max(totals)
    assert me["games"] == 1 and me["wins"] == (totals[0] == best) and me["deals"] == 6
    assert (me["mu"], me["sigma"]) != (DEFAULT_MU, DEFAULT_SIGMA) and me["rating"] == display_rating(me["mu"])
    assert me["sigma"] < DEFAULT_SIGMA
    [result] = me["recent"]
    # a quick-play table is private: its id is its invite, which only its own player has (GET /api/profile, with
    # the key); the public page gives neither the id nor the name
    assert result["private"] and result["table"] == table and "Ala" in result["name"]
    [public] = httpx.get(server.url + f"/api/players/{me['id']}").json()["recent"]
    assert public["private"] and public["table"] is None and public["name"] == ""
    assert {k: v for k, v in public.items() if k not in ("table", "name")} == {
        k: v for k, v in result.items() if k not in ("table", "name")}
    assert result["seat"] == 0 and result["totals"] == totals
    assert result["rank"] == 1 + sum(t > totals[0] for t in totals)
    assert result["rating_before"] == 1500 and result["rating_after"] == me["rating"]
    if totals.count(totals[0]) == 1:  # a rank of its own: first goes up, last goes down
        assert result["rank"] != 1 or me["mu"] > DEFAULT_MU
        assert result["rank"] != 3 or me["mu"] < DEFAULT_MU
    bot = httpx.get(server.url + "/api/players/bot:random").json()
    assert bot["games"] == 2 and bot["deals"] == 12 and len(bot["recent"]) == 2  # its two seats
    board = httpx.get(server.url + "/api/leaderboard")
    assert board.headers["X-Total-Count"] == "2"
    rows = board.json()
    assert {r["id"] for r in rows} == {"ala", "bot:random"} and [r["rank"] for r in rows] == [1, 2]
    assert rows[0]["rating"] >= rows[1]["rating"]
    again = httpx.get(server.url + "/api/leaderboard?limit=1&offset=1").json()
    assert [r["id"] for r in again] == [rows[1]["id"]] and again[0]["rank"] == 2


def test_a_public_rated_match_is_listed_with_its_table_and_a_private_ones_id_only_to_its_player(
    server: ThreadServer,
) -> None:
    """A private table's id is its invite: no public page gives it; its own player's profile (asked with the key)
    does, with its name, so that the player can open the match."""
    _, key = claim(server, "Ala")
    seats = [{"kind": "human"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]
    public = httpx.post(server.url + "/api/tables", json={"variant": SHORT, "rated": True, "seats": seats,
                                                          "name": "Friday league"}).json()["id"]
    joined = httpx.post(server.url + f"/api/tables/{public}/join", json={"player_key": key}).json()
    play(server, public, joined["token"], over)
    private = rated_quickplay(server, key)
    play(server, private["table"]["id"], private["token"], over)
    recent = profile(server, key).json()["recent"]
    assert [r["table"] for r in recent] == [private["table"]["id"], public]
    assert [r["name"] for r in recent] == [private["table"]["name"], "Friday league"] and private["table"]["name"]
    assert [r["private"] for r in recent] == [True, False]
    shown = httpx.get(server.url + "/api/players/ala").json()["recent"]
    assert [r["table"] for r in shown] == [None, public] and [r["name"] for r in shown] == ["", "Friday league"]
    page = httpx.get(server.url + "/api/players/bot:random").text + httpx.get(server.url + "/api/players/ala").text
    assert private["table"]["id"] not in page


def test_the_leaderboard_lists_established_players_before_provisional_ones(server: ThreadServer) -> None:
    _, regular = claim(server, "Ala")
    _, newcomer = claim(server, "Ola")
    for key in [regular] * 5 + [newcomer]:
        joined = rated_quickplay(server, key)
        play(server, joined["table"]["id"], joined["token"], over)
    rows = httpx.get(server.url + "/api/leaderboard").json()
    assert [r["id"] for r in rows][-1] == "ola" and rows[-1]["provisional"] and rows[-1]["games"] == 1
    established = rows[:-1]
    assert {r["id"] for r in established} == {"ala", "bot:random"} and not any(r["provisional"] for r in established)
    assert established[0]["rating"] >= established[1]["rating"]
    assert [r["rank"] for r in rows] == [1, 2, 3]


def test_an_unrated_match_moves_no_rating(server: ThreadServer) -> None:
    _, key = claim(server, "Ala")
    joined = httpx.post(server.url + "/api/quickplay",
                        json={"player_key": key, "variant": SHORT, "level": "random"}).json()
    assert joined["table"]["options"]["rated"] is False and joined["table"]["seats"][0]["registered"]
    play(server, joined["table"]["id"], joined["token"], over)
    me = profile(server, key).json()
    assert me["games"] == 0 and me["rating"] == 1500 and me["recent"] == []
    assert httpx.get(server.url + "/api/leaderboard").json() == []


def test_ratings_survive_a_restart_and_a_resumed_rated_match_is_rated(make_server: Any) -> None:
    server = make_server()
    _, key = claim(server, "Ala")
    joined = rated_quickplay(server, key)
    table = joined["table"]["id"]
    play(server, table, joined["token"], lambda v: v["deal_no"] >= 3)
    server.stop()
    server = make_server()  # the same database: the table is resumed, the hub's copy of the standings is empty
    assert server.hub.standings == {}
    play(server, table, joined["token"], over)
    me = profile(server, key).json()
    assert me["games"] == 1 and len(me["recent"]) == 1
    server.stop()
    server = make_server()
    assert profile(server, key).json()["rating"] == me["rating"]
    assert [r["id"] for r in httpx.get(server.url + "/api/leaderboard").json()] != []


@contextlib.contextmanager
def finished_rated_game(server: ThreadServer, name: str) -> Iterator[tuple[str, dict[str, Any], WS]]:
    """A new profile's rated quick play, played to its end: its key, the quick play's answer, and the seat's
    connection, still open."""
    _, key = claim(server, name)
    joined = rated_quickplay(server, key)
    ws = WS(server.ws_url)
    try:
        ws.hello(joined["table"]["id"], joined["token"])
        play_until(ws, over)
        yield key, joined, ws
    finally:
        ws.close()


def test_a_rematch_of_a_rated_table_is_rated_for_the_same_profiles(server: ThreadServer) -> None:
    with finished_rated_game(server, "Ala") as (_key, _joined, ws):
        ack = ws.request({"type": "rematch", "id": 9})
        assert ack["type"] == "ack" and ack["table"], ack
        new = httpx.get(server.url + f"/api/tables/{ack['table']}").json()
        assert new["options"]["rated"] and new["seats"][0]["registered"] and new["seats"][0]["name"] == "Ala"


# -- the rating rule -------------------------------------------------------------------------------


def test_equal_totals_share_a_rank_and_move_alike() -> None:
    before = {p: Standing(p, p, "human") for p in ("a", "b", "c")}
    results, after = rate_match(["a", "b", "c"], before, [4, 4, -8], [[4, 4, -8]])
    assert [r.rank for r in results] == [1, 1, 3] and [r.won for r in results] == [True, True, False]
    assert after["a"].mu == pytest.approx(after["b"].mu) and after["a"].mu > DEFAULT_MU > after["c"].mu
    assert [after[p].deals_won for p in "abc"] == [1, 1, 0]


def test_a_seat_sitting_a_deal_out_neither_plays_nor_wins_it() -> None:
    before = {p: Standing(p, p, "human") for p in "abcd"}
    deals = [[None, 2, -1, -1], [1, None, 0, -1], [-3, 1, None, 2], [0, 0, 0, None]]
    results, after = rate_match(list("abcd"), before, [-2, 3, -1, 0], deals)
    assert [r.deals for r in results] == [3, 3, 3, 3]
    assert [r.deals_won for r in results] == [1 + 1, 1 + 1, 1, 1 + 0]  # ties at the top count for each
    assert [after[p].games for p in "abcd"] == [1, 1, 1, 1]


def test_one_level_in_two_seats_adds_both_moves() -> None:
    before = {"h": Standing("h", "H", "human"), "bot:rules": Standing("bot:rules", "rules", "bot")}
    results, after = rate_match(["h", "bot:rules", "bot:rules"], before, [-6, 2, 4], [[-6, 2, 4]])
    alone, _ = rate_match(["h", "x", "y"], {**before, "x": Standing("x", "x", "human"),
                                            "y": Standing("y", "y", "human")}, [-6, 2, 4], [[-6, 2, 4]])
    moves = [r.after[0] - r.before[0] for r in alone[1:]]
    assert after["bot:rules"].mu == pytest.approx(DEFAULT_MU + sum(moves))
    assert after["bot:rules"].sigma < min(r.after[1] for r in alone[1:])
    assert after["bot:rules"].games == 2 and after["bot:rules"].wins == 1
    assert results[1].after == results[2].after == (after["bot:rules"].mu, after["bot:rules"].sigma)


def test_names_are_unique_under_case_width_and_spacing() -> None:
    assert name_key("Ala  Kot") == name_key("ALA KOT") == name_key("Ａｌａ Ｋｏｔ") == "ala kot"
    assert display_rating(DEFAULT_MU) == 1500
    assert display_rating(30.0) == 1500 + 40 * 5


def test_the_migrations_build_the_schema_the_store_declares(database_url: str) -> None:
    """The alembic revisions and ``mizerka.server.db.metadata`` describe the same tables, columns and indexes, and
    the revision that added the players gave every bot level its rating entry."""
    import sqlalchemy as sa
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from mizerka.bots import BOT_LEVELS
    from mizerka.server.db import Store, metadata, players_t

    store = Store(database_url)
    try:
        with store.engine.connect() as connection:
            diff = compare_metadata(MigrationContext.configure(connection), metadata)
            levels = connection.execute(sa.select(players_t.c.id).where(players_t.c.kind == "bot")).scalars().all()
    finally:
        store.close()
    assert diff == []
    assert sorted(levels) == sorted(f"bot:{level}" for level in BOT_LEVELS)


def test_rated_matches_ending_together_chain_every_rating(server: ThreadServer) -> None:
    """Three rated matches against the same bot level end in one turn of the server's loop (their last events are
    committed together): each result starts from the rating the one before it left, none from a stale copy, and
    the standing is the last one's."""
    keys = [claim(server, name)[1] for name in ("Ala", "Ola", "Ela")]
    tables = [rated_quickplay(server, key)["table"]["id"] for key in keys]
    server.call(_end_together(server, tables))  # nobody is connected: the bots wait, the test plays every seat
    bot = httpx.get(server.url + "/api/players/bot:random").json()
    assert bot["games"] == 6
    rows = server.call(_results_of(server, "bot:random"))
    by_table: dict[str, set[tuple[float, float, float, float]]] = {}
    for table, *step in rows:
        by_table.setdefault(table, set()).add(tuple(step))  # type: ignore[arg-type]
    assert len(by_table) == 3 and all(len(steps) == 1 for steps in by_table.values())  # a table's two seats agree
    steps = [next(iter(steps)) for steps in by_table.values()]
    current = (DEFAULT_MU, DEFAULT_SIGMA)
    while steps:  # walk the chain from a new entry: each match starts where one other left it
        following = [step for step in steps if step[:2] == pytest.approx(current)]
        assert len(following) == 1, f"{len(following)} matches rated from the standing {current}"
        steps.remove(following[0])
        current = following[0][2:]
    assert (bot["mu"], bot["sigma"]) == pytest.approx(current)


async def _end_together(server: ThreadServer, tables: list[str]) -> None:
    import asyncio
    import copy

    from mizerka.arena import stand_in

    hub = server.hub
    last = []
    for table_id in tables:
        live = hub.tables[table_id]
        table = live.table
        while True:  # every action but the match's last
            assert table.match is not None and table.to_move is not None
            action = stand_in(table.match)
            ahead = copy.deepcopy(table.match)
            ahead.push(action)
            if ahead.is_over():
                break
            async with live.lock:
                await hub._commit(live, table.act(table.to_move, action))
        last.append((live, table.act(table.to_move, action)))
    await asyncio.gather(*(hub._commit(live, events) for live, events in last))


async def _results_of(server: ThreadServer, player: str) -> list[tuple[str, float, float, float, float]]:
    import sqlalchemy as sa

    from mizerka.server.db import results_t

    with server.hub._store().engine.connect() as connection:
        return [tuple(row) for row in connection.execute(sa.select(  # type: ignore[misc]
            results_t.c.table_id, results_t.c.mu_before, results_t.c.sigma_before, results_t.c.mu_after,
            results_t.c.sigma_after).where(results_t.c.player_id == player))]


def test_a_profile_is_deleted_with_its_key_and_its_name_is_free_again(server: ThreadServer) -> None:
    _, key = claim(server, "Ala")
    joined = rated_quickplay(server, key)
    busy = httpx.delete(server.url + "/api/profile", headers={"Authorization": f"Bearer {key}"})
    assert busy.status_code == 409 and busy.json()["error"] == "seated"
    assert joined["table"]["id"] in busy.json()["message"]
    assert busy.json()["table"] == joined["table"]["id"]  # the client's way back to the seat, to leave it
    assert profile(server, key).status_code == 200  # refused: nothing changed
    play(server, joined["table"]["id"], joined["token"], over)
    bot_before = httpx.get(server.url + "/api/players/bot:random").json()
    bad = httpx.delete(server.url + "/api/profile", headers={"Authorization": "Bearer nosuchkey"})
    assert bad.status_code == 403 and bad.json()["error"] == "bad_key"
    gone = httpx.delete(server.url + "/api/profile", headers={"Authorization": f"Bearer {key}"})
    assert gone.status_code == 204 and gone.content == b""
    assert profile(server, key).json()["error"] == "bad_key"
    assert httpx.get(server.url + "/api/players/ala").status_code == 404
    assert [r["id"] for r in httpx.get(server.url + "/api/leaderboard").json()] == ["bot:random"]
    bot = httpx.get(server.url + "/api/players/bot:random").json()
    assert (bot["mu"], bot["games"]) == (bot_before["mu"], bot_before["games"])  # the others keep their ratings
    assert server.hub.tables[joined["table"]["id"]].table.seats[0].player is None
    again = httpx.post(server.url + "/api/players", json={"name": "ALA"})  # a name is never another player's
    assert again.status_code == 409 and again.json()["error"] == "name_taken" and "deleted" in again.json()["message"]


def test_a_deleted_profiles_seat_is_nobodys_after_a_restart(make_server: Any) -> None:
    """The seat of a deleted profile that left a rated match is no profile's after a restart, as it was in memory
    before it (the journal replays the old id; resuming forgets it); the match credits it to nobody."""
    server = make_server()
    keys = [claim(server, name)[1] for name in ("Ala", "Ola", "Ela")]
    table = httpx.post(server.url + "/api/tables", json={"variant": SHORT, "rated": True}).json()["id"]
    seats = [httpx.post(server.url + f"/api/tables/{table}/join", json={"player_key": k}).json() for k in keys]
    assert httpx.post(server.url + f"/api/tables/{table}/leave", json={"token": seats[0]["token"]}).status_code == 200
    assert httpx.delete(server.url + "/api/profile", headers={"Authorization": f"Bearer {keys[0]}"}).status_code == 204
    assert httpx.post(server.url + "/api/players", json={"name": "ALA"}).status_code == 409
    server.stop()
    server = make_server()
    assert server.hub.tables[table].table.seats[0].player is None  # forgotten again, as before the restart
    assert not httpx.get(server.url + f"/api/tables/{table}").json()["seats"][0].get("registered")
    ola = WS(server.ws_url)
    try:
        ola.hello(table, seats[1]["token"])
        ela = WS(server.ws_url)
        try:
            ela.hello(table, seats[2]["token"])
            while ola.view is None or not over(ola.view):  # both humans play their first legal action
                for ws in (ola, ela):
                    view = ws.view
                    if view is not None and view["your_turn"] and not over(view):
                        ws.request({"type": "act", "action": view["legal"][0] if view["legal"] else "keep",
                                    "seq": ws.seq})
                    else:
                        with contextlib.suppress(TimeoutError):
                            ws.recv(timeout=0.2)
        finally:
            ela.close()
    finally:
        ola.close()
    assert profile(server, keys[1]).json()["games"] == 1 and profile(server, keys[2]).json()["games"] == 1
    assert httpx.get(server.url + "/api/players/ala").status_code == 404
    assert len(server.call(_results_of(server, "ala"))) == 0


def test_a_rated_rematch_refuses_a_seat_whose_profile_was_deleted(server: ThreadServer) -> None:
    with finished_rated_game(server, "Ala") as (key, joined, ws):
        assert httpx.delete(server.url + "/api/profile", headers={"Authorization": f"Bearer {key}"}).status_code == 204
        reply = ws.request({"type": "rematch", "id": 3})
        assert reply["type"] == "error" and reply["code"] == "profile_needed" and "deleted" in reply["message"]
        assert server.hub.tables[joined["table"]["id"]].table.rematch_table is None


def test_a_profile_that_left_a_rated_match_may_be_deleted_and_the_others_are_still_rated(
    server: ThreadServer,
) -> None:
    """Leaving gives the seat to a bot; the profile may then go.  The match still rates the others, the gone
    player's seat counting as a new player's, and stores nothing for it."""
    _, ala = claim(server, "Ala")
    _, ola = claim(server, "Ola")
    created = httpx.post(server.url + "/api/tables", json={
        "variant": SHORT, "rated": True,
        "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}]}).json()["id"]
    first = httpx.post(server.url + f"/api/tables/{created}/join", json={"player_key": ala}).json()
    second = httpx.post(server.url + f"/api/tables/{created}/join", json={"player_key": ola}).json()
    assert httpx.post(server.url + f"/api/tables/{created}/leave", json={"token": first["token"]}).status_code == 200
    assert httpx.delete(server.url + "/api/profile", headers={"Authorization": f"Bearer {ala}"}).status_code == 204
    play(server, created, second["token"], over)
    ola_now = profile(server, ola).json()
    assert ola_now["games"] == 1 and ola_now["recent"][0]["players"][0] == "Ala"  # the record keeps the name
    assert httpx.get(server.url + "/api/players/bot:random").json()["games"] == 1
    assert httpx.get(server.url + "/api/players/ala").status_code == 404
    rows = server.call(_results_of(server, "bot:random")) + server.call(_results_of(server, "ola"))
    assert len(rows) == 2  # the gone player's seat has no result row
