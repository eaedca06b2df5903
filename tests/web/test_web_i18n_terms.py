"""The Polish and Russian terms of the browser client, in real chromium against the real server.

A native speaker's review of the catalogues (js/i18n.js) settled the terms: the score sheet's short labels of
No trumps and Mizerka are the language's own (BA / M, БК / М, not the English NT / MZ), the forehand and the
middlehand are *przodek* and *środek* (*первая рука*, *вторая рука*), the lobby is *poczekalnia*, a seat that kept
its hand shows "bez wymiany" / "без обмена" rather than an exchange of 0 cards.  These tests look at the pages as a
player sees them: the lobby and a table in Polish and Russian hold no English "lobby" and no "NT" / "MZ" label, and
the score pad's sheet (the same drawing as the table's) keeps its labels inside their column and cell on a phone.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect
from test_web_scorepad import no_sideways_scroll, set_up
from web_helpers import api_post, quickplay

TERMS = {
    "pl": {"short": ["BA", "M"], "roles": ["przodek", "środek"], "back": "Wróć do poczekalni",
           "lobby": "Poczekalnia", "kept": "bez wymiany", "two": "wymiana: 2 karty",
           "claim": "Zarezerwuj nazwę", "friends": "Dwoje znajomych", "spectators": "Można obserwować",
           "claimFirst": "Zarezerwuj nazwę w poczekalni"},
    "ru": {"short": ["БК", "М"], "roles": ["первая рука", "вторая рука"], "back": "Вернуться в лобби",
           "lobby": "Лобби", "kept": "без обмена", "two": "обмен: 2 карты",
           "claim": "Закрепить имя", "friends": "Двое друзей", "spectators": "Пускать зрителей",
           "claimFirst": "Закрепить имя в лобби"},
}
ENGLISH_LEFT = [re.compile(r"\blobby\b", re.I), re.compile(r"\b(NT|MZ)\b")]


def english_left(page: Any) -> list[str]:
    """The English words that must not be in a Polish or Russian page: in its visible text, or in what a screen
    reader or a tooltip says (aria-label, title, placeholder).  The lobby's lists of tables and games are left
    out: they show what players and other tests typed (names, variant specs like ``contracts=NT+MZ``), not the
    client's words."""
    texts = page.evaluate("""() => {
        const lists = [...document.querySelectorAll('.table-list')];
        lists.forEach((e) => { e.dataset.display = e.style.display; e.style.display = 'none'; });
        const text = document.body.innerText;
        lists.forEach((e) => { e.style.display = e.dataset.display; });
        return [text, document.title,
          ...[...document.querySelectorAll('[aria-label], [title], [placeholder]')]
            .filter((e) => !e.closest('.table-list')).flatMap(
              (e) => [e.getAttribute('aria-label'), e.getAttribute('title'), e.getAttribute('placeholder')])
            .filter(Boolean)];
    }""")
    return [text for text in texts for pattern in ENGLISH_LEFT if pattern.search(text)]


@pytest.mark.parametrize("lang", ["pl", "ru"])
def test_the_lobby_says_poczekalnia_and_no_english(new_page: Any, web_server: Any, lang: str) -> None:
    terms = TERMS[lang]
    page = new_page()
    page.goto(web_server.url + "/")
    page.select_option("#lang-select", lang)
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.locator("#quickplay")).to_be_visible()
    expect(page.locator("section.profile-panel")).to_be_visible()
    expect(page.locator("#claim-submit")).to_have_text(terms["claim"])
    expect(page.locator('#private-opponents option[value="2"]')).to_have_text(terms["friends"])
    expect(page.get_by_label(terms["spectators"], exact=True)).to_be_visible()
    assert english_left(page) == []
    # the catalogue's name of the lobby (the header names it by the brand link, "Mizerka")
    assert page.evaluate("() => import('/js/i18n.js').then(m => m.t('nav.lobby'))") == terms["lobby"]
    # a rated table's invite, opened without a profile: the name is reserved in the lobby first
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}]
    table = api_post(web_server.url, "/api/tables", {"seats": seats, "rated": True})["id"]
    page.goto(f"{web_server.url}/?table={table}")
    expect(page.locator("#claim-first")).to_have_text(terms["claimFirst"])
    assert english_left(page) == []
    # the way back to the lobby from a page that has none to show
    page.goto(web_server.url + "/?table=no-such-table")
    back = page.locator("#back-to-lobby")
    expect(back).to_have_text(terms["back"])
    assert english_left(page) == []
    back.click()
    expect(page.locator("#quickplay")).to_be_visible()


def test_a_table_in_polish_and_russian(new_page: Any, web_server: Any) -> None:
    """The score sheet's short labels, the forehand's and middlehand's labels, an exchange of no cards, and no
    English label left on the table's page."""
    page = new_page()  # 1280 px wide: the score sheet is open beside the table
    quickplay(page, web_server.url)
    expect(page.locator(".sheet-grid thead .contract-short")).to_have_text(["NT", "MZ"])
    for lang, terms in TERMS.items():
        page.select_option("#lang-select", lang)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        expect(page.locator(".sheet-grid thead .contract-short")).to_have_text(terms["short"])
        for role in terms["roles"]:
            expect(page.locator(".seat .role", has_text=re.compile(f"^{role}$"))).to_have_count(1)
        assert english_left(page) == []
        counts = page.evaluate("""() => import('/js/i18n.js').then(m =>
            [m.t('table.exchanged', { n: 0 }), m.t('review.kept'), m.t('table.exchanged', { n: 2 })])""")
        assert counts == [terms["kept"], terms["kept"], terms["two"]]


def test_the_score_pads_sheet_labels_fit_a_phone(new_page: Any, web_server: Any) -> None:
    """Two deals, No trumps and Mizerka, on the score pad of a 375 px phone: in Polish and Russian their labels
    in the sheet's column headers and in the deals' rows are the language's, and each fits its cell."""
    page = new_page(viewport={"width": 375, "height": 667}, is_mobile=True, has_touch=True)
    page.goto(web_server.url + "/?scorepad=1")
    set_up(page, ["Ala", "Bolek", "Cezary"], 2)
    for deal, contract in enumerate(("NT", "MZ"), start=1):
        page.click(f"#sp-contract-{contract}")
        page.get_by_label("Tricks of Ala", exact=True).fill("5")
        page.get_by_label("Tricks of Bolek", exact=True).fill("4")
        page.click("#sp-save")
        expect(page.locator(".sp-sheet .sheet-deals tbody tr")).to_have_count(deal)
    for lang, terms in TERMS.items():
        page.select_option("#lang-select", lang)
        expect(page.locator(".sp-sheet .sheet-grid thead .contract-short")).to_have_text(terms["short"])
        expect(page.locator(".sp-sheet .sheet-deals .contract-cell .contract-short")).to_have_text(terms["short"])
        spilling = page.evaluate("""() => [...document.querySelectorAll(
                '.sp-sheet .sheet-grid thead th, .sp-sheet .sheet-deals td.contract-cell')]
            .filter(e => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1)
            .map(e => e.textContent)""")
        assert spilling == []
        no_sideways_scroll(page)
        assert english_left(page) == []


@pytest.mark.parametrize("lang", ["pl", "ru"])
def test_an_open_table_in_the_lobby_fits_a_phone(new_page: Any, web_server: Any, lang: str) -> None:
    """A public table waiting for players, listed in the lobby of a 375 px phone: its long one-word name, its
    rated badge and the two buttons ("Сесть" and "Смотреть" in Russian) stay inside the page, which does not
    scroll sideways (the row's text column could not shrink below its longest word)."""
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}]
    name = "Stół_dla_znajomych_z_pracy_" + lang
    table = api_post(web_server.url, "/api/tables", {"seats": seats, "rated": True, "visibility": "public",
                                                     "name": name})["id"]
    page = new_page(viewport={"width": 375, "height": 667})
    page.goto(web_server.url + "/")
    page.select_option("#lang-select", lang)
    row = page.locator(f'.table-list li[data-table="{table}"]')
    expect(row).to_be_visible()
    no_sideways_scroll(page)
    # measured in one script: the lobby redraws its whole page as each of its lists arrives, and a button held
    # across two calls may be gone by the second (Playwright's bounding box of a detached button is None)
    boxes = page.evaluate("""(table) => [...document.querySelectorAll(`.table-list li[data-table="${table}"] button`)]
        .map(b => { const r = b.getBoundingClientRect(); return [b.textContent, r.left, r.right]; })""", table)
    assert len(boxes) == 2
    for text, left, right in boxes:
        assert left >= 0 and right <= 375, (text, left, right)
