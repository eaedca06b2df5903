"""Sitting in for the computer: a newcomer takes over, during an unrated match, a seat a computer player plays for
good (a bot's seat, or one its human gave up), in real chromium against the real server (docs/web.md, *Addresses*).

The server marks such a seat ``takeover`` (``GET /api/tables``, the views' ``players``) and seats whoever joins it
there, under his own name (``POST /api/tables/{id}/join`` with ``seat``).  The browser offers it in three places:
the join page of a table with no open seat ("Sit in for Bot 2", one button a seat, the seats marked as the
computer's), the lobby's open tables (**Sit in** beside **Watch**, the row counting the seats to take over rather
than "0 seats free"), and a spectator's table page (the buttons come and go with the views).  Each ends at the
table as its player; a join refused because someone was faster shows the refusal and changes nothing.

Each test makes its own table of Ala (joined through the REST API, never connected) and two random bots, so that
the match is on and the two bots' seats may be taken over.
"""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import expect
from web_helpers import api_get, api_post, view, wait_for_table

SEATS = [{"kind": "human"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]


def playing_table(base: str, **options: Any) -> str:
    """A table of Ala and two random bots, its match begun (Ala joined through the REST API); its id."""
    body = {"variant": "standard,contracts=NT+MZ", "seats": SEATS, **options}
    table = str(api_post(base, "/api/tables", body)["id"])
    assert api_post(base, f"/api/tables/{table}/join", {"name": "Ala"})["seat"] == 0
    info = api_get(base, f"/api/tables/{table}")
    assert info["status"] == "playing"
    assert [s["takeover"] for s in info["seats"]] == [False, True, True], info["seats"]
    return table


def named_page(new_page: Any, base: str, name: str) -> Any:
    """A new browser whose player is called *name* in the lobby (the name a join sends)."""
    page = new_page()
    page.goto(base + "/")
    page.fill("#player-name", name)
    page.locator("#player-name").blur()
    return page


def assert_seated(page: Any, base: str, table: str, seat: int, name: str) -> None:
    """The page shows *table* to its player at *seat*, the seat is *name*'s on the server, and nobody may take it
    over any more."""
    page.wait_for_url(f"**/?table={table}")
    wait_for_table(page)
    page.wait_for_function("s => window.mizerkaDebug.view().seat === s", arg=seat)
    players = view(page)["players"]
    assert players[seat]["name"] == name and players[seat]["kind"] == "human", players
    assert not players[seat]["takeover"]
    expect(page.locator(".me > .seat .seat-name")).to_have_text("You")
    # he plays on with the seat's total, and his seat says from which deal (the server's since_deal)
    since = players[seat]["since_deal"]
    assert since >= 1
    expect(page.locator(".me > .seat .since-deal")).to_have_text(f"from deal {since}")
    expect(page.locator(".me > .seat .since-deal")).to_have_attribute(
        "title", f"Sat in from deal {since}: the total before that is the earlier players' of this seat.")
    expect(page.locator(".spectator-note")).to_have_count(0)
    server = api_get(base, f"/api/tables/{table}")["seats"][seat]
    assert server["name"] == name and not server["takeover"], server


def test_the_join_page_offers_the_computers_seats(new_page: Any, web_server: Any) -> None:
    """No seat is open, so the invite link's page used to say "This table is full."; now it names the two seats the
    bots play, marked as the computer's, with a "Sit in for …" button each.  Bolek takes seat 1 and plays there;
    Cezary, whose page was opened before, asks for the same seat and is told the table is full."""
    base = web_server.url
    table = playing_table(base)
    late = named_page(new_page, base, "Cezary")
    late.goto(f"{base}/?table={table}")
    expect(late.locator("#take-over-1")).to_be_visible()

    page = named_page(new_page, base, "Bolek")
    page.goto(f"{base}/?table={table}")
    expect(page.locator("#take-over-1")).to_have_text("Sit in for Bot 2")
    expect(page.locator("#take-over-2")).to_have_text("Sit in for Bot 3")
    expect(page.locator("#join-table")).to_have_count(0)
    expect(page.locator('.error-text[data-kind="full"]')).to_have_count(0)
    expect(page.locator(".takeover-help")).to_contain_text("take over a seat the computer plays")
    seats = page.locator(".join-screen .waiting-seats li")
    expect(seats).to_have_count(3)
    expect(seats.nth(0)).to_have_text("Ala")
    for index in (1, 2):
        expect(seats.nth(index)).to_have_text(f"Bot {index + 1} (a computer player: free to take over)")
        expect(seats.nth(index)).to_have_class("taken takeover")
    expect(page.locator("#watch-table")).to_be_visible()
    page.click("#take-over-1")
    assert_seated(page, base, table, 1, "Bolek")
    assert view(page)["players"][2]["takeover"]  # the other bot's seat is still free to take

    # someone was faster: the refusal is the join button's, and Bolek keeps his seat
    late.click("#take-over-1")
    expect(late.locator('.error-text[data-kind="full"]')).to_have_text("This table is full.")
    assert api_get(base, f"/api/tables/{table}")["seats"][1]["name"] == "Bolek"
    assert "mizerka.seats" not in late.evaluate("() => Object.keys(localStorage)")


def test_the_lobby_lists_a_playing_table_with_a_seat_to_sit_in(new_page: Any, web_server: Any) -> None:
    """A public table whose match is on, its bots' seats free to take over: the lobby's row counts them (not "0
    seats free") and offers **Sit in**, which seats the player at the first of them."""
    base = web_server.url
    table = playing_table(base, visibility="public", name="Ala's match")
    page = named_page(new_page, base, "Dorota")
    row = page.locator(f'li[data-table="{table}"]')
    expect(row).to_contain_text("Ala's match")
    expect(row.locator(".tb-free")).to_have_text("2 seats to take over from the computer")
    expect(row.get_by_role("button", name="Join")).to_have_count(0)
    expect(row.get_by_role("button", name="Watch")).to_be_visible()
    row.get_by_role("button", name="Sit in").click()
    assert_seated(page, base, table, 1, "Dorota")

    # in Polish and Russian the row and its button are the language's
    lobby = new_page()
    lobby.goto(base + "/")
    row = lobby.locator(f'li[data-table="{table}"]')
    expect(row.locator(".tb-free")).to_have_text("1 seat to take over from the computer")
    lobby.select_option("#lang-select", "pl")
    expect(row.locator(".tb-free")).to_have_text("1 miejsce do przejęcia od komputera")
    expect(row.locator(".sit-in-btn")).to_have_text("Przejmij")
    lobby.select_option("#lang-select", "ru")
    expect(row.locator(".tb-free")).to_have_text("1 место можно занять вместо компьютера")
    expect(row.locator(".sit-in-btn")).to_have_text("Занять")


def test_a_spectator_sits_in_and_the_buttons_follow_the_views(new_page: Any, web_server: Any) -> None:
    """Two spectators see "Sit in for Bot 2" and "Sit in for Bot 3".  A refused join (the server's 409, as when
    someone was faster) is shown under the buttons and the page goes on watching; Edyta then takes seat 2 and
    plays there, and the other spectator's button for that seat goes with the next view."""
    base = web_server.url
    table = playing_table(base)
    other = new_page()
    other.goto(f"{base}/?table={table}&watch=1")
    assert wait_for_table(other)["seat"] is None
    page = named_page(new_page, base, "Edyta")
    page.goto(f"{base}/?table={table}&watch=1")
    assert wait_for_table(page)["seat"] is None
    expect(page.locator(".spectator-note")).to_be_visible()
    expect(page.locator("#sit-in-1")).to_have_text("Sit in for Bot 2")
    expect(page.locator("#sit-in-2")).to_have_text("Sit in for Bot 3")
    expect(page.locator("#sit-in-0")).to_have_count(0)

    refusal = {"error": "seat_taken", "message": "seat 1 is taken"}
    page.route(f"**/api/tables/{table}/join", lambda route: route.fulfill(
        status=409, content_type="application/json", body=json.dumps(refusal)))
    page.click("#sit-in-1")
    expect(page.locator(".sit-in .message.error")).to_have_text("That seat is taken.")
    assert "watch=1" in page.url and view(page)["seat"] is None
    expect(page.locator("#sit-in-1")).to_be_visible()
    page.unroute(f"**/api/tables/{table}/join")

    page.click("#sit-in-2")
    assert_seated(page, base, table, 2, "Edyta")
    expect(other.locator("#sit-in-2")).to_have_count(0)
    expect(other.locator("#sit-in-1")).to_be_visible()
    assert view(other)["players"][2]["name"] == "Edyta"
    # the other spectator hears who sits there now (the name changed under his eyes)
    other.wait_for_function("() => window.mizerkaDebug.announcements().includes('Edyta sits in for Bot 3.')")


def test_the_score_sheet_names_an_earlier_player_of_a_seat(new_page: Any, web_server: Any) -> None:
    """The score sheet's columns bear the names of who plays each seat now.  Where the server's row names another
    player for a seat (``players``: someone sat in for him since), that row's cell of the seat is set apart and says
    who played it, and the row's tooltip names the chooser who really chose; rows without ``players`` are as
    before."""
    page = new_page()
    page.goto(web_server.url + "/")
    rows = page.evaluate("""async () => {
      const sheet = await import('/js/sheet.js');
      const row = (deal_no, chooser, contract, scores, totals, players) => ({deal_no, dealer: (chooser + 2) % 3,
        chooser, contract, tricks: [4, 4, 5], scores, totals, dd: null, players});
      const view = {seat: 0, status: 'playing', phase: 'play', totals: [1, -3, 2], used: [['NT'], ['MZ'], []],
        players: [{name: 'Ala'}, {name: 'Bolek', since_deal: 2}, {name: 'Bot 3'}],
        score_sheet: [row(1, 1, 'MZ', [-1, -4, 5], [-1, -4, 5], ['Ala', 'Bot 2', 'Bot 3']),
                      row(2, 0, 'NT', [2, 1, -3], [1, -3, 2], ['Ala', 'Bolek', 'Bot 3'])]};
      const plain = sheet.renderScoreSheet({...view, score_sheet: view.score_sheet.map(({players, ...r}) => r)});
      return [sheet.renderScoreSheet(view), plain].map((root) => [...root.querySelectorAll('.sheet-deals tbody tr')]
        .map((tr) => ({title: tr.title, cells: [...tr.querySelectorAll('td.num:not(.total)')]
          .map((td) => [td.classList.contains('earlier-player'), td.title])})));
    }""")
    told, plain = rows
    assert told[0]["title"].startswith("\u2068Bot 2\u2069 · ")  # deal 1 was chosen by the bot, not by Bolek
    assert told[0]["cells"] == [[False, ""], [True, "Played by \u2068Bot 2\u2069"], [False, ""]]
    assert told[1]["title"].startswith("\u2068Ala\u2069 · ")
    assert all(not earlier for earlier, _ in told[1]["cells"])
    assert plain[0]["title"].startswith("\u2068Bolek\u2069 · ")  # without the server's players: the current names
    assert all(not earlier for row in plain for earlier, _ in row["cells"])
