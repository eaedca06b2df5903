"""An audit of the full-screen game played as a demanding player would: the footer at 80x24 (its last keys, the
review and the help, were cut off behind Textual's command palette hint), the help page on small screens (its
lines were cut and needed sideways scrolling), a seat that sits a four-player deal out (a typed card was "not in
your hand", the hand panel a bare "-"), and at a server's table the forced contract (named now) and the keep of
an empty talon (logged twice)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("textual", reason="the tui extra (textual) is not installed")

from textual.containers import VerticalScroll

from mizerka.cards import CARDS
from mizerka.rules import parse_variant
from mizerka.tui.app import ContractDialog, ExchangeDialog, HelpDialog, MizerkaApp
from mizerka.tui.command import build_app
from mizerka.tui.model import TableModel
from tui_helpers import logged, match_in_play_of_deal_2, notices, pause_until, screen_text


def flat(text: str) -> str:
    """The screen's words in one line (wrapped lines joined, borders and scroll bars dropped)."""
    return " ".join(text.replace("█", " ").replace("▎", " ").replace("▋", " ").split())


def deal_2_app() -> MizerkaApp:
    """The full-screen game of You against two random players, at your first card of deal 2 (deal 1 finished)."""
    return MizerkaApp(TableModel(match_in_play_of_deal_2(), 0, ["random", "random"], seed=3), bot_delay=0)


def footer(app: MizerkaApp) -> str:
    return screen_text(app).splitlines()[-1]


# -- the footer ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
def test_the_footer_shows_the_review_and_the_help_key_on_a_small_screen(size: tuple[int, int]) -> None:
    """Once a deal is over the docs promise ``r`` in the footer, and F1 lists every key: at 80x24 both were cut
    off ("r re▏^p palette"), and at 60x20 the footer ended at "l last trick"."""

    async def run() -> None:
        app = deal_2_app()
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            line = footer(app)
            assert "f1 help" in line and "^q quit" in line, line
            if size[0] >= 80:
                for key in ("? hint", "u undo", "l last trick", "r review"):
                    assert key in line, line
            await pilot.press("f1")  # the key in the footer does what it says
            await pilot.pause()
            assert isinstance(app.screen, HelpDialog)

    asyncio.run(run())


def test_a_wide_screen_keeps_its_footer() -> None:
    """Only a narrow screen has the compact footer: at 120 columns it is as before (the layout snapshot's)."""

    async def run() -> None:
        app = deal_2_app()
        async with app.run_test(size=(120, 36)) as pilot:
            await pilot.pause()
            line = footer(app)
            assert "p points sheet  r review  f1 help" in line and "^p palette" in line, line
            await pilot.resize_terminal(70, 22)
            await pilot.pause()
            line = footer(app)
            assert "f1 help" in line and "palette" not in line, line

    asyncio.run(run())


def test_the_game_footer_hides_under_a_dialog() -> None:
    """Under the help page the footer still listed the game's keys ("? hint", "u undo", "l last trick"), none of
    which works there.  It now hides while a dialog is up and comes back with the game screen; the log under the
    dialog still shows the lines written meanwhile (what a footer of the dialog's own broke)."""

    async def run() -> None:
        app = deal_2_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert "u undo" in footer(app)
            await pilot.press("f1")
            await pilot.pause()
            assert isinstance(app.screen, HelpDialog)
            assert "u undo" not in screen_text(app) and "? hint" not in screen_text(app)
            app.log_line("written under the help page")
            await pilot.pause()
            assert "written under the help page" in screen_text(app)
            await pilot.press("escape")
            await pilot.pause()
            assert not isinstance(app.screen, HelpDialog)
            assert "u undo" in footer(app)

    asyncio.run(run())


# -- the help page ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
def test_the_help_wraps_its_lines_to_the_screen(size: tuple[int, int]) -> None:
    """The help page was never wrapped: at 80x24 the undo line lost "and choose again" and "never past your
    exchange" behind the right edge, reachable only by scrolling sideways."""

    async def run() -> None:
        app = deal_2_app()
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await pilot.press("f1")
            await pilot.pause()
            assert isinstance(app.screen, HelpDialog)
            page = app.screen.query_one("#page", VerticalScroll)
            assert page.max_scroll_x == 0, page.max_scroll_x  # nothing to the right of the screen
            seen = flat(screen_text(app))
            await pilot.press("end")  # a small screen scrolls down to the rest
            await pilot.pause()
            seen += " " + flat(screen_text(app))
            for words in ("and choose again;", "never past your exchange,", "the contract, or into an earlier deal",
                          "every card judged by the solver", "Enter confirms once (nothing marked: keep)."):
                assert words in seen, (words, seen)
            await pilot.press("escape")
            await pilot.pause()
            assert not isinstance(app.screen, HelpDialog)

    asyncio.run(run())


def test_the_server_games_help_wraps_too() -> None:
    """The help of a server's table (``mizerka play --connect``) had lines of 110 characters: cut even at 100."""
    from mizerka.tui import remote_app

    async def run() -> None:
        app = deal_2_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            app.push_screen(HelpDialog(remote_app.HELP_ROWS, remote_app.HELP_NOTES))
            await pilot.pause()
            page = app.screen.query_one("#page", VerticalScroll)
            assert page.max_scroll_x == 0, page.max_scroll_x
            seen = flat(screen_text(app))
            for _ in range(6):
                await pilot.press("pagedown")
                await pilot.pause()
                seen += " " + flat(screen_text(app))
            for words in ("not past your exchange or into an earlier deal", "a bot plays it after the server's grace",
                          "or a phrase's number 1-7; Escape closes without sending"):
                assert words in seen, (words, seen)

    asyncio.run(run())


# -- a seat that sits the deal out -----------------------------------------------------------------------------


def test_a_seat_that_sits_a_four_player_deal_out_is_told_so() -> None:
    """With four at the table the dealer sits the deal out: the hand panel said only "Your hand: -", a typed card
    was refused as "not in your hand", and Enter said "it is not your turn"."""

    async def run() -> None:
        app = build_app(seed=5, rules=parse_variant("four-players,first_dealer=0"), seat=0, name="You",
                        opponents="random", bot_delay=5)  # the computer players move slowly: deal 1 stays
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            obs = app.model.observation()
            assert obs.deal_no == 1 and 0 not in obs.active_seats
            assert "You sit this deal out" in flat(screen_text(app)), screen_text(app)
            await pilot.press("a", "s")
            await pilot.pause()
            assert "Not accepted: you sit this deal out" in logged(app), logged(app)
            assert "not in your hand" not in logged(app)
            await pilot.press("enter")
            await pilot.pause()
            assert any("you sit this deal out" in n for n in notices(app)), notices(app)
            await pilot.press("ctrl+q")

    asyncio.run(run())


def test_a_seat_in_the_deal_is_not_told_it_sits_out() -> None:
    """The words are for the seat that sits out only: three at the table, a card not held is "not in your hand"."""

    async def run() -> None:
        app = deal_2_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            held = app.model.observation().hand
            card = next(c for c in range(52) if c not in held)
            rank, suit = str(CARDS[card])[0].lower(), str(CARDS[card])[-1].lower()
            await pilot.press(rank, suit)
            await pilot.pause()
            assert "is not in your hand" in logged(app) and "sit this deal out" not in flat(screen_text(app))

    asyncio.run(run())


# -- at a server's table -----------------------------------------------------------------------------------------

@pytest.fixture
def server(tmp_path: Path) -> Any:
    pytest.importorskip("fastapi", reason="a server's table needs the 'server' extra")
    pytest.importorskip("websockets", reason="--connect needs the 'tui' extra")
    from test_tui_connect import start_server

    server = start_server(tmp_path)
    yield server
    server.stop()


def test_the_server_game_names_the_forced_contract(server: Any) -> None:
    """"Your only contract left is chosen for you." did not say which (the local game names it)."""
    from mizerka.tui.remote import RemoteTable, parse_invite
    from mizerka.tui.remote_app import RemoteApp
    from test_tui_connect import BOTS, make_table

    url = make_table(server, BOTS, variant="standard,contracts=NT,first_dealer=2")  # seat 0 chooses, one contract
    table = RemoteTable(parse_invite(url), timeout=10)
    table.join("Ola")
    table.connect()
    app = RemoteApp(table)

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pause_until(pilot, lambda: "chose" in logged(app))
            assert "Your only contract left is no-trump: chosen for you." in logged(app), logged(app)
            assert not isinstance(app.screen, ContractDialog)
            await pilot.press("x")

    asyncio.run(run())
    table.close()


def test_the_server_games_keep_of_an_empty_talon_is_logged_once(server: Any) -> None:
    """Forehand exchanges all 13 cards: middlehand keeps its hand without a dialog, and the log said so twice
    ("The talon is empty: you keep your hand." and "You kept your hand.").  The local game says it once."""
    from mizerka.tui.remote import RemoteTable, parse_invite
    from mizerka.tui.remote_app import RemoteApp
    from test_tui_connect import make_table

    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}]
    url = make_table(server, seats, variant="standard,contracts=NT,first_dealer=2")  # seat 0 is forehand
    forehand = RemoteTable(parse_invite(url), timeout=10)
    forehand.join("Ala")
    forehand.connect()
    table = RemoteTable(parse_invite(url), timeout=10)
    table.join("Ola")
    table.connect()
    app = RemoteApp(table)

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(100):  # forehand's connection reads the table until the choice is its own
                forehand.poll(0.05)
                if forehand.my_turn():
                    break
            assert forehand.act("NT").get("type") == "ack"
            forehand.poll(0.2)
            hand = forehand.observation().hand
            assert len(hand) == 13
            answer = forehand.act("exchange " + " ".join(str(CARDS[c]) for c in hand.cards()))
            assert answer.get("type") == "ack", answer
            await pause_until(pilot, lambda: "kept your hand" in logged(app) or "keep your hand" in logged(app))
            await pilot.pause(0.5)
            text = logged(app)
            assert "The talon is empty: you keep your hand." in text, text
            assert "You kept your hand." not in text, text
            assert not isinstance(app.screen, ExchangeDialog)
            assert table.view["phase"] in ("exchange", "play")
            await pilot.press("x")

    asyncio.run(run())
    table.close()
    forehand.close()



# -- the trick just taken ----------------------------------------------------------------------------------------


def test_the_trick_just_taken_stays_on_the_table_until_the_next_lead() -> None:
    """The table panel emptied with a trick's third card: a trick the computer players finished was seen only in
    the log.  It stays there, dimmed, with who took it, until the next card is led."""
    from tui_helpers import make_app, to_first_card

    app = make_app()
    who = {0: "You", 1: "Ala", 2: "Bolek"}

    async def run() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await to_first_card(app, pilot)
            for _ in range(2000):  # the first legal card each time, until this seat leads after a trick it took
                obs = app.model.observation()
                if obs.tricks and not obs.trick and app.model.is_human_turn():
                    break
                if app.model.is_human_turn():
                    await pilot.press("enter")
                await pilot.pause()
            else:
                pytest.fail("this seat never led after a trick")
            last = obs.tricks[-1]
            rows = str(app.query_one("#table").render()).splitlines()
            seats = app._trick_seats(obs, last.leader)
            assert len(rows) == 3 and " (led)" in rows[0], rows
            for row, seat, card in zip(rows, seats, last.cards, strict=True):
                assert flat(row).startswith(f"{who[seat]} {CARDS[card].unicode()}"), rows
                assert (f"← took trick {len(obs.tricks)}" in row) == (seat == last.winner), rows
            await pilot.press("enter")  # the next card led: the new trick is on the table instead
            await pause_until(pilot, lambda: "took trick" not in str(app.query_one("#table").render()))
            assert "took trick" not in str(app.query_one("#table").render())

    asyncio.run(run())


# -- quitting from a dialog ------------------------------------------------------------------------------------


@pytest.mark.parametrize("dialog", ["contract", "exchange"])
def test_x_quits_from_the_contract_and_the_exchange_dialogs(dialog: str) -> None:
    """``mizerka play --help`` says "x quits", and it did on the game screen, but at the contract and the exchange
    dialogs x did nothing and their key lines named no way out (only Ctrl+Q quit there)."""
    from tui_helpers import make_app

    async def run() -> None:
        app = make_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await pause_until(pilot, lambda: isinstance(app.screen, ContractDialog))
            if dialog == "exchange":
                await pilot.press("n")
                await pause_until(pilot, lambda: isinstance(app.screen, ExchangeDialog))
            # the dialog is drawn a moment after it is pushed (under load, the first look found the screen empty)
            await pause_until(pilot, lambda: "x quit." in flat(screen_text(app)))
            assert "x quit." in flat(screen_text(app))
            await pilot.press("x")
            await pause_until(pilot, lambda: not app.is_running)
        assert app.return_code == 0

    asyncio.run(run())
