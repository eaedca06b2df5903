"""Alembic's environment for the server's schema: runs on the connection the server hands it."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection

from mizerka.server.db import metadata


def run_migrations(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=metadata)
    with context.begin_transaction():
        context.run_migrations()


def main() -> None:
    """Run when alembic loads this file; importing it elsewhere (doctest collection) does nothing."""
    try:
        config = context.config
    except AttributeError:
        return
    connection = config.attributes.get("connection")
    if connection is None:
        raise RuntimeError("run the migrations through mizerka.server.db.upgrade(engine)")
    run_migrations(connection)


main()
