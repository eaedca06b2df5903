"""Argument checks shared by the core, the solver and the environments (standard library only).

>>> whole_number(3), whole_number(True), whole_number(3.0), whole_number("3")
(3, None, None, None)
"""

from __future__ import annotations

import operator

__all__ = ["whole_number"]


def whole_number(value: object) -> int | None:
    """*value* as a plain int if it is a whole number, else ``None``.

    A whole number is an ``int`` or anything with ``__index__`` (a NumPy integer passes without NumPy being
    imported here), but never a ``bool``: ``True`` is no seat, card or size.  A float, even ``3.0``, text and
    everything else give ``None``; each caller raises its own error with its own message.
    """
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None
