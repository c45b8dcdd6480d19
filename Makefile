# Quick start (see README):  make run    — set up, then the main job
#                            make report — set up, then the printable report (docs/report.md)
#                            make test   — set up, then lint + the test suite (what CI runs)
#                            make ui     — set up, then the browser workbench (docs/ui.md)
# Each creates .venv on first use and reinstalls only when pyproject.toml changes (said
# before pip starts; pip shows its own progress); setup, run and report also compile the
# game engine when numba's cache does not hold it yet (the first time, and after an engine
# change: one to three minutes, with the seconds and functions compiled ticking on one line).
# setup compiles at once every kernel run and report play (games, cards), so report does not
# announce a second compile after run.

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp

.PHONY: setup run report test lint bench bench-full clean ui

setup: $(STAMP)
	@$(BIN)/python -m manoeuvre_sim.core.warmup games cards

$(STAMP): pyproject.toml
	@echo "creating $(VENV) and installing manoeuvre-sim and its dependencies into it (numpy,"
	@echo "numba, pandas, scipy, statsmodels, matplotlib, pyarrow, dask, pytest, ...): a few"
	@echo "minutes the first time, pip's progress below"
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --disable-pip-version-check --progress-bar on -e '.[dev]'
	@touch $(STAMP)
	@echo "installed into $(VENV)"

# the default balance study: the 8 base armies, 1,000 games per ordered pairing (about
# +-2 points per cell), into reports/balance/ (an earlier run there is replaced)
run: setup
	$(BIN)/manoeuvre-sim balance --out reports/balance --force

# the printable report: from the balance study of `make run` when reports/balance holds one,
# else the report plays one first (into reports/manoeuvre-report-studies/balance)
report: $(STAMP)
	@$(BIN)/python -m manoeuvre_sim.core.warmup games cards
	$(BIN)/manoeuvre-sim report $(if $(wildcard reports/balance/manifest.json),--from reports/balance) --out reports/manoeuvre-report.pdf

# the browser workbench over reports/ on http://127.0.0.1:8765/ (Ctrl-C stops); it compiles
# Maneuver's engine too the first time (replays of both games)
ui: setup
	$(BIN)/manoeuvre-sim ui --studies reports

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python scripts/lint_imports.py

# the suite on every core (pytest-xdist), after compiling every kernel it plays, the two
# games' engines side by side (nothing when numba's cache holds them): a test that needs
# one then loads it instead of compiling it in each worker at once
test: lint
	@$(BIN)/python -m manoeuvre_sim.core.warmup games cards search hex
	$(BIN)/python -m pytest -q -n auto --dist worksteal

# every benchmark of both games in its quick form (python -m benchmarks all --quick): a few
# minutes on 2 cores once the kernels are compiled (the warm-up first: nothing when they
# are); writes no results file. The list: python -m benchmarks (docs/benchmarks.md).
bench: $(STAMP)
	@$(BIN)/python -m manoeuvre_sim.core.warmup games cards search hex
	$(BIN)/python -m benchmarks all --quick

# the full forms, rewriting benchmarks/RESULTS-*.md: hours; the benchmarks that need inputs
# (a baseline commit, studies played apart) are skipped and say so
bench-full: $(STAMP)
	@$(BIN)/python -m manoeuvre_sim.core.warmup games cards search hex
	$(BIN)/python -m benchmarks all

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache
