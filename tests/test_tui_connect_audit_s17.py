"""The terminal client of a server's table against what a server or another player may send (audit, session 17).

Names and chat are what people typed: they are text in the full-screen game, never markup or an action.  A server
that sends something this client cannot read ends the game with a message that says so, never a traceback or a
silent stall.  A client away during an undo shows what it missed; tricks keep their numbers after an undo; chat is
never sent twice; two games at one computer keep each other's seats.  Some tests use a real server on 127.0.0.1,
others a small fake websocket server that sends chosen frames.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing
import re
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the --connect tests need a server: the 'server' extra (pip install -e '.[dev]')")
pytest.importorskip("websockets", reason="--connect needs the 'tui' extra (pip install -e '.[dev]')")
pytest.importorskip("textual", reason="the full-screen game needs the 'tui' extra")

import click
from click.testing import CliRunner
from websockets.sync.server import ServerConnection, serve

from mizerka.cli import cli
from mizerka.terminal import QuitGame
from mizerka.tui.remote import HeldSeat, RemoteError, RemoteLineGame, RemoteTable, SeatBook, parse_invite
from mizerka.tui.remote_app import RemoteApp

sys.path.insert(0, str(Path(__file__).parent / "server"))
from server_helpers import ThreadServer

from test_tui_connect import BOTS, make_table, start_server
from test_tui_connect_undo import act_until, our_cards_played, seated, second_connection
from tui_helpers import logged, pause_until

TWO_HUMANS = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "rules"}]

VIEW: dict[str, Any] = {
    "table": "T1", "seat": 0, "status": "waiting", "variant": "standard,contracts=NT", "seq": 1, "n_deals": 3,
    "deal_no": 1, "players": [{"seat": i, "name": n, "kind": "human", "open": False} for i, n in enumerate("ABC")],
    "options": {"chat": True, "hints": False}, "your_turn": False, "roles": {}, "totals": [0, 0, 0], "legal": [],
    "hand": [], "trick": None, "last_trick": None, "phase": "waiting", "dealer": None, "to_move": None,
    "contract": None, "exchange_counts": [None] * 3, "talon_size": 0, "shown_card": None, "hand_sizes": [0] * 3,
    "tricks_won": [0] * 3, "quotas": {}, "tricks_played": 0, "score_sheet": [], "allowed_contracts": [],
    "discards": [], "drawn": [], "deal_scores": None, "used": [[], [], []],
}
"""A waiting table's view, as a fake server sends it."""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ThreadServer]:
    server = start_server(tmp_path)
    yield server
    server.stop()


@contextlib.contextmanager
def fake_server(handler: Callable[[ServerConnection], None]) -> Iterator[str]:
    """A websocket server on 127.0.0.1 running *handler* for each connection; yields its invite link."""
    with serve(handler, "127.0.0.1", 0) as websocket_server:
        threading.Thread(target=websocket_server.serve_forever, daemon=True).start()
        yield f"http://127.0.0.1:{websocket_server.socket.getsockname()[1]}/?table=T1"
        websocket_server.shutdown()


def answering_hello(frames: Callable[[dict[str, Any]], list[Any]]) -> Callable[[ServerConnection], None]:
    """A handler that answers ``hello`` with *frames(hello)* (text as it is, anything else as JSON)."""
    def handler(ws: ServerConnection) -> None:
        for raw in ws:
            message = json.loads(raw)
            if message.get("type") == "hello":
                for frame in frames(message):
                    ws.send(frame if isinstance(frame, str) else json.dumps(frame))
    return handler


def welcome(hello: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {"type": "welcome", "id": hello["id"], "seq": 1, "epoch": 0, "view": VIEW, "events": [], "chat": [],
            **fields}


def connected(url: str) -> RemoteTable:
    table = RemoteTable(parse_invite(url), timeout=5)
    table.seat, table.token = 0, "token"
    table.connect()
    return table


# -- names and chat are text ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["Evil[/b]", "[@click=app.quit]Evil[/]", "back\\", "[b]x"])
def test_another_players_name_is_text_in_the_full_screen_game(server: ThreadServer, name: str) -> None:
    """A name with markup in it crashed the app ("Evil[/b]": a closing tag that matches nothing) or became an
    action ("[@click=app.quit]"); it is written as typed."""
    url = make_table(server, TWO_HUMANS)
    app = RemoteApp(seated(url, "Ola"))

    async def play() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause(0.2)
            other = seated(url, name)  # the second human sits down: the match begins
            await pause_until(pilot, lambda: "match begins" in logged(app))
            await pilot.pause(0.3)
            assert f"The match begins: Ola, {name}, " in logged(app), logged(app)
            other.close()
            await pilot.press("x")

    asyncio.run(play())
    assert app.failure is None
    app.table.close()


def test_chat_ending_in_backslashes_is_shown_as_typed() -> None:
    texts = ["path C:\\dir\\\\", "shrug \\\\\\", "[red]not red[/red]"]
    chat = [{"type": "chat", "seq": i + 1, "seat": 1, "name": "B", "text": t} for i, t in enumerate(texts)]
    with fake_server(answering_hello(lambda hello: [welcome(hello, chat=chat)])) as url:
        app = RemoteApp(connected(url))

        async def look() -> None:
            async with app.run_test(size=(150, 40)) as pilot:
                await pilot.pause(0.4)
                shown = [line for line in logged(app).splitlines() if line.startswith("B: ")]
                assert shown == [f"B: {t}" for t in texts]
                await pilot.press("x")

        asyncio.run(look())
        app.table.close()


# -- what a server sends that this client cannot read ----------------------------------------------------------


@pytest.mark.parametrize(("frames", "said"), [
    (lambda hello: ["this is not json"], "not JSON"),
    (lambda hello: [{"type": "welcome", "id": hello["id"], "seq": 1}], "cannot read"),
    (lambda hello: [{"id": hello["id"]}], "without a type"),
    (lambda hello: [welcome(hello, seq="x")], "cannot read"),
], ids=["not-json", "no-view", "no-type", "bad-seq"])
def test_a_message_this_client_cannot_read_is_an_error_that_says_so(
        frames: Callable[[dict[str, Any]], list[Any]], said: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Each of these ended ``play --connect`` with a traceback (JSONDecodeError, KeyError, ValueError)."""
    monkeypatch.setenv("MIZERKA_DATA_DIR", str(tmp_path))
    with fake_server(answering_hello(frames)) as url:
        SeatBook.default().put(parse_invite(url), HeldSeat(seat=0, name="Guest", token="token"))  # a seat held
        result = CliRunner().invoke(cli, ["play", "--connect", url, "--plain"], input="quit\n")
        assert result.exit_code == 1 and isinstance(result.exception, SystemExit), (result.output, result.exception)
        assert said in result.output and "Traceback" not in result.output, result.output


def test_the_full_screen_game_stops_with_a_message_when_it_cannot_read_the_server() -> None:
    """One malformed event killed the reader thread silently: the game went on showing a table that never moved."""
    def frames(hello: dict[str, Any]) -> list[Any]:
        return [welcome(hello), {"type": "event", "seq": 2}]  # an event without its event

    with fake_server(answering_hello(frames)) as url:
        app = RemoteApp(connected(url))

        async def wait() -> None:
            async with app.run_test(size=(120, 40)) as pilot:
                await pause_until(pilot, lambda: app.failure is not None)

        asyncio.run(wait())
        assert app.failure is not None and "cannot read" in app.failure


@pytest.mark.parametrize("url", ["http://[::1/?table=x", "http://[zz]/?table=x", "http://h/a b/?table=x",
                                 "http://user:secret@h/?table=x"])
def test_a_link_that_is_no_address_is_refused(url: str) -> None:
    """A bracketed address that does not close, a space, a user name and password: each refused with the reason
    (the first two were a traceback; a password would have been kept in the seat book)."""
    with pytest.raises(RemoteError, match="not an invite link") as refused:
        parse_invite(url)
    assert "secret" not in str(refused.value)


# -- an undo, and a connection away meanwhile ----------------------------------------------------------------


def test_a_connection_away_during_an_undo_shows_what_it_missed(server: ThreadServer) -> None:
    """Back after another connection took a card back and played the deal on: the events played meanwhile (the
    rest of the deal, its end, the next deal) were never handed out; the ones it had shown are not shown again."""
    ours = seated(make_table(server, BOTS))
    act_until(ours, lambda t: our_cards_played(t) >= 2 and t.my_turn())
    ours.drain()
    ours.close()
    other = second_connection(ours)
    assert other.undo()["type"] == "snapshot"
    act_until(other, lambda t: t.view.get("deal_no", 0) >= 2 and t.my_turn())
    ours.connect()
    kinds = [e["kind"] for e in ours.drain()]
    assert "deal_end" in kinds and "deal" in kinds
    assert kinds.count("deal") == 1  # the first deal's start, shown before, is not news
    other.close()
    ours.close()


def test_tricks_keep_their_numbers_after_another_connections_undo(server: ThreadServer) -> None:
    """The browser takes a card back and plays on before the terminal writes the news: the tricks it writes
    next were numbered from the latest view, which counted them already ("Trick 4" for the third)."""
    ours = seated(make_table(server, BOTS))
    lines: list[str] = []

    def read(prompt: str) -> str:
        raise QuitGame

    game = RemoteLineGame(ours, read=read, write=lambda text: lines.append(click.unstyle(text)), unicode=False)
    act_until(ours, lambda t: our_cards_played(t) >= 3 and t.my_turn())
    with pytest.raises(QuitGame):
        game.run_remote()  # the news so far is written
    other = second_connection(ours)
    assert other.undo()["type"] == "snapshot"
    after_undo = other.view["tricks_played"]
    act_until(other, lambda t: t.view["tricks_played"] >= after_undo + 1 and t.my_turn())
    while ours.epoch != other.epoch or ours.view["seq"] != other.view["seq"]:
        ours.poll(0.3)
    lines.clear()
    with pytest.raises(QuitGame):
        game.run_remote()
    written = [int(n) for n in re.findall(r"^Trick (\d+):", "\n".join(lines), re.MULTILINE)]
    assert written == list(range(after_undo + 1, other.view["tricks_played"] + 1)), lines
    other.close()
    ours.close()


# -- chat is sent once; seats are kept ----------------------------------------------------------------------


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
