"""Helpers shared by the tests of the terminal games: the full-screen game (an app made for a test, its screen and
log as text, waiting for it), the line game (scripted answers, computer players that keep) and the terminal client of
a server (waiting for a condition)."""

from __future__ import annotations

import contextlib
import io
import json
import threading
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from rich.console import Console

from mizerka.cards import CARDS
from mizerka.deal import KEEP, Exchange, Observation, Phase
from mizerka.match import Match
from mizerka.rules import parse_variant
from mizerka.terminal import TerminalGame

if TYPE_CHECKING:
    from websockets.sync.server import ServerConnection

    from mizerka.tui.app import MizerkaApp
    from mizerka.tui.remote import RemoteTable


def screen_text(app: Any) -> str:
    """The screen as plain text (what a snapshot compares): rendered by Textual's compositor, styles dropped."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), record=True, force_terminal=True,
                      color_system="truecolor", legacy_windows=False, safe_box=False)
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return "\n".join(line.rstrip() for line in console.export_text().splitlines())


def logged(app: Any) -> str:
    """The game log's lines as plain text."""
    from textual.widgets import RichLog

    return "\n".join(str(line.text) for line in app.query_one("#log", RichLog).lines)


def first_legal_answer(match: Match, seat: int) -> str:
    """What a tidy human would type: the first unused contract, discard the two lowest cards, the first legal card."""
    obs = match.observation(seat)
    if obs.phase is Phase.CHOOSE:
        return str(obs.legal_actions[0])
    if obs.phase is Phase.EXCHANGE:
        lowest = sorted(obs.hand, key=lambda c: c % 13)[: min(2, obs.talon_size)]
        return " ".join(str(CARDS[c]) for c in lowest) or "-"
    return str(obs.legal_actions[0])


def scripted_answers(match: Match, seat: int, levels: list[str], seed: int,
                     stop_in_deal: int | None = None) -> list[str]:
    """Play *match* in the line game's loop, the human at *seat* answering as :func:`first_legal_answer` against
    the computer players ``mizerka play`` makes from *levels* and *seed*; return the answers given: to the end of
    the match, or up to deal *stop_in_deal*'s first question after its contract.  ``mizerka play`` given the same
    answers plays the same match."""
    from mizerka.terminal import make_opponents

    answers: list[str] = []

    class Stop(Exception):
        pass

    def read_answer(prompt: str) -> str:
        if stop_in_deal is not None and match.deal_no == stop_in_deal and match.deal.contract is not None:
            raise Stop
        answers.append(first_legal_answer(match, seat))
        return answers[-1]

    others = [s for s in range(match.rules.n_seats) if s != seat]
    game = TerminalGame(match, seat, make_opponents(levels, others, seed, match.rules), read=read_answer,
                        write=lambda text: None)
    with contextlib.suppress(Stop):
        game.run()
    return answers


def match_in_play_of_deal_2(variant: str = "standard,contracts=NT+MZ,first_dealer=2") -> Match:
    """A match of You, Ala and Bolek (seed 3) with deal 1 finished (so it can be reviewed) and deal 2 at the
    human's (seat 0's) first card."""
    match = Match(parse_variant(variant), players=["You", "Ala", "Bolek"], seed=3)
    while not (match.deal_no == 2 and match.deal.phase is Phase.PLAY and match.to_move == 0):
        match.play(match.deal.forced_action() or next(iter(match.legal_actions)))
    return match


async def pause_until(pilot: Any, ready: Callable[[], object], *, tries: int = 100, pause: float | None = 0.05) -> None:
    """Let the app run, a pause of *pause* seconds at a time (None: one turn of its message loop), until *ready()*
    is true or *tries* pauses have passed; the caller then asserts what it waited for, so a wait that ran out
    fails there, with the state that was reached."""
    for _ in range(tries):
        await pilot.pause(pause)
        if ready():
            return


def make_app(variant: str = "standard,first_dealer=2", seed: int = 3) -> MizerkaApp:
    """The full-screen game of ``mizerka play`` (seat 0, named You, against random players without delay); in the
    default variant seat 0 is forehand in deal 1."""
    from mizerka.tui.command import build_app

    return build_app(seed=seed, rules=parse_variant(variant), seat=0, name="You", opponents="random", bot_delay=0)


async def to_first_card(app: MizerkaApp, pilot: object, contract_key: str = "n") -> None:
    """Choose a contract, keep the hand, and wait for the human's first card."""
    from textual.pilot import Pilot

    from mizerka.tui.app import ContractDialog, ExchangeDialog

    assert isinstance(pilot, Pilot)
    for _ in range(100):
        await pilot.pause()
        if isinstance(app.screen, ContractDialog):
            await pilot.press(contract_key)
        elif isinstance(app.screen, ExchangeDialog):
            await pilot.press("enter")
        elif app.model.is_human_turn() and app.model.observation().phase is Phase.PLAY:
            return
    raise AssertionError("the human's first card was never asked for")


def notices(app: Any) -> list[str]:
    """The messages of the notifications the app has shown."""
    return [str(n.message) for n in app._notifications]


def keep_all(obs: Observation) -> Exchange:
    """A computer player that keeps its hand (and chooses, or plays, its first legal action)."""
    if obs.phase is Phase.EXCHANGE:
        return KEEP
    return obs.legal_actions[0]  # type: ignore[return-value]


def scripted(match: Match, seat: int, answers: list[str], *, unicode: bool = True) -> tuple[TerminalGame, list[str]]:
    """The line game of *seat* in *match*, answering *answers* in turn (the other seats :func:`keep_all`), and the
    list its lines are written to."""
    out: list[str] = []
    others = {s: keep_all for s in range(match.rules.n_seats) if s != seat}
    game = TerminalGame(match, seat, others, read=lambda prompt: answers.pop(0), write=out.append, unicode=unicode)
    return game, out


def wait_for(done: Callable[[], bool], seconds: float = 20.0, every: Callable[[], object] = lambda: None) -> None:
    """Wait until *done()* is true, calling *every()* between the looks; fail after *seconds*."""
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "not reached in time"
        every()
        time.sleep(0.05)


# -- a fake server: a websocket server on 127.0.0.1 that sends chosen frames (needs websockets) ---------------------

VIEW: dict[str, Any] = {
    "table": "T1", "seat": 0, "status": "waiting", "variant": "standard,contracts=NT", "seq": 1, "n_deals": 3,
    "deal_no": 1, "players": [{"seat": i, "name": n, "kind": "human", "open": False} for i, n in enumerate("ABC")],
    "options": {"chat": True, "hints": False}, "your_turn": False, "roles": {}, "totals": [0, 0, 0], "legal": [],
    "hand": [], "trick": None, "last_trick": None, "phase": "waiting", "dealer": None, "to_move": None,
    "contract": None, "exchange_counts": [None] * 3, "talon_size": 0, "shown_card": None, "hand_sizes": [0] * 3,
    "tricks_won": [0] * 3, "quotas": {}, "tricks_played": 0, "score_sheet": [], "allowed_contracts": [],
    "discards": [], "drawn": [], "deal_scores": None, "used": [[], [], []],
}
"""A waiting table's view, as a fake server sends it."""


@contextlib.contextmanager
def fake_server(handler: Callable[[ServerConnection], None]) -> Iterator[str]:
    """A websocket server on 127.0.0.1 running *handler* for each connection; yields its invite link."""
    from websockets.sync.server import serve

    with serve(handler, "127.0.0.1", 0) as websocket_server:
        threading.Thread(target=websocket_server.serve_forever, daemon=True).start()
        yield f"http://127.0.0.1:{websocket_server.socket.getsockname()[1]}/?table=T1"
        websocket_server.shutdown()


def answering_hello(frames: Callable[[dict[str, Any]], list[Any]]) -> Callable[[ServerConnection], None]:
    """A handler that answers ``hello`` with *frames(hello)* (text as it is, anything else as JSON)."""
    def handler(ws: ServerConnection) -> None:
        for raw in ws:
            message = json.loads(raw)
            if message.get("type") == "hello":
                for frame in frames(message):
                    ws.send(frame if isinstance(frame, str) else json.dumps(frame))
    return handler


def welcome(hello: dict[str, Any], **fields: Any) -> dict[str, Any]:
    """A ``welcome`` answering *hello* with :data:`VIEW`, no events and no chat (unless *fields* say otherwise)."""
    return {"type": "welcome", "id": hello["id"], "seq": 1, "epoch": 0, "view": VIEW, "events": [], "chat": [],
            **fields}


def connected(url: str) -> RemoteTable:
    """A table of the client connected to *url* (a fake server's link) as seat 0."""
    from mizerka.tui.remote import RemoteTable, parse_invite

    table = RemoteTable(parse_invite(url), timeout=5)
    table.seat, table.token = 0, "token"
    table.connect()
    return table
