"""The studies, each written once over the game interface (``core/games.py``): a study takes
a game by its key from the registry and never imports a game (an import-linter contract).

- :mod:`.balance`: sides x sides (or a game's variants), a fixed number of games per pairing
  or rounds until every interval is narrow enough (``--precision``), adaptive allocation.
- :mod:`.whatif`: the paired what-if (common random numbers; an identical variant gives
  exactly zero).
- :mod:`.tournament`: every pair of players in both seats.
- :mod:`.simulate`: games of one pairing into a store.

Each plays through the study layer (``core/study.py``: tasks, the store, ``--resume``, the
local and Dask backends). What differs between games is asked of the game's adapter, each
hook optional with a default: how a cell's rate is read (``balance_cells``), the seats of a
tournament (``tournament_plan``), what ``simulate`` plays (``simulate_plan``). A what-if
changes what the game's ``load_side`` reads and its ``Options``; the edits a game offers on
top (Manoeuvre's ``--set``, Maneuver's scenario edits) are its front end's
(``analyses/<game>/whatif.py``), which plays through ``whatif.play_paired``.
"""
