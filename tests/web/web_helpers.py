"""Driving the browser client the way a person does: clicks (or keys) on what is on the screen.

The tests read the client's own view through ``window.mizerkaDebug.view()`` only to decide what to do next and
what to assert; every action goes through the visible controls.

The deals before the part under test are often played quickly through the protocol
(:func:`play_through_protocol`, ``server_helpers.WS``) with the seat's token; the browser then takes the same seat
(:func:`open_seat`), as a player coming back to the table would.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from server_helpers import WS, ThreadServer

from mizerka.cards import CARDS
from mizerka.server.hub import ServerConfig

VISIBLE_POINT = """e => {
    const r = e.getBoundingClientRect();
    for (let y = r.top + 20; y < r.bottom - 4; y += 6) {
        for (let x = r.left + 4; x < r.right - 4; x += 4) {
            const hit = document.elementFromPoint(x, y);
            if (hit && hit.closest('.card') === e) return [x, y];
        }
    }
    return null;
}"""


def click_card(page: Any, locator: Any, *, tap: bool = False) -> None:
    """Click (or tap) a card of the fanned hand where a person would: on the part of it that is visible.

    The hand is redrawn whenever an event arrives; a card that was replaced or covered while we aimed at it is
    looked up again (the locator is lazy), for up to about a second, as a person would look again.
    """
    point = None
    for attempt in range(20):
        try:
            locator.scroll_into_view_if_needed(timeout=5000)
            point = locator.evaluate(VISIBLE_POINT, timeout=5000)
        except PlaywrightError as error:
            if "not attached" not in str(error) or attempt == 19:
                raise
        if point is not None:
            break
        page.wait_for_timeout(50)  # replaced, or covered for a moment while the hand is redrawn: look again
    assert point is not None, "the card has no visible part to click"
    if tap:
        page.touchscreen.tap(point[0], point[1])
    else:
        page.mouse.click(point[0], point[1])

RANKS_EN = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King", "Ace"]
SUITS_EN = ["clubs", "diamonds", "hearts", "spades"]


def view(page: Any) -> dict[str, Any]:
    """The client's current view (what the server sent to this seat)."""
    result = page.evaluate("() => window.mizerkaDebug ? window.mizerkaDebug.view() : null")
    return result or {}


def wait_for_table(page: Any) -> dict[str, Any]:
    page.wait_for_function("() => window.mizerkaDebug && window.mizerkaDebug.view() !== null")
    return view(page)


def table_of(url: str) -> str | None:
    """The table a page's address names (its ``table`` query parameter), or ``None``."""
    return urllib.parse.parse_qs(urllib.parse.urlsplit(url).query).get("table", [None])[0]


def wait_for_other_table(page: Any, table: str, timeout: float = 10_000) -> str:
    """Wait until the page's address names a table other than *table* (the page moved on, to a rematch) and return
    it.  The address is parsed, not matched: a regular expression ``table=(?!ID\\b)`` took an id ending in "-"
    (no word boundary after it) for another table, and the test then waited for the old table's view (1 run in 64,
    as often as a table id ends in "-")."""
    page.wait_for_url(lambda url: table_of(url) not in (None, table), timeout=timeout)
    new_table = table_of(page.url)
    assert new_table is not None
    return new_table


def wait_for_view_of(page: Any, table: str, timeout: float = 40_000) -> dict[str, Any]:
    """Wait until the page shows *table*'s view; on a timeout, fail with what the page showed instead (its
    connection's states, the table of its last view, the text on screen), so that a failure seen once in a loaded
    CI run says where it stopped."""
    try:
        page.wait_for_function("t => window.mizerkaDebug && window.mizerkaDebug.view() "
                               "&& window.mizerkaDebug.view().table === t", arg=table, timeout=timeout)
    except Exception as error:
        shown = page.evaluate("""() => ({
            url: location.href,
            states: window.mizerkaDebug ? window.mizerkaDebug.states : null,
            socket: window.mizerkaDebug ? window.mizerkaDebug.socket.state : null,
            table: window.mizerkaDebug && window.mizerkaDebug.view() ? window.mizerkaDebug.view().table : null,
            text: document.body.innerText.slice(0, 1500),
        })""")
        raise AssertionError(f"no view of table {table} within {timeout / 1000:.0f} s: {shown}") from error
    return view(page)


def seat_at(new_page: Any, base_url: str, invite: str, name: str, **context: Any) -> Any:
    """A new page (*context*: the browser context's options) whose player, named *name* in the lobby, takes a seat
    at the table of the invite link; returned once the table is shown."""
    page = new_page(**context)
    page.goto(base_url + "/")
    page.fill("#player-name", name)
    page.locator("#player-name").blur()
    page.goto(invite)
    page.click("#join-table")
    wait_for_table(page)
    return page


def quickplay(page: Any, base_url: str) -> dict[str, Any]:
    """Open the lobby and start a game against the computer with one click."""
    page.goto(base_url + "/")
    page.click("#quickplay")
    page.wait_for_url(re.compile(r"\?table="))
    return wait_for_table(page)


def act_once(page: Any, *, exchange: int = 2, close_summary: bool = True, unless: Any = None) -> str | None:
    """Take this seat's next action through the interface, if there is one; return what was done.

    Contract choice: the first offered contract.  Exchange: discard the first *exchange* cards.  Play: the first
    playable card.  An end-of-deal summary is closed, unless *close_summary* is false (a test that looks at it:
    the summary may open between its check and this one).  Nothing is done when ``unless()`` is true once the
    view to act on is read (:func:`play_until`'s goal: the view may have come to it since the caller's check, and
    acting would take the very turn the test waits for).
    """
    summary = page.locator("dialog.summary-dialog[open]")
    if summary.count():
        if not close_summary:
            return None  # the caller looks at it; the hand under it is not to be touched
        summary.locator(".btn.primary").click()  # on to the next deal, as the docstring promises
        return "summary"
    if page.locator("dialog.choose-dialog[open]").count():
        if unless is not None and unless():
            return None
        page.locator("dialog.choose-dialog[open] .contract-btn").first.click()
        return "choose"
    v = view(page)
    if not v.get("your_turn") or (unless is not None and unless()):
        return None
    if v["phase"] == "exchange" and page.locator(".exchange-bar").count():
        n = min(exchange, v["exchange"]["max"])
        while page.locator(".hand .card.selected").count() < n:  # those chosen before a summary interrupted stay
            if not _click_unless_summary(page, page.locator(".hand .card:not(.selected)").first):
                return None
        page.locator(".exchange-confirm").click()
        page.wait_for_function("seq => window.mizerkaDebug.view().seq > seq", arg=v["seq"])
        return "exchange"
    if v["phase"] == "play":
        card = page.locator(".hand .card.playable").first
        if card.count():
            for _ in range(5):
                if not _click_unless_summary(page, card):
                    return None
                if _answered(page, v["seq"], 4000):
                    return "play"
                # nothing happened: the hand was redrawn under the pointer between aiming and clicking (on a
                # loaded machine), so the click fell beside the card; a person sees the card still in hand and
                # clicks again
                now = view(page)
                if now.get("seq") != v["seq"] or not now.get("your_turn") or now.get("phase") != "play":
                    return "play"
            raise AssertionError(f"five clicks on a playable card got no answer; view: {view(page)}")
    return None


def _click_unless_summary(page: Any, card: Any) -> bool:
    """Click *card*; false if it could not be, because the end-of-deal summary opened over the hand meanwhile (the
    last trick's events arrived between the caller's check and this click): the next :func:`act_once` deals with
    the summary as its caller asked."""
    try:
        click_card(page, card)
    except AssertionError:
        if not page.locator("dialog.summary-dialog[open]").count():
            raise
        return False
    return True


def _answered(page: Any, seq: int, timeout_ms: float) -> bool:
    """Whether the client's view moves past *seq* within *timeout_ms*."""
    try:
        page.wait_for_function("seq => window.mizerkaDebug.view().seq > seq", arg=seq, timeout=timeout_ms)
    except PlaywrightError:  # playwright's TimeoutError is a subclass
        return False
    return True


def play_until(page: Any, done: Any, *, timeout: float = 60.0, exchange: int = 2, close_summary: bool = True) -> None:
    """Act whenever it is this seat's turn until ``done()`` is true (see :func:`act_once`)."""
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out; view: {view(page)}")
        if act_once(page, exchange=exchange, close_summary=close_summary, unless=done) is None:
            page.wait_for_timeout(30)


def my_hand_to_act_on(page: Any) -> bool:
    """Whether this seat is to exchange or play, with no dialog over the hand (a :func:`play_until` goal)."""
    v = view(page)
    return (v.get("phase") in ("exchange", "play") and bool(v.get("your_turn"))
            and not page.locator("dialog[open]").count())


def card_names_en(card: int) -> list[str]:
    """Every text form of a card that could betray it: its code (QH, TH), its English name, its symbol form."""
    c = CARDS[card]
    rank, suit = card % 13, card // 13
    return [str(c), c.unicode(), f"{RANKS_EN[rank]} of {SUITS_EN[suit]}"]


def page_text_and_attributes(page: Any) -> str:
    """All the text of the page and every attribute value of every element (aria-label, title, data-*, alt…)."""
    return str(page.evaluate("""() => {
        const parts = [document.documentElement.outerHTML, document.body.innerText];
        for (const el of document.querySelectorAll('*')) {
            for (const attr of el.attributes) parts.push(attr.value);
        }
        return parts.join('\\n');
    }"""))


def assert_no_hidden_cards(page: Any, server: Any, table_id: str, seat: int | None) -> int:
    """Check that no card this seat may not see (another seat's hand, the talon, others' discards) is in the page.

    Returns how many hidden cards were checked.
    """

    def hidden() -> tuple[list[int], list[str]]:
        live = server.hub.tables[table_id]
        match = live.table.match
        known = match.observation(seat).known_cards()
        return [c for c in range(52) if c not in known], list(server.hub.tables)

    cards, table_ids = server.call(hidden)
    text = page_text_and_attributes(page)
    # A table's id is random URL-safe text (the invite link shows it): one like "gluCfc0bXQZQC_KS" would read
    # as the card code KS once split at the "_".  The ids are no cards, so they go before the text is split.
    for identifier in table_ids:
        text = text.replace(identifier, " ")
    tokens = set(re.findall(r"[0-9A-Za-z♣♦♥♠]+", text))
    for card in cards:
        code, symbol, name = card_names_en(card)
        assert code not in tokens, f"hidden card {code} appears in the page"
        assert symbol not in text, f"hidden card {symbol} appears in the page"
        assert name not in text, f"hidden card {name!r} appears in the page"
    return len(cards)


def api_post(base: str, path: str, body: Any, *, key: str | None = None) -> Any:
    """POST *body* as JSON to the server (*key*: a player key, as ``Authorization: Bearer``); the answer's JSON."""
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {key}"} if key else {})}
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST", headers=headers)
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def api_get(base: str, path: str, *, key: str | None = None) -> Any:
    """GET from the server (*key*: a player key, as ``Authorization: Bearer``); the answer's JSON."""
    request = urllib.request.Request(base + path, headers={"Authorization": f"Bearer {key}"} if key else {})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def keep_profile(page: Any, base: str, profile: dict[str, str]) -> None:
    """This browser keeps *profile* ``{key, id, name}`` (as after claiming the name in the lobby)."""
    page.goto(base + "/")
    page.evaluate("p => localStorage.setItem('mizerka.profile', JSON.stringify(p))", profile)


def claim_profile(page: Any, base: str, name: str) -> dict[str, str]:
    """Claim *name* in the lobby's profile panel, as a person does; the profile kept: ``{key, id, name}``."""
    page.goto(base + "/")
    page.fill("#claim-name", name)
    page.click("#claim-submit")
    page.wait_for_selector("#profile-page-link")
    kept: dict[str, str] = page.evaluate("() => JSON.parse(localStorage.getItem('mizerka.profile'))")
    assert kept["name"] == name, kept
    return kept


def no_sideways_scroll(page: Any) -> None:
    """The page fits its width: nothing makes it scroll sideways."""
    assert page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 0


# -- tables played through the protocol, and seats opened in a page -------------------------------------------------

SHORT = "standard,contracts=NT+MZ"  # two contracts: six deals
ANALYSIS_WAIT = 240.0  # seconds: a review has the solver judge every card of a deal, on a loaded machine
HUMAN_AND_BOTS = [{"kind": "human"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]


def in_language(page: Any, code: str) -> None:
    """The page starts in *code* (as after choosing it once: the choice is remembered)."""
    page.add_init_script(f"localStorage.setItem('mizerka.lang', '{code}')")


def api_quickplay(base: str, name: str = "Ala") -> tuple[str, str, int]:
    """A quick-play table made through the REST API: its id, the seat's token and the seat."""
    request = urllib.request.Request(base + "/api/quickplay", data=json.dumps({"name": name}).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        result = json.loads(response.read())
    return result["table"]["id"], result["token"], result["seat"]


def play_through_protocol(server: Any, table: str, token: str, stop: Any, timeout: float = 120) -> dict[str, Any]:
    """Play the token's seat (first legal choice, keep the hand, first legal card) until ``stop(view)``."""
    ws = WS(server.ws_url)
    try:
        ws.hello(table, token)
        deadline = time.monotonic() + timeout
        while not stop(ws.view):
            assert time.monotonic() < deadline, ws.view
            v = ws.view
            assert v is not None
            if v["your_turn"]:
                action = "keep" if v["phase"] == "exchange" else v["legal"][0]
                reply = ws.request({"type": "act", "action": action, "id": "a"})
                assert reply["type"] == "ack", reply
            else:
                ws.until(lambda m: m["type"] == "event" and m.get("view") is not None)
        assert ws.view is not None
        return ws.view
    finally:
        ws.close()


def open_seat(page: Any, base: str, table: str, token: str, seat: int) -> dict[str, Any]:
    """This browser holds the seat (as after quick-play): open the table."""
    page.goto(base + "/")
    page.evaluate("([t, token, seat]) => localStorage.setItem('mizerka.seats', "
                  "JSON.stringify({[t]: {token, seat, at: Date.now()}}))", [table, token, seat])
    page.goto(f"{base}/?table={table}")
    return wait_for_table(page)


def seat_page(new_page: Any, base: str, variant: str = "standard", **context: Any) -> tuple[Any, str, str, int]:
    """A quick-play table of Ala and two random bots (*variant*) and a page holding her seat (*context*: the
    browser context's options): the page, the table, the seat's token, the seat."""
    entry = api_post(base, "/api/quickplay", {"name": "Ala", "variant": variant, "level": "random"})
    page = new_page(**context)
    open_seat(page, base, entry["table"]["id"], entry["token"], entry["seat"])
    return page, entry["table"]["id"], entry["token"], entry["seat"]


def quickplay_seat(new_page: Any, base: str, variant: str = "standard", **context: Any) -> tuple[Any, str]:
    """A quick-play table of Ala and two random bots and a page holding her seat: the page and the table."""
    page, table, _token, _seat = seat_page(new_page, base, variant, **context)
    return page, table


def finished_match_page(new_page: Any, web_server: Any) -> tuple[Any, str]:
    """A page open at the seat of a one-deal Mizerka match against bots that was played to its end through the
    protocol (the match result is open on it), and the table's id."""
    entry = api_post(web_server.url, "/api/quickplay",
                     {"name": "Ala", "variant": "standard,contracts=MZ", "level": "random"})
    table, token, seat = entry["table"]["id"], entry["token"], entry["seat"]
    play_through_protocol(web_server, table, token, lambda v: v["phase"] == "over")
    page = new_page()
    open_seat(page, web_server.url, table, token, seat)
    return page, table


def finished_table(server: Any, **options: Any) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """A table of Ala and two bots (created with *options*), played to its end over the protocol: its id, the
    join's answer (token, seat) and the final view."""
    base = server.url
    table = api_post(base, "/api/tables", {"seats": HUMAN_AND_BOTS, "variant": SHORT, "visibility": "private",
                                           **options})["id"]
    joined = api_post(base, f"/api/tables/{table}/join", {"name": "Ala"})
    final = play_through_protocol(server, table, joined["token"], lambda v: v["phase"] == "over")
    return table, joined, final


def unload(server: Any, table: str) -> None:
    """What the hub's sweep does to a finished table nobody is at: it is dropped from memory (only this one: the
    other tests' tables of the shared server stay).  The connection that played it has closed, but the server
    detaches it a moment after the closing handshake (its reader sees the end, then the connection lets go):
    waited for, as the sweep, minutes later, never has to."""

    def drop() -> bool:
        live = server.hub.tables[table]
        assert live.table.status == "finished"
        if live.clients:
            return False
        del server.hub.tables[table]
        return True

    deadline = time.monotonic() + 10
    while not server.call(drop):
        assert time.monotonic() < deadline, "the table's last connection never let go"
        time.sleep(0.02)


# -- a server of its own with a low per-connection rate limit and a short grace -------------------------------------


class LimitedServer(ThreadServer):
    """The game server with a per-connection rate limit a page can reach (5 messages a second, 20 at once: far
    more than a person's clicks), a grace of 0.3 s before a stand-in plays for a player who is away, and bots
    that take 0.05 s a decision (a deal lasts a few seconds: a test can come back while the next one is played)."""

    def __init__(self, database: str) -> None:
        super().__init__(ServerConfig(database=database, bot_delay=0.05, rate=5.0, burst=20.0, grace=0.3))

    def call(self, fn: Any) -> Any:
        """Run *fn()* on the server's event loop (a consistent table) and return its result (as conftest's)."""

        async def run() -> Any:
            return fn()

        assert self.hub.loop is not None
        return asyncio.run_coroutine_threadsafe(run(), self.hub.loop).result(timeout=30)

    def run(self, coro: Any) -> Any:
        """Run the coroutine *coro* on the server's event loop and wait for its result."""
        assert self.hub.loop is not None
        return asyncio.run_coroutine_threadsafe(coro, self.hub.loop).result(timeout=30)


def limited_server(tmp_path_factory: pytest.TempPathFactory, name: str) -> Iterator[LimitedServer]:
    """A :class:`LimitedServer` for a module's tests (the body of its module-scoped fixture), its database in a
    temporary folder called *name*."""
    pytest.importorskip("fastapi", reason="the browser tests need the 'server' extra (pip install -e '.[dev]')")
    limited = LimitedServer(f"sqlite:///{tmp_path_factory.mktemp(name) / (name + '.sqlite3')}").start()
    assert isinstance(limited, LimitedServer)
    yield limited
    limited.stop()
