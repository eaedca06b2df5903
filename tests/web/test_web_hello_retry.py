"""A hello answered "not now" is tried again, in real chromium against the real server: a browser that opens (or
reloads) a finished table's link while the server has no room to read it back (``server_full``; the same for
``rate_limited``) says so on the page and says hello again after a backoff, and is welcomed once there is room;
a real refusal (``unknown_table``) stays final."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect
from test_web_audit_s12 import play_through_protocol
from test_web_finished_table import unload
from test_web_history import post


def test_a_full_server_is_tried_again_until_it_has_room(new_page: Any, web_server: Any) -> None:
    base = web_server.url
    seats = [{"kind": "human"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]
    table = post(base, "/api/tables", {"seats": seats, "variant": "standard,contracts=NT+MZ",
                                       "visibility": "private"})["id"]
    joined = post(base, f"/api/tables/{table}/join", {"name": "Ala"})
    final = play_through_protocol(web_server, table, joined["token"], lambda v: v["phase"] == "over")
    unload(web_server, table)

    page = new_page()
    page.goto(base + "/")
    page.evaluate("([t, token, seat]) => localStorage.setItem('mizerka.seats', "
                  "JSON.stringify({[t]: {token, seat, at: Date.now()}}))", [table, joined["token"], joined["seat"]])
    config = web_server.config
    room = config.max_read_back
    config.max_read_back = 0  # no finished table may be read back: every hello at it gets server_full
    try:
        page.goto(f"{base}/?table={table}")
        banner = page.locator(".conn-banner")
        expect(banner).to_be_visible()
        expect(banner).to_contain_text("The server is busy; trying again in")
        page.wait_for_function("() => window.mizerkaDebug.states.filter((s) => s === 'waiting').length >= 2",
                               timeout=15_000)  # tried again, and answered "not now" again
        expect(page.get_by_text("This table does not exist or has ended.")).to_have_count(0)
        assert table not in web_server.hub.tables
    finally:
        config.max_read_back = room
    page.wait_for_function("() => window.mizerkaDebug.view() !== null", timeout=45_000)
    v = page.evaluate("() => window.mizerkaDebug.view()")
    assert v["seat"] == joined["seat"] and v["phase"] == "over" and v["totals"] == final["totals"]
    expect(page.locator(".conn-banner")).to_be_hidden()
    expect(page.locator("dialog.over-dialog[open]")).to_be_visible()


def test_a_real_refusal_stays_final(new_page: Any, web_server: Any) -> None:
    page = new_page()
    page.goto(f"{web_server.url}/?table=NoSuchTable42")
    expect(page.get_by_text("This table does not exist or has ended.")).to_be_visible()
    states = page.evaluate("() => window.mizerkaDebug ? window.mizerkaDebug.states : []")
    assert "waiting" not in states
