"""``mizerka play``: the full-screen game (Textual), and ``--plain`` for the line game.

The screen shows, from the human's observation only: the deal and the seats' roles, the contract with "take" or
"avoid", each seat's tricks against its quota, the trick on the table, your hand (legal cards bright, the
cursor on one of them), a log of what happened, and on demand the last trick and the score sheet.  The contract
and the exchange are dialogs; the exchange is one blind action: you mark the cards to discard and confirm once,
then you see what you drew.

Keys (everything works from the keyboard): ← → move over your cards, Enter plays the card under the cursor
(or type its rank then suit, e.g. ``a`` ``s`` for A♠), ``?`` a hint, ``u`` undo (take back your last card and
what the computer players did after it), ``l`` the last trick, ``p``
the score sheet (points), ``r`` the review of the last finished deal (every card judged by the solver; from the
score sheet, any finished deal), ``n`` a new match once the match is over, ``x`` or Ctrl+Q quit, F1 help.
"""

from __future__ import annotations

import random
import threading
import warnings
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.timer import Timer
from textual.widgets import Footer, Label, RichLog, Static

from mizerka.cards import CARDS, Card, CardSet, Suit
from mizerka.deal import Action, Choose, Exchange, Observation, Phase, Play
from mizerka.match import Match
from mizerka.rules import Contract, Role
from mizerka.scoresheet import totals_text
from mizerka.terminal import RecordFile, counted, hint_text, refusal_text, signed
from mizerka.tui.model import TableModel, UndoError
from mizerka.tui.review import check_reviewable, deal_range
from mizerka.tui.review_screen import Reviews, ReviewScreen, call_from_worker, literal, rich_markup

if TYPE_CHECKING:
    from mizerka.tui.resume import Resumed

__all__ = ["ContractDialog", "ExchangeDialog", "HelpDialog", "InfoDialog", "MizerkaApp", "SheetDialog", "TableApp",
           "card_markup", "help_text", "sits_out", "sorted_hand"]

_SUIT_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)
_CONTRACT_KEYS = {"c": Contract.CLUBS, "d": Contract.DIAMONDS, "h": Contract.HEARTS, "s": Contract.SPADES,
                  "n": Contract.NO_TRUMP, "m": Contract.MIZERKA}


def card_markup(card: int, *, dim: bool = False, cursor: bool = False, marked: bool = False) -> str:
    """A card as Rich markup: red suits red, illegal cards dim, the cursor reversed, marked cards underlined."""
    c = CARDS[card]
    styles = ["red"] if c.suit.is_red else []
    if dim:
        styles.append("dim")
    if cursor:
        styles.append("reverse")
    if marked:
        styles.append("underline")
    text = c.unicode()
    return f"[{' '.join(styles)}]{text}[/]" if styles else text


def sorted_hand(hand: CardSet, trump: int | None) -> list[Card]:
    """The hand in display order: trumps first, then ♠ ♥ ♣ ♦, high to low."""
    order = list(_SUIT_ORDER)
    if trump is not None:
        order.remove(Suit(trump))
        order.insert(0, Suit(trump))
    out: list[Card] = []
    for suit in order:
        out.extend(sorted(hand.of_suit(suit).cards(), reverse=True))
    return out


def dialog_keys(obs: Observation) -> str:
    """The game's keys that still work over the contract and the exchange dialogs, which the game's footer (hidden
    under a dialog) no longer lists: the score sheet, the help page, from deal 2 on the review, and quitting."""
    review = ", r review the last deal" if obs.deal_no > 1 else ""
    return f"Also: p points sheet{review}, F1 help, x quit."


class ContractDialog(ModalScreen[Contract]):
    """Forehand's choice: one key per contract still allowed (C D H S N M), or ← → and Enter."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "previous"), Binding("right", "move(1)", "next"),
        Binding("enter", "choose", "choose"), Binding("r", "app.review", "review last deal"),
        Binding("u", "app.undo", "undo", show=False),  # refused, with the reason: nothing to take back yet
        # the score sheet (whose contracts are left) and the keys, over the dialog, which is back when they close
        Binding("p", "app.sheet", "points sheet"), Binding("f1", "app.help", "help"),
        Binding("x", "app.quit", "quit"),  # as on the game screen ("x quits"): not only Ctrl+Q
    ]

    def __init__(self, obs: Observation) -> None:
        super().__init__()
        self.obs = obs
        self.allowed = list(obs.allowed_contracts)
        self.cursor = 0

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label("[b]You are forehand: choose the contract[/b]")
            yield Label("Your first cards: " + " ".join(card_markup(c) for c in sorted_hand(self.obs.hand, None)))
            yield Static(self._options(), id="options")
            yield Label("Keys: C D H S (trumps), N (no-trump), M (Mizerka: avoid tricks); or ← → and Enter.")
            yield Label(dialog_keys(self.obs), id="also")

    def _options(self) -> str:
        parts = []
        for i, contract in enumerate(self.allowed):
            text = f" {contract.symbol} {contract.label} ({contract.goal}) "
            parts.append(f"[reverse]{text}[/]" if i == self.cursor else text)
        return "  ".join(parts)

    def action_move(self, step: int) -> None:
        self.cursor = (self.cursor + step) % len(self.allowed)
        self.query_one("#options", Static).update(self._options())

    def action_choose(self) -> None:
        self.dismiss(self.allowed[self.cursor])

    def on_key(self, event: Any) -> None:
        contract = _CONTRACT_KEYS.get(str(event.key).lower())
        if contract is None:
            return
        event.stop()
        if contract in self.allowed:
            self.dismiss(contract)
        elif contract not in self.obs.rules.contracts:  # C D H S N M are every contract; a variant may have fewer
            played = ", ".join(c.label for c in self.obs.rules.contracts)
            self.notify(f"{contract.label} is not played in this variant (its contracts: {played})",
                        severity="warning")
        else:
            self.notify(f"{contract.label} is not yours to choose any more", severity="warning")


class ExchangeDialog(ModalScreen[CardSet]):
    """The one blind exchange: mark cards with Space, confirm with Enter (no marks = keep your hand)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "previous"), Binding("right", "move(1)", "next"),
        Binding("space", "mark", "mark/unmark"), Binding("enter", "confirm", "exchange once"),
        Binding("r", "app.review", "review last deal"),
        Binding("u", "app.undo", "undo", show=False),  # refused, with the reason: no card of yours yet
        Binding("p", "app.sheet", "points sheet"), Binding("f1", "app.help", "help"),
        Binding("x", "app.quit", "quit"),
    ]

    def __init__(self, obs: Observation) -> None:
        super().__init__()
        self.obs = obs
        trump = obs.contract.trump if obs.contract is not None else None
        self.cards = sorted_hand(obs.hand, None if trump is None else int(trump))
        self.limit = min(obs.talon_size, len(self.cards))
        self.cursor = 0
        self.marked: set[int] = set()

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label("[b]Your one blind exchange[/b]")
            yield Label(f"The talon holds {counted(self.obs.talon_size, 'card')}: discard up to {self.limit}, "
                        "then draw as many from the top.  You cannot exchange again.")
            yield Static(self._cards(), id="cards")
            yield Label("Keys: ← → move, Space marks a card to discard, Enter confirms (nothing marked: keep).")
            yield Label(dialog_keys(self.obs), id="also")

    def _cards(self) -> str:
        line = " ".join(card_markup(c, cursor=i == self.cursor, marked=c in self.marked)
                        for i, c in enumerate(self.cards))
        return f"{line}\nto discard ({len(self.marked)}): " + (
            " ".join(card_markup(c) for c in self.cards if c in self.marked) or "none")

    def action_move(self, step: int) -> None:
        self.cursor = (self.cursor + step) % len(self.cards)
        self.query_one("#cards", Static).update(self._cards())

    def action_mark(self) -> None:
        card = int(self.cards[self.cursor])
        if card in self.marked:
            self.marked.discard(card)
        elif len(self.marked) >= self.limit:
            self.notify(f"at most {counted(self.limit, 'card')}: the talon holds no more", severity="warning")
        else:
            self.marked.add(card)
        self.query_one("#cards", Static).update(self._cards())

    def action_confirm(self) -> None:
        self.dismiss(CardSet(self.marked))


class InfoDialog(ModalScreen[None]):
    """A page of text (help, the score sheet, the last trick): the arrows, Page Up/Down, Home and End scroll a
    page larger than the screen (it is never wrapped); any other key closes it."""

    SCROLL_KEYS: ClassVar[frozenset[str]] = frozenset(
        {"up", "down", "left", "right", "pageup", "pagedown", "home", "end"})
    KEYS_NOTE = "(arrows, PgUp, PgDn scroll; any other key closes)"

    def __init__(self, title: str, text: str) -> None:
        super().__init__()
        self.title_text = title
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(f"[b]{self.title_text}[/b]")
            with VerticalScroll(id="page"):
                yield Static(self.text, markup=False, id="text")
            yield Label(self.KEYS_NOTE, id="keys-note")

    def on_mount(self) -> None:
        self.query_one("#page", VerticalScroll).focus()

    def on_key(self, event: Any) -> None:
        if event.key in self.SCROLL_KEYS:
            return  # the page's own bindings scroll it
        event.stop()
        self.dismiss(None)


class SheetDialog(InfoDialog):
    """The score sheet of a local game, from which a finished deal is reviewed: ``r`` reviews the last one, a
    deal number then ``r`` that deal (Backspace takes a digit back; a digit past :attr:`DIGITS` is refused with
    the reason, and the sheet stays open); the other keys as :class:`InfoDialog`.

    Args:
        text: the sheet.
        finished: the finished deals' numbers.
        refusal: why a deal number cannot be reviewed (a sentence), or ``None``.
        review: opens the review of a deal (called once the sheet is closed).
    """

    DIGITS = 3
    """The longest deal number typed: a further digit is refused (with the reason) and the sheet stays open."""

    def __init__(self, text: str, finished: list[int], refusal: Callable[[int], str | None],
                 review: Callable[[int], None]) -> None:
        super().__init__("Score sheet", text)
        self.finished = finished
        self.refusal = refusal
        self.review = review
        self.number = ""
        if finished:
            self.KEYS_NOTE = (f"(arrows, PgUp, PgDn scroll; r reviews deal {finished[-1]}, a number then r that "
                              f"deal ({deal_range(finished)}); any other key closes)")

    def _note(self) -> None:
        text = f"review deal {self.number}_  (r opens it, Backspace corrects)" if self.number else self.KEYS_NOTE
        self.query_one("#keys-note", Label).update(text)

    def on_key(self, event: Any) -> None:
        """A deal number and ``r``; the other keys go on to :class:`InfoDialog`'s handler (Textual calls each
        class's own ``on_key`` unless ``prevent_default``)."""
        key = str(event.key)
        if key.isdigit() and len(key) == 1 and self.finished:
            event.stop()
            event.prevent_default()
            if len(self.number) < self.DIGITS:
                self.number += key
                self._note()
            else:  # no deal has a longer number: said, and the sheet stays open with the number typed so far
                why = self.refusal(int(self.number + key)) or f"a deal number has at most {self.DIGITS} digits"
                self.notify(f"{why}  (Backspace corrects)", severity="warning", markup=False)
        elif key == "backspace" and self.number:
            event.stop()
            event.prevent_default()
            self.number = self.number[:-1]
            self._note()
        elif key == "r":
            event.stop()
            event.prevent_default()
            number = int(self.number) if self.number else (self.finished[-1] if self.finished else 0)
            self.number = ""
            refusal = self.refusal(number)
            if refusal is not None:
                self.notify(refusal, severity="warning")
                self._note()
                return
            self.dismiss(None)
            self.review(number)


class HelpDialog(InfoDialog):
    """The keys: one row per key, its words wrapped to the screen under their own column, then notes.  Nothing
    is cut at the right edge (an 80x24 or 60x20 terminal needs no sideways scrolling); the arrows, Page Up/Down,
    Home and End scroll a page taller than the screen, any other key closes it, as :class:`InfoDialog`.

    Args:
        rows: ``(key, what it does)`` pairs.
        notes: paragraphs after the rows.
    """

    def __init__(self, rows: Sequence[tuple[str, str]], notes: Sequence[str] = ()) -> None:
        super().__init__("Keys", help_text(rows, notes))
        self.rows = list(rows)
        self.notes = list(notes)

    def compose(self) -> ComposeResult:
        grid = Table.grid(padding=(0, 2))
        grid.add_column(no_wrap=True)
        grid.add_column(ratio=1)
        for key, what in self.rows:
            grid.add_row(Text(key), Text(what))
        parts: list[Table | Text] = [grid]
        parts += [Text("\n" + note) for note in self.notes]
        with Vertical(id="dialog"):
            yield Label(f"[b]{self.title_text}[/b]")
            with VerticalScroll(id="page"):
                yield Static(Group(*parts), id="text")
            yield Label(self.KEYS_NOTE, id="keys-note")


def help_text(rows: Sequence[tuple[str, str]], notes: Sequence[str] = ()) -> str:
    """The help as plain text, one line per key (what :class:`HelpDialog` shows, unwrapped)."""
    width = max((len(key) for key, _ in rows), default=0)
    return "\n".join([f"{key.ljust(width)}  {what}" for key, what in rows] + [f"\n{note}" for note in notes])


HELP_ROWS: tuple[tuple[str, str], ...] = (
    ("← →", "move over your cards"),
    ("Enter", "play the card under the cursor"),
    ("rank suit", "type a card: a s = A♠, t h (or 1 0 h, 0 h) = 10♥"),
    ("?", "hint (the strongest bot's advice, from your view only)"),
    ("u", "undo: take back your last card and the computer players' actions after it, and choose again; u again "
          "goes further back, card by card, but never past your exchange, the contract, or into an earlier deal"),
    ("l", "the last trick"),
    ("p", "the score sheet (points); in it, r reviews the last finished deal, a number then r that deal"),
    ("r", "review the last finished deal: every card judged by the solver (↑ ↓ tricks, e errors, Esc back)"),
    ("n", "a new match, once this one is over (the same players and rules)"),
    ("x, Ctrl+Q", "quit"),
    ("F1", "this help"),
)
"""The local game's keys, for :class:`HelpDialog`."""

HELP_NOTES: tuple[str, ...] = (
    "Contract dialog: C D H S N M, or ← → and Enter.  Exchange dialog: ← →, Space marks a card, Enter confirms "
    "once (nothing marked: keep).  In both, p (the score sheet) and F1 open over the dialog.",
)

HELP = help_text(HELP_ROWS, HELP_NOTES)
"""The local game's help as plain text."""


def sits_out(obs: Observation) -> bool:
    """Whether the observing seat sits this deal out (four at the table: the dealer plays no card)."""
    return obs.seat is not None and obs.seat not in obs.active_seats


SITS_OUT = ("you sit this deal out: with four at the table the dealer plays no card (your hand comes with the "
            "next deal)")
"""Why a seat that sits the deal out plays nothing (a card typed, Enter)."""


class GameFooter(Footer):
    """The game's footer.  Compact (a narrow screen, :attr:`TableApp.NARROW`), it leaves out Enter (the hand's
    prompt names it) and shortens "points sheet", so that the help key fits down to 60 columns.

    It lists the game screen's keys, so it hides while a dialog is over that screen (:class:`GameScreen`).
    """

    HIDDEN_WHEN_COMPACT: ClassVar[frozenset[str]] = frozenset({"play"})
    SHORT: ClassVar[dict[str, str]] = {"sheet": "sheet"}

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            action = getattr(widget, "action", None)  # a key of the footer (Textual's FooterKey, a private class)
            if self.compact and isinstance(action, str):
                if action in self.HIDDEN_WHEN_COMPACT:
                    continue
                if action in self.SHORT:
                    widget.description = self.SHORT[action]  # type: ignore[attr-defined]
            yield widget


class GameScreen(Screen[None]):
    """The game's screen, the app's first (:meth:`TableApp.get_default_screen`).  Its footer lists its keys, so it
    hides while another screen, a dialog, is over it: "? hint", "u undo" and "l last trick" do nothing there, and
    each dialog names its own keys.  (A footer of the dialog's own is not the way: with a ``Footer`` on a modal
    screen, Textual stopped drawing the lines written to the game's log under it.)"""

    def on_screen_suspend(self) -> None:
        self._show_footer(False)

    def on_screen_resume(self) -> None:
        self._show_footer(True)

    def _show_footer(self, shown: bool) -> None:
        for footer in self.query(GameFooter).results(GameFooter):
            footer.display = shown


class TableApp(App[None]):
    """What the local and the server game screens share: the layout, the cursor over the playable cards, and
    typing a card (its rank, then its suit).

    A subclass says which cards the human may play now (:meth:`playable`, in the hand's display order), what
    playing one does (:meth:`play_card`) and how the screen is drawn (:meth:`refresh_view`).
    """

    TITLE = "Mizerka"
    NARROW = 100
    """Below this many columns the footer is compact and leaves out the command palette's key (Ctrl+P still opens
    it), so that every key of the game fits: at 80 columns "r review" and "f1 help" were cut off."""
    CSS = """
    #top { height: auto; }
    #status { width: 1fr; height: auto; padding: 0 1; }
    #scores { width: auto; max-width: 60%; height: auto; padding: 0 1; border-left: solid $accent; }
    #table { height: auto; min-height: 5; padding: 0 1; border: round $accent; }
    #hand { height: auto; min-height: 3; padding: 0 1; border: round $secondary; }
    #log { height: 1fr; padding: 0 1; }
    ContractDialog, ExchangeDialog, InfoDialog { align: center middle; }
    #dialog { width: 100; max-width: 100%; height: auto; max-height: 100%; padding: 1 2; border: thick $accent;
              background: $panel; }
    #dialog > Label { width: 100%; }
    InfoDialog #dialog { padding: 0 1; }
    #page { height: auto; max-height: 80vh; overflow-x: auto; }
    #text { width: auto; }
    HelpDialog #text { width: 100%; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.cursor = 0
        self.typed = ""
        self._dialog_open = False

    def get_default_screen(self) -> Screen[Any]:
        return GameScreen(id="_default")

    def compose(self) -> ComposeResult:
        with Horizontal(id="top"):
            yield Static(id="status")
            yield Static(id="scores")
        yield Static(id="table")
        yield Static(id="hand")
        # min_width=1: lines wrap at the log's own width (Textual's default of 78 cut them off in an 80x24 terminal);
        # not focusable: the arrows move over the hand, never scroll the log sideways
        log = RichLog(id="log", markup=True, wrap=True, min_width=1)
        log.can_focus = False
        yield log
        yield GameFooter()

    def on_resize(self, event: events.Resize) -> None:
        """A narrow screen gets the compact footer, without the command palette's key (see :attr:`NARROW`)."""
        narrow = event.size.width < self.NARROW
        for footer in self.query(GameFooter).results(GameFooter):
            if footer.compact != narrow:
                footer.compact = narrow
                footer.show_command_palette = not narrow
                footer.refresh(recompose=True)

    def log_line(self, text: str | Text) -> None:
        """Write a line to the game log: a string is Rich markup (what a person typed goes in through
        :func:`~mizerka.tui.review_screen.literal`, as :meth:`who` does), a :class:`~rich.text.Text` is written as
        it is."""
        self.query_one("#log", RichLog).write(text)

    def show(self, panel: str, markup: str) -> None:
        """Put *markup* (Rich markup, like the log's) in the ``Static`` panel with the id *panel* (``"#status"``).

        Given as a :class:`~rich.text.Text`: a string would be read as Textual's markup, in which a name ending in
        a backslash cannot be written before a tag (:func:`~mizerka.tui.review_screen.rich_markup`)."""
        self.query_one(panel, Static).update(rich_markup(markup))

    def name_of(self, seat: int) -> str:
        """The seat's name as plain text ("You" for the human's seat): for the dialogs, which show no markup."""
        raise NotImplementedError

    def who(self, seat: int, width: int = 0) -> str:
        """The seat's name for markup (the log, the panels), padded with spaces to *width* characters: a name is
        what a person typed, and "[b]" or "[@click=app.quit]" in it is text, not a style or an action, and a
        backslash at its end is a backslash (:func:`~mizerka.tui.review_screen.literal`)."""
        return literal(self.name_of(seat).ljust(width))

    def playable(self) -> list[Card]:
        """The cards the human may play now, in display order; empty when it is not their turn to play."""
        raise NotImplementedError

    def play_card(self, card: Card) -> None:
        """Play *card*, one of :meth:`playable`."""
        raise NotImplementedError

    def refresh_view(self) -> None:
        raise NotImplementedError

    def observation_now(self) -> Observation:
        """The human's observation now (a refused card is explained from it)."""
        raise NotImplementedError

    def refuse(self, text: str) -> None:
        """Say why something the human asked for was not done: a notice, and a line in the log."""
        self.notify(text, severity="warning", markup=False)
        self.log_line(Text(text, style="yellow"))

    def why_not(self, card: Card) -> str:
        """Why *card* (not among :meth:`playable`) cannot be played now."""
        if sits_out(self.observation_now()):
            return SITS_OUT
        return refusal_text(self.observation_now(), card, playable=bool(self.playable()))

    def point_at(self, card: Card) -> None:
        """Put the cursor on *card* if it is playable (a hint shows where it points)."""
        legal = self.playable()
        if card in legal:
            self.cursor = legal.index(card)
            self.refresh_view()

    def action_move(self, step: int) -> None:
        legal = self.playable()
        if legal:
            self.cursor = (self.cursor + step) % len(legal)
            self.refresh_view()

    def action_play(self) -> None:
        legal = self.playable()
        if not legal:
            self.notify(SITS_OUT if sits_out(self.observation_now()) else "it is not your turn to play a card",
                        severity="warning")
            return
        self.play_card(legal[min(self.cursor, len(legal) - 1)])

    def on_key(self, event: Any) -> None:
        """Typing a card: a rank key (2-9, t, 0 or 1 0 for 10, j q k a) then a suit key (c d h s).

        Any other character after a rank is refused and does nothing else: its binding (``u`` undo, ``p`` the
        sheet, ``x`` quit, …) does not run, because a key this handler takes is both stopped and kept from the
        default handler (``prevent_default``: :class:`~textual.app.App`'s own, which runs the bindings).  A key
        that types no character (an arrow, Enter) forgets the rank and does its usual job.
        """
        if self._dialog_open:
            return
        key = str(event.character or "").lower()
        if len(key) != 1 or not key.isprintable() or key == " ":
            self.typed = ""
            return
        ranks, suits = "23456789tjqka", "cdhs"
        if self.typed == "1" and key == "0":
            self.typed = "t"
        elif self.typed and key in suits:
            rank, self.typed = "t" if self.typed == "1" else self.typed, ""
            card = Card.from_str(rank + key)
            if card in self.playable():
                self.play_card(card)
            else:
                self.refuse(f"Not accepted: {self.why_not(card)}.")
        elif self.typed:
            typed = {"t": "10", "1": "1"}.get(self.typed, self.typed.upper())
            self.typed = ""
            self.refuse(f"Not a card: {typed} then {key!r}.  Type a rank, then its suit (c d h s), e.g. a s = A♠.")
        elif key in ranks or key in "01":
            self.typed = "t" if key == "0" else key
        else:
            return  # not part of a card: the key's binding, if it has one, runs
        event.stop()
        event.prevent_default()


class MizerkaApp(TableApp):
    """The game screen over a :class:`TableModel`.

    Args:
        model: the table.
        bot_delay: seconds between the computer players' actions (0 in tests), so that you can follow them
            (undo takes your last card back at any time in the deal, with what they did after it).
        unicode: suit symbols in the review (``--ascii``: letters).
        record: ``--record FILE``: the record of the finished deals is written there after each deal (of this
            match; a new match with ``n`` is not recorded), and the log says where it is at the end.
        resumed: ``--resume FILE``: the match taken up again from its record (*model*'s match).  The log starts
            as the line game does: one line saying where the match goes on (:meth:`Resumed.announcement
            <mizerka.tui.resume.Resumed.announcement>`, with the totals), then the deal in progress and its
            events so far, never the earlier deals' tricks (the score sheet, ``p``, has those deals).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "card ←", show=False), Binding("right", "move(1)", "card →", show=False),
        Binding("enter", "play", "play"), Binding("question_mark", "hint", "hint"),
        Binding("u", "undo", "undo"), Binding("l", "last_trick", "last trick"),
        Binding("p", "sheet", "points sheet"),
        Binding("r", "review", "review"),  # shown once a deal is finished (check_action)
        Binding("f1", "help", "help"),
        Binding("ctrl+q", "quit", "quit", priority=True), Binding("x", "quit", "quit", show=False),
        Binding("n", "new_match", "new match", show=False),
    ]

    def __init__(self, model: TableModel, *, bot_delay: float = 0.6, unicode: bool = True,
                 record: RecordFile | None = None, resumed: Resumed | None = None) -> None:
        super().__init__()
        self.model = model
        self.record = record
        self.resumed = resumed
        self.recorded_match = model.match  # the match --record writes (``n`` starts one that is not recorded)
        self.bot_delay = bot_delay
        self.unicode = unicode  # suit symbols in the review (--ascii: letters)
        self.reviews = Reviews(self, model.match)
        self._reviewing = False  # a review screen is open: the computer players wait
        self._seen = 0
        # the deals whose events are logged (a resumed match's earlier deals are not: its opening line says them)
        self._deal_seen = len(model.match.deals) - 1 if resumed is not None else 0
        self._stock_seen = CardSet()  # the cards drawn from the stock in the deal being reported, logged already
        self._final_reported = False
        self._keep_announced = False  # the forced keep (empty talon) was logged with its reason: not again
        self._hinting = False  # a hint is being worked out in a thread
        self._bot_timer: Timer | None = None  # the computer player's next move, paced by bot_delay
        self._match_no = 1  # ``n`` starts another match at the same table

    # -- layout ------------------------------------------------------------------------------------------

    def on_mount(self) -> None:
        names = self.model.match.players
        others = ", ".join(f"{names[s]} ({lv})" for s, lv in self.model.levels.items())
        self.log_line(literal(f"Mizerka, {self.model.match.rules.spec()}: you are {names[self.model.seat]}; "
                              f"against {others}.  F1 for help."))
        if self.resumed is not None:
            totals = totals_text(self.model.match.totals, self.who)
            self.log_line(literal(self.resumed.announcement())
                          + f"  Totals: {totals}.  p: the score sheet, with the earlier deals.")
        if self.record is not None:
            self.log_line(literal(self.record.announcement()))
        if self.resumed is not None:  # the deal it goes on in: its header, then (advance) its events so far
            match = self.model.match
            self.log_line(f"[b]── Deal {match.deal_no} of {match.n_deals} ──[/b]")
        self.refresh_view()
        self.call_after_refresh(self.advance)

    def name_of(self, seat: int) -> str:
        return "You" if seat == self.model.seat else self.model.match.players[seat]

    # -- drawing -----------------------------------------------------------------------------------------

    def legal_cards(self, obs: Observation) -> list[int]:
        return [int(a.card) for a in obs.legal_actions if isinstance(a, Play)] if obs.is_my_turn() else []

    def hand_order(self, obs: Observation) -> list[Card]:
        trump = obs.contract.trump if obs.contract is not None else None
        return sorted_hand(obs.hand, None if trump is None else int(trump))

    def refresh_view(self) -> None:
        model, match = self.model, self.model.match
        obs = model.observation()
        rules = obs.rules
        roles = " · ".join(f"{role.short} {self.who(seat)}" for role, seat in zip(Role, obs.active_seats,
                                                                                       strict=True))
        lines = [f"[b]Deal {match.deal_no} of {match.n_deals}[/b]   dealer {self.who(obs.dealer)}   {roles}"]
        if obs.contract is None:
            lines.append(f"{self.who(obs.active_seats[0])} (forehand) is choosing the contract.")
        else:
            c = obs.contract
            goal = "[b red]avoid[/b red] tricks" if c.goal == "avoid" else "[b green]take[/b green] tricks"
            lines.append(f"Contract: [b]{c.symbol} {c.label}[/b], {goal}   chosen by {self.who(obs.active_seats[0])}")
        if obs.shown_card is not None:
            lines.append(f"Turned up: {card_markup(obs.shown_card)} (a reminder only)")
        if obs.phase is Phase.EXCHANGE:
            counts = [f"{self.who(s)} {n}" for s, n in enumerate(obs.exchange_counts) if n is not None]
            lines.append(f"Exchange: talon {counted(obs.talon_size, 'card')}"
                         + (f"; exchanged {', '.join(counts)}" if counts else ""))
        elif obs.phase is Phase.PLAY:
            stock = f"   stock {counted(obs.stock_size, 'card')}" if obs.stock_size else ""
            lines.append(f"Trick {len(obs.tricks) + 1} of {rules.n_tricks}{stock}")
        if match.is_over():
            lines.append("[b]The match is over.[/b] Press n for a new match, p for the sheet, x to quit.")
        self.show("#status", "\n".join(lines))
        # quotas against tricks, totals
        score_lines = ["[b]seat      tricks/quota  total[/b]"]
        for role, seat in enumerate(obs.active_seats):
            quota = rules.quota(role, obs.contract) if obs.contract is not None else None
            q = f"{obs.tricks_won[seat]:>2} / {quota}" if quota is not None else "  -"
            total = obs.totals[seat] if obs.totals else 0
            score_lines.append(f"{self.who(seat, 9)} {q:<12}  {signed(total)}")
        for seat in range(rules.n_seats):  # four at the table: the dealer sits out, and keeps a total
            if seat not in obs.active_seats:
                total = obs.totals[seat] if obs.totals else 0
                score_lines.append(f"{self.who(seat, 9)} {'sits out':<12}  {signed(total)}")
        self.show("#scores", "\n".join(score_lines))
        # the trick on the table
        table = []
        if (obs.phase is Phase.PLAY or obs.phase is Phase.DONE) and not obs.trick and obs.tricks:
            # the trick just taken stays on the table, dimmed, until the next card is led: it used to vanish with
            # its third card, so that a trick the computer players finished was seen only in the log
            last = obs.tricks[-1]
            for i, seat in enumerate(self._trick_seats(obs, last.leader)):
                lead = " (led)" if i == 0 else ""
                took = f"  [b]← took trick {len(obs.tricks)}[/b]" if seat == last.winner else ""
                table.append(f"{self.who(seat, 9)} {card_markup(last.cards[i], dim=True)}{lead}{took}")
        elif obs.phase is Phase.PLAY or obs.phase is Phase.DONE:
            order = obs.active_seats
            start = order.index(obs.trick_leader) if obs.trick_leader in order else 0
            for i in range(3):
                seat = order[(start + i) % 3]
                card = card_markup(obs.trick[i]) if i < len(obs.trick) else "·"
                lead = " (led)" if i == 0 and obs.trick else ""
                table.append(f"{self.who(seat, 9)} {card}{lead}")
        else:
            table.append("(no trick yet)")
        self.show("#table", "\n".join(table))
        # your hand
        legal = set(self.legal_cards(obs))
        cards = self.hand_order(obs)
        legal_in_order = [c for c in cards if c in legal]
        if legal_in_order:
            self.cursor = max(0, min(self.cursor, len(legal_in_order) - 1))
        selected = legal_in_order[self.cursor] if legal_in_order else None
        shown = " ".join(card_markup(c, dim=bool(legal) and c not in legal, cursor=c == selected) for c in cards)
        prompt = "  ← your turn: ← → and Enter" if legal else ""
        if sits_out(obs):
            self.show("#hand", "You sit this deal out: with four at the table the dealer plays no card.")
        else:
            self.show("#hand", f"Your hand: {shown or '-'}{prompt}")

    def report_new_events(self) -> None:
        """Log what happened since last time, from the human's view of each deal (finished ones included)."""
        match, seat = self.model.match, self.model.seat
        while self._deal_seen < len(match.deals) - 1:
            finished = match.deals[self._deal_seen].observation(seat)
            self._report(finished)
            self._finish(finished, self._deal_seen + 1)
            self._deal_seen += 1
            self._seen = 0
            self._stock_seen = CardSet()
            self.log_line(f"[b]── Deal {self._deal_seen + 1} of {match.n_deals} ──[/b]")
        obs = match.deal.observation(seat)
        self._report(obs)
        if match.deal.is_over() and not self._final_reported:
            self._final_reported = True
            self._finish(obs, match.deal_no)

    def _report(self, obs: Observation) -> None:
        entries = obs.history[self._seen:]
        plays = sum(1 for _, a in obs.history[: self._seen] if isinstance(a, Play))
        self._seen = len(obs.history)
        for actor, action in entries:
            who = self.who(actor)
            if isinstance(action, Choose):
                self.log_line(f"{who} chose [b]{action.contract.symbol} {action.contract.label}[/b] "
                              f"({action.contract.goal}).")
            elif isinstance(action, Exchange):
                if action.discards:
                    drawn = " ".join(card_markup(c) for c in sorted(obs.drawn.cards()))
                    gone = " ".join(card_markup(c) for c in sorted(action.discards.cards()))
                    self.log_line(f"You discarded {gone} and drew {drawn}.")
                elif not self._keep_announced:
                    self.log_line("You kept your hand.")
                self._keep_announced = False
            elif isinstance(action, int):
                self.log_line(f"{who} exchanged {counted(action, 'card')}." if action else f"{who} kept.")
            elif isinstance(action, Play):
                plays += 1
                if plays % 3 == 0:
                    trick = obs.tricks[plays // 3 - 1]
                    cards = ", ".join(f"{self.who(s)} {card_markup(c)}"
                                      for s, c in zip(self._trick_seats(obs, trick.leader), trick.cards,
                                                      strict=True))
                    self.log_line(f"Trick {plays // 3}: {cards} → [b]{self.who(trick.winner)}[/b].")
        from_stock = obs.stock_drawn - self._stock_seen
        if from_stock:  # seed002-literal: a card drawn from the stock after each of one's plays in the first tricks
            self._stock_seen = self._stock_seen | from_stock
            self.log_line(f"You drew {' '.join(card_markup(c) for c in from_stock.cards())} from the stock "
                          f"({counted(obs.stock_size, 'card')} left in it).")

    def _trick_seats(self, obs: Observation, leader: int) -> list[int]:
        order = obs.active_seats
        start = order.index(leader)
        return [order[(start + i) % 3] for i in range(3)]

    def _finish(self, obs: Observation, number: int) -> None:
        if obs.contract is None or obs.scores is None:
            return
        parts = []
        for role, seat in enumerate(obs.active_seats):
            quota = obs.rules.quota(role, obs.contract)
            parts.append(f"{self.who(seat)} {obs.tricks_won[seat]}/{quota} → {signed(obs.scores[seat])}")
        self.log_line(f"[b]Deal {number} over[/b] ({obs.contract.label}, {obs.contract.goal}): " + "; ".join(parts))
        self.save_record()
        if self.model.match.is_over():
            outcome = self.model.match.outcome()
            winners = " and ".join(self.who(s) for s in outcome.winners)
            self.log_line(f"[b]The match is over. Winner: {winners}{' (shared)' if outcome.shared else ''}.[/b]")
            if self.record is not None and self.model.match is self.recorded_match:
                self.log_line(literal(self.record.where()))
        self.log_line(f"Press r to review deal {number}: every card judged by the solver.")
        self.refresh_bindings()  # the review key shows in the footer

    def save_record(self) -> None:
        """Write the record of the recorded match's finished deals (``--record``); a failure is logged."""
        if self.record is None or self.model.match is not self.recorded_match:
            return
        try:
            self.record.save(self.recorded_match)
        except (OSError, ValueError) as error:
            self.refuse(self.record.failure(error, match_over=self.recorded_match.is_over()))

    # -- the flow ----------------------------------------------------------------------------------------

    def advance(self) -> None:
        """Let the computer players act (one per ``bot_delay``), then open the human's dialog if needed."""
        model = self.model
        if self._dialog_open or self._reviewing:
            return
        if model.is_over():
            self.report_new_events()
            self.refresh_view()
            return
        if not model.is_human_turn():
            try:
                model.step_bot()
            except RuntimeError as error:
                self.log_line(f"[red]{error}[/red]")
                return
            self.report_new_events()
            self.refresh_view()
            if self.bot_delay > 0:
                self._bot_timer = self.set_timer(self.bot_delay, self.advance)
            else:
                self.call_later(self.advance)
            return
        self.report_new_events()
        self.refresh_view()
        obs = model.observation()
        forced = model.match.deal.forced_action()
        if obs.phase is Phase.CHOOSE:
            if forced is not None:
                assert isinstance(forced, Choose)
                self._apply(forced, f"Your only contract left is {forced.contract.label}: chosen for you.")
                return
            self._dialog_open = True
            self.push_screen(ContractDialog(obs), self._chosen)
        elif obs.phase is Phase.EXCHANGE:
            if forced is not None:
                self._keep_announced = True  # the keep is logged with its reason, once
                self._apply(forced, "The talon is empty: you keep your hand.")
                return
            self._dialog_open = True
            self.push_screen(ExchangeDialog(obs), self._exchanged)

    def _apply(self, action: Action, note: str | None = None) -> None:
        self.typed = ""
        try:
            self.model.act(action)
        except ValueError as error:
            self.refuse(f"Not accepted: {error}.")
            self.call_later(self.advance)  # the same question again (a dialog opens again)
            return
        if note:
            self.log_line(note)
        self.cursor = 0
        self.report_new_events()
        self.refresh_view()
        self.call_later(self.advance)

    def _chosen(self, contract: Contract | None) -> None:
        self._dialog_open = False
        if contract is not None:
            self._apply(Choose(contract))

    def _exchanged(self, discards: CardSet | None) -> None:
        self._dialog_open = False
        if discards is not None:
            self._apply(Exchange(discards))

    # -- keys --------------------------------------------------------------------------------------------

    def observation_now(self) -> Observation:
        return self.model.observation()

    def playable(self) -> list[Card]:
        obs = self.model.observation()
        if not self.model.is_human_turn() or obs.phase is not Phase.PLAY:
            return []
        legal = set(self.legal_cards(obs))
        return [c for c in self.hand_order(obs) if c in legal]

    def play_card(self, card: Card) -> None:
        self._apply(Play(card))

    def _position(self) -> tuple[int, int, tuple[Action, ...]]:
        """Where the table is: the match (a new match starts from the same deal number), deal and actions."""
        return self._match_no, self.model.match.deal_no, tuple(self.model.match.deal.history)

    def action_new_match(self) -> None:
        """Once the match is over, a new one at the same table: the same players, computer levels, seat and
        rules, a new seed (said in the log, so the match can be played again with ``--seed``)."""
        if not self.model.is_over():
            self.notify("the match is still on (x quits it)", severity="warning")
            return
        old = self.model
        seed = random.SystemRandom().randrange(1_000_000)
        with warnings.catch_warnings():  # a variant's warning was said when the first match began
            warnings.simplefilter("ignore")
            match = Match(old.match.rules, players=list(old.match.players), seed=seed)
        self.model = TableModel(match, old.seat, list(old.levels.values()), seed=seed)
        self.reviews = Reviews(self, match)
        self.refresh_bindings()
        self._seen = self._deal_seen = 0
        self._stock_seen = CardSet()
        self._final_reported = False
        self._match_no += 1
        self.cursor = 0
        self.log_line(f"[b]══ A new match (seed {seed}): deal 1 of {match.n_deals} ══[/b]")
        if self.record is not None:
            self.log_line(literal(f"This match is not recorded: {self.record.name} keeps the record of the "
                                 "first one."))
        self.refresh_view()
        self.call_after_refresh(self.advance)

    def action_hint(self) -> None:
        """Ask the hint bot in a thread (it may think for seconds): the screen keeps answering meanwhile."""
        if not self.model.is_human_turn():
            self.notify("a hint is for your turn", severity="warning")
            return
        if self._hinting:
            self.notify("the hint is still being worked out", severity="information")
            return
        self._hinting = True
        obs, position = self.model.observation(), self._position()
        self.notify(f"The {self.model.hint_level} bot is thinking…", timeout=2)

        def work() -> None:
            result: tuple[Action, dict[str, float]] | Exception
            try:
                result = self.model.hint(obs)
            except Exception as error:  # shown on the screen, never a crash of the game
                result = error
            call_from_worker(self, self._hinted, position, result)  # dropped if the app has closed meanwhile

        threading.Thread(target=work, name="mizerka-hint", daemon=True).start()

    def _hinted(self, position: tuple[int, int, tuple[Action, ...]],
                result: tuple[Action, dict[str, float]] | Exception) -> None:
        self._hinting = False
        if isinstance(result, Exception):
            self.refuse(f"No hint: {result}")
            return
        if position != self._position():
            self.log_line("(The hint came after the table moved on; ask again with ?.)")
            return
        action, evaluations = result
        self.log_line(hint_text(f"{self.model.hint_level} bot, from your view only", str(action), evaluations,
                                unicode=self.unicode))
        if isinstance(action, Play):
            self.point_at(action.card)

    def action_undo(self) -> None:
        """Take back your last card of this deal and every computer player's action after it, and let you choose
        again (:meth:`TableModel.undo`); pressed again, the card before it.  Refused, with the reason in a notice
        and in the log, when there is nothing to take back: no card of yours in this deal yet (at the contract,
        at the exchange, and at your first card after your exchange), and never into a finished deal."""
        try:
            taken = self.model.undo()
        except UndoError as error:
            self.refuse(f"Cannot undo: {error}.")
            return
        if self._bot_timer is not None:  # a computer player's move was due: it is asked again later, anew
            self._bot_timer.stop()
            self._bot_timer = None
        self.typed = ""
        self._seen = len(self.model.observation().history)  # a trick taken back is logged again when completed
        cards = [(seat, action.card) for seat, action in taken if isinstance(action, Play)]
        shown = ", ".join(f"{self.who(seat)} {card_markup(card)}" for seat, card in cards)
        self.log_line(f"Taken back: {shown}.  Your turn again.")
        self.notify(f"Taken back: {len(cards)} card{'s' if len(cards) != 1 else ''}; choose again", timeout=3)
        self.refresh_view()
        self.point_at(cards[0][1])  # the cursor on the card you took back
        self.call_later(self.advance)

    def action_last_trick(self) -> None:
        obs = self.model.observation()
        if not obs.tricks:
            self.notify("no trick has been completed in this deal yet")
            return
        trick = obs.tricks[-1]
        cards = ", ".join(f"{self.name_of(s)} {CARDS[c].unicode()}"
                          for s, c in zip(self._trick_seats(obs, trick.leader), trick.cards, strict=True))
        self.push_screen(InfoDialog(f"Trick {len(obs.tricks)}", f"{cards}\nwon by {self.name_of(trick.winner)}"))

    def action_sheet(self) -> None:
        self.push_screen(SheetDialog(str(self.model.match.score_sheet()), self.reviews.finished(),
                                     self.reviews.refusal, self.open_review))

    # -- the review of a finished deal -------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "review":  # in the footer once a deal is finished
            return bool(self.reviews.finished())
        return True

    def action_review(self) -> None:
        """Review the last finished deal (the deal in progress never)."""
        finished = self.reviews.finished()
        if not finished:
            self.notify(check_reviewable(self.model.match, 1) or "no deal is finished yet", severity="warning")
            return
        self.open_review(finished[-1])

    def open_review(self, deal_no: int) -> None:
        """Open the review screen on finished deal *deal_no*; the computer players wait until it closes."""
        refusal = self.reviews.refusal(deal_no)
        if refusal is not None:
            self.refuse(refusal)
            return
        self.typed = ""
        self._reviewing = True
        self.push_screen(ReviewScreen(self.reviews, deal_no, unicode=self.unicode, you=self.model.seat),
                         self._reviewed)

    def _reviewed(self, _: None) -> None:
        self._reviewing = False
        self.call_later(self.advance)

    def on_key(self, event: Any) -> None:
        """Before :meth:`TableApp.on_key` (Textual calls each class's own handler, this one first, then
        TableApp's and App's, unless ``prevent_default``): ``r`` says why no review opens.  An open review lets
        only its own keys through (none types a card)."""
        if self._reviewing:
            return
        if str(event.key) == "r" and not self.typed and not self.reviews.finished():
            event.stop()
            event.prevent_default()
            self.action_review()  # the key is hidden until a deal is finished: say why nothing opens

    def action_help(self) -> None:
        self.push_screen(HelpDialog(HELP_ROWS, HELP_NOTES))
