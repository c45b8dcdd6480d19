"""The replay pages, written once for every game with a replay: the routes (``pages.py``),
the replayed games kept in memory (``data.py``: each played by its game's web module,
``replay_game``), and what the board drawings share (``boards.py``).
"""
