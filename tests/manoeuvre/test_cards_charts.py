"""The card-value charts and the card-value PDF, drawn from small synthetic card frames."""

from __future__ import annotations

import re

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from matplotlib.container import BarContainer, ErrorbarContainer  # noqa: E402

from manoeuvre_sim.analyses.manoeuvre import card_charts  # noqa: E402
from manoeuvre_sim.analyses.manoeuvre.cards_pdf import write_cards_pdf  # noqa: E402

PROVENANCE = {
    "tool": "manoeuvre-sim 0.1.0",
    "rules": "2026.11-3",
    "seed": "7",
    "games": "4000",
    "policy": "balanced",
}

OBSERVED = [
    "games",
    "drawn_games",
    "played_games",
    "drawn_win_rate",
    "not_drawn_win_rate",
    "iwd",
    "iwd_low",
    "iwd_high",
    "played_win_rate",
    "piw",
    "piw_low",
    "piw_high",
    "play_rate",
    "mean_turn_played",
]
ABLATION = ["value", "value_low", "value_high", "ablation_games", "changed_games"]

# (card, kind, unit, copies, value, iwd, play rate)
CARDS = (
    ("Napoléon Bonaparte", "leader", "", 1, 0.031, 0.052, 0.9),
    ("Michel Ney", "leader", "", 1, -0.004, 0.021, 0.5),
    ("Joachim Murat", "leader", "", 1, 0.012, -0.018, 0.35),
    ("Supply", "hq", "", 5, 0.018, 0.061, 0.6),
    ("Ambush", "hq", "", 3, 0.027, -0.012, 0.45),
    ("Withdraw", "hq", "", 2, -0.006, 0.033, 0.25),
    ("Forced March", "hq", "", 1, 0.002, 0.005, 0.72),
    ("Garde Imperial 2d8/6", "unit", "Garde Imperial", 2, 0.036, 0.071, 0.95),
    ("Garde Imperial 3d6/6", "unit", "Garde Imperial", 1, 0.008, 0.04, 0.81),
    ("1st Cuirassiers bomb 1d10/5", "unit", "1st Cuirassiers", 2, -0.009, -0.055, 0.3),
    ("1st Cuirassiers 2d8/5", "unit", "1st Cuirassiers", 1, 0.015, 0.002, 0.62),
    ("2nd Hussars 2d6/4", "unit", "2nd Hussars", 3, 0.004, 0.017, 0.4),
)
BEST_HQ = "Ambush"  # the largest value among the HQ cards, though not the largest IWD


def make_cards(observed: bool = True, ablation: bool = True) -> pd.DataFrame:
    rows = []
    for k, (card, kind, unit, copies, value, iwd, play) in enumerate(CARDS):
        half = 0.007 + 0.001 * k
        rows.append(
            {
                "card": card,
                "kind": kind,
                "unit": unit,
                "copies": copies,
                "games": 4000.0,
                "drawn_games": 3000.0,
                "played_games": 3000.0 * play,
                "drawn_win_rate": 0.5 + iwd / 2,
                "not_drawn_win_rate": 0.5 - iwd / 2,
                "iwd": iwd,
                "iwd_low": iwd - 2 * half,
                "iwd_high": iwd + 2 * half,
                "played_win_rate": 0.5 + iwd / 3,
                "piw": iwd / 2,
                "piw_low": iwd / 2 - half,
                "piw_high": iwd / 2 + half,
                "play_rate": play,
                "mean_turn_played": 4.0 + 0.4 * k,
                "value": value,
                "value_low": value - half,
                "value_high": value + half,
                "ablation_games": 4000.0,
                "changed_games": 0.05,
            }
        )
    frame = pd.DataFrame(rows)
    if not observed:
        frame[OBSERVED] = np.nan
    if not ablation:
        frame[ABLATION] = np.nan
    return frame


@pytest.fixture
def ax():
    fig, ax = plt.subplots(figsize=(7, 7))
    yield ax
    plt.close(fig)


def _bars(ax) -> BarContainer:
    (bars,) = [c for c in ax.containers if isinstance(c, BarContainer)]
    return bars


def _labels(ax) -> list[str]:
    return [t.get_text() for t in ax.get_yticklabels()]


def _texts(ax, gid) -> list:
    return [t for t in ax.texts if t.get_gid() == gid]


def _expected_order(frame, column) -> list[str]:
    out = []
    for kind in ("leader", "hq", "unit"):
        g = frame[frame["kind"] == kind].sort_values(column, ascending=False)
        out += [
            f"{r.card} ×{r.copies}" if r.copies > 1 else r.card for r in g.itertuples(index=False)
        ]
    return out


def _pdf_pages(path) -> int:
    return len(re.findall(rb"/Type\s*/Page[^s]", path.read_bytes()))


# ----------------------------------------------------------------------------- card_values


def test_card_values_groups_leaders_hq_units_each_best_first(ax):
    cards = make_cards().sample(frac=1.0, random_state=4)
    assert card_charts.card_values(cards, ax) is ax
    labels = _labels(ax)
    assert labels == _expected_order(cards, "value")
    assert labels[0] == "Napoléon Bonaparte"
    assert labels[3] == f"{BEST_HQ} ×3"  # the first HQ card: the best of its group
    assert labels[4] == "Supply ×5"
    bars = _bars(ax)
    assert len(bars) == len(CARDS)
    # bars in percentage points, top row first, best at top within each group
    widths = {lab: p.get_width() for lab, p in zip(labels, bars, strict=True)}
    assert widths["Napoléon Bonaparte"] == pytest.approx(3.1)
    assert widths[f"{BEST_HQ} ×3"] > widths["Supply ×5"] > widths["Forced March"]
    assert len([c for c in ax.containers if isinstance(c, ErrorbarContainer)]) == 1
    assert any(line.get_xdata()[0] == 0 for line in ax.lines)  # the line at 0


def test_card_values_group_headings_sit_above_their_cards(ax):
    card_charts.card_values(make_cards(), ax)
    headings = _texts(ax, "group")
    assert [t.get_text().split(" (")[0] for t in headings] == ["Leaders", "HQ cards", "Unit cards"]
    assert headings[1].get_text() == "HQ cards (4 types, 11 cards)"
    ys = [t.xy[1] for t in headings]
    ticks = list(ax.get_yticks())
    # each heading takes its own row, just above the first card of its group
    assert ys == [0, 4, 9]
    assert ticks[0] == 1 and ticks[3] == 5 and ticks[7] == 10
    assert ax.get_ylim() == (len(CARDS) + 3 - 0.5, -0.5)


def test_card_values_iwd_metric_and_its_order(ax):
    cards = make_cards()
    card_charts.card_values(cards, ax, metric="iwd")
    assert _labels(ax) == _expected_order(cards, "iwd")
    assert _labels(ax)[3] == "Supply ×5"  # the best HQ card by IWD is another one
    bars = _bars(ax)
    assert bars[3].get_width() == pytest.approx(6.1)
    assert "+6.1  (+4.1 to +8.1)" in [t.get_text() for t in _texts(ax, "figure")]


def test_card_values_nan_rows_read_na_and_sit_last_in_their_group(ax):
    cards = make_cards()
    cards.loc[cards["card"] == "Supply", ["value", "value_low", "value_high"]] = np.nan
    card_charts.card_values(cards, ax)
    labels = _labels(ax)
    hq = [lab for lab in labels if lab.split(" ×")[0] in {"Supply", "Ambush", "Withdraw"}]
    assert hq[-1] == "Supply ×5"
    assert labels.index("Supply ×5") == 6  # last of the HQ group, before the unit cards
    na = _texts(ax, "na")
    assert [t.get_text() for t in na] == ["n/a"]
    assert na[0].xy[1] == ax.get_yticks()[labels.index("Supply ×5")]
    assert len(_bars(ax)) == len(CARDS) - 1


def test_card_values_kind_filter_draws_one_group(ax):
    card_charts.card_values(make_cards(), ax, kind="hq")
    assert _labels(ax) == [f"{BEST_HQ} ×3", "Supply ×5", "Forced March", "Withdraw ×2"]
    assert len(_bars(ax)) == 4
    assert [t.get_text() for t in _texts(ax, "group")] == ["HQ cards (4 types, 11 cards)"]
    with pytest.raises(ValueError, match="kind"):
        card_charts.card_values(make_cards(), ax, kind="joker")


def test_card_values_unsorted_keeps_the_frame_order_within_groups(ax):
    cards = make_cards()
    card_charts.card_values(cards.iloc[::-1], ax, sort=False)
    assert _labels(ax)[:3] == ["Joachim Murat", "Michel Ney", "Napoléon Bonaparte"]
    assert _labels(ax)[3] == "Forced March"


@pytest.mark.parametrize("metric", ["win_rate", "IWD", ""])
def test_card_values_unknown_metric(ax, metric):
    with pytest.raises(ValueError, match="metric"):
        card_charts.card_values(make_cards(), ax, metric=metric)


def test_card_values_piw_reads_the_piw_columns(ax):
    card_charts.card_values(make_cards(), ax, metric="piw", kind="leader")
    assert [p.get_width() for p in _bars(ax)] == pytest.approx([2.6, 1.05, -0.9])


# ----------------------------------------------------------------------------- play rates


def test_card_play_rates_grouped_with_the_turn_at_the_bar_end(ax):
    cards = make_cards()
    cards.loc[cards["card"] == "Withdraw", ["play_rate", "mean_turn_played"]] = np.nan
    assert card_charts.card_play_rates(cards, ax) is ax
    labels = _labels(ax)
    assert labels[:3] == ["Napoléon Bonaparte", "Michel Ney", "Joachim Murat"]
    assert labels[3:7] == ["Forced March", "Supply ×5", "Ambush ×3", "Withdraw ×2"]
    bars = _bars(ax)
    assert len(bars) == len(CARDS) - 1
    assert bars[0].get_width() == pytest.approx(0.9)
    turns = {t.xy[1]: t.get_text() for t in _texts(ax, "turn")}
    assert turns[ax.get_yticks()[0]] == "t 4.0"  # Napoléon, the frame's first card
    assert turns[ax.get_yticks()[labels.index("Supply ×5")]] == "t 5.2"
    assert [t.get_text() for t in _texts(ax, "na")] == ["n/a"]


# ----------------------------------------------------------------------------- scatter


def test_observed_vs_ablation_one_point_per_card_with_both(ax):
    cards = make_cards()
    cards.loc[cards["card"] == "Ambush", "iwd"] = np.nan
    cards.loc[cards["card"] == "Michel Ney", "value"] = np.nan
    assert card_charts.card_observed_vs_ablation(cards, ax) is ax
    points = {c.get_gid(): c.get_offsets() for c in ax.collections if c.get_gid()}
    assert sorted(points) == ["points_hq", "points_leader", "points_unit"]
    assert sum(len(p) for p in points.values()) == len(CARDS) - 2
    # percentage points, IWD across and value up
    assert [6.1, 1.8] in np.round(np.asarray(points["points_hq"]), 6).tolist()
    assert len(points["points_leader"]) == 2
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend == ["Leaders", "HQ cards", "Unit cards", "IWD = value"]
    assert any(line.get_linestyle() == "--" for line in ax.lines)  # the 1:1 line


def test_observed_vs_ablation_names_the_best_cards_first(ax):
    cards = make_cards()
    card_charts.card_observed_vs_ablation(cards, ax, labels=6)
    names = [t.get_text() for t in _texts(ax, "card")]
    assert 3 <= len(names) <= 6
    assert set(names) <= set(cards["card"])
    assert "Garde Imperial 2d8/6" in names  # the best card is named first


def test_observed_vs_ablation_labels_do_not_collide_when_crowded(ax):
    # forty cards in a tight cloud: only some are named, and no two names overlap
    rng = np.random.default_rng(5)
    crowd = pd.concat([make_cards()] * 4, ignore_index=True)
    crowd["card"] = [f"{c} #{k}" for k, c in enumerate(crowd["card"])]
    crowd["iwd"] = rng.normal(0.02, 0.01, len(crowd))
    crowd["value"] = rng.normal(0.01, 0.005, len(crowd))
    card_charts.card_observed_vs_ablation(crowd, ax)
    names = _texts(ax, "card")
    assert 2 <= len(names) <= 14
    renderer = ax.figure.canvas.get_renderer()
    boxes = [t.get_window_extent(renderer) for t in names]
    for i, a in enumerate(boxes):
        assert not any(a.overlaps(b) for b in boxes[i + 1 :])


# ----------------------------------------------------------------------------- PDF


@pytest.mark.parametrize(
    ("observed", "ablation", "summary", "pages"),
    [
        (True, True, False, 4),  # value, IWD, observed vs ablation, play rates
        (True, True, True, 5),
        (True, False, False, 2),  # IWD, play rates
        (False, True, False, 1),  # value
        (False, True, True, 2),
    ],
)
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_cards_pdf_pages_per_mode(tmp_path, paper, observed, ablation, summary, pages):
    out = write_cards_pdf(
        tmp_path / "cards.pdf",
        make_cards(observed=observed, ablation=ablation),
        PROVENANCE,
        army="France",
        against="the field (7 armies)",
        paper=paper,
        summary_lines=["Supply ×5  +1.8 (+1.0 to +2.6)"] if summary else (),
    )
    assert out == tmp_path / "cards.pdf"
    data = out.read_bytes()
    assert data.startswith(b"%PDF") and _pdf_pages(out) == pages
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cards.pdf"]  # no .part left
    box = re.findall(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)", data)
    inches = {"a4": (8.27, 11.69), "letter": (8.5, 11.0)}[paper]
    assert len(box) == pages
    assert all((float(w) / 72, float(h) / 72) == pytest.approx(inches) for w, h in box)


def test_cards_pdf_mode_columns_may_be_absent(tmp_path):
    only_ablation = make_cards().drop(columns=OBSERVED)
    out = write_cards_pdf(tmp_path / "a.pdf", only_ablation, PROVENANCE, army="F", against="S")
    assert _pdf_pages(out) == 1
    only_observed = make_cards().drop(columns=ABLATION)
    out = write_cards_pdf(tmp_path / "o.pdf", only_observed, PROVENANCE, army="F", against="S")
    assert _pdf_pages(out) == 2


def test_cards_pdf_titles_and_footer(tmp_path):
    pypdf = pytest.importorskip("pypdf")
    out = write_cards_pdf(
        tmp_path / "c.pdf", make_cards(), PROVENANCE, army="France", against="Prussia"
    )
    texts = [page.extract_text() for page in pypdf.PdfReader(out).pages]
    assert "Card value — France against Prussia" in texts[0]
    assert "blank card that can only be discarded" in texts[0]
    assert "biased" in texts[0] and "docs/card-value.md" in texts[0]
    assert "Observed against ablation — France" in texts[2]
    for n, text in enumerate(texts, start=1):
        assert f"page {n} of 4" in text
        assert "manoeuvre-sim 0.1.0" in text and "seed 7" in text


def test_cards_pdf_splits_unit_cards_when_one_page_is_too_small(tmp_path):
    base = make_cards(observed=False)
    units = base[base["kind"] == "unit"]
    many = pd.concat(
        [base] + [units.assign(card=units["card"] + f" v{k}") for k in range(12)],
        ignore_index=True,
    )
    out = write_cards_pdf(tmp_path / "c.pdf", many, PROVENANCE, army="France", against="Spain")
    assert _pdf_pages(out) == 2  # leaders + HQ cards, then the unit cards
    out = write_cards_pdf(tmp_path / "c.pdf", base, PROVENANCE, army="France", against="Spain")
    assert _pdf_pages(out) == 1


def test_cards_pdf_bad_paper_or_no_results_writes_nothing(tmp_path):
    with pytest.raises(ValueError, match="paper"):
        write_cards_pdf(
            tmp_path / "c.pdf", make_cards(), PROVENANCE, army="F", against="S", paper="a5"
        )
    with pytest.raises(ValueError, match="neither"):
        write_cards_pdf(
            tmp_path / "c.pdf",
            make_cards(observed=False, ablation=False),
            PROVENANCE,
            army="F",
            against="S",
        )
    assert list(tmp_path.iterdir()) == []


def test_cards_pdf_failure_leaves_no_part_file(tmp_path, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("chart failed")

    # fail while the pages are being written, after the temporary file exists
    monkeypatch.setattr(card_charts, "card_play_rates", broken)
    with pytest.raises(RuntimeError, match="chart failed"):
        write_cards_pdf(tmp_path / "c.pdf", make_cards(), PROVENANCE, army="F", against="S")
    assert list(tmp_path.iterdir()) == []
