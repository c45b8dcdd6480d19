"""The browser workbench (``manoeuvre-sim ui``): a local Starlette server over a folder of
studies, with pages for both games' combat odds, every study, and any game replayed on its
board (docs/ui.md).

Layout: ``app.py`` builds the application and its error pages; ``params.py`` checks every
query parameter with the command line's messages; ``safety.py`` confines served files to
the studies folder; ``render.py`` is the Jinja2 environment (autoescape on: names from a
designer's files are text, never markup); ``odds.py``, ``studies.py`` and ``replay.py`` are
the three groups of pages; ``boards.py`` draws both games' boards as SVG; ``charts.py``
builds the Vega-Lite specs. ``static/vendor`` holds htmx and Vega from the npm registry with
their licences (``static/vendor/VENDORED.md``): nothing is fetched from a CDN.

The web layer computes no statistic and no rule: every figure comes from the same public
functions the command line calls.
"""
