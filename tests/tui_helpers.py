"""Helpers shared by the full-screen game's tests."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

from rich.console import Console

from mizerka.cards import CARDS
from mizerka.deal import Phase
from mizerka.match import Match
from mizerka.rules import parse_variant


def screen_text(app: Any) -> str:
    """The screen as plain text (what a snapshot compares): rendered by Textual's compositor, styles dropped."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), record=True, force_terminal=True,
                      color_system="truecolor", legacy_windows=False, safe_box=False)
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return "\n".join(line.rstrip() for line in console.export_text().splitlines())


def logged(app: Any) -> str:
    """The game log's lines as plain text."""
    from textual.widgets import RichLog

    return "\n".join(str(line.text) for line in app.query_one("#log", RichLog).lines)


def first_legal_answer(match: Match, seat: int) -> str:
    """What a tidy human would type: the first unused contract, discard the two lowest cards, the first legal card."""
    obs = match.observation(seat)
    if obs.phase is Phase.CHOOSE:
        return str(obs.legal_actions[0])
    if obs.phase is Phase.EXCHANGE:
        lowest = sorted(obs.hand, key=lambda c: c % 13)[: min(2, obs.talon_size)]
        return " ".join(str(CARDS[c]) for c in lowest) or "-"
    return str(obs.legal_actions[0])


def match_in_play_of_deal_2(variant: str = "standard,contracts=NT+MZ,first_dealer=2") -> Match:
    """A match of You, Ala and Bolek (seed 3) with deal 1 finished (so it can be reviewed) and deal 2 at the
    human's (seat 0's) first card."""
    match = Match(parse_variant(variant), players=["You", "Ala", "Bolek"], seed=3)
    while not (match.deal_no == 2 and match.deal.phase is Phase.PLAY and match.to_move == 0):
        match.play(match.deal.forced_action() or next(iter(match.legal_actions)))
    return match


async def pause_until(pilot: Any, ready: Callable[[], object], *, tries: int = 100, pause: float | None = 0.05) -> None:
    """Let the app run, a pause of *pause* seconds at a time (None: one turn of its message loop), until *ready()*
    is true or *tries* pauses have passed; the caller then asserts what it waited for, so a wait that ran out
    fails there, with the state that was reached."""
    for _ in range(tries):
        await pilot.pause(pause)
        if ready():
            return
