"""What an audit of the terminal client of a server found (session 21), against a real server on 127.0.0.1.

1. The score sheet of a four-player table (``sheet``, ``p``: :func:`~mizerka.tui.remote.sheet_text`) writes
   ``-`` for the dealer who sat the deal out, as the local sheet does, not ``0`` (a played deal on quota).
2. After ``fill`` the line game names who sat down ("Bot 2 (random) sits at seat 1."), never "seat 1 sits at
   seat 1."; an event without a name reads "a player sits at seat N".
3. A ``rate_limited`` error naming the request's ``id`` while it waits for its reply answers it: the message is
   sent again after the pause, a bounded number of times, where the client used to wait out its whole timeout and
   fail; a notice about another message never makes it send a request twice.
4. A dropped connection is tried again for :data:`~mizerka.tui.remote.RECONNECT_WINDOW` seconds (about a
   minute), the player told once, where the client gave up after six tries in a few seconds.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the --connect tests need a server: the 'server' extra (pip install -e '.[dev]')")
pytest.importorskip("websockets", reason="--connect needs the 'tui' extra (pip install -e '.[dev]')")

from mizerka.server.hub import ServerConfig
from mizerka.tui import remote
from mizerka.tui.remote import RemoteError, RemoteLineGame, RemoteTable, parse_invite, sheet_text

sys.path.insert(0, str(Path(__file__).parent / "server"))
from server_helpers import ThreadServer, free_port

from test_tui_connect import make_table, start_server
from test_tui_connect_audit_s18 import _Restartable, restart
from test_tui_connect_undo import seated

HUMANS = [{"kind": "human"}] * 3


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Any]:
    box = [start_server(tmp_path)]
    yield _Restartable(box)
    box[0].stop()


# -- 1. the sitting-out dealer on the score sheet ---------------------------------------------------------------


def test_the_sheet_writes_a_dash_for_the_dealer_who_sat_the_deal_out() -> None:
    """Rows as a server sends them at a four-player table (each names its dealer: seat 2, then seat 3)."""
    view = {"score_sheet": [
        {"deal_no": 1, "dealer": 2, "chooser": 3, "contract": "H", "tricks": [3, 4, 0, 6], "scores": [-2, 3, 0, -1],
         "totals": [-2, 3, 0, -1], "dd": None},
        {"deal_no": 2, "dealer": 3, "chooser": 0, "contract": "C", "tricks": [2, 9, 2, 0], "scores": [-5, 4, 1, 0],
         "totals": [-7, 7, 1, -1], "dd": None}]}
    lines = sheet_text(view, ["Ola", "Bot 2", "Bot 3", "Bot 4"]).splitlines()
    first, second = lines[1].split(), lines[2].split()
    assert first[-4:] == ["-2/-2", "+3/+3", "-/0", "-1/-1"], lines  # Bot 3 dealt: no score, his total
    assert second[-4:] == ["-5/-7", "+4/+7", "+1/+1", "-/-1"], lines  # Bot 4 dealt
    # three at the table: the dealer plays, and a 0 is a score
    three = {"score_sheet": [{"deal_no": 1, "dealer": 0, "chooser": 1, "contract": "H", "tricks": [4, 5, 4],
                              "scores": [0, 1, 0], "totals": [0, 1, 0], "dd": None}]}
    assert sheet_text(three, ["Ola", "Ala", "Ela"]).splitlines()[1].split()[-3:] == ["0/0", "+1/+1", "0/0"]


# -- 2. who sits down after fill ----------------------------------------------------------------------------------


def test_the_line_game_names_the_computer_players_fill_seats(server: ThreadServer) -> None:
    table = seated(make_table(server, HUMANS), "Ola")
    lines: list[str] = []
    game = RemoteLineGame(table, read=lambda prompt: "quit", write=lines.append, unicode=False)
    reply = table.request({"type": "fill", "level": "random"})
    assert reply["type"] == "ack", reply
    for event in table.drain():
        game.report_event(event)
    assert "Bot 2 (random) sits at seat 1." in lines and "Bot 3 (random) sits at seat 2." in lines, lines
    assert not [line for line in lines if line.startswith("seat ")], lines
    lines.clear()
    game.report_event({"kind": "seat", "seat": 2, "name": None, "seat_kind": "human", "bot": None, "open": False,
                       "standin": False})  # a server that sends no name
    assert lines == ["a player sits at seat 2."], lines
    assert remote.seated_text({"seat": 1, "name": "Ala", "seat_kind": "human", "bot": None}) == "Ala"
    table.close()


# -- 3. rate_limited answers a request ----------------------------------------------------------------------------


def limited_server(tmp_path: Path, rate: float) -> ThreadServer:
    """A server that takes a burst of 3 messages from a connection and *rate* a second after that."""
    config = ServerConfig(database=f"sqlite:///{tmp_path / 'limited.sqlite3'}", bot_delay=0.0, web_dir=None,
                          rate=rate, burst=3.0)
    return ThreadServer(config).start()


def test_a_rate_limited_request_is_sent_again_after_the_pause(tmp_path: Path) -> None:
    server = limited_server(tmp_path, rate=0.5)
    try:
        table = RemoteTable(parse_invite(make_table(server, HUMANS)), timeout=3)
        table.join("Ola")
        table.connect()  # the hello: one of the three
        assert table.request({"type": "chat", "text": "one"})["type"] == "chat"  # two
        started = time.monotonic()
        reply = table.request({"type": "chat", "text": "two"})  # dropped, rate_limited; sent again a second later
        assert reply["type"] == "chat" and reply["text"] == "two", reply
        assert 0.9 < time.monotonic() - started < 3, "answered after the pause, not after the timeout"
        table.poll(0.3)
        assert [m["text"] for m in table.chat] == ["one", "two"]  # sent once each as the server saw it
        table.close()
    finally:
        server.stop()


def test_a_server_that_keeps_limiting_fails_the_request_with_a_clear_message(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(remote, "RATE_LIMITED_RETRIES", 2)
    server = limited_server(tmp_path, rate=0.01)
    try:
        table = RemoteTable(parse_invite(make_table(server, HUMANS)), timeout=5)
        table.join("Ola")
        table.connect()
        assert table.request({"type": "chat", "text": "one"})["type"] == "chat"
        started = time.monotonic()
        with pytest.raises(RemoteError, match=r"kept refusing 'chat' as sent too fast \(rate limited, 2 tries\)"):
            table.request({"type": "chat", "text": "two"})
        assert time.monotonic() - started < 4.5, "failed after the retries, not after the timeout"
        table.close()
    finally:
        server.stop()


def test_a_notice_about_another_message_does_not_send_the_request_twice(tmp_path: Path) -> None:
    """A ``rate_limited`` notice earned by an earlier frame (a ping sent without waiting) was taken for the answer
    of the request that waited next, which the server had done: it was sent again, and the chat line was said
    twice.  The server now names the dropped frame's id in its notice, and the client sends again only the request
    the notice names (found by the session's review)."""
    server = limited_server(tmp_path, rate=1.0)
    try:
        table = RemoteTable(parse_invite(make_table(server, HUMANS)), timeout=5)
        table.join("Ola")
        table.connect()  # the hello: one of the burst of three
        for _ in range(3):
            table.send_nowait({"type": "ping"})  # the third is dropped
        time.sleep(1.2)  # a message's worth refills; the notice is not read yet
        reply = table.request({"type": "chat", "text": "hello"})
        assert reply["type"] == "chat", reply
        table.poll(1.5)
        assert [m["text"] for m in table.chat] == ["hello"]
        table.close()
    finally:
        server.stop()


# -- 4. reconnecting for about a minute ----------------------------------------------------------------------------


def test_the_reconnect_window_is_about_a_minute_and_one_constant() -> None:
    assert remote.RECONNECT_WINDOW >= 60
    table = RemoteTable(parse_invite("http://127.0.0.1:9/?table=abc"))
    assert table.reconnect_window == remote.RECONNECT_WINDOW


def test_reconnecting_tells_the_player_once_and_fails_after_the_window() -> None:
    table = RemoteTable(parse_invite(f"http://127.0.0.1:{free_port()}/?table=abc"), timeout=2,
                        reconnect_window=1.5)
    told: list[str] = []
    table.on_reconnecting = told.append
    started = time.monotonic()
    with pytest.raises(RemoteError, match=r"could not reconnect \(tried for 1.5 s\)"):
        table._connect_retrying("test", "could not reconnect")
    assert 1.4 < time.monotonic() - started < 4
    assert len(told) == 1 and "trying again for up to 1.5 s" in told[0], told


def test_a_game_goes_on_after_a_server_restart_longer_than_the_old_tries(server: Any) -> None:
    """The server is away for 12 s (the old client gave up after about 11 s): the request is answered."""
    table = seated(make_table(server, HUMANS), "Ola")
    lines: list[str] = []
    RemoteLineGame(table, read=lambda prompt: "quit", write=lines.append, unicode=False)
    done: list[object] = []

    def chat() -> None:
        try:
            done.append(table.request({"type": "chat", "text": "still there?"}))
        except Exception as error:  # the old code: "could not reconnect"
            done.append(error)

    thread = threading.Thread(target=chat, daemon=True)
    restart(server, between=lambda: (thread.start(), time.sleep(12)))
    thread.join(40)
    assert done and isinstance(done[0], dict) and done[0]["type"] == "chat", done
    told = [line for line in lines if "trying again" in line]
    assert len(told) == 1 and "Ctrl-C quits" in told[0], lines
    table.close()


def test_the_full_screen_game_says_once_that_it_is_reconnecting(server: Any) -> None:
    """The server goes away for 3 s under the full-screen game: the log says so once, with the keys that quit."""
    import asyncio

    from mizerka.tui.remote_app import RemoteApp
    from tui_helpers import logged, pause_until

    app = RemoteApp(seated(make_table(server, HUMANS), "Ola"))

    async def away() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            threading.Thread(target=restart, args=(server, lambda: time.sleep(3)), daemon=True).start()
            await pause_until(pilot, lambda: "trying again" in logged(app), tries=300)
            await pause_until(pilot, lambda: app.table.reconnects == 1, tries=300)
            log = " ".join(logged(app).split())
            assert log.count("trying again for up to 60 s") == 1 and "x or Ctrl-Q quits" in log, log

    asyncio.run(away())
    app.table.close()
