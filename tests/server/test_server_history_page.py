"""The lobby's recent games (docs/web.md, *Recent games*): a finished public match listed by ``GET /api/history``,
its score sheet (``GET /api/tables/{id}/sheet``), its record and each deal's review, also once the hub has
unloaded the table from memory (read back from the database); a private table is not listed, and one without
spectators gives nothing without its token; a match not over, an unknown id and a bad offset are refused."""

from __future__ import annotations

from typing import Any

import httpx
from server_helpers import ThreadServer, new_table, play, read_back, unload

from mizerka.record import read_json

SHORT = "standard,contracts=NT+MZ"  # six deals


def get(server: ThreadServer, path: str, token: str | None = None) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return httpx.get(server.url + path, headers=headers, timeout=60)


def test_a_finished_public_match_is_listed_and_read_back_after_the_hub_unloaded_it(make_server: Any) -> None:
    server: ThreadServer = make_server()
    table, token = new_table(server, name="Recent")
    play(server, table, token, lambda v: v["phase"] == "over")
    listed = get(server, "/api/history?limit=5").json()
    assert [e["id"] for e in listed] == [table]
    entry = listed[0]
    in_memory = get(server, f"/api/tables/{table}/sheet")
    assert in_memory.status_code == 200, in_memory.text
    unload(server, table)
    assert table not in server.hub.tables
    sheet = get(server, f"/api/tables/{table}/sheet")
    assert sheet.status_code == 200, sheet.text
    body = sheet.json()
    expected = in_memory.json()
    expected["score_sheet"] = read_back(expected["score_sheet"])  # the double-dummy annotations are not journaled
    assert body == expected
    assert (body["table"], body["name"], body["status"], body["variant"]) == (table, "Recent", "finished", SHORT)
    assert body["contracts"] == ["NT", "MZ"] and body["n_deals"] == 6 and len(body["score_sheet"]) == 6
    assert [p["name"] for p in body["players"]] == entry["players"]
    assert body["totals"] == entry["totals"] == body["score_sheet"][-1]["totals"]
    assert body["winners"] == entry["winners"]
    assert all(sorted(u) == ["MZ", "NT"] for u in body["used"])
    # the record (JSON and text) and every deal's review, from the database, without a token
    record = get(server, f"/api/tables/{table}/record?format=json")
    assert record.status_code == 200, record.text
    rec = read_json(record.text)
    assert rec.is_over() and len(rec.deals) == 6 and all(d.deck is not None for d in rec.deals)
    text = get(server, f"/api/tables/{table}/record")
    assert text.status_code == 200 and text.headers["content-type"].startswith("text/plain")
    for number in range(1, 7):
        review = get(server, f"/api/tables/{table}/deals/{number}/review")
        assert review.status_code == 200, review.text
        assert review.json()["deal"] == number and len(review.json()["tricks"]) == 13
        assert review.json()["contract"]["code"] == str(rec.deals[number - 1].contract)
    assert table not in server.hub.tables  # reading it back did not resume it


def test_private_and_closed_tables_and_bad_requests_are_refused(make_server: Any) -> None:
    server: ThreadServer = make_server()
    # a private table without spectators: not listed; nothing of it without its token, in memory or not
    private, token = new_table(server, visibility="private", spectators=False)
    play(server, private, token, lambda v: v["phase"] == "over")
    unload(server, private)
    assert get(server, "/api/history").json() == []
    for path in (f"/api/tables/{private}/sheet", f"/api/tables/{private}/deals/1/review",
                 f"/api/tables/{private}/record"):
        refused = get(server, path)
        assert (refused.status_code, refused.json()["error"]) == (403, "spectators_off"), path
        assert set(refused.json()) == {"error", "message"}
        bad = get(server, path, "not-a-token")
        assert (bad.status_code, bad.json()["error"]) == (403, "bad_token"), path
    mine = get(server, f"/api/tables/{private}/sheet", token)
    assert mine.status_code == 200 and len(mine.json()["score_sheet"]) == 6
    # a match in progress: its sheet is the live table's, not a recent game
    live, live_token = new_table(server)
    play(server, live, live_token, lambda v: v["deal_no"] == 2 and v["your_turn"])
    refused = get(server, f"/api/tables/{live}/sheet")
    assert (refused.status_code, refused.json()["error"]) == (409, "not_over"), refused.text
    # an unknown id, one no table can have, a bad page
    for path in ("/api/tables/nosuchtable/sheet", "/api/tables/%00/sheet"):
        unknown = get(server, path)
        assert (unknown.status_code, unknown.json()["error"]) == (404, "unknown_table"), path
    for query in ("offset=-1", "offset=x", "limit=0", "limit=201"):
        bad = get(server, f"/api/history?{query}")
        assert (bad.status_code, bad.json()["error"]) == (422, "bad_request"), query
