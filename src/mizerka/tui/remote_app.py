"""The full-screen game at a server's table (``mizerka play --connect URL`` at a terminal).

The same screen, dialogs and keys as :class:`mizerka.tui.app.MizerkaApp`, drawn from the server's view of our
seat (:class:`mizerka.tui.remote.RemoteTable`) instead of a local match.  A background thread reads the
websocket (answering heartbeats, reconnecting after a drop) and hands every message to the screen; actions go
to the server, which checks them: a refusal is shown with the server's reason and the same question is asked
again (the contract or exchange dialog opens again).  The blind exchange stays one action.  ``u`` takes back your
last card and what followed it at a table where every other seat is a computer player's (the server's rule, as in
the local game), and hints come only where the table allows them.  At a rated table the log says so once, and a
registered player's name (a profile's seat) carries ``✓`` in the scores panel.

The table's chat is shown in the log (``Ala: good luck!``, your own ``You: ...``).  ``!`` opens
:class:`ChatDialog`, where you type a line (Enter sends) or pick one of the ready-made phrases.  What to send
goes to the server like an action, without waiting (:meth:`RemoteTable.send_nowait`); the server's answer
arrives through the reader thread: our own message comes back as a chat message like everyone's (so it is
written once, by the same code that writes the others'), a refusal as an error with our request's id ("Not
sent: ...").

While the table waits for players, ``f`` starts the match at once with computer players in the free seats: a small
choice of their level (:class:`FillDialog`, the casual rules bot first) sends ``fill``; the server's refusal is shown.

A spectator's table (``--watch``) is drawn without a hand; ``!``, ``u``, ``?``, ``n`` and ``f`` are answered in words
there.  ``i`` sits the spectator down (:class:`SitDialog`): at an open seat while the table waits for players, or in
for a computer player during an unrated match; the app then closes with :attr:`RemoteApp.seated`, the seat's own
connection, on which ``mizerka play`` opens the game again.
Once the match is over, ``n`` asks for a rematch; the others see who has asked ("Ala asks for a rematch.", in the
log as each seat asks and in the status line), and when every seated player has asked, the reader thread moves
the connection to the new table (:meth:`RemoteTable.follow_rematch`) and the game plays on there.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from typing import Any, ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList
from textual.widgets.option_list import Option

from mizerka.cards import CARDS, Card, CardSet
from mizerka.deal import Observation, Phase, Play
from mizerka.rules import Contract
from mizerka.terminal import counted, hint_text, signed
from mizerka.tui.app import (
    ContractDialog,
    ExchangeDialog,
    HelpDialog,
    InfoDialog,
    TableApp,
    card_markup,
    help_text,
    sorted_hand,
)
from mizerka.tui.remote import (
    CHAT_PRESET_TEXTS,
    FILL_DEFAULT,
    FILL_SPECTATOR,
    RATED_NOTE,
    SIT_NONE,
    SPECTATOR_CHAT,
    RemoteError,
    RemoteTable,
    SitInAs,
    chat_line,
    chat_too_long,
    fill_levels,
    fit_cells,
    free_seat_text,
    invite_link,
    missed_deal_text,
    rematch_asked_text,
    rematch_refusal,
    sheet_text,
    sit_in,
    undone_cards,
    waiting_text,
)
from mizerka.tui.review import REMOTE_REVIEW
from mizerka.tui.review_screen import call_from_worker, literal

__all__ = ["ChatDialog", "FillDialog", "RemoteApp", "SitDialog"]

HELP_ROWS: tuple[tuple[str, str], ...] = (
    ("← →", "move over your cards"),
    ("Enter", "play the card under the cursor"),
    ("rank suit", "type a card, e.g. a s = A♠, t h = 10♥"),
    ("?", "hint (from the server, at tables that give hints)"),
    ("l", "the last trick"),
    ("p", "the score sheet (points)"),
    ("!", "chat: say something to the table (at tables with chat)"),
    ("u", "undo: take back your last card and the computer players' actions after it (at a table where every "
          "other seat is a computer player's; not past your exchange or into an earlier deal)"),
    ("r", "review: in local games only (the web app reviews online tables)"),
    ("f", "while the table waits for players: start now, with computer players in the free seats (choose their "
          "level; casual rules bots first)"),
    ("n", "once the match is over: ask for a rematch (the same players at a new table; it starts when every "
          "seated player has asked, and the game moves there; n again says who is still to ask)"),
    ("i", "watching: sit down at a free seat (see below)"),
    ("x, Ctrl+Q", "quit (your seat stays yours; a bot plays it after the server's grace period)"),
    ("F1", "this help"),
)
"""The keys at a server's table, for :class:`~mizerka.tui.app.HelpDialog`."""

HELP_NOTES: tuple[str, ...] = (
    "Watching (--watch): the table and the chat as everyone sees them, never a hand; l, p, F1 and x work, and the "
    "game follows the players to their rematch.  Spectators cannot act or write in the chat.  i sits you down: at "
    "an open seat while the table waits for players, or in for a computer player during an unrated match (you "
    "play its seat from then on, under your --name, or your profile's with --player-key).",
    "The table's chat is shown in the log.  Chat dialog (!): type a line and press Enter to send it, or Tab (or ↓) "
    "to the ready phrases, then ↑ ↓ and Enter, or a phrase's number 1-7; Escape closes without sending.  A message "
    "the server refuses (too long, too fast, invisible characters) is shown: \"Not sent: ...\".",
    "Contract dialog: C D H S N M, or ← → and Enter.  Exchange dialog: ← →, Space marks a card, Enter confirms "
    "once (nothing marked: keep).",
    "The server checks every action: a refused one is explained, and you are asked again.",
)

HELP = help_text(HELP_ROWS, HELP_NOTES)
"""The help at a server's table as plain text."""


class ChatDialog(ModalScreen[dict[str, str] | None]):
    """Say something to the table: type a line (Enter sends it), or pick a ready-made phrase from the list below
    (Tab or ↓ moves there; ↑ ↓ and Enter, or the phrase's number 1-7, send it).  Escape closes without sending.

    The result is what to send, the body of a ``chat`` request: ``{"text": ...}`` or ``{"preset": code}``
    (a key of :data:`~mizerka.tui.remote.CHAT_PRESET_TEXTS`), or ``None`` when closed without sending.

    The dialog refuses only what need not reach the server: an empty line (a notice; nothing is sent) and a
    line over the limit (``Not sent: the message has 201 characters...``, through *refuse*, the app's notice and
    log line), and then stays open, the text kept to be shortened.  Everything else is the server's to judge.

    The digits pick a phrase only while the list has the focus: in the line they are text ("3 deals left").
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "close"),
        Binding("down", "presets", "ready phrases", show=False),  # the list's own ↓ moves in it once it has focus
    ]
    DEFAULT_CSS = """
    ChatDialog { align: center middle; }
    ChatDialog #presets { height: auto; max-height: 9; margin: 0 0 1 0; }
    ChatDialog #chat-text { margin: 1 0; }
    """

    def __init__(self, refuse: Callable[[str], None]) -> None:
        super().__init__()
        self.refuse = refuse
        self.codes = list(CHAT_PRESET_TEXTS)

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label("[b]Say to the table[/b]")
            yield Input(placeholder="your message (Enter sends it)", id="chat-text")
            yield Label("Or a ready phrase (Tab or ↓ to the list; then ↑ ↓ and Enter, or its number):")
            yield OptionList(*(Option(f"{n}  {CHAT_PRESET_TEXTS[code]}", id=code)
                               for n, code in enumerate(self.codes, 1)), id="presets")
            yield Label("Enter sends · Escape closes without sending", id="keys-note")

    def on_mount(self) -> None:
        self.query_one("#chat-text", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        if not text:
            self.notify("Type a message first, or pick a ready phrase (Escape closes).", severity="warning")
            return
        too_long = chat_too_long(text)
        if too_long is not None:  # a frame that large would get a refusal that cannot name our request
            self.refuse(f"Not sent: {too_long}")
            return
        self.dismiss({"text": text})

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id is not None:
            self.dismiss({"preset": event.option.id})

    def on_key(self, event: Any) -> None:
        """A phrase's number, while the list has the focus (the line keeps its digits: they never get here)."""
        key = str(event.character or "")
        # ASCII digits only: "²" (a key of its own on AZERTY keyboards) passes str.isdigit but not int()
        if self.focused is not self.query_one("#chat-text", Input) and len(key) == 1 and key.isascii() \
                and key.isdigit() and 1 <= int(key) <= len(self.codes):
            event.stop()
            event.prevent_default()
            self.dismiss({"preset": self.codes[int(key) - 1]})

    def action_presets(self) -> None:
        self.query_one("#presets", OptionList).focus()

    def action_cancel(self) -> None:
        self.dismiss(None)


class FillDialog(ModalScreen[str | None]):
    """Start the waiting table now: choose the level of the computer players who take the free seats (↑ ↓ and
    Enter, or a level's number).  The casual rules bot is highlighted first, so that ``f`` then Enter starts with
    it.  The result is the level's name, or ``None`` when closed with Escape (nothing is sent)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "close")]
    DEFAULT_CSS = """
    FillDialog { align: center middle; }
    FillDialog #levels { height: auto; max-height: 8; margin: 1 0; }
    """

    def __init__(self, free: int) -> None:
        super().__init__()
        self.free = free
        self.levels = fill_levels()

    def compose(self) -> ComposeResult:
        seats = "the free seat goes" if self.free == 1 else f"the {self.free} free seats go"
        with Vertical(id="dialog"):
            yield Label("[b]Start now with computer players[/b]")
            yield Label(f"Not waiting for anyone else? {seats[:1].upper() + seats[1:]} to computer players, and "
                        "the match begins at once.  Their level:")
            yield OptionList(*(Option(f"{n}  {level}" + ("  (casual; the default)" if level == FILL_DEFAULT else ""),
                                      id=level) for n, level in enumerate(self.levels, 1)), id="levels")
            yield Label("Enter starts · Escape closes without starting", id="keys-note")

    def on_mount(self) -> None:
        options = self.query_one("#levels", OptionList)
        options.highlighted = self.levels.index(FILL_DEFAULT) if FILL_DEFAULT in self.levels else 0
        options.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id is not None:
            self.dismiss(event.option.id)

    def on_key(self, event: Any) -> None:
        """A level's number chooses it."""
        key = str(event.character or "")
        if len(key) == 1 and key.isascii() and key.isdigit() and 1 <= int(key) <= len(self.levels):
            event.stop()
            event.prevent_default()
            self.dismiss(self.levels[int(key) - 1])

    def action_cancel(self) -> None:
        self.dismiss(None)


class SitDialog(ModalScreen[int | None]):
    """A spectator sits down: choose one of the free seats (↑ ↓ and Enter, or its number).  The result is the
    seat, or ``None`` when closed with Escape (nothing is sent)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "close")]
    DEFAULT_CSS = """
    SitDialog { align: center middle; }
    SitDialog #seats { height: auto; max-height: 8; margin: 1 0; }
    """

    def __init__(self, choices: list[tuple[int, str]]) -> None:
        super().__init__()
        self.choices = choices

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label("[b]Sit down[/b]")
            yield Label("Stop watching and play at this table from now on, at:")
            yield OptionList(*(Option(text, id=str(seat)) for seat, text in self.choices), id="seats")
            yield Label("Enter sits down · a seat's number · Escape closes, watching on", id="keys-note")

    def on_mount(self) -> None:
        self.query_one("#seats", OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id is not None:
            self.dismiss(int(event.option.id))

    def on_key(self, event: Any) -> None:
        """A seat's number chooses it."""
        key = str(event.character or "")
        if len(key) == 1 and key.isascii() and key.isdigit() and int(key) in (seat for seat, _ in self.choices):
            event.stop()
            event.prevent_default()
            self.dismiss(int(key))

    def action_cancel(self) -> None:
        self.dismiss(None)


class RemoteApp(TableApp):
    """The game screen over a connected :class:`RemoteTable`.

    After :meth:`run`, :attr:`failure` holds why the connection was lost for good (or ``None``), and
    :attr:`seated` the seat's connection where a spectator sat down (``i``, as *sit_as*; ``None``: it did not).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "card ←", show=False), Binding("right", "move(1)", "card →", show=False),
        Binding("enter", "play", "play"), Binding("question_mark", "hint", "hint"),
        Binding("l", "last_trick", "last trick"), Binding("p", "sheet", "points sheet"),
        # not a rank or suit key, and no dialog's key; priority: it works in the dialogs too (see check_action)
        Binding("exclamation_mark", "chat", "chat", priority=True),
        Binding("f1", "help", "help"), Binding("ctrl+q", "quit", "quit", priority=True),
        Binding("x", "quit", "quit", show=False),
        Binding("r", "review", "review", show=False),
        Binding("u", "undo", "undo", show=False),
        Binding("n", "rematch", "rematch", show=False),  # the status line offers it once the match is over
        Binding("f", "fill", "start with bots", show=False),  # the status line offers it while the table waits
        Binding("i", "sit_in", "sit down", show=False),  # a spectator's status line offers it where a seat is free
    ]

    def __init__(self, table: RemoteTable, *, sit_as: SitInAs | None = None) -> None:
        super().__init__()
        self.table = table
        self.sit_as = sit_as
        self.seated: RemoteTable | None = None
        self._sitting = False  # a sit-down sent to the server, not answered yet
        self.failure: str | None = None
        self._pending: int | None = None  # the id of our action the server has not answered yet
        self._hint: int | None = None
        self._undo: int | None = None  # the id of our undo the server has not answered yet
        self._rematch: int | None = None  # the id of our rematch request the server has not answered yet
        self._fill: tuple[int, str] | None = None  # our fill request the server has not answered yet, and its level
        # whether we asked for a rematch (until refused or moved), and the view the server's ack came with: a newer
        # one whose rematch_asked lacks our seat means the server forgot the wish (a restart): it is asked again
        self._rematch_wanted = False
        self._rematch_view: dict[str, Any] | None = None
        self._chats: set[int] = set()  # the ids of our chat messages the server has not answered yet
        self._under_chat = False  # whether a dialog was open under the chat dialog (see action_chat)
        self._stop = threading.Event()
        self._tricks = 0
        self._active: list[int] = []  # the seats that play the deal (its ``deal`` event's; four at the table: three)
        self._keep_announced = False  # the forced keep of an empty talon was logged with its reason: not again

    # -- layout and the reader thread --------------------------------------------------------------------

    def on_mount(self) -> None:
        view = self.table.view
        where = f"Mizerka at {self.table.invite.http}, table {view['table']} ({view['variant']}): "
        if self.table.spectator:
            self.log_line(Text(where + "you are watching, as a spectator (the table and the chat as everyone sees "
                               "them; no hand).  F1 for help."))
        else:
            self.log_line(Text(where + f"you are seat {self.table.seat}.  F1 for help."))
        if self.table.rated():
            self.log_line(f"[b]{RATED_NOTE}[/b]")
        self.update()
        self.table.on_reconnecting = self._tell_reconnecting
        threading.Thread(target=self._read, name="mizerka-remote", daemon=True).start()

    def _tell_reconnecting(self, text: str) -> None:
        """:attr:`RemoteTable.on_reconnecting`, called in the reading thread: handed to the app's thread."""
        if not self._stop.is_set():
            call_from_worker(self, self._reconnecting, text)

    def _reconnecting(self, text: str) -> None:
        """Say (once per drop, from the reading thread's reconnect) that the server is being reached again."""
        line = f"{text}  x or Ctrl-Q quits (your seat stays yours)."
        self.log_line(Text(line))
        self.notify(line, severity="warning", markup=False)

    def on_unmount(self) -> None:
        self._stop.set()

    def _read(self) -> None:
        reconnects = self.table.reconnects
        while not self._stop.is_set():
            try:
                message = self.table.poll(0.25)
            except Exception as error:  # RemoteError, or anything else: the game cannot hear the server any more
                if not self._stop.is_set():
                    reason = str(error) if isinstance(error, RemoteError) else (
                        f"reading the server failed ({type(error).__name__}: {error})")
                    call_from_worker(self, self._lost, reason)  # dropped if the app has stopped meanwhile
                return
            if self.table.reconnects != reconnects and not self._stop.is_set():
                reconnects = self.table.reconnects
                if not call_from_worker(self, self._reconnected):
                    return
            # handed to the app's thread in order, without waiting and without a coroutine made here (see
            # call_from_worker); False once the app has stopped
            if message is not None and not self._stop.is_set() and not call_from_worker(self, self._received, message):
                return
            if self.table.rematch_target() is not None and not self._stop.is_set():
                # every player asked for a rematch: go there here, where the connection is read (the old
                # table's last events stay to be shown first; see RemoteTable.follow_rematch)
                try:
                    self.table.follow_rematch()
                except Exception as error:
                    if not self._stop.is_set():
                        call_from_worker(self, self._lost, f"cannot go to the rematch's table: {error}")
                    return
                reconnects = self.table.reconnects
                if not call_from_worker(self, self._moved):
                    return

    def _reconnected(self) -> None:
        """The connection dropped and was made again: a reply still awaited will never come (it was lost with
        the old connection), so the question is asked again if the table still waits for us."""
        lost = self._pending is not None or self._hint is not None or self._undo is not None or self._fill is not None
        self._pending = self._hint = self._undo = self._rematch = None
        self._fill = None
        self._rematch_view = None  # the welcome's view says whether the server still knows our rematch wish
        self.log_line("The connection dropped and was made again" + (
            "; your last action may not have arrived: the table shows whether it did." if lost else "."))
        if self._chats:  # the welcome's chat history has it if it arrived (and it is written then, once)
            self._chats.clear()
            self.log_line("Your last chat message may not have arrived: if it did, it is in the chat above.")
        self.update()

    def _moved(self) -> None:
        """We are at the rematch's table now: what was awaited at the old one will not be answered."""
        self._pending = self._hint = self._undo = self._rematch = None
        self._rematch_wanted, self._rematch_view = False, None
        self._tricks = 0
        self.log_line(Text(f"You are at table {self.table.invite.table} now (its invite link: "
                           f"{invite_link(self.table.invite)}).", style="bold"))
        self.refresh_bindings()
        self.update()

    def _lost(self, reason: str) -> None:
        self.failure = reason
        self.exit()

    def farewell(self) -> str:
        """A line for the terminal after the app closes."""
        view = self.table.view
        totals = ", ".join(f"{n} {signed(t)}" for n, t in zip(self.table.names(), view["totals"], strict=True))
        if view["status"] == "finished":
            return f"The match is over; totals {totals}."
        if self.table.spectator:
            return (f"You stopped watching table {self.table.invite.table} in deal {view['deal_no']} of "
                    f"{view['n_deals']}; totals {totals}.")
        return (f"You left the table in deal {view['deal_no']} of {view['n_deals']}; totals {totals}.  Your seat "
                "stays yours; a bot plays it after the server's grace period.")

    # -- messages from the server ------------------------------------------------------------------------

    def _received(self, message: dict[str, Any]) -> None:
        kind, ident = message.get("type"), message.get("id")
        if ident is not None and ident in self._chats and kind in ("chat", "error"):
            # our own message comes back as a chat message, written below with everyone's (drain_chat): once
            self._chats.discard(ident)
            if kind == "error":
                self.refuse(f"Not sent: {message.get('message', 'the server refused the message')}")
        elif kind == "error" and ident is not None and ident == self._undo:
            self._undo = None
            self.refuse(f"Cannot undo: {str(message.get('message', 'refused')).rstrip('.')}.")
        elif kind == "snapshot" and ident is not None and ident == self._undo:
            self._undo = None  # what it took back is written below (update: drain_undone), like another's undo
        elif kind in ("ack", "error") and ident is not None and self._fill is not None and ident == self._fill[0]:
            level, self._fill = self._fill[1], None
            if kind == "error":
                self.refuse(f"Not started: {message.get('message') or message.get('code')}")
            else:  # the seats and the start came before the ack, and are logged below
                self.log_line(Text(f"The free seats go to computer players ({level}): the match begins.",
                                   style="bold"))
        elif kind == "error" and ident is not None and ident == self._rematch:
            self._rematch = None
            self._rematch_wanted = False
            self.refuse(rematch_refusal(message))
        elif kind == "ack" and ident is not None and ident == self._rematch:
            self._rematch = None
            self._rematch_view = self.table.view
            if message.get("table") is None and self.table.rematch_target() is None:
                waiting = [int(s) for s in message.get("waiting") or []]
                self.log_line(Text(waiting_text(waiting, self.table.names()) + "  (n again: who is still to ask.)",
                                   style="bold"))
        elif kind == "error" and ident is not None and ident in (self._pending, self._hint):
            self.notify(f"Not accepted: {message.get('message')}", severity="error", markup=False)
            self.log_line(Text(f"Not accepted: {message.get('message')}", style="yellow"))
            if ident == self._pending:
                self._pending = None
        elif kind == "ack" and ident == self._pending:
            self._pending = None
        elif kind == "hint" and ident == self._hint:
            self._hint = None
            self.log_line(literal(hint_text(f"{message.get('bot')} bot, from the server", str(message.get("action")),
                                            message.get("evaluations") or {})))
            with contextlib.suppress(ValueError, AttributeError, IndexError):
                self.point_at(Card.from_str(str(message.get("action")).split()[-1]))
        self.update()

    def update(self) -> None:
        """Log the new events, redraw, and ask for our action if it is our turn."""
        for undone in self.table.drain_undone():
            self._log_undone(undone)
        for event in self.table.drain():
            self._log_event(event)
        for row in self.table.drain_missed():  # deals that ended while we were away: logged, and a notice
            missed = missed_deal_text(row, self.name_of)
            self.log_line(Text(missed, style="bold"))
            self.notify(missed, timeout=15, markup=False)
        for said in self.table.drain_chat():  # what people typed is text, never markup
            self.log_line(Text(chat_line(said, self.table.seat), style="cyan"))
        asked = self.table.drain_rematch_asked()  # the others' wish, as each asks (the status line says it too)
        if asked:
            self.log_line(Text(rematch_asked_text(asked, self.table.names())
                               + ("" if self.table.spectator or self._rematch_wanted else "  Press n to ask too."),
                               style="bold"))
        if not self.table.view:
            return
        self._rematch_again()
        self.refresh_view()
        self.maybe_ask()

    def _rematch_again(self) -> None:
        """Ask for the rematch again when the server has forgotten that we asked (its wish lives in the server's
        memory only: a restart loses it, and the welcome of the reconnect shows it;
        :meth:`~mizerka.tui.remote.RemoteTable.rematch_lost`), and say so."""
        if not self._rematch_wanted or self._rematch is not None or not self.table.rematch_lost(self._rematch_view):
            return
        self.log_line(Text("The server no longer knows that you asked for a rematch (it restarted, or the connection "
                           "was made again): asking again.", style="yellow"))
        self._ask_rematch()

    def maybe_ask(self) -> None:
        table = self.table
        if self._dialog_open or self._pending is not None or not table.my_turn():
            return
        obs = table.observation()
        if obs.phase is Phase.CHOOSE:
            if len(obs.legal_actions) == 1:
                only = str(obs.legal_actions[0]).split()[-1]
                with contextlib.suppress(ValueError):  # named as the local game names it: "... is Mizerka: ..."
                    only = Contract.from_str(only).label
                self.log_line(literal(f"Your only contract left is {only}: chosen for you."))
                self.send(str(obs.legal_actions[0]).split()[-1])
                return
            self._dialog_open = True
            self.push_screen(ContractDialog(obs), self._chosen)
        elif obs.phase is Phase.EXCHANGE:
            if (table.view.get("exchange") or {}).get("max") == 0:
                self.log_line("The talon is empty: you keep your hand.")
                self._keep_announced = True  # the server's event of the keep is not logged again
                self.send("keep")
                return
            self._dialog_open = True
            self.push_screen(ExchangeDialog(obs), self._exchanged)

    def send(self, text: str) -> None:
        try:
            self._pending = self.table.send_nowait({"type": "act", "action": text, "seq": self.table.seq})
        except RemoteError as error:
            self.notify(str(error), severity="error", markup=False)

    def say(self, said: dict[str, str]) -> None:
        """Send a chat message (``{"text": ...}`` or ``{"preset": code}``) without waiting: the answer comes
        through the reader thread (:meth:`_received`)."""
        try:
            self._chats.add(self.table.send_nowait({"type": "chat", **said}))
        except RemoteError as error:
            self.refuse(f"Not sent: {error}")

    def _said(self, said: dict[str, str] | None) -> None:
        self._dialog_open = self._under_chat  # the contract or exchange dialog underneath, if one was open
        if said is not None:
            self.say(said)
        self.update()  # a question that waited for the dialog is asked now

    def _chosen(self, contract: Contract | None) -> None:
        self._dialog_open = False
        if contract is not None:
            self.send(str(contract))
        self.update()

    def _exchanged(self, discards: CardSet | None) -> None:
        self._dialog_open = False
        if discards is not None:
            self.send("exchange " + " ".join(str(CARDS[c]) for c in discards.cards()) if discards else "keep")
        self.update()

    # -- drawing -----------------------------------------------------------------------------------------

    def name_of(self, seat: int) -> str:
        names = self.table.names()
        return "You" if seat == self.table.seat else (names[seat] if seat < len(names) else f"seat {seat}")

    def observation_now(self) -> Observation:
        return self.table.observation()

    def playable(self) -> list[Card]:
        obs = self.table.observation()
        legal = {int(a.card) for a in obs.legal_actions if isinstance(a, Play)} if self.table.my_turn() else set()
        trump = obs.contract.trump if obs.contract is not None else None
        return [c for c in sorted_hand(obs.hand, None if trump is None else int(trump)) if c in legal]

    def refresh_view(self) -> None:
        """Draw the panels from the view: its names and words (a contract's label, a role) are the server's, and
        go in as text (:func:`~mizerka.tui.review_screen.literal`)."""
        view, table = self.table.view, self.table
        obs = table.observation()
        lines = [f"[b]Deal {view['deal_no']} of {view['n_deals']}[/b]"]
        if view["status"] == "waiting":
            free = [str(p["seat"]) for p in view["players"] if p["open"]]
            lines.append(f"Waiting for players (free seats: {', '.join(free)}): share the invite link"
                         + (", or press i to sit down." if table.spectator and self.sit_as is not None else
                            "." if table.spectator else ", or press f to start now with computer players."))
        else:
            roles = " · ".join(f"{literal(str(view['roles'][str(s)]))} {self.who(s)}" for s in obs.active_seats)
            lines[0] += f"   dealer {self.who(obs.dealer)}   {roles}"
            contract = view["contract"]
            if contract is None:
                lines.append(f"{self.who(obs.active_seats[0])} (forehand) is choosing the contract.")
            else:
                avoid = contract["goal"] == "avoid"
                goal = "[b red]avoid[/b red] tricks" if avoid else "[b green]take[/b green] tricks"
                lines.append(f"Contract: [b]{literal(str(contract['symbol']))} {literal(str(contract['label']))}[/b], "
                             f"{goal}")
            if obs.shown_card is not None:
                lines.append(f"Turned up: {card_markup(obs.shown_card)} (a reminder only)")
            if view["phase"] == "exchange":
                counts = [f"{self.who(s)} {n}" for s, n in enumerate(view["exchange_counts"]) if n is not None]
                lines.append(f"Exchange: talon {counted(int(view['talon_size']), 'card')}"
                             + (f"; exchanged {', '.join(counts)}" if counts else ""))
            elif view["phase"] == "play":
                lines.append(f"Trick {view['tricks_played'] + 1} of {obs.rules.n_tricks}")
        if view["status"] == "playing" and table.spectator and self.sit_as is not None:
            takeover = [seat for seat, over in table.free_seats() if over]
            if takeover:
                lines.append(f"Press i to sit in for a computer player ({', '.join(self.who(s) for s in takeover)}).")
        if view["status"] == "finished":
            lines.append("[b]The match is over.[/b] " + (
                "Press p for the sheet, x to quit (you follow the players if they ask for a rematch)."
                if table.spectator else "Press n for a rematch, p for the sheet, x to quit."))
            asked = table.others_asking()  # who waits for the others
            if asked:
                lines.append(literal(rematch_asked_text(asked, table.names())))
        self.show("#status", "\n".join(lines))
        score_lines = ["[b]seat        tricks/quota  total[/b]"]
        players = view["players"]
        seats = list(obs.active_seats) if view["roles"] else []
        seats += [s for s in range(len(view["players"])) if s not in seats]
        for seat in seats:
            quota = view["quotas"].get(str(seat))
            q = f"{view['tricks_won'][seat]:>2} / {quota}" if quota is not None else "  -"
            if view["roles"] and seat not in obs.active_seats:
                q = "sits out"  # four at the table: the dealer sits out, and keeps a total
            # a profile's seat: the name is proven (the web client's mark, and marked_name's)
            mark = " ✓" if seat < len(players) and players[seat].get("registered") and not players[seat].get("open") \
                else ""
            # by terminal cells (a CJK name is twice as wide as its characters), a long name cut: columns in line
            name = self.name_of(seat)
            if cell_len(name + mark) > 11:
                name = fit_cells(name, 11 - cell_len(mark))
            name = fit_cells(name + mark, 11)
            score_lines.append(f"{literal(name)} {q:<12}  {signed(view['totals'][seat])}")
        # a seat taken over during the match: its player plays on with the seat's total, which says so
        score_lines += [f"[dim]{literal(self.name_of(s))} plays from deal {players[s]['since_deal']}[/dim]"
                        for s in seats if s < len(players) and players[s].get("since_deal")]
        self.show("#scores", "\n".join(score_lines))
        trick, last = view["trick"], view.get("last_trick")
        if trick:
            rows = [f"{self.who(s)}  {card_markup(Card.from_str(c))}{' (led)' if i == 0 else ''}"
                    for i, (s, c) in enumerate(zip(trick["seats"], trick["cards"], strict=True))]
        elif last and view["phase"] in ("play", "done", "over"):
            # the trick just taken stays on the table, dimmed, until the next card is led (as in the local game)
            rows = [f"{self.who(s)}  {card_markup(Card.from_str(c), dim=True)}{' (led)' if i == 0 else ''}"
                    + (f"  [b]← took trick {view['tricks_played']}[/b]" if s == last["winner"] else "")
                    for i, (s, c) in enumerate(zip(last["seats"], last["cards"], strict=True))]
        elif view["phase"] == "play":
            rows = [f"{self.who(obs.trick_leader)} to lead."]
        else:
            rows = ["(no trick yet)"]
        self.show("#table", "\n".join(rows))
        if table.spectator:  # the server sends a spectator no hand, and none is drawn
            self.show("#hand", "Watching: the players' hands are hidden from spectators.")
            return
        legal = self.playable()
        if legal:
            self.cursor = max(0, min(self.cursor, len(legal) - 1))
        selected = legal[self.cursor] if legal else None
        trump = obs.contract.trump if obs.contract is not None else None
        cards = sorted_hand(obs.hand, None if trump is None else int(trump))
        shown = " ".join(card_markup(c, dim=bool(legal) and c not in legal, cursor=c == selected) for c in cards)
        prompt = "  ← your turn: ← → and Enter" if legal and self._pending is None else ""
        self.show("#hand", f"Your hand: {shown or '-'}{prompt}")

    def _log_undone(self, undone: dict[str, Any]) -> None:
        """What an undo took back (ours, or our seat's other connection's): logged, the cursor on our card."""
        self.typed = ""
        if undone.get("away"):
            self.log_line("Cards were taken back at this table while the connection was away; it is shown as it is "
                          "now.")
            return
        cards = undone_cards(undone)
        self._tricks = int(undone.get("tricks_shown", self._tricks))
        shown = ", ".join(f"{self.who(seat)} {card_markup(card)}" for seat, card in cards)
        self.log_line(f"Taken back: {shown}." + ("  Your turn again." if self.table.my_turn() else ""))
        counted = f"{len(cards)} card{'s' if len(cards) != 1 else ''}"
        # a spectator chooses nothing again: the player who took them back does
        self.notify(f"Taken back: {counted}" + ("" if self.table.spectator else "; choose again"), timeout=3)
        own = [card for seat, card in cards if seat == self.table.seat]
        if own:
            self.refresh_view()
            self.point_at(own[0])  # the cursor on the card you took back

    def _log_event(self, event: dict[str, Any]) -> None:
        kind = event.get("kind")
        if kind == "deal":
            self._tricks = 0
            self._active = [int(s) for s in event.get("active_seats") or []]
            self.log_line(f"[b]── Deal {event['deal_no']} of {self.table.view.get('n_deals', '?')} ──[/b]")
        elif kind == "start":
            self.log_line(Text("The match begins: " + ", ".join(map(str, event["players"])) + "."))
        elif kind == "action":
            who, action_kind = self.who(int(event["actor"])), event.get("action_kind")
            if action_kind == "choose":
                contract = Contract.from_str(event["contract"])
                self.log_line(f"{who} chose [b]{contract.symbol} {contract.label}[/b] ({contract.goal}).")
            elif action_kind == "exchange":
                if "discards" in event:
                    if event["count"]:
                        gone = " ".join(card_markup(Card.from_str(c)) for c in event["discards"])
                        drawn = " ".join(card_markup(Card.from_str(c)) for c in event["drawn"])
                        self.log_line(f"You discarded {gone} and drew {drawn}.")
                    elif not self._keep_announced:
                        self.log_line("You kept your hand.")
                    self._keep_announced = False
                else:
                    n = int(event["count"])
                    self.log_line(f"{who} exchanged {n} card{'s' if n != 1 else ''}." if n else f"{who} kept.")
            elif event.get("trick"):
                self._tricks += 1
                trick = event["trick"]
                cards = ", ".join(f"{self.who(s)} {card_markup(Card.from_str(c))}"
                                  for s, c in zip(trick["seats"], trick["cards"], strict=True))
                self.log_line(f"Trick {self._tricks}: {cards} → [b]{self.who(trick['winner'])}[/b].")
        elif kind == "deal_end":
            # as the local game says it: the contract in words, each player of the deal's tricks against his quota
            # (a score is tricks − quota, or quota − tricks in Mizerka: the quota is read back from the two)
            contract = Contract.from_str(event["contract"])
            avoid = contract.goal == "avoid"
            seats = self._active or [int(s) for s in self.table.view.get("roles") or {}] or range(len(event["tricks"]))
            tricks, scores = event["tricks"], event["scores"]
            quotas = {s: tricks[s] + (scores[s] if avoid else -scores[s]) for s in seats}
            parts = [f"{self.who(s)} {tricks[s]}/{quotas[s]} → {signed(scores[s])}" for s in seats]
            self.log_line(f"[b]Deal {event['deal_no']} over[/b] ({contract.label}, {contract.goal}): "
                          + "; ".join(parts))
        elif kind == "match_end":
            winners = " and ".join(self.who(s) for s in event["winners"])
            self.log_line(f"[b]The match is over. Winner: {winners}.[/b]")
        elif kind == "seat" and event.get("left"):  # given up after the match: nobody plays it
            who = event.get("name") or f"seat {event.get('seat')}"
            self.log_line(Text(f"{who} has left the table."))
        elif kind == "seat" and event.get("standin"):
            who = event.get("name") or f"seat {event.get('seat')}"
            self.log_line(Text(f"A bot plays for {who} while they are away."))
        elif kind == "closed":
            self.log_line(Text(f"The server closed the table: {event.get('reason')}", style="red"))
        elif kind == "rematch":
            self.log_line(Text(f"Every player asked for a rematch: a new match with the same players, at table "
                               f"{event.get('table')}.", style="bold"))

    # -- keys --------------------------------------------------------------------------------------------

    SPECTATOR_PLAYS = "Spectators cannot act: only the seated players play cards (F1 for the keys)."
    """What a spectator's card keys (Enter, a typed card) are answered with: nothing is sent."""

    def action_play(self) -> None:
        """Enter: play the card under the cursor; a spectator is told in words that only the players play."""
        if self.table.spectator:
            self.refuse(self.SPECTATOR_PLAYS)
            return
        super().action_play()

    def on_key(self, event: Any) -> None:
        """A spectator typing a card (a rank key) is told once, in words, that only the players play cards: not
        the player's "Not accepted: ... is not in your hand".  The suit key after it does nothing (no binding has
        a suit's letter).  A player's keys go on to :meth:`TableApp.on_key` (Textual calls each class's own
        handler unless ``prevent_default``)."""
        if not self.table.spectator or self._dialog_open:
            return
        key = str(event.character or "").lower()
        self.typed = ""
        if len(key) == 1 and (key in "23456789tjqka01" or key in "cdhs"):
            if key not in "cdhs":
                self.refuse(self.SPECTATOR_PLAYS)
            event.stop()
            event.prevent_default()

    def play_card(self, card: Card) -> None:
        if self._pending is not None:
            self.notify("wait: the server has not answered your last action yet", severity="warning")
            return
        self.send(str(CARDS[card]))
        self.refresh_view()

    def action_hint(self) -> None:
        if self.table.spectator:
            self.refuse("Spectators get no hints: a hint is for a player's turn.")
            return
        if not self.table.hints_on():
            self.notify("this table gives no hints" + (" (it is rated)" if self.table.rated() else ""),
                        severity="warning")
            return
        if not self.table.my_turn():
            self.notify("a hint is for your turn", severity="warning")
            return
        try:
            self._hint = self.table.send_nowait({"type": "hint"})
        except RemoteError as error:
            self.notify(str(error), severity="error", markup=False)

    def action_undo(self) -> None:
        """``u``: ask the server to take back our last card of the deal and everything after it; pressed again,
        the card before it.  The server's refusal (a table with another human, a rated table, nothing of ours
        to take back) is shown with its reason; the snapshot that answers is logged (:meth:`_log_undone`)."""
        if self.table.spectator:
            self.refuse("Cannot undo: a spectator takes back nothing (only a player, at a table of computer "
                        "players).")
            return
        if self.table.rated():
            self.refuse("Cannot undo: nobody takes back cards at a rated table.")
            return
        if self._undo is not None:
            self.notify("wait: the server has not answered your last undo yet", severity="warning")
            return
        try:
            self._undo = self.table.send_nowait({"type": "undo"})
        except RemoteError as error:
            self.notify(str(error), severity="error", markup=False)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``!`` is a priority binding, so that it opens the chat over the contract, exchange and info dialogs
        too.  In the chat dialog it must not open a second one: in the line Textual leaves it to the
        :class:`~textual.widgets.Input` (a widget that takes printable keys hides priority bindings of them), and
        with the phrase list focused ``False`` here lets the key through to the dialog, which ignores it."""
        if action == "chat" and isinstance(self.screen, ChatDialog):
            return False
        return super().check_action(action, parameters)

    def action_chat(self) -> None:
        """``!``: open :class:`ChatDialog` (at a table with chat), over whatever is on the screen.

        While it is open, keys are the message's, never cards, and a question for us waits: the contract or
        exchange dialog opens when the chat closes (or, if it was open already, is there again underneath)."""
        self.typed = ""  # a rank typed before is forgotten: "!" is not its suit
        if not self.table.chat_on():
            self.notify("This table has no chat (its host turned it off).", severity="warning")
            return
        if self.table.spectator:  # the server would answer no_seat: nothing is sent
            self.refuse(SPECTATOR_CHAT)
            return
        self._under_chat = self._dialog_open
        self._dialog_open = True
        self.push_screen(ChatDialog(self.refuse), self._said)

    def action_rematch(self) -> None:
        """``n``: ask for a rematch (once the match is over; before, the server's refusal says so).  The answer
        says who is still to ask; when every seated player has asked, the ``rematch`` event names the new table
        and the reader thread takes us there (:meth:`RemoteTable.follow_rematch`), with the same seat."""
        self.typed = ""
        if self.table.spectator:
            self.refuse("Only the seated players can ask for a rematch; a spectator follows them to the new table.")
            return
        if self._rematch is not None:
            self.notify("wait: the server has not answered your last request yet", severity="warning")
            return
        self._ask_rematch()

    def action_fill(self) -> None:
        """``f``: while the table waits for players, choose the level of the computer players to seat in the free
        seats (:class:`FillDialog`) and start the match now; a spectator is told in words that only a seated
        player can (nothing is sent)."""
        self.typed = ""
        if self.table.spectator:
            self.refuse(FILL_SPECTATOR)
            return
        view = self.table.view
        if view.get("status") != "waiting":
            self.refuse("The match has begun: f is for a table that still waits for players.")
            return
        if self._fill is not None:
            self.notify("wait: the server has not answered your last request yet", severity="warning")
            return
        if self._dialog_open:
            return
        self._dialog_open = True
        self.push_screen(FillDialog(sum(1 for p in view["players"] if p.get("open"))), self._filled)

    def _filled(self, level: str | None) -> None:
        self._dialog_open = False
        if level is not None and self.table.view.get("status") != "waiting":  # the match began while it was open
            self.refuse("The match has begun: f is for a table that still waits for players.")
        elif level is not None:
            try:
                self._fill = (self.table.send_nowait({"type": "fill", "level": level}), level)
            except RemoteError as error:
                self.notify(str(error), severity="error", markup=False)
        self.update()

    def action_sit_in(self) -> None:
        """``i``: a spectator sits down at a free seat (:class:`SitDialog`, or at once where only one is free);
        the join goes to the server in a thread (:func:`sit_in`), and the app closes seated, or says why not."""
        self.typed = ""
        if not self.table.spectator:
            self.refuse("You hold a seat at this table already.")
            return
        if self.sit_as is None:
            self.refuse("Sitting down is not offered here: join with mizerka play --connect LINK.")
            return
        if self._sitting or self._dialog_open:
            return
        free = self.table.free_seats()
        if not free:
            self.refuse(SIT_NONE)
            return
        self._dialog_open = True
        self.push_screen(SitDialog([(seat, free_seat_text(self.table, seat, takeover)) for seat, takeover in free]),
                         self._sit_chosen)

    def _sit_chosen(self, seat: int | None) -> None:
        self._dialog_open = False
        if seat is None or self.sit_as is None:
            return
        self._sitting = True
        self.notify(f"Sitting down at seat {seat}…", timeout=2)
        who, watched = self.sit_as, self.table

        def join() -> None:
            try:
                seated = sit_in(watched, seat, who)
            except RemoteError as error:
                call_from_worker(self, self._not_seated, str(error))
            except Exception as error:  # the app must hear of it: a thread's exception is lost otherwise
                call_from_worker(self, self._not_seated, f"{type(error).__name__}: {error}")
            else:
                if not call_from_worker(self, self._sat_down, seated):
                    seated.close()  # the app closed meanwhile: the seat stays in the book, for the link

        threading.Thread(target=join, name="mizerka-sit-in", daemon=True).start()

    def _not_seated(self, reason: str) -> None:
        self._sitting = False
        self.refuse(f"Not seated: {reason}")

    def _sat_down(self, seated: RemoteTable) -> None:
        self.seated = seated
        self.exit()

    def _ask_rematch(self) -> None:
        """Send ``rematch`` without waiting; the answer comes through the reader thread (:meth:`_received`)."""
        try:
            self._rematch = self.table.send_nowait({"type": "rematch"})
        except RemoteError as error:
            self.notify(str(error), severity="error", markup=False)
            return
        self._rematch_wanted = True

    def action_last_trick(self) -> None:
        last = self.table.view.get("last_trick")
        if not last:
            self.notify("no trick has been completed in this deal yet")
            return
        cards = ", ".join(f"{self.name_of(s)} {Card.from_str(c).unicode()}"
                          for s, c in zip(last["seats"], last["cards"], strict=True))
        self.push_screen(InfoDialog(f"Trick {self.table.view['tricks_played']}",
                                    f"{cards}\nwon by {self.name_of(last['winner'])}"))

    def action_sheet(self) -> None:
        """``p``: the score sheet: the grid of the contracts each player has chosen, with the totals, then the
        deals (:func:`~mizerka.tui.remote.sheet_text`)."""
        self.push_screen(InfoDialog("Score sheet", sheet_text(self.table.view, self.table.names())))

    def action_review(self) -> None:
        """No review here: it needs the hidden cards of the deal, which are the server's to reveal."""
        self.notify(REMOTE_REVIEW[:1].upper() + REMOTE_REVIEW[1:] + ".", severity="information")

    def action_help(self) -> None:
        self.push_screen(HelpDialog(HELP_ROWS, HELP_NOTES))
