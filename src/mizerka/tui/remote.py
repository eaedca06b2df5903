"""``mizerka play --connect URL``: play at a table of a ``mizerka serve`` server, joined with its invite link.

The server is the authority (``docs/protocol.md``): it deals, checks every action and runs the other seats'
bots.  This module is its terminal client.

* :func:`parse_invite` reads an invite link (``http://host:port/?table=ID``, what the browser client shares).
* :class:`RemoteTable` takes a seat through the lobby API (``POST /api/tables/{id}/join``), keeps one
  websocket to ``/ws`` open, follows the table's numbered events and our seat's latest view,
  answers the server's heartbeats, and reconnects on a dropped connection (``hello`` with the last
  event number seen, so that no event is lost).
* :func:`view_observation` turns the view, and the events of the current deal, into a
  :class:`~mizerka.deal.Observation` of our seat, so that the line game and the full-screen dialogs draw a remote
  table exactly as they draw a local one.  Nothing in it comes from anywhere but what the server sent to our seat.
* :class:`SeatBook` remembers the seats you hold (server, table, seat, name and the secret seat token) in a
  file only you can read, so that ``mizerka play --connect`` with the same link takes you back to your seat after
  you quit, lose the connection for good, or restart the terminal.
* A seat may be taken as a *profile* (``--player-key KEY``, the secret key ``POST /api/players`` gave once when
  the name was claimed): the seat then carries the profile's name, marked as registered for everyone, and only
  such seats may be taken at a *rated* table (no hints, no undo; the result moves the players' ratings).  The key
  itself is never written down here: the seat book keeps only a fingerprint of it (:func:`key_fingerprint`).
* :class:`RemoteLineGame` is the ``--plain`` game (screen readers, pipes); the full-screen one is
  :class:`mizerka.tui.remote_app.RemoteApp`.
* ``--watch`` (:func:`watch_table`) follows a table as a spectator, without a token: the spectator's view holds
  public information only, and both games say in words what a spectator cannot do (act, chat) without sending it.
* Once the match is over a seated player asks for a rematch (:meth:`RemoteTable.rematch`); the others are told
  who has asked (the server's ``rematch_asked``: :meth:`RemoteTable.drain_rematch_asked`,
  :func:`rematch_asked_text`); when every seated human has asked, :meth:`RemoteTable.follow_rematch` takes the seat
  (and the seat book's entry) to the new table.

The server explains every refusal (``error`` with a code and a reason): the client shows the reason and asks
again; nothing is lost.  Hints come from the server, and only at tables whose ``hints`` option is on.

Table chat (``chat`` messages, at tables whose ``chat`` option is on) is shown as lines such as ``Ala: good
luck!`` (:func:`chat_line`; presets in English); the line game sends it with ``say TEXT``, the full-screen game
from a dialog (``!``) that offers the presets too.  :meth:`RemoteTable.say` and :meth:`RemoteTable.say_preset` send
and wait for the answer; a text too long to send is refused before it is sent (:func:`chat_too_long`).  A message
type this client does not know is ignored, as the protocol asks.

This module needs the ``websockets`` package (the ``tui`` extra); the lobby calls use the standard library.

>>> invite = parse_invite("http://127.0.0.1:8000/?table=Vq3xY")
>>> invite.table, invite.http, invite.websocket
('Vq3xY', 'http://127.0.0.1:8000', 'ws://127.0.0.1:8000/ws')
>>> parse_invite("https://example.org/play/?table=abc#ignored").websocket
'wss://example.org/play/ws'
>>> parse_invite("example.org/?table=abc")
Traceback (most recent call last):
...
mizerka.tui.remote.RemoteError: not an invite link: 'example.org/?table=abc' does not start with http:// or https://
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import http.client
import importlib
import itertools
import json
import os
import re
import socket
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from mizerka.cards import Card, CardSet
from mizerka.cli import stdout_takes_unicode
from mizerka.deal import Action, Choose, Exchange, Observation, Phase, Play, Trick
from mizerka.rules import Contract, Rules, RulesError, parse_variant
from mizerka.terminal import HELP_TEXT, UNDO_HELP_TEXT, QuitGame, TerminalGame, ascii_text, hint_text, signed
from mizerka.tui.review import REMOTE_REVIEW

if TYPE_CHECKING:
    from websockets.sync.client import ClientConnection

__all__ = ["CHAT_MAX_CHARS", "CHAT_PRESET_TEXTS", "FILL_DEFAULT", "FILL_SPECTATOR", "RATED_NOTE", "SHEET_NAME_CELLS",
           "SIT_NONE", "SPECTATOR_CHAT", "HeldSeat", "Invite", "RemoteError", "RemoteLineGame", "RemoteRefused",
           "RemoteTable", "SatDown", "SeatBook", "SitInAs", "chat_line", "chat_too_long", "contracts_grid",
           "fill_levels", "fit_cells", "free_seat_text", "invite_link", "key_fingerprint", "marked_name",
           "missed_deal_text", "parse_invite", "play_remote", "rematch_asked_text", "rematch_refusal", "sheet_text",
           "sit_in", "undone_cards", "view_observation", "waiting_text", "watch_table"]

PROTOCOL_VERSION = 1
"""The protocol version this client speaks (``docs/protocol.md``)."""

CHAT_PRESET_TEXTS = {"hello": "hello!", "good_luck": "good luck!", "well_played": "well played!",
                     "thanks": "thanks!", "sorry": "sorry!", "one_moment": "one moment, please.", "bye": "bye!"}
"""The chat's ready-made phrases in English, by the code the server relays (``CHAT_PRESETS`` of
:mod:`mizerka.server.protocol`; this module does not import the server)."""

CHAT_MAX_CHARS = 200
"""The longest chat text the server takes (``MAX_CHAT_CHARS`` of :mod:`mizerka.server.chat`): a longer one is refused
here, since a frame larger than the server reads gets an error that cannot name our request."""


def chat_too_long(text: str) -> str | None:
    """Why *text* (stripped, as the server strips it) is too long to send, or ``None`` when it is short enough.

    The server would refuse it too (``chat_too_long``, in the same words), but a text far over the limit makes a
    frame larger than the server reads, and that refusal cannot name our request: so the clients refuse it first.

    >>> chat_too_long("  good luck!  ") is None
    True
    >>> chat_too_long("x" * 201)
    'the message has 201 characters; at most 200 are allowed'
    """
    count = len(text.strip())
    return f"the message has {count} characters; at most {CHAT_MAX_CHARS} are allowed" if count > CHAT_MAX_CHARS \
        else None


def _chat_key(said: dict[str, Any]) -> tuple[object, ...]:
    """What tells two chat messages apart when their numbers cannot (see :meth:`RemoteTable._set_chat_history`)."""
    return said.get("seq"), said.get("seat"), said.get("name"), said.get("text"), said.get("preset")


def chat_line(message: dict[str, Any], you: int | None = None) -> str:
    """One ``chat`` message as a line of text: the sender's name (``You`` for *you*), then what they said.

    >>> chat_line({"type": "chat", "seq": 1, "seat": 0, "name": "Ala", "preset": "good_luck"})
    'Ala: good luck!'
    >>> chat_line({"type": "chat", "seq": 2, "seat": 1, "name": "Bolek", "text": "dzięki"}, you=1)
    'You: dzięki'
    >>> chat_line({"type": "chat", "seq": 3, "seat": 1, "name": "Bolek", "preset": "new_one"})
    'Bolek: (new_one)'
    """
    name = "You" if you is not None and message.get("seat") == you else str(message.get("name") or "?")
    preset = message.get("preset")
    # a phrase newer than this client is shown by its code
    said = str(message.get("text", "")) if preset is None else CHAT_PRESET_TEXTS.get(str(preset), f"({preset})")
    return f"{name}: {said}"


_PHASES = {"waiting": Phase.CHOOSE, "choose": Phase.CHOOSE, "exchange": Phase.EXCHANGE, "play": Phase.PLAY,
           "done": Phase.DONE, "over": Phase.DONE}


RATED_NOTE = "Rated table: no hints, no undo; the result changes the players' ratings."
"""What the line game and the full-screen game say once at a rated table (the view's ``options.rated``)."""

SPECTATOR_CHAT = "Spectators can read the chat but not write in it: only the seated players talk."
"""What both games say, without sending anything, when a spectator tries to chat (the server would answer
``no_seat``)."""


def marked_name(player: dict[str, Any], unicode: bool = True) -> str:
    """A seat's name (an entry of the view's ``players``), with ``✓`` (``*`` in ASCII) when a profile holds it
    (``registered``: the name is unique on the server and proven by its player key; the web client's mark).

    >>> marked_name({"seat": 0, "name": "Ala", "open": False, "registered": True})
    'Ala ✓'
    >>> marked_name({"seat": 0, "name": "Ala", "open": False, "registered": True}, unicode=False)
    'Ala *'
    >>> marked_name({"seat": 2, "name": None, "open": True})
    'seat 2'
    """
    name = str(player.get("name") or f"seat {player.get('seat')}")
    if player.get("registered") and not player.get("open"):
        return f"{name} {'✓' if unicode else '*'}"
    return name


class RemoteError(ValueError):
    """The server cannot be reached, refuses the link or the seat, or the connection is lost for good."""


BUSY_CODES = frozenset({"server_full", "rate_limited", "internal"})
"""A ``hello``'s refusals that are not final (docs/protocol.md): the server is busy now, and a reconnect tries again
after a pause (:meth:`RemoteTable._connect_retrying`), as the browser does."""


RECONNECT_WINDOW = 60.0
"""For how many seconds :class:`RemoteTable` keeps trying to reconnect after the connection drops (a server's
restart takes some seconds) before the game ends with "could not reconnect"."""

RECONNECT_PAUSE_MAX = 5.0
"""The longest pause between two reconnect tries (the pauses double from 0.2 s up to it)."""

KEEPALIVE = (20.0, 20.0)
"""The websocket's keepalive, ``(ping_interval, ping_timeout)`` in seconds (the websockets library's, from its
version 15 in the threading client the terminal uses): a ping every 20 s, and a connection that answers none within
20 s is closed, so that one that died without a word (a laptop woken from sleep, a router restarted) is found and
made again (:meth:`RemoteTable.poll`) instead of being waited on for ever while the server gives the seat to a
stand-in.  :attr:`RemoteTable.keepalive` may set another."""

RATE_LIMITED_RETRIES = 5
"""How many times :meth:`RemoteTable.request` sends a message again after a ``rate_limited`` error before failing."""


def rate_limited_wait(reply: dict[str, Any]) -> float:
    """The seconds to wait before sending again after a ``rate_limited`` *reply*: its ``retry_after``, else the
    seconds its text names ("try again in 3 s"), else 1 s (the server's message limit refills in about a second).

    >>> rate_limited_wait({"retry_after": 2}), rate_limited_wait({"message": "try again in 3 s"})
    (2.0, 3.0)
    >>> rate_limited_wait({"message": "more than 20 messages a second; message dropped"})
    1.0
    """
    after = reply.get("retry_after")
    if isinstance(after, (int, float)) and not isinstance(after, bool) and after > 0:
        return min(float(after), 30.0)
    found = re.search(r"(\d+(?:\.\d+)?)\s*s\b", str(reply.get("message") or ""))
    return min(float(found.group(1)), 30.0) if found else 1.0


class RemoteRefused(RemoteError):
    """The server answered and refused: a stale link, a full table, a bad token.  Trying again will not help.

    :attr:`code` is the server's error code where it gave one (``"bad_token"``, ``"unknown_table"``, ...).
    """

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.code = code


# -- the invite link --------------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Invite:
    """An invite link, read: the server's address (``http``), its websocket (``websocket``) and the table id."""

    http: str
    websocket: str
    table: str


def _read_link(url: str, what: str) -> tuple[urllib.parse.SplitResult, str]:
    """Check a web address given as *what* ("an invite link", "a server address"); return its parts and the
    path of the server's base address (``/path`` of ``scheme://host[:port]/path``, without a trailing ``/`` or
    ``/index.html``).

    Raises:
        RemoteError: naming what is wrong.
    """
    text = url.strip()
    if any(ch.isspace() or not ch.isprintable() for ch in text):
        raise RemoteError(f"not {what}: {text!r} holds a space or a control character (copy the whole "
                          "link, and only it)")
    try:
        parts = urllib.parse.urlsplit(text)
        hostname = parts.hostname
    except ValueError as error:  # e.g. "http://[::1/?table=x": a bracketed address that does not close
        raise RemoteError(f"not {what}: {text!r} is not a web address ({error})") from None
    if parts.scheme not in ("http", "https"):
        raise RemoteError(f"not {what}: {text!r} does not start with http:// or https://")
    if not hostname:
        raise RemoteError(f"not {what}: {text!r} names no server")
    if problem := _host_problem(hostname):
        raise RemoteError(f"not {what}: {text!r} names the server {hostname!r}, which is no host name ({problem})")
    if parts.username is not None or parts.password is not None:
        raise RemoteError(f"not {what}: {text.split('@')[-1]!r} comes after a user name or password, "
                          f"which {what} never holds (and which would be kept with your seats)")
    try:
        parts.port  # noqa: B018 - reading it checks it
    except ValueError:
        raise RemoteError(f"not {what}: {text!r} has a bad port number") from None
    path = parts.path.rstrip("/")
    if path.endswith("/index.html"):
        path = path[: -len("/index.html")]
    # a link into the server's API or its websocket (``/api/tables/ID``, ``/api/history``, ``/ws``): the base is
    # what comes before it
    for marker in ("/api/", "/ws"):
        at = (path + "/").find(marker if marker.endswith("/") else marker + "/")
        if at >= 0:
            path = path[:at]
            break
    return parts, path


def _host_problem(host: str) -> str | None:
    """What is wrong with *host* as a host name (a link's server), or ``None``: the name must be one the system
    can look up, that is one IDNA can encode (the standard library's ``idna`` codec, which :mod:`urllib` and
    :mod:`socket` use), so each of its dot-separated labels must be 1 to 63 characters.  ``x..y`` and a label of
    64 letters are no names: refused here, as a bad address, rather than failing inside :mod:`urllib` with a
    ``UnicodeError``, which is a ``ValueError`` like a bad JSON answer's.

    >>> _host_problem("example.org"), _host_problem("::1"), _host_problem("zażółć.pl")
    (None, None, None)
    >>> _host_problem("x..y")
    'an empty label: two dots in a row, or a dot first'
    >>> _host_problem("a" * 64 + ".org")
    'a label of 64 characters: at most 63 between two dots'
    """
    if ":" in host:  # an IPv6 address ([::1] in the link): no labels, and urlsplit has checked the brackets
        return None
    try:
        host.encode("idna")
    except UnicodeError as error:
        labels = host.removesuffix(".").split(".")
        if any(not label for label in labels):
            return "an empty label: two dots in a row, or a dot first"
        longest = max(labels, key=len)
        if len(longest) > 63:
            return f"a label of {len(longest)} characters: at most 63 between two dots"
        return f"it cannot be written as an internationalised domain name: {error}"
    return None


INVITE_TABLE_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""The table ids a server makes and looks for (``mizerka.server.hub.TABLE_ID``, which this module does not import:
the client needs no server stack)."""


def parse_invite(url: str) -> Invite:
    """Read an invite link ``http(s)://host[:port][/path]/?table=ID`` (the browser client's ``/?table=ID``).

    Raises:
        RemoteError: for anything that is not such a link, naming what is wrong.
    """
    parts, path = _read_link(url, "an invite link")
    text = url.strip()
    tables = urllib.parse.parse_qs(parts.query).get("table", [])
    if len(tables) != 1 or not tables[0].strip():
        raise RemoteError(f"not an invite link: {text!r} has no '?table=ID' (copy the whole link; to list the "
                          "server's open tables: mizerka tables URL)")
    table = tables[0].strip()
    if not INVITE_TABLE_ID.fullmatch(table):  # e.g. "../../etc": sent on, it reached another endpoint of the server
        raise RemoteError(f"not an invite link: the table id {table[:70]!r} is not one a server makes (letters, "
                          "digits, - and _)")
    ws_scheme = "wss" if parts.scheme == "https" else "ws"
    return Invite(http=f"{parts.scheme}://{parts.netloc}{path}", websocket=f"{ws_scheme}://{parts.netloc}{path}/ws",
                  table=table)


def parse_server(url: str) -> str:
    """The base address of the server *url* names: its lobby, an invite link or any other page of it.

    >>> parse_server("http://127.0.0.1:8000/")
    'http://127.0.0.1:8000'
    >>> parse_server("https://example.org/mizerka/?table=Vq3xY")
    'https://example.org/mizerka'
    >>> parse_server("http://127.0.0.1:8000/api/tables/Vq3xY/sheet")
    'http://127.0.0.1:8000'

    Raises:
        RemoteError: for anything that is not a web address, naming what is wrong.
    """
    parts, path = _read_link(url, "a server address")
    return f"{parts.scheme}://{parts.netloc}{path}"


class _HttpRefusal(Exception):
    """An HTTP error status from a server's REST API (:func:`_call_server`), with its error code and message."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status, self.code, self.message = status, code, message


def _call_server(server: str, path: str, body: dict[str, Any] | None, timeout: float) -> tuple[Any, str]:
    """GET *path* of the server at *server* (POST *body* as JSON when given); return the JSON answer and its
    ``X-Total-Count`` header ('' without one).

    Raises:
        _HttpRefusal: an error status, with the server's code and message where it gave them.
        RemoteError: a server that cannot be reached, or an answer that is not JSON.
    """
    headers = {"Accept": "application/json"}
    if body is not None:
        headers["Content-Type"] = "application/json"
    request = urllib.request.Request(f"{server}{path}", headers=headers, method="GET" if body is None else "POST",
                                     data=None if body is None else json.dumps(body).encode())
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            answer, total = response.read(), str(response.headers.get("X-Total-Count", ""))
    except urllib.error.HTTPError as error:
        try:
            data = json.loads(error.read())
            code, message = str(data.get("error", "")), str(data.get("message", ""))
        except (ValueError, AttributeError):
            code, message = "", ""
        raise _HttpRefusal(error.code, code, message) from None
    except (urllib.error.URLError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise RemoteError(f"cannot reach the server at {server}: {reason}") from None
    except http.client.HTTPException as error:  # something answered, but not in HTTP (a port of another service)
        raise RemoteError(f"{server} did not answer like a mizerka server (not HTTP: "
                          f"{type(error).__name__})") from None
    except ValueError as error:  # before any answer: a host name IDNA cannot encode (UnicodeError), a bad URL
        raise RemoteError(f"cannot reach the server at {server}: its address is not usable ({error})") from None
    try:  # only the answer's decoding is a "no JSON": a ValueError of urlopen's is about the address
        return json.loads(answer), total
    except ValueError:
        raise RemoteError(f"{server} did not answer like a mizerka server (no JSON)") from None


@dataclasses.dataclass(frozen=True)
class OpenTable:
    """A public table a server lists (``GET /api/tables``): waiting for players or playing."""

    id: str
    name: str
    variant: str
    status: str
    players: tuple[str, ...]
    free_seats: int
    takeover_seats: int
    """Seats a computer player plays that a human may take over now (the match of an unrated table)."""
    rated: bool
    spectators: bool
    link: str


def _listed_player(seat: dict[str, Any]) -> str:
    """A taken seat of a listed table, as the list says it: the name, and a bot's level.

    >>> _listed_player({"name": "Bot 3", "kind": "bot", "badge": "Rules"})
    'Bot 3 (bot: Rules)'
    >>> _listed_player({"name": "Ala", "kind": "human"})
    'Ala'
    """
    name = str(seat.get("name") or "?")
    return f"{name} (bot: {seat.get('badge') or seat.get('bot')})" if seat.get("kind") == "bot" else name


def open_tables(server: str, *, limit: int = 100, timeout: float = 10.0) -> tuple[list[OpenTable], int]:
    """The first *limit* public tables of the server at *server* (a base address: :func:`parse_server`), the
    waiting ones first, and how many it lists in all (``X-Total-Count``).

    Raises:
        RemoteError: when the server cannot be reached or does not answer like a mizerka server.
    """
    try:
        data, total_header = _call_server(server, f"/api/tables?limit={limit}", None, timeout)
    except _HttpRefusal as error:
        raise RemoteError(f"{server} did not answer like a mizerka server (HTTP status {error.status} for its open "
                          "tables)") from None
    try:
        tables = [OpenTable(
            id=str(tb["id"]), name=str(tb.get("name") or ""), variant=str(tb["variant"]), status=str(tb["status"]),
            players=tuple(_listed_player(seat) for seat in tb["seats"] if not seat.get("open")),
            free_seats=sum(1 for seat in tb["seats"] if seat.get("open")),
            takeover_seats=sum(1 for seat in tb["seats"] if seat.get("takeover")),
            rated=bool((tb.get("options") or {}).get("rated")),
            spectators=(tb.get("options") or {}).get("spectators") is not False,
            link=f"{server}/?table={urllib.parse.quote(str(tb['id']), safe='')}") for tb in data]
    except (TypeError, KeyError, AttributeError):
        raise RemoteError(f"{server} did not answer like a mizerka server (its list of tables is not one)") from None
    total = int(total_header) if total_header.isdigit() else len(tables)
    return tables, max(total, len(tables))


def invite_link(invite: Invite) -> str:
    """The invite link of *invite*'s table, as the browser client shares it (what :func:`parse_invite` reads).

    >>> invite_link(parse_invite("http://127.0.0.1:8000/play/?table=Vq3xY"))
    'http://127.0.0.1:8000/play/?table=Vq3xY'
    """
    return f"{invite.http}/?table={urllib.parse.quote(invite.table, safe='')}"


def pair_at(server: str, name: str | None, *, variant: str = "standard", player_key: str | None = None,
            rated: bool = False, timeout: float = 10.0) -> tuple[Invite, int, str, str]:
    """Quick pairing at the server at *server* (a base address: :func:`parse_server`; ``POST /api/pair``): a seat
    at the public table waiting for players under *variant* (rated or not) with the most of them, or at a new one
    the next caller joins.  Return the table's invite, the seat, its token and the name it took.

    Raises:
        RemoteError: the server's refusal with its reason, or a server that cannot be reached or is no mizerka
            server.
    """
    body: dict[str, Any] = {"variant": variant, "table_name": f"{name or 'Guest'}'s table"[:60]}
    if name is not None:
        body["name"] = name
    if player_key is not None:
        body["player_key"] = player_key
    if rated:
        body["rated"] = True
    try:
        answer, _ = _call_server(server, "/api/pair", body, timeout)
    except _HttpRefusal as error:
        code, message = error.code, error.message
        if code == "profile_needed":
            raise RemoteRefused("rated pairing needs a profile: claim a name in the browser lobby or with POST "
                                "/api/players, then pass --player-key KEY (or set MIZERKA_PLAYER_KEY)", code) from None
        if code == "bad_key":
            raise RemoteRefused(f"the server at {server} knows no profile with this player key (a key works only "
                                "on the server that gave it; check --player-key or MIZERKA_PLAYER_KEY)", code) from None
        detail = f"{message} ({code})" if code else f"HTTP status {error.status}"
        raise RemoteRefused(f"the server at {server} did not pair you: {detail}", code or None) from None
    try:
        table_id, seat, token = str(answer["table"]["id"]), int(answer["seat"]), str(answer["token"])
        seated = str(answer.get("name") or answer["table"]["seats"][seat]["name"] or name or "Guest")
        invite = parse_invite(f"{server}/?table={urllib.parse.quote(table_id, safe='')}")
    except (AttributeError, KeyError, TypeError, ValueError, IndexError, RemoteError):
        raise RemoteError(f"{server} did not answer like a mizerka server (no seat at a table)") from None
    return invite, seat, token, seated


# -- the seats you hold ----------------------------------------------------------------------------------------


def key_fingerprint(player_key: str) -> str:
    """What the seat book keeps of a player key: enough to tell whether a seat was taken with it, never the key.

    A hash with this client's own prefix, so it is not the SHA-256 the server stores either.

    >>> key_fingerprint("k1") == key_fingerprint("k1") != key_fingerprint("k2")
    True
    >>> len(key_fingerprint("k1"))
    32
    """
    return hashlib.sha256(b"mizerka seat book\0" + player_key.encode()).hexdigest()[:32]


@dataclasses.dataclass(frozen=True)
class HeldSeat:
    """A seat taken at a server's table: its number, the name it was taken under, its secret token, and, for a seat
    taken as a profile (``--player-key``), the key's fingerprint (:func:`key_fingerprint`; ``None``: no key)."""

    seat: int
    name: str
    token: str
    key: str | None = None


class SeatBook:
    """The seats you hold at servers' tables, kept in one JSON file between runs.

    The token is the only proof that a seat is yours (the server stores just its hash), so the file is
    written for its owner alone (mode 0600).  Entries are keyed by the server's address and the table id.
    A damaged file is treated as empty and rewritten on the next save: losing it costs a seat, not a crash.

    >>> import tempfile
    >>> book = SeatBook(Path(tempfile.mkdtemp()) / "seats.json")
    >>> invite = parse_invite("http://127.0.0.1:8000/?table=Vq3xY")
    >>> book.get(invite) is None
    True
    >>> book.put(invite, HeldSeat(seat=1, name="Ola", token="s3cret"))
    >>> book.get(invite)
    HeldSeat(seat=1, name='Ola', token='s3cret', key=None)
    >>> oct(book.path.stat().st_mode & 0o777)
    '0o600'
    >>> book.forget(invite); book.get(invite) is None
    True
    """

    def __init__(self, path: Path) -> None:
        self.path = path

    @classmethod
    def default(cls) -> SeatBook:
        """The book in the user's data directory (``$MIZERKA_DATA_DIR`` overrides it)."""
        folder = os.environ.get("MIZERKA_DATA_DIR")
        if not folder:
            try:
                import platformdirs
            except ImportError:
                folder = str(Path.home() / ".local" / "share" / "mizerka")
            else:
                folder = platformdirs.user_data_dir("mizerka")
        return cls(Path(folder) / "seats.json")

    @staticmethod
    def _key(invite: Invite) -> str:
        return f"{invite.http} {invite.table}"

    def _load(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def _save(self, data: dict[str, Any]) -> None:
        # a scratch file of this process's own: two games saving at once must not replace each other's
        scratch = self.path.with_name(f".{self.path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        descriptor = os.open(scratch, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as out:
            json.dump(data, out, indent=1, sort_keys=True)
        os.replace(scratch, self.path)

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        """Hold the book's lock file while reading, changing and writing it: two games at one computer (two
        players, two terminals) save their seats at the same time, and neither may lose the other's."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(self.path.with_name(self.path.name + ".lock"), os.O_RDWR | os.O_CREAT, 0o600)
        try:
            try:
                import fcntl
            except ImportError:  # not a POSIX system: no lock (one game at a time is safe there)
                fcntl = None  # type: ignore[assignment]
            if fcntl is not None:
                fcntl.flock(descriptor, fcntl.LOCK_EX)
            yield
        finally:
            os.close(descriptor)  # closing releases the lock

    def get(self, invite: Invite) -> HeldSeat | None:
        """The seat held at the invite's table, if this book has one."""
        entry = self._load().get(self._key(invite))
        if not isinstance(entry, dict):
            return None
        try:
            key = entry.get("key")  # absent in a book written before profiles: a seat taken without a key
            return HeldSeat(seat=int(entry["seat"]), name=str(entry["name"]), token=str(entry["token"]),
                            key=None if key is None else str(key))
        except (KeyError, TypeError, ValueError):
            return None

    def put(self, invite: Invite, held: HeldSeat) -> None:
        with self._locked():
            data = self._load()
            data[self._key(invite)] = dataclasses.asdict(held)
            self._save(data)

    def forget(self, invite: Invite) -> None:
        with self._locked():
            data = self._load()
            if data.pop(self._key(invite), None) is not None:
                self._save(data)


# -- the view as an observation ---------------------------------------------------------------------------------


def _cards(texts: Sequence[str]) -> CardSet:
    return CardSet(Card.from_str(t) for t in texts)


def deal_history(events: Sequence[dict[str, Any]], seat: int | None) -> tuple[list[tuple[int, Action | int]],
                                                                                list[Trick]]:
    """The ``(actor, action)`` history and the completed tricks of one deal, from its ``action`` events.

    Another seat's exchange is only its count (the server never sends its cards to us); our own carries the
    discards the server sent to our seat alone.
    """
    history: list[tuple[int, Action | int]] = []
    tricks: list[Trick] = []
    for event in events:
        if event.get("kind") != "action":
            continue
        actor = int(event["actor"])
        kind = event.get("action_kind")
        if kind == "choose":
            history.append((actor, Choose(Contract.from_str(str(event["contract"])))))
        elif kind == "play":
            history.append((actor, Play(Card.from_str(str(event["card"])))))
        elif kind == "exchange":
            if actor == seat and "discards" in event:
                history.append((actor, Exchange(_cards(event["discards"]))))
            else:
                history.append((actor, int(event["count"])))
        trick = event.get("trick")
        if trick:
            tricks.append(Trick(int(trick["leader"]), tuple(Card.from_str(c) for c in trick["cards"]),
                                int(trick["winner"])))
    return history, tricks


def view_observation(view: dict[str, Any], rules: Rules, events: Sequence[dict[str, Any]] = ()) -> Observation:
    """Our seat's :class:`~mizerka.deal.Observation` of the current deal, from its view and the deal's events.

    The view holds our hand, discards, draws and every public count; the events (``action`` events of this
    deal, in order) give the history and the completed tricks.  ``first_cards`` and ``stock_size`` are not
    on the wire: the first is the hand plus discards before the exchange, the second is 0.
    """
    roles = {role: int(seat) for seat, role in view["roles"].items()}
    n = rules.n_seats
    # before the first deal (waiting for players) there are no roles yet
    active = (roles["FH"], roles["MH"], roles["D"]) if len(roles) == 3 else (1 % n, 2 % n, 0)
    history, tricks = deal_history(events, view["seat"])
    trick = view["trick"]
    last = view["last_trick"]
    if trick:
        leader = int(trick["leader"])
    elif last:
        leader = int(last["winner"])
    else:
        leader = active[0]
    legal: list[Action] = []
    for text in view["legal"]:
        if text in ("C", "D", "H", "S", "NT", "MZ"):
            legal.append(Choose(Contract.from_str(text)))
        else:
            legal.append(Play(Card.from_str(text)))
    hand = _cards(view["hand"])
    discards = _cards(view["discards"])
    drawn = _cards(view["drawn"])
    contract = view["contract"]
    return Observation(
        rules=rules, seat=view["seat"], dealer=view["dealer"] if view["dealer"] is not None else 0,
        active_seats=active, phase=_PHASES[view["phase"]],
        to_move=view["to_move"] if view["to_move"] is not None else -1,
        allowed_contracts=tuple(Contract.from_str(c) for c in view["allowed_contracts"]),
        contract=Contract.from_str(contract["code"]) if contract else None,
        hand=hand, first_cards=(hand | discards) - drawn, dealt=(hand | discards) - drawn,
        discards=discards, drawn=drawn, exchange_counts=tuple(view["exchange_counts"]),
        talon_size=view["talon_size"], stock_size=0,
        shown_card=Card.from_str(view["shown_card"]) if view["shown_card"] else None,
        hand_sizes=tuple(view["hand_sizes"]), tricks=tuple(tricks), trick_leader=leader,
        trick=tuple(Card.from_str(c) for c in trick["cards"]) if trick else (),
        tricks_won=tuple(view["tricks_won"]),
        scores=tuple(view["deal_scores"]) if view["deal_scores"] is not None else None,
        history=tuple(history), legal_actions=tuple(legal), deal_no=max(1, view["deal_no"]),
        totals=tuple(view["totals"]), used=tuple(tuple(Contract.from_str(c) for c in u) for u in view["used"]),
    )


# -- the connection ---------------------------------------------------------------------------------------------


class RemoteTable:
    """One seat at a server's table, over one websocket that reconnects by itself.

    Args:
        invite: the table's invite link (see :func:`parse_invite`).
        timeout: seconds to wait for the server to answer a request.
        reconnect_window: for how many seconds to keep trying to reconnect after the connection drops (with
            pauses growing to :data:`RECONNECT_PAUSE_MAX`), :data:`RECONNECT_WINDOW` by default: a server that
            restarts in that time finds the game going on.  :attr:`on_reconnecting` is told once per drop.

    The state follows the server: :attr:`view` is our seat's latest view, :attr:`seq` the last event number
    seen, :attr:`events` every event of the table in order, and :meth:`drain` hands out the events not yet shown.
    """

    def __init__(self, invite: Invite, *, timeout: float = 10.0, reconnect_window: float | None = None) -> None:
        self.invite = invite
        self.timeout = timeout
        self.reconnect_window = RECONNECT_WINDOW if reconnect_window is None else reconnect_window
        self.keepalive = KEEPALIVE  # (ping_interval, ping_timeout) of each connection made from now on
        # told (a sentence) when a reconnect's first try has failed and the tries go on: the games say it, with
        # how to quit meanwhile; None: nobody is told
        self.on_reconnecting: Callable[[str], None] | None = None
        self.seat: int | None = None
        self.token: str | None = None
        self.seated_as: str | None = None  # the seat's name, as the server gave it (a profile's, with a key)
        self.view: dict[str, Any] = {}
        self.seq = 0
        self.epoch = 0  # the journal's epoch: how many times an undo has cut it (sent back with the last event)
        self.events: list[dict[str, Any]] = []
        self._undone: list[dict[str, Any]] = []
        self.rules: Rules | None = None
        self.reconnects = 0
        self._new: list[dict[str, Any]] = []
        self._ws: ClientConnection | None = None
        self._exits = contextlib.ExitStack()
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._replies: dict[object, dict[str, Any]] = {}
        # taking the whole journal again after an undo we missed: the events we had, and how many of them were
        # shown; what the new journal holds past them is news (see _take_journal_again)
        self._resync: tuple[list[dict[str, Any]], int] | None = None
        self.chat: list[dict[str, Any]] = []  # the table's chat as received (the welcome's history, then live)
        self._new_chat: list[dict[str, Any]] = []
        # the score sheet rows of the deals that ended while we were away, not handed out yet (see drain_missed)
        self._missed: list[dict[str, Any]] = []
        # the other seats whose wish for a rematch (the view's rematch_asked) was handed out (drain_rematch_asked)
        self._rematch_told: set[int] = set()
        # the seat book that remembers our seat here, and the entry it keeps (set by take_seat): a rematch moves it
        self.book: SeatBook | None = None
        self.held: HeldSeat | None = None

    # -- the lobby ------------------------------------------------------------------------------------------

    def _post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        try:
            answer, _ = _call_server(self.invite.http, path, body, self.timeout)
        except _HttpRefusal as error:
            raise self._lobby_error(error.status, error.code, error.message) from None
        if not isinstance(answer, dict):
            raise RemoteError(f"{self.invite.http} did not answer like a mizerka server (no object)")
        return answer

    def _lobby_error(self, status: int, code: str, message: str) -> RemoteError:
        table = self.invite.table
        if code == "unknown_table" or (status == 404 and not code):
            return RemoteRefused(f"the invite link is stale: the server has no open table {table!r} "
                                 "(it has finished or closed); ask for a new link", code or "unknown_table")
        if code in ("table_full", "seat_taken"):
            return RemoteRefused(f"table {table!r} has no free seat: {message or code} (to follow the match as a "
                                 "spectator instead, add --watch)", code)
        if code == "match_over":
            return RemoteRefused(f"the invite link is stale: the match at table {table!r} is over", code)
        if code == "profile_needed":
            return RemoteRefused(f"table {table!r} is rated: only a player with a profile may sit there.  Claim a "
                                 "name in the browser lobby or with POST /api/players, then pass --player-key KEY "
                                 "(or set MIZERKA_PLAYER_KEY) with the key it gives", code)
        if code == "bad_key":
            return RemoteRefused(f"the server at {self.invite.http} knows no profile with this player key (a key "
                                 "works only on the server that gave it; check --player-key or "
                                 "MIZERKA_PLAYER_KEY)", code)
        if code == "already_seated":
            return RemoteRefused(f"your profile already holds a seat at table {table!r}: use the same link from "
                                 "where you sat down (that browser or terminal holds the seat), or ask for "
                                 "another table's link", code)
        if code == "held_another_seat":
            return RemoteRefused(f"your profile played another seat of table {table!r} in this deal and has seen "
                                 "its cards: take that seat back (its link, or no seat number), or another one from "
                                 "the next deal", code)
        if code == "bad_name":
            detail = f" ({message})" if message else ""
            return RemoteRefused(f"the name does not belong to your player key's profile{detail}: leave out --name "
                                 "(the seat takes the profile's name) or give the profile's name", code)
        detail = f"{message} ({code})" if code else f"HTTP status {status}"
        return RemoteRefused(f"the server refused to seat you at table {table!r}: {detail}", code or None)

    def join(self, name: str | None, player_key: str | None = None, seat: int | None = None) -> int:
        """Take a free seat at the table under *name*, or, with *player_key*, as that profile (under its name; a
        *name* given too must be the profile's); return the seat.  :attr:`seated_as` is the name the seat took.
        With *seat*, that seat: an open one, or during an unrated match a computer player's to take over (see
        :meth:`free_seats`); without, the server picks the first open seat, else the first to take over.

        Raises:
            RemoteError: a stale link, a full table, an unreachable server, a refused name or key, a rated table
                without a key, a profile seated there already, a seat taken meanwhile.
        """
        body: dict[str, Any] = {} if name is None else {"name": name}
        if player_key is not None:
            body["player_key"] = player_key
        if seat is not None:
            body["seat"] = seat
        answer = self._post(f"/api/tables/{urllib.parse.quote(self.invite.table, safe='')}/join", body)
        try:
            self.seat, self.token = int(answer["seat"]), str(answer["token"])
        except (KeyError, TypeError, ValueError):
            raise RemoteError(f"{self.invite.http} did not answer like a mizerka server (no seat token)") from None
        try:  # the name itself (the table may show it made distinct, "Ala (2)"); an older server's seat entry
            seated = answer.get("name") or answer["table"]["seats"][self.seat]["name"]
        except (AttributeError, KeyError, TypeError, IndexError):
            seated = None
        self.seated_as = str(seated) if seated else (name or "Guest")
        return self.seat

    # -- the websocket --------------------------------------------------------------------------------------

    def connect(self) -> None:
        """Open the websocket and say ``hello`` with the seat token (and the last event seen).

        Raises:
            RemoteError: the server cannot be reached or refuses the hello (its reason is in the message).
        """
        from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI
        from websockets.sync.client import connect

        self.close()
        try:
            self._ws = self._exits.enter_context(
                connect(self.invite.websocket, open_timeout=self.timeout, close_timeout=1, max_size=2**22,
                        ping_interval=self.keepalive[0], ping_timeout=self.keepalive[1]))
        # ConnectionClosed: the server (restarting, say) dropped the connection during the handshake
        except (OSError, InvalidHandshake, InvalidURI, TimeoutError, ConnectionClosed) as error:
            raise RemoteError(f"cannot open the game connection {self.invite.websocket}: {error}") from None
        hello: dict[str, Any] = {"type": "hello", "protocol": PROTOCOL_VERSION, "table": self.invite.table,
                                 "last_seq": self.seq}
        if self.seq:  # the events we hold are named by the epoch too (from the start, every epoch's are good)
            hello["epoch"] = self.epoch
        if self.token is not None:
            hello["token"] = self.token
        reply = self.request(hello, reconnect=False)
        if reply["type"] == "error" and reply.get("code") == "bad_seq" and self.seq:
            # an undo (from another of our connections) cut the journal while we were away: what we saw is not
            # the table's history any more; take it whole again, without writing it out a second time
            with self._lock:
                if self._resync is None:  # (still set if the last try failed: what was shown is in it)
                    self._resync = (self.events, len(self.events) - len(self._new))
                self.events, self.seq, self._new = [], 0, []
                self._undone.append({"seat": self.seat, "actions": [], "away": True})
            hello["last_seq"] = 0
            hello.pop("epoch")
            reply = self.request(hello, reconnect=False)
        if reply["type"] == "error":
            self.close()
            code, message = reply.get("code"), reply.get("message")
            if code == "unknown_table":
                raise RemoteRefused(f"the invite link is stale: {message}", code)
            if code == "spectators_off":
                raise RemoteRefused(f"table {self.invite.table!r} admits no spectators: its host turned watching "
                                    "off, so only its players can follow it", code)
            if code in BUSY_CODES:  # not final (docs/protocol.md): a reconnect tries again after a pause
                raise RemoteError(f"the server is busy ({code}): {message}; try again in a moment")
            raise RemoteRefused(f"the server refused the connection: {message} ({code})", code)

    def close(self) -> None:
        self._ws = None
        exits, self._exits = self._exits, contextlib.ExitStack()
        with contextlib.suppress(Exception):  # a broken connection may fail to close; it is gone either way
            exits.close()

    def drop(self) -> None:
        """Cut the connection without a goodbye, as a network failure would (tests use it for reconnecting)."""
        if self._ws is not None:
            with contextlib.suppress(OSError):
                self._ws.socket.shutdown(socket.SHUT_RDWR)

    def _reconnect(self, why: object) -> None:
        self._connect_retrying(why, "lost the connection to the server and could not reconnect")
        self.reconnects += 1

    def _connect_retrying(self, why: object, failed: str) -> None:
        """:meth:`connect`, tried again (for :attr:`reconnect_window` seconds, with pauses growing from 0.2 s to
        :data:`RECONNECT_PAUSE_MAX`) while it fails without a refusal: a server restarting, a network that is back
        in a moment.  When the first try fails, :attr:`on_reconnecting` is told once.

        Raises:
            RemoteRefused: the server answered and refused (trying again will not help).
            RemoteError: every try failed (*failed*, then the last reason).
        """
        pause = 0.2
        last: object = why
        deadline = time.monotonic() + self.reconnect_window
        told = False
        while True:
            try:
                self.connect()
            except RemoteRefused:
                raise
            except RemoteError as error:
                last = error
            else:
                return
            if not told and self.on_reconnecting is not None:
                told = True
                self.on_reconnecting(f"The server cannot be reached ({last}): trying again for up to "
                                     f"{self.reconnect_window:g} s.")
            left = deadline - time.monotonic()
            if left <= 0:
                break
            time.sleep(min(pause, left))
            pause = min(pause * 2, RECONNECT_PAUSE_MAX)
        raise RemoteError(f"{failed} (tried for {self.reconnect_window:g} s): {last}")

    def _handle(self, message: dict[str, Any]) -> None:
        """Apply one message from the server to what we keep.

        Raises:
            RemoteError: a message this client cannot read (a welcome without a view, an event without a number…):
                a server that speaks another protocol, and a game that cannot go on from it.
        """
        kind = message.get("type")
        if not isinstance(kind, str):
            raise RemoteError(f"the server sent a message without a type ({_shown(message)}): is it a mizerka "
                              "server of this version?")
        try:
            self._apply(kind, message)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
            raise RemoteError(f"the server sent a {kind!r} message this client cannot read ({type(error).__name__}: "
                              f"{error}): {_shown(message)}") from None

    def _apply(self, kind: str, message: dict[str, Any]) -> None:
        if kind == "ping":
            self._send({"type": "pong", "id": message.get("id")})
        elif kind == "event":
            self._add_event(message)
            if message.get("view") is not None:
                self._set_view(message["view"])
        elif kind == "chat":
            self._add_chat(message)
        elif kind == "rematch_asked":
            # not numbered, and no view comes with it: the finished table's view says who has asked from now on,
            # as a reconnect's welcome would (a view at another status is of a match the wish is not about)
            seats = [int(seat) for seat in message["seats"]]
            if self.view.get("status") == "finished":
                self.view = dict(self.view, rematch_asked=seats)
        elif kind in ("welcome", "snapshot"):
            if kind == "welcome":
                self.seat = message.get("seat")
                self._set_chat_history(message.get("chat") or [])
            if message.get("undone") is not None:
                self._cut(int(message["seq"]), message["undone"])
            # a hello without events seen (a first one: a new game, or one back at a held seat) gets the whole journal
            whole = self.seq == 0 and self._resync is None
            added = [e for e in map(self._add_event, message.get("events", [])) if e is not None]
            self.seq = max(self.seq, int(message["seq"]))
            self.epoch = int(message.get("epoch") or 0)
            self._set_view(message["view"])
            if kind == "welcome" and self._resync is not None:
                added = self._take_journal_again(*self._resync)  # what is news of the journal taken again
            if kind == "welcome":
                self._note_missed(added, whole)

    def _take_journal_again(self, before: list[dict[str, Any]], shown: int) -> list[dict[str, Any]]:
        """The journal came again whole after an undo we missed: the events that match what we had (and showed)
        are not news; from the first one that differs (the undo's cut, or what we had not shown yet) they are.
        Returns the news."""
        with self._lock:
            same = 0
            for old, new in zip(before[:shown], self.events, strict=False):
                if old != new:
                    break
                same += 1
            self._new = self.events[same:]
            self._resync = None
            return list(self._new)

    def _note_missed(self, caught_up: list[dict[str, Any]], whole: bool) -> None:
        """Keep, for :meth:`drain_missed`, the score sheet rows of the deals whose end a welcome brought (in
        *caught_up*, the events it added): deals that ended while we were away.

        After a reconnect the welcome holds just what happened while the connection was down.  A first hello
        (*whole*: back at a held seat in a new game, the previous one closed) gets the whole journal, most of it
        seen before, in that other game: only the deals that ended since our seat was last given to a stand-in
        (its last ``seat`` event, with ``standin``) were missed; none when that event is not the last of our seat's
        (we came back, and played on) or there is none.  A spectator's first hello misses nothing."""
        events = caught_up
        if whole:
            ours = [i for i, e in enumerate(events) if e.get("kind") == "seat" and e.get("seat") == self.seat]
            if self.seat is None or not ours or not events[ours[-1]].get("standin"):
                return
            events = events[ours[-1] + 1:]
        ended = {e.get("deal_no") for e in events if e.get("kind") == "deal_end"}
        rows = []
        for row in self.view.get("score_sheet") or []:
            if row.get("deal_no") in ended:
                missed_deal_text(row, str)  # a row that cannot be told is the server's mistake, said now
                rows.append(row)
        with self._lock:
            self._missed.extend(rows)

    def _cut(self, seq: int, undone: dict[str, Any]) -> None:
        """An undo took back the events after *seq*: they leave the journal we keep (the next event takes the
        number of the first one removed), and :meth:`drain_undone` hands out what was taken back."""
        with self._lock:
            self.events = [e for e in self.events if int(e["seq"]) <= seq]
            self._new = [e for e in self._new if int(e["seq"]) <= seq]
            self.seq = seq
            # the tricks of this deal already shown: a trick shown after this report is numbered from them
            pending = {id(e) for e in self._new}
            deal_no = self.events[-1].get("deal_no") if self.events else None
            shown = sum(1 for e in self.events if id(e) not in pending and e.get("deal_no") == deal_no
                        and e.get("kind") == "action" and e.get("trick"))
            self._undone.append(dict(undone, tricks_shown=shown))

    def _add_event(self, message: dict[str, Any]) -> dict[str, Any] | None:
        """Keep an event message's event (with its number); return it, or ``None`` when it was seen already."""
        seq = int(message["seq"])
        with self._lock:
            if seq <= self.seq:  # already seen (a replay overlapping what we had)
                return None
            event = dict(message["event"], seq=seq)
            self.events.append(event)
            if self._resync is None:
                self._new.append(event)
            self.seq = seq
            return event

    def _add_chat(self, message: dict[str, Any]) -> None:
        with self._lock:
            if self.chat and int(message["seq"]) <= int(self.chat[-1]["seq"]):
                return  # seen already (a reconnect's history overlaps what we had)
            said = {k: v for k, v in message.items() if k != "id"}
            self.chat.append(said)
            self._new_chat.append(said)

    def _set_chat_history(self, history: list[dict[str, Any]]) -> None:
        """The welcome's chat history replaces what we kept; only messages we had not kept are new to the reader.

        Matching by content, not by number: a reconnect's history overlaps what we had, numbers may have gaps (a
        message the server could not store), and a server older than stored chat started its numbers again from 1
        after a restart."""
        with self._lock:
            known = {_chat_key(said) for said in self.chat}
            self.chat = [{k: v for k, v in said.items() if k != "id"} for said in history]
            self._new_chat.extend(said for said in self.chat if _chat_key(said) not in known)

    def _set_view(self, view: dict[str, Any]) -> None:
        self.view = view
        if self.rules is None:
            try:
                self.rules = parse_variant(view["variant"])
            except RulesError as error:
                raise RemoteError(f"the table plays a variant this client does not know: {error}") from None

    def _send(self, message: dict[str, Any]) -> None:
        if self._ws is None:
            raise ConnectionError("not connected")
        self._ws.send(json.dumps(message))

    def poll(self, timeout: float | None = None) -> dict[str, Any] | None:
        """Read and handle one message from the server (``None`` when none came within *timeout*).

        A dropped connection is reconnected here, transparently (the missed events arrive with the welcome).

        Raises:
            RemoteError: the connection is lost and cannot be made again.
        """
        from websockets.exceptions import ConnectionClosed

        try:
            if self._ws is None:
                raise ConnectionError("not connected")
            raw = self._ws.recv(timeout=timeout)
        except TimeoutError:
            return None
        except (ConnectionClosed, OSError) as error:
            self._reconnect(error)
            return None
        try:
            message: dict[str, Any] = json.loads(raw)
        except ValueError:
            return None
        if not isinstance(message, dict):
            return None
        self._handle(message)
        if message.get("id") is not None and message.get("type") in ("welcome", "snapshot", "ack", "hint", "error",
                                                                      "chat"):
            self._replies[message["id"]] = message
        return message

    def request(self, message: dict[str, Any], *, reconnect: bool = True, retry: bool = True) -> dict[str, Any]:
        """Send *message* with a fresh ``id`` and return the server's reply to it (events meanwhile are handled).

        A ``rate_limited`` error naming this request's ``id`` (the server dropped it, sent faster than its limit)
        answers it: after the pause it asks for (:func:`rate_limited_wait`) the message is sent again, at most
        :data:`RATE_LIMITED_RETRIES` times.  A notice without an id may be about an earlier message (a pong): the
        request is not sent again on it, which could do it twice.

        Raises:
            RemoteError: no reply within the timeout, the server still limiting after the retries, or the
                connection is lost for good.
            ConnectionError: (only with ``reconnect=False``) the connection dropped before the reply.
        """
        from websockets.exceptions import ConnectionClosed

        ident = next(self._ids)
        message = dict(message, id=ident)
        deadline = time.monotonic() + self.timeout
        limited = 0
        try:
            self._send(message)
            while ident not in self._replies:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise RemoteError(f"the server did not answer {message['type']!r} within {self.timeout:g} s")
                if self._ws is None:
                    raise ConnectionError("not connected")
                raw = self._ws.recv(timeout=left)
                try:
                    reply = json.loads(raw)
                except ValueError:
                    raise RemoteError(f"the server answered {message['type']!r} with something that is not JSON: "
                                      f"{str(raw)[:80]!r}") from None
                if isinstance(reply, dict) and reply.get("type") == "error" and reply.get("code") == "rate_limited" \
                        and reply.get("id") == ident:
                    limited += 1
                    if limited > RATE_LIMITED_RETRIES:
                        raise RemoteError(f"the server kept refusing {message['type']!r} as sent too fast (rate "
                                          f"limited, {RATE_LIMITED_RETRIES} tries): {reply.get('message')}")
                    self._read_for(rate_limited_wait(reply) + 0.05)  # a little past the pause asked for
                    self._send(message)  # this very message was dropped (the notice names its id): never done twice
                    deadline = time.monotonic() + self.timeout
                elif isinstance(reply, dict):
                    self._take(reply)
        except TimeoutError:
            raise RemoteError(f"the server did not answer {message['type']!r} within {self.timeout:g} s") from None
        except (ConnectionClosed, OSError) as error:
            if not reconnect:
                raise RemoteError(f"the server closed the game connection: {error}") from None
            seq = self.seq
            self._reconnect(error)
            if retry and self.seq == seq:  # nothing happened meanwhile: the same message is still good
                return self.request({k: v for k, v in message.items() if k != "id"}, retry=False)
            return {"type": "error", "id": ident, "code": "reconnected",
                    "message": "the connection dropped and was made again, and the table moved on: answer again"}
        return self._replies.pop(ident)

    def _read_for(self, seconds: float) -> None:
        """Handle what the server sends for *seconds* (a pause that still answers heartbeats), keeping replies."""
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0 and self._ws is not None:
            try:
                raw = self._ws.recv(timeout=left)
            except TimeoutError:
                return
            with contextlib.suppress(ValueError):
                reply = json.loads(raw)
                if isinstance(reply, dict):
                    self._take(reply)

    def _take(self, reply: dict[str, Any]) -> None:
        """Apply a message the server sent while a request waited, keeping it as the reply to its ``id``."""
        self._handle(reply)
        if reply.get("id") is not None and reply.get("type") != "pong":
            self._replies[reply["id"]] = reply

    def send_nowait(self, message: dict[str, Any]) -> int:
        """Send *message* with a fresh ``id`` and return the id; the reply arrives through :meth:`poll`
        (which another thread may be running: sending while it waits is safe).

        Raises:
            RemoteError: the connection is down (it is being made again: try once more).
        """
        ident = next(self._ids)
        try:
            self._send(dict(message, id=ident))
        except Exception as error:  # any failure of a dropped connection
            raise RemoteError(f"the connection is down ({error}); it is being made again: try once more") from None
        return ident

    @contextlib.contextmanager
    def listening(self, every: float = 0.05) -> Iterator[None]:
        """Keep reading the server in a background thread for the duration (while the player thinks), so that
        heartbeats are answered, events arrive and a dropped connection is made again.

        Raises:
            RemoteError: (at the end) the connection was lost for good meanwhile.
        """
        stop = threading.Event()
        failure: list[RemoteError] = []

        def listen() -> None:
            while not stop.is_set():
                try:
                    self.poll(every)
                except RemoteError as error:
                    failure.append(error)
                    return

        thread = threading.Thread(target=listen, name="mizerka-listen", daemon=True)
        thread.start()
        try:
            yield
        finally:
            stop.set()
            thread.join()
        if failure:
            raise failure[0]

    def act(self, text: str) -> dict[str, Any]:
        """Send an action for our seat (with the last event seen); return the ``ack`` or the ``error``."""
        return self.request({"type": "act", "action": text, "seq": self.seq})

    def fill(self, level: str = "rules") -> dict[str, Any]:
        """Start the match now: every open seat becomes a computer player of *level* (``fill``; a seated player,
        while the table waits for players).  Return the ``ack`` (the ``seat``, ``start`` and ``deal`` events have
        arrived before it) or the ``error`` (``already_started``, ``bad_bot`` naming the level, ``no_seat``...)."""
        return self.request({"type": "fill", "level": level})

    def hint(self) -> dict[str, Any]:
        """Ask the server's hint bot (``hint`` reply, or ``error`` ``hints_off`` at a table without hints)."""
        return self.request({"type": "hint"})

    def undo(self) -> dict[str, Any]:
        """Take back our last card of the deal and everything after it (a table where every other seat is a
        bot); return the ``snapshot`` (with ``undone``) or the ``error`` (``undo_not_allowed``, ``undo_refused``
        with the reason).  The cut is applied to :attr:`events` as the snapshot arrives."""
        return self.request({"type": "undo"})

    def can_undo(self) -> bool:
        """Whether an undo would take something back now (the view's ``can_undo``)."""
        return bool(self.view.get("can_undo"))

    def undo_table(self) -> bool:
        """Whether we may ever take back cards here: seated at an unrated table where every other seat is a
        computer player's (the server's rule; :meth:`can_undo` says whether there is something to take back now)."""
        players = self.view.get("players", [])
        return (self.seat is not None and not self.rated() and bool(players)
                and all(p.get("kind") == "bot" for p in players if p.get("seat") != self.seat))

    def say(self, text: str) -> dict[str, Any]:
        """Say *text* in the table's chat; return the ``chat`` message (our copy) or the ``error`` (``chat_off``,
        ``chat_empty``, ``chat_too_long``, ``chat_bad_char``, ``rate_limited``..., or ``reconnected`` when the
        connection dropped before the answer: a message is never sent twice, and the welcome's chat history says
        whether it arrived)."""
        return self.request({"type": "chat", "text": text}, retry=False)

    def say_preset(self, code: str) -> dict[str, Any]:
        """Say a ready-made phrase (a key of :data:`CHAT_PRESET_TEXTS`, sent as its code: each client shows it in
        its own language); return the ``chat`` message or the ``error`` (``chat_off``, ``unknown_preset``,
        ``rate_limited``...)."""
        return self.request({"type": "chat", "preset": code}, retry=False)

    def chat_on(self) -> bool:
        """Whether the table has a chat (its ``chat`` option; a server without chat has none)."""
        return bool(self.view.get("options", {}).get("chat"))

    @property
    def spectator(self) -> bool:
        """Whether this connection watches the table without a seat (``hello`` without a token): it sees what
        every player sees on the table, never a hand, and can neither act nor write in the chat."""
        return self.token is None

    def free_seats(self) -> list[tuple[int, bool]]:
        """The seats someone watching may sit down at now, as ``(seat, takeover)`` pairs: the open seats of a table
        waiting for players (``takeover`` false), and during an unrated match the seats a computer player holds for
        good (``takeover`` true: the newcomer sits in for it, under his own name, for the rest of the match; the
        server's ``takeover`` mark in the view).  Empty at a finished table."""
        view = self.view
        if view.get("status") not in ("waiting", "playing"):
            return []
        return [(int(p["seat"]), not p.get("open")) for p in view.get("players", [])
                if p.get("open") or p.get("takeover")]

    # -- the rematch ------------------------------------------------------------------------------------------

    def rematch(self) -> dict[str, Any]:
        """Ask for a rematch once the match is over; return the ``ack`` (``table``: the new table once every seated
        human has asked, else ``None``; ``waiting``: the seats still to ask) or the ``error`` (``not_over``,
        ``server_full``, ``no_seat``...; see :func:`rematch_refusal`).  Asking again is harmless: it tells who is
        still to ask.  The ``rematch`` event comes before the ``ack`` that names the table."""
        return self.request({"type": "rematch"})

    def rematch_target(self) -> str | None:
        """The table of the rematch of this table's match, once every seated human has asked for it (the view's
        ``rematch``, set with the ``rematch`` event, and in the view of a connection that missed it), else
        ``None``.  :meth:`follow_rematch` goes there."""
        target = self.view.get("rematch")
        return target if isinstance(target, str) and target and target != self.invite.table else None

    def rematch_lost(self, asked_view: dict[str, Any] | None) -> bool:
        """Whether the server has forgotten that our seat asked for a rematch: a view newer than *asked_view* (the
        view when the server took our request; ``None``: any view) at the finished table, with no rematch table
        yet, whose ``rematch_asked`` lacks our seat.

        The wish lives in the server's memory only (docs/server.md): a restart loses it, and the ``welcome`` of the
        reconnect then says so.  The server sends no view when a seat asks, so the view the request was answered
        with stays the same object until something new comes (a welcome, an event, or another seat's
        ``rematch_asked``, which counts our wish too while the server has it).  A view without ``rematch_asked`` (an
        older server) says nothing: ``False``.
        """
        view = self.view
        asked = view.get("rematch_asked")
        return (self.seat is not None and view is not asked_view and view.get("status") == "finished"
                and self.rematch_target() is None and isinstance(asked, list) and self.seat not in asked)

    def follow_rematch(self) -> str:
        """Move to the rematch's table (:meth:`rematch_target`) and return its id: ``hello`` there with the same
        token (a spectator without one), the same seat, the new table's view and events from its start.

        The events of the old table not handed out yet (:meth:`drain`) are kept, so that the last of them (the
        ``rematch`` event) is still shown before the new table's.  The seat book that held our seat at the old
        table (:attr:`book`) holds it at the new one instead: the old link is stale, the match there is over.

        A connection that fails at that moment without a refusal is tried again, with growing pauses, as after a
        dropped connection.

        Raises:
            RemoteError: there is no rematch to follow, or the new table cannot be reached or refuses us.
        """
        target = self.rematch_target()
        if target is None:
            raise RemoteError("there is no rematch table to go to")
        old = self.invite
        with self._lock:
            self.invite = dataclasses.replace(old, table=target)
            self.events, self._undone, self._resync = [], [], None
            self._rematch_told = set()
            self.seq = self.epoch = 0
        self._replies.clear()
        # (the rules stay: a rematch has the table's options, its variant too); a connection that fails just
        # now (the server restarting, the network away a moment) is tried again, as a reconnect is
        self._connect_retrying("not connected yet", f"cannot reach the rematch's table {target!r}")
        if self.book is not None and self.held is not None:
            self.book.put(self.invite, self.held)
            self.book.forget(old)
        return target

    # -- what the client shows --------------------------------------------------------------------------------

    def drain(self) -> list[dict[str, Any]]:
        """The events that arrived since the last call, in order."""
        with self._lock:  # the full-screen game reads the server in another thread
            new, self._new = self._new, []
        return new

    def skip_to_the_end(self) -> None:
        """Of the events not handed out yet (:meth:`drain`), keep only the match's end (its ``match_end`` event), and
        no undo: coming back to a finished match, the final position is the news, not the whole match again."""
        with self._lock:
            self._new = [event for event in self._new if event.get("kind") == "match_end"][-1:]
            self._undone, self._missed = [], []

    def drain_undone(self) -> list[dict[str, Any]]:
        """The undos that arrived since the last call (each the snapshot's ``undone``: ``seat`` and ``actions``,
        ``[{"seat", "action"}]`` in playing order, and ``tricks_shown``: how many tricks of the deal the events
        handed out so far hold, to number the next one), ours and any other connection's; ``{"away": True, ...}``
        with no actions when one happened while we were away and the table's history was taken again."""
        with self._lock:
            new, self._undone = self._undone, []
        return new

    def drain_chat(self) -> list[dict[str, Any]]:
        """The chat messages that arrived since the last call, in order."""
        with self._lock:
            new, self._new_chat = self._new_chat, []
        return new

    def drain_missed(self) -> list[dict[str, Any]]:
        """The deals that ended while we were away (the connection down, or the game closed while a stand-in
        played our seat; see :meth:`_note_missed`), as the view's ``score_sheet`` rows, since the last call: both
        games then say how each ended (:func:`missed_deal_text`), after the events that caught up with them."""
        with self._lock:
            new, self._missed = self._missed, []
        return new

    def others_asking(self) -> list[int]:
        """The other seats that have asked for a rematch (our own seat never: we know), from the finished table's
        view (its ``rematch_asked``, kept up to date by the server's ``rematch_asked`` messages; a welcome's view
        says it after a reconnect, or coming back to a finished match).  Empty before the match is over and once the
        rematch's table is named."""
        view = self.view
        asked = view.get("rematch_asked")
        if view.get("status") != "finished" or self.rematch_target() is not None or not isinstance(asked, list):
            return []
        return [int(seat) for seat in asked if seat != self.seat]

    def drain_rematch_asked(self) -> list[int]:
        """The seats of :meth:`others_asking` that asked since the last call, so that the games say who waits for
        the others (:func:`rematch_asked_text`).  A seat whose wish the server forgot (a restart) is handed out
        again when it asks again."""
        others = self.others_asking()
        with self._lock:
            new = [seat for seat in others if seat not in self._rematch_told]
            self._rematch_told = set(others)
        return new

    @property
    def current(self) -> bool:
        """Whether :attr:`view` includes every event received (a view comes with the last event of a batch)."""
        return bool(self.view) and int(self.view["seq"]) >= self.seq

    def my_turn(self) -> bool:
        return self.current and bool(self.view.get("your_turn"))

    def hints_on(self) -> bool:
        return bool(self.view.get("options", {}).get("hints"))

    def rated(self) -> bool:
        """Whether the table is rated (its ``rated`` option: no hints, no undo; a server before profiles: no)."""
        return bool(self.view.get("options", {}).get("rated"))

    def names(self) -> list[str]:
        return [p["name"] or f"seat {p['seat']}" for p in self.view.get("players", [])]

    def marked_names(self, unicode: bool = True) -> list[str]:
        """The seats' names, a registered player's with its mark (:func:`marked_name`)."""
        return [marked_name(p, unicode) for p in self.view.get("players", [])]

    def deal_events(self, deal_no: int | None = None) -> list[dict[str, Any]]:
        """The events of one deal (the current one by default)."""
        number = self.view.get("deal_no", 0) if deal_no is None else deal_no
        return [e for e in self.events if e.get("deal_no") == number and e.get("kind") == "action"]

    def observation(self) -> Observation:
        """Our seat's observation of the current deal (see :func:`view_observation`)."""
        assert self.rules is not None, "connect first"
        return view_observation(self.view, self.rules, self.deal_events())


# -- the line game ----------------------------------------------------------------------------------------------


def fit_cells(text: str, width: int, *, right: bool = False, ellipsis: str = "…") -> str:
    """*text* made exactly *width* terminal cells wide: padded with spaces (on the left when *right*), or cut
    with *ellipsis* at its end when it is wider, so that the columns after it line up.

    Cells, not characters: a CJK character takes two cells of a terminal and a combining accent none, so
    ``str.ljust`` (which counts characters) puts the next column out of line after such a name.  A wide character
    that does not fit whole is replaced by a space.

    >>> fit_cells("Ola", 6) + "|"
    'Ola   |'
    >>> fit_cells("李小龍", 8) + "|"
    '李小龍  |'
    >>> fit_cells("Bartholomew", 8), fit_cells("李小龍李小龍", 8), fit_cells("Bartholomew", 8, ellipsis="~")
    ('Barthol…', '李小龍 …', 'Barthol~')
    >>> fit_cells("Ola", 6, right=True)
    '   Ola'
    """
    from rich.cells import cell_len, set_cell_size

    if cell_len(text) > width:
        return set_cell_size(text, width - cell_len(ellipsis)) + ellipsis
    padding = " " * (width - cell_len(text))
    return padding + text if right else text + padding


SHEET_NAME_CELLS = 12
"""The widest a name is shown in the columns of :func:`sheet_text` and the full-screen scores panel (in terminal
cells); a longer one is cut with an ellipsis (:func:`fit_cells`)."""


def contracts_grid(view: dict[str, Any], names: Sequence[str], *, unicode: bool = True) -> str | None:
    """The grid of the contracts each player has chosen, with each player's total, from a view's ``score_sheet``
    rows (each names its contract and chooser): the local sheet's grid (:meth:`ScoreSheet.grid
    <mizerka.scoresheet.ScoreSheet.grid>`), one ``X`` for each time a player chose a contract.

    The grid is ScoreSheet's own, fed the view's rows and the table's variant (``variant``): its columns are the
    contracts the variant plays, a contract a player may choose twice (``uses=2``) shows ``XX`` once used up, and
    under ``global_unique`` (each contract played once in all) a column with an ``X`` is used up for everyone.  A
    line under the grid says which of these the table plays.  Only the names are swapped for ones fitted to their
    column by terminal cells, as in :func:`sheet_text` (ScoreSheet pads by characters, which puts a wide CJK name
    out of line).  ``None`` when the view has no variant this client knows, or rows it cannot read.

    >>> view = {"variant": "standard", "score_sheet": [
    ...     {"deal_no": 1, "dealer": 2, "chooser": 0, "contract": "H", "tricks": [5, 4, 4], "scores": [-2, -1, 3],
    ...      "totals": [-2, -1, 3]}]}
    >>> print(contracts_grid(view, ["Ola", "Bartholomew the Great", "Ela"]))
    player        ♣  ♦  ♥  ♠  NT  MZ  total
    Ola                 X             -2
    Bartholomew…                      -1
    Ela                               +3
    (X: a contract the player has chosen; each player chooses each contract once)
    """
    from rich.cells import cell_len

    from mizerka.match import DealResult
    from mizerka.scoresheet import ScoreSheet

    try:
        rules = parse_variant(str(view["variant"]))
        n = rules.n_seats
        results = [DealResult(int(row["deal_no"]), int(row["dealer"]), int(row["chooser"]),
                              Contract.from_str(str(row["contract"])), tuple(int(t) for t in row["tricks"]),
                              tuple(int(s) for s in row["scores"]), (None,) * n)
                   for row in view.get("score_sheet") or []]
        if len(names) != n:
            return None
        # names all one width in characters stand in for the real ones, which then take their column by cells
        width = max(len("player"), min(SHEET_NAME_CELLS, max(cell_len(str(name)) for name in names)))
        grid = ScoreSheet(["#" * width] * n, results, rules).grid().splitlines()
    except (KeyError, TypeError, ValueError):  # (RulesError and ScoreSheetError are ValueErrors)
        return None
    ellipsis = "…" if unicode else "~"
    lines = [grid[0]] + [fit_cells(str(name), width, ellipsis=ellipsis) + line[width:]
                         for name, line in zip(names, grid[1:], strict=True)]
    uses = rules.uses_per_contract
    times = "once" if uses == 1 else "twice" if uses == 2 else f"{uses} times"
    if rules.global_unique_contracts:
        lines.append(f"(each X: a time the contract was chosen; each contract is played {times} in all, whoever "
                     "chooses it" + (": a marked column is gone for everyone)" if uses == 1 else ")"))
    elif uses == 1:
        lines.append("(X: a contract the player has chosen; each player chooses each contract once)")
    else:
        lines.append(f"(each X: a time the player chose the contract; each player chooses each contract {times})")
    return "\n".join(lines)


def sheet_text(view: dict[str, Any], names: Sequence[str], *, unicode: bool = True) -> str:
    """The score sheet of a view as text: the grid of contracts each player has chosen, with the totals
    (:func:`contracts_grid`, as the local sheet begins), then one row per finished deal (the view's
    ``score_sheet`` rows): its contract, chooser, each player's score and running total.

    The names are fitted to their columns by terminal cells (:func:`fit_cells`): a wide (CJK) or long name keeps
    the columns in line, cut with ``…`` (``~`` when not *unicode*) past :data:`SHEET_NAME_CELLS` cells.  With
    four at the table the dealer, who sits the deal out (each row names its ``dealer``), shows ``-`` for the
    deal's score, as on the local sheet, never ``0``, which would read as a played deal that made its quota.
    The chooser is the one who played the seat in that deal (a row's ``players``, where someone sat in for a
    seat's player later in the match), and a line under the rows says who sat in from which deal.

    >>> view = {"players": [{"name": "Ola"}, {"name": "Edyta", "since_deal": 2}, {"name": "Ela"}], "score_sheet": [
    ...     {"deal_no": 1, "dealer": 2, "chooser": 1, "contract": "H", "tricks": [5, 4, 4], "scores": [-2, -1, 3],
    ...      "totals": [-2, -1, 3], "players": ["Ola", "Bot 2", "Ela"]}]}
    >>> print(sheet_text(view, ["Ola", "Edyta", "Ela"]))
    deal  contract  chooser           Ola    Edyta      Ela
       1  H         Bot 2           -2/-2    -1/-1    +3/+3
    (each cell: the deal's score / the running total)
    Edyta plays from deal 2: the earlier deals of that seat were played by others.
    """
    from rich.cells import cell_len

    rows = view.get("score_sheet") or []
    if not rows:
        return "No deal has been finished yet."
    ellipsis = "…" if unicode else "~"
    width = max(7, min(SHEET_NAME_CELLS, max((cell_len(n) for n in names), default=0)))
    lines = ["deal  contract  chooser     " + "".join("  " + fit_cells(n, width, right=True, ellipsis=ellipsis)
                                                      for n in names)]
    for row in rows:
        # four at the table: the dealer sits the deal out, written "-" (no score) before his unchanged total
        out = row.get("dealer") if len(row["scores"]) == 4 else None
        cells = "".join(f"{'-' if seat == out else signed(s)}/{signed(t)}".rjust(width + 2)
                        for seat, (s, t) in enumerate(zip(row["scores"], row["totals"], strict=True)))
        played = row.get("players")  # who played each seat then, where someone has sat in for a seat's player since
        played = played if isinstance(played, list) and len(played) == len(names) else names
        chooser = fit_cells(str(played[row["chooser"]]), SHEET_NAME_CELLS, ellipsis=ellipsis)
        lines.append(f"{row['deal_no']:>4}  {row['contract']:<8}  {chooser}" + cells)
    lines.append("(each cell: the deal's score / the running total)")
    for seat, player in enumerate(view.get("players") or []):
        since = player.get("since_deal") if isinstance(player, dict) else None
        if isinstance(since, int) and since > 1 and seat < len(names):
            lines.append(f"{names[seat]} plays from deal {since}: the earlier deals of that seat were played by "
                         "others.")
    grid = contracts_grid(view, names, unicode=unicode)
    return "\n".join(lines) if grid is None else grid + "\n\n" + "\n".join(lines)


def missed_deal_text(row: dict[str, Any], who: Callable[[int], str]) -> str:
    """How a deal that ended while we were away ended, from its ``score_sheet`` row (public: no card): its
    contract and who chose it, each player's score and running total (at four, the dealer sat the deal out);
    *who* names a seat.

    >>> row = {"deal_no": 3, "dealer": 2, "chooser": 0, "contract": "NT", "tricks": [4, 6, 3],
    ...        "scores": [-1, 5, 2], "totals": [3, 4, -7]}
    >>> text = missed_deal_text(row, lambda seat: ["you", "Ala", "Ela"][seat])
    >>> text[:text.index(":")]
    'Deal 3 ended while you were away (no-trump, take; chosen by you)'
    >>> text[text.index(":") + 2:]
    'you -1 (total +3), Ala +5 (total +4), Ela +2 (total -7).'
    """
    try:
        contract = Contract.from_str(str(row["contract"]))
        what = f"{contract.label}, {contract.goal}"
    except ValueError:
        what = str(row["contract"])
    scores, totals = row["scores"], row["totals"]
    out = row.get("dealer") if len(scores) == 4 else None  # four at the table: the dealer sits the deal out
    parts = [f"{who(seat)} {'sat out' if seat == out else signed(score)} (total {signed(total)})"
             for seat, (score, total) in enumerate(zip(scores, totals, strict=True))]
    return (f"Deal {row['deal_no']} ended while you were away ({what}; chosen by {who(int(row['chooser']))}): "
            + ", ".join(parts) + ".")


def seated_text(event: dict[str, Any]) -> str:
    """Who a ``seat`` event seats, for "… sits at seat N": the name, with a computer player's level when the event
    names it; "a player" when the event has no name (never "seat N", which would read "seat N sits at seat N").

    >>> seated_text({"seat": 1, "name": "Bot 2", "seat_kind": "bot", "bot": "random"})
    'Bot 2 (random)'
    >>> seated_text({"seat": 1, "name": "Ala", "seat_kind": "human", "bot": None}), seated_text({"seat": 1})
    ('Ala', 'a player')
    """
    name = event.get("name") or "a player"
    level = event.get("bot")
    return f"{name} ({level})" if event.get("seat_kind") == "bot" and level else str(name)


FILL_DEFAULT = "rules"
"""The level of the computer players ``fill`` seats when none is named (the lobby's default too)."""

FILL_SPECTATOR = ("Only a seated player can start the table with computer players; a spectator waits for the "
                  "players (or for a seated player to start it).")
"""What both games say, without sending anything, when a spectator asks to fill the open seats."""


def fill_levels() -> list[str]:
    """The levels a waiting table's open seats can be filled with, weakest first (the server offers the same)."""
    from mizerka.bots import BOT_LEVELS

    return list(BOT_LEVELS)


_WAITING_WORDS = {"?": "help", "help": "help", "quit": "quit", "exit": "quit", "q": "quit", "say": "say",
                  "fill": "fill"}


def waiting_command(answer: str) -> tuple[str, str] | None:
    """The command of a line typed at the line game's ``Waiting for players>`` prompt, as ``(command, rest)``:
    ``help``, ``quit``, ``say`` with its text (as typed) or ``fill`` with its level (lower case, "" for the
    default); None for any other line, which is not a waiting command.  ``help`` and ``quit`` take nothing more.

    >>> waiting_command("Say  Hello all")
    ('say', 'Hello all')
    >>> waiting_command("fill Expert"), waiting_command("q"), waiting_command("?")
    (('fill', 'expert'), ('quit', ''), ('help', ''))
    >>> waiting_command("quit now") is None, waiting_command("") is None, waiting_command("7h") is None
    (True, True, True)
    """
    words = answer.strip().split(maxsplit=1)
    command = _WAITING_WORDS.get(words[0].lower()) if words else None
    rest = words[1].strip() if len(words) > 1 else ""
    if command is None or (rest and command in ("help", "quit")):
        return None
    return command, rest.lower() if command == "fill" else rest


def _stdin_is_terminal() -> bool:
    """Whether the line game's answers come from a terminal (not a pipe or a file): then it reads commands while
    a table waits for players (:class:`RemoteLineGame`'s *commands_while_waiting*)."""
    import sys

    return sys.stdin.isatty()


class _LineInThread:
    """One line read in a thread (``read(prompt)``), so that the table is followed while the player types: the
    line game reads commands so while the table waits for players.  :meth:`result` gives the line, or raises what
    the read raised (``EOFError`` at the end of the input, ``QuitGame``...)."""

    def __init__(self, read: Callable[[str], str], prompt: str) -> None:
        self.done = threading.Event()
        self._line = ""
        self._error: BaseException | None = None
        threading.Thread(target=self._run, args=(read, prompt), name="mizerka-read", daemon=True).start()

    def _run(self, read: Callable[[str], str], prompt: str) -> None:
        try:
            self._line = read(prompt)
        except BaseException as error:  # handed to the game's thread, which raises it there
            self._error = error
        finally:
            self.done.set()

    def result(self) -> str:
        self.done.wait()
        if self._error is not None:
            raise self._error
        return self._line


class RemoteLineGame(TerminalGame):
    """The ``--plain`` game at a server's table: :class:`~mizerka.terminal.TerminalGame`'s prompts and texts,
    with the server as the table (it checks every action; its refusals are shown and the prompt asks again).

    A spectator's table (:attr:`RemoteTable.spectator`) is watched instead (:meth:`watch`): the play is written
    as it comes, and commands (``sheet``, ``last``, ``quit``...) are read meanwhile.

    Args:
        table: a connected :class:`RemoteTable`.
        read, write, unicode, colour: as for :class:`~mizerka.terminal.TerminalGame`.
        poll: seconds to wait for the server between checks (the other seats' moves arrive meanwhile).
        sit_as: for a spectator, who it sits down as with ``sit`` (:meth:`sit`); ``None``: it cannot sit down here.
        ask_after_match: once the match is over, ask whether to play a rematch (:meth:`after_match`) instead of
            ending; ``mizerka play --connect`` asks at a terminal, not when the answers come from a pipe or file.
        commands_while_waiting: while the table waits for players, read commands (``fill``, ``say``, ``quit``:
            :meth:`wait_for_players`); ``mizerka play --connect`` does at a terminal.  Through a pipe or a file
            nothing is read before the match begins, so the first line answers the match's first question.
    """

    offers_review = False  # the hidden cards of the finished deals are the server's: the web app reviews them

    def __init__(self, table: RemoteTable, *, read: Callable[[str], str], write: Callable[[str], None],
                 unicode: bool = True, colour: bool = False, poll: float = 0.5,
                 ask_after_match: bool = False, commands_while_waiting: bool = False,
                 sit_as: SitInAs | None = None) -> None:
        # TerminalGame's formatting helpers need only these; the match lives on the server.
        self.table = table
        self.sit_as = sit_as
        self.seat = table.seat if table.seat is not None else -1
        self.opponents = {}
        table.on_reconnecting = lambda text: self.write(f"{text}  Ctrl-C quits (your seat stays yours).")
        self._read_answer = read
        self.read = self._read
        self._early_line: _LineInThread | None = None  # a line asked for while the table waited for players
        # with --ascii every line is ASCII, as in the local game: suits as letters, "->" for "→", "=" for "═"
        self.write = write if unicode else (lambda text: write(ascii_text(text)))
        self.unicode = unicode
        self.colour = colour
        self.names = tuple(table.names())
        self.poll_every = poll
        self._tricks_in_deal = 0
        self._active: tuple[int, ...] = ()
        self._waiting_said = False
        self._rated_said = False
        self.ask_after_match = ask_after_match
        self.commands_while_waiting = commands_while_waiting

    # -- the loop -------------------------------------------------------------------------------------------

    def run_remote(self) -> dict[str, Any]:
        """Play until the match is over; return the final view.  A rematch (:meth:`after_match`, or one every
        player asked for from elsewhere) is followed to its table and played on.

        Raises:
            QuitGame: the human typed ``quit`` (the seat stays: a bot stands in after the server's grace period).
            EOFError: the input ended.
            RemoteError: the connection is lost for good, or the table was closed.
        """
        table = self.table
        if table.spectator:
            return self.watch()
        if table.rated() and not self._rated_said:
            self._rated_said = True
            self.write(self._style(RATED_NOTE, bold=True))
        while True:
            self.report_news()
            view = table.view
            if table.rematch_target() is not None:
                self.follow_rematch()
                continue
            if view["status"] == "abandoned":
                raise RemoteError("the server closed the table (abandoned)")
            if view["status"] == "finished" and table.current:
                if self.ask_after_match and self.after_match():
                    continue  # the rematch's table is named: the loop goes there
                return view
            if table.my_turn():
                self.ask_remote()
                continue
            if view["status"] == "waiting":
                if not self._waiting_said:
                    self._waiting_said = True
                    free = [str(p["seat"]) for p in view["players"] if p["open"]]
                    said = (f"Waiting for players: seat{'s' if len(free) != 1 else ''} {', '.join(free)} "
                            f"{'are' if len(free) != 1 else 'is'} free.  Share the invite link")
                    self.write(said + (f", or type fill to start now with computer players ({FILL_DEFAULT}; fill "
                                       "LEVEL for another level, ? for help)." if self.commands_while_waiting
                                       else "."))
                if self.commands_while_waiting:
                    self.wait_for_players()
                    continue
            elif self._early_line is not None and self._early_line.done.is_set() and self.early_command():
                continue
            table.poll(self.poll_every)

    WAITING_PROMPT = "Waiting for players> "

    WAITING_HELP = """The table waits for players; share its invite link.  Meanwhile:
  fill [LEVEL]  start now: every free seat goes to a computer player of LEVEL (default rules; levels: {levels})
  say TEXT      say TEXT to the table (chat)
  quit          leave (your seat stays yours)
The match begins by itself when the last player sits down."""

    def _read(self, prompt: str) -> str:
        """Read an answer (the game's *read*); a line typed (or being typed) at the waiting prompt when the match
        began answers the first question of the match, which is written on its own line."""
        early = self._early_line
        if early is None:
            return self._read_answer(prompt)
        self._early_line = None
        self.write(prompt.rstrip())
        return early.result()

    def wait_for_players(self) -> None:
        """One step of waiting for players: read a command if one was typed (the prompt is read in a thread, so
        that the table is followed meanwhile: a player who sits down starts the match), else wait for the server.
        Commands: ``fill [LEVEL]``, ``say TEXT``, ``?``, ``quit``.  Commands are read only at a terminal
        (*commands_while_waiting*), where the input's end is Ctrl+D: the game ends, as at any question.

        Raises:
            QuitGame: ``quit``.
            EOFError: the input ended.
        """
        table = self.table
        early = self._early_line
        if early is None:
            early = self._early_line = _LineInThread(self._read_answer, self.WAITING_PROMPT)
        if not early.done.is_set():
            table.poll(self.poll_every)
            return
        try:
            answer = early.result().strip()
        except BaseException:  # Ctrl+D (EOFError: the game ends, as at any question), Ctrl+C, quit...
            self._early_line = None
            raise
        self._early_line = None
        self.report_news()  # what happened while the line was typed
        command, rest = waiting_command(answer) or ("", "")
        if command == "help":
            self.write(self.WAITING_HELP.format(levels=", ".join(fill_levels())))
        elif command == "fill":
            self.fill(rest)
        elif command == "say":
            self.say(rest)
        elif command == "quit":
            raise QuitGame
        elif answer:
            self.write("The match has not begun: type fill to start it now with computer players, or wait for the "
                       "players (? for help).")

    def early_command(self) -> bool:
        """A line typed at the waiting prompt that the match's start overtook: ``quit``, ``say TEXT``, ``?`` and
        ``fill`` act at once (not at the player's first question, which may be a minute away); any other line is
        kept to answer that question.  Returns whether the line was used.

        Raises:
            QuitGame: ``quit``.
            EOFError: the input ended (Ctrl+D at the prompt).
        """
        early = self._early_line
        assert early is not None
        try:
            answer = early.result().strip()
        except BaseException:
            self._early_line = None
            raise
        found = waiting_command(answer)
        if found is None:
            return False  # the first question takes it
        command, rest = found
        self._early_line = None
        self.report_news()
        if command == "quit":
            raise QuitGame
        if command == "say":
            self.say(rest)
        elif command == "fill":
            self.write("The match has begun: fill is for a table that still waits for players.")
        else:
            self.write("The match has begun; type ? at its first question for the commands.")
        return True

    def fill(self, level: str) -> None:
        """``fill [LEVEL]``: ask the server to seat computer players of *level* (default rules) in every free seat
        and start the match.  Its refusal is said (the level unknown, the match begun meanwhile...); the seats and
        the start are written with the table's news."""
        level = level or FILL_DEFAULT
        reply = self.table.fill(level)
        if reply["type"] == "error":
            self.write(self._style(f"Not started: {reply.get('message') or reply.get('code')}", fg="yellow"))
            return
        self.write(f"The free seats go to computer players ({level}): the match begins.")

    def report_news(self) -> None:
        """Write what happened since the last call: undos, the table's events, chat, who asked for a rematch."""
        table = self.table
        self.names = tuple(table.names())
        for undone in table.drain_undone():
            self.report_undone(undone)
        for event in table.drain():
            self.report_event(event)
        for row in table.drain_missed():  # after the events that caught up with them: how each of them ended
            self.write(self._style(missed_deal_text(row, self.who), bold=True))
        self.report_chat()
        asked = table.drain_rematch_asked()
        if asked:
            self.write(self._style(rematch_asked_text(asked, self.names), bold=True))

    def follow_rematch(self) -> None:
        """Go to the rematch's table (every player asked for it) and say where we are now."""
        table = self.table
        target = table.follow_rematch()
        self._tricks_in_deal, self._active, self._waiting_said = 0, (), False
        self.names = tuple(table.names())
        self.write(self._style(f"You are at table {target} now", bold=True)
                   + f" (its invite link: {invite_link(table.invite)}).")

    # -- after the match --------------------------------------------------------------------------------------

    AFTER_MATCH_HELP = """\
  rematch      ask for a new match with the same players (at a new table, your seat kept); it starts when
               every seated player has asked, and you move there
  sheet        the score sheet
  say TEXT     say TEXT to the table (chat)
  quit, Enter  leave"""

    def after_match(self) -> bool:
        """The match is over: ask whether to play a rematch.  ``rematch`` asks the server; until every other seated
        player has asked too, the game says who is still to ask and waits (Ctrl+C leaves).  True once the
        rematch's table is named (the run loop goes there), False when the player leaves (``quit`` or Enter).

        The input ending is leaving (the match is over: nothing is lost).

        Raises:
            RemoteError: the connection is lost for good, or the table was closed while waiting.
        """
        table = self.table
        self.write("Type rematch to play again with the same players, or quit (or just Enter) to leave; ? for the "
                   "commands.")
        while True:
            try:
                with table.listening():  # heartbeats and the others' chat keep flowing while you think
                    answer = self.read("After the match> ").strip()
            except EOFError:  # the input ended: the match is over, nothing is lost
                return False
            self.report_news()
            if table.rematch_target() is not None:  # every player asked meanwhile (from elsewhere too)
                return True
            command = answer.lower()
            if command in ("", "quit", "exit", "q"):
                return False
            if command == "rematch":
                if self.ask_rematch():
                    return True
            elif command in ("?", "help"):
                self.write(self.AFTER_MATCH_HELP)
            elif command == "sheet":
                self.write(sheet_text(table.view, self.names, unicode=self.unicode))
            elif command.split(maxsplit=1)[:1] == ["say"]:
                self.say(answer[len("say"):].strip())
            else:
                self.write("Type rematch, sheet, say TEXT or quit (? for help).")

    def ask_rematch(self) -> bool:
        """Ask for a rematch (the ``rematch`` command): say the server's refusal in words (False), or wait until
        every seated player has asked and the new table is named (True).  While waiting, the table's news and
        chat are written as they come.

        The server keeps the wish in memory only: when a newer view (the ``welcome`` after a reconnect, say after
        the server restarted) no longer counts our seat among those who asked (:meth:`RemoteTable.rematch_lost`),
        the game says so and asks again."""
        table = self.table
        reply = table.rematch()
        if reply["type"] == "error":
            self.write(self._style(rematch_refusal(reply), fg="yellow"))
            return False
        if reply.get("table") is None and table.rematch_target() is None:
            self.write(waiting_text([int(s) for s in reply.get("waiting") or []], self.names)
                       + "  (Ctrl+C leaves.)")
            asked_view = table.view
            while table.rematch_target() is None:
                table.poll(self.poll_every)
                self.report_news()
                if table.view.get("status") == "abandoned":
                    raise RemoteError("the server closed the table (abandoned) before the rematch")
                if table.rematch_lost(asked_view):
                    self.write(self._style("The server no longer knows that you asked for a rematch (it restarted, "
                                           "or the connection was made again): asking again.", fg="yellow"))
                    reply = table.rematch()
                    if reply["type"] == "error":
                        self.write(self._style(rematch_refusal(reply), fg="yellow"))
                        return False
                    asked_view = table.view
                    if reply.get("table") is None and table.rematch_target() is None:
                        self.write(waiting_text([int(s) for s in reply.get("waiting") or []], self.names)
                                   + "  (Ctrl+C leaves.)")
        return True

    # -- watching -------------------------------------------------------------------------------------------

    WATCH_HELP = """\
You are watching: the table and the chat as everyone sees them; no hand is ever shown to a spectator.
  sheet        the score sheet
  last         the last trick
  sit [N]      sit down at seat N: an open seat while the table waits for players, or during an unrated match
               a computer player's seat, to play it yourself from now on (sit alone lists the free seats)
  quit         stop watching (Ctrl+C too)
The play is written as it comes; type a command at any time.  Spectators cannot act or write in the chat."""

    WATCH_WAITING = "The match is over. Waiting in case the players ask for a rematch; quit or Ctrl+C to stop."
    """What the spectator is told at the end of a match it waits after (see :meth:`watch`)."""

    def watch(self) -> dict[str, Any]:
        """Follow the table as a spectator until the match is over; return the final view.  A rematch the players
        ask for is followed too.

        Commands are read in a background thread while the play is written (a spectator has no turn to wait for):
        ``sheet``, ``last``, ``?``, ``quit``, ``sit [N]`` (:meth:`sit`); ``say`` and the players' commands are
        answered in words, and nothing is sent.  When the input ends, watching goes on without commands.

        At the end of the match a spectator at a terminal (*ask_after_match*, whose input has not ended) stays at
        the finished table, says so (:attr:`WATCH_WAITING`) and follows the players to their rematch, until
        ``quit``, Ctrl+C, the input ending, or the table gone from the server (unloaded, and not read back: said
        in words).  Through a pipe or from a file, or once the input has ended, watching ends with the match, as
        the player's line game does without a terminal.

        Raises:
            QuitGame: the spectator typed ``quit``.
            SatDown: the spectator sat down (``sit``); the seat's connection goes with it.
            RemoteError: the connection is lost for good, or the table was closed.
        """
        table = self.table
        # one line at a time, read in a thread: the next read starts once a command is done, so that after ``sit``
        # no reader is left behind to take the seated game's first answer
        line_in: _LineInThread | None = _LineInThread(self._read_answer, "")
        waiting_at: str | None = None  # the finished table where the spectator waits for a rematch, once said
        while True:
            self.report_news()
            if table.rematch_target() is not None:  # the players asked for one: watch it too
                self.follow_rematch()
                continue
            view = table.view
            if view["status"] == "abandoned":
                raise RemoteError("the server closed the table (abandoned)")
            if view["status"] == "finished" and table.current:
                if line_in is None or not self.ask_after_match:
                    return view
                if waiting_at != table.invite.table:
                    waiting_at = table.invite.table
                    self.write(self.WATCH_WAITING)
            if view["status"] == "waiting" and not self._waiting_said:
                self._waiting_said = True
                free = [str(p["seat"]) for p in view["players"] if p["open"]]
                self.write(f"Waiting for players (free seat{'s' if len(free) != 1 else ''}: {', '.join(free)}).")
            while line_in is not None and line_in.done.is_set():
                try:
                    line = line_in.result()
                except Exception:  # EOFError: the input ended (a pipe, a file): watching goes on without it
                    line_in = None
                else:
                    line_in = None
                    self.spectator_command(line)
                    line_in = _LineInThread(self._read_answer, "")
                    line_in.done.wait(0.01)  # lines already waiting (a pipe) are taken at once
            try:
                table.poll(self.poll_every)
            except RemoteRefused as error:
                if waiting_at is None:
                    raise
                # the finished table is gone (unloaded and not read back): nothing more can happen there
                self.write(f"The table is no longer on the server ({error}): watching ends.")
                return view

    def spectator_command(self, answer: str) -> None:
        """One command typed while watching (see :meth:`watch`)."""
        table = self.table
        command = answer.strip().lower()
        if not command:
            return
        if command in ("?", "help"):
            self.write(self.WATCH_HELP)
        elif command == "sheet":
            self.write(sheet_text(table.view, self.names, unicode=self.unicode))
        elif command in ("last", "last trick"):
            last = table.view.get("last_trick")
            if not last:
                self.write("No trick has been completed in this deal yet.")
            else:
                cards = ", ".join(f"{self.who(s)} {self.card(Card.from_str(c))}"
                                  for s, c in zip(last["seats"], last["cards"], strict=True))
                self.write(f"Last trick: {cards} → {self.who(last['winner'])}.")
        elif command in ("quit", "exit", "q"):
            raise QuitGame
        elif command.split(maxsplit=1)[:1] == ["say"]:
            self.write(self._style(SPECTATOR_CHAT, fg="yellow"))
        elif command.split(maxsplit=1)[:1] == ["fill"]:
            self.write(self._style(FILL_SPECTATOR, fg="yellow"))
        elif command.split(maxsplit=1)[:1] == ["sit"]:
            self.sit(command[3:].strip())
        elif command in ("hand", "hint", "undo", "u", "rematch"):
            self.write(self._style("Spectators hold no hand and cannot act: " + {
                "hand": "no hand is shown to a spectator.", "hint": "hints are for the players.",
                "rematch": "only the seated players ask for a rematch (you follow them to it)."}.get(
                command, "only a player takes back cards."), fg="yellow"))
        else:
            self.write("Spectators cannot act; type ? for the commands.")

    def sit(self, argument: str) -> None:
        """``sit [N]`` while watching: sit down at seat *N* (:func:`sit_in`), or, without *N*, at the only free
        seat, else list the free seats (:meth:`RemoteTable.free_seats`).  A seat that is not free, or a refusal
        (the seat taken meanwhile, a rated table without a key), is said, and watching goes on.

        Raises:
            SatDown: seated; the seat's connection goes with it.
        """
        table = self.table
        free = table.free_seats()
        if self.sit_as is None:
            self.write(self._style("Sitting down is not offered here: join with mizerka play --connect LINK.",
                                   fg="yellow"))
            return
        if not free:
            self.write(self._style(SIT_NONE, fg="yellow"))
            return
        listed = "; ".join(free_seat_text(table, seat, takeover) for seat, takeover in free)
        if not argument:
            if len(free) > 1:
                self.write(f"Free seats: {listed}.  Type sit N to sit down at seat N.")
                return
            seat = free[0][0]
        else:
            seat = int(argument) if argument.isascii() and argument.isdigit() else -1
            if seat not in (s for s, _ in free):
                self.write(self._style(f"Seat {argument} is not free.  Free seats: {listed}.", fg="yellow"))
                return
        try:
            seated = sit_in(table, seat, self.sit_as)
        except RemoteError as error:
            self.write(self._style(f"Not seated: {error}", fg="yellow"))
            return
        raise SatDown(seated)

    def ask_remote(self) -> None:
        """Ask for our action until the server accepts one (or the view moves on)."""
        table = self.table
        obs = table.observation()
        view = table.view
        forced = self._forced(obs, view)
        if forced is not None:
            text, note = forced
            self.write(note)
            reply = table.act(text)
            if reply["type"] == "error":
                self.write(self._style(f"Not accepted: {reply['message']}", fg="yellow"))
            return
        prompt = self.show_turn(obs)
        start = table.seq
        while True:
            with table.listening():  # heartbeats and events keep flowing while you think
                answer = self.read(prompt).strip()
            self.report_chat()  # what was said while you thought
            command = answer.lower()
            if command in ("?", "help"):
                self.write(HELP_TEXT + ("\n  hint    what the server's bot would do" if table.hints_on() else "")
                           + ("\n  say TEXT  say TEXT to the table (chat)" if table.chat_on() else "")
                           + "\n  rematch  once the match is over: play again with the same players"
                           + ("\n" + UNDO_HELP_TEXT.rstrip("\n") if table.undo_table() else ""))
            elif command.split(maxsplit=1)[:1] == ["say"]:
                self.say(answer[len("say"):].strip())
            elif command == "rematch":
                reply = table.rematch()  # before the end: the server's not_over, in words
                if reply["type"] == "error":
                    self.write(self._style(rematch_refusal(reply), fg="yellow"))
            elif command == "hand":
                self.write(self.hand_line(table.observation()))
            elif command == "sheet":
                self.write(sheet_text(table.view, self.names, unicode=self.unicode))
            elif command in ("last", "last trick"):
                self.write(self.last_trick(table.observation()))
            elif command == "hint":
                self.write(self.hint_text())
            elif command in ("undo", "u"):
                if self.undo():
                    return  # the table went back: shown again (what was taken back first) before asking
            elif command.split(maxsplit=1)[:1] == ["review"]:
                self.write(self.review(command[len("review"):].strip()))
            elif command.split(maxsplit=1)[:1] == ["fill"]:
                self.write("The match has begun: fill is for a table that still waits for players.")
            elif command in ("quit", "exit"):  # not "q": a queen's rank typed without its suit left the table
                raise QuitGame
            elif not answer:
                self.write("Please answer (type ? for help).")
            else:
                text = self._exchange_text(answer) if obs.phase is Phase.EXCHANGE else answer
                reply = table.act(text)
                if reply["type"] == "ack":
                    return
                self.write(self._style(f"Not accepted: {reply['message']}", fg="yellow"))
                if reply.get("code") in ("stale_seq", "reconnected", "not_your_turn", "match_over") \
                        or table.seq != start:
                    return  # the table moved on: show it again before asking
            if not table.my_turn():
                return

    @staticmethod
    def _exchange_text(answer: str) -> str:
        """In the exchange, a bare list of cards means discard them (the server reads it so too)."""
        return "keep" if answer.strip() == "-" else answer

    def _forced(self, obs: Observation, view: dict[str, Any]) -> tuple[str, str] | None:
        if obs.phase is Phase.CHOOSE and len(obs.legal_actions) == 1:
            only = obs.legal_actions[0]
            assert isinstance(only, Choose)
            return str(only.contract), (f"Your only unused contract is {self.contract_text(only.contract)}: "
                                        "it is chosen for you.")
        if obs.phase is Phase.EXCHANGE and view.get("exchange") and view["exchange"].get("max") == 0:
            return "keep", "The talon is empty: you keep your hand."
        if obs.phase is Phase.PLAY and len(obs.hand) == 1 and len(obs.legal_actions) == 1:
            card = obs.legal_actions[0]
            assert isinstance(card, Play)
            return str(card.card), f"You play your last card, {self.card(card.card)}."
        return None

    def say(self, text: str) -> None:
        """``say TEXT``: send TEXT to the table's chat; the server's refusal (too long, too fast...) is shown."""
        table = self.table
        if not table.chat_on():
            self.write("This table has no chat (its host turned it off).")
            return
        if not text:
            self.write("Say what?  Type: say TEXT")
            return
        too_long = chat_too_long(text)
        if too_long is not None:  # refused here: a frame too large for the server would get no answer
            self.write(self._style(f"Not sent: {too_long}", fg="yellow"))
            return
        reply = table.say(text)
        self.report_chat()  # (after a reconnect, the welcome's history: our message if it arrived)
        if reply.get("code") == "reconnected":  # never sent twice: it may have arrived before the drop
            self.write(self._style("The connection dropped while your message was sent: if it arrived, it is in "
                                   "the chat above.", fg="yellow"))
        elif reply["type"] == "error":
            self.write(self._style(f"Not sent: {reply['message']}", fg="yellow"))

    def report_chat(self) -> None:
        """Write the chat lines that arrived since the last call."""
        for message in self.table.drain_chat():
            self.write(chat_line(message, self.seat))

    def undo(self) -> bool:
        """The ``undo`` command: ask the server to take back our last card of the deal and everything after it
        (a table where every other seat is a computer player's; each undo goes one card of ours further back).
        True when it did (the run loop then writes what was taken back, :meth:`report_undone`); otherwise the
        server's reason is written (``Cannot undo: ...``) and nothing changes."""
        table = self.table
        if table.rated():
            self.write(self._style("Cannot undo: nobody takes back cards at a rated table.", fg="yellow"))
            return False
        reply = table.undo()
        if reply["type"] == "error":
            self.write(self._style(f"Cannot undo: {str(reply['message']).rstrip('.')}.", fg="yellow"))
            return False
        return True

    def report_undone(self, undone: dict[str, Any]) -> None:
        """Write what an undo took back (ours, or one from our seat's other connection, a browser say)."""
        if undone.get("away"):
            self.write("Cards were taken back at this table while this connection was away; it is shown as it is "
                       "now.")
        else:
            played = undone_cards(undone)
            shown = ", ".join(f"{self.who(seat)} {self.card(card)}" for seat, card in played)
            count = len(played)
            again = "  Choose your card again." if self.table.my_turn() else ""
            self.write(f"Taken back: {shown} ({count} card{'s' if count != 1 else ''}).{again}")
            self._tricks_in_deal = int(undone.get("tricks_shown", self._tricks_in_deal))

    def review(self, argument: str = "") -> str:
        """``review`` at a server's table: not here (the cards it needs are the server's to reveal)."""
        return REMOTE_REVIEW[:1].upper() + REMOTE_REVIEW[1:] + "."

    def hint_text(self) -> str:
        table = self.table
        if not table.hints_on():
            return "This table gives no hints (" + ("it is rated)." if table.rated() else "its host turned them off).")
        reply = table.hint()
        if reply["type"] == "error":
            return f"No hint: {reply['message']}"
        return hint_text(f"{reply['bot']} bot", str(reply["action"]), reply.get("evaluations") or {},
                         unicode=self.unicode)

    # -- what happened --------------------------------------------------------------------------------------

    def report_event(self, event: dict[str, Any]) -> None:
        """Write one event of the table, as our seat received it."""
        kind = event.get("kind")
        if kind == "seat":
            who = event.get("name") or f"seat {event['seat']}"
            if event.get("open"):
                self.write(f"Seat {event['seat']} is free again.")
            elif event.get("left"):
                self.write(f"{who} has left the table.")
            elif event.get("standin"):
                self.write(f"A {event.get('bot') or 'computer'} bot plays for {who} while they are away.")
            elif event["seat"] != self.seat:
                self.write(f"{seated_text(event)} sits at seat {event['seat']}.")
        elif kind == "start":
            players = self.table.view.get("players", [])
            registered = {int(p["seat"]) for p in players if p.get("registered") and not p.get("open")}
            mark = " ✓" if self.unicode else " *"
            self.write(self._style("The match begins: ", bold=True)
                       + ", ".join(f"{n}{mark if s in registered else ''} (seat {s})"
                                   for s, n in enumerate(event["players"]))
                       + (f"  ({mark.strip()}: a registered player)" if registered else ""))
        elif kind == "deal":
            self._tricks_in_deal = 0
            self._active = tuple(event["active_seats"])
            n_deals = self.table.view.get("n_deals", "?")
            roles = ("FH", "MH", "D")
            header = (f"═══ Deal {event['deal_no']} of {n_deals} ═══  dealer: {self.who(event['dealer'])} · "
                      + " · ".join(f"{r} {self.who(s)}" for r, s in zip(roles, event["active_seats"], strict=True)))
            self.write("")
            self.write(self._style(header, bold=True))
            if self.seat not in event["active_seats"] and not self.table.spectator:
                self.write("You deal and sit out this deal.")
            elif event["active_seats"][0] != self.seat:
                self.write(f"{self.who_cap(event['active_seats'][0])} (forehand) is choosing the contract.")
        elif kind == "action":
            self._report_action(event)
        elif kind == "deal_end":
            contract = Contract.from_str(event["contract"])
            rules = self.table.rules
            parts = []
            for role, s in enumerate(self._active or range(len(event["scores"]))):
                quota = f" of {rules.quota(role, contract)}" if rules is not None and self._active else ""
                parts.append(f"{self.who_cap(s)} {event['tricks'][s]}{quota} → {signed(event['scores'][s])}")
            self.write(self._style(f"Deal {event['deal_no']} is over ({contract.label}, {contract.goal}): ",
                                   bold=True) + "; ".join(parts))
            self.write(self.totals_line(event["totals"]))
        elif kind == "match_end":
            winners = " and ".join(self.who(s) for s in event["winners"])
            self.write(self._style("The match is over.", bold=True) + " " + self.totals_line(event["totals"]))
            if self.seat in event["winners"]:
                text = "You win!" if len(event["winners"]) == 1 else f"The win is shared: {winners}."
            else:
                text = f"The winner: {winners}" + (" (shared)." if len(event["winners"]) > 1 else ".")
            self.write(self._style(text, bold=True))
        elif kind == "closed":
            self.write(f"The server closed the table: {event.get('reason', 'no reason given')}.")
        elif kind == "rematch":
            self.write(self._style("Every player asked for a rematch:", bold=True)
                       + f" a new match with the same players, at table {event.get('table')}.")

    def _report_action(self, event: dict[str, Any]) -> None:
        actor = int(event["actor"])
        who = self.who_cap(actor)
        auto = " (a bot acted in your place: the turn timer ran out)" if event.get("auto") and actor == self.seat \
            else ""
        kind = event.get("action_kind")
        if kind == "choose":
            verb = "choose" if actor == self.seat else "chooses"
            text = f"{who} {verb} {self.contract_text(Contract.from_str(event['contract']))}.{auto}"
            self.write(self._style(text, bold=True))
            view = self.table.view
            if view.get("shown_card") and view.get("deal_no") == event.get("deal_no"):
                self.write(f"Turned-up talon card (a reminder only): {self.card(Card.from_str(view['shown_card']))}")
        elif kind == "exchange":
            count = int(event["count"])
            if actor == self.seat and "discards" in event:
                if count:
                    self.write(f"You discard {self.cards([Card.from_str(c) for c in event['discards']])} and draw "
                               f"{self.cards([Card.from_str(c) for c in event['drawn']])}.{auto}")
                else:
                    self.write(f"You keep your hand.{auto}")
            elif count:
                self.write(f"{who} exchanges {count} card{'s' if count != 1 else ''}.")
            else:
                self.write(f"{who} keeps.")
        elif kind == "play":
            if auto:
                self.write(f"You play {self.card(Card.from_str(event['card']))}{auto}.")
            trick = event.get("trick")
            if trick:
                self._tricks_in_deal += 1
                cards = ", ".join(f"{self.who(s)} {self.card(Card.from_str(c))}"
                                  for s, c in zip(trick["seats"], trick["cards"], strict=True))
                winner = self._style(self.who_cap(trick["winner"]), bold=True)
                self.write(f"Trick {self._tricks_in_deal}: {cards} → {winner} "
                           f"{'win' if trick['winner'] == self.seat else 'wins'}.")


# -- mizerka play --connect ---------------------------------------------------------------------------------------


def _shown(message: object) -> str:
    """A server's message, shortened for an error message."""
    text = json.dumps(message, ensure_ascii=False, default=str)
    return text if len(text) <= 120 else text[:117] + "..."


def undone_cards(undone: dict[str, Any]) -> list[tuple[int, Card]]:
    """The cards an undo took back (a snapshot's ``undone``), as ``(seat, card)`` pairs in playing order: what both
    games write ("Taken back: you J♦, Bot 2 2♦").

    The server's word is checked, not trusted: an entry that is not a seat and a card is left out.

    >>> undone_cards({"seat": 0, "actions": [{"seat": 0, "action": "JD"}, {"seat": 1, "action": "2D"}]})
    [(0, Card.from_str('JD')), (1, Card.from_str('2D'))]
    >>> undone_cards({"seat": 0, "actions": [{"seat": 0, "action": "NT"}, {"seat": "x", "action": "2D"}, 7]})
    []
    >>> undone_cards({"seat": 0, "away": True})
    []
    """
    cards: list[tuple[int, Card]] = []
    actions = undone.get("actions")
    for taken in actions if isinstance(actions, list) else []:
        if not isinstance(taken, dict) or not isinstance(taken.get("action"), str):
            continue
        try:
            cards.append((int(taken["seat"]), Card.from_str(taken["action"])))
        except (KeyError, TypeError, ValueError):
            continue
    return cards


_REMATCH_REFUSALS = {
    "not_over": "No rematch yet: a rematch can be asked for once the match is over.",
    "server_full": "No rematch for now: the server keeps as many tables as it may; ask again in a while.",
    "no_seat": "Only the seated players can ask for a rematch; a spectator follows them to the new table.",
}


def rematch_refusal(reply: dict[str, Any]) -> str:
    """The server's refusal of a ``rematch`` (an ``error``), in the player's words.

    >>> rematch_refusal({"type": "error", "code": "not_over", "message": "..."})
    'No rematch yet: a rematch can be asked for once the match is over.'
    >>> rematch_refusal({"type": "error", "code": "profile_needed", "message": "this seat's profile was deleted"})
    "No rematch: this seat's profile was deleted."
    """
    code = str(reply.get("code"))
    if code in _REMATCH_REFUSALS:
        return _REMATCH_REFUSALS[code]
    return f"No rematch: {str(reply.get('message') or code).rstrip('.')}."


def rematch_asked_text(seats: Sequence[int], names: Sequence[str]) -> str:
    """Who has asked for a rematch (the server's ``rematch_asked``: the others at the finished table learn it as
    each seat asks), as a sentence, the seats by their names.

    >>> rematch_asked_text([1], ["Ola", "Ala", "Bot"])
    'Ala asks for a rematch.'
    >>> rematch_asked_text([0, 1], ["Ola", "Ala", "Bot"])
    'Ola and Ala ask for a rematch.'
    >>> rematch_asked_text([0, 1, 3], ["Ola", "Ala", "Bot", "Ela"])
    'Ola, Ala and Ela ask for a rematch.'
    """
    who = [names[s] if 0 <= s < len(names) else f"seat {s}" for s in seats]
    listed = " and ".join(who) if len(who) < 3 else ", ".join(who[:-1]) + " and " + who[-1]
    return f"{listed} {'asks' if len(who) == 1 else 'ask'} for a rematch."


def waiting_text(waiting: Sequence[int], names: Sequence[str]) -> str:
    """Who is still to ask for a rematch (the ``ack``'s ``waiting``), as a sentence.

    >>> waiting_text([1], ["Ola", "Ala", "Bot"])
    'You asked for a rematch; Ala (seat 1) has not asked yet.  The new match starts when every player has asked.'
    >>> waiting_text([], ["Ola", "Ala", "Bot"])
    'You asked for a rematch; every player has asked: the new table is being made.'
    """
    if not waiting:
        return "You asked for a rematch; every player has asked: the new table is being made."
    who = " and ".join(f"{names[s] if 0 <= s < len(names) else 'seat'} (seat {s})" for s in waiting)
    verb = "has" if len(waiting) == 1 else "have"
    return (f"You asked for a rematch; {who} {verb} not asked yet.  The new match starts when every player has "
            "asked.")


def _held_is_ours(held: HeldSeat, name: str | None, player_key: str | None) -> bool:
    """Whether a remembered seat is the one to go back to, for the *name* and *player_key* given (``None``: not
    given); see :func:`take_seat`."""
    if player_key is not None:  # the key says who you are: only a seat taken with it is yours
        return held.key == key_fingerprint(player_key) and (name is None or name.casefold() == held.name.casefold())
    if held.key is not None:  # a profile's seat: its name is the profile's, whatever its case
        return name is None or name.casefold() == held.name.casefold()
    return name is None or name == held.name


MAX_REMATCH_HOPS = 20
"""The longest chain of rematches a held seat is followed along when it comes back (each finished table naming
the next); a server naming more is not followed further."""


def _back_at_the_end(table: RemoteTable) -> None:
    """Back at a held seat (connected): if its match is over, go where the seat is now.

    A rematch the players asked for (maybe a chain of them, each finished table naming the next: the player left
    after asking, and the others played on) is followed to its last table; the old matches are no news.  A finished
    table without a rematch (yet) is where the seat stays: the other players may be waiting there for our rematch,
    which the server still takes.  Of its match only the end is news (the ``match_end`` event: the final totals
    and the winner); the chat since is kept."""
    for _ in range(MAX_REMATCH_HOPS):
        if table.view.get("status") != "finished" or table.rematch_target() is None:
            break
        for drained in (table.drain, table.drain_undone, table.drain_chat, table.drain_missed):
            drained()  # the old match is no news
        table.follow_rematch()
    if table.view.get("status") == "finished" and table.rematch_target() is None:
        table.skip_to_the_end()


def take_seat(table: RemoteTable, book: SeatBook, name: str | None, *, fresh: bool = False,
              player_key: str | None = None) -> tuple[int, bool]:
    """Sit at *table*: back at the seat *book* holds there, or at a free seat, which *book* then remembers.
    Return the seat and whether it is one we held before.

    The held seat is taken back unless *fresh*, or it is someone else's:

    * with *player_key* (``--player-key``: sit as that profile), only a seat taken with the same key is yours (the
      book keeps the key's fingerprint, never the key).  A seat held there without a key, or with another key, is
      not the profile's: a free seat is asked for as the profile instead (the server refuses ``already_seated``
      if the profile sits at the table already, from another device).  A *name* given too must be the seat's
      (ignoring case, as the server compares a profile's name); another name goes to the server, which refuses it
      (``bad_name``);
    * without a key, a *name* (``None``: not given) other than the one the seat was taken under is another
      player's.  A seat taken with a key is taken back without it too (its token is the proof; forgetting
      ``MIZERKA_PLAYER_KEY`` in a new terminal should not cost the seat), its name compared ignoring case.

    A held seat the server no longer knows (you left it) is forgotten and a free seat taken instead.  A held seat
    at a finished match is still ours (the server takes its ``hello``, and its ``rematch``): when its players
    asked for a rematch the seat is taken at the rematch's table, which the book remembers instead
    (:meth:`RemoteTable.follow_rematch`; a chain of rematches is followed to its last table), and otherwise at the
    finished table, its final position shown and a rematch still to ask for (see :func:`_back_at_the_end`).  A
    stale link, a full table, a rated table without a key or a refused key raise :class:`RemoteError`.
    """
    invite = table.invite
    held = None if fresh else book.get(invite)
    if held is not None and _held_is_ours(held, name, player_key):
        table.seat, table.token = held.seat, held.token
        try:
            table.connect()
        except RemoteRefused as error:
            if error.code != "bad_token":
                raise
            book.forget(invite)
            table.seat = table.token = None
        else:
            table.book, table.held = book, held
            _back_at_the_end(table)
            return held.seat, True
    if player_key is not None:
        seat = table.join(name, player_key)  # the profile's name: the server's
    else:
        seat = table.join(name or (held.name if held is not None and held.key is None else "Guest"))
    assert table.token is not None
    held = HeldSeat(seat=seat, name=table.seated_as or name or "Guest", token=table.token,
                    key=None if player_key is None else key_fingerprint(player_key))
    book.put(invite, held)
    table.book, table.held = book, held
    table.connect()
    return seat, False


def watch_table(table: RemoteTable) -> None:
    """Watch *table* as a spectator: ``hello`` without a token (no seat is taken, the seat book is not used).

    Raises:
        RemoteError: a stale link, a table that admits no spectators (``spectators_off``, said in words), an
            unreachable server.
    """
    table.seat = table.token = None
    table.connect()


SIT_NONE = ("No seat is free to sit down at: one is taken at a table waiting for players, or, during an unrated "
            "match, taken over from a computer player (a rated match keeps its players).")
"""What both games say to a spectator asking to sit down where no seat is free."""


@dataclasses.dataclass(frozen=True)
class SitInAs:
    """Who a spectator sits down as (``mizerka play --connect URL --watch`` with ``--name`` and ``--player-key``,
    or neither: a guest), and the seat book that then remembers the seat (:func:`sit_in`)."""

    name: str | None
    player_key: str | None
    book: SeatBook


class SatDown(Exception):
    """Raised by the line game's ``sit`` command once the spectator holds a seat: *table* is the seat's own
    connection; :func:`play_remote` plays on from it."""

    def __init__(self, table: RemoteTable) -> None:
        super().__init__(f"seated at seat {table.seat}")
        self.table = table


def free_seat_text(table: RemoteTable, seat: int, takeover: bool) -> str:
    """One of :meth:`RemoteTable.free_seats` in words, for the spectator's choice."""
    if takeover:
        return f"seat {seat}: sit in for {table.names()[seat]}, a computer player"
    return f"seat {seat}: open"


def sit_in(watched: RemoteTable, seat: int, who: SitInAs) -> RemoteTable:
    """Sit down at *seat* of the table *watched* (a spectator's connection) follows: join it as *who* (under
    its name, ``Guest`` without one; as the profile with its key), remember the seat in *who*'s book (``mizerka
    play --connect`` with the same link takes it back), and return the seat's own connection, connected.  The
    spectator's connection is left as it is: the caller closes it.

    Raises:
        RemoteError: the seat is not free any more (someone sat down there, the match began or ended meanwhile),
            the name or key is refused, a rated table and no key, the server cannot be reached.
    """
    table = RemoteTable(watched.invite, timeout=watched.timeout, reconnect_window=watched.reconnect_window)
    table.keepalive = watched.keepalive
    try:
        table.join(who.name if who.player_key is not None else (who.name or "Guest"), who.player_key, seat=seat)
    except RemoteRefused as error:
        if error.code in ("seat_taken", "table_full", "match_over"):
            raise RemoteRefused(f"seat {seat} is not free any more (someone sat down there, or the match moved on): "
                                "watch on, or choose another seat", error.code) from None
        raise
    assert table.token is not None and table.seat is not None
    held = HeldSeat(seat=table.seat, name=table.seated_as or who.name or "Guest", token=table.token,
                    key=None if who.player_key is None else key_fingerprint(who.player_key))
    who.book.put(table.invite, held)
    table.book, table.held = who.book, held
    try:
        table.connect()
    except RemoteError:
        table.close()
        raise
    return table


def play_remote(url: str, *, name: str | None, plain: bool, unicode: bool | None, fresh_seat: bool = False,
                player_key: str | None = None, watch: bool = False, find: bool = False, variant: str = "standard",
                rated: bool = False) -> None:
    """``mizerka play --connect URL``: sit at the invite link's table and play there, full screen at a terminal
    (the ``tui`` extra) or line by line (``plain``, or when input or output is not a terminal).

    With *player_key* (``--player-key``, or ``MIZERKA_PLAYER_KEY``) the seat is taken as that profile, under its
    name; a rated table seats only profiles.

    The seats you take are remembered (:class:`SeatBook`): the same link takes you back to your seat, unless
    *fresh_seat*, or the seat is another player's (see :func:`take_seat`).  A rematch moves the seat, and the
    book's entry, to the new table.

    With *watch* (``--watch``) no seat is taken: the table is watched as a spectator (:func:`watch_table`).  The
    spectator may sit down later (``sit`` in the line game, ``i`` full screen: :func:`sit_in`) at an open seat, or
    in for a computer player during an unrated match, as *name* (a guest without one) or the *player_key*'s
    profile; the game then goes on at that seat.

    With *find* (``--find-players``) *url* is the server's address and the seat is found by quick pairing
    (:func:`pair_at`) under *variant*, rated if *rated*; the book remembers it as any seat taken by a link.

    Raises:
        click.ClickException: (and its kinds) a bad link, a stale link, a full table, an unreachable server, a
            connection lost for good, a table that admits no spectators; the message says which.
    """
    import sys

    import click

    # the tui extra's two packages the line game uses: websockets for the connection, rich to fit names to the score
    # sheet's columns (checked here, not when "sheet" is first typed in the middle of a game)
    for package in ("websockets", "rich"):
        try:
            importlib.import_module(package)
        except ImportError:
            raise click.ClickException(f"--connect needs the {package} package: pip install 'mizerka[tui]'") from None
    if name is not None:
        name = name.strip()
        if not name or not name.isprintable() or len(name) > 40:
            raise click.BadParameter("give a name of 1-40 visible characters", param_hint="'--name'")
    if player_key is not None:
        player_key = player_key.strip()
        if not player_key or not player_key.isprintable() or len(player_key) > 128:
            # never the key itself in the message: it is a secret
            raise click.BadParameter("a player key is 1-128 visible characters (the key POST /api/players gave)",
                                     param_hint="'--player-key' / MIZERKA_PLAYER_KEY")
    book = SeatBook.default()
    seat: int | None = None
    back = False
    if find:
        try:
            server = parse_server(url)
        except RemoteError as error:
            raise click.BadParameter(str(error), param_hint="'--connect'") from None
        try:
            invite, seat, token, seated = pair_at(server, name, variant=variant, player_key=player_key, rated=rated)
        except RemoteError as error:
            raise click.ClickException(str(error)) from None
        table = RemoteTable(invite)
        table.seat, table.token, table.seated_as = seat, token, seated
        held = HeldSeat(seat=seat, name=seated, token=token,
                        key=None if player_key is None else key_fingerprint(player_key))
        book.put(invite, held)
        table.book, table.held = book, held
        try:
            table.connect()
        except RemoteError as error:
            table.close()
            raise click.ClickException(str(error)) from None
        click.echo(f"Paired at table {invite.table}: its link is {invite_link(invite)}", err=True)
    else:
        try:
            invite = parse_invite(url)
        except RemoteError as error:
            raise click.BadParameter(str(error), param_hint="'--connect'") from None
        table = RemoteTable(invite)
        try:
            if watch:
                watch_table(table)
            else:
                seat, back = take_seat(table, book, name, fresh=fresh_seat, player_key=player_key)
        except RemoteError as error:
            table.close()
            raise click.ClickException(str(error)) from None
    over = table.view.get("status") == "finished"
    if seat is not None and over and not sys.stdin.isatty():
        # back at a finished match through a pipe or from a file: no rematch is asked for there, so there is
        # nothing to do; the seat stays in the book, for a rematch asked at a terminal with the same link
        totals = ", ".join(f"{n} {signed(t)}"
                           for n, t in zip(table.names(), table.view.get("totals", []), strict=False))
        table.close()
        raise click.ClickException(f"the invite link is stale for play: the match at table {table.invite.table!r} "
                                   f"is over (totals {totals}).  Your seat there is kept: at a terminal the same "
                                   "link offers a rematch.")
    if seat is not None and back:
        moved = f" (the rematch of table {invite.table})" if table.invite.table != invite.table else ""
        end = ("; its match is over: ask for a rematch, or leave" if over else "")
        click.echo(f"Back at your seat {seat} at table {table.invite.table}{moved} (kept from your last visit)"
                   f"{end}.", err=True)
    full_screen = not plain and sys.stdout.isatty() and sys.stdin.isatty()
    sit_as = SitInAs(name, player_key, book) if watch else None
    while True:
        sat = _play_at(table, full_screen=full_screen, unicode=unicode, sit_as=sit_as)
        if sat is None:
            return
        table = sat  # the spectator sat down: the game goes on at the seat
        assert table.seat is not None
        seat_totals = table.view.get("totals") or []
        carried = ""
        if (table.view.get("status") == "playing" and table.seat < len(seat_totals)
                and table.view.get("deal_no", 0) > 1):
            carried = f"  You play on with the seat's total so far, {signed(int(seat_totals[table.seat]))}."
        click.echo(f"You sat down at seat {table.seat} of table {table.invite.table} as {table.seated_as}; the "
                   f"link {invite_link(table.invite)} takes you back to it.{carried}", err=True)


def _play_at(table: RemoteTable, *, full_screen: bool, unicode: bool | None,
             sit_as: SitInAs | None) -> RemoteTable | None:
    """Play (or watch) at *table*, connected, until the match is over or the player leaves; close the connection.
    A spectator who sits down (as *sit_as*) ends it early: the seat's connection is returned."""
    import sys

    import click

    from mizerka.terminal import _read_line

    seat = table.seat if not table.spectator else None
    try:
        if full_screen:
            try:
                from mizerka.tui.remote_app import RemoteApp
            except ImportError:
                click.echo("The full-screen game needs the tui extra (pip install 'mizerka[tui]'); "
                           "playing the line game.", err=True)
            else:
                app = RemoteApp(table, sit_as=sit_as)
                app.run()
                if app.failure is not None:
                    raise click.ClickException(app.failure)
                if app.seated is not None:
                    return app.seated
                click.echo(app.farewell())
                return None
        if unicode is None:
            unicode = stdout_takes_unicode()
        game = RemoteLineGame(table, read=_read_line, write=click.echo, unicode=unicode, colour=True,
                              ask_after_match=sys.stdin.isatty(), commands_while_waiting=_stdin_is_terminal(),
                              sit_as=sit_as)
        view = table.view
        where = (f"Mizerka at {table.invite.http}, table {table.invite.table} ({view['variant']}, {view['n_deals']} "
                 "deals)")
        if seat is None:
            click.echo(f"{where}: you are watching, as a spectator (the table and the chat as everyone sees them; "
                       "no hand).  Type ? for the commands, quit to stop.")
        else:
            click.echo(f"{where}: you are {table.marked_names(unicode)[seat]}, seat {seat}.  Type ? at any prompt "
                       "for help.")
        try:
            game.run_remote()
        except SatDown as sat:
            return sat.table
        except QuitGame:
            click.echo(f"You stopped watching table {table.invite.table}." if seat is None else
                       "You left the table.  Your seat stays yours; a bot plays it after the server's grace period.")
        except EOFError:
            when = f"in deal {table.view['deal_no']}" if table.view["deal_no"] else "before its match began"
            click.echo(f"\nInput ended: you leave the table {when}.", err=True)
            raise click.exceptions.Exit(1) from None
        except KeyboardInterrupt:
            doing = "stop watching" if seat is None else "leave"
            click.echo(f"\nInterrupted: you {doing} the table in deal {table.view['deal_no']}.", err=True)
            raise click.exceptions.Exit(130) from None
        except RemoteError as error:
            raise click.ClickException(str(error)) from None
        return None
    finally:
        table.close()
