"""The rendered picture of the table: a single deal shows no match totals, a match does."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from mizerka.envs.gymnasium import MizerkaSoloEnv
from mizerka.envs.pettingzoo import mizerka_v0


def test_a_single_deal_shows_no_match_totals() -> None:
    """Every seat's line ended in "total 0" in a single deal, which has no match (its observation tensor holds no
    totals, docs/envs.md says so)."""
    env = mizerka_v0.env(render_mode="ansi", render_seat=0)
    env.reset(seed=1)
    assert "single deal" in env.render() and "total" not in env.render()
    solo = MizerkaSoloEnv(opponents="random", render_mode="ansi")
    solo.reset(seed=1)
    assert "total" not in solo.render()


def test_a_match_shows_each_seats_total() -> None:
    env = mizerka_v0.env(mode="match", render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert "deal 1/18" in text and text.count("total 0") == 3
