"""Maneuver's handicap ladder in words, tables and a page: what ``hex ladder`` writes from
the study's result (the study itself, its spec, its games and its fit:
``hexgame/studies/ladder.py``).

Python API::

    from manoeuvre_sim.analyses.hexgame.ladder import LadderFiles
    from manoeuvre_sim.hexgame.studies import ladder as HL

    res = HL.run_spec(HL.LadderSpec(border="large_blue", games=2000, seed=1))
    LadderFiles(res).write("reports/hex-ladder")  # ladder.csv, fit.json, summary, PDF
"""

from __future__ import annotations

from pathlib import Path

from manoeuvre_sim.analyses.common.study_dir import StudyFiles, write_study_files
from manoeuvre_sim.hexgame.studies.ladder import LadderResult


class LadderFiles(StudyFiles):
    """A ladder's result (``hexgame/studies/ladder.LadderResult``, whose fields it reads
    through) with what the command writes of it: its summary and its files."""

    def summary(self) -> list[str]:
        return summary_lines(self.result)

    def write(self, out_dir: str | Path, paper: str = "a4") -> list[Path]:
        """ladder.csv, fit.json, manifest.json, summary.txt and hex_ladder.pdf."""
        from manoeuvre_sim.analyses.hexgame.ladder_pdf import write_ladder_pdf

        prov = {k: self.manifest[k] for k in ("seed", "rules_version", "scenario_sha256")}
        return write_study_files(
            out_dir, tables={"ladder": self.ladder},
            json_files={"fit": self.fit | {"favoured": self.favoured} | prov},
            manifest=self.manifest, summary=self.summary(),
            pdf=("hex_ladder.pdf", lambda path: write_ladder_pdf(path, self, paper=paper)),
        )  # fmt: skip


def summary_lines(res: LadderResult) -> list[str]:
    """The plain-text summary (printed after a ladder, summary.txt, the PDF's last page)."""
    s, f = res.spec, res.fit
    lines = [
        f"Handicap ladder: border {s.border}, first player {s.first}, players "
        f"{', '.join(s.policies)}, seed {s.seed}; favoured side {res.favoured} "
        + ("(given)" if s.favoured != "auto" else "(measured at k = 0)"),
        f"k = how many of {res.favoured}'s combat units start on their weak side, in the order "
        + ", ".join(res.manifest.get("weak_order", []))
        + "; score = its points per game (win 1, draw 1/2)",
        "",
        f"{'k':>3} {'games':>7} {'wins':>6} {'draws':>6} {'losses':>6}  score (95% interval)",
    ]
    for r in res.ladder.itertuples(index=False):
        lines.append(
            f"{r.k:>3} {r.games:>7} {r.wins:>6} {r.draws:>6} {r.losses:>6}  "
            f"{r.score:.3f} ({r.score_ci_low:.3f}-{r.score_ci_high:.3f})"
        )
    lines += ["", f"fit: logit(score) = {f['intercept']:.3f} {f['slope']:+.3f} k "
              f"(slope se {f['slope_se']:.3f})"]  # fmt: skip
    if f["k_star"] is None:
        lines.append(f"even point: none ({f.get('note', '')})")
    else:
        lines.append(
            f"even point k* = {f['k_star']:.2f} (95% interval {f['k_star_ci_low']:.2f}-"
            f"{f['k_star_ci_high']:.2f}); nearest whole handicaps "
            + ", ".join(map(str, f["nearest_whole"]))
        )
        top = int(res.ladder["k"].max())
        if not 0 <= f["k_star"] <= top:
            lines.append(f"  k* lies outside the ladder 0..{top}: an extrapolation")
    lines.append(f"method: {f['method']}")
    return lines
