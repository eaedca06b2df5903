"""``mizerka --help`` and a record read from standard input (``-``).

``mizerka --help`` summed the tool up as "play it, replay records, deal, solve" (no score, serve, analyse, arena or
tables), and click cut most commands' lines mid-sentence ("Play a whole match against computer players: full
screen at a...").  ``mizerka replay -`` and ``mizerka analyse -`` said "File '-' does not exist" (only
``/dev/stdin`` worked), and ``mizerka solve -`` that it was no file and no position.  docs/cli.md, where the README
sends users for the command, had no section for ``analyse``, ``arena`` or ``serve``.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result

import mizerka.record
from mizerka.cli import COMMANDS, STDIN, SUMMARIES, cli, read_record_file, record_file_name

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "data" / "records" / "standard-seed7.mzn"


def invoke(*args: str, input: bytes | str | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=input, terminal_width=80)


def rule_breaking_record() -> bytes:
    """The golden record with two cards of its first trick swapped: seat 0 plays a card it does not hold."""
    text = GOLDEN.read_text(encoding="utf-8")
    assert "1 @2: TC 6C 7C" in text
    return text.replace("1 @2: TC 6C 7C", "1 @2: TC 7C 6C").encode("utf-8")


# -- mizerka --help ----------------------------------------------------------------------------------------------


def test_the_summary_names_what_the_tool_does() -> None:
    result = invoke("--help")
    assert result.exit_code == 0, result.output
    head = " ".join(result.output.split("Options:")[0].split())
    assert "play it, replay records, deal, solve" not in head
    for words in ("play", "score", "replay", "analyse", "solve", "server", "computer players"):
        assert words in head, words


def test_every_command_has_a_summary_shown_whole_at_80_columns() -> None:
    assert set(SUMMARIES) == set(COMMANDS)
    result = invoke("--help")
    assert result.exit_code == 0, result.output
    listing = result.output.split("Commands:\n")[1].splitlines()
    assert len(listing) == len(COMMANDS), listing  # one line each: none wrapped onto a second
    for line in listing:
        assert len(line) <= 80 and not line.endswith("..."), line
        name, summary = line.split(maxsplit=1)
        assert summary == SUMMARIES[name]
        assert summary.endswith(".") and summary.count(".") == 1, summary  # one whole sentence


def test_a_command_s_own_short_help_wins_over_the_summary() -> None:
    from mizerka.cli import LazyGroup

    group = LazyGroup(name="demo", lazy_commands={"rules": "mizerka.cli:rules_command"})
    group.add_command(click.Command("extra", short_help="Its own line.", help="A long help. " * 20))
    output = CliRunner().invoke(group, ["--help"], terminal_width=80).output
    assert "extra  Its own line." in output and f"rules  {SUMMARIES['rules']}" in output


# -- a record on standard input ----------------------------------------------------------------------------------


@pytest.mark.parametrize("command", [["replay"], ["replay", "--json"], ["analyse", "--deal", "1"],
                                     ["solve", "--deal", "2"]])
def test_dash_reads_the_record_from_standard_input(command: list[str]) -> None:
    from_file = invoke(*command[:1], str(GOLDEN), *command[1:])
    from_stdin = invoke(*command[:1], "-", *command[1:], input=GOLDEN.read_bytes())
    assert from_file.exit_code == from_stdin.exit_code == 0, from_stdin.output
    assert from_stdin.stdout == from_file.stdout.replace(str(GOLDEN), "standard input")


@pytest.mark.parametrize("command", ["replay", "analyse", "solve"])
@pytest.mark.parametrize(("data", "problem"), [
    (b"", "no RecordVersion tag: this is not a mizerka record"),
    (b"\xff\xfe[RecordVersion", "a record is UTF-8 text: 'utf-8' codec can't decode byte 0xff"),
    (rule_breaking_record(), "deal 1, trick 1, card 7C: illegal action 7C: 7C is not in seat 0's hand"),
])
def test_standard_input_is_checked_as_a_file_is(command: str, data: bytes, problem: str, tmp_path: Path) -> None:
    path = tmp_path / "game.mzn"
    path.write_bytes(data)
    from_file = invoke(command, str(path))
    from_stdin = invoke(command, "-", input=data)
    assert from_file.exit_code == from_stdin.exit_code == 2, from_stdin.output
    assert from_stdin.stderr == from_file.stderr.replace(str(path), "standard input")
    assert from_stdin.stderr.startswith(f"Error: standard input: {problem}"), from_stdin.stderr
    assert "Usage:" not in from_stdin.stderr and "Traceback" not in from_stdin.output


def test_a_byte_order_mark_and_json_are_read_from_standard_input() -> None:
    json_record = (GOLDEN.parent / "standard-seed7.json").read_bytes()
    for data in (b"\xef\xbb\xbf" + GOLDEN.read_bytes(), json_record):
        result = invoke("replay", "-", input=data)
        assert result.exit_code == 0, result.output
        assert result.stdout.startswith("standard input: a valid record")


def test_standard_input_larger_than_a_record_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mizerka.record, "MAX_RECORD_BYTES", 1024 * 1024)
    result = invoke("replay", "-", input=GOLDEN.read_bytes() + b"%" * (1024 * 1024))
    assert result.exit_code == 2
    assert result.stderr == "Error: standard input: the input is larger than 1 MiB: not a record\n"


def test_read_record_file_and_its_name() -> None:
    assert STDIN == "-"
    assert record_file_name(Path("-")) == record_file_name("-") == "standard input"
    assert record_file_name(GOLDEN) == str(GOLDEN)
    assert read_record_file(GOLDEN) == mizerka.record.read(GOLDEN)


def test_a_pipe_to_dash_is_read_by_the_installed_command() -> None:
    """The real thing: ``cat game.mzn | mizerka replay -`` in a process of its own."""
    done = subprocess.run([sys.executable, "-m", "mizerka", "replay", "-"], input=GOLDEN.read_bytes(),
                          capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(b"standard input: a valid record, replayed card by card")


def test_score_resume_dash_is_refused_in_words_before_the_first_question(tmp_path: Path) -> None:
    """``score --resume -`` said ``cannot read -: No such file or directory``: the score keeper reads its entries
    from standard input, so ``-`` cannot be the saved match there, and the refusal says so (a file called - is
    ./-)."""
    result = CliRunner().invoke(cli, ["score", "--resume", "-"], input="Ala\n")
    assert result.exit_code == 2, result.output
    assert "'--resume': - would be standard input, where the score keeper reads your entries" in result.stderr
    assert "Name of player" not in result.output and "Traceback" not in result.output


# -- docs/cli.md names every command -----------------------------------------------------------------------------


def test_the_command_page_has_a_section_for_every_command() -> None:
    page = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    headings = re.findall(r"^## `mizerka ([a-z]+)", page, re.MULTILINE)
    assert sorted(headings) == sorted(COMMANDS)
    for other in ("analysis.md", "arena.md", "server.md", "scorekeeper.md", "solver.md", "tui.md"):
        assert f"]({other})" in page, other
    assert "mizerka replay -" in page and "standard input" in page
    index = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    assert "play / replay / rules / deal" not in index
