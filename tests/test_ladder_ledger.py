"""The benchmark's ladder ledger: a ladder played in pieces gives the figures of one played at once."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

import mizerka

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import bots as bench


def test_a_ladder_resumed_from_its_ledger_equals_one_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pair = [("rules", "random")]
    ledger = tmp_path / "ladder.jsonl"
    bench.ladder(2, 1, 7, "rotations", None, pair, ledger_path=ledger)
    assert len(ledger.read_text().splitlines()) == 2
    resumed = bench.ladder(3, 1, 7, "rotations", None, pair, ledger_path=ledger)
    assert "2 matches of rules>random already played" in capsys.readouterr().out
    assert [json.loads(line)["index"] for line in ledger.read_text().splitlines()] == [0, 1, 2]
    at_once = bench.ladder(3, 1, 7, "rotations", None, pair)
    for key in ("lead_per_deal", "ci95", "matches"):
        assert resumed["rules>random"][key] == at_once["rules>random"][key]


def test_the_ledger_ignores_other_seeds_and_names_a_broken_line(tmp_path: Path) -> None:
    ledger = tmp_path / "ladder.jsonl"
    bench.ladder(1, 1, 7, "rotations", None, [("rules", "random")], ledger_path=ledger)
    other = bench.Ledger(ledger, 8, "rotations")
    assert other.load("rules>random") == ([], 0.0)
    assert other.stale == 1
    ledger.write_text(ledger.read_text() + "{not json\n")
    with pytest.raises(ValueError, match="line 2: not a ladder match"):
        bench.Ledger(ledger, 7, "rotations").load("rules>random")


def test_expert_code_is_left_out_of_the_lower_pairs_fingerprint() -> None:
    assert bench.play_code_fingerprint(("pimc", "rules")) == bench.play_code_fingerprint(("ismcts", "pimc"))
    assert bench.play_code_fingerprint(("expert", "rules")) != bench.play_code_fingerprint(("pimc", "rules"))


def test_modules_no_match_runs_are_left_out_of_the_fingerprint(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    root = Path(mizerka.__file__).parent
    assert all((root / name).is_file() for name in bench.PLAY_CODE_EXCLUDED_FILES)  # no stale name
    assert "solver/cli.py" in bench.PLAY_CODE_EXCLUDED_FILES and "arena.py" not in bench.PLAY_CODE_EXCLUDED_FILES
    # a copy of the package whose command line changed has the same fingerprint; one whose rules changed not
    copy = tmp_path / "mizerka"
    shutil.copytree(root, copy, ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    monkeypatch.setattr(mizerka, "__file__", str(copy / "__init__.py"))
    before = bench.play_code_fingerprint(("pimc", "rules"))
    (copy / "cli.py").write_text((copy / "cli.py").read_text() + "\n# changed\n")
    assert bench.play_code_fingerprint(("pimc", "rules")) == before
    (copy / "rules.py").write_text((copy / "rules.py").read_text() + "\n# changed\n")
    assert bench.play_code_fingerprint(("pimc", "rules")) != before


def test_the_compiled_solver_counts_by_its_answers_not_its_text(monkeypatch: pytest.MonkeyPatch) -> None:
    # the kernel's C sources are not hashed as text: a faster kernel that answers the same keeps the ledger ...
    assert {"solver/_kernel.c", "solver/_maxn.c", "solver/_glue.h"} <= bench.COMPILED_SOLVER
    before = bench.play_code_fingerprint(("pimc", "rules"))
    # ... and one that answers differently does not
    bench.solver_answers.cache_clear()
    monkeypatch.setattr(bench, "solve_all", lambda position, seat: dict.fromkeys(position.legal_cards(), 0))
    try:
        assert bench.play_code_fingerprint(("pimc", "rules")) != before
    finally:
        bench.solver_answers.cache_clear()


def test_policy_agreement_counts_every_play_and_knows_rules_follows() -> None:
    """The agreement measure sees every card of the trump and no-trump deals, and the policy, whose follows
    are Rules' own, predicts a Rules player's third-hand plays (a random player's far less)."""
    rules = bench.policy_agreement("rules", 6, 900_000)
    assert rules["plays"] == 5 * 3 * 13  # deals 0-4 (deal 5 is a Mizerka contract), every card of each
    assert rules["T third"] == 1.0
    random_play = bench.policy_agreement("random", 6, 900_000)
    assert random_play["plays"] == rules["plays"]
    assert random_play["T third"] < 0.8
