"""A table as the server keeps it: seats, the match, and its numbered events — synchronous and pure.

Nothing here touches the network, the database or the clock.  Every change to a table goes through one
of :meth:`Table.join`, :meth:`Table.fill`, :meth:`Table.leave`, :meth:`Table.set_standin`, :meth:`Table.act` or
:meth:`Table.close`, which checks it, applies it and returns the :class:`Event` objects it caused.  The
events are the table's append-only journal: stored in order, they rebuild the table exactly
(:meth:`Table.replay`).

An event has a *public* part (what everyone at the table may see), *private* parts (seat → extra fields
only that seat may see, taken from that seat's observation) and a *server* part that is never sent
(the action code, the token hash of a seat change).

>>> from mizerka.server.tables import Table, TableSettings, SeatState
>>> table = Table.new("t1", TableSettings(), [SeatState.human(), SeatState.bot("rules"), SeatState.bot("random")],
...                   seed=5)
>>> seat, events = table.join("Ala", token_hash="h")
>>> seat, [e.kind for e in events], table.status
(0, ['seat', 'start', 'deal'], 'playing')
"""

from __future__ import annotations

import dataclasses
import random
import secrets
from collections.abc import Collection, Iterable, Sequence
from typing import Any, Final, Literal

from mizerka.bots import BOT_LEVELS
from mizerka.cards import CARDS, CardSet
from mizerka.deal import Action, Choose, Exchange, IllegalActionError, InvalidActionError, Phase, Play, action_from_code
from mizerka.match import Match
from mizerka.record import commit, new_salt
from mizerka.rules import Rules, RulesError, parse_variant
from mizerka.undo import UndoError, take_back, undo_span

__all__ = [
    "Event",
    "SeatState",
    "Table",
    "TableError",
    "TableSettings",
    "Undone",
    "card_list",
    "check_seats",
    "default_name",
]

Status = Literal["waiting", "playing", "finished", "abandoned"]
STANDIN_LEVEL: Final = "rules"


class TableError(ValueError):
    """A request the table refuses.  ``code`` is an error code of the protocol (docs/protocol.md)."""

    def __init__(self, code: str, message: str, reason: dict[str, Any] | None = None,
                 fields: dict[str, Any] | None = None) -> None:
        self.code = code
        self.message = message
        self.reason = reason
        self.fields = fields  # more of the REST error's body: what a client needs to act on it (a ``table`` id)
        super().__init__(f"{code}: {message}")


_REASONS: Final = (
    ("must follow suit", "follow"),
    ("is not in seat", "not_in_hand"),
    ("cannot discard", "not_in_hand"),
    ("the deal is over", "deal_over"),
    ("has already used contract", "contract_used"),
    ("is not played in this variant", "contract_not_played"),
    ("had their one exchange", "exchange_over"),
    ("left in the talon", "talon_short"),
    (" phase", "wrong_phase"),
    ("is not a", "not_an_action"),
)


def reason_code(text: str, suit: int | None = None) -> dict[str, Any]:
    """The machine code of an illegal-action reason (:meth:`mizerka.deal.Deal.illegal_reason`'s text).

    >>> reason_code("must follow suit: hearts were led and seat 1 holds some", 2)
    {'code': 'follow', 'suit': 'H'}
    >>> reason_code("cannot choose a contract in the play phase")
    {'code': 'wrong_phase'}
    """
    code = next((c for fragment, c in _REASONS if fragment in text), "illegal")
    if code == "follow" and suit is not None:
        return {"code": code, "suit": "CDHS"[suit]}
    return {"code": code}


def default_name(index: int) -> str:
    """The name the server gives seat *index* (from 0) when nobody names it (a bot's seat): ``Bot`` and the seat's
    number from 1.  The views say which names are these (``default_name``), so that a client may write them in its
    own language and never mistakes a player's chosen name for one.

    >>> default_name(1)
    'Bot 2'
    """
    return f"Bot {index + 1}"


def card_list(mask: int | CardSet | Iterable[int]) -> list[str]:
    """Cards as text, highest first (spades, hearts, diamonds, clubs; ace down to two).

    >>> card_list(CardSet.from_str("2C AS TH"))
    ['AS', 'TH', '2C']
    """
    if isinstance(mask, CardSet):
        mask = mask.mask
    cards = [c for c in range(52) if mask >> c & 1] if isinstance(mask, int) else list(mask)
    return [str(CARDS[c]) for c in sorted(cards, reverse=True)]


@dataclasses.dataclass(frozen=True)
class TableSettings:
    """A table's options (fixed when it is created).

    Attributes:
        variant: the rules, as :func:`mizerka.rules.parse_variant` reads them.
        visibility: ``public`` tables are listed in the lobby; ``private`` ones are reached by invite link.
        turn_timer: seconds a human has for each decision; when it runs out a bot decides for them.
        hints: players may ask a bot for a hint.
        spectators: spectators may watch.
        reveal: after each deal, everyone at the table sees its deck order and salt (the commitment's proof).
        name: a title for the lobby.
        chat: the seated humans may talk in the table's chat (:mod:`mizerka.server.chat`; each message is stored in
            the database, and a table read back from it gets its last ones).
        rated: the match counts for the players' ratings (:mod:`mizerka.server.players`): every human seat is
            taken by a profile, and nobody gets hints or takes back cards.
    """

    variant: str = "standard"
    visibility: Literal["public", "private"] = "public"
    turn_timer: float | None = None
    hints: bool = True
    spectators: bool = True
    reveal: bool = True
    name: str = ""
    chat: bool = True
    rated: bool = False

    def __post_init__(self) -> None:
        if self.rated and self.hints:
            raise TableError("bad_options", "a rated table gives no hints: set hints off (or the table unrated)")

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableSettings:
        return cls(**data)

    def rules(self) -> Rules:
        """The rules.

        Raises:
            TableError: ``bad_variant`` naming the problem.
        """
        try:
            return parse_variant(self.variant)
        except RulesError as error:
            raise TableError("bad_variant", str(error)) from None


@dataclasses.dataclass
class SeatState:
    """One seat.  A human seat is *open* until someone joins it; a bot may stand in for its human.

    ``player`` is the id of the profile that took the seat (:mod:`mizerka.server.players`), ``None`` for an
    anonymous player.  It stays when its player gives the seat up during the match: the result is his.
    """

    kind: Literal["human", "bot"]
    level: str = STANDIN_LEVEL
    name: str | None = None
    token_hash: str | None = None
    standin: bool = False
    player: str | None = None
    since_deal: int = 0  # the deal from which its player plays the seat, having taken it over; 0: from the start
    left: bool = False  # its player gave it up after the match: nobody plays it, nobody may take it

    @classmethod
    def human(cls) -> SeatState:
        return cls("human")

    @classmethod
    def bot(cls, level: str) -> SeatState:
        if level not in BOT_LEVELS:
            raise TableError("bad_bot", f"unknown bot level {level!r} (expected one of: {', '.join(BOT_LEVELS)})")
        return cls("bot", level=level)

    @property
    def is_open(self) -> bool:
        return self.kind == "human" and self.token_hash is None and not self.standin and not self.left

    @property
    def bot_plays(self) -> bool:
        """Whether a bot makes this seat's decisions now."""
        return self.kind == "bot" or self.standin

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SeatState:
        return cls(**data)


def check_seats(rules: Rules, settings: TableSettings, seats: Sequence[SeatState]) -> None:
    """Check that *seats* may sit at a table of *rules* and *settings*: what :meth:`Table.new` asks of a new table's
    seats, and :meth:`Table.fill` of the seats a fill would leave (a fill obeys the rules of making the table so).

    Raises:
        TableError: ``bad_seats``: another number of seats than the variant has, or a rated table of bots alone.
    """
    if len(seats) != rules.n_seats:
        raise TableError("bad_seats", f"variant {rules.name!r} seats {rules.n_seats} players, not {len(seats)}")
    if settings.rated and not any(s.kind == "human" for s in seats):
        raise TableError("bad_seats", "a rated table needs a human seat: the computer players alone are not "
                                      "rated (their ratings are the fixed points of the leaderboard)")


@dataclasses.dataclass(frozen=True)
class Event:
    """One numbered event of a table's journal."""

    seq: int
    kind: str
    deal_no: int
    public: dict[str, Any]
    private: dict[int, dict[str, Any]] = dataclasses.field(default_factory=dict)
    server: dict[str, Any] = dataclasses.field(default_factory=dict)

    def render(self, seat: int | None) -> dict[str, Any]:
        """The event as *seat* (``None``: a spectator) receives it."""
        body: dict[str, Any] = {"kind": self.kind, "deal_no": self.deal_no, **self.public}
        if seat is not None and seat in self.private:
            body.update(self.private[seat])
        return body

    def to_json(self) -> dict[str, Any]:
        return {"public": self.public, "private": {str(k): v for k, v in self.private.items()}, "server": self.server}

    @classmethod
    def from_json(cls, seq: int, kind: str, deal_no: int, data: dict[str, Any]) -> Event:
        private = {int(k): v for k, v in data.get("private", {}).items()}
        return cls(seq, kind, deal_no, data.get("public", {}), private, data.get("server", {}))


@dataclasses.dataclass(frozen=True)
class Undone:
    """What :meth:`Table.undo` did: the journal lost every event after ``after`` (an event number), gained
    ``events`` (seat events that stood among the removed ones, numbered anew), and the match lost ``taken``
    (``(seat, action)`` pairs in playing order, the human's card first)."""

    after: int
    events: list[Event]
    taken: list[tuple[int, Action]]

    def public(self, seat: int) -> dict[str, Any]:
        """The protocol's ``undone`` field (docs/protocol.md): who took back, and the cards taken back in playing
        order.  Every one of them was played face up, so this is the same for every recipient."""
        return {"seat": seat, "actions": [{"seat": s, "action": str(a)} for s, a in self.taken]}


class Table:
    """One table: settings, seats, deck orders with their commitments, the match and its events.

    Build a new one with :meth:`new`; rebuild a stored one with :meth:`replay`.
    """

    def __init__(
        self,
        table_id: str,
        settings: TableSettings,
        seats: Sequence[SeatState],
        *,
        first_dealer: int,
        decks: Sequence[Sequence[int]],
        salts: Sequence[str],
        parent: str | None = None,
    ) -> None:
        self.id = table_id
        self.settings = settings
        self.rules = settings.rules()
        if len(seats) != self.rules.n_seats:
            raise TableError("bad_seats", f"variant {self.rules.name!r} seats {self.rules.n_seats} players, "
                                          f"not {len(seats)}")
        self.seats = [dataclasses.replace(s) for s in seats]
        self.initial_seats = [dataclasses.replace(s) for s in seats]
        self.first_dealer = first_dealer
        self.decks = [tuple(d) for d in decks]
        self.salts = list(salts)
        self.commits = [commit(d, s) for d, s in zip(self.decks, self.salts, strict=True)]
        self.parent = parent
        self.status: Status = "waiting"
        self.match: Match | None = None
        self.events: list[Event] = []
        self.rematch_votes: set[int] = set()
        self.rematch_table: str | None = None
        self.dd: dict[int, dict[str, Any] | None] = {}  # deal number → double-dummy values (not journaled)
        self.dd_reason: dict[int, str] = {}  # deal number → why it has no values (the dd message's reason)
        self.seat_version = 0  # counts seat changes, so that views can keep the players' part until the next one
        # The journal's epoch: how many times an undo has cut it (:meth:`undo`).  An undo gives the numbers of the
        # removed events again, so a number alone no longer names one event for good: (epoch, number) does.  A
        # client tells the epoch it saw with its ``last_seq`` (hello, sync), and one from another epoch is refused
        # (``bad_seq``) instead of being sent events that do not follow what it had.  Kept in the row's summary
        # (:mod:`mizerka.server.db`), so that a restart keeps it.
        self.epoch = 0
        self.view_cache: dict[str, tuple[Any, Any]] = {}  # part of a view → (what it depends on, the part)

    @classmethod
    def new(
        cls,
        table_id: str,
        settings: TableSettings,
        seats: Sequence[SeatState],
        *,
        seed: int | None = None,
        parent: str | None = None,
    ) -> Table:
        """A fresh table with shuffled deck orders and salts (from *seed*, or unpredictable without one)."""
        rules = settings.rules()
        rng: random.Random = random.Random(seed) if seed is not None else random.SystemRandom()
        decks = []
        for _ in range(rules.n_deals):
            deck = list(range(52))
            rng.shuffle(deck)
            decks.append(deck)
        salts = [new_salt(rng if seed is not None else None) for _ in decks]
        first = rules.first_dealer if rules.first_dealer is not None else rng.randrange(rules.n_seats)
        check_seats(rules, settings, seats)
        return cls(table_id, settings, seats, first_dealer=first, decks=decks, salts=salts, parent=parent)

    # -- state --------------------------------------------------------------------------------------

    @property
    def seq(self) -> int:
        """The number of the last event (0 before the first)."""
        return len(self.events)

    @property
    def deal_no(self) -> int:
        return self.match.deal_no if self.match is not None else 0

    @property
    def to_move(self) -> int | None:
        """The seat to act, or ``None`` when nobody is (waiting, finished, abandoned)."""
        if self.status != "playing" or self.match is None:
            return None
        return self.match.to_move

    def bot_to_move(self) -> int | None:
        """The seat to act if a bot plays it, else ``None``."""
        seat = self.to_move
        return seat if seat is not None and self.seats[seat].bot_plays else None

    def player_names(self) -> list[str]:
        """Display names, made distinct as a match needs them, and so that nobody passes for another player (in the
        chat, say): a later seat's name that reads as one already taken gets a number.  Names are compared as
        profiles' are (:func:`~mizerka.server.players.name_key`): ignoring case, spacing and the form of the
        characters, so that "Zoë" written with a combining diaeresis, or "Ａｌａ" in full-width letters, does not
        pass for "Zoë" or "Ala".

        >>> table = Table.new("t4", TableSettings(), [SeatState.human(), SeatState.human(), SeatState.human()])
        >>> for name, key in [("Zo\u00eb", "a"), ("Zoe\u0308", "b"), ("Ala", "c")]:
        ...     _ = table.join(name, token_hash=key)
        >>> print(ascii(table.player_names()))
        ['Zo\\xeb', 'Zoe\\u0308 (2)', 'Ala']
        """
        from mizerka.server.players import name_key  # (players imports this module)

        names: list[str] = []
        for index, seat in enumerate(self.seats):
            base = seat.name if seat.name else default_name(index)
            name, k = base, 2
            while name_key(name) in {name_key(taken) for taken in names}:
                name, k = f"{base} ({k})", k + 1
            names.append(name)
        return names

    def default_named(self, names: Sequence[str] | None = None) -> list[int]:
        """The seats whose name is the server's own (:func:`default_name`: a bot's seat nobody named), not made
        distinct from a player's (who chose "Bot 2" keeps it, and the bot's seat is "Bot 2 (2)"): a client may write
        these names in its own language.  *names*: :meth:`player_names`, when the caller has them.

        >>> table = Table.new("t5", TableSettings(), [SeatState.human(), SeatState.bot("random"),
        ...                                           SeatState.bot("random")])
        >>> _ = table.join("Bot 3", token_hash="a")
        >>> table.player_names(), table.default_named()
        (['Bot 3', 'Bot 2', 'Bot 3 (2)'], [1])
        """
        names = self.player_names() if names is None else names
        return [index for index, seat in enumerate(self.seats)
                if seat.kind == "bot" and not seat.name and names[index] == default_name(index)]

    def seat_of_token(self, token_hash: str) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, token_hash):
                return index
        return None

    # -- changes ------------------------------------------------------------------------------------

    def _emit(
        self,
        kind: str,
        public: dict[str, Any],
        private: dict[int, dict[str, Any]] | None = None,
        server: dict[str, Any] | None = None,
        deal_no: int | None = None,
    ) -> Event:
        number = self.deal_no if deal_no is None else deal_no
        event = Event(self.seq + 1, kind, number, public, private or {}, server or {})
        self.events.append(event)
        return event

    def _seat_event(self, seat: int) -> Event:
        state = self.seats[seat]
        self.seat_version += 1
        return self._emit(
            "seat",
            {"seat": seat, "name": state.name, "seat_kind": state.kind, "bot": state.level if state.bot_plays else None,
             "standin": state.standin, "open": state.is_open, "registered": state.player is not None,
             "since_deal": state.since_deal, "left": state.left},
            server={"state": state.to_json()},
        )

    def check_profile(self, player: str | None) -> None:
        """Raise ``profile_needed`` when a seat would be taken here without a profile (*player* ``None``) at a rated
        table."""
        if player is None and self.settings.rated:
            raise TableError("profile_needed", "this table is rated: only a player with a profile may take a seat "
                                               "(claim a name first, and send its player key)")

    def can_take_over(self, seat: int) -> bool:
        """Whether a human may take *seat* over from the computer now: during the match of an unrated table, a
        seat a bot plays for good, because it was a bot's seat from the start (made so, or filled when the match
        began) or because its human gave it up.  A seat whose human is only away (his stand-in plays while he
        still holds its token) is his, and a rated match's seats keep the results of those who sat there: nobody
        takes those over.

        >>> table = Table.new("t2", TableSettings(), [SeatState.human(), SeatState.bot("rules"),
        ...                                           SeatState.bot("random")], seed=5)
        >>> table.can_take_over(1)              # the match has not begun: the seat is the bot's
        False
        >>> _ = table.join("Ala", token_hash="h")
        >>> [table.can_take_over(seat) for seat in range(3)]
        [False, True, True]
        """
        state = self.seats[seat]
        return (self.status == "playing" and not self.settings.rated and state.bot_plays
                and state.token_hash is None)

    def profile_seats_this_deal(self, player: str) -> set[int]:
        """The seats the profile *player* held during the current deal, so saw the cards of (read from the
        journal's ``seat`` events of this deal: a seat it gave up, even one someone took over since, is there; one
        it has held since an earlier deal with no event since is its own still, or was given up in an earlier
        deal, whose cards are no longer in play)."""
        if self.match is None:
            return set()
        seats: set[int] = set()
        for event in reversed(self.events):
            if event.deal_no != self.match.deal_no:
                break
            if event.kind == "seat" and event.server.get("state", {}).get("player") == player:
                seats.add(int(event.public["seat"]))
        return seats

    def takeovers(self) -> list[tuple[int, int, str]]:
        """Who took a seat over from the computer during the match, in the order they did: ``(seat, deal, name)``,
        *deal* being the first deal he played in it (read from the journal's ``seat`` events, so a seat taken over
        twice, its first newcomer having given it up, names both).

        >>> table = Table.new("t3", TableSettings(), [SeatState.human(), SeatState.bot("rules"),
        ...                                           SeatState.bot("random")], seed=5)
        >>> _ = table.join("Ala", token_hash="a")
        >>> _ = table.join("Bolek", token_hash="b", seat=2)
        >>> table.takeovers()
        [(2, 1, 'Bolek')]
        """
        found: dict[tuple[int, int], str] = {}
        for event in self.events:
            since = event.public.get("since_deal", 0) if event.kind == "seat" else 0
            if since and event.public.get("name"):
                found.setdefault((int(event.public["seat"]), int(since)), str(event.public["name"]))
        return [(seat, deal, name) for (seat, deal), name in found.items()]

    def join(
        self, name: str, *, token_hash: str, seat: int | None = None, player: str | None = None
    ) -> tuple[int, list[Event]]:
        """Seat a human on *seat* (or the first open seat, or during the match the first seat he may take over
        from the computer: :meth:`can_take_over`), for the profile *player* if one is given.  The match starts
        when no seat is open.

        A seat taken over becomes a human seat for the rest of the match; the bot that played it stands in while
        its new player is away.  The match's record keeps the names the match began with.

        Raises:
            TableError: ``bad_seat``, ``seat_taken``, ``table_full``, ``match_over``, ``profile_needed`` (a rated
                table and no profile), ``already_seated`` (the profile holds a seat here already) or
                ``held_another_seat`` (the profile gave up another seat during this deal, whose cards it has seen:
                two hands of one deal are never one player's; a guest who leaves cannot be told from a newcomer).
        """
        if self.status in ("finished", "abandoned"):
            raise TableError("match_over", "the match at this table is over")
        self.check_profile(player)
        if player is not None:
            held = next((i for i, s in enumerate(self.seats) if s.player == player and s.token_hash is not None),
                        None)
            if held is not None:
                raise TableError("already_seated", f"this profile holds seat {held} at this table already")
        played = self.profile_seats_this_deal(player) if player is not None else set()
        if seat is None:
            seat = next((i for i, s in enumerate(self.seats) if s.is_open), None)
            if seat is None:  # a seat to take over: first the one the profile played this deal, if it may
                seat = next((i for i in sorted(played) + list(range(len(self.seats))) if self.can_take_over(i)),
                            None)
            if seat is None:
                raise TableError("table_full", "no human seat is free at this table")
        if not 0 <= seat < len(self.seats):
            shown = str(seat) if abs(seat) < 10**12 else f"{str(seat)[:12]}…"  # not thousands of digits back
            raise TableError("bad_seat", f"seat must be 0-{len(self.seats) - 1}, not {shown}")
        if played - {seat}:
            raise TableError("held_another_seat", f"this profile played seat {min(played - {seat})} in this deal "
                                                  "and has seen its cards: take that seat back, or another one from "
                                                  "the next deal")
        state = self.seats[seat]
        if self.can_take_over(seat):
            state.kind = "human"  # for the rest of the match: the bot of its level stands in while he is away
            assert self.match is not None
            state.since_deal = self.match.deal_no  # he plays on with the seat's total, which the views say
        elif state.kind != "human":
            raise TableError("seat_taken", f"seat {seat} is a bot's seat" + (
                " (a rated match's seats are not taken over)" if self.status == "playing" else ""))
        elif state.token_hash is not None:
            raise TableError("seat_taken", f"seat {seat} is taken")
        elif not state.is_open:  # given up during a rated match: its result stays its player's
            raise TableError("seat_taken", f"seat {seat} was given up to a bot for the rest of the rated match")
        state.name = name
        state.token_hash = token_hash
        state.standin = False
        state.player = player
        events = [self._seat_event(seat)]
        if self.status == "waiting" and not any(s.is_open for s in self.seats):
            events.extend(self._start())
        return seat, events

    def fill(self, seat: int | None, level: str, present: Collection[int] = ()) -> list[Event]:
        """*seat*'s human starts the match now: every open seat becomes a seat of a bot of *level* for good (one
        ``seat`` event each), and the match starts (``start``, ``deal``) as when the last human joins.  The seats
        are checked as a new table's would be (:func:`check_seats`): the table is then as if it had been made with
        those bots, a table that admits an ``undo`` included when every other seat is a bot's.

        A bot level is checked after the table's state (an action's content is read after whose turn it is), and
        an unknown one is named, cut to 40 characters (a message of a few kilobytes is not echoed back whole).

        At a rated table every other seated human must be *present* (the seats with a connection): a rated match
        is not started for a player who is away, whose stand-in would then play it and be rated.

        Raises:
            TableError: ``no_seat`` (*seat* ``None``: a spectator), ``match_over`` (finished or closed),
                ``already_started`` (the match is being played: its seats are no longer open), ``bad_bot`` (a level
                the server does not offer), ``players_away`` (a rated table, another seated player not
                connected), ``bad_seats`` (refused by :func:`check_seats`); nothing changes then.
        """
        if seat is None:
            raise TableError("no_seat", "spectators cannot fill the open seats: take a seat first")
        if self.status in ("finished", "abandoned"):
            raise TableError("match_over", "the match at this table is over")
        if self.status != "waiting":
            raise TableError("already_started", "the match has started already: no seat is open to fill")
        if level not in BOT_LEVELS:
            shown = level if len(level) <= 40 else level[:40] + "…"
            raise TableError("bad_bot", f"unknown bot level {shown!r} (expected one of: {', '.join(BOT_LEVELS)})")
        away = [i for i, s in enumerate(self.seats)
                if i != seat and s.kind == "human" and not s.is_open and i not in present]
        if self.settings.rated and away:
            seats_text = ", ".join(str(i) for i in away)
            raise TableError("players_away", f"a rated match starts only with every seated player at the table: "
                                             f"seat{'s' if len(away) != 1 else ''} {seats_text} "
                                             f"{'are' if len(away) != 1 else 'is'} away")
        seats = [SeatState.bot(level) if s.is_open else s for s in self.seats]
        check_seats(self.rules, self.settings, seats)
        events: list[Event] = []
        for index, state in enumerate(seats):
            if state is not self.seats[index]:
                self.seats[index] = state
                events.append(self._seat_event(index))
        return events + self.maybe_start()

    def maybe_start(self) -> list[Event]:
        """Start the match if it is waiting and no seat is open (a table created full, such as a rematch)."""
        if self.status == "waiting" and not any(s.is_open for s in self.seats):
            return self._start()
        return []

    def _start(self) -> list[Event]:
        names = self.player_names()
        self.match = Match(self.rules, players=names, first_dealer=self.first_dealer, decks=self.decks)
        self.status = "playing"
        return [self._emit("start", {"players": names, "first_dealer": self.first_dealer}), self._deal_event()]

    def _deal_event(self) -> Event:
        assert self.match is not None
        deal = self.match.deal
        return self._emit(
            "deal",
            {"dealer": deal.dealer, "forehand": deal.forehand, "active_seats": list(deal.active_seats),
             "commitment": self.commits[self.match.deal_no - 1]},
        )

    def leave(self, seat: int) -> list[Event]:
        """The human at *seat* gives it up.  Before the start the seat opens again; during the match a bot plays it;
        after the match it keeps its player's name and result, marked as left (no bot stands in for him then: there
        is nothing left to play)."""
        state = self.seats[seat]
        if state.kind != "human" or state.token_hash is None:
            raise TableError("no_seat", f"seat {seat} has no human to leave")
        state.token_hash = None
        if self.status == "waiting":
            state.name = None
            state.standin = False
            state.player = None
        elif self.status == "playing":
            state.standin = True
        else:
            state.left = True
        self.rematch_votes.discard(seat)
        return [self._seat_event(seat)]

    def set_standin(self, seat: int, on: bool) -> list[Event]:
        """A bot starts (or stops) playing for the human at *seat*; nothing happens if that is so already."""
        state = self.seats[seat]
        if state.kind != "human" or state.standin == on or (not on and state.token_hash is None):
            return []
        state.standin = on
        return [self._seat_event(seat)]

    def check_last_seq(self, last_seq: int | None, epoch: int | None) -> None:
        """Check a client's ``last_seq`` (a hello's or a sync's) and the journal *epoch* it was seen in.

        Raises:
            TableError: ``bad_seq`` when *last_seq* is past the table's last event, or when *epoch* is given and
                is not the table's (an undo cut the journal since: the events after the cut that the client saw
                are gone, and the numbers it would be sent next name other events).  Without *epoch* (an older
                client) the number alone is checked.
        """
        if last_seq is None:
            return
        if last_seq > self.seq:
            raise TableError("bad_seq", f"event {last_seq} has not happened (the last is {self.seq})")
        if epoch is not None and epoch != self.epoch:
            raise TableError("bad_seq", f"the events seen in journal epoch {epoch} are not this table's any more "
                                        f"(an undo cut its journal; the epoch is {self.epoch}): start afresh, "
                                        f"without last_seq")

    def check_turn(self, seat: int | None, seq: int | None = None) -> None:
        """Raise the error an action by *seat* would get before its content is looked at."""
        if seat is None:
            raise TableError("no_seat", "spectators cannot act")
        if self.status == "waiting":
            raise TableError("not_started", "the match starts when every seat is taken")
        if self.status != "playing" or self.match is None:
            raise TableError("match_over", "the match is over")
        if seq is not None:
            if seq > self.seq:
                raise TableError("bad_seq", f"event {seq} has not happened (the last is {self.seq})")
            if seq < self.seq:
                raise TableError("stale_seq", f"events up to {self.seq} happened since event {seq}; sync first")
        if self.match.to_move != seat:
            raise TableError("not_your_turn", f"seat {self.match.to_move} is to act, not seat {seat}")

    def parse(self, seat: int | None, text: str, seq: int | None = None) -> Action:
        """Check that *seat* may act now and read *text* as an action that is legal now.

        Raises:
            TableError: ``no_seat``, ``not_started``, ``match_over``, ``bad_seq``, ``stale_seq``,
                ``not_your_turn``, ``invalid_action`` or ``illegal_action``; nothing changes.
        """
        self.check_turn(seat, seq)
        assert self.match is not None
        deal = self.match.deal
        try:
            action = deal.parse_action(text)
            deal.check(action)
        except InvalidActionError as error:
            raise TableError("invalid_action", str(error)) from None
        except IllegalActionError as error:
            led = deal.trick[0] // 13 if deal.trick else None
            raise TableError("illegal_action", str(error), reason_code(str(error), led)) from None
        return action

    def act(self, seat: int, action: Action, *, auto: bool = False) -> list[Event]:
        """Apply a legal action of *seat* (check it with :meth:`parse` first) and return the events."""
        match = self.match
        assert match is not None and self.status == "playing" and match.to_move == seat
        deal = match.deal
        deal_no = match.deal_no
        public: dict[str, Any] = {"actor": seat, "auto": auto}
        private: dict[int, dict[str, Any]] = {}
        trick_before = len(deal.tricks)
        if isinstance(action, Play):
            public.update(action_kind="play", action=str(action), card=str(action.card))
        elif isinstance(action, Choose):
            public.update(action_kind="choose", action=str(action.contract), contract=str(action.contract))
        else:
            count = len(action.discards)
            public.update(action_kind="exchange", action=f"exchange {count}", count=count)
        match.push(action)
        if isinstance(action, Exchange):
            obs = deal.observation(seat)  # the actor's own view: its discards and the cards it drew
            private[seat] = {"discards": card_list(obs.discards), "drawn": card_list(obs.drawn)}
        if len(deal.tricks) > trick_before:
            trick = deal.tricks[-1]
            order = deal.active_seats
            start = order.index(trick.leader)
            public["trick"] = {"leader": trick.leader, "cards": [str(CARDS[c]) for c in trick.cards],
                               "seats": [order[(start + i) % 3] for i in range(3)], "winner": trick.winner}
        events = [self._emit("action", public, private, server={"code": action.code}, deal_no=deal_no)]
        if deal.phase is Phase.DONE:
            events.append(self._deal_end(deal_no))
            if match.is_over():
                self.status = "finished"
                outcome = match.outcome()
                events.append(self._emit("match_end", {"totals": list(outcome.totals),
                                                       "winners": list(outcome.winners)}))
            else:
                events.append(self._deal_event())
        return events

    def _deal_end(self, deal_no: int) -> Event:
        assert self.match is not None
        deal = self.match.deals[deal_no - 1]
        public: dict[str, Any] = {
            "contract": str(deal.contract), "chooser": deal.forehand, "tricks": list(deal.tricks_won),
            "scores": deal.scores(), "totals": self.match.totals,
        }
        if self.settings.reveal:  # the deal is over: its cards are no secret any more
            public["reveal"] = {
                "deck": [str(CARDS[c]) for c in self.decks[deal_no - 1]],
                "salt": self.salts[deal_no - 1],
                "commitment": self.commits[deal_no - 1],
                "dealt": {str(s): card_list(deal.dealt[s]) for s in deal.active_seats},
                "discards": {str(s): card_list(deal.dead[s]) for s in deal.active_seats},
                "drawn": {str(s): card_list(deal.drawn[s]) for s in deal.active_seats},
            }
        return self._emit("deal_end", public, deal_no=deal_no)

    # -- undo ---------------------------------------------------------------------------------------

    def undo_allowed(self, seat: int | None) -> bool:
        """Whether *seat* may ever take back cards here: a seated human (holding his seat's token) at a table whose
        every other seat is a bot's.  A human seat played by a stand-in or given up is not a bot's seat, so a table
        created for two humans never qualifies, whoever plays its seats now.  Nobody takes back at a rated table."""
        if seat is None or not 0 <= seat < len(self.seats) or self.settings.rated:
            return False
        own = self.seats[seat]
        return (own.kind == "human" and own.token_hash is not None
                and all(s.kind == "bot" for i, s in enumerate(self.seats) if i != seat))

    def can_undo(self, seat: int | None) -> bool:
        """Whether an :meth:`undo` by *seat* would take something back now (the view's ``can_undo``)."""
        if self.status != "playing" or self.match is None or not self.undo_allowed(seat):
            return False
        assert seat is not None
        try:
            undo_span(self.match, seat)
        except UndoError:
            return False
        return True

    def undo(self, seat: int | None) -> Undone:
        """Take back the human's last card of the deal in progress and every action after it
        (:func:`mizerka.undo.take_back`, the rule every front end applies), and cut the journal to match: every
        event from that card's ``action`` event on is removed, so that replaying the journal gives the match as it
        is now.  A ``seat`` event among the removed ones (a stand-in came or went meanwhile) is emitted again
        after the cut, so that the seats stay as they are.  The numbers of the removed events will be given again
        to the events that follow: a client learns of the undo from a fresh snapshot (the hub sends one).

        Raises:
            TableError: ``undo_not_allowed`` (a spectator, a table with another human), ``not_started``, or
                ``undo_refused`` with :class:`~mizerka.undo.UndoError`'s message; nothing changes then.
        """
        if seat is None:
            raise TableError("undo_not_allowed", "spectators cannot take anything back")
        if self.settings.rated:
            raise TableError("undo_not_allowed", "nobody takes back cards at a rated table")
        if not self.undo_allowed(seat):
            raise TableError("undo_not_allowed", "cards can be taken back only at a table where every other seat "
                                                 "is a computer player")
        if self.status == "waiting" or self.match is None:
            raise TableError("not_started", "the match starts when every seat is taken")
        if self.status != "playing":
            raise TableError("undo_refused", "the match is over: nothing can be taken back")
        try:
            span = undo_span(self.match, seat)
        except UndoError as error:
            raise TableError("undo_refused", str(error)) from None
        cut, actions = len(self.events), 0
        while actions < span:  # back to the action event of the human's card, over any seat events between
            cut -= 1
            kind = self.events[cut].kind
            if kind == "action":
                actions += 1
            elif kind != "seat":  # undo_span never crosses a deal's end, so this cannot be: refuse all the same
                raise TableError("undo_refused", f"the journal has a {kind} event where an action was expected")
        removed = self.events[cut:]
        taken = take_back(self.match, seat)
        del self.events[cut:]
        self.epoch += 1  # the numbers past the cut will name other events
        events = [self._emit("seat", dict(e.public), server=dict(e.server)) for e in removed if e.kind == "seat"]
        return Undone(cut, events, taken)

    def vote_rematch(self, seat: int) -> bool:
        """Record *seat*'s wish for a rematch; ``True`` once every seated human has asked.

        Raises:
            TableError: ``not_over`` before the end of the match; ``no_seat`` for anything but a seat of the table
                (a spectator's wish would break the sorted list every view gives).
        """
        if self.status != "finished":
            raise TableError("not_over", "a rematch can be asked for once the match is over")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(self.seats):
            raise TableError("no_seat", "only a seated player can ask for a rematch")
        self.rematch_votes.add(seat)
        return self.rematch_ready()

    def rematch_ready(self) -> bool:
        """Whether a rematch is to be made now: asked for, by every human still seated, and not made yet."""
        humans = {i for i, s in enumerate(self.seats) if s.kind == "human" and s.token_hash is not None}
        return (self.status == "finished" and bool(self.rematch_votes & humans) and humans <= self.rematch_votes
                and self.rematch_table is None)

    def rematch_waiting(self) -> list[int]:
        """The seated humans who have not asked for a rematch yet (empty once the rematch table is made)."""
        if self.rematch_table is not None:
            return []
        return [i for i, s in enumerate(self.seats)
                if s.kind == "human" and s.token_hash is not None and i not in self.rematch_votes]

    def rematch_event(self, new_table: str) -> list[Event]:
        self.rematch_table = new_table
        return [self._emit("rematch", {"table": new_table}, server={"table": new_table})]

    def close(self, reason: str) -> list[Event]:
        """Close an abandoned table."""
        self.status = "abandoned"
        return [self._emit("closed", {"reason": reason})]

    # -- storage ------------------------------------------------------------------------------------

    def replay(self, events: Iterable[Event]) -> None:
        """Apply stored events in order, rebuilding the state they describe.

        Raises:
            TableError: ``corrupt`` if the journal does not fit the table.
        """
        for stored in events:
            if stored.seq != self.seq + 1:
                raise TableError("corrupt", f"table {self.id}: event {stored.seq} follows event {self.seq}")
            kind = stored.kind
            if kind == "seat":
                seat = int(stored.public["seat"])
                self.seats[seat] = SeatState.from_json(stored.server["state"])
                self.seat_version += 1
                self.events.append(stored)
            elif kind == "start":
                names = list(stored.public["players"])
                self.match = Match(self.rules, players=names, first_dealer=self.first_dealer, decks=self.decks)
                self.status = "playing"
                self.events.append(stored)
            elif kind == "action":
                if self.match is None:
                    raise TableError("corrupt", f"table {self.id}: an action before the start")
                self.match.push(action_from_code(int(stored.server["code"])))
                self.events.append(stored)
                if self.match.is_over():
                    self.status = "finished"
            elif kind == "rematch":
                self.rematch_table = str(stored.server["table"])
                self.events.append(stored)
            elif kind == "closed":
                self.status = "abandoned"
                self.events.append(stored)
            else:  # deal, deal_end, match_end: consequences of actions, kept for their numbers
                self.events.append(stored)

    def to_row(self) -> dict[str, Any]:
        """The table's stored columns (the journal is stored apart, event by event)."""
        return {
            "id": self.id,
            "status": self.status,
            "visibility": self.settings.visibility,
            "variant": self.rules.spec(),
            "settings": self.settings.to_json(),
            "seats": [s.to_json() for s in self.seats],
            "initial_seats": [s.to_json() for s in self.initial_seats],
            "first_dealer": self.first_dealer,
            "decks": [list(d) for d in self.decks],
            "salts": self.salts,
            "parent": self.parent,
            "seq": self.seq,
        }

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Table:
        """A table from its stored columns, before its journal is replayed (seats as they were at creation)."""
        table = cls(
            row["id"],
            TableSettings.from_json(row["settings"]),
            [SeatState.from_json(s) for s in row["initial_seats"]],
            first_dealer=row["first_dealer"],
            decks=row["decks"],
            salts=row["salts"],
            parent=row.get("parent"),
        )
        summary = row.get("summary")
        table.epoch = int(summary.get("epoch", 0)) if isinstance(summary, dict) else 0  # no key: never undone
        return table
