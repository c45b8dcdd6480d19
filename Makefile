# Quick start (see README):  make run    — set up, then the main job
#                            make report — set up, then the printable report (docs/report.md)
#                            make test   — set up, then lint + the test suite (what CI runs)
# Each creates .venv on first use and reinstalls only when pyproject.toml changes; setup,
# run and report also compile the game engine when numba's cache does not hold it yet
# (the first time, and after an engine change: about a minute, said when it happens).

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp

.PHONY: setup run report test lint bench clean

setup: $(STAMP)
	@$(BIN)/python -m manoeuvre_sim.engine.warmup games

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $(STAMP)

# the default balance study: the 8 base armies, 1,000 games per ordered pairing (about
# +-2 points per cell), into reports/balance/ (an earlier run there is replaced)
run: setup
	$(BIN)/manoeuvre-sim balance --out reports/balance --force

# the printable report: from the balance study of `make run` when reports/balance holds one,
# else the report plays one first (into reports/manoeuvre-report-studies/balance)
report: $(STAMP)
	@$(BIN)/python -m manoeuvre_sim.engine.warmup games cards
	$(BIN)/manoeuvre-sim report $(if $(wildcard reports/balance/manifest.json),--from reports/balance) --out reports/manoeuvre-report.pdf

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

test: lint
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_odds.py
	$(BIN)/python benchmarks/bench_engine.py
	$(BIN)/python benchmarks/bench_decisions.py
	$(BIN)/python benchmarks/bench_invariants.py
	$(BIN)/python benchmarks/bench_players.py
	$(BIN)/python benchmarks/bench_balance.py
	$(BIN)/python benchmarks/bench_setup.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache
