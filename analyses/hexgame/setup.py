"""Maneuver's set-up study in words, tables and a map: what ``hex setup`` writes from the
study's result (the study itself, its spec and its games: ``hexgame/studies/setup.py``).

Python API::

    from manoeuvre_sim.analyses.hexgame.setup import SetupFiles
    from manoeuvre_sim.hexgame.studies import setup as HS

    res = HS.run_spec(HS.SetupSpec(games=20000, seed=1))
    SetupFiles(res).write("reports/hex-setup")  # capital_hexes.csv, summary.txt, the PDF map
"""

from __future__ import annotations

from pathlib import Path

from manoeuvre_sim.analyses.common.study_dir import StudyFiles, write_study_files
from manoeuvre_sim.hexgame import GAME_TITLE
from manoeuvre_sim.hexgame.studies.setup import SetupResult


class SetupFiles(StudyFiles):
    """A set-up study's result (``hexgame/studies/setup.SetupResult``, whose fields it
    reads through) with what the command writes of it: its summary and its files."""

    def summary(self) -> list[str]:
        return summary_lines(self.result)

    def write(self, out_dir: str | Path, paper: str = "a4") -> list[Path]:
        """capital_hexes.csv, manifest.json, summary.txt and hex_setup.pdf into ``out_dir``."""
        from manoeuvre_sim.analyses.hexgame.setup_pdf import write_setup_pdf

        return write_study_files(
            out_dir, tables={"capital_hexes": self.hexes}, manifest=self.manifest,
            summary=self.summary(),
            pdf=("hex_setup.pdf", lambda path: write_setup_pdf(path, self, paper=paper)),
        )  # fmt: skip


def _pc(x: float) -> str:
    return "-" if x != x else f"{100 * x:.1f} %"


def summary_lines(res: SetupResult) -> list[str]:
    """The plain-text summary (printed after a study, summary.txt, the PDF's last page)."""
    m, o = res.manifest, res.overall
    lines = [
        f"{GAME_TITLE}: where the Capital stands (hex setup)",
        f"rules {m['rules_version']}; scenario {m['scenario']}, sha256 {m['scenario_sha256']}",
        f"seed {m['seed']} (pairing seed {m['pairing_seed']}); blue {m['policies'][0]}, red "
        f"{m['policies'][1]}; variant {res.spec.variant.name}; {o['games']:,} games",
        "Capitals: "
        + (
            "as the players set them up"
            if m["capital"] == "player"
            else "drawn uniformly among rule [3]'s hexes (a study device, not a rule)"
        ),
        f"overall: the first player wins {_pc(o['first_win_rate'])}, draws {_pc(o['draw_rate'])}",
        "",
    ]
    for who in ("first", "second"):
        c = m["concentration"].get(who)
        t = res.hexes[(res.hexes["capital"] == who) & (res.hexes["games"] > 0)]
        lines.append(f"The {who} player's Capital:")
        if c:
            lines.append(
                f"  chosen on {c['hexes_chosen']} of {c['legal_hexes']} legal hexes (both "
                f"sides); most often {c['top_hex']} ({_pc(c['top_share'])} of games); "
                f"{c['hexes_for_90pc']} hex(es) cover 90 % of the games"
            )
        for r in t.sort_values("games", ascending=False).itertuples():
            flag = " (few games)" if r.few_games else ""
            lines.append(
                f"  {r.side:4s} {r.hex}: {r.games:6,} games; first player wins "
                f"{_pc(r.first_win_rate)} ({_pc(r.first_win_rate_ci_low)}-"
                f"{_pc(r.first_win_rate_ci_high)}), draws {_pc(r.draw_rate)}{flag}"
            )
        lines.append("")
    return lines
