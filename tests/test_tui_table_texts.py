"""What the full-screen table says: a talon of one card is "1 card" (the dialog and the status); an empty talon's
keep is logged once; a zero score is written ``0``, as in the line game and the score sheet (not ``+0``); with four
players the seat that sits out keeps its total on the screen; the turned-up trump card is shown."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

pytest.importorskip("textual", reason="the tui extra (textual) is not installed")

from textual.widgets import Static

from mizerka.cards import CARDS, CardSet
from mizerka.deal import Exchange, Phase
from mizerka.match import Match
from mizerka.rules import parse_variant
from mizerka.tui.app import ContractDialog, ExchangeDialog, MizerkaApp
from mizerka.tui.command import build_app
from mizerka.tui.model import TableModel
from tui_helpers import logged, make_app, match_in_play_of_deal_2, notices, screen_text, to_first_card


def panel(app: Any, name: str) -> str:
    return str(app.query_one(name, Static).render())


# -- the talon: one card, or none ------------------------------------------------------------------------------------


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


# -- scores ----------------------------------------------------------------------------------------------------------


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


def test_four_players_the_seat_that_sits_out_keeps_its_total_on_screen() -> None:
    async def run() -> None:
        rules = parse_variant("four-players,first_dealer=0")
        app = build_app(seed=2, rules=rules, seat=0, name="You", opponents="random", bot_delay=0)
        async with app.run_test(size=(100, 30)) as pilot:
            for _ in range(400):
                await pilot.pause()
                if isinstance(app.screen, ContractDialog):
                    await pilot.press("h")
                elif isinstance(app.screen, ExchangeDialog):
                    await pilot.press("enter")
                elif app.model.is_human_turn():
                    if app.model.match.deal_no == 2:
                        break
                    await pilot.press("enter")
            obs = app.model.observation()
            out = obs.dealer
            assert out not in obs.active_seats and app.model.match.deal_no == 2
            text = screen_text(app)
            line = next((line for line in text.splitlines() if "sits out" in line), "")
            assert app.who(out) in line and f"{obs.totals[out]:+d}" in line, text

    asyncio.run(run())


# -- the turned-up card ----------------------------------------------------------------------------------------------


def test_the_turned_up_trump_card_is_on_the_screen() -> None:
    async def run() -> None:
        app = make_app("standard,show_trump_card,first_dealer=2")
        async with app.run_test(size=(100, 30)) as pilot:
            await to_first_card(app, pilot, contract_key="h")
            obs = app.model.observation()
            assert obs.shown_card is not None
            assert f"turned up: {CARDS[obs.shown_card].unicode()}" in screen_text(app).lower()

    asyncio.run(run())
