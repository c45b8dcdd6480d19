"""A card study in words, tables and pages: what ``manoeuvre-sim cards`` writes from the
study's result (the study itself, its spec, its games and its figures:
``manoeuvre/studies/cards.py``). The summary in words is ``cards_text.py``, the PDF
``cards_pdf.py`` with ``card_charts.py``.

Python API::

    from manoeuvre_sim.analyses.manoeuvre.cards import CardFiles
    from manoeuvre_sim.manoeuvre.studies import cards as C

    res = C.run("France", against=["Russia"], games=2000)
    CardFiles(res).write("reports/cards")  # cards.csv/.parquet, card_copies, summary, PDF
"""

from __future__ import annotations

from pathlib import Path

from manoeuvre_sim.analyses.common.study_dir import StudyFiles, write_csv, write_text
from manoeuvre_sim.analyses.manoeuvre.balance_text import provenance
from manoeuvre_sim.analyses.manoeuvre.cards_text import against_text, summary_lines


class CardFiles(StudyFiles):
    """A card study's result (``manoeuvre/studies/cards.CardResult``, whose fields it reads
    through) with what the command writes of it: its summary, its PDF and its files."""

    def summary(self) -> list[str]:
        return summary_lines(self.result)

    def to_pdf(self, path: str | Path, paper: str = "a4") -> Path:
        from manoeuvre_sim.analyses.manoeuvre.cards_pdf import write_cards_pdf

        return write_cards_pdf(
            path, self.cards, provenance(self.manifest), army=self.spec.army.name,
            against=against_text(self.spec), paper=paper, summary_lines=self.summary(),
        )  # fmt: skip

    def write(self, out_dir: str | Path, paper: str = "a4") -> list[Path]:
        """cards.csv/.parquet, card_copies.csv/.parquet (observed games only),
        manifest.json, summary.txt and cards.pdf into ``out_dir``."""
        from manoeuvre_sim.core.results import write_json
        from manoeuvre_sim.core.store import write_part

        out_dir = Path(out_dir)
        out = [
            write_csv(self.cards, out_dir / "cards.csv"),
            write_part(self.cards, out_dir / "cards.parquet", self.manifest),
        ]
        if len(self.copies):
            out.append(write_part(self.copies, out_dir / "card_copies.parquet", self.manifest))
            out.append(write_csv(self.copies, out_dir / "card_copies.csv"))
        out += [
            write_json(out_dir / "manifest.json", self.manifest),
            write_text(out_dir / "summary.txt", "\n".join(self.summary()) + "\n"),
            self.to_pdf(out_dir / "cards.pdf", paper=paper),
        ]
        return out
