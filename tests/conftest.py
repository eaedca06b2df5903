"""Every test runs with its own user data directory, so that nothing reads or writes the real one
(``mizerka play --connect`` remembers seat tokens there)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _own_data_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path_factory.mktemp("data")
    monkeypatch.setenv("MIZERKA_DATA_DIR", str(folder))
    return folder
