"""The ``mizerka`` console script on an install without the command line's extra.

pip installs the script with the core package, which needs only the standard library; the command line itself is
built on click (the ``cli`` extra).  Each test runs a fresh interpreter in which click cannot be imported, as after
``pip install mizerka``, and calls the entry point pyproject.toml declares.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

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
