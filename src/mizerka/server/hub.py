"""The live server: tables in memory, their clients, bots in a worker pool, timers, and the write path.

One :class:`Hub` owns every open table.  Each change to a table runs under that table's lock: the change is
checked and applied in memory (:mod:`mizerka.server.tables`), its events are committed to the database
(:mod:`mizerka.server.db`, group commit in a writer thread), and only then acknowledged and broadcast.
So an acknowledged action is on disk, and the events every client sees are the events that are stored.

Every outbound message is built per recipient: :func:`render_events` gives each seat its own rendering
of the events (public fields, plus that seat's private ones) and its own view
(:func:`mizerka.server.views.build_view`, from its observation).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import gc
import hashlib
import ipaddress
import json
import logging
import math
import random
import re
import secrets
import sys
import time
import traceback
import weakref
import zlib
from collections import OrderedDict
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Literal

from mizerka.arena import stand_in  # the action the arena plays for a bot that failed: the same here
from mizerka.bots import BOT_LEVELS
from mizerka.deal import Action
from mizerka.rules import STANDARD
from mizerka.server.chat import CHAT_HISTORY, ChatRateLimited, ChatRoom
from mizerka.server.db import Store
from mizerka.server.dd import DoubleDummy
from mizerka.server.encoding import encode
from mizerka.server.players import SeatResult, Standing, bot_id, check_name, name_key, rate_match
from mizerka.server.protocol import (
    MAX_MESSAGE_BYTES,
    PROTOCOL_VERSION,
    Act,
    Chat,
    Fill,
    Hello,
    Leave,
    Ping,
    Pong,
    ProtocolError,
    Rematch,
    RequestHint,
    Sync,
    Undo,
    decode_client_message,
    peek_id,
)
from mizerka.server.tables import Event, SeatState, Table, TableError, TableSettings, default_name, reason_code
from mizerka.server.views import build_view
from mizerka.server.workers import ProcessWorkers, ThreadWorkers, WorkerDied, WorkerError, Workers

if TYPE_CHECKING:
    from mizerka.analysis import DealAnalysis
    from mizerka.record import MatchRecord

__all__ = ["Client", "ConnectionCount", "Hub", "LiveTable", "OutboundCount", "RequestBudget", "ServerConfig",
           "address_key", "hash_token", "is_local", "render_events"]

log = logging.getLogger("mizerka.server")


@dataclasses.dataclass
class ServerConfig:
    """How the server runs.  Every duration is in seconds.

    Attributes:
        database: the database URL (``sqlite:///path`` or ``postgresql://user:pw@host/db``).
        bot_delay: the least time a bot takes for a decision, so that the pace is pleasant (0: as fast as it can).
        grace: how long a human may be gone before a bot stands in for them.
        abandon_after: a table with nobody connected and no event for this long is closed (unstarted or
            unfinished) or unloaded from memory (finished).
        heartbeat: the server pings every client this often, and drops a client silent for three times as long.
        cleanup_interval: how often abandoned tables are looked for.
        bot_workers: the size of the bot worker pool.
        bot_pool: ``thread`` or ``process`` workers.
        slow_bot_workers: the size of the second pool, for the searching bots (pimc, ismcts, expert), so that
            they never keep the quick ones (random, rules) waiting.
        rate, burst: each connection may send *rate* messages a second on average, *burst* at once.
        seed: seeds deck orders and table ids (tests); ``None`` for unpredictable ones.
        web_dir: a directory of static files served at ``/`` (the browser client), if it exists.
        dd_limit: seconds the double-dummy analysis of a finished deal may take (0: no analysis).
        dd_workers: how many analyses run at once.
        dd_busy_rate: while the server stores more than this many events a second (over the last
            :data:`RATE_WINDOW` seconds), a finished deal gets no analysis (``dd`` null, reason ``busy``): the
            analysis is a best-effort extra and must not take CPU from play (0: never skip).  Deal reviews
            obey the same rule (``analysis``: ``busy``).
        review_limit: seconds the solver may take to judge every card of a finished deal for its review
            (``GET /api/tables/{id}/deals/{n}/review``); 0: reviews give the play without the analysis
            (``analysis``: ``off``).  Reviews run in the double-dummy workers (``dd_workers`` in all, both kinds).
        review_cache: how many reviewed deals' analyses the server keeps in memory (least recently used first out).
        catch_up_cache: about the most bytes of encoded events the server keeps for the catch-ups (``sync``,
            ``hello`` from far back: :class:`CatchUpCache`), across tables, the table caught up least recently
            dropped first (a finished 18-deal match's, for every seat and spectators, is about 240 KB: a fifth of
            what its table holds); 0: none kept, every catch-up renders its events afresh.
        gc_freeze: keep what lives long out of the garbage collector's full collections
            (:meth:`Hub._gc_loop`); off in tests that run many servers in one process.
        max_tables: the most tables the server keeps open (in memory) at once; a new table past it is refused
            (``server_full``), so that one client creating tables in a loop cannot exhaust the memory.  The finished
            tables read back from the database for a hello are not counted here (see ``max_read_back``): reading
            old matches never keeps a new one from being made.
        max_read_back: the most finished tables read back from the database for a hello
            (:meth:`Hub._live_for_hello`) kept in memory at once, apart from ``max_tables`` (one holds about
            1.5 MB: 200 of them, about 300 MB).  At the cap, the one idle longest with nobody at it is unloaded to
            make room; when every one has someone at it, the hello gets ``server_full`` (0: no finished table is
            read back).
        read_back_idle: a finished table read back for a hello is unloaded once nobody has been at it for this
            long (or ``abandon_after``, if that is shorter): it is there only for whoever opens it.
        max_connections: the most websocket connections the server holds at once; one more gets the error
            ``too_many_connections`` and is closed (code 1013, "try again later").
        max_connections_per_address: the most websocket connections one client address holds at once (IPv6:
            one ``/64`` network); one more gets ``too_many_connections`` and is closed (code 1008).
        request_rate, request_burst: each client address may make *request_rate* REST requests (under
            ``/api``) and websocket connection attempts a second on average, *request_burst* at once (a token
            bucket); one more gets 429 ``rate_limited`` with ``Retry-After`` (a websocket: the error
            ``rate_limited``, then close code 1008).  ``request_rate`` 0: no limit.
        limit_loopback: apply the per-address caps (connections, request rate) to clients on this machine too
            (loopback addresses, a Unix socket).  Off by default: the machine's own clients are its operator's
            (the load benchmark, the terminal client), or a reverse proxy's that does not pass on the client's
            address (one that does, in ``X-Forwarded-For``, is trusted from 127.0.0.1 by uvicorn, and each
            client is counted by its own address).  The total cap applies to every connection.
        max_queued: the most characters of messages the server holds queued for one websocket connection and not
            yet sent (its client does not read them, or its network is slow); a message that would pass it drops
            the connection (:class:`OutboundCount`).  The longest match's whole journal, a ``sync`` from the
            start, is about 200,000 characters; the default is twenty times that.
        max_queued_per_address: the same, for all the connections of one client address together (the address
            as the connection caps count it, :func:`address_key`; loopback clients are spared it as they are
            spared those caps, unless ``limit_loopback``).
        request_timeout: an HTTP request (its request line and headers, and its body) must arrive whole within this
            many seconds of the connection being made, or of its first byte on a kept-alive connection; else the
            connection is closed (with 408 when part of a request head came).  A websocket is past it once its
            upgrade request is in.  :class:`mizerka.server.command.RequestDeadline` applies it.
    """

    database: str
    bot_delay: float = 0.8
    grace: float = 60.0
    abandon_after: float = 3600.0
    heartbeat: float = 20.0
    cleanup_interval: float = 30.0
    bot_workers: int = 2
    bot_pool: Literal["thread", "process"] = "thread"
    rate: float = 20.0
    burst: float = 60.0
    seed: int | None = None
    web_dir: Path | None = Path(__file__).resolve().parent.parent / "web"
    dd_limit: float = 10.0
    slow_bot_workers: int = 1
    dd_workers: int = 1
    dd_busy_rate: float = 60.0
    review_limit: float = 30.0
    review_cache: int = 256
    catch_up_cache: int = 32 * 1024 * 1024
    gc_freeze: bool = True
    max_tables: int = 10_000
    max_connections: int = 10_000
    max_connections_per_address: int = 256
    request_rate: float = 20.0
    request_burst: float = 100.0
    limit_loopback: bool = False
    max_read_back: int = 200
    read_back_idle: float = 300.0
    max_queued: int = 4 * 1024 * 1024
    max_queued_per_address: int = 32 * 1024 * 1024
    request_timeout: float = 10.0


REVIEW_RETRY_AFTER = 300.0
"""Seconds a review's failed analysis (``timeout``, ``error``) is remembered before a request tries again: a deal
the solver could not judge in time is not tried again on every request.  ``busy`` is never remembered."""

ReviewResult = tuple["DealAnalysis | None", str]
"""A deal's analysis for its review, or ``None``, and its status: ``ok``, ``off``, ``timeout``, ``busy``, ``error``."""

GC_FREEZE_INTERVAL = 30.0
"""Seconds between two :func:`gc.freeze` calls of a running server (``ServerConfig.gc_freeze``)."""

GC_UNFREEZE_INTERVAL = 3600.0
"""Seconds between two :func:`gc.unfreeze` calls: then one full collection frees the cycles frozen meanwhile."""

RATE_WINDOW = 5
"""Seconds over which :class:`EventRate` averages."""

HELLO_TRIES = 3
"""How many times a hello looks its table up again when the sweep unloaded it while the hello waited for its lock."""

COMMIT_RETRY = 2.0
"""Seconds after a failed write before the table asks whoever is to act again (a bot's decision, a stand-in)."""

FLOOD_PAUSE = 1.0
"""Seconds a websocket's messages are not read once the rate limit has refused more than :data:`FLOOD_REFUSED` of
them within a second (:meth:`Client.pause`)."""

FLOOD_REFUSED = 100
"""Messages of one connection refused by the rate limit within a second past which it is a flood
(:meth:`Client.pause`): far more than a client that only goes over its rate now and then has refused (at the
default 20 a second, bursts of 60), and independent of the configured burst, so that a small burst does not make a
client that sent a few too many wait for a second."""

CATCH_UP_FRESH = 32
"""A catch-up of at most this many events is rendered afresh (about a microsecond an event); a longer one is
joined from the texts :class:`CatchUpCache` keeps."""

PAIR_FRESH_SECONDS = 30.0
"""Quick pairing (:meth:`Hub.pair`) seats a caller at a waiting table only where a seated player is connected, or
where a seat was taken or a connection came or went less than this many seconds ago."""


class EventRate:
    """Events stored per second, averaged over the last :data:`RATE_WINDOW` whole seconds (the server's load).

    >>> rate = EventRate()
    >>> rate.add(50, now=100.2); rate.add(50, now=101.7)
    >>> rate.per_second(now=102.1)
    20.0
    >>> rate.per_second(now=200.0)
    0.0
    """

    def __init__(self) -> None:
        self._counts = [0] * RATE_WINDOW
        self._seconds = [-1] * RATE_WINDOW

    def add(self, n: int, now: float | None = None) -> None:
        second = int(time.monotonic() if now is None else now)
        slot = second % RATE_WINDOW
        if self._seconds[slot] != second:
            self._seconds[slot], self._counts[slot] = second, 0
        self._counts[slot] += n

    def per_second(self, now: float | None = None) -> float:
        second = int(time.monotonic() if now is None else now)
        recent = sum(c for c, s in zip(self._counts, self._seconds, strict=True) if second - RATE_WINDOW < s <= second)
        return recent / RATE_WINDOW


def hash_token(token: str) -> str:
    """Seat tokens are stored only as their SHA-256."""
    return hashlib.sha256(token.encode()).hexdigest()


def render_events(
    table: Table, events: Sequence[Event], seat: int | None, connected: Collection[int] = (), *, view: bool = True
) -> list[dict[str, Any]]:
    """The ``event`` messages for one recipient; the last carries the recipient's view when *view* is set.

    A ``seat`` event of a computer player (a ``fill``) is stored without a name (a bot has none of its own): it is
    sent with the name the table shows for it (``Bot 2``, as in the ``start`` event's players), so that a client
    can say who sat down."""
    messages: list[dict[str, Any]] = [
        {"type": "event", "seq": e.seq, "event": _named(table, e.render(seat if _owns(table, seat, e) else None))}
        for e in events]
    if messages and view:
        messages[-1]["view"] = build_view(table, seat, connected)
    return messages


def _owns(table: Table, seat: int | None, event: Event) -> bool:
    """Whether *event*'s part private to *seat* (its exchange's cards) is its present player's: the seat's events
    from the deal he took the seat in (``since_deal``; 0: from the start).  A newcomer who took a seat over from
    the computer during the match sees its cards from then on (docs/server.md), its observation of the deal in
    progress included, never the cards its earlier players discarded and drew in the deals before his: those
    stay hidden until the match is over (or its deal is revealed), as from everyone else at the table."""
    return seat is not None and 0 <= seat < len(table.seats) and event.deal_no >= table.seats[seat].since_deal


def _named(table: Table, body: dict[str, Any]) -> dict[str, Any]:
    """*body*, a rendered event, with a bot's ``seat`` event given its display name (see :func:`render_events`)."""
    if body.get("kind") == "seat" and body.get("seat_kind") == "bot" and body.get("name") is None:
        seat = int(body["seat"])
        now = table.seats[seat] if 0 <= seat < len(table.seats) else None
        body["name"] = (table.player_names()[seat] if now is not None and now.kind == "bot" and not now.name
                        else default_name(seat))
    return body


_POINTER: Final = 8
"""Bytes a list holds for each item (a pointer): counted in :attr:`_Journal.size`."""


def _seats_key(table: Table) -> tuple[tuple[str, str | None, int], ...]:
    """What a journal's rendering depends on beyond its events: each seat's kind and name as it is now (a bot's
    ``seat`` event is sent with the name the table shows for that seat now: :func:`_named`), and the deal its player
    took it over in (a seat's private parts are its present player's from that deal on: :func:`_owns`)."""
    return tuple((seat.kind, seat.name, seat.since_deal) for seat in table.seats)


class _Journal:
    """One table's events as :class:`CatchUpCache` keeps them: the spectator's texts, and each seat's (see there)."""

    __slots__ = ("epoch", "last", "own", "public", "seats", "size", "table")

    def __init__(self, table: Table) -> None:
        self.table = weakref.ref(table)  # the table object it was rendered from: a reloaded table is another one
        self.epoch = table.epoch
        self.seats = _seats_key(table)
        self.public: list[str] = []  # every event as a spectator receives it: Event.render(None), nothing private
        self.own: dict[int, list[str]] = {}  # a seat's: public's texts, but its own private events encoded for it
        self.last: Event | None = None  # the journal's event the texts end with
        self.size = 0  # about the bytes it holds: its texts (each once, however many lists share it), the lists

    def current(self, table: Table) -> bool:
        """Whether the texts are *table*'s first events still: the same table object, journal epoch and seats, and
        the journal has the event they end with at its place (it has only grown since)."""
        n = len(self.public)
        return (self.table() is table and self.epoch == table.epoch and self.seats == _seats_key(table)
                and n <= table.seq and (n == 0 or table.events[n - 1] is self.last))

    def texts(self, table: Table, seat: int | None) -> list[str]:
        """The texts of every event of *table*'s journal as *seat* (``None``: a spectator) receives them in a
        catch-up, those it lacked rendered now."""
        events = table.events
        done = len(self.public)
        if done < len(events):
            new = [encode(m) for m in render_events(table, events[done:], None, view=False)]
            self.public.extend(new)
            self.size += sum(map(sys.getsizeof, new)) + _POINTER * len(new)
            self.last = events[-1]
        if seat is None:
            return self.public
        own = self.own.setdefault(seat, [])
        start = len(own)
        for index in range(start, len(events)):
            event = events[index]
            if seat in event.private and _owns(table, seat, event):  # its own cards (an exchange's): encoded for
                # it, kept in its own list alone
                text = encode(render_events(table, [event], seat, view=False)[0])
                self.size += sys.getsizeof(text)
            else:  # the same for everyone: the spectator's text
                text = self.public[index]
            own.append(text)
        self.size += _POINTER * (len(own) - start)
        return own


class CatchUpCache:
    """The journal's events as the catch-ups send them (a ``sync``'s ``snapshot``, a ``welcome``: the ``event``
    messages after ``last_seq``, without views), kept as JSON texts per table and recipient, so that a catch-up from
    far back costs a join of kept texts, not a rendering and encoding of the whole journal each time.

    A client may ask for a table's whole journal (a ``sync`` from 0) twenty times a second, its rate: rendered
    afresh each time, a finished 18-deal match's 813 events took about 1 ms (0.6 ms rendering them, 0.3 ms
    encoding them); joined from kept texts, some 15 µs.

    What each recipient is sent stays its own: the spectator's texts are the events' public parts
    (:meth:`Event.render` for ``None``); a seat's list holds the same text objects, but for the events with a part
    private to that seat, encoded for it alone, and it is read only for that seat.  The texts are kept while they are
    still the table's: the same table object (a reload or a rebuild, :meth:`Hub._reload`, makes another), the same
    journal epoch (an undo cuts the journal), the same seats (:func:`_seats_key`), and the journal still has the
    last event rendered at its place; a journal that grew has only its new events rendered.  Otherwise the table's
    texts are rendered anew.

    About *max_bytes* are kept at most across tables (:attr:`_Journal.size`): past it, the tables caught up least
    recently lose their texts, down to the one just caught up if need be (its reply is made all the same).
    """

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.size = 0
        self._tables: OrderedDict[str, _Journal] = OrderedDict()

    def __contains__(self, table_id: object) -> bool:
        return table_id in self._tables

    def events(self, table: Table, seat: int | None, last_seq: int) -> str:
        """The JSON array of the events of *table* after *last_seq*, as *seat* (``None``: a spectator) receives them
        in a catch-up: the text of ``render_events(table, table.events[last_seq:], seat, view=False)``."""
        if table.seq - last_seq <= CATCH_UP_FRESH or self.max_bytes <= 0:
            return encode(render_events(table, table.events[last_seq:], seat, view=False))
        journal = self._tables.get(table.id)
        if journal is None or not journal.current(table):
            if journal is not None:
                self.size -= journal.size
            journal = self._tables[table.id] = _Journal(table)
        self._tables.move_to_end(table.id)
        before = journal.size
        texts = journal.texts(table, seat)
        text = "[" + ",".join(texts[last_seq:]) + "]"
        self.size += journal.size - before
        while self.size > self.max_bytes and self._tables:
            _, dropped = self._tables.popitem(last=False)
            self.size -= dropped.size
        return text


TABLE_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""What a table id can be: the server makes them (URL-safe base64 of random bytes, or hex in tests)."""

POLICY_VIOLATION: Final = 1008
"""The websocket close code (RFC 6455) of a connection refused for its address's caps or request rate."""

TRY_AGAIN_LATER: Final = 1013
"""The websocket close code (RFC 6455, "try again later") of a connection refused because the server is full."""

FAST_LEVELS = frozenset({"random", "rules"})
"""Bot levels that decide in milliseconds; the others search, and get a pool of their own."""

HINT_LEVEL = "expert"
"""The bot whose decision a ``hint`` gives, from the asking seat's observation alone: the strongest level, as in the
terminal game (:data:`mizerka.tui.model.HINT_LEVELS`).  It decides in about a tenth of a second (p90 0.14 s on one
core, ``benchmarks/bots.py``), in the searching bots' pool."""


class OutboundCount:
    """The characters of the messages queued for the websocket connections and not yet sent, per client address
    (:func:`address_key`), against two caps: one per connection, one per address.

    A message is queued at once, whatever its size (a ``sync`` from the start of a long match is some 200,000
    characters for a request of 30), and sent when the client takes it.  Counted in messages alone, a client that
    asked and never read made the server hold hundreds of megabytes per connection.  Each :class:`Client` counts
    its own characters and charges them here too, so that one address's connections together stay under their
    cap; what is sent, or left when the connection ends, is given back.

    >>> count = OutboundCount(per_connection=100, per_address=150)
    >>> count.charge("a", held=0, size=80), count.charge("a", held=80, size=30)  # one connection of address a
    (None, 'connection')
    >>> count.charge("a", held=0, size=80), count.charge("b", held=0, size=80)  # another of a; one of b
    ('address', None)
    >>> count.release("a", 80); count.by_address
    {'b': 80}
    """

    def __init__(self, per_connection: int, per_address: int) -> None:
        self.per_connection, self.per_address = per_connection, per_address
        self.by_address: dict[str, int] = {}  # only addresses that hold something

    def charge(self, key: str, held: int, size: int, *, per_address: bool = True
               ) -> Literal["connection", "address"] | None:
        """Count *size* more characters queued for a connection from *key* that holds *held* already; or, past a
        cap, say which one (and count nothing).  Without *per_address* only the connection's cap applies (the
        characters are counted all the same)."""
        if held + size > self.per_connection:
            return "connection"
        total = self.by_address.get(key, 0) + size
        if per_address and total > self.per_address:
            return "address"
        self.by_address[key] = total
        return None

    def release(self, key: str, size: int) -> None:
        """*size* characters charged for *key* are sent, or no longer held (never more than were charged)."""
        left = self.by_address.get(key, 0) - size
        if left > 0:
            self.by_address[key] = left
        else:
            self.by_address.pop(key, None)


class Client:
    """One websocket connection: its seat at one table (or none), an outbound queue, a rate limiter.

    The queue is bounded in characters (``max_queued`` for the connection, ``max_queued_per_address`` for its
    address's connections together: :class:`OutboundCount`) and in messages (4096): a message that would pass a
    bound drops the client (:meth:`drop`).  A client that does not read is dropped, never waited for.  The
    connection's sender calls :meth:`sent` for each message the transport has taken, and its end :meth:`release`.
    """

    def __init__(self, config: ServerConfig, host: str | None = None, outbound: OutboundCount | None = None, *,
                 limit_address: bool = True) -> None:
        self.id = secrets.token_hex(4)
        self.host = host  # the client's address (None: unknown, a Unix socket), for the per-address request budget
        self.live: LiveTable | None = None
        self.seat: int | None = None
        self.token_hash: str | None = None  # the credential that gave it the seat (checked again on leave)
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=4096)
        self.queued = 0  # the characters in the queue (and in the send under way), not yet taken by the transport
        self.outbound = outbound or OutboundCount(config.max_queued, config.max_queued_per_address)
        self._key = address_key(host)
        self._limit_address = limit_address
        self._released = False
        self.last_seen = time.monotonic()
        self.closed = False
        # set when the client is dropped (:meth:`drop`): the connection ends at once, and its reader waits for this
        # beside its client's next message, which may never come
        self.cut = asyncio.Event()
        self._rate = config.rate
        self._burst = config.burst
        self._tokens = config.burst
        self._stamp = time.monotonic()
        self._last_limited = 0.0
        self._refused = 0  # messages the rate limit refused since its last notice (at most a second ago)

    def send(self, message: dict[str, Any] | str) -> None:
        """Queue *message* for the client; one that would pass a bound of the queue drops the client instead."""
        if self.closed:
            return
        text = message if isinstance(message, str) else encode(message)
        over = self.outbound.charge(self._key, self.queued, len(text), per_address=self._limit_address)
        if over is not None:
            self.drop(f"{self.queued} characters queued, past the {over}'s cap")
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.outbound.release(self._key, len(text))
            self.drop(f"{self.queue.qsize()} messages queued")
            return
        self.queued += len(text)

    def sent(self, text: str) -> None:
        """The transport has taken *text*, a message of the queue: it no longer counts."""
        if not self._released:
            self.queued -= len(text)
            self.outbound.release(self._key, len(text))

    def release(self) -> None:
        """The connection is over: what it still had queued is thrown away and given back (once; a message the
        sender took meanwhile is not given back twice)."""
        if self._released:
            return
        self._released = self.closed = True
        while not self.queue.empty():
            self.queue.get_nowait()
        self.outbound.release(self._key, self.queued)
        self.queued = 0

    @property
    def dropped(self) -> bool:
        """Whether the client was dropped (:meth:`drop`), not closed."""
        return self.cut.is_set()

    def close(self) -> None:
        """Close once what is queued is sent (the sender sends it, then closes the connection).  A client that does
        not take it is cut by the connection's send timeout (:class:`mizerka.server.command.WriteDeadlines`)."""
        if not self.closed:
            self.closed = True
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.put_nowait(None)

    def drop(self, why: str) -> None:
        """Close at once: a client that does not read what it is sent is dropped, never waited for.  What is queued
        is thrown away and given back, and the connection ends: its reader stops waiting for the client's next
        message (:attr:`cut`), and its sender, stuck in a send the client never takes, is stopped."""
        if self.closed and self._released:
            return
        log.warning("websocket dropped: its client does not read (%s)", why)
        self.closed = True
        self.cut.set()
        self.release()
        self.queue.put_nowait(None)

    def allow(self, size: int) -> bool:
        """Charge one message of *size* bytes to the token bucket; ``False`` if it is over the limit."""
        now = time.monotonic()
        self._tokens = min(self._burst, self._tokens + (now - self._stamp) * self._rate)
        self._stamp = now
        cost = 1.0 + size / 1024
        if self._tokens >= cost:
            self._tokens -= cost
            return True
        return False

    def limited_notice(self) -> bool:
        """Whether to tell the client it was rate-limited (at most once a second, not once per frame); called for
        each message the rate limit refuses."""
        self._refused += 1
        now = time.monotonic()
        if now - self._last_limited >= 1.0:
            self._last_limited = now
            self._refused = 1
            return True
        return False

    def pause(self) -> float:
        """Seconds the connection's reader takes no next message: :data:`FLOOD_PAUSE` once the rate limit has
        refused more than :data:`FLOOD_REFUSED` of its messages within a second (a client sending as fast as it
        can), else 0.

        Refused messages cost the server little each, but a client that sends without pause sends without end:
        one such connection, each of its frames read, parsed and refused, took a core (a test client sent 190,000
        pings a second: every table's actions slowed by half, a ping's answer from 1 ms to 160 ms).  Not read,
        its frames wait in the network's buffers, and its own sends stall: the flood costs the server nothing.  A
        client that sends a little over the rate, now and then, is never paused (its messages past the rate are
        refused, as before)."""
        if self._refused > FLOOD_REFUSED:
            self._refused = 0
            return FLOOD_PAUSE
        return 0.0


def address_key(host: str | None) -> str:
    """The key under which the per-address caps count a client: its IP address; an IPv6 one by its ``/64``
    network (a host, or a home, is given a whole ``/64``: counted address by address, one machine could pass
    any cap); ``""`` when the server does not know the address (a Unix socket).

    >>> address_key("203.0.113.7"), address_key("::ffff:203.0.113.7"), address_key(None)
    ('203.0.113.7', '203.0.113.7', '')
    >>> address_key("2001:db8:1:2:3:4:5:6")
    '2001:db8:1:2::/64'
    """
    if not host:
        return ""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


def is_local(host: str | None) -> bool:
    """Whether a client connects from this machine: a loopback address, or a Unix socket (no address).

    >>> is_local("127.0.0.1"), is_local("::1"), is_local("::ffff:127.0.0.1"), is_local(None)
    (True, True, True, True)
    >>> is_local("203.0.113.7"), is_local("::ffff:203.0.113.7"), is_local("testclient")
    (False, False, False)
    """
    if not host:
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped.is_loopback  # an IPv4 client of a server bound to "::"
    return address.is_loopback


class RequestBudget:
    """A token bucket per client address: *rate* requests a second on average, *burst* at once (*rate* 0: no
    limit).  A bucket that has filled up again is forgotten (it is the same as a new one), so the table of
    buckets holds only the addresses seen lately, however many there were.

    >>> budget = RequestBudget(rate=1.0, burst=2.0)
    >>> [budget.charge("a", now=10.0) for _ in range(3)]
    [0.0, 0.0, 1.0]
    >>> budget.charge("a", now=11.0), budget.charge("b", now=11.0)
    (0.0, 0.0)
    """

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = max(1.0, burst)
        self._buckets: dict[str, tuple[float, float]] = {}  # address → (tokens, when they were counted)
        self._prune_at = 1024

    def charge(self, key: str, now: float | None = None) -> float:
        """Take one request from *key*'s bucket: 0.0 if it may go ahead, else the seconds until it may."""
        if self.rate <= 0:
            return 0.0
        now = time.monotonic() if now is None else now
        tokens, stamp = self._buckets.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + max(0.0, now - stamp) * self.rate)
        if tokens >= 1.0:
            self._buckets[key] = (tokens - 1.0, now)
            if len(self._buckets) >= self._prune_at:
                self._prune(now)
            return 0.0
        self._buckets[key] = (tokens, now)
        return (1.0 - tokens) / self.rate

    def _prune(self, now: float) -> None:
        self._buckets = {k: (tokens, stamp) for k, (tokens, stamp) in self._buckets.items()
                         if tokens + (now - stamp) * self.rate < self.burst}
        self._prune_at = max(1024, 2 * len(self._buckets))

    def __len__(self) -> int:
        return len(self._buckets)


class ConnectionCount:
    """The open websocket connections, in all and per client address (see :func:`address_key`).

    >>> count = ConnectionCount(total=3, per_address=2)
    >>> [count.admit("a") for _ in range(3)]
    [None, None, 'address']
    >>> count.admit("b"), count.admit("c")
    (None, 'total')
    >>> count.release("a"); count.release("a"); count.total, count.by_address
    (1, {'b': 1})
    """

    def __init__(self, total: int, per_address: int) -> None:
        self.cap, self.per_address = total, per_address
        self.total = 0
        self.by_address: dict[str, int] = {}

    def admit(self, key: str, *, per_address: bool = True) -> Literal["total", "address"] | None:
        """Count one more connection from *key*; or, past a cap, say which one (and count nothing).  Without
        *per_address* only the total cap applies."""
        if self.total >= self.cap:
            return "total"
        held = self.by_address.get(key, 0)
        if per_address and held >= self.per_address:
            return "address"
        self.total += 1
        self.by_address[key] = held + 1
        return None

    def release(self, key: str) -> None:
        """One connection from *key* is gone (call once for each :meth:`admit` that counted it)."""
        held = self.by_address.get(key, 0)
        if held <= 0:
            return
        self.total -= 1
        if held == 1:
            del self.by_address[key]
        else:
            self.by_address[key] = held - 1


class LiveTable:
    """A table in memory with its clients, its lock and its timers."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.lock = asyncio.Lock()
        self.clients: set[Client] = set()
        self.grace: dict[int, asyncio.TimerHandle] = {}
        self.bot_seq = -1
        self.timer: asyncio.TimerHandle | None = None
        self.timer_for: tuple[int, int, int] | None = None  # the (event number, journal epoch, seat) it times
        self.last_activity = time.monotonic()
        self.tasks: set[asyncio.Task[None]] = set()
        self.chat = ChatRoom()  # its last messages; each is stored too (a table read back gets them: restore)
        # a finished table read back from the database for a hello (Hub._live_for_hello): a cap and an idle time of
        # its own (ServerConfig.max_read_back, read_back_idle), not counted against max_tables
        self.read_back = False

    def connected(self) -> set[int]:
        return {c.seat for c in self.clients if c.seat is not None}


class Hub:
    """Every open table and every connection; the REST API and the websocket call into it."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.tables: dict[str, LiveTable] = {}
        self.store: Store | None = None
        self.pool: Workers | None = None
        self.slow_pool: Workers | None = None
        self._rng = random.Random(config.seed) if config.seed is not None else None
        self._cleanup: asyncio.Task[None] | None = None
        self._gc: asyncio.Task[None] | None = None
        self.started = time.time()
        self.loop: asyncio.AbstractEventLoop | None = None
        # the solver's worker processes: the deal-end double-dummy values (when dd_limit > 0) and the reviews
        self.solvers: DoubleDummy | None = None
        self.rate = EventRate()
        self.dd_skipped = 0
        self.reviews_run = 0  # analyses started for reviews (a cached or shared one is not counted again)
        self._reviews: OrderedDict[tuple[str, int], tuple[ReviewResult, float]] = OrderedDict()
        self._reviewing: dict[tuple[str, int], asyncio.Task[ReviewResult]] = {}
        self.catch_up = CatchUpCache(config.catch_up_cache)  # the events' texts the catch-ups send
        self.connections = ConnectionCount(config.max_connections, config.max_connections_per_address)
        self.outbound = OutboundCount(config.max_queued, config.max_queued_per_address)
        self.requests = RequestBudget(config.request_rate, config.request_burst)
        # the standings of the players of rated tables (mizerka.server.players): this process is the only writer
        # of the ratings, so the copy it keeps is the truth; a rated match rates from it, one after the other
        self.standings: dict[str, Standing] = {}
        # profiles deleted (or being deleted) by this process: from the moment a delete begins, no seat is taken
        # under them and no match rates them, whatever was read from the database before it ended
        self.closed_players: set[str] = set()
        # finished tables being read back from the database for a hello (:meth:`_live_for_hello`), by id: two hellos
        # at one table share one read, and one table object
        self._loading: dict[str, asyncio.Task[tuple[Table, list[dict[str, Any]]]]] = {}
        # the finished tables read back for a hello (LiveTable.read_back) that self.tables holds, by id
        self.read_back: dict[str, LiveTable] = {}
        # tables being created (create_table: its database write is awaited), counted against max_tables
        self._creating = 0
        self._pairing = asyncio.Lock()  # quick pairings one at a time: two at once find the same table (pair())

    # -- life cycle ---------------------------------------------------------------------------------

    async def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.store = await asyncio.to_thread(Store, self.config.database)
        self.pool = await asyncio.to_thread(self._make_pool, self.config.bot_workers, "bot")
        self.slow_pool = await asyncio.to_thread(self._make_pool, self.config.slow_bot_workers, "slow-bot")
        if self.config.dd_limit > 0 or self.config.review_limit > 0:
            self.solvers = DoubleDummy(self.config.dd_limit, self.config.dd_workers)
        for table in await asyncio.to_thread(self.store.load_active):
            self.tables[table.id] = LiveTable(table)
        with_chat = [table_id for table_id, live in self.tables.items() if live.table.settings.chat]
        for table_id, messages in (await asyncio.to_thread(self.store.chat_history, with_chat, CHAT_HISTORY)).items():
            self.tables[table_id].chat.restore(messages)  # the chat goes on where it was, its numbers too
        log.info("resumed %d tables", len(self.tables))
        for live in self.tables.values():
            self._warm_for(live.table)
        for live in self.tables.values():  # rated matches play on unwatched (see _schedule): no one to wait for
            if live.table.settings.rated and live.table.status == "playing":
                self._schedule(live)
        self._cleanup = asyncio.create_task(self._cleanup_loop())
        if self.config.gc_freeze:
            self._gc = asyncio.create_task(self._gc_loop())

    def _make_pool(self, workers: int, name: str) -> Workers:
        if self.config.bot_pool == "process":
            return ProcessWorkers(workers, name, warm=name == "slow-bot")
        return ThreadWorkers(workers, name)

    def _warm_for(self, table: Table) -> None:
        """Have the searching bots' pool build the tables their first decisions under *table*'s rules need, if
        a searching bot sits there or the table gives hints (:data:`HINT_LEVEL`), the match has started (made
        full, the last seat taken, a ``fill``, or resumed in play: a table that waits may never start, and making
        tables must not be a way to keep the bots' processes busy) and the rules are not the standard game's
        (which the pool warms when it starts): else the first contract choice of each worker at that variant
        builds them inside the bot's time budget.
        It returns at once (:meth:`~mizerka.server.workers.ProcessWorkers.warm`); a refusal is logged, and the
        table plays on as it would have without it."""
        if self.slow_pool is None or table.rules == STANDARD or table.status != "playing":
            return
        searching = any(seat.kind == "bot" and seat.level not in FAST_LEVELS for seat in table.seats)
        if not searching and not table.settings.hints:  # hints are the searching bots' decisions too
            return
        try:
            self.slow_pool.warm(table.rules)
        except Exception as error:
            log.warning("table %s: the bots could not warm up for its rules (%s)", table.id, error)

    def pool_for(self, level: str) -> Workers:
        """The worker pool of a bot level: the searching bots have their own, so they never hold up the others."""
        pool = self.pool if level in FAST_LEVELS else self.slow_pool
        assert pool is not None, "the hub is not started"
        return pool

    def halt_analyses(self) -> None:
        """Kill the double-dummy analyses and reviews running, and start none again: called as the server begins
        to stop (before its open requests are waited for), so that a request waiting for a review's analysis is
        answered at once (``busy``) instead of holding the shutdown up for ``review_limit`` seconds a review."""
        if self.solvers is not None:
            self.solvers.stop()

    async def stop(self) -> None:
        for task in (self._cleanup, self._gc):
            if task is not None:
                task.cancel()
        for live in self.tables.values():
            for task in list(live.tasks):
                task.cancel()
            for client in list(live.clients):
                client.close()
        for review in list(self._reviewing.values()):
            review.cancel()
        for pool in (self.pool, self.slow_pool):
            if pool is not None:
                pool.stop()
        if self.solvers is not None:
            self.solvers.stop()
        if self.store is not None:
            if self.store.inline:
                self.store.flush()  # what is queued now is committed before the store closes
            await asyncio.to_thread(self.store.close)

    def _store(self) -> Store:
        assert self.store is not None, "the hub is not started"
        return self.store

    def _new_id(self) -> str:
        if self._rng is not None:
            return f"{self._rng.getrandbits(64):016x}"
        return secrets.token_urlsafe(12)

    def _seed(self) -> int | None:
        return self._rng.getrandbits(32) if self._rng is not None else None

    # -- the write path -----------------------------------------------------------------------------

    async def _commit(self, live: LiveTable, events: list[Event]) -> None:
        """Store *events* (the table's lock is held), then broadcast them and schedule what comes next."""
        if not events:
            return
        table = live.table
        rated = self._rate(table) if any(e.kind == "match_end" for e in events) and table.settings.rated else None
        before = {}
        if rated is not None:  # at once, not after the write: a match ending meanwhile rates from these
            before = {player: self.standings.get(player) for player in rated[1]}
            self.standings.update(rated[1])
        try:
            await self._store().write(self._store().append_op(table, events, rated=rated))
        except Exception:
            if rated is not None:  # not stored: forget the new standings (the table is reloaded without its end)
                try:
                    self.standings.update(await asyncio.to_thread(self._store().standings, list(rated[1])))
                except Exception:  # the database cannot be read either: the standings as they were before
                    for player, standing in before.items():
                        if standing is None:
                            self.standings.pop(player, None)
                        else:
                            self.standings[player] = standing
            log.exception("table %s: storing events %d-%d failed; reloading", table.id, events[0].seq, events[-1].seq)
            live.table = await self._reload(table, table.events[:events[0].seq - 1], table.epoch)
            # whoever was to act is asked again (a bot's decision, a stand-in whose grace ran out were lost with
            # the write): a moment later, so that a database that is down is not asked in a loop
            live.bot_seq = -1
            self._stop_timer(live)
            asyncio.get_running_loop().call_later(COMMIT_RETRY, self._schedule_if_open, live)
            raise TableError("internal", "the server could not store this; nothing changed") from None
        live.last_activity = time.monotonic()
        self.rate.add(len(events))
        if log.isEnabledFor(logging.INFO):
            for event in events:  # logs show what a spectator may see, nothing more
                log.info("table %s event %d %s", table.id, event.seq, json.dumps(event.render(None)))
        self._broadcast(live, events)
        self._schedule(live)
        for event in events:
            if event.kind != "deal_end":
                continue
            if self.solvers is not None and self.config.dd_limit > 0 and not self._busy():
                self._spawn(live, self._double_dummy(live, event.deal_no))
                continue
            # every deal_end gets its dd message, if only to say there will be none (the browser shows "…" until
            # it comes); sent once the caller's ack is out, as an analysis's answer would be
            if self.solvers is None or self.config.dd_limit <= 0:
                reason = "off"
            else:
                self.dd_skipped += 1  # the server is busy with play: no analysis this time
                reason = "busy"
            asyncio.get_running_loop().call_soon(self._send_dd, live, event.deal_no, None, reason)

    async def _reload(self, table: Table, stored: Sequence[Event], epoch: int) -> Table:
        """*table* as the database holds it, after a write of its failed: read back from the database, or, when
        that fails too (the database is down), rebuilt in memory from *stored*, the journal as it was before the
        failed write (*epoch* its epoch).  Without the rebuild, the table in memory kept the events that were never
        stored: they reached whoever synced or said hello, a later write stored the events after them and left a
        gap in the journal (a table that no longer replays after a restart), and a bot's turn was never asked
        again."""
        try:
            reloaded = await asyncio.to_thread(self._store().load, table.id)
        except Exception as error:
            log.error("table %s: reading it back failed too (%s); rebuilt from its %d stored events", table.id,
                      type(error).__name__, len(stored))
            reloaded = None
        if reloaded is not None:
            return reloaded
        rebuilt = Table.from_row(table.to_row())
        rebuilt.epoch = epoch
        rebuilt.replay(stored)
        rebuilt.dd.update(table.dd)  # kept in memory only, as the rematch wishes
        rebuilt.rematch_votes = set(table.rematch_votes)
        return rebuilt

    def _rate(self, table: Table) -> tuple[list[SeatResult], dict[str, Standing]]:
        """The results and new ratings of a rated match that has just ended (written with its last event).

        A seat whose profile is gone (deleted after its player gave the seat up) plays the part of a new player:
        the others are rated against a fresh rating there, and nothing is stored for it."""
        match = table.match
        assert match is not None
        ids = [None if s.kind == "human" and s.player in self.closed_players
               else s.player if s.kind == "human" else bot_id(s.level) for s in table.seats]
        missing = [i for i in ids if i is not None and i not in self.standings]
        if missing:  # a resumed table's players (a restart empties the copy): read them once
            self.standings.update(self._store().standings(missing))
        standings = dict(self.standings)
        players = []
        for seat, player in enumerate(ids):
            if player is None or player not in standings:
                player = f" seat {seat}"  # no id: a name key never starts with a space (name_key), a bot's with "bot:"
                standings[player] = Standing(player, "", "human")
            players.append(player)
        deal_scores = []
        for deal in match.deals:
            scores = deal.scores()
            deal_scores.append([scores[i] if i in deal.active_seats else None for i in range(len(table.seats))])
        results, after = rate_match(players, standings, match.totals, deal_scores)
        return ([r for r in results if not r.player.startswith(" ")],
                {p: s for p, s in after.items() if not p.startswith(" ")})

    # -- players (REST) -----------------------------------------------------------------------------

    async def create_player(self, name: str) -> tuple[Standing, str]:
        """A new profile named *name*, and its secret key (given out only here).

        Raises:
            TableError: ``bad_name`` (:func:`~mizerka.server.players.check_name`); ``name_taken``.
        """
        name, player_id = check_name(name)
        key = secrets.token_urlsafe(32)
        standing = await asyncio.to_thread(self._store().create_player, player_id, name, hash_token(key))
        self.standings[standing.id] = standing
        return standing, key

    async def profile(self, key: str) -> Standing:
        """The profile of a player key.

        Raises:
            TableError: ``bad_key`` for a key no profile has.
        """
        standing = await asyncio.to_thread(self._store().player_by_key, hash_token(key))
        if standing is None or standing.id in self.closed_players:  # read before a delete that ended meanwhile
            raise TableError("bad_key", "no profile has this player key on this server")
        return self.standings.get(standing.id, standing)

    async def _seat_name(self, name: str | None, player_key: str | None) -> tuple[str, str | None]:
        """The name a seat is taken under and its profile's id: *name*, or the profile of *player_key* (a *name*
        given too must be the profile's, ignoring case).

        Raises:
            TableError: ``bad_key``; ``bad_name`` for another name than the profile's (``reason``
            ``name_not_profile``), or neither name nor key (``name_needed``).
        """
        if player_key is not None:
            standing = await self.profile(player_key)
            if name is not None and name_key(name) != standing.id:
                raise TableError("bad_name", f"this player key is {standing.name!r}'s, not {name[:60]!r}'s",
                                 {"code": "name_not_profile", "profile": standing.name})
            if standing.id in self.closed_players:  # deleted while the key was being looked up
                raise TableError("bad_key", "no profile has this player key on this server")
            self.standings.setdefault(standing.id, standing)
            return standing.name, standing.id
        if name is None:
            raise TableError("bad_name", "a name is needed to take a seat (or a player key)", {"code": "name_needed"})
        return name, None

    async def _profile_lives(self, player: str | None) -> bool:
        """Whether *player* names a profile that exists (not deleted)."""
        if player is None or player in self.closed_players:
            return False
        return player in self.standings or await asyncio.to_thread(self._store().player, player) is not None

    async def delete_player(self, key: str) -> None:
        """Delete the profile of a player key, with its results (its name stays taken: :meth:`Store.delete_player`).

        Raises:
            TableError: ``bad_key``; ``seated`` while the profile holds a seat at a table not over.
        """
        standing = await self.profile(key)
        for live in self.tables.values():
            table = live.table
            if table.status in ("waiting", "playing") and any(
                    s.player == standing.id and s.token_hash is not None for s in table.seats):
                raise TableError("seated", f"this profile holds a seat at table {table.id}, whose match is not over: "
                                           "finish it, or leave the seat, first", fields={"table": table.id})
        # closed from now on: a join that read the key before, and a match given up by it that ends during the
        # write, must not bring it back into the standings (nor store a result for it after the delete)
        self.closed_players.add(standing.id)
        try:
            await asyncio.to_thread(self._store().delete_player, standing.id)
        except BaseException:
            self.closed_players.discard(standing.id)
            raise
        self.standings.pop(standing.id, None)
        # the seats it gave up, and those of finished tables still here: no profile's any more (a restart replays
        # the old id into a given-up seat; the id is never another player's, and rating finds no profile under it,
        # so it treats the seat as _rate says; a rematch refuses it)
        for live in self.tables.values():
            for seat in live.table.seats:
                if seat.player == standing.id:
                    seat.player = None
                    live.table.seat_version += 1  # the views' players list is cached by this version

    async def player(self, player_id: str) -> Standing:
        """The standing of a profile or bot level by its id or name (ignoring case).

        Raises:
            TableError: ``unknown_player``.
        """
        if not player_id.isprintable():  # no profile's id holds a control character (PostgreSQL refuses a NUL)
            raise TableError("unknown_player", f"no player {player_id[:60]!r} on this server")
        key = name_key(player_id)
        standing = self.standings.get(key)
        if standing is None:
            standing = await asyncio.to_thread(self._store().player, key)
        if standing is None:
            raise TableError("unknown_player", f"no player {player_id[:60]!r} on this server")
        return standing

    async def _double_dummy(self, live: LiveTable, deal_no: int) -> None:
        """Analyse a finished deal and send everyone at the table its double-dummy values (or why not)."""
        table = live.table
        assert self.solvers is not None and table.match is not None
        deal = table.match.deals[deal_no - 1]
        try:
            values, reason = await self.solvers.analyse(deal)
        except Exception:
            log.exception("table %s: double-dummy analysis of deal %d failed", table.id, deal_no)
            values, reason = None, "error"
        self._send_dd(live, deal_no, values, reason)

    def _busy(self) -> bool:
        """Whether the server is busy with play (``dd_busy_rate``): no double-dummy analysis, no review's."""
        return bool(self.config.dd_busy_rate) and self.rate.per_second() > self.config.dd_busy_rate

    async def review_analysis(self, table_id: str, record: MatchRecord, deal_no: int) -> ReviewResult:
        """Every card of finished deal *deal_no* of table *table_id* judged by the solver, for its review:
        the analysis and ``ok``, or ``None`` and why not (``off``, ``timeout``, ``busy``, ``error``).

        *record* gives the deal in full (the caller checked who may have it).  A finished deal never changes,
        so an analysis is kept (:attr:`ServerConfig.review_cache` of them, the least recently used dropped
        first; a failed one for :data:`REVIEW_RETRY_AFTER` seconds), and requests for a deal whose analysis is
        running wait for that one.
        """
        if self.config.review_limit <= 0 or self.solvers is None:
            return None, "off"
        key = (table_id, deal_no)
        kept = self._reviews.get(key)
        if kept is not None:
            result, expires = kept
            if expires > time.monotonic():
                self._reviews.move_to_end(key)
                return result
            del self._reviews[key]
        task = self._reviewing.get(key)
        if task is None:
            if self._busy():
                return None, "busy"
            task = asyncio.create_task(self._review(key, record, deal_no))
            self._reviewing[key] = task
            task.add_done_callback(lambda _t: self._reviewing.pop(key, None))
        # shielded: a request that goes away does not cancel the analysis that other requests wait for
        return await asyncio.shield(task)

    async def _review(self, key: tuple[str, int], record: MatchRecord, deal_no: int) -> ReviewResult:
        assert self.solvers is not None
        self.reviews_run += 1
        try:
            analysis, reason = await self.solvers.review(record, deal_no, self.config.review_limit)
        except Exception:
            log.exception("table %s: the review analysis of deal %d failed", key[0], deal_no)
            analysis, reason = None, "error"
        result: ReviewResult = (analysis, "ok") if analysis is not None else (None, reason or "error")
        if result[1] != "busy":
            keep = math.inf if result[1] == "ok" else time.monotonic() + REVIEW_RETRY_AFTER
            self._reviews[key] = (result, keep)
            self._reviews.move_to_end(key)
            while len(self._reviews) > max(self.config.review_cache, 0):
                self._reviews.popitem(last=False)
        return result

    def _send_dd(self, live: LiveTable, deal_no: int, values: dict[str, Any] | None, reason: str | None) -> None:
        live.table.dd[deal_no] = values
        if values is None:  # kept for the score sheet, so that a client that missed this message learns why
            live.table.dd_reason[deal_no] = reason or "error"
        message = encode({"type": "dd", "deal_no": deal_no, "dd": values, "reason": reason})
        for client in list(live.clients):
            client.send(message)

    def _broadcast(self, live: LiveTable, events: Sequence[Event]) -> None:
        connected = live.connected()
        rendered: dict[int | None, list[str]] = {}
        for client in list(live.clients):
            seat = client.seat
            texts = rendered.get(seat)
            if texts is None:
                texts = rendered[seat] = [encode(m) for m in render_events(live.table, events, seat, connected)]
            for text in texts:
                client.send(text)

    def _presence(self, live: LiveTable, seat: int, connected: bool) -> None:
        for client in list(live.clients):
            client.send({"type": "presence", "seat": seat, "connected": connected})

    def _schedule_if_open(self, live: LiveTable) -> None:
        """:meth:`_schedule`, unless the table has been closed and unloaded meanwhile."""
        if self.tables.get(live.table.id) is live:
            self._schedule(live)

    @staticmethod
    def _stop_timer(live: LiveTable) -> None:
        if live.timer is not None:
            live.timer.cancel()
        live.timer, live.timer_for = None, None

    def _schedule(self, live: LiveTable) -> None:
        """Start the bot (or the turn timer) for whoever is to act.  Nobody connected: the table pauses (its turn
        timer too), except a rated match, which plays on unwatched.

        A turn timer runs once per decision: called again for the same position (a spectator's hello, a
        reconnection, another seat's stand-in), it leaves the running timer alone, so the human to move cannot
        put it off for ever."""
        table = live.table
        seat = table.to_move
        # a rated match plays on without anyone watching: leaving, or closing the page, does not escape its result
        if seat is None or (not live.clients and not (table.settings.rated and table.status == "playing")):
            self._stop_timer(live)
            return
        seq = table.seq
        if table.seats[seat].bot_plays:
            self._stop_timer(live)
            if live.bot_seq != seq:
                live.bot_seq = seq
                self._spawn(live, self._bot_turn(live, seat, seq, self.config.bot_delay, auto=False))
            return
        if seat not in live.connected() and seat not in live.grace:  # a human who is not here: grace, then a bot
            live.grace[seat] = asyncio.get_running_loop().call_later(
                self.config.grace, lambda: self._spawn(live, self._away(live, seat))
            )
        decision = (seq, table.epoch, seat)
        if not table.settings.turn_timer:
            self._stop_timer(live)
        elif live.timer_for != decision:
            self._stop_timer(live)

            def out_of_time() -> None:
                live.timer, live.timer_for = None, None  # spent: if its move fails, a later call may start another
                self._spawn(live, self._bot_turn(live, seat, seq, 0.0, auto=True))

            live.timer_for = decision
            live.timer = asyncio.get_running_loop().call_later(table.settings.turn_timer, out_of_time)
            message = self._timer_message(live)
            for client in list(live.clients):  # each connection's clock runs from the server's deadline
                client.send(message)

    @staticmethod
    def _timer_message(live: LiveTable) -> dict[str, Any]:
        """The running turn timer as a ``timer`` message: whose decision (``seat``, at event ``seq`` of journal
        ``epoch``) and the seconds ``left`` until a bot decides for them, from the server's own deadline."""
        assert live.timer is not None and live.timer_for is not None
        seq, epoch, seat = live.timer_for
        left = max(0.0, live.timer.when() - asyncio.get_running_loop().time())
        return {"type": "timer", "seat": seat, "seq": seq, "epoch": epoch, "left": round(left, 3)}

    def _spawn(self, live: LiveTable, coro: Any) -> None:
        task = asyncio.create_task(coro)
        live.tasks.add(task)
        task.add_done_callback(live.tasks.discard)

    async def _bot_turn(self, live: LiveTable, seat: int, seq: int, delay: float, *, auto: bool) -> None:
        """Ask the bot of *seat* (or, *auto*, the rules bot for a human out of time) for its decision at event
        *seq*, and play it once *delay* seconds have passed since the question, if the table is still where it was:
        the same table object, event number, seat to move, and journal epoch (an undo can bring a table back to the
        same event number in another position: the decision asked for before it belongs to the old one)."""
        table = live.table
        epoch = table.epoch
        if table.seq != seq or table.match is None or table.to_move != seat:
            return
        loop = asyncio.get_running_loop()
        level = table.seats[seat].level
        observation = table.match.observation(seat)  # the bot sees its seat's observation, nothing more
        start = loop.time()
        action: Action | None = None
        try:
            decision = await self.pool_for(level).decide(level, observation, zlib.crc32(f"{table.id}:{seq}".encode()))
            action = decision.action
        except WorkerDied:
            log.error("table %s: the worker of bot %s at seat %d died; asking again", table.id, level, seat)
            live.bot_seq = -1
            loop.call_later(delay, self._schedule, live)
            return
        except Exception as error:
            # the type and the place only: the message may name a card of the bot's hand, and logs carry public
            # information only
            cause = error.__cause__ or error  # the bot's own error, under the pool's WorkerError
            frames = traceback.extract_tb(cause.__traceback__)
            place = f"{Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else "?"
            log.error("table %s: bot %s failed at seat %d (%s at %s); a stand-in plays for it", table.id, level,
                      seat, type(cause).__name__, place)
        rest = delay - (loop.time() - start)
        if rest > 0:
            await asyncio.sleep(rest)
        async with live.lock:
            if (live.table is not table or table.seq != seq or table.to_move != seat or table.match is None
                    or table.epoch != epoch):
                return
            reason = None if action is None else table.match.deal.illegal_reason(action)  # the engine checks all
            if reason is not None:
                # the reason may name a card of the bot's hand: logs carry public information only
                log.error("table %s: bot %s chose an illegal action (%s); a stand-in plays for it", table.id, level,
                          reason_code(reason)["code"])
            if action is None or reason is not None:  # the game goes on: the table does not wait for a bot
                action = stand_in(table.match)
            with contextlib.suppress(TableError):
                await self._commit(live, table.act(seat, action, auto=auto))

    # -- tables (REST) ------------------------------------------------------------------------------

    async def create_table(
        self, settings: TableSettings, seats: Sequence[SeatState], *, parent: str | None = None
    ) -> LiveTable:
        """A new table in memory and in the database (``POST /api/tables``, quick play, a rematch).

        ``max_tables`` counts the tables being created too (:attr:`_creating`): the place is taken before the
        database write is awaited and given back once the table is in :attr:`tables` (or the write failed), so
        that requests arriving together cannot all pass the check before any of them has added its table.

        Raises:
            TableError: ``server_full`` at the cap; the store's error when the write fails.
        """
        if self.open_tables() + self._creating >= self.config.max_tables:
            raise TableError("server_full", f"the server has {self.open_tables() + self._creating} open tables, its "
                                            "limit; try again later")
        self._creating += 1
        try:
            table = Table.new(self._new_id(), settings, seats, seed=self._seed(), parent=parent)
            table.maybe_start()
            self._warm_for(table)
            await self._store().write(self._store().insert_table_op(table))
            live = LiveTable(table)
            self.tables[table.id] = live
        finally:
            self._creating -= 1
        log.info("table %s created (%s, %s)", table.id, table.rules.spec(), settings.visibility)
        return live

    def open_tables(self) -> int:
        """The tables in memory that count against ``max_tables``: all but the finished ones read back for a hello
        (those have a cap of their own, ``max_read_back``)."""
        self._prune_read_back()
        return len(self.tables) - len(self.read_back)

    def _prune_read_back(self) -> None:
        """Forget the read-back tables that are no longer those :attr:`tables` holds (taken out by other means)."""
        gone = [table_id for table_id, live in self.read_back.items() if self.tables.get(table_id) is not live]
        for table_id in gone:
            del self.read_back[table_id]

    def get(self, table_id: str) -> LiveTable:
        live = self.tables.get(table_id)
        if live is None:
            raise TableError("unknown_table", f"no open table {table_id!r}")
        return live

    async def join(
        self, table_id: str, name: str | None, seat: int | None = None, player_key: str | None = None
    ) -> tuple[LiveTable, int, str]:
        """Seat a player at a table: under *name*, or, with a *player_key*, as its profile (a *name* given too
        must be the profile's, ignoring case).

        Raises:
            TableError: ``bad_key``, ``bad_name``, ``profile_needed`` (a rated table, no key), and
                :meth:`~mizerka.server.tables.Table.join`'s refusals.
        """
        live = self.get(table_id)
        if player_key is None and live.table.settings.rated:  # the reason, before the name is looked at
            live.table.check_profile(None)
        name, player = await self._seat_name(name, player_key)
        token = secrets.token_urlsafe(24)
        async with live.lock:
            # again under the lock: a delete of the profile may have begun while this join waited for it (the
            # delete saw no seat of the profile, so it does not refuse as seated: the join must)
            if player is not None and player in self.closed_players:
                raise TableError("bad_key", "no profile has this player key on this server")
            seat, events = live.table.join(name, token_hash=hash_token(token), seat=seat, player=player)
            self._warm_for(live.table)  # the last seat taken: the match starts, before the bots are asked
            await self._commit(live, events)
        return live, seat, token

    async def leave(self, table_id: str, token: str) -> LiveTable:
        live = self.get(table_id)
        async with live.lock:
            seat = live.table.seat_of_token(hash_token(token))
            if seat is None:
                raise TableError("bad_token", "this token holds no seat at this table")
            await self._leave_seat(live, seat)
        return live

    async def _leave_seat(self, live: LiveTable, seat: int) -> None:
        """The player at *seat* gives it up (``POST .../leave`` or the websocket's ``leave``; the table's lock is
        held): committed, his connections demoted, and, if he was the last one the others waited for to ask for a
        rematch, the rematch made (nobody is waited for who has left).

        The leave has taken effect once committed, so it is answered as done whatever becomes of the rematch: a
        rematch table that cannot be made (``server_full`` at ``max_tables``, ``internal``) is logged, and the
        wishes are dropped, with a fresh snapshot to every connection at the table, so that nobody waits for a
        rematch that is not coming: their views say nobody has asked, and a page that was waiting asks again and
        hears the reason (``server_full``), or a player asks again later."""
        await self._commit(live, live.table.leave(seat))
        await self._demote(live, seat)
        if live.table.rematch_ready():
            try:
                await self._make_rematch(live)
            except TableError as error:
                log.warning("table %s: seat %d left, and the rematch everyone else asked for could not be made "
                            "(%s); the wishes are dropped", live.table.id, seat, error.code)
                live.table.rematch_votes.clear()
                for client in list(live.clients):
                    client.send(self._catch_up("snapshot", live, client.seat, live.table.seq, None))

    async def _demote(self, live: LiveTable, seat: int) -> None:
        """The seat's token was given up: no connection holds the seat any longer, whichever one sent the leave
        (another connection with the same token would otherwise keep seeing the hand of whoever sits there next,
        and act for him).  The connections stay, as spectators; at a table that admits none they are taken off
        it (a later message gets ``not_joined``)."""
        for client in list(live.clients):
            if client.seat == seat:
                client.seat, client.token_hash = None, None
                if not live.table.settings.spectators:
                    await self.detach(client)

    async def quickplay(
        self, name: str | None, variant: str, level: str, *, player_key: str | None = None, rated: bool = False
    ) -> tuple[LiveTable, int, str]:
        """A new private table with the caller at seat 0 and two bots of *level*: rated (no hints, no undo) if
        asked, which needs the caller's *player_key*.

        Raises:
            TableError: ``profile_needed`` (rated without a key), and :meth:`join`'s refusals.
        """
        if rated and player_key is None:
            raise TableError("profile_needed", "a rated game needs a profile: claim a name first, and send its "
                                               "player key")
        display, _ = await self._seat_name(name, player_key)  # checked before the table is made: a bad key makes none
        seats = [SeatState.human(), SeatState.bot(level), SeatState.bot(level)]
        # chat off: nobody to talk to (bots never chat), so the page shows no chat panel
        settings = TableSettings(variant=variant, visibility="private", name=f"{display} vs bots", chat=False,
                                 rated=rated, hints=not rated)
        rules = settings.rules()
        if rules.n_seats != 3:
            seats += [SeatState.bot(level)] * (rules.n_seats - 3)
        return await self._join_new(await self.create_table(settings, seats), name, 0, player_key)

    async def _join_new(self, live: LiveTable, name: str | None, seat: int | None,
                        player_key: str | None) -> tuple[LiveTable, int, str]:
        """Seat the caller at the table just made for him (quick play, pairing); if that fails (the profile was
        deleted since it was checked), the table is closed: none is left waiting for nobody."""
        try:
            return await self.join(live.table.id, name, seat, player_key)
        except TableError:
            async with live.lock:
                await self._commit(live, live.table.close("abandoned"))
            self.tables.pop(live.table.id, None)
            raise

    async def pair(
        self, name: str | None, variant: str, *, player_key: str | None = None, rated: bool = False,
        table_name: str = ""
    ) -> tuple[LiveTable, int, str]:
        """Quick pairing with other people: a seat at the public table waiting for players under these rules
        (*variant*, *rated*) that has the most players already, among those where someone seated is connected;
        else, unrated, a seat the computer plays in a public match under way with someone at it (taken over); or,
        when there is none, at a new public table of human seats (named *table_name*), where the next caller will
        be seated.  The match begins when the last seat is taken (or its player fills the rest with bots).

        Pairings run one at a time (:attr:`_pairing`), so that two callers at once meet at one table instead of
        each making one and waiting.  A table whose every seated player has gone (no connection for
        :data:`PAIR_FRESH_SECONDS`) is passed over: nobody is paired with an empty chair.

        Raises:
            TableError: ``profile_needed`` (rated without a key), ``server_full``, and :meth:`join`'s refusals.
        """
        if rated and player_key is None:
            raise TableError("profile_needed", "a rated game needs a profile: claim a name first, and send its "
                                               "player key")
        _, player = await self._seat_name(name, player_key)  # checked before any table is made or joined
        settings = TableSettings(variant=variant, visibility="public", name=table_name, rated=rated, hints=not rated)
        rules = settings.rules()
        async with self._pairing:
            for live in self._pairing_candidates(rules.spec(), rated, player):
                try:
                    return await self.join(live.table.id, name, None, player_key)
                except TableError as error:  # taken or begun since it was looked at (a join by its link)
                    if error.code not in ("table_full", "seat_taken", "match_over", "unknown_table",
                                          "already_seated", "held_another_seat"):
                        raise
            live = await self.create_table(settings, [SeatState.human() for _ in range(rules.n_seats)])
            return await self._join_new(live, name, None, player_key)

    def _pairing_candidates(self, spec: str, rated: bool, player: str | None) -> list[LiveTable]:
        """The tables :meth:`pair` may seat a caller at, the best first: public, under rules *spec*, rated or not
        as asked, and no seat of the caller's profile there; then either

        * waiting, with a free seat, someone seated connected (or a seat taken or a connection gone less than
          :data:`PAIR_FRESH_SECONDS` ago: a page that has just sat down opens its websocket a moment later); the
          most players first, then the longest waiting;
        * or, after every waiting one, unrated and playing, with a seat the computer plays that may be taken over
          (:meth:`Table.can_take_over`) and a seated human connected, who is the "player" the caller is paired
          with; the match with the most deals still to play first.  A caller who finds nobody waiting plays with
          someone now, from where the computer is, rather than waiting alone at a new table."""
        waiting, playing = [], []
        for live in self.tables.values():
            table = live.table
            if (table.settings.visibility != "public" or table.settings.rated != rated or table.rules.spec() != spec
                    or (player is not None and any(seat.player == player for seat in table.seats))):
                continue
            if table.status == "waiting":
                fresh = time.monotonic() - live.last_activity < PAIR_FRESH_SECONDS
                if (live.connected() or fresh) and any(seat.is_open for seat in table.seats):
                    waiting.append(live)
            elif (table.status == "playing" and any(table.can_take_over(i) for i in range(len(table.seats)))
                    and any(table.seats[i].kind == "human" and not table.seats[i].bot_plays
                            for i in live.connected())):
                playing.append(live)
        # sorted() is stable: among equals the order of self.tables, the order they were opened
        return (sorted(waiting, key=lambda live: -sum(not seat.is_open for seat in live.table.seats))
                + sorted(playing, key=lambda live: live.table.deal_no))

    def list_public(self) -> list[Table]:
        """The public tables waiting or playing: the waiting ones (which a player can join) first, so that a page
        of the lobby's list shows them, then the playing ones; each in the order they were opened."""
        tables = [live.table for live in self.tables.values()
                  if live.table.settings.visibility == "public" and live.table.status in ("waiting", "playing")]
        return sorted(tables, key=lambda table: table.status != "waiting")

    async def find(self, table_id: str) -> Table | None:
        """A table in memory, or else from the database (finished and closed tables).  An id that no table can
        have (see :data:`TABLE_ID`) is not looked for: PostgreSQL refused one with a NUL character with an
        error, which became a 500 for ``GET /api/tables/%00``."""
        live = self.tables.get(table_id)
        if live is not None:
            return live.table
        if not TABLE_ID.fullmatch(table_id):
            return None
        table = await asyncio.to_thread(self._store().load, table_id)
        if table is not None:
            self._forget_deleted(table)
        return table

    def _forget_deleted(self, table: Table) -> None:
        """Make the seats of *table* (just read from the database) whose profile this process has deleted, or is
        deleting, no profile's, as :meth:`delete_player` does at the tables in memory: :meth:`Store.load` leaves out
        the profiles the database holds as deleted, but a delete still being written is known only here."""
        for seat in table.seats:
            if seat.player is not None and seat.player in self.closed_players:
                seat.player = None
                table.seat_version += 1

    # -- websocket ----------------------------------------------------------------------------------

    def exempt(self, host: str | None) -> bool:
        """Whether the per-address caps spare a client at *host*: one on this machine is, unless
        ``limit_loopback`` is set (see :class:`ServerConfig`)."""
        return not self.config.limit_loopback and is_local(host)

    def charge_request(self, host: str | None) -> float:
        """Charge a REST request (or a connection attempt) from *host* to its address's budget: 0.0 if it may go
        ahead, else the seconds until it may."""
        return 0.0 if self.exempt(host) else self.requests.charge(address_key(host))

    def admit(self, host: str | None) -> tuple[str, str, int] | None:
        """Count a new websocket connection from *host*; or, when it may not open one now, the error code and
        message to send it and the close code to close it with (and nothing is counted).  Each admitted
        connection must be given back with ``connections.release(address_key(host))`` when it ends."""
        wait = self.charge_request(host)
        if wait > 0:
            return ("rate_limited", f"too many requests from your address; try again in {math.ceil(wait)} s",
                    POLICY_VIOLATION)
        over = self.connections.admit(address_key(host), per_address=not self.exempt(host))
        if over == "total":
            return ("too_many_connections", f"the server holds {self.connections.total} connections, its limit; "
                                            "try again later", TRY_AGAIN_LATER)
        if over == "address":
            return ("too_many_connections", f"your address holds {self.config.max_connections_per_address} "
                                            "connections, its limit; close one first", POLICY_VIOLATION)
        return None

    def new_client(self, host: str | None) -> Client:
        """A :class:`Client` for a connection from *host* (admitted by :meth:`admit`), its queue counted against
        its address's cap (:attr:`outbound`) unless *host* is spared the per-address caps (:meth:`exempt`)."""
        return Client(self.config, host, self.outbound, limit_address=not self.exempt(host))

    async def handle_raw(self, client: Client, raw: str | bytes) -> None:
        """Handle one frame from *client*: every problem becomes an error reply, the connection stays."""
        # a frame over the protocol's limit is charged as one byte over it: it has been read already, and it is
        # answered with ``too_large`` (not ``rate_limited``, which would hide what was wrong with it)
        size = min(len(raw), MAX_MESSAGE_BYTES + 1)
        if not client.allow(size):
            if client.limited_notice():  # with the dropped message's id when a small frame names one: the client
                # then knows which request to send again (an id-less notice may be about an earlier message)
                client.send({"type": "error", "id": peek_id(raw) if size <= 4096 else None, "code": "rate_limited",
                             "message": f"more than {self.config.rate:g} messages a second; message dropped"})
            return
        request_id: Any = None
        try:
            message = decode_client_message(raw)
            request_id = message.id
            await self.handle(client, message)
        except ProtocolError as error:  # the id, when the message had one a reply can carry (protocol.md)
            client.send({"type": "error", "id": error.request_id, "code": error.code, "message": error.message})
        except TableError as error:
            reply: dict[str, Any] = {"type": "error", "id": request_id, "code": error.code, "message": error.message}
            if error.reason is not None:
                reply["reason"] = error.reason
            if isinstance(error, ChatRateLimited):
                reply["retry_after"] = error.retry_after
            client.send(reply)
        except Exception as error:
            # a bug of the server's, not the client's: the client gets an error reply and keeps its connection
            # (before, the exception ended the connection).  Logged by its type and place only: its message may
            # name a card of a seat's hand, and logs carry public information only.
            frames = traceback.extract_tb(error.__traceback__)
            place = f"{Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else "?"
            log.error("a message could not be handled (%s at %s)", type(error).__name__, place)
            client.send({"type": "error", "id": request_id, "code": "internal",
                         "message": "the server failed to handle this message; try again"})

    async def handle(self, client: Client, message: Any) -> None:
        if isinstance(message, Ping):
            client.send({"type": "pong", "id": message.id})
        elif isinstance(message, Pong):
            pass
        elif isinstance(message, Hello):
            await self._hello(client, message)
        elif isinstance(message, Act):
            await self._act(client, message)
        elif isinstance(message, Sync):
            live = self._attached(client)
            live.table.check_last_seq(message.last_seq, message.epoch)
            client.send(self._catch_up("snapshot", live, client.seat, message.last_seq, message.id))
        elif isinstance(message, RequestHint):
            await self._hint(client, message)
        elif isinstance(message, Leave):
            live = self._attached(client)
            if client.seat is None or client.token_hash is None:
                raise TableError("no_seat", "this connection holds no seat")
            async with live.lock:
                seat = client.seat
                if live.table.seat_of_token(client.token_hash) != seat:
                    raise TableError("no_seat", "this seat was given up already")
                await self._leave_seat(live, seat)
        elif isinstance(message, Rematch):
            await self._rematch(client, message.id)
        elif isinstance(message, Chat):
            await self._chat(client, message)
        elif isinstance(message, Undo):
            await self._undo(client, message)
        elif isinstance(message, Fill):
            await self._fill(client, message)

    def _attached(self, client: Client) -> LiveTable:
        if client.live is None:
            raise TableError("not_joined", "say hello to a table first")
        return client.live

    def _catch_up(self, kind: str, live: LiveTable, seat: int | None, last_seq: int | None, request_id: Any,
                  undone: dict[str, Any] | None = None) -> str:
        """The text of a ``welcome`` or ``snapshot`` (*kind*) for *seat*: its view, and the events after *last_seq*
        (none when ``None``), joined from the texts :class:`CatchUpCache` keeps; with *undone*, an undo's.  The
        same text as the message's fields encoded in one piece, in this order: ``type``, ``id`` (a welcome's
        ``protocol``, ``table``, ``seat``), ``seq``, ``epoch``, ``view``, ``events`` (a welcome's ``chat``),
        ``undone``."""
        table = live.table
        message: dict[str, Any] = {"type": kind, "id": request_id}
        if kind == "welcome":
            message.update(protocol=PROTOCOL_VERSION, table=table.id, seat=seat)
        message.update(seq=table.seq, epoch=table.epoch, view=build_view(table, seat, live.connected()))
        events = self.catch_up.events(table, seat, last_seq) if last_seq is not None and last_seq < table.seq else "[]"
        tail = ""
        if kind == "welcome":
            tail += ',"chat":' + encode(live.chat.history() if table.settings.chat else [])
        if undone is not None:
            tail += ',"undone":' + encode(undone)
        return f'{encode(message)[:-1]},"events":{events}{tail}}}'

    async def _hello(self, client: Client, hello: Hello) -> None:
        if hello.protocol != PROTOCOL_VERSION:
            raise TableError("bad_version", f"this server speaks protocol {PROTOCOL_VERSION}, not {hello.protocol}")
        for _ in range(HELLO_TRIES):
            if await self._hello_at(client, hello, await self._live_for_hello(client, hello)):
                return
        # unloaded by the sweep again and again while this hello waited for the table's lock
        raise TableError("internal", "the table could not be opened; try again")

    async def _live_for_hello(self, client: Client, hello: Hello) -> LiveTable:
        """The table a hello names: in memory, or else a finished one read back from the database and kept in
        memory again (read-only, as every finished table is), so that its players and spectators see the final
        position, and its players may still ask for a rematch.  Such tables have a cap of their own,
        ``max_read_back``, and do not count against ``max_tables``, so that reading old matches never keeps new
        ones from being made: at the cap, the one idle longest with nobody at it makes room
        (:meth:`_room_for_read_back`), and the sweep unloads one once nobody has been at it for
        ``read_back_idle`` seconds (``abandon_after`` if shorter).  It is kept only for a hello that may see it
        (:meth:`_hello_access`): a refused one leaves nothing in memory.  A hello at a table not in memory costs a
        request of the client's address budget (:meth:`charge_request`), as a REST read does: it reads the
        database.  A seat whose profile was deleted is no profile's, as it is at a table in memory (:meth:`find`,
        :meth:`_forget_deleted`).

        Raises:
            TableError: ``rate_limited``; ``unknown_table`` (no such table, or one closed unfinished: it stays
                closed); ``server_full`` (``max_read_back`` tables read back, each with someone at it);
                :meth:`_hello_access`'s refusals.
        """
        live = self.tables.get(hello.table)
        if live is not None:
            return live
        wait = self.charge_request(client.host)
        if wait > 0:
            raise TableError("rate_limited", f"too many requests from your address; try again in "
                                             f"{math.ceil(wait)} s")
        # no room is made before the read: a hello that can never be welcomed (no such table, one closed unfinished,
        # no spectators, a bad token) gets that final answer, not a "busy" one, and evicts no table
        task = self._loading.get(hello.table)
        if task is None:  # concurrent hellos at one table share one read, and so one table object
            task = asyncio.create_task(self._read_finished(hello.table))
            self._loading[hello.table] = task
            task.add_done_callback(lambda _t: self._loading.pop(hello.table, None))
        # shielded: a hello whose connection goes away does not cancel the read that others wait for
        table, chat = await asyncio.shield(task)
        live = self.tables.get(hello.table)
        if live is not None:  # kept by a hello that shared the read (or made meanwhile)
            return live
        self._hello_access(table, hello)
        if not self._room_for_read_back():  # only now, for a hello that may see the table
            raise self._full()
        self._forget_deleted(table)  # again: a delete may have begun while the table was read
        live = LiveTable(table)
        live.read_back = True
        live.chat.restore(chat)
        self.tables[table.id] = live
        self.read_back[table.id] = live
        log.info("table %s loaded from the database (finished)", table.id)
        return live

    async def _read_finished(self, table_id: str) -> tuple[Table, list[dict[str, Any]]]:
        """A finished table that is no longer in memory, from the database (see :meth:`_live_for_hello`), and its
        last chat messages.

        Raises:
            TableError: ``unknown_table`` for no such table, or one that is not finished.
        """
        table = await self.find(table_id)
        if table is None or table.status != "finished":
            raise TableError("unknown_table", f"no table {table_id!r}, or its match was closed unfinished")
        if not table.settings.chat:
            return table, []
        chat = await asyncio.to_thread(self._store().chat_history, [table_id], CHAT_HISTORY)
        return table, chat.get(table_id, [])

    def _room_for_read_back(self) -> bool:
        """Whether one more finished table may be read back (``max_read_back``): at the cap, the read-back table
        idle longest with nobody at it (and nothing under way at it: its lock free) is unloaded to make room;
        ``False`` when every one has someone at it.  A hello that was waiting for the unloaded table's lock looks it
        up again (:meth:`_hello_at`)."""
        self._prune_read_back()
        while len(self.read_back) >= self.config.max_read_back:
            idle = [live for live in self.read_back.values() if not live.clients and not live.lock.locked()]
            if not idle:
                return False
            self._unload(min(idle, key=lambda live: live.last_activity))
        return True

    def _unload(self, live: LiveTable) -> None:
        """Take a table out of memory (its timers and tasks stopped); the database keeps it."""
        for task in list(live.tasks):
            task.cancel()
        for handle in live.grace.values():
            handle.cancel()
        self._stop_timer(live)
        table_id = live.table.id
        if self.tables.get(table_id) is live:
            del self.tables[table_id]
        if self.read_back.get(table_id) is live:
            del self.read_back[table_id]

    def _full(self) -> TableError:
        return TableError("server_full", f"the server holds {len(self.read_back)} finished tables read back from the "
                                         "database, each with someone at it, its limit; try again later")

    @staticmethod
    def _hello_access(table: Table, hello: Hello) -> tuple[int | None, str | None]:
        """The seat a hello takes at *table* (``None``: a spectator) and its token's hash.

        Raises:
            TableError: ``bad_token`` (the token holds no seat), ``spectators_off`` (no token, at a table that
                admits no spectators), or :meth:`Table.check_last_seq`'s ``bad_seq``.
        """
        seat: int | None = None
        token_hash = hash_token(hello.token) if hello.token is not None else None
        if token_hash is not None:
            seat = table.seat_of_token(token_hash)
            if seat is None:
                raise TableError("bad_token", "this token holds no seat at this table")
        elif not table.settings.spectators:
            raise TableError("spectators_off", "this table does not admit spectators")
        table.check_last_seq(hello.last_seq, hello.epoch)
        return seat, token_hash

    async def _hello_at(self, client: Client, hello: Hello, live: LiveTable) -> bool:
        """Attach *client* to *live* (see :meth:`_hello`); ``False`` when the sweep unloaded the table while this
        hello waited for its lock (the caller looks it up again: a finished table is read back)."""
        seat, token_hash = self._hello_access(live.table, hello)
        async with live.lock:
            if self.tables.get(hello.table) is not live:
                return False
            # again under the lock: a leave waiting for it may have given the token up since the check above
            # (the leave demotes only the connections already at the table)
            if token_hash is not None and live.table.seat_of_token(token_hash) != seat:
                raise TableError("bad_token", "this token holds no seat at this table")
            await self.detach(client)
            client.live, client.seat, client.token_hash = live, seat, token_hash
            live.last_activity = time.monotonic()
            was_connected = seat is not None and seat in live.connected()
            live.clients.add(client)  # under the lock: no event can slip in before the welcome
            client.send(self._catch_up("welcome", live, seat, hello.last_seq, hello.id))
            if seat is not None:
                handle = live.grace.pop(seat, None)
                if handle is not None:
                    handle.cancel()
                if not was_connected:
                    self._presence(live, seat, True)
                await self._commit(live, live.table.set_standin(seat, False))
            running = live.timer
            self._schedule(live)
            if running is not None and live.timer is running:  # one started now was sent to everyone already
                client.send(self._timer_message(live))
        return True

    async def detach(self, client: Client) -> None:
        """Take *client* off its table; a seat left without a connection starts its grace period."""
        live, seat = client.live, client.seat
        client.live, client.seat, client.token_hash = None, None, None
        if live is None:
            return
        live.clients.discard(client)
        live.last_activity = time.monotonic()
        if not live.clients:
            self._schedule(live)  # nobody here: the table pauses, its turn timer too (a rated match plays on)
        if seat is None or seat in live.connected():
            return
        self._presence(live, seat, False)
        if live.table.status == "playing" and seat not in live.grace:
            loop = asyncio.get_running_loop()
            live.grace[seat] = loop.call_later(
                self.config.grace, lambda: self._spawn(live, self._away(live, seat))
            )

    async def _away(self, live: LiveTable, seat: int) -> None:
        live.grace.pop(seat, None)
        if seat in live.connected():
            return
        async with live.lock:
            if seat in live.connected():  # came back while the lock was held (a hello waiting behind a write)
                return
            await self._commit(live, live.table.set_standin(seat, True))
            self._schedule(live)

    async def _act(self, client: Client, act: Act) -> None:
        live = self._attached(client)
        async with live.lock:
            table = live.table
            action = table.parse(client.seat, act.action, act.seq)
            assert client.seat is not None
            events = table.act(client.seat, action)
            await self._commit(live, events)
        client.send({"type": "ack", "id": act.id, "seq": events[0].seq, "action": events[0].public["action"]})

    async def _fill(self, client: Client, message: Fill) -> None:
        """Start the match now with bots of the message's level in every open seat (:meth:`Table.fill`), for a
        connection that holds a seat at a waiting table: the ``seat`` events and the start are stored in the
        table's journal (a restart resumes the table with its bots, and the lobby lists it as playing), broadcast
        to everyone at the table, and the bots play as at any table; then the sender gets an ``ack`` with
        ``action`` ``"fill"`` and the last event's number.  A searching bot seated at a variant's table has the
        slow pool warm that variant (:meth:`_warm_for`), as at a table made with it.

        Refusals change nothing: ``no_seat`` (a spectator, or a seat given up while the message waited for the
        table's lock), ``match_over``, ``already_started``, ``bad_bot``, ``players_away`` (a rated table where
        another seated player has no connection now); ``internal`` when the write fails (the
        table is reloaded as it was, still waiting).  (The table's ``bad_seats`` cannot come: the sender's own seat
        is a human's, and a fill changes no number of seats.)
        """
        live = self._attached(client)
        if client.seat is None or client.token_hash is None:
            raise TableError("no_seat", "spectators cannot fill the open seats: take a seat first")
        async with live.lock:
            table = live.table
            seat = client.seat
            # again under the lock: a leave (of another connection with this token) may have given the seat up
            if seat is None or client.token_hash is None or table.seat_of_token(client.token_hash) != seat:
                raise TableError("no_seat", "this seat was given up already")
            events = table.fill(seat, message.level, live.connected())
            self._warm_for(table)  # before the bots' first decisions are asked for (in _commit), as a new table's
            await self._commit(live, events)
            seq = table.seq
            log.info("table %s: seat %d filled the open seats with bots (%s)", table.id, seat, message.level)
        client.send({"type": "ack", "id": message.id, "seq": seq, "action": "fill"})

    async def _undo(self, client: Client, message: Undo) -> None:
        """Take back the human's last card and what the bots did after it (:meth:`Table.undo`), store the cut
        journal, and give every connection at the table a fresh snapshot of its own view with ``undone``.

        The journal loses events, so the numbers the clients saw past the cut will be given again: a snapshot
        (``seq`` lower than before) is how every client, spectators included, starts again from the new state;
        the sender's carries the request's ``id``.  A bot that was thinking meanwhile is asked again:
        the table's epoch tells its pending decision that the position it was asked about is gone, even when the
        table comes back to the same event number later (see :meth:`_bot_turn`); ``_schedule`` restarts the turn
        timer for the human's new decision.  Refusals change nothing (``undo_not_allowed``, ``undo_refused``).
        """
        live = self._attached(client)
        async with live.lock:
            table = live.table
            stored, epoch = list(table.events), table.epoch  # the journal as stored, should the database fail
            undone = table.undo(client.seat)
            assert client.seat is not None
            live.bot_seq = -1
            store = self._store()
            try:
                await store.write(store.append_op(table, undone.events, truncate_after=undone.after))
            except Exception:
                log.exception("table %s: storing the undo to event %d failed; reloading", table.id, undone.after)
                live.table = await self._reload(table, stored, epoch)
                self._schedule(live)
                raise TableError("internal", "the server could not store the undo; nothing changed") from None
            live.last_activity = time.monotonic()
            log.info("table %s: seat %d took back %d actions, back to event %d", table.id, client.seat,
                     len(undone.taken), table.seq)  # no card named: the log carries no more than a spectator sees
            info = undone.public(client.seat)
            for other in list(live.clients):  # a snapshot of its own view (no events: none after table.seq)
                reply_id = message.id if other is client else None
                other.send(self._catch_up("snapshot", live, other.seat, table.seq, reply_id, undone=info))
            self._schedule(live)

    async def _hint(self, client: Client, message: RequestHint) -> None:
        live = self._attached(client)
        table = live.table
        if not table.settings.hints:
            raise TableError("hints_off", "this table gives no hints")
        table.check_turn(client.seat)
        assert client.seat is not None and table.match is not None
        observation = table.match.observation(client.seat)
        try:
            decision = await self.pool_for(HINT_LEVEL).decide(HINT_LEVEL, observation, table.seq)
        except WorkerError:
            raise TableError("internal", "no hint this time: the bot did not answer") from None
        evaluations = {k: float(v) for k, v in decision.evaluations.items()}
        client.send({"type": "hint", "id": message.id, "action": str(decision.action), "evaluations": evaluations,
                     "bot": HINT_LEVEL})

    async def _rematch(self, client: Client, request_id: Any) -> None:
        """Record the seat's wish for a rematch, make the new table once every seated human has asked, and answer
        with an ``ack`` that names the new table (or null) and the seats still to ask: a client that asks first
        learns that its wish was taken, and one that asks again after the table was made learns where it is.

        The seat is checked again under the table's lock, as :meth:`_fill` and :meth:`_chat` do: a ``leave`` of
        another connection with the same token may have given it up while this message waited for the lock (the
        leave turns this connection into a spectator's), and such a rematch gets ``no_seat``.  Recorded as the
        wish of no seat, it had made every view of the table fail until a restart (``rematch_asked`` sorted a
        ``None`` among the seats)."""
        live = self._attached(client)
        if client.seat is None or client.token_hash is None:
            raise TableError("no_seat", "spectators cannot ask for a rematch")
        if live.table.settings.rated and not await self._profile_lives(live.table.seats[client.seat].player):
            raise TableError("profile_needed", "a rated rematch seats only profiles, and this seat's profile was "
                                               "deleted")
        async with live.lock:
            table = live.table
            seat = client.seat
            # again under the lock: a leave (of another connection with this token) may have given the seat up
            if seat is None or client.token_hash is None or table.seat_of_token(client.token_hash) != seat:
                raise TableError("no_seat", "this seat was given up already")
            if table.vote_rematch(seat):
                await self._make_rematch(live)
            client.send({"type": "ack", "id": request_id, "seq": table.seq, "action": "rematch",
                         "table": table.rematch_table, "waiting": table.rematch_waiting()})
            if table.rematch_table is None:  # the others learn it now: the result they look at says who asked
                asked = encode({"type": "rematch_asked", "seats": sorted(table.rematch_votes)})
                for other in list(live.clients):
                    if other is not client:
                        other.send(asked)

    async def _make_rematch(self, live: LiveTable) -> None:
        """Every seated human has asked (the table's lock is held): make the rematch table, name it in the old
        table's journal, and start it (a rated one plays on even if everyone has closed the page)."""
        table = live.table
        # a seat whose profile was deleted (since its vote, or before a finished table was read back) never seats
        # that profile again: at a rated table the seat waits open, at another its human plays on as no profile's
        alive = [s.kind == "human" and s.token_hash is not None and await self._profile_lives(s.player)
                 for s in table.seats]
        seats = [SeatState(s.kind, s.level, s.name if s.token_hash or s.kind == "bot" else None, s.token_hash,
                           player=s.player if alive[i] else None)
                 if s.kind == "bot" or alive[i] or not table.settings.rated else SeatState.human()
                 for i, s in enumerate(table.seats)]
        new = await self.create_table(table.settings, seats, parent=table.id)
        await self._commit(live, table.rematch_event(new.table.id))
        self._schedule(new)

    async def _chat(self, client: Client, message: Chat) -> None:
        """Relay a seated human's chat message to everyone at the table (players and spectators), the sender's copy
        with the request's ``id``, once it is stored (:meth:`mizerka.server.db.Store.chat_op`): what was relayed is
        what a restart gives back.  Checked first (:meth:`mizerka.server.chat.ChatRoom.prepare`): a refused message
        gets an error and changes nothing; one that cannot be stored gets ``internal`` and is not relayed.  Under the
        table's lock, as a hello's welcome is: a message is in the welcome's history or relayed to the newcomer,
        never both, and the messages are numbered, stored and relayed in one order."""
        live = self._attached(client)
        if not live.table.settings.chat:
            raise TableError("chat_off", "this table has no chat")
        if client.seat is None:
            raise TableError("no_seat", "spectators can read the chat but not write in it")
        async with live.lock:
            seat = client.seat
            if seat is None:  # the seat was given up (a leave) while this message waited for the lock
                raise TableError("no_seat", "spectators can read the chat but not write in it")
            table = live.table
            name = table.player_names()[seat]  # distinct at the table: two players called Ala are "Ala" and "Ala (2)"
            chat = live.chat.prepare(seat, name, text=message.text, preset=message.preset)
            store = self._store()
            try:
                await store.write(store.chat_op(table.id, chat))
            except Exception as error:
                live.chat.retract(chat)
                # the kind of error only: chat text never goes into the log
                log.error("table %s: storing chat message %d failed (%s)", table.id, chat["seq"], type(error).__name__)
                raise TableError("internal", "the server could not store this message; it was not sent") from None
            live.chat.keep(chat)
            text = encode(chat)
            for other in list(live.clients):
                if other is not client:
                    other.send(text)
            client.send({**chat, "id": message.id})

    # -- housekeeping -------------------------------------------------------------------------------

    async def _gc_loop(self) -> None:
        """Keep long-lived objects out of the garbage collector's full collections (see ``gc_freeze``).

        What is alive once the server has started (the modules of the web stack, the ORM and the bots, the
        resumed tables), and every :data:`GC_FREEZE_INTERVAL` seconds what is alive then (the tables' journals
        and matches, the connections), goes to the permanent generation (:func:`gc.freeze`), which a full
        collection does not walk.  Without this, every full collection walked all of it: a pause of 0.12 to
        0.29 s at 300 tables, the worst of the latency tail.  The cost: a reference cycle among frozen objects
        that becomes garbage (a closed connection, say) waits for the next :func:`gc.unfreeze`, every
        :data:`GC_UNFREEZE_INTERVAL` seconds, after which one full collection walks (and frees) everything.
        """
        gc.collect()
        gc.freeze()
        since_unfreeze = 0.0
        while True:
            await asyncio.sleep(GC_FREEZE_INTERVAL)
            since_unfreeze += GC_FREEZE_INTERVAL
            if since_unfreeze >= GC_UNFREEZE_INTERVAL:
                since_unfreeze = 0.0
                gc.unfreeze()
                gc.collect()
            gc.freeze()

    async def _cleanup_loop(self) -> None:
        while True:
            await asyncio.sleep(self.config.cleanup_interval)
            try:
                await self.cleanup()
            except Exception:
                log.exception("cleanup failed")

    async def cleanup(self) -> list[str]:
        """Close (or unload, when finished) every table idle and unwatched for ``abandon_after`` seconds (a finished
        table read back for a hello: ``read_back_idle`` seconds)."""
        def idle(live: LiveTable) -> bool:
            after = self.config.abandon_after
            if live.read_back:  # there for whoever opened it: soon gone once he has left
                after = min(after, self.config.read_back_idle)
            return not live.clients and time.monotonic() - live.last_activity >= after

        gone = []
        for table_id, live in list(self.tables.items()):
            if not idle(live):
                continue
            async with live.lock:
                if not idle(live):  # a join or a hello got in while the lock was awaited: the table lives on
                    continue
                if live.table.status in ("waiting", "playing"):
                    await self._commit(live, live.table.close("abandoned"))
            if self.tables.get(table_id) is not live:  # unloaded meanwhile to make room (_room_for_read_back)
                continue
            self._unload(live)
            gone.append(table_id)
        if gone:
            log.info("cleaned up %d tables", len(gone))
        return gone


def bot_levels() -> list[str]:
    return list(BOT_LEVELS)
