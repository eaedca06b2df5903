"""Audit s21 of the commands `solve`, `analyse`, `replay` and `deal`: outputs that cannot encode suit symbols,
`analyse --ascii`, Ctrl-C during a long `solve`, and `solve`'s default deal in a record saved mid-exchange."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from mizerka.cli import cli, stdout_takes_unicode
from mizerka.deal import Phase
from mizerka.match import Match
from mizerka.record import MatchRecord, RecordError
from mizerka.rules import get_variant
from mizerka.solver import cli_solve
from mizerka.solver.cli import position_from_record

RECORD = Path(__file__).parent / "data" / "records" / "standard-seed7.mzn"
TEXT = "NT; lead 0; S:AK H:- D:- C:2 / S:Q2 H:- D:- C:3 / S:- H:- D:A2 C:4"
SYMBOLS = set("♠♥♦♣✗→═…")


def run(*args: str, charset: str = "utf-8") -> Result:
    """The command in-process, its standard output encoded with *charset* (strictly: a character the charset
    lacks raises UnicodeEncodeError, as on a real cp1252 stream)."""
    return CliRunner(charset=charset).invoke(cli, list(args))


# -- 1. an output that cannot encode the symbols -----------------------------------------------------------


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


# -- 2. analyse --ascii ------------------------------------------------------------------------------------


def test_analyse_ascii_marks_errors_with_x_and_is_all_ascii() -> None:
    """The header and every error line kept '✗' (U+2717) under --ascii."""
    result = run("analyse", str(RECORD), "--deal", "1", "--ascii")
    assert result.exit_code == 0, result.output
    assert result.output.isascii(), [line for line in result.output.splitlines() if not line.isascii()][:2]
    assert "x marks a card that cost tricks" in result.output
    assert "  x cost 1 trick (best: " in result.output
    assert "✗ cost" in run("analyse", str(RECORD), "--deal", "1", "--unicode").output


# -- 3. Ctrl-C during a long solve -------------------------------------------------------------------------


SLOW = ("MZ; lead 0; S:J854 H:Q7643 D:K52 C:T9863 / S:K732 H:T982 D:A9763 C:AQ52 / "
        "S:AT96 H:AKJ5 D:QJT84 C:KJ74")
"""A 3x17-card Mizerka position: minutes of search for the C kernel."""


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # a background job's child would otherwise ignore SIGINT


@pytest.mark.skipif(os.name != "posix", reason="sends SIGINT to a child process")
def test_ctrl_c_stops_a_long_solve_at_once_with_status_130() -> None:
    """The kernel releases the GIL and never checks signals: SIGINT waited for the whole search."""
    proc = subprocess.Popen([sys.executable, "-m", "mizerka", "solve", SLOW], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, preexec_fn=_default_sigint)
    try:
        time.sleep(1.5)
        assert proc.poll() is None, "the position was solved too fast to test an interrupt"
        proc.send_signal(signal.SIGINT)
        start = time.monotonic()
        out, err = proc.communicate(timeout=8)
        assert time.monotonic() - start < 5
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130, (proc.returncode, err)
    assert err.decode().strip() == "Aborted!" and out == b""


def test_solve_errors_from_the_worker_thread_still_read_as_messages() -> None:
    """The search runs in a thread; its errors still reach the user as a message and exit 2."""
    result = run("solve", "NT; lead 0; S:AK / S:Q / S:2", "--seat", "7")
    assert result.exit_code == 2 and "bad position" in result.output and "Traceback" not in result.output


# -- 4. solve's default deal in a record saved during an exchange ------------------------------------------


def _record_in_deal_2_exchange() -> MatchRecord:
    """Deal 1 played out, deal 2's contract chosen and forehand's exchange made: saved mid-exchange."""
    match = Match(get_variant("standard"), players=["A", "B", "C"], seed=5)
    while not (match.deal_no == 2 and match.deal.phase is Phase.EXCHANGE and match.deal.history):
        match.push(next(iter(match.legal_actions)))
    match.push(next(iter(match.legal_actions)))  # forehand's exchange
    assert match.deal_no == 2 and match.deal.phase is Phase.EXCHANGE
    return MatchRecord.from_match(match)


def test_solve_defaults_to_the_last_deal_that_reached_its_play(tmp_path: Path) -> None:
    record = _record_in_deal_2_exchange()
    number, deal, _ = position_from_record(record)
    assert number == 1 and deal.phase is Phase.PLAY and not deal.tricks  # deal 1 is over: its opening lead
    path = tmp_path / "exchange.mzn"
    path.write_text(record.to_text(), encoding="utf-8")
    result = run("solve", str(path))
    assert result.exit_code == 0, result.output
    assert result.output.startswith("deal 1, ")
    # asked for by number, deal 2 keeps its error, which now names the deals that can be solved
    asked = run("solve", str(path), "--deal", "2")
    assert asked.exit_code == 2 and "deal 2 has not reached its play yet" in asked.output
    assert "deals that can be solved: 1" in asked.output
    with pytest.raises(RecordError, match=r"deals that can be solved: 1\)"):
        position_from_record(record, 2)


def test_a_record_with_no_deal_in_play_says_none_can_be_solved(tmp_path: Path) -> None:
    match = Match(get_variant("standard"), players=["A", "B", "C"], seed=5)
    match.push(next(iter(match.legal_actions)))  # the contract: deal 1 in its exchange
    path = tmp_path / "first.mzn"
    path.write_text(MatchRecord.from_match(match).to_text(), encoding="utf-8")
    result = run("solve", str(path))
    assert result.exit_code == 2 and "has not reached its play yet" in result.output
    assert "deals that can be solved: none" in result.output



def test_names_an_output_cannot_encode_are_replaced_not_a_traceback(tmp_path: Path) -> None:
    """With a cp1252 output the suits were letters, but a player named Łucja still ended ``replay`` and
    ``analyse`` (``--ascii`` too) in a UnicodeEncodeError traceback (found by the session's review).  Such a
    character is written as ``?`` now."""
    record = _record_in_deal_2_exchange()
    text = record.to_text().replace('"A"', '"Łucja"').replace('"B"', '"Żaneta"')
    assert "Łucja" in text
    path = tmp_path / "polish.mzn"
    path.write_text(text, encoding="utf-8")
    env = dict(os.environ, PYTHONIOENCODING="cp1252")
    for args in (["replay", str(path)], ["replay", str(path), "--ascii"], ["analyse", str(path), "--ascii"]):
        done = subprocess.run([sys.executable, "-m", "mizerka", *args], env=env, capture_output=True, timeout=120)
        assert done.returncode == 0 and b"Traceback" not in done.stderr, (args, done.stderr[-400:])
        assert b"?ucja" in done.stdout, (args, done.stdout[:300])
