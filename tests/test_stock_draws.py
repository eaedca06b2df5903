"""The stock of the ``seed002-literal`` variant, shown to the player who draws from it (the terminal games).

In that variant each player draws a card from the stock after each of his cards in the first tricks.  The
terminal games said nothing of it: the hand grew back with no word of the card drawn, and nowhere was the stock's
size.  :attr:`mizerka.deal.Observation.stock_drawn` works the drawn cards out from the seat's own observation (never
from the stock itself, which is hidden), and both terminal games say each card drawn and how many are left.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import re

import pytest

from mizerka.cards import CARDS, CardSet
from mizerka.deal import Deal, Phase, Play
from mizerka.match import Match
from mizerka.rules import get_variant, parse_variant
from mizerka.terminal import BOT_NAMES, TerminalGame, make_opponents
from tui_helpers import first_legal_answer, logged, pause_until

LITERAL = get_variant("seed002-literal")


@pytest.mark.parametrize("seed", range(12))
def test_the_draws_worked_out_from_an_observation_are_the_cards_drawn(seed: int) -> None:
    """At every step of random deals, each seat's worked-out draws are exactly the cards the stock gave it."""
    deal = Deal.random(seed, rules=LITERAL)
    rng = random.Random(seed)
    given: dict[int, CardSet] = {seat: CardSet() for seat in deal.active_seats}
    while not deal.is_over():
        actor = deal.to_move
        before = deal.hands[actor]
        action = rng.choice(list(deal.legal_actions))
        stocked = deal.phase is Phase.PLAY and bool(deal.stock)
        deal.push(action)
        if stocked:
            assert isinstance(action, Play)
            new = CardSet.from_mask(deal.hands[actor] & ~before)
            assert len(new) == 1
            given[actor] = given[actor] | new
        for seat in deal.active_seats:
            assert deal.observation(seat).stock_drawn == given[seat]
        assert not deal.observation(None).stock_drawn
    assert any(given.values())


def test_no_other_variant_draws_from_a_stock() -> None:
    deal = Deal.random(3)
    rng = random.Random(3)
    while not deal.is_over():
        deal.push(rng.choice(list(deal.legal_actions)))
        assert all(not deal.observation(seat).stock_drawn for seat in deal.active_seats)


class Stop(Exception):
    """The script has seen enough."""


def test_the_line_game_says_each_card_drawn_and_the_stock_left() -> None:
    with pytest.warns(UserWarning, match="not zero-sum"):
        match = Match(parse_variant("seed002-literal"), players=["You", *BOT_NAMES[:2]], seed=5)
    output: list[str] = []

    def read(prompt: str) -> str:
        output.append(prompt)
        if match.deal_no > 1:
            raise Stop
        return first_legal_answer(match, 0)

    game = TerminalGame(match, 0, make_opponents(["random", "random"], [1, 2], 5, match.rules), read=read,
                        write=output.append, unicode=False)
    with contextlib.suppress(Stop):
        game.run()
    said = [line for line in output if "from the stock" in line]
    drawn = [c for line in said for c in re.findall(r"draw (\S+) from", line)]
    truth = match.deals[0].observation(0).stock_drawn
    assert sorted(drawn) == sorted(str(CARDS[c]) for c in truth.cards()) and len(drawn) == len(truth) > 0, said
    assert re.fullmatch(r"You draw \S+ from the stock \(\d+ cards? left in it\)\.", said[0]), said
    assert any(re.search(r"Stock: \d+ cards?\.", line) for line in output if line.startswith("Trick 1 of 17"))


def test_the_full_screen_game_logs_each_card_drawn_and_shows_the_stock() -> None:
    pytest.importorskip("textual", reason="the tui extra (textual) is not installed")
    from mizerka.tui.command import build_app

    app = build_app(seed=5, rules=LITERAL, seat=0, name="You", opponents="random", bot_delay=0)

    async def run() -> None:
        from mizerka.tui.app import ContractDialog, ExchangeDialog

        async with app.run_test(size=(120, 40)) as pilot:
            for _ in range(400):
                obs = app.model.observation()
                if obs.phase is Phase.PLAY and len(obs.stock_drawn) >= 2:
                    break
                if isinstance(app.screen, ContractDialog):
                    await pilot.press("n")
                elif isinstance(app.screen, ExchangeDialog) or (app.model.is_human_turn() and obs.phase is Phase.PLAY):
                    await pilot.press("enter")  # keep the hand; the card under the cursor
                await pilot.pause()
            obs = app.model.observation()
            drawn = obs.stock_drawn
            assert len(drawn) >= 2
            await pause_until(pilot, lambda: logged(app).count("from the stock") >= len(drawn))
            for card in drawn.cards():
                assert f"You drew {CARDS[card].unicode()} from the stock" in logged(app), logged(app)
            status = str(app.query_one("#status").render())
            assert (f"stock {obs.stock_size} card" in status) == (obs.stock_size > 0), status

    asyncio.run(run())
