"""Where a deal went wrong: every card of a record measured against the double-dummy solver.

For each card played, :func:`analyse_deal` asks the solver (:func:`mizerka.solver.solve_best`) what the player to
move could have ended the deal with after his best cards, and after the card he played, with every hand visible
and perfect play from then on, and compares the card actually played with the best one.  The difference, in
tricks, is the card's **cost**: a card that costs tricks is an error.

Whose "perfect play"?  Mizerka has three players each for himself, so the solver's values are **paranoid**: for
the player to move (the seat being judged) the other two are taken to play together against him.  His value is
the number of tricks he ends the deal with (the tricks he has already won plus those the solver gives him from
here); more is better in a trump or no-trump contract, fewer in Mizerka.  A card that costs nothing under this
assumption is never an error; a card that costs tricks loses them against the best defence, which is the usual
meaning of a double-dummy error in bridge.  Double dummy also means the analysis sees cards the player could
not, so a "mistake" may have been a reasonable guess at the table: the report measures, it does not blame.

Only the play is judged (not the contract or the exchange), and a card is judged only when there was a choice.
In a variant where the players still draw from a stock during the first tricks (seed002-literal), the cards of
those tricks are not judged either: the solver needs every card in the hands (``DealAnalysis.unjudged_tricks``).

With ``perfect=True`` (``mizerka analyse`` asks for it) a deal's analysis also says what perfect play gives each
seat from the start of play (``DealAnalysis.perfect``, ``perfect_scores``): the tricks he makes sure of with the
other two against him, and their score; paranoid too, so the seats' numbers are guarantees, not one line of play.

>>> from mizerka.deal import Deal
>>> from mizerka.record import MatchRecord
>>> from mizerka.match import Match
>>> match = Match(seed=2, players=["Ala", "Bolek", "Cezary"])
>>> for _ in range(4 + 3 * 11):            # the contract, three exchanges, eleven tricks: first legal card each
...     _ = match.play(match.deal.forced_action() or next(iter(match.legal_actions)))
>>> report = analyse(MatchRecord.from_match(match))
>>> [len(d.plays) for d in report.deals], report.deals[0].plays[0].trick_no
([33], 1)
>>> all(p.cost >= 0 and (p.cost == 0) == (p.value == p.best) for p in report.deals[0].plays)
True
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import click

from mizerka._checks import whole_number
from mizerka.cards import CARDS, Card, CardSet
from mizerka.cli import RECORD_FILE, InputError, echo_json, read_record_file, record_file_name, unicode_option
from mizerka.deal import Deal, Exchange, Play, Trick
from mizerka.record import DealRecord, MatchRecord, RecordError
from mizerka.rules import Contract, Role

__all__ = ["CardVerdict", "DealAnalysis", "DealFacts", "ExchangeFacts", "MatchAnalysis", "PlayerSummary", "analyse",
           "analyse_command", "analyse_deal", "counted_noun", "deal_facts", "perfect_scores", "perfect_tricks"]


@dataclasses.dataclass(frozen=True)
class CardVerdict:
    """One card played, judged.

    Attributes:
        trick_no: the trick (from 1).
        seat: who played it.
        card: the card.
        value: the tricks *seat* ends the deal with, after this card, under perfect (paranoid) play.
        best: the same for the best legal card.
        best_cards: every legal card that reaches *best*.
        cost: tricks lost by this card compared with the best one (0 = no error).
        choices: how many legal cards there were.
    """

    trick_no: int
    seat: int
    card: Card
    value: int
    best: int
    best_cards: tuple[Card, ...]
    cost: int
    choices: int

    @property
    def is_error(self) -> bool:
        return self.cost > 0


@dataclasses.dataclass(frozen=True)
class DealAnalysis:
    """The verdicts on the cards of one deal, in order of play.

    ``unjudged_tricks`` lists the tricks whose cards are left out of ``plays`` because cards were still drawn
    from a stock during them (seed002-literal): the solver cannot take such a position.

    Attributes:
        chooser: forehand, who chose the contract (``roles`` gives every seat's role).
        roles: each seat's role in the deal (RULES §1: forehand, middlehand, dealer), ``None`` for a dealer who
            sits out (four at the table, where the third role goes to the dealer's right).
        tricks_won: the tricks each seat took (so far, in a deal the record leaves unfinished).
        scores: each seat's score for the deal, ``None`` while the deal is not over.
        perfect: what perfect play gives each seat, in tricks: the tricks he ends the deal with from the start of
            play (or from trick ``perfect_from``, the first the solver can take), playing his best with the other
            two against him (paranoid: at least that many tricks, at most in Mizerka), ``None`` for a seat that
            sits out.  Each seat's is a guarantee of its own, not one line of play, so they need not add up to the
            tricks of a deal.  ``None`` when not computed (an *evaluate* other than the solver, or no position the
            solver can take).
        perfect_scores: the score each ``perfect`` number of tricks brings (at least that score, in every contract).
        perfect_from: the trick from which ``perfect`` is counted (1 but in seed002-literal), or ``None``.
    """

    deal_no: int
    dealer: int
    chooser: int
    contract: Contract
    tricks_won: tuple[int, ...]
    plays: tuple[CardVerdict, ...]
    unjudged_tricks: tuple[int, ...] = ()
    roles: tuple[Role | None, ...] = ()
    scores: tuple[int, ...] | None = None
    perfect: tuple[int | None, ...] | None = None
    perfect_scores: tuple[int | None, ...] | None = None
    perfect_from: int | None = None

    def errors(self) -> list[CardVerdict]:
        return [p for p in self.plays if p.is_error]


@dataclasses.dataclass(frozen=True)
class PlayerSummary:
    """One player over the analysed deals: cards judged (with a choice), errors, tricks they cost."""

    seat: int
    name: str
    judged: int
    errors: int
    cost: int


@dataclasses.dataclass(frozen=True)
class MatchAnalysis:
    players: tuple[str, ...]
    variant: str
    deals: tuple[DealAnalysis, ...]

    def summary(self) -> list[PlayerSummary]:
        out = []
        for seat, name in enumerate(self.players):
            mine = [p for d in self.deals for p in d.plays if p.seat == seat and p.choices > 1]
            out.append(PlayerSummary(seat, name, len(mine), sum(p.is_error for p in mine), sum(p.cost for p in mine)))
        return out

    def to_dict(self) -> dict[str, object]:
        """The analysis as plain data (what ``mizerka analyse --json`` prints)."""
        return {
            "variant": self.variant,
            "players": list(self.players),
            "solver": "double dummy, paranoid (the two other players against the player to move, and in "
                      "perfect against each player)",
            "deals": [
                {
                    "deal": d.deal_no,
                    "dealer": d.dealer,
                    "chooser": d.chooser,
                    "roles": [None if r is None else r.name.lower() for r in d.roles],
                    "contract": str(d.contract),
                    "goal": d.contract.goal,
                    "tricks": list(d.tricks_won),
                    "scores": None if d.scores is None else list(d.scores),
                    "perfect": None if d.perfect is None else {
                        "from_trick": d.perfect_from,
                        "tricks": list(d.perfect),
                        "scores": list(d.perfect_scores or ()),
                    },
                    "unjudged_tricks": list(d.unjudged_tricks),
                    "plays": [
                        {
                            "trick": p.trick_no,
                            "seat": p.seat,
                            "player": self.players[p.seat],
                            "card": str(p.card),
                            "value": p.value,
                            "best": p.best,
                            "best_cards": [str(c) for c in p.best_cards],
                            "cost": p.cost,
                            "choices": p.choices,
                        }
                        for p in d.plays
                    ],
                }
                for d in self.deals
            ],
            "summary": [dataclasses.asdict(s) for s in self.summary()],
        }


@dataclasses.dataclass(frozen=True)
class ExchangeFacts:
    """One exchange of a deal: who, the cards discarded and the cards drawn (both empty for a keep)."""

    seat: int
    discards: CardSet
    drawn: CardSet


@dataclasses.dataclass(frozen=True)
class DealFacts:
    """What a review shows around the verdicts of a finished deal (:func:`deal_facts`), the solver not asked.

    Attributes:
        deal: the deal replayed to its end (scores, tricks won, dealer, forehand).
        hands: each active seat's hand at the start of play (after the exchanges).
        exchanges: the exchanges, in order.
        choices: how many legal cards there were for each card played, in order of play.
        unjudged_tricks: the tricks played while cards were still drawn (see :class:`DealAnalysis`).
    """

    deal: Deal
    hands: dict[int, CardSet]
    exchanges: tuple[ExchangeFacts, ...]
    choices: tuple[int, ...]
    unjudged_tricks: tuple[int, ...]

    @property
    def tricks(self) -> tuple[Trick, ...]:
        return tuple(self.deal.tricks)


def deal_facts(record: MatchRecord, deal_no: int) -> DealFacts:
    """Replay finished deal *deal_no* (from 1) of a full *record*: its hands at the start of play, exchanges and
    tricks, for a review (the verdicts come from :func:`analyse_deal`, which may be slow or not asked for).

    Raises:
        RecordError: as :func:`analyse_deal`, and for a deal that is not over.
    """
    drec = _deal_record(record, deal_no)
    if not drec.is_over:
        raise RecordError("the deal is not over: only a finished deal has all its facts", deal_no=drec.number)
    assert drec.deck is not None
    deal = Deal(drec.deck, rules=record.rules, dealer=drec.dealer)
    hands: dict[int, CardSet] = {}
    exchanges: list[ExchangeFacts] = []
    choices: list[int] = []
    unjudged: list[int] = []
    for action in drec.actions():
        seat = deal.to_move
        if isinstance(action, Play):
            if not hands:  # the start of play: every exchange made
                hands = {s: deal.hand(s) for s in deal.active_seats}
            choices.append(deal.legal_play_mask().bit_count())
            if deal.stock and len(deal.tricks) + 1 not in unjudged:  # as analyse_deal: cards still drawn
                unjudged.append(len(deal.tricks) + 1)
        deal.push(action)
        if isinstance(action, Exchange):
            exchanges.append(ExchangeFacts(seat, CardSet.from_mask(deal.dead[seat]),
                                           CardSet.from_mask(deal.drawn[seat])))
    return DealFacts(deal, hands, tuple(exchanges), tuple(choices), tuple(unjudged))


Evaluator = Callable[[Deal], dict[Card, int]]
"""Values of every legal card of the player to move, in tricks from here on (the solver by default)."""


Verdict = tuple[int, tuple[Card, ...], int]
"""What a card's verdict needs, in tricks from the position before it: the best value, the cards that reach it
(lowest first), and the value of the card played."""


def _solver_verdict(deal: Deal, card: int) -> Verdict:
    """The solver's :data:`Verdict` on *card* (an index) for the player to move: the best cards by
    :func:`~mizerka.solver.solve_best`, which is cheaper than scoring every card (a Mizerka deal's review
    takes about 30% less), and the card's own value only where it is not among them."""
    from mizerka.solver import Position, solve, solve_best

    seat = deal.to_move
    position = Position.from_deal(deal)
    best = solve_best(position, seat)
    if CARDS[card] in best.cards:
        return best.value, best.cards, best.value
    after = position.play(card)
    completed = len(position.trick) == position.n_players - 1
    won = completed and position.side_mask(position.player_of(seat)) >> after.leader & 1
    return best.value, best.cards, int(won) + solve(after, seat)


def _verdict_by(evaluate: Evaluator, avoid: bool) -> Callable[[Deal, int], Verdict]:
    """A :data:`Verdict` from an *evaluate* that values every legal card (fewest tricks best if *avoid*)."""
    def verdict(deal: Deal, card: int) -> Verdict:
        values = evaluate(deal)
        best = min(values.values()) if avoid else max(values.values())
        return best, tuple(c for c, v in sorted(values.items()) if v == best), values[CARDS[card]]

    return verdict


def _check_record(record: object) -> None:
    if not isinstance(record, MatchRecord):
        raise RecordError(f"the analysis takes a MatchRecord, not {type(record).__name__}")
    if record.score_only:
        raise RecordError("a score-only record has no cards to analyse")


def _deal_record(record: MatchRecord, deal_no: object) -> DealRecord:
    """Deal *deal_no* of a full *record*, checked: a whole number of a deal in it, with its cards and contract."""
    _check_record(record)
    number = whole_number(deal_no)  # a NumPy integer is a number, a bool is not
    if number is None:
        raise RecordError(f"a deal number must be a whole number, not {deal_no!r}")
    if not 1 <= number <= len(record.deals):
        raise RecordError(f"the record has deals 1-{len(record.deals)}, not {number}")
    drec = record.deals[number - 1]
    if drec.deck is None or drec.contract is None:
        raise RecordError("the contract is not chosen yet: there is no play to analyse", deal_no=number)
    return drec


def analyse_deal(
    record: MatchRecord, deal_no: int, *, evaluate: Evaluator | None = None, perfect: bool = False
) -> DealAnalysis:
    """Judge every card of deal *deal_no* (from 1) of a full *record*; with *perfect*, say too what perfect play
    gives each seat (:attr:`DealAnalysis.perfect`: two more solves of the whole deal, about a third more time;
    not with an *evaluate* of its own, which cannot value a seat that is not to move).

    Raises:
        RecordError: for a score-only record (or no record at all), a deal number that is not a whole number or
            not in it, a deal without a contract yet, or one in which no card has been played yet.
    """
    drec = _deal_record(record, deal_no)
    assert drec.deck is not None and drec.contract is not None  # as _deal_record checked
    deal_no = drec.number
    if not drec.tricks:  # an empty analysis would read as "no errors"
        raise RecordError("the deal has not reached its play (no card has been played yet): there is nothing to "
                          "analyse", deal_no=deal_no)
    with_perfect = perfect and evaluate is None
    judge = _solver_verdict if evaluate is None else _verdict_by(evaluate, drec.contract.is_mizerka)
    deal = Deal(drec.deck, rules=record.rules, dealer=drec.dealer)
    plays: list[CardVerdict] = []
    unjudged: list[int] = []
    par: list[int | None] | None = None
    perfect_from: int | None = None
    for action in drec.actions():
        if isinstance(action, Play) and deal.stock:  # cards still drawn during play: the solver cannot judge
            if len(deal.tricks) + 1 not in unjudged:
                unjudged.append(len(deal.tricks) + 1)
        elif isinstance(action, Play):
            # a forced card is valued too (it costs nothing): the value of its position, which is the value after
            # it.  The value of the seat's next card with a choice is no substitute: the others' errors in between
            # change it, and so does an error of the seat with that card (its value is after the error)
            seat = deal.to_move
            choices = deal.legal_play_mask().bit_count()
            base = deal.tricks_won[seat]
            best, best_cards, value = judge(deal, action.card)
            best, value = base + best, base + value
            if par is None and with_perfect:  # the first position the solver takes: what perfect play gives
                par, perfect_from = perfect_tricks(deal, known={seat: best}), len(deal.tricks) + 1
            plays.append(CardVerdict(
                trick_no=len(deal.tricks) + 1, seat=seat, card=CARDS[action.card], value=value, best=best,
                best_cards=best_cards, cost=abs(value - best), choices=choices,
            ))
        deal.push(action)
    roles = tuple(deal.role(s) for s in range(record.rules.n_seats))
    return DealAnalysis(
        deal_no=deal_no, dealer=drec.dealer, chooser=deal.forehand,
        contract=drec.contract, tricks_won=tuple(deal.tricks_won), plays=tuple(plays),
        unjudged_tricks=tuple(unjudged), roles=roles,
        scores=tuple(deal.scores()) if deal.is_over() else None,
        perfect=None if par is None else tuple(par),
        perfect_scores=None if par is None else tuple(perfect_scores(deal, par)),
        perfect_from=perfect_from,
    )


def perfect_tricks(deal: Deal, *, known: dict[int, int] | None = None) -> list[int | None]:
    """The tricks each seat of *deal* ends it with under perfect play from here, the other two against him (the
    solver's paranoid value plus the tricks he has already won), by seat; ``None`` for a seat that sits the deal
    out.  *known* gives values already found (the player to move's best card), which are not solved again.

    The server's double-dummy values at a deal's end are this, from the start of its play.

    >>> deal = Deal.random(2)
    >>> while deal.phase.name != "PLAY":
    ...     deal.push(deal.parse_action("keep") if deal.phase.name == "EXCHANGE" else next(iter(deal.legal_actions)))
    >>> tricks = perfect_tricks(deal)
    >>> len(tricks), all(0 <= t <= 13 for t in tricks if t is not None)
    (3, True)

    Raises:
        mizerka.solver.StockNotEmptyError: where players still draw from a stock during play (the solver cannot
            take such a position).
    """
    from mizerka.solver import Position, solve

    position = Position.from_deal(deal)
    known = known or {}
    out: list[int | None] = [None] * len(deal.tricks_won)
    for seat in deal.active_seats:
        out[seat] = known[seat] if seat in known else deal.tricks_won[seat] + solve(position, seat)
    return out


def perfect_scores(deal: Deal, tricks: Sequence[int | None]) -> list[int | None]:
    """The score each seat's *tricks* (by seat, as :func:`perfect_tricks` gives them) bring in *deal*'s contract,
    by the seat's role; ``None`` where the seat sits out or its tricks are ``None``.

    Raises:
        ValueError: if *deal* has no contract yet, or *tricks* does not give one number per seat.
    """
    if deal.contract is None:
        raise ValueError("the deal has no contract yet: its tricks have no score")
    if len(tricks) != deal.rules.n_seats:
        raise ValueError(f"expected the tricks of {deal.rules.n_seats} seats, got {len(tricks)}")
    out: list[int | None] = []
    for seat, won in enumerate(tricks):
        role = deal.role(seat)
        out.append(None if won is None or role is None else deal.rules.score(role, deal.contract, won))
    return out


def analyse(
    record: MatchRecord, deals: Iterable[int] | None = None, *, evaluate: Evaluator | None = None,
    progress: Callable[[int], None] | None = None, perfect: bool = False,
) -> MatchAnalysis:
    """Analyse the given deals (all deals with play by default) of a full *record* (:func:`analyse_deal`, with
    *evaluate* and *perfect*; ``mizerka analyse`` asks for *perfect*).

    Raises:
        RecordError: as :func:`analyse_deal`, and for *deals* that is not a collection of deal numbers.
    """
    _check_record(record)
    if deals is not None and (isinstance(deals, (str, bytes)) or not isinstance(deals, Iterable)):
        raise RecordError(f"deals must be a collection of deal numbers, not {deals!r}")
    try:
        given = None if deals is None else list(dict.fromkeys(deals))  # each deal once, in the order given
    except TypeError:  # an unhashable item: no deal number
        raise RecordError(f"deals must be a collection of deal numbers, not {deals!r}") from None
    numbers = given if given is not None else [
        d.number for d in record.deals if d.contract is not None and d.tricks
    ]
    out = []
    for number in numbers:
        if progress is not None:
            progress(number)
        out.append(analyse_deal(record, number, evaluate=evaluate, perfect=perfect))
    return MatchAnalysis(tuple(record.players), record.rules.spec(), tuple(out))


def format_analysis(analysis: MatchAnalysis, *, unicode: bool = True) -> str:
    """The text report: per deal one line per card (value best → played, and the cost of an error), then the
    summary per player."""
    names = analysis.players
    width = max(len(n) for n in names)

    def card(c: Card) -> str:
        return c.unicode() if unicode else str(c)

    mark = "✗" if unicode else "x"  # as the line game's review marks an error; --ascii output is all ASCII
    lines = ["Values are the tricks the player to move ends the deal with under perfect play, the other two",
             f"playing against him (double dummy, paranoid).  {mark} marks a card that cost tricks."]
    if any(d.perfect is not None for d in analysis.deals):
        lines += ["Perfect play: the tricks each player makes sure of (at least; at most in Mizerka) from the start",
                  "of play with the other two against him, and their score: a guarantee each, not one line of play."]
    lines.append("")
    for d in analysis.deals:
        lines.append(f"Deal {d.deal_no}: {_seating(d, names)}")
        lines.extend(_outcome_lines(d, names))
        if d.unjudged_tricks:
            first, last = d.unjudged_tricks[0], d.unjudged_tricks[-1]
            span = f"trick {first}" if first == last else f"tricks {first}-{last}"
            lines.append(f"  {span} not judged: cards were still drawn from the stock, and the solver needs "
                         f"every card in the hands")
        for p in d.plays:
            head = f"  trick {p.trick_no:>2}  {names[p.seat]:<{width}}  {card(p.card):>4}"
            if p.choices == 1:
                lines.append(f"{head}  (forced)")
                continue
            text = f"{head}  best {p.best:>2}, played {p.value:>2}"
            if p.is_error:
                better = " ".join(card(c) for c in p.best_cards)
                text += f"  {mark} cost {p.cost} trick{'s' if p.cost != 1 else ''} (best: {better})"
            lines.append(text)
        errors = d.errors()
        lines.append(f"  {len(errors)} error{'s' if len(errors) != 1 else ''} in deal {d.deal_no}")
        lines.append("")
    lines.append("Summary")
    for s in analysis.summary():
        cards = counted_noun(s.judged, "card", " with a choice,")
        mistakes = counted_noun(s.errors, "error", ",")
        lines.append(f"  {s.name:<{width}}  {s.judged:>3} {cards} {s.errors:>2} {mistakes} "
                     f"{s.cost:>2} {counted_noun(s.cost, 'trick', ' lost')}".rstrip())
    return "\n".join(lines)


def _seating(d: DealAnalysis, names: Sequence[str]) -> str:
    """``forehand Ala chose diamonds (take); middlehand Bolek, dealer Cezary``: the seats named as in RULES §1."""
    role_of = dict(enumerate(d.roles))
    seat_of = {role: seat for seat, role in role_of.items() if role is not None}
    head = f"forehand {names[d.chooser]} chose {d.contract.label} ({d.contract.goal})"
    if not seat_of:  # a DealAnalysis built without roles (before they were kept): the dealer alone is known
        return f"{head}; dealer {names[d.dealer]}"
    middle = f"middlehand {names[seat_of[Role.MIDDLEHAND]]}"
    if role_of.get(d.dealer) is None:  # four at the table: the dealer sits out, his right takes his role
        return f"{head}; {middle}, {names[seat_of[Role.DEALER]]} in the dealer's place; dealer {names[d.dealer]} " \
               f"sits out"
    return f"{head}; {middle}, dealer {names[d.dealer]}"


def _signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


def _outcome_lines(d: DealAnalysis, names: Sequence[str]) -> list[str]:
    """The tricks (and scores) as played, then what perfect play gives each seat."""
    seats = [s for s, role in enumerate(d.roles) if role is not None] or list(range(len(d.tricks_won)))
    rows: list[tuple[str, str]] = []
    if d.scores is None:
        rows.append(("tricks so far (the deal is unfinished):",
                     ", ".join(f"{names[s]} {d.tricks_won[s]}" for s in seats)))
    else:
        rows.append(("tricks (score) as played:",
                     ", ".join(f"{names[s]} {d.tricks_won[s]} ({_signed(d.scores[s])})" for s in seats)))
    if d.perfect is not None and d.perfect_scores is not None:
        since = "" if d.perfect_from == 1 else f" from trick {d.perfect_from}"
        rows.append((f"perfect play{since}:",
                     ", ".join(f"{names[s]} {d.perfect[s]} ({_signed(d.perfect_scores[s] or 0)})" for s in seats)))
    width = max(len(label) for label, _ in rows)
    return [f"  {label:<{width}}  {text}" for label, text in rows]


def counted_noun(n: int, word: str, after: str = "") -> str:
    """*word* (then *after*) after a count of one, its plural otherwise, padded to the plural's width so that the
    columns of a per-player summary line up (here and in the full-screen review).

    >>> [counted_noun(1, "error", ",") + "|", counted_noun(2, "error", ",") + "|"]
    ['error, |', 'errors,|']
    """
    return f"{word}{after} " if n == 1 else f"{word}s{after}"


_DEAL_RANGE = re.compile(r"([0-9]+)(?:\s*-\s*([0-9]+))?")
"""A deal number ``3`` or an inclusive range ``3-5`` (first deal first), in ASCII digits."""


def _deal_number(digits: str) -> int:
    """The number *digits* writes, refusing one longer than any match (``int`` itself refuses thousands of
    digits with a ``ValueError``, which would escape as a traceback)."""
    if len(digits) > 6:
        shown = digits if len(digits) <= 12 else digits[:10] + "…"
        raise click.BadParameter(f"deal {shown} is past the last deal of any match", param_hint="'--deal'")
    return int(digits)


def _parse_deals(text: str | None, available: Sequence[int]) -> list[int] | None:
    if text is None:
        return None
    numbers: list[int] = []
    for part in text.split(","):
        part = part.strip()
        match = _DEAL_RANGE.fullmatch(part)
        if match is None:
            message = f"{part!r} is not a deal number or range like 3-5"
            raise click.BadParameter(message, param_hint="'--deal'")
        first = _deal_number(match[1])
        last = _deal_number(match[2]) if match[2] is not None else first
        if last < first:
            message = f"{part!r} is an empty range: the first deal comes first, like {last}-{first}"
            raise click.BadParameter(message, param_hint="'--deal'")
        for number in range(first, last + 1):
            if number not in available:
                raise click.BadParameter(
                    f"deal {number} has no play in this record (deals with play: "
                    f"{', '.join(map(str, available)) or 'none'})", param_hint="'--deal'")
            if number not in numbers:  # "1,1" or "1-3,2": each deal once
                numbers.append(number)
    return numbers


@click.command("analyse")
@click.argument("record_path", metavar="RECORD", type=RECORD_FILE)
@click.option("--json", "as_json", is_flag=True, help="print the analysis as JSON")
@click.option("--deal", "deal_text", default=None, metavar="N[,N-M]", help="only these deals (default: all)")
@unicode_option
def analyse_command(record_path: Path, as_json: bool, deal_text: str | None, unicode: bool) -> None:
    """Find the cards that cost tricks: each card of a game record against the double-dummy solver.

    Each deal starts with its seats (forehand, middlehand, dealer), the tricks and scores as played, and
    what perfect play gives each player: the tricks (and score) he makes sure of from the start of play
    with the two others against him.  For every card played with a choice, it prints the tricks the player
    could have ended the deal with (best card) and the tricks after the card he played, both under perfect
    play with the two others against him, and marks each card that cost tricks.  A summary per player ends
    the report.  Ctrl-C stops it (exit status 130).
    With the solver's C kernel most deals take well under a second; without it, the solver written in
    Python takes minutes a deal.  RECORD is a record file in either form (text or JSON), or - to read it
    from standard input.
    """
    name = record_file_name(record_path)
    # a record that cannot be read or breaks a rule is bad input, not a usage error: the message alone, exit
    # status 2, as `mizerka replay` and `mizerka solve` say it (no "Usage: ... Try --help" banner before it)
    try:
        record = read_record_file(record_path)
    except (RecordError, OSError) as error:
        raise InputError(f"{name}: {error}") from None
    if record.score_only:
        raise InputError(f"{name}: a score-only record has no cards to analyse")
    available = [d.number for d in record.deals if d.contract is not None and d.tricks]
    numbers = _parse_deals(deal_text, available)

    current: list[int] = []

    def progress(number: int) -> None:
        current.append(number)
        click.echo(f"analysing deal {number}{'…' if unicode else '...'}", err=True)

    try:
        analysis = analyse(record, numbers, progress=progress, perfect=True)
    except ValueError as error:  # RecordError, the solver's InvalidPositionError: never a traceback
        raise InputError(f"{name}: {error}") from None
    except KeyboardInterrupt:  # Ctrl-C: as `mizerka solve` and `mizerka play`, exit status 130 (128 + SIGINT)
        where = f" during deal {current[-1]}" if current else ""
        click.echo(f"Aborted!{where}: nothing is printed (--deal N analyses fewer deals)", err=True)
        raise click.exceptions.Exit(130) from None
    if not analysis.deals:  # no card played in the record: an empty report with exit code 0 would read as "no errors"
        raise InputError(f"{name}: no deal of the record has reached its play (no card has been "
                         "played yet): there is nothing to analyse")
    if as_json:
        data: Any = analysis.to_dict()
        echo_json(data, indent=1)
    else:
        click.echo(format_analysis(analysis, unicode=unicode))
