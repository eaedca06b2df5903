"""The full-screen game's review of a finished deal: every card judged by the solver, trick by trick.

:class:`Reviews` works the reviews out for one local match, in a background thread (a Mizerka deal takes
seconds), and keeps each one; :class:`ReviewScreen` shows one deal: its contract and goal, the hands at the start
of play (all open: the deal is over), the exchanges, each trick with a verdict per card (``best``, ``forced``,
``-k tricks`` or ``+k tricks taken`` in Mizerka, with the best cards of an error; errors in red), and a line per
player (cards with a choice, errors, tricks lost).

Keys: ↑ ↓ the previous / next trick, PgUp PgDn four tricks, Home End the first / last trick (and the top / the
end of the page), ← → scroll sideways on a narrow screen, e / E the next / previous error, [ ] the previous /
next finished deal, Escape back to the game.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from functools import partial
from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Label, Static

from mizerka.analysis import counted_noun
from mizerka.cards import Card, CardSet
from mizerka.cli import suit_order
from mizerka.match import Match
from mizerka.tui.review import DealReview, build_review, check_reviewable, finished_deals, finished_record, verdict_text

__all__ = ["ReviewScreen", "Reviews", "call_from_worker", "literal", "rich_markup"]

Result = DealReview | str
"""A review, or why there is none (a sentence)."""


def call_from_worker(app: App[Any], callback: Callable[..., None], *args: Any) -> bool:
    """Have *app* run ``callback(*args)`` on its own thread soon, from a worker thread, without waiting for it;
    return whether it was handed over (``False`` once the app is closing or closed: the result is dropped).

    Why not ``App.call_from_thread``: it wraps the call in a coroutine in the worker's thread and waits for the
    app's event loop to run it.  When the app has closed meanwhile (the player quit during an analysis or a
    hint), the loop is closed: the coroutine is never awaited, and Python warns ("RuntimeWarning: coroutine
    'App.call_from_thread.<locals>.run_callback' was never awaited") long after the app ended; when the app
    closes just after the call, the worker waits for ever.  :meth:`App.post_message`, which Textual makes safe
    to call from another thread, queues a plain callback event instead: no coroutine is made outside the loop,
    and a closed app says so by returning ``False`` (or, as its loop shuts, ``RuntimeError``).
    """
    try:
        return app.post_message(events.Callback(callback=partial(callback, *args)))
    except RuntimeError:  # the event loop closed between the app's check and the hand-over
        return False


_TAG = re.compile(r"(\\*)(\[[a-z#/@][^[]*?])")
"""What Rich's markup reads as a tag, with the backslashes before it (``rich.markup.RE_TAGS``)."""


def literal(text: str) -> str:
    r"""*text* (a name, a chat line, a server's word) as Rich markup that shows exactly *text*, wherever it stands in
    a line of markup: before a tag, before plain text, or at the end.

    ``rich.markup.escape`` is not enough for what people type.  Rich reads a run of backslashes just before a tag as
    escapes (two show as one), and ``escape`` doubles only a lone backslash at the end of its text: right before a
    tag, wrong anywhere else (``Ala\`` showed as ``Ala\\`` in "Ala\ chose"), while a longer run at the end was left
    as it was, so that half of it was lost before a tag (``[b]Ala\\[/b]`` showed ``Ala\``; with three, the closing
    tag became text).  Here a run at the end is doubled and closed by an empty tag pair of its own
    (``[none][/none]``: no style), so that what follows never touches it.

    Only for Rich's markup (:meth:`rich.text.Text.from_markup`, a ``RichLog``): Textual's own markup (a ``Static``
    given a string) has no way to write a backslash just before a tag, so the screens give their panels
    :func:`rich_markup` instead of strings.

    >>> from rich.text import Text
    >>> for name in ("Ala\\", "Ala\\\\", "Ala\\\\\\", "[b]x", "a\\[b]", "x[none]", "[@click=app.quit]y"):
    ...     assert Text.from_markup(f"[b]{literal(name)}[/b] chose").plain == f"{name} chose"
    ...     assert Text.from_markup(f"{literal(name)} chose").plain == f"{name} chose"
    ...     assert Text.from_markup(literal(name)).plain == name
    >>> print(literal("Ala\\\\"))
    Ala\\\\[none][/none]
    """
    body = _TAG.sub(lambda match: f"{match[1] * 2}\\{match[2]}", text)
    run = len(body) - len(body.rstrip("\\"))
    return body + "\\" * run + "[none][/none]" if run else body


def rich_markup(markup: str) -> Text:
    """A panel's text from Rich markup (what :func:`literal` writes for), for a ``Static``: a string given to a
    ``Static`` is read as Textual's markup, whose rules differ (``[$x]`` is a variable there, and a backslash
    before a tag always escapes it)."""
    return Text.from_markup(markup)


class Reviews:
    """The reviews of one local match's finished deals, worked out in a worker thread and kept per deal.

    Args:
        app: the app that gets the analyses (the threads that work them out outlive a review screen closed
            meanwhile, but never hold up the app's end: quitting does not wait for the solver).
        match: the match; only its finished deals are ever analysed.
    """

    def __init__(self, app: App[Any], match: Match) -> None:
        self.app = app
        self.match = match
        self.cache: dict[int, Result] = {}
        self._waiting: dict[int, list[Callable[[int, Result], None]]] = {}

    def finished(self) -> list[int]:
        return finished_deals(self.match)

    def refusal(self, deal_no: int) -> str | None:
        """Why *deal_no* cannot be reviewed (a sentence), or ``None``."""
        return check_reviewable(self.match, deal_no)

    def request(self, deal_no: int, ready: Callable[[int, Result], None]) -> Result | None:
        """The review of finished deal *deal_no* if it is known; else ``None``, and *ready* is called with it
        (on the screen's thread) once the worker has it."""
        if deal_no in self.cache:
            return self.cache[deal_no]
        refusal = self.refusal(deal_no)
        if refusal is not None:
            return refusal
        waiting = self._waiting.setdefault(deal_no, [])
        waiting.append(ready)
        if len(waiting) == 1:  # the first request starts the one worker for this deal
            record = finished_record(self.match)  # here, where the match is not changing
            n_deals = self.match.n_deals

            def work() -> None:
                result: Result
                try:
                    result = build_review(record, deal_no, n_deals=n_deals)
                except Exception as error:  # shown on the review screen, never a crash of the game
                    result = f"The deal could not be analysed: {error}"
                call_from_worker(self.app, self._done, deal_no, result)  # dropped if the app has closed

            # a daemon thread, not a Textual thread worker: those run in asyncio's default executor, which the
            # app's end waits for, so quitting during a Mizerka deal's analysis would hang until the solver ends
            threading.Thread(target=work, name=f"mizerka-review-{deal_no}", daemon=True).start()
        return None

    def _done(self, deal_no: int, result: Result) -> None:
        self.cache[deal_no] = result
        for ready in self._waiting.pop(deal_no, []):
            ready(deal_no, result)


class ReviewScreen(ModalScreen[None]):
    """One finished deal, card by card (see the module's doc for the keys).

    Args:
        reviews: where the reviews come from.
        deal_no: the deal to show first (a finished one).
        unicode: suit symbols (``10♥``), or letters (``TH``) as ``--ascii`` asks.
        you: the human's seat (named "You"), or ``None``.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "back"),
        Binding("up", "trick(-1)", "previous trick", show=False), Binding("down", "trick(1)", "next trick"),
        Binding("pageup", "trick(-4)", "PgUp", show=False), Binding("pagedown", "trick(4)", "PgDn", show=False),
        Binding("home", "ends(-1)", "first", show=False), Binding("end", "ends(1)", "last", show=False),
        Binding("left", "sideways(-1)", "←", show=False), Binding("right", "sideways(1)", "→", show=False),
        Binding("e", "error(1)", "next error"), Binding("E", "error(-1)", "previous error", show=False),
        Binding("left_square_bracket", "deal(-1)", "previous deal"),
        Binding("right_square_bracket", "deal(1)", "next deal"),
    ]
    KEYS: ClassVar[frozenset[str]] = frozenset(
        {"escape", "up", "down", "pageup", "pagedown", "home", "end", "left", "right", "e", "E",
         "left_square_bracket", "right_square_bracket", "ctrl+q", "ctrl+p", "ctrl+c"})

    DEFAULT_CSS = """
    ReviewScreen { align: center middle; }
    ReviewScreen #review { width: 100%; height: 100%; padding: 0 1; background: $panel; }
    ReviewScreen #review-head { height: auto; }
    ReviewScreen #review-page { height: 1fr; overflow-x: auto; }
    ReviewScreen #review-page > Static { width: auto; min-width: 100%; }
    ReviewScreen .trick { padding: 0 1; }
    ReviewScreen .trick.selected { background: $boost; text-style: bold; border-left: thick $accent; }
    ReviewScreen #review-keys { height: 1; }
    """

    def __init__(self, reviews: Reviews, deal_no: int, *, unicode: bool = True, you: int | None = None) -> None:
        super().__init__()
        self.reviews = reviews
        self.deal_no = deal_no
        self.unicode = unicode
        self.you = you
        self.review: DealReview | None = None
        self.selected = 0  # the trick under the cursor (from 0)

    def compose(self) -> ComposeResult:
        with Vertical(id="review"):
            yield Static(id="review-head")
            yield VerticalScroll(id="review-page", can_focus=False)
            yield Label("↑↓ trick  PgUp PgDn  Home End  e error  [ ] deal  Esc back", id="review-keys")
        yield Footer()

    def on_mount(self) -> None:
        self.load(self.deal_no)

    # -- text --------------------------------------------------------------------------------------------

    def card(self, card: Card) -> str:
        text = card.unicode() if self.unicode else str(card)
        return f"[red]{text}[/]" if self.unicode and card.suit.is_red else text

    def plain_card(self, card: Card) -> str:
        return card.unicode() if self.unicode else str(card)

    def who(self, seat: int) -> str:
        return "You" if seat == self.you else self.reviews.match.players[seat]

    def hand_text(self, hand: CardSet, trump: int | None) -> str:
        groups = []
        for suit in suit_order(trump):
            cards = sorted(hand.of_suit(suit).cards(), reverse=True)
            if cards:
                groups.append(" ".join(self.card(c) for c in cards))
        return "   ".join(groups) or "-"

    def head_text(self, review: DealReview) -> str:
        a = review.analysis
        c = a.contract
        goal = "[b red]avoid[/] tricks" if c.goal == "avoid" else "[b green]take[/] tricks"
        symbol = c.symbol if self.unicode else str(c)
        tricks = ", ".join(f"{literal(self.who(s))} {a.tricks_won[s]}" for s in review.active_seats)
        errors = len(a.errors())
        return "\n".join([
            f"[b]Review of deal {a.deal_no} of {review.n_deals}[/b]   dealer {literal(self.who(a.dealer))}",
            f"Contract: [b]{literal(symbol)} {c.label}[/b], {goal}   chosen by {literal(self.who(a.chooser))}",
            f"Tricks taken: {tricks}   {errors} error{'s' if errors != 1 else ''} (solver, double dummy)",
        ])

    def hands_text(self, review: DealReview) -> str:
        width = max(len(self.who(s)) for s in review.active_seats)
        trump = review.analysis.contract.trump
        lines = ["[b]Hands at the start of play[/b] (all open: the deal is over)"]
        for seat in review.active_seats:
            hand = self.hand_text(review.hands[seat], None if trump is None else int(trump))
            lines.append(f"  {literal(self.who(seat).ljust(width))}  {hand}")
        for ex in review.exchanges:
            who = literal(self.who(ex.seat))
            if ex.discards:
                gone = " ".join(self.card(c) for c in sorted(ex.discards.cards(), reverse=True))
                drawn = " ".join(self.card(c) for c in sorted(ex.drawn.cards(), reverse=True))
                lines.append(f"  {who} exchanged {len(ex.discards)}: discarded {gone}, drew {drawn}")
            else:
                lines.append(f"  {who} kept")
        return "\n".join(lines)

    def trick_text(self, review: DealReview, number: int) -> str:
        trick = review.tricks[number - 1]
        order = list(review.active_seats)
        start = order.index(trick.leader)
        seats = [order[(start + i) % 3] for i in range(3)]
        width = max(len(self.who(s)) for s in review.active_seats)
        verdicts = review.verdicts(number)
        lines = [f"Trick {number}: {literal(self.who(trick.leader))} led, "
                 f"{literal(self.who(trick.winner))} won"]
        for seat, card in zip(seats, trick.cards, strict=True):
            pad = " " * (4 - len(self.plain_card(card)))
            head = f"  {literal(self.who(seat).ljust(width))}  {self.card(card)}{pad}"
            if seat not in verdicts:
                lines.append(f"{head}  not judged (cards were still drawn from the stock)")
                continue
            index = verdicts[seat]
            verdict = verdict_text(review, index, self.plain_card)
            if review.analysis.plays[index].is_error:
                mark = "✗" if self.unicode else "x"
                lines.append(f"{head}  [b red]{mark} {literal(verdict)}[/]")
            else:
                lines.append(f"{head}  [green]{verdict}[/]" if verdict == "best" else f"{head}  [dim]{verdict}[/]")
        return "\n".join(lines)

    def summary_text(self, review: DealReview) -> str:
        width = max(len(self.who(s)) for s in review.active_seats)
        lost = "extra tricks taken" if review.analysis.contract.is_mizerka else "tricks lost"
        lines = ["[b]Per player[/b]"]
        for s in review.summary():
            lines.append(f"  {literal(self.who(s.seat).ljust(width))}  {s.judged:>2} "
                         f"{counted_noun(s.judged, 'card', ' with a choice,')} "
                         f"{s.errors:>2} {counted_noun(s.errors, 'error', ',')} {s.cost:>2} {lost}")
        lines.append("")
        lines.append("[dim]A card's value is the tricks its player ends the deal with under perfect play, the "
                     "other two playing against him (double dummy: the solver sees every card).[/]")
        return "\n".join(lines)

    # -- loading -----------------------------------------------------------------------------------------

    def load(self, deal_no: int) -> None:
        """Show deal *deal_no*: at once if its review is known, else "analysing…" until the worker has it."""
        self.deal_no = deal_no
        self.review = None
        result = self.reviews.request(deal_no, self._ready)
        if result is None:
            self.query_one("#review-head", Static).update(rich_markup(
                f"[b]Review of deal {deal_no}[/b]\nanalysing… (the solver judges every card; a Mizerka deal "
                "takes a few seconds)"))
            self.call_later(self._fill, [])
        else:
            self.show(result)

    def _ready(self, deal_no: int, result: Result) -> None:
        if self.is_attached and deal_no == self.deal_no:
            self.show(result)

    def show(self, result: Result) -> None:
        head = self.query_one("#review-head", Static)
        if isinstance(result, str):
            head.update(rich_markup(f"[b]Review of deal {self.deal_no}[/b]\n{literal(result)}"))
            self.call_later(self._fill, [])
            return
        self.review = result
        head.update(rich_markup(self.head_text(result)))
        blocks = [Static(rich_markup(self.hands_text(result)), id="review-hands")]
        blocks += [Static(rich_markup(self.trick_text(result, n)), classes="trick", id=f"trick-{n}")
                   for n in range(1, len(result.tricks) + 1)]
        blocks.append(Static(rich_markup(self.summary_text(result)), id="review-summary"))
        self.selected = 0
        self.call_later(self._fill, blocks)

    async def _fill(self, blocks: list[Static]) -> None:
        """Put *blocks* on the page in place of what it held, the first trick under the cursor."""
        page = self.query_one("#review-page", VerticalScroll)
        await page.remove_children()
        if blocks:
            await page.mount_all(blocks)
        page.scroll_home(animate=False)
        self._select(0, scroll=False)

    def text(self) -> str:
        """The review as plain text, as the screen shows it (for tests and screen readers)."""
        parts = [str(self.query_one("#review-head", Static).render())]
        parts += [str(block.render()) for block in self.query("#review-page Static").results(Static)]
        return "\n".join(parts)

    # -- keys --------------------------------------------------------------------------------------------

    def on_key(self, event: Any) -> None:
        """Only this screen's keys: a card typed, Enter, ``u`` and the game's other keys do nothing here."""
        if event.key not in self.KEYS:
            event.stop()

    def _select(self, index: int, *, scroll: bool = True) -> None:
        if self.review is None or not self.review.tricks:
            return
        self.selected = max(0, min(index, len(self.review.tricks) - 1))
        for block in self.query(".trick").results(Static):
            block.set_class(block.id == f"trick-{self.selected + 1}", "selected")
        if scroll:
            page = self.query_one("#review-page", VerticalScroll)
            for block in self.query(f"#trick-{self.selected + 1}").results(Static):  # none until mounted
                page.scroll_to_widget(block, animate=False)

    def action_close(self) -> None:
        self.dismiss(None)

    def action_trick(self, step: int) -> None:
        self._select(self.selected + step)

    def action_ends(self, end: int) -> None:
        page = self.query_one("#review-page", VerticalScroll)
        if self.review is None or not self.review.tricks:
            return
        self._select(0 if end < 0 else len(self.review.tricks) - 1, scroll=False)
        if end < 0:
            page.scroll_home(animate=False)
        else:
            page.scroll_end(animate=False)

    def action_sideways(self, step: int) -> None:
        page = self.query_one("#review-page", VerticalScroll)
        page.scroll_to(x=page.scroll_x + 8 * step, animate=False)

    def action_error(self, step: int) -> None:
        """The next (or previous) trick with an error, from the one under the cursor, going round."""
        if self.review is None:
            return
        n = len(self.review.tricks)
        with_errors = {p.trick_no - 1 for p in self.review.analysis.errors()}
        if not with_errors:
            self.notify("no card of this deal cost a trick")
            return
        for i in range(1, n + 1):
            index = (self.selected + step * i) % n
            if index in with_errors:
                self._select(index)
                return

    def action_deal(self, step: int) -> None:
        finished = self.reviews.finished()
        later = [d for d in finished if (d - self.deal_no) * step > 0]
        if not later:
            self.notify(f"no finished deal {'before' if step < 0 else 'after'} deal {self.deal_no}")
            return
        self.load(min(later, key=lambda d: abs(d - self.deal_no)))
