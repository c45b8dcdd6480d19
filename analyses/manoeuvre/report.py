"""Manoeuvre's part of the printable report (``REPORT_MODULE`` of ``manoeuvre/adapter.py``):
its study directories (``balance``, ``cards``, ``whatif``: their ``manifest.json``, CSV
tables and ``summary.txt``) read back, each laid out with the pages its own command draws
(:func:`balance_pdf.balance_pages`, :func:`cards_pdf.card_pages`,
:func:`balance_pdf.whatif_page`) footed with that study's provenance, the combat odds
charts, the methods page and the game's part of the cover (the provenance of every study:
tool and rules version, data hash of every army and map section, seeds, games, policies,
rule switches, date, machine, run time). ``analyses/common/report.py`` assembles the parts
of every game into one PDF.
"""

from __future__ import annotations

import functools
import hashlib
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import pandas as pd  # noqa: E402

from manoeuvre_sim.analyses.common.pages import Page, section, study_head, text_pages  # noqa: E402
from manoeuvre_sim.analyses.common.report_pdf import Section, flow_pages  # noqa: E402
from manoeuvre_sim.analyses.common.study_dir import STORE  # noqa: E402
from manoeuvre_sim.analyses.manoeuvre import balance as B  # noqa: E402
from manoeuvre_sim.analyses.manoeuvre.balance_pdf import balance_pages, whatif_page  # noqa: E402
from manoeuvre_sim.analyses.manoeuvre.balance_text import provenance, setup_text  # noqa: E402
from manoeuvre_sim.analyses.manoeuvre.cards_pdf import card_pages  # noqa: E402
from manoeuvre_sim.core.errors import UsageError  # noqa: E402
from manoeuvre_sim.core.games import GAMES  # noqa: E402
from manoeuvre_sim.manoeuvre import RULES_VERSION

KIND_ORDER = ("balance", "cards", "whatif")  # Manoeuvre's (manoeuvre/adapter.py STUDY_KINDS)
# the files each kind of study directory must hold (besides manifest.json)
REQUIRED = {
    "balance": ("matrix.csv", "armies.csv", "first_player.csv", "victory.csv"),
    "cards": ("cards.csv",),
    "whatif": ("whatif.csv", "whatif_field.csv"),
}
KIND_TITLE = {"balance": "Balance study", "cards": "Card value", "whatif": "What-if"}


@dataclass
class Study:
    """One study read back from its directory: ``kind`` (balance, cards, whatif), the
    manifest, the frames its pages draw and the lines of its ``summary.txt``."""

    kind: str
    path: Path
    manifest: dict
    frames: dict[str, pd.DataFrame]
    summary: list[str] = field(default_factory=list)
    game = "manoeuvre"

    @property
    def provenance(self) -> dict[str, str]:
        """The footer of the study's pages (as its own PDF has it)."""
        return provenance(self.manifest)

    @property
    def title(self) -> str:
        m = self.manifest
        if self.kind == "cards":
            return f"Card value — {m.get('army', '?')} against {_against(m)}"
        if self.kind == "whatif":
            changes = (m.get("variant") or {}).get("changes") or []
            what = changes[0] if len(changes) == 1 else f"{len(changes)} changes"
            return f"What-if — {textwrap.shorten(str(what), 70, placeholder=' …')}"
        armies = m.get("armies") or []
        return f"Balance study — {len(armies)} armies"


def _against(manifest: dict) -> str:
    names = manifest.get("against") or []
    return names[0] if len(names) == 1 else f"the field ({len(names)} armies)"


def _bad(path: Path, what: str) -> UsageError:
    return UsageError(f"--from {path}: {what}")


def _read_csv(path: Path, name: str) -> pd.DataFrame:
    f = path / name
    try:
        return pd.read_csv(f)
    except (OSError, ValueError) as e:
        raise _bad(path, f"{name}: cannot read it as a CSV table ({e})") from None


def load_study(path: Path, manifest: dict) -> Study:
    """A Manoeuvre study directory read back (the ``--out`` of ``balance``, ``cards`` or
    ``whatif``; ``manifest``: its manifest.json, already read and of this game)."""
    kind = manifest["study"]
    for key in ("version", "rules_version", "data_hash", "seed", "policies"):
        if key not in manifest:
            raise _bad(path, f"manifest.json: {key}: missing")
    missing = [n for n in REQUIRED[kind] if not (path / n).is_file()]
    if missing:
        raise _bad(path, f"{missing[0]}: missing (a {kind} study directory holds it)")
    frames = {n.removesuffix(".csv"): _read_csv(path, n) for n in REQUIRED[kind]}
    if kind == "balance":
        for opt in ("styles", "style_tau"):
            if (path / f"{opt}.csv").is_file():
                frames[opt] = _read_csv(path, f"{opt}.csv")
        frames["victory_by_army"] = _victory_by_army(path, manifest)
        frames = B.rank_ordered(frames)
    summary_file = path / "summary.txt"
    summary = (
        summary_file.read_text(encoding="utf-8").rstrip("\n").splitlines()
        if summary_file.is_file()
        else []
    )
    return Study(kind, path, manifest, frames, summary)


def _victory_by_army(path: Path, manifest: dict) -> pd.DataFrame:
    """``victory_by_army.csv``, or for a study written before it existed, the same table
    counted from the study's game records (``games.parquet/``)."""
    if (path / "victory_by_army.csv").is_file():
        return _read_csv(path, "victory_by_army.csv")
    from manoeuvre_sim.analyses.manoeuvre import tally as T

    store = path / STORE
    if not (store.is_dir() and any(store.glob("*.parquet"))):
        raise _bad(
            path,
            "victory_by_army.csv: missing, and no games.parquet/ to count it from "
            "(rerun the balance study to write it)",
        )
    try:
        games = pd.read_parquet(store, columns=[*T.KEYS, "game_turns"])
    except (OSError, ValueError, KeyError) as e:
        raise _bad(path, f"games.parquet: cannot read the game records ({e})") from None
    tally = T.Tally()
    tally.add(games)
    names = [a["name"] for a in manifest.get("armies", [])]
    return T.victory_by_army(tally.table, names).rename(columns={"label": "policy"})


# ----------------------------------------------------------------------------- provenance


def _options_text(options: dict) -> str:
    """The rule switches of a study in words; ``"the defaults"`` when none is changed."""
    from manoeuvre_sim.manoeuvre.adapter import RuleOptions

    default = RuleOptions()
    parts = []
    for key, value in sorted((options or {}).items()):
        if key in ("fixed_map", "fixed_rot", "setup"):
            continue
        if getattr(default, key, None) != value:
            parts.append(f"{key.replace('_', '-')} {value}")
    setup = setup_text({"options": options or {}})
    parts.insert(
        0, setup or "set-up random (sections and rotations drawn, rule 3 choices not played)"
    )
    return "; ".join(parts)


def _map_pool_lines(options: dict) -> list[str]:
    """The map sections a study drew from, with a hash of each as installed now."""
    from manoeuvre_sim.manoeuvre.engine.options import _ranges
    from manoeuvre_sim.manoeuvre.model import load_sections, load_terrain

    include = bool((options or {}).get("include_unverified_maps"))
    sections = load_sections(terrain=load_terrain())
    pool = [s for s in sections if s.verified or include]
    left = [s.number for s in sections if s not in pool]
    head = f"map sections {_ranges([s.number for s in pool])}"
    if left:
        head += f" (unverified {_ranges(left)} left out)"
    cells = [
        f"{s.number:>2} {hashlib.sha256(s.model_dump_json().encode()).hexdigest()[:8]}"
        for s in pool
    ]
    rows = ["   ".join(cells[i : i + 6]) for i in range(0, len(cells), 6)]
    return [head + "; hash of each as installed now:", *rows]


def study_provenance(study: Study) -> list[tuple[str, str]]:
    """The cover's block for one study: (style, text) lines."""
    m = study.manifest
    out = study_head(study.title, study.path, m, RULES_VERSION)
    reached = m.get("games_per_pairing_reached") or {}
    lo, hi = reached.get("min"), reached.get("max")
    per = "?" if lo is None else (f"{lo:,}" if lo == hi else f"{lo:,}–{hi:,}")
    games = f"{m.get('games', 0):,} games ({per} per ordered pairing"
    games += ", per variant)" if study.kind != "balance" else ")"
    if m.get("precision"):
        games += f", precision goal ±{100 * m['precision']:.1f} points"
    if m.get("interrupted"):
        games += " — INTERRUPTED: the tables cover the games finished before the stop"
    out.append(("p", f"seed {m['seed']}; {games}"))
    pols = "; ".join(
        p["label"]
        if p["policy_a"] == p["policy_b"]
        else f"{p['label']} (seat a {p['policy_a']}, seat b {p['policy_b']})"
        for p in m["policies"]
    )
    out.append(("p", f"policies: {pols}"))
    out.append(("p", f"rule switches: {_options_text(m.get('options') or {})}"))
    if study.kind == "cards":
        abl = m.get("ablations") or []
        out.append(
            (
                "p",
                f"mode {m.get('mode', '?')}; {len(abl)} ablation(s); against {', '.join(m.get('against', []))}",
            )
        )
    if study.kind == "whatif":
        var = m.get("variant") or {}
        for change in var.get("changes") or []:
            out.append(("p", f"change: {change}"))
        for a in var.get("armies") or []:
            out.append(("p", f"variant {a['name']}: data hash {a['data_hash']}"))
    out.append(("p", f"data hash (armies, terrain, map pool): {m['data_hash']}"))
    out.append(("m", f"{'army':<22} {'data hash':<17} source"))
    for a in m.get("armies") or []:
        out.append(("m", f"{a['name']:<22} {a['data_hash']:<17} {_source(a)}"))
    return out


@functools.cache
def _installed_hashes() -> dict[str, str]:
    """The data hash of each built-in army as installed now."""
    from manoeuvre_sim.manoeuvre.adapter import army_hash
    from manoeuvre_sim.manoeuvre.model import load_builtin_armies

    return {a.name: army_hash(a) for a in load_builtin_armies()}


def _source(entry: dict) -> str:
    """Where an army of a manifest came from, and whether the installed built-in army (or
    the file, if it is still there) has the same data hash."""
    from manoeuvre_sim.manoeuvre.adapter import army_hash
    from manoeuvre_sim.manoeuvre.model import find_army

    src = str(entry.get("source") or "")
    name, recorded = entry["name"], entry["data_hash"]
    installed = _installed_hashes()
    if (src == name or not src) and name in installed:
        same = installed[name] == recorded
        label = "built-in"
    elif src.lower().endswith(".toml") and Path(src).is_file():
        try:
            same = army_hash(find_army(src, relax=True)) == recorded
        except Exception:  # an army file since edited into an invalid one
            same = False
        label = src
    else:
        return src or "source not recorded"
    return label + (", same as installed" if same else ", CHANGED since (installed data differ)")


# ----------------------------------------------------------------------------- methods

POLICY_NOTES = {
    "balanced": "attritional combat weights, a stronger pull forward, a fast-cycling hand "
    "and a posture switch (hold when losing, press when winning)",
    "attritional": "seeks favourable assaults and Committed Attacks; keeps attack and "
    "defence cards",
    "territorial": "plays for nightfall: advances into the enemy half, values terrain and "
    "redoubts, avoids bad trades",
    "tuned": "balanced's switch with a parameter vector tuned by self-play (CMA-ES); it "
    "beats every other style held out; the default",
    "simple": "the one-ply baseline (hoards cards; many games reach the turn limit)",
    "random": "uniform over the legal options at every decision",
    "search": "plays its discard, first move and combat by Monte Carlo rollouts",
}

# issue 26: benchmarks/RESULTS-strong-balance.md (bench_strong_balance.py), 2026-11-24
STRONG_PLAY = (
    "The default study was played again (2026-11-24) under the value search "
    "search:16:tuned:v2, which scores 83.6 % against tuned: 200 games per ordered pairing, "
    "benchmarks/RESULTS-strong-balance.md. Holds: the ranking (Kendall's tau 1.00 "
    "[1.00, 1.00], all 8 armies in the same place, France first, United States last) and "
    "the nightfall finish (98.5 % of games; attrition 1.5 % against 0.9 %). Moves: the "
    "spread widens (best minus worst 53 points against 44: France +3.9, Ottoman Empire "
    "+2.2, Austria -3.3, United States -5.4 points, each interval clear of 0); moving "
    "first costs more (the first player scores 41.9 % against 47.5 %, paired difference "
    "-5.4 [-6.5, -4.3] points); the day is longer (15.9 game turns against 13.5). Under the "
    "strongest, search:64:tuned:v2:m10 (92.0 %), the same: tau 1.00 [0.93, 1.00], first "
    "player 39.9 % (paired -7.3 [-8.4, -6.3]), attrition 1.1 %."
)

# (number in docs/RULE_INTERPRETATIONS.md, what it decides, why it can move results)
INTERPRETATIONS = (
    (2, "an army against itself cannot break the last tie: a draw",
     "sets the mirror cells' draws"),
    (3, "attrition is checked after each combat; the active player's own 5th loss loses",
     "decides close attrition games"),
    (4, "a safety limit of game turns (--max-turns) ends a day that never ends",
     "games at the limit are scored at nightfall"),
    (5, "random set-up: army A at the bottom, four sections drawn, random rotations",
     "the battlefield is a draw, not a choice (see #27)"),
    (16, "every attacking or supporting unit on a hill adds +2", "hill assaults"),
    (23, "an Ambush gets no hill bonus, no advance and no pursuit", "Ambush-heavy armies"),
    (26, "a Committed Attack's hit passes to a surviving unit", "pyrrhic victories"),
    (27, "how rule 3's map and edge choices are played (--setup rules)",
     "only in studies run with --setup rules"),
)  # fmt: skip


def methods_items(studies: Sequence[Study]) -> list[tuple[str, str]]:
    """The methods page: players, intervals, rule interpretations, known limits."""
    from manoeuvre_sim.manoeuvre.engine.options import _ranges, map_pool

    used = sorted(
        {
            name.split(":")[0]
            for s in studies
            for p in s.manifest.get("policies", [])
            for name in (p["policy_a"], p["policy_b"])
        }
    )
    out: list[tuple[str, str]] = [("h2", "What the players do")]
    out.append(("p", "Every game is played by scripted players, never by people: each figure "
                     "measures the armies and cards as these players play them. The players "
                     "of this report's studies:"))  # fmt: skip
    out += [("p", f"•  {name}: {POLICY_NOTES.get(name, 'see docs/players.md')}") for name in used]
    out.append(("p", "They judge combats by the exact results-table odds (the odds charts' "
                     "numbers), moves by a position value, discards by a value of each card in "
                     "context (docs/players.md). A card they misuse is undervalued; compare "
                     "play styles (balance --policies) before trusting a small difference."))  # fmt: skip
    out += section("Under stronger play", STRONG_PLAY)
    out += section(
        "What an interval means here",
        "Every interval is a 95 % interval for the uncertainty that comes from playing a "
        "finite number of games with these players and these rules: more games narrow it. "
        "It says nothing about how well the players play or whether a rule is read right.",
        "•  a cell of the heatmap: a Wilson interval on wins + draws/2 of that pairing, both "
        "seatings pooled (a draw counts half a win);",
        "•  the field win rate: the mean of the army's cells, with a normal interval from "
        "the cells' variances; ratings: a Bradley–Terry fit with a first-player term "
        "(Elo scale, Wald intervals); ranks: the 2.5–97.5 % range of 200 bootstrap refits;",
        "•  a card's value (ablation) and a what-if change: the paired t interval of the "
        "per-game differences between the base games and the same games (same seeds, maps, "
        "first players and deals) with the change — far narrower than two separate studies;",
        "•  observed card figures (PIW, IWD) compare games, not cards, and are biased "
        "(a comeback card is played by the side that is losing): read them with the "
        "ablation.",
        "Two armies whose intervals overlap are not shown to differ; 20 independent "
        "intervals hold about one miss by chance.",
    )
    out += section(
        f"Rule interpretations that can move results (rules {RULES_VERSION})",
        "Where the rulebook leaves a question open, the engine takes one reading; each is an "
        "entry of docs/RULE_INTERPRETATIONS.md, by number:",
        *(f"•  #{num}: {what} — {why}." for num, what, why in INTERPRETATIONS),
    )
    pool, left = map_pool(False)
    setups = {str((s.manifest.get("options") or {}).get("setup", "random")) for s in studies}
    out += section(
        "Known limits",
        f"•  Map sections {_ranges(left)} are left out: their scans are unverified stand-ins; "
        f"the studies draw from sections {_ranges(pool)} unless a study's cover block says "
        "otherwise.",
        "•  The battlefield is drawn at random (four sections, random rotations, army A at "
        "the bottom) rather than chosen as rule 3 has it"
        + (" — except in the studies run with --setup rules" if "rules" in setups else "")
        + ": this averages each army over every section, and keeps map-building out of the "
        "players' skill (docs/game-options.md).",
        "•  Distant Lands options (tournament hand, advance to contact, digging in) are off "
        "unless a study's rule switches name them.",
        "•  The players are scripts: a human may find lines they miss, and a card's value is "
        "its value as they play it. A study's figures hold for its data hashes (cover): an "
        "edited army file or map is a different study.",
    )
    return out


# ----------------------------------------------------------------------------- assembly


def study_section(study: Study, paper: str) -> Section:
    prov = study.provenance
    pages: list[tuple[Page, dict, str | None, str]] = []
    if study.kind == "balance":
        pages = [(d, prov, p, t) for d, p, t in balance_pages(study.frames)]
    elif study.kind == "cards":
        m = study.manifest
        pages = [
            (d, prov, None, t)
            for d, t in card_pages(
                study.frames["cards"], army=m.get("army", "?"), against=_against(m), paper=paper
            )
        ]
    else:
        changes = (study.manifest.get("variant") or {}).get("changes") or []
        page = whatif_page(study.frames["whatif"], changes, title=study.title)
        pages = [(page, prov, None, "Change of win rate per pairing")]
    if study.summary:
        for k, page in enumerate(text_pages(f"Summary — {study.title}", study.summary, paper)):
            pages.append(
                (page, prov, None, "Summary (as the command printed it)" if k == 0 else "")
            )
    return Section(f"{study.title}", pages)


def odds_section(own: dict[str, str]) -> Section:
    """The combat odds charts of ``odds chart``: an assault / ambush page per printed dice
    mix, then bombardment, volley and rockets; exact odds, nothing simulated."""
    from manoeuvre_sim.analyses.manoeuvre.odds_chart import (
        ASSAULT_DEFENSES,
        ASSAULT_STRENGTHS,
        assault_page,
        fire_page,
    )
    from manoeuvre_sim.manoeuvre.odds import DEFAULT_MIXES, odds_grid

    prov = {**own, "odds": "exact (rules 6.1-6.3)"}
    labels, probs = odds_grid(DEFAULT_MIXES, ASSAULT_STRENGTHS, ASSAULT_DEFENSES)
    pages: list[tuple[Page, dict, str | None, str]] = [
        (assault_page(lab, ASSAULT_STRENGTHS, ASSAULT_DEFENSES, probs[k]), prov, None,
         f"Assault / Ambush — attack dice {lab}")
        for k, lab in enumerate(labels)
    ]  # fmt: skip
    pages.append((fire_page(), prov, None, "Bombardment and volley; rockets"))
    return Section("Combat odds", pages)


def cover_items(studies: Sequence[Study]) -> list[tuple[str, str]]:
    """The game's part of the cover: a block per study, then the map sections drawn from."""
    out: list[tuple[str, str]] = [("h1", GAMES["manoeuvre"][1])]
    for s in studies:
        out.extend(study_provenance(s))
        out.append(("gap", ""))
    pools = sorted({bool((s.manifest.get("options") or {}).get("include_unverified_maps"))
                    for s in studies})  # fmt: skip
    out.append(("h2", "Map sections"))
    for include in pools:
        out.extend(("m", line) for line in _map_pool_lines({"include_unverified_maps": include}))
    return out


def sections(studies: Sequence[Study], paper: str, own: dict[str, str]) -> list[Section]:
    """The game's sections: its studies, the combat odds charts, the methods."""
    out = [study_section(s, paper) for s in studies]
    out.append(odds_section(own))
    methods = flow_pages("Methods", methods_items(studies), paper,
                         "how the figures were made, and what they cannot show")  # fmt: skip
    out.append(Section("Methods", [(d, own, None, "") for d in methods]))
    return out
