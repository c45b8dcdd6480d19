"""Each game's web module, one package per game, named by its adapter's ``WEB_MODULE``
(``games/manoeuvre``, ``games/hex``): what only that game shows in the workbench. The names
a web module may define, and how the shared pages find it, are in ``web/game_parts.py``.
"""
