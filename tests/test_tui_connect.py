"""``mizerka play --connect URL``: the terminal client of the game server, against a real server on 127.0.0.1.

Each test starts uvicorn in a thread (a temporary SQLite database, bots without delay), makes a table through the
lobby API, and plays it with ``mizerka play --connect <invite link> --plain`` (click's CliRunner, answers chosen
from the prompts) or with :class:`~mizerka.tui.remote.RemoteTable` directly.
"""

from __future__ import annotations

import re
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
from mizerka.rules import STANDARD, Contract
from mizerka.server.hub import ServerConfig
from mizerka.terminal import signed
from mizerka.tui.remote import (
    HeldSeat,
    RemoteError,
    RemoteRefused,
    RemoteTable,
    SeatBook,
    key_fingerprint,
    parse_invite,
    take_seat,
)

sys.path.insert(0, str(Path(__file__).parent / "server"))
from server_helpers import ThreadServer, free_port

from tui_helpers import logged as log_text

VARIANT = "standard,contracts=NT"  # three deals: a whole match stays quick


def start_server(tmp_path: Path) -> ThreadServer:
    """A server on 127.0.0.1 in a thread: a temporary SQLite database, bots without delay, no rate limit."""
    config = ServerConfig(database=f"sqlite:///{tmp_path / 'server.sqlite3'}", bot_delay=0.0, web_dir=None,
                          rate=1000.0, burst=1000.0)
    return ThreadServer(config).start()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ThreadServer]:
    server = start_server(tmp_path)
    yield server
    server.stop()


def make_table(server: ThreadServer, seats: list[dict[str, Any]], variant: str = VARIANT, **options: Any) -> str:
    """A private table through the lobby API; returns its invite link."""
    answer = httpx.post(server.url + "/api/tables",
                        json={"variant": variant, "seats": seats, "visibility": "private", **options})
    assert answer.status_code == 201, answer.text
    return f"{server.url}{answer.json()['invite']}"


BOTS = [{"kind": "human"}, {"kind": "bot", "level": "rules"}, {"kind": "bot", "level": "random"}]


class Player:
    """Answers the line game's prompts from what they offer, with some bad answers first (they must be re-asked)."""

    def __init__(self) -> None:
        self.prompts: list[str] = []
        self.bad_exchange_sent = False
        self.bad_contract_sent = False
        self.bad_card_sent = 0

    def __call__(self, prompt: str) -> str:
        prompt = click.unstyle(prompt)
        self.prompts.append(prompt)
        assert len(self.prompts) < 400, "the game does not move on"
        if "Choose a contract" in prompt:
            if not self.bad_contract_sent:
                self.bad_contract_sent = True
                return "QQ"  # not a contract
            return re.search(r"\(([A-Z/]+)\)", prompt).group(1).split("/")[0]  # type: ignore[union-attr]
        if "discard" in prompt:
            if not self.bad_exchange_sent:
                self.bad_exchange_sent = True
                return "2C 2C 2C 2C 2C 2C 2C 2C 2C 2C 2C 2C 2C 2C"  # not these: more than the talon, repeated
            return "-"
        match = re.search(r"Your card \[([^\]]*)\]", prompt)
        assert match, prompt
        legal = match.group(1).split()
        if self.bad_card_sent == 0:
            self.bad_card_sent = 1
            return "XYZ"  # no card at all
        if self.bad_card_sent == 1:
            self.bad_card_sent = 2
            return "hint"
        return legal[-1]


def test_plays_a_whole_match_in_the_line_game(server: ThreadServer, monkeypatch: pytest.MonkeyPatch) -> None:
    url = make_table(server, BOTS, variant="standard,contracts=NT+MZ")  # six deals: each player chooses twice
    player = Player()
    monkeypatch.setattr(mizerka.terminal, "_read_line", player)
    result = CliRunner().invoke(cli, ["play", "--connect", url, "--plain", "--ascii", "--name", "Ola"])
    lines = result.output.splitlines()
    assert result.exit_code == 0, result.output
    assert "you are Ola, seat 0" in result.output
    assert result.output.count("=== Deal") == 6 and "The match is over." in result.output
    assert result.output.isascii(), [line for line in lines if not line.isascii()]  # --ascii: ASCII only
    # bad answers were refused with the server's reason and asked again
    assert "Not accepted: invalid action 'QQ'" in result.output and player.bad_contract_sent
    assert "Not accepted: invalid exchange" in result.output and player.bad_exchange_sent
    assert "Not accepted: invalid action 'XYZ'" in result.output and "Hint (" in result.output
    assert sum(1 for p in player.prompts if "Choose a contract" in p) == 2  # asked again once
    assert "Your only unused contract" in result.output  # the second choice is forced
    # the server's record agrees: a finished match, Ola in seat 0
    table = parse_invite(url).table
    record = httpx.get(f"{server.url}/api/tables/{table}/record")
    assert record.status_code == 200 and "Ola" in record.text
    assert not any("Traceback" in line for line in lines)
    # the link of a finished match is stale
    again = CliRunner().invoke(cli, ["play", "--connect", url, "--plain"])
    assert again.exit_code == 1 and "stale" in again.output, again.output


def test_the_same_link_takes_you_back_to_your_seat(server: ThreadServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """Quitting keeps the seat; the link brings you back to it (the seat book), not to another free seat."""
    url = make_table(server, BOTS)
    monkeypatch.setattr(mizerka.terminal, "_read_line", lambda prompt: "quit")
    first = CliRunner().invoke(cli, ["play", "--connect", url, "--plain", "--ascii", "--name", "Ola"])
    assert first.exit_code == 0 and "you are Ola, seat 0" in first.output, first.output
    held = SeatBook.default().get(parse_invite(url))
    assert held is not None and held.seat == 0 and held.name == "Ola"
    again = CliRunner().invoke(cli, ["play", "--connect", url, "--plain", "--ascii"])
    assert again.exit_code == 0 and "Back at your seat 0" in again.output and "you are Ola, seat 0" in again.output
    # another name, or --new-seat, asks for another seat instead: during the match of this unrated table, a
    # computer player's, taken over (the book remembers the newest); once none is left, there is no free seat
    for extra, seat in ((["--name", "Ela"], 1), (["--new-seat"], 2)):
        other = CliRunner().invoke(cli, ["play", "--connect", url, "--plain", "--ascii", *extra])
        assert other.exit_code == 0 and f", seat {seat}" in other.output and "Back at" not in other.output, \
            other.output
    newest = SeatBook.default().get(parse_invite(url))
    assert newest is not None and newest.seat == 2 and newest != held
    full = CliRunner().invoke(cli, ["play", "--connect", url, "--plain", "--new-seat"])
    assert full.exit_code == 1 and "no free seat" in full.output, full.output
    assert SeatBook.default().get(parse_invite(url)) == newest


def test_a_seat_you_left_is_forgotten(server: ThreadServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """A remembered token the server no longer honours (the seat was left) is dropped, and a free seat taken."""
    url = make_table(server, BOTS)
    invite = parse_invite(url)
    book = SeatBook.default()
    book.put(invite, HeldSeat(seat=0, name="Guest", token="not-a-token-the-server-gave"))
    monkeypatch.setattr(mizerka.terminal, "_read_line", lambda prompt: "quit")
    result = CliRunner().invoke(cli, ["play", "--connect", url, "--plain", "--ascii"])
    assert result.exit_code == 0 and "Back at" not in result.output and "seat 0" in result.output, result.output
    held = book.get(invite)
    assert held is not None and held.token != "not-a-token-the-server-gave"


def test_new_seat_needs_connect() -> None:
    result = CliRunner().invoke(cli, ["play", "--new-seat", "--plain"])
    assert result.exit_code == 2 and "--new-seat goes with --connect" in result.output


def test_hints_only_where_the_table_gives_them(server: ThreadServer, monkeypatch: pytest.MonkeyPatch) -> None:
    url = make_table(server, BOTS, hints=False)
    asked: list[str] = []

    def read(prompt: str) -> str:
        asked.append(prompt)
        if len(asked) == 1:
            return "hint"
        raise EOFError

    monkeypatch.setattr(mizerka.terminal, "_read_line", read)
    result = CliRunner().invoke(cli, ["play", "--connect", url, "--plain", "--ascii"])
    assert result.exit_code == 1  # the input ended
    assert "This table gives no hints" in result.output and len(asked) == 2


@pytest.mark.parametrize("url, message", [
    ("127.0.0.1:1/?table=x", "does not start with http"),
    ("http://127.0.0.1:1/", "has no '?table=ID'"),
    ("http://127.0.0.1:99999/?table=x", "bad port"),
])
def test_a_bad_link_is_refused(url: str, message: str) -> None:
    result = CliRunner().invoke(cli, ["play", "--connect", url, "--plain"])
    assert result.exit_code == 2 and message in result.output and "Traceback" not in result.output


def test_a_stale_link_or_a_full_table(server: ThreadServer, monkeypatch: pytest.MonkeyPatch) -> None:
    result = CliRunner().invoke(cli, ["play", "--connect", f"{server.url}/?table=nosuchtable", "--plain"])
    assert result.exit_code == 1 and "stale" in result.output and "nosuchtable" in result.output
    url = make_table(server, [{"kind": "human"}] * 3)  # three humans seated: no seat a computer player plays
    for name in ("Ala", "Bolek", "Cezary"):
        taken = httpx.post(f"{server.url}/api/tables/{parse_invite(url).table}/join", json={"name": name})
        assert taken.status_code == 200
    result = CliRunner().invoke(cli, ["play", "--connect", url, "--plain"])
    assert result.exit_code == 1 and "no free seat" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_server_down() -> None:
    url = f"http://127.0.0.1:{free_port()}/?table=abc"
    result = CliRunner().invoke(cli, ["play", "--connect", url, "--plain"])
    assert result.exit_code == 1 and "cannot reach the server" in result.output
    assert isinstance(result.exception, SystemExit)


def test_options_of_a_local_game_do_not_mix_with_connect() -> None:
    result = CliRunner().invoke(cli, ["play", "--connect", "http://127.0.0.1:1/?table=x", "--seed", "3"])
    assert result.exit_code == 2 and "--seed cannot be used with --connect" in result.output


def test_reconnects_after_a_dropped_connection(server: ThreadServer) -> None:
    url = make_table(server, BOTS)
    table = RemoteTable(parse_invite(url), timeout=10)
    assert table.join("Ola") == 0
    table.connect()
    acted = 0
    while acted < 8:
        if table.my_turn():
            view = table.view
            text = view["legal"][0] if view["legal"] else "keep"
            if acted in (2, 5):
                table.drop()  # the network fails just before we act: the action still reaches the table
            reply = table.act(text)
            assert reply["type"] == "ack", reply
            acted += 1
        else:
            before = table.seq
            if acted == 1 and table.reconnects == 0:
                table.drop()  # and while we wait for the others
            table.poll(5)
            assert table.seq >= before
    assert table.reconnects >= 2
    seqs = [e["seq"] for e in table.events]
    assert seqs == list(range(1, len(seqs) + 1))  # no event lost or repeated across the reconnects
    obs = table.observation()
    assert obs.seat == 0 and len(obs.history) >= 1
    table.close()


def test_a_bad_token_is_refused_without_retrying(server: ThreadServer) -> None:
    url = make_table(server, BOTS)
    table = RemoteTable(parse_invite(url), timeout=5)
    table.token = "not-a-token"
    with pytest.raises(RemoteRefused, match="bad_token"):
        table.connect()
    assert isinstance(RemoteRefused("x"), RemoteError)


def seated_app(server: ThreadServer) -> tuple[RemoteTable, Any]:
    """A table against two bots, joined as Ola and connected, with the full-screen app over it."""
    from mizerka.tui.remote_app import RemoteApp

    table = RemoteTable(parse_invite(make_table(server, BOTS)), timeout=10)
    table.join("Ola")
    table.connect()
    return table, RemoteApp(table)


def test_full_screen_plays_a_deal_at_the_server(server: ThreadServer) -> None:
    """The Textual app over a server's table: dialogs, a refused action re-asked, cards by Enter, to a deal's end."""
    pytest.importorskip("textual", reason="the full-screen game needs the 'tui' extra")
    import asyncio

    from mizerka.tui.app import ContractDialog, ExchangeDialog

    table, app = seated_app(server)

    def logged() -> str:
        return log_text(app)

    async def play() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause(0.2)
            from textual.widgets import Static

            scores = str(app.query_one("#scores", Static).render())
            assert "+0" not in scores and scores.count(" 0") >= 3, scores  # a zero total is "0", as the sheet writes it
            refused = False
            exchanged = False
            for _ in range(3000):
                await pilot.pause(0.02)
                if any(e["kind"] == "deal_end" for e in table.events):
                    break
                if isinstance(app.screen, ContractDialog):
                    await pilot.press("n")
                elif isinstance(app.screen, ExchangeDialog):
                    exchanged = True
                    await pilot.press("space", "right", "space", "enter")  # discard two cards, once
                elif table.my_turn() and app._pending is None and table.view["phase"] == "play":
                    if not refused:
                        refused = True
                        app.send("ZZ")  # a message the server refuses: shown, and the turn stays ours
                        await pilot.pause(0.3)
                        assert "Not accepted" in logged()
                        continue
                    await pilot.press("enter")
            else:
                raise AssertionError("the deal did not end")
            await pilot.pause(0.3)
            assert refused and "Deal 1 over" in logged() and "Trick 13:" in logged()
            # the deal's end as the local game says it: the contract in words, tricks against each quota (the
            # server's game wrote the contract's code and the tricks alone)
            end = next(e for e in table.events if e["kind"] == "deal_end")
            order = next(e for e in table.events if e["kind"] == "deal")["active_seats"]
            contract = Contract.from_str(end["contract"])
            words = " ".join(logged().split())
            assert f"Deal 1 over ({contract.label}, {contract.goal}): " in words, words
            for role, seat in enumerate(order):
                quota = STANDARD.quota(role, contract)
                assert f"{end['tricks'][seat]}/{quota} → {signed(end['scores'][seat])}" in words, words
            if exchanged:
                assert "You discarded" in logged()
            await pilot.press("p")
            await pilot.press("escape")
            await pilot.press("x")

    asyncio.run(play())
    assert app.failure is None
    table.close()


def test_full_screen_asks_again_when_a_reply_is_lost_with_the_connection(server: ThreadServer) -> None:
    """The connection drops right after an action is sent: its reply never comes.  The screen waited for it
    for ever ("wait: the server has not answered"), and no dialog or card was asked for again."""
    pytest.importorskip("textual", reason="the full-screen game needs the 'tui' extra")
    import asyncio
    import time

    from mizerka.tui.app import ContractDialog, ExchangeDialog

    table, app = seated_app(server)
    dropped: list[int] = []
    send = table.send_nowait

    def send_then_drop(message: dict[str, Any]) -> int:
        ident = send(message)
        if message.get("type") == "act" and not dropped:
            dropped.append(ident)
            table.drop()  # the ack (or the refusal) is lost with this connection
        return ident

    table.send_nowait = send_then_drop  # type: ignore[method-assign]

    def logged() -> str:
        return log_text(app)

    async def play() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            deadline = time.monotonic() + 60
            while not any(e["kind"] == "deal_end" for e in table.events):
                assert time.monotonic() < deadline, f"the deal did not end: pending={app._pending}\n{logged()}"
                await pilot.pause(0.02)
                if isinstance(app.screen, ContractDialog):
                    await pilot.press("n")
                elif isinstance(app.screen, ExchangeDialog) or (
                        table.my_turn() and app._pending is None and table.view["phase"] == "play"):
                    await pilot.press("enter")  # keep the hand; play the card under the cursor
            assert dropped and table.reconnects >= 1
            assert "The connection dropped and was made again" in logged()
            await pilot.press("x")

    asyncio.run(play())
    assert app.failure is None
    table.close()


def test_the_line_game_at_a_server_shows_the_turned_up_card(server: ThreadServer,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``show_trump_card`` the top talon card is public in a trump contract: the local line game said so,
    the game at a server did not."""
    url = make_table(server, BOTS, variant="standard,show_trump_card,contracts=H")

    def read(prompt: str) -> str:
        if "Choose a contract" in prompt:
            return "H"
        if "discard" in prompt:
            return "-"
        raise EOFError  # the first card: enough

    monkeypatch.setattr(mizerka.terminal, "_read_line", read)
    result = CliRunner().invoke(cli, ["play", "--connect", url, "--plain", "--ascii"])
    assert result.exit_code == 1, result.output  # the input ended at the first card
    assert "Turned-up talon card (a reminder only): " in result.output, result.output


def test_a_connection_dropped_during_the_handshake_is_a_remote_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """A server that drops the connection during the websocket handshake (restarting, say) raised websockets'
    ConnectionClosedError out of ``connect``: in the full-screen game's reader thread, an unhandled exception that
    ended the reading.  It is a RemoteError now, which the reconnection loop retries."""
    import websockets.sync.client
    from websockets.exceptions import ConnectionClosedError

    def dropped(*args: Any, **kwargs: Any) -> Any:
        raise ConnectionClosedError(None, None)

    monkeypatch.setattr(websockets.sync.client, "connect", dropped)
    table = RemoteTable(parse_invite("http://127.0.0.1:9/?table=abc"))
    with pytest.raises(RemoteError, match="cannot open the game connection"):
        table.connect()


# -- profiles: --player-key and rated tables ------------------------------------------------------------------

RATED_SEATS = [{"kind": "human"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]
RATED_VARIANT = "standard,contracts=NT+MZ"


def claim(server: ThreadServer, name: str) -> str:
    """Claim *name* (POST /api/players); return the profile's secret player key."""
    answer = httpx.post(server.url + "/api/players", json={"name": name})
    assert answer.status_code == 201, answer.text
    return str(answer.json()["key"])


def rated_table(server: ThreadServer) -> str:
    """A rated private table, one human seat and two bots; its invite link."""
    return make_table(server, RATED_SEATS, variant=RATED_VARIANT, rated=True)


def refused(result: Any, *parts: str) -> None:
    """A refusal: exit status 1, the message's *parts*, and no traceback."""
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    for part in parts:
        assert part in result.output, result.output


def test_a_rated_table_refuses_a_seat_without_a_good_key(server: ThreadServer) -> None:
    """No key, a key no profile has, a name that is not the key's profile's: each refused in the player's words."""
    url = rated_table(server)
    key = claim(server, "Ala")
    refused(CliRunner().invoke(cli, ["play", "--connect", url, "--plain", "--name", "Ola"]),
            "is rated", "Claim a name in the browser lobby or with POST /api/players", "--player-key")
    refused(CliRunner().invoke(cli, ["play", "--connect", url, "--plain", "--player-key", "no-such-key"]),
            "knows no profile with this player key")
    bad_name = CliRunner().invoke(cli, ["play", "--connect", url, "--plain", "--player-key", key, "--name", "Ela"])
    refused(bad_name, "the name does not belong to your player key's profile", "leave out --name")
    assert key not in bad_name.output  # the secret is never echoed
    # nobody sat down: the seat is still free
    info = httpx.get(f"{server.url}/api/tables/{parse_invite(url).table}").json()
    assert info["seats"][0]["open"] and SeatBook.default().get(parse_invite(url)) is None


def test_a_profile_sits_at_a_rated_table_with_the_key_from_the_environment(
        server: ThreadServer, monkeypatch: pytest.MonkeyPatch) -> None:
    url = rated_table(server)
    key = claim(server, "Ala")
    asked: list[str] = []

    def read(prompt: str) -> str:
        asked.append(prompt)
        return "hint" if len(asked) == 1 else "quit"

    monkeypatch.setattr(mizerka.terminal, "_read_line", read)
    result = CliRunner().invoke(cli, ["play", "--connect", url, "--plain", "--ascii"],
                                env={"MIZERKA_PLAYER_KEY": key})
    assert result.exit_code == 0, result.output
    assert "you are Ala *, seat 0" in result.output  # the profile's name, marked as registered
    assert result.output.count("Rated table: no hints, no undo") == 1
    assert "This table gives no hints (it is rated)." in result.output
    assert "Ala * (seat 0)" in result.output and "(*: a registered player)" in result.output
    assert key not in result.output
    info = httpx.get(f"{server.url}/api/tables/{parse_invite(url).table}").json()
    assert info["seats"][0]["name"] == "Ala" and info["seats"][0]["registered"]
    # the seat book keeps the seat, with a fingerprint of the key and never the key itself
    book = SeatBook.default()
    held = book.get(parse_invite(url))
    assert held is not None and held.seat == 0 and held.name == "Ala" and held.key == key_fingerprint(key)
    assert key not in book.path.read_text(encoding="utf-8")
    # the same key (typed this time, the name in another case) takes you back to the seat; so does no key at all
    for extra in (["--player-key", key, "--name", "ala"], []):
        again = CliRunner().invoke(cli, ["play", "--connect", url, "--plain", "--ascii", *extra])
        assert again.exit_code == 0 and "Back at your seat 0" in again.output, again.output
    # a fresh seat for the same profile: it holds one there already
    refused(CliRunner().invoke(cli, ["play", "--connect", url, "--plain", "--new-seat", "--player-key", key]),
            "your profile already holds a seat at table", "use the same link from where you sat down")
    assert book.get(parse_invite(url)) == held


def test_a_key_does_not_take_back_a_seat_taken_without_it(server: ThreadServer) -> None:
    """At an unrated table: a seat held under a typed name is not the profile's; with the key a seat is taken as
    the profile (the name in any case: the profile's is used), and the book remembers that one, which is then
    taken back without the key too."""
    url = make_table(server, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}])
    invite = parse_invite(url)
    key = claim(server, "Ala")
    book = SeatBook.default()
    seats = []
    for name, player_key in (("Ala", None), ("ALA", key), (None, None)):
        table = RemoteTable(invite, timeout=10)
        try:
            seats.append(take_seat(table, book, name, player_key=player_key))
        finally:
            table.close()
    assert seats == [(0, False), (1, False), (1, True)]
    held = book.get(invite)
    assert held is not None and (held.seat, held.name, held.key) == (1, "Ala", key_fingerprint(key))
    info = httpx.get(f"{server.url}/api/tables/{invite.table}").json()
    # the table tells the two apart, as its chat does; the book keeps the name the seat was taken under
    assert [(s["name"], s["registered"]) for s in info["seats"][:2]] == [("Ala", False), ("Ala (2)", True)]


def test_player_key_goes_with_connect(monkeypatch: pytest.MonkeyPatch) -> None:
    result = CliRunner().invoke(cli, ["play", "--plain", "--player-key", "abc"])
    assert result.exit_code == 2 and "--player-key goes with --connect" in result.output
    # the environment variable alone is no mistake in a local game: it may stay set
    monkeypatch.setattr(mizerka.terminal, "_read_line", lambda prompt: "quit")
    local = CliRunner().invoke(cli, ["play", "--plain", "--ascii"], env={"MIZERKA_PLAYER_KEY": "abc"})
    assert local.exit_code != 2 and "--player-key" not in local.output, local.output
    blank = CliRunner().invoke(cli, ["play", "--connect", "http://127.0.0.1:1/?table=x", "--player-key", "  "])
    assert blank.exit_code == 2 and "a player key is 1-128 visible characters" in blank.output
    helped = CliRunner().invoke(cli, ["play", "--help"])
    assert "MIZERKA_PLAYER_KEY" in helped.output and "shell history" in helped.output


def test_full_screen_shows_a_rated_table_and_the_registered_mark(server: ThreadServer) -> None:
    pytest.importorskip("textual", reason="the full-screen game needs the 'tui' extra")
    import asyncio

    from textual.widgets import Static

    from mizerka.tui.remote_app import RemoteApp

    key = claim(server, "Ala")
    table = RemoteTable(parse_invite(rated_table(server)), timeout=10)
    assert table.join(None, key) == 0 and table.seated_as == "Ala"
    table.connect()
    assert table.rated() and table.marked_names() == ["Ala ✓", *table.names()[1:]]
    app = RemoteApp(table)

    async def look() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause(0.3)
            assert log_text(app).count("Rated table: no hints, no undo") == 1
            scores = str(app.query_one("#scores", Static).render())
            assert "You ✓" in scores
            await pilot.press("x")

    asyncio.run(look())
    assert app.failure is None
    table.close()


def test_n_chooses_no_trump_in_the_line_game_at_a_server(server: ThreadServer,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The local line game reads N as no-trump (the full-screen key); so does the line game at a server, which
    used to send the letter as it was and have it refused."""
    from test_tui_connect_rematch import answer

    url = make_table(server, BOTS, variant="standard,contracts=NT+MZ")
    prompts: list[str] = []

    def player(prompt: str) -> str:
        prompts.append(click.unstyle(prompt))
        if any("Choose a contract" in p for p in prompts[:-1]):
            return "quit"  # the prompt after the choice: done
        return "n" if "Choose a contract" in prompts[-1] else answer(prompt)

    monkeypatch.setattr(mizerka.terminal, "_read_line", player)
    result = CliRunner().invoke(cli, ["play", "--connect", url, "--plain", "--ascii", "--name", "Ola"])
    assert result.exit_code == 0, result.output
    assert prompts[-2].startswith("You are forehand. Choose a contract"), prompts
    assert "Not accepted" not in result.output, result.output
    assert "You choose no-trump (take tricks)." in result.output, result.output


def test_a_busy_server_is_asked_again_not_taken_for_a_refusal(server: ThreadServer) -> None:
    """``server_full`` (and ``rate_limited``, ``internal``) answering a hello are not final (docs/protocol.md): the
    terminal client's reconnect tries again after a pause, as the browser does, where it used to stop for good."""
    sys.path.insert(0, str(Path(__file__).parent / "server"))
    from server_helpers import unload
    from test_server_finished_reload import finished

    table_id, token = finished(server)
    unload(server, table_id)  # read back on the next hello: a cap of its own, here none at first
    server.config.max_read_back = 0
    table = RemoteTable(parse_invite(f"{server.url}/?table={table_id}"), timeout=10)
    table.token = token
    with pytest.raises(RemoteError, match="busy") as refused:
        table.connect()
    assert not isinstance(refused.value, RemoteRefused)
    threading.Timer(0.5, lambda: setattr(server.config, "max_read_back", 1)).start()  # room again in a moment
    table._connect_retrying("test", "could not reconnect")
    assert table.view["status"] == "finished" and table.seat == 0
    table.close()
