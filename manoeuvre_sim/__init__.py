"""manoeuvre-sim: a rules engine and balance-analysis toolkit for Manoeuvre (GMT Games),
and for Maneuver, the introductory hex wargame.

The packages say the layers (docs/architecture.md): ``core`` imports no game (errors, file
writing, RNG, the kernel decorator and numba cache, statistics, the games registry and the
study layer: tasks, store, backends, rounds, tournaments); each game is a package of its
own: ``manoeuvre`` (Manoeuvre: model, engine and players, odds,
replay, tuning, value, its adapter) and ``hexgame`` (Maneuver). The library never imports
the command line, pandas plotting or matplotlib.
"""

from manoeuvre_sim.core.numba_cache import configure as _configure_numba_cache

__version__ = "0.1.0"

# numba's cache keyed on the engine's sources (numba_cache.py), before any kernel exists
_configure_numba_cache()
