"""The review dialog (js/review.js) when things go wrong: every refusal the server may give, a failed network and an
answer the page cannot read are shown in the dialog, the page keeps working, the focus comes back to the button
that opened it, and nothing reaches the console as an error."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import expect
from test_web_review import SHORT, post
from web_helpers import open_seat, play_through_protocol


def test_every_failure_of_a_review_stays_in_its_dialog(new_page: Any, web_server: Any) -> None:
    joined = post(web_server.url, "/api/quickplay", {"name": "Ala", "variant": SHORT})
    table, token, seat = joined["table"]["id"], joined["token"], joined["seat"]
    play_through_protocol(web_server, table, token, lambda v: v["deal_no"] == 2 and v["phase"] == "play")
    page = new_page()
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/api/" in r.url and "/review" in r.url else None)

    open_seat(page, web_server.url, table, token, seat)
    panel = page.locator("#sheet-panel")
    if not panel.is_visible():
        page.get_by_role("button", name="Score sheet").click()
    button = panel.get_by_role("button", name="Review deal 1")
    dialog = page.locator("dialog.review-dialog[open]")
    failures: list[tuple[str, Any]] = [
        ("rate_limited", (429, {"error": "rate_limited", "message": "slow down"}, {"Retry-After": "3"})),
        ("internal", (503, {"error": "internal", "message": "x"}, {})),
        ("spectators_off", (403, {"error": "spectators_off", "message": "x"}, {})),
        ("unknown_deal", (404, {"error": "unknown_deal", "message": "x"}, {})),
        ("deal_not_over", (409, {"error": "deal_not_over", "message": "x"}, {})),
        ("bad_deal", (400, {"error": "bad_deal", "message": "x"}, {})),
        ("odd", (500, "<html>no json</html>", {})),
        ("network", "abort"),
        ("unreadable", (200, {"analysis": "ok", "tricks": "nonsense"}, {})),
    ]
    for name, how in failures:
        page.unroute("**/review")

        def handler(route: Any, _request: Any = None, how: Any = how) -> None:
            if how == "abort":
                route.abort("connectionrefused")
                return
            status, body, headers = how
            route.fulfill(status=status, headers={"Content-Type": "application/json", **headers},
                          body=body if isinstance(body, str) else json.dumps(body))

        page.route("**/review", handler)
        button.click()
        expect(dialog).to_have_attribute("data-state", "refused")
        status = dialog.locator(".rv-status")
        expect(status).not_to_be_empty()
        expect(dialog.locator(".rv-done")).to_be_focused()
        for key in ("ArrowRight", "End", "PageUp"):  # the dialog's keys, with no answer to step through
            page.keyboard.press(key)
        page.keyboard.press("Escape")
        expect(dialog).to_have_count(0)
        expect(button).to_be_focused()  # back to the button that opened it
        assert page.locator(".table").count() or page.locator("#sheet-panel").is_visible(), name
    page.unroute("**/review")
    button.click()  # and the real one still works
    expect(dialog).to_have_attribute("data-state", "ready", timeout=240_000)
    page.keyboard.press("Escape")
    assert all("/deals/1/review" in url for url in asked), asked  # never the deal in progress
    # the routed refusals are HTTP errors the browser itself reports as "Failed to load resource": nothing else
    assert [m for m in console if "Failed to load resource" not in m] == [], console
