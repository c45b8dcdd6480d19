"""The built-in data files, installed as the package ``manoeuvre_sim.data`` (no code)."""
