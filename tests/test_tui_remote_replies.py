"""What the terminal client of a server does with replies it does not expect.

A message it cannot read (no JSON, a welcome without a view, no type, a bad ``seq``) ends ``play --connect`` with a
message that says so and exit status 1 (each was a traceback), and the full-screen game stops with a message (a
malformed event killed the reader thread silently, and the table never moved again): a small fake server sends
those frames.  A ``rate_limited`` error naming a request's ``id`` is answered by sending the request again after the
pause, a bounded number of times (the client waited out its whole timeout), and a notice about another message never
makes it send a request twice; against a real server on 127.0.0.1 with a low rate.
"""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the --connect tests need a server: the 'server' extra (pip install -e '.[dev]')")
pytest.importorskip("websockets", reason="--connect needs the 'tui' extra (pip install -e '.[dev]')")
pytest.importorskip("textual", reason="the full-screen game needs the 'tui' extra")

from click.testing import CliRunner

from mizerka.cli import cli
from mizerka.server.hub import ServerConfig
from mizerka.tui import remote
from mizerka.tui.remote import HeldSeat, RemoteError, RemoteTable, SeatBook, parse_invite
from mizerka.tui.remote_app import RemoteApp

sys.path.insert(0, str(Path(__file__).parent / "server"))
from server_helpers import ThreadServer

from test_tui_connect import make_table
from test_tui_connect_reconnect import server as server  # the fixture, re-exported for pytest
from tui_helpers import answering_hello, connected, fake_server, pause_until, welcome

HUMANS = [{"kind": "human"}] * 3


# -- a message this client cannot read -------------------------------------------------------------------------------


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


# -- rate_limited answers a request ----------------------------------------------------------------------------------


def limited_server(tmp_path: Path, rate: float) -> ThreadServer:
    """A server that takes a burst of 3 messages from a connection and *rate* a second after that."""
    config = ServerConfig(database=f"sqlite:///{tmp_path / 'limited.sqlite3'}", bot_delay=0.0, web_dir=None,
                          rate=rate, burst=3.0)
    return ThreadServer(config).start()


def test_a_rate_limited_request_is_sent_again_after_the_pause(tmp_path: Path) -> None:
    server = limited_server(tmp_path, rate=0.5)
    try:
        table = RemoteTable(parse_invite(make_table(server, HUMANS)), timeout=3)
        table.join("Ola")
        table.connect()  # the hello: one of the three
        assert table.request({"type": "chat", "text": "one"})["type"] == "chat"  # two
        started = time.monotonic()
        reply = table.request({"type": "chat", "text": "two"})  # dropped, rate_limited; sent again a second later
        assert reply["type"] == "chat" and reply["text"] == "two", reply
        assert 0.9 < time.monotonic() - started < 3, "answered after the pause, not after the timeout"
        table.poll(0.3)
        assert [m["text"] for m in table.chat] == ["one", "two"]  # sent once each as the server saw it
        table.close()
    finally:
        server.stop()


def test_a_server_that_keeps_limiting_fails_the_request_with_a_clear_message(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(remote, "RATE_LIMITED_RETRIES", 2)
    server = limited_server(tmp_path, rate=0.01)
    try:
        table = RemoteTable(parse_invite(make_table(server, HUMANS)), timeout=5)
        table.join("Ola")
        table.connect()
        assert table.request({"type": "chat", "text": "one"})["type"] == "chat"
        started = time.monotonic()
        with pytest.raises(RemoteError, match=r"kept refusing 'chat' as sent too fast \(rate limited, 2 tries\)"):
            table.request({"type": "chat", "text": "two"})
        assert time.monotonic() - started < 4.5, "failed after the retries, not after the timeout"
        table.close()
    finally:
        server.stop()


def test_a_notice_about_another_message_does_not_send_the_request_twice(tmp_path: Path) -> None:
    """A ``rate_limited`` notice earned by an earlier frame (a ping sent without waiting) was taken for the answer
    of the request that waited next, which the server had done: it was sent again, and the chat line was said
    twice.  The server now names the dropped frame's id in its notice, and the client sends again only the request
    the notice names (found by the session's review)."""
    server = limited_server(tmp_path, rate=1.0)
    try:
        table = RemoteTable(parse_invite(make_table(server, HUMANS)), timeout=5)
        table.join("Ola")
        table.connect()  # the hello: one of the burst of three
        for _ in range(3):
            table.send_nowait({"type": "ping"})  # the third is dropped
        time.sleep(1.2)  # a message's worth refills; the notice is not read yet
        reply = table.request({"type": "chat", "text": "hello"})
        assert reply["type"] == "chat", reply
        table.poll(1.5)
        assert [m["text"] for m in table.chat] == ["hello"]
        table.close()
    finally:
        server.stop()
