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


def test_without_the_kernel_the_reference_runs_after_one_warning_naming_the_missing_extension(tmp_path: Path) -> None:
    package = Path(mizerka.__file__).parent
    shutil.copytree(package, tmp_path / "mizerka",
                    ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__", "web", "server"))
    result = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120,
                            cwd=tmp_path, env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "reference reference [2, 0, 2]", result.stdout
    warnings = [line for line in lines if line.startswith("WARNING")]
    assert len(warnings) == 1, warnings
    assert warnings[0].startswith("WARNING RuntimeWarning mizerka.solver: the C kernel could not be loaded"), warnings
    assert "No module named 'mizerka.solver._kernel'" in warnings[0], warnings
    assert "circular" not in warnings[0], warnings
