"""The table chat in real chromium against the real server (docs/web.md, *Chat*).

Two players at a private table in two browser contexts talk: a line typed by one appears at the other's (as text,
never as markup), a preset shows in the reader's language, a muted player's lines disappear (and stay muted after a
reload), a spectator reads without writing, the server's refusal (too fast) is shown by the input.  On a 375 px
phone the open chat leaves the hand uncovered; a table without chat shows none.
"""

from __future__ import annotations

import re
from typing import Any

import httpx
from playwright.sync_api import expect
from web_helpers import VISIBLE_POINT, my_hand_to_act_on, play_until, seat_at, view, wait_for_table


def make_table(web_server: Any, seats: list[dict[str, Any]] | None = None, **options: Any) -> str:
    body: dict[str, Any] = {"visibility": "private", **options}
    if seats is not None:
        body["seats"] = seats
    created = httpx.post(web_server.url + "/api/tables", json=body)
    assert created.status_code == 201, created.text
    return f"{web_server.url}/?table={created.json()['id']}"


def chat_lines(page: Any) -> list[str]:
    return [re.sub(r"\s+", " ", text).strip() for text in page.locator(".chat-log .chat-line").all_inner_texts()]


def test_two_players_talk(new_page: Any, web_server: Any) -> None:
    invite = make_table(web_server)  # three human seats: one stays open, so the table waits and no dialog opens
    ala = seat_at(new_page, web_server.url, invite, "Ala")
    bolek = seat_at(new_page, web_server.url, invite, "Bolek")
    bolek.select_option("#lang-select", "pl")

    # Ala opens the chat and says something; Enter sends, and the input is emptied once the server relays it
    ala.click(".chat-toggle")
    expect(ala.locator("#chat-panel")).to_be_visible()
    expect(ala.locator("#chat-input")).to_be_focused()
    assert ala.locator(".chat-log").get_attribute("role") == "log"
    assert ala.locator("#chat-input").get_attribute("maxlength") == "200"
    ala.fill("#chat-input", "Cześć, gramy?")
    ala.press("#chat-input", "Enter")
    expect(ala.locator(".chat-log .chat-line")).to_have_count(1)
    assert chat_lines(ala) == ["You: Cześć, gramy?"]
    expect(ala.locator("#chat-input")).to_have_value("")

    # Bolek's chat is closed: the button counts it, the announcer says it
    expect(bolek.locator(".chat-toggle .chat-unread")).to_have_text("1")
    assert "Ala: Cześć, gramy?" in bolek.evaluate("() => window.mizerkaDebug.announcements()")
    bolek.click(".chat-toggle")
    expect(bolek.locator(".chat-toggle .chat-unread")).to_have_count(0)
    assert chat_lines(bolek) == ["Ala: Cześć, gramy?"]

    # markup is text: nothing is parsed, nothing runs
    ala.fill("#chat-input", '<img src=x onerror="window.pwned=1"><b>bold</b>')
    ala.click(".chat-send")
    expect(bolek.locator(".chat-log .chat-line")).to_have_count(2)
    assert chat_lines(bolek)[-1] == 'Ala: <img src=x onerror="window.pwned=1"><b>bold</b>'
    assert bolek.locator(".chat-log img, .chat-log b").count() == 0
    assert bolek.evaluate("() => window.pwned") is None

    # a preset travels as its code: Bolek reads it in Polish, Ala in English
    ala.click('.chat-preset[data-preset="good_luck"]')
    expect(bolek.locator(".chat-log .chat-line").last).to_have_text("Ala: Powodzenia!")
    expect(ala.locator(".chat-log .chat-line").last).to_have_text("You: Good luck!")
    expect(bolek.locator('.chat-preset[data-preset="thanks"]')).to_have_text("Dzięki!")

    # a spectator reads, and has nothing to write with
    watcher = new_page()
    watcher.goto(invite + "&watch=1")
    wait_for_table(watcher)
    watcher.click(".chat-toggle")
    expect(watcher.locator(".chat-log .chat-line")).to_have_count(3)  # the history, from the welcome
    expect(watcher.locator(".chat-writer")).to_be_hidden()
    expect(watcher.locator(".chat-panel .chat-note").first).to_be_visible()

    # Bolek mutes Ala: her lines go, and the new ones do not come; remembered across a reload
    mute = bolek.locator('.chat-mute[data-seat="0"]')
    expect(mute).to_have_attribute("aria-pressed", "false")
    mute.click()
    expect(bolek.locator('.chat-mute[data-seat="0"]')).to_have_attribute("aria-pressed", "true")
    expect(bolek.locator(".chat-log .chat-line")).to_have_count(0)
    bolek.fill("#chat-input", "Ja też!")
    bolek.press("#chat-input", "Enter")
    expect(bolek.locator(".chat-log .chat-line")).to_have_count(1)
    ala.fill("#chat-input", "muted?")
    ala.press("#chat-input", "Enter")
    expect(watcher.locator(".chat-log .chat-line").last).to_have_text("Ala: muted?")
    assert chat_lines(bolek) == ["Ty: Ja też!"]
    bolek.reload()
    wait_for_table(bolek)
    expect(bolek.locator("#chat-panel")).to_be_visible()  # the panel stays open, as it was
    expect(bolek.locator(".chat-log .chat-line")).to_have_count(1)
    bolek.locator('.chat-mute[data-seat="0"]').click()
    expect(bolek.locator(".chat-log .chat-line")).to_have_count(5)

    # too fast: the server's refusal is shown by the input, in the page's language, and nothing is lost
    for _ in range(6):
        bolek.click('.chat-preset[data-preset="hello"]')
        if bolek.locator(".chat-error").inner_text():
            break
        bolek.wait_for_timeout(150)
    expect(bolek.locator(".chat-error")).to_contain_text("Zwolnij")
    assert bolek.locator(".chat-error").get_attribute("role") == "alert"
    assert view(bolek)["status"] == "waiting"


def test_the_chat_on_a_phone_leaves_the_hand_uncovered(new_page: Any, web_server: Any) -> None:
    phone = {"viewport": {"width": 375, "height": 667}, "is_mobile": True, "has_touch": True}
    # quick play has no chat (nobody to talk to): no button, no panel
    page = new_page(**phone)
    page.goto(web_server.url + "/")
    page.click("#quickplay")
    page.wait_for_url(re.compile(r"\?table="))
    wait_for_table(page)
    assert view(page)["options"]["chat"] is False
    expect(page.locator(".chat-toggle")).to_have_count(0)
    expect(page.locator("#chat-panel")).to_be_hidden()

    invite = make_table(web_server, seats=[{"kind": "human"}, {"kind": "bot", "level": "random"},
                                           {"kind": "bot", "level": "random"}], chat=True)
    page = seat_at(new_page, web_server.url, invite, "Ola", **phone)
    play_until(page, lambda: my_hand_to_act_on(page), exchange=0)  # on to the hand, no dialog open
    page.click(".chat-toggle")
    panel = page.locator("#chat-panel")
    expect(panel).to_be_visible()
    box, hand = panel.bounding_box(), page.locator(".hand").bounding_box()
    assert box is not None and hand is not None
    assert box["x"] >= 0 and box["x"] + box["width"] <= 375 + 0.5
    assert box["y"] + box["height"] <= hand["y"], (box, hand)
    cards = page.locator(".hand .card")
    assert cards.count() >= 10
    for i in range(cards.count()):
        assert cards.nth(i).evaluate(VISIBLE_POINT) is not None, f"card {i} is covered"
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 375
