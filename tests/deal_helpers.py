"""Positions that several test modules share (importable from ``tests/`` and its sub-folders)."""

from __future__ import annotations

from mizerka.deal import Deal


def club_led_in_hearts() -> Deal:
    """A deck in order, dealer 0: forehand (seat 1) chooses hearts, nobody exchanges, and leads the ace of clubs;
    seat 2 is to play to the trick."""
    deal = Deal(list(range(52)), dealer=0)
    for action in ("H", "keep", "-", "keep", "AC"):
        deal.play(action)
    return deal
