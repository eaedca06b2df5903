"""Ctrl-C stops a long search of the compiled kernel and of the max^n extension at once.

Both search with the GIL released, so Python's SIGINT handler could not raise ``KeyboardInterrupt`` until the search
returned: minutes for a large position, in a notebook or any script calling :func:`mizerka.solver.solve` (or, for
max^n, :func:`mizerka.solver.maxn.solve_maxn` on a four-hand ending of eight cards: up to a minute or more).  A
search in the main thread now lets the signal handlers run every 2^19 nodes (tens of milliseconds) and returns at
once when one raises.  The table the unwinding leaves behind must not reach the next search.

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
from mizerka.solver.maxn import maxn_backend

PLAIN_PYTHON = "(the reference, plain Python, is interrupted like any Python code)"
KERNEL = pytest.mark.skipif(backend() != "kernel", reason=f"the compiled kernel is not built here {PLAIN_PYTHON}")
MAXN = pytest.mark.skipif(maxn_backend() != "kernel", reason=f"the max^n extension is not built here {PLAIN_PYTHON}")

TESTS = Path(__file__).parent

CHILD = r"""
import json, random, signal, sys, time
# Python's own Ctrl-C handler, as an interactive run has it: a process started in the background by a shell without
# job control (CI) inherits SIGINT ignored, and Python then keeps it ignored
signal.signal(signal.SIGINT, signal.default_int_handler)
from mizerka.solver import Position, solve, solve_all, solve_best
from mizerka.solver.maxn import solve_maxn, solve_maxn_all

def dealt(seed, hands, size, **rules):
    rng = random.Random(seed)
    cards = list(range(52))
    rng.shuffle(cards)
    return Position(tuple(sum(1 << c for c in cards[size * i:size * (i + 1)]) for i in range(hands)), leader=0, **rules)

name = sys.argv[1]
if name.startswith("maxn"):
    # four hands of 8 cards (the extension's largest), no-trump: over 40 s of search
    big = dealt(15, 4, 8, sides=(0, 1, 0, 1))
    call = lambda: (solve_maxn if name == "maxn" else solve_maxn_all)(big)
    again = lambda position, seat: solve_maxn(position) == solve_maxn(position, impl="reference")
else:
    # three hands of 17 cards, the misere: about a minute and a half of search
    big = dealt(6, 3, 17, misere=True)
    call = lambda: {"solve": solve, "solve_all": solve_all, "solve_best": solve_best}[name](big, 0)
    again = lambda position, seat: solve(position, seat) == solve(position, seat, impl="reference")
print("started", flush=True)
start = time.perf_counter()
try:
    call()
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
    agree += again(position, check.randrange(3))
print(json.dumps({"outcome": outcome, "elapsed": elapsed, "agree": agree}), flush=True)
"""


@pytest.mark.parametrize("call", [pytest.param("solve", marks=KERNEL), pytest.param("solve_all", marks=KERNEL),
                                  pytest.param("solve_best", marks=KERNEL),
                                  pytest.param("maxn", marks=MAXN), pytest.param("maxn_all", marks=MAXN)])
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
    assert result["elapsed"] < 10  # the search polls every 2^19 nodes; the whole search takes 40 s or more
    assert result["agree"] == 40
