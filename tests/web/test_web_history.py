"""The lobby's recent games and the read-only page of a finished match (js/lobby.js, js/history.js), in real
chromium against the real server.

A short public match (two contracts: six deals) is played through the protocol with the seat's token, bots at
the other seats (``web_helpers.play_through_protocol``); a browser that holds no seat then finds it under "Recent
games", opens it from the keyboard, sees its score sheet and reviews a deal card by card.  A bad match id says so;
the list pages with "Show more games" (offset); the page fits a 375 px phone in Russian.

Right-to-left names on the match page and in the lobby's Recent games keep their order and their totals' signs
("דוד −5, علي +2" was drawn "2+ علي ,5− דוד"): each name is isolated in a <bdi>.
"""

from __future__ import annotations

import json
import re
import threading
import urllib.request
from typing import Any
from urllib.parse import parse_qs, urlparse

from playwright.sync_api import expect
from web_helpers import ANALYSIS_WAIT, api_post, in_language, play_through_protocol

SHORT = "standard,contracts=NT+MZ"  # six deals


def post(base: str, path: str, body: Any) -> Any:
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def get(base: str, path: str) -> Any:
    with urllib.request.urlopen(base + path, timeout=30) as response:
        return json.loads(response.read())


def finished_public_match(base: str, server: Any, name: str) -> tuple[str, dict[str, Any]]:
    """A public table of Ala and two bots, played to its end: its id and its history entry."""
    seats = [{"kind": "human"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]
    table = post(base, "/api/tables", {"seats": seats, "variant": SHORT, "visibility": "public", "name": name})["id"]
    joined = post(base, f"/api/tables/{table}/join", {"name": "Ala"})
    play_through_protocol(server, table, joined["token"], lambda v: v["phase"] == "over")
    entry = next(e for e in get(base, "/api/history?limit=50") if e["id"] == table)
    return table, entry


def no_sideways_scroll(page: Any) -> None:
    assert page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 0


def test_a_finished_match_from_the_lobby_to_a_deals_review(new_page: Any, web_server: Any) -> None:
    base = web_server.url
    table, entry = finished_public_match(base, web_server, "Recent one")
    sheet = get(base, f"/api/tables/{table}/sheet")
    page = new_page()
    page.goto(base + "/")
    recent = page.locator("section.recent-games")
    expect(recent.get_by_role("heading", name="Recent games")).to_be_visible()
    # below the open tables
    assert page.evaluate("() => !!(document.querySelector('section.open-tables').compareDocumentPosition("
                         "document.querySelector('section.recent-games')) & Node.DOCUMENT_POSITION_FOLLOWING)")
    item = recent.locator(f'li[data-match="{table}"]')
    expect(item).to_be_visible()
    expect(item.locator(".tb-name")).to_have_text("Recent one")
    players = item.locator(".tb-players")
    for name, total in zip(entry["players"], entry["totals"], strict=True):
        expect(players).to_contain_text(f"{name} {'+' if total > 0 else ''}{total}".replace("-", "\u2212"))
    winners = [entry["players"][i] for i in entry["winners"]]
    expect(item.locator(".tb-winner")).to_contain_text(winners[0])
    expect(item.locator(".tb-variant")).to_contain_text("Standard")
    expect(item.locator(".tb-variant")).to_contain_text("Ended ")
    link = item.get_by_role("link", name=re.compile("^Score sheet and replay: "))
    expect(link).to_have_attribute("href", f"/?match={table}")

    # from the keyboard: the link opens the match page
    link.focus()
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(rf"\?match={table}$"))
    match = page.locator("section.match-page")
    expect(match.locator("h2#match-title")).to_have_text("Recent one")
    expect(match.locator("h2#match-title")).to_be_focused()
    expect(match.locator(".match-meta")).to_contain_text("6 deals")
    expect(match.locator(".winner-banner")).to_contain_text(winners[0])
    rows = match.locator(".sheet-deals tbody tr")
    expect(rows).to_have_count(6)
    expect(rows.nth(5).locator("td.total")).to_have_text(
        [f"{'+' if s > 0 else ''}{s}".replace("-", "\u2212") for s in sheet["totals"]])
    expect(match.locator(".sheet-grid thead th")).to_have_count(4)  # player, NT, MZ, total: the variant's columns
    expect(match.locator("a#match-record")).to_have_attribute("href", f"/api/tables/{table}/record")

    # a deal's review, card by card from the keyboard; Escape gives the focus back to its button
    button = match.get_by_role("button", name="Review deal 2")
    button.focus()
    page.keyboard.press("Enter")
    dialog = page.locator("dialog.review-dialog[open]")
    expect(dialog).to_have_attribute("data-state", "ready", timeout=ANALYSIS_WAIT * 1000)
    expect(dialog.locator("h2")).to_contain_text("Deal 2: ")
    expect(dialog.locator(".rv-hand")).to_have_count(3)
    expect(dialog.get_by_role("button", name="Next card")).to_be_focused()
    page.keyboard.press("ArrowRight")
    expect(dialog).to_have_attribute("data-pos", "1")
    page.keyboard.press("End")
    expect(dialog).to_have_attribute("data-pos", "39")
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    expect(button).to_be_focused()

    # back, and forward to a bad id: the page says so and offers the lobby
    page.go_back()
    expect(page.locator(f'section.recent-games li[data-match="{table}"]')).to_be_visible()
    page.goto(base + "/?match=nosuchtable")
    expect(page.locator(".match-page .error-text")).to_have_text("There is no game with this id.")
    page.get_by_role("button", name="Back to the lobby").click()
    expect(page.locator("section.recent-games")).to_be_visible()

    # a 375 px phone, in Russian: the lobby's list and the match page fit; a refusal in Russian
    phone = new_page(viewport={"width": 375, "height": 667})
    phone.goto(base + "/")
    phone.select_option("#lang-select", "ru")
    expect(phone.get_by_role("heading", name="Последние партии")).to_be_visible()
    expect(phone.locator(f'li[data-match="{table}"]')).to_be_visible()
    no_sideways_scroll(phone)
    phone.locator(f'li[data-match="{table}"] a').click()
    expect(phone.locator(".sheet-deals tbody tr")).to_have_count(6)
    expect(phone.locator('.review-btn[data-deal="6"]')).to_be_visible()
    no_sideways_scroll(phone)
    phone.goto(base + "/?match=" + "x" * 80)
    expect(phone.locator(".match-page .error-text")).to_have_text("Партии с таким идентификатором нет.")


def test_recent_games_page_with_show_more(new_page: Any, web_server: Any) -> None:
    """Ten games a page; "Show more games" asks for the next page by offset, and is gone after the last one."""
    asked: list[dict[str, list[str]]] = []

    def entry(i: int) -> dict[str, Any]:
        return {"id": f"fake{i:04d}", "name": f"Game {i}", "variant": "standard", "finished_at": 1.7e9 - i * 60,
                "players": ["Ala", "Bolek", "Cezary"], "totals": [3, -1, -2], "winners": [0]}

    def history(route: Any) -> None:
        query = parse_qs(urlparse(route.request.url).query)
        asked.append(query)
        offset, limit = int(query["offset"][0]), int(query["limit"][0])
        page_of = [entry(i) for i in range(offset, min(offset + limit, 13))]
        route.fulfill(status=200, content_type="application/json", body=json.dumps(page_of))

    page = new_page()
    page.route(re.compile(r".*/api/history\?.*"), history)
    page.goto(web_server.url + "/")
    items = page.locator("section.recent-games li")
    expect(items).to_have_count(10)
    more = page.get_by_role("button", name="Show more games")
    more.focus()
    page.keyboard.press("Enter")
    expect(items).to_have_count(13)
    expect(more).to_have_count(0)
    expect(page.locator('section.recent-games li[data-match="fake0010"] a')).to_be_focused()
    assert [(q["offset"], q["limit"]) for q in asked] == [(["0"], ["10"]), (["10"], ["10"])]
    expect(items.first.locator(".tb-players")).to_have_text("Ala +3, Bolek \u22121, Cezary \u22122")


def test_the_lobbys_refresh_brings_in_a_match_finished_since(new_page: Any, web_server: Any) -> None:
    """"Refresh" reloads the whole lobby: a match that ended after the page was opened appears in Recent games."""
    base = web_server.url
    page = new_page()
    # the lobby's first list of games is in before the match ends (the section shows before it is: a match
    # finished while that request was still on its way would already be in it)
    with page.expect_response(lambda response: "/api/history" in response.url):
        page.goto(base + "/")
    expect(page.locator("section.recent-games")).to_be_visible()
    table, _entry = finished_public_match(base, web_server, "Ended meanwhile")
    expect(page.locator(f'section.recent-games li[data-match="{table}"]')).to_have_count(0)
    page.locator("section.open-tables").get_by_role("button", name="Refresh").click()
    expect(page.locator(f'section.recent-games li[data-match="{table}"]')).to_have_count(1)


X_OF = """([sel, needle]) => { const root = document.querySelector(sel);
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const i = n.data.indexOf(needle); if (i < 0) continue;
    const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + needle.length);
    return r.getBoundingClientRect().left; }
  return null; }"""


SIGNS = """(sel) => { const out = [];
  const walker = document.createTreeWalker(document.querySelector(sel), NodeFilter.SHOW_TEXT);
  const x = (n, i) => { const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + 1);
    return r.getBoundingClientRect().left; };
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    for (const m of n.data.matchAll(/[+\u2212](?=\\d)/g)) out.push([x(n, m.index), x(n, m.index + 1)]); }
  return out; }"""  # each total's sign and its first digit, as drawn: [x of the sign, x of the digit]


def test_right_to_left_names_keep_the_players_line_in_order(new_page: Any, web_server: Any) -> None:
    base = web_server.url
    first, second = "דוד", "علي"
    table = api_post(base, "/api/tables", {"variant": SHORT, "visibility": "public", "name": "RTL", "seats": [
        {"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}]})["id"]
    tokens = [api_post(base, f"/api/tables/{table}/join", {"name": name})["token"] for name in (first, second)]
    threads = [threading.Thread(target=play_through_protocol, args=(web_server, table, token,
                                                                    lambda v: v["phase"] == "over"))
               for token in tokens]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=180)
    page = new_page()
    page.goto(f"{base}/?match={table}")
    line = page.locator(".match-players")
    expect(line).to_contain_text(first)
    # logical order and every total's sign before its digits, in the text and as drawn
    assert line.locator("bdi").all_inner_texts()[:2] == [first, second]
    x1, x2 = page.evaluate(X_OF, [".match-players", first]), page.evaluate(X_OF, [".match-players", second])
    assert x1 is not None and x2 is not None and x1 < x2, (x1, x2)
    signs = page.evaluate(SIGNS, ".match-players")
    assert signs and all(sign < digit for sign, digit in signs), signs
    # the winner banner of the sheet isolates the names it lists too
    expect(page.locator(".winner-banner bdi").first).to_be_visible()
    # the lobby's Recent games: the same line, each name isolated
    page.goto(base + "/")
    item = page.locator(f".recent-list li[data-match='{table}']")
    expect(item).to_be_visible()
    assert item.locator(".tb-players bdi").all_inner_texts() == [first, second, "Bot 3"]
    y1, y2 = page.evaluate(X_OF, [f".recent-list li[data-match='{table}'] .tb-players", first]), \
        page.evaluate(X_OF, [f".recent-list li[data-match='{table}'] .tb-players", second])
    assert y1 < y2, (y1, y2)


def test_the_recent_games_name_the_bots_in_the_pages_language(new_page: Any, web_server: Any) -> None:
    """The recent games listed a match's names as stored, so a Russian lobby showed "Bot 2" in Latin letters beside
    the table's "Бот 2": the listing says which names are the server's own (``default_names``) now."""
    base = web_server.url
    table, entry = finished_public_match(base, web_server, "Русская")
    assert entry["default_names"] == [1, 2] and entry["players"][1:] == ["Bot 2", "Bot 3"]
    page = new_page()
    in_language(page, "ru")
    page.goto(base + "/")
    item = page.locator(f'section.recent-games li[data-match="{table}"]')
    expect(item.locator(".tb-players")).to_contain_text("Бот 2")
    expect(item.locator(".tb-players")).to_contain_text("Бот 3")
    expect(item.locator(".tb-players")).to_contain_text("Ala")
    assert "Bot" not in item.locator(".tb-players").inner_text()


def test_a_match_page_of_a_match_in_play_leads_to_its_table(new_page: Any, web_server: Any) -> None:
    """A match's link opened before its end said "The match is not over yet." with only the way back to the lobby:
    it offers the table now, where one may sit, play on or watch."""
    table = api_post(web_server.url, "/api/quickplay", {"name": "Ala", "level": "random"})["table"]["id"]
    page = new_page()
    page.goto(f"{web_server.url}/?match={table}")
    expect(page.locator(".match-page .error-text")).to_have_text("The match is not over yet.")
    to_table = page.locator("#to-table")
    expect(to_table).to_have_text("Go to the table")
    expect(to_table).to_be_focused()
    expect(page.locator("#back-to-lobby")).to_be_visible()
    to_table.click()
    page.wait_for_url(re.compile(rf"/\?table={table}$"))
    expect(page.locator(".join-screen")).to_be_visible()  # a stranger's page of the table: sit in, watch or go back
