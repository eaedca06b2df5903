"""Defects a user met at the terminal front ends, each fixed with this test.

* A file name ending as a folder's does (``games/``, ``x.mzn/``, ``games/.``) lost its end on its way to a path
  (``Path("games/")`` is ``games``): ``mizerka score --file games/`` saved the match to a new file called ``games``
  and ``--resume x.mzn/`` resumed ``x.mzn``, where ``mizerka play --record games/`` refuses the name; and ``play
  --record x.mzn/`` with a file ``x.mzn`` said that ``x.mzn/`` is a folder and offered ``x.mzn/game.mzn``.
* ``mizerka replay`` of a four-player record listed the dealer who sat the deal out as a player who took 0 tricks
  and scored 0.
* ``mizerka replay`` said that a score-only deal with its contract entered (and its tricks not yet) was "in the
  exchange": a scorekeeper records no exchange; nor was a deal whose exchanges were all made, no card played yet.
* ``mizerka arena`` wrote an empty line on stderr at every run off a terminal (rich's progress bar), before a usage
  error's message too.
* A JSON file holding a list (``[]``, a list of records) was read as the text form: ``line 1: malformed tag '[]'``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from mizerka.cli import cli
from mizerka.deal import KEEP, Phase
from mizerka.match import Match
from mizerka.record import MatchRecord, read
from mizerka.rules import parse_variant

MATCH = ["Ala", "Bolek", "Cezary", "Ala", "NT", "5 4 4", "quit"]


def invoke(*args: str, input: str = "") -> Result:
    return CliRunner().invoke(cli, list(args), input=input)


def listing(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


# -- a name that can only be a folder's -------------------------------------------------------------------------------


@pytest.mark.parametrize("option", ["--file", "--resume", "--export-csv", "--export-record"])
@pytest.mark.parametrize("end", ["/", "/."])
def test_score_refuses_a_file_name_that_names_a_folder_before_the_first_question(
        option: str, end: str, tmp_path: Path) -> None:
    """``--file games/`` used to write the match to a file called ``games`` (the exports likewise)."""
    args = ["score", option, str(tmp_path / "games") + end]
    if option.startswith("--export"):
        args += ["--file", str(tmp_path / "s.mzn")]
    result = invoke(*args, input="\n".join(MATCH) + "\n")
    assert result.exit_code == 2, result.output
    assert f"'{option}'" in result.output and "is a folder: give a file name" in result.output
    assert "Name of player 1" not in result.output and "Traceback" not in result.output
    assert listing(tmp_path) == []


def test_score_does_not_resume_or_overwrite_the_file_before_a_trailing_slash(tmp_path: Path) -> None:
    """``--resume x.mzn/`` resumed ``x.mzn`` (and saved to it); ``--export-csv out.csv/`` replaced ``out.csv``."""
    saved = tmp_path / "x.mzn"
    assert invoke("score", "--file", str(saved), input="\n".join(MATCH) + "\n").exit_code == 0
    before = saved.read_bytes()
    (tmp_path / "out.csv").write_text("mine\n", encoding="utf-8")
    for args in (["--resume", f"{saved}/"], ["--file", str(tmp_path / "new.mzn"), "--export-csv",
                                                f"{tmp_path / 'out.csv'}/"]):
        result = invoke("score", *args, input="H\n7 5 1\nquit\n")
        assert result.exit_code == 2, result.output
        text = " ".join(result.output.split())
        assert "names a folder (it ends with '/')" in text and "is not one: give the file's name without the '/'" \
            in text, text
        assert "Resuming" not in result.output and "Name of player 1" not in result.output
    assert saved.read_bytes() == before
    assert (tmp_path / "out.csv").read_text(encoding="utf-8") == "mine\n"
    assert listing(tmp_path) == ["out.csv", "x.mzn"]


def test_play_record_before_a_trailing_slash_names_the_file_it_is(tmp_path: Path) -> None:
    """It said ``'x.mzn/' is a folder: give a file name, e.g. x.mzn/game.mzn``: x.mzn is a file, no folder."""
    saved = tmp_path / "x.mzn"
    assert invoke("score", "--file", str(saved), input="\n".join(MATCH) + "\n").exit_code == 0
    before = saved.read_bytes()
    result = invoke("play", "--plain", "--record", f"{saved}/", input="quit\n")
    assert result.exit_code == 2, result.output
    text = " ".join(result.output.split())
    assert f"'{saved}/' names a folder (it ends with '/'), but '{saved}' is not one" in text, text
    assert "x.mzn/game.mzn" not in text and "Deal 1" not in result.output
    assert saved.read_bytes() == before


# -- replay: the dealer who sits out, a deal in progress ------------------------------------------------------------


def test_replay_of_four_players_names_the_dealer_who_sat_out(tmp_path: Path) -> None:
    """The deal's line read ``tricks A 5, B 0, C 4, D 4; scores A -2, B 0, …`` for B, the dealer, who sat out."""
    path = tmp_path / "four.mzn"
    lines = ["Ala", "Bolek", "Cezary", "Dorota", "Ala", "H", "Bolek 5, Cezary 4, Dorota 4", "quit"]
    result = invoke("score", "--variant", "four-players", "--file", str(path), input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    result = invoke("replay", str(path))
    assert result.exit_code == 0, result.output
    line = next(x for x in result.output.splitlines() if x.startswith("deal  1:"))
    assert line == ("deal  1: Bolek chose hearts (take); tricks Bolek 5, Cezary 4, Dorota 4; "
                    "scores Bolek -2, Cezary -1, Dorota +3; Ala dealt and sat out"), line
    assert "Ala 0" not in line


def test_replay_of_three_players_says_nothing_of_sitting_out() -> None:
    result = invoke("replay", str(Path(__file__).parent / "data" / "records" / "standard-seed7.mzn"))
    assert result.exit_code == 0 and "sat out" not in result.output


def test_replay_of_a_score_only_deal_with_its_contract_is_not_in_the_exchange(tmp_path: Path) -> None:
    path = tmp_path / "s.mzn"
    result = invoke("score", "--file", str(path), input="Ala\nBolek\nCezary\nAla\nH\nquit\n")
    assert result.exit_code == 0, result.output
    result = invoke("replay", str(path))
    assert result.exit_code == 0, result.output
    assert "deal  1: in progress, hearts chosen, its tricks not entered yet (not scored)" in result.output
    assert "exchange" not in result.output


@pytest.mark.parametrize(("variant", "keeps", "said"), [
    ("standard,first_dealer=0", 1, "in the exchange"),
    ("standard,first_dealer=0", 3, "no card played yet"),
    ("no-exchange,first_dealer=0", 0, "no card played yet"),
])
def test_replay_says_how_far_a_deal_with_cards_got_before_its_first_card(
        variant: str, keeps: int, said: str, tmp_path: Path) -> None:
    """A record with every exchange made and no card played said "in the exchange" too."""
    match = Match(parse_variant(variant), players=["Ala", "Bolek", "Cezary"], seed=4)
    match.play(next(iter(match.legal_actions)))  # forehand's contract
    for _ in range(keeps):
        assert match.deal.phase is Phase.EXCHANGE
        match.play(KEEP)
    if keeps == 3 or variant.startswith("no-exchange"):
        assert match.deal.phase is Phase.PLAY
    path = tmp_path / "r.mzn"
    path.write_text(MatchRecord.from_match(match).to_text(), encoding="utf-8")
    assert len(read(path).deals[-1].exchanges) == keeps
    result = invoke("replay", str(path))
    assert result.exit_code == 0, result.output
    line = next(x for x in result.output.splitlines() if x.startswith("deal  1:"))
    assert line.endswith(f"chosen, {said} (not scored)"), line


# -- arena: nothing on stderr off a terminal -------------------------------------------------------------------------


def test_arena_writes_nothing_on_stderr_off_a_terminal() -> None:
    """rich's transient progress bar left an empty line on stderr at every run (before a usage error's message)."""
    result = CliRunner().invoke(cli, ["arena", "random", "random", "random", "-n", "1", "--workers", "1",
                                      "--backend", "serial", "--tables", "rotations", "--json"])
    assert result.exit_code == 0, result.output
    assert result.stderr == "" and result.stdout.startswith("{")
    result = CliRunner().invoke(cli, ["arena", "random"])
    assert result.exit_code == 2
    assert result.stderr.startswith("Usage: "), repr(result.stderr)


# -- a JSON list given for a record --------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["[]\n", ' [{"format": "mizerka-record", "version": 1}, {}]\n'])
@pytest.mark.parametrize("command", [["replay"], ["analyse"], ["solve"], ["score", "--resume"]])
def test_a_json_list_is_refused_as_json_not_as_a_malformed_tag(text: str, command: list[str], tmp_path: Path) -> None:
    """``[]`` in a ``.json`` file was read as the text form: ``line 1: malformed tag '[]'``."""
    path = tmp_path / "records.json"
    path.write_text(text, encoding="utf-8")
    result = invoke(*command, str(path))
    assert result.exit_code == 2, result.output
    items = len(json.loads(text))
    assert f"a JSON record is an object ({{...}}), not a list of {items} item" in " ".join(result.output.split())
    assert "malformed tag" not in result.output and "Traceback" not in result.output
    assert path.read_text(encoding="utf-8") == text


def test_text_that_is_no_json_is_still_read_as_the_text_form(tmp_path: Path) -> None:
    path = tmp_path / "bad.mzn"
    path.write_text("[1,2\n", encoding="utf-8")
    result = invoke("replay", str(path))
    assert result.exit_code == 2 and "line 1: malformed tag '[1,2'" in result.output
