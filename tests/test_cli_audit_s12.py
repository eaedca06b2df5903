"""Bad input at the command line and in records (audit, session 12): each test failed before its fix (the C0
ESC case of the control-character test excepted: it guards what was already refused).

A message and an exit code, never a traceback; no raw Python warning; nothing said twice.
"""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from mizerka.cli import cli
from mizerka.deal import KEEP, Action, Exchange, Observation, Phase
from mizerka.match import Match
from mizerka.record import MatchRecord, RecordError, RecordSyntaxError, read, read_json, read_text
from mizerka.rules import parse_variant
from mizerka.terminal import TerminalGame

RECORDS = Path(__file__).parent / "data" / "records"


def invoke(*args: str, input: str | None = None) -> click.testing.Result:
    return CliRunner().invoke(cli, list(args), input=input)


# -- mizerka analyse --deal with a number of thousands of digits ----------------------------------------------


@pytest.mark.parametrize("deals", ["9" * 5000, "1-" + "9" * 5000])
def test_analyse_a_deal_number_too_long_for_int_is_a_usage_error(deals: str) -> None:
    result = invoke("analyse", str(RECORDS / "partial.mzn"), "--deal", deals)
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "past the last deal" in result.output


def test_analyse_deal_numbers_are_ascii_digits() -> None:
    result = invoke("analyse", str(RECORDS / "partial.mzn"), "--deal", "\u0663")  # Arabic-Indic three
    assert result.exit_code == 2
    assert "is not a deal number" in result.output


# -- a file that never ends (/dev/zero) or is huge ------------------------------------------------------------


def test_read_refuses_a_file_larger_than_a_record_instead_of_filling_the_memory(tmp_path: Path,
                                                                                 monkeypatch: pytest.MonkeyPatch
                                                                                 ) -> None:
    import mizerka.record as record_module

    monkeypatch.setattr(record_module, "MAX_RECORD_BYTES", 1000)
    big = tmp_path / "big.mzn"
    big.write_text((RECORDS / "partial.mzn").read_text(encoding="utf-8") + "%" * 2000 + "\n", encoding="utf-8")
    with pytest.raises(RecordSyntaxError, match="larger than"):
        read(big)
    small = tmp_path / "small.mzn"
    small.write_text("%\n" * 10, encoding="utf-8")
    with pytest.raises(RecordSyntaxError, match="RecordVersion"):
        read(small)


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_replay_of_an_endless_file_stops_with_a_message() -> None:
    code = ("import resource, sys; resource.setrlimit(resource.RLIMIT_AS, (1 << 31, 1 << 31)); "
            "sys.argv = ['mizerka', 'replay', '/dev/zero']; from mizerka.cli import main; main()")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and "larger than" in done.stderr


# -- an output that cannot be written ---------------------------------------------------------------------------


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_full_disk_on_the_output_is_a_message_not_a_traceback() -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "mizerka", "deal", "--seed", "1"], stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=120)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr
    assert "cannot write the output" in done.stderr


# -- a non-zero-sum variant: one line, never Python's warning -----------------------------------------------------


def literal_record() -> MatchRecord:
    rules = parse_variant("seed002-literal")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        match = Match(rules, players=["A", "B", "C"], seed=5)
    for _ in range(30):
        match.play(match.deal.forced_action() or next(iter(match.legal_actions)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return MatchRecord.from_match(match)


def test_reading_a_non_zero_sum_record_warns_nothing() -> None:
    text = literal_record().to_text()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        record = read_text(text)
        record.to_match()


def test_replay_of_a_non_zero_sum_record_prints_no_python_warning(tmp_path: Path) -> None:
    path = tmp_path / "literal.mzn"
    path.write_text(literal_record().to_text(), encoding="utf-8")
    done = subprocess.run([sys.executable, "-W", "default", "-m", "mizerka", "replay", str(path)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "UserWarning" not in done.stderr and "Match(" not in done.stderr


def test_play_with_a_non_zero_sum_variant_says_it_once_as_a_line() -> None:
    for variant, expected in (("seed002-literal", 1), ("standard,quota_ordinary=7/5/2", 1)):
        result = invoke("play", "--plain", "--seed", "1", "--opponents", "random", "--variant", variant,
                        input="quit\n")
        assert result.exit_code == 0, result.output
        assert "UserWarning" not in result.output
        assert result.output.count("not zero-sum") == expected, result.output


def test_arena_with_a_non_zero_sum_variant_says_it_once_as_a_line() -> None:
    result = invoke("arena", "random", "random", "random", "-n", "1", "--workers", "1", "--tables", "rotations",
                    "--variant", "seed002-literal", "--json")
    assert result.exit_code == 0, result.output
    assert "UserWarning" not in result.output
    # the warning once; the JSON's "rules" (every field of the rules, their source's text too) is data, not a warning
    warnings = [line for line in result.output.splitlines() if not line.startswith("{")]
    assert sum(line.count("not zero-sum") for line in warnings) == 1, result.output


# -- JSON records: the place once; the version the integer 1 ------------------------------------------------


def test_json_errors_name_the_deal_once() -> None:
    data = json.loads((RECORDS / "standard-seed7.json").read_text(encoding="utf-8"))
    data["deals"][0]["dealer"] = "1"
    with pytest.raises(RecordSyntaxError) as caught:
        read_json(json.dumps(data))
    assert str(caught.value) == "deal 1: field 'dealer' has the wrong type (str)"
    data = json.loads((RECORDS / "standard-seed7.json").read_text(encoding="utf-8"))
    data["deals"][0]["tricks"][1]["leader"] = "0"
    with pytest.raises(RecordSyntaxError) as caught:
        read_json(json.dumps(data))
    assert str(caught.value) == "deal 1, trick 2: field 'leader' has the wrong type (str)"
    assert caught.value.trick_no == 2
    del data["deals"][0]["deal"]
    with pytest.raises(RecordSyntaxError) as caught:
        read_json(json.dumps(data))
    assert str(caught.value) == "deal 1: no 'deal' field"


def test_json_version_must_be_the_integer_one() -> None:
    data = json.loads((RECORDS / "standard-seed7.json").read_text(encoding="utf-8"))
    data["version"] = 1.0
    with pytest.raises(RecordSyntaxError, match="version"):
        read_json(json.dumps(data))


# -- the text form: ASCII digits; names without terminal controls -------------------------------------------------


def test_text_record_numbers_are_ascii_digits() -> None:
    text = (RECORDS / "score-only.mzn").read_text(encoding="utf-8")
    assert '[FirstDealer "0"]' in text
    with pytest.raises(RecordSyntaxError, match="first dealer must be a whole number"):
        read_text(text.replace('[FirstDealer "0"]', '[FirstDealer "\u0660"]'))  # Arabic-Indic zero


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


# -- the terminal game: an empty talon is announced once ---------------------------------------------------------


def test_an_empty_talon_keep_is_announced_once() -> None:
    match = Match(parse_variant("standard,first_dealer=0"), players=["You", "Ala", "Bolek"], seed=1)

    def forehand(obs: Observation) -> Action:
        if obs.phase is Phase.EXCHANGE:
            return Exchange(obs.hand) if obs.talon_size else KEEP  # forehand takes the whole talon
        return obs.legal_actions[0]

    def read_answer(prompt: str) -> str:
        raise EOFError

    output: list[str] = []
    game = TerminalGame(match, 0, {1: forehand, 2: forehand}, read=read_answer, write=output.append)
    with pytest.raises(EOFError):
        game.run()
    assert "The talon is empty: you keep your hand." in output
    assert "You keep your hand." not in output


# -- mizerka deal: the variant's first dealer ------------------------------------------------------------------


def test_deal_deals_from_the_variants_first_dealer_by_default() -> None:
    result = invoke("deal", "--seed", "1", "--variant", "standard,first_dealer=1")
    assert result.exit_code == 0, result.output
    assert "dealer seat 1" in result.output.splitlines()[0]
    result = invoke("deal", "--seed", "1", "--variant", "standard,first_dealer=1", "--dealer", "2")
    assert "dealer seat 2" in result.output.splitlines()[0]
    assert "dealer seat 0" in invoke("deal", "--seed", "1").output.splitlines()[0]


# -- mizerka solve: a folder -----------------------------------------------------------------------------------


def test_solve_names_a_folder_instead_of_parsing_its_path_as_a_position(tmp_path: Path) -> None:
    result = invoke("solve", str(tmp_path))
    assert result.exit_code == 2
    assert "a folder, not a record file" in result.output and "bad position" not in result.output


def test_deal_with_a_non_zero_sum_variant_says_it_once_as_a_line() -> None:
    """``deal`` plays nothing, but the variant's note is said as for every command (session 14: a named variant
    said nothing, the same variant with an option did)."""
    for variant in ("seed002-literal", "seed002-literal,first_dealer=1"):
        result = invoke("deal", "--seed", "1", "--variant", variant)
        assert result.exit_code == 0, result.output
        assert result.output.count("not zero-sum") == 1, result.output
    assert "zero-sum" not in invoke("deal", "--seed", "1").output
