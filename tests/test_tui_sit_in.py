"""A spectator in the terminal sits down (``mizerka play --connect URL --watch``, then ``sit`` or ``i``), against
a real server on 127.0.0.1.

What the browser's spectators have: at a table waiting for players, an open seat; during an
unrated match, a computer player's seat, taken over for the rest of the match.  The game then goes on at that seat
(its hand shown from then on), under ``--name`` or the profile of ``--player-key``, and the seat book remembers it
so that the same link takes the player back.  A seat that is not free, a rated match, a seat taken meanwhile: each
is said in words, and watching goes on.
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

import httpx
from click.testing import CliRunner

import mizerka.terminal
from mizerka.cli import cli
from mizerka.terminal import signed
from mizerka.tui.remote import (
    SIT_NONE,
    RemoteRefused,
    RemoteTable,
    SeatBook,
    SitInAs,
    parse_invite,
    sit_in,
)

sys.path.insert(0, str(Path(__file__).parent / "server"))
from server_helpers import ThreadServer

from test_tui_connect import BOTS, make_table, start_server
from test_tui_connect_undo import seated
from test_tui_connect_watch import watching
from tui_helpers import logged, pause_until


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ThreadServer]:
    server = start_server(tmp_path)
    yield server
    server.stop()


class Playing(threading.Thread):
    """A thread that plays *table*'s seat (once started: keep the hand, the first legal card) to the end of its
    match, or until :meth:`stop`.  An action sent just as another event came (the newcomer's ``seat`` event) is
    refused as stale; the view is read again and the action sent again."""

    def __init__(self, table: RemoteTable, *, until: Callable[[RemoteTable], bool] = lambda table: False) -> None:
        super().__init__(daemon=True)
        self.table = table
        self.until = until  # stop once this is true of the table
        self.done = threading.Event()

    def run(self) -> None:
        table = self.table
        while (not self.done.is_set() and table.view.get("status") in ("waiting", "playing")
               and not self.until(table)):
            if table.my_turn():
                reply = table.act("keep" if table.view["phase"] == "exchange" else table.view["legal"][0])
                assert reply["type"] == "ack" or reply.get("code") == "stale_seq", reply
            table.poll(0.2)

    def stop(self) -> None:
        self.done.set()
        if self.is_alive():
            self.join(10)
        assert not self.is_alive()


def seats_of(server: ThreadServer, url: str) -> list[dict[str, object]]:
    answer = httpx.get(f"{server.url}/api/tables/{parse_invite(url).table}")
    assert answer.status_code == 200
    seats: list[dict[str, object]] = answer.json()["seats"]
    return seats


def test_the_line_game_spectator_sits_in_for_a_computer_player_and_plays_on(
        server: ThreadServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """``sit`` lists the two computer players' seats, ``sit 7`` and ``sit 0`` (a human's) are refused in words,
    ``sit 2`` takes seat 2 over under --name: the line game goes on as that seat (its hand shown), and the seat
    book holds the seat for the link."""
    url = make_table(server, BOTS)
    ola = seated(url, "Ola")  # seat 0: she does not act until the spectator sits down, so the match waits for her
    answers = iter(["sit", "sit 7", "sit 0", "sit 2", "quit"])
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        answer = next(answers)
        if answer == "sit 2":
            ola_plays.start()
        return answer

    ola_plays = Playing(ola)
    monkeypatch.setattr(mizerka.terminal, "_read_line", read)
    result = CliRunner().invoke(cli, ["play", "--connect", url, "--watch", "--name", "Edyta", "--plain", "--ascii"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert prompts[:4] == [""] * 4 and prompts[4], "the seated game asked Edyta for an action"
    assert "Free seats: seat 1: sit in for" in out and "seat 2: sit in for" in out and "Type sit N" in out
    assert "Seat 7 is not free." in out and "Seat 0 is not free." in out
    table = parse_invite(url).table
    assert f"You sat down at seat 2 of table {table} as Edyta" in out
    assert "you are Edyta, seat 2." in out
    assert "You left the table.  Your seat stays yours" in out
    assert "Traceback" not in out
    seats = seats_of(server, url)
    assert seats[2]["name"] == "Edyta" and seats[2]["kind"] == "human" and not seats[2]["takeover"]
    assert seats[1]["takeover"]  # the other computer player's seat is still free to take over
    held = SeatBook.default().get(parse_invite(url))
    assert held is not None and held.seat == 2 and held.name == "Edyta"
    ola_plays.stop()
    ola.close()


def test_sitting_down_at_the_open_seat_of_a_waiting_table_starts_the_match(
        server: ThreadServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """At a table waiting for players, ``sit`` alone takes the only open seat (a guest without --name); it was
    the last one, so the match begins, and the new player is asked for his first action at once."""
    url = make_table(server, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "rules"}])
    ola = seated(url, "Ola")
    ola_plays = Playing(ola)
    answers = iter(["sit", "quit"])

    def read(prompt: str) -> str:
        answer = next(answers)
        if answer == "sit":
            ola_plays.start()
        return answer

    monkeypatch.setattr(mizerka.terminal, "_read_line", read)
    result = CliRunner().invoke(cli, ["play", "--connect", url, "--watch", "--plain", "--ascii"])
    assert result.exit_code == 0, result.output
    assert "Waiting for players (free seat: 1)." in result.output
    assert "you are Guest, seat 1." in result.output
    seats = seats_of(server, url)
    assert seats[1]["name"] == "Guest" and seats[1]["kind"] == "human"
    assert httpx.get(f"{server.url}/api/tables/{parse_invite(url).table}").json()["status"] == "playing"
    ola_plays.stop()
    ola.close()


def test_a_rated_match_has_no_seat_to_sit_down_at(server: ThreadServer, monkeypatch: pytest.MonkeyPatch) -> None:
    keys = []
    for name in ("Ala", "Bolek"):
        claimed = httpx.post(f"{server.url}/api/players", json={"name": name})
        assert claimed.status_code == 201, claimed.text
        keys.append(claimed.json()["key"])
    url = make_table(server, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "rules"}], rated=True)
    players = []
    for key in keys:
        table = RemoteTable(parse_invite(url), timeout=10)
        table.join(None, key)
        table.connect()
        players.append(table)
    answers = iter(["sit", "sit 2", "quit"])
    monkeypatch.setattr(mizerka.terminal, "_read_line", lambda prompt: next(answers))
    result = CliRunner().invoke(cli, ["play", "--connect", url, "--watch", "--plain", "--ascii"])
    assert result.exit_code == 0, result.output
    assert result.output.count(SIT_NONE) == 2
    assert "You stopped watching table" in result.output
    for table in players:
        table.close()


def test_a_seat_taken_meanwhile_is_refused_in_words(server: ThreadServer, tmp_path: Path) -> None:
    """The spectator saw seat 1 free, but someone else sat down there first: :func:`sit_in` says so (no advice to
    watch, which the spectator already does), and the seat book gets nothing."""
    url = make_table(server, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "rules"}])
    ola = seated(url, "Ola")
    spectator = watching(url)
    assert spectator.free_seats() == [(1, False)]
    bolek = seated(url, "Bolek")
    book = SeatBook(tmp_path / "seats.json")
    with pytest.raises(RemoteRefused) as refused:
        sit_in(spectator, 1, SitInAs("Edyta", None, book))
    assert "seat 1 is not free any more" in str(refused.value) and "--watch" not in str(refused.value)
    assert book.get(spectator.invite) is None
    for table in (ola, bolek, spectator):
        table.close()


def test_the_full_screen_spectator_sits_in_with_i(server: ThreadServer, tmp_path: Path) -> None:
    """Full screen: the status line offers ``i``; it opens the choice of seats, a seat's number takes it, and the app
    closes with the seat's connection (which sees its hand), as ``mizerka play`` then opens the game there."""
    pytest.importorskip("textual", reason="the full-screen game needs the 'tui' extra")
    from textual.widgets import Static

    from mizerka.tui.remote_app import RemoteApp, SitDialog

    url = make_table(server, BOTS)
    ola = seated(url, "Ola")
    book = SeatBook(tmp_path / "seats.json")
    app = RemoteApp(watching(url), sit_as=SitInAs("Edyta", None, book))

    async def sit() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pause_until(pilot, lambda: app.table.view.get("status") == "playing", tries=60)
            await pilot.pause(0.3)
            status = str(app.query_one("#status", Static).render())
            assert "Press i to sit in for a computer player" in status
            await pilot.press("i")
            await pause_until(pilot, lambda: isinstance(app.screen, SitDialog))
            assert isinstance(app.screen, SitDialog)
            assert [seat for seat, _ in app.screen.choices] == [1, 2]
            await pilot.press("1")
            await pause_until(pilot, lambda: app.seated is not None, tries=100)

    asyncio.run(sit())
    assert app.failure is None
    assert app.seated is not None and app.seated.seat == 1 and not app.seated.spectator
    assert app.seated.view["hand"], "the seat's own connection shows its hand"
    assert app.table.view["hand"] == [] or not app.table.view.get("hand")
    held = book.get(parse_invite(url))
    assert held is not None and held.seat == 1 and held.name == "Edyta"
    app.seated.close()
    app.table.close()
    ola.close()


def test_a_seated_player_pressing_i_is_told_he_holds_a_seat(server: ThreadServer) -> None:
    pytest.importorskip("textual", reason="the full-screen game needs the 'tui' extra")
    from mizerka.tui.remote_app import RemoteApp

    url = make_table(server, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "rules"}])
    app = RemoteApp(seated(url, "Ola"), sit_as=SitInAs(None, None, SeatBook.default()))  # waiting: no dialog open

    async def press() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause(0.3)
            await pilot.press("i")
            await pause_until(pilot, lambda: "You hold a seat at this table already." in logged(app), tries=40)
            assert "You hold a seat at this table already." in logged(app)
            await pilot.press("x")

    asyncio.run(press())
    assert app.seated is None
    app.table.close()


def test_the_scores_panel_says_from_which_deal_a_newcomer_plays(server: ThreadServer) -> None:
    """Someone takes seat 2 over from the computer: he plays on with the seat's total, and the scores panel (here a
    spectator's) says from which deal he plays it."""
    pytest.importorskip("textual", reason="the full-screen game needs the 'tui' extra")
    from textual.widgets import Static

    from mizerka.tui.remote_app import RemoteApp

    url = make_table(server, BOTS)
    ola = seated(url, "Ola")
    app = RemoteApp(watching(url))
    taken = httpx.post(f"{server.url}/api/tables/{parse_invite(url).table}/join", json={"name": "Edyta", "seat": 2})
    assert taken.status_code == 200, taken.text

    async def look() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            def scores() -> str:
                return str(app.query_one("#scores", Static).render())

            await pause_until(pilot, lambda: "Edyta plays from deal 1" in scores(), tries=60)
            assert "Edyta plays from deal 1" in scores() and "Ola plays" not in scores()
            await pilot.press("x")

    asyncio.run(look())
    app.table.close()
    ola.close()


def test_a_newcomer_after_the_first_deal_is_told_the_total_he_plays_on_with(
        server: ThreadServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ola plays the first deal with the two computer players and stops in the second; the spectator then sits in
    for Bot 3, and is told the seat's total so far, which is his from now on.  Ola plays on once he holds it."""
    url = make_table(server, BOTS)
    ola = seated(url, "Ola")
    first_deal = Playing(ola, until=lambda table: table.view["deal_no"] >= 2)
    rest = Playing(ola)
    answers = iter(["sit 2", "quit"])
    seen: list[int] = []

    def read(prompt: str) -> str:
        answer = next(answers)
        if answer == "sit 2":
            first_deal.start()
            first_deal.join(60)
            assert not first_deal.is_alive(), "the first deal was not played"
            spectator = watching(url)  # the match waits for Ola in deal 2: the seat's total stays as it is
            seen.append(spectator.view["totals"][2])
            spectator.close()
            threading.Thread(target=lambda: (pause_for(lambda: seats_of(server, url)[2]["name"] == "Edyta"),
                                             rest.start()), daemon=True).start()
        return answer

    monkeypatch.setattr(mizerka.terminal, "_read_line", read)
    result = CliRunner().invoke(cli, ["play", "--connect", url, "--watch", "--name", "Edyta", "--plain", "--ascii"])
    assert result.exit_code == 0, result.output
    assert seats_of(server, url)[2]["since_deal"] == 2
    assert f"You play on with the seat's total so far, {signed(seen[0])}." in result.output
    rest.stop()
    ola.close()


def pause_for(ready: Callable[[], bool]) -> None:
    """Wait (up to 30 s) until *ready()*."""
    for _ in range(300):
        if ready():
            return
        time.sleep(0.1)
    raise AssertionError("not reached")
