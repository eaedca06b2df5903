"""Argument checks and seeding shared by the core, the solver and the environments (standard library only).

>>> whole_number(3), whole_number(True), whole_number(3.0), whole_number("3")
(3, None, None, None)
>>> shown("AS"), shown("x" * 50)
("'AS'", "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'… (50 characters)")
"""

from __future__ import annotations

import operator
import random

__all__ = ["seeded_random", "shown", "whole_number"]


def whole_number(value: object) -> int | None:
    """*value* as a plain int if it is a whole number, else ``None``.

    A whole number is an ``int`` or anything with ``__index__`` (a NumPy integer passes without NumPy being
    imported here), but never a ``bool``: ``True`` is no seat, card or size.  A float, even ``3.0``, text and
    everything else give ``None``; each caller raises its own error with its own message.
    """
    if isinstance(value, bool) or _is_numpy_bool(value):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


def seeded_random(seed: int | None) -> random.Random:
    """A :class:`random.Random` seeded by *seed*, a different stream for every integer.

    ``random.Random(n)`` seeds with ``abs(n)``, so ``-5`` and ``5`` would give the same stream (the same decks, the
    same episodes).  A negative seed is therefore given a stream of its own, seeded from its text; ``None`` and
    non-negative seeds are seeded exactly as ``random.Random`` seeds them, so their results do not change.

    >>> seeded_random(5).random() == seeded_random(-5).random(), seeded_random(5).random() == random.Random(5).random()
    (False, True)
    """
    if seed is not None and seed < 0:
        return random.Random(f"mizerka negative seed {seed}")
    return random.Random(seed)


def _is_numpy_bool(value: object) -> bool:
    """Whether *value* is a NumPy bool, told without importing NumPy: before NumPy 2.0 ``numpy.bool_`` still had
    ``__index__`` (deprecated), so ``operator.index`` took it as 0 or 1."""
    kind = type(value)
    return kind.__module__ == "numpy" and kind.__name__ in ("bool_", "bool")


SHOWN_CHARS = 40
"""How much of a bad value an error message quotes."""


def shown(value: object, limit: int = SHOWN_CHARS) -> str:
    """*value* as an error message quotes it (its ``repr``), cut short past *limit* characters: a message names the
    bad input, but a line of a megabyte typed or piped in is not echoed back whole (it was, once per message that
    wrapped another).  Short values read as ``repr`` gives them, so a message about ``'XS'`` is unchanged."""
    if isinstance(value, str) and len(value) > limit:
        return f"{value[:limit]!r}… ({len(value)} characters)"
    text = repr(value)
    return text if len(text) <= limit + 2 else text[:limit] + "…"
