"""``mizerka analyse`` as a player reads it: "what would perfect play have scored, and where did the play go
wrong?", on real records of bots' matches (the committed ``tests/data/records/standard-seed7.mzn``, and matches
played here).

* Each card's verdict (``value``, ``best``, ``best_cards``, ``cost``, ``choices``) agrees with the solver recomputed
  independently (each legal card pushed on a copy of the deal, then :func:`mizerka.solver.solve` for the player who
  played it) in a trump, a no-trump and a Mizerka deal.  A forced card gets the value of its own position (it took
  the value of the seat's next card with a choice, which an error in between changes), by the solver or by the
  evaluator given, in a deal in progress too.  Cards are named as the rule book writes them (``10♠``; ``TS`` with
  ``--ascii``).
* Perfect play: ``analyse_deal(..., perfect=True)`` (what the command asks for) fills ``DealAnalysis.perfect`` (each
  active seat's paranoid value at the start of play, the tricks already won counted), ``perfect_scores`` and
  ``perfect_from`` (1; in seed002-literal the first trick the solver can take); the text prints a ``perfect play:``
  line under the tricks and scores as played, the JSON has ``perfect`` and ``scores``.  The reviews of the line game
  and the server, which call ``analyse_deal`` within time limits, never ask for it.
* The deal's line names the seats as the rule book does (``forehand Ala chose …; middlehand Bolek, dealer Cezary``;
  with four at the table ``C in the dealer's place; dealer D sits out``); ``DealAnalysis.roles`` and the JSON
  ``roles`` keep each seat's role.
* docs/analysis.md: its example is deal 11 of ``standard-seed7.mzn`` as the command prints it (checked line by line),
  it names every JSON key of a deal, and ``mizerka analyse --help`` states the speed it measures.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from mizerka.analysis import analyse, analyse_deal, format_analysis
from mizerka.bots import make_bot
from mizerka.cards import CARDS, Card, CardSet
from mizerka.cli import cli
from mizerka.deal import Deal, Phase, Play
from mizerka.match import Match
from mizerka.record import MatchRecord, read
from mizerka.rules import Role, get_variant, parse_variant
from mizerka.solver import Position, solve, solve_all

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "data" / "records" / "standard-seed7.mzn"
DOCS = ROOT / "docs" / "analysis.md"
TRUMP, NO_TRUMP, MIZERKA = 11, 14, 3  # deals of the golden record: diamonds, no-trump, Mizerka


@pytest.fixture(scope="module")
def golden() -> MatchRecord:
    return read(GOLDEN)


def replay_to_first_card(record: MatchRecord, deal_no: int) -> Deal:
    drec = record.deals[deal_no - 1]
    assert drec.deck is not None
    deal = Deal(drec.deck, rules=record.rules, dealer=drec.dealer)
    for action in drec.actions():
        if isinstance(action, Play):
            return deal
        deal.push(action)
    raise AssertionError("no card played")


def independent_verdicts(record: MatchRecord, deal_no: int) -> list[dict[str, object]]:
    """Each card of the deal judged from scratch: every legal card pushed on a copy, then the solver's value for the
    player who played it (the tricks he has after the card, plus those the solver gives him from there)."""
    drec = record.deals[deal_no - 1]
    assert drec.deck is not None and drec.contract is not None
    avoid = drec.contract.is_mizerka
    deal = Deal(drec.deck, rules=record.rules, dealer=drec.dealer)
    out = []
    for action in drec.actions():
        if isinstance(action, Play):
            seat = deal.to_move
            legal = [c for c in range(52) if deal.legal_play_mask() >> c & 1]
            values = {}
            for card in legal:
                after = deal.copy()
                after.push(Play(CARDS[card]))
                rest = 0 if after.is_over() else solve(Position.from_deal(after), seat)
                values[card] = after.tricks_won[seat] + rest
            best = min(values.values()) if avoid else max(values.values())
            out.append({"seat": seat, "card": CARDS[action.card], "value": values[action.card], "best": best,
                        "best_cards": tuple(CARDS[c] for c in sorted(legal) if values[c] == best),
                        "cost": abs(values[action.card] - best), "choices": len(legal)})
        deal.push(action)
    return out


# -- each card's verdict ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("deal_no", [TRUMP, NO_TRUMP, MIZERKA])
def test_every_verdict_agrees_with_the_solver_recomputed_independently(golden: MatchRecord, deal_no: int) -> None:
    result = analyse_deal(golden, deal_no)
    got = [{"seat": p.seat, "card": p.card, "value": p.value, "best": p.best,
            "best_cards": tuple(sorted(p.best_cards)), "cost": p.cost, "choices": p.choices} for p in result.plays]
    expected = independent_verdicts(golden, deal_no)
    assert got == [{**e, "best_cards": tuple(sorted(e["best_cards"]))} for e in expected]  # type: ignore[call-overload]
    assert {str(golden.deals[deal_no - 1].contract)} <= {"D", "NT", "MZ"}
    # a mistake is exactly a card worse than the best for its player
    assert all(p.is_error == (p.value < p.best if not result.contract.is_mizerka else p.value > p.best)
               for p in result.plays)


def _record_with_errors_after_forced_cards(seed: int) -> MatchRecord:
    """One deal played with the solver's best cards, except that a seat's first card with a choice after a forced
    card is a costly one whenever there is one."""
    match = Match(players=["A", "B", "C"], seed=seed)
    bot = make_bot("rules", seed=seed)
    deal = match.deal
    while deal.phase is not Phase.PLAY:
        match.push(bot.decide(match.observation(match.to_move)).action)
    avoid = deal.contract is not None and deal.contract.is_mizerka
    forced: set[int] = set()
    while not deal.is_over():
        seat = deal.to_move
        values = solve_all(Position.from_deal(deal), seat)
        best = min(values.values()) if avoid else max(values.values())
        card = min(c for c, v in values.items() if v == best)
        if len(values) == 1:
            forced.add(seat)
        elif seat in forced:
            forced.discard(seat)
            card = min((c for c, v in values.items() if v != best), default=card)
        match.push(Play(card))
    return MatchRecord.from_match(match)


def test_a_forced_card_gets_the_value_of_its_own_position() -> None:
    """A forced card took the value of the seat's next card with a choice, which an error of that card (or of the
    others in between) changes: here the forced three of clubs in trick 2 was given 8 tricks where the position
    is worth 7."""
    record = _record_with_errors_after_forced_cards(1)
    result = analyse_deal(record, 1)
    drec = record.deals[0]
    deal = Deal(drec.deck, rules=record.rules, dealer=drec.dealer)
    verdicts = iter(result.plays)
    forced = 0
    for action in drec.actions():
        if isinstance(action, Play):
            verdict = next(verdicts)
            if verdict.choices == 1:
                forced += 1
                worth = deal.tricks_won[deal.to_move] + solve(Position.from_deal(deal), deal.to_move)
                assert (verdict.value, verdict.best, verdict.cost) == (worth, worth, 0), verdict
                assert verdict.best_cards == (verdict.card,)
        deal.push(action)
    assert forced and result.errors()


def test_forced_cards_are_valued_by_the_evaluator_even_in_a_deal_in_progress() -> None:
    """With the evaluator given, a forced card's value is its tricks so far plus the evaluator's value (a forced
    card at the end of a deal in progress was -1)."""
    match = Match(players=["A", "B", "C"], seed=2)
    for _ in range(4 + 3 * 12):
        match.play(match.deal.forced_action() or next(iter(match.legal_actions)))
    record = MatchRecord.from_match(match)

    def evaluate(deal: Deal) -> dict[Card, int]:
        return {card: len(deal.tricks) + card % 3 for card in CardSet(deal.legal_play_mask())}

    result = analyse_deal(record, 1, evaluate=evaluate)
    assert not record.to_match().deal.is_over()
    forced = [p for p in result.plays if p.choices == 1]
    assert forced
    assert all(p.value == p.best >= 0 and p.cost == 0 for p in forced)
    # each card's value, forced or not, is the seat's tricks before it plus the evaluator's value of that card
    drec = record.deals[0]
    assert drec.deck is not None
    deal = Deal(drec.deck, rules=record.rules, dealer=drec.dealer)
    verdicts = iter(result.plays)
    for action in drec.actions():
        if isinstance(action, Play):
            verdict = next(verdicts)
            assert verdict.value == deal.tricks_won[verdict.seat] + evaluate(deal)[verdict.card]
        deal.push(action)


def test_the_cards_are_named_as_printed_everywhere(golden: MatchRecord) -> None:
    """A card of the verdicts reads as the rule book writes it (``10♥``; ``TH`` with ``--ascii``)."""
    text = format_analysis(analyse(golden, [TRUMP]), unicode=True)
    assert re.search(r"trick  1  Bolek    10♠  best", text)
    ascii_text = format_analysis(analyse(golden, [TRUMP]), unicode=False)
    assert "TS" in ascii_text and all(ord(ch) < 128 for ch in ascii_text)
    assert Card.from_str("TS").unicode() == "10♠"


# -- perfect play ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("deal_no", [TRUMP, NO_TRUMP, MIZERKA])
def test_perfect_play_is_each_seats_paranoid_value_at_the_start_of_play(golden: MatchRecord, deal_no: int) -> None:
    result = analyse_deal(golden, deal_no, perfect=True)
    start = replay_to_first_card(golden, deal_no)
    position = Position.from_deal(start)
    tricks = [solve(position, seat) for seat in range(3)]
    contract = golden.deals[deal_no - 1].contract
    assert contract is not None
    scores = [golden.rules.score(start.role(seat) or Role.FOREHAND, contract, tricks[seat]) for seat in range(3)]
    assert result.perfect == tuple(tricks) and result.perfect_scores == tuple(scores) and result.perfect_from == 1
    # forehand leads: his perfect play is the best of the deal's first card
    assert result.plays[0].seat == start.forehand and result.plays[0].best == tricks[start.forehand]
    # paranoid guarantees, not one line of play: at most 13 together when taking, at least 13 when avoiding
    assert sum(tricks) >= 13 if contract.is_mizerka else sum(tricks) <= 13
    # as played: the record's tricks and scores
    drec = golden.deals[deal_no - 1]
    assert result.tricks_won == drec.tricks_won and result.scores == drec.scores


def test_perfect_tricks_and_scores_leave_out_the_seat_that_sits_the_deal_out() -> None:
    """At four players the dealer sits the deal out: no tricks and no score for him; the server's ``dd`` payload is
    the same two functions (one computation, not two)."""
    from mizerka.analysis import perfect_scores, perfect_tricks
    from mizerka.server.dd import dd_values

    deal = Deal.random(5, rules=parse_variant("four-players"))
    while deal.phase is not Phase.PLAY:
        deal.push(deal.parse_action("keep") if deal.phase is Phase.EXCHANGE else next(iter(deal.legal_actions)))
    tricks = perfect_tricks(deal)
    position = Position.from_deal(deal)
    assert [t is None for t in tricks] == [deal.role(s) is None for s in range(4)]
    assert all(tricks[s] == solve(position, s) for s in deal.active_seats)
    contract = deal.contract
    assert contract is not None
    scores = perfect_scores(deal, tricks)
    assert scores == [None if t is None else deal.rules.score(deal.role(s) or Role.FOREHAND, contract, t)
                      for s, t in enumerate(tricks)]
    assert dd_values(deal, tricks) == {"tricks": tricks, "scores": scores}
    # a known value is taken as it is, not solved again
    seat = deal.active_seats[0]
    assert perfect_tricks(deal, known={seat: 99})[seat] == 99
    with pytest.raises(ValueError, match="expected the tricks of 4 seats, got 3"):
        perfect_scores(deal, tricks[:3])
    with pytest.raises(ValueError, match="no contract yet"):
        perfect_scores(Deal.random(5), [0, 0, 0])


def test_the_command_prints_perfect_play_and_the_scores(golden: MatchRecord) -> None:
    result = CliRunner().invoke(cli, ["analyse", str(GOLDEN), "--deal", str(MIZERKA), "--ascii"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    deal = analyse_deal(golden, MIZERKA, perfect=True)
    assert deal.perfect is not None and deal.perfect_scores is not None and deal.scores is not None
    names = golden.players

    def signed(n: int) -> str:
        return f"{n:+d}" if n else "0"

    played = ", ".join(f"{names[s]} {deal.tricks_won[s]} ({signed(deal.scores[s])})" for s in range(3))
    perfect = ", ".join(f"{names[s]} {deal.perfect[s]} ({signed(deal.perfect_scores[s] or 0)})" for s in range(3))
    assert f"  tricks (score) as played:  {played}" in lines
    assert f"  perfect play:              {perfect}" in lines
    assert "at most in Mizerka" in result.stdout and "not one line of play" in result.stdout
    data = json.loads(CliRunner().invoke(cli, ["analyse", str(GOLDEN), "--deal", str(MIZERKA), "--json"]).stdout)
    (dj,) = data["deals"]
    assert dj["perfect"] == {"from_trick": 1, "tricks": list(deal.perfect), "scores": list(deal.perfect_scores)}
    assert dj["scores"] == list(deal.scores)


def test_perfect_play_is_asked_for_only_by_the_command() -> None:
    """The reviews of the line game and the server call ``analyse_deal`` within time limits: no extra solves there,
    and none with an evaluator of one's own, which values only the player to move."""
    record = read(GOLDEN)
    assert analyse_deal(record, TRUMP).perfect is None
    assert analyse_deal(record, TRUMP, perfect=True, evaluate=lambda d: {
        c: 0 for c in CARDS if d.legal_play_mask() >> int(c) & 1}).perfect is None
    text = format_analysis(analyse(record, [TRUMP]))
    assert "perfect play:" not in text and "Perfect play" not in text and "tricks (score) as played:" in text


@pytest.mark.filterwarnings("ignore:variant 'seed002-literal'")
def test_in_seed002_literal_perfect_play_starts_at_the_first_trick_the_solver_takes() -> None:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        match = Match(get_variant("seed002-literal"), players=["Ala", "Bolek", "Cezary"], seed=5)
        while match.deal.tricks_won.count(0) == 3 or len(match.deal.tricks) < 6:
            match.push(match.deal.forced_action() or next(iter(match.legal_actions)))
    record = MatchRecord.from_match(match)
    result = analyse_deal(record, 1, perfect=True)
    assert result.unjudged_tricks == (1, 2, 3, 4) and result.perfect_from == 5
    deal = Deal(record.deals[0].deck or (), rules=record.rules, dealer=record.deals[0].dealer)
    for action in record.deals[0].actions():
        if isinstance(action, Play) and not deal.stock:
            break
        deal.push(action)
    position = Position.from_deal(deal)
    assert result.perfect == tuple(deal.tricks_won[s] + solve(position, s) for s in range(3))
    assert result.scores is None  # the deal goes on: no score yet
    text = format_analysis(analyse(record, perfect=True), unicode=False)
    assert "  perfect play from trick 5:  " in text and "tricks so far (the deal is unfinished):" in text


# -- the seats named as in the rule book -----------------------------------------------------------------------------


def test_the_deal_line_names_forehand_middlehand_and_dealer(golden: MatchRecord) -> None:
    text = format_analysis(analyse(golden, [TRUMP, MIZERKA]))
    for deal_no in (TRUMP, MIZERKA):
        start = replay_to_first_card(golden, deal_no)
        n = golden.players
        contract = golden.deals[deal_no - 1].contract
        assert contract is not None
        assert (f"Deal {deal_no}: forehand {n[start.forehand]} chose {contract.label} ({contract.goal}); "
                f"middlehand {n[start.middlehand]}, dealer {n[start.dealer]}") in text.splitlines()
    data: dict[str, list[dict[str, object]]] = json.loads(json.dumps(analyse(golden, [TRUMP]).to_dict()))
    (entry,) = data["deals"]
    start = replay_to_first_card(golden, TRUMP)
    roles: list[str | None] = [None] * 3
    roles[start.forehand], roles[start.middlehand], roles[start.dealer] = "forehand", "middlehand", "dealer"
    assert entry["roles"] == roles and entry["chooser"] == start.forehand and entry["dealer"] == start.dealer


def test_with_four_at_the_table_the_dealer_sits_out() -> None:
    match = Match(get_variant("four-players"), players=["Ala", "Bolek", "Cezary", "Dorota"], seed=3)
    while match.deal_no == 1 and not match.deal.is_over():
        match.push(match.deal.forced_action() or next(iter(match.legal_actions)))
    record = MatchRecord.from_match(match)
    result = analyse(record, perfect=True)
    (deal,) = result.deals
    start = replay_to_first_card(record, 1)
    fh, mh, third = start.active_seats
    n = record.players
    assert deal.roles[start.dealer] is None and deal.roles[third] is Role.DEALER
    assert (f"Deal 1: forehand {n[fh]} chose {deal.contract.label} ({deal.contract.goal}); middlehand {n[mh]}, "
            f"{n[third]} in the dealer's place; dealer {n[start.dealer]} sits out") in format_analysis(result)
    assert deal.perfect is not None and deal.perfect[start.dealer] is None
    position = Position.from_deal(start)
    assert [deal.perfect[s] for s in start.active_seats] == [solve(position, s) for s in start.active_seats]
    assert result.to_dict()["deals"][0]["roles"][start.dealer] is None  # type: ignore[index]


# -- the docs and the help -------------------------------------------------------------------------------------------


def doc_example() -> tuple[list[str], list[str]]:
    text = DOCS.read_text(encoding="utf-8")
    block = re.search(r"```\n\$ mizerka analyse (.*?)\n(.*?)```", text, re.S)
    assert block is not None
    return block[1].split(), block[2].splitlines()


def test_the_docs_example_is_what_the_command_prints() -> None:
    args, lines = doc_example()
    assert args[0] == "game.mzn"
    result = CliRunner().invoke(cli, ["analyse", str(GOLDEN), *args[1:], "--unicode"])
    assert result.exit_code == 0, result.output
    printed = result.stdout.splitlines()
    at = 0
    for line in lines:
        if line.strip() == "...":
            continue
        assert line in printed[at:], f"not printed (in this order): {line!r}"
        at = printed.index(line, at) + 1
    assert lines[-1] == printed[-1]  # the summary's last line ends both


def test_the_docs_name_every_json_key(golden: MatchRecord) -> None:
    data = analyse(golden, [TRUMP], perfect=True).to_dict()
    deal = data["deals"][0]  # type: ignore[index]
    keys = {*data, *deal, *deal["perfect"], *deal["plays"][0], *data["summary"][0]}  # type: ignore[index]
    options = DOCS.read_text(encoding="utf-8").split("## Options")[1].split("## API")[0]
    assert sorted(k for k in keys if f"`{k}`" not in options and f"`{k}[]`" not in options) == []


def invoke(*args: str, input: str | bytes | io.BytesIO | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=input)


def test_analyse_help_states_the_speed_the_docs_measure() -> None:
    """The help said "About 5 seconds per deal"; docs/analysis.md measures a median of 0.06 s a deal."""
    result = invoke("analyse", "--help")
    assert result.exit_code == 0
    help_text = " ".join(result.output.split())
    docs = " ".join((Path(__file__).parents[1] / "docs" / "analysis.md").read_text(encoding="utf-8").split())
    assert "5 seconds" not in help_text
    assert "most deals take well under a second" in help_text and "well under a second" in docs
