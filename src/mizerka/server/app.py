"""The ASGI application: the lobby's REST API under ``/api``, the game websocket at ``/ws``, the browser
client (``src/mizerka/web/``, when present) at ``/``.

>>> from mizerka.server.app import create_app
>>> from mizerka.server.hub import ServerConfig
>>> app = create_app(ServerConfig(database="sqlite:///:memory:"))
>>> sorted(p for p in app.openapi()["paths"] if p.startswith("/api/tables"))[:2]
['/api/tables', '/api/tables/{table_id}']
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import math
import time
from collections.abc import AsyncIterator
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Header, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from pydantic import BaseModel, ConfigDict, Field, field_validator
from starlette.convertors import Convertor, register_url_convertor
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from mizerka.bots import BOT_LEVELS
from mizerka.record import BLANKS, DealRecord, MatchRecord, RecordError, char_name, char_reason, is_default_ignorable
from mizerka.rules import VARIANTS, RulesError, parse_variant
from mizerka.server.encoding import encode
from mizerka.server.hub import Hub, ServerConfig, address_key, hash_token
from mizerka.server.players import Standing, check_visible, display_rating, without_emoji_selectors
from mizerka.server.protocol import ERROR_CODES, PROTOCOL_VERSION
from mizerka.server.records import (
    RECORD_BODY_BYTES,
    RECORD_REVIEW_PATH,
    RecordReviewRequest,
    RecordSummary,
    read_posted,
    record_key,
    review_number,
    summary,
)
from mizerka.server.scorepad import ScorepadAnswer, ScorepadError, ScorepadRequest
from mizerka.server.scorepad import apply as scorepad_apply
from mizerka.server.tables import SeatState, Table, TableError, TableSettings
from mizerka.server.views import build_review, build_view

_log = logging.getLogger("mizerka.server")

__all__ = ["DEFAULT_TABLES_PAGE", "MAX_BODY_BYTES", "MAX_TABLES_PAGE", "create_app", "record_access",
           "table_record"]

MAX_BODY_BYTES = 64 * 1024
"""The largest HTTP request body the server reads (the lobby's bodies are a few hundred bytes); a longer one is
refused with 413 ``too_large`` by its declared length, or as soon as a chunked one passes the limit."""


class _BodyLimit:
    """ASGI middleware: HTTP request bodies over :data:`MAX_BODY_BYTES` (a game record sent for review: over
    :data:`~mizerka.server.records.RECORD_BODY_BYTES`) are refused before they are read whole (without it a 200 MB
    body was read into memory before validation refused it)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        # a game record sent for review is larger than any other body (tens of kilobytes, up to its own limit)
        limit = RECORD_BODY_BYTES if scope.get("path") == RECORD_REVIEW_PATH else MAX_BODY_BYTES
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > limit):
            response = _error(413, "too_large", f"the request body is over {limit} bytes")
            await response(scope, receive, send)
            return
        received = 0

        async def limited() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:  # the handler reading the body gets this, answered as a 413
                    raise StarletteHTTPException(413, f"the request body is over {limit} bytes")
            return message

        await self.app(scope, limited, send)


class _HeadAsGet:
    """ASGI middleware: a HEAD request under ``/api`` is answered as its GET would be, without the body.

    FastAPI's routes, unlike Starlette's own, take no HEAD, and the browser files' mount at "/" then answered "not
    found" for a path that exists.  (Adding HEAD to each route instead would put a second operation per GET in the
    OpenAPI schema.)"""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] != "http" or scope["method"] != "HEAD" or not (path == "/api" or path.startswith("/api/")):
            await self.app(scope, receive, send)
            return

        async def headers_only(message: Message) -> None:
            if message["type"] == "http.response.body":  # the length header stays the GET's, as HEAD means
                message = {**message, "body": b""}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, headers_only)


class _RequestLimit:
    """ASGI middleware: each client address may make ``request_rate`` requests under ``/api`` a second on average
    (``request_burst`` at once); one more is refused with 429 ``rate_limited`` and ``Retry-After``, before any
    work is done for it.  The browser client's files (``/``) are not counted: a page load is a dozen of them."""

    def __init__(self, app: ASGIApp, hub: Hub) -> None:
        self.app = app
        self.hub = hub

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and str(scope.get("path", "")).startswith("/api/"):
            client = scope.get("client")
            wait = self.hub.charge_request(client[0] if client else None)
            if wait > 0:
                seconds = max(1, math.ceil(wait))
                response = _error(429, "rate_limited", f"too many requests from your address; try again in "
                                                       f"{seconds} s")
                response.headers["Retry-After"] = str(seconds)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


RECENT_RESULTS = 20
"""How many rated matches a player's page lists."""

DEFAULT_TABLES_PAGE = 100
"""How many tables ``GET /api/tables`` lists without a ``limit``."""

MAX_TABLES_PAGE = 500
"""The largest ``limit`` of ``GET /api/tables``."""


# -- REST models ------------------------------------------------------------------------------------

_HTTP_CODES = {404: "not_found", 405: "method_not_allowed", 413: "too_large"}

_STATUS = {"unknown_table": 404, "bad_token": 403, "spectators_off": 403, "seat_taken": 409, "table_full": 409,
           "match_over": 409, "not_over": 409, "internal": 503, "server_full": 503, "corrupt": 500, "bad_deal": 400,
           "unknown_deal": 404, "deal_not_over": 409, "not_revealed": 409, "bad_key": 403, "profile_needed": 403,
           "already_seated": 409, "held_another_seat": 409, "name_taken": 409, "unknown_player": 404, "seated": 409,
           "record_too_large": 413, "no_cards": 409}


class _Model(BaseModel):
    # strict: a wrong type is refused with a message that names the field, never coerced (``"seat": true`` took
    # seat 1, ``"hints": "no"`` turned hints off)
    model_config = ConfigDict(extra="forbid", strict=True)


Name = Annotated[str, Field(min_length=1, max_length=40, description="A display name (1-40 printable characters).")]

SeatName = Annotated[str, Field(min_length=1, max_length=40, description=(
    "The name the seat is taken under: 1-40 printable characters, none of them invisible (no zero-width or "
    "blank-looking character, no variation selector: mizerka.server.players.check_visible)."))]


class _FieldRefused(ValueError):
    """A body field's value a validator refuses, with the machine-readable ``reason`` that the 422 ``bad_request``
    answer carries beside its message (a player's name: :data:`~mizerka.server.players.NAME_REASONS`)."""

    def __init__(self, message: str, reason: dict[str, Any] | None) -> None:
        super().__init__(message)
        self.reason = reason


def _check_name(value: str) -> str:
    value = value.strip()
    if not value:
        raise _FieldRefused("a name must be 1-40 printable characters, not only spaces", {"code": "name_empty"})
    if not value.isprintable():
        first = next(ch for ch in value if not ch.isprintable())
        raise _FieldRefused(f"the name holds the unprintable character {char_name(first)}: a name must be 1-40 "
                            "printable characters", char_reason("name_unprintable_char", first))
    return value


def _check_seat_name(value: str) -> str:
    """A seat's name: printable (:func:`_check_name`) and showing what it is, by the rule a profile's name obeys
    (:func:`~mizerka.server.players.check_visible`), so that nobody joins as an "Ala" with an invisible character
    that passes for the Ala at the table, nor as a blank.  Refused as the seat's other bad names are: 422
    ``bad_request``, naming the character (a ``bad_name`` at a join means a name that is not the player key's
    profile's, and the clients say so)."""
    value = without_emoji_selectors(_check_name(value))
    try:
        check_visible(value)
    except TableError as error:
        raise _FieldRefused(error.message, error.reason) from None
    return value


class SeatSpec(_Model):
    # the level is any text, checked by create_table: one the server does not offer is 400 ``bad_bot`` naming it
    # and the levels offered (docs/protocol.md), as a websocket ``fill`` with it is, not a schema's 422
    kind: Literal["human", "bot"]
    level: str | None = Field(None, description="The bot level of a bot seat: " + ", ".join(BOT_LEVELS)
                                                + " (GET /api/meta lists them); another is 400 bad_bot.")


def _check_optional_seat_name(value: str | None) -> str | None:
    """A seat's name where it may be left out (a player key names the seat): :func:`_check_seat_name`, or ``None``."""
    return None if value is None else _check_seat_name(value)


def _check_table_name(value: str) -> str:
    """A table's name, trimmed: printable characters (it is shown in every lobby), possibly none, but not blank-looking
    ones alone (a Hangul filler, an empty braille pattern: :data:`~mizerka.record.BLANKS`), which the open tables
    would list as a blank row nobody can tell from another."""
    value = value.strip()
    if not value.isprintable():
        raise ValueError("a table name must be printable characters (no control characters)")
    if value and all(ch.isspace() or ch in BLANKS or is_default_ignorable(ch) for ch in value):
        raise ValueError("a table name must show something: this one is blank characters alone (leave it empty "
                         "for none)")
    return value


class CreateTable(_Model):
    variant: Annotated[str, Field(max_length=200)] = "standard"
    seats: Annotated[list[SeatSpec] | None, Field(max_length=4)] = Field(
        None, description="One entry per seat; default: three human seats.")
    visibility: Literal["public", "private"] = "public"
    turn_timer: Annotated[float | None, Field(ge=5, le=3600, allow_inf_nan=False)] = None
    hints: bool | None = Field(None, description="Players may ask for hints; default: yes, except at a rated table "
                                                 "(which gives none).")
    spectators: bool = True
    reveal: bool = True
    chat: bool = Field(True, description="The seated humans may talk in the table's chat.")
    rated: bool = Field(False, description="The match counts for the ratings: only profiles take its human seats, "
                                           "no hints, no undo.")
    name: Annotated[str, Field(max_length=60, description="The table's name: printable, may be empty.")] = ""

    _name = field_validator("name")(_check_table_name)


PlayerKey = Annotated[str, Field(min_length=1, max_length=128, description="The secret key of a profile "
                                                                        "(POST /api/players): the seat is its.")]


class JoinRequest(_Model):
    name: SeatName | None = Field(None, description="Needed without a player key; with one, the profile's name.")
    seat: int | None = Field(None, description="The seat to take; one the table has not is 400 bad_seat.")
    player_key: PlayerKey | None = None

    _name = field_validator("name")(_check_optional_seat_name)


class LeaveRequest(_Model):
    token: Annotated[str, Field(min_length=1, max_length=128)]


class QuickPlay(_Model):
    name: SeatName | None = Field(None, description="Needed without a player key; with one, the profile's name.")
    variant: Annotated[str, Field(max_length=200)] = "standard"
    level: str = Field("rules", description="The bots' level: " + ", ".join(BOT_LEVELS) + "; another is 400 "
                                             "bad_bot.")
    player_key: PlayerKey | None = None
    rated: bool = Field(False, description="A rated game (needs a player key): no hints, no undo.")

    _name = field_validator("name")(_check_optional_seat_name)


class PairRequest(_Model):
    name: SeatName | None = Field(None, description="Needed without a player key; with one, the profile's name.")
    variant: Annotated[str, Field(max_length=200)] = "standard"
    player_key: PlayerKey | None = None
    rated: bool = Field(False, description="Only rated tables (needs a player key): no hints, no undo.")
    table_name: Annotated[str, Field(max_length=60, description="The name of the table made when none is waiting: "
                                                                "printable, may be empty.")] = ""

    _name = field_validator("name")(_check_optional_seat_name)

    _table_name = field_validator("table_name")(_check_table_name)


class NewPlayer(_Model):
    name: Name

    _name = field_validator("name")(_check_name)


_DEFAULT_NAMES = ("The seats whose name in players is the server's own for a seat nobody named (a bot's: 'Bot 2'), "
                  "never one a player chose: a client may write those names in its own language.")
_CONTRACTS = ("The variant's contracts as codes (C D H S NT MZ), in its order; null for a variant this server no "
              "longer reads.")


@functools.lru_cache(maxsize=256)
def _contracts(variant: str) -> tuple[str, ...] | None:
    try:
        return tuple(str(c) for c in parse_variant(variant).contracts)
    except RulesError:
        return None


def variant_contracts(variant: str) -> list[str] | None:
    """The contracts of a stored match's *variant* (its rules' spec) as codes, in its order, read by the rules'
    own :func:`~mizerka.rules.parse_variant` (a client never parses a spec): ``None`` for a spec this version no
    longer reads.

    >>> variant_contracts("standard,contracts=NT+MZ"), variant_contracts("no-such-variant")
    (['NT', 'MZ'], None)
    """
    codes = _contracts(variant)
    return list(codes) if codes is not None else None


class PlayerResult(BaseModel):
    table: str | None = Field(description="The table's id (its match page, /?match=ID), or null for a private table: "
                                          "its id is its invite, which a public page must not give away (GET "
                                          "/api/profile gives it to the profile's owner, who sat there).")
    name: str = Field(description="The table's name ('' for a private table, except to its player).")
    private: bool = Field(False, description="Whether the table was private (not listed in the lobby).")
    variant: str
    contracts: list[str] | None = Field(description=_CONTRACTS)
    finished_at: float
    seat: int
    players: list[str]
    default_names: list[int] = Field(default_factory=list, description=_DEFAULT_NAMES)
    totals: list[int]
    winners: list[int]
    rank: int = Field(description="1 for the best total (equal totals share a rank).")
    rating_before: int
    rating_after: int


class PlayerInfo(BaseModel):
    id: str = Field(description="What GET /api/players/{id} takes: a profile's name in its unique form, or "
                                "'bot:<level>'.")
    name: str = Field(description="A profile's name, or a bot's level.")
    kind: Literal["human", "bot"]
    rating: int = Field(description="round(1500 + 40 * (mu - 25)): 1500 for a new profile.")
    provisional: bool = Field(description="Fewer than 5 rated matches.")
    mu: float
    sigma: float
    games: int = Field(description="Rated matches played.")
    wins: int = Field(description="Rated matches won (the best total, ties included).")
    deals: int = Field(description="Deals played in rated matches.")
    deals_won: int = Field(description="Deals with the best score of the deal (ties included).")
    created_at: float
    recent: list[PlayerResult] = Field(description="Up to 20 rated matches, newest first.")


class NewPlayerResult(BaseModel):
    player: PlayerInfo
    key: str = Field(description="The secret player key: send it as player_key when you take a seat, and as "
                                 "'Authorization: Bearer <key>' to GET /api/profile.  Given only here: keep it.")


class LeaderRow(BaseModel):
    rank: int
    id: str
    name: str
    kind: Literal["human", "bot"]
    rating: int
    provisional: bool
    games: int
    wins: int
    deals: int
    deals_won: int


class SeatInfo(BaseModel):
    seat: int
    name: str | None
    default_name: bool = Field(False, description="The name is the server's own for a seat nobody named (a bot's: "
                                                  "'Bot 2'), never one a player chose: a client may write it in its "
                                                  "own language.")
    kind: Literal["human", "bot"]
    bot: str | None
    badge: str | None
    standin: bool
    connected: bool
    open: bool
    registered: bool = Field(False, description="A profile holds the seat: its name is unique on the server.")
    takeover: bool = Field(False, description="A human may take the seat over from the computer now (a join "
                                              "names it, or takes the first such seat when none is open): the "
                                              "match of an unrated table, a seat a bot plays for good.")
    since_deal: int = Field(0, description="The deal from which the seat's player plays it, having taken it over "
                                           "during the match (the seat's total so far is the earlier players'); 0: "
                                           "from the start.")


class TableInfo(BaseModel):
    id: str
    name: str
    variant: str
    contracts: list[str] = Field(description="The variant's contracts as codes (C D H S NT MZ), in its order.")
    visibility: Literal["public", "private"]
    status: Literal["waiting", "playing", "finished", "abandoned"]
    seats: list[SeatInfo]
    deal_no: int
    n_deals: int
    options: dict[str, Any]
    invite: str = Field(description="The path of the invite link (append to the server's address).")
    spectators: int


class JoinResult(BaseModel):
    table: TableInfo
    seat: int
    name: str = Field(description="The name the seat was taken under: the one given, or a profile's own with a "
                                  "player key.  The table shows a name that reads as an earlier seat's made distinct "
                                  "('Ala (2)'); this is the name itself, to take the seat back under.")
    token: str = Field(description="The secret seat token: send it in the websocket hello. Keep it private.")
    websocket: str = "/ws"


class HistoryEntry(BaseModel):
    id: str
    name: str
    variant: str
    contracts: list[str] | None = Field(description=_CONTRACTS)
    finished_at: float
    players: list[str]
    default_names: list[int] = Field(default_factory=list, description=_DEFAULT_NAMES)
    totals: list[int]
    winners: list[int]


class MatchSheet(BaseModel):
    """A finished match's score sheet (``GET /api/tables/{id}/sheet``): what a spectator's view shows of it."""
    table: str
    name: str
    variant: str
    status: str
    players: list[dict[str, Any]] = Field(description="The view's players: seat, name, kind, level…")
    contracts: list[str] = Field(description="Every contract of the variant, in order (the sheet's columns).")
    n_deals: int
    totals: list[int]
    used: list[list[str]] = Field(description="By seat: the contracts it chose.")
    winners: list[int]
    score_sheet: list[dict[str, Any]] = Field(description="One row per deal, as in the view.")


class Meta(BaseModel):
    protocol: int
    variants: list[str]
    bot_levels: list[str]
    error_codes: dict[str, str]


class ContractInfo(BaseModel):
    code: str = Field(description="C, D, H, S, NT or MZ.")
    label: str
    symbol: str
    goal: str
    trump: str | None = Field(description="The trump suit's letter (C D H S), or null.")


class ReviewCard(BaseModel):
    seat: int
    card: str = Field(description="The card as the views write it (e.g. 'QH', 'TH').")
    value: int | None = Field(description="The tricks the player ends the deal with after this card, under perfect "
                                          "play with the other two against him; null without the analysis.")
    best: int | None = Field(description="The same after the best legal card.")
    best_cards: list[str] | None = Field(description="Every legal card that reaches *best*.")
    cost: int | None = Field(description="|value - best|: the tricks this card lost (0: no error).")
    choices: int = Field(description="How many legal cards there were (1: forced).")


class ReviewTrick(BaseModel):
    no: int
    leader: int
    winner: int
    cards: list[ReviewCard]


class ReviewExchange(BaseModel):
    seat: int
    discarded: list[str]
    drawn: list[str]


class Review(BaseModel):
    table: str
    deal: int
    players: list[str] = Field(description="Names by seat.")
    seats: list[int] = Field(description="The seats that played the deal: forehand, middlehand, the dealer's role.")
    dealer: int
    chooser: int
    contract: ContractInfo
    hands: list[list[str]] = Field(description="By seat, at the start of play (after the exchanges); [] for a seat "
                                               "sitting out.")
    exchanges: list[ReviewExchange] = Field(description="In order of the exchange.")
    tricks: list[ReviewTrick]
    tricks_won: list[int | None] = Field(description="By seat, null for a seat sitting out.")
    scores: list[int | None] = Field(description="By seat, null for a seat sitting out.")
    analysis: Literal["ok", "off", "timeout", "busy", "error"] = Field(
        description="ok: the verdicts are given; else why not (they are null, the play is given).")
    unjudged_tricks: list[int] = Field(description="Tricks the solver cannot judge (cards still drawn from a stock).")


class ApiError(BaseModel):
    error: str
    message: str
    table: str | None = Field(default=None, description="With `seated`: the table whose seat the profile holds")
    reason: dict[str, Any] | None = Field(default=None, description=(
        "With a refused player's name (`bad_name`, `name_taken`, a `bad_request` about `body.name`) and a score "
        "pad's `bad_setup`: why, for a client to say in its own language: `{\"code\": \"name_…\", …its "
        "parameters}` (docs/protocol.md)"))


_ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ApiError, "description": description}
    for status, description in ((400, "a request the server refuses"), (403, "a bad token"), (404, "no such table"),
                                (409, "a conflict with the table's state"), (422, "an invalid request body"),
                                (429, "too many requests from this address: see Retry-After"))
}


def _joined(hub: Hub, table: Table, seat: int, token: str) -> JoinResult:
    """The answer to a seat taken (a join, a quick play, a pairing)."""
    return JoinResult(table=_info(hub, table), seat=seat, name=table.seats[seat].name or "", token=token)


def _info(hub: Hub, table: Table) -> TableInfo:
    live = hub.tables.get(table.id)
    connected = live.connected() if live else set()
    view = build_view(table, None, connected)
    return TableInfo(
        id=table.id, name=table.settings.name, variant=view["variant"], contracts=view["contracts"],
        visibility=table.settings.visibility,
        status=table.status, seats=[SeatInfo(**p) for p in view["players"]], deal_no=table.deal_no,
        n_deals=table.rules.n_deals, options=view["options"], invite=f"/?table={table.id}",
        spectators=sum(1 for c in live.clients if c.seat is None) if live else 0,
    )


def record_access(table: Table, authorization: str | None) -> int | None:
    """Who asks for *table*'s record: the seat of the token in the ``Authorization: Bearer <token>`` header, or
    ``None`` without one.  The record shows what its asker could see at the table: at a table that admits
    spectators anyone with its id (the invite) may watch, and may have the record; at one that admits none,
    only its players may, during the match and after it.

    The header is judged here whatever its length (the endpoints set it no schema limit, whose 422 would
    contradict the documented 403): a token is at most 128 characters.

    Raises:
        TableError: ``bad_token`` for a token that holds no seat at the table (or a header that is no bearer
            token, a too long one included); ``spectators_off`` for a request without a token at a table that
            admits no spectators.
    """
    seat: int | None = None
    if authorization is not None:
        scheme, _, token = authorization.strip().partition(" ")
        token = token.strip()
        if scheme.lower() != "bearer" or not token or len(token) > 128:
            raise TableError("bad_token", "send the seat token as the header 'Authorization: Bearer <token>'")
        seat = table.seat_of_token(hash_token(token))
        if seat is None:
            raise TableError("bad_token", "this token holds no seat at this table")
    if seat is None and not table.settings.spectators:
        raise TableError("spectators_off", "this table admits no spectators: its record is for its players only "
                                           "(send the seat token as 'Authorization: Bearer <token>')")
    return seat


def table_record(table: Table) -> MatchRecord:
    """The record a table gives now (to whom: :func:`record_access`): see the ``record`` endpoint.  Never the
    deal in progress."""
    match = table.match
    assert match is not None
    over = match.is_over()
    finished = match.deal_no if over else match.deal_no - 1  # the current deal is never over while play goes on
    tags = {"Event": table.settings.name or "mizerka server", "Site": "mizerka server",
            "Date": time.strftime("%Y.%m.%d"), "Table": table.id}
    for seat, deal, name in table.takeovers():  # a record has one name per seat: the one the match began with
        taken = f"deal {deal}: {name}"
        tags[f"SatIn{seat}"] = f"{tags[f'SatIn{seat}']}; {taken}" if f"SatIn{seat}" in tags else taken
    if over or table.settings.reveal:
        return MatchRecord.from_actions(
            table.rules, match.players, match.first_dealer, table.decks[:finished],
            [list(deal.history) for deal in match.deals[:finished]],
            salts=table.salts[:finished], commits=table.commits[:finished], tags=tags,
        )
    deals = [
        DealRecord(number=r.deal_no, dealer=r.dealer, contract=r.contract, tricks_won=tuple(r.tricks),
                   commit=table.commits[r.deal_no - 1])
        for r in match.results()[:finished]
    ]
    return MatchRecord(table.rules, tuple(match.players), match.first_dealer, tuple(deals), tags)


def bearer_key(authorization: str | None) -> str:
    """The player key of an ``Authorization: Bearer <key>`` header (judged whatever its length, as
    :func:`record_access` judges a seat token's).

    Raises:
        TableError: ``bad_key`` for no header, or one that is no bearer key (a too long one included).
    """
    scheme, _, key = (authorization or "").strip().partition(" ")
    key = key.strip()
    if scheme.lower() != "bearer" or not key or len(key) > 128:
        raise TableError("bad_key", "send the player key as the header 'Authorization: Bearer <key>'")
    return key


def review_deal_no(table: Table, text: str) -> int:
    """The deal number *text* of a review request, once checked: a finished deal that the table's record
    (:func:`table_record`) gives in full.  (Who asks is checked apart: :func:`record_access`.)

    Raises:
        TableError: ``bad_deal`` for text that is not a whole number from 1 (written in ASCII digits);
            ``unknown_deal`` for a deal not dealt yet (or past the match's last); ``deal_not_over`` for the deal
            in progress; ``not_revealed`` for a finished deal of a match in progress at a table that does not
            reveal its deals (its record has only their scores until the match is over).
    """
    digits = text.lstrip("0")  # "01" is deal 1, however many zeros lead
    if not (text.isascii() and text.isdigit()) or not digits:
        raise TableError("bad_deal", f"a deal number is a whole number from 1, not {text[:20]!r}")
    if len(digits) > 12:  # past any match's last deal, without int() of thousands of digits
        raise TableError("unknown_deal", f"deal {digits[:20]}{'…' if len(digits) > 20 else ''} has not been "
                                         f"dealt at this table")
    number = int(digits)
    match = table.match
    dealt = 0 if match is None else match.deal_no
    if number > dealt:
        raise TableError("unknown_deal", f"deal {number} has not been dealt at this table"
                                         + (f" (deals 1-{dealt} so far)" if dealt else " (the match has not started)"))
    assert match is not None
    if not match.is_over():
        if number == match.deal_no:
            raise TableError("deal_not_over", f"deal {number} is not over (it is being played, or its table was "
                                              f"closed before its end): only a finished deal can be reviewed")
        if not table.settings.reveal:
            raise TableError("not_revealed", f"this table does not reveal a deal's cards before the match is over: "
                                             f"deal {number} can be reviewed once the match is over")
    return number


def _bot_level(level: str) -> str:
    """*level*, a bot level asked for in a new table's seats or a quick play.

    Raises:
        TableError: ``bad_bot`` for a level the server does not offer, naming it (cut to 40 characters, as a
            websocket ``fill``'s) and the levels it offers.
    """
    if level not in BOT_LEVELS:
        shown = level if len(level) <= 40 else level[:40] + "…"
        raise TableError("bad_bot", f"unknown bot level {shown!r} (expected one of: {', '.join(BOT_LEVELS)})")
    return level


def _error(status: int, code: str, message: str, fields: dict[str, Any] | None = None,
           reason: dict[str, Any] | None = None) -> JSONResponse:
    body = {"error": code, "message": message, **(fields or {})}
    if reason is not None:
        body["reason"] = reason
    return JSONResponse(body, status_code=status)


_NAMED_BY_BODY = ("/api/players", "/api/quickplay", "/api/pair")
"""The endpoints whose body's ``name`` is a player's (with a table's ``/join``); ``POST /api/tables``' is a table's."""


def _field_reason(request: Request, error: dict[str, Any]) -> dict[str, Any] | None:
    """The ``reason`` of a 422 for a body's first refused field, if it has one: a validator's own
    (:class:`_FieldRefused`), or, for a player's name, the schema's bounds (none, or over 40 characters)."""
    cause = (error.get("ctx") or {}).get("error")
    if isinstance(cause, _FieldRefused):
        return cause.reason
    path = request.url.path
    if tuple(error.get("loc", ())) != ("body", "name") or not (path in _NAMED_BY_BODY or path.endswith("/join")):
        return None
    kind = error.get("type")
    if kind == "string_too_long":
        return {"code": "name_too_long", "max": (error.get("ctx") or {}).get("max_length")}
    if kind == "string_too_short":
        return {"code": "name_empty"}
    if kind == "missing":
        return {"code": "name_needed"}
    return None


class _PlayerIdConvertor(Convertor[str]):
    """The path parameter of ``GET /api/players/{id}``: any text, "/" included (a player's id is a name's unique
    form, and "AC/DC" is a name: the browser asks for ``ac%2Fdc``), and line breaks too, which Starlette's ``path``
    does not match, so that such an id is an unknown player, not an unknown endpoint."""

    regex = "(?s:.+)"

    def convert(self, value: str) -> str:
        return value

    def to_string(self, value: str) -> str:
        return value


register_url_convertor("player_id", _PlayerIdConvertor())


# -- the app ----------------------------------------------------------------------------------------


def create_app(config: ServerConfig) -> FastAPI:
    """The server as an ASGI app; the hub starts with the app (lifespan) and resumes every open table."""
    hub = Hub(config)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()

    app = FastAPI(
        title="mizerka server", version=str(PROTOCOL_VERSION), lifespan=lifespan,
        openapi_url="/api/openapi.json", docs_url="/api/docs", redoc_url=None,
        description="Lobby API of the Mizerka game server. Games are played over the websocket at /ws "
                    "(docs/protocol.md). Players are anonymous unless they claim a name (POST /api/players): a profile "
                    "with a secret key, a rating from rated tables and a place on the leaderboard.",
    )
    app.state.hub = hub
    app.add_middleware(_BodyLimit)
    app.add_middleware(_HeadAsGet)
    app.add_middleware(_RequestLimit, hub=hub)  # added last: the outermost, so a refusal costs the least

    @app.exception_handler(TableError)
    async def _table_error(_request: Request, error: TableError) -> JSONResponse:
        return _error(_STATUS.get(error.code, 400), error.code, error.message, error.fields, error.reason)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, error: StarletteHTTPException) -> Response:
        """Under ``/api`` every refusal has the API's shape (an unknown path, a wrong method, a body too large).

        FastAPI answers a body it could not parse other than as malformed JSON with a bare 400 ("There was an error
        parsing the body"); the cause says which, and the answer is the API's 422 ``bad_request`` for a body that
        does not fit."""
        path = request.url.path
        if path != "/api" and not path.startswith("/api/") and error.status_code != 413:
            return await http_exception_handler(request, error)
        status = error.status_code
        code = _HTTP_CODES.get(status, "bad_request")
        if status == 404:
            message = "no such endpoint (see /api/docs)"
        elif status == 405:
            message = f"method {request.method} is not allowed on this endpoint"
        elif status == 400 and isinstance(error.__cause__, RecursionError):
            status, message = 422, "body: the JSON is nested too deeply to be read"
        elif status == 400 and isinstance(error.__cause__, UnicodeDecodeError):
            status, message = 422, f"body: not UTF-8 text (byte {error.__cause__.start})"
        elif status == 400 and error.__cause__ is not None:
            status, message = 422, "body: the JSON cannot be read"
        else:
            message = str(error.detail)
        response = _error(status, code, message)
        if error.headers:
            response.headers.update(error.headers)
        return response

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, error: RequestValidationError) -> JSONResponse:
        table_id = request.path_params.get("table_id")
        if table_id is not None and any(tuple(e.get("loc", ()))[:2] == ("path", "table_id") for e in error.errors()):
            # No table has an id the path refuses (over 64 characters): it is unknown, like any other id, and
            # answered as the endpoint answers one (join and leave look among the open tables), so clients show
            # their "no such table" sentence rather than a format message about the link.
            seated = request.url.path.rsplit("/", 1)[-1] in ("join", "leave")
            return _error(404, "unknown_table", f"no {'open ' if seated else ''}table {table_id!r}")
        first = error.errors()[0] if error.errors() else {"loc": (), "msg": "invalid request"}
        where = ".".join(str(p) for p in first.get("loc", ()))
        return _error(422, "bad_request", f"{where}: {first.get('msg')}", reason=_field_reason(request, first))

    @app.get("/api/meta", response_model=Meta)
    async def meta() -> Meta:
        """The protocol version, the variants, the bot levels and the websocket error codes."""
        return Meta(protocol=PROTOCOL_VERSION, variants=list(VARIANTS), bot_levels=list(BOT_LEVELS),
                    error_codes=ERROR_CODES)

    @app.get("/api/tables", response_model=list[TableInfo], responses={
        200: {"description": "One page of the public tables; the header X-Total-Count says how many there are.",
              "headers": {"X-Total-Count": {"description": "The number of public tables, on all pages.",
                                            "schema": {"type": "integer"}}}},
        422: _ERRORS[422], 429: _ERRORS[429]})
    async def list_tables(
        response: Response,
        limit: Annotated[int, Query(ge=1, le=MAX_TABLES_PAGE)] = DEFAULT_TABLES_PAGE,
        offset: Annotated[int, Query(ge=0, le=10**6)] = 0,
    ) -> list[TableInfo]:
        """The public tables that are waiting for players or playing: those waiting first, then those playing,
        each oldest first; *limit* of them from the *offset*-th on."""
        tables = hub.list_public()
        response.headers["X-Total-Count"] = str(len(tables))
        return [_info(hub, t) for t in tables[offset:offset + limit]]

    @app.post("/api/tables", response_model=TableInfo, status_code=201, responses=_ERRORS)
    async def create_table(body: CreateTable) -> TableInfo:
        """Create a table.  Join it with ``POST /api/tables/{id}/join``."""
        hints = not body.rated if body.hints is None else body.hints
        settings = TableSettings(variant=body.variant, visibility=body.visibility, turn_timer=body.turn_timer,
                                 hints=hints, spectators=body.spectators, reveal=body.reveal, name=body.name,
                                 chat=body.chat, rated=body.rated)
        rules = settings.rules()
        specs = body.seats if body.seats is not None else [SeatSpec(kind="human", level=None)] * rules.n_seats
        seats = []
        for spec in specs:
            if spec.kind == "bot":
                seats.append(SeatState.bot(_bot_level("rules" if spec.level is None else spec.level)))
            elif spec.level is not None:
                raise TableError("bad_seats", "a human seat has no bot level")
            else:
                seats.append(SeatState.human())
        live = await hub.create_table(settings, seats)
        return _info(hub, live.table)

    @app.get("/api/tables/{table_id}", response_model=TableInfo, responses=_ERRORS)
    async def get_table(table_id: Annotated[str, Field(max_length=64)]) -> TableInfo:
        """One table (open ones, and finished ones still in the database)."""
        table = await hub.find(table_id)
        if table is None:
            raise TableError("unknown_table", f"no table {table_id!r}")
        return _info(hub, table)

    @app.post("/api/tables/{table_id}/join", response_model=JoinResult, responses=_ERRORS)
    async def join(table_id: Annotated[str, Field(max_length=64)], body: JoinRequest) -> JoinResult:
        """Take a seat (the given one, or the first open one), as a profile with its player key.  The answer holds
        the secret seat token."""
        live, seat, token = await hub.join(table_id, body.name, body.seat, body.player_key)
        return _joined(hub, live.table, seat, token)

    @app.post("/api/tables/{table_id}/leave", response_model=TableInfo, responses=_ERRORS)
    async def leave(table_id: Annotated[str, Field(max_length=64)], body: LeaveRequest) -> TableInfo:
        """Give up the seat of this token (a bot plays it from now on)."""
        live = await hub.leave(table_id, body.token)
        return _info(hub, live.table)

    @app.post("/api/quickplay", response_model=JoinResult, status_code=201, responses=_ERRORS)
    async def quickplay(body: QuickPlay) -> JoinResult:
        """One call, one private table: you and two bots (rated, for a profile, if asked)."""
        live, seat, token = await hub.quickplay(body.name, body.variant, _bot_level(body.level),
                                                player_key=body.player_key,
                                                rated=body.rated)
        return _joined(hub, live.table, seat, token)

    @app.post("/api/pair", response_model=JoinResult, status_code=201, responses=_ERRORS)
    async def pair(body: PairRequest) -> JoinResult:
        """Quick pairing with other people: a seat at the public table waiting under these rules with the most
        players (someone there connected), or at a new public table of human seats that the next caller joins."""
        live, seat, token = await hub.pair(body.name, body.variant, player_key=body.player_key, rated=body.rated,
                                           table_name=body.table_name)
        return _joined(hub, live.table, seat, token)

    @app.get("/api/history", response_model=list[HistoryEntry])
    async def history(
        limit: Annotated[int, Query(ge=1, le=200)] = 50, offset: Annotated[int, Query(ge=0, le=10**6)] = 0
    ) -> list[HistoryEntry]:
        """Finished public matches, newest first."""
        rows = await asyncio.to_thread(hub._store().history, limit, offset)
        return [HistoryEntry(**row, contracts=variant_contracts(row["variant"])) for row in rows]

    async def player_info(standing: Standing, recent: bool = True, *, owner: bool = False) -> PlayerInfo:
        """A profile's public page, or (*owner*: asked with its key) its owner's, where a private table's id and
        name are shown too: the player sat there and had its invite."""
        rows = await asyncio.to_thread(hub._store().results, standing.id, RECENT_RESULTS) if recent else []

        def result(r: dict[str, Any]) -> PlayerResult:
            private = r["visibility"] != "public"
            shown = owner or not private
            return PlayerResult(
                table=r["table_id"] if shown else None, name=r["name"] if shown else "", private=private,
                variant=r["variant"], contracts=variant_contracts(r["variant"]), finished_at=r["finished_at"],
                seat=r["seat"], players=r["players"], default_names=r["default_names"],
                totals=r["totals"], winners=r["winners"], rank=r["rank"],
                rating_before=display_rating(r["mu_before"]), rating_after=display_rating(r["mu_after"]))

        return PlayerInfo(**standing.public(), recent=[result(r) for r in rows])

    @app.post("/api/players", response_model=NewPlayerResult, status_code=201, responses=_ERRORS)
    async def new_player(body: NewPlayer) -> NewPlayerResult:
        """Claim a name: a profile, for ratings and the leaderboard (docs/server.md).  The answer holds its secret
        player key, given only this once; send it as ``player_key`` when taking a seat.  Names are unique ignoring
        case: 409 ``name_taken``."""
        standing, key = await hub.create_player(body.name)
        return NewPlayerResult(player=await player_info(standing, recent=False), key=key)

    @app.get("/api/profile", response_model=PlayerInfo, responses=_ERRORS)
    async def profile(
        authorization: Annotated[str | None, Header(description="'Bearer <player key>'.")] = None,
    ) -> PlayerInfo:
        """The profile of the player key in the ``Authorization: Bearer <key>`` header (403 ``bad_key``: none,
        or a key no profile has on this server), as ``GET /api/players/{id}`` gives it, and with the id and name
        of each recent private table, which only its own players may have."""
        return await player_info(await hub.profile(bearer_key(authorization)), owner=True)

    @app.delete("/api/profile", status_code=204, responses=_ERRORS)
    async def delete_profile(
        authorization: Annotated[str | None, Header(description="'Bearer <player key>'.")] = None,
    ) -> Response:
        """Delete the profile of the player key in the ``Authorization: Bearer <key>`` header, with its results
        (204); its name stays taken (never another player's).  403 ``bad_key``; 409 ``seated`` while it holds a
        seat at a table whose match is not over."""
        await hub.delete_player(bearer_key(authorization))
        return Response(status_code=204)

    @app.get("/api/players/{player_id:player_id}", response_model=PlayerInfo, responses=_ERRORS)
    async def player(player_id: Annotated[str, Field(max_length=255)]) -> PlayerInfo:
        """A profile (by its name, ignoring case) or a bot level (``bot:<level>``): rating, statistics and its last
        rated matches."""
        return await player_info(await hub.player(player_id))

    @app.get("/api/leaderboard", response_model=list[LeaderRow], responses={
        200: {"description": "One page of the rated players, best first; the header X-Total-Count says how many "
                             "there are.",
              "headers": {"X-Total-Count": {"description": "The number of rated players, on all pages.",
                                            "schema": {"type": "integer"}}}},
        422: _ERRORS[422], 429: _ERRORS[429]})
    async def leaderboard(
        response: Response,
        limit: Annotated[int, Query(ge=1, le=200)] = 50, offset: Annotated[int, Query(ge=0, le=10**6)] = 0,
    ) -> list[LeaderRow]:
        """Profiles and bot levels with at least one rated match: the established ones (5 rated matches or more)
        first, then the provisional ones, each by rating (the skill estimate μ itself, so that two players shown
        with the same rounded number are still in order), then name."""
        rows, total = await asyncio.to_thread(hub._store().leaderboard, limit, offset)
        response.headers["X-Total-Count"] = str(total)
        return [LeaderRow(rank=offset + i + 1, id=s.id, name=s.name, kind=s.kind,  # type: ignore[arg-type]
                          rating=s.rating, provisional=s.provisional, games=s.games, wins=s.wins, deals=s.deals,
                          deals_won=s.deals_won) for i, s in enumerate(rows)]

    @app.get("/api/tables/{table_id}/sheet", response_model=MatchSheet, responses=_ERRORS)
    async def sheet(
        table_id: Annotated[str, Field(max_length=64)],
        authorization: Annotated[str | None, Header(description="'Bearer <seat token>': needed at a table that "
                                                                "admits no spectators.")] = None,
    ) -> MatchSheet:
        """The score sheet of a finished match (the lobby's recent games), in memory or only in the database.
        Who may have it: who may have its record (the ``record`` endpoint's token rule).  A match not over: 409
        ``not_over`` (its table is watched over the websocket)."""
        table = await hub.find(table_id)
        if table is None:
            raise TableError("unknown_table", f"no table {table_id!r}")
        record_access(table, authorization)
        if table.status != "finished" or table.match is None:
            raise TableError("not_over", f"the match at table {table_id!r} is not over (status {table.status})")
        view = build_view(table, None)
        return MatchSheet(
            table=table.id, name=table.settings.name, variant=view["variant"], status=table.status,
            players=view["players"],
            contracts=[str(c) for c in table.rules.contracts], n_deals=table.rules.n_deals,
            totals=view["totals"], used=view["used"], winners=list(table.match.outcome().winners),
            score_sheet=view["score_sheet"])

    @app.get("/api/tables/{table_id}/record", responses={
        200: {"content": {"text/plain": {}, "application/json": {}}, "description": "The game record."}, **_ERRORS})
    async def record(
        table_id: Annotated[str, Field(max_length=64)], format: Literal["text", "json"] = "text",
        authorization: Annotated[str | None, Header(
            description="'Bearer <seat token>': needed at a table that admits no spectators.")] = None,
    ) -> Response:
        """The game record (docs/record.md) of the deals finished so far, as a download.

        A finished match: every deal in full, with its deck's commitment and salt.  A match in progress: only
        the finished deals, never the deal being played; in full when the table reveals each deal after it
        (option ``reveal``), else score-only (contract and tricks of each deal: what every player saw).

        Who may have it: at a table that admits spectators, anyone with its id (as anyone with the invite may
        watch); at one that admits none, only its players, with the seat token in the ``Authorization:
        Bearer <token>`` header (403 ``spectators_off`` without it).  A token that holds no seat: 403
        ``bad_token``.
        """
        table = await hub.find(table_id)
        if table is None:
            raise TableError("unknown_table", f"no table {table_id!r}")
        record_access(table, authorization)
        if table.match is None:
            raise TableError("not_over", "the match has not started: no deal is finished yet")
        try:
            rec = table_record(table)
        except RecordError as error:  # pragma: no cover - a stored match always makes a valid record
            raise TableError("internal", str(error)) from None
        filename = f"mizerka-{table.id}.{'json' if format == 'json' else 'txt'}"
        headers = {"Content-Disposition": f'attachment; filename="{filename}"'}
        if format == "json":
            return Response(rec.to_json(), media_type="application/json", headers=headers)
        return PlainTextResponse(rec.to_text(), headers=headers)

    @app.get("/api/tables/{table_id}/deals/{deal_no}/review", response_model=Review, responses=_ERRORS)
    async def review(
        table_id: Annotated[str, Field(max_length=64)], deal_no: Annotated[str, Field(max_length=40)],
        authorization: Annotated[str | None, Header(
            description="'Bearer <seat token>': needed at a table that admits no spectators.")] = None,
    ) -> dict[str, Any]:
        """A finished deal reviewed: the hands at the start of play, the exchanges, every card played with the
        exact solver's verdict on it (the tricks its player ends the deal with under perfect play, the other two
        playing against him, after this card and after the best one), and the result (docs/protocol.md).

        Who may have it: whoever may have the deal in full in the table's record (the ``record`` endpoint):
        the same token rule, and only a finished deal whose cards the record gives (the match is over, or the
        table reveals each deal after it: option ``reveal``); never the deal in progress.  The analysis runs
        within the server's ``--review-limit`` and is kept; when it cannot be had, ``analysis`` says why and
        the verdicts are null, the play is still given.
        """
        table = await hub.find(table_id)
        if table is None:
            raise TableError("unknown_table", f"no table {table_id!r}")
        record_access(table, authorization)
        number = review_deal_no(table, deal_no)
        try:
            rec = table_record(table)
        except RecordError as error:  # pragma: no cover - a stored match always makes a valid record
            raise TableError("internal", str(error)) from None
        analysis, status = await hub.review_analysis(table.id, rec, number)
        return build_review(table.id, rec, number, analysis, status)

    @app.post(RECORD_REVIEW_PATH, response_model=RecordSummary | Review, responses={
        **{s: _ERRORS[s] for s in (400, 404, 409, 422, 429)},
        413: {"model": ApiError, "description": "record_too_large, or a body over its limit (too_large)"}})
    async def record_review(body: RecordReviewRequest) -> dict[str, Any]:
        """A game record sent by the browser (``/?review=1``), in either form (docs/record.md): with ``"deal":
        null`` its score sheet (``RecordSummary``), with a deal's number that finished deal's review, as a table
        gives it (``Review``, its ``table`` empty).  The server keeps nothing of the record; a deal's analysis is
        kept as a table's is, within the server's ``--review-limit``.  A record that does not read or breaks the
        rules: 400 ``bad_record``; over 2 MiB: 413 ``record_too_large``; a score keeper's record's deal: 409
        ``no_cards``; no such deal: 404 ``unknown_deal``; its unfinished last deal: 409 ``deal_not_over``."""
        record = await asyncio.to_thread(read_posted, body.record)
        if body.deal is None:
            return summary(record)
        number = review_number(record, body.deal)
        analysis, status = await hub.review_analysis(record_key(record), record, number)
        return build_review("", record, number, analysis, status)

    @app.post("/api/scorepad", response_model=ScorepadAnswer, responses={
        400: {"model": ApiError, "description": "bad_entry, bad_record or bad_setup"},
        **{s: _ERRORS[s] for s in (422, 429)}})
    async def scorepad(body: ScorepadRequest) -> dict[str, Any]:
        """The score pad for a real card table (``mizerka score`` in the browser).  The server keeps nothing:
        send the score-only record so far (or ``new``: the names, the first dealer, the variant) and one entry
        (a contract, the tricks by seat, or an undo); the answer is the new record and everything a score
        sheet shows (docs/protocol.md).  A refused entry: 400 ``bad_entry``; a record that does not read or
        holds cards: 400 ``bad_record``; bad names, first dealer or variant: 400 ``bad_setup``, with its
        ``reason``."""
        try:
            return scorepad_apply(body)
        except ScorepadError as error:
            raise TableError(error.code, error.message, error.reason) from None

    @app.websocket("/ws")
    async def websocket(ws: WebSocket) -> None:
        host = ws.client.host if ws.client else None
        refusal = hub.admit(host)
        if refusal is not None:  # over a cap: one error reply, then the close (no connection is counted)
            code, message, close_code = refusal
            with contextlib.suppress(Exception):
                await ws.accept()
                await ws.send_text(encode({"type": "error", "id": None, "code": code, "message": message}))
                await ws.close(code=close_code, reason=code)
            return
        try:
            await serve_websocket(ws)
        finally:  # every way out of the connection, an error or a cancellation too, gives its place back
            hub.connections.release(address_key(host))

    async def serve_websocket(ws: WebSocket) -> None:
        await ws.accept()
        client = hub.new_client(ws.client.host if ws.client else None)

        async def sender() -> None:
            try:
                while True:
                    text = await client.queue.get()
                    if text is None:
                        break
                    await ws.send_text(text)
                    client.sent(text)  # in the transport now: no longer counted against the queue's caps
            except Exception as error:  # the connection broke, or a message could not be sent
                # a sender that stopped here would leave a connection that reads but never answers: close it
                # (the reason only by its kind: a message may hold the seat's cards)
                if not client.closed:
                    _log.warning("websocket closed: a message could not be sent (%s)", type(error).__name__)
                client.close()
                with contextlib.suppress(Exception):
                    await ws.close(code=1011)
                return
            with contextlib.suppress(Exception):
                await ws.close(code=1000)

        async def heartbeat() -> None:
            while not client.closed:
                await asyncio.sleep(config.heartbeat)
                if time.monotonic() - client.last_seen > 3 * config.heartbeat:
                    client.close()  # dead: no message, not even a pong, for three heartbeats
                    return
                client.send({"type": "ping", "id": None})

        waiting = False  # the reader waits for the client's next message (and handles none)

        async def reader() -> None:
            nonlocal waiting
            with contextlib.suppress(WebSocketDisconnect, RuntimeError):
                while not client.closed:
                    waiting = True
                    try:
                        message = await ws.receive()
                    finally:
                        waiting = False
                    if message["type"] == "websocket.disconnect":
                        break
                    client.last_seen = time.monotonic()
                    raw = message.get("text")
                    if raw is None:
                        raw = message.get("bytes") or b""
                    await hub.handle_raw(client, raw)
                    pause = client.pause()  # a client flooding the server: its next messages wait unread
                    if pause > 0:
                        waiting = True  # as while it waits for a message: a drop ends it at once
                        try:
                            await asyncio.sleep(pause)
                        finally:
                            waiting = False

        send_task = asyncio.create_task(sender())
        beat_task = asyncio.create_task(heartbeat())
        read_task = asyncio.create_task(reader())
        end_task = asyncio.create_task(client.cut.wait())
        try:
            # the connection ends when its client goes (a close too: the sender's close frame, or the transport cut
            # for not reading), or at once when the server drops it, while the reader waits for a message that may
            # never come: a client that neither read nor wrote held its connection, counted against its address's
            # cap, for good
            await asyncio.wait((read_task, end_task), return_when=asyncio.FIRST_COMPLETED)
            if not read_task.done() and waiting:
                read_task.cancel()  # never while it handles a message: that one is seen through
            await asyncio.wait((read_task,))  # (not `await read_task`: its cancellation is not this task's)
            error = None if read_task.cancelled() else read_task.exception()
            if error is not None:
                raise error
        finally:
            for task in (beat_task, read_task, end_task):
                task.cancel()
            try:
                await hub.detach(client)
            finally:  # the sender ends even if the detach failed (it would wait for its queue for ever)
                client.close()
                if client.dropped:
                    send_task.cancel()  # stuck in a send its client never takes: not waited for
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await asyncio.wait_for(send_task, timeout=2)
                client.release()  # what is still queued is given back to the address's count

    web = config.web_dir
    if web is not None and (web / "index.html").is_file():
        from fastapi.staticfiles import StaticFiles

        app.mount("/", StaticFiles(directory=web, html=True), name="web")
    return app
