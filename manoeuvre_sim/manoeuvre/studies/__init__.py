"""Manoeuvre's own study kinds (only this game has them), each one module with its spec, its
run and its manifest, named in the adapter's ``OWN_STUDIES``:

- :mod:`.cards`: what each card of one army is worth, observed in play and by ablation
  (``manoeuvre-sim cards``); with :mod:`.card_identities` (the cards as a designer names
  them) and :mod:`.card_observed` (the observed figures, summed per block of games).
- :mod:`.neglect`: what the play styles neglect, per policy and card type (no command: the
  players' benchmark, ``benchmarks/bench_neglect.py``, plays it).

They sit at the study layer (the import contracts, pyproject.toml): they may use the shared
study kinds of ``manoeuvre_sim/studies/`` and this game; the rest of the game never imports
them. Their texts, charts and PDF pages are ``analyses/manoeuvre/{cards,neglect,...}.py``.
"""
