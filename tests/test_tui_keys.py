"""Keys in the full-screen game: typed cards, and keys that do nothing else.

A card is typed as its rank and suit (``1`` ``0`` then the suit for a ten); one that cannot be played is refused
with the reason (not in the hand, not a card, follow suit), and so is one typed when it is not the human's turn.  A
key after a rank that is no suit is refused as "not a card" and its binding does not run (``a`` then ``u`` took
cards back, ``q`` then ``x`` quit), at a server's table too.  In the dialogs: a contract the variant does not play is
refused as such; ``p`` and F1 open the score sheet and the keys over the contract and exchange dialogs, which come
back when the page closes; a fourth digit of a deal number is refused and the score sheet stays.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("textual", reason="the tui extra (textual) is not installed")

from mizerka.cards import CARDS, Card
from mizerka.deal import Phase, Play
from mizerka.rules import parse_variant
from mizerka.tui.app import ContractDialog, ExchangeDialog, InfoDialog, MizerkaApp, SheetDialog
from mizerka.tui.command import build_app
from mizerka.tui.model import TableModel
from tui_helpers import logged, make_app, match_in_play_of_deal_2, notices, pause_until, to_first_card

# -- typed cards -----------------------------------------------------------------------------------------------------


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


# -- a rank, then a key that is not a suit ---------------------------------------------------------------------------


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


# -- the dialogs and the score sheet ---------------------------------------------------------------------------------


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
