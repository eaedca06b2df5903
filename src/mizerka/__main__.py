"""``python -m mizerka`` and the ``mizerka`` command (the console script pyproject.toml declares).

The command line is built on click, which comes with the ``cli`` extra (and the ``server`` extra, for ``mizerka
serve``), but pip installs the ``mizerka`` script with the core package too, which imports only the standard
library.  :func:`entry` therefore checks for click before it loads :mod:`mizerka.cli`, so that a core-only install
answers with the line to install instead of a traceback.  (Each command then checks its own extra: ``mizerka
serve`` names the ``server`` extra where FastAPI is missing, and so on.)
"""

from __future__ import annotations

import importlib.util
import sys

MISSING_CLI = ("mizerka: the mizerka command needs click, which is not installed; "
               "install the command line with: pip install 'mizerka[cli]'")
"""What the command says, on standard error with exit status 1, where click cannot be imported."""


def _missing(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is None
    except (ImportError, ValueError):  # a broken package, or a module without a spec: not usable either
        return True


def entry() -> None:
    """Run the command line (:func:`mizerka.cli.main`), or say which extra it needs and exit 1."""
    if _missing("click"):
        print(MISSING_CLI, file=sys.stderr)
        raise SystemExit(1)
    from mizerka.cli import main

    main()


if __name__ == "__main__":
    entry()
