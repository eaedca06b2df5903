"""An adversarial audit of the server's hidden information: what a seat's token holder, a spectator or an anonymous
HTTP client can make the server tell them, beyond what its seat (or nobody) may see.

The tests of a finding failed on the code before its fix; those under *found sound* keep what the audit checked
(docs/server.md, docs/protocol.md say what is hidden).
"""

from __future__ import annotations

import json
from typing import Any

import httpx
from server_helpers import SHORT, WS, ThreadServer, play_until

from mizerka.server.hub import CatchUpCache
from mizerka.server.tables import SeatState, Table, TableSettings


def _exchanges(events: list[dict[str, Any]], seat: int) -> list[dict[str, Any]]:
    """The ``action`` events of *seat*'s exchanges among *events* (the event bodies)."""
    return [e for e in events if e.get("kind") == "action" and e.get("action_kind") == "exchange"
            and e.get("actor") == seat]


def _finish_deal(table: Table) -> None:
    assert table.match is not None
    deal_no = table.match.deal_no
    while table.status == "playing" and table.match.deal_no == deal_no:
        deal = table.match.deal
        table.act(table.match.to_move, deal.forced_action() or next(iter(table.match.legal_actions)))


# -- a seat taken over from the computer during the match --------------------------------------------------------


def test_a_newcomer_catching_up_gets_no_exchange_of_his_seats_earlier_players(server: ThreadServer) -> None:
    """A seat taken over from the computer in deal 2: the newcomer sees its cards from then on (docs/server.md), but
    a ``hello`` (or ``sync``) from ``last_seq`` 0 sent him every earlier deal's exchanges of that seat, the cards its
    bot (or the human who gave it up) discarded and drew, which the table keeps hidden from everyone until the match
    is over: a stranger who sits in learned them, and a profile that played another seat in those deals learned the
    exchanges of two hands of one deal.  The seat's original player still gets his own."""
    created = httpx.post(server.url + "/api/tables", json={
        "variant": SHORT, "reveal": False,
        "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]})
    assert created.status_code == 201, created.text
    table = created.json()["id"]
    ala = httpx.post(f"{server.url}/api/tables/{table}/join", json={"name": "Ala"}).json()
    ws_ala = WS(server.ws_url)
    ws_ala.hello(table, ala["token"])
    play_until(ws_ala, lambda view: view["deal_no"] >= 2)
    taken = httpx.post(f"{server.url}/api/tables/{table}/join", json={"name": "Bolek", "seat": 2})
    assert taken.status_code == 200, taken.text
    assert taken.json()["table"]["seats"][2]["since_deal"] == 2
    ws_bolek = WS(server.ws_url)
    try:
        welcome = ws_bolek.hello(table, taken.json()["token"], last_seq=0)
        assert welcome["type"] == "welcome" and welcome["seat"] == 2
        events = [m["event"] for m in welcome["events"]]
        earlier = _exchanges([e for e in events if e["deal_no"] < 2], 2)
        assert earlier, "the bot exchanged in deal 1"
        leaked = [e for e in earlier if "discards" in e or "drawn" in e]
        assert not leaked, f"the newcomer got his seat's exchange of deal 1: {leaked[0]}"
        for last_seq in (0, 1):  # a sync from far back (the kept texts), and again (kept now)
            snapshot = ws_bolek.request({"type": "sync", "last_seq": last_seq})
            assert snapshot["type"] == "snapshot"
            again = _exchanges([m["event"] for m in snapshot["events"] if m["event"]["deal_no"] < 2], 2)
            assert again and not any("discards" in e or "drawn" in e for e in again)
        # the seat's cards of the deal he plays are his (its observation): in the view
        assert welcome["view"]["seat"] == 2 and welcome["view"]["deal_no"] >= 2
        # Ala, who played seat 0 from the start, still catches up with her own exchanges
        mine = ws_ala.request({"type": "sync", "last_seq": 0})
        own = _exchanges([m["event"] for m in mine["events"] if m["event"]["deal_no"] < 2], 0)
        assert own and all("discards" in e and "drawn" in e for e in own)
    finally:
        ws_ala.close()
        ws_bolek.close()


def test_the_kept_catch_up_texts_of_a_seat_are_not_given_to_its_next_player() -> None:
    """The hub keeps each seat's catch-up texts (:class:`CatchUpCache`) while the seats' kinds and names stay: a
    newcomer who took a seat over under the name of the player who gave it up ("Ola" after "Ola") was given the texts
    kept for that player, his exchanges of the earlier deals included."""
    table = Table.new("t", TableSettings(variant=SHORT), [SeatState.human(), SeatState.human(),
                                                          SeatState.bot("random")], seed=8)
    table.join("Ala", token_hash="a")
    table.join("Ola", token_hash="o")
    _finish_deal(table)
    cache = CatchUpCache(1 << 24)
    before = json.loads(cache.events(table, 1, 0))
    own = _exchanges([m["event"] for m in before], 1)
    assert own and all("discards" in e for e in own)  # the player of the deal gets his exchange back
    table.leave(1)
    table.join("Ola", token_hash="x", seat=1)  # a newcomer, under the same name
    assert table.seats[1].since_deal == 2
    after = _exchanges([m["event"] for m in json.loads(cache.events(table, 1, 0))], 1)
    assert after and not any("discards" in e or "drawn" in e for e in after), after


# -- what was checked and found sound: kept as regressions ------------------------------------------------------


def test_the_deal_commitment_is_salted_and_its_salt_comes_only_with_the_reveal() -> None:
    """The ``deal`` event's commitment is a hash of the deck order; without a secret salt one could find the deck by
    hashing candidate orders (after the first cards are seen, few remain for a seat's own hand and the tricks).  Each
    deal has its own salt of 128 random bits (a table made without a seed, as the server makes them), and no message
    holds a salt or a deck before that deal is over, and none at all without ``reveal``."""
    import hashlib
    import re

    from mizerka.record import commit, deck_text

    for reveal in (False, True):
        table = Table.new("t", TableSettings(variant=SHORT, reveal=reveal),
                          [SeatState.human(), SeatState.bot("random"), SeatState.bot("random")])
        assert len(set(table.salts)) == len(table.salts)
        for deck, salt, commitment in zip(table.decks, table.salts, table.commits, strict=True):
            assert re.fullmatch(r"[0-9a-f]{32}", salt)
            assert commitment == commit(deck, salt)
            assert commitment != "sha256:" + hashlib.sha256(deck_text(deck).encode()).hexdigest()
        _, events = table.join("Ala", token_hash="a")
        seen = list(events)
        while table.status == "playing":
            assert table.match is not None
            deal_no = table.match.deal_no
            texts = [json.dumps(e.render(seat)) for e in seen for seat in (0, 1, 2, None)]
            for later in range(deal_no - 1, len(table.salts)):  # the deal in progress and those to come
                assert not any(table.salts[later] in text for text in texts)
            if not reveal:
                assert not any(salt in text for salt in table.salts for text in texts)
            _finish_deal(table)
            seen = table.events
