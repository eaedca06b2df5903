"""Starting a waiting table now, with computer players, from the terminal client (``mizerka play --connect URL``),
against a real server on 127.0.0.1.

While the table waits for players, the line game reads commands (in a thread, so that a player sitting down still
starts the match): ``fill`` seats casual ("rules") bots in every free seat and the match begins, ``fill LEVEL``
another level; a refusal is said in words, and then the line game names who sat down ("Bot 2 (random) sits at seat
1.", never "seat 1 sits at seat 1").  The full-screen game offers ``f`` in its waiting status line: a small choice
of the level, the rules bot first.  A spectator is told in words that only a seated player can start the table, and
nothing is sent.
"""

from __future__ import annotations

import asyncio
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the --connect tests need a server: the 'server' extra (pip install -e '.[dev]')")
pytest.importorskip("websockets", reason="--connect needs the 'tui' extra (pip install -e '.[dev]')")

import click
import httpx
from click.testing import CliRunner

import mizerka.terminal
import mizerka.tui.remote
from mizerka.cli import cli
from mizerka.terminal import QuitGame
from mizerka.tui import remote
from mizerka.tui.remote import FILL_SPECTATOR, RemoteLineGame, RemoteTable, fill_levels, parse_invite, watch_table

sys.path.insert(0, str(Path(__file__).parent / "server"))
from server_helpers import ThreadServer

from test_tui_connect import make_table, start_server
from test_tui_connect_undo import seated
from tui_helpers import logged, pause_until

THREE_HUMANS = [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}]
WAITING = "Waiting for players> "


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ThreadServer]:
    server = start_server(tmp_path)
    yield server
    server.stop()


def seats(server: ThreadServer, url: str) -> tuple[str, list[tuple[str, str | None]]]:
    """The server's own account of the table: its status and each seat's (kind, bot level)."""
    info = httpx.get(f"{server.url}/api/tables/{parse_invite(url).table}").json()
    return info["status"], [(s["kind"], s["bot"]) for s in info["seats"]]


def wait_for(done: Callable[[], bool], seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "not reached in time"
        time.sleep(0.05)


def run_in_thread(game: RemoteLineGame) -> tuple[threading.Thread, list[BaseException]]:
    """Run *game* (``run_remote``) in a thread; the list gets what it raised."""
    outcome: list[BaseException] = []

    def run() -> None:
        try:
            game.run_remote()
        except BaseException as error:
            outcome.append(error)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, outcome


def test_the_line_game_fills_the_free_seats_with_rules_bots(server: ThreadServer,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """``mizerka play --connect`` at a table of three human seats: the waiting line offers ``fill``, ``?`` lists
    the levels, ``fill`` seats two rules bots and the match begins; ``fill`` typed during the match is answered in
    words (nothing is sent), and ``quit`` leaves."""
    url = make_table(server, THREE_HUMANS)
    prompts: list[str] = []
    waiting_answers = iter(["?", "", "dance", "fill"])
    match_answers = iter(["fill", "quit"])

    def read(prompt: str) -> str:
        prompt = click.unstyle(prompt)
        prompts.append(prompt)
        return next(waiting_answers) if prompt == WAITING else next(match_answers)

    monkeypatch.setattr(mizerka.terminal, "_read_line", read)
    monkeypatch.setattr(mizerka.tui.remote, "_stdin_is_terminal", lambda: True)  # as at a terminal
    result = CliRunner().invoke(cli, ["play", "--connect", url, "--plain", "--ascii", "--name", "Ola"])
    out = result.output
    assert result.exit_code == 0, out
    assert "Waiting for players: seats 1, 2 are free.  Share the invite link, or type fill to start now with " \
           "computer players (rules; fill LEVEL for another level, ? for help)." in out
    assert f"fill [LEVEL]  start now: every free seat goes to a computer player of LEVEL (default rules; levels: " \
           f"{', '.join(fill_levels())})" in out
    assert "The match has not begun: type fill to start it now with computer players" in out  # "dance"
    assert "The free seats go to computer players (rules): the match begins." in out
    assert "The match begins: Ola (seat 0)" in out
    assert out.index("The free seats go to computer players") < out.index("The match begins: ")
    assert "The match has begun: fill is for a table that still waits for players." in out
    assert "You left the table." in out and "Traceback" not in out
    assert prompts.count(WAITING) == 4 and prompts[4] != WAITING  # then the match's own questions
    assert seats(server, url) == ("playing", [("human", None), ("bot", "rules"), ("bot", "rules")])


def test_fill_with_a_level_and_a_refusal(server: ThreadServer) -> None:
    """``fill grandmaster`` is refused with the server's words (the level named, the offered ones listed) and the
    table keeps waiting; ``fill pimc`` then seats PIMC bots.  A second ``fill`` is refused too
    (``already_started``)."""
    url = make_table(server, THREE_HUMANS)
    table = seated(url, "Ola")
    lines: list[str] = []
    answers = iter(["fill grandmaster", "fill PIMC"])

    def read(prompt: str) -> str:
        if prompt == WAITING:
            return next(answers)
        raise QuitGame  # the match's first question: the test is over

    game = RemoteLineGame(table, read=read, write=lambda text: lines.append(click.unstyle(text)), unicode=False,
                          poll=0.05, commands_while_waiting=True)
    try:
        with pytest.raises(QuitGame):
            game.run_remote()
        out = "\n".join(lines)
        assert "Not started: unknown bot level 'grandmaster' (expected one of: random, rules, pimc, ismcts, " \
               "expert)" in out
        assert out.index("Not started") < out.index("The free seats go to computer players (pimc)")
        assert seats(server, url) == ("playing", [("human", None), ("bot", "pimc"), ("bot", "pimc")])
        assert table.view["status"] == "playing"
        again = table.fill()
        assert again["type"] == "error" and again["code"] == "already_started", again
    finally:
        table.close()


def test_a_friend_sitting_down_starts_the_match_while_the_waiting_prompt_reads(server: ThreadServer) -> None:
    """The waiting prompt does not hold the game up: a player who sits down (the last seat) starts the match, its
    news is written, and a line typed at the waiting prompt that is not a waiting command (``hand``) answers the
    match's first question to Ola."""
    url = make_table(server, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}])
    table = seated(url, "Ola")
    lines: list[str] = []
    typed = threading.Event()
    asked: list[str] = []

    def read(prompt: str) -> str:
        asked.append(prompt)
        if prompt == WAITING:
            typed.wait(30)  # the player types only once the match has begun
            return "hand"
        raise QuitGame  # asked again after the hand was shown: the test is over

    game = RemoteLineGame(table, read=read, write=lambda text: lines.append(click.unstyle(text)), unicode=False,
                          poll=0.05, commands_while_waiting=True)
    thread, outcome = run_in_thread(game)
    wait_for(lambda: asked == [WAITING])
    friend = seated(url, "Ala")
    try:
        wait_for(lambda: any(line.startswith("The match begins") for line in lines))
        typed.set()
        deadline = time.monotonic() + 30
        while thread.is_alive() and time.monotonic() < deadline:  # Ala plays her turns (she may be forehand)
            if friend.my_turn():
                view = friend.view
                assert friend.act("keep" if view["phase"] == "exchange" else view["legal"][0])["type"] == "ack"
            else:
                friend.poll(0.05)
        thread.join(1)
        assert len(outcome) == 1 and isinstance(outcome[0], QuitGame), (outcome, "\n".join(lines), asked)
        assert len(asked) == 2 and asked[0] == WAITING  # "hand" answered the first question, then asked again
        # that question, written on its own line before the hand: "Cards to discard (...):", "Your card [...]>"...
        shown = max(i for i, line in enumerate(lines) if line.startswith("Your hand"))  # the command's, the last
        assert lines[shown - 1].endswith((">", ":")) and not lines[shown - 1].startswith("Waiting"), lines[-4:]
        assert seats(server, url)[0] == "playing"
    finally:
        friend.close()
        table.close()


def test_a_spectator_is_told_that_only_a_seated_player_starts_the_table(server: ThreadServer,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    url = make_table(server, THREE_HUMANS)
    player = seated(url, "Ola")
    answers = iter(["fill", "fill pimc", "quit"])
    monkeypatch.setattr(mizerka.terminal, "_read_line", lambda prompt: next(answers))
    try:
        result = CliRunner().invoke(cli, ["play", "--connect", url, "--watch", "--plain", "--ascii"])
        assert result.exit_code == 0, result.output
        assert result.output.count(FILL_SPECTATOR) == 2
        assert "Waiting for players (free seats: 1, 2)." in result.output
        assert seats(server, url) == ("waiting", [("human", None), ("human", None), ("human", None)])
    finally:
        player.close()


def test_the_full_screen_key_starts_the_table(server: ThreadServer) -> None:
    """Full screen: the waiting status line offers ``f``; Escape closes its choice without starting; ``f`` then
    Enter starts with the rules bots, highlighted first.  ``f`` once the match has begun is answered in words, and a
    spectator's ``f`` too; nothing is sent."""
    pytest.importorskip("textual", reason="the full-screen game needs the 'tui' extra")
    from textual.widgets import OptionList, Static

    from mizerka.tui.remote_app import FillDialog, RemoteApp

    url = make_table(server, THREE_HUMANS)
    app = RemoteApp(seated(url, "Ola"))
    watcher = RemoteTable(parse_invite(url), timeout=10)
    watch_table(watcher)
    spectator = RemoteApp(watcher)

    async def play() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause(0.3)
            status = str(app.query_one("#status", Static).render())
            assert "Waiting for players (free seats: 1, 2): share the invite link, or press f to start now with " \
                   "computer players." in status
            await pilot.press("f")
            await pilot.pause(0.2)
            assert isinstance(app.screen, FillDialog)
            options = app.screen.query_one("#levels", OptionList)
            assert options.option_count == len(fill_levels())
            highlighted = options.get_option_at_index(options.highlighted or 0)
            assert highlighted.id == "rules"
            await pilot.press("escape")
            await pilot.pause(0.3)
            assert not isinstance(app.screen, FillDialog)
            assert seats(server, url)[0] == "waiting"
            await pilot.press("f")
            await pilot.pause(0.2)
            await pilot.press("enter")
            await pause_until(pilot, lambda: "The match begins" in logged(app))
            log = " ".join(logged(app).split())
            assert "The free seats go to computer players (rules): the match begins." in log
            assert "The match begins: Ola, " in log
            for _ in range(10):  # the exchange's question, if it is Ola's: Enter keeps the hand
                if not app._dialog_open:
                    break
                await pilot.press("enter")
                await pilot.pause(0.1)
            await pilot.press("f")
            await pilot.pause(0.2)
            begun = "The match has begun: f is for a table that still waits for players."
            assert begun in " ".join(logged(app).split())
            await pilot.press("x")

    async def look() -> None:
        async with spectator.run_test(size=(120, 40)) as pilot:
            await pilot.pause(0.3)
            status = str(spectator.query_one("#status", Static).render())
            assert "press f" not in status
            await pilot.press("f")
            await pilot.pause(0.2)
            assert not isinstance(spectator.screen, FillDialog)
            assert FILL_SPECTATOR in " ".join(logged(spectator).split())  # the log wraps long lines
            await pilot.press("x")

    asyncio.run(look())
    assert seats(server, url)[0] == "waiting"  # the spectator sent nothing
    asyncio.run(play())
    assert app.failure is None and spectator.failure is None
    assert seats(server, url) == ("playing", [("human", None), ("bot", "rules"), ("bot", "rules")])
    app.table.close()
    watcher.close()



def test_through_a_pipe_nothing_is_read_before_the_match_begins(server: ThreadServer) -> None:
    """Answers from a pipe or a file are the match's: while the table waits nothing is read (no waiting prompt,
    no word of fill), so the first line is kept for the first question of the match, once a friend sits down."""
    url = make_table(server, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}])
    table = seated(url, "Ola")
    lines: list[str] = []
    asked: list[str] = []

    def read(prompt: str) -> str:
        asked.append(click.unstyle(prompt))
        raise QuitGame  # the first question of the match ends the test

    game = RemoteLineGame(table, read=read, write=lambda text: lines.append(click.unstyle(text)), unicode=False,
                          poll=0.05)
    _, outcome = run_in_thread(game)
    wait_for(lambda: any(line.startswith("Waiting for players") for line in lines))
    time.sleep(0.3)
    assert asked == []  # nothing read while waiting
    friend = seated(url, "Ala")
    try:
        wait_for(lambda: any(line.startswith("The match begins") for line in lines))
        time.sleep(0.3)
        assert WAITING not in asked  # the first read, if Ola is first to act, is the match's question
        assert not outcome or isinstance(outcome[0], QuitGame)
        waiting = next(line for line in lines if line.startswith("Waiting for players"))
        assert waiting == "Waiting for players: seat 1 is free.  Share the invite link."
    finally:
        friend.close()
        table.close()


def test_quit_typed_as_the_match_begins_is_obeyed_at_once(server: ThreadServer) -> None:
    """A line typed at the waiting prompt that the match's start overtook: ``quit`` (and ``say``, ``?``, ``fill``)
    acts at once, not at the player's first question, which may be a minute away (here a friend who never acts is
    forehand)."""
    url = make_table(server, THREE_HUMANS, variant="standard,contracts=NT+MZ,first_dealer=0")
    table = seated(url, "Ola")  # seat 0: the dealer, last to act
    lines: list[str] = []
    typed = threading.Event()

    def read(prompt: str) -> str:
        if prompt == WAITING:
            typed.wait(30)  # the line is finished only once the match has begun
            return "quit"
        raise AssertionError(f"asked: {prompt!r}")

    game = RemoteLineGame(table, read=read, write=lambda text: lines.append(click.unstyle(text)), unicode=False,
                          poll=0.05, commands_while_waiting=True)
    thread, outcome = run_in_thread(game)
    friends = [seated(url, "Ala"), seated(url, "Ela")]
    try:
        wait_for(lambda: any(line.startswith("The match begins") for line in lines))
        typed.set()
        thread.join(5)
        assert not thread.is_alive(), "quit waited for the player's first question"
        assert outcome and isinstance(outcome[0], QuitGame)
    finally:
        for friend in friends:
            friend.close()
        table.close()


def test_the_full_screen_level_choice_takes_ascii_digits_and_says_when_the_match_began(server: ThreadServer) -> None:
    """In the ``f`` dialog, "²" (a key of its own on AZERTY keyboards, a digit to str.isdigit) is ignored instead
    of crashing the game; and a level chosen after the match has begun meanwhile is answered in words, not
    dropped."""
    pytest.importorskip("textual", reason="the full-screen game needs the 'tui' extra")
    from mizerka.tui.remote_app import FillDialog, RemoteApp

    url = make_table(server, THREE_HUMANS, variant="standard,contracts=NT+MZ,first_dealer=0")
    app = RemoteApp(seated(url, "Ola"))
    friends: list[RemoteTable] = []

    async def play() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause(0.3)
            await pilot.press("f")
            await pilot.pause(0.2)
            assert isinstance(app.screen, FillDialog)
            await pilot.press("²")
            await pilot.pause(0.2)
            assert isinstance(app.screen, FillDialog)  # still open, the game still running
            friends.append(await asyncio.to_thread(seated, url, "Ala"))
            friends.append(await asyncio.to_thread(seated, url, "Ela"))
            await pause_until(pilot, lambda: "The match begins" in logged(app))
            await pilot.press("down")  # pimc
            await pilot.press("enter")
            await pilot.pause(0.3)
            assert not isinstance(app.screen, FillDialog)
            assert "The match has begun: f is for a table that still waits for players." in \
                " ".join(logged(app).split())
            await pilot.press("x")

    try:
        asyncio.run(play())
        assert seats(server, url) == ("playing", [("human", None), ("human", None), ("human", None)])
    finally:
        for friend in friends:
            friend.close()
        app.table.close()


def test_ctrl_d_at_the_waiting_prompt_leaves_the_table(server: ThreadServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """At a terminal the input's end at the waiting prompt is Ctrl+D: the game ends, as at any question (it used
    to wait on with no prompt, and only Ctrl+C got out)."""
    url = make_table(server, THREE_HUMANS)

    def read(prompt: str) -> str:
        raise EOFError

    monkeypatch.setattr(mizerka.terminal, "_read_line", read)
    monkeypatch.setattr(mizerka.tui.remote, "_stdin_is_terminal", lambda: True)
    result = CliRunner().invoke(cli, ["play", "--connect", url, "--plain", "--ascii", "--name", "Ola"])
    assert result.exit_code == 1, result.output
    assert "Input ended: you leave the table before its match began." in result.output
    assert "Traceback" not in result.output


# -- who sits down after fill ----------------------------------------------------------------------------------------

HUMANS = [{"kind": "human"}] * 3


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
