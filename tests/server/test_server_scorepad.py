"""``POST /api/scorepad``: the score pad for a real card table, against a real uvicorn.  The server keeps
nothing; every answer must be what :class:`~mizerka.scorekeeper.ScoreKeeper` gives for the same entries."""

from __future__ import annotations

import json
import random
from typing import Any

import httpx
import pytest
from server_helpers import ThreadServer

from mizerka import CardSet, Match, Phase
from mizerka.deal import Exchange
from mizerka.record import MatchRecord, read_json, read_text
from mizerka.rules import get_variant
from mizerka.scorekeeper import ScoreKeeper
from mizerka.server.app import MAX_BODY_BYTES

NAMES = ["Ala", "Bolek", "Cezary"]


def post(server: ThreadServer, body: Any) -> httpx.Response:
    return httpx.post(server.url + "/api/scorepad", json=body, timeout=10)


def ok(server: ThreadServer, body: Any) -> dict[str, Any]:
    response = post(server, body)
    assert response.status_code == 200, response.text
    return response.json()  # type: ignore[no-any-return]


def refused(server: ThreadServer, body: Any, status: int, code: str, words: str = "") -> str:
    response = post(server, body)
    assert response.status_code == status, response.text
    answer = response.json()
    assert set(answer) <= {"error", "message", "reason"} and answer["error"] == code, answer
    assert words in answer["message"], answer
    return answer["message"]  # type: ignore[no-any-return]


def fresh(server: ThreadServer, players: list[str] | None = None, first_dealer: int = 2,
          variant: str = "standard") -> dict[str, Any]:
    return ok(server, {"record": None, "new": {"players": players or NAMES, "first_dealer": first_dealer,
                                               "variant": variant}, "entry": None})


def enter(server: ThreadServer, state: dict[str, Any], **entry: Any) -> dict[str, Any]:
    return ok(server, {"record": state["record"], "entry": entry})


def random_tricks(rng: random.Random, active: list[int], n_seats: int) -> list[int | None]:
    a = rng.randint(0, 13)
    b = rng.randint(0, 13 - a)
    counts = [a, b, 13 - a - b]
    rng.shuffle(counts)
    tricks: list[int | None] = [None] * n_seats
    for seat, count in zip(sorted(active), counts, strict=True):
        tricks[seat] = count
    return tricks


def same_as_keeper(answer: dict[str, Any], keeper: ScoreKeeper) -> None:
    sheet = keeper.sheet()
    assert len(answer["rows"]) == len(sheet.results)
    for row, result, running in zip(answer["rows"], sheet.results, sheet.running_totals(), strict=True):
        out = sheet.sits_out(result)
        assert row["deal"] == result.deal_no and row["dealer"] == result.dealer and row["chooser"] == result.chooser
        assert row["contract"] == str(result.contract) and row["goal"] == result.contract.goal
        assert row["tricks"] == [None if s == out else t for s, t in enumerate(result.tricks)]
        assert row["scores"] == [None if s == out else v for s, v in enumerate(result.scores)]
        assert row["totals"] == running
    assert answer["totals"] == list(keeper.totals())
    assert answer["used"] == [[str(c) for c in used] for used in sheet.used()]
    assert answer["csv"] == keeper.to_csv()
    assert answer["text"] == keeper.record.to_text()
    assert read_json(json.dumps(answer["record"])) == keeper.record  # the record round-trips
    assert read_text(answer["text"]) == keeper.record
    assert answer["over"] == keeper.is_over()
    assert answer["winners"] == (list(keeper.outcome().winners) if keeper.is_over() else None)


def test_a_whole_match_one_request_at_a_time_is_the_scorekeepers(server: ThreadServer) -> None:
    rng = random.Random(7)
    keeper = ScoreKeeper.new(NAMES, 2)
    state = fresh(server)
    assert state["deal_no"] == 1 and state["dealer"] == 2 and state["chooser"] == 0 and state["active"] == [0, 1, 2]
    assert state["contracts"] == ["C", "D", "H", "S", "NT", "MZ"] == state["allowed"]
    assert (state["n_deals"], state["n_seats"], state["variant"], state["players"]) == (18, 3, "standard", NAMES)
    same_as_keeper(state, keeper)
    for deal_no in range(1, 19):
        assert state["deal_no"] == deal_no and state["pending"] is None
        assert state["dealer"] == keeper.dealer_of(deal_no) and state["chooser"] == keeper.chooser
        assert state["active"] == list(keeper.active_of(deal_no))
        assert state["allowed"] == [str(c) for c in keeper.allowed_contracts()]
        contract = rng.choice(state["allowed"])
        keeper.enter_contract(contract)
        state = enter(server, state, contract=contract)
        assert state["pending"] == contract and state["allowed"] == [] and state["deal_no"] == deal_no
        tricks = random_tricks(rng, state["active"], 3)
        keeper.enter_tricks([t or 0 for t in tricks])
        state = enter(server, state, tricks=tricks)
        same_as_keeper(state, keeper)
    assert state["over"] and state["deal_no"] is None and state["dealer"] is None and state["chooser"] is None
    assert state["active"] == [] and state["allowed"] == [] and state["winners"]
    assert state["record"]["result"] == state["totals"]
    refused(server, {"record": state["record"], "entry": {"contract": "H"}}, 400, "bad_entry", "the match is over")
    # the last deal's tricks can be taken back, as at the terminal
    again = enter(server, state, undo=True)
    assert again["undone"] == "deal 18's tricks" and not again["over"] and again["deal_no"] == 18
    assert again["pending"] == state["rows"][-1]["contract"] and len(again["rows"]) == 17
    keeper.undo()
    same_as_keeper(again, keeper)
    # the answer with no entry is the state as it stands
    assert ok(server, {"record": again["record"], "entry": None}) == {**again, "undone": None}
    assert httpx.get(server.url + "/api/tables").json() == []  # nothing was kept on the server


def test_four_players_the_dealer_sits_out(server: ThreadServer) -> None:
    players = ["Ala", "Bolek", "Cezary", "Dorota"]
    keeper = ScoreKeeper.new(players, 0, get_variant("four-players"))
    state = fresh(server, players, 0, "four-players")
    assert state["n_seats"] == 4 and state["n_deals"] == 24 and state["variant"] == "four-players"
    assert state["dealer"] == 0 and state["chooser"] == 1 and state["active"] == [1, 2, 3]
    state = enter(server, state, contract="NT")
    keeper.enter_contract("NT")
    refused(server, {"record": state["record"], "entry": {"tricks": [1, 4, 4, 4]}}, 400, "bad_entry",
            "Ala deals and sits out this deal")
    refused(server, {"record": state["record"], "entry": {"tricks": [None, None, 9, 4]}}, 400, "bad_entry",
            "give the tricks of Bolek")
    refused(server, {"record": state["record"], "entry": {"tricks": [None, 5, 4]}}, 400, "bad_entry",
            "give 4 trick counts")
    state = enter(server, state, tricks=[None, 5, 4, 4])
    keeper.enter_tricks([0, 5, 4, 4])
    same_as_keeper(state, keeper)
    assert state["rows"][0]["tricks"] == [None, 5, 4, 4] and state["rows"][0]["scores"][0] is None
    assert state["totals"][0] == 0
    # deal 2: Bolek deals and sits out; a 0 for him is taken as well as a null
    assert state["dealer"] == 1 and state["active"] == [2, 3, 0]
    state = enter(server, state, contract="MZ")
    keeper.enter_contract("MZ")
    state = enter(server, state, tricks=[3, 0, 5, 5])
    keeper.enter_tricks([3, 0, 5, 5])
    same_as_keeper(state, keeper)
    assert state["rows"][1]["tricks"] == [3, None, 5, 5]


def test_undo_takes_back_the_tricks_then_the_contract(server: ThreadServer) -> None:
    state = fresh(server)
    refused(server, {"record": state["record"], "entry": {"undo": True}}, 400, "bad_entry", "nothing to undo")
    state = enter(server, state, contract="H")
    state = enter(server, state, tricks=[5, 4, 4])
    assert state["deal_no"] == 2 and state["totals"] == [-2, -1, 3]
    state = enter(server, state, undo=True)
    assert state["undone"] == "deal 1's tricks" and state["deal_no"] == 1 and state["pending"] == "H"
    assert state["rows"] == [] and state["totals"] == [0, 0, 0]
    state = enter(server, state, undo=True)
    assert state["undone"] == "deal 1's contract (♥)" and state["pending"] is None
    assert state["record"]["deals"] == [] and state["allowed"] == state["contracts"]
    state = enter(server, state, contract="S")
    assert state["pending"] == "S" and state["undone"] is None


def test_refused_entries_say_why(server: ThreadServer) -> None:
    state = fresh(server)
    refused(server, {"record": state["record"], "entry": {"tricks": [5, 4, 4]}}, 400, "bad_entry",
            "enter deal 1's contract first")
    refused(server, {"record": state["record"], "entry": {"contract": "XX"}}, 400, "bad_entry", "is not a contract")
    for contract, tricks in (("H", [5, 4, 4]), ("NT", [13, 0, 0]), ("C", [1, 1, 11])):
        state = enter(server, state, contract=contract)
        refused(server, {"record": state["record"], "entry": {"contract": "D"}}, 400, "bad_entry",
                "contract is already entered")
        refused(server, {"record": state["record"], "entry": {"tricks": [5, 4, 3]}}, 400, "bad_entry",
                "the tricks add up to 12, not 13")
        refused(server, {"record": state["record"], "entry": {"tricks": [14, 0, -1]}}, 400, "bad_entry",
                "cannot take 14 tricks")
        refused(server, {"record": state["record"], "entry": {"tricks": [5, None, 8]}}, 400, "bad_entry",
                "give the tricks of Bolek")
        state = enter(server, state, tricks=tricks)
    assert state["chooser"] == 0 and "H" not in state["allowed"]
    refused(server, {"record": state["record"], "entry": {"contract": "H"}}, 400, "bad_entry",
            "Ala has no ♥ left to choose (already used)")
    # a variant that plays fewer contracts refuses the others
    small = fresh(server, variant="standard,contracts=NT")
    assert small["contracts"] == ["NT"] and small["n_deals"] == 3
    refused(server, {"record": small["record"], "entry": {"contract": "H"}}, 400, "bad_entry", "not played")


def test_bad_records_are_refused(server: ThreadServer) -> None:
    state = fresh(server)
    state = enter(server, state, contract="H")
    record = state["record"]
    refused(server, {"record": {"format": "nonsense"}}, 400, "bad_record")
    refused(server, {"record": {**record, "format": "other"}}, 400, "bad_record", "format")
    refused(server, {"record": {**record, "version": 99}}, 400, "bad_record", "version")
    refused(server, {"record": {**record, "players": ["Ala", "Bolek"]}}, 400, "bad_record")
    refused(server, {"record": {**record, "variant": "nope"}}, 400, "bad_record", "unknown variant")
    refused(server, {"record": {**record, "first_dealer": 7}}, 400, "bad_record")
    refused(server, {"record": {**record, "extra": 1}}, 400, "bad_record", "unknown field")
    bad_deal = {**record["deals"][0], "contract": "XX"}
    refused(server, {"record": {**record, "deals": [bad_deal]}}, 400, "bad_record")
    wrong_sum = {**record["deals"][0], "tricks_won": [5, 4, 3], "scores": [0, 0, 0]}
    refused(server, {"record": {**record, "deals": [wrong_sum]}}, 400, "bad_record")
    refused(server, {"record": {**record, "deals": "many"}}, 400, "bad_record")
    # a record with the cards of its deals is the server's or a replay's, not a score pad's
    match = Match(seed=3, players=NAMES)
    rng = random.Random(3)
    while match.deal_no == 1:
        deal = match.deal
        if deal.phase is Phase.EXCHANGE:
            match.play(Exchange(CardSet()))
        else:
            match.play(rng.choice(list(match.legal_actions)))
    with_cards = json.loads(MatchRecord.from_match(match).to_json())
    assert with_cards["deals"][0]["deck"]
    refused(server, {"record": with_cards, "entry": None}, 400, "bad_record", "holds the cards")
    # not an object at all: the schema refuses it
    refused(server, {"record": [1, 2]}, 422, "bad_request")
    refused(server, {"record": "text"}, 422, "bad_request")


def test_bad_setups_are_refused(server: ThreadServer) -> None:
    def new(**fields: Any) -> dict[str, Any]:
        return {"record": None, "new": {"players": NAMES, "first_dealer": 0, **fields}}

    refused(server, new(players=["Ala", "ala", "Cezary"]), 400, "bad_setup", "names must differ")
    refused(server, new(players=["Ala", "", "Cezary"]), 400, "bad_setup")
    refused(server, new(players=["Ala", "5", "Cezary"]), 400, "bad_setup")
    refused(server, new(players=["Ala", "undo", "Cezary"]), 400, "bad_setup")
    refused(server, new(players=["Ala", "Bolek"]), 400, "bad_setup", "seats 3 players, not 2")
    refused(server, new(players=["A" * 41, "Bolek", "Cezary"]), 400, "bad_setup")
    refused(server, new(first_dealer=3), 400, "bad_setup", "there is no seat 3")
    refused(server, new(first_dealer=-1), 400, "bad_setup", "there is no seat -1")
    refused(server, new(variant="nope"), 400, "bad_setup", "unknown variant")
    refused(server, new(variant="standard,first_dealer=1"), 400, "bad_setup", "has Bolek deal first")
    refused(server, new(variant="standard,nonsense=3"), 400, "bad_setup")


@pytest.mark.parametrize("body", [
    {},
    {"record": None},
    {"record": None, "new": None},
    {"record": {}, "new": {"players": NAMES, "first_dealer": 0}},
    {"record": None, "new": {"players": NAMES, "first_dealer": True}},
    {"record": None, "new": {"players": NAMES, "first_dealer": "Ala"}},
    {"record": None, "new": {"players": NAMES}},
    {"record": None, "new": {"players": NAMES, "first_dealer": 0}, "entry": {}},
    {"record": None, "new": {"players": NAMES, "first_dealer": 0}, "entry": {"contract": "H", "undo": True}},
    {"record": None, "new": {"players": NAMES, "first_dealer": 0}, "entry": {"undo": False}},
    {"record": None, "new": {"players": NAMES, "first_dealer": 0}, "entry": {"tricks": "5 4 4"}},
    {"record": None, "new": {"players": NAMES, "first_dealer": 0}, "entry": {"tricks": [5, 4.5, 3.5]}},
    {"record": None, "new": {"players": NAMES, "first_dealer": 0}, "entry": {"take": 1}},
    {"record": None, "new": {"players": NAMES, "first_dealer": 0}, "extra": 1},
    [1, 2, 3],
])
def test_malformed_bodies_are_422(server: ThreadServer, body: Any) -> None:
    refused(server, body, 422, "bad_request")


def test_a_body_over_the_cap_is_413_and_not_json_is_refused(server: ThreadServer) -> None:
    state = fresh(server)
    big = {"record": {**state["record"], "tags": {"Event": "x" * (MAX_BODY_BYTES + 10)}}, "entry": None}
    refused(server, big, 413, "too_large")
    response = httpx.post(server.url + "/api/scorepad", content=b"{not json", timeout=10,
                          headers={"Content-Type": "application/json"})
    assert response.status_code == 422 and response.json()["error"] == "bad_request"
    response = httpx.post(server.url + "/api/scorepad", content=b"[" * 60000, timeout=10,
                          headers={"Content-Type": "application/json"})
    assert 400 <= response.status_code < 500 and set(response.json()) == {"error", "message"}


def test_the_rate_budget_counts_score_pad_requests(make_server: Any) -> None:
    server = make_server(request_rate=0.01, request_burst=3, limit_loopback=True)
    body = {"record": None, "new": {"players": NAMES, "first_dealer": 0}}
    statuses = [post(server, body).status_code for _ in range(5)]
    assert statuses[:3] == [200, 200, 200] and statuses[-1] == 429
