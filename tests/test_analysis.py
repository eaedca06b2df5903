"""``mizerka analyse``: the cards that cost tricks, on a record whose errors are known.

The record is made so: every card is the solver's best for the player to move, except a few cards chosen on
purpose to cost tricks.  The analysis must find exactly those, with their costs; the late ones (few cards left)
are checked once more with the pure-Python reference solver, an implementation independent of the C kernel.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from mizerka.analysis import MatchAnalysis, analyse, analyse_deal, format_analysis
from mizerka.bots import make_bot
from mizerka.cards import CARDS, Card
from mizerka.cli import cli
from mizerka.deal import Phase, Play
from mizerka.match import Match
from mizerka.record import MatchRecord, RecordError
from mizerka.solver import Position, solve_all

NAMES = ("Ala", "Bolek", "Cezary")
MISTAKE_TRICKS = (1, 5, 11)  # the first player with a costly card in these tricks plays it


def known_errors_record() -> tuple[MatchRecord, dict[tuple[int, int, Card], int]]:
    """A one-deal record: best cards everywhere but one costly card in each trick of MISTAKE_TRICKS."""
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
        if trick_no in MISTAKE_TRICKS and not any(t == trick_no for t, _, _ in injected):
            costly = {c: abs(v - best) for c, v in values.items() if v != best}
            if costly:
                card = max(costly, key=lambda c: (costly[c], -c))
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
    assert text.count("✗ cost") == len(injected)
    for (trick_no, seat, card), cost in injected.items():
        line = next(ln for ln in text.splitlines() if f"trick {trick_no:>2}  {NAMES[seat]}" in ln and str(card) in ln)
        assert f"cost {cost} trick" in line
    assert "Summary" in text and all(name in text.split("Summary")[1] for name in NAMES)


def test_command_json(known: tuple[MatchRecord, dict[tuple[int, int, Card], int], MatchAnalysis],
                      tmp_path: Path) -> None:
    record, injected, analysis = known
    path = tmp_path / "known.mzn"
    path.write_text(record.to_text(), encoding="utf-8")
    result = CliRunner().invoke(cli, ["analyse", str(path), "--json", "--deal", "1"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data == json.loads(json.dumps(analysis.to_dict()))
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
