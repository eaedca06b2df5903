"""Table chat in the terminal client (``mizerka play --connect``), against a real server on 127.0.0.1.

The line game shows what the others said (``Bolek: good luck!``, presets in English) and sends with ``say TEXT``;
the full-screen game writes chat into its log, as text (never as markup).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the --connect tests need a server: the 'server' extra (pip install -e '.[dev]')")
pytest.importorskip("websockets", reason="--connect needs the 'tui' extra (pip install -e '.[dev]')")

import httpx
from click.testing import CliRunner

import mizerka.terminal
from mizerka.cli import cli
from mizerka.server.hub import ServerConfig
from mizerka.tui.remote import RemoteTable, chat_line, parse_invite

sys.path.insert(0, str(Path(__file__).parent / "server"))
from server_helpers import ThreadServer

from tui_helpers import logged as log_text

TWO_HUMANS = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ThreadServer]:
    # grace 0: a human who is gone is played by a bot at once, so the match never waits for the test's second seat
    config = ServerConfig(database=f"sqlite:///{tmp_path / 'server.sqlite3'}", bot_delay=0.0, web_dir=None,
                          rate=1000.0, burst=1000.0, grace=0.0, dd_limit=0.0, gc_freeze=False)
    server = ThreadServer(config).start()
    yield server
    server.stop()


def make_table(server: ThreadServer, **options: Any) -> str:
    answer = httpx.post(server.url + "/api/tables", json={"variant": "standard,contracts=NT", "seats": TWO_HUMANS,
                                                          "visibility": "private", **options})
    assert answer.status_code == 201, answer.text
    return f"{server.url}{answer.json()['invite']}"


def chat_until(table: RemoteTable, count: int) -> list[dict[str, Any]]:
    """Read the server until *count* chat messages have arrived at *table*; return them."""
    got: list[dict[str, Any]] = []
    for _ in range(200):
        got += table.drain_chat()
        if len(got) >= count:
            return got
        table.poll(0.05)
    raise AssertionError(f"only {len(got)} chat messages arrived")


def test_two_remote_tables_talk(server: ThreadServer) -> None:
    invite = parse_invite(make_table(server))
    ala, bolek = RemoteTable(invite), RemoteTable(invite)
    try:
        ala.join("Ala")
        ala.connect()
        bolek.join("Bolek")
        bolek.connect()
        assert ala.chat_on() and bolek.chat_on()
        mine = ala.say("  dzień dobry  ")
        assert mine["type"] == "chat" and mine["text"] == "dzień dobry"
        assert bolek.request({"type": "chat", "preset": "good_luck"})["preset"] == "good_luck"
        heard = chat_until(ala, 2)
        assert [chat_line(m, ala.seat) for m in heard] == ["You: dzień dobry", "Bolek: good luck!"]
        assert [chat_line(m) for m in chat_until(bolek, 2)] == ["Ala: dzień dobry", "Bolek: good luck!"]
        refused = ala.say("x" * 201)
        assert refused["type"] == "error" and refused["code"] == "chat_too_long"
        # back after a drop: the welcome's history does not repeat what was shown
        ala.drop()
        for _ in range(40):
            if ala.reconnects:
                break
            ala.poll(0.05)
        assert ala.reconnects == 1 and ala.drain_chat() == [] and len(ala.chat) == 2
    finally:
        ala.close()
        bolek.close()


def test_the_line_game_shows_chat_and_says(server: ThreadServer, monkeypatch: pytest.MonkeyPatch) -> None:
    url = make_table(server)
    bolek = RemoteTable(parse_invite(url))
    bolek.join("Bolek")
    bolek.connect()
    assert bolek.request({"type": "chat", "preset": "good_luck"})["type"] == "chat"
    bolek.close()  # gone before the match starts: a bot plays his seat (grace 0)
    answers = iter(["say Dzień dobry!", "say " + "x" * 201, "say", "quit"])
    monkeypatch.setattr(mizerka.terminal, "_read_line", lambda prompt: next(answers))
    result = CliRunner().invoke(cli, ["play", "--connect", url, "--plain", "--ascii", "--name", "Ola"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Bolek: good luck!" in out  # said before Ola came: the history
    assert "You: Dzień dobry!" in out
    assert "Not sent: the message has 201 characters" in out and "Say what?" in out
    assert out.index("Bolek: good luck!") < out.index("You: Dzień dobry!")
    # the server relayed it as text, to whoever is at the table
    watcher = RemoteTable(parse_invite(url))
    try:
        watcher.connect()
        assert [m.get("text") for m in watcher.chat] == [None, "Dzień dobry!"]
    finally:
        watcher.close()


def test_the_line_game_at_a_table_without_chat(server: ThreadServer, monkeypatch: pytest.MonkeyPatch) -> None:
    url = make_table(server, chat=False)
    bolek = RemoteTable(parse_invite(url))
    bolek.join("Bolek")
    bolek.close()
    answers = iter(["say hello", "quit"])
    monkeypatch.setattr(mizerka.terminal, "_read_line", lambda prompt: next(answers))
    result = CliRunner().invoke(cli, ["play", "--connect", url, "--plain", "--ascii", "--name", "Ola"])
    assert result.exit_code == 0, result.output
    assert "This table has no chat" in result.output


def test_the_full_screen_log_shows_chat_as_text(server: ThreadServer) -> None:
    pytest.importorskip("textual", reason="the full-screen game needs the 'tui' extra")
    import asyncio

    from mizerka.tui.remote_app import RemoteApp

    invite = parse_invite(make_table(server))
    ola, bolek = RemoteTable(invite), RemoteTable(invite)
    ola.join("Ola")
    ola.connect()
    bolek.join("Bolek")
    bolek.connect()
    app = RemoteApp(ola)

    async def run() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause(0.2)
            assert bolek.request({"type": "chat", "text": "[bold]not markup[/bold] \\"})["type"] == "chat"
            assert bolek.request({"type": "chat", "preset": "well_played"})["type"] == "chat"
            for _ in range(100):
                await pilot.pause(0.05)
                if "well played" in log_text(app):
                    break
            text = log_text(app)
            assert "Bolek: [bold]not markup[/bold] \\" in text and "Bolek: well played!" in text
            await pilot.press("x")

    try:
        asyncio.run(run())
        assert app.failure is None
    finally:
        ola.close()
        bolek.close()


def test_a_long_say_is_refused_here_and_the_game_goes_on(server: ThreadServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """A text far over the limit would make a frame the server refuses without naming the request: the client
    refuses it itself (before, the game waited 10 s for an answer and ended)."""
    url = make_table(server)
    bolek = RemoteTable(parse_invite(url))
    bolek.join("Bolek")
    bolek.close()  # gone: a bot plays his seat (grace 0), so the match starts for Ola
    answers = iter(["say " + "x" * 5000, "say still here", "quit"])
    monkeypatch.setattr(mizerka.terminal, "_read_line", lambda prompt: next(answers))
    result = CliRunner().invoke(cli, ["play", "--connect", url, "--plain", "--ascii", "--name", "Ola"])
    assert result.exit_code == 0, result.output
    assert "Not sent: the message has 5000 characters; at most 200 are allowed" in result.output
    assert "You: still here" in result.output


def test_the_welcome_history_replaces_the_kept_chat_after_a_server_restart() -> None:
    """The server keeps chat in memory only: after its restart the history is empty and numbers start again at 1.
    New messages must still be shown (before, every message numbered below the last one seen was dropped)."""
    table = RemoteTable(parse_invite("http://127.0.0.1:9/?table=abc"))
    view = {"variant": "standard", "seq": 0}

    def welcome(*history: tuple[int, str]) -> None:
        chat = [{"type": "chat", "seq": seq, "seat": 1, "name": "Bolek", "text": text} for seq, text in history]
        table._handle({"type": "welcome", "seat": 0, "seq": 0, "view": view, "events": [], "chat": chat})

    welcome((1, "old 1"), (2, "old 2"), (3, "old 3"))
    assert [m["text"] for m in table.drain_chat()] == ["old 1", "old 2", "old 3"]
    welcome((2, "old 2"), (3, "old 3"))  # a reconnect: nothing new
    assert table.drain_chat() == []
    welcome()  # the server restarted
    table._handle({"type": "chat", "seq": 1, "seat": 1, "name": "Bolek", "text": "new 1"})
    assert [m["text"] for m in table.drain_chat()] == ["new 1"]
    welcome((1, "new 1"), (2, "new 2"))  # restarted again meanwhile? only what we had not seen is new
    assert [m["text"] for m in table.drain_chat()] == ["new 2"]
    assert [m["text"] for m in table.chat] == ["new 1", "new 2"]
