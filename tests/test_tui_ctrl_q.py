"""Ctrl+Q in the full-screen game: a priority binding of both game screens that quits from the review screen and
the dialogs too, at once while the solver still works on a review (never waiting for the analysis thread)."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from mizerka.match import Match
from mizerka.rules import parse_variant
from mizerka.tui.model import TableModel
from tui_helpers import match_in_play_of_deal_2, pause_until

textual = pytest.importorskip("textual", reason="the tui extra (textual) is not installed")

VARIANT = "standard,contracts=NT+MZ,first_dealer=2"


def test_ctrl_q_quits_from_the_review_screen_and_the_dialogs() -> None:
    from mizerka.tui.app import ExchangeDialog, MizerkaApp
    from mizerka.tui.review_screen import ReviewScreen

    async def quit_from(open_keys: tuple[str, ...], screen_type: type) -> bool:
        app = MizerkaApp(TableModel(match_in_play_of_deal_2(), 0, ["random", "random"], seed=1), bot_delay=0)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            await pilot.press(*open_keys)
            await pilot.pause()
            assert isinstance(app.screen, screen_type)
            await pilot.press("ctrl+q")
            await pilot.pause()
            return bool(app._exit)

    assert asyncio.run(quit_from(("r",), ReviewScreen))  # before: Ctrl+Q did nothing on the review screen

    async def in_the_exchange() -> bool:  # deal 1, seat 0 is forehand: the contract, then the exchange dialog
        match = Match(parse_variant(VARIANT), players=["You", "Ala", "Bolek"], seed=3)
        app = MizerkaApp(TableModel(match, 0, ["random", "random"], seed=1), bot_delay=0)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            await pilot.press("n")  # no-trump
            await pause_until(pilot, lambda: isinstance(app.screen, ExchangeDialog), pause=0.01)
            assert isinstance(app.screen, ExchangeDialog)
            await pilot.press("ctrl+q")
            await pilot.pause()
            return bool(app._exit)

    assert asyncio.run(in_the_exchange())


def test_quitting_while_the_solver_works_does_not_wait_for_it(monkeypatch: pytest.MonkeyPatch) -> None:
    from mizerka.tui import review_screen
    from mizerka.tui.app import MizerkaApp
    from mizerka.tui.review_screen import ReviewScreen

    release = threading.Event()
    started = threading.Event()
    real = review_screen.build_review

    def slow(*args: object, **kwargs: object) -> object:
        started.set()
        release.wait(6)  # a long Mizerka deal
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(review_screen, "build_review", slow)

    async def run() -> None:
        app = MizerkaApp(TableModel(match_in_play_of_deal_2(), 0, ["random", "random"], seed=1), bot_delay=0)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            await pilot.press("r")
            await pilot.pause()
            assert isinstance(app.screen, ReviewScreen) and started.wait(5)
            app.exit()

    began = time.monotonic()
    try:
        asyncio.run(run())  # the end of the event loop: before, it joined the analysis thread
        elapsed = time.monotonic() - began
    finally:
        release.set()
    assert elapsed < 3, f"the game took {elapsed:.1f}s to end: it waited for the solver"


def test_ctrl_q_is_a_priority_binding_in_both_game_screens() -> None:
    """A modal screen (a dialog, the review) passes only priority bindings of the app on: Ctrl+Q must be one."""
    from mizerka.tui.app import MizerkaApp
    from mizerka.tui.remote_app import RemoteApp

    for app in (MizerkaApp, RemoteApp):
        quits = [b for b in app.BINDINGS if getattr(b, "key", None) == "ctrl+q"]
        assert quits and all(getattr(b, "priority", False) for b in quits), app.__name__
