"""An automated accessibility check of every screen of the browser client: axe-core (the engine behind the browsers'
accessibility audits, bundled by axe-playwright-python) run in real chromium against the real server.

axe reads the page as the browser has drawn it and checks it against rules: what a screen reader is told (every
control and image named, ARIA roles and attributes used where they are allowed, lists holding list items, one
level-one heading, landmarks), what the eye sees (the contrast of text against what is drawn behind it), and what
the keyboard reaches.  The rules run are those tagged ``wcag2a``, ``wcag2aa``, ``wcag21a`` and ``wcag21aa`` (WCAG 2.0
and 2.1, levels A and AA: what users of a card-game site may expect) and axe's own ``best-practice`` ones; none is
turned off.  A test fails listing every violation: the rule, its impact, its help, and each element it failed on
(axe's selector) with what is wrong there.

axe leaves some text unjudged ("incomplete"): where the background is a gradient, as the felt's radial green under
the table's seats, prompt and waiting panel, and the result's gold winner banner, it cannot tell the colour behind
the text.  Those are measured here instead: the text made transparent (its children hidden), the element's box is
photographed and the text's colour, with its opacity, is set against every pixel of it where the element is on top;
the worst must reach 4.5:1 (3:1 for large text), as axe requires elsewhere.  All of them do (the lowest, the prompt
under the trick, about 5:1).  What else axe leaves to a person is left: the cards' corner indices (black or red on
the white face, drawn in SVG) and the score sheet's ✓ marks (dark ink on paper).

The screens, in English unless said: the lobby (and in Polish); the pages of their own (the score pad
``/?scorepad=1``, a game record's review ``/?review=1``, the leaderboard ``/?leaderboard=1``, a bot level's page
``/?player=bot:expert``, the error screen of a link to no table; there is no ``/?history=1``: a finished match's page
is ``/?match=ID``, below); a table against the computer in the exchange, in the play with cards on the trick, then
with the score sheet beside it and a hint shown; the contract choice and the end-of-deal summary; the table on a
phone (390 × 844, touch), with its score sheet open; a table waiting for players, its chat with a line in it, and
its join page in another browser (a seat free); the join page of a table whose seats are all taken ("Sit in for Bot
2"); a spectator's table; a finished match's result, the review of its deal, and its page ``/?match=ID``.  Each
test first waits for what shows the screen drawn (never for a while).

What the first run found, each fixed:

* ``page-has-heading-one`` (moderate), on every screen but the score pad: the page had no ``<h1>``.  The site's
  name in the header is the page's level-one heading now, drawn as the brand it was (each screen's headings
  are level two under it; the score pad's title stays the level-one heading it was).
* ``aria-prohibited-attr`` (serious), at the table: the score sheet's contract headers and its rows' contracts (a
  suit's sign, or NT / MZ) were spans named by an ``aria-label`` with no role, a name screen readers do not read
  there.  They are images (``role="img"``) named by the contract's full name now ("Hearts", "No trumps").
* ``color-contrast`` (serious), on the join page: the seats' "(a computer player: free to take over)" was light
  green on the white card (1.28:1), and so was an open seat's "empty seat" there.  The light green is the waiting
  panel's, on the felt; its rule also matched the join page's list of seats.  It is the waiting panel's only now:
  the join page's list has the paper's grey (5.3:1).
* ``aria-allowed-role`` (minor) and ``listitem`` (serious), in the chat: its log was an ``<ol role="log">``, a list
  made a log (a role a list may not take), whose items then belonged to no list.  The log is a box now, holding the
  list of lines.

No rule is excluded: axe's findings were all true ones.
"""

from __future__ import annotations

import io
import time
from collections.abc import Callable
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from PIL import Image  # Pillow, of the dev extra: the screenshots' pixels
from playwright.sync_api import expect
from test_web_takeover import playing_table
from web_helpers import (
    ANALYSIS_WAIT,
    act_once,
    api_post,
    finished_match_page,
    in_language,
    open_seat,
    quickplay,
    quickplay_seat,
    view,
)

AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]
"""The rules axe runs: those of WCAG 2.0 and 2.1 at levels A and AA, and axe's own best practices."""

AXE = Axe()  # axe-core as bundled by axe-playwright-python: each run injects it into the page, then runs it


def describe(results: list[dict[str, Any]]) -> str:
    """axe's violations as text: each rule's id, impact and help, then each element it failed on and why."""
    lines = []
    for result in results:
        lines.append(f"{result['id']} ({result['impact']}): {result['help']}")
        for node in result["nodes"]:
            lines.append(f"  at {' '.join(str(part) for part in node['target'])}")
            lines.extend(f"      {line}" for line in str(node.get("failureSummary") or "").splitlines())
    return "\n".join(lines)


# -- text on a gradient, which axe leaves unjudged: measured ------------------------------------------------------

UNJUDGED = "background gradient"  # axe's reason for a text whose background it cannot tell

# The element's own text made transparent and its children hidden, so that a photograph of its box shows only
# what is behind the text; the text's colour, opacity (its own and its ancestors') and size are read first, and the
# points of its box where it is on top (not under a panel drawn over it, as the score sheet on a phone).
BARE = """e => {
    if (!e.isConnected) return null; // redrawn since it was found
    if (!document.getElementById('axe-bare-style')) {
        const style = document.createElement('style');
        style.id = 'axe-bare-style';
        style.textContent = '[data-axe-bare][data-axe-bare] * { visibility: hidden !important; }';
        document.head.append(style);
    }
    const style = getComputedStyle(e);
    let opacity = 1;
    for (let n = e; n; n = n.parentElement) opacity *= Number(getComputedStyle(n).opacity);
    const [r, g, b, a = 1] = style.color.match(/[\\d.]+/g).map(Number);
    e.dataset.axeBare = e.getAttribute('style') ?? '';
    e.style.setProperty('color', 'transparent', 'important'); // inline: over any rule of the page's
    e.style.setProperty('text-shadow', 'none', 'important');
    e.scrollIntoView({block: 'nearest', inline: 'nearest'});
    const box = e.getBoundingClientRect();
    const x0 = Math.ceil(box.left), y0 = Math.ceil(box.top);
    const points = [];
    for (let y = y0; y < box.bottom - 1; y += 2) {
        for (let x = x0; x < box.right - 1; x += 2) {
            const hit = document.elementFromPoint(x, y);
            if (hit && (hit === e || e.contains(hit))) points.push([x - x0, y - y0]);
        }
    }
    return {rgb: [r, g, b], alpha: a * opacity, size: parseFloat(style.fontSize), weight: Number(style.fontWeight),
            box: {x: x0, y: y0, width: Math.max(Math.floor(box.right) - x0, 1),
                  height: Math.max(Math.floor(box.bottom) - y0, 1)}, points};
}"""
DRESSED = """e => {
    const bare = e.isConnected && 'axeBare' in e.dataset;
    e.setAttribute('style', e.dataset.axeBare ?? '');
    if (!e.getAttribute('style')) e.removeAttribute('style');
    delete e.dataset.axeBare;
    return bare;
}"""


def luminance(rgb: tuple[float, ...]) -> float:
    """WCAG's relative luminance of an sRGB colour (0-255 channels)."""
    channels = [c / 255 for c in rgb[:3]]
    r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    """WCAG's contrast ratio of two colours (1 to 21)."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def measured_contrast(page: Any, selector: str) -> tuple[float, float] | None:
    """The worst contrast of the text of *selector* against what is drawn behind it, and the ratio it needs (4.5:1,
    3:1 for large text: 24 px, or 18.66 px bold); ``None`` where nothing of it is on top, or it is gone.  Taken
    again if the page redrew the element meanwhile (the table is redrawn with every event)."""
    for _ in range(5):
        element = page.query_selector(selector)
        if element is None:
            return None  # gone since axe ran (a seat's "0 tricks" became "1 trick"): nothing left to measure
        text = element.evaluate(BARE)
        if text is None:
            page.wait_for_timeout(100)
            continue
        try:
            shot = page.screenshot(clip=text["box"], animations="disabled", scale="css")
        finally:
            bare = element.evaluate(DRESSED)
        if bare:
            break
        page.wait_for_timeout(100)
    else:
        raise AssertionError(f"{selector} was redrawn under every photograph")
    image = Image.open(io.BytesIO(shot)).convert("RGB")
    pixels = {image.getpixel((x, y)) for x, y in text["points"] if x < image.width and y < image.height}
    if not pixels:
        return None
    alpha = text["alpha"]
    worst = min(contrast(tuple(alpha * t + (1 - alpha) * p for t, p in zip(text["rgb"], pixel, strict=True)), pixel)
                for pixel in pixels)
    large = text["size"] >= 24 or (text["size"] >= 18.66 and text["weight"] >= 700)
    return worst, 3.0 if large else 4.5


def low_contrast_on_gradients(page: Any, incomplete: list[dict[str, Any]]) -> list[str]:
    """The texts axe left unjudged for their gradient background whose measured contrast is too low."""
    low = []
    for result in incomplete:
        if result["id"] != "color-contrast":
            continue
        for node in result["nodes"]:
            if UNJUDGED not in str(node.get("failureSummary")) or len(node["target"]) != 1:
                continue
            selector = str(node["target"][0])
            measured = measured_contrast(page, selector)
            if measured is None:
                continue  # under something drawn over it: not seen
            worst, needed = measured
            if worst < needed:
                low.append(f"  at {selector}\n      measured {worst:.2f}:1 on its gradient, {needed}:1 needed")
    return low


def assert_accessible(page: Any, screen: str) -> None:
    """Run axe on *page* as it is now and fail, listing every violation (and every text on a gradient whose measured
    contrast is too low), if there is any."""
    options = {"runOnly": {"type": "tag", "values": AXE_TAGS}, "resultTypes": ["violations", "incomplete"]}
    response = AXE.run(page, options=options).response
    problems = [describe(response["violations"])] if response["violations"] else []
    low = low_contrast_on_gradients(page, response["incomplete"])
    if low:
        problems.append("color-contrast on a gradient (measured here: axe could not tell):\n" + "\n".join(low))
    assert not problems, f"axe on {screen}:\n" + "\n".join(problems)


# -- getting to a screen -------------------------------------------------------------------------------------------


def act_until(page: Any, done: Callable[[dict[str, Any]], bool], timeout: float = 90) -> dict[str, Any]:
    """Act (keeping the hand in an exchange) until ``done(view)`` with no dialog open; that view."""
    deadline = time.monotonic() + timeout
    while True:
        assert time.monotonic() < deadline, view(page)
        v = view(page)
        if done(v) and not page.locator("dialog[open]").count():
            return v
        if act_once(page, exchange=0) is None:
            page.wait_for_timeout(30)


def in_the_exchange(v: dict[str, Any]) -> bool:
    """This seat is to exchange."""
    return bool(v.get("phase") == "exchange" and v.get("your_turn"))


def on_a_trick(v: dict[str, Any]) -> bool:
    """This seat is to play a card to a trick someone else led."""
    return bool(v.get("phase") == "play" and v.get("your_turn") and v.get("trick") and v["trick"]["cards"])


# -- the lobby and the pages of their own --------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_the_lobby(new_page: Any, web_server: Any, lang: str) -> None:
    page = new_page()
    in_language(page, lang)
    page.goto(web_server.url + "/")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.locator("#quickplay")).to_be_visible()
    expect(page.locator("#open-title")).to_be_visible()
    assert_accessible(page, f"the lobby ({lang})")


PAGES = {  # a page's address, and what shows it is drawn
    "/?scorepad=1": "#sp-setup-title",
    "/?review=1": "#record-title",
    "/?leaderboard=1": ".leaderboard, .leaderboard-empty",
    "/?player=bot:expert": ".player-page[data-player]",
    "/?table=no-such-table": ".error-screen #back-to-lobby",
}


@pytest.mark.parametrize("path", list(PAGES))
def test_a_page_of_its_own(new_page: Any, web_server: Any, path: str) -> None:
    page = new_page()
    page.goto(web_server.url + path)
    expect(page.locator(PAGES[path]).first).to_be_visible()
    expect(page.locator(".loading")).to_have_count(0)
    assert_accessible(page, path)


# -- the table -----------------------------------------------------------------------------------------------------


def test_the_table_in_the_exchange_and_the_play_with_the_score_sheet_and_a_hint(new_page: Any,
                                                                                web_server: Any) -> None:
    page = new_page()  # 1280 × 800: the score sheet is open beside the table
    quickplay(page, web_server.url)
    act_until(page, in_the_exchange)
    expect(page.locator(".exchange-bar")).to_be_visible()
    assert_accessible(page, "the table in the exchange")
    act_until(page, on_a_trick)
    expect(page.locator(".trick .card")).not_to_have_count(0)
    expect(page.locator(".hand .card.playable").first).to_be_visible()
    assert_accessible(page, "the table in the play, cards on the trick")
    panel = page.locator("#sheet-panel")
    if not panel.is_visible():
        page.get_by_role("button", name="Score sheet").click()
    expect(panel.locator(".sheet-grid")).to_be_visible()
    page.get_by_role("button", name="Hint").click()
    expect(page.locator(".message.hint")).to_be_visible()
    assert_accessible(page, "the table with the score sheet and a hint")


def test_the_contract_choice_and_the_end_of_deal_summary(new_page: Any, web_server: Any) -> None:
    page, _ = quickplay_seat(new_page, web_server.url)
    choose = page.locator("dialog.choose-dialog[open]")
    summary = page.locator("dialog.summary-dialog[open]")
    seen: set[str] = set()
    deadline = time.monotonic() + 180
    while seen != {"choose", "summary"}:  # this seat chooses in one of the first three deals
        assert time.monotonic() < deadline, (seen, view(page))
        if "choose" not in seen and choose.count():
            expect(choose.locator(".contract-btn").first).to_be_visible()
            assert_accessible(page, "the contract choice")
            seen.add("choose")
        if "summary" not in seen and summary.count():
            expect(summary.locator(".btn.primary")).to_be_visible()
            assert_accessible(page, "the end-of-deal summary")
            seen.add("summary")
        if act_once(page, exchange=0, close_summary="summary" in seen,
                    unless=lambda: "choose" not in seen and choose.count() > 0) is None:
            page.wait_for_timeout(30)


def test_the_table_on_a_phone(new_page: Any, web_server: Any) -> None:
    page, _ = quickplay_seat(new_page, web_server.url, viewport={"width": 390, "height": 844}, is_mobile=True,
                             has_touch=True)
    act_until(page, on_a_trick)
    expect(page.locator(".trick .card")).not_to_have_count(0)
    assert_accessible(page, "the table on a phone")
    page.locator(".tools [data-focus=sheet]").click()
    expect(page.locator("#sheet-panel .sheet-grid")).to_be_visible()
    assert_accessible(page, "the score sheet on a phone")


def test_a_table_waiting_for_players_and_its_chat(new_page: Any, web_server: Any) -> None:
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}]
    table = api_post(web_server.url, "/api/tables", {"seats": seats, "visibility": "private", "chat": True})["id"]
    ala = api_post(web_server.url, f"/api/tables/{table}/join", {"name": "Ala"})
    page = new_page()
    open_seat(page, web_server.url, table, ala["token"], ala["seat"])
    expect(page.locator(".waiting .waiting-seats li.open")).to_have_text("empty seat")
    assert_accessible(page, "a table waiting for players")
    page.locator(".chat-toggle").click()
    expect(page.locator("#chat-panel")).to_be_visible()
    page.fill("#chat-input", "Cześć!")
    page.press("#chat-input", "Enter")
    expect(page.locator(".chat-log .chat-line")).to_have_text(["You: Cześć!"])
    assert_accessible(page, "a table's chat")
    friend = new_page()  # the invite link in another browser: the join page, a seat free
    friend.goto(f"{web_server.url}/?table={table}")
    expect(friend.locator("#join-table")).to_be_visible()
    expect(friend.locator(".waiting-seats li.open")).to_have_text("empty seat")
    assert_accessible(friend, "the join page of a table with a free seat")


def test_the_join_page_of_a_table_with_every_seat_taken(new_page: Any, web_server: Any) -> None:
    table = playing_table(web_server.url)
    page = new_page()  # another browser: no seat there
    page.goto(f"{web_server.url}/?table={table}")
    expect(page.locator("#take-over-1")).to_have_text("Sit in for Bot 2")
    expect(page.locator(".waiting-seats .takeover-mark")).to_have_count(2)
    assert_accessible(page, "the join page")


def test_a_spectators_table(new_page: Any, web_server: Any) -> None:
    table = playing_table(web_server.url)
    page = new_page()
    page.goto(f"{web_server.url}/?table={table}&watch=1")
    expect(page.locator(".spectator-note")).to_be_visible()
    expect(page.locator("#sit-in-1")).to_be_visible()
    assert_accessible(page, "a spectator's table")


def test_a_finished_match_its_review_and_its_page(new_page: Any, web_server: Any) -> None:
    page, table = finished_match_page(new_page, web_server)
    over = page.locator("dialog.over-dialog[open]")
    expect(over.locator(".winner-banner")).to_be_visible()
    assert_accessible(page, "the match result")
    over.get_by_role("button", name="Review the last deal").click()
    review = page.locator("dialog.review-dialog[open]")
    expect(review).to_have_attribute("data-state", "ready", timeout=ANALYSIS_WAIT * 1000)
    assert_accessible(page, "the review of a deal")
    page.goto(f"{web_server.url}/?match={table}")
    expect(page.locator(".match-meta")).to_be_visible()
    assert_accessible(page, "the match page")
