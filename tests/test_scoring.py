"""Scoring against quotas (RULES.md §2.8): TV-S1..S3 and TV-D1..D12, and a score for an impossible trick count
refused.  Per-deal scores that do not sum to zero under zero-sum rules fail loudly, under ``python -O`` too; rules
that are not zero-sum are not asserted (RULES.md §8.5)."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from mizerka.deal import KEEP, Deal, Phase
from mizerka.match import DealResult
from mizerka.rules import STANDARD, VARIANTS, Contract, Role, Rules, RulesError, get_variant
from mizerka.scoresheet import ScoreSheet
from test_rules import quiet

C, DIA, H, S, NT, MZ = Contract


def deltas(contract: Contract, tricks: tuple[int, int, int]) -> tuple[int, ...]:
    """Scores of (FH, MH, D) for the tricks they took."""
    assert sum(tricks) == 13
    return tuple(STANDARD.score(role, contract, t) for role, t in zip(Role, tricks, strict=True))


def test_tv_s1_ordinary_worked_example() -> None:
    assert deltas(H, (9, 2, 2)) == (2, -3, 1)


def test_tv_s2_mizerka_worked_example() -> None:
    assert deltas(MZ, (9, 2, 2)) == (-8, 3, 5)


@pytest.mark.parametrize(
    ("vector", "contract", "tricks", "expected"),
    [
        ("TV-D1", NT, (0, 6, 7), (-7, 1, 6)),
        ("TV-D2", S, (13, 0, 0), (6, -5, -1)),
        ("TV-D3", C, (0, 0, 13), (-7, -5, 12)),
        ("TV-D4", NT, (0, 13, 0), (-7, 8, -1)),
        ("TV-D5", MZ, (0, 6, 7), (1, -1, 0)),
        ("TV-D6", MZ, (13, 0, 0), (-12, 5, 7)),
        ("TV-D7", MZ, (0, 0, 13), (1, 5, -6)),
        ("TV-D8", MZ, (0, 13, 0), (1, -8, 7)),
        ("TV-D9a", DIA, (7, 5, 1), (0, 0, 0)),
        ("TV-D9b", MZ, (1, 5, 7), (0, 0, 0)),
        ("TV-D10", MZ, (7, 5, 1), (-6, 0, 6)),
        ("TV-D11", NT, (5, 4, 4), (-2, -1, 3)),
        ("TV-D12", H, (6, 6, 1), (-1, 1, 0)),
    ],
)
def test_tv_d1_to_d12(vector: str, contract: Contract, tricks: tuple[int, int, int], expected: tuple[int, ...]) -> None:
    assert deltas(contract, tricks) == expected, vector
    assert sum(expected) == 0


def test_score_ranges() -> None:
    """RULES.md §2.8: ordinary FH −7..+6, MH −5..+8, D −1..+12; Mizerka FH +1..−12, MH +5..−8, D +7..−6."""
    ranges = {
        (Role.FOREHAND, False): (-7, 6), (Role.MIDDLEHAND, False): (-5, 8), (Role.DEALER, False): (-1, 12),
        (Role.FOREHAND, True): (-12, 1), (Role.MIDDLEHAND, True): (-8, 5), (Role.DEALER, True): (-6, 7),
    }
    for (role, mizerka), (low, high) in ranges.items():
        contract = MZ if mizerka else H
        values = [STANDARD.score(role, contract, t) for t in range(14)]
        assert (min(values), max(values)) == (low, high)


def test_every_split_is_zero_sum() -> None:
    for contract in Contract:
        for fh in range(14):
            for mh in range(14 - fh):
                assert sum(deltas(contract, (fh, mh, 13 - fh - mh))) == 0


def sheet_results(seating: str, deals: list[tuple[str, str, Contract, dict[str, int]]]) -> list[DealResult]:
    """DealResults for deals given as (dealer, chooser, contract, tricks by player name) at this seating."""
    results = []
    for number, (dealer, chooser, contract, tricks) in enumerate(deals, start=1):
        d = seating.index(dealer)
        fh, mh = (d + 1) % 3, (d + 2) % 3
        assert seating[fh] == chooser
        roles = {fh: Role.FOREHAND, mh: Role.MIDDLEHAND, d: Role.DEALER}
        won = tuple(tricks[name] for name in seating)
        scores = tuple(STANDARD.score(roles[seat], contract, won[seat]) for seat in range(3))
        results.append(DealResult(number, d, fh, contract, won, scores, (0, 0, 0)))
    return results


def test_tv_s3_reconstruction_seating_abc_per_deal_reading() -> None:
    results = sheet_results(
        "ABC",
        [("C", "A", H, {"A": 5, "B": 4, "C": 4}), ("A", "B", MZ, {"A": 7, "B": 3, "C": 3})],
    )
    assert results[0].scores == (-2, -1, 3)
    assert results[1].scores == (0, -2, 2)
    sheet = ScoreSheet(["A", "B", "C"], results)
    grid = sheet.grid().splitlines()
    assert grid[0].split() == ["player", "♣", "♦", "♥", "♠", "NT", "MZ", "total"]
    assert grid[1].split() == ["A", "X", "-2"]  # A used hearts
    assert grid[2].split() == ["B", "X", "-3"]  # B used Mizerka
    assert grid[3].split() == ["C", "+5"]
    assert grid[1].index("X") == grid[0].index("♥")
    assert grid[2].index("X") == grid[0].index("MZ")


def test_tv_s3_reconstruction_seating_abc_running_total_reading() -> None:
    results = sheet_results(
        "ABC",
        [("C", "A", H, {"A": 5, "B": 4, "C": 4}), ("A", "B", MZ, {"A": 5, "B": 2, "C": 6})],
    )
    assert results[1].scores == (2, -1, -1)
    assert ScoreSheet(["A", "B", "C"], results).running_totals() == [[-2, -1, 3], [0, -2, 2]]


def test_tv_s3_reconstruction_seating_acb() -> None:
    # seating A → C → B: deal 1 dealer C, B = FH chooses MZ (A = MH, C = D); deal 2 dealer B, A = FH chooses ♥
    results = sheet_results(
        "ACB",
        [("C", "B", MZ, {"B": 2, "A": 7, "C": 4}), ("B", "A", H, {"A": 9, "C": 4, "B": 0})],
    )
    by_name = [dict(zip("ACB", r.scores, strict=True)) for r in results]
    assert by_name[0] == {"A": -2, "B": -1, "C": 3}
    assert by_name[1] == {"A": 2, "B": -1, "C": -1}
    running = ScoreSheet(list("ACB"), results).running_totals()
    assert dict(zip("ACB", running[1], strict=True)) == {"A": 0, "B": -2, "C": 2}
    # the per-deal reading is impossible here: B as dealer would need -1 tricks to score -2 in hearts
    assert all(STANDARD.score(Role.DEALER, H, t) != -2 for t in range(14))


def test_deal_scores_map_roles_to_seats() -> None:
    rng = random.Random(3)
    for seed in range(30):
        deal = Deal.random(seed, dealer=seed % 3)
        while not deal.is_over():
            if deal.phase is Phase.EXCHANGE:
                deal.push(next(iter(deal.legal_actions)))
            else:
                deal.push(rng.choice(list(deal.legal_actions)))
        assert deal.contract is not None
        scores = deal.scores()
        for role, seat in enumerate(deal.active_seats):
            assert scores[seat] == STANDARD.score(role, deal.contract, deal.tricks_won[seat])
        assert sum(scores) == 0


def test_four_players_dealer_scores_zero() -> None:
    rules = get_variant("four-players")
    rng = random.Random(1)
    deal = Deal.random(2, rules=rules, dealer=3)
    while not deal.is_over():
        if deal.phase is Phase.EXCHANGE:
            deal.push(next(iter(deal.legal_actions)))
        else:
            deal.push(rng.choice(list(deal.legal_actions)))
    scores = deal.scores()
    assert scores[3] == 0 and deal.tricks_won[3] == 0 and len(scores) == 4
    assert sum(scores) == 0
    assert deal.contract is not None
    for role, seat in enumerate(deal.active_seats):
        assert scores[seat] == rules.score(role, deal.contract, deal.tricks_won[seat])


# -- a score for an impossible trick count ---------------------------------------------------------------------------


@pytest.mark.parametrize("tricks", [14, -1, True, 9.5, "9", None])
def test_a_score_for_an_impossible_trick_count_is_refused(tricks: object) -> None:
    with pytest.raises(RulesError, match="tricks must be a whole number 0-13"):
        STANDARD.score(Role.FOREHAND, Contract.HEARTS, tricks)  # type: ignore[arg-type]
    assert STANDARD.score(Role.FOREHAND, Contract.HEARTS, 13) == 6
    assert STANDARD.score(Role.DEALER, Contract.MIZERKA, 0) == 7


# -- per-deal scores sum to zero (RULES.md §8.5) ---------------------------------------------------------------------


def finished_deal(rules: Rules) -> Deal:
    deal = Deal.random(5, rules=rules, dealer=0)
    deal.play("H")
    while not deal.is_over():
        deal.push(KEEP if deal.phase is Phase.EXCHANGE else next(iter(deal.legal_actions)))
    return deal


def test_scores_that_do_not_sum_to_zero_under_zero_sum_rules_fail_loudly() -> None:
    deal = finished_deal(STANDARD)
    assert sum(deal.scores()) == 0
    deal.tricks_won[deal.forehand] += 1  # a corrupted deal: 14 tricks
    with pytest.raises(AssertionError, match=r"do not sum to zero under zero-sum rules 'standard'"):
        deal.scores()


def test_non_zero_sum_rules_are_not_asserted() -> None:
    literal = quiet(lambda: VARIANTS["seed002-literal"])
    assert isinstance(literal, Rules) and not literal.zero_sum
    deal = finished_deal(literal)
    assert sum(deal.scores()) != 0


def test_the_zero_sum_check_survives_python_dash_o() -> None:
    code = (
        "from mizerka import Deal, Phase\n"
        "from mizerka.deal import KEEP\n"
        "d = Deal.random(5, dealer=0); d.play('H')\n"
        "while not d.is_over(): d.push(KEEP if d.phase is Phase.EXCHANGE else next(iter(d.legal_actions)))\n"
        "d.tricks_won[d.forehand] += 1\n"
        "try:\n    d.scores()\nexcept AssertionError:\n    print('asserted')\n"
    )
    result = subprocess.run([sys.executable, "-O", "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert result.stdout.strip() == "asserted"
