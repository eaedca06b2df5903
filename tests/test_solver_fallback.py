"""Without its C kernel the solver runs the pure-Python reference, after one warning that says why.

The test copies the package without the compiled extensions, as a machine without a compiler installs it, and
solves in a fresh interpreter: the values are the reference's, and exactly one RuntimeWarning names the missing
extension (not the "partially initialized module ... circular import" that importing it by ``from package import
name`` inside the package's own ``__init__`` reported).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import mizerka

SCRIPT = """
import warnings
warnings.simplefilter("always")
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    from mizerka.deal import Deal
    from mizerka.solver import Position, backend, solve
    from mizerka.solver.maxn import maxn_backend
    position = Position.from_text("NT; lead 0; AS KS / QS JS / TS 9S")
    values = [solve(position, 0), solve(position, 1), solve(position, 0)]
print(backend(), maxn_backend(), values)
for w in caught:
    print("WARNING", w.category.__name__, str(w.message))
"""


def without_kernel(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run ``python *args*`` on a copy of the package without its compiled extensions."""
    package = Path(mizerka.__file__).parent
    if not (tmp_path / "mizerka").exists():
        shutil.copytree(package, tmp_path / "mizerka",
                        ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__", "web", "server"))
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=240, cwd=tmp_path,
                          env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"})


def test_without_the_kernel_the_reference_runs_after_one_warning_naming_the_missing_extension(tmp_path: Path) -> None:
    result = without_kernel(tmp_path, "-c", SCRIPT)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "reference reference [2, 0, 2]", result.stdout
    warnings = [line for line in lines if line.startswith("WARNING")]
    assert len(warnings) == 1, warnings
    assert warnings[0].startswith("WARNING RuntimeWarning mizerka.solver: the C kernel could not be loaded"), warnings
    assert "No module named 'mizerka.solver._kernel'" in warnings[0], warnings
    assert "circular" not in warnings[0], warnings


def test_the_command_line_says_it_once_as_a_warning_line_even_with_several_arena_workers(tmp_path: Path) -> None:
    """``mizerka arena`` with two worker processes: one ``warning:`` line (not Python's form with a file and a source
    line, and not once per worker); ``mizerka solve`` says it the same way."""
    arena = without_kernel(tmp_path, "-m", "mizerka", "arena", "pimc", "rules", "random", "-n", "2", "--workers",
                           "2", "--tables", "rotations", "--budget", "pimc:worlds=1", "--json")
    assert arena.returncode == 0, arena.stderr
    said = [line for line in arena.stderr.splitlines() if "C kernel could not be loaded" in line]
    assert len(said) == 1, arena.stderr
    assert said[0].startswith("warning: mizerka.solver: the C kernel could not be loaded"), said
    assert "RuntimeWarning" not in arena.stderr and ".py:" not in arena.stderr, arena.stderr
    solve = without_kernel(tmp_path, "-m", "mizerka", "solve", "NT; lead 0; AS KS / QS JS / TS 9S")
    assert solve.returncode == 0, solve.stderr
    assert solve.stderr.startswith("warning: mizerka.solver: the C kernel could not be loaded"), solve.stderr
    assert "RuntimeWarning" not in solve.stderr, solve.stderr
