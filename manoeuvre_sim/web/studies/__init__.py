"""The study pages, written once for every game: the list and a study's page, its pairings
and tables (``pages.py``), what a study's page shows (``views.py``: the game's own views
from its web module's ``STUDY_VIEWS``, any other study's tables as they are), the tables
(``tables.py``) and Vega-Lite charts (``charts.py``), two studies compared
(``compare.py``), and a what-if's moved cells and changed games (``whatif_changed.py``).
"""
