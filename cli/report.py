"""``manoeuvre-sim report``: one printable PDF of the whole analysis (issue 11), assembled
from the directories the study commands wrote — and, when no balance study is given, from
one it runs first."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from manoeuvre_sim.cli.common import paper_option
from manoeuvre_sim.cli.manoeuvre_options import DEFAULT_POLICY, POLICY_HELP, game_options
from manoeuvre_sim.manoeuvre.adapter import KEY as MANOEUVRE

DEFAULT_GAMES = 1000  # as balance


@click.command()
@click.option(
    "--from",
    "sources",
    multiple=True,
    metavar="DIR",
    help="A study directory to include: the --out of balance, cards or whatif (Manoeuvre), "
    "or of hex balance, hex ladder, hex setup or hex whatif (Maneuver); repeatable. Without "
    "a Manoeuvre balance study among them, the report runs one first (below) - unless every "
    "--from is a Maneuver study: then the report is Maneuver's alone.",
)
@click.option(
    "--armies",
    help="For the balance study the report runs: comma-separated army names or .toml files "
    "(default: the 8 base armies).",
)
@click.option(
    "--games-per-pairing",
    type=int,
    help=f"For the balance study the report runs: games per ordered pairing "
    f"(default {DEFAULT_GAMES:,}, as balance).",
)
@click.option(
    "--policy", help=f"For the balance study the report runs: both seats' player "
    f"(default {DEFAULT_POLICY}): {POLICY_HELP}",
)  # fmt: skip
@click.option("--seed", type=int, help="For the balance study the report runs (default 1).")
@click.option(
    "--cards",
    "card_armies",
    metavar="ARMIES",
    help="Comma-separated armies of the balance study, or 'all': for each without a card "
    "study in --from, run an observed card study (win rates when drawn, played; play "
    "rates) against the balance study's other armies, on its seed and policy. Ablation "
    "values need the cards command (hours of games for a whole deck).",
)
@click.option(
    "--card-games",
    type=int,
    default=2000,
    show_default=True,
    help="Games of each card study the report runs (split over opponents and seats).",
)
@click.option(
    "--threads", type=int, default=0, show_default=True, help="For a study it runs; 0: all cores."
)
@paper_option
@click.option(
    "--out",
    default="reports/manoeuvre-report.pdf",
    show_default=True,
    help="The PDF to write (replaced atomically). A study the report runs is kept beside it, "
    "in OUT-studies/ (e.g. reports/manoeuvre-report-studies/balance), for --from next time.",
)
@click.option("--quiet", is_flag=True, help="No progress bars.")
@game_options
def report(
    sources, armies, games_per_pairing, policy, seed, card_armies, card_games, threads, paper,
    out, quiet, **rules,
) -> None:  # fmt: skip
    """One PDF with the whole analysis: a cover with the provenance of every study, a table
    of contents, the balance study's pages, a card-value section per card study, the
    what-ifs, the combat odds charts and a methods page; for Maneuver studies (hex
    balance, ladder, setup, whatif) a section of their own: each study's pages, the
    results-table chart and Maneuver's methods. Nothing is recomputed: each study is read
    back from the files its command wrote, and its pages are the ones that command draws.
    Without a Manoeuvre balance study in --from, one is run first (with --armies,
    --games-per-pairing, --policy, --seed) and kept in OUT-studies/balance - unless every
    --from is a Maneuver study."""
    from manoeuvre_sim.analyses.common import report as R

    out_path = _pdf_path(out)
    # every directory, option and army is checked before a game is played or a page drawn
    studies = R.load_studies(sources)
    from manoeuvre_sim.cli.manoeuvre_options import given_game_options, pop_game_options

    rule_given = given_game_options(rules)  # the game options: for the studies it runs
    options = pop_game_options(rules)
    spec, field, main_seed, main_policy, options = _balance_plan(
        studies, armies, games_per_pairing, policy, seed, threads, options, rule_given, card_armies
    )
    work_root = out_path.with_name(out_path.stem + "-studies")
    have_cards = {s.manifest.get("army") for s in studies if s.kind == "cards"}
    card_specs = _card_specs(card_armies, card_games, field, have_cards, main_seed, main_policy,
                             threads, options)  # fmt: skip
    if spec is not None:
        studies.insert(0, _run_balance(spec, work_root / "balance", paper, quiet))
    for cspec in card_specs:
        studies.append(_run_cards(cspec, work_root, paper, quiet))
    path, pages = _write_report(out_path, out, studies, paper, quiet)
    kinds = ", ".join(f"{s.kind} {s.path}" for s in studies)
    click.echo(f"wrote {path}: {pages} pages from {kinds}")


def _pdf_path(out: str) -> Path:
    """``--out`` as a path, checked to name a .pdf file."""
    from manoeuvre_sim.core.errors import UsageError

    out_path = Path(out)
    if out_path.suffix.lower() != ".pdf":
        raise UsageError(f"--out {out}: expected a file name ending in .pdf")
    if out_path.is_dir():
        raise UsageError(f"--out {out}: is a directory; expected a .pdf file name")
    return out_path


def _balance_plan(
    studies, armies, games_per_pairing, policy, seed, threads, options, rule_given, card_armies
):
    """The Manoeuvre balance study the report stands on: ``(spec, field, seed, policy,
    options)``, ``spec`` the study to run (None when --from gives one, or gives only studies
    of another game: then no option of a run may be given), ``field`` its (name, source)
    armies, ``options`` the rule options its card studies play with."""
    from manoeuvre_sim.core.errors import UsageError

    run_opts = {
        "--armies": armies,
        "--games-per-pairing": games_per_pairing,
        "--policy": policy,
        "--seed": seed,
    }
    spec = None
    given_balance = next((s for s in studies if s.kind == "balance"), None)
    # Manoeuvre's part needs a balance study: run one when --from gives none, unless --from
    # gives only studies of another game (then the report is of that game alone)
    other_games_only = bool(studies) and all(s.game != MANOEUVRE for s in studies)
    if given_balance is not None or other_games_only:
        given = [k for k, v in run_opts.items() if v is not None] + rule_given
        given += ["--cards"] if card_armies is not None and other_games_only else []
        if given:
            raise UsageError(
                f"{given[0]}: only for the balance study the report runs, and --from already "
                "gives one"
                if given_balance is not None
                else f"{given[0]}: only for the Manoeuvre balance study the report runs, and "
                "--from gives only Maneuver studies (the report runs none: add a balance "
                "study's --out to --from for a Manoeuvre part)"
            )
    if given_balance is not None:
        field = [
            (a["name"], a.get("source") or a["name"]) for a in given_balance.manifest["armies"]
        ]
        main_seed = given_balance.manifest["seed"]
        main_policy = given_balance.manifest["policies"][0]["policy_a"]
        options = _manifest_options(given_balance.manifest)  # its card studies play alike
    elif other_games_only:
        field, main_seed, main_policy = [], None, None
    else:
        spec = _balance_spec(armies, games_per_pairing, policy, seed, threads, options)
        field = list(zip(spec.names, spec.sources or spec.names, strict=True))
        main_seed, main_policy = spec.seed, spec.policies[0].policy_a
    return spec, field, main_seed, main_policy, options


def _write_report(out_path: Path, out: str, studies, paper: str, quiet: bool):
    """Draw the report's pages into ``out_path`` with a progress bar (unless ``quiet``);
    its path and page count."""
    from manoeuvre_sim.analyses.common import report as R
    from manoeuvre_sim.core.errors import UsageError

    bar = None
    progress = None
    if not quiet:
        from tqdm import tqdm

        bar = tqdm(total=1, unit="page", file=sys.stderr, leave=False, desc="drawing")

        def progress(done: int, total: int) -> None:
            bar.total = total
            bar.n = done
            bar.refresh()

    try:
        return R.write_report(out_path, studies, paper=paper, progress=progress)
    except OSError as e:
        raise UsageError(f"--out {out}: cannot write there ({e.strerror})") from None
    finally:
        if bar is not None:
            bar.close()


def _manifest_options(manifest: dict):
    """The rule options a balance study's manifest records (``manoeuvre.adapter.RuleOptions``)."""
    from manoeuvre_sim.manoeuvre.adapter import RuleOptions

    o = dict(manifest.get("options") or {})
    for k in ("fixed_map", "fixed_rot"):
        if o.get(k) is not None:
            o[k] = tuple(o[k])
    return RuleOptions(**o)


def _balance_spec(armies, games_per_pairing, policy, seed, threads, options=None):
    """The balance study the report runs when --from gives none (checked, not played)."""
    from manoeuvre_sim.studies import balance

    return balance.command_spec(
        "manoeuvre", armies=armies, policy=policy, seed=1 if seed is None else seed,
        threads=threads,
        games_per_pairing=DEFAULT_GAMES if games_per_pairing is None else games_per_pairing,
        options=options,
    )  # fmt: skip


def _run_balance(spec, work: Path, paper: str, quiet: bool):
    """Play ``spec`` into ``work`` (an earlier study there is the report's own, replaced),
    write its files as ``balance`` does, and read it back as the report's balance study."""
    from manoeuvre_sim.studies import balance

    n = len(spec.sides)
    return _play_study(
        lambda out_dir, progress: balance.run_spec(spec, out_dir=out_dir, progress=progress),
        work,
        f"no balance study in --from: playing one ({n} armies, {spec.games_per_pairing:,} games "
        f"per ordered pairing, {n * n * spec.games_per_pairing:,} games) into {work}",
        paper,
        quiet,
    )


def _play_study(run, work: Path, message: str, paper: str, quiet: bool):
    """Say ``message``, ``run(out_dir, progress)`` into ``work`` (replaced) with a progress
    bar, write the result's files and read the study back; exit 130 when interrupted (the
    finished games stay in ``work``)."""
    from manoeuvre_sim.analyses.common import report as R
    from manoeuvre_sim.analyses.common.study_dir import prepare_out_dir
    from manoeuvre_sim.cli.common import progress_bar

    click.echo(message, err=True)
    out_dir = prepare_out_dir(work, force=True)
    bar, progress = progress_bar(quiet)
    res = run(out_dir, progress)
    if bar is not None:
        bar.close()
    if res.interrupted:
        click.echo(f"interrupted: no report written (the finished games are in {work})", err=True)
        sys.exit(130)
    res.write(out_dir, paper=paper)
    return R.load_study(out_dir)


def _card_specs(card_armies, games, field, have, seed, policy, threads, options=None):
    """The observed card studies the report runs: ``--cards`` armies (names of the balance
    study's field, or 'all') that have no card study in --from; checked, not played."""
    from manoeuvre_sim.core.errors import UsageError
    from manoeuvre_sim.manoeuvre.model import find_army
    from manoeuvre_sim.manoeuvre.studies import cards as C

    if card_armies is None:
        if games != 2000:
            raise UsageError("--card-games: only with --cards (the card studies the report runs)")
        return []
    if games < 1:
        raise UsageError(f"--card-games: expected a positive number, got {games}")
    names = [n for n, _ in field]
    if card_armies.strip().casefold() == "all":
        wanted = names
    else:
        wanted = [a.strip() for a in card_armies.split(",") if a.strip()]
        folded = {n.casefold(): n for n in names}
        for w in wanted:
            if w.casefold() not in folded:
                raise UsageError(
                    f"--cards: {w!r} is not an army of the balance study ({', '.join(names)})"
                )
        wanted = [folded[w.casefold()] for w in wanted]
    if not wanted:
        raise UsageError("--cards: expected 'all' or comma-separated army names")
    loaded = {n: find_army(src, relax=True) for n, src in field}
    return [
        C.make_spec(loaded[n], against=[loaded[o] for o in names if o != n], games=games,
                    seed=seed, policy=policy, mode="observed", threads=threads,
                    **({} if options is None else {"options": options}))
        for n in wanted
        if n not in have
    ]  # fmt: skip


def _run_cards(spec, work_root: Path, paper: str, quiet: bool):
    """Play one observed card study into ``work_root/cards_<army>`` and read it back."""
    import re

    from manoeuvre_sim.analyses.manoeuvre.cards import CardFiles
    from manoeuvre_sim.manoeuvre.studies.cards import run_spec

    name = re.sub(r"[^A-Za-z0-9_.-]+", "_", spec.army.name.lower())
    work = work_root / f"cards_{name}"
    return _play_study(
        lambda out_dir, progress: CardFiles(run_spec(spec, out_dir=out_dir, progress=progress)),
        work,
        f"no card study of {spec.army.name} in --from: playing one (observed, "
        f"{spec.games:,} games) into {work}",
        paper,
        quiet,
    )
