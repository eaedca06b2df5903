"""Deterministic node-count harness for the solver kernel: judge a search change by nodes, not wall clock.

Run: ``.venv/bin/python benchmarks/solver_nodes.py [--kernel path/to/_kernel.so] [--sets mz_trump,bridge_nt]
[--save values.json | --check values.json]``.

Fixed seeded sets (the same every run): 40 full Mizerka deals per contract type (forehand's value: spades,
no-trump, Mizerka), 60 Mizerka positions with 9 cards a hand, any contract, part of a trick played, every
card scored (``solve_all``, a search bot's query), 40 full bridge deals in no-trump and 20 in spades (West
on lead, ``solve``), 100 bridge positions with 9 tricks left (no-trump), and 10 full no-trump bridge deals
with every opening lead scored (``solve_all``, only when named in ``--sets``: it takes a while).  For each
set it prints the total and median nodes (``nodes`` counts every card played in the search) and the CPU
seconds of one core.
``--save`` writes every value; ``--check`` compares against a saved file and stops at the first changed
value, so a change that alters a value is caught at once.
``--kernel`` loads another build of ``_kernel.c`` (e.g. one compiled by hand into /tmp) in place of the
installed one.  The last line is one JSON object with the figures.
"""

from __future__ import annotations

import argparse
import importlib.machinery
import importlib.util
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from mizerka.solver import Position
from mizerka.solver import _masks as masks
from solver_bridge import bridge_position, random_bridge_hands
from solver_helpers import random_contract, random_position

Query = tuple[str, Position, int]
"""(kind: "solve" or "solve_all", position, seat)."""


def _mizerka(seed: int, trump: int | None, misere: bool, count: int) -> Iterator[Query]:
    rng = random.Random(seed)
    for _ in range(count):
        position = random_position(rng, 3, 13, trump=trump, misere=misere, mid_trick=False)
        yield "solve", position, position.leader


def _mizerka_all(seed: int, count: int) -> Iterator[Query]:
    rng = random.Random(seed)
    for _ in range(count):
        trump, misere = random_contract(rng)
        position = random_position(rng, 3, 9, trump=trump, misere=misere)
        yield "solve_all", position, rng.randrange(3)


def _bridge(seed: int, cards: int, trump: int | None, count: int, kind: str = "solve") -> Iterator[Query]:
    rng = random.Random(seed)
    for _ in range(count):
        yield kind, bridge_position(random_bridge_hands(rng, cards), 3, trump), 3


SETS: dict[str, Callable[[], Iterator[Query]]] = {
    "mz_trump": lambda: _mizerka(101, 3, False, 40),
    "mz_nt": lambda: _mizerka(102, None, False, 40),
    "mz_misere": lambda: _mizerka(103, None, True, 40),
    "mz_all_9": lambda: _mizerka_all(104, 60),
    "bridge_nt": lambda: _bridge(201, 13, None, 40),
    "bridge_spades": lambda: _bridge(202, 13, 3, 20),
    "bridge_9_left": lambda: _bridge(203, 9, None, 100),
    "bridge_nt_all": lambda: _bridge(204, 13, None, 10, "solve_all"),
}


def load_kernel(path: str | None) -> ModuleType:
    """The installed kernel, or the extension module built at *path*."""
    if path is None:
        from mizerka.solver import _kernel  # type: ignore[attr-defined]

        return _kernel  # type: ignore[no-any-return]
    loader = importlib.machinery.ExtensionFileLoader("_kernel", path)
    spec = importlib.util.spec_from_file_location("_kernel", path, loader=loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kernel", default=None)
    parser.add_argument("--sets", default=",".join(name for name in SETS if name != "bridge_nt_all"),
                        help="comma-separated; bridge_nt_all (about 80 s) only when named")
    parser.add_argument("--save", default=None)
    parser.add_argument("--check", default=None)
    args = parser.parse_args()
    kernel = load_kernel(args.kernel)
    expected: dict[str, list[object]] = json.loads(Path(args.check).read_text()) if args.check else {}
    saved: dict[str, list[object]] = {}
    figures: dict[str, dict[str, float]] = {}
    for name in args.sets.split(","):
        nodes, values = [], []
        cpu = time.process_time()
        for i, (kind, position, seat) in enumerate(SETS[name]()):
            count_mask, max_mask = masks(position, seat)
            call = (position.hands, position.leader, position.trick, -1 if position.trump is None else position.trump,
                    count_mask, max_mask, position.must_trump)
            before = kernel.nodes()
            value = kernel.solve(*call) if kind == "solve" else sorted(kernel.solve_all(*call))
            nodes.append(kernel.nodes() - before)
            value = json.loads(json.dumps(value))
            values.append(value)
            if name in expected and expected[name][i] != value:
                raise SystemExit(f"VALUE CHANGED in {name} #{i}: {position} seat {seat}: "
                                 f"{expected[name][i]} -> {value}")
        cpu = time.process_time() - cpu
        saved[name] = values
        figures[name] = {"total_nodes": sum(nodes), "median_nodes": statistics.median(nodes),
                         "max_nodes": max(nodes), "cpu_s": round(cpu, 2)}
        print(f"{name:14} nodes total {sum(nodes):>12,} median {statistics.median(nodes):>11,.0f} "
              f"max {max(nodes):>12,}  cpu {cpu:7.2f} s", flush=True)
    if args.save:
        Path(args.save).write_text(json.dumps(saved))
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
