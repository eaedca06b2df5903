"""Defects an audit of the full-screen game found (session 18): a key typed after a rank still ran its binding,
the contract dialog's reason for a contract the variant does not play, "1 cards", an empty talon's keep logged
twice, a zero score written "+0", and the score sheet closed by a fourth digit."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("textual", reason="the tui extra (textual) is not installed")

from textual.widgets import Static

from mizerka.cards import CardSet
from mizerka.deal import Exchange, Phase
from mizerka.match import Match
from mizerka.rules import parse_variant
from mizerka.tui.app import ContractDialog, ExchangeDialog, InfoDialog, MizerkaApp, SheetDialog
from mizerka.tui.command import build_app
from mizerka.tui.model import TableModel
from tui_helpers import logged, match_in_play_of_deal_2


def make_app(variant: str = "standard,first_dealer=2", seed: int = 3) -> MizerkaApp:
    return build_app(seed=seed, rules=parse_variant(variant), seat=0, name="You", opponents="random", bot_delay=0)


def notices(app: Any) -> list[str]:
    return [str(n.message) for n in app._notifications]


def panel(app: Any, name: str) -> str:
    return str(app.query_one(name, Static).render())


async def after_a_card(app: MizerkaApp, pilot: Any) -> None:
    """Play to the human's second card of deal 1 (so that ``u`` would have a card to take back)."""
    played = False
    for _ in range(400):
        if isinstance(app.screen, ContractDialog):
            await pilot.press("n")
        elif isinstance(app.screen, ExchangeDialog):
            await pilot.press("enter")
        elif app.model.is_human_turn() and app.model.observation().phase is Phase.PLAY:
            if played and app.model.can_undo():
                return
            await pilot.press("enter")
            played = True
        else:
            await pilot.pause()
    raise AssertionError("the human's second card was never asked for")


# -- a rank, then a key that is not a suit -----------------------------------------------------------------------


def test_a_key_after_a_rank_is_not_a_card_and_does_nothing_else() -> None:
    """``a`` then ``u`` took back cards, ``k`` then ``p`` opened the sheet, ``q`` then ``x`` quit: the key after a
    rank was refused as "not a card" but its binding ran too (TableApp.on_key stopped the key without
    ``prevent_default``, so App's own handler still ran the binding)."""

    async def run() -> None:
        app = make_app()
        async with app.run_test(size=(100, 30)) as pilot:
            await after_a_card(app, pilot)
            before = tuple(app.model.match.deal.history)
            await pilot.press("a", "u")
            await pilot.pause()
            assert tuple(app.model.match.deal.history) == before  # nothing taken back
            assert "Not a card: A then 'u'" in logged(app)
            await pilot.press("k", "p", "q", "x", "t", "l", "5", "n")
            await pilot.pause()
            assert not isinstance(app.screen, InfoDialog) and app.is_running
            assert tuple(app.model.match.deal.history) == before
            assert logged(app).count("Not a card:") == 5
            await pilot.press("u")  # alone, the keys do their jobs again
            await pilot.pause()
            assert tuple(app.model.match.deal.history) != before
            await pilot.press("p")
            await pilot.pause()
            assert isinstance(app.screen, SheetDialog)
            await pilot.press("escape", "x")
            await pilot.pause()
            assert not app.is_running

    asyncio.run(run())


def test_a_key_after_a_rank_does_nothing_else_at_a_server_table(tmp_path: Path) -> None:
    """The app of a server's table (RemoteApp, a TableApp) types cards the same way: ``p`` after a rank opened the
    sheet and ``x`` after a rank left the table."""
    pytest.importorskip("fastapi", reason="a server: the 'server' extra")
    pytest.importorskip("websockets", reason="--connect needs the 'tui' extra")
    sys.path.insert(0, str(Path(__file__).parent / "server"))
    from test_tui_connect import seated_app, start_server

    server = start_server(tmp_path)
    try:
        table, app = seated_app(server)

        async def run() -> None:
            async with app.run_test(size=(120, 40)) as pilot:
                for _ in range(500):  # past the contract and exchange dialogs: the cards are typed on the table
                    await pilot.pause(0.02)
                    if isinstance(app.screen, ContractDialog):
                        await pilot.press("n")
                    elif isinstance(app.screen, ExchangeDialog):
                        await pilot.press("enter")
                    elif table.view is not None and table.view["phase"] == "play" and not app._dialog_open:
                        break
                else:
                    raise AssertionError("play never began")
                await pilot.press("k", "p", "q", "x")
                await pilot.pause(0.1)
                assert not isinstance(app.screen, InfoDialog) and app.is_running
                assert logged(app).count("Not a card:") == 2
                await pilot.press("x")
                await pilot.pause(0.1)

        asyncio.run(run())
        assert app.failure is None and not app.is_running
        table.close()
    finally:
        server.stop()


# -- the contract dialog ---------------------------------------------------------------------------------------


def test_a_contract_the_variant_does_not_play_is_refused_as_such() -> None:
    """In a match of no-trump and Mizerka only, ``h`` said "hearts is not yours to choose any more": it never was."""

    async def run() -> None:
        app = make_app("standard,contracts=NT+MZ,first_dealer=2")
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, ContractDialog)
            await pilot.press("h")
            await pilot.pause()
            assert notices(app) == ["hearts is not played in this variant (its contracts: no-trump, Mizerka)"]
            assert isinstance(app.screen, ContractDialog)  # still to choose
            await pilot.press("ctrl+q")

    asyncio.run(run())


# -- the exchange: one card in the talon, or none -----------------------------------------------------------------


def exchanged_before_me(discards: int) -> MizerkaApp:
    """Deal 1 with forehand (Ala, seat 0) having chosen no-trump and discarded *discards* of the 13 talon cards:
    the human is middlehand (seat 1), and his exchange is next."""
    match = Match(parse_variant("standard,first_dealer=2"), players=["Ala", "You", "Bolek"], seed=3)
    match.play("NT")
    hand = sorted(match.observation(0).hand.cards())
    match.play(Exchange(CardSet(hand[:discards])))
    assert match.to_move == 1 and match.deal.phase is Phase.EXCHANGE
    return MizerkaApp(TableModel(match, 1, ["random", "random"], seed=3), bot_delay=0)


def test_a_talon_of_one_card_is_one_card() -> None:
    """The exchange dialog said "The talon holds 1 cards", the status "talon 1 cards"."""

    async def run() -> None:
        app = exchanged_before_me(12)
        async with app.run_test(size=(120, 36)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, ExchangeDialog)
            label = " ".join(str(w.render()) for w in app.screen.query("Label"))
            assert "The talon holds 1 card: discard up to 1," in label
            assert "talon 1 card" in panel(app, "#status") and "1 cards" not in panel(app, "#status")
            await pilot.press("space", "right", "space")  # a second mark is one too many
            await pilot.pause()
            assert "at most 1 card: the talon holds no more" in notices(app)
            await pilot.press("ctrl+q")

    asyncio.run(run())


def test_an_empty_talon_keep_is_logged_once() -> None:
    """The talon emptied before the human's exchange: the log said "The talon is empty: you keep your hand." and
    then "You kept your hand." as well."""

    async def run() -> None:
        app = exchanged_before_me(13)
        async with app.run_test(size=(120, 36)) as pilot:
            for _ in range(50):
                await pilot.pause()
                if app.model.observation().exchange_counts[1] is not None:
                    break
            text = logged(app)
            assert text.count("The talon is empty: you keep your hand.") == 1
            assert "You kept your hand." not in text
            assert "Ala exchanged 13 cards." in text
            await pilot.press("ctrl+q")

    asyncio.run(run())


# -- zero scores -----------------------------------------------------------------------------------------------


def test_a_zero_score_is_written_0_as_in_the_line_game() -> None:
    """The end-of-deal line said "Ala 5/5 → +0" and the totals panel "+0", where the line game and the score
    sheet write 0."""
    match = match_in_play_of_deal_2()
    assert match.deals[0].observation(0).scores is not None and 0 in match.deals[0].observation(0).scores

    async def run() -> None:
        app = MizerkaApp(TableModel(match, 0, ["random", "random"], seed=3), bot_delay=0)
        async with app.run_test(size=(120, 36)) as pilot:
            await pilot.pause()
            over = next(line for line in logged(app).splitlines() if line.startswith("Deal 1 over"))
            assert "→ 0" in over and "+0" not in over, over
            scores = panel(app, "#scores")
            assert "+0" not in scores and "+3" in scores, scores  # Ala's total is 0, Bolek's +3
            await pilot.press("ctrl+q")

    asyncio.run(run())


# -- the score sheet's deal number -----------------------------------------------------------------------------


def test_a_fourth_digit_in_the_score_sheet_is_refused_and_the_sheet_stays() -> None:
    """Three digits of a deal number were taken, and a fourth closed the sheet without a word."""
    match = match_in_play_of_deal_2()

    async def run() -> None:
        app = MizerkaApp(TableModel(match, 0, ["random", "random"], seed=3), bot_delay=0)
        async with app.run_test(size=(120, 36)) as pilot:
            await pilot.pause()
            await pilot.press("p")
            await pilot.pause()
            sheet = app.screen
            assert isinstance(sheet, SheetDialog)
            await pilot.press("1", "2", "3", "4")
            await pilot.pause()
            assert app.screen is sheet and sheet.number == "123"
            assert any("There is no deal 1234" in n and "Backspace" in n for n in notices(app)), notices(app)
            await pilot.press("backspace", "backspace", "backspace", "1", "r")  # deal 1 is reviewed
            await pilot.pause()
            assert app.screen is not sheet and app._reviewing
            await pilot.press("ctrl+q")

    asyncio.run(run())
