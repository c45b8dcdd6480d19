"""The jobs pages: studies and what-ifs started from the workbench (``pages.py``: the queue,
the forms' routes; ``edit.py``: rename and delete), their forms (``forms.py``, each game's
fields from its web module), the study kinds a job runs (``kinds.py``: one table keyed by
kind) and the worker that plays them one at a time (``manager.py``).
"""
