"""A REST call the server never answers fails after ``REQUEST_TIMEOUT_MS``, as a websocket request does (session 25).

The page's websocket requests (a card, undo, fill, Play again, a hint) have had their own timeout since session 23,
but its REST calls (quick play, a private table, joining, the lists, the profile) waited for the browser, which gives
a connection that stalled minutes: the button that asked stayed disabled and the lobby said nothing.  Now every call
of ``api``/``apiResponse`` (js/net.js) fails with the error ``timeout`` after 20 s, and the page says the server did
not answer in time; the review of a deal, which the server bounds itself (``review_limit``), waits on.

The tests hold the request back with a route that never answers, and move the page's clock (Playwright's) forward
instead of waiting the real seconds.
"""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

REQUEST_TIMEOUT_MS = 20_000


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
