"""The browser client at the end of a match, on a phone, and for a spectator, in real chromium against the real
server: the last deal's summary, "Play again", the deal summary at 375 px, and what a spectator's socket carries.

The deals before the part under test are played quickly through the protocol (``server_helpers.WS``) with the
seat's token; the browser then takes the same seat, as a player coming back to the table would.
"""

from __future__ import annotations

import json
import re
import time
import urllib.request
from typing import Any

from playwright.sync_api import expect
from server_helpers import WS
from web_helpers import (
    act_once,
    play_until,
    quickplay,
    table_of,
    view,
    wait_for_other_table,
    wait_for_table,
    wait_for_view_of,
)

CARD = re.compile(r"^(?:10|[2-9TJQKA])[CDHS]$")


def api_quickplay(base: str, name: str = "Ala") -> tuple[str, str, int]:
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


def test_the_last_deals_summary_closes_to_the_result(new_page: Any, web_server: Any) -> None:
    """The last deal's summary comes in one batch with match_end (only the last event carries a view): its button
    says "Close", not "Next deal", and closing it shows the result, with the winner named once."""
    table, token, seat = api_quickplay(web_server.url)
    last = play_through_protocol(web_server, table, token,
                                 lambda v: v["deal_no"] == v["n_deals"] and v["phase"] == "play")
    assert last["deal_no"] == 18
    page = new_page()
    open_seat(page, web_server.url, table, token, seat)
    play_until(page, lambda: bool(page.locator("dialog.summary-dialog[open]").count()), close_summary=False)
    summary = page.locator("dialog.summary-dialog[open]")
    expect(summary).to_contain_text("Deal 18")
    page.wait_for_function("() => window.mizerkaDebug.view().phase === 'over'")
    expect(summary.locator(".btn.primary")).to_have_text("Close")
    summary.locator(".btn.primary").click()
    over = page.locator("dialog.over-dialog[open]")
    expect(over).to_be_visible()
    # the winner is announced once (the score sheet in the dialog opens with the banner)
    expect(over.locator(".winner-banner")).to_have_count(1)
    # "Winner: …", "Winners: …", or "Shared win: …" when equal totals share it (the bots' play decides which)
    expect(over.locator(".winner-banner")).to_have_text(re.compile(r"^(Winners?|Shared win): "))


def test_play_again_moves_to_the_rematch_table(new_page: Any, web_server: Any) -> None:
    """'Play again' at a table with one human: the server makes the rematch table at once and says so with the
    rematch event (no reply carries the request's id); the page moves there, to the same seat.  The result dialog
    opens on "Play again", its primary action (session 13: it opened on the record's download, the first control
    in it), so Enter after the last deal plays again."""
    table, token, seat = api_quickplay(web_server.url)
    play_through_protocol(web_server, table, token, lambda v: v["phase"] == "over")
    page = new_page()
    open_seat(page, web_server.url, table, token, seat)
    over = page.locator("dialog.over-dialog[open]")
    expect(over).to_be_visible()
    expect(over.locator(".winner-banner")).to_have_count(1)  # the winner is named once
    expect(over.get_by_role("button", name="Play again")).to_be_focused()
    over.get_by_role("button", name="Play again").click()
    new_table = wait_for_other_table(page, table)
    # the new table's first view comes over a fresh connection: allow a loaded machine more than the default 15 s
    v = wait_for_view_of(page, new_table)
    assert v["seat"] == seat and v["deal_no"] == 1 and v["status"] == "playing"
    expect(page.locator("dialog.over-dialog[open]")).to_have_count(0)
    # The seat token is kept for the new table: a reload comes back to the same seat there.
    page.reload()
    assert wait_for_table(page)["seat"] == seat and view(page)["table"] == new_table


def test_a_page_opened_after_the_rematch_goes_to_the_new_table(new_page: Any, web_server: Any) -> None:
    """The rematch was agreed while the page was away (asked over another connection): opening the old table, the
    page finds the new one in its view (``rematch``) and goes there, to the same seat."""
    table, token, seat = api_quickplay(web_server.url)
    play_through_protocol(web_server, table, token, lambda v: v["phase"] == "over")
    ws = WS(web_server.ws_url)
    try:
        ws.hello(table, token)
        ack = ws.request({"type": "rematch", "id": "r"})
    finally:
        ws.close()
    assert ack["type"] == "ack" and ack["table"] not in (None, table), ack
    page = new_page()
    open_seat(page, web_server.url, table, token, seat)
    wait_for_view_of(page, ack["table"], timeout=15_000)
    assert view(page)["seat"] == seat and view(page)["status"] == "playing"


def test_a_spectator_is_not_offered_play_again(new_page: Any, web_server: Any) -> None:
    """A spectator has no "Play again": the result dialog opens on its way out, "Back to the lobby" (session 13:
    it opened on the record's download)."""
    table, token, _ = api_quickplay(web_server.url)
    play_through_protocol(web_server, table, token, lambda v: v["phase"] == "over")
    spectator = new_page()
    spectator.goto(f"{web_server.url}/?table={table}&watch=1")
    wait_for_table(spectator)
    over = spectator.locator("dialog.over-dialog[open]")
    expect(over).to_be_visible()
    expect(over.get_by_role("button", name="Back to the lobby")).to_be_focused()
    expect(over.get_by_role("button", name="Play again")).to_have_count(0)


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


def test_a_spectator_socket_carries_no_hidden_card(new_page: Any, web_server: Any) -> None:
    """Every frame a spectator receives during a deal (views and events) names only cards already played; the
    deck, the hands and the discards come only with the deal's end (the table's ``reveal`` option)."""
    player = new_page()
    v = quickplay(player, web_server.url)
    spectator = new_page()
    frames: list[str] = []
    spectator.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(
        payload if isinstance(payload, str) else payload.decode())))
    spectator.goto(f"{web_server.url}/?table={v['table']}&watch=1")
    wait_for_table(spectator)
    play_until(player, lambda: bool(player.locator("dialog.summary-dialog[open]").count()), close_summary=False)
    spectator.wait_for_function("() => document.querySelector('dialog.summary-dialog[open]') !== null")
    assert view(spectator)["seat"] is None and view(spectator)["hand"] == []

    def cards(value: Any, path: str = "") -> list[tuple[str, str]]:
        if isinstance(value, dict):
            found = [(f"{path}/{k}", k) for k in value if CARD.match(k)]
            return found + [c for k, item in value.items() for c in cards(item, f"{path}/{k}")]
        if isinstance(value, list):
            return [c for i, item in enumerate(value) for c in cards(item, f"{path}[{i}]")]
        if isinstance(value, str):
            return [(path, w) for w in value.replace(",", " ").split() if CARD.match(w)]
        return []

    played: set[str] = set()
    ever_played: set[str] = set()
    events = 0
    for raw in frames:
        message = json.loads(raw)
        event = message.get("event") or {}
        if event.get("kind") == "deal":
            played = set()
        if event.get("card"):
            played.add(event["card"])
            ever_played.add(event["card"])
        events += message.get("type") == "event"
        for path, card in cards(message):
            assert card in played or path.startswith("/event/reveal"), (path, card, message.get("type"))
    assert events > 20
    # The page itself holds no card but those on the table.
    shown = spectator.locator("[data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
    assert set(shown) <= ever_played


def test_the_contract_dialog_opens_on_its_title_not_on_a_contract(new_page: Any, web_server: Any) -> None:
    """An Enter meant for the dialog before (the deal summary's "Next deal", held down) must not choose a contract:
    the contract dialog opens with its title focused; Tab reaches the first contract, and Enter there chooses."""
    page = new_page()
    quickplay(page, web_server.url)
    dialog = page.locator("dialog.choose-dialog[open]")
    deadline = time.monotonic() + 90
    while not dialog.count():  # act until this seat chooses (it is forehand in one deal of three)
        assert time.monotonic() < deadline, view(page)
        # never choose: the dialog may open between the loop's check and act_once's (a summary just closed)
        if act_once(page, unless=lambda: dialog.count() > 0) is None:
            page.wait_for_timeout(30)
    expect(dialog).to_be_visible()
    assert page.evaluate("() => document.activeElement.id") == "choose-title"
    seq = view(page)["seq"]
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    page.wait_for_timeout(300)
    expect(dialog).to_be_visible()  # nothing chosen
    assert view(page)["seq"] == seq and view(page)["phase"] == "choose"
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.classList.contains('contract-btn')")
    page.keyboard.press("Enter")
    page.wait_for_function("seq => window.mizerkaDebug.view().seq > seq", arg=seq)
    expect(dialog).to_have_count(0)  # the contract was chosen


def test_a_spectator_who_leaves_the_summaries_open_sees_the_newest(new_page: Any, web_server: Any) -> None:
    """A spectator who never closes a deal summary is not left behind: the summary of the deal that has just ended
    replaces an older one still open, so after three deals one summary is open, deal 3's, and closing it shows no
    older one (the spectator used to click through every old summary to reach the table as it is)."""
    table, token, _ = api_quickplay(web_server.url)
    spectator = new_page()
    spectator.goto(f"{web_server.url}/?table={table}&watch=1")
    wait_for_table(spectator)
    play_through_protocol(web_server, table, token, lambda v: v["deal_no"] == 4)
    summaries = spectator.locator("dialog.summary-dialog[open]")
    expect(summaries).to_have_count(1)
    expect(summaries).to_have_attribute("data-deal", "3")
    assert spectator.locator("dialog[open]").count() == 1
    summaries.get_by_role("button", name="Next deal").click()
    expect(spectator.locator("dialog[open]")).to_have_count(0)
    spectator.wait_for_timeout(300)  # no older summary comes after it
    assert spectator.locator("dialog[open]").count() == 0
    assert view(spectator)["seat"] is None and view(spectator)["deal_no"] == 4


def test_the_rematch_tests_read_the_new_table_from_the_address_parsed() -> None:
    """The two rematch tests once matched the address with ``table=(?!OLD\\b)``: for an id ending in "-" (one table
    in 64) the old address itself matched, and the test waited 40 s for the old table's view while the page showed
    the new one.  ``wait_for_other_table`` parses the address instead."""
    old = "kFY2aEVO4qfMg36-"
    assert re.search(r"\?table=(?!" + re.escape(old) + r"\b)", f"http://127.0.0.1:1/?table={old}")  # the old trap
    assert table_of(f"http://127.0.0.1:1/?table={old}") == old
    assert table_of("http://127.0.0.1:1/?table=jRtudfLm2M_b_ruv&watch=1") == "jRtudfLm2M_b_ruv"
    assert table_of("http://127.0.0.1:1/") is None
