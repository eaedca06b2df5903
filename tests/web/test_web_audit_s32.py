"""Three accessibility leftovers of the browser table (session 32), in real chromium against the real server:

* the exchange's "N cards selected" was a live region drawn anew with every redraw of the table: a screen reader
  announces a live region's text when it changes in place, never one that replaces another, so selecting a card to
  discard was not said.  The count is now one element kept in the page for the whole exchange, its text changed;
* Escape did not close the score sheet, which on a window narrower than 1100 px lies over the table (only the S key
  and its × did).  Escape now closes it at every width, the focus going back to the toolbar's "Score sheet" when it
  was in the sheet, staying on the hand when the S key opened it from there;
* a deal's last card played from the keyboard took the focus with it: until the deal's summary opened (the other
  players' cards still to come, about 1.5 s with the computer's pace) the focus was on the page's body, and a
  keyboard or screen-reader user was thrown to the top of the page.  The table's middle (a region named "The table")
  now holds it meanwhile; the summary takes it as before, and when it closes the focus goes to the hand.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.sync_api import expect
from test_web_audit_s31 import quickplay_seat
from web_helpers import click_card, my_hand_to_act_on, play_until, view

# Records, from now until a deal summary opens, each time the focus is found on the page's body (or nowhere) with
# no dialog open: after every change of the page (a redraw: seen before the browser paints or runs anything else)
# and every 5 ms.
WATCH_BODY_FOCUS = """() => {
    const seen = [];
    window.bodyFocus = seen;
    const look = (how) => {
        if (document.querySelector('dialog.summary-dialog[open]')) return false;
        const a = document.activeElement;
        if ((a === null || a === document.body) && !document.querySelector('dialog[open]')) seen.push(how);
        return true;
    };
    const observer = new MutationObserver(() => look('redraw'));
    observer.observe(document.body, {childList: true, subtree: true, attributes: true});
    const timer = setInterval(() => {
        if (!look('poll')) { clearInterval(timer); observer.disconnect(); }
    }, 5);
}"""

# Counts the times the element is taken out of the page (itself or a parent of it), from now on.
WATCH_REMOVALS = """e => {
    e.mizerkaMark = 'kept';
    window.countRemoved = 0;
    new MutationObserver((records) => {
        for (const r of records) for (const n of r.removedNodes) if (n === e || n.contains(e)) window.countRemoved += 1;
    }).observe(document.body, {childList: true, subtree: true});
}"""


def test_the_exchange_count_is_one_live_region_changed_in_place(new_page: Any, web_server: Any) -> None:
    """Selecting and unselecting cards to discard changes the text of the one "N cards selected" element, a polite
    live region that stays in the page (it was drawn anew with each redraw, and never announced)."""
    page, _ = quickplay_seat(new_page, web_server.url, "standard,first_dealer=2")  # Ala (seat 0) exchanges first

    def exchanging() -> bool:
        return my_hand_to_act_on(page) and view(page).get("phase") == "exchange"

    play_until(page, exchanging, timeout=90)
    count = page.locator(".exchange-bar .exchange-selected")
    expect(count).to_have_count(1)
    expect(count).to_have_attribute("aria-live", "polite")
    expect(count).to_have_text("0 cards selected")
    count.evaluate(WATCH_REMOVALS)
    click_card(page, page.locator(".hand .card:not(.selected)").first)
    expect(page.locator(".hand .card.selected")).to_have_count(1)
    expect(count).to_have_text("1 card selected")
    # and from the keyboard: the next card, Space
    page.keyboard.press("ArrowRight")
    page.keyboard.press(" ")
    expect(page.locator(".hand .card.selected")).to_have_count(2)
    expect(count).to_have_text("2 cards selected")
    click_card(page, page.locator(".hand .card.selected").first)  # unselected again
    expect(count).to_have_text("1 card selected")
    assert count.evaluate("e => e.mizerkaMark") == "kept", "the count was drawn anew"
    assert page.evaluate("() => window.countRemoved") == 0, "the count was taken out of the page"
    seq = view(page)["seq"]
    page.locator(".exchange-confirm").click()
    page.wait_for_function("seq => window.mizerkaDebug.view().seq > seq", arg=seq)
    expect(page.locator(".exchange-bar")).to_have_count(0)


@pytest.mark.parametrize("size", [(800, 900), (390, 844)])
def test_escape_closes_the_score_sheet_at_every_width(new_page: Any, web_server: Any, size: tuple[int, int]) -> None:
    """On a window narrower than 1100 px the score sheet lies over the table: Escape closes it, the focus going back
    to "Score sheet" when it was on that button or in the sheet, and staying on the hand when S opened it there."""
    width, height = size
    page, _ = quickplay_seat(new_page, web_server.url, "standard", viewport={"width": width, "height": height})
    play_until(page, lambda: my_hand_to_act_on(page), exchange=0)  # the table waits for this seat: no redraw
    panel = page.locator("#sheet-panel")
    opener = page.locator(".tools [data-focus=sheet]")
    expect(panel).to_be_hidden()
    opener.click()
    expect(panel).to_be_visible()
    expect(opener).to_be_focused()
    page.keyboard.press("Escape")
    expect(panel).to_be_hidden()
    expect(opener).to_be_focused()
    expect(opener).to_have_attribute("aria-expanded", "false")
    # from inside the sheet (its ×)
    page.keyboard.press("Enter")
    expect(panel).to_be_visible()
    panel.locator(".close-sheet").focus()
    page.keyboard.press("Escape")
    expect(panel).to_be_hidden()
    expect(opener).to_be_focused()
    # opened with S from the hand: the focus stays there
    card = page.locator('.hand .card[tabindex="0"]')
    card.focus()
    page.keyboard.press("s")
    expect(panel).to_be_visible()
    page.keyboard.press("Escape")
    expect(panel).to_be_hidden()
    expect(page.locator('.hand .card[tabindex="0"]')).to_be_focused()


def test_the_focus_stays_on_the_table_after_the_deals_last_card(new_page: Any, web_server: Any) -> None:
    """A deal's last card is played from the keyboard while the others still have theirs to play: until the deal's
    summary opens the focus is never on the page's body (the table's middle holds it), then the summary has it, and
    once closed the hand (or the next dialog) has it.  A deal where this seat's card ends the deal opens the summary
    at once: the next deal is tried (about two deals in three have a gap)."""
    page, _ = quickplay_seat(new_page, web_server.url, "standard")
    summary = page.locator("dialog.summary-dialog[open]")

    def last_card() -> bool:
        v = view(page)
        return my_hand_to_act_on(page) and v.get("phase") == "play" and len(v.get("hand", [])) == 1

    gaps = 0
    deadline = time.monotonic() + 240
    for _ in range(8):
        assert time.monotonic() < deadline, view(page)
        play_until(page, last_card, timeout=90)
        v = view(page)
        gap = len((v.get("trick") or {}).get("cards", [])) < len(v["players"]) - 1  # others play after this card
        card = page.locator(".hand .card")
        card.focus()
        expect(card).to_be_focused()
        page.evaluate(WATCH_BODY_FOCUS)
        page.keyboard.press("Enter")
        expect(summary).to_have_count(1, timeout=30_000)
        assert page.evaluate("() => window.bodyFocus") == [], "the focus fell to the page's body before the summary"
        expect(summary.locator(".btn.primary")).to_be_focused()
        if gap:
            gaps += 1
            expect(page.get_by_role("region", name="The table")).to_have_count(1)
        page.keyboard.press("Enter")  # on to the next deal: the focus goes to the hand, or to a dialog
        page.wait_for_function("() => !document.querySelector('dialog.summary-dialog[open]') "
                               "&& document.activeElement !== document.body "
                               "&& !document.activeElement.classList.contains('felt')")
        if gaps:
            break
    assert gaps, "no deal where the others played after this seat's last card"
