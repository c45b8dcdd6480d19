"""What Maneuver's study PDFs (the variant study's ``hex_balance.pdf``, the what-if's, the
handicap ladder's and the set-up map's) share: the provenance footed on every page (the
tool, rules, scenario, seed, games, players and date of the study's manifest, as
:func:`analyses.common.pages.write_study_pdf` prints them), the PDF written under the
game's title (:func:`write_hex_pdf`) and the monospace block of a page's figures under its
chart (:func:`text_block`)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from manoeuvre_sim.analyses.common.pages import MARGIN_L, page_text, write_study_pdf
from manoeuvre_sim.hexgame import GAME_TITLE


def games_played(manifest: dict, each: str = "") -> str:
    """The games of the footer: their count, ``each`` (the games per pairing) in brackets
    when given, flagged when the study was interrupted."""
    games = f"{manifest.get('games', 0):,}" + (f" ({each} each)" if each else "")
    return games + (", interrupted" if manifest.get("interrupted") else "")


def study_footer(manifest: dict, *, scenario: str = "", games: str = "") -> dict[str, str]:
    """The footer of a Maneuver study's pages from its ``manifest``; ``scenario`` and
    ``games`` replace the scenario played (name and sha256) and :func:`games_played`."""
    return {
        "tool": f"manoeuvre-sim {manifest['version']}",
        "game": "Maneuver (rules 001)",
        "rules": manifest["rules_version"],
        "scenario": scenario or f"{manifest['scenario']} sha256 {manifest['scenario_sha256'][:16]}",
        "seed": str(manifest["seed"]),
        "games": games or games_played(manifest),
        "players": ", ".join(manifest["policies"]),
        "date": str(manifest.get("finished", manifest.get("started", "")))[:10],
    }


def write_hex_pdf(path: str | Path, pages: list, footer: dict[str, str], paper: str, what: str,
                  summary: Sequence[str] = ()) -> Path:  # fmt: skip
    """Write a Maneuver study's PDF atomically: ``pages`` footed with ``footer``, titled
    "Maneuver ...: ``what``", then the ``summary`` lines, if any."""
    return write_study_pdf(path, pages, footer, paper, f"{GAME_TITLE}: {what}", summary)


def text_block(fig, y: float, lines: list[str], *, fontsize: float, linespacing: float) -> None:
    """``lines`` in monospace from the left margin down from ``y`` (inches): a page's
    figures under its chart."""
    page_text(fig, MARGIN_L, y, "\n".join(lines), fontsize=fontsize, family="monospace",
              va="top", linespacing=linespacing)  # fmt: skip
