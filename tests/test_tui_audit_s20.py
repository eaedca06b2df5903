"""The terminal games where an audit (session 20) found them wrong: the game log took the arrow keys and cut its
lines at small sizes, and ``--variant four-players`` was refused for an ``--opponents`` the player never typed."""

from __future__ import annotations

import asyncio

import pytest
from click.testing import CliRunner
from textual.widgets import RichLog

from mizerka.rules import parse_variant
from mizerka.tui.app import ContractDialog, ExchangeDialog, InfoDialog, SheetDialog
from mizerka.tui.command import build_app, play_command
from tui_helpers import logged, pause_until


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


@pytest.mark.parametrize("variant", ["standard", "four-players"])
def test_the_default_opponents_fill_every_other_seat(variant: str) -> None:
    """Without ``--opponents`` a rules bot sits in every other seat, at a table of three or of four (the default
    'rules,rules' named two levels, and a four-player table was refused over an option nobody typed)."""
    result = CliRunner().invoke(play_command, ["--plain", "--variant", variant, "--seed", "1"], input="quit\n")
    assert result.exit_code == 0, result.output
    first = result.output.splitlines()[0]
    assert first.count("(rules)") == parse_variant(variant).n_seats - 1, first


def test_a_discard_not_in_the_hand_is_refused_in_the_players_words() -> None:
    """The line game said "illegal action exchange 2H: cannot discard 2H: not in seat 0's hand"; it now says which
    card is not in the hand, as the card prompt does, and asks again."""
    result = CliRunner().invoke(play_command, ["--plain", "--seed", "5"], input="C\n2H\nquit\n")
    refused = [line for line in result.output.splitlines() if line.startswith("Not accepted")]
    assert refused == ["Not accepted: 2♥ is not in your hand"], result.output
    assert result.output.count("Cards to discard") == 2


def test_the_sheet_and_the_help_open_over_the_contract_and_exchange_dialogs() -> None:
    """``p`` and F1, which the footer shows, open the score sheet (whose contracts are left) and the keys over the
    contract choice and the exchange (they did nothing there); closing the page gives the dialog back."""

    async def run() -> None:
        app = build_app(seed=4, rules=parse_variant("standard,first_dealer=2"), seat=0, name="You",
                        opponents="random", bot_delay=0)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            for dialog, answer in ((ContractDialog, "h"), (ExchangeDialog, "enter")):
                assert isinstance(app.screen, dialog), type(app.screen)
                for key, page in (("p", SheetDialog), ("f1", InfoDialog)):
                    await pilot.press(key)
                    await pilot.pause(0.2)
                    assert isinstance(app.screen, page), (dialog, key, type(app.screen))
                    await pilot.press("space")  # any other key closes the page
                    await pilot.pause(0.2)
                    assert isinstance(app.screen, dialog), (dialog, key, type(app.screen))
                await pilot.press(answer)
                await pause_until(pilot, lambda shown=dialog: not isinstance(app.screen, shown), tries=50)
            await pilot.press("ctrl+q")

    asyncio.run(run())
