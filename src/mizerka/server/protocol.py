"""The wire protocol: every message between a client and the server, as pydantic models.

One websocket per client carries JSON text frames, one message per frame.  Every message is an object
with a ``type``.  ``docs/protocol.md`` is the reference for client authors; this module is the
machine-checked form of it: :data:`ClientMessage` is what the server accepts, :data:`ServerMessage` what
it sends.

Decoding never raises anything but :class:`ProtocolError`, whose ``code`` is one of :data:`ERROR_CODES`:

>>> decode_client_message('{"type": "ping"}')
Ping(type='ping', id=None)
>>> decode_client_message('{"type": "act", "action": "AS"}').action
'AS'
>>> decode_client_message('{"type": "chat", "preset": "good_luck"}').preset
'good_luck'
>>> decode_client_message('{"type": "chat", "text": "hi", "preset": "hello"}')
Traceback (most recent call last):
...
mizerka.server.protocol.ProtocolError: bad_message: chat: message: Value error, a chat message has either text ...
>>> decode_client_message('{"type": "dance"}')
Traceback (most recent call last):
...
mizerka.server.protocol.ProtocolError: unknown_type: unknown message type 'dance' (expected one of: act, ...)
>>> decode_client_message("{not json")
Traceback (most recent call last):
...
mizerka.server.protocol.ProtocolError: bad_json: the message is not valid JSON (line 1, column 2)
"""

from __future__ import annotations

import json
from typing import Annotated, Final, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, model_validator

__all__ = [
    "CHAT_PRESETS",
    "CLIENT_TYPES",
    "ERROR_CODES",
    "MAX_MESSAGE_BYTES",
    "PROTOCOL_VERSION",
    "Ack",
    "Act",
    "Chat",
    "ChatMessage",
    "ClientMessage",
    "DoubleDummyMessage",
    "DoubleDummyValues",
    "ErrorReply",
    "EventMessage",
    "Fill",
    "Hello",
    "HintReply",
    "IllegalReason",
    "Leave",
    "Ping",
    "Pong",
    "Presence",
    "ProtocolError",
    "Rematch",
    "RematchAsked",
    "RequestHint",
    "ServerMessage",
    "Snapshot",
    "Sync",
    "TakenBack",
    "Undo",
    "Undone",
    "View",
    "Welcome",
    "decode_client_message",
    "peek_id",
]

PROTOCOL_VERSION: Final = 1
"""The protocol version this server speaks.  A client names it in ``hello``; a different one is refused."""

MAX_MESSAGE_BYTES: Final = 4096
"""The largest client message the server reads; a longer one gets a ``too_large`` error."""

ERROR_CODES: Final[dict[str, str]] = {
    "bad_json": "the frame is not valid JSON (or not UTF-8 text)",
    "bad_message": "valid JSON, but not a valid message of its type (missing or wrong field)",
    "unknown_type": "the message type is not one the server knows",
    "too_large": f"the message is longer than {MAX_MESSAGE_BYTES} bytes",
    "rate_limited": "too many messages (or too many bytes) in too short a time; the message was dropped (or, "
                    "for too many connection attempts from one address, the connection is closed: code 1008); "
                    "for chat, more than 5 chat messages of one seat in 10 s (retry_after: seconds to wait); for a "
                    "hello at a table read back from the database, the address's request budget (not final)",
    "bad_version": "the client speaks another protocol version",
    "unknown_table": "no table has this id, or its match was closed unfinished (a finished one is read back)",
    "bad_token": "the seat token is not valid at this table",
    "no_seat": "the message needs a seat, and this connection holds none (a spectator, or no token)",
    "not_joined": "the message needs a table, and the connection has not said hello to one",
    "spectators_off": "this table does not admit spectators",
    "bad_seq": "an event number from the future, or one the server cannot serve",
    "stale_seq": "the client acted on an old view: events have happened since the number it gave",
    "not_your_turn": "another seat is to act",
    "not_started": "the match has not started (seats are still open)",
    "match_over": "the match is over",
    "invalid_action": "the action text is not an action",
    "illegal_action": "the rules forbid this action now; the message says why",
    "hints_off": "this table does not give hints",
    "not_over": "a rematch can only be asked for once the match is over",
    "internal": "the server failed to store the action or the chat message (nothing changed, nothing relayed), or "
                "failed to handle the message; try again",
    "server_full": "the server has as many open tables as it may keep: no new table (a rematch) for now; for a "
                   "hello, as many finished tables read back as it may keep (not final: say hello again later)",
    "too_many_connections": "the server, or the client's address, holds as many connections as it may: the "
                            "connection is closed (code 1013 or 1008)",
    "chat_off": "this table has no chat (its creator turned it off)",
    "chat_empty": "a chat message with no text (only spaces, or nothing)",
    "chat_too_long": "a chat message longer than 200 characters",
    "chat_bad_char": "a chat message holding a control character (a line break, a tab…) or a bidirectional "
                     "control character (which can make text display as other text)",
    "unknown_preset": "a chat preset code the server does not know",
    "undo_not_allowed": "taking back is only for a seated human at a table where every other seat is a computer "
                        "player (not for spectators, nor at a table with other humans)",
    "undo_refused": "nothing can be taken back now; the message says why (no card of yours in this deal yet, "
                    "your exchange or the contract stands in the way, the match is over)",
    "already_started": "the match has started: its seats can no longer be filled with computer players",
    "bad_bot": "a bot level the server does not offer (the message names it; GET /api/meta lists them)",
    "players_away": "a rated match is started with computer players only while every seated player is at the "
                    "table (the message names the seats away)",
    "profile_needed": "a rematch of a rated table for a seat whose profile was deleted: a rated match seats "
                      "only profiles",
    "corrupt": "a hello at a table read back from the database whose stored events do not fit it (a damaged "
               "database, not the client's fault; the message names the table and the event)",
}
"""Every error code the websocket can send, with its meaning."""

CHAT_PRESETS: Final = ("hello", "good_luck", "well_played", "thanks", "sorry", "one_moment", "bye")
"""The codes of the chat's ready-made phrases.  The server relays the code only; each client shows the phrase in its
own language ("good_luck": "Good luck!", "Powodzenia!", "Удачи!")."""


class ProtocolError(ValueError):
    """A client message the server refuses.  ``code`` is a key of :data:`ERROR_CODES`; ``request_id`` is the
    message's ``id`` when it could be read (a JSON object whose ``id`` is a string or an integer), so that the
    error reply names the request even when the rest of the message is wrong."""

    def __init__(self, code: str, message: str, request_id: str | int | None = None) -> None:
        assert code in ERROR_CODES, code
        self.code = code
        self.message = message
        self.request_id = request_id
        super().__init__(f"{code}: {message}")


def _echoable_id(value: object) -> str | int | None:
    """*value* if a reply may carry it as the request's ``id`` (an integer, or text a reply can encode), else None."""
    if isinstance(value, bool) or not isinstance(value, str | int):
        return None
    try:
        return _unicode_text(value)
    except ValueError:
        return None


def peek_id(raw: str | bytes) -> str | int | None:
    """The ``id`` of a frame that is not otherwise read (one dropped by the rate limit), if it is a JSON object
    with an id a reply can carry; None for anything else.

    >>> peek_id('{"type": "act", "id": 7, "action": "AS"}'), peek_id("not json"), peek_id("[1]")
    (7, None, None)
    """
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    return _echoable_id(data.get("id")) if isinstance(data, dict) else None


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


def _unicode_text(value: str | int | None) -> str | int | None:
    """Refuse a string with a lone surrogate (``"\\ud800"`` is valid JSON, but no text UTF-8 can carry): an id is
    echoed in the reply, and that reply could not be sent."""
    if isinstance(value, str):
        try:
            value.encode()
        except UnicodeEncodeError:
            raise ValueError("must be Unicode text (it holds a lone surrogate escape)") from None
    return value


RequestId = Annotated[str | int | None, AfterValidator(_unicode_text),
                      Field(description="Echoed in the reply, so a client can pair them.")]
Seq = Annotated[int, Field(ge=0, le=10**9)]

# -- client → server --------------------------------------------------------------------------------


class Hello(_Message):
    """Attach this connection to a table, as the seat of ``token`` or, without a token, as a spectator.

    ``last_seq`` is the number of the last event the client saw (reconnect): the reply carries every
    later event.  ``epoch`` is the journal epoch it saw that event in (the ``epoch`` of its last welcome or
    snapshot): an undo since then cut the journal and gives its numbers again, and the hello is refused with
    ``bad_seq`` (say hello again without ``last_seq``) instead of being sent events that do not follow the
    client's.  Without ``epoch`` only the number is checked.  A new hello moves the connection to another table
    (or seat).
    """

    type: Literal["hello"]
    id: RequestId = None
    protocol: int
    table: Annotated[str, Field(min_length=1, max_length=64)]
    token: Annotated[str | None, Field(max_length=128)] = None
    last_seq: Seq | None = None
    epoch: Seq | None = None


class Act(_Message):
    """Act for the connection's seat.  ``action`` is text as :meth:`mizerka.Deal.parse_action` reads it:
    ``"AS"`` plays a card, ``"NT"`` chooses a contract, ``"exchange 2C 3D"`` discards, ``"keep"`` keeps.
    ``seq``, if given, is the last event the client saw: if events happened since, the action is refused
    with ``stale_seq`` (the client acted on an old view)."""

    type: Literal["act"]
    id: RequestId = None
    action: Annotated[str, Field(min_length=1, max_length=200)]
    seq: Seq | None = None


class RequestHint(_Message):
    """Ask which action a bot would take in the seat's place (tables with ``hints`` on)."""

    type: Literal["hint"]
    id: RequestId = None


class Leave(_Message):
    """Give up the seat: the token stops working, and a bot plays the seat (or it opens again before the start)."""

    type: Literal["leave"]
    id: RequestId = None


class Rematch(_Message):
    """Ask for a rematch once the match is over.  When every human seat has asked, a new table starts."""

    type: Literal["rematch"]
    id: RequestId = None


class Sync(_Message):
    """Ask for a snapshot and every event after ``last_seq`` (as a reconnecting hello does, ``epoch`` too)."""

    type: Literal["sync"]
    id: RequestId = None
    last_seq: Seq
    epoch: Seq | None = None


class Chat(_Message):
    """Say something to everyone at the table (a seated human only): ``text`` (1-200 characters once stripped, no
    control or bidirectional control characters) or ``preset``, one of :data:`CHAT_PRESETS`, exactly one of the two.
    The reply is the ``chat`` message the table receives (the sender's copy carries the ``id``), or an error.
    The text is checked by the hub (:func:`mizerka.server.chat.clean_chat_text`), which refuses it with a code of
    its own (``chat_empty``, ``chat_too_long``, ``chat_bad_char``) rather than a schema's ``bad_message``."""

    type: Literal["chat"]
    id: RequestId = None
    text: Annotated[str | None, AfterValidator(_unicode_text)] = None
    preset: str | None = None  # any other code gets unknown_preset (the frame limit bounds its length)

    @model_validator(mode="after")
    def _one_of(self) -> Chat:
        if (self.text is None) == (self.preset is None):
            raise ValueError("a chat message has either text or a preset, not both" if self.text is not None
                             else "a chat message has text or a preset")
        return self


class Undo(_Message):
    """Take back the seat's last card of the deal in progress and every action after it (a human at a table where
    every other seat is a bot; the rule is :mod:`mizerka.undo`).  Every connection at the table then gets a
    ``snapshot`` carrying ``undone``; the sender's carries the ``id``."""

    type: Literal["undo"]
    id: RequestId = None


class Fill(_Message):
    """Start the match now, with computer players: every open seat of the table becomes, for good, a seat of a bot
    of ``level`` (one of the levels ``GET /api/meta`` lists: random, rules, pimc, ismcts, expert), and the match starts
    as when the last human joins.  For a connection that holds a seat at a table still waiting for players.  The
    reply is the ``seat`` events, the ``start`` and ``deal`` events, then an ``ack`` whose ``action`` is ``"fill"``.
    The level is checked by the table (:meth:`mizerka.server.tables.Table.fill`), which refuses an unknown one with a
    code of its own (``bad_bot``, naming it) rather than a schema's ``bad_message``; a level that is not a string is
    a ``bad_message``."""

    type: Literal["fill"]
    id: RequestId = None
    level: str = "rules"  # any other level gets bad_bot (the frame limit bounds its length)


class Ping(_Message):
    """Heartbeat.  The other side answers ``pong``.  Either side may send it."""

    type: Literal["ping"]
    id: RequestId = None


class Pong(_Message):
    """The answer to a ``ping``."""

    type: Literal["pong"]
    id: RequestId = None


ClientMessage = Annotated[
    Hello | Act | RequestHint | Leave | Rematch | Sync | Chat | Undo | Fill | Ping | Pong, Field(discriminator="type")
]
"""Any message a client may send."""

CLIENT_TYPES: Final = ("act", "chat", "fill", "hello", "hint", "leave", "ping", "pong", "rematch", "sync", "undo")
_CLIENT_ADAPTER: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)


def decode_client_message(
    raw: str | bytes,
) -> Hello | Act | RequestHint | Leave | Rematch | Sync | Chat | Undo | Fill | Ping | Pong:
    """Read one client frame.

    Raises:
        ProtocolError: ``too_large``, ``bad_json``, ``bad_message`` or ``unknown_type``, with the reason.
    """
    size = len(raw.encode() if isinstance(raw, str) else raw)
    if size > MAX_MESSAGE_BYTES:
        raise ProtocolError("too_large", f"the message has {size} bytes; the limit is {MAX_MESSAGE_BYTES}")
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as error:
        raise ProtocolError(
            "bad_json", f"the message is not valid JSON (line {error.lineno}, column {error.colno})"
        ) from None
    except (UnicodeDecodeError, RecursionError, ValueError):
        raise ProtocolError("bad_json", "the message is not valid JSON (bad encoding or nesting)") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", f"a message is a JSON object, not {type(data).__name__}")
    request_id = _echoable_id(data.get("id"))
    kind = data.get("type")
    if not isinstance(kind, str):
        raise ProtocolError("bad_message", "the message has no 'type' string", request_id)
    if kind not in CLIENT_TYPES:
        shown = kind if len(kind) <= 40 else kind[:40] + "…"
        expected = ", ".join(CLIENT_TYPES)
        raise ProtocolError("unknown_type", f"unknown message type {shown!r} (expected one of: {expected})",
                            request_id)
    try:
        return _CLIENT_ADAPTER.validate_python(data)
    except ValidationError as error:
        first = error.errors()[0]
        if kind == "hello" and tuple(first["loc"][1:]) == ("table",) and first["type"] == "string_too_long":
            # no table has an id that long: it is unknown, as the REST paths answer it, so that a client says its
            # "no such table" sentence instead of a format message about the link
            shown = str(data.get("table"))[:64] + "…"
            raise ProtocolError("unknown_table", f"no open table {shown!r}", request_id) from None
        where = ".".join(str(p) for p in first["loc"][1:]) or "message"
        raise ProtocolError("bad_message", f"{kind}: {where}: {first['msg']}", request_id) from None


# -- server → client --------------------------------------------------------------------------------

Card = Annotated[str, Field(pattern=r"^[2-9TJQKA][CDHS]$", description="A card: rank 2-9 T J Q K A, suit C D H S.")]


class PlayerView(_Message):
    """One seat as everybody sees it."""

    seat: int
    name: str | None = Field(description="The display name; null for an open seat.")
    default_name: bool = Field(default=False, description="The name is the server's own for a seat nobody named (a "
                                                          "bot's: 'Bot 2', the seat's number from 1), never one a "
                                                          "player chose: a client may write it in its own language.")
    kind: Literal["human", "bot"]
    bot: str | None = Field(description="The bot level of a bot seat, or of the bot standing in for a human.")
    badge: str | None = None
    standin: bool = Field(description="A bot is playing for a human who is away (or left during the match).")
    connected: bool
    open: bool = Field(description="A human seat nobody holds yet: join it.")
    registered: bool = Field(default=False, description="A profile holds the seat (POST /api/players): the name is "
                                                        "unique on the server, so it is who it says.")
    takeover: bool = Field(default=False, description="A human may take the seat over from the computer now (POST "
                                                      "/api/tables/{id}/join): the match of an unrated table, a "
                                                      "seat a bot plays for good.")
    since_deal: int = Field(default=0, description="The deal from which the seat's player plays it, having taken "
                                                   "it over during the match (the seat's total so far is the "
                                                   "earlier players'); 0: from the start.")
    left: bool = Field(default=False, description="Its player gave the seat up after the match: the name and the "
                                                  "result stay his, nobody plays or takes the seat.")


class ContractView(_Message):
    code: str = Field(description="C, D, H, S, NT or MZ.")
    label: str
    symbol: str
    goal: Literal["take", "avoid"]
    trump: str | None = Field(description="The trump suit letter, or null.")


class TrickView(_Message):
    leader: int
    cards: list[Card]
    seats: list[int] = Field(description="Who played each card, in order.")
    winner: int | None = None


class DoubleDummyValues(_Message):
    """What perfect play with every card open would have given each seat, from the start of play (paranoid:
    the two others against it).  ``null`` for a seat that sits the deal out."""

    tricks: list[int | None]
    scores: list[int | None]


class ScoreRow(_Message):
    deal_no: int
    dealer: int
    chooser: int
    contract: str
    tricks: list[int]
    scores: list[int]
    totals: list[int]
    dd: DoubleDummyValues | None = Field(default=None, description="The deal's double-dummy values, once known.")
    dd_reason: str | None = Field(
        default=None, description="Why the deal has no double-dummy values, once that is known (the ``dd`` "
                                  "message's reason); absent while they are being computed or when they came.")
    players: list[str] | None = Field(
        default=None, description="Who played each seat in this deal; only where someone sat in for a seat's player "
                                  "during the match (the view's players name who plays each seat now).")


class IllegalReason(_Message):
    """Why an action is refused, for machines: ``code`` (see docs/protocol.md), and ``suit`` (C D H S) for
    ``follow`` (the suit led) and ``trump`` (the trump suit, in a game where a void hand must trump)."""

    code: Literal["follow", "trump", "not_in_hand", "wrong_phase", "deal_over", "contract_used", "contract_not_played",
                  "exchange_over", "talon_short", "not_an_action", "illegal"]
    suit: str | None = None


class View(_Message):
    """Everything one recipient may know about the table now, built from its seat's observation alone."""

    table: str
    seat: int | None = Field(description="The recipient's seat, or null for a spectator.")
    status: Literal["waiting", "playing", "finished", "abandoned"]
    variant: str
    contracts: list[str] = Field(description="The variant's contracts as codes (C D H S NT MZ), in its order: the "
                                             "score sheet's columns.")
    players: list[PlayerView]
    options: dict[str, object]
    deal_no: int
    n_deals: int
    phase: Literal["waiting", "choose", "exchange", "play", "done", "over"]
    dealer: int | None
    roles: dict[str, str] = Field(description="seat (as text) → FH, MH or D for the active seats.")
    to_move: int | None
    your_turn: bool
    hand: list[Card] = Field(description="The recipient's hand, sorted by suit (S H D C) and rank, high first.")
    legal: list[str] = Field(description="Every legal action as text, when it is the recipient's turn (not exchange).")
    illegal: dict[str, str] = Field(description="card → why it may not be played now (own hand, own turn).")
    illegal_codes: dict[str, IllegalReason] = Field(
        default_factory=dict, description="card → the reason of ``illegal`` as a machine code.")
    exchange: dict[str, int] | None = Field(description="{'max': n} when the recipient is to exchange.")
    allowed_contracts: list[str]
    contract: ContractView | None
    quotas: dict[str, int] = Field(description="seat → tricks expected in this deal's contract.")
    tricks_won: list[int]
    hand_sizes: list[int]
    exchange_counts: list[int | None]
    talon_size: int
    shown_card: Card | None
    discards: list[Card] = Field(description="The recipient's own discards this deal.")
    drawn: list[Card] = Field(description="The cards the recipient drew from the talon this deal.")
    stock_size: int = Field(default=0, description="The cards left in the stock, which the players draw from after "
                                                   "their cards in the first tricks (seed002-literal); 0 elsewhere.")
    stock_drawn: list[Card] = Field(default_factory=list, description="The cards the recipient drew from the stock "
                                                                      "this deal (seed002-literal).")
    trick: TrickView | None
    last_trick: TrickView | None
    tricks_played: int
    deal_scores: list[int] | None
    totals: list[int]
    used: list[list[str]]
    score_sheet: list[ScoreRow]
    commitment: str | None = Field(description="The commitment to this deal's deck order, published before play.")
    rematch: str | None = Field(default=None, description="The rematch table's id once every seated human has "
                                "asked for one (also to a connection that missed the rematch event), else null.")
    rematch_asked: list[int] = Field(default_factory=list, description="The seats that have asked for a rematch.")
    can_undo: bool = Field(default=False, description="Whether an ``undo`` by the recipient would take something "
                           "back now (only ever true for a seated human at a table of bots).")
    seq: int = Field(description="The number of the last event this view includes.")


class EventBody(_Message):
    """A numbered event.  ``kind`` is one of: seat, start, deal, action, deal_end, match_end, rematch, closed.
    The fields present depend on the kind (see docs/protocol.md)."""

    model_config = ConfigDict(extra="allow", strict=True, frozen=True)
    kind: Literal["seat", "start", "deal", "action", "deal_end", "match_end", "rematch", "closed"]
    deal_no: int


class EventMessage(_Message):
    type: Literal["event"]
    seq: int
    event: EventBody
    view: View | None = Field(default=None, description="The recipient's view after the event (live events only).")


class ChatMessage(_Message):
    """One chat message as the table receives it: numbered per table from 1 (``seq``, apart from the events: chat
    is not part of the game, and is stored apart from its journal), the sender's seat and name, and ``text`` or
    ``preset``.  The sender's own copy carries the ``id`` of its ``chat`` request."""

    type: Literal["chat"]
    id: RequestId = None
    seq: int
    seat: int
    name: str
    text: str | None = None
    preset: str | None = None


class Welcome(_Message):
    type: Literal["welcome"]
    id: RequestId = None
    protocol: int
    table: str
    seat: int | None
    seq: int
    epoch: int = Field(default=0, description="The journal's epoch: how many times an undo has cut it.  Send it "
                       "back with last_seq in a later hello or sync.")
    view: View
    events: list[EventMessage] = Field(description="The events after the hello's last_seq (without views).")
    chat: list[ChatMessage] = Field(default_factory=list, description="The table's last chat messages (at most "
                                    "50, oldest first; none at a table without chat).")


class TakenBack(_Message):
    """One action an undo took back: the seat that had taken it and its public text (a card)."""

    seat: int
    action: str


class Undone(_Message):
    """What an undo took back: who asked for it, and the actions in the order they had been played."""

    seat: int
    actions: list[TakenBack]


class Snapshot(_Message):
    """The answer to ``sync``; also sent, with ``undone``, to every connection at a table after an undo: the events
    after the taken-back card are gone from the journal, their numbers will be given again, so ``seq`` may be lower
    than the last number the client saw (take it as it is)."""

    type: Literal["snapshot"]
    id: RequestId = None
    seq: int
    epoch: int = Field(default=0, description="The journal's epoch (see ``welcome``): one more after each undo.")
    view: View
    events: list[EventMessage]
    undone: Undone | None = Field(default=None, description="After an undo: what it took back.")


class Ack(_Message):
    """The answer to an ``act`` (the event it made), to a ``rematch`` (the wish is taken: ``action`` is
    ``"rematch"``, ``seq`` the last event, ``table`` the new table once made, ``waiting`` the seats still to ask) or
    to a ``fill`` (``action`` ``"fill"``, ``seq`` the last event: the match's first deal)."""

    type: Literal["ack"]
    id: RequestId = None
    seq: int = Field(description="The number of the event the action produced (for a rematch or a fill: the last "
                                 "event).")
    action: str
    table: str | None = Field(default=None, description="rematch only: the new table's id once made, else null.")
    waiting: list[int] | None = Field(default=None, description="rematch only: the seated humans still to ask.")


class ErrorReply(_Message):
    type: Literal["error"]
    id: RequestId = None
    code: str = Field(description="One of the error codes in docs/protocol.md.")
    message: str
    reason: IllegalReason | None = Field(default=None, description="With illegal_action: the reason as a code.")
    retry_after: float | None = Field(default=None, description="With a chat's rate_limited: seconds to wait.")


class HintReply(_Message):
    type: Literal["hint"]
    id: RequestId = None
    action: str
    evaluations: dict[str, float]
    bot: str


class Presence(_Message):
    """A seat's connection changed (not numbered: not part of the game's history)."""

    type: Literal["presence"]
    seat: int
    connected: bool


class RematchAsked(_Message):
    """After a finished match, a seat asked for a rematch that still waits for others (not numbered: the view's
    ``rematch_asked`` says the same, and a reconnection gets it there): every seat that has asked so far."""

    type: Literal["rematch_asked"]
    seats: list[int]


class DoubleDummyMessage(_Message):
    """A finished deal's double-dummy values, sent when the analysis is done (not numbered: an annotation,
    not part of the game), after every ``deal_end``.  ``dd`` is null when it was not available (``reason``:
    timeout, busy, error, unsupported, or off: the server does not analyse deals)."""

    type: Literal["dd"]
    deal_no: int
    dd: DoubleDummyValues | None
    reason: str | None = None


class TimerMessage(_Message):
    """A turn timer started (to every connection at the table), or what is left of the running one (after a
    ``hello``): the decision of ``seat`` at event ``seq`` of journal ``epoch`` is made by a bot when the ``left``
    seconds are up, by the server's clock (not numbered: the deadline, not part of the game)."""

    type: Literal["timer"]
    seat: int
    seq: int
    epoch: int
    left: float = Field(ge=0)


class ServerPing(_Message):
    type: Literal["ping"]
    id: RequestId = None


class ServerPong(_Message):
    type: Literal["pong"]
    id: RequestId = None


ServerMessage = Annotated[
    Welcome | Snapshot | EventMessage | Ack | ErrorReply | HintReply | Presence | RematchAsked | DoubleDummyMessage
    | ChatMessage | TimerMessage | ServerPing | ServerPong,
    Field(discriminator="type"),
]
"""Any message the server sends."""

SERVER_ADAPTER: TypeAdapter[ServerMessage] = TypeAdapter(ServerMessage)
"""Validates a server message (tests check every message the server sends against it)."""
