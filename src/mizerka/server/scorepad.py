"""The score pad for a real card table in the browser: ``POST /api/scorepad``.

The server keeps no state for it.  The browser keeps the score-only game record (contracts and tricks, no
cards) and sends it with each entry; :func:`apply` applies the entry with the terminal's
:class:`~mizerka.scorekeeper.ScoreKeeper` (one engine, many front ends: no scoring logic in the browser) and
answers the new state (:func:`state`).

>>> answer = apply(ScorepadRequest.model_validate(
...     {"record": None, "new": {"players": ["Ala", "Bolek", "Cezary"], "first_dealer": 2},
...      "entry": {"contract": "H"}}))
>>> answer["deal_no"], answer["pending"], answer["chooser"]
(1, 'H', 0)
>>> answer = apply(ScorepadRequest.model_validate({"record": answer["record"], "entry": {"tricks": [5, 4, 4]}}))
>>> answer["totals"], answer["rows"][0]["scores"], answer["deal_no"]
([-2, -1, 3], [-2, -1, 3], 2)

A finished deal is corrected with ``{"correct": {"deal": 1, "contract": "NT", "tricks": [...]}}`` (either part may
be left out); the later deals stay as they are:

>>> answer = apply(ScorepadRequest.model_validate(
...     {"record": answer["record"], "entry": {"correct": {"deal": 1, "tricks": [6, 4, 3]}}}))
>>> answer["totals"], answer["corrected"], answer["rows"][0]["contract_choices"]
([-1, -1, 2], 1, ['C', 'D', 'H', 'S', 'NT', 'MZ'])

Every refusal raises :class:`ScorepadError` with a code: ``bad_setup`` (names, first dealer, variant),
``bad_record`` (a record that does not read, or holds cards) or ``bad_entry`` (an entry the rules refuse:
:class:`~mizerka.scorekeeper.EntryError`'s message).  A ``bad_setup`` also says why as a code and its parameters,
for a client to say it in its own language (:data:`SETUP_REASONS`):

>>> try:
...     apply(ScorepadRequest.model_validate(
...         {"record": None, "new": {"players": ["Ala", "Bolek", "ala"], "first_dealer": 0}}))
... except ScorepadError as error:
...     print(error.message)
...     print(error.reason)
player 3's name: 'ala' is already a player; names must differ
{'code': 'name_repeated', 'same_as': 1, 'player': 3}
"""

from __future__ import annotations

import warnings
from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidatorFunctionWrapHandler, WrapValidator, model_validator

from mizerka.record import RecordError, from_dict
from mizerka.rules import RulesError, parse_variant
from mizerka.scorekeeper import SETUP_REASONS as KEEPER_REASONS
from mizerka.scorekeeper import EntryError, ScoreKeeper

__all__ = ["SETUP_REASONS", "ScorepadAnswer", "ScorepadError", "ScorepadRequest", "apply", "state"]

SETUP_REASONS: Final = {
    **KEEPER_REASONS,
    "variant_invalid": "`variant`, the spec as given, is no variant (an unknown name or option, a bad value)",
}
"""Why a ``bad_setup`` refuses a new match: the codes of its ``reason`` (docs/protocol.md), each with what it means
and its parameters: the score keeper's (:data:`mizerka.scorekeeper.SETUP_REASONS`; a name's, with ``player``, are
the lobby's codes where they mean the same) and the variant's."""


class ScorepadError(ValueError):
    """A refused score-pad request: *code* is ``bad_setup``, ``bad_record`` or ``bad_entry``; *message* says why
    in English; *reason*, for a ``bad_setup``, says why as a code and its parameters (``{"code": "name_empty",
    "player": 2}``: :data:`SETUP_REASONS`), else ``None``."""

    def __init__(self, code: str, message: str, reason: dict[str, Any] | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.reason = reason


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


_NAME_READ: Final = 200
"""How many characters of a player's name (its spaces folded, as the score keeper folds them) the score keeper
judges (:func:`_as_judged`).  A name over 40 characters is refused whatever follows, so a longer one is judged on
its first 200: it is refused as any name over 40 characters is (``name_too_long``, ``max`` 40), or for a character
refused among those 200, and never for a record's own limit of 1000 characters (``max`` 1000)."""


def _text_as_sent(value: object, handler: ValidatorFunctionWrapHandler) -> object:
    """A player's name as it was sent: any text, of any length, a lone surrogate (JSON ``"\\ud800"``, half of a
    character) included, which strict validation would refuse with a 422 that has no reason.  The score keeper
    judges the names, so that every name refused is a ``bad_setup`` with its ``reason`` and ``player``
    (:data:`SETUP_REASONS`).  A value that is no text is still the schema's to refuse."""
    return value if isinstance(value, str) else handler(value)


_PlayerName = Annotated[str, WrapValidator(_text_as_sent)]
"""A player's name in a new match: any text, judged by the score keeper, not by the schema (:func:`_text_as_sent`);
the 64 KiB body cap bounds its length."""


class NewMatch(_Model):
    players: Annotated[list[_PlayerName], Field(max_length=8)] = Field(
        description="The names in order round the table (seat 0 first); checked as `mizerka score` checks them, "
                    "so that a refused name is a 400 bad_setup with its reason, whatever its length or characters.")
    first_dealer: int = Field(description="The seat (from 0) of the first dealer.")
    variant: Annotated[str, Field(max_length=200)] = Field(
        "standard", description="A variant spec, e.g. 'standard' or 'four-players'.")


class Correction(_Model):
    """A finished deal corrected: its contract, its tricks, or both (what is left out stays)."""

    deal: int = Field(description="The number of the finished deal (from 1).")
    contract: Annotated[str | None, Field(max_length=20, description="The deal's contract as it should be.")] = None
    tricks: Annotated[list[int | None] | None, Field(
        max_length=8, description="By seat, as for an entry's tricks: the deal's tricks as they should be.")] = None

    @model_validator(mode="after")
    def _something(self) -> Correction:
        if self.contract is None and self.tricks is None:
            raise ValueError("a correction gives the deal's 'contract', its 'tricks', or both")
        return self


class Entry(_Model):
    """Exactly one of: a contract, the tricks of the deal, an undo, or the correction of a finished deal."""

    contract: Annotated[str | None, Field(max_length=20, description="C D H S NT MZ.")] = None
    tricks: Annotated[list[int | None] | None, Field(
        max_length=8, description="By seat: the tricks each seat took; null (or 0) for a seat sitting out.")] = None
    undo: Literal[True] | None = Field(None, description="true: take back the last entry.")
    correct: Correction | None = Field(None, description="A finished deal corrected; the later deals stay.")

    @model_validator(mode="after")
    def _one(self) -> Entry:
        given = [k for k in ("contract", "tricks", "undo", "correct") if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError("an entry is exactly one of 'contract', 'tricks', 'undo' or 'correct'")
        return self


class ScorepadRequest(_Model):
    record: dict[str, Any] | None = Field(
        description="The score-only record so far (the JSON object of the last answer's 'record'), or null for "
                    "a new match.")
    new: NewMatch | None = Field(None, description="The new match: required when 'record' is null, else absent.")
    entry: Entry | None = Field(None, description="The entry to apply; null: just answer the state.")

    @model_validator(mode="after")
    def _record_or_new(self) -> ScorepadRequest:
        if (self.record is None) == (self.new is None):
            raise ValueError("give either 'record' (a match so far) or 'new' (a new match), not both or neither")
        return self


class ScorepadRow(BaseModel):
    deal: int
    dealer: int
    chooser: int
    contract: str
    goal: Literal["take", "avoid"]
    tricks: list[int | None] = Field(description="By seat, null for a seat sitting out.")
    scores: list[int | None] = Field(description="By seat, null for a seat sitting out.")
    totals: list[int] = Field(description="The running totals by seat after this deal.")
    contract_choices: list[str] = Field(description="The contracts this deal may be corrected to (its own among "
                                                    "them): those its chooser may have, his other deals as they are.")


class ScorepadAnswer(BaseModel):
    record: dict[str, Any] = Field(description="The new score-only record (JSON form): send it with the next entry.")
    text: str = Field(description="The record's text form (docs/record.md).")
    csv: str = Field(description="The score sheet as CSV, as `mizerka score --export-csv` writes it.")
    players: list[str]
    variant: str
    n_deals: int
    n_seats: int
    n_tricks: int = Field(description="The tricks of a deal, which the counts entered must add up to (13; 17 in "
                                      "seed002-literal).")
    deal_no: int | None = Field(description="The deal being entered (from 1); null once the match is over.")
    dealer: int | None
    chooser: int | None = Field(description="The seat that chooses the deal's contract (forehand).")
    active: list[int] = Field(description="The seats playing the deal, in role order: forehand (the chooser), "
                                          "middlehand, the dealer's role; [] once the match is over.")
    pending: str | None = Field(description="The contract entered for the deal, awaiting its tricks.")
    allowed: list[str] = Field(description="The contracts the chooser may choose now ([] while tricks are due).")
    contracts: list[str] = Field(description="Every contract of the variant, in order.")
    rows: list[ScorepadRow]
    used: list[list[str]] = Field(description="By seat: the contracts it chose in the finished deals.")
    totals: list[int]
    over: bool
    winners: list[int] | None = Field(description="Once over: the seats on the highest total (they share the win).")
    undone: str | None = Field(description="What an undo took back, e.g. \"deal 3's tricks\".")
    corrected: int | None = Field(description="The deal a correction changed.")


def _as_judged(name: str) -> str:
    """*name* as the score keeper is given it: as sent, or, where its spaces folded leave over :data:`_NAME_READ`
    characters, its first ones (spaces folded), which the keeper refuses as too long, or for a character in them.

    >>> _as_judged("Ala"), len(_as_judged("A " * 150)), len(_as_judged("Ala" + " " * 300 + "Kot"))
    ('Ala', 200, 306)
    """
    folded = " ".join(name.split())
    return name if len(folded) <= _NAME_READ else folded[:_NAME_READ]


def _keeper(request: ScorepadRequest) -> ScoreKeeper:
    if request.record is not None:
        try:
            record = from_dict(request.record)
        except RecordError as error:
            raise ScorepadError("bad_record", str(error)) from None
        except (ValueError, TypeError, RecursionError) as error:  # a check the record module did not foresee
            raise ScorepadError("bad_record", f"the record does not read: {error}") from None
        try:
            return ScoreKeeper.from_record(record)
        except EntryError as error:
            raise ScorepadError("bad_record", str(error)) from None
    new = request.new
    assert new is not None
    try:
        rules = parse_variant(new.variant)
    except RulesError as error:
        raise ScorepadError("bad_setup", str(error), {"code": "variant_invalid", "variant": new.variant}) from None
    try:
        return ScoreKeeper.new([_as_judged(name) for name in new.players], new.first_dealer, rules)
    except EntryError as error:
        raise ScorepadError("bad_setup", str(error), error.reason) from None


def _counts(keeper: ScoreKeeper, tricks: list[int | None], order: list[int]) -> list[int]:
    """By seat, null for a seat sitting out, as the keeper takes them: one count per seat, 0 for a seat sitting
    out.  A null for a seat in play (*order*) is refused."""
    if len(tricks) == keeper.rules.n_seats:
        missing = [keeper.players[s] for s in order if tricks[s] is None]
        if missing:
            raise EntryError(f"give the tricks of {', '.join(missing)} (null is only for a seat sitting out)")
    return [0 if t is None else t for t in tricks]


def _enter_tricks(keeper: ScoreKeeper, tricks: list[int | None]) -> None:
    if keeper.is_over() or keeper.pending is None:
        keeper.parse_tricks("")  # the keeper's own refusal: the match is over, or the contract is not entered
    keeper.enter_tricks(_counts(keeper, tricks, keeper.tricks_order()))


def _correct(keeper: ScoreKeeper, correction: Correction) -> int:
    """Correct a finished deal; return its number.  The keeper looks the deal up, once
    (:meth:`~mizerka.scorekeeper.ScoreKeeper.correct`), and refuses a deal that is not finished before anything
    else.  The tricks (by seat, null for a seat sitting out) are read for the deal's seats before it is called; where
    they are refused, the deal is looked up first, so that a deal that is not finished is still the refusal said."""
    tricks: list[int] | None = None
    if correction.tricks is not None:
        try:
            tricks = _counts(keeper, correction.tricks, keeper.tricks_order(correction.deal))
        except EntryError:
            keeper.finished_deal(correction.deal)  # no finished deal: that refusal comes first
            raise
    return keeper.correct(correction.deal, correction.contract, tricks).deal_no


def apply(request: ScorepadRequest) -> dict[str, Any]:
    """Apply the request's entry to its record (or a new match) and return the new state (:func:`state`).

    Raises:
        ScorepadError: ``bad_setup``, ``bad_record`` or ``bad_entry``, with the reason.
    """
    with warnings.catch_warnings():  # e.g. a variant whose quotas are not zero-sum: played as asked
        warnings.simplefilter("ignore")
        keeper = _keeper(request)
        entry = request.entry
        undone: str | None = None
        corrected: int | None = None
        try:
            if entry is None:
                pass
            elif entry.contract is not None:
                keeper.enter_contract(entry.contract)
            elif entry.tricks is not None:
                _enter_tricks(keeper, entry.tricks)
            elif entry.correct is not None:
                corrected = _correct(keeper, entry.correct)
            else:
                undone = keeper.undo()
        except EntryError as error:
            raise ScorepadError("bad_entry", str(error)) from None
        try:
            return state(keeper, undone, corrected)
        except (RecordError, RulesError) as error:  # pragma: no cover - a record the keeper holds always writes
            raise ScorepadError("bad_record", str(error)) from None


def state(keeper: ScoreKeeper, undone: str | None = None, corrected: int | None = None) -> dict[str, Any]:
    """The score pad's answer for *keeper* (see :class:`ScorepadAnswer`)."""
    rules, record = keeper.rules, keeper.record
    over = keeper.is_over()
    deal_no = None if over else keeper.deal_no
    sheet = keeper.sheet()
    rows = []
    for result, running in zip(sheet.results, sheet.running_totals(), strict=True):
        out = sheet.sits_out(result)
        rows.append({
            "deal": result.deal_no, "dealer": result.dealer, "chooser": result.chooser,
            "contract": str(result.contract), "goal": result.contract.goal,
            "tricks": [None if s == out else t for s, t in enumerate(result.tricks)],
            "scores": [None if s == out else v for s, v in enumerate(result.scores)],
            "totals": list(running),
            "contract_choices": [str(c) for c in keeper.correctable_contracts(result.deal_no)],
        })
    pending = keeper.pending
    return {
        "record": record.to_dict(), "text": record.to_text(), "csv": keeper.to_csv(),
        "players": list(keeper.players), "variant": rules.spec(), "n_deals": rules.n_deals, "n_seats": rules.n_seats,
        "n_tricks": rules.n_tricks,
        "deal_no": deal_no,
        "dealer": None if deal_no is None else keeper.dealer_of(deal_no),
        "chooser": None if deal_no is None else keeper.chooser,
        "active": [] if deal_no is None else list(keeper.active_of(deal_no)),
        "pending": str(pending) if pending is not None else None,
        "allowed": [] if over or pending is not None else [str(c) for c in keeper.allowed_contracts()],
        "contracts": [str(c) for c in rules.contracts],
        "rows": rows,
        "used": [[str(c) for c in used] for used in sheet.used()],
        "totals": list(keeper.totals()),
        "over": over,
        "winners": list(keeper.outcome().winners) if over else None,
        "undone": undone,
        "corrected": corrected,
    }
