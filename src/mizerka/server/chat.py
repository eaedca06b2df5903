"""Table chat: what the seated humans of a table say to each other.

The server relays chat; it never writes any.  A message is a seated human's *text* (checked by
:func:`clean_chat_text`) or one of the ready-made phrases of :data:`~mizerka.server.protocol.CHAT_PRESETS`, which
each client shows in its own language.  Bots never chat, and nothing the server knows of the cards goes into a
chat message: the server adds only the seat, its public name and a number.

A :class:`ChatRoom` is one table's chat: the last :data:`CHAT_HISTORY` messages (a client that says ``hello``
gets them in its ``welcome``), and a sliding-window limit per seat of :data:`CHAT_BURST` messages in any
:data:`CHAT_WINDOW` seconds.  The hub stores each message in the database (``chat`` rows,
:meth:`mizerka.server.db.Store.chat_op`) before it relays it, and gives a table read back from the database (after a
restart, or a finished table loaded again) its last messages (:meth:`ChatRoom.restore`): the history and the
numbering go on where they were.  The sending times behind the limit live in memory only (a restart forgets them).

>>> room = ChatRoom()
>>> room.post(0, "Ala", text="  good luck!  ", now=0.0)
{'type': 'chat', 'seq': 1, 'seat': 0, 'name': 'Ala', 'text': 'good luck!'}
>>> room.post(1, "Bolek", preset="thanks", now=1.0)["preset"]
'thanks'
>>> [m["seq"] for m in room.history()]
[1, 2]
>>> room.post(1, "Bolek", text="\\u202eakrezim", now=2.0)
Traceback (most recent call last):
...
mizerka.server.tables.TableError: chat_bad_char: the message holds the bidirectional control character U+202E ...
"""

from __future__ import annotations

import collections
import time
import unicodedata
from typing import Any, Final

# the record's set of bidirectional controls (and its way of naming a character): one list for the whole package
from mizerka.record import BIDI_CONTROLS, BLANKS, DEFAULT_IGNORABLE, char_name, is_default_ignorable
from mizerka.server.protocol import CHAT_PRESETS
from mizerka.server.tables import TableError

__all__ = ["BLANKS", "CHAT_BURST", "CHAT_HISTORY", "CHAT_WINDOW", "DEFAULT_IGNORABLE", "MAX_CHAT_CHARS",
           "ChatRateLimited", "ChatRoom", "clean_chat_text", "is_default_ignorable"]

MAX_CHAT_CHARS: Final = 200
"""The longest chat text, in characters (code points), once stripped of surrounding whitespace."""

CHAT_HISTORY: Final = 50
"""How many of a table's last chat messages the server keeps (and gives a client that joins or comes back)."""

CHAT_BURST: Final = 5
"""How many chat messages one seat may send in any :data:`CHAT_WINDOW` seconds."""

CHAT_WINDOW: Final = 10.0
"""The sliding window of the per-seat chat limit, in seconds."""

_CONTROL_CATEGORIES: Final = frozenset({"Cc", "Zl", "Zp"})
"""Unicode's control characters (line breaks, tabs, escapes, NUL…) and the line and paragraph separators: a chat
line is one line."""

_JOINERS: Final = frozenset({"\u200c", "\u200d"})
"""The zero-width non-joiner and joiner: the only invisible format characters (category Cf) a message may hold,
since emoji sequences and some scripts need them.  Every other one (zero-width space, word joiner, byte order mark,
interlinear annotation marks…) is refused: it shows nothing, or hides text."""

_BLACK_FLAG: Final = "\U0001f3f4"
_TAGS: Final = range(0xE0020, 0xE0080)
_CANCEL_TAG: Final = "\U000e007f"


def _hidden_characters(text: str) -> str | None:
    """The first invisible format character of *text* that a message may not hold, or ``None``.  Tag characters
    (U+E0020-U+E007F) are allowed only in an emoji tag sequence: a black flag, tags, the cancel tag (the flags of
    England, Scotland and Wales); anywhere else they are invisible text."""
    in_flag = False
    for i, ch in enumerate(text):
        if ord(ch) in _TAGS:
            if not (in_flag or (i > 0 and text[i - 1] == _BLACK_FLAG)):
                return ch
            in_flag = ch != _CANCEL_TAG
            continue
        if in_flag:  # a tag sequence must end with the cancel tag
            return text[i - 1]
        if unicodedata.category(ch) == "Cf" and ch not in _JOINERS:
            return ch
    return text[-1] if in_flag else None


def clean_chat_text(text: str) -> str:
    """*text* stripped of surrounding whitespace, if a table may read it; else :class:`TableError` with the code
    ``chat_empty``, ``chat_too_long`` or ``chat_bad_char`` (a control character, a line break, or a bidirectional
    control character such as U+202E, which makes text display as other text).

    >>> clean_chat_text("  hi  ")
    'hi'
    >>> clean_chat_text("two\\nlines")
    Traceback (most recent call last):
    ...
    mizerka.server.tables.TableError: chat_bad_char: the message holds the control character U+000A, ...
    >>> clean_chat_text("x" * 201)
    Traceback (most recent call last):
    ...
    mizerka.server.tables.TableError: chat_too_long: the message has 201 characters; at most 200 are allowed
    """
    text = text.strip()
    if not text:
        raise TableError("chat_empty", "the message is empty")
    if all(ch.isspace() or ch in BLANKS or is_default_ignorable(ch) or unicodedata.category(ch) == "Cf"
           for ch in text):  # (the joiners are default-ignorable format characters too)
        raise TableError("chat_empty", "the message shows nothing: it holds only blank or invisible characters")
    if len(text) > MAX_CHAT_CHARS:
        raise TableError("chat_too_long", f"the message has {len(text)} characters; at most {MAX_CHAT_CHARS} "
                                          "are allowed")
    for ch in text:
        if ch in BIDI_CONTROLS:
            raise TableError("chat_bad_char", f"the message holds the bidirectional control character "
                                              f"{char_name(ch)}, which can make text display as other text")
        if unicodedata.category(ch) in _CONTROL_CATEGORIES:
            raise TableError("chat_bad_char", f"the message holds the control character {char_name(ch)}, "
                                              "and a chat message is one line of visible text")
    hidden = _hidden_characters(text)
    if hidden is not None:
        raise TableError("chat_bad_char", f"the message holds the invisible character {char_name(hidden)}, "
                                          "which shows nothing or hides text")
    return text


class ChatRateLimited(TableError):
    """``rate_limited`` for chat: the seat sent :data:`CHAT_BURST` messages in the last :data:`CHAT_WINDOW`
    seconds.  :attr:`retry_after` is the seconds until it may send again (the error reply carries it)."""

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__("rate_limited", message)
        self.retry_after = retry_after


class ChatRoom:
    """One table's chat: its last messages and each seat's recent sending times.

    Args:
        history: how many messages to keep.
        burst, window: each seat may send *burst* messages in any *window* seconds.

    :meth:`post` checks a message, numbers it, keeps it and returns it as the ``chat`` message the table receives;
    a refused message changes nothing (and is not counted against the seat's limit).
    """

    def __init__(self, history: int = CHAT_HISTORY, burst: int = CHAT_BURST, window: float = CHAT_WINDOW) -> None:
        self.burst = burst
        self.window = window
        self.seq = 0
        self._messages: collections.deque[dict[str, Any]] = collections.deque(maxlen=history)
        self._sent: dict[int, collections.deque[float]] = {}

    def wait(self, seat: int, now: float | None = None) -> float:
        """Seconds until *seat* may send again: 0.0 if it may now.

        >>> room = ChatRoom(burst=2, window=10.0)
        >>> for t in (0.0, 3.0):
        ...     _ = room.post(0, "Ala", preset="hello", now=t)
        >>> room.wait(0, now=4.0), room.wait(0, now=10.0), room.wait(1, now=4.0)
        (6.0, 0.0, 0.0)
        """
        now = time.monotonic() if now is None else now
        sent = self._sent.get(seat)
        if not sent:
            return 0.0
        while sent and now - sent[0] >= self.window:
            sent.popleft()
        if len(sent) < self.burst:
            return 0.0
        return sent[0] + self.window - now

    def post(self, seat: int, name: str, *, text: str | None = None, preset: str | None = None,
             now: float | None = None) -> dict[str, Any]:
        """Check and keep one message of *seat* (named *name*): *text* or *preset*, exactly one
        (:meth:`prepare`, then :meth:`keep`).

        Raises:
            TableError: as :meth:`prepare`.
        """
        message = self.prepare(seat, name, text=text, preset=preset, now=now)
        self.keep(message)
        return message

    def prepare(self, seat: int, name: str, *, text: str | None = None, preset: str | None = None,
                now: float | None = None) -> dict[str, Any]:
        """Check one message of *seat* (named *name*), *text* or *preset*, and number it, counting it against the
        seat's limit; it is not in the history until :meth:`keep` (the hub keeps it once it is stored), and
        :meth:`retract` takes it back.

        Raises:
            TableError: ``chat_empty``, ``chat_too_long``, ``chat_bad_char`` (the text), ``unknown_preset``, or
                :class:`ChatRateLimited` (the seat's limit: ``rate_limited``, and how long to wait).
        """
        now = time.monotonic() if now is None else now
        body: dict[str, Any]
        if preset is not None:
            if preset not in CHAT_PRESETS:
                shown = preset if len(preset) <= 40 else preset[:40] + "…"
                raise TableError("unknown_preset", f"unknown chat preset {shown!r} (expected one of: "
                                                   f"{', '.join(CHAT_PRESETS)})")
            body = {"preset": preset}
        else:
            body = {"text": clean_chat_text(text or "")}
        wait = self.wait(seat, now)
        if wait > 0:
            seconds = max(0.1, round(wait, 1))
            raise ChatRateLimited(f"more than {self.burst} chat messages in {self.window:g} s: wait {seconds:g} s",
                                  seconds)
        self._sent.setdefault(seat, collections.deque()).append(now)
        self.seq += 1
        return {"type": "chat", "seq": self.seq, "seat": seat, "name": name, **body}

    def keep(self, message: dict[str, Any]) -> None:
        """Add a :meth:`prepare`-d message to the history (the oldest goes past :data:`CHAT_HISTORY`)."""
        self._messages.append(message)

    def history(self) -> list[dict[str, Any]]:
        """The messages kept, oldest first."""
        return list(self._messages)

    def restore(self, messages: list[dict[str, Any]]) -> None:
        """Take back a table's stored messages (oldest first, as :meth:`history` gives them), before any is posted:
        the history is theirs, and the next message gets the number after the last of them.

        >>> room = ChatRoom()
        >>> room.restore([{"type": "chat", "seq": 7, "seat": 1, "name": "Bolek", "preset": "hello"}])
        >>> room.post(0, "Ala", preset="thanks", now=0.0)["seq"], [m["seq"] for m in room.history()]
        (8, [7, 8])
        """
        self._messages.extend(messages)
        if messages:
            self.seq = max(self.seq, max(int(m["seq"]) for m in messages))

    def retract(self, message: dict[str, Any]) -> None:
        """Take back *message*, the last one :meth:`prepare`-d and not kept (its write to the database reported a
        failure, and it was never relayed): it does not count against its seat's limit (refused messages do not),
        but **its number is never given again**.  A write can commit and still report a failure (the connection
        lost on the way back): the row is there then, and giving its number out again would make every later
        message's write fail on the duplicate number.  So the numbers may have a gap, which the clients take in
        their stride (they keep messages in the order received, and tell one from another by number).

        >>> room = ChatRoom(burst=2)
        >>> first = room.post(0, "Ala", preset="hello", now=0.0)
        >>> room.retract(room.prepare(0, "Ala", preset="thanks", now=1.0))
        >>> room.post(0, "Ala", preset="bye", now=2.0)["seq"], [m["seq"] for m in room.history()]
        (3, [1, 3])
        """
        sent = self._sent.get(message["seat"])
        if sent:
            sent.pop()
