"""Ways around a rated result and a deleted profile, each closed (found by an audit of the profiles).

Every test runs a real server on 127.0.0.1 over SQLite, or PostgreSQL when MIZERKA_TEST_DATABASE_URL is set.  The
races are made deterministic by slowing the store's key lookup for one call: the window is real, only its width is
widened.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import httpx
from server_helpers import SHORT, WS, ThreadServer, claim, play_until, profile, rated_quickplay

BOTS = [{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]


def slow_key_lookup(server: ThreadServer, slow_call: int) -> Callable[[], None]:
    """Make the store's key lookup number *slow_call* (1-based) of the coming ones take half a second longer;
    return what puts the lookup back."""
    store = server.hub.store
    original = store.player_by_key
    calls: list[str] = []

    def slowed(key_hash: str) -> Any:
        calls.append(key_hash)
        found = original(key_hash)
        if len(calls) == slow_call:
            time.sleep(0.5)  # the profile was read; the answer comes back late
        return found

    store.player_by_key = slowed  # type: ignore[method-assign]
    return lambda: setattr(store, "player_by_key", original)


def in_thread(call: Callable[[], httpx.Response]) -> Callable[[], httpx.Response]:
    """Start *call* in a thread; the returned function waits for its response."""
    out: list[httpx.Response] = []
    thread = threading.Thread(target=lambda: out.append(call()))
    thread.start()

    def result() -> httpx.Response:
        thread.join()
        return out[0]

    return result


def delete_profile(server: ThreadServer, key: str) -> httpx.Response:
    return httpx.delete(server.url + "/api/profile", headers={"Authorization": f"Bearer {key}"})


def wait_for(check: Callable[[], bool], seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "not reached in time"
        time.sleep(0.2)


def test_a_join_that_read_the_key_before_a_delete_is_refused(server: ThreadServer) -> None:
    """The join looked the key up, then the profile was deleted: the join used to seat the deleted profile
    (marked registered), put it back in the hub's standings (its page answered again) and have its match rated."""
    _, key = claim(server, "Ala")
    table = httpx.post(server.url + "/api/tables", json={
        "variant": SHORT, "rated": True, "seats": [{"kind": "human"}, *BOTS]}).json()["id"]
    restore = slow_key_lookup(server, 1)
    try:
        join = in_thread(lambda: httpx.post(f"{server.url}/api/tables/{table}/join", json={"player_key": key},
                                            timeout=30))
        time.sleep(0.15)
        assert delete_profile(server, key).status_code == 204
        reply = join()
    finally:
        restore()
    assert reply.status_code == 403 and reply.json()["error"] == "bad_key", reply.text
    assert httpx.get(server.url + "/api/players/ala").status_code == 404
    assert "ala" not in server.hub.standings
    assert all(seat.player is None for seat in server.hub.tables[table].table.seats)


def test_a_refused_rated_quick_play_leaves_no_table(server: ThreadServer) -> None:
    """Quick play checks the key, makes the table, then seats the key's profile; a delete between the two left a
    rated table that nobody could join, holding a slot until the sweep."""
    _, key = claim(server, "Ala")
    before = set(server.hub.tables)
    restore = slow_key_lookup(server, 2)  # the seat's lookup, after the table was made
    try:
        quick = in_thread(lambda: httpx.post(server.url + "/api/quickplay", json={
            "player_key": key, "rated": True, "variant": SHORT, "level": "random"}, timeout=30))
        time.sleep(0.15)
        assert delete_profile(server, key).status_code == 204
        reply = quick()
    finally:
        restore()
    assert reply.status_code == 403 and reply.json()["error"] == "bad_key", reply.text
    assert set(server.hub.tables) == before


def play_a_deal_and_close(server: ThreadServer) -> tuple[str, str, str]:
    """Ala claims her name, starts a rated quick play, plays its first deal and closes the connection; her key, the
    table and her seat's token."""
    _, key = claim(server, "Ala")
    joined = rated_quickplay(server, key)
    table, token = joined["table"]["id"], joined["token"]
    ws = WS(server.ws_url)
    ws.hello(table, token)
    play_until(ws, lambda v: v["deal_no"] >= 2)
    ws.close()
    return key, table, token


def test_leaving_a_rated_match_and_going_away_does_not_escape_the_rating(make_server: Any) -> None:
    """The only human leaves and closes the page: the table used to pause (nobody connected), and the sweep then
    closed it as abandoned, unrated.  A rated match plays on unwatched and is rated."""
    server = make_server(abandon_after=2.0, cleanup_interval=0.5)
    key, table, token = play_a_deal_and_close(server)
    assert httpx.post(f"{server.url}/api/tables/{table}/leave", json={"token": token}).status_code == 200
    wait_for(lambda: httpx.get(f"{server.url}/api/tables/{table}").json()["status"] != "playing")
    assert httpx.get(f"{server.url}/api/tables/{table}").json()["status"] == "finished"
    assert profile(server, key).json()["games"] == 1


def test_closing_the_page_of_a_rated_match_does_not_escape_the_rating(make_server: Any) -> None:
    """Without leaving: the connection is gone, a stand-in takes the seat after the grace period, and the match is
    played out and rated, also across a restart of the server with nobody connected."""
    first = make_server(grace=0.3)
    key, table, _ = play_a_deal_and_close(first)
    first.stop()  # a restart, with nobody at the table
    second = make_server(grace=0.3)
    wait_for(lambda: httpx.get(f"{second.url}/api/tables/{table}").json()["status"] == "finished")
    assert profile(second, key).json()["games"] == 1


def test_bots_alone_are_not_rated(server: ThreadServer) -> None:
    """A rated table of bots only, played out by watching it, moved the bot levels' ratings (the leaderboard's
    fixed points) at anyone's will."""
    reply = httpx.post(server.url + "/api/tables", json={
        "variant": SHORT, "rated": True, "seats": [{"kind": "bot", "level": "rules"}, *BOTS]})
    assert reply.status_code == 400 and reply.json()["error"] == "bad_seats", reply.text
    assert "human seat" in reply.json()["message"]


def test_a_deleted_profiles_seat_loses_its_mark(server: ThreadServer) -> None:
    """A profile that gave up its seat is deleted: the seat is nobody's, and the views said so only after the next
    seat change (the players list is cached by the seats' version)."""
    _, ala = claim(server, "Ala")
    _, ola = claim(server, "Ola")
    table = httpx.post(server.url + "/api/tables", json={
        "variant": SHORT, "rated": True, "seats": [{"kind": "human"}, {"kind": "human"}, BOTS[0]]}).json()["id"]
    seated = httpx.post(f"{server.url}/api/tables/{table}/join", json={"player_key": ala}).json()
    other = httpx.post(f"{server.url}/api/tables/{table}/join", json={"player_key": ola}).json()
    ws = WS(server.ws_url)
    ws.hello(table, other["token"])
    assert httpx.get(f"{server.url}/api/tables/{table}").json()["seats"][0]["registered"]
    httpx.post(f"{server.url}/api/tables/{table}/leave", json={"token": seated["token"]})
    assert delete_profile(server, ala).status_code == 204
    assert not httpx.get(f"{server.url}/api/tables/{table}").json()["seats"][0]["registered"]
    snapshot = ws.request({"type": "sync", "last_seq": ws.seq})
    assert snapshot["type"] == "snapshot" and not snapshot["view"]["players"][0]["registered"]
    ws.close()


def test_a_bare_join_at_a_rated_table_needs_a_profile(server: ThreadServer) -> None:
    """Neither name nor key at a rated table: the reason is the missing profile (403 ``profile_needed``), as with a
    name alone, not the missing name."""
    table = httpx.post(server.url + "/api/tables", json={
        "variant": SHORT, "rated": True, "seats": [{"kind": "human"}, *BOTS]}).json()["id"]
    for body in ({}, {"name": "Ala"}):
        reply = httpx.post(f"{server.url}/api/tables/{table}/join", json=body)
        assert reply.status_code == 403 and reply.json()["error"] == "profile_needed", (body, reply.text)
