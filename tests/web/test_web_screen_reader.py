"""What a screen reader hears at the table, in real chromium against the real server (the page's live regions,
read through ``window.mizerkaDebug.announcements()``, and the accessible names of what is shown).

* Your own moves are announced in the second person: Polish and Russian verbs agree with their subject ("Ty
  zagrywa" / "Вы берёт взятку" were wrong; "Zagrywasz" / "Вы берёте взятку").
* The end of a deal is announced with the deal's scores, not only "Deal 1 is over".
* The contract is chosen on the first six cards, shown in the dialog as a list: each item used to be the card
  itself, named only by an aria-label on the list item, which screen readers do not read there (six empty items).
  Each item now holds an image named by the card in words, in the page's language.
* The cards drawn from the talon were marked for the eye only ("You drew 2 cards." named none): the announcement
  and each drawn card's name in the hand ("Queen of hearts. Drawn from the talon") now say which.
* The exchange's "N cards selected" used to be a live region drawn anew with every redraw of the table, and a screen
  reader announces a live region's text when it changes in place, never one that replaces another: selecting a
  card to discard was not said.  The count is now one element kept in the page for the whole exchange, its text
  changed.
"""

from __future__ import annotations

import re
import time
from typing import Any

from playwright.sync_api import expect
from web_helpers import (
    act_once,
    api_quickplay,
    click_card,
    in_language,
    my_hand_to_act_on,
    open_seat,
    play_through_protocol,
    play_until,
    quickplay,
    quickplay_seat,
    view,
)

CARD_NAME = {
    "en": r"^(2|3|4|5|6|7|8|9|10|Jack|Queen|King|Ace) of (clubs|diamonds|hearts|spades)$",
    "pl": r"^(Dwójka|Trójka|Czwórka|Piątka|Szóstka|Siódemka|Ósemka|Dziewiątka|Dziesiątka|Walet|Dama|Król|As) "
          r"(trefl|karo|kier|pik)$",
}


RANKS = {"T": "10", "J": "Jack", "Q": "Queen", "K": "King", "A": "Ace"}
SUITS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


# Counts the times the element is taken out of the page (itself or a parent of it), from now on.
WATCH_REMOVALS = """e => {
    e.mizerkaMark = 'kept';
    window.countRemoved = 0;
    new MutationObserver((records) => {
        for (const r of records) for (const n of r.removedNodes) if (n === e || n.contains(e)) window.countRemoved += 1;
    }).observe(document.body, {childList: true, subtree: true});
}"""


def announcements(page: Any) -> list[str]:
    return list(page.evaluate("() => window.mizerkaDebug.announcements()"))


def english_name(code: str) -> str:
    """"QH" -> "Queen of hearts", "TH" -> "10 of hearts"."""
    return f"{RANKS.get(code[:-1], code[:-1])} of {SUITS[code[-1]]}"


def test_your_own_moves_are_announced_in_the_second_person(new_page: Any, web_server: Any) -> None:
    """Polish and Russian verbs agree with their subject: "Ty zagrywa" / "Вы берёт взятку" are wrong; your own
    plays, tricks, contract and exchange are announced as "Zagrywasz" / "Вы берёте взятку"."""
    for code, wrong, right in [
        ("pl", r"^Ty (zagrywa|bierze|wybiera|wymienia)\b", r"^(Zagrywasz|Wybierasz|Wymieniasz)\b"),
        ("ru", r"^Вы (берёт|выбирает|меняет)\b", r"^(Вы сыграли|Вы выбрали|Вы поменяли|Вы оставили)\b"),
    ]:
        page = new_page()
        in_language(page, code)
        quickplay(page, web_server.url)
        play_until(page, lambda p=page: view(p).get("tricks_played", 0) >= 3, timeout=60)
        said = announcements(page)
        assert not [s for s in said if re.search(wrong, s)], said
        assert [s for s in said if re.search(right, s)], said


def test_the_deal_scores_are_announced(new_page: Any, web_server: Any) -> None:
    """A screen-reader user hears the deal's scores when it ends, not only "Deal 1 is over"."""
    table, token, seat = api_quickplay(web_server.url)
    # stop at our last card: the deal cannot end before the page is open (a bot's last card could end it while the
    # page loads, and the page would then learn of the end from its catch-up, which is not announced)
    play_through_protocol(web_server, table, token,
                          lambda v: v["phase"] == "play" and v["tricks_played"] == 12 and v["your_turn"])
    page = new_page()
    open_seat(page, web_server.url, table, token, seat)
    # close_summary=False: the helper closes a summary it finds open, and one that opened while it acted was closed
    # before the check below saw it (the page then played on into deal 2)
    play_until(page, lambda: bool(page.locator("dialog.summary-dialog[open]").count()), close_summary=False)
    rows = page.locator("dialog.summary-dialog[open] tbody tr")
    expected = []
    for i in range(rows.count()):
        name = rows.nth(i).locator("th").inner_text().split(" · ")[0]
        score = rows.nth(i).locator("td").nth(2).inner_text()
        expected.append(f"{name} {score}")
    said = [s for s in announcements(page) if s.startswith("Deal 1 is over")]
    assert said, announcements(page)
    for part in expected:
        assert part in said[-1], (part, said)


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
