"""The profile panel, the leaderboard and the player's page in the browser (js/players.js, js/lobby.js,
js/main.js, js/confirm.js, css/mizerka.css), in real chromium against the real server: a profile changed in
another tab, a rated game whose profile went meanwhile, a damaged key kept in localStorage, the leaderboard's
"Show more" while the ranking moves, long names on a 375 px phone, and "(provisional)" said once.
"""

from __future__ import annotations

import json
import re
import uuid
from typing import Any
from urllib.parse import parse_qs, urlparse

from playwright.sync_api import expect
from web_helpers import api_post, claim_profile, keep_profile, no_sideways_scroll

PHONE = {"width": 375, "height": 740}


def unique(stem: str) -> str:
    """A name no other test has claimed on the session's server (names are unique ignoring case)."""
    return f"{stem}{uuid.uuid4().hex[:6]}"


def long_name() -> str:
    """The longest name a profile may have (40 characters), with no space to break it at."""
    return unique("W" * 34)


def stored_profile(page: Any) -> Any:
    return page.evaluate("() => JSON.parse(localStorage.getItem('mizerka.profile'))")


def confirm_in_another_tab(a: Any, base: str, what: str) -> Any:
    """Open the lobby in a second tab of *a*'s browser and there delete or forget (*what*) the profile, confirmed;
    the second tab is returned."""
    b = a.context.new_page()
    b.goto(base + "/")
    b.click(f"#{what}-profile")
    b.click(f"#{what}-yes")
    return b


def test_profile_deleted_in_another_tab(new_page: Any, web_server: Any) -> None:
    """Tab B deletes the profile: tab A's panel follows at once (the claim form, a note why), never a dead button."""
    base = web_server.url
    a = new_page()
    claim_profile(a, base, unique("Xavier"))
    b = confirm_in_another_tab(a, base, "delete")
    expect(b.locator("#claim-name")).to_be_visible()
    expect(a.locator("#claim-name")).to_be_visible()
    expect(a.locator("#delete-profile")).to_have_count(0)
    expect(a.locator("#forget-profile")).to_have_count(0)
    expect(a.locator(".profile-notice")).to_have_text("The profile on this device was changed in another tab.")
    expect(a.locator("#quick-rated")).to_be_disabled()


def test_profile_removed_without_a_storage_event(new_page: Any, web_server: Any) -> None:
    """The key gone from localStorage unannounced (no `storage` event): Delete and Forget redraw the panel with a
    note instead of doing nothing."""
    base = web_server.url
    a = new_page()
    claim_profile(a, base, unique("Xeno"))
    for button in ["#delete-profile", "#forget-profile"]:
        a.reload()
        a.wait_for_selector(button)
        # the lobby's own loads (the profile, the recent games) redraw the panel when they answer: once they are
        # done, nothing redraws it before the click (a redraw after the removal would rightly drop the button)
        a.wait_for_load_state("networkidle")
        a.evaluate("() => localStorage.removeItem('mizerka.profile')")  # this tab gets no storage event
        a.click(button)
        expect(a.locator("dialog[open]")).to_have_count(0)
        expect(a.locator("#claim-name")).to_be_visible()
        expect(a.locator(".profile-notice")).to_be_visible()
        kept = a.evaluate("() => localStorage.getItem('mizerka.profile')")
        assert kept is None
        # claim again for the next round
        a.fill("#claim-name", unique("Xeno"))
        a.click("#claim-submit")
        a.wait_for_selector("#profile-page-link")


def test_profile_replaced_in_another_tab(new_page: Any, web_server: Any) -> None:
    """Tab B forgets X and claims Y: tab A shows Y, Y's rating and Y's page, never X's; a confirmation about X open
    in tab A closes."""
    base = web_server.url
    a = new_page()
    x = claim_profile(a, base, unique("Xena"))
    b = a.context.new_page()
    b.goto(base + "/")
    a.click("#delete-profile")  # tab A asks about X...
    expect(a.locator("dialog[open]")).to_have_count(1)
    b.click("#forget-profile")
    b.click("#forget-yes")
    y_name = unique("Yvonne")
    b.fill("#claim-name", y_name)
    b.click("#claim-submit")
    b.wait_for_selector("#profile-page-link")
    y = stored_profile(b)
    expect(a.locator("dialog[open]")).to_have_count(0)  # ...and no longer: X is not kept here
    expect(a.locator(".profile-line")).to_contain_text(f"Playing as {y_name}")
    expect(a.locator(".profile-line")).to_contain_text("rating 1500")
    expect(a.locator("#profile-page-link")).to_have_attribute("href", f"/?player={y['id']}")
    assert x["id"] != y["id"]
    # a redraw keeps it so
    a.click("#quick-rated")
    expect(a.locator(".profile-line")).to_contain_text(f"Playing as {y_name}")
    expect(a.locator("#profile-page-link")).to_have_attribute("href", f"/?player={y['id']}")
    # both profiles still exist on the server (tab A deleted nothing)
    a.goto(f"{base}/?player={x['id']}")
    expect(a.locator(".player-stats")).to_be_visible()


def test_rated_box_follows_a_profile_forgotten_elsewhere(new_page: Any, web_server: Any) -> None:
    """"Rated game" ticked, the profile forgotten in tab B: tab A's box goes unticked and disabled at once."""
    base = web_server.url
    a = new_page()
    claim_profile(a, base, unique("Rudolf"))
    a.check("#quick-rated")
    confirm_in_another_tab(a, base, "forget")
    expect(a.locator("#quick-rated")).to_be_disabled()
    expect(a.locator("#quick-rated")).not_to_be_checked()


def test_rated_start_refused_when_the_profile_went_unannounced(new_page: Any, web_server: Any) -> None:
    """The profile gone while the lobby still shows "Rated game" ticked: quick play and the private table refuse
    in words (no unrated game started silently), and the boxes then show what is possible."""
    base = web_server.url
    page = new_page()
    for box, button in [("#quick-rated", "#quickplay"), ("#private-rated", "#create-table")]:
        claim_profile(page, base, unique("Rita"))
        page.check(box)
        page.evaluate("() => localStorage.removeItem('mizerka.profile')")  # no storage event in this tab
        page.click(button)
        expect(page.locator(".lobby > .message.error")).to_contain_text(
            "Nothing was started: the profile for this rated game was forgotten or changed in another tab.")
        assert "table=" not in page.url
        expect(page.locator(box)).to_be_disabled()
        expect(page.locator(box)).not_to_be_checked()
        page.evaluate("() => localStorage.removeItem('mizerka.prefs')")


def test_damaged_stored_key(new_page: Any, web_server: Any) -> None:
    """A key damaged in localStorage (not ASCII, a newline, too long) is a key the server does not know: the panel
    says so in the page's language, and quick play refuses in it too (never the server's English)."""
    base = web_server.url
    for key in ["ключ-123", "a\nb", "x" * 300]:
        page = new_page()
        page.goto(base + "/")
        page.evaluate("""k => { localStorage.setItem('mizerka.profile', JSON.stringify({key: k, id: 'ghost',
            name: 'Ghost'})); localStorage.setItem('mizerka.lang', 'pl'); }""", key)
        page.goto(base + "/")
        expect(page.locator(".profile-panel [role=alert]")).to_contain_text("Ten serwer nie zna twojego profilu")
        expect(page.locator("#forget-profile")).to_be_visible()
        page.click("#quickplay")
        expect(page.locator(".lobby > .message.error")).to_have_text(
            "Ten klucz nie należy do żadnego profilu na tym serwerze.")


def row(i: int, pid: str) -> dict[str, Any]:
    """A leaderboard row the server would send for player *pid* at place *i* (from 0)."""
    return {"rank": i + 1, "id": pid, "name": pid.upper(), "kind": "human", "rating": 1700 - i,
            "provisional": False, "games": 9, "wins": 3, "deals": 50, "deals_won": 20}


def test_leaderboard_show_more_while_the_ranking_moves(new_page: Any, web_server: Any) -> None:
    """A player overtakes another across the page boundary between two pages: "Show more" still ends with every
    player once, and at the total (no player lost, no button left that does nothing)."""
    total = 57
    before = [f"p{i:02d}" for i in range(total)]
    after = [*before[:49], "p50", "p49", *before[51:]]
    asked: list[int] = []

    def leaderboard(route: Any) -> None:
        query = parse_qs(urlparse(route.request.url).query)
        offset, limit = int(query["offset"][0]), int(query["limit"][0])
        order = after if asked else before
        asked.append(offset)
        body = [row(i, order[i]) for i in range(offset, min(total, offset + limit))]
        route.fulfill(status=200, content_type="application/json", body=json.dumps(body),
                      headers={"X-Total-Count": str(total)})

    page = new_page()
    page.route(re.compile(r".*/api/leaderboard\?.*"), leaderboard)
    page.goto(web_server.url + "/?leaderboard=1")
    rows = page.locator("table.leaderboard tbody tr")
    expect(rows).to_have_count(50)
    page.click("#more-leaders")
    expect(rows).to_have_count(total)
    expect(page.locator("#more-leaders")).to_have_count(0)
    ids = page.eval_on_selector_all("table.leaderboard tbody tr", "rs => rs.map(r => r.dataset.player)")
    assert ids == after
    # a player leaving the ranking between two pages (the total changes) is caught the same way
    asked.clear()
    before, after = after, [p for p in after if p != "p10"]
    total_before = total

    def shrinking(route: Any) -> None:
        query = parse_qs(urlparse(route.request.url).query)
        offset, limit = int(query["offset"][0]), int(query["limit"][0])
        order, count = (after, total_before - 1) if asked else (before, total_before)
        asked.append(offset)
        body = [row(i, order[i]) for i in range(offset, min(count, offset + limit))]
        route.fulfill(status=200, content_type="application/json", body=json.dumps(body),
                      headers={"X-Total-Count": str(count)})

    page.unroute(re.compile(r".*/api/leaderboard\?.*"))
    page.route(re.compile(r".*/api/leaderboard\?.*"), shrinking)
    page.reload()
    expect(rows).to_have_count(50)
    page.click("#more-leaders")
    expect(rows).to_have_count(total_before - 1)
    expect(page.locator("#more-leaders")).to_have_count(0)
    ids = page.eval_on_selector_all("table.leaderboard tbody tr", "rs => rs.map(r => r.dataset.player)")
    assert ids == after


def test_long_name_on_a_phone_player_page(new_page: Any, web_server: Any) -> None:
    base = web_server.url
    name = long_name()
    pid = api_post(base, "/api/players", {"name": name})["player"]["id"]
    page = new_page(viewport=PHONE)
    page.goto(f"{base}/?player={pid}")
    expect(page.locator(".player-stats")).to_be_visible()
    expect(page.locator("#player-title")).to_contain_text(name)
    no_sideways_scroll(page)


def test_long_name_on_a_phone_join_page(new_page: Any, web_server: Any) -> None:
    """The invite's join page with a long seated name fits a phone, and marks the registered player."""
    base = web_server.url
    name = long_name()
    claimed = api_post(base, "/api/players", {"name": name})
    table = api_post(base, "/api/tables", {"visibility": "private", "rated": True, "hints": False,
                                           "seats": [{"kind": "human"}, {"kind": "human"},
                                                     {"kind": "bot", "level": "rules"}]})
    api_post(base, f"/api/tables/{table['id']}/join", {"name": name, "player_key": claimed["key"]})
    page = new_page(viewport=PHONE)
    page.goto(f"{base}/?table={table['id']}")
    seats = page.locator(".join-screen .waiting-seats li")
    expect(seats.first).to_be_visible()
    no_sideways_scroll(page)
    mine = page.locator(".waiting-seats li.taken", has_text=name)
    expect(mine.locator(".registered-mark")).to_have_attribute("aria-label", "registered player")
    expect(page.locator(".waiting-seats li.open .registered-mark")).to_have_count(0)


def test_long_name_in_the_confirmation_on_a_phone(new_page: Any, web_server: Any) -> None:
    base = web_server.url
    name = long_name()
    claimed = api_post(base, "/api/players", {"name": name})
    page = new_page(viewport=PHONE)
    keep_profile(page, base, {"key": claimed["key"], "id": claimed["player"]["id"], "name": name})
    page.goto(base + "/")
    for what in ["forget", "delete"]:
        page.click(f"#{what}-profile")
        expect(page.locator(f"#{what}-text")).to_contain_text(name)
        width = page.evaluate("() => { const d = document.querySelector('dialog[open]');"
                              " return [d.scrollWidth, d.clientWidth]; }")
        assert width[0] <= width[1], (what, width)
        page.click(f"#{what}-cancel")


def test_provisional_said_once(new_page: Any, web_server: Any) -> None:
    """The lobby's profile line and the player's page say "provisional" once (the "?" has it for readers only where
    the word is not written out)."""
    base = web_server.url
    page = new_page()
    kept = claim_profile(page, base, unique("Prova"))
    line = page.locator(".profile-line")
    expect(line.locator(".rating.provisional")).to_be_visible()
    text = line.text_content() or ""
    assert text.count("provisional") == 1, text
    page.goto(f"{base}/?player={kept['id']}")
    rating = page.locator(".player-rating")
    expect(rating).to_contain_text("provisional: fewer than 5 rated games")
    text = rating.text_content() or ""
    assert text.count("provisional") == 1, text


def test_the_leaderboard_reads_on_a_360_px_phone_in_every_language(new_page: Any, web_server: Any) -> None:
    """At 360 px the leaderboard's six columns fit their panel in English, Polish and Russian (whose headers are
    the longest), with a readable name column: a short name and the "bot" badge are never split, where the Polish
    page used to give the names 23 px and show them a letter or two a line."""
    rows = [{"rank": 1, "id": "bot:rules", "name": "rules", "kind": "bot", "rating": 2282, "provisional": False,
             "games": 27, "wins": 14, "deals": 486, "deals_won": 200}]
    rows += [{"rank": i + 2, "id": f"p{i}", "name": name, "kind": "human", "rating": 1600 - i, "provisional": True,
              "games": 1, "wins": 0, "deals": 18, "deals_won": 6}
             for i, name in enumerate(["Graczpl1280", "Graczen360", "P40", "Łucja Żółw"])]

    def leaderboard(route: Any) -> None:
        route.fulfill(status=200, content_type="application/json", body=json.dumps(rows),
                      headers={"X-Total-Count": str(len(rows)), "Access-Control-Expose-Headers": "X-Total-Count"})

    measure = """() => {
        const lines = (el) => { const r = document.createRange(); r.selectNodeContents(el);
            return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size; };
        const box = document.querySelector('.leaderboard').parentElement;
        return { split: [...document.querySelectorAll('.leaderboard .badge, .leaderboard .lb-name a')]
                     .filter((el) => !el.textContent.trim().includes(' ') && lines(el) > 1).map((el) => el.textContent),
                 nameColumn: document.querySelectorAll('.leaderboard thead th')[1].getBoundingClientRect().width,
                 overflow: box.scrollWidth - box.clientWidth };
    }"""
    page = new_page(viewport={"width": 360, "height": 740})
    page.route(re.compile(r".*/api/leaderboard\?.*"), leaderboard)
    for lang in ("en", "pl", "ru"):
        page.goto(web_server.url + "/")
        page.select_option("#lang-select", lang)
        page.goto(web_server.url + "/?leaderboard=1")
        expect(page.locator("table.leaderboard tbody tr")).to_have_count(len(rows))
        found = page.evaluate(measure)
        assert found["split"] == [] and found["nameColumn"] >= 60 and found["overflow"] <= 0, (lang, found)
        no_sideways_scroll(page)


def test_show_more_clicked_twice_while_it_loads_asks_for_the_page_once(new_page: Any, web_server: Any) -> None:
    """"Show more" stayed live while its page loaded: a second click asked for the same page again."""
    total = 57
    asked: list[int] = []
    held: list[Any] = []

    def leaderboard(route: Any) -> None:
        query = parse_qs(urlparse(route.request.url).query)
        offset, limit = int(query["offset"][0]), int(query["limit"][0])
        asked.append(offset)
        body = json.dumps([row(i, f"p{i:02d}") for i in range(offset, min(total, offset + limit))])
        if offset:  # the next page: answered only once the test has clicked twice
            held.append((route, body))
            return
        route.fulfill(status=200, content_type="application/json", body=body, headers={"X-Total-Count": str(total)})

    page = new_page()
    page.route(re.compile(r".*/api/leaderboard\?.*"), leaderboard)
    page.goto(web_server.url + "/?leaderboard=1")
    rows = page.locator("table.leaderboard tbody tr")
    expect(rows).to_have_count(50)
    page.click("#more-leaders")
    page.locator("#more-leaders").dispatch_event("click")
    page.wait_for_timeout(300)
    assert asked == [0, 50], asked
    route, body = held[0]
    route.fulfill(status=200, content_type="application/json", body=body, headers={"X-Total-Count": str(total)})
    expect(rows).to_have_count(total)
    assert asked == [0, 50], asked


def test_a_delete_refused_for_a_seat_links_to_that_table(new_page: Any, web_server: Any) -> None:
    """Deleting a profile that holds a seat at a match not over is refused (leave the seat first), but the lobby lists
    no tables in play to find that seat by: the refusal links to the table, and the link opens it."""
    base = web_server.url
    a = new_page()
    kept = claim_profile(a, base, unique("Seated"))
    joined = api_post(base, "/api/quickplay", {"player_key": kept["key"], "rated": True, "level": "random"})
    table = joined["table"]["id"]
    a.click("#delete-profile")
    a.click("#delete-yes")
    expect(a.locator(".profile-error")).to_contain_text("holds a seat at a match that is not over")
    link = a.locator(".profile-error #seated-table-link")
    expect(link).to_have_text("Go to the table")
    assert link.get_attribute("href") == f"/?table={table}"
    assert stored_profile(a)["key"] == kept["key"]  # refused: the profile is kept, here and on the server
    link.click()
    a.wait_for_url(re.compile(rf"[?&]table={re.escape(table)}"))
    expect(a.locator("#delete-profile")).to_have_count(0)  # the table's page, not the lobby any more
