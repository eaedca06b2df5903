"""Starting a waiting table at once with computer players, in real chromium against the real server (docs/web.md,
*Addresses*: the table page's waiting state; the ``fill`` message, docs/protocol.md).

A player who created a table for friends need not wait for them: the waiting panel offers a seated player "Start
now with computer players" with the bots' level (the lobby's names, "Casual (rules)" by default).  Its click sends
``fill``; every open seat becomes a bot of that level and the match begins, and the control is gone with the
waiting panel.  A spectator never gets the control.  The control is named in the page's language, and a refusal is
shown as any refusal of an action is.
"""

from __future__ import annotations

from typing import Any

import httpx
from playwright.sync_api import expect
from web_helpers import seat_at, view, wait_for_table

THREE_HUMANS = [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}]
LEVELS_EN = ["Beginner (random)", "Casual (rules)", "Strong (PIMC)", "Strong (IS-MCTS)", "Expert"]


def make_table(web_server: Any, **options: Any) -> tuple[str, str]:
    """A private table of three human seats through the REST API (nobody seated yet); its id and invite link."""
    body = {"visibility": "private", "variant": "standard,contracts=NT", "seats": THREE_HUMANS, **options}
    created = httpx.post(web_server.url + "/api/tables", json=body)
    assert created.status_code == 201, created.text
    table = created.json()["id"]
    return table, f"{web_server.url}/?table={table}"


def server_seats(web_server: Any, table: str) -> tuple[str, list[tuple[str, str | None, bool]]]:
    """The server's own account of the table: its status and each seat's (kind, bot level, open)."""
    info = httpx.get(f"{web_server.url}/api/tables/{table}").json()
    return info["status"], [(s["kind"], s["bot"], s["open"]) for s in info["seats"]]


def test_a_player_starts_the_table_with_bots_of_a_chosen_level(new_page: Any, web_server: Any) -> None:
    """Ala sits at a table of three human seats: the waiting panel offers her the control (Casual by default, the
    five levels by the lobby's names), a spectator gets none.  She picks the beginner bots and presses the button
    from the keyboard: the two open seats become random bots (the page's view and the server's agree), the match
    begins, and the control is gone, for her and for the spectator."""
    table, invite = make_table(web_server)
    ala = seat_at(new_page, web_server.url, invite, "Ala")
    assert view(ala)["status"] == "waiting" and view(ala)["seat"] == 0
    expect(ala.locator(".waiting")).to_be_visible()
    start = ala.get_by_role("button", name="Start now with computer players")
    expect(start).to_be_visible()
    level = ala.get_by_label("Computer players' level")
    expect(level).to_have_value("rules")
    assert [o.strip() for o in level.locator("option").all_inner_texts()] == LEVELS_EN
    assert "The 2 free seats go to computer players" in (ala.locator("#fill-help").text_content() or "")
    assert start.get_attribute("aria-describedby") == "fill-help"

    watcher = new_page()
    watcher.goto(invite + "&watch=1")
    assert wait_for_table(watcher)["seat"] is None
    expect(watcher.locator(".waiting")).to_be_visible()
    expect(watcher.locator(".fill")).to_have_count(0)
    expect(watcher.get_by_role("button", name="Start now with computer players")).to_have_count(0)
    assert server_seats(web_server, table) == ("waiting", [("human", None, False), ("human", None, True),
                                                           ("human", None, True)])

    # the keyboard only: the level, then Enter on the button
    level.focus()
    level.select_option("random")
    ala.keyboard.press("Tab")
    expect(start).to_be_focused()
    ala.keyboard.press("Enter")
    ala.wait_for_function("() => window.mizerkaDebug.view().status === 'playing'")
    players = view(ala)["players"]
    assert [(p["kind"], p.get("bot"), p["open"]) for p in players[1:]] == [("bot", "random", False)] * 2, players
    expect(ala.locator(".fill")).to_have_count(0)
    expect(ala.locator(".waiting")).to_have_count(0)
    expect(ala.locator(".felt .seat .bot-badge")).to_have_count(2)
    for badge in ala.locator(".felt .seat .bot-badge").all_inner_texts():
        assert badge == "bot · Beginner (random)"
    status, seats = server_seats(web_server, table)
    assert status == "playing" and seats == [("human", None, False), ("bot", "random", False), ("bot", "random", False)]
    assert any("Computer players (Beginner (random)) take the free seats" in said
               for said in ala.evaluate("() => window.mizerkaDebug.announcements()"))
    watcher.wait_for_function("() => window.mizerkaDebug.view().status === 'playing'")
    expect(watcher.locator(".fill")).to_have_count(0)


def test_the_control_is_named_in_polish_and_russian(new_page: Any, web_server: Any) -> None:
    """Every word of the control follows the page's language; its accessible names are the translated ones."""
    _, invite = make_table(web_server)
    page = seat_at(new_page, web_server.url, invite, "Ola")
    page.select_option("#lang-select", "pl")
    expect(page.get_by_role("button", name="Zacznij teraz z komputerem")).to_be_visible()
    level = page.get_by_label("Poziom komputera")
    expect(level).to_have_value("rules")
    expect(level.locator("option:checked")).to_have_text("Amator (reguły)")
    expect(page.locator("#fill-help")).to_contain_text("2 wolne miejsca zajmie komputer")
    page.select_option("#lang-select", "ru")
    expect(page.get_by_role("button", name="Начать сейчас с компьютером")).to_be_visible()
    expect(page.get_by_label("Уровень компьютера").locator("option:checked")).to_have_text("Любитель (правила)")
    expect(page.locator("#fill-help")).to_contain_text("2 свободных места займёт компьютер")
    page.select_option("#lang-select", "en")
    expect(page.get_by_role("button", name="Start now with computer players")).to_be_visible()


def test_a_refusal_is_shown_and_the_table_keeps_waiting(new_page: Any, web_server: Any) -> None:
    """A level the server does not offer (``bad_bot``: a page older than the server's levels, made here by adding an
    option) is refused: the refusal is shown in the page's alert region in the page's language, as any refused
    action's, and announced once; the control is usable again (and has kept the focus), and the table still waits
    with its seats open."""
    table, invite = make_table(web_server)
    page = seat_at(new_page, web_server.url, invite, "Ola")
    # in one task of the page: the control is drawn again when the server's level list arrives (GET /api/meta),
    # which under load can come between adding the option and choosing it, and the option would be gone
    choose_unknown_level_and_start = """() => {
        const select = document.querySelector('#fill-level');
        select.append(new Option('grandmaster', 'grandmaster'));
        select.value = 'grandmaster';
        select.dispatchEvent(new Event('change'));
        const button = document.querySelector('.fill-btn');
        button.focus();
        button.click();
    }"""
    expect(page.get_by_role("button", name="Start now with computer players")).to_be_visible()
    page.evaluate(choose_unknown_level_and_start)
    alert = page.locator(".me .message.error")
    refusal = "The server refused: The server does not offer that level of computer player."
    expect(alert).to_have_text(refusal)
    assert alert.get_attribute("role") == "alert"
    # said once: the reply answers the request, and is not also taken as a message of its own
    assert page.evaluate("() => window.mizerkaDebug.announcements()").count(refusal) == 1
    start = page.get_by_role("button", name="Start now with computer players")
    expect(start).to_be_enabled()
    expect(start).not_to_have_attribute("aria-disabled", "true")
    expect(start).to_be_focused()  # the focus stayed on the button through the request
    expect(page.get_by_label("Computer players' level")).to_have_value("rules")  # the offered levels again
    assert view(page)["status"] == "waiting"
    assert server_seats(web_server, table) == ("waiting", [("human", None, False), ("human", None, True),
                                                           ("human", None, True)])
    page.select_option("#lang-select", "pl")
    expect(page.get_by_role("button", name="Zacznij teraz z komputerem")).to_be_visible()
    page.evaluate(choose_unknown_level_and_start)
    expect(alert).to_have_text("Serwer odmówił: Serwer nie ma komputera na tym poziomie.")
