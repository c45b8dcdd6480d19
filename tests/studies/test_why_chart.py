"""The why study's waterfall (``analyses/common/why_chart.py``): its bars go from 50 % through
the mirror's offset and every part to the observed rate, and its page is written."""

from __future__ import annotations

import pytest

from manoeuvre_sim.analyses.common import why_chart as WC
from manoeuvre_sim.studies import why as W
from tests.studies import coin_game


@pytest.fixture(scope="module")
def result():
    return W.run(coin_game, ["x:55/a=10/b=-4", "y:50/a=20"], samples=3, block=20,
                 method="permutation", options=coin_game.Options(flips=1))  # fmt: skip


def test_the_bars_run_from_fifty_percent_to_the_observed_rate(result):
    rows = WC.rows(result.contributions, result.totals)
    assert rows[0]["start"] == 0.5 and rows[-1]["label"] == "observed"
    for before, after in zip(rows[:-2], rows[1:-1], strict=True):
        assert after["start"] == before["end"]  # each bar starts where the last ended
    observed = result.total("observed")["estimate"]
    assert rows[-2]["end"] == pytest.approx(observed, abs=1e-12)
    assert rows[-1]["end"] == observed
    sizes = [abs(r["end"] - r["start"]) for r in rows[1:-1]]
    assert sizes == sorted(sizes, reverse=True)  # largest first
    folded = WC.rows(result.contributions, result.totals, most=2)
    assert folded[-2]["label"] == f"{len(result.contributions) - 2} smaller parts"
    assert folded[-2]["end"] == pytest.approx(observed, abs=1e-12)


def test_the_page_is_written(result, tmp_path):
    from pypdf import PdfReader

    written = WC.write_pages(result, tmp_path)
    assert [p.name for p in written] == ["waterfall.png", "why.pdf"]
    pdf = PdfReader(tmp_path / "why.pdf")
    assert len(pdf.pages) == 2
    text = pdf.pages[0].extract_text()
    assert "Why x scores what it does against y" in text and "reference" in text
