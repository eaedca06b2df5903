"""Watching a server's table from the terminal (``mizerka play --connect URL --watch``), against a real server on
127.0.0.1.

A spectator says ``hello`` without a token: it sees what every player sees on the table and the chat, never a hand,
and cannot act or write in the chat (both games say so without sending anything).  It follows undos and reconnects
as a player does, and a table without spectators is refused in words (exit status 1, no traceback).  At the end of
the match the line-game spectator at a terminal waits in case the players ask for a rematch and follows them to the
new table (with its input ended, it ends with the match); the full-screen spectator is told a spectator's words,
never a player's ("choose again", "your hand", "your turn").
"""

from __future__ import annotations

import asyncio
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the --connect tests need a server: the 'server' extra (pip install -e '.[dev]')")
pytest.importorskip("websockets", reason="--connect needs the 'tui' extra (pip install -e '.[dev]')")

import click
import httpx
from click.testing import CliRunner

import mizerka.terminal
from mizerka.cli import cli
from mizerka.terminal import QuitGame
from mizerka.tui.remote import SPECTATOR_CHAT, RemoteLineGame, RemoteRefused, RemoteTable, parse_invite, watch_table

sys.path.insert(0, str(Path(__file__).parent / "server"))
from server_helpers import ThreadServer

from test_tui_connect import BOTS, make_table, start_server
from test_tui_connect_rematch import play_to_the_end
from test_tui_connect_undo import act_until, our_cards_played, seated
from tui_helpers import logged, pause_until, wait_for

ALL_BOTS = [{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "rules"}, {"kind": "bot", "level": "random"}]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ThreadServer]:
    server = start_server(tmp_path)
    yield server
    server.stop()


def watching(url: str) -> RemoteTable:
    table = RemoteTable(parse_invite(url), timeout=10)
    watch_table(table)
    return table


def stalled_table(server: ThreadServer) -> tuple[str, RemoteTable]:
    """A table whose human (Ola, seat 0, connected here) does not act: the match waits for her; its link."""
    url = make_table(server, BOTS)
    return url, seated(url, "Ola")


def test_watching_a_whole_match_of_bots_in_the_line_game(server: ThreadServer,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The play is written as it comes, to the end of the match (exit status 0); the input ending (a pipe) stops
    the commands, not the watching.  No hand, no prompt for a card, no "you" anywhere."""
    url = make_table(server, ALL_BOTS)

    def read(prompt: str) -> str:
        raise EOFError

    monkeypatch.setattr(mizerka.terminal, "_read_line", read)
    result = CliRunner().invoke(cli, ["play", "--connect", url, "--watch", "--plain", "--ascii"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "you are watching, as a spectator" in out
    assert "The match begins" in out and out.count("=== Deal") == 3 and "The match is over." in out
    assert "Trick 13:" in out and "Your card" not in out and "Your hand" not in out
    assert "You deal and sit out" not in out and "You win" not in out
    assert "Traceback" not in out


def test_the_line_game_spectator_reads_commands_while_the_table_plays_on(server: ThreadServer,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Commands at any time: help, the sheet, the last trick; chat and the players' commands are answered in
    words, and nothing reaches the server (the seated player's chat stays empty); quit stops watching."""
    url, player = stalled_table(server)
    answers = iter(["?", "sheet", "say hello all", "hand", "hint", "rematch", "AS", "quit"])
    monkeypatch.setattr(mizerka.terminal, "_read_line", lambda prompt: next(answers))
    result = CliRunner().invoke(cli, ["play", "--connect", url, "--watch", "--plain", "--ascii"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "You are watching: the table and the chat as everyone sees them" in out  # the help
    assert "No deal has been finished yet." in out  # the sheet
    assert SPECTATOR_CHAT in out
    assert "no hand is shown to a spectator" in out and "hints are for the players" in out
    assert "only the seated players ask for a rematch" in out and "Spectators cannot act" in out
    assert f"You stopped watching table {parse_invite(url).table}." in out
    player.poll(0.5)
    assert player.chat == []  # nothing was sent
    player.close()


def test_a_spectator_is_refused_by_a_table_without_spectators(server: ThreadServer) -> None:
    url = make_table(server, BOTS, spectators=False)
    result = CliRunner().invoke(cli, ["play", "--connect", url, "--watch", "--plain"])
    assert result.exit_code == 1, result.output
    assert "admits no spectators: its host turned watching off" in result.output
    assert isinstance(result.exception, SystemExit) and "Traceback" not in result.output
    with pytest.raises(RemoteRefused) as refused:
        watching(url)
    assert refused.value.code == "spectators_off"


def test_a_full_table_suggests_watching(server: ThreadServer) -> None:
    url = make_table(server, [{"kind": "human"}] * 3)  # three humans: no seat a computer player plays to take over
    for name in ("Ala", "Bolek", "Cezary"):
        taken = httpx.post(f"{server.url}/api/tables/{parse_invite(url).table}/join", json={"name": name})
        assert taken.status_code == 200
    result = CliRunner().invoke(cli, ["play", "--connect", url, "--plain"])
    assert result.exit_code == 1 and "no free seat" in result.output and "add --watch" in result.output


@pytest.mark.parametrize(("extra", "said"), [
    (["--watch"], "--watch goes with --connect"),
    (["--connect", "http://127.0.0.1:1/?table=x", "--watch", "--new-seat"], "--new-seat cannot be used with --watch"),
])
def test_options_that_do_not_go_with_watch(extra: list[str], said: str) -> None:
    result = CliRunner().invoke(cli, ["play", "--plain", *extra])
    assert result.exit_code == 2 and said in result.output, result.output


def test_a_spectator_follows_undos_and_reconnects(server: ThreadServer) -> None:
    """The human at a table of bots takes back a card: the spectator's journal is cut as the player's (and the
    line game says what was taken back); an undo while the spectator was away is taken whole again on its
    reconnect.  The spectator never holds a card of a hand: every view it got has an empty hand."""
    url = make_table(server, BOTS)
    player = seated(url, "Ola")
    spectator = watching(url)
    views: list[dict[str, Any]] = []
    act_until(player, lambda t: t.view["phase"] == "play" and our_cards_played(t) >= 1 and t.my_turn())
    for _ in range(20):
        spectator.poll(0.2)
        views.append(spectator.view)
        if spectator.seq == player.seq:
            break
    assert player.undo()["type"] == "snapshot"
    for _ in range(20):
        spectator.poll(0.2)
        views.append(spectator.view)
        if (spectator.seq, spectator.epoch) == (player.seq, player.epoch):
            break
    lines: list[str] = []
    game = RemoteLineGame(spectator, read=lambda prompt: "", write=lambda text: lines.append(click.unstyle(text)),
                          unicode=False)
    for undone in spectator.drain_undone():
        game.report_undone(undone)
    assert any(line.startswith("Taken back: Ola ") for line in lines), lines
    assert [e["seq"] for e in spectator.events] == [e["seq"] for e in player.events]
    # away during an undo: the journal is taken again, and the game says so
    act_until(player, lambda t: our_cards_played(t) >= 2 and t.my_turn())
    spectator.drop()
    assert player.undo()["type"] == "snapshot"
    for _ in range(40):
        spectator.poll(0.2)
        views.append(spectator.view)
        if spectator.reconnects and (spectator.seq, spectator.epoch) == (player.seq, player.epoch):
            break
    assert spectator.reconnects >= 1
    assert [e["seq"] for e in spectator.events] == [e["seq"] for e in player.events]
    lines.clear()
    for undone in spectator.drain_undone():
        game.report_undone(undone)
    assert any("taken back at this table while this connection was away" in line for line in lines), lines
    assert spectator.seat is None and all(view["hand"] == [] and not view["your_turn"] for view in views)
    player.close()
    spectator.close()


def test_the_full_screen_spectator(server: ThreadServer) -> None:
    """Full screen: no hand, the chat of the players shown; ``!``, ``u``, ``?`` and ``n`` are answered in words
    and send nothing."""
    pytest.importorskip("textual", reason="the full-screen game needs the 'tui' extra")
    from textual.widgets import Static

    from mizerka.tui.remote_app import RemoteApp

    url = make_table(server, BOTS)
    player = seated(url, "Ola")
    app = RemoteApp(watching(url))

    async def look() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause(0.3)
            assert player.say("good luck, watchers")["type"] == "chat"
            await pause_until(pilot, lambda: "Ola: good luck, watchers" in logged(app), tries=60)
            for key in ("exclamation_mark", "u", "question_mark", "n"):
                await pilot.press(key)
            await pilot.pause(0.3)
            log = logged(app)
            assert "you are watching, as a spectator" in log
            assert "Ola: good luck, watchers" in log and "The match begins" in log
            assert SPECTATOR_CHAT in log and "Cannot undo: a spectator takes back nothing" in log
            assert "Spectators get no hints" in log and "Only the seated players can ask for a rematch" in log
            hand = str(app.query_one("#hand", Static).render())
            assert hand == "Watching: the players' hands are hidden from spectators."
            await pilot.press("x")

    asyncio.run(look())
    assert app.failure is None
    assert "You stopped watching table" in app.farewell()
    player.poll(0.5)
    assert [said.get("text") for said in player.chat] == ["good luck, watchers"]  # the spectator sent nothing
    app.table.close()
    player.close()


# -- the end of the match, and a spectator's words -------------------------------------------------------------------


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
