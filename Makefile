# Quick start (see README):  make run   — set up, then the main job
#                            make test  — set up, then lint + the test suite (what CI runs)
# Both create .venv on first use and reinstall only when pyproject.toml changes.

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp

.PHONY: setup run test lint bench clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/manoeuvre-sim armies list
	$(BIN)/manoeuvre-sim simulate --army-a France --army-b Russia --games 5000 --seed 1 \
	    --out reports/france_vs_russia.parquet
	$(BIN)/manoeuvre-sim odds chart --out reports/assault_odds_a4.pdf

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

test: lint
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_odds.py
	$(BIN)/python benchmarks/bench_engine.py
	$(BIN)/python benchmarks/bench_invariants.py
	$(BIN)/python benchmarks/bench_players.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache
