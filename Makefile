# Quick start: `make run` (the bot), `make demo` (the bot playing offline) and `make test` (lint, types, the
# whole suite, on SQLite and on a throwaway PostgreSQL server when the machine has PostgreSQL installed).
# Each creates .venv with Python 3.11+ if it is missing and (re)installs the project whenever pyproject.toml
# has changed: `make run` only what the bot needs, `make demo` also the development tools (devtools/: the fake
# Discord and the scripted players, which are not part of the bot), `make test` also the test extra.

PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3 2>/dev/null || echo python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
DEVTOOLS := $(VENV)/.installed-devtools
TESTED := $(VENV)/.installed-test
PYTEST_ARGS ?= -n auto --dist worksteal

.PHONY: run demo test lint typecheck pytest bench venv clean

run: $(STAMP)
	$(BIN)/python -m bot

demo: $(DEVTOOLS)
	$(BIN)/python -m bot demo --game horse --hands 5

test: lint typecheck pytest

lint: $(TESTED)
	$(BIN)/ruff check bot cogs devtools tests bench

typecheck: $(TESTED)
	$(BIN)/mypy --strict

# The PostgreSQL tests need a server: a throwaway one is started for the run and stopped after it, whatever the
# outcome (devtools/pokerdev/pgserver.py; without PostgreSQL installed those tests are skipped, and fail in CI).
pytest: $(TESTED)
	$(BIN)/python -m pokerdev.pgserver run -- $(BIN)/python -m pytest $(PYTEST_ARGS)

bench: $(TESTED)
	$(BIN)/python bench/bench_engine.py
	$(BIN)/python bench/bench_play.py
	$(BIN)/python bench/bench_replay.py
	$(BIN)/python bench/bench_store.py

venv: $(STAMP)

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' || \
		{ echo "Python 3.11 or newer is needed (found: $(PYTHON)); set PYTHON=/path/to/python3.11" >&2; exit 1; }
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $(STAMP)

$(DEVTOOLS): $(STAMP) devtools/pyproject.toml
	$(BIN)/python -m pip install --quiet -e ./devtools
	touch $(DEVTOOLS)

$(TESTED): $(DEVTOOLS)
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(TESTED)

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis
