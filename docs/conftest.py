"""The pages' examples run as doctests (``--doctest-glob=*.md``).  A page whose examples need an optional extra is
skipped where that extra is missing, and the skip says which extra to install: a machine without OpenSpiel (no
wheels for it on Windows) still runs every other page."""

from __future__ import annotations

import importlib.util

import pytest

NEEDS: dict[str, tuple[str, str]] = {"envs.md": ("pyspiel", "openspiel")}
"""Page name: (the module its examples import, the extra that installs it)."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        need = NEEDS.get(item.path.name) if item.path.parent.name == "docs" else None
        if need is not None and importlib.util.find_spec(need[0]) is None:
            item.add_marker(pytest.mark.skip(reason=f"docs/{item.path.name}'s examples need {need[0]}: install the "
                                                    f"{need[1]} extra (pip install -e '.[{need[1]}]')"))
