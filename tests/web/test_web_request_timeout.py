"""A request the server never answers fails in time, in real chromium against the real server: the page says the
server did not answer and gives back what was asked for, instead of waiting for ever.

* A websocket request (a card, undo, fill, Play again, a hint): the socket answers it itself after its
  ``requestTimeout`` (the error ``timeout``).  The server's rate limit drops a frame over it and says
  ``rate_limited`` about one dropped frame a second, not about every one: a card played while that notice is held
  back got no answer, and stayed "pending" until the connection dropped.  Now the page says the server did not
  answer and the card can be played again; a reply that comes after the timeout is not shown as a second message.
  These tests run on a server of their own (``LimitedServer``: a per-connection rate limit a page can reach).
* A REST call (quick play, a private table, joining, the lists, the profile) waited for the browser, which gives a
  connection that stalled minutes: the button that asked stayed disabled and the lobby said nothing.  Every call
  of ``api``/``apiResponse`` (js/net.js) now fails with the error ``timeout`` after ``REQUEST_TIMEOUT_MS`` (20 s),
  as a websocket request does; the review of a deal, which the server bounds itself (``review_limit``), waits on.
  The tests hold the request back with a route that never answers, and move the page's clock (Playwright's)
  forward instead of waiting the real seconds.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect
from web_helpers import LimitedServer, click_card, limited_server, play_until, seat_page, view, wait_for_table

NO_ANSWER = "The server did not answer in time: try again."
REQUEST_TIMEOUT_MS = 20_000


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LimitedServer]:
    """This module's own :class:`web_helpers.LimitedServer` (a low per-connection rate limit, a short grace)."""
    yield from limited_server(tmp_path_factory, "timeout")


def my_turn_to_play(page: Any) -> bool:
    v = view(page)
    return bool(v.get("phase") == "play" and v.get("your_turn") and v.get("legal")
                and not page.locator("dialog[open]").count() and not page.evaluate(
                    "() => document.querySelector('.hand .card.playable') === null"))


def test_a_card_dropped_by_the_rate_limit_is_given_back_after_the_timeout(new_page: Any, server: LimitedServer) -> None:
    """The page's frames go over the connection's rate limit (pings sent through the debug hook's socket, as a
    stuck client would): the server drops them, says ``rate_limited`` once, and drops the card played right after
    without a word.  Before, the card stayed pending for ever (no reply, no drop); now the socket answers the
    request ``timeout`` after its ``requestTimeout`` (shortened here), the page says the server did not answer,
    and the card can be played again -- and is."""
    page, table, _token, seat = seat_page(new_page, server.url)
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
    page, table, _token, _seat = seat_page(new_page, server.url)
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
            window.lateFrames = [];
            const socket = window.mizerkaDebug.socket;
            socket.ws.addEventListener("message", (e) => window.lateFrames.push(JSON.parse(e.data)));
            socket.requestTimeout = 800;
        }""")
        page.evaluate("card => { window.mizerkaDebug.act(card); }", foreign)
        expect(page.locator(".me .message.error")).to_have_text(NO_ANSWER, timeout=10_000)
    finally:
        server.run(release())
    # the refusal of the request, late: it reaches the page's socket ...
    page.wait_for_function("() => window.lateFrames.some((m) => m.type === 'error' && /^r\\d+$/.test(m.id || ''))",
                           timeout=10_000)
    late = page.evaluate("() => window.lateFrames.find((m) => m.type === 'error' && /^r\\d+$/.test(m.id || ''))")
    assert late["code"] != "rate_limited", late  # the server's refusal of the card, not a dropped frame
    page.wait_for_timeout(300)  # anything it would set off has happened
    # ... and the page still says what it said: no refusal shown, none announced
    expect(page.locator(".me .message.error")).to_have_text(NO_ANSWER)
    announced = page.evaluate("() => window.mizerkaDebug.announcements()")
    assert not [a for a in announced if "refused" in str(a).lower()], announced
    assert any(NO_ANSWER in str(a) for a in announced), announced


def test_the_timeout_is_the_documented_one(new_page: Any, web_server: Any) -> None:
    page = new_page()
    page.goto(web_server.url + "/")
    assert page.evaluate("async () => (await import('/js/net.js')).REQUEST_TIMEOUT_MS") == REQUEST_TIMEOUT_MS


def test_a_quick_play_never_answered_fails_in_time_and_frees_the_button(new_page: Any, web_server: Any) -> None:
    page = new_page()
    page.clock.install()
    held: list[Any] = []
    page.route("**/api/quickplay", lambda route: held.append(route))
    page.goto(web_server.url + "/")
    button = page.locator("#quickplay")
    expect(button).to_be_enabled()
    button.click()
    expect(button).to_be_disabled()  # asking
    page.wait_for_function("() => true")
    assert len(held) == 1
    page.clock.fast_forward(REQUEST_TIMEOUT_MS - 2_000)
    page.wait_for_timeout(300)
    expect(button).to_be_disabled()  # not given up before its time
    expect(page.locator(".lobby .message.error")).to_have_count(0)
    page.clock.fast_forward(3_000)
    expect(page.locator(".lobby .message.error")).to_have_text("The server did not answer in time: try again.")
    expect(button).to_be_enabled()
    # the next try goes through to the server
    page.unroute("**/api/quickplay")
    button.click()
    page.wait_for_url(re.compile(r"\?table="))


def test_a_table_page_whose_table_never_comes_says_so(new_page: Any, web_server: Any) -> None:
    """The page for a table link this browser holds no seat at asks the server for the table first."""
    page = new_page()
    page.clock.install()
    page.route(re.compile(r".*/api/tables/[^/?]+$"), lambda route: None)  # never answered
    page.goto(web_server.url + "/?table=AbCdEfGhIjKlMnOp")
    page.wait_for_function("() => true")
    page.clock.fast_forward(REQUEST_TIMEOUT_MS + 1_000)
    expect(page.locator(".error-screen .error-text")).to_have_text("The server did not answer in time: try again.")
    expect(page.locator("#back-to-lobby")).to_be_visible()
