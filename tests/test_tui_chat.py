"""Table chat in the terminal client (``mizerka play --connect``), against a real server on 127.0.0.1.

The line game shows what the others said (``Bolek: good luck!``, presets in English) and sends with ``say TEXT``;
the full-screen game writes chat into its log, as text (never as markup), and sends from its chat dialog (``!``),
driven here through Textual's pilot.
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
from tui_helpers import pause_until

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
            await pause_until(pilot, lambda: "well played" in log_text(app))
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


# -- sending from the full-screen game ------------------------------------------------------------------------

THREE_HUMANS = [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}]


def full_screen_pair(server: ThreadServer, **options: Any) -> tuple[Any, RemoteTable, RemoteTable]:
    """Ola (the full-screen game) and Bolek (a bare RemoteTable) at a table of three humans, the third seat left
    free: the match waits for it, so no contract dialog opens over the chat while the test types."""
    from mizerka.tui.remote_app import RemoteApp

    invite = parse_invite(make_table(server, seats=THREE_HUMANS, **options))
    ola, bolek = RemoteTable(invite), RemoteTable(invite)
    ola.join("Ola")
    ola.connect()
    bolek.join("Bolek")
    bolek.connect()
    return RemoteApp(ola), ola, bolek


async def heard(pilot: Any, table: RemoteTable, count: int) -> list[str]:
    """Read *table*'s server in small steps, the app running meanwhile, until *count* chat messages came."""
    got: list[dict[str, Any]] = []
    for _ in range(200):
        table.poll(0.01)
        got += table.drain_chat()
        if len(got) >= count:
            return [chat_line(m, table.seat) for m in got]
        await pilot.pause(0.02)
    raise AssertionError(f"only {len(got)} chat messages arrived: {got}")


async def logged_soon(pilot: Any, app: Any, text: str) -> str:
    """The log once it holds *text* (or after 5 s: the caller's assertion says what is missing)."""
    for _ in range(100):
        if text in log_text(app):
            break
        await pilot.pause(0.05)
    return log_text(app)


def notices(app: Any) -> list[str]:
    return [str(n.message) for n in app._notifications]


def run_app(app: Any, ola: RemoteTable, bolek: RemoteTable, script: Any) -> None:
    import asyncio

    async def run() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause(0.2)
            await script(pilot)
            await pilot.press("x")

    try:
        asyncio.run(run())
        assert app.failure is None
    finally:
        ola.close()
        bolek.close()


def test_the_full_screen_game_says_a_typed_line_and_a_preset(server: ThreadServer) -> None:
    pytest.importorskip("textual", reason="the full-screen game needs the 'tui' extra")
    from mizerka.tui.remote_app import ChatDialog

    app, ola, bolek = full_screen_pair(server)

    async def script(pilot: Any) -> None:
        await pilot.press("!")
        assert isinstance(app.screen, ChatDialog)
        await pilot.press(*"as dobra gra", "enter")  # a rank and a suit in the line are text, not a card
        assert not isinstance(app.screen, ChatDialog)
        assert await heard(pilot, bolek, 1) == ["Ola: as dobra gra"]
        await pilot.press("!", "tab", "3")  # to the ready phrases; the third is "well played!"
        assert await heard(pilot, bolek, 1) == ["Ola: well played!"]
        await pilot.press("!", "down", "down", "enter")  # ↓ to the list, ↓ to the second phrase, Enter
        assert await heard(pilot, bolek, 1) == ["Ola: good luck!"]
        text = await logged_soon(pilot, app, "You: good luck!")
        # the server's echo of our own message is written once, as ours
        assert [line for line in text.splitlines() if line.startswith("You:")] == \
            ["You: as dobra gra", "You: well played!", "You: good luck!"]
        assert "Not a card" not in text and "Not accepted" not in text

    run_app(app, ola, bolek, script)
    assert [m.get("text") or m.get("preset") for m in ola.chat] == ["as dobra gra", "well_played", "good_luck"]


def test_the_full_screen_game_shows_a_refusal(server: ThreadServer) -> None:
    pytest.importorskip("textual", reason="the full-screen game needs the 'tui' extra")
    from textual.widgets import Input

    from mizerka.tui.remote_app import ChatDialog

    app, ola, bolek = full_screen_pair(server)

    async def script(pilot: Any) -> None:
        await pilot.press("!")
        line = app.screen.query_one(Input)
        line.value = "hi\u200bthere"  # a zero-width space: the server refuses it (chat_bad_char)
        await pilot.press("enter")
        text = await logged_soon(pilot, app, "Not sent:")
        assert "Not sent: the message holds the invisible character U+200B" in text
        assert any(n.startswith("Not sent: the message holds the invisible") for n in notices(app))
        # over the limit: refused here, in the line game's words; the dialog stays open with the text
        await pilot.press("!")
        line = app.screen.query_one(Input)
        line.value = "x" * 201
        await pilot.press("enter")
        assert isinstance(app.screen, ChatDialog) and app.screen.query_one(Input).value == "x" * 201
        assert "Not sent: the message has 201 characters; at most 200 are allowed" in log_text(app)
        await pilot.press("escape")
        assert not isinstance(app.screen, ChatDialog)
        await pilot.press("!", *"ok", "enter")
        assert await heard(pilot, bolek, 1) == ["Ola: ok"]  # nothing else reached Bolek
        assert "You:" not in log_text(app).replace("You: ok", "")

    run_app(app, ola, bolek, script)


def test_escape_closes_the_chat_dialog_without_sending(server: ThreadServer) -> None:
    pytest.importorskip("textual", reason="the full-screen game needs the 'tui' extra")
    from mizerka.tui.app import InfoDialog
    from mizerka.tui.remote_app import ChatDialog

    app, ola, bolek = full_screen_pair(server)

    async def script(pilot: Any) -> None:
        await pilot.press("a", "!", *"secret", "escape")  # "!" after a rank: the chat key, not a wrong suit
        assert not isinstance(app.screen, ChatDialog)
        assert "Not a card" not in log_text(app)
        await pilot.press("!", "tab", "!")  # from the list too; "!" there opens no second dialog
        assert isinstance(app.screen, ChatDialog) and len(app.screen_stack) == 2
        await pilot.press("escape")
        assert not isinstance(app.screen, ChatDialog)
        await pilot.press("f1", "!")  # over the help page, which is there again after
        assert isinstance(app.screen, ChatDialog)
        await pilot.press("escape")
        assert isinstance(app.screen, InfoDialog)
        await pilot.press("escape")
        await pilot.press("!", "tab", "1")
        assert await heard(pilot, bolek, 1) == ["Ola: hello!"]  # the first to arrive: nothing was sent before

    run_app(app, ola, bolek, script)
    assert [m.get("preset") for m in ola.chat] == ["hello"]


def test_the_chat_key_at_a_table_without_chat(server: ThreadServer) -> None:
    pytest.importorskip("textual", reason="the full-screen game needs the 'tui' extra")
    from mizerka.tui.remote_app import ChatDialog

    app, ola, bolek = full_screen_pair(server, chat=False)

    async def script(pilot: Any) -> None:
        await pilot.press("!")
        assert not isinstance(app.screen, ChatDialog) and len(app.screen_stack) == 1
        assert "This table has no chat (its host turned it off)." in notices(app)
        # refused by the server too, had it been sent (say_preset: the blocking call of the line game's kind)
        assert bolek.say_preset("hello")["code"] == "chat_off"

    run_app(app, ola, bolek, script)


def test_the_chat_opens_over_the_contract_dialog_and_gives_it_back(server: ThreadServer) -> None:
    """At our turn the contract dialog is open: ``!`` opens the chat over it, typed ``!`` is text there, and after
    sending the same dialog is back, the question still asked."""
    pytest.importorskip("textual", reason="the full-screen game needs the 'tui' extra")
    from mizerka.tui.app import ContractDialog
    from mizerka.tui.remote_app import RemoteApp

    # seat 0 deals, so Ola (seat 1, the second to join) is forehand and chooses from two contracts
    invite = parse_invite(make_table(server, variant="standard,contracts=NT+MZ,first_dealer=0"))
    bolek = RemoteTable(invite)
    assert bolek.join("Bolek") == 0
    bolek.close()  # gone: a bot plays his seat (grace 0), so the match starts for Ola
    ola = RemoteTable(invite)
    ola.join("Ola")
    ola.connect()
    app = RemoteApp(ola)

    async def script(pilot: Any) -> None:
        for _ in range(100):
            if isinstance(app.screen, ContractDialog):
                break
            await pilot.pause(0.05)
        asking = app.screen
        assert isinstance(asking, ContractDialog), log_text(app)
        await pilot.press("!", *"hi!", "enter")
        assert app.screen is asking
        assert "You: hi!" in await logged_soon(pilot, app, "You: hi!")
        assert ola.my_turn() and app._dialog_open
        await pilot.press("n")  # the dialog still answers: no-trump
        assert "You chose NT" in await logged_soon(pilot, app, "You chose")

    run_app(app, ola, bolek, script)



def test_the_clients_chat_limit_is_the_servers() -> None:
    """The terminal client refuses an over-long line itself (a frame too large gets no answer naming it): with the
    server's own limit, not another."""
    from mizerka.server.chat import MAX_CHAT_CHARS
    from mizerka.tui.remote import CHAT_MAX_CHARS

    assert CHAT_MAX_CHARS == MAX_CHAT_CHARS
