"""The studies, each written once over the game interface (``core/games.py``): a study takes
a game by its key from the registry and never imports a game (an import-linter contract).

- :mod:`.balance`: sides x sides (or a game's variants), a fixed number of games per pairing
  or rounds until every interval is narrow enough (``--precision``), adaptive allocation.
- :mod:`.whatif`: the paired what-if (common random numbers; an identical variant gives
  exactly zero).
- :mod:`.tournament`: every pair of players in both seats.
- :mod:`.simulate`: games of one pairing into a store.

Each plays through the study layer (``core/study.py``: tasks, the store, ``--resume``, the
local and Dask backends). What differs between games is asked of the game's adapter: what a
pairing is, how a cell's rate is read (``balance_cells``), the seats of a tournament
(``tournament_plan``), what ``simulate`` plays (``simulate_plan``), the edits of a what-if.
"""
