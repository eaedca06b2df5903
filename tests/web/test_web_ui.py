"""The browser client's languages, phone layout and bad links, in real chromium against the real server."""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import expect
from web_helpers import api_post, click_card, play_until, quickplay, view


def test_switching_to_polish_and_russian(new_page: Any, web_server: Any) -> None:
    page = new_page()
    quickplay(page, web_server.url)
    play_until(page, lambda: bool(view(page).get("phase") == "play" and not page.locator("dialog[open]").count()))
    hand = page.locator(".hand .card").first.get_attribute("data-card") or ""
    assert page.locator(".deal-info").inner_text() == "Deal 1 of 18"

    page.select_option("#lang-select", "pl")
    expect(page.locator("html")).to_have_attribute("lang", "pl")
    expect(page.locator(".deal-info")).to_have_text("Rozdanie 1 z 18")
    expect(page.get_by_role("button", name="Tabela wyników")).to_be_visible()
    label = page.locator(f'.hand .card[data-card="{hand}"]').get_attribute("aria-label") or ""
    assert re.search(r"(trefl|karo|kier|pik)", label), label
    assert re.match(r"(As|Król|Dama|Walet|Dziesiątka|Dziewiątka|Ósemka|Siódemka|Szóstka|Piątka|Czwórka|Trójka|Dwójka) ",
                    label), label
    # The contract banner and the trick counts follow Polish usage and plural forms (1 lewa, 2 lewy, 5 lew).
    expect(page.locator(".contract-banner .goal-flag")).to_have_text(re.compile(r"^(Bierz lewy|Unikaj lew)$"))
    plurals = page.evaluate("""async () => {
        const i18n = await import('/js/i18n.js');
        return [0, 1, 2, 4, 5, 12, 22, 25].map(n => i18n.t('table.tricks', { n }));
    }""")
    assert plurals == ["0 lew", "1 lewa", "2 lewy", "4 lewy", "5 lew", "12 lew", "22 lewy", "25 lew"]
    names = page.evaluate("""async () => {
        const i18n = await import('/js/i18n.js');
        return [i18n.cardName(49), i18n.cardName(38), i18n.contractName(4), i18n.contractName(5)];
    }""")
    assert names == ["Dama pik", "As kier", "Bez atu", "Mizerka"]

    page.select_option("#lang-select", "ru")
    expect(page.locator(".deal-info")).to_have_text("Сдача 1 из 18")
    label = page.locator(f'.hand .card[data-card="{hand}"]').get_attribute("aria-label") or ""
    assert re.match(r"\S+ (треф|бубён|червей|пик)(\.|$)", label), label
    plurals = page.evaluate("""async () => {
        const i18n = await import('/js/i18n.js');
        return [1, 2, 5, 11, 21, 22, 25].map(n => i18n.t('table.tricks', { n }));
    }""")
    assert plurals == ["1 взятка", "2 взятки", "5 взяток", "11 взяток", "21 взятка", "22 взятки", "25 взяток"]
    names = page.evaluate("""async () => {
        const i18n = await import('/js/i18n.js');
        return [i18n.cardName(49), i18n.cardName(38), i18n.cardName(24), i18n.contractName(4)];
    }""")
    assert names == ["Дама пик", "Туз червей", "Король бубён", "Без козыря"]

    # The choice survives a reload.
    page.reload()
    expect(page.locator(".deal-info")).to_have_text("Сдача 1 из 18")
    page.select_option("#lang-select", "en")
    expect(page.locator(".deal-info")).to_have_text("Deal 1 of 18")


def test_every_string_is_translated() -> None:
    """The three catalogues have the same keys, and each plural entry has the forms its language needs."""
    import json
    import subprocess

    source = Path(__file__).resolve().parents[2] / "src" / "mizerka" / "web" / "js" / "i18n.js"
    node = subprocess.run(["which", "node"], capture_output=True, text=True).stdout.strip()
    text = source.read_text(encoding="utf-8")
    if node:  # a full check with a JavaScript engine when there is one
        script = f"import('{source.as_uri()}').then(m => console.log(JSON.stringify(m._catalogsForTests)))"
        out = subprocess.run([node, "--input-type=module", "-e", script], capture_output=True, text=True)
        catalogs = json.loads(out.stdout)
        keys = {lang: set(cat) for lang, cat in catalogs.items()}
        assert keys["pl"] == keys["en"] == keys["ru"]
    for lang in ("en", "pl", "ru"):
        block = text.split(f"\n  {lang}: {{", 1)[1].split("\n  },", 1)[0]
        keys_here = re.findall(r'^\s+"([\w.]+)":', block, flags=re.M)
        assert len(keys_here) == len(set(keys_here)), f"duplicate keys in {lang}"
        if lang != "en":
            for entry in re.findall(r"\{ one: .*?\}", block, flags=re.S):
                assert "few:" in entry and "many:" in entry, f"{lang} plural without few/many: {entry[:60]}"
    en = text.split("\n  en: {", 1)[1].split("\n  },", 1)[0]
    en_keys = set(re.findall(r'^\s+"([\w.]+)":', en, flags=re.M))
    for lang in ("pl", "ru"):
        block = text.split(f"\n  {lang}: {{", 1)[1].split("\n  },", 1)[0]
        assert set(re.findall(r'^\s+"([\w.]+)":', block, flags=re.M)) == en_keys, lang


def test_phone_portrait(new_page: Any, web_server: Any, artifacts: Path) -> None:
    page = new_page(viewport={"width": 375, "height": 667}, is_mobile=True, has_touch=True, device_scale_factor=2)
    page.goto(web_server.url + "/")
    expect(page.locator("#quickplay")).to_be_visible()
    page.screenshot(path=str(artifacts / "lobby-phone.png"))
    quickplay(page, web_server.url)

    def playing() -> bool:
        v = view(page)
        return bool(v.get("phase") == "play" and v.get("your_turn") and not page.locator("dialog[open]").count()
                    and v.get("tricks_played", 0) >= 1)

    play_until(page, playing, exchange=3)
    # Nothing spills sideways, and every card of the hand is on screen and big enough to tap.
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 375
    boxes = page.locator(".hand .card").evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.left, r.right, r.top, r.bottom]; })")
    assert boxes and all(left >= 0 and right <= 375 and bottom <= 667 for left, right, _, bottom in boxes), boxes
    steps = [b[0] - a[0] for a, b in itertools.pairwise(boxes)]
    assert min(steps) >= 18, steps  # each card shows a strip wide enough to tap and to read its index
    for selector in (".felt .pos-left", ".felt .pos-right", ".centre", ".contract-banner"):
        box = page.locator(selector).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 375.5, selector
    page.screenshot(path=str(artifacts / "table-phone.png"))
    click_card(page, page.locator(".hand .card.playable").first, tap=True)
    page.wait_for_function("() => !window.mizerkaDebug.view().your_turn || window.mizerkaDebug.view().phase !== 'play'"
                           " || document.querySelectorAll('.hand .card').length < 13")


def test_unknown_table_link_offers_the_lobby(new_page: Any, web_server: Any) -> None:
    page = new_page()
    page.goto(web_server.url + "/?table=no-such-table")
    expect(page.locator(".error-text")).to_have_text("This table does not exist or has ended.")
    page.click("#back-to-lobby")
    expect(page.locator("#quickplay")).to_be_visible()


def test_a_link_naming_two_tables_says_so(new_page: Any, web_server: Any) -> None:
    """A link with the table twice (pasted twice, edited by hand): the same table twice opens it; two different
    ones opened the first and said nothing of the second."""
    one = api_post(web_server.url, "/api/tables", {"seats": [{"kind": "human"}] * 3})["id"]
    two = api_post(web_server.url, "/api/tables", {"seats": [{"kind": "human"}] * 3})["id"]
    page = new_page()
    page.goto(f"{web_server.url}/?table={one}&table={two}")
    expect(page.locator(".error-text")).to_have_text(
        "This link names more than one table: ask for the table's link again.")
    page.click("#back-to-lobby")
    expect(page.locator("#quickplay")).to_be_visible()
    page.goto(f"{web_server.url}/?table={one}&table={one}")
    expect(page.locator(".join-screen")).to_be_visible()


def test_stale_seat_token_shows_a_message(new_page: Any, web_server: Any) -> None:
    page = new_page()
    v = quickplay(page, web_server.url)
    # The stored token no longer fits (as after the server forgot the seat): the page says so and offers the lobby.
    page.evaluate("""id => {
        const seats = JSON.parse(localStorage.getItem('mizerka.seats'));
        seats[id].token = 'not-the-token';
        localStorage.setItem('mizerka.seats', JSON.stringify(seats));
    }""", v["table"])
    page.reload()
    expect(page.locator(".error-text")).to_have_text("This invite link is not valid.")
    expect(page.locator("#back-to-lobby")).to_be_visible()


def test_full_table_shows_a_message(new_page: Any, web_server: Any) -> None:
    # three humans: no seat is free, and none is the computer's to take over (a quick play's bots' seats may be,
    # see tests/web/test_web_takeover.py)
    table = api_post(web_server.url, "/api/tables", {"seats": [{"kind": "human"}] * 3})["id"]
    for name in ("Ala", "Bolek", "Cezary"):
        api_post(web_server.url, f"/api/tables/{table}/join", {"name": name})
    other = new_page()
    other.goto(f"{web_server.url}/?table={table}")
    expect(other.locator(".error-text")).to_have_text("This table is full.")
    expect(other.locator("#back-to-lobby")).to_be_visible()
    # Watching is offered instead; a spectator sees no hand at all.
    other.get_by_role("button", name="Watch instead").click()
    other.wait_for_function("() => window.mizerkaDebug && window.mizerkaDebug.view() !== null")
    expect(other.locator(".spectator-note")).to_be_visible()
    expect(other.locator(".hand .card")).to_have_count(0)


def test_hint_shows_a_suggestion_with_its_evaluation(new_page: Any, web_server: Any) -> None:
    page = new_page()
    quickplay(page, web_server.url)
    # In the exchange the bot's suggestion comes with its evaluation, and preselects the suggested discards.
    # (an exchange with a talon to draw from, so that there is a suggestion to show: with the talon emptied by the
    # bots before our turn the helper keeps the hand, and the next deal's exchange may come while the last deal's
    # summary is still open: it is closed first, as a player would)
    def exchange_to_make() -> bool:
        v = view(page)
        return bool(v.get("phase") == "exchange" and v.get("your_turn") and (v.get("exchange") or {}).get("max")
                    and not page.locator("dialog.summary-dialog[open]").count())

    play_until(page, exchange_to_make)
    page.get_by_role("button", name="Hint").click()
    message = page.locator(".me .message.hint")
    expect(message).to_contain_text("Suggested:")
    reply = page.evaluate("() => window.mizerkaDebug.hint()")
    words = sorted(reply["action"].split())
    if any(sorted(key.split()) == words for key in reply["evaluations"]):  # the bot scored its own choice
        expect(message).to_contain_text("expected score")
    else:
        expect(message).not_to_contain_text("expected score")
    seq = view(page)["seq"]
    page.locator(".exchange-confirm").click()
    # until the server's answer arrives the old view still says "your exchange": don't act on it twice
    page.wait_for_function("seq => window.mizerkaDebug.view().seq > seq", arg=seq)
    # In play the suggested card is highlighted in the hand, and it is a legal one.
    play_until(page, lambda: bool(view(page).get("phase") == "play" and view(page).get("your_turn")
                                  and not page.locator("dialog[open]").count()))
    page.get_by_role("button", name="Hint").click()
    expect(page.locator(".me .message.hint")).to_contain_text("Suggested:")
    expect(page.locator(".hand .card.hinted")).to_have_count(1)
    hinted = page.locator(".hand .card.hinted").get_attribute("data-card")
    assert hinted in view(page)["legal"]


def test_reduced_motion_turns_animations_off(new_page: Any, web_server: Any) -> None:
    page = new_page(reduced_motion="reduce")
    quickplay(page, web_server.url)
    play_until(page, lambda: bool(view(page).get("phase") == "play" and not page.locator("dialog[open]").count()))
    # read in one task of the page: a card found by a locator may be redrawn (a bot's card arriving) before its style
    # is read, and a detached element's computed style is empty
    styles = page.evaluate(
        "() => { const s = getComputedStyle(document.querySelector('.hand .card'));"
        " return [s.animationName, s.transitionDuration]; }")
    assert styles[0] == "none" and styles[1] in ("0s", "")


def test_a_name_being_typed_survives_the_lobby_refreshing(new_page: Any, web_server: Any) -> None:
    """The lobby redraws itself when its table list arrives; a player already typing their name keeps what they
    typed, the focus and the caret (the list is held back here until the name is half typed)."""
    page = new_page()
    held: list[Any] = []
    page.route("**/api/tables", lambda route: held.append(route))
    page.goto(web_server.url + "/")
    field = page.locator("#player-name")
    field.click()
    page.keyboard.type("Zo")
    while not held:
        page.wait_for_timeout(20)
    with page.expect_response("**/api/tables"):
        held[0].continue_()
    expect(page.locator(".open-tables .panel-head")).to_be_visible()
    page.keyboard.type("sia")
    expect(field).to_have_value("Zosia")
    expect(field).to_be_focused()


def test_a_remembered_choice_the_server_no_longer_offers_gives_way_to_what_the_lobby_shows(
    new_page: Any, web_server: Any,
) -> None:
    """Rules and a level remembered from an older page, which the server no longer lists: the selects show its
    defaults and quick play starts exactly that game (it used to start the remembered rules under "Standard")."""
    page = new_page()
    page.goto(web_server.url + "/")
    page.evaluate("() => localStorage.setItem('mizerka.prefs', JSON.stringify("
                  "{name: 'Ola', variant: 'no-exchange,contracts=NT', level: 'grandmaster'}))")
    page.reload()
    page.wait_for_function("() => document.querySelectorAll('#variant option').length > 1")
    expect(page.locator("#variant")).to_have_value("standard")
    expect(page.locator("#bot-level")).to_have_value("rules")
    saved = page.evaluate("() => JSON.parse(localStorage.getItem('mizerka.prefs'))")
    assert (saved["variant"], saved["level"], saved["name"]) == ("standard", "rules", "Ola")
    page.click("#quickplay")
    page.wait_for_url(re.compile(r"\?table="))
    page.wait_for_function("() => window.mizerkaDebug && window.mizerkaDebug.view() !== null")
    table = page.evaluate("() => window.mizerkaDebug.view().table")
    assert page.evaluate("async t => (await (await fetch('/api/tables/' + t)).json()).variant", table) == "standard"
