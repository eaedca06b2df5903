"""Alembic migrations of the server schema (run by mizerka.server.db.upgrade)."""
