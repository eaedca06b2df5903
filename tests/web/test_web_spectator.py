"""What a spectator sees and receives in the browser, in real chromium against the real server.

* Every frame a spectator's socket receives during a deal (views and events) names only cards already played; the
  deck, the hands and the discards come only with the deal's end (the table's ``reveal`` option), and the page
  holds no card but those on the table.
* A spectator has no seat of its own at the bottom: seat 1 (the first) used to be drawn nowhere, so its name, role,
  card count and tricks were missing; it is shown there, its cards face down, and no face is shown but the trick's.
* A spectator who never closes a deal summary is not left behind: the summary of the deal that has just ended
  replaces an older one still open (the spectator used to click through every old summary to reach the table as
  it is).
"""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import expect
from web_helpers import api_quickplay, play_through_protocol, play_until, quickplay, view, wait_for_table

CARD = re.compile(r"^(?:10|[2-9TJQKA])[CDHS]$")


def test_a_spectator_socket_carries_no_hidden_card(new_page: Any, web_server: Any) -> None:
    """Every frame a spectator receives during a deal (views and events) names only cards already played; the
    deck, the hands and the discards come only with the deal's end (the table's ``reveal`` option)."""
    player = new_page()
    v = quickplay(player, web_server.url)
    spectator = new_page()
    frames: list[str] = []
    spectator.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(
        payload if isinstance(payload, str) else payload.decode())))
    spectator.goto(f"{web_server.url}/?table={v['table']}&watch=1")
    wait_for_table(spectator)
    play_until(player, lambda: bool(player.locator("dialog.summary-dialog[open]").count()), close_summary=False)
    spectator.wait_for_function("() => document.querySelector('dialog.summary-dialog[open]') !== null")
    assert view(spectator)["seat"] is None and view(spectator)["hand"] == []

    def cards(value: Any, path: str = "") -> list[tuple[str, str]]:
        if isinstance(value, dict):
            found = [(f"{path}/{k}", k) for k in value if CARD.match(k)]
            return found + [c for k, item in value.items() for c in cards(item, f"{path}/{k}")]
        if isinstance(value, list):
            return [c for i, item in enumerate(value) for c in cards(item, f"{path}[{i}]")]
        if isinstance(value, str):
            return [(path, w) for w in value.replace(",", " ").split() if CARD.match(w)]
        return []

    played: set[str] = set()
    ever_played: set[str] = set()
    events = 0
    for raw in frames:
        message = json.loads(raw)
        event = message.get("event") or {}
        if event.get("kind") == "deal":
            played = set()
        if event.get("card"):
            played.add(event["card"])
            ever_played.add(event["card"])
        events += message.get("type") == "event"
        for path, card in cards(message):
            assert card in played or path.startswith("/event/reveal"), (path, card, message.get("type"))
    assert events > 20
    # The page itself holds no card but those on the table.
    shown = spectator.locator("[data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
    assert set(shown) <= ever_played


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


def test_a_spectator_who_leaves_the_summaries_open_sees_the_newest(new_page: Any, web_server: Any) -> None:
    """A spectator who never closes a deal summary is not left behind: the summary of the deal that has just ended
    replaces an older one still open, so after three deals one summary is open, deal 3's, and closing it shows no
    older one (the spectator used to click through every old summary to reach the table as it is)."""
    table, token, _ = api_quickplay(web_server.url)
    spectator = new_page()
    spectator.goto(f"{web_server.url}/?table={table}&watch=1")
    wait_for_table(spectator)
    play_through_protocol(web_server, table, token, lambda v: v["deal_no"] == 4)
    summaries = spectator.locator("dialog.summary-dialog[open]")
    expect(summaries).to_have_count(1)
    expect(summaries).to_have_attribute("data-deal", "3")
    assert spectator.locator("dialog[open]").count() == 1
    summaries.get_by_role("button", name="Next deal").click()
    expect(spectator.locator("dialog[open]")).to_have_count(0)
    spectator.wait_for_timeout(300)  # no older summary comes after it
    assert spectator.locator("dialog[open]").count() == 0
    assert view(spectator)["seat"] is None and view(spectator)["deal_no"] == 4
