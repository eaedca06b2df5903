"""Meeting strangers: a table listed under the lobby's open tables, found and joined from the list; and "Find
players", which seats strangers at one table.

The lobby used to create only private tables (reached by their invite link), so its list of open tables, with its
Join buttons, was empty for every player of the browser client: nobody could post a table that someone they did
not know would find.  The table panel now offers "List it under open tables: anyone may join" (a public table,
named after its creator, whose waiting panel says it is listed), and the lobby asks for the open tables again
every ten seconds, redrawing only when they changed, so a table listed after a lobby was opened appears there
without a Refresh.

``GET /api/tables`` gives 100 tables a page and says how many there are (``X-Total-Count``): the lobby says so, and
offers the rest ("Show more"), checked on a server of its own holding 105 public tables.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect
from web_helpers import api_get, api_post, view, wait_for_table

from conftest import WebServer


def _public_ids(base: str) -> set[str]:
    return {tb["id"] for tb in api_get(base, "/api/tables?limit=500")}


def test_a_listed_table_is_found_and_joined_from_the_open_tables(new_page: Any, web_server: Any) -> None:
    base = web_server.url
    # opened before the table exists: the poll must bring it
    early = new_page()
    early.goto(base + "/")
    early.fill("#player-name", "Edyta")
    early.locator("#player-name").blur()
    expect(early.locator("#create-table")).to_be_visible()

    host = new_page()
    host.goto(base + "/")
    host.fill("#player-name", "Dorota")
    host.locator("#player-name").blur()
    # private by default: the texts say so
    expect(host.locator("#create-table")).to_have_text("Create a private table")
    expect(host.locator("#private-opponents option").first).to_have_text("Two friends")
    host.check("#create-listed")
    expect(host.locator("#create-table")).to_have_text("Create an open table")
    expect(host.locator("#create-help")).to_contain_text("Anyone may take a seat")
    expect(host.locator("#private-opponents option").first).to_have_text("Two players")
    host.click("#create-table")
    expect(host.locator(".waiting")).to_be_visible()
    expect(host.locator(".waiting .listed-note")).to_have_text(
        "This table is listed under the lobby's open tables: anyone may join.")
    table = wait_for_table(host)["table"]
    listed = {tb["id"]: tb for tb in api_get(base, "/api/tables?limit=500")}
    assert table in listed, "the table is not public"
    assert listed[table]["name"] == "Dorota's table" and listed[table]["status"] == "waiting"

    # a lobby opened now lists it at once, with its creator and two free seats
    guest = new_page()
    guest.goto(base + "/")
    guest.fill("#player-name", "Bartek")
    guest.locator("#player-name").blur()
    row = guest.locator(f'li[data-table="{table}"]')
    expect(row).to_contain_text("Dorota's table")
    expect(row).to_contain_text("Dorota")
    expect(row).to_contain_text("2 seats free")
    row.get_by_role("button", name="Join").click()
    guest.wait_for_url(f"**/?table={table}")
    seat = wait_for_table(guest)["seat"]
    assert seat is not None and seat != view(host)["seat"]

    # the lobby opened before the table was listed shows it by itself (no Refresh), with one seat left
    early_row = early.locator(f'li[data-table="{table}"]')
    expect(early_row).to_contain_text("1 seat free", timeout=25_000)
    early_row.get_by_role("button", name="Join").click()
    early.wait_for_url(f"**/?table={table}")
    wait_for_table(early)
    for page in (host, guest, early):
        page.wait_for_function("() => window.mizerkaDebug.view().status === 'playing'")
    assert {view(p)["seat"] for p in (host, guest, early)} == {0, 1, 2}
    names = {p.locator(".felt .seat .seat-name").first.inner_text() for p in (host, guest, early)}
    assert names <= {"Dorota", "Bartek", "Edyta"}


def test_a_private_table_stays_off_the_list_and_a_poll_keeps_a_refusal_shown(new_page: Any, web_server: Any) -> None:
    base = web_server.url
    page = new_page()
    page.goto(base + "/")
    before = _public_ids(base)
    page.click("#create-table")
    expect(page.locator(".waiting")).to_be_visible()
    table = wait_for_table(page)["table"]
    assert table not in _public_ids(base) | before
    expect(page.locator(".waiting .listed-note")).to_have_count(0)

    # a refused action's message outlives the lobby's polls of the open tables (they clear only their own errors)
    lobby = new_page()
    lobby.route("**/api/quickplay", lambda route: route.fulfill(
        status=503, content_type="application/json",
        body=json.dumps({"error": "server_full", "message": "the server is full"})))
    lobby.goto(base + "/")
    lobby.click("#quickplay")
    alert = lobby.locator(".lobby .message.error")
    expect(alert).to_be_visible()
    text = alert.inner_text()
    lobby.wait_for_timeout(11_000)  # one poll (every 10 s)
    expect(alert).to_have_text(text)


def test_find_players_seats_three_strangers_at_one_table(new_page: Any, web_server: Any) -> None:
    """"Find players" (POST /api/pair) under the rules chosen in the lobby: the first opens a listed table and
    waits, the next two are seated there, and the match begins.  Rules no other test pairs under (no-exchange),
    since the server is shared and pairing takes any fitting table."""
    pages = []
    for name in ("Iga", "Jacek", "Kasia"):
        page = new_page()
        page.goto(web_server.url + "/")
        page.fill("#player-name", name)
        page.locator("#player-name").blur()
        page.wait_for_function("() => document.querySelectorAll('#variant option').length > 1")
        page.select_option("#variant", "no-exchange")
        expect(page.locator("#pair")).to_have_text("Find players")
        page.click("#pair")
        page.wait_for_url("**/?table=*")
        wait_for_table(page)
        pages.append(page)
        if len(pages) == 1:
            expect(page.locator(".waiting .listed-note")).to_be_visible()
            table = view(page)["table"]
            shown = {tb["id"]: tb for tb in api_get(web_server.url, "/api/tables?limit=500")}[table]
            assert shown["name"] == "Iga's table" and shown["variant"] == "no-exchange"
    assert {view(p)["table"] for p in pages} == {table}
    for page in pages:
        page.wait_for_function("() => window.mizerkaDebug.view().status === 'playing'")
    assert {view(p)["seat"] for p in pages} == {0, 1, 2}


@pytest.fixture
def busy_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    """A server of its own, with more public tables than the lobby's first page holds."""
    server = WebServer(f"sqlite:///{tmp_path_factory.mktemp('busy') / 'busy.sqlite3'}").start()
    for _ in range(105):
        api_post(server.url, "/api/tables", {"visibility": "public"})
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
