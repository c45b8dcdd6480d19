"""The default balance study against the same study under stronger players: what holds, what moves.

    manoeuvre-sim balance --out reports/balance --force                       # make run
    manoeuvre-sim balance --games-per-pairing 200 --policies tuned,search:16:tuned:v2 \\
        --seed 1 --out reports/strong/balance-v2
    python -m benchmarks strong-balance reports/balance reports/strong/balance-v2 \\
        [reports/strong/balance-m10 ...] [--boot 2000] [--seed 1]
    python -m benchmarks strong-balance --quick     # plays two tiny studies itself

Issue 26 part 3: which conclusions of the default study hold under strong play.

The first directory is the reference study (its policy ``tuned``, or ``DIR@LABEL``); each
further one a study under a stronger player (its policy other than the reference's, or
``DIR@LABEL``). Everything is read from the studies' own files: ``manifest.json`` (command,
seed, rules version, data hash), ``armies.csv`` (each army's field win rate with its
interval and rank range, as the study printed them) and ``games.parquet`` (the records).
From the records: Kendall's tau between the two orderings of the field win rates with a
95 % bootstrap interval (``bench_rank_agreement.field_rates``; resamples of the games within
each ordered pairing of each study), the first player's score (draws half) with the
difference unpaired (all games of both) and paired (the games both studies played from the
same seed: same pairing, same game number, same seed, hence the same maps, hands and first
player), the endings mix (``analyses/manoeuvre/endings.py endings_row``) and the game length. Then a
section "What holds under strong play and what moves", stated from those figures by fixed
rules, not written by hand: a difference whose 95 % interval excludes 0 moves, one whose
interval holds 0 holds; the ranking holds if every army keeps its place, holds in the main
if not but tau's interval stays above 0, else moves.

"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

from benchmarks.bench_rank_agreement import field_rates, play_study
from benchmarks.common import Parser, Run
from manoeuvre_sim.core.stats import mean_interval, z_value

NEEDS = "the default study and studies under stronger players (DIR...)"

Z = z_value()


class Bad(Exception):
    """A bad input: one line, naming the file or option."""


def load_study(text: str, ref_label: str | None) -> dict:
    """``DIR`` or ``DIR@LABEL``: the study's manifest, games and armies table of one policy.
    Without a label: ``tuned`` for the reference (``ref_label`` None), else the study's one
    policy whose label is not ``ref_label``."""
    d, _, label = text.partition("@")
    path = Path(d)
    for name in ("manifest.json", "armies.csv", "games.parquet"):
        if not (path / name).exists():
            raise Bad(f"{path}: no {name} (expected a balance study's --out directory)")
    manifest = json.loads((path / "manifest.json").read_text(encoding="utf-8"))
    labels = [p["label"] for p in manifest.get("policies", [])]
    if not label:
        pick = ["tuned"] if ref_label is None else [x for x in labels if x != ref_label]
        if ref_label is None and "tuned" not in labels:
            pick = labels
        if len(pick) != 1:
            raise Bad(f"{path}: policies {labels}: name the one to use as {path}@LABEL")
        label = pick[0]
    if label not in labels:
        raise Bad(f"{text}: no policy {label!r} in the study (it has {labels})")
    games = pd.read_parquet(path / "games.parquet")
    games = games[games["label"] == label].reset_index(drop=True)
    armies = pd.read_csv(path / "armies.csv")
    armies = armies[armies["policy"] == label].set_index("army")
    return {"dir": path, "label": label, "manifest": manifest, "games": games,
            "armies": armies}  # fmt: skip


def command_of(s: dict) -> str:
    """The ``balance`` command that made the study, from its manifest."""
    m = s["manifest"]
    labels = [p["label"] for p in m["policies"]]
    pol = f"--policies {','.join(labels)}" if len(labels) > 1 else f"--policy {labels[0]}"
    extra = "".join(
        f" --{k.replace('_', '-')}" for k, v in m.get("options", {}).items() if v is True
    )
    first = f" --first-game {m['first_game']}" if m.get("first_game") else ""
    return (f"manoeuvre-sim balance --games-per-pairing {m['games_per_pairing']} {pol} "
            f"--seed {m['seed']}{first}{extra} --out {s['dir']}")  # fmt: skip


def scores(g: pd.DataFrame) -> np.ndarray:
    """Seat a's score per game (draws half)."""
    w = g["winner"].to_numpy()
    return np.where(w == "a", 1.0, np.where(w == "b", 0.0, 0.5))


def first_scores(g: pd.DataFrame) -> np.ndarray:
    """The first player's score per game (draws half)."""
    s = scores(g)
    return np.where(g["first_player"].to_numpy() == "a", s, 1 - s)


def tau_interval(ref: dict, strong: dict, armies: list[str], boot: int, rng):
    """Kendall's tau between the two studies' field win rates, and its 95 % bootstrap
    interval (games resampled within each ordered pairing of each study)."""
    from scipy.stats import kendalltau

    idx = {x: i for i, x in enumerate(armies)}
    data = []
    for s in (ref, strong):
        g = s["games"]
        a = g["army_a"].map(idx).to_numpy()
        b = g["army_b"].map(idx).to_numpy()
        blocks = [x for x in (np.flatnonzero((a == i) & (b == j)) for i in range(len(armies))
                              for j in range(len(armies))) if len(x)]  # fmt: skip
        data.append((scores(g), a, b, blocks))
    point = [field_rates(s, a, b, armies) for s, a, b, _ in data]
    tau = float(kendalltau(*point).statistic)
    taus = []
    for _ in range(boot):
        rates = []
        for s, a, b, blocks in data:
            pick = np.concatenate([rng.choice(x, size=len(x), replace=True) for x in blocks])
            rates.append(field_rates(s[pick], a[pick], b[pick], armies))
        taus.append(kendalltau(*rates).statistic)
    lo, hi = np.quantile(taus, [0.025, 0.975]) if boot else (float("nan"),) * 2
    return tau, float(lo), float(hi)


def paired(ref: dict, strong: dict):
    """The games both studies started from the same seed (same pairing, game number and
    seed): their count and the strong minus reference first-player score, paired."""
    key = ["army_a", "army_b", "game"]
    r = ref["games"].assign(fs=first_scores(ref["games"]))
    s = strong["games"].assign(fs=first_scores(strong["games"]))
    j = r.merge(s, on=key, suffixes=("_r", "_s"))
    j = j[(j["seed_r"] == j["seed_s"]) & (j["first_player_r"] == j["first_player_s"])]
    if len(j) < 2:
        return 0, (float("nan"),) * 3
    return len(j), mean_interval(j["fs_s"].to_numpy() - j["fs_r"].to_numpy())


def pts(m: float, lo: float, hi: float, sign: bool = False) -> str:
    f = "+.1f" if sign else ".1f"
    return f"{100 * m:{f}} [{100 * lo:{f}}, {100 * hi:{f}}]"


def diff_ci(x: tuple, y: tuple) -> tuple[float, float, float]:
    """y - x, each (mean, lo, hi) with a symmetric-enough normal interval."""
    se = np.hypot((x[2] - x[1]) / (2 * Z), (y[2] - y[1]) / (2 * Z))
    d = y[0] - x[0]
    return d, d - Z * se, d + Z * se


def verdict(ci: tuple) -> str:
    return "moves" if ci[1] > 0 or ci[2] < 0 else "holds"


def provenance(s: dict) -> list[str]:
    from manoeuvre_sim.manoeuvre.engine.players.dispatch import value_record

    m = s["manifest"]
    vr = value_record(s["label"])
    model = (f"value model `{vr['value_model']}` (file SHA-256 {vr['value_sha256']}, read when "
             "this file was written: the study's manifest does not record it)"
             if vr else "no value model")  # fmt: skip
    return [
        f"- `{s['label']}`: `{command_of(s)}`",
        f"  - seed {m['seed']}, rules version {m['rules_version']}, data hash "
        f"{m['data_hash']}, {m['games_per_pairing']} games per ordered pairing "
        f"({len(s['games']):,} games of this policy); {model}",
        f"  - played {m.get('started', '?')} to {m.get('finished', '?')} on {m.get('threads')} "
        f"threads, {m.get('seconds', float('nan')):.0f} s for all its {m.get('games', 0):,} "
        f"games ({m.get('machine', '?')}); interrupted: {m.get('interrupted')}",
    ]


def compare(ref: dict, strong: dict, armies: list[str], boot: int, rng) -> dict:
    from manoeuvre_sim.analyses.manoeuvre.endings import endings_row

    fs_r, fs_s = first_scores(ref["games"]), first_scores(strong["games"])
    first = (mean_interval(fs_r), mean_interval(fs_s))
    field = {}
    for a in armies:
        x, y = ref["armies"].loc[a], strong["armies"].loc[a]
        cx = (x["field_win_rate"], x["ci_low"], x["ci_high"])
        cy = (y["field_win_rate"], y["ci_low"], y["ci_high"])
        field[a] = (cx, cy, diff_ci(cx, cy), (x["rank"], x["rank_low"], x["rank_high"]),
                    (y["rank"], y["rank_low"], y["rank_high"]))  # fmt: skip
    return {
        "tau": tau_interval(ref, strong, armies, boot, rng),
        "first": first,
        "first_unpaired": diff_ci(*first),
        "first_paired": paired(ref, strong),
        "endings": (endings_row(ref["games"]), endings_row(strong["games"])),
        "field": field,
    }


def rank_txt(r: tuple) -> str:
    return f"{int(r[0])}" + (f" ({int(r[1])}–{int(r[2])})" if r[1] != r[2] else "")


def holds_lines(ref: dict, strong: dict, c: dict, armies: list[str]) -> list[str]:
    """The plain section: each conclusion of the reference study, holds or moves, by the
    rules of the module docstring."""
    R, S = f"`{ref['label']}`", f"`{strong['label']}`"
    f = c["field"]
    t, lo, hi = c["tau"]
    order_r = sorted(armies, key=lambda a: -f[a][0][0])
    order_s = sorted(armies, key=lambda a: -f[a][1][0])
    same = [a for a in armies if f[a][3][0] == f[a][4][0]]
    up = [a for a in order_s if f[a][2][1] > 0]
    down = [a for a in order_s if f[a][2][2] < 0]
    still = [a for a in order_r if a not in up and a not in down]
    spread = [100 * (f[order_r[0]][0][0] - f[order_r[-1]][0][0]),
              100 * (f[order_s[0]][1][0] - f[order_s[-1]][1][0])]  # fmt: skip
    (fr, fs), ud, (npair, pdiff) = c["first"], c["first_unpaired"], c["first_paired"]
    er, es = c["endings"]
    att = diff_ci(er["attrition"], es["attrition"])
    turns = diff_ci(er["turns"], es["turns"])
    side = {x: "a disadvantage" if v[2] < 0.5 else "an advantage" if v[1] > 0.5 else
            "neither (its interval holds 50 %)" for x, v in ((R, fr), (S, fs))}  # fmt: skip
    side_txt = (f"Moving first is {side[R]} under both." if side[R] == side[S] else
                f"Moving first is {side[R]} under {R}, {side[S]} under {S}.")  # fmt: skip
    widen = "widens" if spread[1] > spread[0] else "narrows" if spread[1] < spread[0] else "stays"
    night = ("Nightfall ends the day under both" if min(er["nightfall"][0], es["nightfall"][0])
             >= 0.9 else "The endings mix")  # fmt: skip
    # every army in its place: holds; the interval of tau clear of 0: holds in the main
    rank_verdict = ("holds" if len(same) == len(armies)
                    else "holds in the main" if lo > 0 else "moves")  # fmt: skip
    out = [
        f"- **The ranking {rank_verdict}**: Kendall's tau {t:.2f} "
        f"[{lo:.2f}, {hi:.2f}]; {len(same)} of {len(armies)} armies keep their rank "
        f"(order under {S}: {', '.join(order_s)}). Best: {order_r[0]} under {R}, "
        f"{order_s[0]} under {S}; worst: {order_r[-1]}, {order_s[-1]}.",
        f"- **The spread {widen}**: best minus "
        f"worst {spread[0]:.1f} points under {R}, {spread[1]:.1f} under {S}. Field win rates "
        "that move (difference interval clear of 0): "
        + (", ".join(f"{a} {pts(*f[a][2], sign=True)}" for a in up + down) or "none")
        + "; that hold: "
        + (", ".join(still) or "none")
        + ".",
        f"- **The first player's score {verdict(ud)}**: the first player scores "
        f"{pts(*fr)} % under {R}, {pts(*fs)} % under {S}; difference {pts(*ud, sign=True)} "
        f"points unpaired, {pts(*pdiff, sign=True)} paired over the {npair:,} games both "
        f"played from the same seed. {side_txt}",
        f"- **{night}**: attrition {pts(*er['attrition'])} % under "
        f"{R}, {pts(*es['attrition'])} % under {S} (difference {pts(*att, sign=True)} points: "
        f"it {verdict(att)}); nightfall {100 * es['nightfall'][0]:.1f} %, turn limit "
        f"{100 * es['turn_limit'][0]:.2f} % under {S}. Game length {er['turns'][0]:.1f} and "
        f"{es['turns'][0]:.1f} game turns (difference {turns[0]:+.1f} "
        f"[{turns[1]:+.1f}, {turns[2]:+.1f}]: it {verdict(turns)}).",
    ]
    return out


def section(ref: dict, strong: dict, c: dict, armies: list[str], boot: int) -> list[str]:
    R, S = f"`{ref['label']}`", f"`{strong['label']}`"
    t, lo, hi = c["tau"]
    (fr, fs), ud, (npair, pdiff) = c["first"], c["first_unpaired"], c["first_paired"]
    L = [
        f"## {S} against {R}",
        "",
        "Field win rate (per cent, 95 % interval, as the study printed it) and rank (its "
        "range in brackets where the study's rank interval is wider than one place); the "
        "difference with a normal interval from the two.",
        "",
        f"| army | {R} | rank | {S} | rank | difference (points) |",
        "|---|---|---:|---|---:|---|",
    ]
    for a in sorted(armies, key=lambda a: -c["field"][a][0][0]):
        x, y, d, rx, ry = c["field"][a]
        L.append(f"| {a} | {pts(*x)} | {rank_txt(rx)} | {pts(*y)} | {rank_txt(ry)} | "
                 f"{pts(*d, sign=True)} |")  # fmt: skip
    er, es = c["endings"]
    L += [
        "",
        f"Kendall's tau between the two orderings: **{t:.2f}** [{lo:.2f}, {hi:.2f}] (95 % "
        f"bootstrap interval, {boot} resamples of the games within each ordered pairing of "
        "each study).",
        "",
        "| | first player's score | attrition | nightfall | turn limit | mean game turns |",
        "|---|---|---|---|---|---|",
    ]
    for lab, f1, e in ((R, fr, er), (S, fs, es)):
        L.append(f"| {lab} | {pts(*f1)} % | {pts(*e['attrition'], )} % | "
                 f"{pts(*e['nightfall'])} % | {100 * e['turn_limit'][0]:.2f} % | "
                 f"{e['turns'][0]:.1f} [{e['turns'][1]:.1f}, {e['turns'][2]:.1f}] |")  # fmt: skip
    L += [
        "",
        f"First player's score, {S} minus {R}: {pts(*ud, sign=True)} points unpaired (all "
        f"games of both), {pts(*pdiff, sign=True)} paired ({npair:,} games started from the "
        "same seed in both: same pairing, game number, maps, hands and first player).",
        "",
        "### What holds under strong play and what moves",
        "",
        *holds_lines(ref, strong, c, armies),
    ]
    return L


def load_all(args) -> tuple[dict, list[dict], list[str]]:
    """The reference study and the strong ones, checked comparable (a :class:`Bad` if not)."""
    if args.boot < 0:
        raise Bad("--boot: expected 0 or more")
    ref = load_study(args.reference, None)
    strongs = [load_study(x, ref["label"]) for x in args.strong]
    armies = sorted(ref["armies"].index)
    for s in strongs:
        for k in ("rules_version", "data_hash"):
            if s["manifest"].get(k) != ref["manifest"].get(k):
                raise Bad(f"{s['dir']}: {k} {s['manifest'].get(k)} differs from the "
                          f"reference's {ref['manifest'].get(k)}: not comparable")  # fmt: skip
        if sorted(s["armies"].index) != armies:
            raise Bad(f"{s['dir']}: armies {sorted(s['armies'].index)}, the reference "
                      f"has {armies}")  # fmt: skip
    return ref, strongs, armies


def quick_studies(tmp: Path) -> tuple[str, list[str]]:
    """Two tiny studies seeded alike: the reference under ``tuned`` and one under
    ``balanced`` beside it (the quick run's input)."""
    ref = play_study(tmp / "ref", ["tuned"], 3)
    strong = play_study(tmp / "strong", ["tuned", "balanced"], 2)
    return str(ref), [f"{strong}@balanced"]


def main(argv: list[str] | None = None) -> int:
    ap = Parser(__file__, __doc__)
    ap.add_argument("reference", nargs="?",
                    help="the default study's --out directory (DIR or DIR@LABEL)")  # fmt: skip
    ap.add_argument("strong", nargs="*", help="studies under stronger players (DIR[@LABEL])")
    ap.size("--boot", 2000, 50, "bootstrap resamples of tau")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    tmp = None
    if args.reference is None and args.quick:
        tmp = Path(tempfile.mkdtemp(prefix="bench-strong-"))
        args.reference, args.strong = quick_studies(tmp)
    if args.reference is None or not args.strong:
        ap.error("expected the reference study and at least one strong study (or --quick)")
    run = Run(args, ap.name)
    try:
        ref, strongs, armies = load_all(args)
    except Bad as e:
        print(f"strong-balance: {e}", file=sys.stderr)
        return 2
    rng = np.random.default_rng(args.seed)
    body = run.header("The balance study under stronger players",
                      data_hash=ref["manifest"].get("data_hash")) + [
        f"The reference is the default study (`make run`) under `{ref['label']}`; each study "
        f"below plays the same {len(armies)} armies, every ordered pairing, both seats by the "
        "one policy, seeded alike (a pairing's game k starts from the same seed in every "
        "study). Mirrors are excluded from the field win rates, draws count half.",
        "",
        "## Provenance",
        "",
        *provenance(ref),
        *[x for s in strongs for x in provenance(s)],
    ]  # fmt: skip
    for s in strongs:
        c = compare(ref, s, armies, args.boot, rng)
        body += ["", *section(ref, s, c, armies, args.boot)]
    run.write(body)
    if tmp is not None:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
