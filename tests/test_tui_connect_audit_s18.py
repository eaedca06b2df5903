"""What an audit of watching and the rematch in the terminal client found (session 18), against a real server on
127.0.0.1.

* The line-game spectator at a terminal waits at the finished table and follows the players to their rematch
  (before, it ended with the match); with its input ended it still ends with the match.
* A player waiting for the others' rematch asks again when the server has forgotten the wish (a restart): the
  line game and the full screen.
* The full-screen spectator is told a spectator's words, never a player's ("choose again", "your hand", "your
  turn").
* Wide (CJK) and long names keep the columns of the scores panel and the score sheet in line (terminal cells).
* A player who left a finished match without asking comes back with the same link to its rematch: the seat is
  taken back at the finished table (not refused as stale, nor forgotten), a chain of rematches is followed to
  its last table, and the rematch's table is reached even when the server is away for a moment.
"""

from __future__ import annotations

import asyncio
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the --connect tests need a server: the 'server' extra (pip install -e '.[dev]')")
pytest.importorskip("websockets", reason="--connect needs the 'tui' extra (pip install -e '.[dev]')")

import click
from click.testing import CliRunner
from rich.cells import cell_len

import mizerka.terminal
from mizerka.cli import cli
from mizerka.terminal import QuitGame
from mizerka.tui.remote import (
    RemoteLineGame,
    RemoteTable,
    SeatBook,
    parse_invite,
    sheet_text,
    take_seat,
    watch_table,
)

sys.path.insert(0, str(Path(__file__).parent / "server"))
from server_helpers import ThreadServer

from test_tui_connect import BOTS, make_table, start_server
from test_tui_connect_rematch import TWO_HUMANS, play_to_the_end
from test_tui_connect_undo import act_until, seated
from tui_helpers import logged, pause_until


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ThreadServer]:
    box = [start_server(tmp_path)]
    yield _Restartable(box)  # type: ignore[misc]
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


def watching(url: str) -> RemoteTable:
    table = RemoteTable(parse_invite(url), timeout=10)
    watch_table(table)
    return table


def two_players(url: str) -> tuple[RemoteTable, RemoteTable]:
    """Ola (seat 0) and Ala (seat 1) at a table of two humans and a bot, connected."""
    ola, ala = (RemoteTable(parse_invite(url), timeout=10) for _ in range(2))
    assert ola.join("Ola") == 0 and ala.join("Ala") == 1
    ola.connect()
    ala.connect()
    return ola, ala


def wait_for(done: Callable[[], bool], seconds: float = 20.0, every: Callable[[], object] = lambda: None) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "not reached in time"
        every()
        time.sleep(0.05)


def reconnected(table: RemoteTable) -> None:
    """Read *table* until it has made its connection again (after a server restart)."""
    before = table.reconnects
    for _ in range(100):
        table.poll(0.2)
        if table.reconnects > before:
            return
    raise AssertionError("no reconnect")


# -- 1. the line-game spectator waits for the rematch ----------------------------------------------------------


def test_the_line_game_spectator_waits_at_the_end_and_follows_the_rematch(server: ThreadServer) -> None:
    """At a terminal (its input open) the spectator is told it waits for a rematch, follows the players to the new
    table, and watches there until ``quit``."""
    url = make_table(server, BOTS)
    old = parse_invite(url).table
    player = seated(url, "Ola")
    spectator = watching(url)
    lines: list[str] = []
    typed = threading.Event()

    def read(prompt: str) -> str:  # a terminal where the spectator types quit once told so
        typed.wait(30)
        typed.clear()
        return "quit"

    game = RemoteLineGame(spectator, read=read, write=lambda text: lines.append(click.unstyle(text)), unicode=False,
                          poll=0.05, ask_after_match=True)
    box: dict[str, BaseException] = {}

    def run() -> None:
        try:
            game.run_remote()
        except BaseException as error:  # QuitGame, expected; anything else fails below
            box["error"] = error

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    play_to_the_end(player)
    waiting = "The match is over. Waiting in case the players ask for a rematch; quit or Ctrl+C to stop."
    wait_for(lambda: waiting in lines)
    assert thread.is_alive()  # it waits at the finished table
    new = player.rematch()["table"]
    assert new is not None and new != old
    wait_for(lambda: f"You are at table {new} now (its invite link: {server.url}/?table={new})." in lines)
    assert spectator.invite.table == new and spectator.spectator and spectator.view["table"] == new
    typed.set()
    thread.join(10)
    assert isinstance(box.get("error"), QuitGame)
    out = "\n".join(lines)
    assert f"Every player asked for a rematch: a new match with the same players, at table {new}." in out
    player.close()
    spectator.close()


def test_the_line_game_spectator_whose_input_ended_ends_with_the_match(server: ThreadServer) -> None:
    """A terminal whose input ended (Ctrl+D), like a pipe: watching ends with the match, the final view returned."""
    url = make_table(server, BOTS)
    player = seated(url, "Ola")
    play_to_the_end(player)
    spectator = watching(url)

    def read(prompt: str) -> str:
        raise EOFError

    lines: list[str] = []
    game = RemoteLineGame(spectator, read=read, write=lambda text: lines.append(click.unstyle(text)), unicode=False,
                          poll=0.05, ask_after_match=True)
    final = game.watch()
    assert final["status"] == "finished" and final["table"] == parse_invite(url).table
    assert any(line.startswith("The match is over.") for line in lines)
    player.close()
    spectator.close()


# -- 2. asking again after a server restart -----------------------------------------------------------------------


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


# -- 3. the full-screen spectator gets a spectator's words ---------------------------------------------------------


def test_the_full_screen_spectator_is_never_told_a_players_texts(server: ThreadServer) -> None:
    """A player's undo, a typed card and Enter: the spectator's screen says that spectators do not play, never
    "choose again", "your hand" or "your turn"; nothing is sent (the player's table does not move)."""
    pytest.importorskip("textual", reason="the full-screen game needs the 'tui' extra")
    from mizerka.tui.remote_app import RemoteApp

    url = make_table(server, BOTS)
    player = seated(url, "Ola")
    app = RemoteApp(watching(url))
    said: list[str] = []
    notes: list[str] = []

    async def watch() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause(0.3)
            act_until(player, lambda t: t.view["phase"] == "play" and t.my_turn() and any(
                e.get("actor") == t.seat and e.get("action_kind") == "play" for e in t.deal_events()))
            assert player.undo()["type"] == "snapshot"
            await pause_until(pilot, lambda: "Taken back" in logged(app), tries=60)
            notes.extend(str(n.message) for n in app._notifications)
            for key in ("a", "s", "enter", "1", "0", "h"):
                await pilot.press(key)
            await pilot.pause(0.3)
            said.extend(str(n.message) for n in app._notifications)
            said.extend(logged(app).splitlines())
            await pilot.press("x")

    asyncio.run(watch())
    seq = player.seq
    player.poll(0.3)
    assert player.seq == seq  # the spectator's keys sent nothing
    assert any(n.startswith("Taken back: ") and n.endswith(("card", "cards")) for n in notes), notes
    assert not [s for s in said if "choose again" in s or "your hand" in s or "your turn" in s], said
    assert sum("Spectators cannot act: only the seated players play cards" in s for s in said) >= 3
    app.table.close()
    player.close()


# -- 4. names by terminal cells ---------------------------------------------------------------------------------------


def test_fitting_a_name_to_terminal_cells() -> None:
    from mizerka.tui.remote import fit_cells  # (imported here: the rest of the file runs against older code too)

    assert fit_cells("李小龍李小龍李小龍", 11) == "李小龍李小…" and cell_len(fit_cells("李小龍李小龍李小龍", 11)) == 11
    assert fit_cells("李小龍", 8) == "李小龍  " and fit_cells("Ola", 5, right=True) == "  Ola"
    assert fit_cells("Bartholomew", 8, ellipsis="~") == "Barthol~"


def test_the_score_sheet_lines_up_wide_and_long_names() -> None:
    names = ["李小龍", "Bartholomew the Great", "Ola"]
    view = {"score_sheet": [{"deal_no": 1, "contract": "NT", "chooser": 1, "scores": [3, -5, 2],
                             "totals": [3, -5, 2]},
                            {"deal_no": 2, "contract": "MZ", "chooser": 0, "scores": [-2, 1, 1],
                             "totals": [1, -4, 3]}]}
    lines = sheet_text(view, names).splitlines()[:-1]  # the last: the note under the table
    assert len({cell_len(line) for line in lines}) == 1, lines
    assert "Bartholomew…" in lines[0] and "李小龍" in lines[0]
    assert "Bartholomew…" in lines[1] and "李小龍" in lines[2]
    assert "Bartholomew~" in sheet_text(view, names, unicode=False)


def test_the_full_screen_scores_panel_lines_up_wide_and_long_names(server: ThreadServer) -> None:
    pytest.importorskip("textual", reason="the full-screen game needs the 'tui' extra")
    from textual.widgets import Static

    from mizerka.tui.remote_app import RemoteApp

    url = make_table(server, TWO_HUMANS)
    ola, ala = (RemoteTable(parse_invite(url), timeout=10) for _ in range(2))
    ola.join("李小龍")
    ala.join("Bartholomew the Great")
    ola.connect()
    ala.connect()
    app = RemoteApp(watching(url))
    rows: list[str] = []

    async def look() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause(0.5)
            rows.extend(str(app.query_one("#scores", Static).render()).splitlines()[1:])
            await pilot.press("x")

    asyncio.run(look())
    assert len(rows) == 3 and any(row.startswith("李小龍 ") for row in rows)
    assert any(row.startswith("Bartholome… ") for row in rows), rows
    # no trick taken, no total yet: every row is as wide as the others when the columns line up
    assert len({cell_len(row.rstrip()) for row in rows}) == 1, rows
    app.table.close()
    ola.close()
    ala.close()


# -- 5. back at a finished match for its rematch ------------------------------------------------------------------


def test_back_at_a_finished_match_to_ask_for_the_rematch(server: ThreadServer, tmp_path: Path) -> None:
    """Ola left after the match without asking; Ala asked and waits.  The same link takes Ola's seat back at the
    finished table (the book keeps it), shows the end of the match only, and her rematch moves both."""
    url = make_table(server, TWO_HUMANS)
    invite = parse_invite(url)
    book = SeatBook(tmp_path / "seats.json")
    ola = RemoteTable(invite, timeout=10)
    assert take_seat(ola, book, "Ola") == (0, False)
    ala = RemoteTable(invite, timeout=10)
    ala.join("Ala")
    ala.connect()
    play_to_the_end(ola, ala)
    ola.close()
    assert ala.rematch()["waiting"] == [0]
    again = RemoteTable(invite, timeout=10)
    assert take_seat(again, book, None) == (0, True)
    assert again.view["status"] == "finished" and again.invite == invite and book.get(invite) is not None
    assert [event["kind"] for event in again.drain()] == ["match_end"]  # the final position, not the whole match
    lines: list[str] = []
    answers = iter(["rematch"])
    game = RemoteLineGame(again, read=lambda prompt: next(answers), write=lambda t: lines.append(click.unstyle(t)),
                          unicode=False, poll=0.05, ask_after_match=True)
    assert game.after_match()
    new = again.rematch_target()
    assert new is not None
    again.follow_rematch()
    assert again.view["seat"] == 0 and book.get(again.invite) is not None and book.get(invite) is None
    again.close()
    ala.close()


def test_back_at_a_finished_match_through_a_pipe_keeps_the_seat(server: ThreadServer,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Through a pipe no rematch is asked for: the link is refused as stale for play (exit status 1), but the seat
    stays in the book, for a terminal to take back."""
    url = make_table(server, BOTS)
    monkeypatch.setattr(mizerka.terminal, "_read_line", lambda prompt: "quit")
    first = CliRunner().invoke(cli, ["play", "--connect", url, "--plain", "--name", "Ola"])
    assert first.exit_code == 0, first.output
    held = SeatBook.default().get(parse_invite(url))
    assert held is not None
    ola = RemoteTable(parse_invite(url), timeout=10)
    ola.seat, ola.token = held.seat, held.token
    ola.connect()
    play_to_the_end(ola)
    ola.close()
    again = CliRunner().invoke(cli, ["play", "--connect", url, "--plain"])
    assert again.exit_code == 1 and "stale" in again.output and "Your seat there is kept" in again.output
    assert "Traceback" not in again.output
    assert SeatBook.default().get(parse_invite(url)) == held


def test_a_chain_of_rematches_is_followed_to_its_last_table(server: ThreadServer, tmp_path: Path) -> None:
    """The book still names the first table (the game stopped before it could move it); meanwhile the seat played a
    rematch and asked for another.  The old link goes along the chain to the last table, which the book holds."""
    url = make_table(server, BOTS)
    invite = parse_invite(url)
    book = SeatBook(tmp_path / "seats.json")
    table = RemoteTable(invite, timeout=10)
    take_seat(table, book, "Ola")
    table.book = None  # the book is not moved along: it keeps the first table
    tables = [invite.table]
    for _ in range(2):
        play_to_the_end(table)
        assert table.rematch()["type"] == "ack"
        tables.append(table.follow_rematch())
    table.close()
    again = RemoteTable(invite, timeout=10)
    assert take_seat(again, book, None) == (0, True)
    assert again.invite.table == tables[-1] and again.view["status"] == "playing" and again.view["seat"] == 0
    assert book.get(again.invite) is not None and book.get(invite) is None
    again.close()


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
