"""Ctrl-C in the commands that may run long: exit status 130 and a line that says where it stopped, at once,
never click's bare ``Aborted!`` with status 1 or a traceback.

``mizerka analyse`` names the deal it was analysing (``Aborted! during deal 2: nothing is printed``), a real SIGINT
in the middle of a long solve too.  ``mizerka solve`` searches in a worker thread, so that SIGINT is answered at once
while the C kernel (which releases the GIL and never checks signals) searches a position of minutes; the worker's
errors still reach the user as messages with status 2.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from mizerka import analysis as analysis_module
from mizerka.analysis import DealAnalysis
from mizerka.cli import cli
from mizerka.record import MatchRecord

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "data" / "records" / "standard-seed7.mzn"


def run(*args: str, charset: str = "utf-8") -> Result:
    """The command in-process, its standard output encoded with *charset* (strictly: a character the charset
    lacks raises UnicodeEncodeError, as on a real cp1252 stream)."""
    return CliRunner(charset=charset).invoke(cli, list(args))


# -- mizerka analyse -------------------------------------------------------------------------------------------------


def test_ctrl_c_is_exit_status_130_naming_the_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    real = analysis_module.analyse_deal

    def interrupted(record: MatchRecord, deal_no: int, **kwargs: object) -> DealAnalysis:
        if deal_no == 2:
            raise KeyboardInterrupt
        return real(record, deal_no, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(analysis_module, "analyse_deal", interrupted)
    result = CliRunner().invoke(cli, ["analyse", str(GOLDEN), "--deal", "1-3"])
    assert result.exit_code == 130, result.output
    assert isinstance(result.exception, SystemExit)
    assert "Aborted! during deal 2: nothing is printed" in result.stderr
    assert result.stdout == ""


def test_a_real_sigint_during_a_long_solve() -> None:
    """A solve that runs long (here one that never ends) is stopped by the signal itself, in the middle."""
    script = f"""
import signal, sys, time
signal.signal(signal.SIGINT, signal.default_int_handler)
from mizerka import analysis
def long_solve(*args, **kwargs):
    while True:
        time.sleep(0.01)
analysis.analyse_deal = long_solve
from mizerka.cli import main
main(["analyse", {str(GOLDEN)!r}, "--deal", "4"])
"""
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    assert child.stderr is not None
    line = child.stderr.readline().decode()
    assert line.startswith("analysing deal 4"), line
    time.sleep(0.2)
    child.send_signal(signal.SIGINT)
    stdout, stderr = child.communicate(timeout=30)
    assert child.returncode == 130, stderr
    assert "Aborted! during deal 4" in stderr.decode() and "Traceback" not in stderr.decode()
    assert stdout == b""


# -- mizerka solve ---------------------------------------------------------------------------------------------------

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
