"""What an audit of the browser game's less-travelled paths found (session 21), in real chromium against the real
server:

* "Play again" survives a server restart: the server keeps the wishes for a rematch in memory only, so the view a
  page gets on reconnecting no longer names its seat in ``rematch_asked``; the page takes that view as the truth
  and, still waiting, asks again, so the rematch is made once the other player asks (before, the page waited for
  ever with its button disabled, and nobody moved on);
* with four at the table the dealer sits out and the engine's role "D" goes to the dealer's right: the seat panels
  say so ("dealer, sits out", "dealer's right"), and so does the deal summary, instead of calling the dealer's
  right "dealer"; at three the dealer still plays as "dealer";
* a card clicked while the connection is down says it was not sent (the server cannot be reached, the page
  reconnects), never "The server refused: …" (the server refused nothing: it was not reached).
"""

from __future__ import annotations

import threading
from typing import Any

from playwright.sync_api import expect
from test_web_audit_s12 import open_seat, play_through_protocol
from web_helpers import VISIBLE_POINT, api_post, play_until, view

NOT_SENT = "Not sent: the server cannot be reached; reconnecting…"


def view_and_role_texts(page: Any) -> tuple[dict[str, Any], dict[int, str]]:
    """The client's view and each seat panel's role line, by seat (an empty string where the panel shows no role),
    read in one step: a deal the bots play without this seat (its dealer sits out at four) can end, and the next
    begin with another dealer, between two reads."""
    both: dict[str, Any] = page.evaluate("""() => ({view: window.mizerkaDebug.view(), roles: Object.fromEntries(
        [...document.querySelectorAll('.seat[data-seat]')]
        .map((e) => [e.dataset.seat, (e.querySelector('.role') || {}).textContent || '']))})""")
    return both["view"], {int(seat): text for seat, text in both["roles"].items()}


def quickplay_page(new_page: Any, base: str, variant: str) -> tuple[Any, str]:
    """A page holding Ala's seat at a new quick-play table (*variant*, random bots); the page and the table's id."""
    entry = api_post(base, "/api/quickplay", {"name": "Ala", "variant": variant, "level": "random"})
    page = new_page()
    open_seat(page, base, entry["table"]["id"], entry["token"], entry["seat"])
    return page, entry["table"]["id"]


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


def test_four_players_name_the_dealer_who_sits_out_and_the_dealers_right(new_page: Any, web_server: Any) -> None:
    page, _ = quickplay_page(new_page, web_server.url, "four-players")
    page.wait_for_function("() => ['choose', 'exchange', 'play'].includes(window.mizerkaDebug.view().phase)")
    v, roles = view_and_role_texts(page)
    dealer = v["dealer"]
    third = next(int(seat) for seat, role in v["roles"].items() if role == "D")
    assert str(dealer) not in v["roles"] and third != dealer
    assert roles[dealer] == "dealer, sits out", roles
    assert roles[third] == "dealer's right", roles
    assert [seat for seat, text in roles.items() if text == "dealer"] == [], roles

    # the deal summary: the third player's row says "dealer's right", and a line says who dealt and sat out
    play_until(page, lambda: bool(page.locator("dialog.summary-dialog[open]").count()), close_summary=False)
    summary = page.locator("dialog.summary-dialog[open]")
    expect(summary.locator("tbody tr")).to_have_count(3)  # the three who played
    expect(summary.locator(".role", has_text="dealer's right")).to_have_count(1)
    expect(summary.locator(".role", has_text="dealer")).to_have_count(1)  # that one: nobody else is "dealer"
    expect(summary.locator(".summary-out")).to_contain_text("deals and sits out this deal.")


def test_three_players_still_call_the_dealer_dealer(new_page: Any, web_server: Any) -> None:
    page, _ = quickplay_page(new_page, web_server.url, "standard")
    page.wait_for_function("() => ['choose', 'exchange', 'play'].includes(window.mizerkaDebug.view().phase)")
    v, roles = view_and_role_texts(page)
    assert v["roles"][str(v["dealer"])] == "D"
    assert roles[v["dealer"]] == "dealer", roles
    assert "dealer's right" not in roles.values() and "dealer, sits out" not in roles.values(), roles


def test_a_card_clicked_while_offline_is_not_sent_not_refused(new_page: Any, web_server: Any) -> None:
    page, _ = quickplay_page(new_page, web_server.url, "standard")
    play_until(page, lambda: view(page).get("phase") == "play" and bool(view(page).get("your_turn"))
               and not page.locator("dialog[open]").count())
    context = page.context
    context.set_offline(True)  # the network is gone: the reconnections fail until it is back
    try:
        page.evaluate("() => window.mizerkaDebug.socket.simulateDrop()")
        page.wait_for_function("() => window.mizerkaDebug.socket.state !== 'open'")
        card = page.locator(".hand .card.playable").first
        point = card.evaluate(VISIBLE_POINT)
        assert point is not None
        page.mouse.click(point[0], point[1])
        message = page.locator(".me .message.error")
        expect(message).to_have_text(NOT_SENT)
        assert "refused" not in message.inner_text().lower()
    finally:
        context.set_offline(False)
    # once the network is back the page reconnects and the card can be played
    page.wait_for_function("() => window.mizerkaDebug.socket.state === 'open'", timeout=30_000)
