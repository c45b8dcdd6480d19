"""What the ``odds`` commands (``odds.py``) share: their options (``--simulate``, ``--seed``,
``--json``, the defense total's), the parsing of a range of values, the defense total from
its parts, and the printing of exact odds beside a Monte Carlo estimate as a table or JSON.

Heavy modules are imported inside the functions, as in the commands, so that
``manoeuvre-sim --help`` stays instant.
"""

from __future__ import annotations

import json
import re

import click

from manoeuvre_sim.cli._common import format_table
from manoeuvre_sim.core.errors import UsageError

_SIM = click.option(
    "--simulate",
    "simulate",
    type=int,
    default=0,
    metavar="N",
    help="Also run N Monte Carlo resolutions with the engine's kernel and show the "
    "estimate and its 95% Wilson interval beside the exact odds.",
)
_SEED = click.option("--seed", type=int, default=1, show_default=True, help="Monte Carlo seed.")
_JSON = click.option("--json", "as_json", is_flag=True, help="One JSON object on stdout.")


def _pct(p: float) -> str:
    if 0.0 < p < 0.00005:
        return "<0.01%"
    if 0.99995 < p < 1.0:
        return ">99.99%"
    return f"{100.0 * p:6.2f}%"


def _range(text: str, what: str) -> list[int]:
    """``'0..12'`` or ``'3,5,8'`` -> list of ints."""
    m = re.fullmatch(r"\s*(\d+)\s*\.\.\s*(\d+)\s*", text)
    if m:
        lo, hi = int(m.group(1)), int(m.group(2))
        if lo > hi or hi - lo > 200:
            raise UsageError(f"{what}: expected a range LO..HI with LO <= HI (<= 200 values)")
        return list(range(lo, hi + 1))
    try:
        vals = [int(v) for v in text.split(",")]
    except ValueError:
        raise UsageError(
            f"{what}: expected a range like '0..12' or a list like '3,5,8', got {text!r}"
        ) from None
    if any(v < 0 for v in vals):
        raise UsageError(f"{what}: values must be >= 0, got {text!r}")
    return vals


def _emit(names, probs, extra: dict, est, as_json: bool, title: str) -> None:
    """Print exact probabilities (and a Monte Carlo estimate) as a table or JSON."""
    if as_json:
        out = {n: float(p) for n, p in zip(names, probs, strict=True)}
        out.update(extra)
        if est is not None:
            out["simulation"] = est.to_dict()
        click.echo(json.dumps(out, indent=None))
        return
    click.echo(title)
    headers = ["result", "exact"]
    rows = [[n, _pct(p)] for n, p in zip(names, probs, strict=True)]
    if est is not None:
        lo, hi = est.interval
        headers += ["simulated", "95% interval"]
        for r, p, a, b in zip(rows, est.p, lo, hi, strict=True):
            r += [_pct(p), f"{_pct(a).strip()} .. {_pct(b).strip()}"]
    click.echo(format_table(headers, rows, align="lr" + "rr" * (est is not None)))
    if est is not None:
        click.echo(f"simulated: {est.n:,} resolutions, seed {est.seed}")


def _defense_total(defense, defender_strength, terrain, redoubt, sappers, cards, leader) -> int:
    from manoeuvre_sim.manoeuvre import odds

    parts = defender_strength is not None
    if defense is not None and parts:
        raise UsageError(
            "give either --defense (the whole defense total) or --defender-strength with its "
            "components, not both"
        )
    if defense is None and not parts:
        raise UsageError("give --defense (the defense total) or --defender-strength")
    if defense is not None:
        if terrain or redoubt or sappers or cards or leader:
            raise UsageError(
                "--defense is the whole defense total; use --defender-strength to build it "
                "from terrain, redoubt, cards and leader"
            )
        if defense < 0:
            raise UsageError(f"--defense: expected an integer >= 0, got {defense}")
        return defense
    ter = 0
    if terrain:
        from manoeuvre_sim.manoeuvre.matchup import find_terrain
        from manoeuvre_sim.manoeuvre.model import load_terrain

        ter = find_terrain(load_terrain(), terrain, "defender").defense
    return odds.build_defense(
        defender_strength,
        terrain=ter,
        redoubt=redoubt,
        sappers=sappers,
        cards=cards,
        leader_combat=leader,
    )


_DEFENSE_OPTS = [
    click.option("--defense", type=int, default=None, help="The whole defense total."),
    click.option(
        "--defender-strength", type=int, default=None, help="Build the defense total instead."
    ),
    click.option("--terrain", default=None, help="Defender's terrain: clear, hill, woods, ..."),
    click.option("--redoubt", is_flag=True, help="A redoubt on the defender's square (+3)."),
]


def _apply(opts):
    def deco(f):
        for o in reversed(opts):
            f = o(f)
        return f

    return deco


def _swap(est):
    import numpy as np

    from manoeuvre_sim.core.stats import Estimate

    return Estimate(("success", "failure"), np.array(est.counts[::-1]), est.n, est.seed)
