"""Undo in the terminal client of a server's table (``mizerka play --connect``), against a real server on 127.0.0.1.

At a table where every other seat is a computer player's, the human takes back his last card (``undo`` in the line
game, ``u`` in the full-screen one), as in the local games and the browser.  The client keeps the table's journal:
an undo cuts it (the events after the cut are gone and the next event takes the first removed number), whichever
of the seat's connections asked for it, and a connection that was away during an undo takes the journal again: it
shows what it missed (the rest of the deal, its end, the next deal) and nothing it had shown, and its tricks keep
their numbers.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the --connect tests need a server: the 'server' extra (pip install -e '.[dev]')")
pytest.importorskip("websockets", reason="--connect needs the 'tui' extra (pip install -e '.[dev]')")

import click
from click.testing import CliRunner

import mizerka.terminal
from mizerka.cli import cli
from mizerka.terminal import QuitGame
from mizerka.tui.remote import RemoteLineGame, RemoteTable, parse_invite

sys.path.insert(0, str(Path(__file__).parent / "server"))
from server_helpers import ThreadServer

from test_tui_connect import BOTS, make_table, start_server
from tui_helpers import logged as log_text
from tui_helpers import pause_until

HUMANS = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "rules"}]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ThreadServer]:
    server = start_server(tmp_path)
    yield server
    server.stop()


def act_until(table: RemoteTable, done: Any, timeout_polls: int = 400) -> None:
    """Play our seat (first contract, keep the hand, first legal card) until ``done(table)``."""
    for _ in range(timeout_polls):
        if done(table):
            return
        if table.my_turn():
            view = table.view
            reply = table.act("keep" if view["phase"] == "exchange" else view["legal"][0])
            assert reply["type"] == "ack", reply
        else:
            table.poll(0.5)
    raise AssertionError(f"not reached; view: {table.view}")


def poll_until(table: RemoteTable, done: Any) -> None:
    """Read the server (without acting) until ``done(table)``."""
    for _ in range(40):
        if done(table):
            return
        table.poll(0.5)
    raise AssertionError(f"not reached; view: {table.view}")


def our_cards_played(table: RemoteTable) -> int:
    return sum(1 for e in table.deal_events() if e.get("actor") == table.seat and e.get("action_kind") == "play")


def seated(url: str, name: str = "Ola") -> RemoteTable:
    table = RemoteTable(parse_invite(url), timeout=10)
    table.join(name)
    table.connect()
    return table


def second_connection(first: RemoteTable) -> RemoteTable:
    """The same seat over another websocket (the player's browser, say)."""
    other = RemoteTable(first.invite, timeout=10)
    other.seat, other.token = first.seat, first.token
    other.connect()
    return other


def journal(table: RemoteTable) -> list[tuple[int, str]]:
    return [(int(e["seq"]), str(e["kind"])) for e in table.events]


def test_the_line_game_takes_a_card_back(server: ThreadServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """``undo`` before our first card of the deal is refused with the server's reason; after it, the card and the
    bots' plays after it come back, the same card is offered again, and the help lists ``undo`` at this table."""
    url = make_table(server, BOTS)
    prompts: list[str] = []
    played: list[str] = []
    script = {"undone": False, "refused": False, "helped": False}

    def answer(prompt: str) -> str:
        prompt = click.unstyle(prompt)
        prompts.append(prompt)
        assert len(prompts) < 200, "the game does not move on"
        if "discard" in prompt:
            return "-"
        legal = re.search(r"Your card \[([^\]]*)\]", prompt).group(1).split()  # type: ignore[union-attr]
        if not script["refused"]:
            script["refused"] = True
            return "undo"  # nothing of ours to take back yet
        if not script["helped"]:
            script["helped"] = True
            return "help"
        if not played:
            played.append(legal[-1])
            return legal[-1]
        if not script["undone"]:
            script["undone"] = True
            return "u"
        return "quit"

    monkeypatch.setattr(mizerka.terminal, "_read_line", answer)
    result = CliRunner().invoke(cli, ["play", "--connect", url, "--plain", "--ascii", "--name", "Ola"])
    assert result.exit_code == 0, result.output
    output = result.output
    assert "Cannot undo: " in output and "Traceback" not in output
    assert "undo, u" in output  # the help at a table of bots
    assert re.search(r"Taken back: you [^\n]*\(\d+ cards?\)\.  Choose your card again\.", output), output
    after = [p for p in prompts if "Your card" in p][-1]  # the prompt after the undo offers the card again
    assert played[0] in re.search(r"Your card \[([^\]]*)\]", after).group(1).split()  # type: ignore[union-attr]


def test_undo_is_refused_where_another_seat_is_a_human(server: ThreadServer) -> None:
    """No undo at a table with another human: the client does not offer it, and the server's refusal is kept."""
    url = make_table(server, HUMANS)
    first = seated(url)
    second = seated(url, "Ewa")
    assert not first.undo_table()
    reply = first.undo()
    assert reply["type"] == "error" and reply["code"] == "undo_not_allowed", reply
    first.close()
    second.close()


def test_another_connections_undo_cuts_the_journal(server: ThreadServer) -> None:
    """Our seat's other connection takes a card back: this one drops the events after the cut, takes the
    snapshot's number as the last seen (lower than before), and keeps receiving the events that follow.  Before,
    it kept the higher number and took every new event for one it had seen already."""
    url = make_table(server, BOTS)
    ours = seated(url)
    act_until(ours, lambda t: our_cards_played(t) >= 2 and t.my_turn())
    assert ours.undo_table() and ours.can_undo()
    before = ours.seq
    other = second_connection(ours)
    reply = other.undo()
    assert reply["type"] == "snapshot" and reply["undone"]["actions"], reply
    poll_until(ours, lambda t: t.seq < before)  # the snapshot reaches this connection too
    assert ours.seq == int(reply["seq"]) and ours.epoch == int(reply["epoch"]) == 1
    assert journal(ours) == journal(other)
    undone = ours.drain_undone()
    assert [u["actions"] for u in undone] == [reply["undone"]["actions"]]
    assert ours.my_turn() and our_cards_played(ours) == 1
    # play goes on, and this connection sees it: the events numbered as the ones removed were
    act_until(ours, lambda t: t.seq > before)
    assert [s for s, _ in journal(ours)] == list(range(1, ours.seq + 1))
    poll_until(other, lambda t: t.seq >= ours.seq)
    assert journal(ours)[: len(journal(other))] == journal(other)[: len(journal(ours))]
    ours.close()
    other.close()


def test_a_connection_away_during_an_undo_takes_the_journal_again(server: ThreadServer) -> None:
    """Away while another connection of the seat took a card back, a client coming back with its last event
    and epoch is refused (``bad_seq``): it takes the journal whole again, says that cards were taken back, and
    does not write the old events out a second time."""
    url = make_table(server, BOTS)
    ours = seated(url)
    act_until(ours, lambda t: our_cards_played(t) >= 2 and t.my_turn())
    ours.drain()
    ours.close()
    other = second_connection(ours)
    assert other.undo()["type"] == "snapshot"
    ours.connect()  # as after a dropped connection
    assert journal(ours) == journal(other)
    assert [u.get("away") for u in ours.drain_undone()] == [True]
    assert ours.drain() == []  # nothing new happened: the journal taken again is not news
    assert ours.my_turn() and ours.view["seq"] == other.view["seq"]
    ours.close()
    other.close()


def test_full_screen_takes_a_card_back(server: ThreadServer) -> None:
    """``u`` in the full-screen game: refused with the reason before our first card (in the exchange dialog
    too), then after a card it is taken back, logged, and the turn is ours again with the card in hand."""
    pytest.importorskip("textual", reason="the full-screen game needs the 'tui' extra")
    import asyncio

    from mizerka.tui.app import ContractDialog, ExchangeDialog
    from mizerka.tui.remote_app import RemoteApp

    table = seated(make_table(server, BOTS))
    app = RemoteApp(table)

    async def play() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            refused = False
            card = None
            for _ in range(3000):
                await pilot.pause(0.02)
                if isinstance(app.screen, ContractDialog):
                    await pilot.press("n")
                elif isinstance(app.screen, ExchangeDialog):
                    if not refused:
                        refused = True
                        await pilot.press("u")  # from the dialog: nothing of ours to take back yet
                        await pause_until(pilot, lambda: "Cannot undo" in log_text(app), pause=0.02)
                    await pilot.press("enter")  # keep
                elif table.my_turn() and app._pending is None and table.view["phase"] == "play":
                    if not refused:  # no exchange dialog: the talon was emptied before our turn (a random bot may
                        refused = True  # draw all 13 cards); refused here, before our first card, instead
                        await pilot.press("u")
                        await pause_until(pilot, lambda: "Cannot undo" in log_text(app), pause=0.02)
                    if card is None:
                        card = app.playable()[app.cursor]
                        await pilot.press("enter")
                    elif our_cards_played(table) >= 1:
                        await pilot.press("u")
                        await pause_until(pilot, lambda: "Taken back:" in log_text(app), tries=200, pause=0.02)
                        break
            else:
                raise AssertionError("no second turn in play")
            await pilot.pause(0.2)
            text = log_text(app)
            assert refused and "Cannot undo: " in text, text
            assert "Taken back: You " in text and "Your turn again." in text, text
            assert card is not None and str(card) in table.view["hand"] and table.my_turn()
            assert our_cards_played(table) == 0
            await pilot.press("x")

    asyncio.run(play())
    assert app.failure is None
    table.close()


# -- a connection away during another connection's undo --------------------------------------------------------------


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
