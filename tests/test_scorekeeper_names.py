"""``mizerka score``: players' names the score pad takes must be names the record takes, at their own prompt.

An audit found the pad's name check weaker than the record's.  It compared names by ``lower()``, where the record
compares them by :func:`mizerka.record.name_key` ("Straße" and "STRASSE", "Ala" and the full-width "Ａla" are one
name), and it let through an invisible filler (U+3164) or a combining mark first.  Such a name passed its prompt
and was refused only once the match was made: after "Who deals first", which then refused every answer; and with a
variant that fixes the first dealer, where nothing is asked there, the pad printed "Not accepted" for ever.

The same audit found a trick entry such as ``Ada= 5, Ola 4`` "ambiguous" between two readings that were one (the
full name ``Ada=`` and the shortening ``Ada`` then ``=``), and ``mizerka replay`` calling a record with no deal yet
"replayed card by card".
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from mizerka.cli import cli
from mizerka.scorekeeper import EntryError, ScoreKeeper, check_name, find_player


def run(args: list[str], lines: list[str]) -> Result:
    return CliRunner().invoke(cli, ["score", *args], input="".join(line + "\n" for line in lines))


@pytest.mark.parametrize(("first", "second"), [
    ("Straße", "STRASSE"),  # case folding: ß is ss
    ("Ala", "\uff21la"),  # NFKC: the full-width A is A
    ("Ala  Kot", "ala kot"),
])
def test_names_the_record_holds_for_one_are_refused_as_taken(first: str, second: str) -> None:
    with pytest.raises(EntryError, match="is already a player; names must differ"):
        check_name(second, [first])


@pytest.mark.parametrize(("name", "named"), [
    ("\u3164", "U+3164 (HANGUL FILLER)"),
    ("Ala\u200b", "U+200B (ZERO WIDTH SPACE)"),
    ("\u0301Ala", "U+0301 (COMBINING ACUTE ACCENT)"),
    ("Ala\u202e", "U+202E"),
])
def test_a_name_with_a_character_the_record_refuses_is_refused_naming_it(name: str, named: str) -> None:
    with pytest.raises(EntryError, match=named.replace("(", r"\(").replace(")", r"\)").replace("+", r"\+")):
        check_name(name, [])


def test_a_fixed_first_dealer_and_a_refused_name_do_not_loop(tmp_path: Path) -> None:
    """The names are refused at their prompt; the match is made with the names given instead."""
    result = run(["--variant", "standard,first_dealer=0", "--file", str(tmp_path / "x.mzn")],
                 ["Straße", "STRASSE", "Ola", "Ala", "quit"])
    assert result.exit_code == 0, result.output
    assert result.output.count("Not accepted") == 1, result.output
    assert "'STRASSE' is already a player" in result.output
    assert "Stopped in deal 1" in result.output
    assert ScoreKeeper.load(tmp_path / "x.mzn").players == ("Straße", "Ola", "Ala")


def test_a_filler_name_is_refused_before_the_first_dealer_is_asked(tmp_path: Path) -> None:
    result = run(["--file", str(tmp_path / "x.mzn")], ["Ala", "\u3164", "Ola", "Ela", "Ola", "quit"])
    assert result.exit_code == 0, result.output
    assert "U+3164 (HANGUL FILLER)" in result.output
    assert result.output.count("Not accepted") == 1, result.output
    keeper = ScoreKeeper.load(tmp_path / "x.mzn")
    assert keeper.players == ("Ala", "Ola", "Ela") and keeper.dealer_name == "Ola"


def test_a_player_is_found_by_the_record_s_key() -> None:
    assert find_player("STRASSE", ["Ala", "Straße", "Ola"]) == 1
    assert find_player("stras", ["Ala", "Straße", "Ola"]) == 1


def test_one_reading_reached_two_ways_is_not_ambiguous() -> None:
    keeper = ScoreKeeper.new(['"Adam"', "Ada=", "Ola"], "Ola")
    keeper.enter_contract("H")
    result = keeper.enter_tricks("Ada= 5, Ola 4")
    assert result.tricks == (4, 5, 4)


def test_the_replay_of_a_record_with_no_deal_says_so(tmp_path: Path) -> None:
    path = tmp_path / "seated.mzn"
    ScoreKeeper.new(["Ala", "Bolek", "Cezary"], "Ala").save(path)
    result = CliRunner().invoke(cli, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert "a valid record with no deal yet" in result.output and "card by card" not in result.output
