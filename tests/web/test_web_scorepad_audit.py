"""The score pad (``/?scorepad=1``) as a demanding score keeper meets it, in real chromium against the real server:
what an audit found, one test each.

* ``seed002-literal`` has 17 tricks a deal, but the page filled the last count, the sum and the steps for 13: a
  right entry showed as wrong, and the page's own sum made the server refuse it.
* The last player's count could not be cleared: emptied, it was filled in again at once, so backspace did nothing
  and a 3 typed over the 1 made 13.
* "Start a new match" after a kept match the server could not be asked about left "Loading the kept match…" up,
  and cut its long names by UTF-16 units, halving an emoji at the cut.
* Undoing deal 1's contract sent the focus to Undo, which was then disabled: the focus fell to the page.
* A count over the deal's tricks was refused by the server, in English on every page.
* A save the browser refused (storage full or blocked) went unsaid, and − and + said nothing to a screen reader.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
from playwright.sync_api import expect

NAMES = ["Ala", "Bolek", "Cezary"]
KEY = "mizerka.scorepad"


def new_match(web_server: Any, variant: str = "standard") -> dict[str, Any]:
    response = httpx.post(web_server.url + "/api/scorepad", timeout=10,
                          json={"record": None, "new": {"players": NAMES, "first_dealer": 2, "variant": variant},
                                "entry": None})
    assert response.status_code == 200, response.text
    return response.json()  # type: ignore[no-any-return]


def open_kept(page: Any, web_server: Any, answer: dict[str, Any]) -> None:
    page.goto(web_server.url + "/?scorepad=1")
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [KEY, json.dumps(answer)])
    page.reload()


def at_tricks(page: Any, web_server: Any, contract: str) -> None:
    """A new standard match kept on the page, its first contract entered: the tricks are due."""
    open_kept(page, web_server, new_match(web_server))
    page.click(f"#sp-contract-{contract}")


def test_a_deal_of_17_tricks_is_entered_as_17(new_page: Any, web_server: Any) -> None:
    answer = new_match(web_server, "seed002-literal")
    assert answer["n_tricks"] == 17
    page = new_page()
    open_kept(page, web_server, answer)
    page.click("#sp-contract-H")
    page.get_by_label("Tricks of Ala", exact=True).fill("7")
    page.get_by_label("Tricks of Bolek", exact=True).fill("5")
    expect(page.locator("#sp-tricks-2")).to_have_value("5")
    expect(page.locator("#sp-sum")).to_have_text("Together: 17 of 17")
    expect(page.locator("#sp-sum")).not_to_have_class("wrong")
    page.click("#sp-save")
    expect(page.locator("#sp-deal-title")).to_contain_text("Deal 2 of 18")


def test_the_last_count_can_be_cleared_and_typed_again(new_page: Any, web_server: Any) -> None:
    page = new_page()
    at_tricks(page, web_server, "NT")
    page.get_by_label("Tricks of Ala", exact=True).fill("8")
    page.get_by_label("Tricks of Bolek", exact=True).fill("4")
    last = page.get_by_label("Tricks of Cezary", exact=True)
    expect(last).to_have_value("1")
    last.click()
    last.press("Backspace")
    expect(last).to_have_value("")  # not filled in again while it is typed in
    last.press("3")
    expect(last).to_have_value("3")
    expect(page.locator("#sp-sum")).to_have_text("Together: 15 of 13")
    last.fill("")
    page.get_by_label("Tricks of Ala", exact=True).click()  # left empty: worked out again
    expect(last).to_have_value("1")


def test_a_new_match_instead_of_a_kept_one_the_server_cannot_be_asked_about(new_page: Any, web_server: Any) -> None:
    answer = new_match(web_server)
    page = new_page()
    page.route("**/api/scorepad", lambda route: route.abort())  # offline
    open_kept(page, web_server, {"record": answer["record"]})  # an older page's form: the server must be asked
    expect(page.locator("#sp-problem-retry")).to_be_visible()
    page.click("#sp-problem-new")
    expect(page.locator("#sp-name-0")).to_be_visible()
    expect(page.locator(".scorepad .loading")).to_have_count(0)


def test_a_new_match_keeps_a_long_name_s_emoji_whole(new_page: Any, web_server: Any) -> None:
    """The names of a kept match are cut to the 40 characters a name may have: by UTF-16 units the cut halved an
    emoji at the 40th character, leaving a lone surrogate that no server takes."""
    answer = new_match(web_server)
    long_name = "A" * 39 + "\U0001F600"  # 40 characters, the last one two UTF-16 units
    record = {**answer["record"], "players": [long_name + "B", *NAMES[1:]]}
    page = new_page()
    page.route("**/api/scorepad", lambda route: route.abort())  # offline: the kept match cannot be checked
    open_kept(page, web_server, {"record": record})
    page.click("#sp-problem-new")
    expect(page.locator("#sp-name-0")).to_have_value(long_name)


def test_undoing_the_first_contract_leaves_the_focus_on_a_contract(new_page: Any, web_server: Any) -> None:
    page = new_page()
    at_tricks(page, web_server, "S")
    page.click("#sp-change")
    expect(page.locator("#sp-contract-S")).to_be_enabled()
    assert page.evaluate("() => document.activeElement.classList.contains('sp-contract')")


def test_a_count_over_the_deal_s_tricks_is_refused_in_the_page_s_language(new_page: Any, web_server: Any) -> None:
    page = new_page()
    at_tricks(page, web_server, "C")
    page.get_by_label("Tricks of Ala", exact=True).fill("14")
    page.get_by_label("Tricks of Bolek", exact=True).fill("0")
    page.get_by_label("Tricks of Cezary", exact=True).fill("0")
    page.click("#sp-save")
    alert = page.locator(".sp-entry [role=alert]")
    expect(alert).to_have_text("Ala cannot take more than 13 tricks.")
    expect(page.locator("#sp-tricks-0")).to_be_focused()
    page.select_option("#lang-select", "pl")
    expect(alert).to_have_text("Gracz Ala nie może wziąć więcej niż 13 lew.")


def test_a_match_the_browser_will_not_keep_is_said_to_be_lost_on_a_reload(new_page: Any, web_server: Any) -> None:
    """A full or blocked storage made every save fail without a word, while "The match is kept on this device"
    stayed on the page: a reload lost the match."""
    page = new_page()
    open_kept(page, web_server, new_match(web_server))
    page.evaluate("() => { Storage.prototype.setItem = () => { throw new DOMException('full', 'QuotaExceeded'); }; }")
    page.click("#sp-contract-D")
    expect(page.locator("#sp-not-kept")).to_contain_text("a reload would lose it")
    expect(page.locator("#announce-assertive")).to_contain_text("would not keep the match")


def test_the_steps_say_the_new_count_and_the_sum(new_page: Any, web_server: Any) -> None:
    page = new_page()
    at_tricks(page, web_server, "NT")
    page.click("#sp-more-0")
    page.click("#sp-more-0")
    expect(page.locator("#announce-polite")).to_contain_text("Ala: 2. Together: 2 of 13")
