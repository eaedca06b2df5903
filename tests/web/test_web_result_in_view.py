"""The result of a whole match, in real chromium against the real server: when it opens, its title, the winner and
the totals are in view, and so is "Play again", the button it opens on.

The dialog used to scroll as a whole: it opened on "Play again" (its focus, at the foot), so the browser scrolled it
to the bottom, and the title, the winner banner and the players' totals were out of sight above the deals' rows:
an 18-deal match on a 1280 x 800 laptop, a 6-deal one on a 375 x 667 phone.  Now the score sheet scrolls between
the title and the buttons, which stay put.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect
from web_helpers import api_quickplay, finished_table, open_seat, play_through_protocol

# Whether element *selector* in the open result lies whole in the window and in the dialog's visible box.
IN_VIEW = """([selector]) => {
  const dialog = document.querySelector("dialog.over-dialog[open]");
  const box = dialog.getBoundingClientRect();
  const el = selector === ":focus" ? document.activeElement : dialog.querySelector(selector);
  const r = el.getBoundingClientRect();
  return r.height > 0 && r.top >= Math.max(0, box.top) && r.bottom <= Math.min(innerHeight, box.bottom) + 0.5;
}"""


def result_fully_in_view(page: Any) -> None:
    over = page.locator("dialog.over-dialog[open]")
    expect(over).to_be_visible()
    expect(over.get_by_role("button", name="Play again")).to_be_focused()
    for selector in ("#over-title", ".winner-banner", ".sheet-grid", ":focus"):
        assert page.evaluate(IN_VIEW, [selector]), f"{selector} is out of view when the result opens"
    assert over.evaluate("(d) => d.scrollTop") == 0


def test_an_18_deal_result_on_a_laptop(new_page: Any, web_server: Any) -> None:
    table, token, seat = api_quickplay(web_server.url)
    play_through_protocol(web_server, table, token, lambda v: v["phase"] == "over")
    page = new_page({"width": 1280, "height": 800})
    open_seat(page, web_server.url, table, token, seat)
    result_fully_in_view(page)
    # the deals' rows are all there, the last one reached by scrolling the sheet
    sheet = page.locator("dialog.over-dialog[open] .score-sheet")
    expect(sheet.locator(".sheet-deals tbody tr")).to_have_count(18)
    sheet.locator(".sheet-deals tbody tr").last.scroll_into_view_if_needed()
    expect(sheet.locator(".sheet-deals tbody tr").last).to_be_in_viewport()


def test_a_6_deal_result_on_a_phone(new_page: Any, web_server: Any) -> None:
    table, joined, _final = finished_table(web_server)
    page = new_page({"width": 375, "height": 667}, is_mobile=True, has_touch=True)
    open_seat(page, web_server.url, table, joined["token"], joined["seat"])
    result_fully_in_view(page)
