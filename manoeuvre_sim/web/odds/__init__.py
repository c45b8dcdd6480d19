"""The odds pages' shared parts: the forms' fields read with the command line's checks
(``forms.py``), the views of a distribution (``views.py``) and the responses every odds page
sends (``http.py``: the page or its fragment, CSV, PDF). Each game's odds pages are in its
web module (``web/games/<game>/odds.py``), whose ``ROUTES`` the app adds.
"""
