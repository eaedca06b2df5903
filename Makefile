# Two entry points: `make run` (the main job: the web app with a game against computer players) and
# `make test` (everything CI checks). Both create .venv and install what they need on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev

.PHONY: run play test test-lowest bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

$(RUN_STAMP): pyproject.toml setup.py $(BIN)/python
	$(BIN)/pip install -q -e '.[cli,server,tui]'
	touch $(RUN_STAMP)

$(DEV_STAMP): pyproject.toml setup.py $(BIN)/python
	$(BIN)/pip install -q -e '.[dev]'
	touch $(DEV_STAMP) $(RUN_STAMP)

# The web app on 127.0.0.1:8000; it prints the address that opens a game against two bots at once.
run: $(RUN_STAMP)
	$(BIN)/mizerka serve --open

# The terminal game (full screen; `--plain` for a line mode).
play: $(RUN_STAMP)
	$(BIN)/mizerka play

test: $(DEV_STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy --strict src
	$(BIN)/pytest -q

# The suite at the lowest versions pyproject.toml allows (a separate .venv-lowest; not part of `make test`).
test-lowest:
	bash .ci/lowest.sh

bench: $(DEV_STAMP)
	$(BIN)/pip install -q -e '.[dev,bench]'
	$(BIN)/python benchmarks/engine.py

clean:
	rm -rf $(VENV) build src/*.egg-info
