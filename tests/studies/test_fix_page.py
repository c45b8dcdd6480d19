"""What a fix says of its answer, in its summary and on its report page (issue 40's real
armies: eight targets, a stronger player's confirmation): a rate interval across the band's
edge is not called outside it, the stronger player's verdict says how sure its estimate is,
and the page names the targets in a title that fits, wraps its long lines, draws both
matrices on the page and gives the stronger player's confirmation."""

from __future__ import annotations

import json

import pandas as pd

from manoeuvre_sim.studies import fix as F
from manoeuvre_sim.studies.fix_confirm import Confirmation, _holds, where
from tests.studies import coin_game
from tests.studies.test_fix import COINS, QUICK


def test_an_interval_across_the_bands_edge_is_not_outside_it():
    band = (0.45, 0.55)
    assert where(0.46, 0.54, band) == ""
    assert where(0.30, 0.44, band) == "outside the band"
    assert where(0.56, 0.60, band) == "outside the band"
    assert where(0.43, 0.47, band) == "across the band's edge"
    assert where(0.40, 0.60, band) == "across the band's edge"


def _conf(d_base, d_fixed, se):
    return Confirmation(None, None, pd.DataFrame(), pd.DataFrame(), False, 10, d_base, d_fixed,
                        se)  # fmt: skip


def test_the_stronger_players_estimate_says_its_standard_error():
    weak = _holds(None, _conf(0.8, 0.66, 0.10))
    assert weak == ("still brings the field nearer the band under the stronger player "
                    "(estimate: the distance falls by 0.140, its standard error 0.100)")  # fmt: skip
    sure = _holds(None, _conf(0.8, 0.5, 0.10))
    assert sure.endswith("falls by 0.300, its standard error 0.100, more than twice its "
                         "standard error)")  # fmt: skip
    assert _holds(None, _conf(0.5, 0.6, 0.01)).startswith("does not bring the field nearer")


def test_the_summary_and_the_page_of_a_fix_confirmed_under_another_player(tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from manoeuvre_sim.analyses.common.fix_pdf import LINE_CHARS, FixStudy, _lines

    # 40 games a pairing under "lucky": its intervals cross the band's edges
    said = []
    res = F.run(coin_game, COINS, editable=["heavy"], out_dir=tmp_path, confirm_with="lucky",
                confirm_with_games=40, say=said.append, **QUICK)  # fmt: skip
    res.write(tmp_path)
    text = "\n".join(res.summary())
    assert "across the band's edge" in text and "outside the band" not in text
    # the base's distance from the search's band (the trail's and the frontier's), as the
    # search said it: the summary's 0.565 beside a frontier of 0.599 read as a worse errata
    inner = said[0].split(", ")[1].split(" from")[0]
    lo, hi = res.spec.search_band
    assert (f"base estimated distance {res.manifest['base_distance']:.3f}, {inner} from the "
            f"search's band {100 * lo:.1f}-{100 * hi:.1f} % (guard ") in text  # fmt: skip
    m = json.loads((tmp_path / "manifest.json").read_text())
    s = FixStudy.load(tmp_path, m)
    assert s.title == "Fix — heavy, mid, low into 45-55 %"
    lines = _lines(s)
    assert all(len(x) <= LINE_CHARS for x in lines)
    at = next(i for i, x in enumerate(lines) if x.startswith("Under lucky ("))
    assert lines[at].endswith("40 per pairing, the same fresh seed): NOT confirmed")
    assert [x.split()[0] for x in lines[at + 1 : at + 4]] == ["heavy", "mid", "low"]

    def inside(study) -> None:
        fig = plt.figure(figsize=(8.27, 11.69))  # A4
        study.page()(fig)
        assert len(fig.axes) >= 2
        for ax in fig.axes:  # both matrices inside the page
            box = ax.get_position()
            assert min(box.x0, box.y0) >= 0 and max(box.x1, box.y1) <= 1, box
        plt.close(fig)

    inside(s)
    # eight targets: counted in the title, which would not fit the page's width, and two
    # matrices of eight (the fixed one ran off the page's right edge)
    eight = [f"Army {i}" for i in range(8)]
    s.manifest = m | {"fix": m["fix"] | {"targets": eight, "editable": eight}}
    assert s.title == "Fix — 8 sides into 45-55 %"
    assert all(len(x) <= LINE_CHARS for x in _lines(s))
    mat = pd.DataFrame(0.5, index=eight, columns=eight).rename_axis("side_a").reset_index()
    s.frames |= {"matrix_base": mat, "matrix_fixed": mat, "moved": pd.DataFrame()}
    inside(s)
    # 44 pairings touched (the real armies' errata), two of them moved: the list is cut,
    # the moved ones first, so that the matrices keep their size (they shrank to 1.6 inches)
    row = {"base_score": 0.5, "variant_score": 0.5, "change": 0.0, "change_low": -0.01,
           "change_high": 0.01}  # fmt: skip
    moved = pd.DataFrame([{"side_a": eight[i % 8], "side_b": eight[(i + 1) % 8], **row,
                           "p_holm": 0.001 if i in (30, 40) else 1.0, "moved": i in (30, 40)}
                          for i in range(44)])  # fmt: skip
    rates = pd.DataFrame([{"side": a, "base_rate": 0.5, "fixed_rate": 0.5, "fixed_low": 0.44,
                           "fixed_high": 0.56, "in_band": False} for a in eight])  # fmt: skip
    s.frames |= {"moved": moved, "targets": rates, "targets_strong": rates}
    lines = _lines(s, 5)
    at = next(i for i, x in enumerate(lines) if x.startswith("What else moved"))
    assert lines[at].endswith("(2 of 44 moved)")
    assert lines[at + 1].endswith("moved") and lines[at + 2].endswith("moved")
    assert lines[at + 6] == "  ... 39 more in moved.csv"
    fig = plt.figure(figsize=(8.27, 11.69))
    s.page()(fig)
    full = min((8.27 - 0.6 - 0.55 - 2.2) / 2, 0.42 * 8 + 0.3)  # the page's width allows
    assert min(ax.get_position().width * 8.27 for ax in fig.axes) >= full - 1e-9
    plt.close(fig)
