"""The full-screen game's undo (``u``), driven with Textual's pilot: the last card of the human taken back with
the computer players' actions after it, card by card; refused, with the reason, in the contract and exchange
dialogs, at the first card after the exchange, and never into a finished deal; the score and ``--record`` are
those of the cards finally played."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("textual", reason="the tui extra (textual) is not installed")

from mizerka.deal import Action, Observation, Phase, Play
from mizerka.match import Match
from mizerka.record import read
from mizerka.rules import parse_variant
from mizerka.tui.app import ContractDialog, ExchangeDialog, MizerkaApp
from mizerka.tui.command import build_app
from tui_helpers import logged as logged_lines

VARIANT = "standard,contracts=NT+MZ,first_dealer=2"  # six deals; seat 0 is forehand in deal 1
RULES = parse_variant(VARIANT)


def app_for_test(**options: Any) -> MizerkaApp:
    return build_app(seed=3, rules=RULES, seat=0, name="You", opponents="random", bot_delay=0, **options)


def logged(app: MizerkaApp) -> str:
    """The log as one line (the log wraps long lines on the screen), markup-free and single-spaced."""
    return " ".join(logged_lines(app).split())


def mine(match: Match) -> list[Action]:
    deal = match.deal
    return [a for s, a in zip(deal.actors, deal.history, strict=True) if s == 0 and isinstance(a, Play)]


def position(app: MizerkaApp) -> tuple[object, ...]:
    obs: Observation = app.model.observation()
    return obs.hand, obs.trick, len(obs.tricks), tuple(app.model.match.deal.history)


async def my_card_turn(app: MizerkaApp, pilot: Any) -> None:
    """Wait until the human is to play a card (the computer players move meanwhile)."""
    for _ in range(100):
        if app.model.is_human_turn() and app.model.observation().phase is Phase.PLAY:
            return
        await pilot.pause()
    raise AssertionError("the human's card was never asked for")


def test_undo_in_the_dialogs_and_at_the_first_card_is_refused_then_cards_are_taken_back() -> None:
    asyncio.run(_test_undo())


async def _test_undo() -> None:
    app = app_for_test()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ContractDialog)
        await pilot.press("u")
        await pilot.pause()
        assert isinstance(app.screen, ContractDialog) and not app.model.match.deal.history
        assert "Cannot undo: there is nothing of yours to take back in this deal: you have played no card in it " \
               "yet." in logged(app)
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, ExchangeDialog)
        await pilot.press("u")
        await pilot.pause()
        assert isinstance(app.screen, ExchangeDialog)
        assert "Cannot undo: the contract is chosen and the rest of your hand is dealt" in logged(app)
        await pilot.press("space", "right", "space", "enter")  # discard two cards: the drawn ones are seen
        await my_card_turn(app, pilot)
        before = position(app)
        await pilot.press("u")
        await pilot.pause()
        assert position(app) == before
        assert "the exchange cannot be taken back: you have seen the cards you drew from the talon" in logged(app)
        # the first card, and the computer players answer; u takes them all back
        first = app.playable()[0]
        await pilot.press("enter")
        await my_card_turn(app, pilot)
        assert mine(app.model.match) == [Play(first)]
        await pilot.press("u")
        await pilot.pause()
        assert position(app) == before and app.model.is_human_turn()
        assert f"Taken back: You {first.unicode()}" in logged(app)
        assert app.playable()[app.cursor] == first  # the cursor on the card taken back
        # another card instead
        await pilot.press("right", "enter")
        await my_card_turn(app, pilot)
        other = mine(app.model.match)[0]
        assert other != Play(first)
        # two more cards, then two undos in a row: back to the position after the other card
        after_other = position(app)
        await pilot.press("enter")
        await my_card_turn(app, pilot)
        await pilot.press("enter")
        await my_card_turn(app, pilot)
        assert len(mine(app.model.match)) == 3
        await pilot.press("u", "u")
        await pilot.pause()
        assert position(app) == after_other and mine(app.model.match) == [other]
        assert logged(app).count("Taken back:") == 3
        # the tricks taken back are logged again when they are completed anew
        tricks_logged = logged(app).count("Trick 2:")
        await pilot.press("enter")
        for _ in range(100):
            if len(app.model.observation().tricks) >= 2:
                break
            await pilot.pause()
        await pilot.pause()
        assert logged(app).count("Trick 2:") == tricks_logged + 1
        await pilot.press("x")


def test_undo_cancels_a_computer_players_pending_move() -> None:
    asyncio.run(_test_pending())


async def _test_pending() -> None:
    app = build_app(seed=3, rules=RULES, seat=0, name="You", opponents="random", bot_delay=0.3)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("enter")  # keep
        for _ in range(50):
            if app.model.is_human_turn() and app.model.observation().phase is Phase.PLAY:
                break
            await pilot.pause(0.1)
        before = position(app)
        await pilot.press("enter")  # the human leads, middlehand answers; the dealer's move is 0.3 s away
        assert len(app.model.observation().trick) == 2 and app._bot_timer is not None
        await pilot.press("u")
        assert app._bot_timer is None  # cancelled: the dealer is asked again once its turn comes again
        await pilot.pause(0.5)
        assert position(app) == before and app.model.is_human_turn()
        await pilot.press("x")


def test_the_score_and_the_record_are_those_of_the_cards_finally_played(tmp_path: Path) -> None:
    asyncio.run(_test_match(tmp_path / "game.mzn"))


async def _test_match(path: Path) -> None:
    app = app_for_test(record=str(path))
    undone: set[tuple[int, int]] = set()
    async with app.run_test(size=(120, 40)) as pilot:
        match = app.model.match
        for _ in range(3000):
            if match.is_over():
                break
            if isinstance(app.screen, ContractDialog):
                await pilot.press("enter")
            elif isinstance(app.screen, ExchangeDialog):
                await pilot.press("space", "enter")
            elif app.model.is_human_turn() and app.model.observation().phase is Phase.PLAY:
                key = (match.deal_no, len(mine(match)))
                if key[1] in (3, 6) and key not in undone:  # in every deal, twice: u, then the last card
                    undone.add(key)
                    await pilot.press("u", "left", "enter")  # the card before the one taken back
                else:
                    await pilot.press("enter")
            else:
                await pilot.pause()
        assert match.is_over()
        assert logged(app).count("Taken back:") == 2 * match.n_deals
        replay = Match(RULES, players=list(match.players), seed=match.seed)
        for actions in match.history():
            for action in actions:
                replay.play(action)
        assert replay.totals == match.totals and replay.results() == match.results()
        await pilot.press("x")
    record = read(path)
    assert [deal.actions() for deal in record.deals] == match.history()
