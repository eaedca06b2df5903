"""The player's language at the table and in the lobby, in real chromium against the real server.

* Every message is in the page's language, not the server's English: the lobby's refusals (429 with the seconds to
  wait from Retry-After, 503), a refusal on the table's socket (the rate limit), watching a table that admits no
  spectators, the bot's badge ("Rules bot · rules") and the rules variants ("standard", "no-exchange").
* A bot's name, the server's "Bot 2", is the page's "Бот 2"; a name a player chose is never translated.
* Switching the language while a dialog is open no longer deletes the dialog: the page's rebuild threw the open
  <dialog> away without a close event, so the contract choice was gone (the game stood still, only a reload
  helped), and the deal summary, the match result and an open review over it were never shown again.  They are
  drawn again in the new language, the focus in the topmost, and still work.
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest
from playwright.sync_api import expect
from web_helpers import (
    ANALYSIS_WAIT,
    SHORT,
    act_once,
    api_post,
    finished_match_page,
    in_language,
    open_seat,
    play_until,
    quickplay,
    seat_page,
    view,
    wait_for_table,
)


def focus_in(page: Any, selector: str) -> bool:
    """Whether the focus is inside the element *selector* names."""
    return bool(page.evaluate("s => Boolean(document.activeElement && document.activeElement.closest(s))", selector))


@pytest.mark.parametrize(("status", "code", "message", "wanted"), [
    (429, "rate_limited", "too many requests from your address; try again in 7 s", r"Zbyt wiele prób.*7 s"),
    (503, "server_full", "the server keeps as many open tables as it may", r"Serwer jest pełny"),
])
def test_lobby_refusals_are_explained_in_polish(new_page: Any, web_server: Any, status: int, code: str,
                                                  message: str, wanted: str) -> None:
    """The server's refusals come with an English message; a Polish player reads them in Polish (and the
    seconds to wait, from Retry-After)."""
    page = new_page()
    in_language(page, "pl")
    page.route("**/api/quickplay", lambda route: route.fulfill(
        status=status, content_type="application/json", headers={"Retry-After": "7"},
        body=json.dumps({"error": code, "message": message})))
    page.goto(web_server.url + "/")
    page.click("#quickplay")
    alert = page.locator(".lobby .message.error")
    expect(alert).to_have_text(re.compile(wanted))
    assert "requests" not in alert.inner_text() and "server keeps" not in alert.inner_text()


def test_a_refusal_on_the_socket_is_explained_in_polish(new_page: Any, web_server: Any) -> None:
    """An error on the table's socket (here the rate limit: the message was dropped) is shown in the player's
    language, not as the server's English message."""
    page = new_page()
    in_language(page, "pl")
    v = quickplay(page, web_server.url)
    page.evaluate("() => window.mizerkaDebug.socket.dispatchEvent(new CustomEvent('message', {detail: "
                  "{type: 'error', code: 'rate_limited', message: 'too many messages; slow down'}}))")
    message = page.locator(".me .message.error")
    expect(message).to_contain_text("Zbyt wiele")
    assert "slow down" not in message.inner_text()
    assert view(page)["table"] == v["table"]


def test_watching_a_table_without_spectators_says_so_in_russian(new_page: Any, web_server: Any) -> None:
    info = api_post(web_server.url, "/api/tables", {"visibility": "private", "spectators": False})
    page = new_page()
    in_language(page, "ru")
    page.goto(f"{web_server.url}/?table={info['id']}&watch=1")
    text = page.locator(".error-text")
    expect(text).to_contain_text("зрител")
    assert not re.search(r"[A-Za-z]{3,}", text.inner_text()), text.inner_text()


def test_bot_badges_and_rules_are_in_the_players_language(new_page: Any, web_server: Any) -> None:
    """The bot's badge ("Rules bot · rules") and the rules variants ("standard", "no-exchange") were the server's
    English words on a Russian page."""
    page = new_page()
    in_language(page, "ru")
    page.goto(web_server.url + "/")
    expect(page.locator("#variant option")).not_to_have_count(1)  # the server's list has arrived
    for option in page.locator("#variant option").all_inner_texts():
        assert not re.search(r"[A-Za-z]{3,}", option), option
    page.click("#quickplay")
    page.wait_for_url(re.compile(r"\?table="))
    wait_for_table(page)
    badge = page.locator(".seat .bot-badge").first
    expect(badge).to_be_visible()
    assert not re.search(r"[A-Za-z]{3,}", badge.inner_text()), badge.inner_text()
    # the bots' names, which the server gives as "Bot 2" and "Bot 3", are in Russian too
    expect(page.locator(".felt .seat .seat-name")).to_have_text(["Бот 2", "Бот 3"])


def test_a_bots_name_is_in_the_pages_language_and_a_chosen_name_as_it_is(new_page: Any, web_server: Any) -> None:
    """The server names a bot's seat "Bot 2": a Russian page showed it in Latin letters.  It is "Бот 2" there now, at
    the seat, in the waiting list of seats and in the score sheet, and "Bot 2" in Polish; a name a player chose
    ("Bot 3", at the seat a bot would have been given that name) is shown as written, in every language."""
    base = web_server.url
    table = api_post(base, "/api/tables", {"variant": SHORT, "visibility": "private", "seats": [
        {"kind": "human"}, {"kind": "bot", "level": "random"}, {"kind": "human"}]})["id"]
    ala = api_post(base, f"/api/tables/{table}/join", {"name": "Ala"})
    page = new_page()
    in_language(page, "ru")
    open_seat(page, base, table, ala["token"], ala["seat"])
    expect(page.locator(".waiting-seats li")).to_have_text(["Вы", "Бот 2 (бот)", "свободное место"])
    api_post(base, f"/api/tables/{table}/join", {"name": "Bot 3"})  # the match starts: nothing moves until he acts
    names = page.locator(".felt .seat .seat-name")
    expect(names).to_have_text(["Бот 2", "Bot 3"])
    if not page.locator("#sheet-panel").is_visible():  # open beside the table on a wide screen
        page.locator(".tools [data-focus=sheet]").click()
    expect(page.locator("#sheet-panel .sheet-grid tbody th")).to_have_text(["Ala", "Бот 2", "Bot 3"])
    page.select_option("#lang-select", "pl")
    expect(names).to_have_text(["Bot 2", "Bot 3"])


def test_the_contract_choice_survives_a_language_switch(new_page: Any, web_server: Any) -> None:
    """The contract choice used to vanish when the language was switched under it: the view still said "your turn,
    choose", but no dialog offered the contracts, the bots waited for ever and only a reload helped.  Now it is
    drawn again in the new language, focused, and a contract can be chosen from it."""
    page, _, _, _ = seat_page(new_page, web_server.url)
    dialog = page.locator("dialog.choose-dialog[open]")
    deadline = time.monotonic() + 90
    while not dialog.count():  # act until this seat chooses (forehand in one deal of three)
        assert time.monotonic() < deadline, view(page)
        if act_once(page) is None:
            page.wait_for_timeout(30)
    expect(dialog.locator("h2")).to_have_text("Choose the contract")
    page.select_option("#lang-select", "pl")
    expect(dialog).to_have_count(1)
    expect(dialog.locator("h2")).to_have_text("Wybierz kontrakt")
    assert page.locator("dialog[open]").count() == 1
    assert focus_in(page, "dialog.choose-dialog[open]")
    seq = view(page)["seq"]
    dialog.locator(".contract-btn").first.click()
    page.wait_for_function("seq => window.mizerkaDebug.view().seq > seq", arg=seq)
    expect(dialog).to_have_count(0)
    assert view(page)["phase"] != "choose"


def test_the_deal_summary_survives_a_language_switch(new_page: Any, web_server: Any) -> None:
    """The deal summary (quotas, tricks, double-dummy figures) used to vanish for good on a language switch: it had
    been taken off its queue when it opened.  Now the same deal's summary is drawn again in the new language, with
    its figures, and its button goes on to the next deal."""
    page, _, _, _ = seat_page(new_page, web_server.url)
    summary = page.locator("dialog.summary-dialog[open]")
    play_until(page, lambda: bool(summary.count()), timeout=120, close_summary=False)
    deal = summary.get_attribute("data-deal")
    expect(summary.locator("h2")).to_contain_text(f"Deal {deal}:")
    rows = summary.locator("tbody tr").count()
    page.select_option("#lang-select", "ru")
    expect(summary).to_have_count(1)
    expect(summary).to_have_attribute("data-deal", str(deal))
    expect(summary.locator("h2")).to_contain_text(f"Сдача {deal}:")
    expect(summary.locator("tbody tr")).to_have_count(rows)
    assert focus_in(page, "dialog.summary-dialog[open]")
    summary.get_by_role("button", name="Следующая сдача").click()
    expect(page.locator("dialog.summary-dialog")).to_have_count(0)
    page.wait_for_function("d => window.mizerkaDebug.view().deal_no > d", arg=int(str(deal)))


def test_the_result_and_its_review_survive_a_language_switch(new_page: Any, web_server: Any) -> None:
    """The match result and a review opened over it used to vanish on a language switch, the result never to come
    back.  Both are drawn again in the new language, the review still over the result, at the card it showed, and
    it has the focus; closing it leaves the result."""
    page, _ = finished_match_page(new_page, web_server)
    over = page.locator("dialog.over-dialog[open]")
    expect(over.locator("h2").first).to_have_text("Game over")
    over.locator(".dialog-foot .review-btn").click()
    review = page.locator("dialog.review-dialog[open]")
    expect(review).to_have_attribute("data-state", "ready", timeout=ANALYSIS_WAIT * 1000)  # the solver, every card
    review.locator(".rv-next").click()
    review.locator(".rv-next").click()
    expect(review).to_have_attribute("data-pos", "2")
    page.select_option("#lang-select", "pl")
    expect(over).to_have_count(1)
    expect(over.locator("h2").first).to_have_text("Koniec gry")
    expect(review).to_have_count(1)
    expect(review).to_have_attribute("data-state", "ready")
    expect(review).to_have_attribute("data-pos", "2")
    expect(review.locator(".rv-done")).to_have_text("Zamknij")
    assert focus_in(page, "dialog.review-dialog[open]")
    # the review is the topmost: the last dialog in the top layer
    assert page.evaluate("() => [...document.querySelectorAll('dialog[open]')].pop().classList.contains("
                         "'review-dialog')")
    review.locator(".rv-done").click()
    expect(review).to_have_count(0)
    expect(over).to_have_count(1)
    expect(over.locator(".rematch-btn")).to_have_text("Zagraj jeszcze raz")
