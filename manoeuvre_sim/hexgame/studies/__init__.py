"""Maneuver's own study kinds (only this game has them), each one module with its spec,
``command_spec``, ``run_spec`` and manifest, named in the adapter's ``OWN_STUDIES``:

- :mod:`.ladder`: the handicap ladder (``hex ladder``), army quality as a balancing tool.
- :mod:`.setup`: where each Capital stood and how the result depends on it (``hex setup``).

They sit at the study layer (the import contracts, pyproject.toml): they may use the shared
study kinds of ``manoeuvre_sim/studies/`` and this game; the rest of the game never imports
them. Their tables, summaries and PDF pages are ``analyses/hexgame/{ladder,setup}*.py``.
"""
