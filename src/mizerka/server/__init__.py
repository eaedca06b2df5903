"""The game server: tables for humans and bots, played live over websockets, stored in SQLite or PostgreSQL.

* :mod:`mizerka.server.protocol` — every websocket message, as pydantic models (docs/protocol.md);
* :mod:`mizerka.server.tables` — a table's seats, match and numbered events (pure, synchronous);
* :mod:`mizerka.server.views` — what one seat sees, built from its observation alone;
* :mod:`mizerka.server.db` — SQLAlchemy storage with alembic migrations, group-committed;
* :mod:`mizerka.server.hub` — the live tables, clients, bots in a worker pool, timers;
* :mod:`mizerka.server.app` — the FastAPI app (REST under ``/api``, websocket at ``/ws``);
* :mod:`mizerka.server.command` — ``mizerka serve``.

See docs/server.md for running it and docs/scaling.md for how it would grow beyond one process.
"""

from __future__ import annotations

from mizerka.server.protocol import PROTOCOL_VERSION

__all__ = ["PROTOCOL_VERSION"]
