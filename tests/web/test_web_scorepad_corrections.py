"""The score pad (``/?scorepad=1``) corrects a finished deal, in real chromium against the real server: "Correct"
beside a deal's number in the sheet opens the deal's contract and tricks in place of the entry; saving sends
``{"correct": ...}``, the later deals stay, and the deal in progress waits as it was, its typed counts kept."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import expect
from test_web_scorepad_audit import open_kept

from mizerka.server.scorepad import ScorepadRequest, apply

NAMES = ["Ala", "Bolek", "Cezary"]


def three_deals_and_a_contract() -> dict[str, Any]:
    """Ala hearts 5 4 4, Bolek no-trump 3 6 4, Cezary mizerka 6 6 1; deal 4's contract (Ala's spades) entered."""
    answer = apply(ScorepadRequest.model_validate(
        {"record": None, "new": {"players": NAMES, "first_dealer": 2}, "entry": None}))
    for entry in ({"contract": "H"}, {"tricks": [5, 4, 4]}, {"contract": "NT"}, {"tricks": [3, 6, 4]},
                  {"contract": "MZ"}, {"tricks": [6, 6, 1]}, {"contract": "S"}):
        answer = apply(ScorepadRequest.model_validate({"record": answer["record"], "entry": entry}))
    return answer


def stored(page: Any) -> dict[str, Any]:
    return json.loads(page.evaluate("() => localStorage.getItem('mizerka.scorepad')") or "null") or {}


def test_a_finished_deal_corrected_keeps_the_deal_in_progress(new_page: Any, web_server: Any) -> None:
    page = new_page()
    open_kept(page, web_server, three_deals_and_a_contract())
    page.get_by_label("Tricks of Ala", exact=True).fill("3")  # deal 4's count, typed before the mistake is seen

    page.get_by_role("button", name="Correct deal 1").click()
    title = page.locator("#sp-fix-title")
    expect(title).to_have_text("Correct deal 1")
    expect(title).to_be_focused()
    expect(page.locator("#sp-fix-1")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#sp-fix-contract-H")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#sp-fix-contract-S")).to_be_disabled()  # Ala's spades are deal 4's
    expect(page.locator("#sp-undo")).to_have_count(0)  # no undo of deal 4 from the correction's panel
    assert [page.locator(f"#sp-fix-tricks-{s}").input_value() for s in range(3)] == ["5", "4", "4"]

    page.click("#sp-fix-contract-NT")
    expect(page.locator("#sp-fix-contract-NT")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#sp-fix-contract-NT")).to_be_focused()
    expect(page.locator("#sp-fix-contract-H")).to_have_attribute("aria-pressed", "false")
    page.locator("#sp-fix-tricks-0").fill("6")
    expect(page.locator("#sp-fix-tricks-2")).to_have_value("3")  # the last count follows, as in an entry
    expect(page.locator("#sp-fix-sum")).to_have_text("Together: 13 of 13")
    page.click("#sp-fix-save")

    expect(page.locator("#sp-fix-title")).to_have_count(0)
    expect(page.locator("#announce-polite")).to_contain_text(
        re.compile(r"Deal 1 corrected\. Scores: Ala −1, Bolek −1,? and Cezary \+2\."))
    row = stored(page)["rows"][0]
    assert row["contract"] == "NT" and row["tricks"] == [6, 4, 3] and row["scores"] == [-1, -1, 2]
    assert [r["contract"] for r in stored(page)["rows"]] == ["NT", "NT", "MZ"]
    assert stored(page)["pending"] == "S"
    # deal 4 waits as it was: its contract, Ala's count typed so far, the focus on its first count
    expect(page.locator("#sp-deal-title")).to_contain_text("Deal 4 of 18")
    expect(page.locator("#sp-tricks-0")).to_have_value("3")
    expect(page.locator("#sp-tricks-0")).to_be_focused()


def test_a_refused_correction_is_said_in_the_panel_and_escape_leaves_it(new_page: Any, web_server: Any) -> None:
    page = new_page()
    kept = three_deals_and_a_contract()
    open_kept(page, web_server, kept)
    page.click("#sp-fix-2")
    page.locator("#sp-fix-tricks-2").fill("5")  # 3 + 6 + 5: one too many
    page.click("#sp-fix-save")
    alert = page.locator(".sp-fix [role=alert]")
    expect(alert).to_have_text("Not accepted: the tricks add up to 14, not 13.")
    assert stored(page)["record"] == kept["record"]

    page.locator("#sp-fix-tricks-2").press("Escape")
    expect(page.locator("#sp-fix-title")).to_have_count(0)
    expect(page.locator("#sp-fix-2")).to_be_focused()
    expect(page.locator("#sp-fix-2")).to_have_attribute("aria-pressed", "false")
    expect(page.locator(".sp-entry [role=alert]")).to_have_count(0)
    assert stored(page)["record"] == kept["record"]


def test_the_correction_in_polish(new_page: Any, web_server: Any) -> None:
    page = new_page()
    open_kept(page, web_server, three_deals_and_a_contract())
    page.select_option("#lang-select", "pl")
    page.get_by_role("button", name="Popraw rozdanie 3").click()
    expect(page.locator("#sp-fix-title")).to_have_text("Popraw rozdanie 3")
    expect(page.locator(".sp-fix")).to_contain_text("kontrakt wybrany przez gracza Cezary")
    page.click("#sp-fix-cancel")
    expect(page.locator("#sp-fix-3")).to_be_focused()
    page.click("#sp-fix-3")  # a toggle: pressed, a second press closes the panel
    expect(page.locator("#sp-fix-title")).to_be_visible()
    page.click("#sp-fix-3")
    expect(page.locator("#sp-fix-title")).to_have_count(0)
    expect(page.locator("#sp-fix-3")).to_be_focused()
