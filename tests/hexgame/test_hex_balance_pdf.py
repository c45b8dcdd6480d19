"""The variant study's "who wins" panels (analyses/hexgame/balance_pdf.py), drawn on an Axes from
a small hand-made variant table (issue 30: a new user found the panels titled only at the
foot of a tall page, no figures, and the dots at 0 % and 100 % cut in half)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from manoeuvre_sim.analyses.hexgame import balance_pdf as V  # noqa: E402

# (variant, blue's player, red's player, rate, low, high): a 0 % and a 100 % row
ROWS = [
    ("basic", "capital", "capital", 0.34, 0.29, 0.39),
    ("basic", "attrition", "attrition", 0.0, 0.0, 0.0127),
    ("basic", "all", "all", 0.2, 0.18, 0.22),
    ("step losses", "capital", "attrition", 1.0, 0.9873, 1.0),
    ("step losses", "all", "all", 0.505, 0.47, 0.54),
]


@pytest.fixture
def panel():
    frame = pd.DataFrame(
        ROWS, columns=["variant", "policy_blue", "policy_red", "r", "r_ci_low", "r_ci_high"]
    )
    fig = plt.figure(figsize=(3.0, 4.0))
    ax = fig.add_axes((0.4, 0.1, 0.35, 0.8))
    V.rate_whiskers(frame, ax, "r", "first player wins")
    fig.canvas.draw()
    yield frame, fig, ax
    plt.close(fig)


def test_a_panel_is_titled_above_not_below(panel):
    _, _, ax = panel
    assert ax.get_title(loc="left") == "first player wins"
    assert ax.get_xlabel() == ""


def test_dots_at_0_and_100_percent_are_drawn_whole(panel):
    _, fig, ax = panel
    left, right = ax.get_xlim()
    assert left < 0.0 and right > 1.0  # a margin beyond both ends
    ticks = [t for t in ax.get_xticks() if left <= t <= right]
    assert min(ticks) == 0.0 and max(ticks) == 1.0  # no -10 % or 110 % tick
    box = ax.get_window_extent()
    for line in ax.lines:
        for x, y in zip(*line.get_data(), strict=True):
            px, _ = ax.transData.transform((x, y))
            r = line.get_markersize() / 2 * fig.dpi / 72
            assert box.x0 <= px - r and px + r <= box.x1, (x, y)


def test_each_row_prints_its_rate_and_interval_beside_its_dot(panel):
    frame, fig, ax = panel
    _, ys, _, _ = V.row_layout(frame)
    texts = {round(t.xy[1]): t for t in ax.texts if hasattr(t, "xy")}
    box = ax.get_window_extent()
    renderer = fig.canvas.get_renderer()
    expected = ["34 (29–39)", "0 (0–1)", "20 (18–22)", "100 (99–100)", "50 (47–54)"]
    for y, want in zip(ys, expected, strict=True):
        t = texts[y]
        assert t.get_text() == want
        ext = t.get_window_extent(renderer)
        assert box.x0 <= ext.x0 and ext.x1 <= box.x1, want  # inside the panel
