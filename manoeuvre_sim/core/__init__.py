"""The core: what every game and study shares, and imports no game and no study (an
import-linter contract, pyproject.toml): errors, atomic file writing (``fileio``,
``results``: records, JSON, CSV and text), TOML data reading and validation (``data``), the
seeded RNG, the kernel decorator and numba cache (``jit``, ``numba_cache``), statistics
(``stats``), the games registry and the declared game interface (``games``: the members
every game defines, the optional hooks, one signature and default each), the study layer
(``study``: pairings, tasks, resume, manifests, and the plans a game hands the studies:
``Cell``, ``Seat``, ``TournamentPlan``, ``SimulatePlan``; ``store``; ``backend``: local and
Dask) and the engines' warm-up (``warmup``). ``trace_reader``: a JSONL trace read back with
``json`` alone (``read_trace`` imports nothing, so it can be copied beside a checker), and
rebuilt through its game's ``rebuild_trace`` hook.
The studies written over all this are one layer up, in ``manoeuvre_sim/studies/``.
"""
