"""Small things players of online card games expect, in real chromium against the real server.

* The option "Play my only legal card automatically" (off by default, remembered): a forced card is played by
  itself after a random pause of about a second, and the screen reader is told which.
* The prompt ("Bot 1 to move") and the contract banner are redrawn with the table: a screen-reader user hears
  each new text once, not on every identical redraw, and not twice with "Your turn." or a contract choice.
* The score sheet offers **Review** only where the server gives a finished deal: at a table that reveals its
  deals, not at one that keeps them hidden until the match is over.
* The no-trump contract's banner names it once: it read "No trumps No trumps TAKE TRICKS" ("Bez atu Bez atu" in
  Polish), the trumps added after the name even where the name says them.

The deals before the part under test are played through the protocol with the seat's token
(``web_helpers.play_through_protocol``); the browser then takes the same seat.
"""

from __future__ import annotations

import itertools
import json
import urllib.request
from typing import Any

import pytest
from playwright.sync_api import expect
from web_helpers import click_card, open_seat, play_through_protocol, seat_page, view

SHORT = "standard,contracts=NT+MZ"  # six deals
AUTO_LABEL = "Play my only legal card automatically"


def post(base: str, path: str, body: Any) -> Any:
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def quickplay_seat(base: str) -> tuple[str, str, int]:
    joined = post(base, "/api/quickplay", {"name": "Ala", "variant": SHORT})
    return joined["table"]["id"], joined["token"], joined["seat"]


def announcements(page: Any) -> list[str]:
    return list(page.evaluate("() => window.mizerkaDebug.announcements()"))


def test_the_only_legal_card_is_played_by_itself_when_asked(new_page: Any, web_server: Any) -> None:
    """The last trick of a deal leaves one legal card: with the option off it waits for the player; once the box
    is ticked it is played after a pause (0.6–1.6 s: no instant give-away) and announced; the box is remembered."""
    table, token, seat = quickplay_seat(web_server.url)
    play_through_protocol(web_server, table, token, lambda v: v["phase"] == "play" and len(v["hand"]) == 1)
    page = new_page()
    open_seat(page, web_server.url, table, token, seat)
    page.wait_for_function("() => { const v = window.mizerkaDebug.view();"
                           " return v.your_turn && v.phase === 'play' && v.legal.length === 1; }")
    card = view(page)["legal"][0]
    box = page.get_by_role("checkbox", name=AUTO_LABEL)
    expect(box).not_to_be_checked()  # off by default
    page.wait_for_timeout(2500)
    v = view(page)
    assert v["your_turn"] and v["hand"] == [card], v  # the option off: the card waits for the player
    assert not [s for s in announcements(page) if s.startswith("Your only legal card")]

    # the times, in the page, of the tick and of the announcement (the live region's new line)
    page.evaluate("""() => {
        const times = window.autoPlayTimes = {};
        document.addEventListener('change', () => { times.ticked = performance.now(); }, { capture: true, once: true });
        const region = document.getElementById('announce-polite');
        new MutationObserver(() => {
            if (!times.said && [...region.childNodes].some(n => n.textContent.startsWith('Your only legal card'))) {
                times.said = performance.now();
            }
        }).observe(region, { childList: true });
    }""")
    box.check()
    # at most 1.6 s of pause, then the server's answer: the limit leaves room for a machine busy with other tests
    page.wait_for_function("() => window.autoPlayTimes.said !== undefined", timeout=8000)
    times = page.evaluate("() => window.autoPlayTimes")
    elapsed = times["said"] - times["ticked"]
    assert elapsed >= 590, times  # never at once: the pause hides that the card was forced
    said = [s for s in announcements(page) if s.startswith("Your only legal card")]
    rank, suit = card[:-1], card[-1]
    names = {"T": "10", "J": "Jack", "Q": "Queen", "K": "King", "A": "Ace"}
    suits = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
    assert said == [f"Your only legal card was played for you: {names.get(rank, rank)} of {suits[suit]}."], said
    # the server took it: the deal is over (its summary opens)
    expect(page.locator("dialog.summary-dialog[open]")).to_be_visible()
    assert json.loads(page.evaluate("() => localStorage.getItem('mizerka.prefs')"))["autoPlay"] is True
    page.reload()
    page.wait_for_function("() => window.mizerkaDebug && window.mizerkaDebug.view() !== null")
    expect(page.locator(".auto-play-check")).to_be_checked()  # remembered


def test_the_prompt_and_the_contract_are_announced_once(new_page: Any, web_server: Any) -> None:
    """The banner's sentence and each new prompt are said once; redraws with the same text say nothing; the
    player's turn is said once ("Your turn.", not again as the prompt "Your turn")."""
    table, token, seat = quickplay_seat(web_server.url)
    play_through_protocol(web_server, table, token, lambda v: (
        v["phase"] == "play" and v["your_turn"] and 1 <= v["tricks_played"] <= 9
        and not (v.get("trick") or {}).get("cards")))  # this seat leads: the bots answer after its card
    page = new_page()
    open_seat(page, web_server.url, table, token, seat)
    page.wait_for_function("() => window.mizerkaDebug.view().your_turn")
    banner = page.locator(".contract-banner").get_attribute("aria-label")
    assert banner and banner.endswith(("Take tricks", "Avoid tricks")), banner
    page.wait_for_function("b => window.mizerkaDebug.announcements().includes(b)", arg=f"{banner}.")
    said = announcements(page)
    assert said.count(f"{banner}.") == 1, said
    assert said.count("Your turn.") == 1 and "Your turn" not in said, said

    # redraws of the same table say nothing more: the score sheet toggled, a fresh snapshot of the same view
    page.locator("body").focus()
    page.keyboard.press("s")
    page.keyboard.press("s")
    page.evaluate("() => window.mizerkaDebug.socket.send({type: 'sync', last_seq: 0})")
    page.wait_for_timeout(600)
    assert announcements(page) == said

    # a card led: the bots' turns are said as the prompt changes, each once, then the player's turn again
    seq = view(page)["seq"]
    click_card(page, page.locator(".hand .card.playable").first)
    page.wait_for_function("seq => { const v = window.mizerkaDebug.view(); return v.seq > seq + 1 && v.your_turn; }",
                           arg=seq, timeout=20000)
    page.wait_for_timeout(300)
    new = announcements(page)[len(said):]
    prompts = [s for s in new if s.endswith(" to move") or s.startswith("Your turn")]
    assert any(s.endswith(" to move") for s in prompts), new
    assert all(a != b for a, b in itertools.pairwise(prompts)), prompts
    assert "Your turn" not in new and new.count("Your turn.") == 1, new


@pytest.mark.parametrize("reveal", [False, True])
def test_the_sheet_offers_review_only_where_deals_are_shown(new_page: Any, web_server: Any, reveal: bool) -> None:
    """Mid-match, a table without ``reveal`` refuses a finished deal's review: its sheet has no Review button;
    a table with ``reveal`` gives it: the button is there."""
    info = post(web_server.url, "/api/tables", {
        "variant": SHORT, "visibility": "private", "reveal": reveal,
        "seats": [{"kind": "human"}, {"kind": "bot", "level": "rules"}, {"kind": "bot", "level": "rules"}]})
    joined = post(web_server.url, f"/api/tables/{info['id']}/join", {"name": "Ala", "seat": 0})
    table, token, seat = info["id"], joined["token"], joined["seat"]
    play_through_protocol(web_server, table, token, lambda v: v["deal_no"] == 2 and v["phase"] == "play")
    page = new_page()
    open_seat(page, web_server.url, table, token, seat)
    panel = page.locator("#sheet-panel")
    if not panel.is_visible():
        page.get_by_role("button", name="Score sheet").click()
    expect(panel.locator(".sheet-deals tbody tr")).to_have_count(1)  # deal 1 is on the sheet
    if reveal:
        expect(panel.get_by_role("button", name="Review deal 1")).to_be_visible()
    else:
        expect(panel.locator(".review-btn")).to_have_count(0)


def test_a_no_trump_banner_says_no_trumps_once(new_page: Any, web_server: Any) -> None:
    """The no-trump contract's banner read "No trumps No trumps TAKE TRICKS" ("Bez atu Bez atu" in Polish): the
    trumps were added after the name even where the name says them.  It names them once, as its label does."""
    page, _, _, _ = seat_page(new_page, web_server.url, "standard,contracts=NT")
    page.wait_for_function("() => window.mizerkaDebug.view().contract !== null")
    banner = page.locator(".contract-banner")
    expect(banner).to_contain_text("No trumps")
    assert banner.inner_text().lower().count("no trumps") == 1
    assert banner.locator(".trumps").count() == 0
    page.select_option("#lang-select", "pl")
    assert page.locator(".contract-banner").inner_text().lower().count("bez atu") == 1
