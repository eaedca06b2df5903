"""The score sheet of a server's table in the terminal client (``sheet`` in the line game, ``p`` full screen), and
the deals a player missed, against a real server on 127.0.0.1.

1. The sheet begins with the grid of the contracts each player has chosen, with the totals, as the local sheet does
   (``ScoreSheet.grid``), which a player choosing a contract needs: built by ScoreSheet from the view's rows (one
   ``X`` a use, ``XX`` under ``uses=2``, the variant's contracts only), its names fitted by terminal cells.  At a
   four-player table the dealer who sat a deal out gets ``-`` on it, as on the local sheet, not ``0``.
2. A deal a stand-in finished while the player was away (the connection down, or the game closed and started again
   later) is said when he is back, from the view's score sheet rows (contract, chooser, each player's score and
   total), after the events that caught up with it: the line game writes it, the full-screen game logs it and shows
   a notice.  A deal seen before (in the game that was closed) is not said again.
"""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the --connect tests need a server: the 'server' extra (pip install -e '.[dev]')")
pytest.importorskip("websockets", reason="--connect needs the 'tui' extra (pip install -e '.[dev]')")

from rich.cells import cell_len

from mizerka.match import DealResult
from mizerka.rules import Contract
from mizerka.scoresheet import ScoreSheet
from mizerka.terminal import QuitGame
from mizerka.tui.remote import RemoteLineGame, RemoteTable, parse_invite, sheet_text

sys.path.insert(0, str(Path(__file__).parent / "server"))
from server_helpers import ThreadServer

from test_tui_chat import TWO_HUMANS
from test_tui_chat import server as server  # the fixture (a server with grace 0), re-exported for pytest
from test_tui_connect import BOTS, make_table
from tui_helpers import logged as log_text

VARIANT = "standard,contracts=NT+MZ"  # six deals


def row(deal_no: int, dealer: int, chooser: int, contract: str, scores: list[int], totals: list[int]
        ) -> dict[str, Any]:
    """A ``score_sheet`` row as a server sends it (the tricks do not matter here)."""
    return {"deal_no": deal_no, "dealer": dealer, "chooser": chooser, "contract": contract,
            "tricks": [0] * len(scores), "scores": scores, "totals": totals, "dd": None}


def grid_part(text: str) -> list[str]:
    """The lines of a sheet's grid: those before the first blank line."""
    return text.split("\n\n")[0].splitlines()


def column_at(line: str, index: int) -> int:
    """The terminal cell where character *index* of *line* begins."""
    return cell_len(line[:index])


# -- the grid of contracts -------------------------------------------------------------------------------------------


def test_the_sheet_begins_with_the_local_grid_of_contracts() -> None:
    rows = [row(1, 2, 0, "H", [-2, -1, 3], [-2, -1, 3]), row(2, 0, 1, "MZ", [0, -2, 2], [-2, -3, 5])]
    view = {"variant": "standard", "score_sheet": rows}
    names = ["Ola", "Ala", "Ela"]
    text = sheet_text(view, names)
    results = [DealResult(r["deal_no"], r["dealer"], r["chooser"], Contract.from_str(r["contract"]),
                          tuple(r["tricks"]), tuple(r["scores"]), (None,) * 3) for r in rows]
    # the local sheet's grid, as it is (plain names are as wide in cells as in characters), then a key to it
    grid = grid_part(text)
    assert grid[:-1] == ScoreSheet(names, results).grid().splitlines(), text
    assert grid[-1] == "(X: a contract the player has chosen; each player chooses each contract once)"
    # then the deals, as before
    assert text.split("\n\n")[1].startswith("deal  contract  chooser") and "(each cell: the deal's score" in text


def test_the_grid_lines_up_wide_and_long_names_by_cells() -> None:
    view = {"variant": "standard", "score_sheet": [row(1, 2, 0, "H", [-2, -1, 3], [-2, -1, 3]),
                                                   row(2, 0, 1, "S", [1, 2, -3], [-1, 1, 0])]}
    names = ["李小龍", "Bartholomew the Great", "Ola"]
    grid = grid_part(sheet_text(view, names))
    header, wide, long, plain = grid[:4]
    assert wide.startswith("李小龍") and long.startswith("Bartholomew…") and plain.startswith("Ola")
    # each X under its contract's symbol, and each total under "total", counted in terminal cells
    assert column_at(wide, wide.index("X")) == column_at(header, header.index("♥"))
    assert column_at(long, long.index("X")) == column_at(header, header.index("♠"))
    for line, total in ((wide, "-1"), (long, "+1"), (plain, "0")):
        assert column_at(line, line.rindex(total)) == column_at(header, header.index("total")), grid
    assert "Bartholomew~" in sheet_text(view, names, unicode=False)


def test_the_grid_follows_the_variant() -> None:
    # uses=2: a contract chosen twice is XX, used up
    twice = {"variant": "standard,uses=2", "score_sheet": [row(1, 2, 0, "H", [1, 0, -1], [1, 0, -1]),
                                                           row(2, 0, 0, "H", [1, 0, -1], [2, 0, -2])]}
    grid = grid_part(sheet_text(twice, ["Ola", "Ala", "Ela"]))
    assert grid[1].split() == ["Ola", "XX", "+2"], grid
    assert column_at(grid[1], grid[1].index("XX")) == column_at(grid[0], grid[0].index("♥"))
    assert "each player chooses each contract twice" in grid[-1]
    # global_unique, two contracts: only their columns; a marked column is gone for everyone
    short = {"variant": "standard,contracts=NT+MZ,global_unique",
             "score_sheet": [row(1, 2, 1, "MZ", [0, 1, -1], [0, 1, -1])]}
    grid = grid_part(sheet_text(short, ["Ola", "Ala", "Ela"]))
    assert grid[0].split() == ["player", "NT", "MZ", "total"] and grid[2].split() == ["Ala", "X", "+1"], grid
    assert "each contract is played once in all, whoever chooses it" in grid[-1] and "gone for everyone" in grid[-1]
    # four at the table: four rows, the dealer who sat out keeps his total
    four = {"variant": "four-players", "score_sheet": [row(1, 2, 3, "C", [-2, 3, 0, -1], [-2, 3, 0, -1])]}
    grid = grid_part(sheet_text(four, ["Ola", "Bot 2", "Bot 3", "Bot 4"]))
    assert [line.split() for line in grid[1:5]] == [["Ola", "-2"], ["Bot", "2", "+3"], ["Bot", "3", "0"],
                                                    ["Bot", "4", "X", "-1"]], grid
    # a view without a variant this client knows: the deals alone, as before
    assert sheet_text({"score_sheet": four["score_sheet"]}, ["A", "B", "C", "D"]).startswith("deal  contract")
    assert sheet_text({"variant": "nonsense", "score_sheet": four["score_sheet"]},
                      ["A", "B", "C", "D"]).startswith("deal  contract")


def play_until(table: RemoteTable, done: Any, tries: int = 2000) -> None:
    """Play *table*'s seat (the first contract, keep the hand, the first legal card) until ``done(table)``."""
    for _ in range(tries):
        if done(table):
            return
        if table.my_turn():
            view = table.view
            reply = table.act("keep" if view["phase"] == "exchange" else view["legal"][0])
            assert reply["type"] in ("ack", "error"), reply
        else:
            table.poll(0.05)
    raise AssertionError(f"not reached; view: {table.view}")


def test_the_line_game_and_the_full_screen_sheet_show_the_grid(server: ThreadServer) -> None:
    """At a server's table, after deal 1: ``sheet`` (line game) and ``p`` (full screen) begin with the grid, an X
    in the chooser's row under the contract chosen."""
    table = RemoteTable(parse_invite(make_table(server, BOTS, variant=VARIANT)), timeout=10)
    table.join("Ola")
    table.connect()
    # a turn the game would not ask about (an only contract, an empty talon, a last card) is played for us at
    # once: wait for a card to choose in deal 2
    play_until(table, lambda t: t.view["deal_no"] == 2 and t.my_turn() and t.view["phase"] == "play"
               and len(t.observation().hand) > 1)
    first = table.view["score_sheet"][0]
    symbol = Contract.from_str(first["contract"]).symbol
    answers = iter(["sheet", "quit"])
    lines: list[str] = []
    game = RemoteLineGame(table, read=lambda prompt: next(answers), write=lines.append)
    with pytest.raises(QuitGame):
        game.ask_remote()
    out = "\n".join(lines)
    header = next(line for line in out.splitlines() if line.startswith("player"))
    assert header.split() == ["player", "NT", "MZ", "total"], out
    chooser = next(line for line in out.splitlines() if line.startswith(table.names()[first["chooser"]] + " "))
    assert column_at(chooser, chooser.index("X")) == column_at(header, header.index(symbol)), out

    pytest.importorskip("textual", reason="the full-screen game needs the 'tui' extra")
    import asyncio

    from mizerka.tui.app import InfoDialog
    from mizerka.tui.remote_app import RemoteApp

    app = RemoteApp(table)

    async def look() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause(0.3)
            await pilot.press("p")
            await pilot.pause(0.2)
            assert isinstance(app.screen, InfoDialog), app.screen
            page = app.screen.text
            assert page.startswith("player") and page.splitlines()[0].split() == ["player", "NT", "MZ", "total"]
            assert page == sheet_text(table.view, table.names())
            await pilot.press("escape")
            await pilot.press("x")

    asyncio.run(look())
    assert app.failure is None
    table.close()


# -- the sitting-out dealer ------------------------------------------------------------------------------------------


def test_the_sheet_writes_a_dash_for_the_dealer_who_sat_the_deal_out() -> None:
    """Rows as a server sends them at a four-player table (each names its dealer: seat 2, then seat 3)."""
    view = {"score_sheet": [
        {"deal_no": 1, "dealer": 2, "chooser": 3, "contract": "H", "tricks": [3, 4, 0, 6], "scores": [-2, 3, 0, -1],
         "totals": [-2, 3, 0, -1], "dd": None},
        {"deal_no": 2, "dealer": 3, "chooser": 0, "contract": "C", "tricks": [2, 9, 2, 0], "scores": [-5, 4, 1, 0],
         "totals": [-7, 7, 1, -1], "dd": None}]}
    lines = sheet_text(view, ["Ola", "Bot 2", "Bot 3", "Bot 4"]).splitlines()
    first, second = lines[1].split(), lines[2].split()
    assert first[-4:] == ["-2/-2", "+3/+3", "-/0", "-1/-1"], lines  # Bot 3 dealt: no score, his total
    assert second[-4:] == ["-5/-7", "+4/+7", "+1/+1", "-/-1"], lines  # Bot 4 dealt
    # three at the table: the dealer plays, and a 0 is a score
    three = {"score_sheet": [{"deal_no": 1, "dealer": 0, "chooser": 1, "contract": "H", "tricks": [4, 5, 4],
                              "scores": [0, 1, 0], "totals": [0, 1, 0], "dd": None}]}
    assert sheet_text(three, ["Ola", "Ala", "Ela"]).splitlines()[1].split()[-3:] == ["0/0", "+1/+1", "0/0"]


# -- the deals that ended while the player was away ------------------------------------------------------------------


def two_players(server: ThreadServer) -> tuple[str, RemoteTable, RemoteTable]:
    """Ola (seat 0, the client under test) and Bolek (seat 1, played by the test) at a table with a bot; the match
    begun.  Returns the invite link and both tables."""
    url = make_table(server, TWO_HUMANS, variant=VARIANT)
    ola, bolek = RemoteTable(parse_invite(url), timeout=10), RemoteTable(parse_invite(url), timeout=10)
    ola.join("Ola")
    ola.connect()
    bolek.join("Bolek")
    bolek.connect()
    for _ in range(100):
        if ola.view.get("deal_no") == 1:
            break
        ola.poll(0.05)
    assert ola.view["deal_no"] == 1, ola.view
    return url, ola, bolek


def bolek_plays_into_deal_2(bolek: RemoteTable) -> None:
    """Bolek plays (Ola's stand-in and the bot play the other seats) until he is to act in deal 2: the table waits
    for him there, so nothing more happens until the test says."""
    play_until(bolek, lambda t: t.view["deal_no"] == 2 and t.my_turn())


def expected_line(table: RemoteTable, deal: dict[str, Any], you: str = "you") -> str:
    """What the games say of *deal* (a ``score_sheet`` row), our seat named *you*."""
    names = [you if seat == table.seat else name for seat, name in enumerate(table.names())]
    contract = Contract.from_str(deal["contract"])
    scores = ", ".join(f"{names[s]} {score:+d} (total {total:+d})".replace("+0", "0")
                       for s, (score, total) in enumerate(zip(deal["scores"], deal["totals"], strict=True)))
    return (f"Deal {deal['deal_no']} ended while you were away ({contract.label}, {contract.goal}; chosen by "
            f"{names[deal['chooser']]}): {scores}.")


def test_the_line_game_says_how_a_deal_missed_over_a_dropped_connection_ended(server: ThreadServer) -> None:
    _, ola, bolek = two_players(server)
    lines: list[str] = []
    game = RemoteLineGame(ola, read=lambda prompt: "quit", write=lines.append, unicode=False)
    game.report_news()
    assert not [line for line in lines if "while you were away" in line]
    ola.drop()  # the network goes; a stand-in plays Ola's seat (grace 0) while Bolek plays deal 1 out
    bolek_plays_into_deal_2(bolek)
    for _ in range(100):  # the game reads the server again: it reconnects, and the welcome catches up
        if ola.reconnects and ola.view["deal_no"] == 2:
            break
        ola.poll(0.05)
    lines.clear()
    game.report_news()
    deal = ola.view["score_sheet"][0]
    said = [line for line in lines if "while you were away" in line]
    assert said == [expected_line(ola, deal)], lines
    assert lines.index(said[0]) > max(i for i, line in enumerate(lines) if "Deal 1 is over" in line)  # after it
    assert not re.search(r"\b[2-9TJQKA][CDHS]\b", said[0])  # the sheet's row: no card
    # said once; a drop in which no deal ends says nothing
    lines.clear()
    game.report_news()
    ola.drop()
    for _ in range(100):
        if ola.reconnects == 2:
            break
        ola.poll(0.05)
    game.report_news()
    assert ola.reconnects == 2 and not [line for line in lines if "while you were away" in line], lines
    ola.close()
    bolek.close()


def test_the_line_game_back_at_a_held_seat_says_only_the_deals_it_missed(server: ThreadServer) -> None:
    """The game is closed and started again later (the seat book's token, a new connection that sees the whole
    journal): the deals the stand-in finished since it took the seat are said, not those played before."""
    url, ola, bolek = two_players(server)
    seat, token = ola.seat, ola.token
    ola.close()  # the player closes the game in deal 1
    bolek_plays_into_deal_2(bolek)

    def back() -> tuple[RemoteTable, list[str]]:
        again = RemoteTable(parse_invite(url), timeout=10)
        again.seat, again.token = seat, token
        again.connect()
        lines: list[str] = []
        RemoteLineGame(again, read=lambda prompt: "quit", write=lines.append, unicode=False).report_news()
        return again, lines

    again, lines = back()
    said = [line for line in lines if "while you were away" in line]
    assert said == [expected_line(again, again.view["score_sheet"][0])], lines
    # closed again at once, and back: deal 1 was said in the last game, and no deal ended meanwhile
    again.close()
    time.sleep(0.3)
    third, lines = back()
    assert "Deal 1 is over" in "\n".join(lines)  # the whole journal is written again, as before
    assert not [line for line in lines if "while you were away" in line], lines
    third.close()
    bolek.close()


def test_the_full_screen_game_logs_and_notifies_a_deal_it_missed(server: ThreadServer) -> None:
    pytest.importorskip("textual", reason="the full-screen game needs the 'tui' extra")
    import asyncio

    from mizerka.tui.remote_app import RemoteApp

    _, ola, bolek = two_players(server)
    ola.drop()  # gone before the game reads the server: it reconnects when it starts, into deal 2
    bolek_plays_into_deal_2(bolek)
    app = RemoteApp(ola)

    async def look() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            for _ in range(100):
                await pilot.pause(0.05)
                if "while you were away" in log_text(app):
                    break
            line = expected_line(ola, ola.view["score_sheet"][0], you="You")
            assert line in " ".join(log_text(app).split()), log_text(app)  # (the log wraps long lines)
            assert line in [str(n.message) for n in app._notifications]
            await pilot.press("x")

    asyncio.run(look())
    assert app.failure is None and ola.reconnects == 1
    ola.close()
    bolek.close()
