"""The full-screen game on small screens (80x24, 60x20): the hand and its prompt stay whole (a scores column of
fixed width pushed the hand off the screen); the dialogs' key lines wrap instead of being cut; the score sheet of a
whole match scrolls with the arrows (any key closed it) and is not wrapped; the arrows move over the hand, and the
game log wraps to its box (it took the focus and scrolled sideways, and cut its lines at 78 columns)."""

from __future__ import annotations

import asyncio
import random

import pytest

pytest.importorskip("textual", reason="the tui extra (textual) is not installed")

from textual.widgets import RichLog

from mizerka.cards import CARDS
from mizerka.deal import KEEP, Phase
from mizerka.rules import parse_variant
from mizerka.tui.app import ContractDialog, ExchangeDialog, InfoDialog, MizerkaApp
from mizerka.tui.command import build_app
from mizerka.tui.model import TableModel
from tui_helpers import logged, make_app, pause_until, screen_text, to_first_card


def flat(text: str) -> str:
    """The screen's words in one line (a dialog's wrapped lines joined, its border dropped)."""
    return " ".join(text.replace("█", " ").split())


def hand_on_screen(app: MizerkaApp) -> list[str]:
    return [CARDS[c].unicode() for c in app.model.observation().hand.cards()]


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
def test_the_hand_and_the_prompt_are_whole_on_a_small_screen(size: tuple[int, int]) -> None:
    """At 80x24 the hand line lost the end of its prompt, and at 60x20 the status column (squeezed by a
    scores column of fixed width) pushed the hand off the screen."""

    async def run() -> None:
        app = make_app()
        async with app.run_test(size=size) as pilot:
            await to_first_card(app, pilot)
            text = screen_text(app)
            hand_lines = [line for line in text.splitlines() if "Your hand:" in line]
            assert hand_lines, text
            for card in hand_on_screen(app):
                assert card in text, (card, text)
            assert "Enter" in text.split("Your hand:", 1)[1], text
            assert "Contract:" in text and "Trick 1 of 13" in text, text

    asyncio.run(run())


def test_the_dialogs_key_lines_wrap_instead_of_being_cut_at_80_columns() -> None:
    async def run() -> None:
        app = make_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, ContractDialog)
            assert "or ← → and Enter." in flat(screen_text(app))
            await pilot.press("n")
            await pilot.pause()
            assert isinstance(app.screen, ExchangeDialog)
            text = flat(screen_text(app))
            assert "You cannot exchange again." in text and "(nothing marked: keep)." in text, text

    asyncio.run(run())


def _play_whole_match(model: TableModel) -> None:
    rnd = random.Random(1)
    while not model.is_over():
        if model.is_human_turn():
            phase = model.observation().phase
            model.act(KEEP if phase is Phase.EXCHANGE else rnd.choice(list(model.match.legal_actions)))
        else:
            model.step_bot()


def test_the_score_sheet_of_a_whole_match_scrolls_at_80x24() -> None:
    """The sheet of 18 deals is taller and wider than an 80x24 screen: it was wrapped and cut off, and any key
    (an arrow too) closed it.  Now the arrows scroll it and it is not wrapped."""

    async def run() -> None:
        app = make_app()
        _play_whole_match(app.model)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("p")
            await pilot.pause()
            assert isinstance(app.screen, InfoDialog)
            text = screen_text(app)
            assert "Score sheet" in text and "player  ♣  ♦  ♥  ♠  NT  MZ  total" in text
            row_1 = next(line for line in text.splitlines() if " 1     " in line)
            assert "take" in row_1 or "avoid" in row_1, text  # one deal per line, not wrapped
            assert not any(line.lstrip("█ ").startswith("18 ") for line in text.splitlines())  # below the fold
            await pilot.press("end")
            await pilot.pause()
            assert isinstance(app.screen, InfoDialog), "a scroll key closed the sheet"
            text = screen_text(app)
            assert any(line.lstrip("█ ").startswith("18 ") for line in text.splitlines()), text
            await pilot.press("escape")
            await pilot.pause()
            assert not isinstance(app.screen, InfoDialog)

    asyncio.run(run())


@pytest.mark.parametrize(("size", "mistype"), [((60, 20), False), ((80, 24), True)])
def test_the_arrows_move_over_the_hand_and_the_log_wraps_to_its_box(size: tuple[int, int], mistype: bool) -> None:
    """At 60x20 from the first card, and at 80x24 after a long log line (the answer to a mistyped card), → moves the
    cursor over the hand: the log, which had the focus, scrolled sideways instead.  And the log's lines wrap at
    its own width: Textual's default of 78 columns cut off the end of that answer ("… e.g. a s = A♠.")."""

    async def run() -> None:
        app = build_app(seed=4, rules=parse_variant("standard,first_dealer=2"), seat=0, name="You",
                        opponents="random", bot_delay=0)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await pilot.press("h")  # hearts
            await pilot.pause()
            await pilot.press("enter")  # keep the hand
            await pause_until(pilot, lambda: app.model.is_human_turn(), tries=50)
            if mistype:
                await pilot.press("a", "x")
                await pilot.pause(0.2)
            before = app.cursor
            await pilot.press("right")
            await pilot.pause(0.2)
            log = app.query_one("#log", RichLog)
            assert app.cursor == before + 1 and log.scroll_x == 0, (app.cursor, app.focused, log.scroll_x)
            if mistype:
                width = log.scrollable_content_region.width
                assert all(len(line.text) <= width for line in log.lines), [line.text for line in log.lines]
                assert "e.g. a s = A♠." in " ".join(logged(app).split())
            await pilot.press("ctrl+q")

    asyncio.run(run())
