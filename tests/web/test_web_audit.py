"""What a review of the browser client found, each fixed and checked here in real chromium against the real server.

* The review of a deal nobody exchanged in (variant ``no-exchange``) ended with the word "null": the list of
  exchanges, absent, was handed to the DOM, which writes a null as text.  Nothing is shown there now.
* The score sheet at the table and in the match result showed all six contract columns when the rules use fewer
  (``contracts=MZ``: five empty columns); only the variant's contracts are shown now, as on the match page.
* Rule options were shown as the server writes them ("standard,contracts=NT+MZ" in the lobby's open tables,
  "(contracts=NT+MZ)" untranslated on the match page); they read as words in the page's language now.
* The "Double dummy" column's help said "what perfect play would have given", but its values are each player's own
  guarantee with the other two against him (they need not add up): the help says so, in every language.
* The waiting panel's "empty seat" and its note on listed tables were paper-grey on the green felt (about 1.5:1);
  they are light enough now (at least 4.5:1 against the panel over the felt's lightest green).
* The lobby's drop-downs cut off the option they showed ("Amator (reguły", "A friend an"); a field that does not fit
  beside its label goes under it now, at every width down to a phone.
* Nothing told the others that a player had asked for a rematch: the result dialog now names who has asked, kept up
  to date while it waits (no event says it: the page asks for the view again now and then).
* While a table waits for players the score sheet named the open seats "#2" and "#3": "empty seat" now, as the table.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect
from test_web_match_end import finished_pair
from web_helpers import ANALYSIS_WAIT, api_post, in_language, open_seat, play_through_protocol


def sheet_columns(sheet: Any) -> list[str]:
    """The header cells of a score sheet's grid (players × contracts), in order."""
    return sheet.locator(".sheet-grid thead th").evaluate_all("cells => cells.map(c => c.textContent.trim())")


@pytest.fixture(scope="module")
def short_match(web_server: Any) -> tuple[str, str, int]:
    """A no-exchange match of the Mizerka contract only (three deals) against bots, played to its end through the
    protocol: the table, the seat's token, the seat."""
    entry = api_post(web_server.url, "/api/quickplay",
                     {"name": "Ala", "variant": "no-exchange,contracts=MZ", "level": "random"})
    table, token, seat = entry["table"]["id"], entry["token"], entry["seat"]
    play_through_protocol(web_server, table, token, lambda v: v["phase"] == "over")
    return table, token, seat


def test_the_review_of_a_deal_without_exchange_ends_with_no_null(new_page: Any, web_server: Any,
                                                                 short_match: tuple[str, str, int]) -> None:
    """Nobody exchanged: the review shows no list of exchanges, and no "null" where it would be."""
    table, token, seat = short_match
    page = new_page()
    open_seat(page, web_server.url, table, token, seat)
    over = page.locator("dialog.over-dialog[open]")
    over.get_by_role("button", name="Review the last deal").click()
    review = page.locator("dialog.review-dialog[open]")
    expect(review).to_have_attribute("data-state", "ready", timeout=ANALYSIS_WAIT * 1000)
    expect(review.locator(".rv-exchange-box")).to_have_count(0)
    assert "null" not in review.inner_text()


def test_the_score_sheets_show_only_the_contracts_played(new_page: Any, web_server: Any,
                                                         short_match: tuple[str, str, int]) -> None:
    """The Mizerka contract only: the result's score sheet and the table's have one contract column, as the match
    page has (it had five empty suit and no-trump columns besides)."""
    table, token, seat = short_match
    page = new_page()  # 1280 px: the table's score sheet is open beside it
    open_seat(page, web_server.url, table, token, seat)
    over = page.locator("dialog.over-dialog[open]")
    expect(over).to_be_visible()
    assert sheet_columns(over) == ["Player", "MZ", "Total"]
    page.keyboard.press("Escape")
    expect(over).to_have_count(0)
    panel = page.locator("#sheet-panel")
    if not panel.is_visible():
        page.get_by_role("button", name="Score sheet").click()
    expect(panel.locator(".sheet-grid")).to_be_visible()
    assert sheet_columns(panel) == ["Player", "MZ", "Total"]
    page.goto(f"{web_server.url}/?match={table}")
    expect(page.locator(".match-meta")).to_be_visible()
    assert sheet_columns(page.locator(".score-sheet")) == ["Player", "MZ", "Total"]


@pytest.mark.parametrize(("lang", "label"), [("pl", "Bez wymiany (kontrakty: Mizerka)"),
                                             ("ru", "Без обмена (контракты: Мизерка)")])
def test_the_match_page_names_the_rules_in_words(new_page: Any, web_server: Any, short_match: tuple[str, str, int],
                                                  lang: str, label: str) -> None:
    table, token, seat = short_match
    page = new_page()
    in_language(page, lang)
    open_seat(page, web_server.url, table, token, seat)
    page.goto(f"{web_server.url}/?match={table}")
    meta = page.locator(".match-meta")
    expect(meta).to_contain_text(label)
    assert "contracts=" not in meta.inner_text()


@pytest.fixture(scope="module")
def waiting_table(web_server: Any) -> tuple[str, dict[str, Any]]:
    """A public table of three people's seats with two contracts, one seat taken by Ala: the table and her join."""
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}]
    table = api_post(web_server.url, "/api/tables", {"seats": seats, "visibility": "public",
                                                     "variant": "standard,contracts=NT+MZ"})["id"]
    return table, api_post(web_server.url, f"/api/tables/{table}/join", {"name": "Ala"})


def test_the_lobby_lists_an_open_tables_rules_in_words(new_page: Any, web_server: Any,
                                                      waiting_table: tuple[str, dict[str, Any]]) -> None:
    """The open tables named their rules as the server writes them ("standard,contracts=NT+MZ")."""
    table, _ = waiting_table
    lobby = new_page()
    in_language(lobby, "ru")
    lobby.goto(web_server.url + "/")
    row = lobby.locator(f'.table-list li[data-table="{table}"] .tb-variant')
    expect(row).to_contain_text("Стандартные (контракты: Без козыря и Мизерка)")
    assert "contracts=" not in row.inner_text()


def test_the_waiting_panels_quiet_lines_stand_out_from_the_felt(new_page: Any, web_server: Any,
                                                                waiting_table: tuple[str, dict[str, Any]]) -> None:
    """"empty seat" and the note on listed tables: at least 4.5:1 against the panel over the felt's lightest green
    (they were about 1.5:1)."""
    table, joined = waiting_table
    page = new_page()
    open_seat(page, web_server.url, table, joined["token"], joined["seat"])
    waiting = page.locator(".waiting")
    expect(waiting.locator(".listed-note")).to_be_visible()
    expect(waiting.locator("li.open")).to_have_count(2)
    # each line's colour against the panel's own shade laid over the felt's lightest green (its centre)
    ratios = page.evaluate("""() => {
        const rgb = (s) => s.match(/[\\d.]+/g).map(Number);
        const lum = ([r, g, b]) => [r, g, b].map((c) => { c /= 255; return c <= 0.03928 ? c / 12.92
            : ((c + 0.055) / 1.055) ** 2.4; }).reduce((s, c, i) => s + c * [0.2126, 0.7152, 0.0722][i], 0);
        const felt = rgb(getComputedStyle(document.documentElement).getPropertyValue('--felt-light').trim()
            .replace(/^#(..)(..)(..)$/, (_, r, g, b) => `${parseInt(r, 16)},${parseInt(g, 16)},${parseInt(b, 16)}`));
        const [pr, pg, pb, pa = 1] = rgb(getComputedStyle(document.querySelector('.waiting')).backgroundColor);
        const under = felt.map((c, i) => c * (1 - pa) + [pr, pg, pb][i] * pa);
        return [...document.querySelectorAll('.waiting .listed-note, .waiting li.open')].map((e) => {
            const a = lum(rgb(getComputedStyle(e).color)), b = lum(under);
            return [e.textContent, (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)];
        });
    }""")
    assert len(ratios) == 3
    for text, ratio in ratios:
        assert ratio >= 4.5, (text, ratio)


def test_the_score_sheet_calls_open_seats_as_the_table_does(new_page: Any, web_server: Any,
                                                           waiting_table: tuple[str, dict[str, Any]]) -> None:
    """While the table waits, its score sheet named the open seats "#2" and "#3"; "empty seat" now, as the table."""
    table, joined = waiting_table
    page = new_page()
    open_seat(page, web_server.url, table, joined["token"], joined["seat"])
    expect(page.locator(".waiting li.open")).to_have_count(2)
    panel = page.locator("#sheet-panel")
    if not panel.is_visible():
        page.get_by_role("button", name="Score sheet").click()
    expect(panel.locator(".sheet-grid")).to_be_visible()
    names = panel.locator(".sheet-grid tbody th").evaluate_all("cells => cells.map(c => c.textContent.trim())")
    assert len(names) == 3
    assert names.count("empty seat") == 2, names
    assert not any(re.fullmatch(r"#\d", name) for name in names), names


def test_the_double_dummy_help_says_a_guarantee_each(new_page: Any, web_server: Any) -> None:
    """The values are each player's own guarantee with the other two against him, not one line of play: the help
    says so in every language (it said "what perfect play would have given", and the values did not add up)."""
    page = new_page()
    page.goto(web_server.url + "/")
    helps = page.evaluate("""async () => {
        const { _catalogsForTests: c } = await import('/js/i18n.js');
        return Object.fromEntries(Object.entries(c).map(([lang, cat]) => [lang, cat['summary.ddHelp']]));
    }""")
    assert "a guarantee each, not one line of play" in helps["en"]
    assert "perfect play" not in helps["en"]
    assert "gwarancja każdego z osobna, a nie jeden przebieg gry" in helps["pl"]
    assert "гарантия каждого в отдельности, а не один розыгрыш" in helps["ru"]


# The options each drop-down of the page cuts off: wider than the box's text area (its width less padding and the
# arrow), measured with the drop-down's own font.
CUT_OPTIONS = """() => {
    const c = document.createElement('canvas').getContext('2d');
    const out = [];
    for (const s of document.querySelectorAll('select')) {
        if (!s.offsetParent) continue;
        const cs = getComputedStyle(s);
        c.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
        const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20;
        const cut = [...s.options].filter((o) => c.measureText(o.text).width > room).map((o) => o.text);
        if (cut.length) out.push([s.id, Math.round(room), cut]);
    }
    return out;
}"""


def test_the_lobbys_drop_downs_show_their_options_whole(new_page: Any, web_server: Any) -> None:
    """At the widths where options were cut off (1366 px in Polish and Russian, 1024 px in English) and on phones,
    every option of every drop-down of the lobby fits its box."""
    for width, height in ((1366, 768), (1024, 640), (375, 667)):
        for lang in ("en", "pl", "ru"):
            page = new_page(viewport={"width": width, "height": height})
            in_language(page, lang)
            page.goto(web_server.url + "/")
            expect(page.locator("#bot-level")).to_be_visible()
            expect(page.locator("#private-opponents")).to_be_visible()
            assert page.evaluate(CUT_OPTIONS) == [], (width, lang)
            page.context.close()


def test_the_others_see_who_asked_for_a_rematch(new_page: Any, web_server: Any) -> None:
    """Ala and Cezary (and a bot) finish a match; Ala presses "Play again": Cezary's result says that Ala asks to play
    again (the server's rematch_asked message), and so it does in Polish."""
    base = web_server.url
    table, ala, cezary = finished_pair(web_server)

    a = new_page()
    open_seat(a, base, table, ala["token"], ala["seat"])
    c = new_page()
    in_language(c, "pl")
    open_seat(c, base, table, cezary["token"], cezary["seat"])
    asked = c.locator("dialog.over-dialog[open] .rematch-asked")
    expect(asked).to_have_text("")
    expect(a.locator("dialog.over-dialog[open] .rematch-asked")).to_have_text("")
    a.locator("dialog.over-dialog[open] .rematch-btn").click()
    expect(a.locator("dialog.over-dialog[open] .rematch-out")).to_have_text("Waiting for the other players to agree…")
    expect(asked).to_have_text("Ala chce zagrać jeszcze raz.", timeout=10_000)
    expect(a.locator("dialog.over-dialog[open] .rematch-asked")).to_have_text("")  # not herself
    c.locator("dialog.over-dialog[open] .rematch-btn").click()
    for page in (a, c):
        page.wait_for_function("t => window.mizerkaDebug.view() && window.mizerkaDebug.view().table !== t", arg=table)


@pytest.mark.parametrize(("lang", "words"), [("en", "do not sum to zero"), ("pl", "nie sumują się do zera"),
                                             ("ru", "не складываются в ноль")])
def test_the_lobby_says_when_a_variants_scores_do_not_sum_to_zero(new_page: Any, web_server: Any, lang: str,
                                                                   words: str) -> None:
    """Seed 002 as written (17 tricks, quotas of 13) was offered as "S002 as written", a name no player could read,
    and a deal then ended -1, -1, -2 without a word; the terminal game warns of it before the match."""
    page = new_page()
    in_language(page, lang)
    page.goto(web_server.url + "/")
    note = page.locator("#variant-note")
    page.select_option("#variant", "standard")
    expect(note).to_be_hidden()
    page.select_option("#variant", "seed002-literal")
    expect(note).to_be_visible()
    expect(note).to_contain_text(words)
    expect(page.locator("#variant")).to_have_attribute("aria-describedby", "variant-note")
    assert "17" in page.locator("#variant option[value='seed002-literal']").inner_text()
    page.reload()  # the choice is remembered, and so is its note
    expect(page.locator("#variant-note")).to_contain_text(words)
