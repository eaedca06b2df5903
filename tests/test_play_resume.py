"""``mizerka play --resume FILE``: a match against computer players taken up again from the record that ``--record``
wrote (a match left with quit, a closed terminal or a crash), or from another played match's record given a seat;
the record goes on in the same file, its finished deals as they were; every refusal before the first question."""

from __future__ import annotations

import asyncio
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result

from mizerka.cli import cli
from mizerka.deal import Phase
from mizerka.match import Match
from mizerka.record import MatchRecord, new_salt, read
from mizerka.tui.resume import OPPONENTS_TAG, SEAT_TAG, Resumed, resume_match, resumed_tags, setup_tags
from tui_helpers import pause_until, screen_text, scripted_answers

VARIANT = "standard,contracts=NT+MZ"  # six deals: a whole match in about a second
SEED = 7
NEW_SEED = 11
OPTIONS = ["play", "--plain", "--seed", str(SEED), "--variant", VARIANT, "--opponents", "random", "--ascii"]


def invoke(*args: str, input: str = "") -> Result:
    return CliRunner().invoke(cli, list(args), input=input)


def left_in_deal_2(path: Path) -> None:
    """``mizerka play --record PATH`` of OPTIONS, left with quit in deal 2: the record holds deal 1."""
    from mizerka.rules import parse_variant

    match = Match(parse_variant(VARIANT), players=["You", "Ala", "Bolek"], seed=SEED)
    answers = scripted_answers(match, 0, ["random", "random"], SEED, stop_in_deal=2)
    result = invoke(*OPTIONS, "--record", str(path), input="\n".join(answers) + "\nquit\n")
    assert result.exit_code == 0, result.output
    assert len(read(path).deals) == 1


def finish(path: Path, *extra: str, seat: int | None = None, levels: list[str] | None = None) -> Result:
    """``mizerka play --resume PATH --seed NEW_SEED`` answered to the end of the match."""
    resumed = resume_match(str(path), seed=NEW_SEED, seat=seat)
    answers = scripted_answers(resumed.match, resumed.seat, levels or resumed.levels, NEW_SEED)
    return invoke("play", "--plain", "--ascii", "--resume", str(path), "--seed", str(NEW_SEED), *extra,
                  input="\n".join(answers) + "\n")


# -- going on with a match ------------------------------------------------------------------------------------------


def test_a_match_left_in_deal_2_goes_on_to_its_end_in_the_same_record(tmp_path: Path) -> None:
    path = tmp_path / "game.mzn"
    left_in_deal_2(path)
    first = read(path)
    assert first.tags[SEAT_TAG] == "0" and first.tags[OPPONENTS_TAG] == "random,random"
    result = finish(path)
    assert result.exit_code == 0, result.output
    assert f"Resumed from {path} at deal 2 of 6; the deals to come are shuffled from seed {NEW_SEED}." in result.output
    assert "You are You, seat 0; against Ala (random), Bolek (random)." in result.output
    assert f"The record goes on in {path} after each deal." in result.output
    assert "The match is over." in result.output
    record = read(path)
    assert record.is_over() and len(record.deals) == 6
    assert record.deals[0] == first.deals[0]  # the earlier deal as it was
    assert record.tags["Seed"] == f"{SEED}; {NEW_SEED} from deal 2" and record.tags["Event"] == "mizerka play"
    assert record.tags["Date"] == first.tags["Date"] and record.tags[SEAT_TAG] == "0"
    replay = invoke("replay", str(path))
    assert replay.exit_code == 0 and "a valid record, replayed card by card" in replay.output


def test_resuming_without_finishing_a_deal_leaves_the_file_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "game.mzn"
    left_in_deal_2(path)
    before = path.read_bytes()
    result = invoke("play", "--plain", "--resume", str(path), input="quit\n")
    assert result.exit_code == 0, result.output
    assert f"The record of deal 1 is in {path}" in result.output
    assert path.read_bytes() == before


def test_opponents_replace_the_recorded_levels_and_record_goes_elsewhere(tmp_path: Path) -> None:
    path, other = tmp_path / "game.mzn", tmp_path / "other.json"
    left_in_deal_2(path)
    before = path.read_bytes()
    result = finish(path, "--opponents", "rules,random", "--record", str(other), levels=["rules", "random"])
    assert result.exit_code == 0, result.output
    assert "against Ala (rules), Bolek (random)" in result.output
    assert path.read_bytes() == before  # the resumed file is left alone
    record = read(other)
    assert record.is_over() and record.tags[OPPONENTS_TAG] == "rules,random"


def test_a_record_that_ends_mid_deal_goes_on_from_its_next_card_and_keeps_its_commitments(tmp_path: Path) -> None:
    """A record written elsewhere (here with the commitments a server publishes) has no Seat tag: --seat says which
    seat is yours.  The deal in progress goes on where it stopped, its events so far told from your seat."""
    from mizerka.rules import parse_variant

    match = Match(parse_variant(VARIANT), players=["Ala", "Bolek", "Cezary"], seed=3)
    while not (match.deal_no == 2 and len(match.deal.tricks) == 2 and not match.deal.trick):
        match.play(match.deal.forced_action() or next(iter(match.legal_actions)))
    path = tmp_path / "server.mzn"
    path.write_text(MatchRecord.from_match(match, salts=[new_salt(), None]).to_text(), encoding="utf-8")
    committed = read(path).deals[0]
    assert committed.commit is not None
    refused = invoke("play", "--plain", "--resume", str(path), input="quit\n")
    assert refused.exit_code == 2 and "does not say which seat is yours" in refused.output
    result = finish(path, "--seat", "1", seat=1)
    assert result.exit_code == 0, result.output
    assert f"Resumed from {path} at deal 2 of 6, at trick 3" in result.output
    assert "You are Bolek, seat 1; against Ala (rules), Cezary (rules)." in result.output
    assert "=== Deal 2 of 6 ===" in result.output and "Trick 2: " in result.output  # the deal so far, retold
    record = read(path)
    assert record.is_over() and record.deals[0] == committed  # the first deal with its commitment
    assert record.tags[SEAT_TAG] == "1" and record.tags["Seed"] == f"{NEW_SEED} from deal 3"


def _first_hand_after_the_contract(output: str) -> str:
    """The first ``Your hand`` line of deal 2 after its contract was said, in a line game's *output*."""
    lines = output[output.index("=== Deal 2 of 6 ==="):].splitlines()
    said = next(i for i, line in enumerate(lines) if " choose " in line or " chooses " in line)
    return next(line for line in lines[said:] if line.startswith("Your hand: "))


@pytest.mark.parametrize("variant", [VARIANT, "no-exchange,contracts=NT+MZ", "seed002-literal,contracts=NT+MZ"])
def test_the_retold_deal_shows_the_hand_as_it_was_when_the_contract_was_said(tmp_path: Path, variant: str) -> None:
    """A deal resumed in its play is retold from the human's seat; the hand it shows after the contract is the one
    he held then, as the game printed it at that point (after the contract where no exchange follows, at his
    exchange in the standard game, where he discards two cards here), not his hand of now, short of the cards
    played since (and, in seed002-literal, with the stock's cards drawn since)."""
    import warnings

    from mizerka.rules import parse_variant
    from mizerka.terminal import TerminalGame
    from tui_helpers import first_legal_answer, keep_all

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # seed002-literal's scores are not zero-sum
        match = Match(parse_variant(variant), players=["Ala", "Bolek", "Cezary"], seed=3)

    class Stop(Exception):
        pass

    def answer(prompt: str) -> str:
        if match.deal_no == 2 and len(match.deal.tricks) >= 3:
            raise Stop
        return first_legal_answer(match, 1)

    fresh: list[str] = []
    game = TerminalGame(match, 1, {0: keep_all, 2: keep_all}, read=answer, write=fresh.append, unicode=False)
    with pytest.raises(Stop):
        game.run()
    assert match.deal.phase is Phase.PLAY and match.to_move == 1
    path = tmp_path / "left.mzn"
    path.write_text(MatchRecord.from_match(match).to_text(), encoding="utf-8")
    result = invoke("play", "--plain", "--ascii", "--resume", str(path), "--seat", "1", "--opponents", "random",
                    input="quit\n")
    assert result.exit_code == 0, result.output
    assert "Trick 3: " in result.output  # the deal so far, retold
    then = _first_hand_after_the_contract("\n".join(fresh))
    assert _first_hand_after_the_contract(result.output) == then
    assert then != game.hand_line(match.observation(1))  # the hand of now is another: cards were played since


def test_the_full_screen_game_resumes_at_the_recorded_deal(tmp_path: Path) -> None:
    from mizerka.tui.app import ContractDialog
    from mizerka.tui.command import build_app

    path = tmp_path / "game.mzn"
    left_in_deal_2(path)
    resumed = resume_match(str(path), seed=NEW_SEED)
    app = build_app(seed=NEW_SEED, rules=resumed.match.rules, seat=0, name="You", opponents="rules", bot_delay=0,
                    record=None, resumed=resumed)
    assert app.model.match is resumed.match and app.model.levels == {1: "random", 2: "random"}
    assert app.record is not None and app.record.path == path

    async def run() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pause_until(pilot, lambda: "Deal 2" in screen_text(app) or isinstance(app.screen, ContractDialog))
            assert app.model.match.deal_no == 2
            await pause_until(pilot, lambda: "The record goes on in" in screen_text(app).replace("\n", " "))

    asyncio.run(run())


def test_the_full_screen_log_opens_with_where_the_match_goes_on_and_the_deal_in_progress_only(tmp_path: Path) -> None:
    """As the line game does: one line for the earlier deals (where the match goes on, the totals; the score sheet
    has the rest), then the deal in progress and its tricks so far.  The earlier deals' tricks are not retold."""
    from mizerka.rules import parse_variant
    from mizerka.tui.command import build_app
    from tui_helpers import logged

    match = Match(parse_variant(VARIANT), players=["Ala", "Bolek", "Cezary"], seed=3)
    while not (match.deal_no == 3 and len(match.deal.tricks) >= 2 and match.to_move == 1):
        match.play(match.deal.forced_action() or next(iter(match.legal_actions)))
    path = tmp_path / "game.mzn"
    record = MatchRecord.from_match(match, tags=setup_tags(1, ["random", "random"]))
    path.write_text(record.to_text(), encoding="utf-8")
    resumed = resume_match(str(path), seed=NEW_SEED)
    app = build_app(seed=NEW_SEED, rules=resumed.match.rules, seat=1, name="Bolek", opponents="rules", bot_delay=0,
                    record=None, resumed=resumed)
    tricks = len(resumed.match.deal.tricks)

    async def run() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pause_until(pilot, lambda: "Deal 3 of 6" in screen_text(app)
                              and f"Trick {tricks}:" in logged(app) and "Resumed from" in screen_text(app))
            assert "Deal 3 of 6" in screen_text(app) and "Resumed from" in screen_text(app)
            log = " ".join(logged(app).split())  # the log's lines are wrapped at its width
            assert log.count(f"Resumed from {path} at deal 3 of 6, at trick {tricks + 1}; the deals to come are "
                             f"shuffled from seed {NEW_SEED}.") == 1
            assert "Totals: Ala " in log and "── Deal 3 of 6 ──" in log
            assert "── Deal 2 of 6 ──" not in log and "Deal 1 over" not in log and "Deal 2 over" not in log
            assert log.count(" chose ") == 1  # the contract of deal 3, not those of deals 1 and 2
            assert all(log.count(f"Trick {n}:") == 1 for n in range(1, tricks + 1))
            assert f"Trick {tricks + 1}:" not in log  # your turn in the next trick: nothing more happened
            assert log.index("Resumed from") < log.index("── Deal 3 of 6 ──") < log.index(" chose ")

    asyncio.run(run())


# -- what --resume refuses ----------------------------------------------------------------------------------------


def test_the_setup_tags_and_the_resumed_seed() -> None:
    assert setup_tags(2, ["pimc", "expert"]) == {"Seat": "2", "Opponents": "pimc,expert"}
    from mizerka.rules import STANDARD

    earlier = MatchRecord(STANDARD, ("A", "B", "C"), 0, tags={"Seed": "7; 9 from deal 4"})
    assert resumed_tags(earlier, 5, 8)["Seed"] == "7; 9 from deal 4; 5 from deal 8"


@pytest.mark.parametrize(("extra", "message"), [
    (["--name", "Zosia"], "--name cannot be used with --resume: the record names the players"),
    (["--variant", "standard"], "--variant cannot be used with --resume: the record says the variant"),
    (["--connect", "http://127.0.0.1:1/?table=x"], "--resume cannot be used with --connect"),
    (["--seat", "1"], "you hold seat 0 in"),
    (["--opponents", "grandmaster"], "unknown bot 'grandmaster'"),
    (["--opponents", "rules,rules,rules"], "give 2 levels separated by commas"),
])
def test_options_the_record_decides_are_refused(tmp_path: Path, extra: list[str], message: str) -> None:
    path = tmp_path / "game.mzn"
    left_in_deal_2(path)
    before = path.read_bytes()
    result = invoke("play", "--plain", "--resume", str(path), *extra, input="quit\n")
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output
    assert "Deal 2" not in result.output and path.read_bytes() == before


HEADER = '[RecordVersion "1"]\n[Variant "standard"]\n[Player0 "A"]\n[Player1 "B"]\n[Player2 "C"]\n[FirstDealer "0"]\n'
"""A record of a match with no deal yet, but for its Seat and Opponents tags."""


def _played_out(path: Path) -> None:
    from mizerka.rules import parse_variant

    match = Match(parse_variant(VARIANT), players=["A", "B", "C"], seed=1)
    while not match.is_over():
        match.play(match.deal.forced_action() or next(iter(match.legal_actions)))
    path.write_text(MatchRecord.from_match(match, tags={"Seat": "0"}).to_text(), encoding="utf-8")


@pytest.mark.parametrize(("make", "message"), [
    (lambda p: None, "no such file"),
    (lambda p: p.mkdir(), "is a folder: give the record's file name"),
    (lambda p: p.write_text("notes\n", encoding="utf-8"), "is not a valid game record"),
    (_played_out, "is over (6 deals): nothing is left to play"),
    (lambda p: p.write_text(HEADER + '[Seat "3"]\n', encoding="utf-8"), "names seat '3' as yours, which is no seat"),
    (lambda p: p.write_text(HEADER + '[Seat "0"]\n[Opponents "rules,wizard"]\n', encoding="utf-8"),
     "cannot be played on: its Opponents tag ('rules,wizard'): unknown bot 'wizard'"),
])
def test_a_file_that_is_no_match_to_go_on_with_is_refused(tmp_path: Path, make: object, message: str) -> None:
    path = tmp_path / "game.mzn"
    make(path)  # type: ignore[operator]
    result = invoke("play", "--plain", "--resume", str(path), input="quit\n")
    assert result.exit_code == 2, result.output
    assert "'--resume'" in result.output and message in result.output and "Traceback" not in result.output


def test_a_score_keepers_record_is_pointed_to_mizerka_score(tmp_path: Path) -> None:
    path = tmp_path / "sheet.mzn"
    entries = ["Ala", "Bolek", "Cezary", "Ala", "NT", "5 4 4", "quit"]
    saved = invoke("score", "--file", str(path), input="\n".join(entries) + "\n")
    assert saved.exit_code == 0, saved.output
    result = invoke("play", "--plain", "--resume", str(path), input="quit\n")
    assert result.exit_code == 2, result.output
    assert f"continue it with mizerka score --resume {path}" in result.output


def test_dash_is_refused_for_the_game_reads_its_moves_there() -> None:
    result = invoke("play", "--plain", "--resume", "-", input="quit\n")
    assert result.exit_code == 2 and "- would be standard input, where the game reads your moves" in result.output


def test_resume_match_returns_the_table_as_recorded(tmp_path: Path) -> None:
    path = tmp_path / "game.mzn"
    left_in_deal_2(path)
    resumed = resume_match(str(path), seed=NEW_SEED)
    assert isinstance(resumed, Resumed)
    assert resumed.seat == 0 and resumed.levels == ["random", "random"] and resumed.finished == 1
    assert resumed.match.deal_no == 2 and resumed.match.deal.phase is Phase.CHOOSE
    assert resumed.where() == "deal 2 of 6" and resumed.path == path
    with pytest.raises(click.BadParameter, match="you hold seat 0"):
        resume_match(str(path), seed=NEW_SEED, seat=2)
