"""Table chat kept in the database (mizerka.server.chat), so that a restart, or a table unloaded from memory and
read back, gives the same chat history as before.

One row per chat message: its table, its number at the table (``seq``, from 1), the sender's seat and the name it
was sent under, and its ``text`` or its ``preset`` code (exactly one of the two).  A table's messages go with it
(``ON DELETE CASCADE``).  The chat of the tables played before this revision was never stored: they start with
none.  The downgrade drops the messages.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-09
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat",
        sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("text", sa.Text, nullable=True),
        sa.Column("preset", sa.String(32), nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("chat")
