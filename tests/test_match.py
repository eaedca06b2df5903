"""The match: schedule, contracts per player, totals, shared wins, pop across deals, score sheet (TV-D13..D17, D32);
a copy independent of the match; a refused contract names the rule that refuses it (played in the match under
``global_unique``, used twice under ``uses=2``)."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable

import pytest

from deal_helpers import play_to_the_end, played_match
from mizerka.cards import CardSet
from mizerka.deal import CHOICES, KEEP, Action, Deal, Exchange, IllegalActionError, Phase
from mizerka.match import Match, MatchError, Outcome
from mizerka.rules import STANDARD, Contract, Role, get_variant, parse_variant
from mizerka.scoresheet import ScoreSheet

C, DIA, H, S, NT, MZ = Contract


def random_action(deal: Deal, rng: random.Random) -> Action:
    if deal.phase is Phase.EXCHANGE:
        hand = list(deal.hand(deal.to_move))
        size = rng.randint(0, min(len(deal.talon), len(hand)))
        return Exchange(CardSet(rng.sample(hand, size)))
    return rng.choice(list(deal.legal_actions))


def finish_deal(match: Match, rng: random.Random, contract: Contract | None = None) -> None:
    number = match.deal_no
    if contract is not None:
        match.play(CHOICES[contract])
    while match.deal_no == number and not match.is_over():
        match.play(random_action(match.deal, rng))


def test_tv_d13_d14_d15_available_contracts() -> None:
    match = Match(first_dealer=0, seed=1)
    rng = random.Random(1)
    fh = match.deal.forehand
    assert fh == 1
    assert match.deal.allowed_contracts == set(Contract)  # TV-D13
    assert match.legal_actions.count() == 6
    # seat 1 chooses C, H, NT in deals 1, 4, 7 → TV-D14
    for contract in (C, H, NT):
        finish_deal(match, rng, contract)
        for _ in range(2):
            finish_deal(match, rng)
    assert match.deal.forehand == fh
    assert match.available_contracts(fh) == {DIA, S, MZ}
    assert set(match.legal_actions) == {CHOICES[c] for c in (DIA, S, MZ)}
    # TV-D15: after C, DIA, H, S, NT the only contract left is MZ, and it is forced
    for contract in (DIA, S):
        finish_deal(match, rng, contract)
        for _ in range(2):
            finish_deal(match, rng)
    assert match.available_contracts(fh) == {MZ}
    assert match.deal.forced_action() == CHOICES[MZ]


def test_tv_d16_schedule() -> None:
    match = Match(first_dealer=0, seed=16)
    rng = random.Random(16)
    options = []
    forehands = []
    for deal_no in range(1, 19):
        assert match.deal_no == deal_no
        assert match.dealer == (deal_no - 1) % 3
        forehands.append(match.deal.forehand)
        options.append(match.legal_actions.count())
        forced = match.deal.forced_action()
        assert (forced is not None) == (deal_no >= 16)
        finish_deal(match, rng)
    assert match.is_over()
    assert options == [6, 6, 6, 5, 5, 5, 4, 4, 4, 3, 3, 3, 2, 2, 2, 1, 1, 1]
    assert [d for d in range(1, 19) if forehands[d - 1] == 1] == [1, 4, 7, 10, 13, 16]
    assert [d for d in range(1, 19) if forehands[d - 1] == 2] == [2, 5, 8, 11, 14, 17]
    assert [d for d in range(1, 19) if forehands[d - 1] == 0] == [3, 6, 9, 12, 15, 18]
    # every seat was forehand, middlehand and dealer six times each
    for seat in range(3):
        for role in Role:
            assert sum(match.role_of(seat, d) is role for d in range(1, 19)) == 6
    assert all(sorted(u) == list(Contract) for u in match.used)


def test_tv_d17_used_contract_rejected() -> None:
    match = Match(first_dealer=0, seed=17)
    rng = random.Random(17)
    finish_deal(match, rng, H)
    finish_deal(match, rng)
    finish_deal(match, rng)
    assert match.deal.forehand == 1 and match.used[1] == [H]
    before = match.deal.copy()
    with pytest.raises(IllegalActionError, match="already used contract H"):
        match.play("H")
    assert match.deal == before and match.deal_no == 4


def test_match_ends_after_18_deals_with_zero_sum_totals() -> None:
    match = Match(seed=5)
    rng = random.Random(5)
    while not match.is_over():
        totals = match.totals
        assert sum(totals) == 0
        match.play(random_action(match.deal, rng))
    assert match.deal_no == 18 and len(match.results()) == 18
    assert match.to_move == -1
    outcome = match.outcome()
    assert outcome.totals == tuple(match.totals)
    assert max(outcome.totals) == outcome.totals[outcome.winners[0]]
    with pytest.raises(MatchError, match="over"):
        match.play("AS")
    for result in match.results():
        assert sum(result.scores) == 0 and sum(result.tricks) == 13
        assert result.chooser == (result.dealer + 1) % 3


def test_outcome_before_the_end() -> None:
    with pytest.raises(MatchError, match="not over"):
        Match(seed=1).outcome()


def test_shared_win() -> None:
    outcome = Outcome((1, 1, -2), (0, 1))
    assert outcome.shared
    assert not Outcome((3, 0, -3), (0,)).shared
    # find a real seeded match that ends level at the top and check its winners
    rules = parse_variant("standard,contracts=MZ,first_dealer=0")  # 3-deal matches
    for seed in range(200):
        match = Match(rules, seed=seed)
        rng = random.Random(seed)
        while not match.is_over():
            match.push(random_action(match.deal, rng))
        totals = match.totals
        best = max(totals)
        assert match.outcome().winners == tuple(s for s in range(3) if totals[s] == best)
        if totals.count(best) > 1:
            assert match.outcome().shared
            break
    else:
        pytest.fail("no tied 3-deal match in 200 seeds")


def test_tv_d32_three_deals() -> None:
    """Deltas and totals of TV-D32 through the score sheet, plus totals per deal sum to zero."""
    from mizerka.match import DealResult

    def result(no: int, dealer: int, contract: Contract, tricks_by_seat: tuple[int, int, int]) -> DealResult:
        scores = [0, 0, 0]
        for role in Role:
            seat = (dealer + 1 + role) % 3
            scores[seat] = STANDARD.score(role, contract, tricks_by_seat[seat])
        return DealResult(no, dealer, (dealer + 1) % 3, contract, tricks_by_seat, tuple(scores), (0, 0, 0))

    results = [
        result(1, 0, H, (2, 9, 2)),  # FH = P1 9, MH = P2 2, D = P0 2
        result(2, 1, MZ, (6, 7, 0)),  # FH = P2 0, MH = P0 6, D = P1 7
        result(3, 2, NT, (5, 4, 4)),  # FH = P0 5, MH = P1 4, D = P2 4
    ]
    assert [r.scores for r in results] == [(1, 2, -3), (-1, 0, 1), (-2, -1, 3)]
    sheet = ScoreSheet(["P0", "P1", "P2"], results)
    assert sheet.running_totals() == [[1, 2, -3], [0, 2, -2], [-2, 1, 1]]
    assert all(sum(t) == 0 for t in sheet.running_totals())
    assert sheet.totals() == [-2, 1, 1]


def test_first_dealer_by_lot_is_seeded() -> None:
    dealers = {Match(seed=s).first_dealer for s in range(30)}
    assert dealers == {0, 1, 2}
    assert Match(seed=4).first_dealer == Match(seed=4).first_dealer
    assert Match(seed=4).decks == Match(seed=4).decks
    assert Match(seed=-4).decks != Match(seed=4).decks  # random.Random(-4) would shuffle as random.Random(4)
    assert Match(seed=-4).decks == Match(seed=-4).decks
    assert Match(first_dealer=2, seed=1).dealer == 2
    assert Match(parse_variant("standard,first_dealer=1"), seed=9).dealer == 1


def test_given_decks_are_used_in_order() -> None:
    decks = [list(range(52)), list(reversed(range(52)))]
    match = Match(decks=decks, seed=1, first_dealer=0)
    assert match.deal.deck == tuple(range(52))
    rng = random.Random(0)
    finish_deal(match, rng)
    assert match.deal.deck == tuple(reversed(range(52)))
    finish_deal(match, rng)
    assert len(set(match.deal.deck)) == 52  # later decks are shuffled from the seed


def test_bad_match_setups() -> None:
    with pytest.raises(MatchError, match="seats 3 players, not 2"):
        Match(players=["a", "b"])
    with pytest.raises(MatchError, match="differ"):
        Match(players=["a", "a", "b"])
    with pytest.raises(MatchError, match="first dealer"):
        Match(first_dealer=3)
    with pytest.raises(MatchError, match="52 cards"):
        Match(decks=[[0, 1, 2]])
    with pytest.raises(MatchError, match="twice"):
        Match(decks=[[0] * 52])


@pytest.mark.parametrize("players", [5, 3.0, {"a", "b", "c"}, iter(["a", "b", "c"])])
def test_players_that_are_no_list_of_names_are_refused(players: object) -> None:
    """Each used to fail with a ``TypeError`` (``'int' object is not iterable``), or was taken as it came."""
    with pytest.raises(MatchError, match="players must be a list of 3 names"):
        Match(players=players)  # type: ignore[arg-type]


def test_names_that_are_not_text_are_refused() -> None:
    """``[1, 2, 3]`` used to become the names "1", "2", "3" without a word."""
    with pytest.raises(MatchError, match="a player's name is text, not 1"):
        Match(players=[1, 2, 3])  # type: ignore[list-item]


@pytest.mark.parametrize("decks", [{}, {0: list(range(52))}, set(), frozenset()])
def test_decks_in_no_order_are_refused(decks: object) -> None:
    """A dict (its keys) or a set has no deal order; an empty dict used to pass for "no decks"."""
    with pytest.raises(MatchError, match="decks must be a list of deck orders"):
        Match(decks=decks)  # type: ignore[arg-type]


def test_decks_that_cannot_be_iterated_are_refused() -> None:
    """A 0-d NumPy array claims to be iterable, then raises ``TypeError``."""
    np = pytest.importorskip("numpy", reason="NumPy (the rl and dev extras) makes the 0-d array")
    with pytest.raises(MatchError, match="decks must be a list of deck orders"):
        Match(decks=np.array(3.0))


def test_pop_across_the_deal_boundary() -> None:
    match = Match(seed=12)
    rng = random.Random(12)
    finish_deal(match, rng)
    assert match.deal_no == 2 and match.deal.history == []
    deck2 = match.decks[1]
    totals = match.totals
    last = match.pop()
    assert match.deal_no == 1 and match.deal.phase is Phase.PLAY
    assert len(match.deal.history) == 42 and match.totals == [0, 0, 0]
    match.push(last)
    assert match.deal_no == 2 and match.decks[1] == deck2 and match.totals == totals
    # popping everything returns to the very start
    while match.deal_no > 1 or match.deal.history:
        match.pop()
    assert match.deal.history == [] and match.deal.phase is Phase.CHOOSE
    with pytest.raises(IndexError):
        match.pop()


def test_pop_then_replay_reproduces_the_match() -> None:
    a = Match(seed=33)
    rng = random.Random(33)
    actions = []
    for _ in range(3):
        while True:
            action = random_action(a.deal, rng)
            actions.append(action)
            number = a.deal_no
            a.push(action)
            if a.deal_no != number:
                break
    for _ in range(len(actions)):
        a.pop()
    for action in actions:
        a.play(action)
    b = Match(seed=33)
    for action in actions:
        b.play(action)
    assert a.decks == b.decks and a.totals == b.totals and a.history() == b.history()


def test_forced_sixth_choice_is_still_recorded() -> None:
    rules = parse_variant("standard,contracts=NT,first_dealer=0")  # every choice is forced
    match = Match(rules, seed=2)
    assert match.deal.forced_action() == CHOICES[NT]
    match.play(match.deal.forced_action())  # type: ignore[arg-type]
    assert match.deal.history == [CHOICES[NT]]


def test_four_players_match() -> None:
    rules = get_variant("four-players")
    match = Match(rules, seed=4)
    rng = random.Random(4)
    sitting_out = []
    while not match.is_over():
        if not match.deal.history:
            sitting_out.append(match.dealer)
            assert match.deal.hands[match.dealer] == 0
        match.push(random_action(match.deal, rng))
    assert len(match.results()) == 24
    assert sitting_out == [(match.first_dealer + i) % 4 for i in range(24)]
    assert all(sorted(u) == list(Contract) for u in match.used)
    assert sum(match.totals) == 0
    for result in match.results():
        assert result.scores[result.dealer] == 0


def test_uses_per_contract_and_global_unique() -> None:
    rules = parse_variant("standard,contracts=NT+MZ,uses=2,first_dealer=0")
    match = Match(rules, seed=3)
    rng = random.Random(3)
    while not match.is_over():
        match.push(random_action(match.deal, rng))
    assert len(match.results()) == 12
    assert all(sorted(u) == [NT, NT, MZ, MZ] for u in match.used)
    short = parse_variant("standard,global_unique,first_dealer=0")
    match = Match(short, seed=3)
    chosen = []
    while not match.is_over():
        if match.deal.phase is Phase.CHOOSE:
            assert set(match.deal.allowed_contracts) == set(Contract) - set(chosen)
            action = random_action(match.deal, rng)
            chosen.append(action[0])
            match.push(action)
        else:
            match.push(random_action(match.deal, rng))
    assert sorted(chosen) == list(Contract) and len(match.results()) == 6


def test_observation_carries_match_facts() -> None:
    match = Match(seed=8, first_dealer=0)
    rng = random.Random(8)
    finish_deal(match, rng)
    obs = match.observation(0)
    assert obs.deal_no == 2
    assert obs.totals == tuple(match.totals)
    assert obs.used == tuple(tuple(u) for u in match.used)


def test_score_sheet_text() -> None:
    match = Match(seed=7, players=["Ala", "Bolek", "Cezary"], first_dealer=0)
    rng = random.Random(7)
    assert str(match.score_sheet()).splitlines()[0].split() == ["player", "♣", "♦", "♥", "♠", "NT", "MZ", "total"]
    for _ in range(4):
        finish_deal(match, rng)
    sheet = match.score_sheet()
    text = str(sheet)
    grid, table = text.split("\n\n")
    assert grid == sheet.grid() and table == sheet.table()
    rows = table.splitlines()
    assert rows[0].split() == ["deal", "dealer", "chooser", "contract", "goal", "tricks",
                               "Ala", "Bolek", "Cezary", "|", "Ala", "Bolek", "Cezary"]
    assert len(rows) == 5
    running = [0, 0, 0]
    for row, result in zip(rows[1:], match.results(), strict=True):
        cells = row.split()
        assert cells[0] == str(result.deal_no)
        assert cells[1] == match.players[result.dealer] and cells[2] == match.players[result.chooser]
        assert cells[3] == result.contract.symbol
        assert cells[4] == ("avoid" if result.contract is MZ else "take")
        assert [int(x) for x in cells[5:8]] == list(result.tricks)
        assert [int(x) for x in cells[8:11]] == list(result.scores)
        running = [r + s for r, s in zip(running, result.scores, strict=True)]
        assert [int(x) for x in cells[12:15]] == running
    for line, name, used, total in zip(grid.splitlines()[1:], match.players, match.used, match.totals,
                                       strict=True):
        cells = line.split()
        assert cells[0] == name and cells.count("X") == len(used)
        assert int(cells[-1]) == total


def test_repr() -> None:
    assert "deal 1/18" in repr(Match(seed=1))


def test_exchange_keep_in_match() -> None:
    match = Match(seed=1)
    match.play("NT")
    match.play(KEEP)
    assert match.deal.exchange_counts[match.deal.forehand] == 0


# -- copying a match -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("make_copy", [copy.copy, Match.copy], ids=["copy.copy", "Match.copy"])
def test_a_match_copy_is_independent(make_copy: Callable[[Match], Match]) -> None:
    match = played_match(seed=3, actions=50)
    history, decks, deal_no = match.history(), list(match.decks), match.deal_no
    twin = make_copy(match)
    assert twin.history() == history and twin.decks == decks
    play_to_the_end(twin, random.Random(9))
    assert match.history() == history and match.decks == decks and match.deal_no == deal_no
    play_to_the_end(match, random.Random(9))  # the same actions from the same state: the same match
    assert match.history() == twin.history() and match.decks == twin.decks and match.totals == twin.totals
    twin.pop()
    assert match.is_over() and not twin.is_over()


# -- a refused contract names the rule that refuses it ---------------------------------------------------------------


def test_a_contract_gone_under_global_unique_is_refused_as_played_in_the_match() -> None:
    """Under ``global_unique`` a contract is gone once anybody chose it: the refusal says so, and does not say the
    forehand used it (he never did)."""
    match = Match(parse_variant("standard,global_unique"), seed=1, first_dealer=0)
    match.play("H")
    while match.deal_no == 1:
        match.play(KEEP if match.deal.phase is Phase.EXCHANGE else next(iter(match.legal_actions)))
    assert Contract.HEARTS not in match.used[match.deal.forehand]
    with pytest.raises(IllegalActionError, match="contract H has already been played in this match") as refused:
        match.play("H")
    assert "forehand" not in str(refused.value)


def test_a_contract_used_up_under_uses_2_says_twice() -> None:
    deal_rules = parse_variant("standard,uses=2")
    match = Match(deal_rules, seed=1, first_dealer=0)
    hearts = 0
    while hearts < 3:
        deal = match.deal
        if deal.phase is Phase.CHOOSE and deal.to_move == 1:
            if Contract.HEARTS in deal.allowed_contracts:
                match.play("H")
                hearts += 1
                continue
            with pytest.raises(IllegalActionError, match=r"seat 1\) has already used contract H twice"):
                match.play("H")
            break
        match.play(KEEP if deal.phase is Phase.EXCHANGE else next(iter(match.legal_actions)))
    assert hearts == 2
