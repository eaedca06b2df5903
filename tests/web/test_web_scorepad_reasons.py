"""A score pad's refused setup said in the page's language, by the refusal's ``reason`` (docs/protocol.md), in real
chromium against the real server: a name given twice (the earlier player a parameter), an empty name, a command
word (the word a parameter), a number, an invisible character (the character a parameter), on a Polish and a
Russian page, the field the reason's ``player`` names marked ``aria-invalid``.  A name's reason is said in the
lobby's sentence for it; a reason the page does not know is said in the server's words, as before.
"""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import expect

ERROR = "#sp-setup-error"


def open_pad(page: Any, web_server: Any, language: str) -> None:
    page.goto(web_server.url + "/?scorepad=1")
    page.select_option("#lang-select", language)
    expect(page.locator("#sp-start")).to_be_visible()


def start(page: Any, names: list[str]) -> None:
    for i, name in enumerate(names):
        page.fill(f"#sp-name-{i}", name)
    page.click("#sp-start")


def marked(page: Any, field: int, n: int = 3) -> None:
    """Only the field of player *field* (from 0) is marked, and it has the focus."""
    for i in range(n):
        if i == field:
            expect(page.locator(f"#sp-name-{i}")).to_have_attribute("aria-invalid", "true")
        else:
            expect(page.locator(f"#sp-name-{i}")).not_to_have_attribute("aria-invalid", "true")
    expect(page.locator(f"#sp-name-{field}")).to_be_focused()


def test_a_polish_page_says_why_a_name_is_refused(new_page: Any, web_server: Any) -> None:
    page = new_page()
    open_pad(page, web_server, "pl")
    start(page, ["Ala", "Bolek", "ALA"])
    expect(page.locator(ERROR)).to_have_text(
        "Nie przyjęto: nazwa gracza 3. Gracz 1 ma już tę nazwę (nazwy muszą się różnić nie tylko wielkością liter): "
        "wybierz inną.")
    marked(page, 2)
    start(page, ["Ala", "", "Cezary"])
    expect(page.locator(ERROR)).to_have_text(
        "Nie przyjęto: nazwa gracza 2. Wpisz nazwę: nie może być pusta ani składać się z samych spacji.")
    marked(page, 1)
    start(page, ["Ala", "Bolek", "Undo"])
    expect(page.locator(ERROR)).to_have_text(
        "Nie przyjęto: nazwa gracza 3. „Undo” to słowo zarezerwowane dla poleceń zapisu punktów: wybierz inną nazwę.")
    marked(page, 2)
    # the sentence follows a change of language; what was typed stays
    page.select_option("#lang-select", "en")
    expect(page.locator(ERROR)).to_have_text(
        "Not accepted: player 3's name. “Undo” is one of the score keeper's command words: choose another name.")
    expect(page.locator("#sp-name-2")).to_have_value("Undo")


def test_a_russian_page_says_why_a_name_is_refused(new_page: Any, web_server: Any) -> None:
    page = new_page()
    open_pad(page, web_server, "ru")
    start(page, ["7", "Bolek", "Cezary"])
    expect(page.locator(ERROR)).to_have_text(
        "Не принято: имя игрока 1. Имя не может быть числом: числами записываются взятки.")
    marked(page, 0)
    start(page, ["Ala", "Bolek\u200b", "Cezary"])
    expect(page.locator(ERROR)).to_have_text(
        "Не принято: имя игрока 2. Это имя нельзя использовать: в нём есть невидимый или непечатаемый символ U+200B "
        "(ZERO WIDTH SPACE), он часто попадает при вставке. Имя должно быть видно целиком, без невидимых и пустых "
        "символов: введите его заново.")
    marked(page, 1)
    start(page, ["Ala", "Bolek", "ala"])
    expect(page.locator(ERROR)).to_have_text(
        "Не принято: имя игрока 3. У игрока 1 уже есть это имя (имена должны различаться не только регистром): "
        "выберите другое.")
    marked(page, 2)
    start(page, ["Ala", "Bolek", "Cezary"])  # accepted: the match begins
    expect(page.locator("#sp-deal-title")).to_be_visible()


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
