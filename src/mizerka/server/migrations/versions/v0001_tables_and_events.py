"""Tables and their event journals.

Revision ID: 0001
Revises:
Create Date: 2025-01-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tables",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("visibility", sa.String(16), nullable=False),
        sa.Column("variant", sa.String(200), nullable=False),
        sa.Column("settings", sa.Text, nullable=False),
        sa.Column("seats", sa.Text, nullable=False),
        sa.Column("initial_seats", sa.Text, nullable=False),
        sa.Column("first_dealer", sa.Integer, nullable=False),
        sa.Column("decks", sa.Text, nullable=False),
        sa.Column("salts", sa.Text, nullable=False),
        sa.Column("parent", sa.String(64), nullable=True),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("summary", sa.Text, nullable=True),
    )
    op.create_index("ix_tables_status", "tables", ["status", "updated_at"])
    op.create_table(
        "events",
        sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("deal_no", sa.Integer, nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("events")
    op.drop_index("ix_tables_status", "tables")
    op.drop_table("tables")
