"""What an audit of the browser table on small screens and from the keyboard found (session 31), in real chromium
against the real server:

* a phone turned sideways (844 x 390, 667 x 375): the table's rows took more height than the screen has, the
  felt's row shrank to nothing, and the seats and the trick were drawn over the toolbar, over each other and over
  the hand ("Score sheet" could not be tapped: a seat's panel took the tap).  Short landscape screens now get a
  compact table, the seats beside the trick, where nothing is drawn over anything else;
* the focus fell to the page's body when the deal summary closed while another player was to act (the control it
  came from had been redrawn): a keyboard or screen-reader user had to start again from the top of the page.  It
  now goes to the hand;
* Escape closed the result of the match for good: "Play again" and the record's download were gone until a
  reload, and the focus was on the body.  The toolbar now has "Game result", which opens it again and takes the
  focus when it closes;
* the contract choice's first six cards were list items named only by an aria-label, which screen readers do not
  read on a list item: each now holds an image named by the card;
* the cards drawn from the talon were marked for the eye only ("You drew 2 cards." named none): the announcement
  and the hand's names now say which;
* on a phone turned sideways the open chat cut off what did not fit, and its input's focus scrolled its title, ×
  and log out of the top: it could be neither read nor closed.
"""

from __future__ import annotations

import re
import threading
import time
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect
from test_web_audit_s12 import open_seat, play_through_protocol
from test_web_audit_s30 import finished_match_page
from web_helpers import (
    VISIBLE_POINT,
    act_once,
    api_post,
    my_hand_to_act_on,
    no_sideways_scroll,
    play_until,
    view,
    wait_for_other_table,
)

# Every pair of these that intersect is something drawn over something else (the parts of the table a player
# reads or taps: the bar's controls, the other seats, the trick and its prompt, the own seat and the hand).
OVERLAPS = """() => {
    const parts = [...document.querySelectorAll('.deal-info, .contract-banner, .tools > *, .felt .seat, .trick, '
        + '.prompt, .me > .seat, .hand')];
    const found = [];
    for (let i = 0; i < parts.length; i += 1) {
        for (let j = i + 1; j < parts.length; j += 1) {
            const a = parts[i].getBoundingClientRect(), b = parts[j].getBoundingClientRect();
            if (!a.width || !b.width || !a.height || !b.height) continue;
            if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) {
                found.push(`${parts[i].className} / ${parts[j].className}`);
            }
        }
    }
    return found;
}"""

# The control itself is what a tap at its centre reaches (nothing is drawn over it).
TAPPABLE = """e => {
    e.scrollIntoView({block: 'nearest'});
    const r = e.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return Boolean(hit && (hit === e || e.contains(hit)));
}"""


def quickplay_seat(new_page: Any, base: str, variant: str, **context: Any) -> tuple[Any, str]:
    """A quick-play table of Ala and two random bots and a page holding her seat: the page and the table."""
    entry = api_post(base, "/api/quickplay", {"name": "Ala", "variant": variant, "level": "random"})
    page = new_page(**context)
    open_seat(page, base, entry["table"]["id"], entry["token"], entry["seat"])
    return page, entry["table"]["id"]


@pytest.mark.parametrize("size", [(844, 390), (667, 375)])
def test_a_phone_in_landscape_draws_nothing_over_anything_else(new_page: Any, web_server: Any,
                                                               size: tuple[int, int]) -> None:
    """On a phone turned sideways, in the middle of a trick: no part of the table is drawn over another, every
    toolbar control and every card of the hand can be tapped, nothing scrolls sideways, and the score sheet opens
    from its button and closes again (its button was under a seat's panel)."""
    width, height = size
    page, _ = quickplay_seat(new_page, web_server.url, "standard",
                             viewport={"width": width, "height": height}, has_touch=True)
    deadline = time.monotonic() + 90
    while True:  # act until this seat is to play a card to a trick someone else led
        assert time.monotonic() < deadline, view(page)
        v = view(page)
        if (v.get("phase") == "play" and v.get("your_turn") and v.get("trick") and v["trick"]["cards"]
                and not page.locator("dialog[open]").count()):
            break
        if act_once(page) is None:
            page.wait_for_timeout(30)
    expect(page.locator(".trick .card")).not_to_have_count(0)
    assert page.evaluate(OVERLAPS) == []
    no_sideways_scroll(page)
    for control in page.locator(".tools .btn, .tools input").all():
        assert control.evaluate(TAPPABLE), control.evaluate("e => e.outerHTML")
    cards = page.locator(".hand .card")
    expect(cards).to_have_count(len(v["hand"]))
    for i in range(cards.count()):
        cards.nth(i).scroll_into_view_if_needed()  # the page may scroll a little here: never sideways
        assert cards.nth(i).evaluate(VISIBLE_POINT) is not None, f"card {i} of the hand is covered"
    page.locator(".tools [data-focus=sheet]").click()
    expect(page.locator("#sheet-panel")).to_be_visible()
    page.locator("#sheet-panel .close-sheet").click()
    expect(page.locator("#sheet-panel")).to_be_hidden()


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


CARD_NAME = {
    "en": r"^(2|3|4|5|6|7|8|9|10|Jack|Queen|King|Ace) of (clubs|diamonds|hearts|spades)$",
    "pl": r"^(Dwójka|Trójka|Czwórka|Piątka|Szóstka|Siódemka|Ósemka|Dziewiątka|Dziesiątka|Walet|Dama|Król|As) "
          r"(trefl|karo|kier|pik)$",
}


def test_the_contract_choice_names_its_cards_to_a_screen_reader(new_page: Any, web_server: Any) -> None:
    """The contract is chosen on the first six cards, shown in the dialog as a list: each item used to be the card
    itself, named only by an aria-label on the list item, which screen readers do not read there (the card's
    picture is hidden from them): six empty items.  Each item now holds an image named by the card in words, in
    the page's language."""
    # quick play seats Ala at seat 0: with seat 2 dealing first she is deal 1's forehand, who chooses first
    page, _ = quickplay_seat(new_page, web_server.url, "standard,first_dealer=2")
    dialog = page.locator("dialog.choose-dialog[open]")
    deadline = time.monotonic() + 90
    while not dialog.count():  # act until this seat chooses
        assert time.monotonic() < deadline, view(page)
        if act_once(page) is None:
            page.wait_for_timeout(30)
    for lang in ("en", "pl"):
        if lang != "en":
            page.select_option("#lang-select", lang)
        cards = dialog.locator(".first-cards")
        expect(cards).to_have_attribute("role", "list")
        items = cards.get_by_role("listitem")
        expect(items).to_have_count(6)
        for i in range(6):
            item = items.nth(i)
            assert item.get_attribute("aria-label") is None
            expect(item.get_by_role("img")).to_have_count(1)
            expect(item.get_by_role("img")).to_have_accessible_name(re.compile(CARD_NAME[lang]))
    seq = view(page)["seq"]
    dialog.locator(".contract-btn").first.click()
    page.wait_for_function("seq => window.mizerkaDebug.view().seq > seq", arg=seq)


# Whether the element is shown whole inside the chat panel and the screen, where a tap at its centre reaches it
# (measured as it is: nothing is scrolled into view first, as a person sees it).
IN_CHAT = """e => {
    const r = e.getBoundingClientRect(), p = document.getElementById('chat-panel').getBoundingClientRect();
    if (r.top < Math.max(p.top, 0) - 0.5 || r.bottom > Math.min(p.bottom, innerHeight) + 0.5) return false;
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return Boolean(hit && (hit === e || e.contains(hit)));
}"""


def test_the_chat_on_a_phone_in_landscape_keeps_its_close_and_its_log(new_page: Any, web_server: Any) -> None:
    """On a phone turned sideways the open chat (over the top of the table, at most half the screen high) cut off
    what did not fit, and focusing its input scrolled its title, its close button and its log out of the top: the
    messages could not be read nor the chat closed (its toolbar button lay under it).  Now all of it shows, above
    the hand, and × closes it, giving the focus back to the Chat button."""
    created = httpx.post(web_server.url + "/api/tables", json={
        "visibility": "private", "chat": True,
        "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]})
    assert created.status_code == 201, created.text
    table = created.json()["id"]
    ola = httpx.post(f"{web_server.url}/api/tables/{table}/join", json={"name": "Ola"}).json()
    page = new_page(viewport={"width": 844, "height": 390}, has_touch=True)
    open_seat(page, web_server.url, table, ola["token"], ola["seat"])
    play_until(page, lambda: my_hand_to_act_on(page), exchange=0)  # on to the hand, no dialog open
    page.locator(".chat-toggle").click()
    panel = page.locator("#chat-panel")
    expect(panel).to_be_visible()
    expect(page.locator("#chat-input")).to_be_focused()
    page.fill("#chat-input", "Hej!")
    page.press("#chat-input", "Enter")
    expect(page.locator(".chat-log .chat-line")).to_have_count(1)
    for part in ("#chat-title", ".chat-close", ".chat-log .chat-line", "#chat-input", ".chat-send",
                 ".chat-preset[data-preset=hello]"):
        assert panel.locator(part).evaluate(IN_CHAT), f"{part} is not shown whole in the chat panel"
    cards = page.locator(".hand .card")
    for i in range(cards.count()):
        cards.nth(i).scroll_into_view_if_needed()
        assert cards.nth(i).evaluate(VISIBLE_POINT) is not None, f"card {i} of the hand is covered"
    no_sideways_scroll(page)
    panel.locator(".chat-close").click()
    expect(panel).to_be_hidden()
    expect(page.locator(".chat-toggle")).to_be_focused()


RANKS = {"T": "10", "J": "Jack", "Q": "Queen", "K": "King", "A": "Ace"}
SUITS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


def english_name(code: str) -> str:
    """"QH" -> "Queen of hearts", "TH" -> "10 of hearts"."""
    return f"{RANKS.get(code[:-1], code[:-1])} of {SUITS[code[-1]]}"


def test_the_cards_drawn_from_the_talon_are_named(new_page: Any, web_server: Any) -> None:
    """The cards drawn in the exchange are marked on the hand for the eye (until the first trick is over), and a
    screen reader heard only "You drew 2 cards.": which ones came was not said anywhere.  The sentence now names
    them, and so does each one's name in the hand ("Queen of hearts. Drawn from the talon")."""
    page, _ = quickplay_seat(new_page, web_server.url, "standard,first_dealer=2")  # Ala (seat 0) exchanges first
    deadline = time.monotonic() + 120
    while not view(page).get("drawn"):  # on to a deal where this seat discarded and drew
        assert time.monotonic() < deadline, view(page)
        if act_once(page) is None:
            page.wait_for_timeout(30)
    drawn = view(page)["drawn"]
    # this seat's card to the first trick: the trick cannot end without it, so the hand still marks the drawn cards
    page.wait_for_function("() => { const v = window.mizerkaDebug.view(); "
                           "return v.phase === 'play' && v.your_turn && v.tricks_played === 0; }", timeout=30_000)
    said = [line for line in page.evaluate("() => window.mizerkaDebug.announcements()") if line.startswith("You drew ")]
    assert len(said) == 1, said
    for code in drawn:
        assert english_name(code) in said[0], (code, said)
        card = page.locator(f'.hand .card[data-card="{code}"]')
        expect(card).to_have_class(re.compile(r"\bdrawn\b"))
        label = card.get_attribute("aria-label") or ""
        assert label.startswith(f"{english_name(code)}. Drawn from the talon"), label
    for card in page.locator(".hand .card:not(.drawn)").all():
        assert "talon" not in (card.get_attribute("aria-label") or "")
    page.select_option("#lang-select", "pl")
    label = page.locator(f'.hand .card[data-card="{drawn[0]}"]').get_attribute("aria-label") or ""
    assert ". Dobrana z talonu" in label, label
    page.select_option("#lang-select", "ru")
    label = page.locator(f'.hand .card[data-card="{drawn[0]}"]').get_attribute("aria-label") or ""
    assert ". Взята из прикупа" in label, label
