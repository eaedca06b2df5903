"""Fixtures for the browser tests: a real game server (uvicorn on 127.0.0.1, a temporary SQLite database, bots
without delay) serving the client from src/mizerka/web/, and Debian's chromium driven by Playwright.

Chromium is not optional here: CI installs it (``.ci/run``), so a missing browser fails the tests with a message
saying how to install it, rather than skipping them.
"""

from __future__ import annotations

import asyncio
import os
import socket
import threading
import time
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


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class WebServer:
    """The game server in a background thread, on a free loopback port."""

    def __init__(self, database: str) -> None:
        import uvicorn

        from mizerka.server.app import create_app
        from mizerka.server.hub import ServerConfig

        self.app = create_app(ServerConfig(database=database, bot_delay=0.0, rate=1000.0, burst=1000.0, grace=30.0))
        self.hub = self.app.state.hub
        self.port = _free_port()
        self.server = uvicorn.Server(uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning",
                                                    ws_max_size=65536, lifespan="on"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def start(self) -> WebServer:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the game server did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

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
