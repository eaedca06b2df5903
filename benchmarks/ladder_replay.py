"""Carry the ladder's ledger over to play code that changed without changing play.

The ledger (``benchmarks/results/ladder-2024.jsonl``, see ``Ledger`` in ``benchmarks/bots.py``) reuses a match only
for code with the same fingerprint, so any edit to a fingerprinted module (the engine, the bots, the solver's
Python code) would throw away hours of matches.  When an edit is meant to change no decision (a refactor, a
clearer error message), this script checks that claim and then keeps the matches:

``.venv/bin/python benchmarks/ladder_replay.py replay PAIR [PAIR ...]`` plays a fixed sample of each pair's
ledger matches again with the code as it is now (the same arena seed, seatings and match index) and compares
each with its ledger line: points, deals, tables and incidents.  The sample: every match of rules>random (cheap),
every third of pimc>rules, and a few of each pair with a search level above it.  Run the pairs in two processes
to use two cores (about 12 minutes in all).  It exits 1 if any match differs.

``.venv/bin/python benchmarks/ladder_replay.py rekey OLD_FINGERPRINT [...]`` then gives the ledger's lines of those
old fingerprints the current code's fingerprint of their pair.  Only run it after a replay found no difference.

The last line of ``replay`` is one JSON object: matches replayed and how many differ.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import bots as bench
from mizerka.arena import run_arena

LEDGER = Path(__file__).parent / "results" / "ladder-2024.jsonl"
SEED = 2024
SAMPLE: dict[str, list[int]] = {
    "rules>random": list(range(60)),
    "pimc>rules": list(range(0, 60, 3)),
    "ismcts>pimc": [0, 37, 59],
    "expert>ismcts": [5, 88],
    "expert>rules": [0, 21, 44, 59],
}


def _rows(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def replay(pairs: list[str], path: Path) -> int:
    """Replay the sample of each pair; print one line per match and the JSON summary; return the differences."""
    rows = _rows(path)
    played = differ = 0
    for pair in pairs:
        high, low = pair.split(">")
        for index in SAMPLE[pair]:
            row = next((r for r in rows if r["pair"] == pair and r["index"] == index and r["seed"] == SEED), None)
            if row is None:
                print(f"{pair} {index}: not in the ledger", flush=True)
                continue
            result = run_arena([high, low, low], 1, seed=SEED, tables="rotations", start=index, workers=1).results[0]
            expected = row["points"]
            assert isinstance(expected, list)
            same = (len(result.points) == len(expected)
                    and all(abs(a - b) < 1e-9 for a, b in zip(result.points, expected, strict=True))
                    and result.deals == row["deals"] and result.tables == row["tables_per_match"]
                    and len(result.incidents) == len(row["incidents"]))  # type: ignore[arg-type]
            played += 1
            differ += not same
            print(f"{pair} {index}: " + ("same" if same else f"DIFFERENT: {list(result.points)} against {expected}"),
                  flush=True)
    print(json.dumps({"replayed": played, "different": differ, "pairs": pairs}))
    return differ


def rekey(old: set[str], path: Path) -> None:
    """Give the lines of the *old* fingerprints their pair's current fingerprint."""
    current: dict[str, str] = {}
    lines = []
    changed = 0
    for row in _rows(path):
        if row["fingerprint"] in old:
            pair = str(row["pair"])
            if pair not in current:
                current[pair] = bench.play_code_fingerprint(tuple(pair.split(">")))
            row["fingerprint"] = current[pair]
            changed += 1
        lines.append(json.dumps(row))
    path.write_text("\n".join(lines) + "\n")
    print(json.dumps({"rekeyed": changed, "fingerprints": current}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ledger", type=Path, default=LEDGER)
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser("replay", help="replay a sample of the ledger's matches of each PAIR")
    play.add_argument("pairs", nargs="+", choices=sorted(SAMPLE), metavar="PAIR")
    keys = sub.add_parser("rekey", help="give the lines of the OLD fingerprints the current code's")
    keys.add_argument("old", nargs="+", metavar="OLD_FINGERPRINT")
    args = parser.parse_args()
    if not args.ledger.is_file():
        parser.error(f"no ledger at {args.ledger}")
    if args.command == "replay":
        sys.exit(1 if replay(args.pairs, args.ledger) else 0)
    rekey(set(args.old), args.ledger)


if __name__ == "__main__":
    main()
