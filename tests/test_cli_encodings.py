"""Text encodings at the command line: suit symbols where the output shows them, letters where it cannot, and
answers the input cannot decode refused in words.

* Whether the output takes the symbols is found by encoding a sample (UTF-16 and GB18030 do, cp1252 and ISO-8859
  do not), not by its name.  ``solve``, ``analyse``, ``replay``, ``deal``, ``score`` and ``rules`` write letters where
  the output cannot encode ``♠♥♦♣`` (each ended in a UnicodeEncodeError on a cp1252 stream), in prompts, refusals
  and resumed sheets too, and keep the symbols on UTF-8; ``--ascii`` and ``--unicode`` win over the output.
  ``solve --ascii`` names cards in letters in the same columns, ``analyse --ascii`` marks errors with ``x``, and a
  name the output cannot encode is written with ``?``.  One mapping of symbols to letters,
  :func:`mizerka.cli.ascii_text`, serves every command and the line game, whose ``--ascii`` output is ASCII only.
* Standard input decodes with ``errors="replace"``: an answer ``score`` or ``play`` cannot read (UTF-8 answers read
  as cp1250, a byte that is no UTF-8) is refused in words and asked again, never a UnicodeDecodeError traceback.
"""

from __future__ import annotations

import io
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from deal_helpers import record_in_deal_2_exchange
from mizerka import cli as cli_module
from mizerka import terminal
from mizerka.cli import ascii_text, cli, stdout_takes_unicode
from mizerka.deal import Phase
from mizerka.match import Match
from mizerka.rules import parse_variant
from mizerka.solver import cli_solve
from mizerka.terminal import TerminalGame
from tui_helpers import keep_all

RECORD = Path(__file__).parent / "data" / "records" / "standard-seed7.mzn"
TEXT = "NT; lead 0; S:AK H:- D:- C:2 / S:Q2 H:- D:- C:3 / S:- H:- D:A2 C:4"
SYMBOLS = set("♠♥♦♣✗→═…")
SUITS = set("♣♦♥♠")
SCORE_ANSWERS = "Ala\nBolek\nCez\nAla\nH\n5 4 4\nquit\n"


def run(*args: str, charset: str = "utf-8", input: str | None = None) -> Result:
    """The command in-process, its standard output encoded with *charset* strictly (a character the charset lacks
    raises UnicodeEncodeError, where a real stream of ``mizerka`` writes ``?``: either way the suit is lost)."""
    return CliRunner(charset=charset).invoke(cli, list(args), input=input)


def run_mizerka(*args: str, data: bytes, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[bytes]:
    """``mizerka ARGS`` as a process (its real standard streams, set up by ``mizerka.cli.main``), fed *data*."""
    return subprocess.run([sys.executable, "-m", "mizerka", *args], input=data, capture_output=True,
                          env={**os.environ, **env}, cwd=cwd, timeout=120)


# -- an output that cannot encode the suit symbols gets letters ------------------------------------------------------


@pytest.mark.parametrize(("encoding", "expected"), [
    ("utf-8", True), ("utf-16", True), ("gb18030", True), ("cp1252", False), ("iso8859-1", False),
    ("iso8859-2", False), ("ascii", False),
])
def test_stdout_takes_unicode_encodes_a_sample_rather_than_reading_the_name(encoding: str, expected: bool) -> None:
    """UTF-16 and GB18030 take the symbols though their names lack "utf"; cp1252 and ISO-8859 do not."""
    assert stdout_takes_unicode(io.TextIOWrapper(io.BytesIO(), encoding=encoding)) is expected


def test_stdout_takes_unicode_without_an_encoding_says_no() -> None:
    assert stdout_takes_unicode(io.BytesIO()) is False


@pytest.mark.parametrize("args", [
    ("solve", TEXT),
    ("solve", str(RECORD), "--deal", "1"),
    ("solve", str(RECORD), "--after", "30", "--maxn"),
    ("analyse", str(RECORD), "--deal", "1"),
    ("replay", str(RECORD)),
    ("deal", "--seed", "3"),
])
def test_commands_write_letters_to_an_output_that_cannot_encode_symbols(args: tuple[str, ...]) -> None:
    """With a cp1252 output (Windows, redirected to a file) each command ended in a UnicodeEncodeError."""
    result = run(*args, charset="cp1252")
    assert result.exit_code == 0 and result.exception is None, (result.output, result.exception)
    assert result.output.isascii() and result.output.strip()
    # the same command on a UTF-8 output keeps its symbols (the default follows the output)
    utf8 = run(*args)
    assert utf8.exit_code == 0 and SYMBOLS & set(utf8.output)


def test_an_explicit_choice_wins_over_the_output() -> None:
    ascii_output = run("deal", "--seed", "3", "--ascii").output
    assert ascii_output.isascii() and "S: " in ascii_output
    assert "♠" in run("deal", "--seed", "3", "--unicode", charset="utf-8").output
    assert "♠" in run("replay", str(RECORD), "--unicode").output
    assert run("replay", str(RECORD), "--ascii").output.isascii()


def test_solve_ascii_writes_each_card_in_letters_in_the_same_columns() -> None:
    """`mizerka solve` had no --ascii; now its values lines name cards as the position's text does."""
    result = run("solve", TEXT, "--ascii")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [TEXT, "seat 0 to play; values are tricks for seat 0 (most is best for it)",
                                          "  AS 2", "  KS 2", "  2C 0"]
    # --unicode keeps the output exactly what it was
    assert run("solve", TEXT, "--unicode").output == cli_solve(TEXT) + "\n"
    tens = run("solve", "NT; lead 0; S:T / S:2 / S:3", "--ascii").output
    assert tens.splitlines()[-1] == "  TS 1"


def test_analyse_ascii_marks_errors_with_x_and_is_all_ascii() -> None:
    """The header and every error line kept '✗' (U+2717) under --ascii."""
    result = run("analyse", str(RECORD), "--deal", "1", "--ascii")
    assert result.exit_code == 0, result.output
    assert result.output.isascii(), [line for line in result.output.splitlines() if not line.isascii()][:2]
    assert "x marks a card that cost tricks" in result.output
    assert "  x cost 1 trick (best: " in result.output
    assert "✗ cost" in run("analyse", str(RECORD), "--deal", "1", "--unicode").output


def test_names_an_output_cannot_encode_are_replaced_not_a_traceback(tmp_path: Path) -> None:
    """With a cp1252 output the suits were letters, but a player named Łucja still ended ``replay`` and
    ``analyse`` (``--ascii`` too) in a UnicodeEncodeError traceback (found by the session's review).  Such a
    character is written as ``?`` now."""
    record = record_in_deal_2_exchange()
    text = record.to_text().replace('"A"', '"Łucja"').replace('"B"', '"Żaneta"')
    assert "Łucja" in text
    path = tmp_path / "polish.mzn"
    path.write_text(text, encoding="utf-8")
    env = dict(os.environ, PYTHONIOENCODING="cp1252")
    for args in (["replay", str(path)], ["replay", str(path), "--ascii"], ["analyse", str(path), "--ascii"]):
        done = subprocess.run([sys.executable, "-m", "mizerka", *args], env=env, capture_output=True, timeout=120)
        assert done.returncode == 0 and b"Traceback" not in done.stderr, (args, done.stderr[-400:])
        assert b"?ucja" in done.stdout, (args, done.stdout[:300])


def test_score_writes_letters_to_an_output_that_cannot_encode_symbols(tmp_path: Path) -> None:
    """The contract prompt read "[? ? ? ? NT MZ]" and the sheet's columns "?  ?  ?  ?" on cp1252."""
    result = run("score", "--file", str(tmp_path / "x.mzn"), charset="cp1252", input=SCORE_ANSWERS)
    assert result.exit_code == 0 and result.exception is None, (result.output, result.exception)
    assert result.output.isascii()
    assert "Contract chosen by Bolek [C D H S NT MZ]" in result.output
    assert "Deal 1, H (take): tricks of Ala, Bolek, Cez" in result.output
    assert "Deal 1 (hearts, take): Bolek 4 of 7 -> -3; Cez 4 of 5 -> -1; Ala 5 of 1 -> +4" in result.output
    assert "player  C  D  H  S  NT  MZ  total" in result.output
    assert "\n1     Ala     Bolek    H         take  5 4 4" in result.output


def test_score_keeps_symbols_on_a_utf8_output_and_ascii_wins_there(tmp_path: Path) -> None:
    utf8 = run("score", "--file", str(tmp_path / "a.mzn"), input=SCORE_ANSWERS)
    assert utf8.exit_code == 0 and "[♣ ♦ ♥ ♠ NT MZ]" in utf8.output and "Deal 1, ♥ (take)" in utf8.output
    assert "→" in utf8.output
    chosen = run("score", "--file", str(tmp_path / "b.mzn"), "--ascii", input=SCORE_ANSWERS.replace("quit", "?\nquit"))
    assert chosen.exit_code == 0 and chosen.output.isascii() and "[C D H S NT MZ]" in chosen.output
    # the help names the letters, without the symbols it cannot show
    assert "Contracts: C D H S (or the suit's name: clubs/trefl," in chosen.output


def test_score_writes_letters_in_its_refusals_and_in_a_resumed_sheet(tmp_path: Path) -> None:
    """A refusal names a contract by its symbol in the library (EntryError): the session writes it as a letter."""
    path = tmp_path / "x.mzn"
    first = run("score", "--file", str(path), "--ascii", input=SCORE_ANSWERS)
    assert first.exit_code == 0
    resumed = run("score", "--resume", str(path), charset="cp1252", input="Cez\nMZ\nquit\n")
    assert resumed.exit_code == 0 and resumed.exception is None, (resumed.output, resumed.exception)
    assert resumed.output.isascii()
    assert "player  C  D  H  S  NT  MZ  total" in resumed.output  # the sheet shown on resuming


def test_score_refusal_names_a_used_contract_by_its_letter(tmp_path: Path) -> None:
    # Cez deals first, so Ala chooses in deal 1 and again in deal 4 (Bolek and Cez choose in between)
    answers = "Ala\nBolek\nCez\nCez\nH\n5 4 4\nH\n5 4 4\nH\n5 4 4\nH\nquit\n"
    result = run("score", "--file", str(tmp_path / "x.mzn"), "--ascii", input=answers)
    assert result.exit_code == 0
    assert "Not accepted: Ala has no H left to choose (already used); choose from C D S NT MZ." in result.output


def test_rules_writes_letters_to_an_output_that_cannot_encode_symbols() -> None:
    result = run("rules", charset="cp1252")
    assert result.exit_code == 0 and result.exception is None, (result.output, result.exception)
    assert "  C D H S   that suit is trumps; take tricks" in result.output
    assert not SUITS & set(result.output)
    assert "  ♣ ♦ ♥ ♠   that suit is trumps" in run("rules").output
    ascii_output = run("rules", "--ascii").output
    assert "  C D H S   that suit is trumps" in ascii_output and "–" not in ascii_output  # dashes too
    # the variants' sources cite the rule book's sections (§8) in ASCII too; nothing else is left
    assert "source: RULES.md section 8 (" in ascii_output and ascii_output.isascii(), \
        sorted({c for c in ascii_output if not c.isascii()})
    assert "  ♣ ♦ ♥ ♠   that suit" in run("rules", "--unicode", charset="utf-8").output


def test_one_mapping_of_suit_symbols_to_letters() -> None:
    """The line game, replay, score and rules share mizerka.cli.ascii_text (the line game had its own copies)."""
    assert terminal.ascii_text is ascii_text
    assert ascii_text("♣ ♦ ♥ ♠ → ═ …") == "C D H S -> = ..."
    assert not hasattr(terminal, "_SUIT_LETTERS") and not hasattr(cli_module, "_SUIT_LETTERS")


# -- the line game's --ascii -----------------------------------------------------------------------------------------


def test_ascii_output_is_ascii_only() -> None:
    """With ``--ascii`` the deal's header was framed with ``═══``, lists were joined with ``·``, tricks and scores
    pointed with ``→``, and the help and the engine's refusals showed ``♥``."""
    match = Match(parse_variant("four-players,contracts=NT+MZ,first_dealer=3"),
                  players=["You", "Ala", "Bolek", "Cezary"], seed=11)
    rng = random.Random(1)
    extra = ["?", "hand", "sheet", "last", "review", "review 9", "undo", "QQ", "ZZ", "2C 2C", "AS"]
    out: list[str] = []

    def read(prompt: str) -> str:
        out.append(prompt)
        obs = match.observation(0)
        if rng.random() < 0.25:
            return rng.choice(extra)
        if obs.phase is Phase.EXCHANGE:
            return " ".join(str(c) for c in list(obs.hand)[: rng.randrange(0, min(3, obs.talon_size) + 1)]) or "-"
        return str(rng.choice(list(obs.legal_actions)))

    others = {s: keep_all for s in (1, 2, 3)}
    game = TerminalGame(match, 0, others, read=read, write=out.append, unicode=False)
    game.run()
    text = "\n".join(out)
    for needed in ("=== Deal 1 of ", "Totals: ", "Tricks: ", " -> ", "Not accepted: ", "Commands at any prompt",
                   "Last trick: ", "Summary", "The match is over."):
        assert needed in text, needed
    assert [line for line in text.splitlines() if not line.isascii()] == []


def test_ascii_text() -> None:
    assert ascii_text("═══ Deal 2 of 6 ═══  dealer: you · FH Ala") == "=== Deal 2 of 6 ===  dealer: you, FH Ala"
    assert ascii_text("Ala 5 of 5 → 0; Bolek 3♥ ✗ …") == "Ala 5 of 5 -> 0; Bolek 3H x ..."
    assert ascii_text("Łucja") == "Łucja"  # a name keeps its letters


def test_the_command_line_with_ascii_writes_ascii_only() -> None:
    """The whole command: its opening lines, the deal, the help, a refusal, and the lines after ``quit``."""
    result = CliRunner().invoke(cli, ["play", "--plain", "--ascii", "--seed", "3", "--variant",
                                      "standard,first_dealer=2", "--opponents", "random"],
                                input="?\nQQ\nNT\n2C 2C\n-\nlast\nquit\n")
    assert result.exit_code == 0, result.output
    assert "=== Deal 1 of 18 ===  dealer: Bolek, FH you, MH Ala, D Bolek" in result.output
    assert "Totals: You 0, Ala 0, Bolek 0" in result.output
    assert result.output.isascii(), [line for line in result.output.splitlines() if not line.isascii()]


# -- answers the input's encoding cannot decode ----------------------------------------------------------------------


def test_stdin_is_made_to_replace_bytes_it_cannot_decode(monkeypatch: pytest.MonkeyPatch) -> None:
    """main() makes standard input decode with errors="replace", where the output is made tolerant."""
    stdin = io.TextIOWrapper(io.BytesIO("Łukasz\n".encode()), encoding="cp1250")
    monkeypatch.setattr(sys, "stdin", stdin)
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(io.BytesIO(), encoding="utf-8"))
    cli_module._replace_unencodable()
    assert sys.stdin.readline() == "Ĺ\ufffdukasz\n"  # C5 is Ĺ in cp1250, 81 is no character there


def test_score_refuses_an_answer_its_input_cannot_decode_in_words(tmp_path: Path) -> None:
    """A UTF-8 file of answers read as cp1250 (a pipe on Polish Windows): a UnicodeDecodeError traceback."""
    answers = "Łukasz\nBolek\nCez\nBolek\nquit\n".encode()
    result = run_mizerka("score", "--file", "x.mzn", data=answers, env={"PYTHONIOENCODING": "cp1250"}, cwd=tmp_path)
    stdout, stderr = result.stdout.decode("cp1250"), result.stderr.decode("cp1250")
    assert b"Traceback" not in result.stderr and result.returncode == 0, stderr
    assert ("Not accepted: the answer holds bytes the input's encoding (cp1250) cannot read; type it again (for a "
            "file of answers in UTF-8, set PYTHONIOENCODING=utf-8).") in stdout
    assert "Stopped before the match began" in stdout  # the name was asked again; Bolek twice was refused too


def test_score_refuses_a_byte_a_utf8_input_cannot_decode(tmp_path: Path) -> None:
    """PYTHONIOENCODING=utf-8 (the advice for a UTF-8 file) decodes strictly: a byte that is no UTF-8 ended in a
    traceback too (under a UTF-8 locale it was kept as a lone surrogate and refused as a "control character").
    Now it is refused for what it is, and the next answers are taken and saved in the record."""
    answers = b"\xffAla\nAla\nBolek\nCez\nAla\nquit\n"
    result = run_mizerka("score", "--file", "x.mzn", data=answers, env={"PYTHONIOENCODING": "utf-8"}, cwd=tmp_path)
    stdout = result.stdout.decode("utf-8")
    assert b"Traceback" not in result.stderr and result.returncode == 0
    assert "cannot read; type it again" in stdout and "control characters" not in stdout
    # the advice for a UTF-8 file would change nothing here: the input is read as UTF-8 already
    assert "(the file of answers is not in UTF-8)" in stdout and "set PYTHONIOENCODING" not in stdout
    assert "Ala" in (tmp_path / "x.mzn").read_text(encoding="utf-8")


def test_play_refuses_an_answer_its_input_cannot_decode_in_words(tmp_path: Path) -> None:
    answers = "Łukasz\nquit\n".encode()
    result = run_mizerka("play", "--plain", "--seed", "1", data=answers, env={"PYTHONIOENCODING": "cp1250"},
                     cwd=tmp_path)
    stdout = result.stdout.decode("cp1250")
    assert b"Traceback" not in result.stderr and result.returncode == 0, result.stderr.decode("cp1250")
    assert "Not accepted: invalid action 'Ĺ?ukasz'" in stdout  # U+FFFD written as ? on the cp1250 output
    assert "You left the match in deal 1" in stdout
