"""The balance charts and the balance / what-if PDFs, drawn from small synthetic frames."""

from __future__ import annotations

import re

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from matplotlib.colors import to_rgb  # noqa: E402
from matplotlib.container import BarContainer, ErrorbarContainer  # noqa: E402

from manoeuvre_sim.analyses.manoeuvre import charts  # noqa: E402
from manoeuvre_sim.analyses.manoeuvre.balance_pdf import write_balance_pdf, write_whatif_pdf  # noqa: E402

ARMIES = ("France", "Spain", "Prussia", "Russia")
PROVENANCE = {
    "tool": "manoeuvre-sim 0.1.0",
    "rules": "2026.11-3",
    "seed": "1",
    "policy": "balanced",
}


def _interval(v: float, half: float = 0.03) -> dict:
    return {"low": v - half, "high": v + half}


def make_frames(armies=ARMIES, policies=("balanced",), styles: bool = False) -> dict:
    """Frames shaped as the pipeline's: the row army's win rate falls with its index."""
    n = len(armies)
    m, a, f, v, s = [], [], [], [], []
    for k, policy in enumerate(policies):
        shift = 0.01 * k
        for i, army in enumerate(armies):
            for j, opp in enumerate(armies):
                wr = 0.5 if i == j else float(np.clip(0.5 + 0.08 * (j - i) + shift, 0.05, 0.95))
                first = 0.55 if i == j else min(0.99, wr + 0.04)
                row = {"policy": policy, "army": army, "opponent": opp, "games": 100}
                row |= {"win_rate": wr, "ci_low": wr - 0.03, "ci_high": wr + 0.03}
                for tag, val in (
                    ("seat_a", wr),
                    ("seat_b", wr),
                    ("first", first),
                    ("second", 2 * wr - first),
                ):
                    row |= {
                        f"games_{tag}": 50,
                        f"win_rate_{tag}": val,
                        f"ci_low_{tag}": val - 0.04,
                        f"ci_high_{tag}": val + 0.04,
                    }
                m.append(row)
            fw = 0.5 + 0.04 * (n - 1 - 2 * i) + shift
            rating = 100.0 * (n - 1 - 2 * i) / 2
            a.append(
                {
                    "policy": policy,
                    "army": army,
                    "games": 300,
                    "field_win_rate": fw,
                    "ci_low": fw - 0.02,
                    "ci_high": fw + 0.02,
                    "rating": rating,
                    "rating_low": rating - 30,
                    "rating_high": rating + 30,
                    "rank": i + 1,
                    "rank_low": max(1, i),
                    "rank_high": min(n, i + 2),
                }
            )
            f.append(
                {
                    "policy": policy,
                    "army": army,
                    "games_first": 150,
                    "win_rate_first": fw + 0.02 * i,
                    "ci_low_first": fw + 0.02 * i - 0.04,
                    "ci_high_first": fw + 0.02 * i + 0.04,
                    "games_second": 150,
                    "win_rate_second": fw - 0.02 * i,
                    "ci_low_second": fw - 0.02 * i - 0.04,
                    "ci_high_second": fw - 0.02 * i + 0.04,
                    "advantage": 0.04 * i,
                    "advantage_low": 0.04 * i - 0.05,
                    "advantage_high": 0.04 * i + 0.05,
                }
            )
            v.append(
                {
                    "policy": policy,
                    "army": army,
                    "games": 300,
                    "win_attrition": 0.3,
                    "win_nightfall": 0.2,
                    "draw": 0.05,
                    "loss_nightfall": 0.2,
                    "loss_attrition": 0.25,
                    "tb_squares": 0.5,
                    "tb_eliminations": 0.2,
                    "tb_reduced": 0.1,
                    "tb_nation": 0.1,
                    "tb_none": 0.1,
                    "turn_limit": 0.0,
                    "mean_turns": 18.0 + i,
                }
            )
            s.append(
                {
                    "policy": policy,
                    "army": army,
                    "field_win_rate": fw,
                    "ci_low": fw - 0.03,
                    "ci_high": fw + 0.03,
                    "rank": i + 1,
                }
            )
        f.append(
            {
                "policy": policy,
                "army": "all games",
                "games_first": 600,
                "win_rate_first": 0.55,
                "ci_low_first": 0.53,
                "ci_high_first": 0.57,
                "games_second": 600,
                "win_rate_second": 0.45,
                "ci_low_second": 0.43,
                "ci_high_second": 0.47,
                "advantage": 0.1,
                "advantage_low": 0.06,
                "advantage_high": 0.14,
            }
        )
    frames = {
        "matrix": pd.DataFrame(m),
        "armies": pd.DataFrame(a),
        "first_player": pd.DataFrame(f),
        "victory_by_army": pd.DataFrame(v),
    }
    if styles:
        frames["styles"] = pd.DataFrame(s)
        frames["style_tau"] = pd.DataFrame(
            [{"policy_x": policies[0], "policy_y": policies[1], "tau": 0.67, "p_value": 0.17}]
        )
    return frames


def make_whatif(army="Spain", armies=ARMIES) -> pd.DataFrame:
    rows = [
        {
            "army": army,
            "opponent": "field",
            "games": 300,
            "base_win_rate": 0.45,
            "variant_win_rate": 0.48,
            "delta": 0.03,
            "delta_low": 0.01,
            "delta_high": 0.05,
            "changed_games": 0.1,
        }
    ]
    for k, opp in enumerate(o for o in armies if o != army):
        d = 0.02 * (k - 1)
        rows.append(
            {
                "army": army,
                "opponent": opp,
                "games": 100,
                "base_win_rate": 0.45,
                "variant_win_rate": 0.45 + d,
                "delta": d,
                "delta_low": d - 0.04,
                "delta_high": d + 0.04,
                "changed_games": 0.05 + 0.01 * k,
            }
        )
    return pd.DataFrame(rows)


@pytest.fixture
def ax():
    fig, ax = plt.subplots(figsize=(7, 7))
    yield ax
    plt.close(fig)


def _texts(ax, gid):
    return [t for t in ax.texts if t.get_gid() == gid]


def _pdf_pages(path) -> int:
    return len(re.findall(rb"/Type\s*/Page[^s]", path.read_bytes()))


# ----------------------------------------------------------------------------- charts


def test_heatmap_one_text_per_cell_with_the_rounded_percentage(ax):
    frames = make_frames()
    m = frames["matrix"]
    pick = (m["army"] == "Prussia") & (m["opponent"] == "France")
    m.loc[pick, "win_rate"] = 0.3449  # rounds to 34, not 35
    m.loc[pick, ["ci_low", "ci_high"]] = [0.3151, 0.3762]
    mirror = (m["army"] == "Spain") & (m["opponent"] == "Spain")
    m.loc[mirror, "win_rate_first"] = 0.576
    assert charts.heatmap(m, ax) is ax
    n = len(ARMIES)
    cells = _texts(ax, "cell")
    assert len(cells) == n * n - n
    assert len(_texts(ax, "interval")) == n * n - n
    assert len(_texts(ax, "mirror")) == n
    # Prussia is row 2, France column 0: the cell's texts sit inside that unit square
    at = [t for t in cells if 0 < t.get_position()[0] < 1 and 2 < t.get_position()[1] < 3]
    assert [t.get_text() for t in at] == ["34"]
    ci = [
        t
        for t in _texts(ax, "interval")
        if 0 < t.get_position()[0] < 1 and 2 < t.get_position()[1] < 3
    ]
    assert [t.get_text() for t in ci] == ["32–38"]
    spain = [t for t in _texts(ax, "mirror") if 1 < t.get_position()[0] < 2]
    assert [t.get_text() for t in spain] == ["1st 58"]
    assert [t.get_text() for t in ax.get_yticklabels()] == list(ARMIES)
    assert [c.get_ylabel() for c in ax.child_axes] == ["win rate"]  # the colorbar


def test_heatmap_text_contrasts_with_its_cell(ax):
    charts.heatmap(make_frames()["matrix"], ax)
    by_value = {t.get_text(): t.get_color() for t in _texts(ax, "cell")}
    # France beats Russia 74 % (the darkest cell), Russia gets 26 % against France (lightest)
    assert by_value["74"] == "white"
    assert by_value["26"] == "black"
    assert charts.text_colour("0.05") == "white" and charts.text_colour("0.95") == "black"


def test_win_rate_colour_map_darkens_steadily_for_greyscale_prints():
    rgb = np.array([to_rgb(charts.WIN_RATE_CMAP(x)) for x in np.linspace(0, 1, 64)])
    grey = rgb @ np.array([0.299, 0.587, 0.114])
    assert np.all(np.diff(grey) < 0)
    mid = rgb[len(rgb) // 2]
    assert np.ptp(mid) < 0.06  # neutral at 50 %
    assert rgb[0][0] > rgb[0][2] and rgb[-1][2] > rgb[-1][0]  # orange low, blue high


def test_ratings_one_error_bar_per_army_best_at_top(ax):
    frames = make_frames()
    shuffled = frames["armies"].sample(frac=1.0, random_state=3)
    assert charts.ratings(shuffled, ax) is ax
    bars = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
    assert len(bars) == len(ARMIES)
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels[0] == "France  #1 (1–2)"
    assert labels[-1] == "Russia  #4 (3–4)"
    assert any(line.get_xdata()[0] == 0 for line in ax.lines)  # the line at 0


def test_field_win_rates_sorted_with_whiskers(ax):
    frames = make_frames()
    assert charts.field_win_rates(frames["armies"].iloc[::-1], ax) is ax
    (bars,) = [c for c in ax.containers if isinstance(c, BarContainer)]
    widths = [p.get_width() for p in bars]
    assert len(widths) == len(ARMIES) and widths == sorted(widths, reverse=True)
    assert len([c for c in ax.containers if isinstance(c, ErrorbarContainer)]) == 1
    assert any(line.get_xdata()[0] == 0.5 for line in ax.lines)


def test_first_player_all_games_on_top_then_by_advantage(ax):
    assert charts.first_player(make_frames()["first_player"], ax) is ax
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == ["all games", "Russia", "Prussia", "Spain", "France"]
    assert ax.get_yticklabels()[0].get_weight() == "bold"
    bars = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
    assert len(bars) == 2 * len(labels)  # first and second per row


def test_victory_mix_stacks_five_shares_per_army(ax):
    order = ["Russia", "France", "Spain", "Prussia"]
    assert charts.victory_mix(make_frames()["victory_by_army"], ax, order=order) is ax
    bars = [c for c in ax.containers if isinstance(c, BarContainer)]
    assert len(bars) == 5 and all(len(b) == len(ARMIES) for b in bars)
    ends = [b[0].get_x() + b[0].get_width() for b in bars]
    assert ends[-1] == pytest.approx(1.0)
    looks = {(b[0].get_facecolor(), b[0].get_hatch() or "") for b in bars}
    assert len(looks) == 5  # told apart without hue
    assert all(fc[0] == fc[1] == fc[2] for fc, _ in looks)
    assert [t.get_text() for t in ax.get_legend().get_texts()][0] == "win by attrition"
    assert [t.get_text() for t in ax.get_yticklabels()] == order
    assert "18.0" in [t.get_text() for t in ax.texts]  # France's mean turns


def test_style_sensitivity_marker_per_policy_and_tau(ax):
    frames = make_frames(policies=("balanced", "aggressive"), styles=True)
    assert charts.style_sensitivity(frames["styles"], frames["style_tau"], ax) is ax
    bars = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
    assert len(bars) == 2
    assert len({b.lines[0].get_marker() for b in bars}) == 2
    assert "0.67" in ax.get_title(loc="left")
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["balanced", "aggressive"]


def test_whatif_deltas_field_row_first(ax):
    assert charts.whatif_deltas(make_whatif(), ax) is ax
    labels = ax.get_yticklabels()
    assert labels[0].get_text() == "Spain — field (mean)" and labels[0].get_weight() == "bold"
    (bars,) = [c for c in ax.containers if isinstance(c, BarContainer)]
    assert len(bars) == len(ARMIES)  # field + three opponents
    assert bars[0].get_width() == pytest.approx(3.0)  # percentage points
    assert "10 %" in [t.get_text() for t in ax.texts]  # the field's changed games


@pytest.mark.parametrize(
    ("chart", "key"),
    [
        (charts.heatmap, "matrix"),
        (charts.ratings, "armies"),
        (charts.field_win_rates, "armies"),
        (charts.first_player, "first_player"),
        (charts.victory_mix, "victory_by_army"),
    ],
)
def test_policy_filter_and_ambiguity(ax, chart, key):
    frame = make_frames(policies=("balanced", "aggressive"))[key]
    with pytest.raises(ValueError, match="policy="):
        chart(frame, ax)
    with pytest.raises(ValueError, match="cautious"):
        chart(frame, ax, policy="cautious")
    assert chart(frame, ax, policy="aggressive") is ax


def test_policy_filter_picks_that_policys_rows(ax):
    frames = make_frames(policies=("balanced", "aggressive"))
    charts.field_win_rates(frames["armies"], ax, policy="aggressive")
    (bars,) = [c for c in ax.containers if isinstance(c, BarContainer)]
    assert bars[0].get_width() == pytest.approx(0.62 + 0.01)


# ----------------------------------------------------------------------------- PDFs


def test_balance_pdf_one_policy_three_pages(tmp_path):
    out = write_balance_pdf(tmp_path / "balance.pdf", make_frames(), PROVENANCE)
    assert out == tmp_path / "balance.pdf"
    data = out.read_bytes()
    assert data.startswith(b"%PDF") and _pdf_pages(out) == 3
    assert b"Manoeuvre balance report" in data and b"manoeuvre-sim 0.1.0" in data
    assert sorted(p.name for p in tmp_path.iterdir()) == ["balance.pdf"]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_balance_pdf_with_styles_and_summary(tmp_path, paper):
    frames = make_frames(policies=("balanced", "aggressive", "cautious"), styles=True)
    out = write_balance_pdf(
        tmp_path / "b.pdf",
        frames,
        PROVENANCE,
        paper=paper,
        summary_lines=["France  +150", "Spain   +50"],
    )
    # heatmap, strength, seats, two further heatmaps, sensitivity, summary
    assert _pdf_pages(out) == 7
    assert not list(tmp_path.glob("*.part"))
    box = re.findall(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)", out.read_bytes())
    inches = {"a4": (8.27, 11.69), "letter": (8.5, 11.0)}[paper]
    assert len(box) == 7
    assert all((float(w) / 72, float(h) / 72) == pytest.approx(inches) for w, h in box)


def test_balance_pdf_bad_paper_writes_nothing(tmp_path):
    with pytest.raises(ValueError, match="paper"):
        write_balance_pdf(tmp_path / "b.pdf", make_frames(), PROVENANCE, paper="a5")
    with pytest.raises(ValueError, match="paper"):
        write_whatif_pdf(tmp_path / "w.pdf", make_whatif(), PROVENANCE, paper="legal")
    assert list(tmp_path.iterdir()) == []


def test_balance_pdf_failure_leaves_no_part_file(tmp_path):
    frames = make_frames()
    frames["victory_by_army"] = frames["victory_by_army"].drop(columns="draw")
    target = tmp_path / "b.pdf"
    with pytest.raises(KeyError):
        write_balance_pdf(target, frames, PROVENANCE)
    assert list(tmp_path.iterdir()) == []


def test_whatif_pdf_pages(tmp_path):
    out = write_whatif_pdf(
        tmp_path / "w.pdf", make_whatif(), PROVENANCE, changes=["Spain: infantry strength 4 -> 5"]
    )
    assert _pdf_pages(out) == 1
    out = write_whatif_pdf(
        tmp_path / "w.pdf", make_whatif(), PROVENANCE, paper="letter", summary_lines=["line"]
    )
    assert _pdf_pages(out) == 2
    assert b"Manoeuvre what-if report" in out.read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["w.pdf"]


def test_whatif_deltas_without_affected_pairings(ax):
    assert charts.whatif_deltas(make_whatif().iloc[:0], ax) is ax
    assert [t.get_text() for t in ax.texts] == ["no pairing affected"]
