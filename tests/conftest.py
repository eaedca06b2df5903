"""Every test runs with its own user data directory, so that nothing reads or writes the real one
(``mizerka play --connect`` remembers seat tokens there), and without a player key from the environment
(``MIZERKA_PLAYER_KEY``: ``mizerka play --connect`` would sit as that profile).  A page of docs/ whose examples need
an optional extra is skipped, saying which, where that extra is missing."""

from __future__ import annotations

import importlib.util
import sys
import threading
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _own_data_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path_factory.mktemp("data")
    monkeypatch.setenv("MIZERKA_DATA_DIR", str(folder))
    monkeypatch.delenv("MIZERKA_PLAYER_KEY", raising=False)
    return folder


DOC_PAGES_NEED: dict[str, tuple[str, str]] = {"envs.md": ("pyspiel", "openspiel")}
"""The pages of docs/ whose examples (run as doctests, ``--doctest-glob=*.md``) need an optional extra: page name,
(the module its examples import, the extra that installs it)."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip a page's doctests where the extra its examples need is missing, saying which extra to install: a machine
    without OpenSpiel (no wheels for it on Windows) still runs every other page."""
    for item in items:
        need = DOC_PAGES_NEED.get(item.path.name) if item.path.parent.name == "docs" else None
        if need is not None and importlib.util.find_spec(need[0]) is None:
            item.add_marker(pytest.mark.skip(reason=f"docs/{item.path.name}'s examples need {need[0]}: install the "
                                                    f"{need[1]} extra (pip install -e '.[{need[1]}]')"))


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Stop the test servers a test left running, and name the threads still alive, before the interpreter is torn
    down: a server's event loop still running in a daemon thread while Python finalizes can crash the process after
    every test has passed (a full run once ended so, in a segmentation fault)."""
    helpers = sys.modules.get("server_helpers")
    left = list(getattr(helpers, "RUNNING", ()))
    for server in left:
        server.stop()
    alive = sorted(t.name for t in threading.enumerate() if t is not threading.main_thread() and t.is_alive())
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None and (left or alive):
        reporter.write_line(f"at the session's end: {len(left)} test server(s) left running, stopped; threads still "
                            f"alive: {', '.join(alive) or 'none'}")
