"""Players' names and tags that a record can hold, and the commands that check names by the record's rule.

A name or a tag is one line: a line or paragraph separator, or a terminal control character (C1 CSI, DCS, NEL; C0
ESC), is refused when the record is built or read, not left unwritable.  A name shows what it is: invisible characters
(a zero-width space, a word joiner, a soft hyphen, a Hangul filler, a lone combining mark, a no-break space alone) are
refused in both forms, naming the character, and names that fold to one name (case, the Unicode form of their
letters) are refused; scripts, accents, emoji and spaces inside a name are recorded.  ``mizerka play --name``
refuses up front a name no record can hold (its whole match went unrecorded) and gives no computer player a name that
folds to the human's; ``mizerka score --resume`` refuses a record whose names a new match refuses (two names equal but
for case, a command word, a number), naming the player and the reason.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import mizerka.record
from mizerka.cli import cli
from mizerka.record import MatchRecord, RecordError, RecordSyntaxError, from_dict, read_json, read_text
from mizerka.rules import STANDARD
from mizerka.scorekeeper import EntryError, ScoreKeeper, score_command
from test_record_readers import TEXT_RECORD, mutated, replay
from test_record_readers import finished as finished  # the fixture, re-exported for pytest

RECORDS = Path(__file__).parent / "data" / "records"


# -- one line: no line separator, no terminal control ----------------------------------------------------------------


@pytest.mark.parametrize("separator", ["\u2028", "\u2029"])
def test_line_separator_in_a_name_or_tag_is_refused_when_built(separator: str) -> None:
    with pytest.raises(RecordError, match="player 0's name"):
        MatchRecord(STANDARD, (f"Ala{separator}Ola", "Bolek", "Cezary"), 0)
    with pytest.raises(RecordError, match="tag Event"):
        MatchRecord(STANDARD, ("Ala", "Bolek", "Cezary"), 0, tags={"Event": f"Club{separator}night"})


def test_json_with_a_line_separator_in_a_name_is_refused_not_left_unwritable(finished: MatchRecord) -> None:
    data = finished.to_dict()
    data["players"] = ["Ala\u2028Ola", "East", "West"]
    with pytest.raises(RecordError, match="must be one line"):
        from_dict(data)


@pytest.mark.parametrize("control", ["\x9b", "\x90", "\x85", "\x1b"])  # C1 CSI, DCS, NEL; C0 ESC
def test_names_and_tags_with_terminal_control_characters_are_refused(control: str) -> None:
    data = json.loads((RECORDS / "standard-seed7.json").read_text(encoding="utf-8"))
    data["players"][1] = f"Bo{control}[31mlek"
    with pytest.raises(RecordError, match="one line"):
        read_json(json.dumps(data))
    data = json.loads((RECORDS / "standard-seed7.json").read_text(encoding="utf-8"))
    data["tags"]["Event"] = f"Club{control}[2J"
    with pytest.raises(RecordError, match="one line"):
        read_json(json.dumps(data))


# -- nothing invisible, no two alike ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "named"), [
    ("Cezary\u200b", "U+200B (ZERO WIDTH SPACE)"),
    ("Ce\u2060zary", "U+2060 (WORD JOINER)"),
    ("Ce\u00adzary", "U+00AD (SOFT HYPHEN)"),
    ("\u3164", "U+3164 (HANGUL FILLER)"),
    ("\u00a0", "no visible character"),
    ("\u0301", "U+0301 (COMBINING ACUTE ACCENT)"),
    ("Cezary\ufe0f", "U+FE0F (VARIATION SELECTOR-16)"),
])
def test_a_name_that_does_not_show_what_it_is_is_refused_in_both_forms(
        tmp_path: Path, name: str, named: str) -> None:
    """``mizerka replay`` took a player named "Ala" and a zero-width space, a lone
    combining mark, a word joiner, a soft hyphen or a no-break space alone (``mizerka score --resume`` refused some
    of them): names that pass for another, or show as nothing.  Each is refused, naming the character."""
    with pytest.raises(RecordError, match="player 2's name") as info:
        from_dict(mutated({"players": ["Ala", "Bolek", name]}))
    assert named in str(info.value)
    text = TEXT_RECORD.replace('[Player2 "Cezary"]', f'[Player2 "{name}"]')
    with pytest.raises(RecordSyntaxError, match="player 2's name") as text_info:
        read_text(text)
    assert named in str(text_info.value) and text_info.value.line_no == 9
    code, output = replay(tmp_path, mutated({"players": ["Ala", "Bolek", name]}))
    assert code != 0 and named in output, output


@pytest.mark.parametrize("name", ["ALA", "ala", "\uff21la", "\uff21\uff4c\uff41", "Ala ", " Ala", "Ala\u00a0"])
def test_names_that_fold_to_one_name_are_refused(name: str) -> None:
    """Two players whose names differ only in case or in the Unicode form of their letters ("Ala" and the
    full-width "Ａla") were two players to the reader, though a score sheet cannot tell them apart and the score
    keeper and the server count them as one name."""
    with pytest.raises(RecordError, match="player names must differ: player 0's name 'Ala' and player 2's name"):
        from_dict(mutated({"players": ["Ala", "Bolek", name]}))


@pytest.mark.parametrize("name", ["Zoe\u0308", "Łukasz", "Ola \u2764\ufe0f", "王 😀", "Jan  Kowalski", "C\u0301"])
def test_names_that_show_what_they_are_are_still_recorded(name: str) -> None:
    """The new rule refuses invisible characters, not scripts, accents, emoji (with the selector a phone adds after
    a symbol) or spaces inside a name."""
    assert mizerka.record.check_name(name) == name  # the rule mizerka play --name is checked by too
    record = from_dict(mutated({"players": ["Ala", "Bolek", name]}))
    assert read_text(record.to_text()) == record == read_json(record.to_json())


def test_other_unicode_in_names_round_trips() -> None:
    # "Zoë" with a combining diaeresis; it had a left-to-right mark (U+200E), a bidirectional control character that
    # records now refuse (tests/test_record_bidi_and_lines.py), as the server and the score keeper do
    record = MatchRecord(STANDARD, ("Łucja Żak", "Zoe\u0308", "李"), 0, tags={"Event": "Śród 🂡"})
    assert read_text(record.to_text()) == record == read_json(record.to_json())


# -- mizerka play --name ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "words"), [
    ("x" * 1001, "at most 1000 characters"),
    ("Ala\u200b", "U+200B (ZERO WIDTH SPACE)"),
    ("\u0301x", "U+0301 (COMBINING ACUTE ACCENT)"),
])
def test_play_refuses_a_name_no_record_can_hold_before_the_match(tmp_path: Path, name: str, words: str) -> None:
    """``mizerka play --name`` took 1001 characters (or an invisible one), and then every save of ``--record``
    failed ("player 0's name ... must be one line of at most 1000 characters"): the whole match went unrecorded.
    The name is refused up front, by the record's own rule, as a usage error."""
    record = tmp_path / "match.mzn"
    result = CliRunner().invoke(cli, ["play", "--plain", "--seed", "1", "--name", name, "--record", str(record)],
                                input="quit\n")
    assert result.exit_code == 2 and "--name" in result.output and words in result.output, result.output
    assert "Traceback" not in result.output and not record.exists()


def test_play_gives_no_computer_player_a_name_that_folds_to_the_human_s() -> None:
    """The computer players' names were left out only when equal to the human's ignoring case, so ``--name Ａｌａ``
    (full width) sat beside the computer's "Ala": two names a record refuses as one."""
    result = CliRunner().invoke(cli, ["play", "--plain", "--seed", "1", "--name", "\uff21\uff4c\uff41"],
                                input="quit\n")
    assert result.exit_code == 0, result.output
    table = next(line for line in result.output.splitlines() if line.startswith("Mizerka, "))
    assert "Ala (" not in table and "Bolek (" in table, table


# -- mizerka score --resume ------------------------------------------------------------------------------------------


def record(tmp_path: Path, *players: str) -> Path:
    path = tmp_path / "match.mzn"
    tags = "".join(f'[Player{seat} "{name}"]\n' for seat, name in enumerate(players))
    path.write_text(f'[RecordVersion "1"]\n[Event "Scorekeeper"]\n[Variant "standard"]\n{tags}'
                    '[FirstDealer "0"]\n[Result "*"]\n', encoding="utf-8")
    return path


@pytest.mark.parametrize(("players", "reason", "resumed"), [
    # two names equal but for case: no record holds them (mizerka.record.name_key), so the file is
    # refused as a record before the score keeper's own check
    (("Ala", "Bolek", "ala"), "player 3's name: 'ala' is already a player",
     "is not a valid score record: player names must differ: player 0's name 'Ala' and player 2's name 'ala'"),
    (("Ala", "undo", "Ola"), "player 2's name: 'undo' is a command word",
     "cannot be resumed: player 2's name: 'undo' is a command word"),
    (("5", "Ala", "Ola"), "player 1's name: a name cannot be a number",
     "cannot be resumed: player 1's name: a name cannot be a number"),
])
def test_a_resumed_record_with_names_a_new_match_refuses_is_refused(
        tmp_path: Path, players: tuple[str, ...], reason: str, resumed: str) -> None:
    path = record(tmp_path, *players)
    with pytest.raises(EntryError, match=reason):
        ScoreKeeper.new(list(players), 0)  # the same names, the same reason, for a new match
    with pytest.raises(EntryError, match=resumed):
        ScoreKeeper.load(path)
    result = CliRunner().invoke(score_command, ["--resume", str(path)], input="quit\n")
    assert result.exit_code != 0 and resumed in result.output and "Traceback" not in result.output, result.output


def test_a_resumed_record_with_good_names_still_resumes_and_enters_tricks_by_name(tmp_path: Path) -> None:
    keeper = ScoreKeeper.load(record(tmp_path, "Ala", "Bolek", "Ola"))
    assert keeper.players == ("Ala", "Bolek", "Ola")
    keeper.enter_contract("H")
    assert keeper.enter_tricks("Ala 5, Ola 4").tricks == (5, 4, 4)
