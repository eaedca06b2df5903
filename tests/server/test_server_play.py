"""Playing over the websocket against a real uvicorn: quick-play to the end, seats, tokens, reconnect."""

from __future__ import annotations

from typing import Any

import httpx
from server_helpers import WS, ThreadServer


def play_until(ws: WS, stop: Any, limit: int = 5000) -> None:
    """Act with the first legal action (or keep, in the exchange) whenever the view says it is our turn."""
    for _ in range(limit):
        view = ws.view
        assert view is not None
        if stop(view):
            return
        if view["your_turn"]:
            action = view["legal"][0] if view["legal"] else "keep"
            reply = ws.request({"type": "act", "action": action, "seq": ws.seq})
            if reply["type"] == "error" and reply["code"] == "stale_seq":
                continue
            assert reply["type"] == "ack", reply
        else:
            ws.recv()
    raise AssertionError("the game did not get there")


def test_quickplay_to_the_end_of_the_match(server: ThreadServer, ws_factory: Any) -> None:
    joined = httpx.post(server.url + "/api/quickplay", json={"name": "Ala", "variant": "standard,contracts=NT+MZ"})
    assert joined.status_code == 201, joined.text
    body = joined.json()
    assert body["seat"] == 0 and body["table"]["visibility"] == "private"
    ws = ws_factory()
    welcome = ws.hello(body["table"]["id"], body["token"])
    assert welcome["type"] == "welcome" and welcome["seat"] == 0
    play_until(ws, lambda v: v["phase"] == "over")
    view = ws.view
    assert view is not None and view["status"] == "finished" and len(view["score_sheet"]) == 6
    assert sum(view["totals"]) == 0
    kinds = [m["event"]["kind"] for m in ws.log if m["type"] == "event"]
    assert kinds.count("deal_end") == 6 and kinds[-1] == "match_end"
    record = httpx.get(server.url + f"/api/tables/{body['table']['id']}/record")
    assert record.status_code == 200 and "[Variant" in record.text
