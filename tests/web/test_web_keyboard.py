"""Where the keyboard's focus goes at the table, in real chromium against the real server: a keyboard or
screen-reader user is never thrown back to the top of the page (the focus on the page's body) and never acts by an
Enter meant for something else.

* The contract dialog opens with its title focused, not a contract: an Enter meant for the dialog before (the deal
  summary's "Next deal", held down) used to choose one.  Tab reaches the first contract, and Enter there chooses.
* The table is redrawn on every event (each bot's card): a toolbar button pressed from the keyboard ("Score sheet",
  "Last trick") keeps the focus through the redraws, rather than losing it to the page.
* The deal summary closed while another player is to act (the control it came from had been redrawn) gives the
  focus to the hand (it fell to the page's body), and the player hears who is choosing.
* Escape on the match's result used to close it for good ("Play again" and the record's download gone until a
  reload, the focus on the body): the toolbar now has "Game result", which takes the focus when the result closes
  and opens it again, on "Play again".
* Escape closes the score sheet at every width (on a window narrower than 1100 px it lies over the table, and only
  the S key and its × closed it): the focus goes back to the toolbar's "Score sheet" when it was on that button or
  in the sheet, and stays on the hand when the S key opened it from there.
* A deal's last card played from the keyboard used to take the focus with it: until the deal's summary opened (the
  other players' cards still to come, about 1.5 s at the computer's pace) the focus was on the page's body.  The
  table's middle (a region named "The table") holds it meanwhile; the summary takes it as before, and when it
  closes the focus goes to the hand.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect
from web_helpers import (
    act_once,
    finished_match_page,
    my_hand_to_act_on,
    open_seat,
    play_through_protocol,
    play_until,
    quickplay,
    quickplay_seat,
    view,
    wait_for_other_table,
)

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


def active(page: Any, script: str) -> Any:
    """Evaluate *script* with ``e`` bound to the focused element."""
    return page.evaluate(f"() => {{ const e = document.activeElement; return {script}; }}")


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


def test_a_toolbar_button_keeps_the_focus(new_page: Any, web_server: Any) -> None:
    """The table is redrawn on every event (each bot's card): a keyboard player who pressed "Score sheet" or
    "Last trick" keeps the focus on that button, rather than losing it to the page (and starting Tab again from
    the header)."""
    page = new_page()
    quickplay(page, web_server.url)
    play_until(page, lambda: bool(view(page).get("phase") == "play" and view(page).get("last_trick")
                                  and not page.locator("dialog[open]").count()), timeout=60)
    sheet = page.get_by_role("button", name="Score sheet")
    was_open = sheet.get_attribute("aria-expanded") == "true"  # open by default on a wide screen
    sheet.focus()
    page.keyboard.press("Enter")
    expect(sheet).to_have_attribute("aria-expanded", str(not was_open).lower())
    assert active(page, "e.textContent") == "Score sheet"
    page.keyboard.press("Enter")  # and again: the panel toggles back, the focus stays
    expect(sheet).to_have_attribute("aria-expanded", str(was_open).lower())
    assert active(page, "e.textContent") == "Score sheet"
    page.keyboard.press("Shift+Tab")
    assert active(page, "e.textContent") == "Last trick"
    page.keyboard.press("Space")
    expect(page.locator(".trick.last")).to_be_visible()
    assert active(page, "e.textContent") == "Current trick"  # the same button, its label now says what it does
    # an event arriving (a redraw from the server) keeps it too
    page.evaluate("() => window.mizerkaDebug.socket.send({type: 'sync', last_seq: 0})")
    page.wait_for_timeout(300)
    assert active(page, "e.getAttribute('aria-pressed')") == "true"


def test_the_focus_goes_to_the_hand_when_the_deal_summary_closes(new_page: Any, web_server: Any) -> None:
    """Ala closes deal 1's summary with Enter while Bolek is to choose deal 2's contract: the focus goes to her hand
    (it fell to the page's body, and came back only with her turn), and she hears who is choosing."""
    created = httpx.post(web_server.url + "/api/tables", json={
        "visibility": "private", "variant": "standard,contracts=NT+MZ,first_dealer=0",
        "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}, {"kind": "human"}]})
    assert created.status_code == 201, created.text
    table = created.json()["id"]
    ala = httpx.post(f"{web_server.url}/api/tables/{table}/join", json={"name": "Ala", "seat": 0}).json()
    bolek = httpx.post(f"{web_server.url}/api/tables/{table}/join", json={"name": "Bolek", "seat": 2}).json()
    # deal 1 is dealt by Ala (seat 0), deal 2 by the bot: Bolek (seat 2) is its forehand and chooses first.  He
    # plays deal 1 through the protocol and stops there, so deal 2 waits for him.
    failures: list[BaseException] = []

    def play_bolek() -> None:
        try:
            play_through_protocol(web_server, table, bolek["token"], lambda v: v["deal_no"] >= 2)
        except BaseException as error:  # reported by the test below
            failures.append(error)

    thread = threading.Thread(target=play_bolek, daemon=True)
    thread.start()
    page = new_page()
    open_seat(page, web_server.url, table, ala["token"], 0)
    summary = page.locator("dialog.summary-dialog[open]")
    deadline = time.monotonic() + 120
    while not summary.count():
        assert time.monotonic() < deadline and not failures, (view(page), failures)
        if act_once(page, close_summary=False) is None:
            page.wait_for_timeout(30)
    expect(summary).to_have_attribute("data-deal", "1")
    page.wait_for_function("() => window.mizerkaDebug.view().deal_no === 2")
    thread.join(timeout=60)
    assert not thread.is_alive() and not failures, failures
    next_deal = summary.get_by_role("button", name="Next deal")
    expect(next_deal).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("dialog[open]")).to_have_count(0)
    v = view(page)
    assert v["phase"] == "choose" and not v["your_turn"] and v["to_move"] == 2, v
    expect(page.locator('.hand .card[tabindex="0"]')).to_be_focused()
    assert "Bolek is choosing the contract" in page.evaluate("() => window.mizerkaDebug.announcements()")
    # the keys go on along the hand from there
    page.keyboard.press("End")
    expect(page.locator(".hand .card").last).to_be_focused()


def test_the_result_comes_back_after_escape(new_page: Any, web_server: Any) -> None:
    """Escape closes the result of the match: the focus goes to the toolbar's "Game result" (not the body), which
    opens it again, on "Play again", and Play again still moves to the rematch table.  In Polish and Russian too."""
    page, table = finished_match_page(new_page, web_server)
    over = page.locator("dialog.over-dialog[open]")
    again = over.get_by_role("button", name="Play again")
    expect(again).to_be_focused()
    page.keyboard.press("Escape")
    expect(over).to_have_count(0)
    result = page.locator(".tools .result-btn")
    expect(result).to_have_text("Game result")
    expect(result).to_be_focused()
    page.keyboard.press("Enter")
    expect(over).to_have_count(1)
    expect(again).to_be_focused()
    page.keyboard.press("Escape")
    expect(result).to_be_focused()
    for lang, text in (("pl", "Wynik partii"), ("ru", "Итоги партии")):
        page.select_option("#lang-select", lang)
        expect(page.locator(".tools .result-btn")).to_have_text(text)
    page.select_option("#lang-select", "en")
    page.locator(".tools .result-btn").click()
    expect(over).to_have_count(1)
    again.click()
    wait_for_other_table(page, table)


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
