"""The terminal client of a server when the connection drops or the server restarts, against a real server on
127.0.0.1 (which a test may restart on the same port, with the same database).

A dropped connection is tried again for :data:`~mizerka.tui.remote.RECONNECT_WINDOW` seconds (about a minute), the
player told once, with the keys that quit (the client gave up after six tries in a few seconds): a game goes on over a
restart of 12 s.  A player waiting for the others' rematch asks again when the restarted server has forgotten the
wish (the line game and the full screen), and the rematch's table is reached when the server is away for a moment.
A chat message the server took before the connection dropped is not sent again (a fake server), and two games at one
computer keep each other's seats in the seat book.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the --connect tests need a server: the 'server' extra (pip install -e '.[dev]')")
pytest.importorskip("websockets", reason="--connect needs the 'tui' extra (pip install -e '.[dev]')")

import click
from websockets.sync.server import ServerConnection

from mizerka.tui import remote
from mizerka.tui.remote import HeldSeat, RemoteError, RemoteLineGame, RemoteTable, SeatBook, parse_invite

sys.path.insert(0, str(Path(__file__).parent / "server"))
from server_helpers import ThreadServer, free_port

from test_tui_connect import BOTS, make_table, start_server
from test_tui_connect_rematch import TWO_HUMANS, play_to_the_end
from test_tui_connect_undo import seated
from tui_helpers import connected, fake_server, logged, pause_until, wait_for, welcome

HUMANS = [{"kind": "human"}] * 3


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Any]:
    box = [start_server(tmp_path)]
    yield _Restartable(box)
    box[0].stop()


class _Restartable:
    """The fixture's server, which a test may restart (:func:`restart`): attributes go to the one running now."""

    def __init__(self, box: list[ThreadServer]) -> None:
        self.box = box

    def __getattr__(self, name: str) -> Any:
        return getattr(self.box[0], name)


def restart(server: Any, between: Callable[[], None] = lambda: None) -> None:
    """Stop the fixture's *server* and start a new one on the same port with the same database (a restart), calling
    *between* while none runs."""
    box: list[ThreadServer] = server.box
    old = box[0]
    old.stop()
    between()
    again = ThreadServer(old.config)
    again.port = old.port
    again.server.config.port = old.port
    box[0] = again.start()


def two_players(url: str) -> tuple[RemoteTable, RemoteTable]:
    """Ola (seat 0) and Ala (seat 1) at a table of two humans and a bot, connected."""
    ola, ala = (RemoteTable(parse_invite(url), timeout=10) for _ in range(2))
    assert ola.join("Ola") == 0 and ala.join("Ala") == 1
    ola.connect()
    ala.connect()
    return ola, ala


def reconnected(table: RemoteTable) -> None:
    """Read *table* until it has made its connection again (after a server restart)."""
    before = table.reconnects
    for _ in range(100):
        table.poll(0.2)
        if table.reconnects > before:
            return
    raise AssertionError("no reconnect")


# -- reconnecting for about a minute ---------------------------------------------------------------------------------


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


# -- a rematch across a restart --------------------------------------------------------------------------------------


def test_the_line_game_asks_for_the_rematch_again_after_a_restart(server: Any) -> None:
    """Ola waits for Ala's rematch; the server restarts and forgets Ola's wish: her game says so and asks again, so
    that when Ala asks both move to the new table."""
    url = make_table(server, TWO_HUMANS)
    ola, ala = two_players(url)
    play_to_the_end(ola, ala)
    lines: list[str] = []
    answers = iter(["rematch"])
    game = RemoteLineGame(ola, read=lambda prompt: next(answers), write=lambda t: lines.append(click.unstyle(t)),
                          unicode=False, poll=0.05, ask_after_match=True)
    moved: list[bool] = []
    thread = threading.Thread(target=lambda: moved.append(game.after_match()), daemon=True)
    thread.start()
    wait_for(lambda: any("Ala (seat 1) has not asked yet" in line for line in lines))
    restart(server)
    wait_for(lambda: any("asking again" in line for line in lines))
    reconnected(ala)
    reply = ala.rematch()
    assert reply["type"] == "ack" and reply["table"] is not None and reply["waiting"] == [], reply
    thread.join(20)
    assert moved == [True] and ola.rematch_target() == reply["table"]
    assert "The server no longer knows that you asked for a rematch (it restarted, or the connection was made " \
           "again): asking again." in lines
    ola.close()
    ala.close()


def test_the_full_screen_asks_for_the_rematch_again_after_a_restart(server: Any) -> None:
    pytest.importorskip("textual", reason="the full-screen game needs the 'tui' extra")
    from mizerka.tui.remote_app import RemoteApp

    url = make_table(server, TWO_HUMANS)
    ola, ala = two_players(url)
    play_to_the_end(ola, ala)
    app = RemoteApp(ola)
    new: list[str] = []

    async def rematch() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause(0.3)
            await pilot.press("n")
            await pause_until(pilot, lambda: "has not asked yet" in logged(app))
            restart(server)
            await pause_until(pilot, lambda: "asking again" in logged(app), tries=300)
            log = " ".join(logged(app).split())
            assert "The server no longer knows that you asked for a rematch" in log, log
            reconnected(ala)
            reply = ala.rematch()
            assert reply["type"] == "ack" and reply["table"] is not None and reply["waiting"] == [], reply
            new.append(reply["table"])
            await pause_until(pilot, lambda: "You are at table" in logged(app), tries=200)
            log = " ".join(logged(app).split())
            assert f"You are at table {reply['table']} now" in log, log
            await pilot.press("x")

    asyncio.run(rematch())
    assert app.failure is None and ola.invite.table == new[0] and ola.view["seat"] == 0
    ola.close()
    ala.close()


def test_the_rematch_table_is_reached_when_the_server_is_away_a_moment(server: Any) -> None:
    """The rematch is named, then the server goes away for a moment: moving there is tried again, as a reconnect."""
    url = make_table(server, BOTS)
    table = RemoteTable(parse_invite(url), timeout=10)
    table.join("Ola")
    table.connect()
    play_to_the_end(table)
    new = table.rematch()["table"]
    assert new is not None and table.rematch_target() == new
    moved: list[object] = []

    def follow() -> None:
        try:
            moved.append(table.follow_rematch())
        except Exception as error:  # the old code: the first failure ended it
            moved.append(error)

    thread = threading.Thread(target=follow, daemon=True)
    restart(server, between=lambda: (thread.start(), time.sleep(0.5)))
    thread.join(30)
    assert moved == [new], moved
    assert table.view["table"] == new and table.view["seat"] == 0
    table.close()


# -- chat sent once; seats kept --------------------------------------------------------------------------------------


def test_a_chat_message_is_not_sent_twice_after_a_reconnect() -> None:
    """The connection dropped after the server took the message, before its answer: the client sent it again."""
    received: list[dict[str, Any]] = []

    def handler(ws: ServerConnection) -> None:
        for raw in ws:
            message = json.loads(raw)
            if message["type"] == "hello":
                ws.send(json.dumps(welcome(message, chat=[dict(c, type="chat") for c in received])))
            elif message["type"] == "chat":
                received.append({"seq": len(received) + 1, "seat": 0, "name": "A", "text": message["text"]})
                if len(received) == 1:
                    ws.close()  # it arrived; its answer is lost with the connection
                    return
                ws.send(json.dumps({"type": "chat", "id": message["id"], **received[-1]}))

    with fake_server(handler) as url:
        table = connected(url)
        reply = table.say("good luck!")
        assert reply["type"] == "error" and reply["code"] == "reconnected"
        assert [r["text"] for r in received] == ["good luck!"]
        assert [c["text"] for c in table.chat] == ["good luck!"]  # the welcome's history shows it arrived
        table.close()


def _save_seats(path: str, who: int) -> list[str]:
    book = SeatBook(Path(path))
    errors = []
    for i in range(150):
        try:
            book.put(parse_invite(f"http://h{who}/?table=t{i}"), HeldSeat(seat=0, name="A", token=f"{who}-{i}"))
        except Exception as error:  # what the test counts
            errors.append(type(error).__name__)
    return errors


def test_two_games_at_one_computer_keep_each_others_seats() -> None:
    """Two runs saving seats at once shared one scratch file and no lock: one crashed (FileNotFoundError) or a
    seat token was lost."""
    path = Path(tempfile.mkdtemp()) / "seats.json"
    with multiprocessing.get_context("fork").Pool(2) as pool:
        errors = pool.starmap(_save_seats, [(str(path), 0), (str(path), 1)])
    assert errors == [[], []]
    assert len(SeatBook(path)._load()) == 300
