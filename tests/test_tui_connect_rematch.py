"""A rematch from the terminal client of a server's table, against a real server on 127.0.0.1.

Once the match is over, a seated player asks for a rematch (``rematch`` in the line game, ``n`` full screen); the
client says who is still to ask (the ``ack``'s ``waiting``), and when the ``rematch`` event names the new table it
says ``hello`` there with the same token and plays on; the seat book remembers the new table instead of the old.
Refusals (``not_over``, ``server_full``) are said in words.  A player who left a finished match without asking comes
back with the same link: the seat is taken back at the finished table (not refused as stale, nor forgotten; through a
pipe the link is refused for play, but the seat stays in the book), and a chain of rematches is followed to its last
table.
"""

from __future__ import annotations

import asyncio
import re
import sys
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
from mizerka.cards import Card
from mizerka.cli import cli
from mizerka.server.hub import ServerConfig
from mizerka.tui.remote import RemoteLineGame, RemoteTable, SeatBook, parse_invite, take_seat

sys.path.insert(0, str(Path(__file__).parent / "server"))
from server_helpers import ThreadServer

from test_tui_connect import BOTS, make_table, start_server
from tui_helpers import logged, pause_until

TWO_HUMANS = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "rules"}]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ThreadServer]:
    server = start_server(tmp_path)
    yield server
    server.stop()


def answer(prompt: str) -> str:
    """A tidy player's answer to the line game's prompt: the first legal card or contract, keep the hand."""
    prompt = click.unstyle(prompt)
    if "discard" in prompt:
        return "-"
    match = re.search(r"Your card \[([^\]]*)\]", prompt) or re.search(r"\(([A-Z/]+)\)", prompt)
    assert match, prompt
    return match.group(1).replace("/", " ").split()[0]


def play_to_the_end(*tables: RemoteTable) -> None:
    """Play every seat of *tables* (first legal action, keep the hand) until their match is over."""
    for _ in range(2000):
        if all(t.view.get("status") == "finished" and t.current for t in tables):
            return
        acted = False
        for table in tables:
            if table.my_turn():
                view = table.view
                reply = table.act("keep" if view["phase"] == "exchange" else view["legal"][0])
                assert reply["type"] == "ack", reply
                acted = True
        if not acted:
            for table in tables:
                table.poll(0.02)
    raise AssertionError("the match did not end")


def test_the_line_game_plays_a_rematch_at_the_new_table(server: ThreadServer, tmp_path: Path) -> None:
    """``rematch`` before the end is refused in words (not_over); after it, the one human at a table of bots is
    the only one to ask: the new table is made at once, the game moves there and plays its match; the seat book
    holds the new table, and the old link is stale for it."""
    url = make_table(server, BOTS)
    invite = parse_invite(url)
    book = SeatBook(tmp_path / "seats.json")
    table = RemoteTable(invite, timeout=10)
    assert take_seat(table, book, "Ola") == (0, False)
    lines: list[str] = []
    after: list[str] = []
    asked_early = False

    def read(prompt: str) -> str:
        nonlocal asked_early
        if prompt.startswith("After the match"):
            after.append(prompt)
            return "rematch" if len(after) == 1 else "quit"
        if not asked_early and "Your card" in click.unstyle(prompt):
            asked_early = True
            return "rematch"
        return answer(prompt)

    game = RemoteLineGame(table, read=read, write=lambda text: lines.append(click.unstyle(text)), unicode=False,
                          ask_after_match=True, poll=0.05)
    final = game.run_remote()
    out = "\n".join(lines)
    assert "No rematch yet: a rematch can be asked for once the match is over." in out
    new = table.invite.table
    assert new != invite.table and final["table"] == new and final["status"] == "finished"
    assert f"Every player asked for a rematch: a new match with the same players, at table {new}." in out
    assert f"You are at table {new} now (its invite link: {server.url}/?table={new})." in out
    assert out.count("The match begins") == 2 and out.count("=== Deal 1 of 3") == 2 and len(after) == 2
    assert table.seat == 0 and final["seat"] == 0
    held = book.get(table.invite)
    assert held is not None and held.seat == 0 and held.token == table.token and book.get(invite) is None
    table.close()


def test_the_old_link_takes_a_seat_back_at_the_rematch(server: ThreadServer, tmp_path: Path) -> None:
    """A player who quit after asking comes back with the old link (the book still holds it): the seat is taken at
    the rematch's table, and the book learns it."""
    url = make_table(server, BOTS)
    invite = parse_invite(url)
    book = SeatBook(tmp_path / "seats.json")
    table = RemoteTable(invite, timeout=10)
    take_seat(table, book, "Ola")
    play_to_the_end(table)
    table.book = None  # as if the game had stopped before it could move (the book keeps the old table)
    assert table.rematch()["type"] == "ack"
    new = table.rematch_target()
    assert new is not None
    table.close()
    again = RemoteTable(invite, timeout=10)
    assert take_seat(again, book, None) == (0, True)
    assert again.invite.table == new and again.view["table"] == new and again.view["status"] == "playing"
    assert again.drain() and all(e["seq"] <= again.seq for e in again.events)
    assert book.get(invite) is None and book.get(again.invite) is not None
    again.close()


def ola_on_the_full_screen(server: ThreadServer) -> tuple[Any, RemoteTable, RemoteTable]:
    """Ola (seat 0) and Ala (seat 1), connected, at a table of two humans and a bot whose match is over, and Ola's
    full-screen game (not run yet)."""
    pytest.importorskip("textual", reason="the full-screen game needs the 'tui' extra")
    from mizerka.tui.remote_app import RemoteApp

    url = make_table(server, TWO_HUMANS)
    ola, ala = (RemoteTable(parse_invite(url), timeout=10) for _ in range(2))
    assert ola.join("Ola") == 0 and ala.join("Ala") == 1
    ola.connect()
    ala.connect()
    play_to_the_end(ola, ala)
    return RemoteApp(ola), ola, ala


def test_a_rematch_waits_for_every_player_and_says_who(server: ThreadServer) -> None:
    """Two humans: the first to ask is told who is still to ask (full screen, ``n``); when the second asks, both
    move to the new table with their seats."""
    app, ola, ala = ola_on_the_full_screen(server)

    async def rematch() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause(0.3)
            assert "Press n for a rematch" in str(app.query_one("#status").render())
            await pilot.press("n")
            await pause_until(pilot, lambda: "has not asked yet" in logged(app), tries=60)
            assert "You asked for a rematch; Ala (seat 1) has not asked yet." in logged(app), logged(app)
            reply = ala.rematch()
            assert reply["type"] == "ack" and reply["table"] is not None and reply["waiting"] == []
            for _ in range(100):
                await pilot.pause(0.05)
                if "You are at table" in logged(app) and ola.view.get("table") == reply["table"]:
                    break
            log = " ".join(logged(app).split())  # the log's lines wrapped at the screen's width
            assert f"at table {reply['table']}." in log and f"You are at table {reply['table']} now" in log
            assert ola.view["seat"] == 0 and ola.view["status"] == "playing"
            assert log.count("The match begins") == 2, log
            await pilot.press("x")

    asyncio.run(rematch())
    assert app.failure is None
    ala.follow_rematch()
    assert ala.invite.table == ola.invite.table and ala.view["seat"] == 1
    ola.close()
    ala.close()


def poll_until(table: RemoteTable, ready: Any, tries: int = 100) -> None:
    """Read *table*'s connection until *ready()* is true (or *tries* reads have passed; the caller asserts)."""
    for _ in range(tries):
        if ready():
            return
        table.poll(0.05)


def test_the_full_screen_game_says_who_asked_for_a_rematch(server: ThreadServer) -> None:
    """Ala asks first: the server's ``rematch_asked`` reaches Ola's full-screen game, whose log and status line say
    "Ala asks for a rematch." by name (once: a later view says the same and is not news); Ola's ``n`` then moves
    both to the new table, as before."""
    app, ola, ala = ola_on_the_full_screen(server)

    async def rematch() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause(0.3)
            assert "asks for a rematch" not in logged(app)
            assert ala.rematch()["waiting"] == [0]
            await pause_until(pilot, lambda: "Ala asks for a rematch." in logged(app), tries=60)
            assert "Ala asks for a rematch.  Press n to ask too." in logged(app), logged(app)
            status = str(app.query_one("#status").render())
            assert "Ala asks for a rematch." in status and "Press n for a rematch" in status, status
            app.update()  # nothing new: said once
            assert logged(app).count("Ala asks for a rematch.") == 1
            await pilot.press("n")
            await pause_until(pilot, lambda: "You are at table" in logged(app), tries=100)
            assert ola.view["status"] == "playing" and ola.view["seat"] == 0, logged(app)
            assert "asks for a rematch" not in str(app.query_one("#status").render())
            await pilot.press("x")

    asyncio.run(rematch())
    assert app.failure is None
    ola.close()
    ala.close()


def test_the_others_learn_who_asked_for_a_rematch(server: ThreadServer) -> None:
    """Three humans.  Ola asks first and waits in the line game; Ala's wish reaches her (the server's
    ``rematch_asked`` updates the finished table's view: both seats) and she reads "Ala asks for a rematch.", not a
    forgotten wish of her own (nothing is asked again); Cezary's line game, whose turn to ask it is, reads both names.
    A spectator who comes now learns it from the welcome's view."""
    url = make_table(server, [{"kind": "human"}] * 3)
    ola, ala, cezary = (RemoteTable(parse_invite(url), timeout=10) for _ in range(3))
    assert ola.join("Ola") == 0 and ala.join("Ala") == 1 and cezary.join("Cezary") == 2
    for table in (ola, ala, cezary):
        table.connect()
    play_to_the_end(ola, ala, cezary)
    assert ola.drain_rematch_asked() == [] and cezary.drain_rematch_asked() == []
    assert ola.rematch()["waiting"] == [1, 2]
    asked_view = ola.view
    assert ala.rematch()["waiting"] == [2]
    poll_until(ola, lambda: ola.view.get("rematch_asked") == [0, 1])
    assert ola.view["rematch_asked"] == [0, 1] and not ola.rematch_lost(asked_view)
    assert ola.drain_rematch_asked() == [1] and ola.drain_rematch_asked() == []  # never our own seat; said once
    poll_until(cezary, lambda: cezary.view.get("rematch_asked") == [0, 1])
    lines: list[str] = []
    game = RemoteLineGame(cezary, read=lambda prompt: "quit", write=lambda t: lines.append(click.unstyle(t)),
                          unicode=False)
    game.report_news()
    assert "Ola and Ala ask for a rematch." in lines, lines
    watcher = RemoteTable(parse_invite(url), timeout=10)
    watcher.connect()
    assert watcher.spectator and watcher.drain_rematch_asked() == [0, 1]
    for table in (ola, ala, cezary, watcher):
        table.close()


def test_a_full_server_refuses_the_rematch_in_words(tmp_path: Path) -> None:
    config = ServerConfig(database=f"sqlite:///{tmp_path / 'server.sqlite3'}", bot_delay=0.0, web_dir=None,
                          rate=1000.0, burst=1000.0, max_tables=1)
    server = ThreadServer(config).start()
    try:
        url = make_table(server, BOTS)
        table = RemoteTable(parse_invite(url), timeout=10)
        table.join("Ola")
        table.connect()
        play_to_the_end(table)
        lines: list[str] = []
        answers = iter(["sheet", "dance", "rematch", "quit"])
        game = RemoteLineGame(table, read=lambda prompt: next(answers), write=lambda t: lines.append(click.unstyle(t)),
                              unicode=False, ask_after_match=True)
        final: dict[str, Any] = game.run_remote()
        out = "\n".join(lines)
        assert "No rematch for now: the server keeps as many tables as it may; ask again in a while." in out
        assert "Type rematch, sheet, say TEXT or quit" in out and "deal  contract" in out
        assert final["table"] == parse_invite(url).table and table.rematch_target() is None
        table.close()
    finally:
        server.stop()


def test_the_line_game_ends_at_the_match_end_without_a_terminal(server: ThreadServer,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Through a pipe (answers from a file or a script) the game does not ask about a rematch: it ends, as before."""
    url = make_table(server, BOTS)
    monkeypatch.setattr(mizerka.terminal, "_read_line", answer)
    result = CliRunner().invoke(cli, ["play", "--connect", url, "--plain", "--ascii", "--name", "Ola"])
    assert result.exit_code == 0, result.output
    assert "The match is over." in result.output and "After the match" not in result.output


# -- back at a finished match for its rematch ------------------------------------------------------------------------


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


def test_a_player_who_leaves_the_finished_match_is_said_to_have_left(server: ThreadServer) -> None:
    """Ala gave her seat up once the match was over: Ola's screen said a bot played for her "while they are away",
    as it does for a player gone during the match.  It says she has left the table, in both games."""
    app, ola, ala = ola_on_the_full_screen(server)
    lines: list[str] = []
    line_game = RemoteLineGame(ola, read=lambda prompt: "quit", write=lambda text: lines.append(click.unstyle(text)),
                               unicode=False)

    async def leave() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause(0.3)
            left = httpx.post(f"{server.url}/api/tables/{ala.invite.table}/leave", json={"token": ala.token})
            assert left.status_code == 200, left.text
            await pause_until(pilot, lambda: "has left the table" in logged(app), tries=60)
            log = " ".join(logged(app).split())
            assert "Ala has left the table." in log and "while they are away" not in log, log

    asyncio.run(leave())
    seat_event = {"kind": "seat", "seat": 1, "name": "Ala", "seat_kind": "human", "bot": None, "open": False,
                  "standin": False, "left": True}
    line_game.report_event(seat_event)
    assert lines == ["Ala has left the table."], lines
    ola.close()
    ala.close()


def test_the_server_games_table_shows_the_trick_just_taken(server: ThreadServer) -> None:
    """The table panel of a server's game emptied with a trick's third card (here the match's last trick): the
    trick stays on it, dimmed, with who took it, until the next card is led."""
    app, ola, ala = ola_on_the_full_screen(server)
    last = ola.view["last_trick"]
    assert last is not None and ola.view["trick"] is None

    async def look() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause(0.3)
            rows = str(app.query_one("#table").render()).splitlines()
            assert len(rows) == 3 and " (led)" in rows[0], rows
            for row, seat, card in zip(rows, last["seats"], last["cards"], strict=True):
                assert app.name_of(seat) in row and Card.from_str(card).unicode() in row, rows
                assert (f"← took trick {ola.view['tricks_played']}" in row) == (seat == last["winner"]), rows

    asyncio.run(look())
    ola.close()
    ala.close()
