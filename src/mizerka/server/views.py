"""What one recipient sees of a table: its :class:`~mizerka.server.protocol.View`, built from its observation.

Every card in a view comes from ``match.observation(seat)`` (``None`` for a spectator), which holds exactly
what that seat may know.  The rest of a view is public: seats and names, options, the results of finished
deals, the commitment to the current deck order.

>>> from mizerka.server.tables import Table, TableSettings, SeatState
>>> table = Table.new("t1", TableSettings(), [SeatState.human()] + [SeatState.bot("random")] * 2, seed=3)
>>> _ = table.join("Ala", token_hash="h")
>>> mine, theirs = build_view(table, 0), build_view(table, None)
>>> len(mine["hand"]) in (0, 6), theirs["hand"]
(True, [])
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, Any

from mizerka.analysis import deal_facts
from mizerka.bots import BOT_LEVELS
from mizerka.cards import CARDS
from mizerka.deal import Observation, Phase
from mizerka.rules import Contract, Role
from mizerka.scoresheet import running_totals
from mizerka.server.tables import Table, card_list
from mizerka.tricks import IllegalPlay

if TYPE_CHECKING:
    from mizerka.analysis import DealAnalysis
    from mizerka.record import MatchRecord

__all__ = ["build_review", "build_view", "illegal_codes", "illegal_reasons"]

_PHASES = {Phase.CHOOSE: "choose", Phase.EXCHANGE: "exchange", Phase.PLAY: "play", Phase.DONE: "done"}


def _contract(contract: Contract) -> dict[str, Any]:
    trump = contract.trump
    return {"code": str(contract), "label": contract.label, "symbol": contract.symbol, "goal": contract.goal,
            "trump": "CDHS"[trump] if trump is not None else None}


def _illegal_plays(obs: Observation) -> dict[str, IllegalPlay]:
    """Each card of the observer's hand that it may not play now, as text, with
    :meth:`~mizerka.deal.Observation.why_illegal`'s reason, highest card first as :func:`card_list` lists them
    (only on its own turn in the play phase, once a card is led)."""
    if not obs.is_my_turn() or obs.phase is not Phase.PLAY or not obs.trick:
        return {}
    illegal = {}
    for card in sorted(obs.hand, reverse=True):
        reason = obs.why_illegal(card)
        if reason is not None:
            illegal[str(card)] = reason
    return illegal


def _reason_text(reason: IllegalPlay) -> str:
    if reason.code == "follow":
        return f"must follow suit: {reason.suit.name.lower()} were led"
    if reason.code == "trump":
        return f"must trump: {reason.suit.name.lower()} are trumps"
    return "not in your hand"


def illegal_reasons(obs: Observation) -> dict[str, str]:
    """Why each card of the observer's hand may not be played now (only on its own turn in the play phase).

    Built from the observation alone (:meth:`~mizerka.deal.Observation.why_illegal`): the hand and the suit led
    (the ``trump`` reason is worded too, for games with a must-trump rule; Mizerka has none).
    """
    return {card: _reason_text(reason) for card, reason in _illegal_plays(obs).items()}


def illegal_codes(obs: Observation, illegal: dict[str, str]) -> dict[str, dict[str, str]]:
    """:func:`illegal_reasons` as machine codes (``{"code": "follow", "suit": "H"}``)."""
    if not illegal:
        return {}
    why = _illegal_plays(obs)
    return {card: {"code": why[card].code, "suit": why[card].suit.letter} for card in illegal}


_MEMO_LIMIT = 1 << 14
"""Entries a memo below may hold before it starts afresh (they are small: lists of a few strings)."""

_CARDS: dict[int, list[str]] = {}
_USED: dict[tuple[tuple[Contract, ...], ...], list[list[str]]] = {}


def _cards(mask: int) -> list[str]:
    """:func:`card_list` of a mask, remembered: views share these lists (never change one)."""
    cards = _CARDS.get(mask)
    if cards is None:
        if len(_CARDS) >= _MEMO_LIMIT:
            _CARDS.clear()
        cards = _CARDS[mask] = card_list(mask)
    return cards


def _used(used: tuple[tuple[Contract, ...], ...]) -> list[list[str]]:
    """The contracts each seat has used, as text, remembered (they change once a deal)."""
    text = _USED.get(used)
    if text is None:
        if len(_USED) >= _MEMO_LIMIT:
            _USED.clear()
        text = _USED[used] = [[str(c) for c in u] for u in used]
    return text


def _players(table: Table, connected: Collection[int]) -> list[dict[str, Any]]:
    """The seats as everyone sees them; kept until a seat, the set of connected seats or the table's status
    changes (``takeover``: a human may take the seat over from the computer now, :meth:`Table.can_take_over`).

    ``name``: the table's distinct name of the seat (:meth:`Table.player_names`, as the chat, the records and the
    score sheet name it: a second "Ala" is "Ala (2)" everywhere, so that nobody passes for another player), None for
    an open seat; the name a seat was taken under is the join's answer's ``name``.  ``default_name``: the seat's name
    is the server's own (:func:`~mizerka.server.tables.default_name`, a bot's seat), not one a player chose; a bot's
    name made distinct from a player's ("Bot 2 (2)") is shown as it is."""
    key = (table.seat_version, frozenset(connected), table.status)
    cached = table.view_cache.get("players")
    if cached is not None and cached[0] == key:
        players: list[dict[str, Any]] = cached[1]
        return players
    names = table.player_names()
    defaults = table.default_named(names)
    players = []
    for index, seat in enumerate(table.seats):
        level = seat.level if seat.bot_plays else None
        players.append({
            "seat": index, "name": names[index] if seat.kind == "bot" or seat.name else None,
            "default_name": index in defaults,
            "kind": seat.kind, "bot": level, "badge": BOT_LEVELS[level].badge if level in BOT_LEVELS else None,
            "standin": seat.standin, "connected": index in connected or seat.kind == "bot", "open": seat.is_open,
            "registered": seat.player is not None, "takeover": table.can_take_over(index),
            "since_deal": seat.since_deal, "left": seat.left,
        })
    table.view_cache["players"] = (key, players)
    return players


def _score_sheet(table: Table) -> list[dict[str, Any]]:
    """The rows of the finished deals; kept until a deal ends, a double-dummy result comes in or a seat changes.

    Where someone sat in for a seat during the match, every row also names who played each seat in that deal
    (``players``): the view's ``players`` name the seats' players now, and the newcomer did not play the deals
    before his."""
    match = table.match
    assert match is not None
    key = (match.deal_no, match.deal.phase is Phase.DONE, len(table.dd), table.seat_version)
    cached = table.view_cache.get("score_sheet")
    if cached is not None and cached[0] == key:
        rows: list[dict[str, Any]] = cached[1]
        return rows
    rows = []
    takeovers = table.takeovers()
    results = match.results()
    for result, totals in zip(results, running_totals(results, table.rules.n_seats), strict=True):
        row = {"deal_no": result.deal_no, "dealer": result.dealer, "chooser": result.chooser,
               "contract": str(result.contract), "tricks": list(result.tricks),
               "scores": list(result.scores), "totals": totals, "dd": table.dd.get(result.deal_no)}
        reason = table.dd_reason.get(result.deal_no)
        if reason is not None:
            row["dd_reason"] = reason
        if takeovers:
            players = list(match.players)  # the names the match began with, as its record keeps them
            for seat, since, name in takeovers:  # in the order they sat in: the last one in by this deal played it
                if since <= result.deal_no:
                    players[seat] = name
            row["players"] = players
        rows.append(row)
    table.view_cache["score_sheet"] = (key, rows)
    return rows


def _static(table: Table) -> tuple[str, list[str], dict[str, Any]]:
    """The parts of a view fixed for the table's life: the variant, its contracts (in its order) and the options."""
    cached = table.view_cache.get("static")
    if cached is not None:
        static: tuple[str, list[str], dict[str, Any]] = cached[1]
        return static
    settings = table.settings
    options = {"hints": settings.hints, "spectators": settings.spectators, "turn_timer": settings.turn_timer,
               "reveal": settings.reveal, "visibility": settings.visibility, "name": settings.name,
               "chat": settings.chat, "rated": settings.rated}
    static = (table.rules.spec(), [str(c) for c in table.rules.contracts], options)
    table.view_cache["static"] = (None, static)
    return static


def build_view(table: Table, seat: int | None, connected: Collection[int] = ()) -> dict[str, Any]:
    """The view of *seat* (``None``: a spectator) as a JSON-ready dict (see :class:`~mizerka.server.protocol.View`).

    *connected* holds the seats with a live connection (shown to everyone).

    The parts every recipient shares (players, score sheet, options) are kept on the table and rebuilt only
    when an event changes them, so views share those objects: serialise a view, never change it.
    """
    n = table.rules.n_seats
    variant, contracts, options = _static(table)
    base: dict[str, Any] = {
        "table": table.id, "seat": seat, "status": table.status, "variant": variant, "contracts": contracts,
        "players": _players(table, connected), "options": options, "n_deals": table.rules.n_deals, "seq": table.seq,
        "rematch": table.rematch_table, "rematch_asked": sorted(table.rematch_votes),
        "can_undo": table.can_undo(seat),  # a human at a table of bots with a card to take back (mizerka.undo)
    }
    match = table.match
    if match is None:
        base.update(
            deal_no=0, phase="waiting", dealer=None, roles={}, to_move=None, your_turn=False, hand=[], legal=[],
            illegal={}, illegal_codes={}, exchange=None, allowed_contracts=[], contract=None, quotas={},
            tricks_won=[0] * n,
            hand_sizes=[0] * n, exchange_counts=[None] * n, talon_size=0, shown_card=None, discards=[], drawn=[],
            stock_size=0, stock_drawn=[],
            trick=None, last_trick=None, tricks_played=0, deal_scores=None, totals=[0] * n, used=[[] for _ in range(n)],
            score_sheet=[], commitment=None,
        )
        return base
    obs = match.observation(seat)
    order = obs.active_seats
    your_turn = obs.is_my_turn()
    trick = None
    if obs.trick:
        start = order.index(obs.trick_leader)
        trick = {"leader": obs.trick_leader, "cards": [str(c) for c in obs.trick],
                 "seats": [order[(start + i) % 3] for i in range(len(obs.trick))], "winner": None}
    last = None
    if obs.tricks:
        t = obs.tricks[-1]
        start = order.index(t.leader)
        last = {"leader": t.leader, "cards": [str(c) for c in t.cards],
                "seats": [order[(start + i) % 3] for i in range(3)], "winner": t.winner}
    illegal = illegal_reasons(obs)
    exchange = None
    if your_turn and obs.phase is Phase.EXCHANGE:
        exchange = {"max": min(obs.talon_size, len(obs.hand))}
    quotas = {}
    if obs.contract is not None:
        quotas = {str(s): table.rules.quota(Role(i), obs.contract) for i, s in enumerate(order)}
    if table.status == "finished":
        phase = "over"
    elif table.status == "abandoned":
        phase = "done"
    else:
        phase = _PHASES[obs.phase]
    base.update(
        deal_no=match.deal_no, phase=phase, dealer=obs.dealer,
        roles={str(s): Role(i).short for i, s in enumerate(order)},
        to_move=obs.to_move if obs.to_move >= 0 and table.status == "playing" else None,
        your_turn=your_turn and table.status == "playing",
        hand=_cards(obs.hand.mask), legal=[str(a) for a in obs.legal_actions] if your_turn else [],
        illegal=illegal, illegal_codes=illegal_codes(obs, illegal), exchange=exchange,
        allowed_contracts=[str(c) for c in obs.allowed_contracts],
        contract=_contract(obs.contract) if obs.contract is not None else None,
        quotas=quotas, tricks_won=list(obs.tricks_won), hand_sizes=list(obs.hand_sizes),
        exchange_counts=list(obs.exchange_counts), talon_size=obs.talon_size,
        shown_card=str(obs.shown_card) if obs.shown_card is not None else None,
        discards=_cards(obs.discards.mask), drawn=_cards(obs.drawn.mask), trick=trick, last_trick=last,
        stock_size=obs.stock_size, stock_drawn=_cards(obs.stock_drawn.mask),
        tricks_played=len(obs.tricks), deal_scores=list(obs.scores) if obs.scores is not None else None,
        totals=list(obs.totals), used=_used(obs.used),
        score_sheet=_score_sheet(table), commitment=table.commits[match.deal_no - 1],
    )
    return base


def build_review(table_id: str, record: MatchRecord, deal_no: int, analysis: DealAnalysis | None,
                 status: str) -> dict[str, Any]:
    """The review of finished deal *deal_no* of a full *record* (``GET /api/tables/{id}/deals/{n}/review``): its
    hands at the start of play, its exchanges, every card of its tricks with the solver's verdict on it
    (:func:`mizerka.analysis.analyse_deal`'s *analysis*, or nulls when *status* is not ``ok``), its result.

    Cards are written and hands ordered as in the views (:func:`card_list`).  The play is replayed from the
    record, so ``choices`` (the legal cards there were) and ``unjudged_tricks`` are given whatever *status*.
    """
    drec = record.deals[deal_no - 1]
    assert drec.contract is not None and drec.is_over, "a finished deal in full"
    assert status != "ok" or analysis is not None
    n = record.rules.n_seats
    facts = deal_facts(record, deal_no)
    deal = facts.deal
    active = deal.active_seats
    verdicts = {(v.trick_no, v.seat): v for v in analysis.plays} if analysis is not None and status == "ok" else {}
    hands = [card_list(facts.hands[s].mask) if s in active else [] for s in range(n)]
    exchanges = [{"seat": ex.seat, "discarded": card_list(ex.discards.mask), "drawn": card_list(ex.drawn.mask)}
                 for ex in facts.exchanges]
    tricks = []
    played = iter(facts.choices)
    for number, trick in enumerate(deal.tricks, 1):
        start = active.index(trick.leader)
        cards = []
        for i, card in enumerate(trick.cards):
            seat = active[(start + i) % 3]
            verdict = verdicts.get((number, seat))
            if verdict is not None and verdict.card != card:  # pragma: no cover - the analysis of another deal
                raise ValueError(f"the analysis of trick {number} does not match the deal")
            cards.append({
                "seat": seat, "card": str(CARDS[card]),
                "value": verdict.value if verdict is not None else None,
                "best": verdict.best if verdict is not None else None,
                "best_cards": [str(c) for c in verdict.best_cards] if verdict is not None else None,
                "cost": verdict.cost if verdict is not None else None,
                "choices": next(played),
            })
        tricks.append({"no": number, "leader": trick.leader, "winner": trick.winner, "cards": cards})
    scores = deal.scores()
    return {
        "table": table_id, "deal": deal_no, "players": list(record.players), "seats": list(active),
        "dealer": deal.dealer, "chooser": deal.forehand, "contract": _contract(drec.contract), "hands": hands,
        "exchanges": exchanges, "tricks": tricks,
        "tricks_won": [deal.tricks_won[s] if s in active else None for s in range(n)],
        "scores": [scores[s] if s in active else None for s in range(n)],
        "analysis": status,
        "unjudged_tricks": list(facts.unjudged_tricks),
    }
