"""Every test runs with its own user data directory, so that nothing reads or writes the real one
(``mizerka play --connect`` remembers seat tokens there), and without a player key from the environment
(``MIZERKA_PLAYER_KEY``: ``mizerka play --connect`` would sit as that profile)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _own_data_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path_factory.mktemp("data")
    monkeypatch.setenv("MIZERKA_DATA_DIR", str(folder))
    monkeypatch.delenv("MIZERKA_PLAYER_KEY", raising=False)
    return folder
