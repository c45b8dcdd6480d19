"""The card study in words: whom an army was played against, and the plain-text summary
printed after a study (also the PDF's last page). Nothing here computes a figure: it reads a
study's card frame and manifest (``manoeuvre/studies/cards.CardResult``)."""

from __future__ import annotations

import numpy as np

from manoeuvre_sim.analyses.manoeuvre.balance_text import study_notes
from manoeuvre_sim.manoeuvre.studies.card_observed import MIN_GROUP


def against_text(spec) -> str:
    """The opponents of a card study (``manoeuvre/studies/cards.CardStudySpec``): one army's name, or "the
    field (7 armies)"."""
    names = [o.name for o in spec.opponents]
    if len(names) == 1:
        return names[0]
    return f"the field ({len(names)} armies)"


def summary_lines(res) -> list[str]:
    """The plain-text summary of a card study's result (``manoeuvre/studies/cards.CardResult``): what was
    played, the value of each card by ablation, the observed figures."""
    m = res.manifest
    c = res.cards
    out = [
        f"card study: {res.spec.army.name} against {against_text(res.spec)}, "
        f"{m['games']:,} games ({res.spec.per_pairing:,} per ordered pairing and variant), "
        f"seed {m['seed']}, policy {res.spec.policy.label}, rules {m['rules_version']}, "
        f"data {m['data_hash']}"
    ]
    out += study_notes(m, res.interrupted)
    if "value" in c and c["value"].notna().any():
        a = c[c["value"].notna()].sort_values("value", ascending=False)
        out.append("")
        out.append("value by ablation: win rate lost when the card is replaced by a blank")
        out.append("(points; paired 95 % interval; positive = the card helps):")
        for r in a.itertuples(index=False):
            out.append(
                f"  {r.value_rank:>3}  {r.ablation:<42} {100 * r.value:+6.2f} "
                f"[{100 * r.value_low:+.2f}, {100 * r.value_high:+.2f}]  x{r.copies}"
            )
        need = int(a["games_for_1pt"].max())
        out.append(
            f"--games-per-variant guide: about {need:,} games per card for ±1 point on every card "
            f"(this run: {int(a['ablation_games'].iloc[0]):,})"
        )
    if "play_rate" in c and c["play_rate"].notna().any():
        o = c[c["play_rate"].notna()].sort_values("piw", ascending=False)
        undefined = float(o["iwd"].isna().mean())
        out.append("")
        out.append(
            "observed (biased: see docs/card-value.md). PIW: win rate in games it was played"
        )
        out.append("minus games it was not; OIWD: in the opening hand minus not (IWD, drawn")
        out.append("minus never drawn, is in cards.csv); played: share of the games it was")
        out.append("drawn in which it was played:")
        if undefined > 0.5:
            out.append(
                f"(IWD is n/a for {100 * undefined:.0f} % of the cards: fewer than "
                f"{MIN_GROUP} games without them - a day lasts until a first deck runs out, "
                "rule 2.3, so nearly every card is drawn in nearly every game)"
            )

        def pts(x, lo, hi):
            if not np.isfinite(x):
                return "n/a"
            return f"{100 * x:+5.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}]"

        for r in o.itertuples(index=False):
            uses = ", ".join(r.used_as.split(", ")[:3])
            out.append(
                f"  {r.card:<36} PIW {pts(r.piw, r.piw_low, r.piw_high):<21} OIWD "
                f"{pts(r.oiwd, r.oiwd_low, r.oiwd_high):<21} {100 * r.play_rate:3.0f} %  {uses}"
            )
        rare = o[o["play_rate"] < 0.2]
        if len(rare):
            out.append(
                "held but seldom played (< 20 % of the games it was drawn): "
                + ", ".join(rare["card"])
            )
    return out
