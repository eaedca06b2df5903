"""Game records: writing, reading, replaying, validating, committing (mizerka.record)."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest

from mizerka import CardSet, Contract, Match, Phase, get_variant, parse_variant
from mizerka.cards import CARDS
from mizerka.deal import Exchange, Play
from mizerka.record import (
    CommitmentError,
    DealRecord,
    MatchRecord,
    RecordError,
    RecordSyntaxError,
    commit,
    deck_text,
    new_salt,
    read,
    read_json,
    read_text,
)

DATA = Path(__file__).parent / "data" / "records"


# -- helpers (also imported by the other test_record* modules) ----------------------------------------


def random_action(match: Match, rng: random.Random) -> object:
    """A random legal action; in the exchange phase a random subset of the hand, no bigger than the talon."""
    deal = match.deal
    if deal.phase is Phase.EXCHANGE:
        hand = list(deal.hand(deal.to_move))
        size = rng.randint(0, min(len(deal.talon), 5))
        return Exchange(CardSet(rng.sample(hand, size)))
    return rng.choice(list(match.legal_actions))


def play_random(match: Match, rng: random.Random, n_actions: int | None = None) -> Match:
    """Play *n_actions* random legal actions (all of them to the end of the match when ``None``)."""
    count = 0
    while not match.is_over() and (n_actions is None or count < n_actions):
        match.play(random_action(match, rng))  # type: ignore[arg-type]
        count += 1
    return match


def finished_match(seed: int = 11, rules_name: str = "standard") -> Match:
    return play_random(Match(get_variant(rules_name), seed=seed, players=["Ala", "Bolek", "Cezary", "Dorota"][
        : get_variant(rules_name).n_seats]), random.Random(seed))


def replace_line(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


# -- writing and reading ------------------------------------------------------------------------------


def test_full_match_round_trips_in_both_forms() -> None:
    match = finished_match()
    rng = random.Random(1)
    record = MatchRecord.from_match(match, event="Club night", date="2026.11.29", salts=[new_salt(rng)] * 18)
    assert record.is_over() and not record.score_only
    text = record.to_text()
    assert read_text(text) == record
    assert read_text(text).to_text() == text
    assert read_json(record.to_json()) == record
    assert read(text) == read(record.to_json()) == read(text.encode()) == record
    assert '[Result "' + " ".join(f"{t:+d}" if t else "0" for t in match.totals) + '"]' in text
    assert record.tags == {"Event": "Club night", "Date": "2026.11.29", "Generator": record.tags["Generator"]}


def test_record_holds_what_the_match_did() -> None:
    match = finished_match(seed=4)
    record = MatchRecord.from_match(match)
    assert record.totals == tuple(match.totals)
    assert record.outcome() == match.outcome()
    assert record.results() == match.results()
    for deal_record, deal, deck in zip(record.deals, match.deals, match.decks, strict=True):
        assert deal_record.deck == deck
        assert deal_record.actions() == deal.history
        assert deal_record.leaders == tuple(t.leader for t in deal.tricks)
        assert deal_record.tricks == tuple(t.cards for t in deal.tricks)
        assert deal_record.scores == tuple(deal.scores())


def test_replaying_a_record_reproduces_the_match() -> None:
    match = finished_match(seed=5)
    replay = read_text(MatchRecord.from_match(match).to_text()).to_match()
    assert replay.is_over()
    assert replay.history() == match.history()
    assert replay.decks == match.decks
    assert replay.totals == match.totals
    assert replay.players == match.players and replay.first_dealer == match.first_dealer
    assert str(replay.score_sheet()) == str(match.score_sheet())


@pytest.mark.parametrize("n_actions", [0, 1, 2, 3, 4, 5, 30, 43, 44, 45, 100, 300])
def test_unfinished_matches_round_trip_and_resume(n_actions: int) -> None:
    match = play_random(Match(seed=8), random.Random(8), n_actions)
    record = MatchRecord.from_match(match)
    assert not record.is_over()
    assert read_text(record.to_text()) == record == read_json(record.to_json())
    assert '[Result "*"]' in record.to_text()
    resumed = record.to_match()
    assert resumed.history()[: len(record.deals)] == match.history()[: len(record.deals)]
    assert resumed.deal_no in (len(record.deals), len(record.deals) + 1)
    assert resumed.totals == match.totals
    with pytest.raises(RecordError, match="not over"):
        record.outcome()


@pytest.mark.parametrize("name", ["no-exchange", "four-players", "seed002-literal"])
def test_variants_round_trip(name: str) -> None:
    rules = get_variant(name)
    match = play_random(Match(rules, seed=2), random.Random(2), 3 * (rules.n_tricks * 3 + 4) + 7)
    record = MatchRecord.from_match(match)
    assert record.rules == rules
    assert read_text(record.to_text()) == record == read_json(record.to_json())
    assert record.to_match().history() == match.history()


def test_variant_options_are_kept() -> None:
    rules = parse_variant("standard,show_trump_card,contracts=NT+MZ,first_dealer=2")
    match = play_random(Match(rules, seed=1), random.Random(1))
    record = MatchRecord.from_match(match)
    assert '[Variant "standard,show_trump_card,first_dealer=2,contracts=NT+MZ"]' in record.to_text()
    assert read_text(record.to_text()).rules == rules
    assert record.is_over() and len(record.deals) == 6


def test_tag_values_are_escaped() -> None:
    match = Match(seed=1, players=['Ala "the ace"', "Bo\\lek", "Ćma ♠"])
    record = MatchRecord.from_match(match, event='The "Big" night')
    text = record.to_text()
    assert '[Player0 "Ala \\"the ace\\""]' in text and '[Player1 "Bo\\\\lek"]' in text
    assert read_text(text) == record
    assert read_json(record.to_json()) == record


def test_read_accepts_paths_bytes_and_a_byte_order_mark(tmp_path: Path) -> None:
    record = MatchRecord.from_match(play_random(Match(seed=3), random.Random(3), 50))
    path = tmp_path / "game.mzn"
    path.write_text("\ufeff" + record.to_text(), encoding="utf-8")
    assert read(path) == record
    json_path = tmp_path / "game.json"
    json_path.write_text(record.to_json(), encoding="utf-8")
    assert read(json_path) == record
    with pytest.raises(RecordSyntaxError, match="UTF-8"):
        read(b"\xff\xfe[RecordVersion")


def test_comments_and_blank_lines_are_ignored() -> None:
    record = MatchRecord.from_match(play_random(Match(seed=3), random.Random(3), 50))
    text = record.to_text().replace("\n[Deal", "\n% a comment\n\n\n[Deal")
    assert read_text(text) == record


def test_from_actions_is_from_match() -> None:
    match = play_random(Match(seed=9), random.Random(9), 120)
    record = MatchRecord.from_actions(
        match.rules, match.players, match.first_dealer, match.decks, match.history(), tags={"Generator": "x"}
    )
    assert record.deals == MatchRecord.from_match(match).deals


# -- commitments --------------------------------------------------------------------------------------


def test_commitment_is_a_salted_sha256_of_the_deck_text() -> None:
    import hashlib

    deck = list(range(51, -1, -1))
    expected = hashlib.sha256(("s4lt:" + " ".join(str(CARDS[c]) for c in deck)).encode()).hexdigest()
    assert commit(deck, "s4lt") == "sha256:" + expected
    assert commit(deck, "s4lt") != commit(deck, "salt")
    assert commit(deck, "s4lt") != commit(list(range(52)), "s4lt")
    assert deck_text(deck).split() == [str(CARDS[c]) for c in deck]
    for bad in ("", "has space", 'quo"te', "x" * 129):
        with pytest.raises(RecordError, match="salt"):
            commit(deck, bad)


def test_new_salt_is_reproducible_with_an_rng_and_fresh_without() -> None:
    assert new_salt(random.Random(1)) == new_salt(random.Random(1))
    assert len(new_salt()) == 32 and new_salt() != new_salt()


def test_published_commitments_are_verified() -> None:
    match = play_random(Match(seed=6), random.Random(6), 100)
    salts = [new_salt(random.Random(i)) for i in range(3)]
    published = {i + 1: commit(deck, salt) for i, (deck, salt) in enumerate(zip(match.decks, salts, strict=True))}
    record = read_text(MatchRecord.from_match(match, salts=salts).to_text())
    assert record.verify_commitments(published) == (1, 2, 3)
    forged = dict(published)
    forged[2] = commit(match.decks[0], salts[1])
    with pytest.raises(CommitmentError) as info:
        record.verify_commitments(forged)
    assert info.value.deal_no == 2
    with pytest.raises(CommitmentError, match="not recorded"):
        record.verify_commitments({7: published[1]})


def test_a_deck_that_does_not_match_its_commitment_is_rejected() -> None:
    match = play_random(Match(seed=6), random.Random(6), 50)
    text = MatchRecord.from_match(match, salts=["abc", "def"]).to_text()
    with pytest.raises(CommitmentError) as info:
        read_text(replace_line(text, '[Salt "def"]', '[Salt "deg"]'))
    assert info.value.deal_no == 2
    # a commitment without its salt (not yet revealed) is kept, and reads back
    unrevealed = replace_line(text, '[Salt "def"]\n', "")
    assert read_text(unrevealed).deals[1].salt is None
    assert read_text(unrevealed).verify_commitments() == (1,)


# -- rule violations name the deal, trick, card and reason -------------------------------------------


@pytest.fixture(scope="module")
def full_text() -> str:
    return MatchRecord.from_match(finished_match(seed=21)).to_text()


def _first_trick_line(text: str, deal_no: int) -> tuple[str, list[str]]:
    block = text.split(f'[Deal "{deal_no}"]')[1]
    line = next(ln for ln in block.splitlines() if ln.startswith("1 @"))
    return line, line.split(":")[1].split()


def test_a_revoke_is_reported_with_deal_trick_and_card(full_text: str) -> None:
    record = read_text(full_text)
    # replay deal 3 until someone follows suit while holding another suit; make them play that one instead
    match = record.to_match()
    replay = Match(record.rules, players=record.players, first_dealer=record.first_dealer, decks=match.decks)
    for deal_record in record.deals[:2]:
        for action in deal_record.actions():
            replay.play(action)
    deal_record = record.deals[2]
    actions = deal_record.actions()
    n_before_play = len(actions) - sum(len(t) for t in deal_record.tricks)
    for action in actions[:n_before_play]:
        replay.play(action)
    for trick_no, cards in enumerate(deal_record.tricks, start=1):  # noqa: B007 (used after the loop)
        for position, card in enumerate(cards):
            hand = replay.deal.hand(replay.deal.to_move)
            others = [c for c in hand if c.suit != cards[0].suit]
            if position > 0 and card.suit == cards[0].suit and others:
                break
            replay.play(Play(card))
        else:
            continue
        break
    else:
        pytest.fail("no trick in deal 3 where a player followed suit holding another suit")
    wrong = others[0]
    line = f"{trick_no} @{deal_record.leaders[trick_no - 1]}: " + " ".join(map(str, cards))  # type: ignore[index]
    bad_cards = list(cards)
    bad_cards[position] = wrong
    block = full_text.split('[Deal "3"]')
    bad_line = line.replace(" ".join(map(str, cards)), " ".join(map(str, bad_cards)))
    bad = block[0] + '[Deal "3"]' + replace_line(block[1], line, bad_line)
    with pytest.raises(RecordError) as info:
        read_text(bad)
    error = info.value
    assert not isinstance(error, RecordSyntaxError)
    assert (error.deal_no, error.trick_no, error.card) == (3, trick_no, wrong)
    assert "must follow suit" in error.reason
    assert str(error).startswith(f"deal 3, trick {trick_no}, card {wrong}: ")


def test_a_card_not_in_hand_is_reported(full_text: str) -> None:
    line, cards = _first_trick_line(full_text, 1)
    record = read_text(full_text)
    replay = record.to_match().deals[0]
    leader = int(line.split("@")[1].split(":")[0])
    foreign = next(c for c in CARDS if not replay.dealt[leader] >> c & 1 and not replay.drawn[leader] >> c & 1)
    bad = replace_line(full_text, line, line.replace(cards[0], str(foreign), 1))
    with pytest.raises(RecordError) as info:
        read_text(bad)
    assert (info.value.deal_no, info.value.trick_no, info.value.card) == (1, 1, foreign)
    assert "not in seat" in info.value.reason


def test_claimed_scores_tricks_and_result_are_checked(full_text: str) -> None:
    record = read_text(full_text)
    first = record.deals[0]
    assert first.scores is not None and first.tricks_won is not None
    scores = " ".join(f"{s:+d}" if s else "0" for s in first.scores)
    wrong = " ".join(f"{s:+d}" if s else "0" for s in (first.scores[1], first.scores[0], first.scores[2]))
    if wrong != scores:
        with pytest.raises(RecordError, match="scores") as info:
            read_text(replace_line(full_text, f'[Scores "{scores}"]', f'[Scores "{wrong}"]'))
        assert info.value.deal_no == 1
    tricks = " ".join(map(str, first.tricks_won))
    with pytest.raises(RecordError, match="took"):
        read_text(replace_line(full_text, f'[Tricks "{tricks}"]', '[Tricks "13 0 0"]'))
    result_line = next(ln for ln in full_text.splitlines() if ln.startswith("[Result"))
    with pytest.raises(RecordError, match="result"):
        read_text(replace_line(full_text, result_line, '[Result "+1 0 -1"]'))
    with pytest.raises(RecordError, match="over"):
        read_text(replace_line(full_text, result_line, '[Result "*"]'))


def test_wrong_leader_dealer_and_exchanger_are_reported(full_text: str) -> None:
    line, _ = _first_trick_line(full_text, 1)
    leader = int(line.split("@")[1].split(":")[0])
    with pytest.raises(RecordError, match="led by") as info:
        read_text(replace_line(full_text, line, line.replace(f"@{leader}", f"@{(leader + 1) % 3}", 1)))
    assert (info.value.deal_no, info.value.trick_no) == (1, 1)
    record = read_text(full_text)
    dealer = record.deals[1].dealer
    block_start = '[Deal "2"]\n[Dealer "' + str(dealer)
    with pytest.raises(RecordError, match="dealer") as info:
        read_text(replace_line(full_text, block_start, '[Deal "2"]\n[Dealer "' + str((dealer + 1) % 3)))
    assert info.value.deal_no == 2
    exchange = full_text.split('[Deal "1"]')[1].split("[Exchange]\n")[1].splitlines()[0]
    seat = int(exchange.split(":")[0])
    with pytest.raises(RecordSyntaxError, match="exchange 1 is by seat"):
        read_text(replace_line(full_text, "[Exchange]\n" + exchange, f"[Exchange]\n{(seat + 1) % 3}:" +
                               exchange.split(":")[1]))


def test_a_contract_used_twice_is_rejected() -> None:
    match = play_random(Match(seed=2), random.Random(2))
    record = MatchRecord.from_match(match)
    # deal 4 has the same forehand as deal 1; give it deal 1's contract
    first, fourth = record.deals[0], record.deals[3]
    assert first.contract != fourth.contract
    deals = list(record.deals[:4])
    deals[3] = dataclasses.replace(fourth, contract=first.contract, exchanges=(), tricks=(), leaders=None,
                                   tricks_won=None, scores=None)
    with pytest.raises(RecordError, match="already used") as info:
        MatchRecord(record.rules, record.players, record.first_dealer, tuple(deals))
    assert info.value.deal_no == 4


def test_an_unfinished_deal_cannot_be_followed_by_another() -> None:
    record = MatchRecord.from_match(play_random(Match(seed=2), random.Random(2), 100))
    deals = list(record.deals)
    deals[0] = dataclasses.replace(deals[0], tricks=deals[0].tricks[:-1], tricks_won=None, scores=None,
                                   leaders=None)
    with pytest.raises(RecordError, match="another deal follows") as info:
        MatchRecord(record.rules, record.players, record.first_dealer, tuple(deals))
    assert info.value.deal_no == 1


def test_header_errors() -> None:
    match = Match(seed=1)
    with pytest.raises(RecordError, match="seats 3 players"):
        MatchRecord(match.rules, ("a", "b"), 0)
    with pytest.raises(RecordError, match="differ"):
        MatchRecord(match.rules, ("a", "a", "b"), 0)
    with pytest.raises(RecordError, match="first dealer"):
        MatchRecord(match.rules, ("a", "b", "c"), 3)
    with pytest.raises(RecordError, match="one line"):
        MatchRecord(match.rules, ("a\nb", "b", "c"), 0)
    with pytest.raises(RecordError, match="tag name"):
        MatchRecord(match.rules, ("a", "b", "c"), 0, tags={"Result": "x"})
    with pytest.raises(RecordError, match="variant says"):
        MatchRecord(parse_variant("standard,first_dealer=1"), ("a", "b", "c"), 0)
    with pytest.raises(RecordError, match="cannot be written"):
        MatchRecord(match.rules.replace(name="homebrew"), ("a", "b", "c"), 0)
    empty = MatchRecord(match.rules, ("a", "b", "c"), 2)
    assert read_text(empty.to_text()) == empty and not empty.is_over() and empty.to_match().deal_no == 1


@pytest.mark.parametrize(
    ("edit", "line_no", "message"),
    [
        (("[RecordVersion \"1\"]", "[RecordVersion \"2\"]"), 1, "version"),
        (("[Variant \"standard\"]", "[Variant \"chess\"]"), 2, "unknown variant"),
        (("[Variant \"standard\"]", "[Variant standard]"), 2, "malformed tag"),
        (("[FirstDealer \"0\"]", "[FirstDealer \"zero\"]"), 6, "whole number"),
        (("[Dealer \"0\"]", "[Dealer \"0\"]\n[Bidding \"1\"]"), 11, "unknown tag"),
        (("[Contract \"NT\"]", "[Contract \"XX\"]"), 16, "invalid contract"),
        (("[Play]\n1 @1: ", "[Play]\n1 @1: ZZ "), 22, "invalid card"),
        (("[Play]\n1 @1: ", "[Play]\n2 @1: "), 22, "trick 2 where trick 1"),
        (("[Play]\n", "[Play]\nnonsense\n"), 22, "malformed trick line"),
        (("[Deal \"1\"]", "stray words\n[Deal \"1\"]"), 9, "outside a section"),
        (("[Deal \"1\"]", "[Deal \"2\"]"), 9, "deal '2' where deal 1"),
        (("[Dealer \"0\"]", "[Dealer \"0\"]\n[Dealer \"0\"]"), 11, "second Dealer"),
    ],
)
def test_syntax_errors_name_the_line(edit: tuple[str, str], line_no: int, message: str) -> None:
    text = (DATA / "partial.mzn").read_text(encoding="utf-8")
    assert read_text(text).deals  # the base record is valid
    with pytest.raises(RecordSyntaxError, match=message) as info:
        read_text(replace_line(text, *edit))
    assert info.value.line_no == line_no
    assert str(info.value).startswith(f"line {line_no}")


def test_missing_header_tags() -> None:
    text = (DATA / "partial.mzn").read_text(encoding="utf-8")
    for tag in ("RecordVersion", "Variant", "Player1", "FirstDealer"):
        line = next(ln for ln in text.splitlines() if ln.startswith(f"[{tag} "))
        with pytest.raises(RecordSyntaxError, match=f"no {tag} tag"):
            read_text(text.replace(line + "\n", ""))


def test_json_errors() -> None:
    record = read_text((DATA / "partial.mzn").read_text(encoding="utf-8"))
    data = record.to_dict()
    assert read_json(json.dumps(data)) == record
    cases: list[tuple[object, str]] = [
        ([1, 2], "is an object"),
        ({**data, "format": "pgn"}, "format"),
        ({**data, "version": 2}, "version"),
        ({**data, "extra": 1}, "unknown field"),
        ({**data, "players": "abc"}, "wrong type"),
        ({**data, "first_dealer": True}, "wrong type"),
        ({**data, "deals": [{**data["deals"][0], "deal": 2}]}, "where deal 1"),  # type: ignore[index]
        ({**data, "deals": [{**data["deals"][0], "deck": "AS"}]}, "52 cards"),  # type: ignore[index]
        ({**data, "deals": [{**data["deals"][0], "tricks": [5]}]}, "leader"),  # type: ignore[index]
        ({**data, "result": [0, 0, 0]}, "not over"),
    ]
    for bad, message in cases:
        with pytest.raises(RecordSyntaxError, match=message):
            read_json(json.dumps(bad))
    with pytest.raises(RecordSyntaxError, match="not JSON"):
        read_json("{")
    with pytest.raises(RecordSyntaxError, match="not JSON"):
        read_json("[" * 100_000)


# -- score-only records --------------------------------------------------------------------------------


def score_only(
    rules_name: str = "standard", first_dealer: int = 0, rows: list[tuple[str, tuple[int, ...]]] | None = None
) -> MatchRecord:
    rules = get_variant(rules_name)
    deals = [
        DealRecord(number=i + 1, dealer=(first_dealer + i) % rules.n_seats, contract=Contract.from_str(c),
                   tricks_won=tricks)
        for i, (c, tricks) in enumerate(rows or [])
    ]
    names = ("Ala", "Bolek", "Cezary", "Dorota")[: rules.n_seats]
    return MatchRecord(rules, names, first_dealer, tuple(deals))


def test_score_only_records_compute_and_check_scores() -> None:
    # deal 1: seat 0 deals, seat 1 (forehand) chooses hearts and takes 8 against a quota of 7
    record = score_only(rows=[("H", (1, 8, 4)), ("MZ", (5, 4, 4))])
    assert record.score_only
    assert record.deals[0].scores == (0, 1, -1)
    # deal 2: seat 1 deals, seat 2 chooses Mizerka (quota 1) and takes 4; seat 0 middlehand quota 5, took 5
    assert record.deals[1].scores == (0, 3, -3)
    assert sum(record.totals) == 0
    assert read_text(record.to_text()) == record == read_json(record.to_json())
    with pytest.raises(RecordError, match="score-only"):
        record.to_match()
    assert [r.contract for r in record.results()] == [Contract.HEARTS, Contract.MIZERKA]
    assert record.results()[0].exchange_counts == (None, None, None)


def test_golden_score_only_record() -> None:
    text = (DATA / "score-only.mzn").read_text(encoding="utf-8")
    record = read_text(text)
    assert record.to_text() == text
    assert record.score_only and len(record.deals) == 4 and not record.is_over()
    # worked by hand from the quotas 7/5/1 and 1/5/7 (see the comments in the file)
    assert [d.scores for d in record.deals] == [(-1, 2, -1), (-1, -1, 2), (1, 0, -1), None]
    assert record.totals == (-1, 1, 0)


def test_score_only_violations() -> None:
    with pytest.raises(RecordError, match="add up to 12") as info:
        score_only(rows=[("H", (1, 7, 4))])
    assert info.value.deal_no == 1
    with pytest.raises(RecordError, match="already used") as info:
        score_only(rows=[("H", (1, 7, 5)), ("S", (1, 7, 5)), ("D", (1, 7, 5)), ("H", (1, 7, 5))])
    assert info.value.deal_no == 4
    with pytest.raises(RecordError, match="sits out"):
        score_only("four-players", rows=[("H", (1, 7, 4, 1))])
    record = score_only("four-players", rows=[("H", (0, 7, 5, 1))])
    assert record.deals[0].scores == (0, 0, 0, 0)
    with pytest.raises(RecordError, match="the rules give"):
        MatchRecord(record.rules, record.players, 0,
                    (dataclasses.replace(record.deals[0], scores=(0, 1, 0, -1)),))
    with pytest.raises(RecordError, match="no exchanges or cards"):
        MatchRecord(record.rules, record.players, 0,
                    (dataclasses.replace(record.deals[0], tricks=((CARDS[0], CARDS[1], CARDS[2]),)),))
    full = MatchRecord.from_match(play_random(Match(seed=1, first_dealer=0), random.Random(1), 50))
    with pytest.raises(RecordError, match="cannot be mixed"):
        MatchRecord(full.rules, full.players, 0, (full.deals[0], dataclasses.replace(
            full.deals[1], deck=None, exchanges=(), tricks=(), leaders=None)))


def test_score_only_in_progress() -> None:
    record = score_only(rows=[("H", (1, 8, 4))])
    chosen = DealRecord(number=2, dealer=1, contract=Contract.NO_TRUMP)
    in_progress = MatchRecord(record.rules, record.players, 0, (*record.deals, chosen))
    assert read_text(in_progress.to_text()) == in_progress
    assert not in_progress.is_over() and in_progress.totals == (0, 1, -1)


# -- golden files ----------------------------------------------------------------------------------------


def test_golden_full_record() -> None:
    text = (DATA / "standard-seed7.mzn").read_text(encoding="utf-8")
    record = read_text(text)
    assert record.to_text() == text  # the writer's output is stable
    assert read_json((DATA / "standard-seed7.json").read_text(encoding="utf-8")) == record
    assert record.is_over() and record.verify_commitments() == tuple(range(1, 19))
    # the file was made by MatchRecord.from_match on this match; it must still replay to the same game
    match = record.to_match()
    assert match.decks == [d.deck for d in record.deals]
    assert tuple(match.totals) == record.totals and sum(record.totals) == 0
    assert record.tags["Event"] == "Golden record"


def test_golden_partial_record() -> None:
    text = (DATA / "partial.mzn").read_text(encoding="utf-8")
    record = read_text(text)
    assert record.to_text() == text
    last = record.deals[-1]
    assert not record.is_over() and last.tricks_won is None and last.contract is not None
    match = record.to_match()
    assert match.deal_no == len(record.deals) and match.deal.phase is Phase.PLAY
    assert len(match.deal.history) == len(last.actions())
