"""The provenance footed on every page of Maneuver's study PDFs (the variant study's
``hex_balance.pdf``, the what-if's, the handicap ladder's and the set-up map's): the tool,
rules, scenario, seed, games, players and date of the study's manifest, as
:func:`analyses.common.pages.write_study_pdf` prints them."""

from __future__ import annotations


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
