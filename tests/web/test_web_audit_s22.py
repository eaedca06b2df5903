"""What an audit of the browser game found (session 22), in real chromium against a real server of its own (a low
per-connection rate limit, a short grace before a stand-in plays for a player who is away):

* a request the server never answers no longer waits for ever.  The server's rate limit drops a frame over it and
  says ``rate_limited`` about one dropped frame a second, not about every one: a card played while that notice is
  held back got no answer, and the card stayed "pending" until the connection dropped.  The socket now answers
  such a request itself after its ``requestTimeout`` (the error ``timeout``): the page says the server did not
  answer and gives the card back.  A reply that comes after the timeout is not shown as a second message;
* a deal that ended while the player was away (a stand-in played his cards) is no longer skipped in silence: coming
  back, by a reload or a reconnection, he sees its summary, built from the score sheet's row, saying so -- once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect
from server_helpers import ThreadServer
from test_web_audit_s12 import open_seat
from web_helpers import api_post, assert_no_hidden_cards, click_card, play_until, view, wait_for_table

from mizerka.server.hub import ServerConfig

NO_ANSWER = "The server did not answer in time: try again."
STOOD_IN = "This deal ended while you were away: a computer player stood in for you."
CONTRACT_NAMES = {"C": "Clubs", "D": "Diamonds", "H": "Hearts", "S": "Spades", "NT": "No trumps", "MZ": "Mizerka"}


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


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LimitedServer]:
    pytest.importorskip("fastapi", reason="the browser tests need the 'server' extra (pip install -e '.[dev]')")
    limited = LimitedServer(f"sqlite:///{tmp_path_factory.mktemp('s22') / 's22.sqlite3'}").start()
    assert isinstance(limited, LimitedServer)
    yield limited
    limited.stop()


def quickplay_seat(new_page: Any, server: LimitedServer) -> tuple[Any, str, int]:
    """A page holding Ala's seat at a new quick-play table against random bots: the page, the table, the seat."""
    entry = api_post(server.url, "/api/quickplay", {"name": "Ala", "variant": "standard", "level": "random"})
    page = new_page()
    open_seat(page, server.url, entry["table"]["id"], entry["token"], entry["seat"])
    return page, entry["table"]["id"], entry["seat"]


def my_turn_to_play(page: Any) -> bool:
    v = view(page)
    return bool(v.get("phase") == "play" and v.get("your_turn") and v.get("legal")
                and not page.locator("dialog[open]").count() and not page.evaluate(
                    "() => document.querySelector('.hand .card.playable') === null"))


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"\u2212{-n}" if n < 0 else "0"


# -- 1. a request the server never answers ------------------------------------------------------------------------


def test_a_card_dropped_by_the_rate_limit_is_given_back_after_the_timeout(new_page: Any, server: LimitedServer) -> None:
    """The page's frames go over the connection's rate limit (pings sent through the debug hook's socket, as a
    stuck client would): the server drops them, says ``rate_limited`` once, and drops the card played right after
    without a word.  Before, the card stayed pending for ever (no reply, no drop); now the socket answers the
    request ``timeout`` after its ``requestTimeout`` (shortened here), the page says the server did not answer,
    and the card can be played again -- and is."""
    page, table, seat = quickplay_seat(new_page, server)
    play_until(page, lambda: my_turn_to_play(page))
    before = view(page)
    played = page.evaluate("""() => {
        const socket = window.mizerkaDebug.socket;
        socket.requestTimeout = 1500;
        for (let i = 0; i < 40; i += 1) socket.send({ type: "ping", id: `flood${i}` });
        const card = document.querySelector(".hand .card.playable");
        card.click();  // sent at once, behind the flood: over the limit, and within the second of the notice
        return card.dataset.card;
    }""")
    message = page.locator(".me .message.error")
    expect(message).to_have_text(NO_ANSWER, timeout=10_000)
    # the server never got it: the table is still at the same event (this seat's turn: nobody else moves)
    assert server.call(lambda: server.hub.tables[table].table.seq) == before["seq"]
    assert view(page)["your_turn"] and view(page)["seat"] == seat
    assert played in view(page)["hand"]
    card = page.locator(f'.hand .card.playable[data-card="{played}"]')
    expect(card).to_have_count(1)  # no longer pending: playable again
    click_card(page, card)
    page.wait_for_function("seq => window.mizerkaDebug.view().seq > seq", arg=before["seq"], timeout=10_000)
    assert played not in view(page)["hand"]
    page.reload()  # the socket's own timeout is REQUEST_TIMEOUT_MS unless changed (here, by the test above)
    wait_for_table(page)
    assert page.evaluate("() => window.mizerkaDebug.socket.requestTimeout") == 20_000


def test_a_refusal_after_the_timeout_is_not_shown(new_page: Any, server: LimitedServer) -> None:
    """The server answers after the socket gave up: the test holds the table's lock (as a slow database write
    would), the page sends an action the server will refuse (a card not in the hand, through the debug hook's
    ``act``: the page itself offers no such card), the socket answers ``timeout``, then the lock is let go and
    the server's refusal arrives.  The page keeps "did not answer" and shows no refusal after it; before, it
    waited until the refusal came and showed that."""
    page, table, _ = quickplay_seat(new_page, server)
    play_until(page, lambda: my_turn_to_play(page))
    hand = view(page)["hand"]
    foreign = next(f"{rank}{suit}" for suit in "CDHS" for rank in "23456789TJQKA" if f"{rank}{suit}" not in hand)
    live = server.hub.tables[table]

    async def hold() -> None:
        await live.lock.acquire()

    async def release() -> None:
        live.lock.release()

    server.run(hold())
    try:
        page.evaluate("""() => {
            window.s22Frames = [];
            const socket = window.mizerkaDebug.socket;
            socket.ws.addEventListener("message", (e) => window.s22Frames.push(JSON.parse(e.data)));
            socket.requestTimeout = 800;
        }""")
        page.evaluate("card => { window.mizerkaDebug.act(card); }", foreign)
        expect(page.locator(".me .message.error")).to_have_text(NO_ANSWER, timeout=10_000)
    finally:
        server.run(release())
    # the refusal of the request, late: it reaches the page's socket ...
    page.wait_for_function("() => window.s22Frames.some((m) => m.type === 'error' && /^r\\d+$/.test(m.id || ''))",
                           timeout=10_000)
    late = page.evaluate("() => window.s22Frames.find((m) => m.type === 'error' && /^r\\d+$/.test(m.id || ''))")
    assert late["code"] != "rate_limited", late  # the server's refusal of the card, not a dropped frame
    page.wait_for_timeout(300)  # anything it would set off has happened
    # ... and the page still says what it said: no refusal shown, none announced
    expect(page.locator(".me .message.error")).to_have_text(NO_ANSWER)
    announced = page.evaluate("() => window.mizerkaDebug.announcements()")
    assert not [a for a in announced if "refused" in str(a).lower()], announced
    assert any(NO_ANSWER in str(a) for a in announced), announced


# -- 2. the summary of a deal that ended while the player was away ----------------------------------------------


def finished_deals(server: LimitedServer, table: str) -> list[dict[str, Any]]:
    """The server's own results of *table*'s finished deals, with the running totals."""

    def rows() -> list[dict[str, Any]]:
        out, totals = [], None
        for result in server.hub.tables[table].table.match.results():
            scores = list(result.scores)
            totals = scores if totals is None else [a + b for a, b in zip(totals, scores, strict=True)]
            out.append({"deal_no": result.deal_no, "contract": str(result.contract), "chooser": result.chooser,
                        "tricks": list(result.tricks), "scores": scores, "totals": list(totals)})
        return out

    result: list[dict[str, Any]] = server.call(rows)
    return result


def deal_no(server: LimitedServer, table: str) -> int:
    number: int = server.call(lambda: server.hub.tables[table].table.match.deal_no)
    return number


def play_deal_without(page: Any, server: LimitedServer, table: str, deal: int) -> None:
    """The other player (*page*) plays his seat until the server begins deal *deal* of *table*: the table goes on
    while someone is at it (a table with nobody connected pauses), the stand-in and the bot playing the rest."""
    play_until(page, lambda: deal_no(server, table) >= deal, timeout=120)


def check_missed_summary(page: Any, server: LimitedServer, table: str, seat: int, since: int) -> int:
    """The missed deal's summary is open, says the deal ended while the player was away and a stand-in played,
    and shows the server's result of the deal, the most recent finished; the deals from *since* before it are
    named as missed too.  Returns the deal's number."""
    summary = page.locator("dialog.summary-dialog.missed-summary[open]")
    expect(summary).to_be_visible(timeout=20_000)
    n = int(summary.get_attribute("data-deal") or "0")
    sheet = view(page)["score_sheet"]
    assert n == sheet[-1]["deal_no"], (n, sheet)  # the most recent finished deal (the current one cannot end)
    row = next(r for r in finished_deals(server, table) if r["deal_no"] == n)
    expect(summary.locator("#summary-title")).to_contain_text(f"Deal {n}: {CONTRACT_NAMES[row['contract']]}")
    expect(summary.locator(".summary-away")).to_contain_text(STOOD_IN)
    chooser = "Contract chosen at your seat." if row["chooser"] == seat else "Contract chosen by "
    expect(summary.locator(".summary-away")).to_contain_text(chooser)
    cells = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
        'dialog.missed-summary[open] tbody tr')].map((tr) => [tr.querySelector('td.dd').dataset.seat,
        [...tr.querySelectorAll('td')].map((td) => td.textContent)]))""")
    assert len(cells) == 3, cells
    for who, (tricks, score, _dd, total) in cells.items():
        s = int(who)
        assert (tricks, score, total) == (str(row["tricks"][s]), signed(row["scores"][s]), signed(row["totals"][s])), (
            who, cells, row)
    earlier = list(range(since, n))  # how many depends on how fast the stand-in played: named, whatever they are
    if not earlier:
        expect(summary.locator(".summary-earlier")).to_have_count(0)
    elif len(earlier) == 1:
        expect(summary.locator(".summary-earlier")).to_have_text(
            f"Deal {earlier[0]} also ended while you were away: the score sheet has it.")
    elif len(earlier) == 2:
        expect(summary.locator(".summary-earlier")).to_contain_text(f"Deals {earlier[0]} and {earlier[1]} also ended")
    else:
        expect(summary.locator(".summary-earlier")).to_contain_text(f"Deals {earlier[0]}, ")
        expect(summary.locator(".summary-earlier")).to_contain_text(f"and {earlier[-1]} also ended")
    expect(summary.locator(".btn.primary")).to_have_text("Back to the game")
    return n


def test_a_deal_finished_by_a_stand_in_is_summed_up_on_coming_back(new_page: Any, server: LimitedServer) -> None:
    """Ala and Cezary play with a bot; Ala closes her page during deal 1.  After the grace a stand-in plays her
    cards, Cezary plays his, and the deal ends.  Opening the table again (a reload, in the same browser) Ala gets
    that deal's summary -- the server's contract, chooser, tricks, scores and totals, "ended while you were away:
    a computer player stood in for you" -- and no card she may not see is in the page.  Closed, it is not shown
    again on a reload (nor is deal 1 shown to Cezary, who saw it end).  Then her connection drops for a whole
    deal (the socket cannot reconnect for a while): on reconnecting she gets that deal's summary too.  Before,
    she landed in the next deal with nothing said."""
    base = server.url
    info = api_post(base, "/api/tables", {"visibility": "private", "seats": [
        {"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}]})
    table = info["id"]
    ala = api_post(base, f"/api/tables/{table}/join", {"name": "Ala"})
    cezary = api_post(base, f"/api/tables/{table}/join", {"name": "Cezary"})
    seat = ala["seat"]
    page = new_page()
    open_seat(page, base, table, ala["token"], seat)
    other = new_page()
    open_seat(other, base, table, cezary["token"], cezary["seat"])
    context = page.context
    page.wait_for_function("() => ['choose', 'exchange', 'play'].includes(window.mizerkaDebug.view().phase)")
    assert view(page)["deal_no"] == 1
    page.close()  # away: the grace runs out, a stand-in plays for her
    play_deal_without(other, server, table, 2)

    # Cezary saw deal 1 end (its summary opened with deal 2's view): a reload shows him no "missed" summary
    other.wait_for_function("() => window.mizerkaDebug.view().deal_no >= 2")
    other.reload()
    wait_for_table(other)
    other.wait_for_timeout(300)
    expect(other.locator("dialog.summary-dialog[open]")).to_have_count(0)

    errors: list[str] = []
    back = context.new_page()  # the same browser: its localStorage knows what it showed her
    back.on("pageerror", lambda error: errors.append(str(error)))
    back.goto(f"{base}/?table={table}")
    wait_for_table(back)
    n = check_missed_summary(back, server, table, seat, since=1)
    assert_no_hidden_cards(back, server, table, seat)
    back.locator("dialog.missed-summary[open] .btn.primary").click()
    expect(back.locator("dialog.summary-dialog[open]")).to_have_count(0)

    # a reload after the summary was shown: not again
    back.reload()
    wait_for_table(back)
    back.wait_for_timeout(500)
    expect(back.locator("dialog.summary-dialog[open]")).to_have_count(0)

    # a dropped connection for a whole deal: the socket cannot reconnect until the next deal is being played
    back.evaluate("""() => {
        const Native = window.WebSocket;
        window.s22Blocked = true;
        window.WebSocket = function (url) {
            return new Native(window.s22Blocked ? "ws://127.0.0.1:9/blocked" : url);
        };
        window.WebSocket.OPEN = Native.OPEN;
        window.mizerkaDebug.socket.simulateDrop();
    }""")
    now = view(back)["deal_no"]
    play_deal_without(other, server, table, now + 1)
    back.evaluate("() => { window.s22Blocked = false; }")
    back.wait_for_function("() => window.mizerkaDebug.socket.state === 'open'", timeout=20_000)
    later = check_missed_summary(back, server, table, seat, since=now)
    assert later > n
    assert not errors, errors
