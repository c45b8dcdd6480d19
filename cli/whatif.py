"""``manoeuvre-sim whatif``: a paired experiment between the base data and a variant."""

from __future__ import annotations

import click

from manoeuvre_sim.cli._common import engine_kernels, pop_backend, pop_game_options, run_and_write
from manoeuvre_sim.cli.balance import parse_armies, study_options


@click.command()
@study_options
@click.option(
    "--variant",
    "variant_files",
    multiple=True,
    type=click.Path(dir_okay=False),
    help="An army .toml file that replaces the base army of the same name (repeatable).",
)
@click.option(
    "--set",
    "edits",
    multiple=True,
    metavar="ARMY/PATH=VALUE",
    help="An inline edit (repeatable): 'France/Garde Imperial/full=8', "
    "'France/Garde Imperial/card2/attack=2d8', 'France/leaders/Napoleon/command=5', "
    "'Russia/cards/Supply=3' (docs/whatif.md).",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False),
    default="reports/whatif",
    show_default=True,
    help="Directory for games.parquet/, whatif.csv, whatif_field.csv, whatif.pdf, summary.txt.",
)
def whatif(**kw) -> None:
    """Play the balance study on the base data and, on the same seeds, every pairing of a
    changed army with the variant data; report each pairing's change of win rate with a
    paired 95% interval, the changed army's field win rate and rating, and the share of
    games whose outcome changed."""
    from manoeuvre_sim.analyses.manoeuvre import balance as B
    from manoeuvre_sim.analyses.manoeuvre import whatif as W

    out, paper, quiet, force = kw.pop("out"), kw.pop("paper"), kw.pop("quiet"), kw.pop("force")
    be = pop_backend(kw)
    options = pop_game_options(kw)
    relax = kw.pop("relax")
    pols = B.policy_specs(kw.pop("policy"), kw.pop("policy_a"), kw.pop("policy_b"))
    armies, sources = B.resolve_armies(parse_armies(kw.pop("armies")), relax=relax)
    base = B.BalanceSpec(
        armies=tuple(armies), policies=pols, games_per_pairing=kw.pop("games_per_pairing"),
        seed=kw.pop("seed"), options=options, threads=kw.pop("threads"), sources=tuple(sources),
    )  # fmt: skip
    spec = W.make_spec(
        base, variant_files=kw.pop("variant_files"), edits=kw.pop("edits"), relax=relax
    )
    spec_threads = base.threads

    def run(out_dir, progress, backend, resume):
        return W.run_spec(spec, out_dir=out_dir, progress=progress, backend=backend, resume=resume)

    run_and_write(
        run, out, force=force, quiet=quiet, paper=paper, backend=be, threads=spec_threads,
        done_key="paired_games",
        kinds=engine_kernels([x for p in pols for x in (p.policy_a, p.policy_b)]),
    )  # fmt: skip
