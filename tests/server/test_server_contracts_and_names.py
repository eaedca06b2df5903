"""What a client needs to draw a table without reading the rules itself (docs/protocol.md, *The view*).

* ``contracts``: the variant's contracts as codes, in its order, as the rules read the variant.  The browser used to
  parse the spec's ``contracts=`` option itself, with a table of aliases of its own beside the engine's
  (:func:`mizerka.rules.parse_variant`).  The view, the table's entry (``GET /api/tables/{id}``, the lobby's list),
  the recent games (``GET /api/history``) and a profile's matches carry them now, as the match sheet did.
* ``default_name``: a seat nobody named (a bot's) is called "Bot 2" by the server; the flag tells a client that the
  name is the server's, which it may write in its own language ("Бот 2"), and never a name a player chose, even one
  that reads "Bot 3".
"""

from __future__ import annotations

from typing import Any

import httpx
from server_helpers import WS, ThreadServer, claim, new_table, play, profile

from mizerka.server.protocol import View

SHORT = "standard,contracts=MZ+NT"  # six deals; the contracts in the spec's order, not the engine's


def test_the_view_and_every_listing_carry_the_variants_contracts(make_server: Any) -> None:
    server: ThreadServer = make_server()
    player, key = claim(server, "Ala")
    table, token = new_table(server, variant=SHORT, name="Short")
    info = httpx.get(f"{server.url}/api/tables/{table}").json()
    assert info["variant"] == SHORT and info["contracts"] == ["MZ", "NT"]
    ws = WS(server.ws_url)
    try:
        view = ws.hello(table, token)["view"]
    finally:
        ws.close()
    View.model_validate(view)
    assert view["contracts"] == ["MZ", "NT"]
    full, _ = new_table(server, variant="standard")
    assert httpx.get(f"{server.url}/api/tables/{full}").json()["contracts"] == ["C", "D", "H", "S", "NT", "MZ"]
    play(server, table, token, lambda v: v["phase"] == "over")
    [entry] = httpx.get(f"{server.url}/api/history").json()
    assert (entry["id"], entry["contracts"]) == (table, ["MZ", "NT"])
    # the bots' names are the server's own: a client may write them in its language (and "Ala" is no bot's)
    assert (entry["players"], entry["default_names"]) == (["Ala", "Bot 2", "Bot 3"], [1, 2])
    # a profile's rated match: its entry among the profile's recent matches
    rated = httpx.post(f"{server.url}/api/quickplay", json={"variant": SHORT, "level": "random", "rated": True,
                                                           "player_key": key})
    assert rated.status_code == 201, rated.text
    play(server, rated.json()["table"]["id"], rated.json()["token"], lambda v: v["phase"] == "over")
    recent = profile(server, key).json()["recent"]
    assert [r["contracts"] for r in recent] == [["MZ", "NT"]], (player, recent)
    assert [r["default_names"] for r in recent] == [[1, 2]]


def test_a_stored_variant_the_server_no_longer_reads_has_no_contracts() -> None:
    from mizerka.server.app import variant_contracts

    assert variant_contracts("standard,contracts=NT+MZ") == ["NT", "MZ"]
    assert variant_contracts("standard,contracts=XX") is None
    assert variant_contracts("no-such-variant") is None


def test_a_bots_name_is_marked_as_the_servers_and_a_chosen_one_never_is(make_server: Any) -> None:
    server: ThreadServer = make_server()
    created = httpx.post(server.url + "/api/tables", json={"variant": SHORT, "seats": [
        {"kind": "human"}, {"kind": "bot", "level": "random"}, {"kind": "human"}]})
    assert created.status_code == 201, created.text
    table = created.json()["id"]
    waiting = httpx.get(f"{server.url}/api/tables/{table}").json()["seats"]
    assert [(s["name"], s["default_name"]) for s in waiting] == [(None, False), ("Bot 2", True), (None, False)]
    # names players chose, that read as the server's: the first one's is the bot's own
    joined = httpx.post(f"{server.url}/api/tables/{table}/join", json={"name": "Bot 2"})
    assert joined.status_code == 200, joined.text
    httpx.post(f"{server.url}/api/tables/{table}/join", json={"name": "Bot 3"}).raise_for_status()
    seats = httpx.get(f"{server.url}/api/tables/{table}").json()["seats"]
    # the bot's name is made distinct from the player's "Bot 2": it is no longer the server's plain default
    assert [(s["name"], s["kind"], s["default_name"]) for s in seats] == [
        ("Bot 2", "human", False), ("Bot 2 (2)", "bot", False), ("Bot 3", "human", False)]
    ws = WS(server.ws_url)
    try:
        view = ws.hello(table, joined.json()["token"])["view"]
    finally:
        ws.close()
    assert [p["default_name"] for p in view["players"]] == [False, False, False]
    quick = httpx.post(f"{server.url}/api/quickplay", json={"name": "Ala", "variant": SHORT, "level": "random"})
    assert [(s["name"], s["default_name"]) for s in quick.json()["table"]["seats"]] == [
        ("Ala", False), ("Bot 2", True), ("Bot 3", True)]


def test_players_named_alike_are_told_apart_in_the_view_as_in_the_chat(make_server: Any) -> None:
    """The view showed each human's name as typed: a second "ALA" read "ALA" at its seat while the chat, the
    records and the score sheet called it "ALA (2)" (:meth:`Table.player_names`), and two seats could read alike
    ("Zoë" typed in two ways).  The join's answer gives the name itself (``name``), which the terminal client
    remembers to take the seat back under."""
    server: ThreadServer = make_server()
    created = httpx.post(server.url + "/api/tables", json={"variant": SHORT, "seats": [
        {"kind": "human"}, {"kind": "human"}, {"kind": "human"}]})
    assert created.status_code == 201, created.text
    table = created.json()["id"]
    tokens = []
    for name in ("Ala", "ALA"):
        joined = httpx.post(f"{server.url}/api/tables/{table}/join", json={"name": name})
        assert joined.status_code == 200, joined.text
        assert joined.json()["name"] == name  # the name itself, to take the seat back under
        tokens.append(joined.json()["token"])
    seats = httpx.get(f"{server.url}/api/tables/{table}").json()["seats"]
    assert [s["name"] for s in seats] == ["Ala", "ALA (2)", None]  # the third seat is open: no name
    ws = WS(server.ws_url)
    try:
        view = ws.hello(table, tokens[1])["view"]
    finally:
        ws.close()
    assert [p["name"] for p in view["players"]] == ["Ala", "ALA (2)", None]
