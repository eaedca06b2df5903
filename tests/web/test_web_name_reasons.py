"""A refused player's name said in the page's language, by the refusal's ``reason`` and its parameters (js/i18n.js
``nameRefusalText``), in real chromium against the real server: a claim's name beginning with "bot:" (the prefix a
parameter) or holding a Hangul filler (the character a parameter), a seat's name beginning with a combining mark, on
a Polish and a Russian page.  The server's message stays English; a reason the page does not know is said in the
server's words.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from playwright.sync_api import expect
from web_helpers import in_language


def unique(stem: str) -> str:
    """A name no other test has claimed on the session's server (names are unique ignoring case)."""
    return f"{stem}{uuid.uuid4().hex[:6]}"


def claim(page: Any, name: str) -> Any:
    page.fill("#claim-name", name)
    page.click("#claim-submit")
    return page.locator(".profile-panel .profile-error")


def test_a_polish_page_says_why_a_name_is_refused(new_page: Any, web_server: Any) -> None:
    page = new_page()
    in_language(page, "pl")
    page.goto(web_server.url + "/")
    error = claim(page, "bot:" + unique("Ala"))
    expect(error).to_have_text("Nazwy zaczynające się od „bot:” są zarezerwowane dla graczy komputerowych: "
                               "wybierz inną nazwę.")
    expect(claim(page, unique("Ala") + "\u3164")).to_have_text(
        "Tej nazwy nie można użyć: zawiera niewidoczny lub niedrukowalny znak U+3164 (HANGUL FILLER), który często "
        "trafia tam przy wklejaniu. Nazwa musi być w całości widoczna, bez znaków niewidocznych i pustych: wpisz ją "
        "jeszcze raz.")
    page.fill("#player-name", "\u0301Ola")  # a seat's name: the lobby's quick play
    page.click("#quickplay")
    expect(page.locator(".lobby > .message.error")).to_have_text(
        "Tej nazwy nie można użyć: zaczyna się od łączącego znaku diakrytycznego U+0301 (COMBINING ACUTE ACCENT), "
        "przed którym nie ma litery. Wpisz przed nim literę.")
    expect(page).not_to_have_url("?table=")


def test_a_russian_page_says_why_a_name_is_refused(new_page: Any, web_server: Any) -> None:
    page = new_page()
    in_language(page, "ru")
    page.goto(web_server.url + "/")
    expect(claim(page, "..")).to_have_text(
        "Имя не может состоять из одних точек: оно не может быть адресом страницы игрока. Добавьте другой символ.")
    expect(claim(page, "Bot:" + unique("Ola"))).to_have_text(
        "Имена, начинающиеся с «bot:», зарезервированы для компьютерных игроков: выберите другое имя.")
    expect(claim(page, unique("Ola") + "\u200b")).to_contain_text(
        "в нём есть невидимый или непечатаемый символ U+200B (ZERO WIDTH SPACE)")
    page.fill("#player-name", "Ola\u3164")
    page.click("#quickplay")
    expect(page.locator(".lobby > .message.error")).to_contain_text(
        "Это имя нельзя использовать: в нём есть невидимый или непечатаемый символ U+3164 (HANGUL FILLER)")
    # the page follows a change of language without asking again
    page.select_option("#lang-select", "en")
    expect(page.locator(".profile-panel .profile-error")).to_contain_text(
        "This name cannot be used: it holds an invisible or unprintable character, U+200B (ZERO WIDTH SPACE)")


def test_an_unknown_reason_is_said_in_the_servers_words(new_page: Any, web_server: Any) -> None:
    page = new_page()
    in_language(page, "pl")
    page.route("**/api/players", lambda route: route.fulfill(
        status=400, content_type="application/json",
        body=json.dumps({"error": "bad_name", "message": "names of the moon are reserved",
                         "reason": {"code": "name_lunar", "phase": "full"}})))
    page.goto(web_server.url + "/")
    expect(claim(page, "Księżyc")).to_have_text("Serwer odmówił: names of the moon are reserved")
