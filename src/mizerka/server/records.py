"""Reviewing a game record sent by the browser: ``POST /api/records/review``.

A player who played with ``mizerka play --record game.mzn``, downloaded a table's record, or kept a match with the
score keeper opens the record in the browser (``/?review=1``) and gets its score sheet and, for every finished deal
with cards, the same card-by-card review that a table gives (:func:`mizerka.server.views.build_review`).  The
server keeps nothing of the record: the browser sends it with each request.  A deal's analysis is kept like a
table's (:meth:`mizerka.server.hub.Hub.review_analysis`), under a key made from the record's canonical text, so
the same record sent again, in either form, is not analysed twice.

>>> from pathlib import Path
>>> text = Path("tests/data/records/standard-seed7.mzn").read_text(encoding="utf-8")
>>> record = read_posted(text)
>>> sheet = summary(record)
>>> sheet["players"], sheet["complete"], len(sheet["score_sheet"]), sheet["score_sheet"][0]["reviewable"]
(['Ala', 'Bolek', 'Cezary'], True, 18, True)
>>> review_number(record, 19)
Traceback (most recent call last):
...
mizerka.server.tables.TableError: unknown_deal: the record has no deal 19 (deals 1-18)
"""

from __future__ import annotations

import hashlib
from typing import Annotated, Any, Final

from pydantic import BaseModel, ConfigDict, Field

from mizerka.record import MatchRecord, RecordError, read
from mizerka.scoresheet import running_totals
from mizerka.server.tables import TableError

__all__ = ["MAX_RECORD_CHARS", "RECORD_BODY_BYTES", "RECORD_REVIEW_PATH", "RecordReviewRequest", "RecordSummary",
           "read_posted", "record_key", "review_number", "summary"]

RECORD_REVIEW_PATH: Final = "/api/records/review"

MAX_RECORD_CHARS: Final = 2 * 1024 * 1024
"""The longest record the endpoint reads (a whole match with comments is tens of kilobytes); a longer one is refused
with 413 ``record_too_large``."""

RECORD_BODY_BYTES: Final = 2 * MAX_RECORD_CHARS + 4096
"""The request body this endpoint may send (the record as a JSON string, whose escapes may double it), above the
server's small limit for every other body."""


class RecordReviewRequest(BaseModel):
    """``{"record": "<a game record, text or JSON form>", "deal": N or null}``: null for the record's score sheet
    (:class:`RecordSummary`), a deal's number for its review (the table review's answer, ``Review``)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    record: str = Field(description="The record in either form (docs/record.md), as its file holds it.")
    deal: Annotated[int, Field(ge=1)] | None = Field(default=None, description=(
        "null: the score sheet; a deal's number: that finished deal's review."))


class RecordSummary(BaseModel):
    """A record's score sheet, as a finished match's page shows it (``deal: null``)."""

    variant: str
    players: list[str] = Field(description="Names by seat.")
    contracts: list[str] = Field(description="Every contract of the variant, in order (the sheet's columns).")
    n_deals: int
    complete: bool = Field(description="Whether every deal of the match is finished.")
    score_only: bool = Field(description="A score keeper's record: contracts and tricks, no cards to review.")
    totals: list[int]
    used: list[list[str]] = Field(description="By seat: the contracts it chose in the finished deals.")
    winners: list[int] = Field(description="The seats with the highest total; [] until the match is over.")
    tags: dict[str, str] = Field(description="The record's header tags (Event, Site, Date, …).")
    score_sheet: list[dict[str, Any]] = Field(description=(
        "One row per finished deal, as a table's score sheet: deal_no, dealer, chooser, contract, tricks, scores, "
        "totals, and reviewable (the deal's cards are in the record)."))


def read_posted(text: str) -> MatchRecord:
    """The record *text* says (either form), checked as ``mizerka replay`` checks a file: a record with cards is
    replayed card by card, so every deal it holds obeys the rules.

    Raises:
        TableError: ``record_too_large`` (over :data:`MAX_RECORD_CHARS` characters), ``bad_record`` (what is wrong,
            in the record reader's words).
    """
    if len(text) > MAX_RECORD_CHARS:
        raise TableError("record_too_large", f"the record is over {MAX_RECORD_CHARS // (1024 * 1024)} MiB; a whole "
                                             "match is tens of kilobytes")
    if not text.strip():
        raise TableError("bad_record", "the record is empty")
    try:
        # as bytes: read() of a one-line str adds a hint for a Python caller who passed a file name
        record = read(text.encode("utf-8", "surrogatepass"))
        if not record.score_only:
            record.to_match()  # every card against the rules; fills in each deal's tricks and scores
    except RecordError as error:
        raise TableError("bad_record", str(error)) from None
    return record


def record_key(record: MatchRecord) -> str:
    """The key under which the server keeps a record's deal analyses: its canonical text's digest, so the text
    and the JSON form of one record share it."""
    return "record:" + hashlib.sha256(record.to_text().encode("utf-8")).hexdigest()


def summary(record: MatchRecord) -> dict[str, Any]:
    """The record's score sheet (:class:`RecordSummary`)."""
    n = record.rules.n_seats
    used: list[list[str]] = [[] for _ in range(n)]
    rows = []
    by_number = {deal.number: deal for deal in record.deals}
    results = record.results()
    for result, totals in zip(results, running_totals(results, n), strict=True):
        used[result.chooser].append(str(result.contract))
        rows.append({"deal_no": result.deal_no, "dealer": result.dealer, "chooser": result.chooser,
                     "contract": str(result.contract), "tricks": list(result.tricks), "scores": list(result.scores),
                     "totals": totals, "reviewable": not by_number[result.deal_no].score_only})
    complete = record.is_over()
    return {"variant": record.rules.spec(), "players": list(record.players),
            "contracts": [str(c) for c in record.rules.contracts], "n_deals": record.rules.n_deals,
            "complete": complete, "score_only": record.score_only, "totals": list(record.totals), "used": used,
            "winners": list(record.outcome().winners) if complete else [], "tags": dict(record.tags),
            "score_sheet": rows}


def review_number(record: MatchRecord, deal: int) -> int:
    """*deal*, once it is a finished deal of *record* with its cards: the one a review can judge.

    Raises:
        TableError: ``no_cards`` (a score keeper's record), ``unknown_deal`` (no such deal in the record),
            ``deal_not_over`` (the deal the record ends in, unfinished).
    """
    if record.score_only:
        raise TableError("no_cards", "a score keeper's record holds contracts and tricks, no cards: there is no play "
                                     "to review")
    count = len(record.deals)
    if not 1 <= deal <= count:
        have = f"deals 1-{count}" if count > 1 else "deal 1" if count else "no deal yet"
        raise TableError("unknown_deal", f"the record has no deal {deal} ({have})")
    drec = record.deals[deal - 1]
    if not drec.is_over or drec.contract is None:
        raise TableError("deal_not_over", f"deal {deal} is not over in the record: only a finished deal can be "
                                          "reviewed")
    return deal
