"""The second audit of the browser client (session 13), from a demanding player's side: the keyboard (where the
focus goes), what a screen reader hears, the players' own language for every message, a spectator's view of the
whole table, the open-tables list past its first page, and private tables with bots and options.

Each test here failed on the client as it was before the audit.
"""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect
from test_web_audit_s12 import api_quickplay, open_seat, play_through_protocol
from web_helpers import play_until, quickplay, view, wait_for_table

from conftest import WebServer


def in_language(page: Any, code: str) -> None:
    """The page starts in *code* (as after choosing it once: the choice is remembered)."""
    page.add_init_script(f"localStorage.setItem('mizerka.lang', '{code}')")


def api(base: str, method: str, path: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def announcements(page: Any) -> list[str]:
    return list(page.evaluate("() => window.mizerkaDebug.announcements()"))


def active(page: Any, script: str) -> Any:
    """Evaluate *script* with ``e`` bound to the focused element."""
    return page.evaluate(f"() => {{ const e = document.activeElement; return {script}; }}")


# -- keyboard ---------------------------------------------------------------------------------------


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


# -- screen reader ----------------------------------------------------------------------------------


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


# -- the players' language --------------------------------------------------------------------------


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


def test_watching_a_table_without_spectators_says_so_in_russian(new_page: Any, web_server: Any) -> None:
    info = api(web_server.url, "POST", "/api/tables", {"visibility": "private", "spectators": False})
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


# -- spectators -------------------------------------------------------------------------------------


def test_a_spectator_sees_every_seat(new_page: Any, web_server: Any) -> None:
    """A spectator has no seat of its own at the bottom: seat 1 (the first) was drawn nowhere, so its name,
    role, card count and tricks were missing; it is shown there, with its cards face down."""
    page = new_page()
    v = quickplay(page, web_server.url)
    play_until(page, lambda: view(page).get("phase") == "play", timeout=60)
    spectator = new_page()
    spectator.goto(f"{web_server.url}/?table={v['table']}&watch=1")
    wait_for_table(spectator)
    expect(spectator.locator(".seat")).to_have_count(3)
    seat0 = spectator.locator('.seat[data-seat="0"]')
    expect(seat0).to_contain_text(view(page)["players"][0]["name"])
    expect(seat0.locator(".mini-hand .card-back, .mini-hand > *")).not_to_have_count(0)
    expect(spectator.locator(".hand .card")).to_have_count(0)  # no faces anywhere but the trick


# -- the lobby --------------------------------------------------------------------------------------


@pytest.fixture
def busy_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    """A server of its own, with more public tables than the lobby's first page holds."""
    server = WebServer(f"sqlite:///{tmp_path_factory.mktemp('busy') / 'busy.sqlite3'}").start()
    for _ in range(105):
        api(server.url, "POST", "/api/tables", {"visibility": "public"})
    yield server
    server.stop()


def test_the_open_tables_list_goes_past_its_first_page(new_page: Any, busy_server: Any) -> None:
    """``GET /api/tables`` gives 100 tables a page and says how many there are (``X-Total-Count``): the lobby
    says so, and offers the rest."""
    page = new_page()
    page.goto(busy_server.url + "/")
    items = page.locator(".table-list li")
    expect(items).to_have_count(100)
    expect(page.locator(".open-tables")).to_contain_text("105")
    page.get_by_role("button", name="Show more").click()
    expect(items).to_have_count(105)
    expect(page.get_by_role("button", name="Show more")).to_have_count(0)


def test_a_private_table_with_a_bot_and_options(new_page: Any, web_server: Any) -> None:
    """The lobby says empty seats can be given to bots: the private table can be made for one friend and a bot,
    without hints and without spectators, and then waits for the friend only."""
    page = new_page()
    page.goto(web_server.url + "/")
    page.select_option("#private-opponents", "1")
    page.get_by_label("Hints").uncheck()
    page.get_by_label("Spectators may watch").uncheck()
    page.click("#create-table")
    page.wait_for_url(re.compile(r"\?table="))
    v = wait_for_table(page)
    kinds = [p["kind"] for p in v["players"]]
    assert sorted(kinds) == ["bot", "human", "human"], v["players"]
    assert v["options"]["hints"] is False and v["options"]["spectators"] is False
    assert v["status"] == "waiting"
    # a friend joins with the link, and the match starts
    friend = new_page()
    friend.goto(f"{web_server.url}/?table={v['table']}")
    friend.click("#join-table")
    wait_for_table(friend)
    page.wait_for_function("() => window.mizerkaDebug.view().status === 'playing'")


def test_two_tabs_with_the_same_seat_follow_each_other(new_page: Any, web_server: Any) -> None:
    """Checked, fine before: the same seat open in two tabs; what one does, the other sees."""
    page = new_page()
    v = quickplay(page, web_server.url)
    other = page.context.new_page()
    other.goto(f"{web_server.url}/?table={v['table']}")
    assert wait_for_table(other)["seat"] == v["seat"]
    play_until(page, lambda: view(page).get("phase") == "play" and view(page).get("tricks_played", 0) >= 1)
    other.wait_for_function("s => window.mizerkaDebug.view().seq >= s", arg=view(page)["seq"])
    assert view(other)["hand"] == view(page)["hand"]


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
