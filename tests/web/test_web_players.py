"""Player profiles, rated tables, the leaderboard and a player's page in the browser (js/players.js, js/lobby.js,
js/table.js), in real chromium against the real server.

A profile is claimed in the lobby's "Your profile" panel (POST /api/players) and kept in localStorage; every seat
the browser then takes sends its key.  A rated match is played to its end quickly through the protocol with the
profile's seat token (a short variant: one contract, three deals), as in test_web_history.py; the browser then
finds the player on the leaderboard, opens the player's page and the match from there.  A name already taken, an
unknown key, forgetting and restoring by key, the leaderboard's paging and a 375 px phone in Russian are checked
too.
"""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
import uuid
from typing import Any
from urllib.parse import parse_qs, urlparse

from playwright.sync_api import expect
from web_helpers import (
    api_get,
    api_post,
    claim_profile,
    keep_profile,
    no_sideways_scroll,
    play_through_protocol,
    quickplay,
    view,
    wait_for_table,
)

SHORT = "standard,contracts=MZ"  # one contract each: three deals


def unique(stem: str) -> str:
    """A name no other test has claimed on the session's server (names are unique ignoring case)."""
    return f"{stem}{uuid.uuid4().hex[:6]}"


def signed(n: int) -> str:
    """A score or a rating change as the page writes it: +3, −2 (a minus sign), 0."""
    return f"+{n}" if n > 0 else f"\u2212{-n}" if n < 0 else "0"


def stored_profile(page: Any) -> Any:
    return page.evaluate("() => JSON.parse(localStorage.getItem('mizerka.profile'))")


def test_claim_a_name_in_the_lobby(new_page: Any, web_server: Any) -> None:
    base = web_server.url
    name = unique("Ala")
    page = new_page()
    page.goto(base + "/")
    panel = page.locator("section.profile-panel")
    expect(panel.get_by_role("heading", name="Your profile")).to_be_visible()
    expect(panel).to_contain_text("Claim your name (for ratings and the leaderboard).")
    # without a profile the rated games are not offered
    expect(page.locator("#quick-rated")).to_be_disabled()
    expect(page.locator("#quick-rated")).not_to_be_checked()
    expect(page.locator("#private-rated")).to_be_disabled()
    expect(page.locator("#quick-rated-note")).to_have_text("Claim a name to play rated games.")

    # the claim field starts with the remembered name
    page.fill("#player-name", name)
    page.locator("#player-name").blur()
    page.reload()
    expect(page.locator("#claim-name")).to_have_value(name)
    page.locator("#claim-name").focus()
    page.keyboard.press("Enter")  # the form submits from the keyboard

    expect(panel.locator(".profile-line")).to_contain_text(f"Playing as {name}")
    expect(panel.locator(".profile-line")).to_contain_text("rating 1500")
    expect(panel.locator(".profile-line .rating.provisional")).to_have_attribute(
        "title", "provisional: fewer than 5 rated games")
    expect(panel.locator(".profile-line")).to_contain_text("(provisional)")
    expect(panel.locator(".profile-line")).to_contain_text("0 rated games")
    kept = stored_profile(page)
    assert kept["name"] == name and kept["key"] and kept["id"]
    # the server knows the key kept here, and it is this profile's
    assert api_get(base, "/api/profile", key=kept["key"])["name"] == name
    link = panel.get_by_role("link", name="My player page")
    expect(link).to_have_attribute("href", f"/?player={kept['id']}")
    expect(link).to_be_focused()
    # the quick play's name is the profile's, and rated games can be chosen now
    expect(page.locator("#player-name")).to_have_value(name)
    expect(page.locator("#player-name")).to_have_attribute("readonly", "")
    expect(page.locator("#quick-rated")).to_be_enabled()

    # a reload asks the server about the kept profile (GET /api/profile) and shows the same
    with page.expect_request(lambda r: r.url.endswith("/api/profile")) as asked:
        page.reload()
    assert asked.value.headers["authorization"] == f"Bearer {kept['key']}"
    expect(panel.locator(".profile-line")).to_contain_text("0 rated games")


def test_a_name_taken_is_refused_in_the_players_language(new_page: Any, web_server: Any) -> None:
    base = web_server.url
    name = unique("Bolek")
    api_post(base, "/api/players", {"name": name})
    page = new_page()
    page.goto(base + "/")
    page.fill("#claim-name", name.upper())  # names are unique ignoring case
    page.click("#claim-submit")
    error = page.locator(".profile-panel .profile-error")
    expect(error).to_have_text("This name is taken: choose another one.")
    expect(page.locator("#claim-name")).to_be_focused()
    assert stored_profile(page) is None
    page.select_option("#lang-select", "pl")
    expect(error).to_have_text("Ta nazwa jest już zajęta: wybierz inną.")
    page.select_option("#lang-select", "ru")
    expect(error).to_have_text("Это имя уже занято: выберите другое.")
    # a name of spaces is not sent
    page.select_option("#lang-select", "en")
    page.fill("#claim-name", "   ")
    page.click("#claim-submit")
    expect(error).to_have_text("A name is 1 to 40 printable characters, not only spaces.")


def test_rated_quick_play_shows_rated_and_the_registered_mark(new_page: Any, web_server: Any) -> None:
    base = web_server.url
    name = unique("Cezary")
    page = new_page()
    profile = claim_profile(page, base, name)
    page.check("#quick-rated")
    page.reload()  # remembered
    expect(page.locator("#quick-rated")).to_be_checked()
    with page.expect_request(lambda r: r.url.endswith("/api/quickplay")) as asked:
        v = quickplay(page, base)
    body = json.loads(asked.value.post_data or "{}")
    assert body["player_key"] == profile["key"] and body["name"] == name and body["rated"] is True
    assert v["options"]["rated"] is True and v["options"]["hints"] is False
    badge = page.locator(".deal-info .rated-badge")
    expect(badge).to_have_text("Rated")
    expect(badge).to_have_attribute("title", "Rated game: the result changes the players' ratings")
    me = page.locator(f'.seat[data-seat="{v["seat"]}"]')
    mark = me.locator(".registered-mark")
    expect(mark).to_have_attribute("aria-label", "registered player")
    expect(mark).to_have_text("\u2713")
    assert v["players"][v["seat"]]["registered"] is True
    # the bots hold no profile: no mark at their seats
    for seat, player in enumerate(v["players"]):
        if seat != v["seat"]:
            assert player["kind"] == "bot"
            expect(page.locator(f'.seat[data-seat="{seat}"] .registered-mark')).to_have_count(0)
    # a rated table gives no hints and takes nothing back
    expect(page.locator(".hint-btn")).to_have_count(0)
    expect(page.locator(".undo-btn")).to_have_count(0)
    page.select_option("#lang-select", "pl")
    expect(badge).to_have_text("Rankingowa")
    expect(mark).to_have_attribute("aria-label", "zarejestrowany gracz")

    # an unrated quick play with the same profile: its key still goes with it, the table is not rated
    page.goto(base + "/")
    page.select_option("#lang-select", "en")
    page.uncheck("#quick-rated")
    with page.expect_request(lambda r: r.url.endswith("/api/quickplay")) as asked:
        v = quickplay(page, base)
    body = json.loads(asked.value.post_data or "{}")
    assert body["player_key"] == profile["key"] and "rated" not in body
    assert not v["options"].get("rated")
    expect(page.locator(".deal-info .rated-badge")).to_have_count(0)
    expect(page.locator(f'.seat[data-seat="{v["seat"]}"] .registered-mark')).to_have_count(1)


def test_a_rated_private_table_has_no_hints_and_seats_profiles_only(new_page: Any, web_server: Any) -> None:
    base = web_server.url
    host = new_page()
    claim_profile(host, base, unique("Dorota"))
    hints = host.locator("#private-hints")
    expect(hints).to_be_checked()
    host.select_option("#private-opponents", "1")  # a friend and a bot
    host.check("#private-rated")
    expect(hints).to_be_disabled()
    expect(hints).not_to_be_checked()
    expect(host.locator("#private-hints-note")).to_have_text("A rated table gives no hints.")
    with host.expect_request(lambda r: r.url.endswith("/api/tables") and r.method == "POST") as asked:
        host.click("#create-table")
    body = json.loads(asked.value.post_data or "{}")
    assert body["rated"] is True and body["hints"] is False
    host.wait_for_url(re.compile(r"\?table="))
    v = wait_for_table(host)
    assert v["options"]["rated"] is True
    table = v["table"]
    expect(host.locator(".waiting-seats .registered-mark")).to_have_count(1)

    # a friend without a profile is sent to claim a name first
    friend = new_page()
    friend.goto(f"{base}/?table={table}")
    expect(friend.locator(".join-screen .rated-note")).to_contain_text("only players with a claimed name")
    expect(friend.locator("#join-table")).to_have_count(0)
    friend.click("#claim-first")
    expect(friend.locator("section.profile-panel #claim-name")).to_be_visible()
    # with a profile the friend takes the seat; the key goes with the join
    profile = claim_profile(friend, base, unique("Edek"))
    friend.goto(f"{base}/?table={table}")
    expect(friend.locator(".join-screen .rated-note")).to_contain_text("the result changes the players' ratings")
    with friend.expect_request(lambda r: r.url.endswith("/join")) as asked:
        friend.click("#join-table")
    assert json.loads(asked.value.post_data or "{}")["player_key"] == profile["key"]
    v = wait_for_table(friend)
    assert [p["registered"] for p in v["players"]].count(True) == 2
    expect(friend.locator(".registered-mark")).to_have_count(2)


def finished_rated_match(base: str, server: Any, profile: dict[str, str], name: str) -> str:
    """A public rated table of the profile and two bots, played to its end through the protocol: its id."""
    seats = [{"kind": "human"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]
    table = api_post(base, "/api/tables", {"seats": seats, "variant": SHORT, "visibility": "public", "name": name,
                                           "rated": True})["id"]
    joined = api_post(base, f"/api/tables/{table}/join", {"player_key": profile["key"]})
    play_through_protocol(server, table, joined["token"], lambda v: v["phase"] == "over")
    return str(table)


def test_the_leaderboard_and_the_players_page_after_a_rated_match(new_page: Any, web_server: Any) -> None:
    base = web_server.url
    name = unique("Franek")
    claimed = api_post(base, "/api/players", {"name": name})
    profile = {"key": claimed["key"], "id": claimed["player"]["id"], "name": claimed["player"]["name"]}
    table = finished_rated_match(base, web_server, profile, f"Rated {name}")
    me = api_get(base, f"/api/players/{profile['id']}")
    assert me["games"] == 1 and me["recent"][0]["table"] == table
    result = me["recent"][0]

    page = new_page()
    keep_profile(page, base, profile)
    page.goto(base + "/")
    expect(page.locator(".profile-line")).to_contain_text("1 rated game")
    page.get_by_role("link", name="Leaderboard").click()
    expect(page).to_have_url(re.compile(r"\?leaderboard=1$"))
    board = page.locator("section.leaderboard-page")
    expect(board.locator("h2#leaderboard-title")).to_have_text("Leaderboard")
    expect(board.locator("h2#leaderboard-title")).to_be_focused()
    row = board.locator(f'tr[data-player="{profile["id"]}"]')
    expect(row).to_be_visible()
    expect(row).to_have_class("lb-me")
    expect(row.locator(".lb-name")).to_contain_text(name)
    expect(row.locator(".lb-name")).to_contain_text("(you)")
    expect(row.locator(".lb-rating")).to_have_text(f"{me['rating']}? (provisional)")  # the words are for readers
    expect(row.locator(".lb-rating .rating")).to_have_attribute("title", "provisional: fewer than 5 rated games")
    expect(row.locator(".lb-games")).to_have_text("1")
    expect(row.locator(".lb-wins")).to_have_text("–")  # fewer than 5 games: no percentage
    expect(row.locator(".lb-deals")).to_have_text("–")
    rows = api_get(base, "/api/leaderboard?limit=200")
    mine = next(r for r in rows if r["id"] == profile["id"])
    expect(row.locator(".lb-rank")).to_have_text(str(mine["rank"]))
    # the bots of the match stand there too, marked as bots by their level's name
    bot = board.locator('tr[data-player="bot:random"]')
    expect(bot.locator("a.lb-player")).to_have_text("Beginner (random)")
    expect(bot.locator(".bot-badge")).to_have_text("bot")
    expect(board.locator("thead th")).to_have_text(["Rank", "Player", "Rating", "Games", "Wins", "Deals won"])

    # the player's page, from the keyboard
    link = row.get_by_role("link", name=name)
    expect(link).to_have_attribute("href", f"/?player={profile['id']}")
    link.focus()
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(rf"\?player={re.escape(profile['id'])}$"))
    player = page.locator("section.player-page")
    expect(player.locator("h2#player-title")).to_contain_text(name)
    expect(player.locator(".player-rating")).to_contain_text(f"Rating: {me['rating']}")
    expect(player.locator(".player-rating")).to_contain_text("provisional: fewer than 5 rated games")
    expect(player.locator(".st-games")).to_have_text("1")
    expect(player.locator(".st-wins")).to_have_text(str(me["wins"]))
    expect(player.locator(".st-deals")).to_have_text("3")
    expect(player.locator(".st-deals-won")).to_have_text(str(me["deals_won"]))
    item = player.locator(f'.player-recent li[data-match="{table}"]')
    expect(item).to_have_count(1)
    expect(item.locator(".tb-name")).to_have_text(f"Rated {name}")
    for who, total in zip(result["players"], result["totals"], strict=True):
        expect(item.locator(".tb-players")).to_contain_text(f"{who} {signed(total)}")
    expect(item.locator(".pr-place")).to_have_text(f"place {result['rank']} of 3")
    change = result["rating_after"] - result["rating_before"]
    expect(item.locator(".pr-change")).to_have_text(f"Rating {signed(change)}")
    expect(item.locator(".pr-change")).to_have_attribute(
        "title", f"rating {result['rating_before']} → {result['rating_after']}")
    # the match's own page, from there
    item.get_by_role("link", name=re.compile("^Score sheet and replay")).click()
    expect(page).to_have_url(re.compile(rf"\?match={table}$"))
    expect(page.locator("section.match-page h2#match-title")).to_have_text(f"Rated {name}")
    expect(page.locator(".sheet-deals tbody tr")).to_have_count(3)

    # back: the player page; a bot level's page
    page.go_back()
    expect(player.locator("h2#player-title")).to_contain_text(name)
    page.goto(base + "/?player=bot:random")
    expect(page.locator("section.player-page h2#player-title")).to_contain_text("Beginner (random)")
    expect(page.locator("section.player-page .bot-badge")).to_have_text("bot")
    expect(page.locator("section.player-page")).to_contain_text("all bots of this level share one rating")
    # an unknown player says so, with the way back
    page.goto(base + "/?player=" + unique("nobody"))
    expect(page.locator(".player-page .error-text")).to_have_text("There is no player with this name.")
    page.get_by_role("button", name="Back to the lobby").click()
    expect(page.locator("section.profile-panel")).to_be_visible()

    # a 375 px phone in Russian: the leaderboard and the player's page fit without sideways scrolling
    phone = new_page(viewport={"width": 375, "height": 667})
    keep_profile(phone, base, profile)
    phone.goto(base + "/")
    phone.select_option("#lang-select", "ru")
    expect(phone.locator(".profile-line")).to_contain_text("1 рейтинговая партия")
    no_sideways_scroll(phone)
    phone.get_by_role("link", name="Таблица лидеров").click()
    expect(phone.locator(f'tr[data-player="{profile["id"]}"]')).to_be_visible()
    no_sideways_scroll(phone)
    phone.locator(f'tr[data-player="{profile["id"]}"] a').click()
    expect(phone.locator(".player-recent li")).to_have_count(1)
    expect(phone.locator(".pr-place")).to_have_text(f"место {result['rank']} из 3")
    no_sideways_scroll(phone)


def test_leaderboard_pages_percentages_and_empty_state(new_page: Any, web_server: Any) -> None:
    """Fifty rows a page, "Show more" asks for the next by offset and is gone after the last; percentages only
    from 5 games; a bot's row by its level; no rows: the empty state."""
    asked: list[dict[str, list[str]]] = []
    total = 57

    def row(i: int) -> dict[str, Any]:
        if i == 1:
            return {"rank": 2, "id": "bot:expert", "name": "expert", "kind": "bot", "rating": 1700,
                    "provisional": False, "games": 40, "wins": 20, "deals": 720, "deals_won": 300}
        return {"rank": i + 1, "id": f"p{i:03d}", "name": f"P{i:03d}", "kind": "human", "rating": 1600 - i,
                "provisional": i % 2 == 0, "games": i, "wins": i // 2, "deals": 18 * i, "deals_won": 6 * i}

    def leaderboard(route: Any) -> None:
        query = parse_qs(urlparse(route.request.url).query)
        asked.append(query)
        offset, limit = int(query["offset"][0]), int(query["limit"][0])
        rows = [row(i) for i in range(offset, min(offset + limit, total))]
        route.fulfill(status=200, content_type="application/json", body=json.dumps(rows),
                      headers={"X-Total-Count": str(total), "Access-Control-Expose-Headers": "X-Total-Count"})

    page = new_page()
    page.route(re.compile(r".*/api/leaderboard\?.*"), leaderboard)
    page.goto(web_server.url + "/?leaderboard=1")
    rows = page.locator("table.leaderboard tbody tr")
    expect(rows).to_have_count(50)
    expect(page.locator(".leaderboard-page .tables-shown")).to_have_text("Showing 50 of 57")
    four = page.locator('tr[data-player="p004"]')
    expect(four.locator(".lb-rating")).to_have_text("1596? (provisional)")
    expect(four.locator(".lb-wins")).to_have_text("–")  # 4 games
    five = page.locator('tr[data-player="p005"]')
    expect(five.locator(".lb-rating")).to_have_text("1595")
    expect(five.locator(".lb-wins")).to_have_text("40%")  # 2 of 5
    expect(five.locator(".lb-deals")).to_have_text("33%")  # 30 of 90
    bot = page.locator('tr[data-player="bot:expert"]')
    expect(bot.locator("a.lb-player")).to_have_text("Expert")
    expect(bot.locator("a.lb-player")).to_have_attribute("href", "/?player=bot%3Aexpert")
    expect(bot.locator(".bot-badge")).to_have_attribute("title", "Expert")
    more = page.get_by_role("button", name="Show more")
    more.focus()
    page.keyboard.press("Enter")
    expect(rows).to_have_count(57)
    expect(more).to_have_count(0)
    expect(page.locator('tr[data-player="p050"] a')).to_be_focused()
    assert [(q["offset"], q["limit"]) for q in asked] == [(["0"], ["50"]), (["50"], ["50"])]
    page.select_option("#lang-select", "pl")
    expect(page.locator('tr[data-player="p005"] .lb-wins')).to_have_text("40%")
    expect(page.locator("table.leaderboard thead th").nth(2)).to_have_text("Ranking")

    empty = new_page()
    empty.route(re.compile(r".*/api/leaderboard\?.*"), lambda route: route.fulfill(
        status=200, content_type="application/json", body="[]", headers={"X-Total-Count": "0"}))
    empty.goto(web_server.url + "/?leaderboard=1")
    expect(empty.locator(".leaderboard-empty")).to_have_text(
        "No rated games yet. Claim a name in the lobby and play a rated game to appear here.")
    expect(empty.locator("table.leaderboard")).to_have_count(0)


def test_show_forget_and_restore_the_key(new_page: Any, web_server: Any) -> None:
    base = web_server.url
    name = unique("Gosia")
    page = new_page()
    profile = claim_profile(page, base, name)
    panel = page.locator("section.profile-panel")

    # "Show my key": the key to copy to another device, with the warning
    show = page.get_by_role("button", name="Show my key")
    expect(show).to_have_attribute("aria-expanded", "false")
    show.click()
    expect(show).to_have_attribute("aria-expanded", "true")
    expect(page.locator("#profile-key")).to_have_value(profile["key"])
    expect(page.locator("#profile-key-warning")).to_contain_text("the only way to get this profile back")
    show.click()
    expect(page.locator("#profile-key")).to_have_count(0)
    assert profile["key"] not in page.content()  # shown only while asked for

    # "Forget on this device" asks first; Escape and Cancel keep the profile
    forget = page.get_by_role("button", name="Forget on this device")
    forget.click()
    dialog = page.locator("dialog.forget-confirm[open]")
    expect(dialog).to_contain_text(f"can no longer play as {name}")
    expect(page.locator("#forget-cancel")).to_be_focused()
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    expect(forget).to_be_focused()
    assert stored_profile(page)["key"] == profile["key"]
    forget.click()
    page.click("#forget-yes")
    expect(panel.locator("#claim-name")).to_be_focused()
    assert stored_profile(page) is None
    expect(page.locator("#quick-rated")).to_be_disabled()
    expect(page.locator("#player-name")).not_to_have_attribute("readonly", "")

    # a wrong key is refused; the right one brings the profile back
    page.get_by_role("button", name="Use a key from another device").click()
    expect(page.locator("#restore-key")).to_be_focused()
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if r.url.endswith("/api/profile") else None)
    page.fill("#restore-key", "мой ключ")  # no key has such characters: refused here, not sent
    page.click("#restore-submit")
    expect(panel.locator(".profile-error")).to_have_text("This key belongs to no profile on this server.")
    assert asked == []
    page.fill("#restore-key", "not-a-key-" + uuid.uuid4().hex)
    page.click("#restore-submit")
    expect(page.locator("#restore-key")).to_be_focused()
    expect(panel.locator(".profile-error")).to_have_text("This key belongs to no profile on this server.")
    assert len(asked) == 1  # the server was asked, and said bad_key
    assert stored_profile(page) is None
    page.fill("#restore-key", f"  {profile['key']} ")
    page.keyboard.press("Enter")
    expect(panel.locator(".profile-line")).to_contain_text(f"Playing as {name}")
    assert stored_profile(page) == profile
    expect(page.locator("#quick-rated")).to_be_enabled()


def test_a_key_the_server_does_not_know(new_page: Any, web_server: Any) -> None:
    """A profile kept here that the server does not know (another server's, a fresh database): the panel says so
    and offers to forget it."""
    base = web_server.url
    page = new_page()
    keep_profile(page, base, {"key": "gone-" + uuid.uuid4().hex, "id": "zenek", "name": "Zenek"})
    page.goto(base + "/")
    unknown = page.locator(".profile-panel .profile-unknown")
    expect(unknown).to_contain_text("This server does not know your profile")
    expect(page.locator("#profile-page-link")).to_have_count(0)
    page.get_by_role("button", name="Forget on this device").click()
    page.click("#forget-yes")
    expect(page.locator("#claim-name")).to_be_visible()
    assert stored_profile(page) is None
    # a quick play after that is anonymous again
    with page.expect_request(lambda r: r.url.endswith("/api/quickplay")) as asked:
        v = quickplay(page, base)
    assert "player_key" not in json.loads(asked.value.post_data or "{}")
    assert v["players"][v["seat"]]["registered"] is False
    assert view(page)["options"].get("rated") in (False, None)


def test_refusals_of_the_new_codes_have_sentences(new_page: Any, web_server: Any) -> None:
    """Every refusal code of profiles and rated tables says what it means in each language (not the server's
    English message)."""
    page = new_page()
    page.goto(web_server.url + "/")
    codes = ["name_taken", "bad_key", "unknown_player", "profile_needed", "already_seated", "bad_name", "bad_options"]
    for lang in ("en", "pl", "ru"):
        texts = page.evaluate("""([codes, lang]) => import('/js/i18n.js').then(m => {
            m.setLang(lang);
            return codes.map(c => m.refusalReason(c));
        })""", [codes, lang])
        assert all(texts), (lang, dict(zip(codes, texts, strict=True)))
        assert len(set(texts)) == len(texts), texts
    # the server's refusal, as the lobby shows it (a quick play refused for want of a profile)
    page.route(re.compile(r".*/api/quickplay$"), lambda route: route.fulfill(
        status=403, content_type="application/json",
        body=json.dumps({"error": "profile_needed", "message": "a rated game needs a profile"})))
    page.select_option("#lang-select", "pl")
    page.click("#quickplay")
    expect(page.locator(".lobby > .message.error")).to_have_text(
        "Stół rankingowy jest dla graczy z zarezerwowaną nazwą: najpierw zarezerwuj swoją w poczekalni.")
    # and the server does refuse a rated quick play without a key
    try:
        api_post(web_server.url, "/api/quickplay", {"name": "Anon", "rated": True})
    except urllib.error.HTTPError as error:
        assert error.code == 403 and json.loads(error.read())["error"] == "profile_needed"
    else:  # pragma: no cover - the server must refuse
        raise AssertionError("a rated quick play without a key was accepted")


def test_a_private_rated_match_is_listed_without_its_table(new_page: Any, web_server: Any) -> None:
    """A quick-play table is private: its id is its invite.  The player's page lists the result (place, players,
    rating change) but, to everyone else, links to no match page and shows no table name.  On the player's own page
    (the profile's key kept in this browser) the match opens: the key gives the private tables' ids
    (rated quick play, the common way to play rated, is private: without it the owner could open none of those
    matches)."""
    base = web_server.url
    name = unique("Zosia")
    claimed = api_post(base, "/api/players", {"name": name})
    joined = api_post(base, "/api/quickplay", {"player_key": claimed["key"], "rated": True, "variant": SHORT,
                                               "level": "random"})
    table = joined["table"]["id"]
    play_through_protocol(web_server, table, joined["token"], lambda v: v["phase"] == "over")
    page = new_page()
    page.goto(base + f"/?player={claimed['player']['id']}")
    item = page.locator(".player-recent li")
    expect(item).to_have_count(1)
    expect(item).to_have_class(re.compile("private-result"))
    expect(item.locator(".tb-name")).to_have_text("Private table")
    expect(item.locator(".pr-place")).to_contain_text("of 3")
    expect(item.get_by_role("link")).to_have_count(0)
    assert table not in page.content()

    own = new_page()
    own.goto(base + "/")
    own.evaluate("p => localStorage.setItem('mizerka.profile', JSON.stringify(p))",
                 {"key": claimed["key"], "id": claimed["player"]["id"], "name": name})
    own.goto(base + f"/?player={claimed['player']['id']}")
    mine = own.locator(".player-recent li")
    expect(mine.get_by_role("link")).to_have_count(1)
    expect(mine).to_have_class(re.compile("private-result"))
    expect(mine.locator(".tb-name")).to_contain_text(name)  # the table's own name ("… vs bots"), as in its lobby
    mine.get_by_role("link").click()
    expect(own).to_have_url(re.compile(rf"\?match={re.escape(table)}$"))
    expect(own.locator("section.match-page .sheet-deals tbody tr").first).to_be_visible()


def test_delete_the_profile_from_the_lobby(new_page: Any, web_server: Any) -> None:
    """"Delete my profile" asks first; a seat at a match not over refuses it (the profile stays); then it goes, with
    its name freed, and the panel offers to claim a name again."""
    base = web_server.url
    name = unique("Tola")
    page = new_page()
    kept = claim_profile(page, base, name)
    seated = api_post(base, "/api/quickplay", {"player_key": kept["key"], "rated": True, "variant": SHORT,
                                               "level": "random"})
    page.goto(base + "/")
    panel = page.locator("section.profile-panel")
    page.click("#delete-profile")
    dialog = page.locator("dialog.delete-confirm")
    expect(dialog.get_by_role("heading")).to_have_text("Delete the profile?")
    expect(dialog).to_contain_text(f"The server deletes {name}")
    expect(page.locator("#delete-cancel")).to_be_focused()
    page.keyboard.press("Escape")  # cancelled: nothing asked of the server
    expect(dialog).to_have_count(0)
    expect(page.locator("#delete-profile")).to_be_focused()
    page.click("#delete-profile")
    page.click("#delete-yes")
    expect(panel).to_contain_text("Your profile holds a seat at a match that is not over")
    assert stored_profile(page)["key"] == kept["key"]
    assert api_get(base, f"/api/players/{kept['id']}")["name"] == name

    # the seat given up (a bot plays it out), the profile can go
    api_post(base, f"/api/tables/{seated['table']['id']}/leave", {"token": seated["token"]})
    page.click("#delete-profile")
    page.click("#delete-yes")
    expect(panel.locator("#claim-name")).to_be_visible()
    assert stored_profile(page) is None
    try:
        api_get(base, f"/api/players/{kept['id']}")
    except urllib.error.HTTPError as error:
        assert error.code == 404
    else:
        raise AssertionError("the profile is still there")
    try:  # a deleted profile's name is never another player's
        api_post(base, "/api/players", {"name": name.upper()})
    except urllib.error.HTTPError as error:
        assert error.code == 409 and json.loads(error.read())["error"] == "name_taken"
    else:
        raise AssertionError("the deleted profile's name was given again")


def test_a_name_the_server_will_not_register_is_explained(new_page: Any, web_server: Any) -> None:
    page = new_page()
    page.goto(web_server.url + "/")
    page.fill("#claim-name", "Ala\u3164")  # a Hangul filler: printable, but shows nothing
    page.click("#claim-submit")
    expect(page.locator("section.profile-panel")).to_contain_text(  # the reason the server gives, and its character
        "This name cannot be used: it holds an invisible or unprintable character, U+3164 (HANGUL FILLER)")
    assert stored_profile(page) is None
