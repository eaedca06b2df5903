"""Four at the table (the ``four-players`` variant), in real chromium against the real server: the dealer sits each
deal out, and the engine's role "D" goes to the dealer's right.

* The seat panels say so ("dealer, sits out", "dealer's right"), and so does the deal summary (the three who played,
  and a line saying who dealt and sat out), instead of calling the dealer's right "dealer"; at three the dealer
  still plays as "dealer".
* The dealer who sat a deal out shows "–" in the score sheet for that deal, not a played "0"; his running total is
  shown as ever.
* On a 360-375 px phone the seat panels of the three others sit side by side, none over another, none with content
  wider than itself (they were 34-49 px wide, names and roles drawn over each other); three players keep their
  layout of two columns.
"""

from __future__ import annotations

import time
from typing import Any

from playwright.sync_api import expect
from web_helpers import act_once, api_post, open_seat, play_until, quickplay_seat, view

BOXES = """() => Array.from(document.querySelectorAll('.seat[data-seat]')).map((e) => {
  const r = e.getBoundingClientRect();
  return {seat: e.dataset.seat, place: e.className, x: r.left, y: r.top, r: r.right, b: r.bottom,
          sw: e.scrollWidth, cw: e.clientWidth};
})"""


def view_and_role_texts(page: Any) -> tuple[dict[str, Any], dict[int, str]]:
    """The client's view and each seat panel's role line, by seat (an empty string where the panel shows no role),
    read in one step: a deal the bots play without this seat (its dealer sits out at four) can end, and the next
    begin with another dealer, between two reads."""
    both: dict[str, Any] = page.evaluate("""() => ({view: window.mizerkaDebug.view(), roles: Object.fromEntries(
        [...document.querySelectorAll('.seat[data-seat]')]
        .map((e) => [e.dataset.seat, (e.querySelector('.role') || {}).textContent || '']))})""")
    return both["view"], {int(seat): text for seat, text in both["roles"].items()}


def dealt_quickplay_seat(new_page: Any, base: str, variant: str, viewport: dict[str, int]) -> tuple[Any, str]:
    """A quick-play seat (the server's answer kept in localStorage, as the lobby does) opened in a page, once the
    first deal has begun."""
    joined = api_post(base, "/api/quickplay", {"name": "Ala", "variant": variant, "level": "random"})
    page = new_page(viewport=viewport)
    open_seat(page, base, joined["table"]["id"], joined["token"], joined["seat"])
    page.wait_for_function("() => window.mizerkaDebug.view().phase !== 'waiting'")
    return page, joined["table"]["id"]


def seat_problems(boxes: list[dict[str, Any]]) -> list[str]:
    bad = []
    for i, a in enumerate(boxes):
        if a["sw"] > a["cw"] + 1:
            bad.append(f"seat {a['seat']}: content {a['sw']} px wide in a {a['cw']} px panel")
        for c in boxes[i + 1:]:
            if a["x"] < c["r"] - 1 and c["x"] < a["r"] - 1 and a["y"] < c["b"] - 1 and c["y"] < a["b"] - 1:
                bad.append(f"seats {a['seat']} and {c['seat']} overlap")
    return bad


def test_four_players_name_the_dealer_who_sits_out_and_the_dealers_right(new_page: Any, web_server: Any) -> None:
    page, _ = quickplay_seat(new_page, web_server.url, "four-players")
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
    page, _ = quickplay_seat(new_page, web_server.url, "standard")
    page.wait_for_function("() => ['choose', 'exchange', 'play'].includes(window.mizerkaDebug.view().phase)")
    v, roles = view_and_role_texts(page)
    assert v["roles"][str(v["dealer"])] == "D"
    assert roles[v["dealer"]] == "dealer", roles
    assert "dealer's right" not in roles.values() and "dealer, sits out" not in roles.values(), roles


def test_four_players_the_dealer_who_sat_out_shows_a_dash(new_page: Any, web_server: Any) -> None:
    page, _ = dealt_quickplay_seat(new_page, web_server.url, "four-players", {"width": 1280, "height": 800})
    deadline = time.monotonic() + 150
    while not view(page).get("score_sheet"):
        assert time.monotonic() < deadline, view(page)
        if act_once(page) is None:
            page.wait_for_timeout(30)
    row = view(page)["score_sheet"][0]
    dealer = row["dealer"]
    assert row["scores"][dealer] == 0 and len(row["scores"]) == 4  # the server's data: integers, as ever
    if not page.locator("#sheet-panel .sheet-deals tbody tr").count():
        page.keyboard.press("s")
    first = page.locator("#sheet-panel .sheet-deals tbody tr").first
    expect(first).to_be_visible()
    scores = first.locator("td.num:not(.total)").all_inner_texts()
    totals = first.locator("td.num.total").all_inner_texts()
    assert scores[dealer] == "–", (dealer, scores)
    assert [s for i, s in enumerate(scores) if i != dealer] == [
        ("+" if s > 0 else "\u2212" if s < 0 else "") + str(abs(s)) for i, s in enumerate(row["scores"]) if i != dealer]
    assert totals[dealer] == "0", totals  # the running total stays: nothing was scored
    assert "–" in (first.get_attribute("title") or "")  # the row's tricks say so too


def test_four_players_on_a_phone_the_seat_panels_stand_apart(new_page: Any, web_server: Any) -> None:
    for width, height in ((375, 667), (360, 640)):
        page, _ = dealt_quickplay_seat(new_page, web_server.url, "four-players", {"width": width, "height": height})
        page.wait_for_timeout(300)
        boxes = page.evaluate(BOXES)
        others = [b for b in boxes if "pos-bottom" not in b["place"]]
        assert len(others) == 3, boxes
        assert not seat_problems(boxes), (width, seat_problems(boxes), boxes)
        for b in others:  # readable: a third of the felt each, inside the screen
            assert b["cw"] >= 95 and b["x"] >= 0 and b["r"] <= width, (width, b)
        # left, across, right: in that order on one row
        left, top, right = (next(b for b in others if f"pos-{p}" in b["place"]) for p in ("left", "top", "right"))
        assert left["r"] <= top["x"] + 1 and top["r"] <= right["x"] + 1 and abs(left["y"] - top["y"]) < 2

    # three players keep their layout: the two others side by side, half the felt each
    page, _ = dealt_quickplay_seat(new_page, web_server.url, "standard", {"width": 375, "height": 667})
    page.wait_for_timeout(300)
    boxes = [b for b in page.evaluate(BOXES) if "pos-bottom" not in b["place"]]
    assert len(boxes) == 2 and not seat_problems(boxes), boxes
    assert all(b["cw"] > 150 for b in boxes) and abs(boxes[0]["y"] - boxes[1]["y"]) < 2, boxes
