"""A score pad's refused setup said in the page's language, by the refusal's ``reason`` (docs/protocol.md), in real
chromium against the real server: a name given twice (the earlier player a parameter), an empty name, a command
word (the word a parameter), a number, an invisible character (the character a parameter), a name far over the
limit and one holding half of a character (a lone surrogate, which the server refused without a reason once), on a
Polish and a Russian page, the field the reason's ``player`` names marked ``aria-invalid``, nothing kept until the
server takes the setup.  A name's reason is said in the lobby's sentence for it; a reason the page does not know is
said in the server's words, as before.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import expect

ERROR = "#sp-setup-error"
NAMES = ["Ala", "Bolek", "Cezary"]

# by language: the setups refused in turn (the names; the sentence said; the field marked, from 0), then the last
# one's sentence in English, after a change of language
REFUSALS: dict[str, tuple[list[tuple[list[str], str, int]], str]] = {
    "pl": ([
        (["Ala", "Bolek", "ALA"], "Nie przyjęto: nazwa gracza 3. Gracz 1 ma już tę nazwę (nazwy muszą się różnić nie "
                                  "tylko wielkością liter): wybierz inną.", 2),
        (["Ala", "", "Cezary"], "Nie przyjęto: nazwa gracza 2. Wpisz nazwę: nie może być pusta ani składać się z "
                                "samych spacji.", 1),
        (["Ala", "B" * 250, "Cezary"], "Nie przyjęto: nazwa gracza 2. Ta nazwa jest za długa: nazwa może mieć "
                                       "najwyżej 40 znaków.", 1),
        (["Ala", "Bolek", "Undo"], "Nie przyjęto: nazwa gracza 3. „Undo” to słowo zarezerwowane dla poleceń zapisu "
                                   "punktów: wybierz inną nazwę.", 2),
    ], "Not accepted: player 3's name. “Undo” is one of the score keeper's command words: choose another name."),
    "ru": ([
        (["7", "Bolek", "Cezary"], "Не принято: имя игрока 1. Имя не может быть числом: числами записываются "
                                   "взятки.", 0),
        (["Ala", "Bolek\u200b", "Cezary"], "Не принято: имя игрока 2. Это имя нельзя использовать: в нём есть "
                                           "невидимый или непечатаемый символ U+200B (ZERO WIDTH SPACE), он часто "
                                           "попадает при вставке. Имя должно быть видно целиком, без невидимых и "
                                           "пустых символов: введите его заново.", 1),
        (["Ala", "Bolek", "Ce\ud800zary"], "Не принято: имя игрока 3. Это имя нельзя использовать: в нём есть "
                                           "невидимый или непечатаемый символ U+D800, он часто попадает при "
                                           "вставке. Имя должно быть видно целиком, без невидимых и пустых "
                                           "символов: введите его заново.", 2),
        (["Ala", "Bolek", "ala"], "Не принято: имя игрока 3. У игрока 1 уже есть это имя (имена должны различаться "
                                  "не только регистром): выберите другое.", 2),
    ], "Not accepted: player 3's name. Player 1 already has this name (names must differ, not only in capitals): "
       "choose another one."),
}


def open_pad(page: Any, web_server: Any, language: str) -> None:
    page.goto(web_server.url + "/?scorepad=1")
    page.select_option("#lang-select", language)
    expect(page.locator("#sp-start")).to_be_visible()


def start(page: Any, names: list[str]) -> None:
    """Type the names and press Start.  A name the field would not take as typed (over its 40 characters, or with
    half of a character) is put in by a script, as an older page or a kept match's names could: as JSON, whose
    escape carries a lone surrogate where the page's own messages, in UTF-8, cannot."""
    for i, name in enumerate(names):
        if len(name) <= 40 and not any("\ud800" <= ch <= "\udfff" for ch in name):
            page.fill(f"#sp-name-{i}", name)
        else:
            page.eval_on_selector(f"#sp-name-{i}", "(input, text) => { input.value = JSON.parse(text); "
                                  "input.dispatchEvent(new Event('input')); }", json.dumps(name))
    page.click("#sp-start")


def kept(page: Any) -> Any:
    """The match this device keeps (``mizerka.scorepad`` in localStorage), or None."""
    return page.evaluate("localStorage.getItem('mizerka.scorepad')")


def marked(page: Any, field: int, n: int = 3) -> None:
    """Only the field of player *field* (from 0) is marked, and it has the focus."""
    for i in range(n):
        if i == field:
            expect(page.locator(f"#sp-name-{i}")).to_have_attribute("aria-invalid", "true")
        else:
            expect(page.locator(f"#sp-name-{i}")).not_to_have_attribute("aria-invalid", "true")
    expect(page.locator(f"#sp-name-{field}")).to_be_focused()


@pytest.mark.parametrize("language", ["pl", "ru"])
def test_a_page_says_why_a_name_is_refused_in_its_language(new_page: Any, web_server: Any, language: str) -> None:
    refusals, english = REFUSALS[language]
    page = new_page()
    open_pad(page, web_server, language)
    for names, sentence, field in refusals:
        start(page, names)
        expect(page.locator(ERROR)).to_have_text(sentence)
        marked(page, field)
    assert kept(page) is None  # a refused setup keeps nothing
    # the sentence follows a change of language; what was typed stays
    names, _, field = refusals[-1]
    page.select_option("#lang-select", "en")
    expect(page.locator(ERROR)).to_have_text(english)
    expect(page.locator(f"#sp-name-{field}")).to_have_value(names[field])
    start(page, NAMES)  # accepted: the match begins, and is kept
    expect(page.locator("#sp-deal-title")).to_be_visible()
    assert json.loads(kept(page))["players"] == NAMES


def test_the_rest_of_the_setup_and_an_unknown_reason(new_page: Any, web_server: Any) -> None:
    """The first dealer's and the rules' reasons have sentences of their own (the page offers only what the server
    takes, so the server's answer is stood in for), and mark no name; an unknown reason is said in the server's
    words, and still marks the field its ``player`` names, which the message does not name."""
    page = new_page()
    answers = [
        {"error": "bad_setup", "message": "this variant has Bolek deal first",
         "reason": {"code": "dealer_fixed", "seat": 1, "name": "Bolek"}},
        {"error": "bad_setup", "message": "names of the moon are reserved",
         "reason": {"code": "name_lunar", "phase": "full", "player": 2}},
    ]
    page.route("**/api/scorepad", lambda route: route.fulfill(
        status=400, content_type="application/json", body=json.dumps(answers.pop(0))))
    open_pad(page, web_server, "pl")
    start(page, ["Ala", "Bolek", "Cezary"])
    expect(page.locator(ERROR)).to_have_text("Nie przyjęto: według tych zasad pierwszy rozdaje Bolek.")
    # no name is wrong (the message quotes Bolek's, which marked his field once): the first dealer has the focus
    expect(page.locator(".sp-names [aria-invalid=true]")).to_have_count(0)
    expect(page.locator("#sp-dealer")).to_be_focused()
    start(page, ["Ala", "Bolek", "Cezary"])
    expect(page.locator(ERROR)).to_have_text("Nie przyjęto: names of the moon are reserved")
    marked(page, 1)
