"""Golden matches: seeded random matches stored as deck orders and action codes, with their scores.

Any change to the engine that alters play (dealing, legality, trick winners, scoring, the seeded deck orders
or the order of legal actions) changes these results and fails here.  After an *intended* change of rules,
rebuild the file and review the diff::

    python tests/test_golden.py --regenerate
"""

from __future__ import annotations

import json
import random
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest

from mizerka.cards import CardSet
from mizerka.deal import Action, Deal, Exchange, Phase, action_from_code
from mizerka.match import Match
from mizerka.rules import Rules, parse_variant

GOLDEN = Path(__file__).parent / "data" / "golden_matches.json"

CASES = [
    ("standard", 1),
    ("standard", 2),
    ("standard,show_trump_card,seed002-blocks", 3),
    ("no-exchange", 4),
    ("four-players", 5),
    ("seed002-literal", 6),
    ("standard,contracts=NT+MZ,uses=2,first_dealer=1", 7),
]


def rules_for(spec: str) -> Rules:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # seed002-literal warns that it is not zero-sum
        return parse_variant(spec)


def random_action(deal: Deal, rng: random.Random) -> Action:
    """The random policy of the golden matches: an exchange of random size, otherwise a random legal action."""
    if deal.phase is Phase.EXCHANGE:
        hand = list(deal.hand(deal.to_move))
        size = rng.randint(0, min(len(deal.talon), len(hand)))
        return Exchange(CardSet(rng.sample(hand, size)))
    return rng.choice(list(deal.legal_actions))


def generate(spec: str, seed: int) -> dict[str, Any]:
    """Play one match: deck orders from ``Match(seed=seed)``, actions from ``random.Random(seed + 1000)``."""
    match = Match(rules_for(spec), seed=seed)
    rng = random.Random(seed + 1000)
    while not match.is_over():
        match.play(random_action(match.deal, rng))
    return {
        "rules": spec,
        "seed": seed,
        "first_dealer": match.first_dealer,
        "decks": [list(deck) for deck in match.decks],
        "actions": [[action.code for action in deal.history] for deal in match.deals],
        "contracts": [str(r.contract) for r in match.results()],
        "tricks": [list(r.tricks) for r in match.results()],
        "scores": [list(r.scores) for r in match.results()],
        "totals": match.totals,
        "winners": list(match.outcome().winners),
    }


def load() -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = json.loads(GOLDEN.read_text())["matches"]
    return data


def test_golden_file_covers_the_cases() -> None:
    assert [(m["rules"], m["seed"]) for m in load()] == CASES


@pytest.mark.parametrize("index", range(len(CASES)))
def test_replaying_recorded_actions_gives_the_recorded_scores(index: int) -> None:
    record = load()[index]
    rules = rules_for(record["rules"])
    match = Match(rules, decks=record["decks"], first_dealer=record["first_dealer"])
    for number, codes in enumerate(record["actions"], start=1):
        assert match.deal_no == number
        assert match.deal.deck == tuple(record["decks"][number - 1])
        for code in codes:
            match.play(action_from_code(code))  # checked: every recorded action must still be legal
    assert match.is_over()
    results = match.results()
    assert [str(r.contract) for r in results] == record["contracts"]
    assert [list(r.tricks) for r in results] == record["tricks"]
    assert [list(r.scores) for r in results] == record["scores"]
    assert match.totals == record["totals"]
    assert list(match.outcome().winners) == record["winners"]


@pytest.mark.parametrize("index", range(len(CASES)))
def test_regenerating_gives_the_same_match(index: int) -> None:
    """The seeded deck orders and the random policy still produce exactly the stored match."""
    record = load()[index]
    assert generate(record["rules"], record["seed"]) == record


def regenerate() -> None:
    matches = [generate(spec, seed) for spec, seed in CASES]
    text = json.dumps({"about": __doc__.splitlines()[0], "matches": matches}, separators=(",", ":"))
    GOLDEN.write_text(text.replace('{"rules"', '\n{"rules"') + "\n")
    print(f"wrote {len(matches)} matches to {GOLDEN}")


if __name__ == "__main__":
    if sys.argv[1:] == ["--regenerate"]:
        regenerate()
    else:
        sys.exit("usage: python tests/test_golden.py --regenerate")
