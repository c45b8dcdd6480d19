"""Options shared by the ``manoeuvre-sim hex`` commands that play games."""

from __future__ import annotations

import click

from manoeuvre_sim.hexgame import POLICY_SPECS, parse_policy

POLICY_HELP = " | ".join(POLICY_SPECS)


def game_options(f):
    """Scenario, border, rule options [3], [12], [13] and the two players."""
    for opt in reversed(
        (
            click.option(
                "--scenario",
                type=click.Path(dir_okay=False),
                default=None,
                help="A scenario TOML file (default: the built-in reconstruction, "
                "data/hexgame/default.toml).",
            ),
            click.option(
                "--border",
                default="basic",
                show_default=True,
                help="A border line of the scenario (rule [2]; rule [13] 1: large_blue, "
                "large_red in the default scenario).",
            ),
            click.option("--turns", type=int, default=10, show_default=True, help="Rule [12]."),
            click.option(
                "--first",
                type=click.Choice(["random", "blue", "red"]),
                default="random",
                show_default=True,
                help="Who moves first (rule [3]); random: drawn per game.",
            ),
            click.option(
                "--quality-blue",
                default="front",
                show_default=True,
                help="Rule [13] 2, army quality: blue's units on their front or back side, or "
                "a number K: a mixture, its first K combat units (scenario order) back.",
            ),
            click.option(
                "--quality-red",
                default="front",
                show_default=True,
                help="As --quality-blue.",
            ),
            click.option("--step-losses", is_flag=True, help="Rule [13] 3."),
            click.option(
                "--step-replacements", is_flag=True, help="Rule [13] 4: one step per turn."
            ),
            click.option(
                "--captured-capital-zoc",
                is_flag=True,
                help="Interpretation H6's other reading: a captured Capital keeps its ZOC.",
            ),
            click.option(
                "--retreat-apart",
                is_flag=True,
                help="Interpretation H11's earlier reading: a retreating unit may not enter a "
                "hex holding a friend that retreats in the same combat.",
            ),
            click.option(
                "--policy-a",
                default="capital",
                show_default=True,
                help=f"Blue's player: {POLICY_HELP}",
            ),
            click.option(
                "--policy-b", default="capital", show_default=True, help="Red's player, as -a."
            ),
            click.option(
                "--params-a",
                metavar="W,T,S,R",
                help="Blue's scripted player's parameters (docs: Maneuver players): weight on "
                "the distance to its target, the estimated difference from which it attacks "
                "voluntarily, weight on staying home, cost of a fatal retreat.",
            ),
            click.option("--params-b", metavar="W,T,S,R", help="Red's, as --params-a."),
        )
    ):
        f = opt(f)
    return f


def load_game(kw: dict):
    """``(scenario, source, packed, options, pol, params, policies)`` from the options."""
    from manoeuvre_sim.core.errors import UsageError
    from manoeuvre_sim.hexgame.players import NPARAM, policy_arrays
    from manoeuvre_sim.hexgame.records import HexOptions
    from manoeuvre_sim.hexgame.scenario import default_path, load_scenario, pack

    source = kw.pop("scenario") or default_path()
    sc = load_scenario(source)
    options = HexOptions(
        border=kw.pop("border"),
        turns=kw.pop("turns"),
        first=kw.pop("first"),
        quality_blue=kw.pop("quality_blue"),
        quality_red=kw.pop("quality_red"),
        step_losses=kw.pop("step_losses"),
        step_replacements=kw.pop("step_replacements"),
        captured_capital_zoc=kw.pop("captured_capital_zoc"),
        retreat_apart=kw.pop("retreat_apart"),
    )
    if options.border not in sc.borders:
        raise UsageError(
            f"--border: expected one of {', '.join(sc.borders)} (scenario {source}), "
            f"got {options.border!r}"
        )
    policies = (kw.pop("policy_a"), kw.pop("policy_b"))
    for flag, p in zip(("--policy-a", "--policy-b"), policies, strict=True):
        try:
            parse_policy(p)
        except ValueError as e:
            raise UsageError(f"{flag}: {e}") from None
    vectors = []
    for flag, text in (("--params-a", kw.pop("params_a")), ("--params-b", kw.pop("params_b"))):
        if text is None:
            vectors.append(None)
            continue
        try:
            v = tuple(float(x) for x in text.split(","))
        except ValueError:
            v = ()
        if len(v) != NPARAM:
            raise UsageError(f"{flag}: expected {NPARAM} numbers separated by commas, got {text!r}")
        vectors.append(v)
    pol, params = policy_arrays(*policies, *vectors)
    return sc, source, pack(sc, options.border), options, pol, params, policies
