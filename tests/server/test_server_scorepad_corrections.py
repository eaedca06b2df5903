"""``POST /api/scorepad`` with ``{"correct": ...}``: a finished deal corrected from the browser, as ``edit N`` does it
in ``mizerka score``.  The later deals stay; only the deal's scores change, and the totals with them; a refused
correction changes nothing."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

import pytest
from server_helpers import ThreadServer
from test_server_scorepad import enter, fresh, ok, refused, same_as_keeper

from mizerka.record import DealRecord, from_dict
from mizerka.scorekeeper import EntryError, ScoreKeeper
from mizerka.server import scorepad


def correct(server: ThreadServer, state: dict[str, Any], **correction: Any) -> dict[str, Any]:
    return ok(server, {"record": state["record"], "entry": {"correct": correction}})


def three_deals(server: ThreadServer) -> dict[str, Any]:
    """Ala chose hearts in deal 1 (5 4 4), Bolek no-trump in deal 2, Cezary mizerka in deal 3."""
    state = fresh(server)
    for contract, tricks in (("H", [5, 4, 4]), ("NT", [3, 6, 4]), ("MZ", [6, 6, 1])):
        state = enter(server, state, contract=contract)
        state = enter(server, state, tricks=tricks)
    return state


def test_a_deal_s_tricks_and_contract_corrected_keep_the_later_deals(server: ThreadServer) -> None:
    state = three_deals(server)
    later = state["rows"][1:]
    fixed = correct(server, state, deal=1, contract="S", tricks=[7, 3, 3])
    assert fixed["corrected"] == 1 and fixed["undone"] is None
    assert fixed["rows"][0]["contract"] == "S" and fixed["rows"][0]["tricks"] == [7, 3, 3]
    assert fixed["rows"][0]["scores"] == [0, -2, 2]
    assert [row["scores"] for row in fixed["rows"][1:]] == [row["scores"] for row in later]
    assert [row["contract"] for row in fixed["rows"][1:]] == ["NT", "MZ"]
    assert fixed["used"][0] == ["S"] and fixed["deal_no"] == 4
    # the same as the terminal's score keeper given the same correction
    keeper = ScoreKeeper.from_record(from_dict(state["record"]))
    keeper.correct(1, "S", "7 3 3")
    same_as_keeper(fixed, keeper)
    # the contract alone, then the tricks alone: what is left out stays
    only_contract = correct(server, fixed, deal=2, contract="C")
    assert only_contract["rows"][1]["contract"] == "C" and only_contract["rows"][1]["tricks"] == [3, 6, 4]
    only_tricks = correct(server, only_contract, deal=2, tricks=[2, 7, 4])
    assert only_tricks["rows"][1]["contract"] == "C" and only_tricks["rows"][1]["tricks"] == [2, 7, 4]
    assert only_tricks["corrected"] == 2


def test_each_row_says_the_contracts_it_may_be_corrected_to(server: ThreadServer) -> None:
    state = three_deals(server)
    for contract, tricks in (("S", [7, 5, 1]), ("D", [7, 5, 1]), ("C", [7, 5, 1])):  # Ala chooses again in deal 4
        state = enter(server, state, contract=contract)
        state = enter(server, state, tricks=tricks)
    every = state["contracts"]
    assert state["rows"][0]["contract_choices"] == [c for c in every if c != "S"]  # Ala's S is deal 4's
    assert state["rows"][3]["contract_choices"] == [c for c in every if c != "H"]
    assert state["rows"][1]["contract_choices"] == [c for c in every if c != "D"]
    message = refused(server, {"record": state["record"], "entry": {"correct": {"deal": 1, "contract": "S"}}},
                      400, "bad_entry", "Ala chose ♠ in deal 4 already")
    assert "deal 1" in message
    # the contract entered for the deal in progress counts too: Ala chooses no-trump in deal 7
    assert state["deal_no"] == 7 and state["chooser"] == 0
    state = enter(server, state, contract="NT")
    assert "NT" not in state["rows"][0]["contract_choices"]
    refused(server, {"record": state["record"], "entry": {"correct": {"deal": 1, "contract": "NT"}}},
            400, "bad_entry", "Ala chose NT in deal 7 already")


def test_four_players_correct_the_three_in_play(server: ThreadServer) -> None:
    state = fresh(server, players=["Ala", "Bolek", "Cezary", "Dorota"], first_dealer=3, variant="four-players")
    state = enter(server, state, contract="H")
    state = enter(server, state, tricks=[5, 4, 4, None])
    fixed = correct(server, state, deal=1, tricks=[6, 4, 3, None])
    assert fixed["rows"][0]["tricks"] == [6, 4, 3, None] and fixed["rows"][0]["scores"][3] is None
    refused(server, {"record": state["record"], "entry": {"correct": {"deal": 1, "tricks": [6, 4, 0, 3]}}},
            400, "bad_entry", "Dorota deals and sits out")
    refused(server, {"record": state["record"], "entry": {"correct": {"deal": 1, "tricks": [6, None, 7, None]}}},
            400, "bad_entry", "give the tricks of Bolek")


@pytest.mark.parametrize(("correction", "words"), [
    ({"deal": 5, "tricks": [5, 4, 4]}, "there is no finished deal 5: deals 1 to 3 can be corrected"),
    ({"deal": 4, "tricks": [5, 4, 4]}, "deal 4 is the deal being entered"),
    ({"deal": 0, "contract": "H"}, "there is no finished deal 0"),
    ({"deal": 1, "tricks": [5, 4, 3]}, "the tricks add up to 12, not 13"),
    ({"deal": 1, "tricks": [14, 0, -1]}, "cannot take 14 tricks"),
    ({"deal": 1, "tricks": [5, 4]}, "give 3 trick counts"),
    ({"deal": 1, "contract": "XX"}, "is not a contract"),
    ({"deal": 1, "contract": "S"}, "Ala chose ♠ in deal 4 already"),
    # what is said first: a deal that is not finished, then a null for a seat in play, then the contract, then the sum
    ({"deal": 5, "tricks": [None, 4, 4]}, "there is no finished deal 5"),
    ({"deal": 4, "contract": "S", "tricks": [None, 4, 4]}, "deal 4 is the deal being entered"),
    ({"deal": 1, "contract": "S", "tricks": [None, 4, 4]}, "give the tricks of Ala"),
    ({"deal": 1, "contract": "S", "tricks": [5, 4, 3]}, "Ala chose ♠ in deal 4 already"),
])
def test_a_refused_correction_says_why_and_changes_nothing(server: ThreadServer, correction: dict[str, Any],
                                                          words: str) -> None:
    state = three_deals(server)
    state = enter(server, state, contract="S")  # deal 4, in progress: Ala chose spades
    refused(server, {"record": state["record"], "entry": {"correct": correction}}, 400, "bad_entry", words)
    again = ok(server, {"record": state["record"], "entry": None})
    assert again["record"] == state["record"] and again["totals"] == state["totals"]


@pytest.mark.parametrize("correction", [
    {"deal": 1},
    {"contract": "H"},
    {"deal": "1", "contract": "H"},
    {"deal": 1, "tricks": "5 4 4"},
    {"deal": 1, "contract": "H", "extra": 1},
])
def test_malformed_corrections_are_422(server: ThreadServer, correction: Any) -> None:
    state = three_deals(server)
    refused(server, {"record": state["record"], "entry": {"correct": correction}}, 422, "bad_request")
    refused(server, {"record": state["record"], "entry": {"correct": {"deal": 1, "contract": "H"}, "undo": True}},
            422, "bad_request")


def lookups(monkeypatch: pytest.MonkeyPatch, call: Callable[[], object]) -> list[object]:
    """The deals :meth:`ScoreKeeper.finished_deal` is asked for while *call* runs (refused or not)."""
    asked: list[object] = []
    finished_deal = ScoreKeeper.finished_deal

    def counted(keeper: ScoreKeeper, deal_no: object) -> DealRecord:
        asked.append(deal_no)
        return finished_deal(keeper, deal_no)

    with monkeypatch.context() as patch:
        patch.setattr(ScoreKeeper, "finished_deal", counted)
        with contextlib.suppress(EntryError, scorepad.ScorepadError):
            call()
    return asked


@pytest.mark.parametrize(("correction", "words"), [
    ({"deal": 1, "contract": "S", "tricks": [7, 3, 3]}, ""),
    ({"deal": 2, "contract": "C"}, ""),
    ({"deal": 3, "tricks": [5, 5, 3]}, ""),
    ({"deal": 1, "contract": "NT", "tricks": [5, 4, 3]}, "add up to 12"),
    ({"deal": 2, "tricks": [3, None, 4]}, "give the tricks of Bolek"),
    ({"deal": 7, "tricks": [None, 4, 4]}, "no finished deal 7"),
])
def test_a_correction_looks_its_deal_up_once(server: ThreadServer, monkeypatch: pytest.MonkeyPatch,
                                              correction: dict[str, Any], words: str) -> None:
    """The score pad looked the deal up, then the score keeper's correction looked it up again: now the score pad
    looks up nothing of its own beside the keeper's correction, and where it refuses the tricks before the keeper
    is asked (a null for a seat in play), it looks the deal up once, to say first that it is not finished."""
    state = three_deals(server)
    # the answer's rows look up every finished deal for its contract choices: only the correction is counted here
    monkeypatch.setattr(scorepad, "state", lambda keeper, undone, corrected: {"corrected": corrected})
    request = scorepad.ScorepadRequest.model_validate({"record": state["record"], "entry": {"correct": correction}})
    if words:
        with pytest.raises(scorepad.ScorepadError, match=words):
            scorepad.apply(request)
    else:
        assert scorepad.apply(request) == {"corrected": correction["deal"]}
    served = lookups(monkeypatch, lambda: scorepad.apply(request))
    if None in correction.get("tricks", []):  # refused by the score pad, before the keeper is asked
        assert served == [correction["deal"]]
        return
    keeper = ScoreKeeper.from_record(from_dict(state["record"]))
    kept = lookups(monkeypatch, lambda: keeper.correct(correction["deal"], correction.get("contract"),
                                                       correction.get("tricks")))
    assert served == kept and kept, (served, kept)
