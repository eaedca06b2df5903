"""Reviewing a finished deal of a local game card by card (the game screens' review; no Textual here).

A review is :func:`mizerka.analysis.analyse_deal` on the record of the match's **finished** deals: every card
judged by the double-dummy solver (its value, the best value, the best cards, the tricks it cost), with what a
reader needs around it: the hands at the start of play (all open, the deal is over), each exchange, and each
trick's leader and winner.

Hidden information: :func:`finished_record` leaves the deal in progress out of the record altogether, so nothing
of it can reach a review; :func:`check_reviewable` refuses its number (and any other number that is not a
finished deal) with a sentence to show.

>>> from mizerka.match import Match
>>> from mizerka.rules import parse_variant
>>> match = Match(parse_variant("standard,contracts=NT+MZ"), players=["You", "Ala", "Bolek"], seed=3)
>>> check_reviewable(match, 1)
'No deal is finished yet: a review is of a finished deal.'
>>> for _ in range(4 + 3 * 13):             # the contract, three exchanges, thirteen tricks
...     _ = match.play(match.deal.forced_action() or next(iter(match.legal_actions)))
>>> finished_deals(match), check_reviewable(match, 1), check_reviewable(match, 2)
([1], None, 'Deal 2 is still being played: only a finished deal can be reviewed (deal 1).')
>>> review = build_review(finished_record(match), 1)
>>> len(review.analysis.plays), len(review.tricks), sorted(len(h) for h in review.hands.values())
(39, 13, [13, 13, 13])
"""

from __future__ import annotations

import dataclasses
import textwrap
from collections.abc import Callable, Mapping

from mizerka.analysis import (
    DealAnalysis,
    Evaluator,
    ExchangeFacts,
    MatchAnalysis,
    PlayerSummary,
    analyse_deal,
    deal_facts,
    format_analysis,
)
from mizerka.cards import Card, CardSet
from mizerka.cli import format_cards
from mizerka.deal import Trick
from mizerka.match import Match
from mizerka.record import MatchRecord

__all__ = ["REMOTE_REVIEW", "DealReview", "ExchangeFacts", "build_review", "check_reviewable", "deal_range",
           "finished_deals", "finished_record", "review_text", "verdict_text"]

REMOTE_REVIEW = "review is available in local games; the web app reviews online tables"
"""What the games at a server's table say to ``review`` (they would need cards the server keeps hidden)."""


@dataclasses.dataclass(frozen=True)
class DealReview:
    """A finished deal judged card by card, with the facts to show around the verdicts.

    Attributes:
        analysis: the solver's verdicts (:func:`mizerka.analysis.analyse_deal`).
        players: the players' names, by seat.
        variant: the rules, as a variant spec.
        n_deals: the deals of the match.
        active_seats: the three seats that played the deal, forehand first.
        hands: each active seat's hand at the start of play (after the exchanges).
        exchanges: the exchanges, in order.
        tricks: the tricks: leader, cards in order of play, winner.
    """

    analysis: DealAnalysis
    players: tuple[str, ...]
    variant: str
    n_deals: int
    active_seats: tuple[int, ...]
    hands: dict[int, CardSet]
    exchanges: tuple[ExchangeFacts, ...]
    tricks: tuple[Trick, ...]

    @property
    def deal_no(self) -> int:
        return self.analysis.deal_no

    def match_analysis(self) -> MatchAnalysis:
        """The analysis of this one deal as :func:`~mizerka.analysis.format_analysis` takes it."""
        return MatchAnalysis(self.players, self.variant, (self.analysis,))

    def summary(self) -> list[PlayerSummary]:
        """Per player who played the deal: cards with a choice, errors, tricks they cost."""
        return [s for s in self.match_analysis().summary() if s.seat in self.active_seats]

    def verdicts(self, trick_no: int) -> dict[int, int]:
        """The index in ``analysis.plays`` of each card of trick *trick_no*, by seat (none for unjudged tricks)."""
        return {p.seat: i for i, p in enumerate(self.analysis.plays) if p.trick_no == trick_no}


# -- which deals ------------------------------------------------------------------------------------------------


def finished_deals(match: Match) -> list[int]:
    """The numbers of the match's finished deals (the deal in progress is never one of them)."""
    return [number for number, deal in enumerate(match.deals, start=1) if deal.is_over() and deal.tricks]


def deal_range(numbers: list[int]) -> str:
    """``deal 1``, ``deals 1-4``, ``deals 1, 3``: finished deals as a reader would write them."""
    if len(numbers) == 1:
        return f"deal {numbers[0]}"
    if numbers == list(range(numbers[0], numbers[-1] + 1)):
        return f"deals {numbers[0]}-{numbers[-1]}"
    return "deals " + ", ".join(map(str, numbers))


def check_reviewable(match: Match, deal_no: int) -> str | None:
    """Why deal *deal_no* cannot be reviewed now (a sentence to show), or ``None`` if it can."""
    finished = finished_deals(match)
    if not finished:
        return "No deal is finished yet: a review is of a finished deal."
    if deal_no in finished:
        return None
    if deal_no == match.deal_no and not match.deal.is_over():
        return (f"Deal {deal_no} is still being played: only a finished deal can be reviewed "
                f"({deal_range(finished)}).")
    if 1 <= deal_no <= match.n_deals:
        return (f"Deal {deal_no} has not been played yet: only a finished deal can be reviewed "
                f"({deal_range(finished)}).")
    return (f"There is no deal {deal_no}: the match has deals 1-{match.n_deals}; "
            f"finished so far: {deal_range(finished)}.")


def finished_record(match: Match, *, tags: Mapping[str, str] | None = None) -> MatchRecord:
    """The record of the match's finished deals only: the deal in progress (its deck, the hidden cards) is not
    in it.  Cheap; build it where the match is not changing (the screen's thread), analyse it anywhere.
    *tags*: its header tags (``Event``, ``Seed``, …; none by default)."""
    done = len(match.deals) if match.deal.is_over() else len(match.deals) - 1
    return MatchRecord.from_actions(match.rules, match.players, match.first_dealer, match.decks[:done],
                                    [list(deal.history) for deal in match.deals[:done]], tags=tags)


# -- the review -------------------------------------------------------------------------------------------------


def build_review(record: MatchRecord, deal_no: int, *, n_deals: int | None = None,
                 evaluate: Evaluator | None = None) -> DealReview:
    """Review deal *deal_no* of *record*: the solver's verdicts (seconds for a Mizerka contract) and the facts.

    Raises:
        RecordError: as :func:`mizerka.analysis.analyse_deal` (no such deal, no play in it).
    """
    analysis = analyse_deal(record, deal_no, evaluate=evaluate)
    facts = deal_facts(record, deal_no)
    return DealReview(
        analysis=analysis, players=tuple(record.players), variant=record.rules.spec(),
        n_deals=n_deals if n_deals is not None else record.rules.n_deals,
        active_seats=tuple(facts.deal.active_seats), hands=facts.hands, exchanges=facts.exchanges,
        tricks=facts.tricks,
    )


def verdict_text(review: DealReview, index: int, card: Callable[[Card], str]) -> str:
    """The verdict on card *index* of ``review.analysis.plays`` in a few words: ``best``, ``forced``,
    ``-2 tricks`` (a trump or no-trump contract), ``+1 trick taken`` (Mizerka), with the best cards of an error."""
    p = review.analysis.plays[index]
    if p.choices == 1:
        return "forced"
    if not p.is_error:
        return "best"
    plural = "s" if p.cost != 1 else ""
    loss = f"+{p.cost} trick{plural} taken" if review.analysis.contract.is_mizerka else f"-{p.cost} trick{plural}"
    return f"{loss} (best: {' '.join(card(c) for c in p.best_cards)})"


def hands_lines(review: DealReview, *, unicode: bool) -> list[str]:
    """The hands at the start of play and the exchanges, one line each, for the line game."""
    names = review.players
    width = max(len(names[s]) for s in review.active_seats)
    trump = review.analysis.contract.trump
    trump_suit = None if trump is None else int(trump)
    lines = ["  Hands at the start of play:"]
    for seat in review.active_seats:
        hand = format_cards(review.hands[seat], unicode=unicode, trump=trump_suit)
        lines.append(f"    {names[seat]:<{width}}  {hand}")
    for ex in review.exchanges:
        if ex.discards:
            gone, drawn = format_cards(ex.discards, unicode=unicode), format_cards(ex.drawn, unicode=unicode)
            lines.append(f"  {names[ex.seat]} exchanged {len(ex.discards)}: discarded {gone}, drew {drawn}")
        else:
            lines.append(f"  {names[ex.seat]} kept")
    return lines


def review_text(review: DealReview, *, unicode: bool, width: int | None = None) -> str:
    """The review as text (the line game's ``review``): :func:`~mizerka.analysis.format_analysis`'s report of the
    deal, with the hands at the start of play and the exchanges after its deal line; in the summary a seat that sat
    the deal out (four at the table) is said to, rather than given cards and errors.  Without *unicode* it is
    ASCII only (``x`` for ``✗``, as on the review screen).  With *width*, no line is wider: the opening paragraph
    is wrapped again, and a longer line goes on under itself (an error's best cards under its ``x cost``)."""
    lines = format_analysis(review.match_analysis(), unicode=unicode).split("\n")
    head = next(i for i, line in enumerate(lines) if line.startswith(f"Deal {review.deal_no}:"))
    lines[head + 1:head + 1] = hands_lines(review, unicode=unicode)
    summary = len(lines) - 1 - lines[::-1].index("Summary")  # then one line per seat, in seat order
    name_width = max(len(name) for name in review.players)  # as format_analysis pads the names
    for seat, name in enumerate(review.players):
        if seat not in review.active_seats:  # four at the table: the dealer sat out, with nothing to judge
            lines[summary + 1 + seat] = f"  {name:<{name_width}}  sat out (the dealer)"
    if not unicode:
        lines = [line.replace("✗", "x") for line in lines]
    if width is not None:
        lines = _fit(lines, width)
    return "\n".join(lines)


def _fit(lines: list[str], width: int) -> list[str]:
    """*lines* no wider than *width*: the first paragraph wrapped as one, a longer line after it wrapped under
    itself (under its ``(best:`` or ``cost``, else four columns in)."""
    blank = lines.index("") if "" in lines else 0
    out = textwrap.wrap(" ".join(lines[:blank]), width, break_on_hyphens=False) if blank else []
    for line in lines[blank:]:
        if len(line) <= width:
            out.append(line)
            continue
        mark = next((line.index(m) for m in ("(best:", "cost ", ": ") if m in line
                     and line.index(m) < width * 2 // 3), None)
        indent = mark if mark is not None else len(line) - len(line.lstrip()) + 4
        out.extend(textwrap.wrap(line, width, subsequent_indent=" " * indent, break_on_hyphens=False,
                                 break_long_words=False))
    return out
