"""``mizerka analyse``: the cards that cost tricks, on a record whose errors are known.

The record is made so: every card is the solver's best for the player to move, except a few cards chosen on
purpose to cost tricks.  The analysis must find exactly those, with their costs; the late ones (few cards left)
are checked once more with the pure-Python reference solver, an implementation independent of the C kernel.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest
from click.testing import CliRunner

from mizerka import analysis as analysis_module
from mizerka.analysis import MatchAnalysis, analyse, analyse_deal, format_analysis
from mizerka.bots import make_bot
from mizerka.cards import CARDS, Card
from mizerka.cli import cli
from mizerka.deal import Deal, Phase, Play
from mizerka.match import Match
from mizerka.record import MatchRecord, RecordError
from mizerka.rules import get_variant
from mizerka.solver import InvalidPositionError, Position, solve_all

NAMES = ("Ala", "Bolek", "Cezary")
MISTAKE_TRICKS = (1, 5, 11)  # the first player with a costly card in these tricks plays it


def known_errors_record(mistake_tricks: tuple[int, ...] = MISTAKE_TRICKS, *, cheapest: bool = False
                        ) -> tuple[MatchRecord, dict[tuple[int, int, Card], int]]:
    """A one-deal record: best cards everywhere but one costly card in each trick of *mistake_tricks* (the
    costliest card, or with *cheapest* the least costly one)."""
    match = Match(players=list(NAMES), seed=4)
    bot = make_bot("rules", seed=4)
    deal = match.deal
    while deal.phase is not Phase.PLAY:
        match.push(bot.decide(match.observation(match.to_move)).action)
    avoid = deal.contract is not None and deal.contract.is_mizerka
    injected: dict[tuple[int, int, Card], int] = {}
    while not deal.is_over():
        seat, trick_no = deal.to_move, len(deal.tricks) + 1
        values = solve_all(Position.from_deal(deal), seat)
        best = min(values.values()) if avoid else max(values.values())
        card = min(c for c, v in values.items() if v == best)
        if trick_no in mistake_tricks and not any(t == trick_no for t, _, _ in injected):
            costly = {c: abs(v - best) for c, v in values.items() if v != best}
            if costly:
                card = max(costly, key=lambda c: (-costly[c] if cheapest else costly[c], -c))
                injected[trick_no, seat, card] = costly[card]
        match.push(Play(card))
    return MatchRecord.from_match(match), injected


@pytest.fixture(scope="module")
def known() -> tuple[MatchRecord, dict[tuple[int, int, Card], int], MatchAnalysis]:
    record, injected = known_errors_record()
    return record, injected, analyse(record)


def test_finds_exactly_the_known_errors(
    known: tuple[MatchRecord, dict[tuple[int, int, Card], int], MatchAnalysis]
) -> None:
    _, injected, analysis = known
    assert len(injected) == len(MISTAKE_TRICKS), "the seed should allow a costly card in each chosen trick"
    (deal,) = analysis.deals
    assert len(deal.plays) == 39
    found = {(p.trick_no, p.seat, p.card): p.cost for p in deal.errors()}
    assert found == injected
    for p in deal.plays:
        assert p.cost == abs(p.value - p.best) and (p.card in p.best_cards) == (p.cost == 0)
    # the summary adds the errors up per player
    for s in analysis.summary():
        mine = {k: v for k, v in injected.items() if k[1] == s.seat}
        assert (s.errors, s.cost) == (len(mine), sum(mine.values()))
    # values are the tricks the mover ends with: after the last card of each seat, its real tricks
    for seat in range(3):
        last = [p for p in deal.plays if p.seat == seat][-1]
        assert last.value == deal.tricks_won[seat]


def test_late_errors_agree_with_the_reference_solver(
    known: tuple[MatchRecord, dict[tuple[int, int, Card], int], MatchAnalysis]
) -> None:
    record, injected, _ = known
    late = {k: v for k, v in injected.items() if k[0] >= 11}
    assert late
    reference = analyse_deal(record, 1, evaluate=lambda d: solve_all(Position.from_deal(d), d.to_move,
                                                                    impl="reference")
                             if len(d.tricks) >= 9 else {CARDS[c]: 0 for c in _legal(d.legal_play_mask())})
    found = {(p.trick_no, p.seat, p.card): p.cost for p in reference.errors() if p.trick_no >= 10}
    assert found == {k: v for k, v in injected.items() if k[0] >= 10}


def _legal(mask: int) -> list[int]:
    return [c for c in range(52) if mask >> c & 1]


def test_text_report(known: tuple[MatchRecord, dict[tuple[int, int, Card], int], MatchAnalysis]) -> None:
    _, injected, analysis = known
    text = format_analysis(analysis, unicode=False)
    assert text.count("  x cost") == len(injected)  # ASCII: x, not ✗
    for (trick_no, seat, card), cost in injected.items():
        line = next(ln for ln in text.splitlines() if f"trick {trick_no:>2}  {NAMES[seat]}" in ln and str(card) in ln)
        assert f"cost {cost} trick" in line
    assert "Summary" in text and all(name in text.split("Summary")[1] for name in NAMES)


def test_the_summary_says_one_error_and_one_trick_in_the_singular() -> None:
    """It said "1 errors, 1 tricks lost"; the columns still line up."""
    record, injected = known_errors_record((1,), cheapest=True)
    assert list(injected.values()) == [1]
    analysis = analyse(record)
    lines = format_analysis(analysis, unicode=False).split("Summary\n")[1].splitlines()
    (seat,) = {seat for _, seat, _ in injected}
    assert lines[seat].endswith(" 1 error,   1 trick lost"), lines[seat]
    others = [line for i, line in enumerate(lines) if i != seat]
    assert all(line.endswith(" 0 errors,  0 tricks lost") for line in others), others
    assert len({line.index("error") for line in lines}) == 1


def test_command_json(known: tuple[MatchRecord, dict[tuple[int, int, Card], int], MatchAnalysis],
                      tmp_path: Path) -> None:
    record, injected, _ = known
    path = tmp_path / "known.mzn"
    path.write_text(record.to_text(), encoding="utf-8")
    result = CliRunner().invoke(cli, ["analyse", str(path), "--json", "--deal", "1"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data == json.loads(json.dumps(analyse(record, perfect=True).to_dict()))  # the command adds perfect play
    errors = {(p["trick"], p["seat"], p["card"]): p["cost"] for p in data["deals"][0]["plays"] if p["cost"]}
    assert errors == {(t, s, str(c)): v for (t, s, c), v in injected.items()}


def test_bad_input(tmp_path: Path) -> None:
    runner = CliRunner()
    score_only = tmp_path / "score.mzn"
    score_only.write_text(
        '[RecordVersion "1"]\n[Variant "standard"]\n'
        '[Player0 "A"]\n[Player1 "B"]\n[Player2 "C"]\n[FirstDealer "0"]\n[Result "*"]\n\n'
        '[Deal "1"]\n[Dealer "0"]\n[Contract "NT"]\n[Tricks "4 5 4"]\n', encoding="utf-8")
    result = runner.invoke(cli, ["analyse", str(score_only)])
    assert result.exit_code == 2 and "score-only record has no cards" in result.output
    junk = tmp_path / "junk.mzn"
    junk.write_text("[Nonsense", encoding="utf-8")
    result = runner.invoke(cli, ["analyse", str(junk)])
    assert result.exit_code == 2 and "junk.mzn" in result.output and "Traceback" not in result.output
    match = Match(players=list(NAMES), seed=1)
    full = tmp_path / "full.mzn"
    full.write_text(MatchRecord.from_match(match).to_text(), encoding="utf-8")
    for deal in ("x", "2", "1-3"):
        result = runner.invoke(cli, ["analyse", str(full), "--deal", deal])
        assert result.exit_code == 2 and "--deal" in result.output
    with pytest.raises(RecordError, match="has deals 1-1, not 5"):
        analyse_deal(MatchRecord.from_match(match), 5)


LITERAL_WARNING = "ignore:variant 'seed002-literal'"  # its quotas are not zero-sum: it says so on every match


def literal_record(cards: int) -> MatchRecord:
    """A seed002-literal match (stock drawn during tricks 1-4, 17 tricks): the contract, then *cards* cards."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        match = Match(get_variant("seed002-literal"), players=list(NAMES), seed=5)
        for _ in range(1 + cards):
            match.push(next(iter(match.legal_actions)))
        return MatchRecord.from_match(match)


@pytest.mark.filterwarnings(LITERAL_WARNING)
def test_tricks_with_cards_drawn_from_the_stock_are_not_judged() -> None:
    """seed002-literal: the solver cannot take a position while the stock is drawn from (it crashed the
    analysis with HandSizeError); those tricks are listed as not judged, the later ones are judged."""
    record = literal_record(12 + 3 * 5 + 1)  # tricks 1-4 with the stock, tricks 5-9, one card of trick 10
    seen: list[int] = []

    def evaluate(deal: Deal) -> dict[Card, int]:
        assert not deal.stock, "the evaluator must never see a deal that still draws from its stock"
        seen.append(len(deal.tricks) + 1)
        return solve_all(Position.from_deal(deal), deal.to_move) if len(deal.tricks) >= 8 else {
            CARDS[c]: 0 for c in _legal(deal.legal_play_mask())}

    result = analyse_deal(record, 1, evaluate=evaluate)
    assert result.unjudged_tricks == (1, 2, 3, 4)
    assert [p.trick_no for p in result.plays] == [5, 5, 5, 6, 6, 6, 7, 7, 7, 8, 8, 8, 9, 9, 9, 10]
    assert seen and min(seen) == 5
    assert all(p.cost >= 0 and (p.card in p.best_cards) == (p.cost == 0) for p in result.plays if p.choices > 1)
    text = format_analysis(MatchAnalysis(NAMES, "seed002-literal", (result,)), unicode=False)
    assert "tricks 1-4 not judged: cards were still drawn from the stock" in text


@pytest.mark.filterwarnings(LITERAL_WARNING)
def test_command_on_a_literal_record_says_which_tricks_it_skips(tmp_path: Path) -> None:
    path = tmp_path / "literal.mzn"
    path.write_text(literal_record(4).to_text(), encoding="utf-8")  # the record stops in trick 2
    result = CliRunner().invoke(cli, ["analyse", str(path), "--ascii"])
    assert result.exit_code == 0, result.output
    assert result.exception is None  # no traceback
    assert "Deal 1: " in result.output and "tricks 1-2 not judged" in result.output
    result = CliRunner().invoke(cli, ["analyse", str(path), "--json"])
    assert result.exit_code == 0, result.output
    (deal,) = json.loads(result.stdout)["deals"]
    assert deal["unjudged_tricks"] == [1, 2] and deal["plays"] == []


@pytest.mark.filterwarnings(LITERAL_WARNING)
@pytest.mark.parametrize(("deals", "message"), [
    ("5-3", "'5-3' is an empty range"),
    ("1-", "'1-' is not a deal number or range"),
    ("1--2", "'1--2' is not a deal number or range"),
    ("-1", "'-1' is not a deal number or range"),
    ("1,,1", "'' is not a deal number or range"),
])
def test_a_bad_deal_range_is_a_usage_error(tmp_path: Path, deals: str, message: str) -> None:
    """'5-3' and '1--2' analysed nothing with exit 0, and '1-' was read as '1'."""
    path = tmp_path / "literal.mzn"
    path.write_text(literal_record(4).to_text(), encoding="utf-8")  # deal 1 has play: '1-' used to pass
    result = CliRunner().invoke(cli, ["analyse", str(path), "--deal", deals])
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit)
    assert "'--deal'" in result.output and message in result.output
    assert "analysing deal" not in result.output


@pytest.mark.filterwarnings(LITERAL_WARNING)
def test_good_deal_ranges_still_work(tmp_path: Path) -> None:
    path = tmp_path / "literal.mzn"
    path.write_text(literal_record(4).to_text(), encoding="utf-8")
    for deals in ("1", "1-1", " 1 - 1 ", "1,1"):
        result = CliRunner().invoke(cli, ["analyse", str(path), "--deal", deals, "--json"])
        assert result.exit_code == 0, result.output
        assert [d["deal"] for d in json.loads(result.stdout)["deals"]] == [1]


def test_an_error_during_the_analysis_is_a_message_not_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "full.mzn"
    path.write_text(MatchRecord.from_match(Match(players=list(NAMES), seed=1)).to_text(), encoding="utf-8")

    def broken(*args: object, **kwargs: object) -> MatchAnalysis:
        raise InvalidPositionError("a position the solver cannot take")

    monkeypatch.setattr(analysis_module, "analyse", broken)
    result = CliRunner().invoke(cli, ["analyse", str(path)])
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit), result.output
    assert "full.mzn: a position the solver cannot take" in result.output


def test_the_facts_of_a_finished_deal_and_only_of_one() -> None:
    """``deal_facts`` replays a finished deal for a review (hands at the start of play, exchanges, tricks, the
    legal cards there were); a deal still being played is refused and nothing of it is given."""
    from mizerka.analysis import deal_facts
    from mizerka.match import Match
    from mizerka.record import MatchRecord, RecordError

    match = Match(seed=5, players=["Ala", "Bolek", "Cezary"])
    for _ in range(4 + 3 * 13 + 1):  # deal 1 whole, then deal 2's contract
        match.play(match.deal.forced_action() or next(iter(match.legal_actions)))
    record = MatchRecord.from_match(match)
    facts = deal_facts(record, 1)
    assert sorted(len(hand) for hand in facts.hands.values()) == [13, 13, 13]
    assert len(facts.exchanges) == 3 and len(facts.tricks) == 13 and len(facts.choices) == 39
    played = {card for trick in facts.tricks for card in trick.cards}
    assert played == {int(c) for hand in facts.hands.values() for c in hand}
    assert facts.choices == tuple(p.choices for p in analyse_deal(record, 1, evaluate=lambda d: {
        c: 0 for c in CARDS if d.legal_play_mask() >> int(c) & 1}).plays)
    assert len(record.deals) == 2 and not record.deals[1].is_over  # deal 2: its contract chosen, no more
    with pytest.raises(RecordError, match="not over"):
        deal_facts(record, 2)


@pytest.mark.parametrize(("contract", "variant"), [("MZ", "standard"), ("H", "standard"), ("MZ", "four-players"),
                                                   ("S", "four-players")])
def test_the_verdicts_are_those_of_every_card_scored(contract: str, variant: str) -> None:
    """The analysis asks the solver only for the best cards and the card played (``solve_best``); every verdict
    must be the one that scoring every card (``solve_all``) gives, the costly cards of a careless player
    included, whether or not they end a trick; with four at the table too (the dealer sits out)."""
    rules = get_variant(variant)
    match = Match(players=[*NAMES, "Dorota"][:rules.n_seats], seed=11, rules=rules)
    match.push(match.deal.parse_action(contract))
    while match.deal.phase is not Phase.PLAY:
        match.push(match.deal.parse_action("keep"))
    deal = match.deal
    while not deal.is_over():  # the highest legal card every time: many errors in either contract
        match.push(Play(max(_legal(deal.legal_play_mask()))))
    record = MatchRecord.from_match(match)
    fast = analyse_deal(record, 1)
    every = analyse_deal(record, 1, evaluate=lambda d: solve_all(Position.from_deal(d), d.to_move))
    assert fast == every
    # errors both within a trick and with the card that ends it (whose trick the verdict must count)
    places = {sum(1 for q in fast.plays[:i] if q.trick_no == p.trick_no) for i, p in enumerate(fast.plays)
              if p.cost > 0}
    assert {0, 2} <= places
