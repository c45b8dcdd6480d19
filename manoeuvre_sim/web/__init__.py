"""The browser workbench (``manoeuvre-sim ui``): a local Starlette server over a folder of
studies, with pages for both games' combat odds, every study, and any game replayed on its
board (docs/ui.md).

Layout, by feature: ``app.py`` builds the application and its error pages; beside it the
plumbing every page uses (``params.py`` checks every query parameter with the command
line's messages; ``safety.py`` confines served files to the studies folder and bounds work;
``render.py`` is the Jinja2 environment, autoescape on; ``page_cache.py`` keeps rendered
pages); then one package per feature: ``odds/``, ``studies/``, ``jobs/``, ``replay/``,
``site/``, each written once for every game. What only one game shows (its odds pages, its
board, its replay, its forms' fields, its study pages) is in its web module,
``games/<game>/``, which its adapter names (``WEB_MODULE``) and ``game_parts.py``
finds through the registry. ``static/vendor`` holds htmx and Vega from the npm registry
with their licences (``static/vendor/VENDORED.md``): nothing is fetched from a CDN.

The web layer computes no statistic and no rule: every figure comes from the same public
functions the command line calls.
"""
