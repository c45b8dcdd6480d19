"""The study commands a job runs (issue 33): Manoeuvre's ``balance`` and ``whatif``,
Maneuver's ``hex balance`` and ``hex whatif``, each built from a job's options through the
same library functions the command's body calls (``analyses/manoeuvre/balance.py``,
``analyses/manoeuvre/whatif.py``, ``analyses/hexgame/variants.py``,
``analyses/hexgame/whatif.py``), so every option is checked, with the command line's
words, before the job is queued.

A job's options are a plain dict of the command's options by their Python names
(``games_per_pairing``, ``edits``), so it is stored as JSON beside the study and built
again to resume it after a restart. :func:`command_line` gives the command a user would
type for it (recorded in the job's state, shown on its page).
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from manoeuvre_sim.core.errors import UsageError

KINDS = ("balance", "whatif", "hex balance", "hex whatif")
# the tables a finished job's study must have (a job is done only once they are written)
DONE_KEY = {"balance": "games", "whatif": "paired_games", "hex balance": "games",
            "hex whatif": "games"}  # fmt: skip
# the most games one job may ask for (no unbounded work per request): 8 armies x 8 x 20,000
MAX_GAMES_PER_PAIRING = 20000


@dataclass
class Built:
    """A job's study, checked: ``run(out_dir, progress, backend, resume)`` plays it and
    returns the result whose ``write(out_dir, paper=)`` writes its tables; ``threads`` as the
    backend takes them."""

    run: Callable[..., Any]
    threads: int
    game: str


def _policies(text: str | None) -> tuple[str, ...]:
    pols = tuple(p.strip() for p in (text or "capital,attrition").split(",") if p.strip())
    if not pols:
        raise UsageError("--policies: expected comma-separated players")
    return pols


def _games(opts: dict, default: int) -> int:
    n = opts.get("games_per_pairing")
    n = default if n is None else int(n)
    if n > MAX_GAMES_PER_PAIRING:  # below 1: the study's own check, in its words
        raise UsageError(
            f"--games-per-pairing: expected at most {MAX_GAMES_PER_PAIRING} on the "
            f"workbench, got {n}"
        )
    return n


def _manoeuvre_base(opts: dict):
    from manoeuvre_sim.analyses.manoeuvre import balance as B
    from manoeuvre_sim.manoeuvre.adapter import RuleOptions
    from manoeuvre_sim.manoeuvre.model import load_builtin_armies

    armies = list(opts.get("armies") or [a.name for a in load_builtin_armies()])
    pols = B.policy_specs(opts.get("policy") or None)
    loaded, sources = B.resolve_armies(armies, relax=False)
    return B, B.BalanceSpec(
        armies=tuple(loaded), policies=pols, games_per_pairing=_games(opts, 1000),
        seed=int(opts.get("seed", 1)), options=RuleOptions(),
        precision=opts.get("precision"), max_games=int(opts.get("max_games") or 20000),
        block=int(opts.get("block") or 1000), threads=0, sources=tuple(sources),
    )  # fmt: skip


def _balance(opts: dict) -> Built:
    B, spec = _manoeuvre_base(opts)

    def run(out_dir, progress, backend, resume):
        return B.run_spec(spec, out_dir=out_dir, progress=progress, backend=backend, resume=resume)

    return Built(run, spec.threads, "manoeuvre")


def _whatif(opts: dict) -> Built:
    from manoeuvre_sim.analyses.manoeuvre import whatif as W

    if opts.get("precision") is not None:
        raise UsageError("--precision: not with whatif (it plays a fixed --games-per-pairing)")
    _, base = _manoeuvre_base(opts)
    edits = tuple(opts.get("edits") or ())
    if not edits:
        raise UsageError("--set: expected at least one edit (ARMY/PATH=VALUE)")
    spec = W.make_spec(base, edits=edits, relax=False)

    def run(out_dir, progress, backend, resume):
        return W.run_spec(spec, out_dir=out_dir, progress=progress, backend=backend, resume=resume)

    return Built(run, base.threads, "manoeuvre")


def _hex_balance(opts: dict) -> Built:
    from manoeuvre_sim.analyses.hexgame import variants as HV

    variants = HV.variant_grid(opts.get("borders"), opts.get("quality"),
                               opts.get("step_losses"), opts.get("step_replacements"))  # fmt: skip
    spec = HV.VariantSpec(
        variants=variants, policies=_policies(opts.get("policies")),
        games=_games(opts, 2000), seed=int(opts.get("seed", 1)), turns=int(opts.get("turns", 10)),
        scenario=None, precision=opts.get("precision"),
        max_games=int(opts.get("max_games") or 20000), block=int(opts.get("block") or 1000),
        threads=0, captured_capital_zoc=False, retreat_apart=False,
    )  # fmt: skip
    command = opts.get("command")

    def run(out_dir, progress, backend, resume):
        return HV.run_spec(spec, out_dir=out_dir, progress=progress, backend=backend,
                           resume=resume, command=command)  # fmt: skip

    return Built(run, spec.threads, "hex")


def _hex_whatif(opts: dict) -> Built:
    from manoeuvre_sim.analyses.hexgame import variants as HV
    from manoeuvre_sim.analyses.hexgame import whatif as HW

    if opts.get("precision") is not None:
        raise UsageError("--precision: not with hex whatif (it plays a fixed --games-per-pairing)")
    edits = tuple(opts.get("edits") or ())
    if not edits:
        raise UsageError("--set: expected at least one edit (SIDE/UNIT/FIELD=VALUE)")
    variant = HW.apply_edits(HW.load_raw(None), edits)
    qb, qr = HV._quality(opts.get("quality") or "front:front")
    rules = HV.Variant(border=opts.get("border") or "basic", quality_blue=qb, quality_red=qr,
                       step_losses=bool(opts.get("step_losses")),
                       step_replacements=bool(opts.get("step_replacements")))  # fmt: skip
    spec = HW.WhatIfSpec(
        variant=variant, base=None, variant_file=None, edits=edits, rules=rules,
        policies=_policies(opts.get("policies")), games=_games(opts, 2000),
        seed=int(opts.get("seed", 1)), turns=int(opts.get("turns", 10)),
        block=int(opts.get("block") or 1000), threads=0,
    )  # fmt: skip
    command = opts.get("command")

    def run(out_dir, progress, backend, resume):
        return HW.run_spec(spec, out_dir=out_dir, progress=progress, backend=backend,
                           resume=resume, command=command)  # fmt: skip

    return Built(run, spec.threads, "hex")


_BUILDERS = {"balance": _balance, "whatif": _whatif, "hex balance": _hex_balance,
             "hex whatif": _hex_whatif}  # fmt: skip


def build(kind: str, opts: dict) -> Built:
    """The job's study from its options, every option checked (a UsageError in the command
    line's words otherwise) before any game."""
    if kind not in _BUILDERS:
        raise UsageError(f"job: unknown study {kind!r} (one of {', '.join(KINDS)})")
    return _BUILDERS[kind](opts)


_FLAGS = ("armies", "policy", "policies", "games_per_pairing", "seed", "precision", "block",
          "borders", "quality", "border", "step_losses", "step_replacements")  # fmt: skip


def command_line(kind: str, opts: dict, out: str) -> str:
    """The command a user would type for the job (``manoeuvre-sim whatif --set ...``)."""
    words = ["manoeuvre-sim", *kind.split()]
    for name in _FLAGS:
        value = opts.get(name)
        if value is None or value is False or value == "" or value == []:
            continue
        flag = "--" + name.replace("_", "-")
        if value is True:
            words.append(flag)
        else:
            words += [flag, ",".join(value) if isinstance(value, list | tuple) else str(value)]
    for e in opts.get("edits") or ():
        words += ["--set", e]
    words += ["--out", out]
    return shlex.join(words)
