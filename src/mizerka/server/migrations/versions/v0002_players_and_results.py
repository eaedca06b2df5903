"""Player profiles (with the bot levels' rating entries) and the results of rated matches.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-02
"""

from __future__ import annotations

import time

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

# the bot levels when this revision was written (mizerka.bots.BOT_LEVELS); a later level gets its own revision
BOT_LEVELS = ("random", "rules", "pimc", "ismcts", "expert")


def upgrade() -> None:
    players = op.create_table(
        "players",
        sa.Column("id", sa.String(255), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("key_hash", sa.String(64), nullable=True, unique=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("deals", sa.Integer, nullable=False),
        sa.Column("deals_won", sa.Integer, nullable=False),
    )
    op.create_index("ix_players_rating", "players", ["games", "mu"])
    op.create_table(
        "results",
        sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("player_id", sa.String(255), sa.ForeignKey("players.id", ondelete="CASCADE"), nullable=False),
        sa.Column("total", sa.Integer, nullable=False),
        sa.Column("rank", sa.Integer, nullable=False),
        sa.Column("won", sa.Boolean, nullable=False),
        sa.Column("deals", sa.Integer, nullable=False),
        sa.Column("deals_won", sa.Integer, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu_after", sa.Float, nullable=False),
        sa.Column("sigma_after", sa.Float, nullable=False),
        sa.Column("finished_at", sa.Float, nullable=False),
    )
    op.create_index("ix_results_player", "results", ["player_id", "finished_at"])
    now = time.time()
    op.bulk_insert(players, [
        {"id": f"bot:{level}", "name": level, "kind": "bot", "key_hash": None, "created_at": now,
         "updated_at": now, "mu": 25.0, "sigma": 25.0 / 3.0, "games": 0, "wins": 0, "deals": 0, "deals_won": 0}
        for level in BOT_LEVELS
    ])


def downgrade() -> None:
    op.drop_index("ix_results_player", "results")
    op.drop_table("results")
    op.drop_index("ix_players_rating", "players")
    op.drop_table("players")
