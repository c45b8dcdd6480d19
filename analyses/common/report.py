"""The printable report (issue 11): one PDF of the whole analysis, every number traceable.

The report is assembled from study directories as the study commands wrote them (each with
its ``manifest.json``, CSV tables and ``summary.txt``). Nothing is recomputed. A directory's
manifest names its game and its kind of study; each game lays out its own part — its
studies' sections, charts, methods and its part of the cover — in the module its adapter
names (``REPORT_MODULE``: :mod:`analyses.manoeuvre.report`, :mod:`analyses.hexgame.report`).
A game with no module of its own (a new game) still has its part: the studies written once
over the game interface (``studies/balance.py``, ``studies/whatif.py``) are laid out here,
their provenance on the cover and their tables and summary as pages (:class:`GenericStudy`);
a fix (``studies/fix.py``), a study of every game, is laid out by ``fix_pdf`` whatever the
game: its errata and its two matrices on one page.
This module adds the cover, a table of contents with page numbers, and writes the PDF.

Python API::

    from manoeuvre_sim.analyses.common import report
    studies = report.load_studies(["reports/balance", "reports/cards_france"])
    report.write_report("reports/manoeuvre-report.pdf", studies, paper="a4")
"""

from __future__ import annotations

import datetime as _dt
import importlib
import json
import platform
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from manoeuvre_sim import __version__
from manoeuvre_sim.analyses.common.pages import Page, page_size, study_head, text_pages, write_pages
from manoeuvre_sim.analyses.common.report_pdf import Section, flow_pages, toc_page, toc_split
from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.core.games import GAMES, get_game, hook, study_kinds, title
from manoeuvre_sim.core.study import game_of

# the studies every game has (written by studies/*.py): kind -> the tables its directory holds
GENERIC_KINDS = {
    "balance": ("pairings.csv", "sides.csv", "first_player.csv", "victory.csv"),
    "whatif": ("whatif.csv",),
}


def _bad(path: Path, what: str) -> UsageError:
    return UsageError(f"--from {path}: {what}")


def _read_manifest(path: Path, kinds: Sequence[str]) -> dict:
    """``path/manifest.json``, after checking ``path`` is a study directory."""
    if not path.exists():
        raise _bad(
            path, f"does not exist; expected a study directory (the --out of {', '.join(kinds)})"
        )
    if not path.is_dir():
        raise _bad(path, f"expected a study directory (the --out of {', '.join(kinds)})")
    man_file = path / "manifest.json"
    if not man_file.is_file():
        raise _bad(path, f"manifest.json: missing (expected the --out of {', '.join(kinds)})")
    try:
        manifest = json.loads(man_file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise _bad(path, f"manifest.json: not readable JSON ({e})") from None
    if not isinstance(manifest, dict):
        raise _bad(path, "manifest.json: expected a JSON object")
    return manifest


def load_study(path: str | Path):
    """Read one study directory back, by the game and kind its manifest names: a game's own
    study through its ``REPORT_MODULE``, a generic study of any game as a
    :class:`GenericStudy`."""
    path = Path(path)
    kinds = study_kinds()
    manifest = _read_manifest(path, list(kinds))
    kind = manifest.get("study")
    game = game_of(manifest)  # a manifest before games had keys: study.LEGACY_GAME
    if kind == "fix" and game in GAMES:  # a study of every game: laid out here (fix_pdf)
        from manoeuvre_sim.analyses.common.fix_pdf import FixStudy

        return FixStudy.load(path, manifest)
    module = hook(get_game(game), "REPORT_MODULE") if game in GAMES else None
    if game in GAMES and module is None:  # a game with no report of its own
        if kind not in GENERIC_KINDS:
            raise _bad(path, f"manifest.json: study: expected one of "
                             f"{', '.join(GENERIC_KINDS)} for game {game!r}, got {kind!r}")  # fmt: skip
        return GenericStudy.load(path, manifest)
    if kind not in kinds:
        raise _bad(path, f"manifest.json: study: expected one of {', '.join(kinds)}, got {kind!r}")
    if game != kinds[kind]:
        raise _bad(path, f"manifest.json: game: expected {kinds[kind]!r} for a {kind} study, "
                         f"got {game!r}")  # fmt: skip
    return importlib.import_module(module).load_study(path, manifest)


def load_studies(paths: Sequence[str | Path]) -> list:
    """Every ``--from`` directory, in report order: game by game (registry order), each
    game's study kinds in its order (Manoeuvre: balance, cards, what-ifs), each kind in the
    order given."""
    seen: set[Path] = set()
    studies = []
    for p in paths:
        key = Path(p).resolve()
        if key in seen:
            raise _bad(Path(p), "named twice")
        seen.add(key)
        studies.append(load_study(p))
    order = list(study_kinds()) + list(GENERIC_KINDS) + ["fix"]
    return sorted(studies, key=lambda s: order.index(s.kind))


# --------------------------------------------------------------- the studies of any game


@dataclass
class GenericStudy:
    """A study of ``studies/`` read back, for a game with no report of its own: its tables
    (``GENERIC_KINDS``), manifest and summary."""

    kind: str
    path: Path
    manifest: dict
    frames: dict[str, pd.DataFrame]
    summary: list[str] = field(default_factory=list)

    @property
    def game(self) -> str:
        return self.manifest["game"]

    @property
    def title(self) -> str:
        m = self.manifest
        if self.kind == "whatif":
            return f"What-if — {'; '.join(m.get('changes') or []) or 'no change'}"
        return f"Balance study — {len(m.get('sides') or [])} sides"

    @classmethod
    def load(cls, path: Path, manifest: dict) -> GenericStudy:
        kind = manifest["study"]
        for key in ("version", "rules_version", "data_hash", "seed"):
            if key not in manifest:
                raise _bad(path, f"manifest.json: {key}: missing")
        frames = {}
        for name in GENERIC_KINDS[kind]:
            if not (path / name).is_file():
                raise _bad(path, f"{name}: missing (a {kind} study directory holds it)")
            try:
                frames[name.removesuffix(".csv")] = pd.read_csv(path / name)
            except (OSError, ValueError) as e:
                raise _bad(path, f"{name}: cannot read it as a CSV table ({e})") from None
        summary_file = path / "summary.txt"
        summary = (summary_file.read_text(encoding="utf-8").rstrip("\n").splitlines()
                   if summary_file.is_file() else [])  # fmt: skip
        return cls(kind, path, manifest, frames, summary)

    @property
    def provenance(self) -> dict[str, str]:
        m = self.manifest
        return {"tool": f"manoeuvre-sim {m['version']}", "rules": m["rules_version"],
                "data": m["data_hash"], "seed": str(m["seed"]),
                "games": f"{m.get('games', 0):,}"}  # fmt: skip

    def cover_items(self) -> list[tuple[str, str]]:
        m = self.manifest
        out = study_head(self.title, self.path, m, get_game(self.game).RULES_VERSION)
        games = f"{m.get('games', 0):,} games"
        if m.get("interrupted"):
            games += " — INTERRUPTED: the tables cover the games finished before the stop"
        out.append(("p", f"seed {m['seed']}; {games}; data hash {m['data_hash']}"))
        if m.get("options_text"):
            out.append(("p", f"rules: {m['options_text']}"))
        for s in m.get("sides") or []:
            out.append(("m", f"{s['name']:<22} {s['data_hash']:<17} {s.get('source', '')}"))
        return out

    def section(self, paper: str) -> Section:
        """The study's summary, then each table, as text pages."""
        pages: list[tuple[Page, dict, str | None, str]] = []
        for k, page in enumerate(text_pages(f"Summary — {self.title}", self.summary, paper)):
            pages.append((page, self.provenance, None, "Summary" if k == 0 else ""))
        for name, df in self.frames.items():
            same = [
                c
                for c in df.columns
                if not pd.api.types.is_numeric_dtype(df[c]) and df[c].nunique() == 1
            ]
            lines = (
                [", ".join(f"{c}: {df[c].iloc[0]}" for c in same)] if same and len(df) > 1 else []
            )
            shown = _readable(df.drop(columns=same) if len(df) > 1 else df)
            lines += shown.to_string(index=False, line_width=10_000).splitlines()
            for k, page in enumerate(text_pages(f"{name}.csv — {self.title}", lines, paper)):
                pages.append((page, self.provenance, None, f"Table {name}" if k == 0 else ""))
        return Section(self.title, pages)


def _readable(df: pd.DataFrame) -> pd.DataFrame:
    """A table as a page shows it: each rate with its interval in one column, in %
    (``x`` and ``x_ci_low``/``x_ci_high`` -> ``x %`` as "47.5 [45.1, 49.9]"), other floats to
    4 figures; the CSV keeps every column as it is."""
    out = pd.DataFrame(index=df.index)
    for c in df.columns:
        if c.endswith(("_ci_low", "_ci_high")):
            continue
        lo, hi = f"{c}_ci_low", f"{c}_ci_high"
        if lo in df.columns and hi in df.columns:
            out[f"{c} %"] = [f"{100 * x:.1f} [{100 * a:.1f}, {100 * b:.1f}]"
                             for x, a, b in zip(df[c], df[lo], df[hi], strict=True)]  # fmt: skip
        elif pd.api.types.is_float_dtype(df[c]):
            out[c] = df[c].map(lambda x: f"{x:.4g}")
        else:
            out[c] = df[c]
    return out


def generic_part(studies: Sequence[GenericStudy], paper: str):
    """The sections and the cover items of a game with no report module of its own."""
    game = studies[0].game
    cover: list[tuple[str, str]] = [("h1", title(game))]
    for s in studies:
        cover += [*s.cover_items(), ("gap", "")]
    return [s.section(paper) for s in studies], cover


# ----------------------------------------------------------------------------- assembly


def report_provenance(built: str, games: Sequence[str]) -> dict[str, str]:
    """The footer of the report's own pages (cover, contents, methods): the rules version
    of each game the report holds."""
    return {
        "tool": f"manoeuvre-sim {__version__}",
        "rules": " / ".join(get_game(g).RULES_VERSION for g in games),
        "report built": built,
    }


def _short(game: str) -> str:
    """A game's name without its subtitle ("Manoeuvre", "Maneuver")."""
    return title(game).split(" (")[0]


def _contents(cover: int, sections: Sequence[Section], paper: str) -> list[tuple[int, str, int]]:
    """The contents' entries (level, heading, page), the contents' own length included."""
    entries: list[tuple[int, str, int]] = []
    n_toc_guess = 1
    for _ in range(3):  # the contents' own length moves the page numbers after it
        entries = [(0, "Provenance of every study", 1), (0, "Contents", cover + 1)]
        page = cover + n_toc_guess + 1
        for sec in sections:
            entries.append((0, sec.heading, page))
            for _, _, _, sub in sec.pages:
                if sub:
                    entries.append((1, sub, page))
                page += 1
        n_toc = len(toc_split(entries, paper))
        if n_toc == n_toc_guess:
            break
        n_toc_guess = n_toc
    return entries


def _parts(by_game: dict[str, list], paper: str, own: dict[str, str]):
    """Each game's sections and cover items, in registry order; a game's own heading on the
    cover only when the report holds more than one game."""
    sections: list[Section] = []
    cover: list[tuple[str, str]] = []
    for game, every in by_game.items():
        module = hook(get_game(game), "REPORT_MODULE")
        group = [s for s in every if s.kind != "fix"]  # a fix: the same page for every game
        fixes = [s for s in every if s.kind == "fix"]
        secs, items = [], [("h1", title(game))]
        if group and module is None:
            secs, items = generic_part(group, paper)
        elif group:
            part = importlib.import_module(module)
            secs, items = part.sections(group, paper, own), part.cover_items(group)
        secs = [*secs, *(f.section(paper) for f in fixes)]
        items = [*items, *(x for f in fixes for x in (*f.cover_items(), ("gap", "")))]
        if len(by_game) == 1 and items and items[0] == ("h1", title(game)):
            items = items[1:]
        sections.extend(secs)
        cover.extend([*items, ("gap", "")])
    return sections, cover


def write_report(
    path: str | Path,
    studies: Sequence,
    *,
    paper: str = "a4",
    progress: Callable[[int, int], None] | None = None,
) -> tuple[Path, int]:
    """Write the report PDF atomically; return its path and page count. ``studies``: as
    :func:`load_studies` reads them, of one game or several; each game's part is its
    studies' sections, its own charts and its methods, in registry order."""
    page_size(paper)
    if not studies:
        raise UsageError("--from: expected at least one study directory")
    now = _dt.datetime.now(_dt.UTC)
    built = now.strftime("%Y-%m-%d %H:%M UTC")
    by_game = {g: [s for s in studies if s.game == g] for g in GAMES}
    by_game = {g: ss for g, ss in by_game.items() if ss}
    own = report_provenance(built, list(by_game))
    machine = f"{platform.node()} ({platform.machine()}, Python {platform.python_version()})"
    rules = ", ".join(f"{_short(g)} rules {get_game(g).RULES_VERSION}" for g in by_game)
    cover_items: list[tuple[str, str]] = [
        (
            "p",
            f"Built {built} with manoeuvre-sim {__version__} ({rules}) on "
            f"{machine} from {len(studies)} study "
            f"director{'y' if len(studies) == 1 else 'ies'}. Each page's footer names "
            "the study it comes from (tool, rules, data hash or scenario, seed, games, players); "
            "below, everything that decided each study's games, its run time included.",
        ),  # fmt: skip
        ("gap", ""),
    ]
    sections, items = _parts(by_game, paper, own)
    cover_items.extend(items)
    title = f"{' and '.join(_short(g) for g in by_game)} — balance report"
    cover = flow_pages(title, cover_items, paper,
                       "the whole analysis in one file; every number traceable to how it was made")  # fmt: skip
    entries = _contents(len(cover), sections, paper)
    toc = [toc_page(part, k == 0) for k, part in enumerate(toc_split(entries, paper))]
    pages: list[tuple[Page, dict, str | None]] = [(d, own, None) for d in cover]
    pages.extend((d, own, None) for d in toc)
    for sec in sections:
        pages.extend((d, prov, pol) for d, prov, pol, _ in sec.pages)
    total = len(pages)

    def tick(n: int) -> None:
        if progress is not None:
            progress(n, total)

    out = write_pages(path, pages, paper, title.replace(" — ", " "), progress=tick)
    return out, total
