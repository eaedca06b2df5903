#!/usr/bin/env bash
# The suite at the lowest versions pyproject.toml allows: are its lower bounds true?  (`make test-lowest`)
#
# uv resolves every direct requirement to its lowest allowed version (`--resolution lowest-direct`) in a
# separate virtual environment, .venv-lowest, and the suite runs there without the browser tests (Playwright's
# lowest version and Debian's chromium are not a pair) and without the optional extras that only the benchmarks
# and the Ray backend use (their tests say they are skipped).  Run it after raising or adding a requirement.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv-lowest/uv
.venv-lowest/uv/bin/pip install -q uv
uv=.venv-lowest/uv/bin/uv
"$uv" venv -q --allow-existing -p python3 .venv-lowest/env
# the dev extra's test requirements (pytest, hypothesis, ...) as pyproject.toml states them (not the linters)
mapfile -t dev < <(python3 - <<'PY'
import tomllib
dev = tomllib.load(open("pyproject.toml", "rb"))["project"]["optional-dependencies"]["dev"]
for requirement in dev:
    if not requirement.startswith(("mizerka[", "playwright", "axe-playwright", "pillow", "matplotlib", "ray",
                                   "open_spiel", "mypy", "ruff")):
        print(requirement)
PY
)
VIRTUAL_ENV="$PWD/.venv-lowest/env" "$uv" pip install -q --resolution lowest-direct -e '.[cli,server,tui,rl]' "${dev[@]}"
VIRTUAL_ENV="$PWD/.venv-lowest/env" "$uv" pip list 2>/dev/null | grep -iE '^(click|fastapi|starlette|uvicorn|sqlalchemy|alembic|pydantic|textual|rich|websockets|numpy|gymnasium|pettingzoo) '
# arguments: the tests to run instead of all of them (e.g. one file)
.venv-lowest/env/bin/python -m pytest -q -p no:cacheprovider --ignore=tests/web "${@:-tests}"
