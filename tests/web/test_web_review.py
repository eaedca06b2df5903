"""The review of a finished deal in the browser (js/review.js), in real chromium against the real server: every
card played, judged by the server's double-dummy solver (``GET /api/tables/{id}/deals/{n}/review``).

A short match (two contracts: six deals) is played through the protocol with the seat's token
(``web_helpers.play_through_protocol``); the browser then takes the same seat and reviews a deal from the score
sheet, from the keyboard, checking what it shows against the server's own answer.  At a table that does not reveal
its deals, the review of a finished deal is refused until the match is over: the dialog says so in the page's
language, and the deal in progress is never asked for.
"""

from __future__ import annotations

import json
import re
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from server_helpers import ThreadServer
from web_helpers import ANALYSIS_WAIT, open_seat, play_through_protocol, play_until, view

SHORT = "standard,contracts=NT+MZ"  # six deals: each player chooses no trumps and Mizerka
RANKS = {"T": "10", "J": "Jack", "Q": "Queen", "K": "King", "A": "Ace"}
SUITS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
CONTRACTS = {"NT": "No trumps", "MZ": "Mizerka"}


def english(card: str) -> str:
    """The page's English name of a card the server writes as "QH" or "TH"."""
    rank, suit = card[:-1], card[-1]
    return f"{RANKS.get(rank, rank)} of {SUITS[suit]}"


def post(base: str, path: str, body: Any) -> Any:
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def fetch_review(base: str, table: str, deal: int, token: str) -> dict[str, Any]:
    """The server's review of *deal*, once its analysis is complete (a busy server or a timed-out analysis is
    asked again, for up to ANALYSIS_WAIT seconds)."""
    deadline = time.monotonic() + ANALYSIS_WAIT
    while True:
        request = urllib.request.Request(f"{base}/api/tables/{table}/deals/{deal}/review",
                                         headers={"Authorization": f"Bearer {token}"})
        with urllib.request.urlopen(request, timeout=ANALYSIS_WAIT) as response:
            data: dict[str, Any] = json.loads(response.read())
        if data["analysis"] == "ok" or time.monotonic() > deadline:
            assert data["analysis"] == "ok", f"no analysis of deal {deal}: {data['analysis']}"
            return data
        time.sleep(2)


def steps_of(data: dict[str, Any]) -> list[dict[str, Any]]:
    return [dict(card, trick=trick["no"]) for trick in data["tricks"] for card in trick["cards"]]


def verdict_en(data: dict[str, Any], step: dict[str, Any]) -> str:
    """What the page should say of a card, worked out from the server's answer."""
    if step["cost"] is None or step["value"] is None:
        return "Not judged"
    cost = step["cost"]
    if cost > 0:
        unit = "trick" if cost == 1 else "tricks"
        return f"+{cost} {unit} taken" if data["contract"]["goal"] == "avoid" else f"\u2212{cost} {unit}"
    return "The only legal card" if step["choices"] <= 1 else "Best play"


def test_reviewing_a_deal_of_a_finished_match(new_page: Any, web_server: Any, artifacts: Path) -> None:
    started = time.monotonic()
    joined = post(web_server.url, "/api/quickplay", {"name": "Ala", "variant": SHORT})
    table, token, seat = joined["table"]["id"], joined["token"], joined["seat"]
    final = play_through_protocol(web_server, table, token, lambda v: v["phase"] == "over")
    assert final["n_deals"] == 6

    # Deal 1 is reviewed in full; a deal with an error (deal 1 if it has one) has its error card checked too.
    reviews = {1: fetch_review(web_server.url, table, 1, token)}
    with_error = None
    for deal in range(1, 7):
        if deal not in reviews:
            reviews[deal] = fetch_review(web_server.url, table, deal, token)
        if any((s["cost"] or 0) > 0 for s in steps_of(reviews[deal])):
            with_error = deal
            break
    data = reviews[1]
    steps = steps_of(data)
    assert len(data["seats"]) == 3 and all(len(data["hands"][s]) == 13 for s in data["seats"])
    assert len(steps) == 39

    page = new_page()
    open_seat(page, web_server.url, table, token, seat)
    over = page.locator("dialog.over-dialog[open]")
    expect(over).to_be_visible()
    last = over.get_by_role("button", name="Review the last deal")
    last.click()
    dialog = page.locator("dialog.review-dialog[open]")
    expect(dialog).to_have_attribute("data-state", "ready", timeout=ANALYSIS_WAIT * 1000)
    expect(dialog.locator("h2")).to_contain_text("Deal 6: ")
    page.keyboard.press("Escape")  # the review closes, back to the result and its button
    expect(dialog).to_have_count(0)
    expect(last).to_be_focused()
    page.keyboard.press("Escape")  # the result closes; the score sheet is open beside the table (1280 px)
    expect(over).to_have_count(0)
    panel = page.locator("#sheet-panel")
    if not panel.is_visible():
        page.get_by_role("button", name="Score sheet").click()
    expect(panel.locator(".review-btn")).to_have_count(6)  # a finished match: every deal can be reviewed
    assert panel.locator(".sheet-scroll").evaluate("e => e.scrollWidth - e.clientWidth") <= 0  # nothing cut off
    panel.screenshot(path=str(artifacts / "review-sheet.png"))
    panel.get_by_role("button", name="Review deal 1").click()
    expect(dialog).to_have_attribute("data-state", "ready", timeout=ANALYSIS_WAIT * 1000)
    code = data["contract"]["code"]
    goal = data["contract"]["goal"]
    expect(dialog.locator("h2")).to_contain_text(f"Deal 1: {CONTRACTS[code]}")
    expect(dialog.locator("h2 .goal")).to_have_text(goal)
    # every seat's hand at the start of play, drawn as cards; none played yet
    hands = dialog.locator(".rv-hand")
    expect(hands).to_have_count(3)
    for s in data["seats"]:
        hand = dialog.locator(f'.rv-hand[data-seat="{s}"] .card')
        expect(hand).to_have_count(13)
        assert sorted(hand.evaluate_all("cs => cs.map(c => c.dataset.card)")) == sorted(data["hands"][s])
    expect(dialog.locator(".rv-hand .card.played")).to_have_count(0)
    # the focus starts on the navigator
    expect(dialog.get_by_role("button", name="Next card")).to_be_focused()

    # from the keyboard: to the end, back to the start, then card by card
    page.keyboard.press("End")
    expect(dialog).to_have_attribute("data-pos", "39")
    expect(dialog.locator(".rv-where")).to_have_text("Trick 13 · card 39 of 39")
    expect(dialog.locator(".rv-hand .card.played")).to_have_count(39)
    page.keyboard.press("Home")
    expect(dialog).to_have_attribute("data-pos", "0")
    expect(dialog.locator(".rv-hand .card.played")).to_have_count(0)
    page.keyboard.press("ArrowRight")
    expect(dialog).to_have_attribute("data-pos", "1")
    first = steps[0]
    who = "You" if first["seat"] == seat else data["players"][first["seat"]]
    expect(dialog.locator(".rv-verdict .rv-who")).to_have_text(f"{who}: {english(first['card'])}")
    expect(dialog.locator(".rv-verdict .rv-mark")).to_have_text(verdict_en(data, first))
    expect(dialog.locator(".rv-hand .card.played")).to_have_count(1)
    expect(dialog.locator(f'.rv-hand .card.current[data-card="{first["card"]}"]')).to_have_count(1)
    expect(dialog.locator(".rv-trick .card")).to_have_count(1)
    # the step is announced
    page.wait_for_function(
        "() => window.mizerkaDebug.announcements().some(a => a.startsWith('Trick 1, card 1 of 39.'))")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(dialog).to_have_attribute("data-pos", "3")
    expect(dialog.locator(".rv-trick .card")).to_have_count(3)
    expect(dialog.locator(".rv-verdict .rv-mark")).to_have_text(verdict_en(data, steps[2]))
    winner = data["tricks"][0]["winner"]
    expect(dialog.locator(".rv-trick-label")).to_have_text(
        f"Trick 1 · winner: {'You' if winner == seat else data['players'][winner]}")
    page.keyboard.press("PageDown")
    expect(dialog).to_have_attribute("data-pos", "6")
    page.keyboard.press("ArrowLeft")
    expect(dialog).to_have_attribute("data-pos", "5")
    expect(dialog.locator(".rv-verdict .rv-mark")).to_have_text(verdict_en(data, steps[4]))

    # the per-player summary adds up the server's verdicts
    for s in data["seats"]:
        mine = [x for x in steps if x["seat"] == s and x["cost"] is not None]
        row = dialog.locator(f'.rv-summary tr[data-seat="{s}"]')
        expect(row.locator(".rv-errors")).to_have_text(str(sum(1 for x in mine if x["cost"] > 0)))
        expect(row.locator(".rv-lost")).to_have_text(str(sum(x["cost"] for x in mine)))
        expect(row.locator(".rv-choices")).to_have_text(str(sum(1 for x in mine if x["choices"] > 1)))
    page.screenshot(path=str(artifacts / "review.png"))

    if with_error is not None and with_error != 1:  # deal 1 was played without an error: review another
        page.keyboard.press("Escape")
        expect(dialog).to_have_count(0)
        expect(panel.get_by_role("button", name="Review deal 1")).to_be_focused()  # the focus comes back
        panel.get_by_role("button", name=f"Review deal {with_error}").click()
        expect(dialog).to_have_attribute("data-state", "ready", timeout=ANALYSIS_WAIT * 1000)
        data = reviews[with_error]
        steps = steps_of(data)
    if with_error is not None:
        # an error card: marked in the list of every card, a click goes there; its cost and the best cards
        k = next(i for i, s in enumerate(steps) if (s["cost"] or 0) > 0) + 1
        error = steps[k - 1]
        move = dialog.locator(f'.rv-move[data-step="{k}"]')
        expect(move).to_have_class(re.compile(r"\berror\b"))
        cost_text = f"+{error['cost']}" if data["contract"]["goal"] == "avoid" else f"\u2212{error['cost']}"
        expect(move.locator(".rv-move-cost")).to_have_text(cost_text)
        move.click()
        expect(dialog).to_have_attribute("data-pos", str(k))
        expect(dialog.locator(".rv-verdict")).to_have_attribute("data-kind", "error")
        expect(dialog.locator(".rv-verdict .rv-mark")).to_have_text(verdict_en(data, error))
        best = dialog.locator(".rv-verdict .rv-best")
        expect(best).to_contain_text("Best: ")
        for card in error["best_cards"]:
            expect(best).to_contain_text(english(card))
        expect(move).to_be_focused()  # the list of cards is one tab stop: its current card
        page.keyboard.press("ArrowRight")  # and the arrows step from there, the focus following
        expect(dialog).to_have_attribute("data-pos", str(min(k + 1, 39)))
        page.screenshot(path=str(artifacts / "review-error.png"))

    # a phone: the dialog (13 cards a hand, the summary's six columns) fits 375 px
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    page.set_viewport_size({"width": 375, "height": 667})
    if not panel.is_visible():
        page.get_by_role("button", name="Score sheet").click()
    assert panel.locator(".sheet-scroll").evaluate("e => e.scrollWidth - e.clientWidth") <= 0  # the buttons fit
    panel.get_by_role("button", name="Review deal 1").click()
    expect(dialog).to_have_attribute("data-state", "ready")  # kept from the first time: no second analysis
    overflow = dialog.evaluate("""d => {
        const box = d.getBoundingClientRect();
        const out = [...d.querySelectorAll('.rv-hand .card, .rv-summary, .rv-nav, .rv-trick')]
            .filter(e => e.getBoundingClientRect().right > box.right + 1).length;
        return {out, scroll: d.scrollWidth - d.clientWidth, right: box.right};
    }""")
    assert overflow["out"] == 0 and overflow["scroll"] <= 1 and overflow["right"] <= 375, overflow
    page.screenshot(path=str(artifacts / "review-phone.png"))
    print(f"review test: {time.monotonic() - started:.1f} s")


def test_no_review_is_offered_while_the_match_goes_on_without_reveal(new_page: Any, web_server: Any) -> None:
    """At a table without ``reveal`` a finished deal's cards stay hidden until the match is over: the server refuses
    its review, so the sheet offers no Review button then (it used to, and every click got the refusal)."""
    info = post(web_server.url, "/api/tables", {
        "variant": SHORT, "visibility": "private", "reveal": False,
        "seats": [{"kind": "human"}, {"kind": "bot", "level": "rules"}, {"kind": "bot", "level": "rules"}]})
    joined = post(web_server.url, f"/api/tables/{info['id']}/join", {"name": "Ala", "seat": 0})
    table, token, seat = info["id"], joined["token"], joined["seat"]
    play_through_protocol(web_server, table, token, lambda v: v["deal_no"] == 2)
    # the server refuses it (checked here too, so that the page's sentence is the server's code)
    request = urllib.request.Request(f"{web_server.url}/api/tables/{table}/deals/1/review",
                                     headers={"Authorization": f"Bearer {token}"})
    try:
        urllib.request.urlopen(request, timeout=30)
        raise AssertionError("the review of deal 1 was given before the match's end at a table without reveal")
    except urllib.error.HTTPError as error:
        assert error.code == 409 and json.loads(error.read())["error"] == "not_revealed"

    page = new_page()
    page.add_init_script("localStorage.setItem('mizerka.lang', 'pl')")
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/api/" in r.url and "/review" in r.url else None)
    open_seat(page, web_server.url, table, token, seat)
    # the contract choice of deal 2 may be this seat's: made first, as a player would
    play_until(page, lambda: view(page).get("deal_no") == 2 and view(page).get("phase") != "choose"
               and not page.locator("dialog[open]").count())
    panel = page.locator("#sheet-panel")
    if not panel.is_visible():
        page.get_by_role("button", name="Tabela wyników").click()
    expect(panel.locator(".sheet-deals tbody tr")).to_have_count(1)  # deal 1's row is there ...
    expect(panel.locator(".review-btn")).to_have_count(0)  # ... with no Review button
    assert not asked, asked  # and the page never asked for a review


@pytest.fixture
def unanalysed_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    """A server of its own that gives reviews without the solver's analysis (``--review-limit 0``)."""
    from mizerka.server.hub import ServerConfig

    database = f"sqlite:///{tmp_path_factory.mktemp('plain') / 'plain.sqlite3'}"
    server = ThreadServer(ServerConfig(database=database, bot_delay=0.0, rate=1000.0, burst=1000.0, grace=30.0,
                                       review_limit=0)).start()
    yield server
    server.stop()


def test_the_deal_summary_reviews_its_deal_without_analysis(new_page: Any, unanalysed_server: Any) -> None:
    """A table that reveals its deals (quick play does) offers the review in the end-of-deal summary.  A server
    that does not analyse says so in the dialog, and the play is still shown, card by card, without verdicts."""
    joined = post(unanalysed_server.url, "/api/quickplay", {"name": "Ala", "variant": SHORT})
    table, token, seat = joined["table"]["id"], joined["token"], joined["seat"]
    page = new_page()
    open_seat(page, unanalysed_server.url, table, token, seat)
    play_until(page, lambda: bool(page.locator("dialog.summary-dialog[open]").count()), close_summary=False,
               timeout=120)
    summary = page.locator("dialog.summary-dialog[open]")
    expect(summary.locator(".btn.primary")).to_be_focused()  # the summary still opens on "Next deal"
    summary.get_by_role("button", name="Review this deal").click()
    dialog = page.locator("dialog.review-dialog[open]")
    expect(dialog).to_have_attribute("data-state", "ready", timeout=60_000)
    expect(dialog).to_have_attribute("data-analysis", "off")
    expect(dialog.locator(".rv-status")).to_contain_text(
        "This server does not analyse deals: the play is shown without verdicts.")
    expect(dialog.locator("h2")).to_contain_text("Deal 1: ")
    expect(dialog.locator(".rv-hand")).to_have_count(3)
    expect(dialog.locator(".rv-hand .card")).to_have_count(39)
    expect(dialog.get_by_role("button", name="Next card")).to_be_focused()
    dialog.get_by_role("button", name="Next card").click()
    expect(dialog).to_have_attribute("data-pos", "1")
    expect(dialog.locator(".rv-verdict .rv-mark")).to_have_text("Not judged")
    expect(dialog.locator(".rv-move.error")).to_have_count(0)
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    expect(summary).to_be_visible()  # back to the summary, which closes as before
    summary.locator(".btn.primary").click()
    expect(page.locator("dialog.summary-dialog[open]")).to_have_count(0)
