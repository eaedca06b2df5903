"""Ctrl-C stops a long search of the compiled kernel at once (session 24).

The kernel searches with the GIL released, so Python's SIGINT handler could not raise ``KeyboardInterrupt`` until
the search returned: minutes for a large position, in a notebook or any script calling :func:`mizerka.solver.solve`.
A search in the main thread now lets the signal handlers run every 2^19 nodes (about 80 ms) and returns at once
when one raises.  The table the unwinding leaves behind must not reach the next search.

Each case runs in a child process, which the test interrupts as a user's Ctrl-C would (SIGINT to the process).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mizerka.solver import backend

pytestmark = pytest.mark.skipif(backend() != "kernel", reason="the compiled kernel is not built here (the reference, "
                                                              "plain Python, is interrupted like any Python code)")

TESTS = Path(__file__).parent

CHILD = r"""
import json, random, signal, sys, time
# Python's own Ctrl-C handler, as an interactive run has it: a process started in the background by a shell without
# job control (CI) inherits SIGINT ignored, and Python then keeps it ignored
signal.signal(signal.SIGINT, signal.default_int_handler)
from mizerka.solver import Position, solve, solve_all


rng = random.Random(6)
cards = list(range(52))
rng.shuffle(cards)
# three hands of 17 cards, the misere: about a minute and a half of search
big = Position(tuple(sum(1 << c for c in cards[17 * i:17 * (i + 1)]) for i in range(3)), leader=0, misere=True)
call = solve if sys.argv[1] == "solve" else solve_all
print("started", flush=True)
start = time.perf_counter()
try:
    call(big, 0)
    outcome = "finished"
except KeyboardInterrupt:
    outcome = "interrupted"
elapsed = time.perf_counter() - start

# the next searches in the same process: the same values as the reference (nothing left over from the table)
from solver_helpers import random_position
check = random.Random(9)
agree = 0
for _ in range(40):
    position = random_position(check, 3, 5, misere=check.random() < 0.5)
    seat = check.randrange(3)
    agree += solve(position, seat) == solve(position, seat, impl="reference")
print(json.dumps({"outcome": outcome, "elapsed": elapsed, "agree": agree}), flush=True)
"""


@pytest.mark.parametrize("call", ["solve", "solve_all"])
def test_a_search_in_the_main_thread_stops_at_ctrl_c(call: str) -> None:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(TESTS), os.environ.get("PYTHONPATH")])))
    child = subprocess.Popen([sys.executable, "-c", CHILD, call], stdout=subprocess.PIPE, text=True, env=env)
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "started"
        time.sleep(0.5)  # well into the search
        child.send_signal(signal.SIGINT)
        out, _ = child.communicate(timeout=60)
    finally:
        child.kill()
    result = json.loads(out.strip().splitlines()[-1])
    assert result["outcome"] == "interrupted"
    assert result["elapsed"] < 10  # the search polls every ~80 ms; the whole search takes ~90 s
    assert result["agree"] == 40
