"""Profiles' ids in the name key that is its own key (mizerka.server.players.name_key).

The name key used to be one round of NFKC and case folding, which is not always its own key: "Straß" with
U+0301 before its "e" had the id ``"strass\\u0301e"``, whose key is ``"stras\\u015be"``, so the profile's page
(found by the key of the id) answered 404, and "Strasśe" could claim a second profile beside it.  The key is now
folded until nothing changes; every id that was already its own key stays as it is.  This revision gives every
other profile its new id: its row is stored again under the new id (with its key hash, ratings and statistics),
its rated results and its seats follow it (the ``player`` of each seat in the tables' ``seats`` and
``initial_seats`` and in their journals' ``seat`` events, which a restart replays), and the old row goes.

**A clash is left alone**: a profile whose new id another row already holds (its twin, claimed since under the
new form, or a closed profile's reserved name) keeps its old id, so that neither player loses his profile or
results; its page stays unreachable by id (as before this revision), but its key still finds it (``GET
/api/profile``, a seat taken with the key alone).  Of two old ids with one new id, the older profile takes it.

The downgrade does nothing: the old ids are not needed again, and the new ones were valid then too.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-02
"""

from __future__ import annotations

import json
import unicodedata
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

# the tables as this revision finds them (revision 0002's columns), not mizerka.server.db's later ones
_players = sa.table(
    "players", sa.column("id", sa.String), sa.column("name", sa.String), sa.column("kind", sa.String),
    sa.column("key_hash", sa.String), sa.column("created_at", sa.Float), sa.column("updated_at", sa.Float),
    sa.column("mu", sa.Float), sa.column("sigma", sa.Float), sa.column("games", sa.Integer),
    sa.column("wins", sa.Integer), sa.column("deals", sa.Integer), sa.column("deals_won", sa.Integer),
)
_results = sa.table("results", sa.column("player_id", sa.String))
_tables = sa.table("tables", sa.column("id", sa.String), sa.column("seats", sa.Text),
                   sa.column("initial_seats", sa.Text))
_events = sa.table("events", sa.column("table_id", sa.String), sa.column("seq", sa.Integer),
                   sa.column("kind", sa.String), sa.column("data", sa.Text))


def _fold(name: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def new_key(key: str) -> str:
    """The name key as this revision defines it (a copy of mizerka.server.players.name_key at this revision: a
    migration must not change when the code does)."""
    key = _fold(key)
    while (again := _fold(key)) != key:
        key = again
    return key


def _encode(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _move(seat: Any, moved: dict[str, str]) -> bool:
    """Give a seat's JSON (``SeatState.to_json``) its profile's new id; whether it had a moved one."""
    if isinstance(seat, dict) and isinstance(seat.get("player"), str) and seat["player"] in moved:
        seat["player"] = moved[seat["player"]]
        return True
    return False


def _reseat(text: str | None, moved: dict[str, str]) -> str | None:
    """A table's ``seats`` JSON with the moved profiles' ids replaced, or ``None`` if none of them sits there."""
    seats: Any = json.loads(text) if text else None
    if not isinstance(seats, list):
        return None
    changed = [_move(seat, moved) for seat in seats]
    return _encode(seats) if any(changed) else None


def upgrade() -> None:
    connection = op.get_bind()
    rows = connection.execute(sa.select(_players).where(_players.c.kind != "bot")
                              .order_by(_players.c.created_at, _players.c.id)).mappings().all()
    taken = {row["id"] for row in connection.execute(sa.select(_players.c.id)).mappings()}
    moved: dict[str, str] = {}
    for row in rows:
        old = row["id"]
        new = new_key(old)
        if new == old or new in taken:
            continue  # already its own key, or a clash: left alone (see the docstring)
        # the key hash is unique: off the old row before the new one takes it; results follow, then the old row goes
        connection.execute(_players.update().where(_players.c.id == old).values(key_hash=None))
        connection.execute(_players.insert().values(**{**row, "id": new}))
        connection.execute(_results.update().where(_results.c.player_id == old).values(player_id=new))
        connection.execute(_players.delete().where(_players.c.id == old))
        taken.add(new)
        moved[old] = new
    if not moved:
        return
    for table in connection.execute(sa.select(_tables)).mappings().all():
        values = {column: text for column in ("seats", "initial_seats")
                  if (text := _reseat(table[column], moved)) is not None}
        if values:
            connection.execute(_tables.update().where(_tables.c.id == table["id"]).values(**values))
    for event in connection.execute(sa.select(_events).where(_events.c.kind == "seat")).mappings().all():
        data: Any = json.loads(event["data"])
        state = data.get("server", {}).get("state") if isinstance(data, dict) else None
        if _move(state, moved):
            connection.execute(_events.update().where(_events.c.table_id == event["table_id"],
                                                      _events.c.seq == event["seq"]).values(data=_encode(data)))


def downgrade() -> None:
    pass
