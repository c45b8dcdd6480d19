"""The static site (``manoeuvre-sim site``): the workbench's study pages crawled into files
(``build.py``), their links rewritten to the files (``links.py``), and the site's own pages
(``pages.py``).
"""
