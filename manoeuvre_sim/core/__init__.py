"""The core: what every game and study shares, and imports no game and no study (an
import-linter contract, pyproject.toml): errors, atomic file writing (``fileio``,
``results``: records, JSON, CSV and text), TOML data reading and validation (``data``), the
seeded RNG, the kernel decorator and numba cache (``jit``, ``numba_cache``), statistics
(``stats``), the games registry and the game interface (``games``), the study layer
(``study``: pairings, tasks, resume, manifests, and the plans a game hands the studies:
``Cell``, ``Seat``, ``TournamentPlan``, ``SimulatePlan``; ``store``; ``backend``: local and
Dask) and the engines' warm-up (``warmup``). ``trace_reader``: both games' JSONL traces read
back with ``json`` alone (it imports nothing, so it can be copied beside a checker).
The studies written over all this are one layer up, in ``manoeuvre_sim/studies/``.
"""
