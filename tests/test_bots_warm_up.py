"""The search levels' once-per-process tables are built before a first decision is timed.

The option values were simulated inside the first contract choice of every process (0.8 s here, 1.3 s in the
standard game), which the arena reported as a time incident.  ``warm_up`` builds every table a first contract choice
reads (the variants outside the option-value model price contracts by ``contract_baselines``), and the arena warms
each process up: each worker of the pool, and a serial run.
"""

from __future__ import annotations

import json
import subprocess
import sys
import warnings

import pytest

from mizerka import Deal, Phase, parse_variant
from mizerka.bots import Budget, make_bot, warm_up
from mizerka.bots.search import contract_baselines, contract_values, option_values

_ARENA_CHILD = r"""
import json, warnings
warnings.simplefilter("ignore")
from mizerka import parse_variant
from mizerka.arena import run_arena
from mizerka.bots import Budget
rules = parse_variant("standard,contracts=C+NT+MZ")   # its option-value table takes about 0.8 s to build
budget = Budget(time=0.02, worlds=4)                  # a decision takes a few ms, well inside the limit below
out = {}
for backend, matches in (("process", 2), ("serial", 1)):  # the workers first: this process is still cold
    result = run_arena(["pimc", "random", "random"], matches, rules=rules, seed=5, backend=backend, workers=2,
                       budgets=[budget, None, None], decision_limit=0.4, tables="rotations")
    out[backend] = [str(incident) for incident in result.incidents]
print(json.dumps(out))
"""


def test_the_arena_builds_a_search_levels_tables_before_its_first_decision_is_timed() -> None:
    """The option values were simulated inside the first contract choice of every process (0.8 s here, 1.3 s in
    the standard game), which the arena then reported as a time incident: in each worker of the process pool,
    and in the serial run.  A fresh interpreter, so that no table is cached yet."""
    child = subprocess.run([sys.executable, "-c", _ARENA_CHILD], capture_output=True, text=True, timeout=300)
    assert child.returncode == 0, child.stderr[-2000:]
    incidents = json.loads(child.stdout.splitlines()[-1])
    assert incidents == {"process": [], "serial": []}


@pytest.mark.parametrize(
    "spec",
    [
        "standard,uses=2,contracts=D+MZ,quota_mizerka=2/5/6",  # repeated contracts: each contract's average
        "standard,global_unique,contracts=C+H+NT",  # shared contracts: the same
        "seed002-literal,contracts=S+MZ",  # drawing during play: the same, by checked deals
        "standard,contracts=C+H+NT+MZ,quota_ordinary=6/5/2",  # the option-value model
    ],
)
def test_warm_up_builds_every_table_a_first_contract_choice_reads(spec: str) -> None:
    """``warm_up`` computed only the option values: the variants outside their model priced contracts by
    ``contract_baselines``, built inside the first choice (0.27 s against a 0.05 s budget).  The variants
    here are used by no other test, so their tables are not cached before ``warm_up``."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # seed002-literal is not zero-sum, and says so
        rules = parse_variant(spec)
        warm_up(rules)
        tables = (contract_baselines, option_values, contract_values)
        before = [table.cache_info().misses for table in tables]
        deal = Deal.random(5, rules=rules, dealer=2)
        observation = deal.observation(deal.to_move)
        assert observation.phase is Phase.CHOOSE and len(observation.legal_actions) > 1
        for level in ("pimc", "ismcts", "expert"):
            make_bot(level, seed=1, budget=Budget(worlds=1)).decide(observation)
        assert [table.cache_info().misses for table in tables] == before


def test_warm_up_names_rules_that_are_not_rules() -> None:
    with pytest.raises(ValueError, match="warm_up needs a Rules"):
        warm_up("standard")  # type: ignore[arg-type]
