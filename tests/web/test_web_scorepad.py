"""The score pad (``/?scorepad=1``): the paper score sheet of a match played with real cards, in real chromium
against the real server (``POST /api/scorepad`` applies every entry with the project's ScoreKeeper)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from mizerka.record import read, read_json
from mizerka.scorekeeper import ScoreKeeper

NAMES = ["Ala", "Bolek", "Cezary"]


def stored(page: Any) -> dict[str, Any]:
    """The server's last answer, as the page keeps it."""
    return json.loads(page.evaluate("() => localStorage.getItem('mizerka.scorepad')") or "null") or {}


def shown_totals(page: Any) -> list[int]:
    texts = page.locator(".sp-totals .sp-total-value").all_inner_texts()
    return [int(text.replace("\u2212", "-").replace("+", "")) for text in texts]


def set_up(page: Any, names: list[str], first_dealer: int) -> None:
    for i, name in enumerate(names):
        page.get_by_label(f"Player {i + 1}", exact=True).fill(name)
    page.select_option("#sp-dealer", str(first_dealer))
    page.click("#sp-start")


def no_sideways_scroll(page: Any) -> None:
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 375


def test_a_match_kept_on_the_score_pad(new_page: Any, web_server: Any, tmp_path: Path) -> None:
    page = new_page()
    page.goto(web_server.url + "/")
    page.get_by_role("link", name="Keep score at a real table").click()
    page.wait_for_url(re.compile(r"\?scorepad=1"))

    # Setup: a bad name is refused by the server, its message by the names, nothing typed is lost.
    set_up(page, ["Ala", "Bolek", "undo"], 2)
    error = page.locator("#sp-setup-error")
    expect(error).to_contain_text("Not accepted:")
    expect(page.locator("#sp-name-2")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#sp-name-0")).to_have_value("Ala")
    set_up(page, NAMES, 2)
    title = page.locator("#sp-deal-title")
    expect(title).to_have_text("Deal 1 of 18 · Cezary deals · Ala chooses")

    # Deal 1: hearts; Cezary's count is filled in as 13 minus the others.
    page.click("#sp-contract-H")
    expect(page.locator(".sp-chosen")).to_contain_text("Hearts")
    page.get_by_label("Tricks of Ala", exact=True).fill("5")
    page.get_by_label("Tricks of Bolek", exact=True).fill("4")
    expect(page.locator("#sp-tricks-2")).to_have_value("4")
    expect(page.locator("#sp-sum")).to_have_text("Together: 13 of 13")
    page.click("#sp-save")
    expect(title).to_have_text("Deal 2 of 18 · Ala deals · Bolek chooses")
    expect(page.locator("#announce-polite")).to_contain_text(
        re.compile(r"Deal 1 is over\. Scores: Ala −2, Bolek −1,? and Cezary \+3\."))

    # Deal 2: mizerka with a wrong sum, entered from the keyboard: refused with the server's reason, nothing lost.
    page.click("#sp-contract-MZ")
    page.get_by_label("Tricks of Ala", exact=True).fill("5")
    page.get_by_label("Tricks of Bolek", exact=True).fill("4")
    last = page.get_by_label("Tricks of Cezary", exact=True)
    last.fill("3")
    expect(page.locator("#sp-sum")).to_have_text("Together: 12 of 13")
    last.press("Enter")
    alert = page.locator(".sp-entry [role=alert]")
    expect(alert).to_have_text("Not accepted: the tricks add up to 12, not 13.")
    expect(page.get_by_label("Tricks of Ala", exact=True)).to_have_value("5")
    expect(last).to_have_value("3")
    assert stored(page)["pending"] == "MZ" and len(stored(page)["rows"]) == 1
    last.fill("4")
    page.click("#sp-save")
    expect(alert).to_have_count(0)
    expect(title).to_have_text("Deal 3 of 18 · Bolek deals · Cezary chooses")

    # A lost connection is said plainly and changes nothing.
    page.route("**/api/scorepad", lambda route: route.abort())
    page.click("#sp-contract-NT")
    expect(alert).to_contain_text("The server cannot be reached")
    assert stored(page)["pending"] is None
    page.unroute("**/api/scorepad")

    # Deal 3: no trumps, Ala's tricks by the stepper.
    page.click("#sp-contract-NT")
    for _ in range(3):
        page.get_by_role("button", name="One trick more for Ala").click()
    page.get_by_label("Tricks of Bolek", exact=True).fill("6")
    expect(page.locator("#sp-tricks-2")).to_have_value("4")
    page.click("#sp-save")
    expect(page.locator(".sp-sheet .sheet-deals tbody tr")).to_have_count(3)

    # Undo once: deal 3's tricks wait in their fields again.
    page.click("#sp-undo")
    expect(page.locator(".sp-sheet .sheet-deals tbody tr")).to_have_count(2)
    expect(title).to_have_text("Deal 3 of 18 · Bolek deals · Cezary chooses")
    expect(page.get_by_label("Tricks of Ala", exact=True)).to_have_value("3")
    expect(page.locator("#announce-polite")).to_contain_text("Taken back: the tricks of deal 3.")

    keeper = ScoreKeeper.new(NAMES, first_dealer=2)
    for contract, tricks in (("H", [5, 4, 4]), ("MZ", [5, 4, 4])):
        keeper.enter_contract(contract)
        keeper.enter_tricks(tricks)
    keeper.enter_contract("NT")
    answer = stored(page)
    assert answer["pending"] == "NT"
    assert shown_totals(page) == list(keeper.totals()) == answer["totals"]
    deals_table = page.locator(".sp-sheet .sheet-deals tbody tr")
    assert deals_table.nth(1).locator("td.total").all_inner_texts() == [
        f"{v:+d}".replace("-", "\u2212") if v else "0" for v in keeper.totals()]
    expect(deals_table.nth(1)).to_contain_text("avoid")
    expect(deals_table.nth(1).locator(".tricks-cell")).to_have_text("5 4 4")

    # The corrected tricks, then deal 4: hearts is used by Ala, so it cannot be chosen.
    page.get_by_label("Tricks of Ala", exact=True).fill("2")
    expect(page.locator("#sp-tricks-2")).to_have_value("5")
    page.click("#sp-save")
    keeper.enter_tricks([2, 6, 5])
    expect(title).to_have_text("Deal 4 of 18 · Cezary deals · Ala chooses")
    expect(page.locator("#sp-contract-H")).to_be_disabled()
    expect(page.locator("#sp-contract-C")).to_be_enabled()
    assert shown_totals(page) == list(keeper.totals())
    grid = page.locator(".sp-sheet .sheet-grid tbody tr").first
    expect(grid.locator("td.used")).to_have_count(1)

    # A reload resumes the same match.
    page.reload()
    expect(title).to_have_text("Deal 4 of 18 · Cezary deals · Ala chooses")
    expect(page.locator(".sp-sheet .sheet-deals tbody tr")).to_have_count(3)
    assert shown_totals(page) == list(keeper.totals())

    # The downloads: the record (text and JSON) reads back with the project's reader; the CSV names the players.
    with page.expect_download() as got:
        page.click("#sp-download-text")
    path = tmp_path / "match.mzn"
    got.value.save_as(path)
    assert got.value.suggested_filename.endswith(".mzn")
    record = read(path)
    assert record.players == tuple(NAMES) and record.score_only
    assert [str(d.contract) for d in record.deals] == [str(d.contract) for d in keeper.record.deals]
    assert [d.tricks_won for d in record.deals] == [(5, 4, 4), (5, 4, 4), (2, 6, 5)]
    assert record.totals == keeper.totals()
    with page.expect_download() as got:
        page.click("#sp-download-json")
    assert read_json(Path(got.value.path()).read_text(encoding="utf-8")).totals == keeper.totals()
    with page.expect_download() as got:
        page.click("#sp-download-csv")
    csv_text = Path(got.value.path()).read_text(encoding="utf-8")
    assert csv_text.startswith("\ufeff")  # for Excel, which reads a CSV without one in the system's code page
    assert "Cezary" in csv_text and len(csv_text.strip("\ufeff").strip().splitlines()) == 4

    # Keyboard only: Tab to a contract, Enter chooses it.
    page.locator("#sp-undo").focus()
    page.keyboard.press("Shift+Tab")
    focused = page.evaluate("() => document.activeElement.id")
    assert focused.startswith("sp-contract-"), focused
    page.keyboard.press("Enter")
    expect(page.locator("#sp-save")).to_be_visible()
    expect(page.locator("#sp-tricks-0")).to_be_focused()
    page.click("#sp-change")
    expect(page.locator("#sp-contract-C")).to_be_visible()
    assert stored(page)["pending"] is None

    # Polish.
    page.select_option("#lang-select", "pl")
    expect(title).to_have_text("Rozdanie 4 z 18 · rozdaje Cezary · wybiera Ala")
    expect(page.locator("#sp-undo")).to_contain_text("Cofnij")
    expect(page.locator("#sp-download-csv")).to_have_text("Tabela (CSV)")
    page.select_option("#lang-select", "en")

    # New match, after a confirmation: the names are offered again.
    page.click("#sp-new")
    dialog = page.locator("dialog.sp-new-confirm")
    expect(dialog).to_be_visible()
    page.click("#sp-new-cancel")
    expect(title).to_be_visible()
    page.click("#sp-new")
    page.click("#sp-new-yes")
    expect(page.locator("#sp-name-0")).to_have_value("Ala")
    assert stored(page) == {}


def test_the_score_pad_fits_a_phone(new_page: Any, web_server: Any, artifacts: Path) -> None:
    page = new_page(viewport={"width": 375, "height": 667}, is_mobile=True, has_touch=True, device_scale_factor=2)
    page.goto(web_server.url + "/")
    page.select_option("#lang-select", "ru")
    page.get_by_role("link", name="Вести счёт за настоящим столом").click()
    expect(page.locator("#sp-start")).to_be_visible()
    no_sideways_scroll(page)
    page.select_option("#lang-select", "en")
    set_up(page, ["Anna Maria", "Bartłomiej", "Krzysztofa"], 0)
    expect(page.locator("#sp-contract-MZ")).to_be_visible()
    no_sideways_scroll(page)
    page.screenshot(path=str(artifacts / "scorepad-contract-phone.png"))
    for i, contract in enumerate(("S", "NT", "MZ")):
        page.click(f"#sp-contract-{contract}")
        expect(page.locator("#sp-save")).to_be_visible()
        no_sideways_scroll(page)
        for button in page.locator(".sp-step, .sp-count").all():
            box = button.bounding_box()
            assert box is not None and box["height"] >= 44 and box["width"] >= 44, box
        if i == 0:
            page.screenshot(path=str(artifacts / "scorepad-tricks-phone.png"), full_page=True)
        page.locator(".sp-count").first.fill(str(i + 3))
        page.locator(".sp-count").nth(1).fill("5")
        page.click("#sp-save")
        expect(page.locator(".sp-sheet .sheet-deals tbody tr")).to_have_count(i + 1)
    no_sideways_scroll(page)
    page.screenshot(path=str(artifacts / "scorepad-sheet-phone.png"), full_page=True)
    for selector in (".sp-totals", ".sp-entry", ".sp-sheet", ".sp-export"):
        box = page.locator(selector).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 375.5, selector


def test_a_refused_name_marks_its_own_field(new_page: Any, web_server: Any) -> None:
    """The server says whose name it refuses ("player 3's name: 'ala' is already a player"): that field is marked
    and focused, not the first one that the message happens to quote (a repeated name used to mark the
    first player's field)."""
    page = new_page()
    page.goto(web_server.url + "/?scorepad=1")
    set_up(page, ["Ala", "Bolek", "ala"], 0)
    expect(page.locator("#sp-setup-error")).to_contain_text("player 3's name")
    expect(page.locator("#sp-name-2")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#sp-name-0")).not_to_have_attribute("aria-invalid", "true")
    expect(page.locator("#sp-name-2")).to_be_focused()
