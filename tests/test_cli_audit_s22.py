"""Audit s22 of the commands against their docs: `score` and `rules` on an output that cannot encode suit symbols,
the extra named where one is missing (`serve` without the server extra, `arena` without rich), answers the
input's encoding cannot decode, the REST error codes docs/protocol.md names, and `arena --matches 1`'s interval.

(`serve --database ""` is tested with the server's tests: tests/server/test_server_cli_s22.py.)
"""

from __future__ import annotations

import ast
import importlib.metadata
import io
import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result

from mizerka import cli as cli_module
from mizerka import terminal
from mizerka.cli import ascii_text, cli, missing_extra

ROOT = Path(__file__).resolve().parent.parent
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


# -- 1. `score` and `rules` write letters where the output cannot encode suit symbols ------------------------


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
    assert "Contracts: C D H S (or the suit's name)" in chosen.output


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
    # session 23: the variants' sources cite the rule book's sections (§8) in ASCII too; nothing else is left
    assert "source: RULES.md section 8 (" in ascii_output and ascii_output.isascii(), \
        sorted({c for c in ascii_output if not c.isascii()})
    assert "  ♣ ♦ ♥ ♠   that suit" in run("rules", "--unicode", charset="utf-8").output


def test_one_mapping_of_suit_symbols_to_letters() -> None:
    """The line game, replay, score and rules share mizerka.cli.ascii_text (the line game had its own copies)."""
    assert terminal.ascii_text is ascii_text
    assert ascii_text("♣ ♦ ♥ ♠ → ═ …") == "C D H S -> = ..."
    assert not hasattr(terminal, "_SUIT_LETTERS") and not hasattr(cli_module, "_SUIT_LETTERS")


# -- 2. a missing extra is named --------------------------------------------------------------------------

BLOCKER = r"""
import sys, importlib.abc
BLOCK = set(sys.argv[1].split(","))
class Blocker(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCK:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
sys.meta_path.insert(0, Blocker())
from mizerka.cli import main
sys.argv = ["mizerka"] + sys.argv[2:]
main()
"""
"""Runs ``mizerka`` as if the modules named in its first argument were not installed."""


def without(modules: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", BLOCKER, modules, *args], capture_output=True, text=True,
                          timeout=120)


def test_serve_without_the_server_extra_names_it() -> None:
    """With click and rich only (`pip install 'mizerka[cli]'`) pydantic is the first server module imported: the
    message said "No module named 'pydantic'" and named no extra."""
    server = "fastapi,uvicorn,sqlalchemy,alembic,pydantic,psycopg,platformdirs,orjson,openskill,starlette"
    result = without(server, "serve", "--port", "0")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "the 'serve' command is not available" in result.stderr
    assert "install it with: pip install 'mizerka[server]'" in result.stderr


def test_arena_without_rich_names_the_cli_extra() -> None:
    """Click without rich (the server extra brings click): `arena` ended in a ModuleNotFoundError traceback."""
    result = without("rich", "arena", "rules", "random", "random", "-n", "1")
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    assert result.stderr.strip() == ("Error: the 'arena' command is not available: No module named 'rich'; "
                                     "install it with: pip install 'mizerka[cli]'")


_NOT_ITS_NAME = {"open_spiel": {"pyspiel"}}
"""The module of a distribution whose module is not named after it, for when it is not installed (`.ci/lowest.sh`
leaves OpenSpiel out)."""


def _module_names(distribution: str) -> set[str]:
    """The top-level modules an installed *distribution* provides (``open_spiel``: ``pyspiel``), else its name."""
    key = distribution.lower().replace("-", "_")
    found = {module for module, dists in importlib.metadata.packages_distributions().items()
             if key in (d.lower().replace("-", "_") for d in dists)}
    return found or _NOT_ITS_NAME.get(key, {key})


def test_every_package_of_every_extra_is_mapped_to_its_extra() -> None:
    """pyproject.toml's extras and cli._EXTRAS cannot drift apart: a package added to an extra must be named."""
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    unmapped = []
    for extra, requirements in extras.items():
        if extra == "dev":  # the developers' tools, and every other extra
            continue
        for requirement in requirements:
            match = re.match(r"[A-Za-z0-9_.-]+", requirement)
            assert match is not None, requirement
            modules = _module_names(match.group())
            if not any(extra in cli_module._EXTRAS.get(module, ()) for module in modules):
                unmapped.append(f"{match.group()} ({extra})")
    assert not unmapped, f"not in mizerka.cli._EXTRAS under their extra: {unmapped}"


@pytest.mark.parametrize(("command", "module", "extra"), [
    ("serve", "pydantic", "server"), ("serve", "openskill", "server"), ("serve", "psycopg", "server"),
    ("serve", "platformdirs", "server"), ("play", "platformdirs", "tui"), ("play", "textual", "tui"),
    ("arena", "rich", "cli"), ("play", "rich", "tui"), ("analyse", "numpy", "rl"),
])
def test_the_extra_named_is_the_commands_own_where_several_hold_the_module(command: str, module: str,
                                                                          extra: str) -> None:
    error = missing_extra(command, ModuleNotFoundError(f"No module named {module!r}", name=module))
    assert isinstance(error, click.ClickException) and error.exit_code == 1
    assert error.message.endswith(f"install it with: pip install 'mizerka[{extra}]'")


def test_a_module_of_no_extra_gets_no_hint() -> None:
    error = missing_extra("serve", ModuleNotFoundError("No module named 'nosuch'", name="nosuch"))
    assert error.message == "the 'serve' command is not available: No module named 'nosuch'"


# -- 3. answers the input's encoding cannot decode ----------------------------------------------------------


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
    assert "Ala" in (tmp_path / "x.mzn").read_text(encoding="utf-8")


def test_play_refuses_an_answer_its_input_cannot_decode_in_words(tmp_path: Path) -> None:
    answers = "Łukasz\nquit\n".encode()
    result = run_mizerka("play", "--plain", "--seed", "1", data=answers, env={"PYTHONIOENCODING": "cp1250"},
                     cwd=tmp_path)
    stdout = result.stdout.decode("cp1250")
    assert b"Traceback" not in result.stderr and result.returncode == 0, result.stderr.decode("cp1250")
    assert "Not accepted: invalid action 'Ĺ?ukasz'" in stdout  # U+FFFD written as ? on the cp1250 output
    assert "You left the match in deal 1" in stdout


# -- 4. the REST error codes are in docs/protocol.md --------------------------------------------------------


def _server_error_codes() -> dict[str, list[str]]:
    """Every error code the server's code raises (TableError, ScorepadError, ProtocolError) or answers (_error),
    with where: read from the source, so that the test needs no server extra."""
    codes: dict[str, list[str]] = {}
    for path in sorted((ROOT / "src" / "mizerka" / "server").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", None))
            position = {"TableError": 0, "ScorepadError": 0, "ProtocolError": 0, "_error": 1}.get(str(name))
            if position is None or len(node.args) <= position:
                continue
            code = node.args[position]
            if isinstance(code, ast.Constant) and isinstance(code.value, str):
                codes.setdefault(code.value, []).append(f"{path.name}:{node.lineno}")
    return codes


def test_protocol_doc_names_every_error_code_the_server_raises() -> None:
    """bad_variant, bad_seats and bad_seat (POST /api/tables, a join) were missing from docs/protocol.md."""
    doc = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    codes = _server_error_codes()
    assert {"bad_variant", "bad_seats", "bad_seat", "bad_deal", "internal"} <= set(codes)  # the scan finds them
    missing = {code: where for code, where in codes.items() if f"`{code}`" not in doc}
    assert not missing, f"error codes the server raises that docs/protocol.md never names: {missing}"


def test_the_rest_codes_of_a_new_table_and_a_join_are_among_the_rest_only_codes() -> None:
    doc = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    rest_only = doc[doc.index("The REST-only codes"):]
    rest_only = rest_only[:rest_only.index("error_codes")]
    for code in ("bad_variant", "bad_seats", "bad_seat"):
        assert f"`{code}`" in rest_only


# -- 6. no 95% interval from one duplicate match ------------------------------------------------------------

ARENA = ("arena", "rules", "random", "random", "-n", "1", "--backend", "serial", "--tables", "rotations")


def test_arena_json_gives_no_interval_for_one_match() -> None:
    """`--matches 1` gave "per_deal_ci": 0.0, a certain result; there is no interval from one match."""
    result = run(*ARENA, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["matches"] == 1
    for row in data["stats"]:
        assert row["per_match_ci"] is None and row["per_deal_ci"] is None
        assert isinstance(row["per_match"], float) and isinstance(row["per_deal"], float)


def test_arena_table_shows_a_dash_for_the_interval_of_one_match() -> None:
    result = run(*ARENA)
    assert result.exit_code == 0, result.output
    rows = [line for line in result.stdout.splitlines() if ": rules" in line or ": random" in line]
    assert len(rows) == 3
    for line in rows:
        cells = [cell.strip() for cell in re.split(r"[│┃|]", line) if cell.strip()]
        assert cells[3] == "–" and cells[5] == "–", line  # the two "± 95%" columns
    assert "0.000" not in result.stdout and "1 duplicate match ×" in result.stdout
