"""The full-screen game's worker threads (the review's analysis, the hint) that finish after the app has closed:
their result is dropped quietly.

Before, each handed its result over with ``App.call_from_thread``, which makes a coroutine in the worker's thread
and schedules it on the app's event loop; with the loop closed (the player quit during the analysis), scheduling
failed, the coroutine was never awaited, and Python warned "RuntimeWarning: coroutine
'App.call_from_thread.<locals>.run_callback' was never awaited" when it was collected, later, in whatever code
ran then.  These tests quit while a worker still works, let it finish, collect the garbage and fail on any
RuntimeWarning."""

from __future__ import annotations

import asyncio
import gc
import threading
import warnings
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("textual", reason="the tui extra (textual) is not installed")

from mizerka.tui.model import TableModel
from tui_helpers import match_in_play_of_deal_2

VARIANT = "standard,contracts=NT+MZ,first_dealer=2"


def quit_while_a_worker_works(key: str, thread_name: str, started: threading.Event,
                              release: threading.Event) -> list[str]:
    """Open the game, press *key* (its worker waits for *release*), quit, then let the worker finish; return the
    RuntimeWarnings raised meanwhile, the garbage collected."""
    from mizerka.tui.app import MizerkaApp

    async def run() -> None:
        app = MizerkaApp(TableModel(match_in_play_of_deal_2(), 0, ["random", "random"], seed=1), bot_delay=0)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            await pilot.press(key)
            await pilot.pause()
            assert started.wait(5), "the worker did not start"
            app.exit()

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            asyncio.run(run())  # the app has closed, and so has its event loop
        finally:
            release.set()  # now the worker ends, and hands its result over
        for thread in threading.enumerate():
            if thread.name == thread_name:
                thread.join(20)
                assert not thread.is_alive(), "the worker is stuck handing its result to a closed app"
        gc.collect()
    return [str(w.message) for w in caught if issubclass(w.category, RuntimeWarning)]


def slow(real: Callable[..., Any], started: threading.Event, release: threading.Event) -> Callable[..., Any]:
    def wait_then_work(*args: Any, **kwargs: Any) -> Any:
        started.set()
        release.wait(10)
        return real(*args, **kwargs)

    return wait_then_work


def test_an_analysis_that_ends_after_the_app_has_closed_leaves_no_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    from mizerka.tui import review_screen

    started, release = threading.Event(), threading.Event()
    monkeypatch.setattr(review_screen, "build_review", slow(review_screen.build_review, started, release))
    assert quit_while_a_worker_works("r", "mizerka-review-1", started, release) == []


def test_a_hint_that_ends_after_the_app_has_closed_leaves_no_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    started, release = threading.Event(), threading.Event()
    monkeypatch.setattr(TableModel, "hint", slow(TableModel.hint, started, release))
    assert quit_while_a_worker_works("question_mark", "mizerka-hint", started, release) == []
