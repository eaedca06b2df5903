"""The summary of a deal in the browser, in real chromium against the real server.

* On a 360 px phone (narrower than the 375 px the docs promise) every column of the deal summary, down to the
  running total, is inside the dialog, in English, Polish and Russian (the widest headers), with nothing to scroll
  sideways, and no seat's role ("middlehand", "rozdający") broken inside a word to make it fit.
* A deal that ended while the player was away (a stand-in played his cards) is no longer skipped in silence: coming
  back, by a reload or a reconnection, he sees its summary, built from the score sheet's row, saying so -- once --
  with the deals missed before it named.  These tests run on a server of their own (``LimitedServer``: a grace of
  0.3 s before a stand-in plays for a player who is away).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect
from web_helpers import (
    LimitedServer,
    api_post,
    api_quickplay,
    assert_no_hidden_cards,
    limited_server,
    open_seat,
    play_through_protocol,
    play_until,
    view,
    wait_for_table,
)

STOOD_IN = "This deal ended while you were away: a computer player stood in for you."
CONTRACT_NAMES = {"C": "Clubs", "D": "Diamonds", "H": "Hearts", "S": "Spades", "NT": "No trumps", "MZ": "Mizerka"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LimitedServer]:
    """This module's own :class:`web_helpers.LimitedServer` (a low per-connection rate limit, a short grace)."""
    yield from limited_server(tmp_path_factory, "summary")


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"\u2212{-n}" if n < 0 else "0"


# The words of the elements matched by a selector that are laid out over more than one line (broken inside).
SPLIT_WORDS = """selector => {
    const split = [];
    for (const element of document.querySelectorAll(selector)) {
        const walk = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
        for (let node = walk.nextNode(); node; node = walk.nextNode()) {
            if (!node.parentElement.getClientRects().length) continue;  // not shown (display: none)
            for (const word of node.data.matchAll(/\\S+/g)) {
                const range = document.createRange();
                range.setStart(node, word.index);
                range.setEnd(node, word.index + word[0].length);
                if (new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1) split.push(word[0]);
            }
        }
    }
    return split;
}"""


def test_the_deal_summary_fits_a_phone(new_page: Any, web_server: Any) -> None:
    """On a 360 px phone (narrower than the 375 px the docs promise) every column of the deal summary (down to the
    running total) is inside the dialog, in English, Polish and Russian (the widest headers), with nothing to
    scroll sideways, and no seat's role ("middlehand", "rozdający") is broken inside a word to make it fit."""
    for lang in ("en", "pl", "ru"):
        table, token, seat = api_quickplay(web_server.url)
        play_through_protocol(web_server, table, token, lambda v: v["phase"] == "play" and v["tricks_played"] >= 11)
        page = new_page(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
        page.goto(web_server.url + "/")
        page.evaluate("lang => localStorage.setItem('mizerka.lang', lang)", lang)
        open_seat(page, web_server.url, table, token, seat)
        play_until(page, lambda p=page: bool(p.locator("dialog.summary-dialog[open]").count()), close_summary=False)
        page.wait_for_timeout(100)
        box = page.evaluate("""() => {
            const d = document.querySelector('dialog.summary-dialog[open]');
            const r = d.getBoundingClientRect();
            const cells = [...d.querySelectorAll('.summary-table th, .summary-table td')];
            return { left: r.left, right: r.right, scroll: d.scrollWidth, client: d.clientWidth,
                     cells: Math.max(...cells.map(c => c.getBoundingClientRect().right)) };
        }""")
        assert box["left"] >= 0 and box["right"] <= 360, (lang, box)
        assert box["scroll"] <= box["client"], (lang, box)  # nothing hidden to the right
        assert box["cells"] <= box["right"], (lang, box)
        totals = page.locator("dialog.summary-dialog[open] td.total")
        expect(totals).to_have_count(3)
        for i in range(3):
            cell = totals.nth(i).bounding_box()
            assert cell is not None and cell["x"] + cell["width"] <= 360, (lang, cell)
        # each word of a role lies on one line: the rects of its characters share their top
        split = page.evaluate(SPLIT_WORDS, "dialog.summary-dialog[open] .summary-table .role")
        assert split == [], (lang, split)
        assert page.locator("dialog.summary-dialog[open] .summary-table .role").count() == 3


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
        window.socketBlocked = true;
        window.WebSocket = function (url) {
            return new Native(window.socketBlocked ? "ws://127.0.0.1:9/blocked" : url);
        };
        window.WebSocket.OPEN = Native.OPEN;
        window.mizerkaDebug.socket.simulateDrop();
    }""")
    now = view(back)["deal_no"]
    play_deal_without(other, server, table, now + 1)
    back.evaluate("() => { window.socketBlocked = false; }")
    back.wait_for_function("() => window.mizerkaDebug.socket.state === 'open'", timeout=20_000)
    later = check_missed_summary(back, server, table, seat, since=now)
    assert later > n
    assert not errors, errors
