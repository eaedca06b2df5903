"""A game record reviewed in the browser (``/?review=1``, js/records.js), in real chromium against the real server's
``POST /api/records/review``.

A record pasted (the golden record of tests/data/records) shows its score sheet, totals and winner, and each deal's
review opens in the review dialog; a score keeper's record chosen as a file shows its sheet without a Review
button and says why; a text that is no record is refused in the page's language with the server's own words
after it.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import expect
from web_helpers import ANALYSIS_WAIT, in_language

RECORDS = Path(__file__).resolve().parents[1] / "data" / "records"
GOLDEN = RECORDS / "standard-seed7.mzn"
SCORE_ONLY = RECORDS / "score-only.mzn"


def post_record(base: str, record: str, deal: int | None) -> tuple[int, dict[str, Any]]:
    """The server's answer to the record sent (its status and JSON), as the page gets it."""
    request = urllib.request.Request(base + "/api/records/review", method="POST",
                                     data=json.dumps({"record": record, "deal": deal}).encode(),
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=ANALYSIS_WAIT) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def analysed(base: str, record: str, deal: int) -> dict[str, Any]:
    """The review of *deal* once its analysis is complete (the server keeps it: the page gets it at once then)."""
    deadline = time.monotonic() + ANALYSIS_WAIT
    while True:
        status, data = post_record(base, record, deal)
        assert status == 200, data
        if data["analysis"] == "ok" or time.monotonic() > deadline:
            assert data["analysis"] == "ok", f"no analysis of deal {deal}: {data['analysis']}"
            return data
        time.sleep(2)


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else "0" if n == 0 else f"\u2212{-n}"


def test_a_pasted_record_shows_its_sheet_and_reviews_a_deal(new_page: Any, web_server: Any) -> None:
    base = web_server.url
    text = GOLDEN.read_text(encoding="utf-8")
    status, summary = post_record(base, text, None)
    assert status == 200 and summary["n_deals"] == 18, summary
    review = analysed(base, text, 1)

    page = new_page()
    page.goto(base + "/")
    page.get_by_role("link", name="Review a game record").click()  # from the lobby
    expect(page).to_have_url(base + "/?review=1")
    expect(page.get_by_role("heading", name="Review a game record")).to_be_visible()
    expect(page.locator(".record-page")).not_to_contain_text("null")  # no empty message written as "null"

    # pasted, and opened from the keyboard: the focus goes to the record's heading
    page.get_by_label("Or paste the record here").fill(text)
    page.get_by_role("button", name="Open").focus()
    page.keyboard.press("Enter")
    result = page.locator("section.record-result")
    title = result.locator("#record-result-title")
    expect(title).to_have_text("Golden record")  # its Event
    expect(title).to_be_focused()
    expect(result.locator(".match-meta")).to_contain_text("18 deals")
    expect(result.locator(".record-tags")).to_contain_text("Date: 2026.01.01")
    expect(result.locator(".match-players")).to_have_text("Players: Ala +10, Bolek +1, Cezary \u221211")
    expect(result.locator(".winner-banner")).to_contain_text("Ala")
    expect(result.locator(".sheet-grid td.total")).to_have_text([signed(n) for n in summary["totals"]])
    rows = result.locator(".sheet-deals tbody tr")
    expect(rows).to_have_count(18)
    expect(rows.nth(17).locator("td.total")).to_have_text([signed(n) for n in summary["totals"]])
    expect(result.locator(".review-btn")).to_have_count(18)
    expect(page.locator("#record-error")).to_have_count(0)

    # deal 1's review: its tricks card by card, as the table's review shows them; Escape gives the focus back
    button = result.get_by_role("button", name="Review deal 1", exact=True)
    button.focus()
    page.keyboard.press("Enter")
    dialog = page.locator("dialog.review-dialog[open]")
    expect(dialog).to_have_attribute("data-state", "ready", timeout=ANALYSIS_WAIT * 1000)
    expect(dialog).to_have_attribute("data-analysis", "ok")
    expect(dialog.locator("h2")).to_contain_text("Deal 1: ")
    cards = [c["card"] for trick in review["tricks"] for c in trick["cards"]]
    expect(dialog.locator(".rv-move")).to_have_count(len(cards))
    expect(dialog.locator(".rv-move").first).to_have_attribute("data-card", cards[0])
    expect(dialog.locator(".rv-hand")).to_have_count(3)
    expect(dialog.get_by_role("button", name="Next card")).to_be_focused()
    page.keyboard.press("End")
    expect(dialog).to_have_attribute("data-pos", str(len(cards)))
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    expect(button).to_be_focused()


def test_a_score_keepers_record_from_a_file_has_no_review(new_page: Any, web_server: Any) -> None:
    page = new_page()
    page.goto(web_server.url + "/?review=1")
    picker = page.get_by_label("Record file (.mzn, .txt or .json)")
    # a file over 2 MiB is refused in the page, before anything is sent
    big = {"name": "big.mzn", "mimeType": "text/plain", "buffer": b"x" * (2 * 1024 * 1024 + 1)}
    picker.set_input_files(files=[big])
    expect(page.locator("#record-error")).to_have_text(
        "This file is too large (2.1 MiB): a game record is at most 2 MiB.")

    picker.set_input_files(str(SCORE_ONLY))
    expect(page.locator(".record-note")).to_have_text("score-only.mzn is read: press Open to see it.")
    expect(page.locator("#record-error")).to_have_count(0)
    expect(page.get_by_label("Or paste the record here")).to_have_value(SCORE_ONLY.read_text(encoding="utf-8"))
    page.get_by_role("button", name="Open").click()
    result = page.locator("section.record-result")
    expect(result.locator("#record-result-title")).to_have_text("Kitchen table")
    expect(result.locator("#record-result-title")).to_be_focused()
    expect(result.locator(".sheet-deals tbody tr")).to_have_count(3)
    expect(result.locator(".record-score-only")).to_have_text(
        "This is a score keeper's record: it has no cards, so there is no deal to review.")
    expect(result.locator(".record-incomplete")).to_have_text(
        "The record ends before the match is over: 3 of its 18 deals.")
    expect(result.locator(".winner-banner")).to_have_count(0)
    expect(result.locator(".review-btn")).to_have_count(0)


def test_a_text_that_is_no_record_is_refused_in_polish(new_page: Any, web_server: Any) -> None:
    garbage = "hello garbage\nnot a record"
    status, refusal = post_record(web_server.url, garbage, None)
    assert status == 400 and refusal["error"] == "bad_record", refusal
    page = new_page()
    in_language(page, "pl")
    page.goto(web_server.url + "/?review=1")
    expect(page.get_by_role("heading", name="Analiza zapisu partii")).to_be_visible()
    page.get_by_role("button", name="Otwórz").click()  # nothing yet: said, and the field to fill is focused
    expect(page.get_by_role("alert")).to_have_text("Najpierw wybierz plik z zapisem albo wklej zapis.")
    area = page.get_by_label("Albo wklej zapis tutaj")
    expect(area).to_be_focused()
    area.fill(garbage)
    page.get_by_role("button", name="Otwórz").click()
    error = page.locator("#record-error")
    expect(error).to_have_attribute("role", "alert")
    expect(error).to_have_attribute("data-code", "bad_record")
    expect(error).to_have_text(f"To nie jest prawidłowy zapis partii: {refusal['message']}")
    expect(area).to_have_attribute("aria-invalid", "true")
    expect(page.locator("section.record-result")).to_have_count(0)
