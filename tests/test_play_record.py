"""``mizerka play --record FILE``: the record of the finished deals of a match played in the terminal, written after
each deal (atomically) and at the end, that ``mizerka replay`` and ``mizerka analyse`` read; the refusals."""

from __future__ import annotations

import asyncio
import json
import os
import random
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from mizerka.cards import CARDS
from mizerka.cli import cli
from mizerka.deal import Phase
from mizerka.match import Match
from mizerka.record import MatchRecord, read
from mizerka.rules import parse_variant
from mizerka.terminal import BOT_NAMES, RecordFile, TerminalGame, check_record_path, make_opponents, write_atomically
from tui_helpers import first_legal_answer, scripted_answers

VARIANT = "standard,contracts=NT+MZ"  # six deals: a whole match in about a second
RULES = parse_variant(VARIANT)
SEED = 7
OPTIONS = ["play", "--seed", str(SEED), "--variant", VARIANT, "--opponents", "random", "--ascii"]


def scripted_match(stop_in_deal: int | None = None) -> tuple[Match, list[str]]:
    """The match ``mizerka play`` runs with OPTIONS, answered by :func:`first_legal_answer`: the match and the
    answers given (to the end, or up to the first prompt of deal *stop_in_deal* after its contract)."""
    match = Match(RULES, players=["You", *BOT_NAMES[:2]], seed=SEED)
    return match, scripted_answers(match, 0, ["random", "random"], SEED, stop_in_deal)


def listing(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


# -- a match with its record ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["game.mzn", "game.json"])
def test_a_finished_line_match_writes_a_record_that_replay_and_analyse_accept(tmp_path: Path, name: str) -> None:
    match, answers = scripted_match()
    assert match.is_over()
    path = tmp_path / name
    result = CliRunner().invoke(cli, [*OPTIONS, "--record", str(path)], input="\n".join(answers) + "\n")
    assert result.exit_code == 0, result.output
    assert f"The record of the finished deals goes to {path} after each deal." in result.output
    assert f"The record of deals 1-6 is in {path}: mizerka replay {path} / mizerka analyse {path}" in result.output
    text = path.read_text(encoding="utf-8")
    if name.endswith(".json"):
        assert json.loads(text)["format"] == "mizerka-record"
    else:
        assert text.startswith('[RecordVersion "1"]') and f'[Seed "{SEED}"]' in text
    record = read(path)
    assert record.deals == MatchRecord.from_match(match).deals  # every deal as it was played
    assert record.is_over() and record.totals == tuple(match.totals)
    assert record.tags["Seed"] == str(SEED) and record.tags["Event"] == "mizerka play"
    assert [d.deck for d in record.deals] == [tuple(CARDS[c] for c in deck) for deck in match.decks]
    assert listing(tmp_path) == [name]  # no temporary file left
    replay = CliRunner().invoke(cli, ["replay", str(path)])
    assert replay.exit_code == 0 and "a valid record, replayed card by card" in replay.output, replay.output
    analyse = CliRunner().invoke(cli, ["analyse", str(path), "--deal", "6", "--json"])  # the last deal too
    assert analyse.exit_code == 0, analyse.output


def test_the_record_is_written_after_every_deal(tmp_path: Path) -> None:
    match = Match(RULES, players=["You", "Ala", "Bolek"], seed=SEED)
    record = RecordFile(tmp_path / "game.mzn", seed=SEED)
    saved: list[int] = []
    rng = random.Random(1)
    while not match.is_over():
        deal_no = match.deal_no
        match.play(rng.choice(list(match.deal.legal_actions)))
        if record.save(match):
            saved.append(deal_no)
            assert len(read(record.path).deals) == deal_no  # the deals finished so far, never the next one
        assert not record.save(match)  # nothing new: nothing written
    assert saved == [1, 2, 3, 4, 5, 6]


@pytest.mark.parametrize(("answers_end", "code"), [("quit\n", 0), ("", 1)])
def test_leaving_mid_match_keeps_the_finished_deals_only(tmp_path: Path, answers_end: str, code: int) -> None:
    match, answers = scripted_match(stop_in_deal=2)
    assert match.deal_no == 2 and match.deal.contract is not None and not match.deal.is_over()
    path = tmp_path / "game.mzn"
    result = CliRunner().invoke(cli, [*OPTIONS, "--record", str(path)], input="\n".join(answers) + "\n" + answers_end)
    assert result.exit_code == code, result.output
    assert f"The record of deal 1 is in {path}: mizerka replay {path}" in result.output
    record = read(path)
    assert len(record.deals) == 1 and record.deals[0] == MatchRecord.from_match(match).deals[0]
    assert not record.is_over()
    deck2 = " ".join(str(CARDS[c]) for c in match.decks[1])
    assert deck2 not in path.read_text(encoding="utf-8")  # the deal in progress never: its cards are hidden


def test_quitting_before_a_deal_is_finished_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "game.mzn"
    result = CliRunner().invoke(cli, [*OPTIONS, "--record", str(path)], input="quit\n")
    assert result.exit_code == 0, result.output
    assert f"No deal was finished: nothing was written to {path}." in result.output
    assert listing(tmp_path) == []


def test_an_old_record_is_replaced(tmp_path: Path) -> None:
    _, answers = scripted_match(stop_in_deal=2)
    path = tmp_path / "game.json"
    old = Match(parse_variant("standard"), players=["A", "B", "C"], seed=1)
    path.write_text(MatchRecord.from_match(old).to_json(), encoding="utf-8")  # a record: it may be replaced
    result = CliRunner().invoke(cli, [*OPTIONS, "--record", str(path)], input="\n".join(answers) + "\nquit\n")
    assert result.exit_code == 0, result.output
    assert "(it replaces the old record there)" in result.output
    assert read(path).players == ("You", "Ala", "Bolek") and len(read(path).deals) == 1


def test_an_interrupted_write_leaves_the_old_file_and_no_temporary_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "game.mzn"
    path.write_text("old\n", encoding="utf-8")

    def broken(source: object, target: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(KeyboardInterrupt):
        write_atomically(path, "new\n")
    assert path.read_text(encoding="utf-8") == "old\n" and listing(tmp_path) == ["game.mzn"]
    monkeypatch.undo()
    write_atomically(path, "new\n")
    assert path.read_text(encoding="utf-8") == "new\n" and listing(tmp_path) == ["game.mzn"]


# -- refusals ---------------------------------------------------------------------------------------------------


def refusal_cases(tmp_path: Path) -> list[tuple[list[str], str]]:
    (tmp_path / "folder").mkdir()
    (tmp_path / "notes.txt").write_text("my shopping list\n", encoding="utf-8")
    return [
        (["--record", str(tmp_path / "folder")], "is a folder: give a file name"),
        (["--record", str(tmp_path / "new") + "/"], "is a folder: give a file name"),
        (["--record", str(tmp_path / "missing" / "game.mzn")], "does not exist: create it first"),
        (["--record", str(tmp_path / "notes.txt" / "game.mzn")], "is not a folder"),
        (["--record", str(tmp_path / "notes.txt")], "exists and is not a mizerka game record: it is not overwritten"),
        (["--record", ""], "give a file name, e.g. --record game.mzn"),
        (["--record", str(tmp_path / "game.mzn"), "--connect", "http://127.0.0.1:9/?table=abc"],
         "--record cannot be used with --connect: the server keeps the table's record; download it from the "
         "table's web page (or GET /api/tables/ID/record)"),
    ]


@pytest.mark.parametrize("plain", [True, False])
def test_every_refusal_exits_2_with_its_message_and_creates_nothing(tmp_path: Path, plain: bool) -> None:
    for args, message in refusal_cases(tmp_path):
        before = listing(tmp_path)
        base = ["play", "--plain"] if plain else ["play"]
        result = CliRunner().invoke(cli, [*base, *args], input="")
        assert result.exit_code == 2, (args, result.output)
        assert message in " ".join(result.output.split()), (args, result.output)
        assert "Traceback" not in result.output and "Deal 1" not in result.output
        assert listing(tmp_path) == before
        assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "my shopping list\n"


def test_a_folder_that_cannot_be_written_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "access", lambda *args, **kwargs: False)  # as root, chmod would not stop a write
    result = CliRunner().invoke(cli, [*OPTIONS, "--record", str(tmp_path / "game.mzn")], input="")
    assert result.exit_code == 2 and "is not writable" in result.output, result.output
    assert listing(tmp_path) == []


def test_the_full_screen_game_checks_the_file_before_it_starts(tmp_path: Path) -> None:
    pytest.importorskip("textual", reason="the tui extra (textual) is not installed")
    from mizerka.tui.command import build_app

    (tmp_path / "notes.txt").write_text("x", encoding="utf-8")
    for name in (str(tmp_path), str(tmp_path / "notes.txt"), str(tmp_path / "no" / "game.mzn")):
        with pytest.raises(click.BadParameter):
            build_app(seed=1, rules=RULES, seat=0, name="You", opponents="random", bot_delay=0, record=name)
    assert listing(tmp_path) == ["notes.txt"]
    assert check_record_path(str(tmp_path / "game.mzn")) == tmp_path / "game.mzn"
    assert listing(tmp_path) == ["notes.txt"]  # checking creates nothing


# -- the full-screen game ---------------------------------------------------------------------------------------


def test_the_full_screen_game_writes_the_record_after_a_deal(tmp_path: Path) -> None:
    pytest.importorskip("textual", reason="the tui extra (textual) is not installed")
    asyncio.run(_full_screen_deal(tmp_path))


async def _full_screen_deal(tmp_path: Path) -> None:
    from mizerka.tui.app import ContractDialog, ExchangeDialog
    from mizerka.tui.command import build_app
    from tui_helpers import logged

    path = tmp_path / "game.json"
    rules = parse_variant(VARIANT + ",first_dealer=2")  # seat 0 is forehand in deal 1
    app = build_app(seed=3, rules=rules, seat=0, name="You", opponents="random", bot_delay=0, record=str(path))
    match = app.model.match
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert f"The record of the finished deals goes to {path} after each deal." in " ".join(logged(app).split())
        for _ in range(300):
            if match.deal_no != 1:
                break
            if isinstance(app.screen, ContractDialog):
                await pilot.press("enter")
            elif isinstance(app.screen, ExchangeDialog):
                await pilot.press("space", "enter")
            elif app.model.is_human_turn() and app.model.observation().phase is Phase.PLAY:
                await pilot.press("enter")
            else:
                await pilot.pause()
        assert match.deal_no == 2
        await pilot.pause()
        record = read(path)
        assert len(record.deals) == 1 and record.deals[0] == MatchRecord.from_match(match).deals[0]
        assert record.tags["Seed"] == "3"
        await pilot.press("x")
    assert listing(tmp_path) == ["game.json"]


def test_the_full_screen_game_says_where_the_record_is_at_the_end(tmp_path: Path) -> None:
    pytest.importorskip("textual", reason="the tui extra (textual) is not installed")
    asyncio.run(_full_screen_end(tmp_path))


async def _full_screen_end(tmp_path: Path) -> None:
    from mizerka.tui.app import MizerkaApp
    from mizerka.tui.model import TableModel
    from tui_helpers import logged

    match = Match(RULES, players=["You", "Ala", "Bolek"], seed=5)
    rng = random.Random(5)
    while not match.is_over():
        match.play(rng.choice(list(match.deal.legal_actions)))
    path = tmp_path / "game.mzn"
    app = MizerkaApp(TableModel(match, 0, ["random", "random"], seed=5), bot_delay=0,
                     record=RecordFile(path, seed=5))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        log = " ".join(logged(app).split())
        assert f"The record of deals 1-6 is in {path}: mizerka replay {path} / mizerka analyse {path}" in log
        assert read(path).deals == MatchRecord.from_match(match).deals
        await pilot.press("n")  # a new match is not recorded: the file keeps the first one
        await pilot.pause()
        assert "This match is not recorded" in " ".join(logged(app).split())
        await pilot.press("x")
    assert read(path).deals == MatchRecord.from_match(match).deals


def test_a_write_that_fails_is_said_and_the_game_goes_on(tmp_path: Path) -> None:
    folder = tmp_path / "sub"
    folder.mkdir()
    record = RecordFile(check_record_path(str(folder / "game.mzn")), seed=SEED)
    folder.rmdir()  # the folder goes away during the match
    match = Match(RULES, players=["You", "Ala", "Bolek"], seed=SEED)
    out: list[str] = []
    game = TerminalGame(match, 0, make_opponents(["random", "random"], [1, 2], SEED, RULES),
                        read=lambda prompt: first_legal_answer(match, 0), write=out.append, record=record)
    game.run()
    assert match.is_over()
    failures = [line for line in out if line.startswith(f"The record could not be written to {record.name}: ")]
    assert len(failures) == 7  # after each of the six deals, and where the record is at the end
    assert all("the match goes on, and the next finished deal tries again" in line for line in failures[:5])
    assert failures[5] == f"The record could not be written to {record.name}: No such file or directory."  # the last
    assert out[-1] == f"The record could not be written to {record.name}: No such file or directory."
    folder.mkdir()  # back again: the next write succeeds, with every finished deal
    assert record.save(match) and len(read(record.path).deals) == 6 and record.error is None
