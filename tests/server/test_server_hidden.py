"""Hidden information: no message to a seat, or to a spectator, holds a card its recipient may not know.

Thousands of random deals go through the server's message layer (:class:`Table` and :func:`render_events`,
the functions the live server uses for every outbound message and every log line), in process.  Every card
in every message — in values and in keys — must be one the recipient knows at that moment: from its own
observation (hand, own discards, cards played, a turned-up card), or from a deal that is over and revealed.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from mizerka.cards import CardSet
from mizerka.deal import Exchange, Phase
from mizerka.server.hub import render_events
from mizerka.server.protocol import SERVER_ADAPTER
from mizerka.server.tables import SeatState, Table, TableSettings
from mizerka.server.views import build_view

CARD = re.compile(r"^[2-9TJQKA][CDHS]$")
RECIPIENTS: tuple[int | None, ...] = (0, 1, 2, None)


def cards_in(value: Any, path: str = "") -> list[tuple[str, str]]:
    """Every card-like string in a JSON value, with where it was found."""
    found = []
    if isinstance(value, str):
        if CARD.match(value):
            found.append((value, path))
    elif isinstance(value, dict):
        for key, item in value.items():
            if CARD.match(str(key)):
                found.append((str(key), path + "." + str(key)))
            found.extend(cards_in(item, path + "." + str(key)))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found.extend(cards_in(item, f"{path}[{index}]"))
    return found


def known(table: Table, seat: int | None, deal_no: int) -> set[str]:
    """The cards whose place *seat* knows in that deal: its hand and discards, every card played, a shown card."""
    assert table.match is not None
    deal = table.match.deals[deal_no - 1]
    mask = 0
    for trick in deal.tricks:
        for card in trick.cards:
            mask |= 1 << card
    for card in deal.trick:
        mask |= 1 << card
    if seat is not None:
        mask |= deal.hands[seat] | deal.dead[seat]
    if deal.shown_card is not None:
        mask |= 1 << deal.shown_card
    return {str(c) for c in CardSet(mask)}


def random_action(table: Table, rng: random.Random) -> Any:
    assert table.match is not None
    deal = table.match.deal
    if deal.phase is Phase.EXCHANGE:
        hand = list(CardSet(deal.hands[deal.to_move]))
        k = rng.randint(0, min(len(deal.talon), len(hand)))
        return Exchange(CardSet(rng.sample(hand, k)))
    return rng.choice(list(deal.legal_actions))


def check_message(table: Table, seat: int | None, message: dict[str, Any], reveal: bool,
                  cache: dict[tuple[int | None, int], set[str]] | None = None) -> None:
    cache = {} if cache is None else cache

    def allowed_in(deal_no: int) -> set[str]:
        if not deal_no:
            return set()
        if (seat, deal_no) not in cache:
            cache[seat, deal_no] = known(table, seat, deal_no)
        return cache[seat, deal_no]

    text = json.dumps(message)
    assert "deck" not in text or reveal, "a deck order left the server without the reveal option"
    if message["type"] == "event":
        event = dict(message["event"])
        if event["kind"] == "deal_end" and "reveal" in event:
            assert reveal and table.match is not None
            assert table.match.deals[event["deal_no"] - 1].phase is Phase.DONE  # only finished deals
            del event["reveal"]
        allowed = allowed_in(event["deal_no"])
        for card, where in cards_in(event):
            assert card in allowed, f"seat {seat} got {card} at {where} in {event}"
        view = message.get("view")
    else:
        view = message["view"]
    if view is not None:
        allowed = allowed_in(view["deal_no"])
        for card, where in cards_in(view):
            assert card in allowed, f"seat {seat} got {card} at view{where}"


@pytest.mark.filterwarnings("ignore:variant .seed002-literal.:UserWarning")  # its scores are not zero-sum
def test_no_message_reveals_a_card_its_recipient_may_not_know() -> None:
    rng = random.Random(2024)
    deals = 0
    views_checked = 0
    table_no = 0
    while deals < 2000:
        table_no += 1
        variant = rng.choice(["standard", "standard", "standard,show_trump_card", "no-exchange", "seed002-literal"])
        reveal = rng.random() < 0.7
        table = Table.new(f"t{table_no}", TableSettings(variant=variant, reveal=reveal),
                          [SeatState.human(), SeatState.human(), SeatState.bot("random")], seed=table_no)
        batches = [table.join("Ala", token_hash="a")[1], table.join("Bolek", token_hash="b")[1]]
        full_views = table_no <= 3  # the first tables: every view of every recipient after every action
        while table.status == "playing":
            assert table.match is not None
            seat = table.match.to_move
            batches.append(table.act(seat, random_action(table, rng)))
            events = batches[-1]
            cache: dict[tuple[int | None, int], set[str]] = {}
            for recipient in RECIPIENTS:
                with_view = full_views or rng.random() < 0.01
                for message in render_events(table, events, recipient, {0, 1}, view=with_view):
                    check_message(table, recipient, message, reveal, cache)
                    if with_view and message.get("view") is not None:
                        views_checked += 1
                        if views_checked % 50 == 0:
                            SERVER_ADAPTER.validate_python(message)
            deals += sum(1 for e in events if e.kind == "deal_end")
        # a reconnect replays every event without views; each recipient's rendering obeys the same rule
        for recipient in RECIPIENTS:
            for message in render_events(table, table.events[-60:], recipient, view=False):
                check_message(table, recipient, message, reveal)
    assert deals >= 2000 and views_checked > 8000


@pytest.mark.filterwarnings("ignore:variant .seed002-literal.:UserWarning")  # its scores are not zero-sum
def test_the_view_gives_the_stock_and_each_seat_its_own_draws_from_it() -> None:
    """seed002-literal: the view gives the stock's size to everyone and to each seat the cards it drew from it
    (the browser said nothing of them), never another seat's draws, nothing to a spectator."""
    rng = random.Random(7)
    table = Table.new("stock", TableSettings(variant="seed002-literal"),
                      [SeatState.human(), SeatState.human(), SeatState.bot("random")], seed=7)
    table.join("Ala", token_hash="a")
    table.join("Bolek", token_hash="b")
    drew = False
    while table.status == "playing" and table.match is not None and table.match.deal_no == 1:
        table.act(table.match.to_move, random_action(table, rng))
        if table.match.deal_no != 1:
            break
        deal = table.match.deal
        for seat in (0, 1, 2, None):
            view = build_view(table, seat, {0, 1})
            assert view["stock_size"] == len(deal.stock)
            own = sorted(str(c) for c in deal.observation(seat).stock_drawn) if seat is not None else []
            assert sorted(view["stock_drawn"]) == own
            drew = drew or bool(own)
            if seat is not None:  # never a card another seat drew from the stock
                others = set().union(*(set(map(str, deal.observation(s).stock_drawn)) for s in (0, 1, 2) if s != seat))
                assert not others & set(view["stock_drawn"])
    assert drew
