"""The core: what every game and study shares, and imports no game and no study (an
import-linter contract, pyproject.toml): errors, atomic file writing (``fileio``,
``results``), the seeded RNG, the kernel decorator and numba cache (``jit``,
``numba_cache``), statistics, the games registry and its interface (``games``) and the
study layer (``study``: pairings, tasks, resume, a range of games; ``store``; ``backend``:
local and Dask; ``rounds``: a balance study's rounds, to a fixed N or a precision;
``tournament``: pairs of players in the seats a game gives them); ``trace_reader``: both
games' JSONL traces read back with ``json`` alone.
"""
