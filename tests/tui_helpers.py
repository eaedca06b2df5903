"""Helpers shared by the full-screen game's tests."""

from __future__ import annotations

import io
from typing import Any

from rich.console import Console


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
