"""The double-dummy column of the end-of-deal summary, in real chromium against the real server.

The server analyses a finished deal in a worker and sends the values in a ``dd`` message some time after the
``deal_end`` (docs/server.md).  Until it comes each cell says "…" (its tooltip: computing), never "not available",
which read as "there will be none"; when it comes, each cell shows the seat's tricks and score.  A server that
does not analyse (``dd_limit=0``) says so at once (``reason: off``): the cells then say "not available", with the
reason as their tooltip.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect
from server_helpers import ThreadServer
from web_helpers import ANALYSIS_WAIT, api_quickplay, open_seat, play_through_protocol, play_until

from mizerka.server.hub import ServerConfig

# every text a double-dummy cell of a summary has had, in order, recorded from the page's first moment
RECORD_DD_CELLS = """
window.__ddTexts = [];
new MutationObserver(() => {
    for (const cell of document.querySelectorAll('dialog.summary-dialog td.dd')) {
        const seen = window.__ddTexts;
        if (seen[seen.length - 1] !== cell.textContent) seen.push(cell.textContent);
    }
}).observe(document, { subtree: true, childList: true, characterData: true });
"""
VALUES = re.compile(r"^\d+ \((?:0|[+\u2212]\d+)\)$")  # "7 (+2)": tricks and the score they make


def summary_of_the_first_deal(new_page: Any, server: Any) -> Any:
    """A page at a new table against bots, the first deal played to its last trick through the protocol and the
    last card in the browser: the page with deal 1's summary open."""
    table, token, seat = api_quickplay(server.url)
    play_through_protocol(server, table, token, lambda v: v["phase"] == "play" and v["tricks_played"] == 12)
    page = new_page()
    page.add_init_script(RECORD_DD_CELLS)
    open_seat(page, server.url, table, token, seat)
    play_until(page, lambda: bool(page.locator("dialog.summary-dialog[open]").count()), close_summary=False)
    return page


def test_the_summary_says_computing_until_the_values_come(new_page: Any, web_server: Any) -> None:
    page = summary_of_the_first_deal(new_page, web_server)
    cells = page.locator("dialog.summary-dialog[open] td.dd")
    expect(cells).to_have_count(3)
    for i in range(3):
        expect(cells.nth(i)).to_have_text(VALUES, timeout=ANALYSIS_WAIT * 1000)
    texts = page.evaluate("() => window.__ddTexts")
    assert "not available" not in texts, texts
    assert all(text == "…" or VALUES.match(text) for text in texts), texts


@pytest.fixture(scope="module")
def server_without_analysis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    """A server run with ``--dd-limit 0`` (and no reviews either): it analyses no deal."""
    database = f"sqlite:///{tmp_path_factory.mktemp('no-dd') / 'no-dd.sqlite3'}"
    server = ThreadServer(ServerConfig(database=database, bot_delay=0.0, rate=1000.0, burst=1000.0, grace=30.0,
                                       dd_limit=0.0, review_limit=0.0)).start()
    yield server
    server.stop()


def test_a_server_without_the_analysis_says_not_available_with_why(new_page: Any,
                                                                   server_without_analysis: ThreadServer) -> None:
    page = summary_of_the_first_deal(new_page, server_without_analysis)
    cells = page.locator("dialog.summary-dialog[open] td.dd")
    expect(cells).to_have_count(3)
    for i in range(3):
        expect(cells.nth(i)).to_have_text("not available")
        expect(cells.nth(i)).to_have_attribute("title", "This server does not analyse deals.")


def summary_whose_dd_message_was_lost(new_page: Any, server: ThreadServer,
                                      pending: bool) -> tuple[Any, Any, dict[str, Any]]:
    """Deal 1's summary open in a page whose first connection lost the ``dd`` message (it is not part of the journal
    a reconnection replays), every cell still "…" when *pending*; then that connection drops and the page connects
    again.  Returns the page, the summary's cells and the message lost."""
    table, token, seat = api_quickplay(server.url)
    play_through_protocol(server, table, token, lambda v: v["phase"] == "play" and v["tricks_played"] == 12)
    page = new_page()
    routes: list[Any] = []
    dropped: list[dict[str, Any]] = []

    def route(ws: Any) -> None:  # the first connection loses every dd message; later ones pass everything
        first = not routes
        routes.append(ws)
        upstream = ws.connect_to_server()
        ws.on_message(upstream.send)

        def from_server(message: Any) -> None:
            if first and json.loads(message).get("type") == "dd":
                dropped.append(json.loads(message))
            else:
                ws.send(message)

        upstream.on_message(from_server)

    page.route_web_socket(re.compile(r"/ws$"), route)
    open_seat(page, server.url, table, token, seat)
    play_until(page, lambda: bool(page.locator("dialog.summary-dialog[open]").count()), close_summary=False)
    deadline = time.monotonic() + ANALYSIS_WAIT
    while not dropped:
        assert time.monotonic() < deadline, "the server sent no dd message"
        page.wait_for_timeout(50)
    cells = page.locator("dialog.summary-dialog[open] td.dd")
    for i in range(pending * 3):
        expect(cells.nth(i)).to_have_text("…")
    routes[0].close()  # the connection drops; the page connects again and gets a welcome
    deadline = time.monotonic() + 30
    while len(routes) < 2:
        assert time.monotonic() < deadline, "the page did not connect again"
        page.wait_for_timeout(50)
    return page, cells, dropped[0]


def test_values_computed_while_the_connection_was_down_fill_the_open_summary(new_page: Any, web_server: Any) -> None:
    """The summary showing "…" takes the values from the score sheet of the view that the reconnection brings."""
    _, cells, lost = summary_whose_dd_message_was_lost(new_page, web_server, pending=True)
    assert lost["dd"] is not None, lost  # the values exist: the server has them in the score sheet
    for i in range(3):
        expect(cells.nth(i)).to_have_text(VALUES, timeout=30_000)


def test_no_values_while_the_connection_was_down_say_why_after_it(new_page: Any,
                                                                  server_without_analysis: ThreadServer) -> None:
    """A deal that gets no values, its ``dd`` message lost: the next view's score sheet says why (``dd_reason``:
    a view comes with the bots' next play or with the reconnection), and the summary's "…" becomes "not available"
    with the reason as its tooltip; it stayed "…" for good before."""
    _, cells, lost = summary_whose_dd_message_was_lost(new_page, server_without_analysis, pending=False)
    assert lost["dd"] is None and lost["reason"] == "off", lost
    for i in range(3):
        expect(cells.nth(i)).to_have_text("not available", timeout=30_000)
        expect(cells.nth(i)).to_have_attribute("title", "This server does not analyse deals.")
