"""Names, chat and the server's words are shown exactly in the full-screen games, backslashes too, and names line
up by terminal cells.

Rich's markup reads a run of backslashes before a tag as escapes (two show as one), and ``rich.markup.escape``
handles only a lone one at the end of its text: a name ending in an even run of backslashes (``Ala\\\\``) lost
half of them before a tag ("Trick 1: ... → [b]Ala\\\\[/b]."), and one with a single backslash showed two where no tag
followed.  The panels were strings read as Textual's markup, whose rules differ again.  Now every such text goes
in through :func:`mizerka.tui.review_screen.literal` and the panels are Rich text.  At a real server's table a name
with markup in it (``Evil[/b]``, ``[@click=app.quit]``) is written as typed: it crashed the app or became an action.

Wide (CJK) and long names are fitted to terminal cells (:func:`mizerka.tui.remote.fit_cells`): the score sheet and
the scores panel keep their columns in line.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("textual", reason="the full-screen game needs the 'tui' extra")
pytest.importorskip("websockets", reason="--connect needs the 'tui' extra (pip install -e '.[dev]')")
pytest.importorskip("fastapi", reason="the --connect tests need a server: the 'server' extra (pip install -e '.[dev]')")

from rich.cells import cell_len
from rich.text import Text

from mizerka.tui.remote import RemoteTable, parse_invite, sheet_text
from mizerka.tui.remote_app import RemoteApp
from mizerka.tui.review_screen import literal, rich_markup

sys.path.insert(0, str(Path(__file__).parent / "server"))
from server_helpers import ThreadServer

from test_tui_connect import make_table, start_server
from test_tui_connect_rematch import TWO_HUMANS
from test_tui_connect_undo import seated
from test_tui_connect_watch import watching
from tui_helpers import VIEW, answering_hello, connected, fake_server, logged, pause_until, welcome

NAMES = ["Ala\\\\", "Bo\\", "Ce\\\\\\", "[b]x", "x[none]", "[@click=app.quit]y", "a\\[b]z", "[$accent]w"]


@pytest.mark.parametrize("name", NAMES)
def test_literal_shows_the_text_wherever_it_stands(name: str) -> None:
    for markup, shown in ((f"[b]{literal(name)}[/b].", f"{name}."), (f"{literal(name)} chose", f"{name} chose"),
                          (f"→ {literal(name)}", f"→ {name}"), (f"{literal(name)}[red]x[/]", f"{name}x")):
        assert Text.from_markup(markup).plain == shown
        assert rich_markup(markup).plain == shown
    bold = Text.from_markup(f"[b]{literal(name)}[/b] chose")
    assert [(span.start, span.end) for span in bold.spans if str(span.style) == "bold"] == [(0, len(name))]


# -- the full-screen game at a server's table --------------------------------------------------------------------

OTHER, THIRD = "Ala\\\\", "Bo\\"


def playing_view() -> dict[str, Any]:
    """Deal 1 in play: seat 1 (OTHER, forehand) chose no-trump and won the first trick; we are seat 0 (the dealer,
    with one card left to see); THIRD is seat 2."""
    players = [{"seat": i, "name": n, "kind": "human", "open": False, "registered": i == 1}
               for i, n in enumerate(["Me", OTHER, THIRD])]
    return {**VIEW, "status": "playing", "phase": "play", "seq": 5, "players": players, "deal_no": 1,
            "dealer": 0, "roles": {"1": "FH", "2": "MH", "0": "D"}, "to_move": 1, "your_turn": False,
            "contract": {"code": "NT", "label": "no-trump", "symbol": "NT", "goal": "take", "trump": None},
            "quotas": {"1": 7, "2": 5, "0": 1}, "tricks_won": [0, 1, 0], "hand": ["2C"], "hand_sizes": [12, 12, 12],
            "exchange_counts": [0, 0, 0], "trick": {"leader": 1, "cards": ["KS"], "seats": [1], "winner": None},
            "last_trick": {"leader": 1, "cards": ["AS", "3S", "2S"], "seats": [1, 2, 0], "winner": 1},
            "tricks_played": 1}


EVENTS = [
    {"seq": 1, "event": {"kind": "start", "deal_no": 0, "players": ["Me", OTHER, THIRD], "first_dealer": 0}},
    {"seq": 2, "event": {"kind": "deal", "deal_no": 1, "dealer": 0, "forehand": 1, "active_seats": [1, 2, 0]}},
    {"seq": 3, "event": {"kind": "action", "deal_no": 1, "actor": 1, "action": "NT", "action_kind": "choose",
                         "contract": "NT"}},
    {"seq": 4, "event": {"kind": "action", "deal_no": 1, "actor": 0, "action": "AS", "action_kind": "play",
                         "card": "2S", "trick": {"leader": 1, "cards": ["AS", "3S", "2S"], "seats": [1, 2, 0],
                                                 "winner": 1}}},
    {"seq": 5, "event": {"kind": "action", "deal_no": 1, "actor": 1, "action": "KS", "action_kind": "play",
                         "card": "KS"}},
]


def test_names_ending_in_backslashes_in_the_panels_and_the_log() -> None:
    from textual.widgets import Static

    from mizerka.tui.remote_app import RemoteApp

    def frames(hello: dict[str, Any]) -> list[Any]:
        return [welcome(hello, seat=0, seq=5, view=playing_view(), events=EVENTS)]

    with fake_server(answering_hello(frames)) as url:
        app = RemoteApp(connected(url))

        async def look() -> None:
            async with app.run_test(size=(150, 40)) as pilot:
                await pilot.pause(0.4)
                status = str(app.query_one("#status", Static).render())
                scores = str(app.query_one("#scores", Static).render())
                table = str(app.query_one("#table", Static).render())
                log = logged(app)
                assert f"dealer You   FH {OTHER} · MH {THIRD} · D You" in status, status
                assert f"{OTHER} (forehand)" not in status and "Contract: NT no-trump, take tricks" in status
                assert f"\n{OTHER} ✓" in scores and f"\n{THIRD}  " in scores, scores
                assert f"{OTHER}  K♠ (led)" in table, table
                assert f"The match begins: Me, {OTHER}, {THIRD}." in log
                assert f"{OTHER} chose NT no-trump (take)." in log
                assert f"Trick 1: {OTHER} A♠, {THIRD} 3♠, You 2♠ → {OTHER}." in log, log
                await pilot.press("x")

        asyncio.run(look())
        app.table.close()


def test_the_local_games_names_are_exact() -> None:
    """The local game writes the player's --name in the log's first line."""
    from mizerka.rules import parse_variant
    from mizerka.tui.command import build_app

    app = build_app(seed=3, rules=parse_variant("standard,contracts=NT"), seat=0, name="Ola\\\\",
                    opponents="random", bot_delay=0)

    async def look() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause(0.2)
            assert "you are Ola\\\\; against Ala (random)" in logged(app)
            await pilot.press("x")

    asyncio.run(look())


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ThreadServer]:
    server = start_server(tmp_path)
    yield server
    server.stop()


# -- a name and chat at a server's table -----------------------------------------------------------------------------


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


# -- names by terminal cells -----------------------------------------------------------------------------------------


def test_fitting_a_name_to_terminal_cells() -> None:
    from mizerka.tui.remote import fit_cells  # (imported here: the rest of the file runs against older code too)

    assert fit_cells("李小龍李小龍李小龍", 11) == "李小龍李小…" and cell_len(fit_cells("李小龍李小龍李小龍", 11)) == 11
    assert fit_cells("李小龍", 8) == "李小龍  " and fit_cells("Ola", 5, right=True) == "  Ola"
    assert fit_cells("Bartholomew", 8, ellipsis="~") == "Barthol~"


def test_the_score_sheet_lines_up_wide_and_long_names() -> None:
    names = ["李小龍", "Bartholomew the Great", "Ola"]
    view = {"score_sheet": [{"deal_no": 1, "contract": "NT", "chooser": 1, "scores": [3, -5, 2],
                             "totals": [3, -5, 2]},
                            {"deal_no": 2, "contract": "MZ", "chooser": 0, "scores": [-2, 1, 1],
                             "totals": [1, -4, 3]}]}
    lines = sheet_text(view, names).splitlines()[:-1]  # the last: the note under the table
    assert len({cell_len(line) for line in lines}) == 1, lines
    assert "Bartholomew…" in lines[0] and "李小龍" in lines[0]
    assert "Bartholomew…" in lines[1] and "李小龍" in lines[2]
    assert "Bartholomew~" in sheet_text(view, names, unicode=False)


def test_the_full_screen_scores_panel_lines_up_wide_and_long_names(server: ThreadServer) -> None:
    pytest.importorskip("textual", reason="the full-screen game needs the 'tui' extra")
    from textual.widgets import Static

    from mizerka.tui.remote_app import RemoteApp

    url = make_table(server, TWO_HUMANS)
    ola, ala = (RemoteTable(parse_invite(url), timeout=10) for _ in range(2))
    ola.join("李小龍")
    ala.join("Bartholomew the Great")
    ola.connect()
    ala.connect()
    app = RemoteApp(watching(url))
    rows: list[str] = []

    async def look() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause(0.5)
            rows.extend(str(app.query_one("#scores", Static).render()).splitlines()[1:])
            await pilot.press("x")

    asyncio.run(look())
    assert len(rows) == 3 and any(row.startswith("李小龍 ") for row in rows)
    assert any(row.startswith("Bartholome… ") for row in rows), rows
    # no trick taken, no total yet: every row is as wide as the others when the columns line up
    assert len({cell_len(row.rstrip()) for row in rows}) == 1, rows
    app.table.close()
    ola.close()
    ala.close()
