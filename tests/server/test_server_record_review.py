"""A game record sent for review (``POST /api/records/review``): its score sheet, each finished deal's review as a
table gives it (the same solver verdicts, kept under the record's canonical text), and every refusal: a record that
does not read or breaks the rules, one too large, a score keeper's record, a deal it does not hold or has not
finished, a body of another shape.  The server keeps nothing of the record."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import ThreadServer
from test_server_review import check_play, check_verdicts

from mizerka.record import MatchRecord, read
from mizerka.server.app import MAX_BODY_BYTES
from mizerka.server.records import MAX_RECORD_CHARS, RECORD_BODY_BYTES

RECORDS = Path(__file__).resolve().parent.parent / "data" / "records"
GOLDEN = RECORDS / "standard-seed7.mzn"


def post(server: ThreadServer, record: str, deal: object = None) -> httpx.Response:
    body = json.dumps({"record": record, "deal": deal})  # ASCII: a lone surrogate travels as its JSON escape
    return httpx.post(server.url + "/api/records/review", content=body,
                      headers={"Content-Type": "application/json"}, timeout=120)


def replayed(path: Path) -> MatchRecord:
    record = read(path)
    record.to_match()  # fills in each deal's tricks and scores
    return record


# -- the score sheet -------------------------------------------------------------------------------------------------


def test_the_score_sheet_of_a_record_in_either_form(make_server: Any) -> None:
    server: ThreadServer = make_server()
    record = replayed(GOLDEN)
    text = post(server, GOLDEN.read_text(encoding="utf-8"))
    assert text.status_code == 200, text.text
    sheet = text.json()
    assert sheet == post(server, GOLDEN.with_suffix(".json").read_text(encoding="utf-8")).json()
    assert (sheet["variant"], sheet["players"], sheet["n_deals"]) == ("standard", list(record.players), 18)
    assert sheet["contracts"] == ["C", "D", "H", "S", "NT", "MZ"]
    assert sheet["complete"] and not sheet["score_only"]
    assert sheet["totals"] == list(record.totals) and sheet["winners"] == list(record.outcome().winners)
    assert sheet["tags"]["Event"] == "Golden record"
    results = record.results()
    assert [r["deal_no"] for r in sheet["score_sheet"]] == list(range(1, 19))
    for row, result in zip(sheet["score_sheet"], results, strict=True):
        assert (row["dealer"], row["chooser"], row["contract"]) == (result.dealer, result.chooser,
                                                                    str(result.contract))
        assert (row["tricks"], row["scores"], row["reviewable"]) == (list(result.tricks), list(result.scores), True)
    assert sheet["score_sheet"][-1]["totals"] == sheet["totals"]
    assert [sorted(u) for u in sheet["used"]] == [sorted(["C", "D", "H", "S", "NT", "MZ"])] * 3
    assert server.hub.reviews_run == 0  # a sheet needs no solver


def test_a_score_keepers_record_has_a_sheet_and_no_play_to_review(make_server: Any) -> None:
    server: ThreadServer = make_server()
    text = (RECORDS / "score-only.mzn").read_text(encoding="utf-8")
    sheet = post(server, text).json()
    assert sheet["score_only"] and sheet["score_sheet"] and not any(r["reviewable"] for r in sheet["score_sheet"])
    refused = post(server, text, 1)
    assert (refused.status_code, refused.json()["error"]) == (409, "no_cards"), refused.text


def test_an_unfinished_record_reviews_its_finished_deals_only(make_server: Any) -> None:
    server: ThreadServer = make_server()
    text = (RECORDS / "partial.mzn").read_text(encoding="utf-8")
    record = replayed(RECORDS / "partial.mzn")
    sheet = post(server, text).json()
    finished = len(record.results())
    assert not sheet["complete"] and sheet["winners"] == [] and len(sheet["score_sheet"]) == finished
    last = post(server, text, len(record.deals))
    assert (last.status_code, last.json()["error"]) == (409, "deal_not_over"), last.text
    beyond = post(server, text, len(record.deals) + 1)
    assert (beyond.status_code, beyond.json()["error"]) == (404, "unknown_deal"), beyond.text
    assert f"deals 1-{len(record.deals)}" in beyond.json()["message"]


# -- a deal's review -------------------------------------------------------------------------------------------------


def test_a_deals_review_is_the_tables_review_and_is_kept_for_either_form(make_server: Any) -> None:
    server: ThreadServer = make_server()
    record = replayed(GOLDEN)
    response = post(server, GOLDEN.read_text(encoding="utf-8"), 1)
    assert response.status_code == 200, response.text
    body = response.json()
    check_play(body, record, "", 1)
    check_verdicts(body, record, 1)
    assert server.hub.reviews_run == 1
    again = post(server, GOLDEN.with_suffix(".json").read_text(encoding="utf-8"), 1)  # the same record, as JSON
    assert again.json() == body and server.hub.reviews_run == 1


def test_without_the_solver_the_play_is_still_given(make_server: Any) -> None:
    server: ThreadServer = make_server(review_limit=0.0)
    body = post(server, GOLDEN.read_text(encoding="utf-8"), 2).json()
    assert body["analysis"] == "off" and len(body["tricks"]) == 13
    assert all(card["value"] is None for trick in body["tricks"] for card in trick["cards"])


# -- refusals --------------------------------------------------------------------------------------------------------


def test_a_record_that_breaks_the_rules_is_refused_where_it_does(make_server: Any) -> None:
    server: ThreadServer = make_server()
    text = GOLDEN.read_text(encoding="utf-8")
    assert "1 @2: TC 6C 7C" in text
    broken = post(server, text.replace("1 @2: TC 6C 7C", "1 @2: TC 7C 6C"))  # seat 0 plays a card it does not hold
    assert (broken.status_code, broken.json()["error"]) == (400, "bad_record"), broken.text
    assert "deal 1" in broken.json()["message"] and "trick 1" in broken.json()["message"]
    for junk, words in (("", "the record is empty"), ("hello", "line 1: unexpected line 'hello'"), ("{", "JSON"),
                        ("[RecordVersion \"1\"]\n\ud800", "UTF-8")):
        refused = post(server, junk)
        assert (refused.status_code, refused.json()["error"]) == (400, "bad_record"), refused.text
        assert words in refused.json()["message"] and "pathlib" not in refused.json()["message"]


def test_a_record_too_large_is_refused_and_other_bodies_keep_their_small_limit(make_server: Any) -> None:
    server: ThreadServer = make_server()
    big = post(server, GOLDEN.read_text(encoding="utf-8") + "%" * MAX_RECORD_CHARS)
    assert (big.status_code, big.json()["error"]) == (413, "record_too_large"), big.text[:200]
    huge = httpx.post(server.url + "/api/records/review", content=b"{" + b" " * RECORD_BODY_BYTES + b"}",
                      headers={"Content-Type": "application/json"}, timeout=120)
    assert (huge.status_code, huge.json()["error"]) == (413, "too_large")
    other = httpx.post(server.url + "/api/scorepad", content=b"{" + b" " * MAX_BODY_BYTES + b"}",
                       headers={"Content-Type": "application/json"}, timeout=60)
    assert (other.status_code, other.json()["error"]) == (413, "too_large")


@pytest.mark.parametrize("body", [
    {"record": "x", "deal": 0},
    {"record": "x", "deal": "1"},
    {"record": "x", "deal": 1.0},
    {"record": 5},
    {"deal": 1},
    {"record": "x", "deal": None, "extra": 1},
])
def test_a_body_of_another_shape_is_a_bad_request(make_server: Any, body: dict[str, object]) -> None:
    server: ThreadServer = make_server()
    response = httpx.post(server.url + "/api/records/review", json=body, timeout=60)
    assert (response.status_code, response.json()["error"]) == (422, "bad_request"), response.text
