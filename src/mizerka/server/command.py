"""``mizerka serve``: run the game server on uvicorn."""

from __future__ import annotations

import logging
from pathlib import Path

import click

from mizerka.server.hub import ServerConfig

__all__ = ["default_database", "serve_command"]


def default_database() -> str:
    """A SQLite file in the user's data directory."""
    import platformdirs

    return "sqlite:///" + str(Path(platformdirs.user_data_dir("mizerka")) / "mizerka.sqlite3")


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535), help="Port to bind.")
@click.option("--database", "database", default=None, metavar="URL",
              help="sqlite:///path or postgresql://user:pw@host/db (default: a SQLite file in the user data dir).")
@click.option("--bot-delay", default=0.8, show_default=True, type=click.FloatRange(0, 30),
              help="Least seconds a bot takes per decision, for a pleasant pace.")
@click.option("--grace", default=60.0, show_default=True, type=click.FloatRange(0, 86400),
              help="Seconds before a bot stands in for a disconnected human.")
@click.option("--abandon-after", default=3600.0, show_default=True, type=click.FloatRange(1, 10**7),
              help="Seconds of idleness, with nobody connected, after which a table is closed.")
@click.option("--heartbeat", default=20.0, show_default=True, type=click.FloatRange(0.05, 3600),
              help="Seconds between heartbeats; a client silent for three is dropped.")
@click.option("--bot-workers", default=2, show_default=True, type=click.IntRange(1, 64), help="Bot worker pool size.")
@click.option("--bot-pool", default="process", show_default=True, type=click.Choice(["thread", "process"]),
              help="Run bots in threads or in processes.")
@click.option("--log-level", default="info", show_default=True,
              type=click.Choice(["debug", "info", "warning", "error"]))
def serve_command(host: str, port: int, database: str | None, bot_delay: float, grace: float, abandon_after: float,
                  heartbeat: float, bot_workers: int, bot_pool: str, log_level: str) -> None:
    """Run the game server (REST lobby under /api, websocket at /ws, browser client at /)."""
    import uvicorn

    from mizerka.server.app import create_app

    logging.basicConfig(level=log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    config = ServerConfig(database=database or default_database(), bot_delay=bot_delay, grace=grace,
                          abandon_after=abandon_after, heartbeat=heartbeat, bot_workers=bot_workers,
                          bot_pool="process" if bot_pool == "process" else "thread")
    try:
        app = create_app(config)
    except ValueError as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"mizerka server on http://{host}:{port}/ (database {config.database})", err=True)
    uvicorn.run(app, host=host, port=port, log_level=log_level, ws_max_size=65536, ws_ping_interval=20.0)
