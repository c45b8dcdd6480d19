"""Regenerate the golden transcripts in tests/golden/ (diffed by tests/manoeuvre/test_golden.py).

Run it after a change that is *meant* to change how games play or read (a rule, a player,
the trace, the transcript wording), then review the diff in git before committing:

    .venv/bin/python scripts/regen_golden.py          # rewrite the files
    .venv/bin/python scripts/regen_golden.py --check  # only report; exit 1 if any differ
"""

from __future__ import annotations

import sys
from pathlib import Path

GOLDEN_DIR = Path(__file__).resolve().parents[1] / "tests" / "golden"

# (army A, army B, seed, game, policy A, policy B): game `game` of `simulate --seed SEED`
GAMES = (
    ("France", "Russia", 1, 0, "random", "random"),
    ("Austria", "Prussia", 2, 3, "random", "random"),
    ("Great Britain", "Spain", 3, 0, "random", "simple"),
    # the default player and each style, so any change of their behaviour shows here
    ("France", "Russia", 4, 1, "balanced", "balanced"),
    ("Ottoman Empire", "United States", 5, 0, "attritional", "territorial"),
    ("Prussia", "Great Britain", 6, 2, "territorial", "balanced"),
    ("Spain", "Austria", 7, 0, "tuned", "tuned"),  # the default player (DEFAULT_POLICY)
)


def golden_path(game: tuple) -> Path:
    a, b, seed, g, pa, pb = game
    slug = "_".join(x.lower().replace(" ", "_") for x in (a, b))
    return GOLDEN_DIR / f"{slug}_seed{seed}_game{g}_{pa}_{pb}.txt"


def render(game: tuple) -> str:
    """The transcript of one golden game, exactly as ``manoeuvre-sim replay`` prints it."""
    from manoeuvre_sim.manoeuvre.replay import transcript

    a, b, seed, g, pa, pb = game
    return transcript(a, b, seed=seed, game=g, policies=(pa, pb))


def main(argv: list[str]) -> int:
    check = "--check" in argv
    changed = 0
    for game in GAMES:
        path = golden_path(game)
        text = render(game)
        old = path.read_text(encoding="utf-8") if path.exists() else None
        if old == text:
            print(f"unchanged  {path.name}")
            continue
        changed += 1
        if check:
            print(f"DIFFERS    {path.name}")
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"{'rewrote' if old is not None else 'wrote'}    {path.name}")
    return 1 if check and changed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
