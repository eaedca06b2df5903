"""What the browser audit of session 21 (less-travelled paths) found in the score sheet, the match page and the
table's layout, in real chromium against the real server.

* Four players on a 360-375 px phone: the seat panels of the three others sit side by side, none over another,
  none with content wider than itself (they were 34-49 px wide, names and roles drawn over each other); the
  three-player layout keeps its two columns.
* A legal 40-character name without spaces ("W" * 40) wraps inside its seat panel, the "… is choosing the
  contract" prompt and the chat's mute button: nothing is drawn past its box or the screen (it ran 600 px wide).
* Right-to-left names on the match page and in the lobby's Recent games keep their order and their totals' signs
  ("דוד −5, علي +2" was drawn "2+ علي ,5− דוד"): each name is isolated in a <bdi>.
* Four players: the dealer who sat a deal out shows "–" in the score sheet for that deal, not a played "0"; his
  running total is shown as ever.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from playwright.sync_api import expect
from test_web_audit_s12 import open_seat, play_through_protocol
from web_helpers import act_once, api_post, view

SHORT = "standard,contracts=NT+MZ"  # six deals

BOXES = """() => Array.from(document.querySelectorAll('.seat[data-seat]')).map((e) => {
  const r = e.getBoundingClientRect();
  return {seat: e.dataset.seat, place: e.className, x: r.left, y: r.top, r: r.right, b: r.bottom,
          sw: e.scrollWidth, cw: e.clientWidth};
})"""


def quickplay_seat(new_page: Any, base: str, variant: str, viewport: dict[str, int]) -> tuple[Any, str]:
    """A quick-play seat (the server's answer kept in localStorage, as the lobby does) opened in a page."""
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


def test_four_players_on_a_phone_the_seat_panels_stand_apart(new_page: Any, web_server: Any) -> None:
    for width, height in ((375, 667), (360, 640)):
        page, _ = quickplay_seat(new_page, web_server.url, "four-players", {"width": width, "height": height})
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
    page, _ = quickplay_seat(new_page, web_server.url, "standard", {"width": 375, "height": 667})
    page.wait_for_timeout(300)
    boxes = [b for b in page.evaluate(BOXES) if "pos-bottom" not in b["place"]]
    assert len(boxes) == 2 and not seat_problems(boxes), boxes
    assert all(b["cw"] > 150 for b in boxes) and abs(boxes[0]["y"] - boxes[1]["y"]) < 2, boxes


def test_a_forty_character_name_wraps_in_its_panel_the_prompt_and_the_chat(new_page: Any, web_server: Any) -> None:
    base = web_server.url
    long_name = "W" * 40
    # the first dealer is seat 0 (Ala): the long name at seat 1 is forehand and chooses the contract first
    table = api_post(base, "/api/tables", {"variant": SHORT + ",first_dealer=0", "visibility": "private", "seats": [
        {"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}]})["id"]
    ala = api_post(base, f"/api/tables/{table}/join", {"name": "Ala"})
    api_post(base, f"/api/tables/{table}/join", {"name": long_name})
    page = new_page(viewport={"width": 375, "height": 667})
    open_seat(page, base, table, ala["token"], ala["seat"])
    expect(page.locator(".prompt")).to_contain_text("is choosing the contract")
    page.click(".chat-toggle")
    mute = page.locator(".chat-mute")
    expect(mute).to_contain_text(long_name)
    problems = page.evaluate("""() => {
      const W = document.documentElement.clientWidth, out = [];
      const inside = (e, box, what) => { const r = e.getBoundingClientRect();
        if (r.left < box.left - 1 || r.right > box.right + 1 || r.left < -1 || r.right > W + 1)
          out.push(`${what}: ${r.left}..${r.right} px in ${box.left}..${box.right}, screen ${W}`); };
      const check = (sel, box, what) => {
        for (const e of document.querySelectorAll(sel)) inside(e, e.closest(box).getBoundingClientRect(), what); };
      check('.seat .seat-name', '.seat', 'seat name');
      check('.centre .prompt', '.centre', 'prompt');
      check('.chat-mute', '#chat-panel', 'mute');
      return out; }""")
    assert not problems, problems
    # the whole name is there, wrapped, not cut: the seat's name holds every letter
    assert page.locator(".seat[data-seat='1'] .seat-name").inner_text().replace("\n", "") == long_name
    assert page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 0


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


def test_four_players_the_dealer_who_sat_out_shows_a_dash(new_page: Any, web_server: Any) -> None:
    page, _ = quickplay_seat(new_page, web_server.url, "four-players", {"width": 1280, "height": 800})
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
