"""Regenerate Maneuver's golden transcripts (tests/golden/hex/): ``python
scripts/regen_hex_golden.py``, then review the diff. tests/hexgame/test_hex_golden.py diffs them."""

from __future__ import annotations

from pathlib import Path

GOLDEN_DIR = Path(__file__).resolve().parents[1] / "tests" / "golden" / "hex"
# (seed, game, blue policy, red policy, options)
GAMES = (
    (3, 5, "capital", "capital", {}),
    (1, 0, "random", "random", {}),
    (2, 1, "attrition", "capital", {"border": "large_red", "step_losses": True}),
    (4, 2, "search:8", "capital", {}),
    (4, 2, "search:8:capital:all", "capital", {}),
)


def golden_path(game) -> Path:
    seed, index, a, b, opts = game
    extra = "".join(f"_{k}" for k in sorted(opts))
    name = f"seed{seed}_game{index}_{a}_{b}{extra}".replace(":", "-")  # search:8: search-8
    return GOLDEN_DIR / f"{name}.txt"


def render(game) -> str:
    from manoeuvre_sim.hexgame import batch
    from manoeuvre_sim.hexgame.players import policy_arrays
    from manoeuvre_sim.hexgame.records import HexOptions
    from manoeuvre_sim.hexgame.replay import build
    from manoeuvre_sim.hexgame.replay import render as text
    from manoeuvre_sim.hexgame.scenario import load_scenario, pack

    seed, index, a, b, opts = game
    options = HexOptions(**opts)
    sc = load_scenario()
    packed = pack(sc, options.border)
    pol, params = policy_arrays(a, b)
    st, trace = batch.play_one(seed, index, packed, options.array(), pol, params)
    return text(build(trace, packed, sc, options.describe(), seed, index, (a, b), st))


def main() -> None:
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    for game in GAMES:
        path = golden_path(game)
        path.write_text(render(game), encoding="utf-8")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
