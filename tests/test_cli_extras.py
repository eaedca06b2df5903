"""The command line on an install that lacks an extra it needs: the extra to install is named, never a traceback.

pip installs the ``mizerka`` console script with the core package, which needs only the standard library; the command
line itself is built on click (the ``cli`` extra).  The entry point pyproject.toml declares, run in a fresh
interpreter in which click cannot be imported (as after ``pip install mizerka``), names that extra; with click it runs
the command line, as ``python -m mizerka`` does, and the terminal client of a server checks its extra before it
connects.  A command whose own extra is missing names it: ``serve`` without the server extra (the message named
pydantic only), ``arena`` without rich (the ``cli`` extra).  Every package of every extra in pyproject.toml is mapped
to its extra in ``mizerka.cli._EXTRAS``, the extra named is the command's own where several hold the module, and a
module of no extra gets no hint.
"""

from __future__ import annotations

import importlib.metadata
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import click
import pytest

from mizerka import cli as cli_module
from mizerka.cli import missing_extra

ROOT = Path(__file__).resolve().parent.parent


# -- the console script without click --------------------------------------------------------------------------------

HIDE_AND_RUN = """
import importlib, importlib.abc, sys

class Hide(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {hidden!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None

sys.meta_path.insert(0, Hide())
for name in list(sys.modules):
    if name.split(".")[0] in {hidden!r}:
        del sys.modules[name]
sys.argv = ["mizerka", *{args!r}]
module, _, attribute = {target!r}.partition(":")
getattr(importlib.import_module(module), attribute)()
"""


def entry_point() -> str:
    with open(ROOT / "pyproject.toml", "rb") as f:
        target: str = tomllib.load(f)["project"]["scripts"]["mizerka"]
    return target


def run_script(hidden: set[str], *args: str) -> subprocess.CompletedProcess[str]:
    code = HIDE_AND_RUN.format(hidden=sorted(hidden), args=list(args), target=entry_point())
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT)


def test_without_click_the_command_names_the_extra_to_install() -> None:
    for args in (["--help"], ["--version"], ["play"], ["serve"]):
        result = run_script({"click"}, *args)
        assert result.returncode == 1, (args, result)
        assert "Traceback" not in result.stderr, (args, result.stderr)
        assert "pip install 'mizerka[cli]'" in result.stderr, (args, result.stderr)
        assert result.stdout == "", (args, result.stdout)


def test_with_click_the_entry_point_runs_the_command_line() -> None:
    result = run_script(set(), "--version")
    assert result.returncode == 0, result
    assert result.stdout.startswith("mizerka, version "), result.stdout


def test_python_dash_m_mizerka_is_the_same_command() -> None:
    result = subprocess.run([sys.executable, "-m", "mizerka", "--version"], capture_output=True, text=True,
                            timeout=60, cwd=ROOT)
    assert result.returncode == 0, result
    assert result.stdout.startswith("mizerka, version "), result.stdout


def test_the_terminal_client_of_a_server_checks_its_extra_before_it_connects() -> None:
    """The server extra brings websockets and click but not rich, which the line game needs for its score sheet:
    ``--connect`` says so at once, not as a traceback when ``sheet`` is first typed in the middle of a game."""
    result = run_script({"rich", "textual"}, "play", "--connect", "http://127.0.0.1:9/?table=abc", "--plain")
    assert result.returncode == 1, result
    assert "Traceback" not in result.stderr, result.stderr
    assert "--connect needs the rich package: pip install 'mizerka[tui]'" in result.stderr, result.stderr


# -- a command whose extra is missing --------------------------------------------------------------------------------

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
