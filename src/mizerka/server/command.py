"""``mizerka serve``: run the game server on uvicorn.

``mizerka serve --open`` (what ``make run`` runs) prints, once the server is listening, the address that
opens a game against two bots at once (``/?quickplay=1``), and opens it in a browser when there is one.

uvicorn runs with the settings of :func:`uvicorn_config` (the test servers too): HTTP/1.1 by h11, whose request
head is limited to :data:`MAX_HEAD_BYTES`, with a deadline for each request to arrive whole
(:class:`RequestDeadline`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import socket
import sys
import threading
from pathlib import Path
from typing import Any, Final, cast

import click
import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from mizerka.cli import NumberRange
from mizerka.server.hub import ServerConfig

__all__ = ["CLOSE_GRACE_SECONDS", "MAX_HEAD_BYTES", "SEND_TIMEOUT_SECONDS", "WS_MAX_SIZE", "ClosingDeadline",
           "RequestDeadline", "WriteDeadlines", "default_database", "quickplay_url", "serve_command", "server_url",
           "uvicorn_config"]

WS_MAX_SIZE: Final = 1 << 20
"""The largest websocket message, in bytes, that uvicorn reads at all (its ``ws_max_size``): the transport ceiling.

There are two limits on what a client sends.  The protocol's, :data:`mizerka.server.protocol.MAX_MESSAGE_BYTES`
(4 KiB), is the application's: a longer message is read, refused with a ``too_large`` error reply, and the
connection stays open, as for any other bad input.  This one is the websocket layer's: a frame over it is not
even read, and the only answer left is RFC 6455's close code 1009 ("message too big"), which drops the
connection.  It lies far above the protocol limit so that an oversized message gets the error reply, not a
dropped connection; and it is finite, so that what one connection makes the server buffer stays bounded (current
uvicorn stops reading a connection until the app has taken its last message: about one such frame a connection).
"""


MAX_HEAD_BYTES: Final = 16 * 1024
"""The longest HTTP request head (request line and headers, up to the blank line that ends them) the server takes, in
bytes (h11's own default for an unfinished head, said here): :class:`RequestDeadline` refuses a longer one with 431
and closes the connection, whether it trickles in or arrives whole in one read (h11 alone refuses only an unfinished
one, with 400, and takes a whole one up to what one read brings, 256 KiB).  A browser's head is well under 2 KiB.
uvicorn's other HTTP implementation, httptools (picked by default when installed, as ``uvicorn[standard]`` does), has
no limit: one client sending a header line of 300 MB made the server hold it."""

LINGER_SECONDS: Final = 2.0
LINGER_BYTES: Final = 256 * 1024
"""How long, and for how many bytes, a connection refused with 408 or 431 is kept half-closed, reading and throwing
away what the client still sends, so that the answer is not lost to a reset (see :meth:`RequestDeadline._refuse`).
Past either it is closed."""

_HEAD_END: Final = re.compile(rb"\n\r?\n")
"""Where a request head ends: h11's own rule (a blank line, with or without its carriage return)."""

CLOSE_GRACE_SECONDS: Final = 5.0
"""How long a connection being closed may go with its client taking no byte of what is still unsent, before it is
cut (:class:`WriteDeadlines`)."""

SEND_TIMEOUT_SECONDS: Final = 60.0
"""How long a connection may go with its client taking no byte of what is unsent, once writing to it is paused,
before it is cut (:class:`WriteDeadlines`): nginx's ``send_timeout``, with its default."""


try:
    import fcntl
    import termios

    _OUTQ: int | None = termios.TIOCOUTQ  # a socket's unsent (and unacknowledged) bytes: Linux's SIOCOUTQ
except (ImportError, AttributeError):  # pragma: no cover - not a Unix that says
    _OUTQ = None


class WriteDeadlines:
    """The deadlines on what a connection writes, for a client that stops reading.

    asyncio writes only what the client takes, and closes a transport only once all it buffered is written; uvicorn
    waits for the buffer to drain before it writes more.  A client that stopped reading therefore kept its
    connection, its file descriptor and the buffered data for good: an HTTP client that pipelined a hundred
    requests for a script and read none of the answers (a "slow read"), a websocket that the server had dropped or
    closed.  So here a connection is cut (aborted: what is unsent is thrown away and the socket closed) when its
    client takes no byte of what is unsent (:meth:`unsent`)

    * for :data:`SEND_TIMEOUT_SECONDS` while writing to it is paused (its buffer over the high-water mark);
    * for :data:`CLOSE_GRACE_SECONDS` once it is closed, by us or by uvicorn.

    A client that reads, however slowly, loses nothing: each byte it takes starts the time again.  One object serves
    one protocol object (:class:`RequestDeadline`, :class:`ClosingDeadline`), which tells it when writing pauses
    and resumes and when the connection is lost; it sees the closes itself, through the transport it hands the
    protocol (:meth:`wrap`).
    """

    def __init__(self, loop: asyncio.AbstractEventLoop, logger: logging.Logger, kind: str) -> None:
        self._loop = loop
        self._logger = logger
        self._kind = kind
        self._transport: asyncio.Transport | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._period = 0.0  # SEND_TIMEOUT_SECONDS while paused, CLOSE_GRACE_SECONDS once closed
        self._closed = False
        self._unsent = 0  # when the timer was started
        self._lost = False

    def wrap(self, transport: asyncio.BaseTransport) -> asyncio.Transport:
        """*transport* as the protocol is to use it: its closes start the close's deadline."""
        if isinstance(transport, _BoundedClose):  # a websocket, upgraded from an HTTP connection: its transport
            transport = transport.transport
        self._transport = cast(asyncio.Transport, transport)
        return cast(asyncio.Transport, _BoundedClose(self._transport, self.closing))

    def closing(self) -> None:
        if not self._closed:
            self._closed = True
            self._start(CLOSE_GRACE_SECONDS)

    def paused(self) -> None:
        if self._timer is None and not self._closed:
            self._start(SEND_TIMEOUT_SECONDS)

    def resumed(self) -> None:
        if not self._closed:
            self._stop()

    def lost(self) -> None:
        self._lost = True
        self._stop()

    def unsent(self) -> int:
        """The bytes written to the connection that its client has not taken: in the transport's buffer, and (where
        the system says, as Linux does) in the socket's send queue, which may hold megabytes and takes more only
        once a third of it is free: a client reading slowly empties the transport's buffer in steps minutes
        apart, and the send queue byte by byte."""
        assert self._transport is not None
        size = self._transport.get_write_buffer_size()
        sock = self._transport.get_extra_info("socket")
        if _OUTQ is not None and sock is not None:
            with contextlib.suppress(OSError, ValueError):
                size += int.from_bytes(fcntl.ioctl(sock.fileno(), _OUTQ, bytes(4)), sys.byteorder, signed=True)
        return size

    def _start(self, period: float) -> None:
        self._stop()
        if not self._lost and self._transport is not None:
            self._period = period
            self._unsent = self.unsent()
            self._timer = self._loop.call_later(period, self._check)

    def _stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _check(self) -> None:
        self._timer = None
        if self._lost or self._transport is None:
            return
        unsent = self.unsent()
        if unsent < self._unsent:  # the client took some: it reads, slowly
            self._start(self._period)
            return
        self._logger.info("%s connection cut: its client took none of %d bytes in %g s%s", self._kind, unsent,
                          self._period, " after the close" if self._closed else "")
        self._transport.abort()


class _BoundedClose:
    """A transport whose :meth:`close` also starts the close's deadline (:meth:`WriteDeadlines.closing`): every
    other attribute is the transport's own."""

    def __init__(self, transport: asyncio.Transport, closing: Any) -> None:
        self.transport = transport
        self._closing = closing

    def close(self) -> None:
        self.transport.close()
        self._closing()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.transport, name)


class _WatchedWrites(asyncio.Protocol):
    """What :class:`RequestDeadline` and :class:`ClosingDeadline` add to uvicorn's protocols alike: the deadlines of
    :class:`WriteDeadlines` (:attr:`deadlines`), told when the connection is made and lost and when writing pauses
    and resumes."""

    kind = "HTTP"
    deadlines: WriteDeadlines

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.deadlines = WriteDeadlines(asyncio.get_running_loop(), logging.getLogger("uvicorn.error"), self.kind)
        super().connection_made(self.deadlines.wrap(transport))

    def connection_lost(self, exc: Exception | None) -> None:
        self.deadlines.lost()
        super().connection_lost(exc)

    def pause_writing(self) -> None:
        super().pause_writing()
        self.deadlines.paused()

    def resume_writing(self) -> None:
        super().resume_writing()
        self.deadlines.resumed()


class ClosingDeadline(_WatchedWrites, WebSocketsSansIOProtocol):
    """uvicorn's websocket protocol, with the deadlines of :class:`WriteDeadlines`.

    Without them a websocket that the server dropped or closed while its client read nothing stayed open for
    good, however uvicorn closed it: on its ping timeout (the ping waits behind the buffer), at the end of a
    closing handshake, or when the application let the connection go.
    """

    kind = "websocket"


class RequestDeadline(_WatchedWrites, H11Protocol):
    """uvicorn's h11 HTTP/1.1 protocol, with a deadline for each request to arrive whole and a bound on its head.

    uvicorn's own timer (``timeout_keep_alive``) runs only between two requests on a kept-alive connection, and
    stops at their first byte: a connection that sends nothing, or half a request and no more (slowloris), was held
    for ever, and enough of them used up the process's file descriptors.  Here a timer of :attr:`request_timeout`
    seconds starts when the connection is made, and again at the first byte of each next request (the connection
    waiting for one: h11's ``their_state`` IDLE); it stops once the request is in whole, its line, headers and body
    (``their_state`` past SEND_BODY), or once the connection becomes a websocket (which has pings of its own).  When
    it runs out the connection is closed: with 408 when part of a request head has come; without a word when
    nothing has (a browser may open a connection before it has a request for it, and takes a close as a reason to
    open another, not as an answer), or when the application already has the request and its body is what comes
    too slowly (the application is told that its client went away).  A request head over :data:`MAX_HEAD_BYTES`
    gets 431 (:meth:`_head_too_long`).  What it writes has the deadlines of :class:`WriteDeadlines` (a client that
    asks and never reads the answers).

    The timeout is a class attribute: :func:`uvicorn_config` makes a subclass for each server's
    ``ServerConfig.request_timeout``, since uvicorn makes the protocol objects itself.
    """

    request_timeout: float = 10.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self._refused = False
        self._linger_bytes = LINGER_BYTES

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self._start_deadline()

    def data_received(self, data: bytes) -> None:
        if self._refused:  # the connection is closing after a refusal (see _refuse): what still comes is thrown away
            self._linger_bytes -= len(data)
            if self._linger_bytes < 0:
                self.transport.close()
            return
        if self._deadline is None and self.conn.their_state is h11.IDLE:
            self._start_deadline()  # the first bytes of the next request on a kept-alive connection
        super().data_received(data)
        if self.conn.their_state not in (h11.IDLE, h11.SEND_BODY):
            self._stop_deadline()  # the request is in whole (or the connection is over: an error, a close)

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self._stop_deadline()  # the request is in: the websocket protocol takes the connection over
        self.deadlines.lost()  # ... and its deadlines (ClosingDeadline)
        super().handle_websocket_upgrade(event)

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_deadline()
        super().connection_lost(exc)

    def handle_events(self) -> None:
        # uvicorn calls this after each read, and once more when it has answered a request, for a next one that
        # arrived behind it (pipelined)
        if self._refused or (self.conn.their_state is h11.IDLE and self._head_too_long()):
            return
        super().handle_events()

    def _head_too_long(self) -> bool:
        """Refuse a request head longer than :data:`MAX_HEAD_BYTES` (431) and close; whether it did.

        Called while the connection waits for a request head (h11's ``their_state`` IDLE): what h11 holds unparsed
        is that head and what may follow it.  (h11 refuses an unfinished head past the limit by itself, but takes a
        complete one of any length, so a head that arrived whole in one read would pass.)
        """
        pending = self.conn.trailing_data[0]
        end = _HEAD_END.search(pending)
        if (end.end() if end else len(pending)) <= MAX_HEAD_BYTES:
            return False
        self.logger.info("HTTP connection closed: a request head over %d bytes", MAX_HEAD_BYTES)
        self._refuse(431, b"Request Header Fields Too Large", b"the request head is over %d bytes" % MAX_HEAD_BYTES)
        return True

    def _refuse(self, status: int, reason: bytes, body: bytes) -> None:
        """Answer *status* with *body* and close the connection (at once, without an answer, when the application
        already has the request).

        The client may still be sending (the rest of a long head): closing a socket with unread data makes the
        system reset the connection, and a reset can reach the client before the answer does, which is then lost.
        So after an answer the connection is only half-closed, what still arrives is thrown away, and it is closed
        when the client closes its end, after :data:`LINGER_SECONDS` or past :data:`LINGER_BYTES`, whichever comes
        first.
        """
        self._stop_deadline()
        self._refused = True
        if (self.cycle is not None and not self.cycle.response_complete) or self.conn.our_state is not h11.IDLE:
            self.transport.close()  # the application is told that its client went away
            return
        with contextlib.suppress(h11.LocalProtocolError):
            self.transport.write(self.conn.send(h11.Response(
                status_code=status, reason=reason,
                headers=[(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", b"%d" % len(body)),
                         (b"connection", b"close")])) or b"")
            self.transport.write(self.conn.send(h11.Data(data=body)) or b"")
            self.transport.write(self.conn.send(h11.EndOfMessage()) or b"")
        if self.transport.can_write_eof():
            self.transport.write_eof()
            self.loop.call_later(LINGER_SECONDS, self.transport.close)
        else:
            self.transport.close()

    def _start_deadline(self) -> None:
        self._stop_deadline()
        self._deadline = self.loop.call_later(self.request_timeout, self._deadline_passed)

    def _stop_deadline(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _deadline_passed(self) -> None:
        self._deadline = None
        if self.transport.is_closing():
            return
        begun = bool(self.conn.trailing_data[0])  # part of a request head is in (not a connection opened ahead)
        self.logger.log(logging.INFO if begun or self.cycle is not None else logging.DEBUG,
                        "HTTP connection closed: no whole request within %g s", self.request_timeout)
        if begun:
            self._refuse(408, b"Request Timeout", b"the request did not arrive whole in time")
        else:
            self.transport.close()


def uvicorn_config(app: Any, config: ServerConfig, *, host: str, port: int, log_level: str = "info",
                   ws_deflate: bool = False, **options: Any) -> uvicorn.Config:
    """The uvicorn settings the server runs with (``mizerka serve``, and the test servers, so that the tests
    exercise what is served): :class:`RequestDeadline` with *config*'s ``request_timeout`` as the HTTP protocol,
    its head limited to :data:`MAX_HEAD_BYTES`; websocket messages up to :data:`WS_MAX_SIZE`, pings every 20 s,
    compressed with *ws_deflate*.  *options* are given to :class:`uvicorn.Config` as they are."""

    class Protocol(RequestDeadline):
        request_timeout = config.request_timeout

    return uvicorn.Config(app, host=host, port=port, log_level=log_level, http=Protocol, ws=ClosingDeadline,
                          h11_max_incomplete_event_size=MAX_HEAD_BYTES, ws_max_size=WS_MAX_SIZE,
                          ws_ping_interval=20.0, ws_per_message_deflate=ws_deflate, **options)


def default_database() -> str:
    """A SQLite file in the user's data directory."""
    import platformdirs

    return "sqlite:///" + str(Path(platformdirs.user_data_dir("mizerka")) / "mizerka.sqlite3")


def quickplay_url(host: str, port: int) -> str:
    """The address of a game against bots: a wildcard bind address becomes the loopback one.

    >>> quickplay_url("0.0.0.0", 8000)
    'http://127.0.0.1:8000/?quickplay=1'
    >>> quickplay_url("::1", 9000)
    'http://[::1]:9000/?quickplay=1'
    """
    if host in ("0.0.0.0", "", "::"):
        host = "127.0.0.1"
    return f"{server_url(host, port)}?quickplay=1"


def server_url(host: str, port: int) -> str:
    """The server's address as a URL: an IPv6 address goes in brackets.

    >>> server_url("127.0.0.1", 8000), server_url("::1", 9000)
    ('http://127.0.0.1:8000/', 'http://[::1]:9000/')
    """
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def _graphical_browser() -> bool:
    """Whether a browser window can be opened (never a console browser that would take over the terminal)."""
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def _open_browser(url: str) -> None:
    import webbrowser

    def run() -> None:
        with contextlib.suppress(Exception):  # no browser is no failure: the address is printed
            webbrowser.open(url, new=2)

    threading.Thread(target=run, daemon=True).start()


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535),
              help="Port to bind (0: any free port).")
@click.option("--database", "database", default=None, metavar="URL",
              help="sqlite:///path or postgresql://user:pw@host/db (default: a SQLite file in the user data dir).")
@click.option("--open", "open_game", is_flag=True,
              help="Once listening, print the address of a game against bots (and open it in a browser, if any).")
@click.option("--no-browser", is_flag=True,
              help="With --open: only print the address, open no browser (refused without --open).")
@click.option("--bot-delay", default=0.8, show_default=True, type=NumberRange(0, 30),
              help="Least seconds a bot takes per decision, for a pleasant pace.")
@click.option("--grace", default=60.0, show_default=True, type=NumberRange(0, 86400),
              help="Seconds before a bot stands in for a disconnected human.")
@click.option("--abandon-after", default=3600.0, show_default=True, type=NumberRange(1, 10**7),
              help="Seconds of idleness, with nobody connected, after which a table is closed.")
@click.option("--heartbeat", default=20.0, show_default=True, type=NumberRange(0.05, 3600),
              help="Seconds between heartbeats; a client silent for three is dropped.")
@click.option("--bot-workers", default=2, show_default=True, type=click.IntRange(1, 64), help="Bot worker pool size.")
@click.option("--slow-bot-workers", default=1, show_default=True, type=click.IntRange(1, 64),
              help="Pool size for the searching bots (pimc, ismcts, expert).")
@click.option("--bot-pool", default="process", show_default=True, type=click.Choice(["thread", "process"]),
              help="Run bots in threads or in processes.")
@click.option("--dd-limit", default=10.0, show_default=True, type=NumberRange(0, 600),
              help="Seconds the double-dummy analysis of a finished deal may take (0: no analysis).")
@click.option("--dd-busy-rate", default=60.0, show_default=True, type=NumberRange(0),
              help="Skip the analysis while the server stores more events a second than this (0: never skip).")
@click.option("--review-limit", default=30.0, show_default=True, type=NumberRange(0, 600),
              help="Seconds the solver may take to judge every card of a finished deal for its review "
                   "(0: reviews give the play without the analysis).")
@click.option("--max-tables", default=10_000, show_default=True, type=click.IntRange(1),
              help="The most tables kept open at once; a new table past it is refused (server_full).")
@click.option("--max-read-back", default=200, show_default=True, type=click.IntRange(0),
              help="The most finished tables read back from the database for a hello kept in memory at once, apart "
                   "from --max-tables (the one idle longest makes room; 0: none is read back).")
@click.option("--read-back-idle", default=300.0, show_default=True, type=NumberRange(1, 10**7),
              help="Seconds a finished table read back for a hello stays in memory once nobody is at it.")
@click.option("--max-connections", default=10_000, show_default=True, type=click.IntRange(1),
              help="The most websocket connections held at once; one more is refused (too_many_connections).")
@click.option("--max-connections-per-address", default=256, show_default=True, type=click.IntRange(1),
              help="The most websocket connections one client address (IPv6: one /64) holds at once.")
@click.option("--request-rate", default=20.0, show_default=True, type=NumberRange(0),
              help="REST requests (and websocket connection attempts) a second one client address may make on "
                   "average; past it, 429 rate_limited (0: no limit).")
@click.option("--request-burst", default=100.0, show_default=True, type=NumberRange(1),
              help="REST requests one client address may make at once, before --request-rate applies.")
@click.option("--max-queued", default=4 * 1024 * 1024, show_default=True, type=click.IntRange(1),
              help="The most characters of messages queued for one websocket connection and not yet sent; past it "
                   "the connection is dropped (its client does not read).")
@click.option("--max-queued-per-address", default=32 * 1024 * 1024, show_default=True, type=click.IntRange(1),
              help="The same, for all the connections of one client address together.")
@click.option("--request-timeout", default=10.0, show_default=True, type=NumberRange(0.5, 3600),
              help="Seconds an HTTP request (line, headers and body) may take to arrive whole; past it the "
                   "connection is closed.")
@click.option("--limit-loopback", is_flag=True,
              help="Apply the per-address caps to clients on this machine (loopback, Unix socket) too.")
@click.option("--ws-deflate/--no-ws-deflate", default=False, show_default=True,
              help="Compress websocket frames (saves bandwidth, costs CPU on every message).")
@click.option("--log-level", default="info", show_default=True,
              type=click.Choice(["debug", "info", "warning", "error"]))
def serve_command(host: str, port: int, database: str | None, open_game: bool, no_browser: bool, bot_delay: float,
                  grace: float, abandon_after: float, heartbeat: float, bot_workers: int, slow_bot_workers: int,
                  bot_pool: str, dd_limit: float, dd_busy_rate: float, review_limit: float, max_tables: int,
                  max_read_back: int, read_back_idle: float, max_connections: int,
                  max_connections_per_address: int, request_rate: float, request_burst: float, max_queued: int,
                  max_queued_per_address: int, request_timeout: float, limit_loopback: bool, ws_deflate: bool,
                  log_level: str) -> None:
    """Run the game server (REST lobby under /api, websocket at /ws, browser client at /)."""
    if no_browser and not open_game:  # it would do nothing: a server started without the quickplay address
        raise click.UsageError("--no-browser only makes sense with --open (it keeps --open from opening a browser): "
                               "add --open to print the address of a game against bots, or leave --no-browser out")
    if not host.strip():  # `--host "$HOST"` with HOST unset: bind() takes '' for every interface, not for loopback
        raise click.BadParameter("give an address to bind (127.0.0.1, or 0.0.0.0 for every interface), not an empty "
                                 "value; leave the option out for 127.0.0.1", param_hint="'--host'")
    if database is not None and not database.strip():  # `--database "$DB"` with DB unset: not the default database
        raise click.BadParameter("give a database URL (sqlite:///path or postgresql://user:pw@host/db), not an "
                                 "empty value; leave the option out for the default database",
                                 param_hint="'--database'")
    from mizerka.server.app import create_app
    from mizerka.server.db import check_database, shown_url

    logging.basicConfig(level=log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if log_level != "debug":  # alembic names each of its plugins at every start: noise for an operator
        logging.getLogger("alembic.runtime.plugins").setLevel(logging.WARNING)
    config = ServerConfig(database=database or default_database(), bot_delay=bot_delay, grace=grace,
                          abandon_after=abandon_after, heartbeat=heartbeat, bot_workers=bot_workers,
                          slow_bot_workers=slow_bot_workers,
                          bot_pool="process" if bot_pool == "process" else "thread", dd_limit=dd_limit,
                          dd_busy_rate=dd_busy_rate, review_limit=review_limit, max_tables=max_tables,
                          max_read_back=max_read_back, read_back_idle=read_back_idle, max_connections=max_connections,
                          max_connections_per_address=max_connections_per_address, request_rate=request_rate,
                          request_burst=request_burst, max_queued=max_queued,
                          max_queued_per_address=max_queued_per_address, request_timeout=request_timeout,
                          limit_loopback=limit_loopback)
    # the address first: a port in use (or a host that is no address here) is told in one line, before the database
    # is made or upgraded; inside uvicorn's start-up it was a log line and exit status 3
    sock = listen(host, port)
    try:
        app = create_app(config)
        # here, not in the server's start-up: a bad one is told in one line; a folder typed wrong is not made
        check_database(config.database, make_folder=database is None)
    except ValueError as error:
        sock.close()
        raise click.ClickException(str(error)) from None

    class Server(uvicorn.Server):
        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets)
            if self.should_exit or not self.servers:
                return
            bound = self.servers[0].sockets[0].getsockname()[1]
            click.echo(f"mizerka server on {server_url(host, int(bound))} (database {shown_url(config.database)})",
                       err=True)
            if open_game:
                url = quickplay_url(host, int(bound))
                click.echo(f"Play against bots: {url}", err=False)
                sys.stdout.flush()
                if not no_browser and _graphical_browser():
                    _open_browser(url)

        async def shutdown(self, sockets: Any = None) -> None:
            # the analyses first: uvicorn waits for the open requests, and a review's waits for its analysis
            app.state.hub.halt_analyses()
            await super().shutdown(sockets)

    uv_config = uvicorn_config(app, config, host=host, port=port, log_level=log_level, ws_deflate=ws_deflate)
    hide_frames()  # after uvicorn's logging set-up, which made its handlers
    Server(uv_config).run(sockets=[sock])


def listen(host: str, port: int) -> socket.socket:
    """A TCP socket bound to *host*:*port* (0: a free port), as uvicorn would bind it.

    Raises:
        click.ClickException: the address cannot be had, with the system's reason (``Address already in use``,
            ``Cannot assign requested address``, a host name that does not resolve, or one that cannot be encoded
            as a host name at all: a byte that is no UTF-8 in it, a label over 63 characters).
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except (OSError, OverflowError) as error:
        sock.close()
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        raise click.ClickException(f"cannot listen on {host}:{port}: {reason}") from None
    except (UnicodeError, TypeError):  # the IDNA encoding of a name failed: bind() says "encoding of hostname failed"
        sock.close()
        raise click.ClickException(f"cannot listen on {host!r}: it is no host name or address (it cannot be "
                                   "encoded as a host name)") from None
    return sock


class FrameFilter(logging.Filter):
    """Drops the websocket layer's debug lines that quote a frame (``< TEXT '{"type":"act",...}'``).

    With ``--log-level debug`` the websockets library logs every frame it reads or writes.  A frame may hold a
    seat's token (``hello``) or cards the other seats may not see (a seat's discards in its ``act``, its own
    hand in its view), and no log line may carry either; the server's own lines carry public text only.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.levelno <= logging.DEBUG and isinstance(record.msg, str) and record.msg[:2] in ("< ", "> "))


def hide_frames() -> None:
    """Put a :class:`FrameFilter` on every handler that may print the websocket layer's lines (a handler's filter
    sees the records of every logger that reaches it), and on the loggers the layer writes to."""
    frame_filter = FrameFilter()
    names = ("", "uvicorn", "uvicorn.error", "websockets", "websockets.server", "websockets.protocol")
    for name in names:
        logger = logging.getLogger(name)
        logger.addFilter(frame_filter)
        for handler in logger.handlers:
            handler.addFilter(frame_filter)
