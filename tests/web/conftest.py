"""Fixtures for the browser tests: a real game server (uvicorn on 127.0.0.1, a temporary SQLite database, bots
without delay) serving the client from src/mizerka/web/, and Debian's chromium driven by Playwright.

Chromium is not optional here: CI installs it (``.ci/run``), so a missing browser fails the tests with a message
saying how to install it, rather than skipping them.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("MIZERKA_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "server"))
from server_helpers import ThreadServer  # noqa: E402  (the server tests' own helper, shared)


class WebServer(ThreadServer):
    """The game server in a background thread, on a free loopback port, with bots that answer at once."""

    def __init__(self, database: str) -> None:
        from mizerka.server.hub import ServerConfig

        super().__init__(ServerConfig(database=database, bot_delay=0.0, rate=1000.0, burst=1000.0, grace=30.0))

    def start(self) -> WebServer:
        super().start()
        return self

    def call(self, fn: Any) -> Any:
        """Run *fn()* on the server's event loop (so it sees a consistent table) and return its result."""

        async def run() -> Any:
            return fn()

        return asyncio.run_coroutine_threadsafe(run(), self.hub.loop).result(timeout=30)


@pytest.fixture(scope="session")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    pytest.importorskip("fastapi", reason="the browser tests need the 'server' extra (pip install -e '.[dev]')")
    database = f"sqlite:///{tmp_path_factory.mktemp('web') / 'web.sqlite3'}"
    server = WebServer(database).start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"the browser tests need Debian's chromium at {CHROMIUM}: run `apt-get install -y chromium` "
                    "(.ci/run does); never `playwright install`", pytrace=False)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture
def new_page(browser: Any, web_server: WebServer) -> Iterator[Any]:
    """Open pages in fresh browser contexts (one per simulated person); each gets the page errors checked."""
    contexts: list[Any] = []
    errors: list[str] = []

    def make(viewport: dict[str, int] | None = None, **options: Any) -> Any:
        context = browser.new_context(viewport=viewport or {"width": 1280, "height": 800}, **options)
        context.set_default_timeout(15_000)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, f"JavaScript errors in the page: {errors}"


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
