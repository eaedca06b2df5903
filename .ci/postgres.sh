#!/usr/bin/env bash
# Install (if needed), start and prepare a local PostgreSQL for the server tests.
# Prints one line on stdout:  export MIZERKA_TEST_DATABASE_URL=postgresql://mizerka:mizerka@127.0.0.1:5432/mizerka_test
# Usage:  eval "$(.ci/postgres.sh)" && .venv/bin/pytest -q tests/server
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
if ! ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1; then
  apt-get update -qq >&2
  apt-get install -y -qq postgresql >&2
fi
version=$(ls /usr/lib/postgresql | sort -n | tail -1)
if ! pg_lsclusters -h 2>/dev/null | grep -q "^$version main"; then
  pg_createcluster "$version" main >&2
fi
if ! pg_lsclusters -h | grep -q "^$version main .* online"; then
  pg_ctlcluster "$version" main start >&2
fi
for _ in $(seq 1 50); do
  if su postgres -c "psql -qAtc 'select 1'" >/dev/null 2>&1; then break; fi
  sleep 0.2
done
su postgres -c "psql -qAt" >&2 <<'SQL'
DO $$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'mizerka') THEN
    CREATE ROLE mizerka LOGIN PASSWORD 'mizerka';
  END IF;
END $$;
SQL
if ! su postgres -c "psql -qAtc \"select 1 from pg_database where datname = 'mizerka_test'\"" | grep -q 1; then
  su postgres -c "createdb -O mizerka mizerka_test" >&2
fi
port=$(pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main" {print $3}')
echo "export MIZERKA_TEST_DATABASE_URL=postgresql://mizerka:mizerka@127.0.0.1:${port}/mizerka_test"
