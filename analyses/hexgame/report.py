"""Maneuver's part of the printable report (:mod:`analyses.common.report`, issue 25 part 6).

The report finds this module through the game registry (``hexgame/adapter.py``:
``REPORT_MODULE``) when a ``--from`` directory's manifest names the game ``hex``. It reads
back what ``hex balance``, ``hex ladder``, ``hex setup`` and ``hex whatif`` wrote
(``manifest.json``, the CSV tables, ``fit.json``, ``summary.txt``) and lays out the game's
section with each study's own page functions (:func:`hex_balance_pdf.variant_pages`,
:func:`hex_ladder_pdf.ladder_page`, :func:`hex_setup_pdf.setup_pages`,
:func:`hex_whatif_pdf.whatif_page`) and the results-table chart
(:func:`hex_odds_chart.results_page`): nothing is recomputed. It adds the game's cover
blocks (the provenance of every study and of the scenarios they played) and its methods.

Studies of different scenarios (sha256) may share a report: the cover gives each scenario
with the studies that played it, each study's pages are footed with its own, and the
results-table chart is drawn once per scenario, with that scenario's combat strengths.
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from manoeuvre_sim.analyses.common.pages import section, study_head, text_pages
from manoeuvre_sim.analyses.common.report_pdf import Section
from manoeuvre_sim.analyses.common.study_files import text_columns
from manoeuvre_sim.core.errors import ManoeuvreError, UsageError
from manoeuvre_sim.hexgame import GAME_TITLE, RULES_VERSION

GAME = "hex"
SHORT = "Maneuver"
# study kind -> the files its directory must hold besides manifest.json (the --out of
# `hex balance`, `hex ladder`, `hex setup`, `hex whatif`), in report order
REQUIRED = {
    "hex balance": ("variants.csv", "endings.csv", "capital_fell.csv"),
    "hex ladder": ("ladder.csv", "fit.json"),
    "hex setup": ("capital_hexes.csv",),
    "hex whatif": ("whatif.csv",),
}


def _bad(path: Path, what: str) -> UsageError:
    return UsageError(f"--from {path}: {what}")


@dataclass
class HexStudy:
    """One Maneuver study read back from its directory."""

    kind: str
    path: Path
    manifest: dict
    frames: dict[str, pd.DataFrame]
    summary: list[str] = field(default_factory=list)
    fit: dict | None = None
    scenario: object = None  # the scenario it played (the set-up map draws it), when found
    game = GAME

    @property
    def scenario_key(self) -> tuple[str, str, str]:
        """(name, file, sha256) of the scenario the study played (a what-if's base)."""
        m = self.manifest
        pre = "base_" if self.kind == "hex whatif" else ""
        return (str(m.get(f"{pre}scenario", "?")), str(m.get(f"{pre}scenario_file", "?")),
                str(m[f"{pre}scenario_sha256"]))  # fmt: skip

    @property
    def short_title(self) -> str:
        """The study's kind in words (a summary page's title must fit its line)."""
        return {"hex balance": f"{SHORT} variant study", "hex ladder": f"{SHORT} handicap ladder",
                "hex setup": f"{SHORT} set-up", "hex whatif": f"{SHORT} what-if"}[self.kind]  # fmt: skip

    @property
    def title(self) -> str:
        m = self.manifest
        if self.kind == "hex balance":
            n = len(m.get("variants") or [])
            players = textwrap.shorten(", ".join(m["policies"]), 40, placeholder=" …")
            return f"{SHORT} variant study — {n} variant{'s' * (n != 1)}, players {players}"
        if self.kind == "hex ladder":
            border = (m.get("variants") or [{}])[0].get("border", "?")
            return (
                f"{SHORT} handicap ladder — border {border}, {m.get('favoured', '?')} handicapped"
            )
        if self.kind == "hex setup":
            return f"{SHORT} set-up — where the Capital stands ({m.get('games', 0):,} games)"
        edits = m.get("edits") or []
        what = edits[0] if len(edits) == 1 else (f"{len(edits)} edits" if edits else "a file")
        return f"{SHORT} what-if — {textwrap.shorten(str(what), 60, placeholder=' …')}"

    @property
    def provenance(self) -> dict[str, str]:
        """The footer of the study's pages, as its own PDF has it."""
        from manoeuvre_sim.analyses.hexgame import balance_pdf as hex_balance_pdf
        from manoeuvre_sim.analyses.hexgame import ladder_pdf as hex_ladder_pdf
        from manoeuvre_sim.analyses.hexgame import setup_pdf as hex_setup_pdf
        from manoeuvre_sim.analyses.hexgame import whatif_pdf as hex_whatif_pdf

        foot = {
            "hex balance": hex_balance_pdf.provenance,
            "hex ladder": hex_ladder_pdf.provenance,
            "hex setup": hex_setup_pdf.setup_provenance,
            "hex whatif": hex_whatif_pdf.provenance,
        }[self.kind]
        return foot(self.manifest)


def _read_csv(path: Path, name: str) -> pd.DataFrame:
    try:
        return pd.read_csv(path / name, dtype=text_columns(GAME, name.removesuffix(".csv")) or None)
    except (OSError, ValueError) as e:
        raise _bad(path, f"{name}: cannot read it as a CSV table ({e})") from None


def scenario_now(file: str, sha256: str):
    """The scenario of ``file`` if it still has ``sha256``, else the built-in one if that
    has it; ``(scenario or None, what was found)``."""
    from manoeuvre_sim.hexgame.scenario import load_scenario

    found = "not found"
    for f in (file, None):
        try:
            sc = load_scenario(f)
        except (ManoeuvreError, OSError, ValueError):  # missing, unreadable, invalid now
            continue
        if sc.sha256 == sha256:
            return sc, "the same file now" if f is not None else "the built-in scenario now"
        if f is not None:
            found = f"CHANGED since (sha256 now {sc.sha256[:16]})"
    return None, found


def load_study(path: Path, manifest: dict) -> HexStudy:
    """Read one Maneuver study directory back (its manifest already read); a UsageError of
    one line naming the directory and the file for anything missing or unreadable."""
    kind = manifest["study"]
    pre = "base_" if kind == "hex whatif" else ""
    for key in ("version", "rules_version", "seed", "policies", f"{pre}scenario_sha256"):
        if key not in manifest:
            raise _bad(path, f"manifest.json: {key}: missing")
    missing = [n for n in REQUIRED[kind] if not (path / n).is_file()]
    if missing:
        raise _bad(path, f"{missing[0]}: missing (a {kind} study directory holds it)")
    frames = {
        n.removesuffix(".csv"): _read_csv(path, n) for n in REQUIRED[kind] if n.endswith(".csv")
    }
    fit = None
    if kind == "hex ladder":
        try:
            fit = json.loads((path / "fit.json").read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            raise _bad(path, f"fit.json: not readable JSON ({e})") from None
        for key in ("favoured", "variants", "first"):
            if key not in manifest:
                raise _bad(path, f"manifest.json: {key}: missing")
    if kind == "hex setup":
        for key in ("overall", "concentration", "few_games", "variant"):
            if key not in manifest:
                raise _bad(path, f"manifest.json: {key}: missing")
    summary_file = path / "summary.txt"
    summary = (summary_file.read_text(encoding="utf-8").rstrip("\n").splitlines()
               if summary_file.is_file() else [])  # fmt: skip
    study = HexStudy(kind, path, manifest, frames, summary, fit)
    _, file, sha = study.scenario_key
    study.scenario, found = scenario_now(file, sha)
    if kind == "hex setup" and study.scenario is None:
        raise _bad(
            path,
            f"scenario_file {file}: {found} (the study's sha256 {sha[:16]}); the set-up map "
            "is drawn on the scenario the games were played on",
        )
    return study


# ----------------------------------------------------------------------------- pages


def study_section(study: HexStudy, paper: str) -> Section:
    """The study's own pages (as its command draws them), then its summary."""
    from manoeuvre_sim.analyses.hexgame import balance_pdf as hex_balance_pdf
    from manoeuvre_sim.analyses.hexgame import ladder_pdf as hex_ladder_pdf
    from manoeuvre_sim.analyses.hexgame import setup_pdf as hex_setup_pdf
    from manoeuvre_sim.analyses.hexgame import whatif_pdf as hex_whatif_pdf

    f, m = study.frames, study.manifest
    if study.kind == "hex balance":
        pages = hex_balance_pdf.variant_pages(f)
    elif study.kind == "hex ladder":
        pages = [(hex_ladder_pdf.ladder_page(f["ladder"], study.fit, m, study.summary),
                  "The ladder and its even point k*")]  # fmt: skip
    elif study.kind == "hex setup":
        pages = hex_setup_pdf.setup_pages(f["capital_hexes"], m, study.scenario)
    else:
        pages = [(hex_whatif_pdf.whatif_page(f["whatif"], m), "Change of each rate per pairing")]
    prov = study.provenance
    out = [(d, prov, None, t) for d, t in pages]
    for k, page in enumerate(text_pages(f"Summary — {study.short_title}", study.summary, paper)):
        out.append((page, prov, None, "Summary (as the command printed it)" if k == 0 else ""))
    return Section(study.title, out)


def scenarios(studies: Sequence[HexStudy]) -> dict[tuple[str, str, str], list[HexStudy]]:
    """The scenarios the studies played, (name, file, sha256) -> its studies, in order."""
    out: dict[tuple[str, str, str], list[HexStudy]] = {}
    for s in studies:
        out.setdefault(s.scenario_key, []).append(s)
    return out


def strengths_note(sc) -> str:
    """The scenario's units and combat strengths in words, reduced side in brackets (once
    for both sides when they are alike), for the results-table chart."""
    sides = []
    for side in ("blue", "red"):
        units = []
        for u in getattr(sc.sides, side).units:
            a0, d0, a1, d1 = u.values()
            val = (f"{a0} ({a1})" if u.strength is not None
                   else f"attack {a0} ({a1}), defence {d0} ({d1})")  # fmt: skip
            units.append(f"{u.count} x {u.name} {val}")
        sides.append("; ".join(units))
    if sides[0] == sides[1]:
        return f"both sides: {sides[0]}"
    return f"blue: {sides[0]}; red: {sides[1]}"


def results_section(studies: Sequence[HexStudy], own: dict[str, str]) -> Section:
    """The results-table chart (exact odds, rule [8]; the same table in every scenario),
    once per scenario the studies played, with that scenario's combat strengths."""
    from manoeuvre_sim.analyses.hexgame.odds_chart import results_page

    pages = []
    for (name, _, sha), group in scenarios(studies).items():
        sc = group[0].scenario
        note = (
            f"The units of scenario {name} (sha256 {sha[:16]}), reduced side in brackets, "
            + (strengths_note(sc) if sc is not None else "not shown: its file is not found or "
               "changed since the studies") + "."
        )  # fmt: skip
        prov = {**own, "game": "Maneuver (rules 001)", "rules": RULES_VERSION,
                "scenario": f"{name} sha256 {sha[:16]}", "odds": "exact (rule [8])"}  # fmt: skip
        pages.append((results_page(note=note), prov, None, f"Scenario {name} ({sha[:12]})"))
    return Section(f"{SHORT} — combat results table", pages)


def sections(studies: Sequence[HexStudy], paper: str, own: dict[str, str]) -> list[Section]:
    """The game's part of the report: a section per study, the results-table chart, the
    methods."""
    from manoeuvre_sim.analyses.common.report_pdf import flow_pages

    out = [study_section(s, paper) for s in studies]
    out.append(results_section(studies, own))
    methods = flow_pages(f"Methods — {GAME_TITLE}", methods_items(studies), paper,
                         "how the figures were made, and what they cannot show")  # fmt: skip
    out.append(Section(f"{SHORT} — methods", [(d, own, None, "") for d in methods]))
    return out


# ----------------------------------------------------------------------------- cover


def _options_text(o: dict) -> str:
    """A study's rule options in words (border, first player, turns, quality, [13] 3-4)."""
    parts = [f"border {o.get('border', '?')}", f"first player {o.get('first', 'random')}"]
    if "turns" in o:
        parts.append(f"{o['turns']} turns")
    parts.append(
        f"quality blue {o.get('quality_blue', 'front')}, red {o.get('quality_red', 'front')}"
    )
    parts.append(f"step losses {'on' if o.get('step_losses') else 'off'}")
    parts.append(f"step replacements {'on' if o.get('step_replacements') else 'off'}")
    if o.get("captured_capital_zoc"):
        parts.append("captured Capital keeps its ZOC (H6's other reading)")
    if o.get("retreat_apart"):
        parts.append("retreating units never share a hex (H11's earlier reading)")
    return ", ".join(parts)


def study_provenance(study: HexStudy) -> list[tuple[str, str]]:
    """The cover's block for one Maneuver study: (style, text) lines."""
    m = study.manifest
    out = study_head(study.title, study.path, m, RULES_VERSION, backend=True)
    games = f"{m.get('games', 0):,} games"
    if m.get("games_per_pairing"):
        games += f" ({m['games_per_pairing']:,} per ordered pairing" + (
            ", variant)" if study.kind == "hex balance" else ", rung)" if study.kind == "hex ladder"
            else ", scenario)"
        )  # fmt: skip
    if m.get("interrupted"):
        games += " — INTERRUPTED: the tables cover the games finished before the stop"
    out.append(("p", f"seed {m['seed']}; {games}"))
    pol = m["policies"]
    if study.kind == "hex setup":
        out.append(("p", f"players: blue {pol[0]}, red {pol[1]}; Capitals "
                         + ("as the players set them up" if m.get("capital") == "player"
                            else "drawn among rule [3]'s hexes (a study device, not a rule)")))  # fmt: skip
    else:
        out.append(
            ("p", f"players: {', '.join(pol)} (every ordered pairing, each once blue and once red)")
        )
    name, file, sha = study.scenario_key
    out.append(("p", f"scenario {name}: {file}"))
    out.append(("m", f"    sha256 {sha}"))
    if study.kind == "hex balance":
        for v in m.get("variants") or []:
            o = (m.get("options") or {}).get(v["name"], v)
            out.append(("p", f"•  variant {v['name']}: {_options_text(o)}"))
    elif study.kind == "hex ladder":
        rungs = m.get("variants") or []
        o = (m.get("options") or {}).get(rungs[0]["name"], rungs[0]) if rungs else {}
        given = m.get("favoured_given")
        how = "given" if given not in (None, "auto") else "measured at k = 0"
        out.append(("p", f"rungs k = 0..{len(rungs) - 1}: {m.get('favoured')} handicapped ({how}), "
                         f"weakened in the order {', '.join(m.get('weak_order') or [])}"))  # fmt: skip
        out.append(("p", f"options of every rung: {_options_text(o)}"))
    elif study.kind == "hex setup":
        out.append(("p", f"options: {_options_text(m.get('options') or m['variant'])}"))
    else:
        out.append(
            ("p", f"options: {_options_text({**(m.get('rules') or {}), 'turns': m.get('turns')})}")
        )
        for e in m.get("edits") or []:
            out.append(("p", f"•  edit: {e}"))
        out.append(("p", f"variant scenario: {m.get('variant_scenario_file')}"
                         + (" (identical to the base)" if m.get("identical") else "")))  # fmt: skip
        out.append(("m", f"    sha256 {m.get('variant_scenario_sha256')}"))
    if m.get("command"):
        out.append(("m", f"$ {m['command']}"))
    return out


def cover_items(studies: Sequence[HexStudy]) -> list[tuple[str, str]]:
    """The game's part of the cover: the scenarios played, then a block per study."""
    from manoeuvre_sim.hexgame.scenario import load_scenario

    builtin = load_scenario(None).sha256
    out: list[tuple[str, str]] = [("h1", GAME_TITLE)]
    groups = scenarios(studies)
    out.append(("p", f"rules {RULES_VERSION} (this tool); "
                     f"{len(groups)} scenario{'s' * (len(groups) != 1)} played:"))  # fmt: skip
    for (name, file, sha), group in groups.items():
        now = scenario_now(file, sha)[1]
        which = ("the built-in scenario: an AUTHORED RECONSTRUCTION, not the printed counters "
                 "(docs/hex.md); the figures describe it" if sha == builtin
                 else "not the built-in scenario")  # fmt: skip
        out.append(("p", f"•  {name}: {file} ({now}); {which}; played by "
                         + ", ".join(str(s.path) for s in group)))  # fmt: skip
        out.append(("m", f"    sha256 {sha}"))
    out.append(("gap", ""))
    for s in studies:
        out.extend(study_provenance(s))
        out.append(("gap", ""))
    return out


# ----------------------------------------------------------------------------- methods

PLAYER_NOTES = {
    "random": "uniform over the legal options of every decision: the rules' reference",
    "capital": "drives on the enemy Capital (the default)",
    "attrition": "holds its own side and attacks only at an estimated difference of +3 or better",
    "search": "searches its movement plans by Monte Carlo rollouts (its combat decisions are "
    "its style's)",
}


def methods_items(studies: Sequence[HexStudy]) -> list[tuple[str, str]]:
    """Maneuver's methods page: players, intervals, common random numbers, the scenario."""
    used = sorted({p for s in studies for p in s.manifest.get("policies", [])})
    out: list[tuple[str, str]] = [("h2", "What the players are")]
    out.append(("p", "Every game is played by scripted players, never by people: each figure "
                     "measures the scenario and its rules as these players play them. They see "
                     "the whole board (the game hides nothing) and draw any randomness from "
                     "their own seeded stream, never from the game's dice. This report's "
                     "players:"))  # fmt: skip
    out += [("p", f"•  {p}: {PLAYER_NOTES.get(p.split(':')[0], 'see docs/hex.md')}") for p in used]
    out += section(
        "What an interval means here",
        "Every interval is a 95 % interval for the uncertainty of playing a finite number of "
        "games with these players, this scenario and these rules: more games narrow it. It "
        "says nothing about how well the players play, or whether a rule is read right.",
        "•  a win, draw or first-player rate (variant study, set-up map): a Wilson interval "
        "on the games of that variant and pairing (or hex); a draw is no win for either side;",
        "•  a rung of the ladder: a Wilson interval on the favoured side's score (a win 1, a "
        "draw 1/2); the even point k*: a fractional logit of the per-game points on k with "
        "the sandwich covariance clustered on the game, and the delta method;",
        "•  a what-if change: the Student-t interval of the per-game differences between the "
        "base game and the variant game played on the same seed (paired).",
        "Two rows whose intervals overlap are not shown to differ; 20 independent intervals "
        "hold about one miss by chance.",
    )
    out += section(
        "Common random numbers",
        "Game i of a pairing is seeded from (the pairing's seed, i) alone, and the pairing's "
        "seed from (the study's seed, blue's player, red's player): every variant of a variant "
        "study, every rung of the ladder and both scenarios of a what-if play the same seeds, "
        "so their games start from the same draws and the differences between them are "
        "measured far more precisely than two independent studies would. Where two games take "
        "different turns the dice they meet differ from there on. Any game replays with hex "
        "replay --seed <the pairing's seed> --game i.",
    )
    out += section(
        "The scenario: an authored reconstruction",
        "The counters' values and the border lines of the printed game are in no source we "
        "could find: the built-in scenario (data/hexgame/default.toml) is an authored "
        "reconstruction, not the printed game. Its figures measure that reconstruction; a "
        "different scenario file (cover: its sha256) is a different study. The readings of "
        "ambiguous rules are entries H1-H22 of "
        f"docs/RULE_INTERPRETATIONS.md (rules {RULES_VERSION}).",
    )
    out += section(
        "Known limits",
        "•  The players are scripts: a human may find plans they miss; a variant that favours "
        "a side does so as these players play it.",
        "•  Games end by a capture of the enemy Capital with rule [12]'s two-unit margin or in "
        "a draw after the last turn: draw rates depend on the players as much as the rules.",
        "•  The set-up study's random Capitals (when its cover says so) are a study device, "
        "not a rule.",
    )
    return out
