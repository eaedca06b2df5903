"""``mizerka tables URL``: a server's open tables from the terminal, each with the invite link ``mizerka play
--connect`` takes.  Before it a terminal player could sit only at a table whose link someone sent.

Against a real server on 127.0.0.1: a public table waiting with one human seated and one seat free, a rated one,
a private one (never listed), the JSON form, an empty server, ``--limit`` below the count, and bad input: a
malformed address (exit 2), a server that cannot be reached or is not a mizerka server (exit 1), every one a
message without a traceback.
"""

from __future__ import annotations

import http.server
import json
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the tables tests need a server: the 'server' extra (pip install -e '.[dev]')")

import httpx
from click.testing import CliRunner

import mizerka.terminal
from mizerka.cli import cli
from mizerka.server.hub import ServerConfig
from mizerka.tui.remote import RemoteError, open_tables, parse_invite, parse_server
from test_tui_connect import server as server  # the fixture, re-exported for pytest
from test_tui_connect import start_server

sys.path.insert(0, str(Path(__file__).parent / "server"))
from server_helpers import ThreadServer


def create(server: Any, **body: Any) -> dict[str, Any]:
    answer = httpx.post(server.url + "/api/tables", json={"variant": "standard", **body})
    assert answer.status_code == 201, answer.text
    table: dict[str, Any] = answer.json()
    return table


def run(*args: str) -> Any:
    return CliRunner().invoke(cli, ["tables", *args])


def test_the_public_tables_are_listed_with_their_links_and_a_private_one_is_not(server: Any) -> None:
    waiting = create(server, visibility="public", name="Dorota's table",
                     seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "rules"}])
    joined = httpx.post(f"{server.url}/api/tables/{waiting['id']}/join", json={"name": "Dorota"})
    assert joined.status_code == 200, joined.text
    rated = create(server, visibility="public", rated=True, spectators=False)
    hidden = create(server, visibility="private", name="secret")

    result = run(server.url + "/")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Dorota's table  (standard; waiting, 1 free seat)" in out
    assert "  players: Dorota, Bot 3 (bot: Rules)\n" in out
    link = f"{server.url}/?table={waiting['id']}"
    assert link in out.splitlines()[out.splitlines().index(next(ln for ln in out.splitlines()
                                                                if ln.startswith("Dorota's table"))) + 2]
    # the link is an invite the terminal client reads back to the same table
    assert parse_invite(link).table == waiting["id"]
    assert f"{rated['id']}  (standard; waiting, 3 free seats, rated, no spectators)" in out
    assert hidden["id"] not in out and "secret" not in out

    # any page of the server names it: an invite link, the lobby's index.html
    again = run(f"{server.url}/index.html?table={hidden['id']}")
    assert again.exit_code == 0 and again.output == out
    for page in (f"/api/tables/{waiting['id']}", f"/api/tables/{waiting['id']}/sheet", "/api/history", "/ws"):
        again = run(server.url + page)  # a link into the API (it answered 404: the lobby under the link's path)
        assert again.exit_code == 0 and again.output == out, (page, again.output)

    listed = json.loads(run(server.url, "--json").output)
    assert listed["server"] == server.url and listed["total"] == 2
    by_id = {tb["id"]: tb for tb in listed["tables"]}
    assert set(by_id) == {waiting["id"], rated["id"]}
    assert by_id[waiting["id"]]["free_seats"] == 1 and by_id[waiting["id"]]["link"] == link
    assert by_id[rated["id"]]["rated"] is True and by_id[rated["id"]]["spectators"] is False

    one = run(server.url, "--limit", "1")
    assert one.exit_code == 0 and one.output.rstrip().endswith("Showing 1 of 2 (--limit shows more).")


def test_an_empty_server_says_so(tmp_path: Path) -> None:
    server = start_server(tmp_path)
    try:
        result = run(server.url)
    finally:
        server.stop()
    assert result.exit_code == 0
    assert result.output.startswith(f"No open tables at {server.url} right now")


@pytest.mark.parametrize(("url", "words"), [
    ("ftp://example.org/", "does not start with http:// or https://"),
    ("http:///?table=x", "names no server"),
    ("http://example.org:99999/", "bad port number"),
    ("http://user:pw@example.org/", "comes after a user name or password"),
    ("http://exa mple.org/", "holds a space"),
])
def test_a_malformed_address_is_refused_with_exit_2(url: str, words: str) -> None:
    result = run(url)
    assert result.exit_code == 2, result.output
    assert "not a server address" in result.output and words in result.output
    assert "Traceback" not in result.output
    with pytest.raises(RemoteError, match=words):
        parse_server(url)


@pytest.fixture
def not_mizerka() -> Iterator[tuple[str, list[bytes]]]:
    """An HTTP server on 127.0.0.1 that answers every GET with the body the test puts first in its list."""
    bodies: list[bytes] = [b"<html>hello</html>"]

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # the name http.server calls
            body = bodies[0]
            status = 404 if body == b"404" else 200
            self.send_response(status)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}", bodies
    httpd.shutdown()
    httpd.server_close()


@pytest.mark.parametrize(("body", "words"), [
    (b"<html>hello</html>", "no JSON"),
    (b"404", "HTTP status 404"),
    (b'{"tables": []}', "its list of tables is not one"),
    (b'[{"id": "x"}]', "its list of tables is not one"),
])
def test_a_server_that_is_not_mizerka_is_named(not_mizerka: tuple[str, list[bytes]], body: bytes,
                                               words: str) -> None:
    url, bodies = not_mizerka
    bodies[0] = body
    result = run(url)
    assert result.exit_code == 1, result.output
    assert f"{url} did not answer like a mizerka server" in result.output and words in result.output
    assert "Traceback" not in result.output


def test_a_server_that_cannot_be_reached_is_named() -> None:
    result = run("http://127.0.0.1:1/")
    assert result.exit_code == 1
    assert "cannot reach the server at http://127.0.0.1:1" in result.output
    with pytest.raises(RemoteError, match="cannot reach"):
        open_tables("http://127.0.0.1:1", timeout=2)


SHORT = "standard,contracts=NT+MZ"


def test_find_players_pairs_the_terminal_player_at_the_waiting_table(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """``mizerka play --connect SERVER --find-players``: the lobby's Find players from the terminal.  Two players
    have just sat at a table of the same rules; the terminal player takes its last seat, the match begins, and the
    seat is remembered under the table's link (the same link takes the player back to it).  The server's grace is
    0, so that bots stand in for the two others (who never connect) and the terminal player is asked at once."""
    config = ServerConfig(database=f"sqlite:///{tmp_path / 'server.sqlite3'}", bot_delay=0.0, web_dir=None,
                          rate=1000.0, burst=1000.0, grace=0.0, dd_limit=0.0)
    server = ThreadServer(config).start()
    try:
        _find_players_at(server, monkeypatch)
    finally:
        server.stop()


def _find_players_at(server: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    first = httpx.post(server.url + "/api/pair", json={"variant": SHORT, "name": "Ala"}).json()
    second = httpx.post(server.url + "/api/pair", json={"variant": SHORT, "name": "Celina"}).json()
    table = first["table"]["id"]
    assert second["table"]["id"] == table
    prompts: list[str] = []

    def answer(prompt: str = "") -> str:
        prompts.append(prompt)
        return "quit"

    monkeypatch.setattr(mizerka.terminal, "_read_line", answer)
    result = CliRunner().invoke(cli, ["play", "--connect", server.url + "/", "--find-players", "--variant", SHORT,
                                      "--plain", "--ascii", "--name", "Bolek"])
    assert result.exit_code == 0, result.output
    assert f"Paired at table {table}: its link is {server.url}/?table={table}" in result.output
    assert "you are Bolek, seat 2" in result.output and "You left the table." in result.output
    shown = httpx.get(f"{server.url}/api/tables/{table}").json()
    assert shown["status"] == "playing" and [s["name"] for s in shown["seats"]] == ["Ala", "Celina", "Bolek"]
    # the seat is in the seat book: the table's link takes Bolek back to seat 2
    again = CliRunner().invoke(cli, ["play", "--connect", f"{server.url}/?table={table}", "--plain", "--ascii"])
    assert "Back at your seat 2" in again.output, again.output


def test_find_players_refusals(server: Any) -> None:
    def play(*args: str) -> Any:
        return CliRunner().invoke(cli, ["play", *args])

    cases = [
        (["--find-players"], 2, "--find-players goes with --connect SERVER"),
        (["--rated"], 2, "--rated goes with --find-players"),
        (["--connect", server.url, "--find-players", "--watch"], 2, "--watch cannot be used with --find-players"),
        (["--connect", server.url, "--find-players", "--seed", "3"], 2, "--seed cannot be used with --connect"),
        (["--connect", "ftp://x", "--find-players"], 2, "not a server address"),
        (["--connect", server.url, "--find-players", "--rated", "--plain"], 1, "rated pairing needs a profile"),
        (["--connect", server.url, "--find-players", "--plain", "--player-key", "nobody"], 1,
         "knows no profile with this player key"),
        (["--connect", "http://127.0.0.1:1", "--find-players", "--plain"], 1, "cannot reach the server"),
    ]
    before = httpx.get(server.url + "/api/tables").json()
    for args, code, words in cases:
        result = play(*args)
        assert result.exit_code == code and words in result.output, (args, result.output)
        assert "Traceback" not in result.output
    assert httpx.get(server.url + "/api/tables").json() == before  # no table made by a refused pairing


def test_a_match_with_computer_players_lists_their_seats_to_take_over(server: Any) -> None:
    """During the match of an unrated table, the seats computer players play may be taken over: the
    list says how many, and the table's link seats a terminal player there."""
    playing = create(server, visibility="public", name="Ewa's table",
                     seats=[{"kind": "human"}, {"kind": "bot", "level": "rules"}, {"kind": "bot", "level": "random"}])
    assert httpx.post(f"{server.url}/api/tables/{playing['id']}/join", json={"name": "Ewa"}).status_code == 200
    result = run(server.url)
    assert result.exit_code == 0, result.output
    assert "Ewa's table  (standard; playing, no free seat: 2 computer players to take over)" in result.output
    listed = json.loads(run(server.url, "--json").output)["tables"]
    assert [(tb["free_seats"], tb["takeover_seats"]) for tb in listed] == [(0, 2)]
    taken = httpx.post(f"{server.url}/api/tables/{playing['id']}/join", json={"name": "Filip"})
    assert taken.status_code == 200 and taken.json()["seat"] == 1
    assert "no free seat: a computer player to take over" in run(server.url).output

