"""Defects an audit of the full-screen game found (session 13): the screen at 80x24 and smaller, typed cards,
the score sheet in a dialog, four-player totals, the turned-up card, and a hint that froze the screen."""

from __future__ import annotations

import asyncio
import random
import threading
import time

import pytest

pytest.importorskip("textual", reason="the tui extra (textual) is not installed")

from textual.widgets import RichLog

from mizerka.cards import CARDS, Card
from mizerka.deal import KEEP, Phase, Play
from mizerka.rules import parse_variant
from mizerka.tui.app import ContractDialog, ExchangeDialog, InfoDialog, MizerkaApp
from mizerka.tui.command import build_app
from mizerka.tui.model import TableModel
from tui_helpers import pause_until, screen_text

RULES = parse_variant("standard,first_dealer=2")  # seat 0 is forehand in deal 1


def make_app(variant: str = "standard,first_dealer=2", seed: int = 3) -> MizerkaApp:
    return build_app(seed=seed, rules=parse_variant(variant), seat=0, name="You", opponents="random", bot_delay=0)


def flat(text: str) -> str:
    """The screen's words in one line (a dialog's wrapped lines joined, its border dropped)."""
    return " ".join(text.replace("█", " ").split())


def logged(app: MizerkaApp) -> str:
    return "\n".join(str(line.text) for line in app.query_one("#log", RichLog).lines)


async def to_first_card(app: MizerkaApp, pilot: object, contract_key: str = "n") -> None:
    """Choose a contract, keep the hand, and wait for the human's first card."""
    from textual.pilot import Pilot

    assert isinstance(pilot, Pilot)
    for _ in range(100):
        await pilot.pause()
        if isinstance(app.screen, ContractDialog):
            await pilot.press(contract_key)
        elif isinstance(app.screen, ExchangeDialog):
            await pilot.press("enter")
        elif app.model.is_human_turn() and app.model.observation().phase is Phase.PLAY:
            return
    raise AssertionError("the human's first card was never asked for")


def hand_on_screen(app: MizerkaApp) -> list[str]:
    return [CARDS[c].unicode() for c in app.model.observation().hand.cards()]


# -- the screen at small sizes -----------------------------------------------------------------------------------


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


# -- typed cards ---------------------------------------------------------------------------------------------------


def test_ten_typed_as_1_0_then_its_suit() -> None:
    async def run() -> None:
        app = make_app()  # seed 3: the human holds 10♠ and leads
        async with app.run_test(size=(120, 40)) as pilot:
            await to_first_card(app, pilot)
            ten = Card.from_str("TS")
            assert Play(ten) in app.model.observation().legal_actions
            await pilot.press("1", "0", "s")
            await pilot.pause()
            assert Play(ten) in app.model.match.deal.history

    asyncio.run(run())


def test_typed_cards_that_cannot_be_played_are_refused_with_the_reason() -> None:
    async def run() -> None:
        app = make_app()
        async with app.run_test(size=(120, 40)) as pilot:
            await to_first_card(app, pilot)
            history = list(app.model.match.deal.history)
            hand = app.model.observation().hand
            absent = next(Card(c) for c in range(52) if c not in hand)
            await pilot.press(absent.rank.letter.lower(), absent.suit.letter.lower())
            await pilot.pause()
            assert f"{absent.unicode()} is not in your hand" in logged(app)
            await pilot.press("a", "z")  # a rank, then no suit
            await pilot.pause()
            assert "Not a card: A then" in logged(app)
            assert list(app.model.match.deal.history) == history  # nothing was played
            # the human leads; after the bots' cards of the trick, a card of another suit is refused as such
            card = next(a.card for a in app.model.observation().legal_actions if isinstance(a, Play))
            await pilot.press("t" if card.rank.letter == "T" else card.rank.letter.lower(), card.suit.letter.lower())
            for _ in range(50):
                await pilot.pause()
                obs = app.model.observation()
                if app.model.is_human_turn() and obs.trick:
                    break
            else:
                pytest.skip("the human led every trick of this deal")
            obs = app.model.observation()
            led = CARDS[obs.trick[0]].suit
            off = [c for c in obs.hand.cards() if CARDS[c].suit is not led]
            if not obs.hand.of_suit(led) or not off:
                pytest.skip("no card that fails to follow suit")
            bad = CARDS[off[0]]
            await pilot.press("t" if bad.rank.letter == "T" else bad.rank.letter.lower(), bad.suit.letter.lower())
            await pilot.pause()
            assert f"{bad.unicode()} cannot be played: follow suit" in logged(app), logged(app)
            assert app.model.observation().trick == obs.trick

    asyncio.run(run())


def test_a_typed_card_when_it_is_not_your_turn_says_so() -> None:
    async def run() -> None:
        rules = parse_variant("standard,first_dealer=0")  # seat 0 deals: the computer players move first
        app = build_app(seed=3, rules=rules, seat=0, name="You", opponents="random", bot_delay=5)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            assert not app.model.is_human_turn()
            history = list(app.model.match.deal.history)
            card = CARDS[next(iter(app.model.observation().hand.cards()))]
            await pilot.press(card.rank.letter.lower() if card.rank.letter != "T" else "t", card.suit.letter.lower())
            await pilot.pause()
            assert "it is not your turn" in logged(app)
            assert list(app.model.match.deal.history) == history

    asyncio.run(run())


# -- four players, the turned-up card ---------------------------------------------------------------------------


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


def test_the_turned_up_trump_card_is_on_the_screen() -> None:
    async def run() -> None:
        app = make_app("standard,show_trump_card,first_dealer=2")
        async with app.run_test(size=(100, 30)) as pilot:
            await to_first_card(app, pilot, contract_key="h")
            obs = app.model.observation()
            assert obs.shown_card is not None
            assert f"turned up: {CARDS[obs.shown_card].unicode()}" in screen_text(app).lower()

    asyncio.run(run())


# -- a hint does not freeze the screen --------------------------------------------------------------------------


def test_a_slow_hint_does_not_freeze_the_screen(monkeypatch: pytest.MonkeyPatch) -> None:
    """The strongest bot may think for seconds (its tables are computed at the first hint): the screen kept
    answering keys meanwhile, and the hint arrives in the log."""
    release = threading.Event()

    async def run() -> None:
        app = make_app()
        async with app.run_test(size=(120, 40)) as pilot:
            await to_first_card(app, pilot)
            card = next(a for a in app.model.observation().legal_actions if isinstance(a, Play))

            def slow_hint(observation: object = None) -> tuple[Play, dict[str, float]]:
                release.wait(10)
                return card, {}

            monkeypatch.setattr(app.model, "hint", slow_hint)
            started = time.monotonic()
            await pilot.press("question_mark")
            await pilot.press("p")  # the screen still answers
            await pilot.pause()
            assert time.monotonic() - started < 5
            assert isinstance(app.screen, InfoDialog)
            await pilot.press("escape")
            release.set()
            await pause_until(pilot, lambda: "Hint (" in logged(app), pause=0.02)
            assert f"from your view only): {card.card.unicode()}" in logged(app), logged(app)

    asyncio.run(run())
