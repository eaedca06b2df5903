"""The end of a match in the browser: the last deal's summary, the result, and "Play again", in real chromium
against the real server.

The deals before the part under test are played quickly through the protocol (``play_through_protocol``) with the
seat's token; the browser then takes the same seat, as a player coming back to the table would.

* The last deal's summary comes in one batch with ``match_end`` (only the last event carries a view): its button
  says "Close", not "Next deal", and closing it shows the result, the winner named once.
* "Play again" at a table with one human makes the rematch table at once (the rematch event: no reply carries the
  request's id) and the page moves there, to the same seat, its token kept for a reload; a page opened on the old
  table after the rematch was agreed elsewhere follows the view's ``rematch`` to the new one.  The result dialog
  opens on "Play again", its primary action (it used to open on the record's download, its first control), so
  Enter after the last deal plays again; a spectator has no "Play again", and the dialog opens on "Back to the
  lobby".  The tests read the new table from the address parsed (``wait_for_other_table``): a regular expression
  ``table=(?!OLD\\b)`` took an id ending in "-" (one table in 64) for another table.
* The wish to play again stands through a lost connection and a restart: the server keeps the wishes in memory
  only, so the view a page gets on reconnecting may no longer name its seat in ``rematch_asked``; the page takes
  that view as the truth and, still waiting, asks again, so the rematch is made once the other player asks
  (before, the page waited for ever with its button disabled).  A wish cut off by a dropped connection (the
  request answered ``network``) is no longer forgotten either: the reconnection asks again.  A reload after asking
  shows the page waiting, as the server has it.
"""

from __future__ import annotations

import re
import threading
from typing import Any

from playwright.sync_api import expect
from server_helpers import WS
from web_helpers import (
    api_post,
    api_quickplay,
    open_seat,
    play_through_protocol,
    play_until,
    table_of,
    view,
    wait_for_other_table,
    wait_for_table,
    wait_for_view_of,
)


def finished_pair(server: Any) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """A private table of Ala, Cezary and a bot (the Mizerka contract only: three deals), played to its end over
    the protocol, both humans at once: the table's id and Ala's and Cezary's join answers (token, seat)."""
    base = server.url
    info = api_post(base, "/api/tables", {"variant": "standard,contracts=MZ", "visibility": "private", "seats": [
        {"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}]})
    table = info["id"]
    ala = api_post(base, f"/api/tables/{table}/join", {"name": "Ala"})
    cezary = api_post(base, f"/api/tables/{table}/join", {"name": "Cezary"})
    failures: list[BaseException] = []

    def play(token: str) -> None:
        try:
            play_through_protocol(server, table, token, lambda v: v["phase"] == "over")
        except BaseException as error:  # the thread's failure is the test's: raised below
            failures.append(error)

    players = [threading.Thread(target=play, args=(j["token"],)) for j in (ala, cezary)]
    for thread in players:
        thread.start()
    for thread in players:
        thread.join()
    assert not failures, failures
    return table, ala, cezary


def wait_for_votes(page: Any, server: Any, table: str, seats: list[int]) -> None:
    """Wait (up to 5 s) until the server holds exactly *seats*' wishes for a rematch at *table*."""
    def votes() -> list[int]:
        return sorted(server.hub.tables[table].table.rematch_votes)

    for _ in range(50):
        if server.call(votes) == seats:
            return
        page.wait_for_timeout(100)
    assert server.call(votes) == seats


def test_the_last_deals_summary_closes_to_the_result(new_page: Any, web_server: Any) -> None:
    """The last deal's summary comes in one batch with match_end (only the last event carries a view): its button
    says "Close", not "Next deal", and closing it shows the result, with the winner named once."""
    table, token, seat = api_quickplay(web_server.url)
    last = play_through_protocol(web_server, table, token,
                                 lambda v: v["deal_no"] == v["n_deals"] and v["phase"] == "play")
    assert last["deal_no"] == 18
    page = new_page()
    open_seat(page, web_server.url, table, token, seat)
    play_until(page, lambda: bool(page.locator("dialog.summary-dialog[open]").count()), close_summary=False)
    summary = page.locator("dialog.summary-dialog[open]")
    expect(summary).to_contain_text("Deal 18")
    page.wait_for_function("() => window.mizerkaDebug.view().phase === 'over'")
    expect(summary.locator(".btn.primary")).to_have_text("Close")
    summary.locator(".btn.primary").click()
    over = page.locator("dialog.over-dialog[open]")
    expect(over).to_be_visible()
    # the winner is announced once (the score sheet in the dialog opens with the banner)
    expect(over.locator(".winner-banner")).to_have_count(1)
    # "Winner: …", "Winners: …", or "Shared win: …" when equal totals share it (the bots' play decides which)
    expect(over.locator(".winner-banner")).to_have_text(re.compile(r"^(Winners?|Shared win): "))


def test_play_again_moves_to_the_rematch_table(new_page: Any, web_server: Any) -> None:
    """'Play again' at a table with one human: the server makes the rematch table at once and says so with the
    rematch event (no reply carries the request's id); the page moves there, to the same seat.  The result dialog
    opens on "Play again", its primary action (it used to open on the record's download, the first control
    in it), so Enter after the last deal plays again."""
    table, token, seat = api_quickplay(web_server.url)
    play_through_protocol(web_server, table, token, lambda v: v["phase"] == "over")
    page = new_page()
    open_seat(page, web_server.url, table, token, seat)
    over = page.locator("dialog.over-dialog[open]")
    expect(over).to_be_visible()
    expect(over.locator(".winner-banner")).to_have_count(1)  # the winner is named once
    expect(over.get_by_role("button", name="Play again")).to_be_focused()
    over.get_by_role("button", name="Play again").click()
    new_table = wait_for_other_table(page, table)
    # the new table's first view comes over a fresh connection: allow a loaded machine more than the default 15 s
    v = wait_for_view_of(page, new_table)
    assert v["seat"] == seat and v["deal_no"] == 1 and v["status"] == "playing"
    expect(page.locator("dialog.over-dialog[open]")).to_have_count(0)
    # The seat token is kept for the new table: a reload comes back to the same seat there.
    page.reload()
    assert wait_for_table(page)["seat"] == seat and view(page)["table"] == new_table


def test_a_page_opened_after_the_rematch_goes_to_the_new_table(new_page: Any, web_server: Any) -> None:
    """The rematch was agreed while the page was away (asked over another connection): opening the old table, the
    page finds the new one in its view (``rematch``) and goes there, to the same seat."""
    table, token, seat = api_quickplay(web_server.url)
    play_through_protocol(web_server, table, token, lambda v: v["phase"] == "over")
    ws = WS(web_server.ws_url)
    try:
        ws.hello(table, token)
        ack = ws.request({"type": "rematch", "id": "r"})
    finally:
        ws.close()
    assert ack["type"] == "ack" and ack["table"] not in (None, table), ack
    page = new_page()
    open_seat(page, web_server.url, table, token, seat)
    wait_for_view_of(page, ack["table"], timeout=15_000)
    assert view(page)["seat"] == seat and view(page)["status"] == "playing"


def test_a_spectator_is_not_offered_play_again(new_page: Any, web_server: Any) -> None:
    """A spectator has no "Play again": the result dialog opens on its way out, "Back to the lobby" (it used to
    open on the record's download)."""
    table, token, _ = api_quickplay(web_server.url)
    play_through_protocol(web_server, table, token, lambda v: v["phase"] == "over")
    spectator = new_page()
    spectator.goto(f"{web_server.url}/?table={table}&watch=1")
    wait_for_table(spectator)
    over = spectator.locator("dialog.over-dialog[open]")
    expect(over).to_be_visible()
    expect(over.get_by_role("button", name="Back to the lobby")).to_be_focused()
    expect(over.get_by_role("button", name="Play again")).to_have_count(0)


def test_the_rematch_tests_read_the_new_table_from_the_address_parsed() -> None:
    """The two rematch tests once matched the address with ``table=(?!OLD\\b)``: for an id ending in "-" (one table
    in 64) the old address itself matched, and the test waited 40 s for the old table's view while the page showed
    the new one.  ``wait_for_other_table`` parses the address instead."""
    old = "kFY2aEVO4qfMg36-"
    assert re.search(r"\?table=(?!" + re.escape(old) + r"\b)", f"http://127.0.0.1:1/?table={old}")  # the old trap
    assert table_of(f"http://127.0.0.1:1/?table={old}") == old
    assert table_of("http://127.0.0.1:1/?table=jRtudfLm2M_b_ruv&watch=1") == "jRtudfLm2M_b_ruv"
    assert table_of("http://127.0.0.1:1/") is None


def test_play_again_asked_before_a_restart_is_asked_again(new_page: Any, web_server: Any) -> None:
    base = web_server.url
    table, ala, cezary = finished_pair(web_server)

    pages = []
    for entry in (ala, cezary):
        page = new_page()
        open_seat(page, base, table, entry["token"], entry["seat"])
        expect(page.locator("dialog.over-dialog[open] .rematch-btn")).to_be_enabled()
        pages.append(page)
    a, c = pages
    a.locator("dialog.over-dialog[open] .rematch-btn").click()
    expect(a.locator("dialog.over-dialog[open] .rematch-out")).to_have_text("Waiting for the other players to agree…")
    wait_for_votes(a, web_server, table, [ala["seat"]])

    # What a restart does to the wish: the server keeps it in memory only, and the page reconnects to a server
    # that has forgotten it (the table read back from the database has no rematch_asked).
    web_server.call(lambda: web_server.hub.tables[table].table.rematch_votes.clear())
    a.evaluate("() => window.mizerkaDebug.socket.simulateDrop()")
    a.wait_for_function("() => window.mizerkaDebug.states.filter((s) => s === 'open').length >= 2")
    # the page, still waiting, asked again: the server has Ala's wish once more
    wait_for_votes(a, web_server, table, [ala["seat"]])
    expect(a.locator("dialog.over-dialog[open] .rematch-out")).to_have_text("Waiting for the other players to agree…")

    c.locator("dialog.over-dialog[open] .rematch-btn").click()
    for page in (a, c):
        page.wait_for_function("t => window.mizerkaDebug.view() && window.mizerkaDebug.view().table !== t", arg=table)
    assert view(a)["table"] == view(c)["table"]


def test_a_page_shows_play_again_as_the_server_has_it(new_page: Any, web_server: Any) -> None:
    """A reload after asking: the view's rematch_asked names the seat, so the page says it is waiting (and does not
    offer the button again); a wish the server no longer has, and the page never made, leaves the button on."""
    base = web_server.url
    table, ala, _ = finished_pair(web_server)
    a = new_page()
    open_seat(a, base, table, ala["token"], ala["seat"])
    a.locator("dialog.over-dialog[open] .rematch-btn").click()
    expect(a.locator("dialog.over-dialog[open] .rematch-out")).to_have_text("Waiting for the other players to agree…")
    a.reload()
    a.wait_for_function("() => window.mizerkaDebug && window.mizerkaDebug.view() !== null")
    expect(a.locator("dialog.over-dialog[open] .rematch-btn")).to_be_disabled()
    expect(a.locator("dialog.over-dialog[open] .rematch-out")).to_have_text("Waiting for the other players to agree…")


def test_a_play_again_cut_off_by_a_dropped_connection_is_asked_again(new_page: Any, web_server: Any) -> None:
    """The connection dropped while "Play again" was on its way: the socket answered the request ``network``, the
    page forgot the wish (the button came back with "Not sent") and the reconnection did not ask again, so the
    rematch waited for a wish the server never kept.  (A race that made the restart test above fail now and then.)
    The wish now stands, and the reconnection's view settles it."""
    base = web_server.url
    table, ala, _cezary = finished_pair(web_server)
    page = new_page()
    open_seat(page, base, table, ala["token"], ala["seat"])
    expect(page.locator("dialog.over-dialog[open] .rematch-btn")).to_be_enabled()
    page.evaluate("""() => {
        const socket = window.mizerkaDebug.socket;
        socket.ws.send = () => {};  // the wish is lost on the way, as on a connection that is going down
        document.querySelector('dialog.over-dialog[open] .rematch-btn').click();
        socket.simulateDrop();  // before any answer: the request is answered "network"
    }""")
    page.wait_for_function("() => window.mizerkaDebug.states.filter((s) => s === 'open').length >= 2")
    wait_for_votes(page, web_server, table, [ala["seat"]])
    waiting = "Waiting for the other players to agree…"
    expect(page.locator("dialog.over-dialog[open] .rematch-out")).to_have_text(waiting)
    expect(page.locator("dialog.over-dialog[open] .rematch-btn")).to_be_disabled()
