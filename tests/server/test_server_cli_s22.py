"""Audit s22: `mizerka serve --database ""` (say `--database "$DB"` with DB unset) opened the user's default
database silently, where every other command refuses an empty file name (`--record ""`)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest


@pytest.mark.parametrize("value", ["", "   "])
def test_serve_refuses_an_empty_database_url(tmp_path: Path, value: str) -> None:
    """Refused with a usage error (exit 2) before anything is opened.  The old command went on with the default
    database (here in a scratch data folder) and then failed to bind the port held below, so it ended (exit 1)
    instead of serving: the test cannot hang on it."""
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "HOME": str(tmp_path)}
        result = subprocess.run([sys.executable, "-m", "mizerka", "serve", "--port", str(port), "--database", value],
                                capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 2, result.stderr[-2000:]
    assert "Traceback" not in result.stderr and "mizerka server on" not in result.stderr
    assert ("Error: Invalid value for '--database': give a database URL (sqlite:///path or "
            "postgresql://user:pw@host/db), not an empty value; leave the option out for the default database"
            ) in result.stderr
    assert not (tmp_path / "data").exists()  # no default database was created
