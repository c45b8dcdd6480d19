"""The ``odds`` queries as library functions: what ``manoeuvre-sim odds assault|bombard|
volley|pursuit|rally|withdraw|rockets|table|chart`` compute, from the same arguments as the
command line's options, for the command line and the workbench's odds pages alike.

Each query returns an :class:`OddsReport` (the exact distribution over named outcomes, the
command's extra figures, an optional Monte Carlo :class:`~manoeuvre_sim.core.stats.Estimate`
and the title line); ``OddsReport.to_dict()`` is the object ``--json`` prints. Errors are
:class:`~manoeuvre_sim.core.errors.UsageError` in the command line's words (``--defense:
expected an integer >= 0, got -3``).

The rules are those of :mod:`manoeuvre_sim.manoeuvre.odds`: Assault and Ambush (rule 6.1),
Bombardment and Volley (rule 6.2, Grand Battery rule 9.1), Pursuit (rule 6.6), Rally (rule
7), Withdraw (rule 8), Rockets (Distant Lands 6.3).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.core.stats import Estimate

KINDS = ("assault", "bombard", "volley", "pursuit", "rally", "withdraw", "rockets")
# the printable chart's page limits (``odds chart``)
CHART_MAX_STRENGTHS = 16
CHART_MAX_DEFENSES = 20
MAX_RANGE_VALUES = 201  # values of one LO..HI range (``--strengths 0..200``)


@dataclass(frozen=True)
class OddsReport:
    """One odds query's answer: exact probabilities of exclusive outcomes, in order.

    Attributes
    ----------
    names : tuple of str
        The outcomes, as ``--json`` names them.
    probs : ndarray(float64, shape=(len(names),))
        Their exact probabilities (summing to 1).
    extra : dict
        The command's other figures (means, inputs), merged into the JSON object.
    estimate : Estimate or None
        The Monte Carlo counts in the order of ``names`` (``--simulate``).
    title : str
        The first line the command prints.
    ordered : bool
        Whether the outcomes are ordered (so "at least" and "at most" mean something).
    """

    names: tuple[str, ...]
    probs: np.ndarray
    extra: dict
    estimate: Estimate | None
    title: str
    ordered: bool = True

    def to_dict(self) -> dict:
        """The object ``--json`` prints."""
        out = {n: float(p) for n, p in zip(self.names, self.probs, strict=True)}
        out.update(self.extra)
        if self.estimate is not None:
            out["simulation"] = self.estimate.to_dict()
        return out

    def at_least(self) -> np.ndarray:
        """P(outcome ``k`` or a later one), for each ``k`` (ordered outcomes)."""
        return np.clip(np.cumsum(self.probs[::-1])[::-1], 0.0, 1.0)

    def at_most(self) -> np.ndarray:
        """P(outcome ``k`` or an earlier one), for each ``k`` (ordered outcomes)."""
        return np.clip(np.cumsum(self.probs), 0.0, 1.0)


def parse_range(text: str, what: str) -> list[int]:
    """``'0..12'`` or ``'3,5,8'`` -> list of ints (at most MAX_RANGE_VALUES in a range)."""
    m = re.fullmatch(r"\s*(\d+)\s*\.\.\s*(\d+)\s*", text)
    if m:
        lo, hi = int(m.group(1)), int(m.group(2))
        if lo > hi or hi - lo + 1 > MAX_RANGE_VALUES:
            raise UsageError(f"{what}: expected a range LO..HI with LO <= HI (at most "
                             f"{MAX_RANGE_VALUES} values), got {text.strip()!r}")  # fmt: skip
        return list(range(lo, hi + 1))
    try:
        vals = [int(v) for v in text.split(",")]
    except ValueError:
        raise UsageError(
            f"{what}: expected a range like '0..12' or a list like '3,5,8', got {text!r}"
        ) from None
    if any(v < 0 for v in vals):
        raise UsageError(f"{what}: values must be >= 0, got {text!r}")
    return vals


def defense_total(defense, defender_strength, terrain, redoubt, sappers, cards, leader) -> int:
    """The defense total: ``defense`` as given, or built from the defender's strength,
    terrain (by name), redoubt, sappers, defense cards and leader (rule 6.1 step 5)."""
    from manoeuvre_sim.manoeuvre import odds

    parts = defender_strength is not None
    if defense is not None and parts:
        raise UsageError(
            "give either --defense (the whole defense total) or --defender-strength with its "
            "components, not both"
        )
    if defense is None and not parts:
        raise UsageError("give --defense (the defense total) or --defender-strength")
    if defense is not None:
        if terrain or redoubt or sappers or cards or leader:
            raise UsageError(
                "--defense is the whole defense total; use --defender-strength to build it "
                "from terrain, redoubt, cards and leader"
            )
        if defense < 0:
            raise UsageError(f"--defense: expected an integer >= 0, got {defense}")
        return defense
    ter = 0
    if terrain:
        from manoeuvre_sim.manoeuvre.matchup import find_terrain
        from manoeuvre_sim.manoeuvre.model import load_terrain

        ter = find_terrain(load_terrain(), terrain, "defender").defense
    return odds.build_defense(
        defender_strength,
        terrain=ter,
        redoubt=redoubt,
        sappers=sappers,
        cards=cards,
        leader_combat=leader,
    )


def parse_supports(texts: Sequence[str]):
    """``['6:2d6', '5']`` -> the supporting units of ``--support`` (rule 6.4)."""
    from manoeuvre_sim.manoeuvre import odds as o

    supports = []
    for s in texts:
        st, _, dice_txt = s.partition(":")
        try:
            st_v = int(st)
        except ValueError:
            raise UsageError(
                f"--support: expected STRENGTH[:DICE], e.g. 6:2d6, got {s!r}"
            ) from None
        supports.append(o.Support(st_v, o.parse_mix(dice_txt) if dice_txt else ()))
    return supports


def assault(
    strength: int = 0,
    dice: Sequence[str] = (),
    support: Sequence[str] = (),
    leader_combat: int = 0,
    leader_command: int | None = None,
    committed: int = 0,
    hill: bool = False,
    ambush: bool = False,
    japanese_leader: bool = False,
    maharaja: bool = False,
    defense: int | None = None,
    defender_strength: int | None = None,
    terrain: str | None = None,
    redoubt: bool = False,
    sappers: bool = False,
    defense_cards: Sequence[int] = (),
    defender_leader_combat: int = 0,
    simulate: int = 0,
    seed: int = 1,
) -> OddsReport:
    """``odds assault``: the six exclusive result bands of an Assault or Ambush (rule 6.1),
    ordered by the attack total they need."""
    from manoeuvre_sim.manoeuvre import odds as o
    from manoeuvre_sim.manoeuvre.combat import BAND_NAMES

    att = o.build_attack(
        strength,
        dice,
        hill=hill,
        leader_combat=leader_combat,
        leader_command=leader_command,
        supports=parse_supports(support),
        committed=committed,
        ambush=ambush,
        japanese_leader=japanese_leader,
        maharaja=maharaja,
    )
    d = defense_total(
        defense, defender_strength, terrain, redoubt, sappers, defense_cards, defender_leader_combat
    )
    res = o.assault_odds(att, d)
    est = o.simulate_assault(att, d, simulate, seed) if simulate else None
    extra = {k: v for k, v in res.to_dict().items() if k not in BAND_NAMES}
    title = (
        f"{'Ambush' if ambush else 'Assault'}: attack {att.label} "
        f"(mean {res.attack_total_mean:.2f}) vs defense {d}; bands are exclusive"
    )
    return OddsReport(tuple(BAND_NAMES), np.asarray(res.probs), extra, est, title)


def fire(
    kind: str,
    dice: Sequence[str] = (),
    defense: int | None = None,
    defender_strength: int | None = None,
    terrain: str | None = None,
    redoubt: bool = False,
    hill: bool = False,
    simulate: int = 0,
    seed: int = 1,
    grand_battery: bool = False,
) -> OddsReport:
    """``odds bombard`` (``kind='Bombardment'``) or ``odds volley`` (``'Volley'``): P(dice +
    hill > defense) (rule 6.2); ``grand_battery`` rolls 2d10 (rule 9.1)."""
    from manoeuvre_sim.manoeuvre import odds as o

    if grand_battery:
        if dice:
            raise UsageError("--grand-battery rolls 2d10: do not also give --dice")
        dice = ("2d10",)
    d = defense_total(defense, defender_strength, terrain, redoubt, False, (), 0)
    res = o.fire_odds(dice, d, hill=hill)
    est = o.simulate_fire(dice, d, simulate, seed, hill=hill) if simulate else None
    extra = res.to_dict()
    del extra["hit"], extra["no_effect"]
    title = (
        f"{kind}: {'+'.join(str(x) for x in res.dice)}"
        f"{' +2 hill' if hill else ''} vs defense {d} (rule 6.2: hit iff attack > defense)"
    )
    if est is not None:  # same order as the exact rows
        est = Estimate(("hit", "no_effect"), np.array(est.counts[::-1]), est.n, est.seed)
    probs = np.array([res.hit, 1.0 - res.hit])
    return OddsReport(("hit", "no_effect"), probs, extra, est, title, ordered=False)


def pursuit(
    cards: Sequence[int], leader_mod: int = 0, simulate: int = 0, seed: int = 1
) -> OddsReport:
    """``odds pursuit``: the number of pursuit hits (rule 6.6)."""
    from manoeuvre_sim.manoeuvre import odds as o

    p = o.pursuit_odds(list(cards), leader_mod)
    est = o.simulate_pursuit(list(cards), leader_mod, simulate, seed) if simulate else None
    names = tuple(f"{h}_hits" for h in range(p.size))
    extra = {
        "mean_hits": float(sum(h * x for h, x in enumerate(p))),
        "at_least_one": float(p[1:].sum()),
        "at_least_two": float(p[2:].sum()),
        "cards": list(cards),
        "leader_mod": leader_mod,
    }
    title = (
        f"Pursuit: cards {', '.join(f'1..{c}' for c in cards)}, leader modifier "
        f"{leader_mod:+d}; two hits eliminate a full-strength unit"
    )
    return OddsReport(names, np.asarray(p), extra, est, title)


def _swap(est):
    return Estimate(("success", "failure"), np.array(est.counts[::-1]), est.n, est.seed)


def _d6_face(name: str, value: int, alternative: str = "") -> None:
    """A UsageError of one line unless ``value`` is a d6's face 1..6 (rule 7 rally, rule 8
    withdraw: the roll succeeds on 1..value)."""
    if not 1 <= value <= 6:
        tail = f" {alternative}" if alternative else ""
        raise UsageError(f"{name}: expected 1..6{tail}, got {value}")


def rally(rally: str | int, simulate: int = 0, seed: int = 1) -> OddsReport:
    """``odds rally``: a leader's rally in the Restoration Phase (rule 7); ``rally`` is 1..6
    or ``'auto'``."""
    from manoeuvre_sim.manoeuvre import odds as o

    if rally != "auto":
        try:
            rally = int(rally)
        except ValueError:
            raise UsageError(f"rally: expected 1..6 or 'auto', got {rally!r}") from None
        _d6_face("rally", rally, "or 'auto'")
    p = o.rally_odds(rally)
    est = None
    if simulate and rally != "auto":
        est = _swap(o.simulate_d6_range(rally, simulate, seed))
    title = (
        "Rally auto: no roll needed (rule 7)"
        if rally == "auto"
        else f"Rally {rally}: d6 within 1..{rally} (rule 7)"
    )
    return OddsReport(
        ("success", "failure"), np.array([p, 1 - p]), {"rally": rally}, est, title, ordered=False
    )


def withdraw(withdraw_max: int, simulate: int = 0, seed: int = 1) -> OddsReport:
    """``odds withdraw``: a US unit card's withdraw attempt (rule 8)."""
    from manoeuvre_sim.manoeuvre import odds as o

    _d6_face("withdraw", withdraw_max)
    p = o.withdraw_odds(withdraw_max)
    est = _swap(o.simulate_d6_range(withdraw_max, simulate, seed)) if simulate else None
    return OddsReport(
        ("success", "failure"),
        np.array([p, 1 - p]),
        {"withdraw_max": withdraw_max},
        est,
        f"Withdraw 1..{withdraw_max} (rule 8)",
        ordered=False,
    )


def rockets(simulate: int = 0, seed: int = 1) -> OddsReport:
    """``odds rockets``: a rocket attack (Distant Lands 6.3)."""
    from manoeuvre_sim.manoeuvre import odds as o
    from manoeuvre_sim.manoeuvre.combat import ROCKET_NAMES

    p = o.rocket_odds()
    est = o.simulate_rockets(simulate, seed) if simulate else None
    probs = np.array([p[n] for n in ROCKET_NAMES])
    return OddsReport(tuple(ROCKET_NAMES), probs, {}, est, "Rockets (d10)")


def table_csv(
    mixes: Sequence[str] = (),
    strengths: str = "0..12",
    defenses: str = "1..20",
    committed: int = 0,
) -> tuple[str, int]:
    """``odds table``: the assault odds grid as CSV text, and its number of data rows."""
    from manoeuvre_sim.manoeuvre import odds as o
    from manoeuvre_sim.manoeuvre.combat import BAND_NAMES
    from manoeuvre_sim.manoeuvre.combat_totals import MAX_COMMITTED, _check_int

    mixes = list(mixes) or list(o.DEFAULT_MIXES)
    # rule 9.2: +2d6 per Committed Attack card, at most the assault's own cap (one per unit)
    committed = _check_int("--committed", committed, 0, MAX_COMMITTED)
    if committed:
        mixes = [f"{m}" + "+2d6" * committed for m in mixes]
    s = parse_range(strengths, "--strengths")
    d = parse_range(defenses, "--defenses")
    labels, probs = o.odds_grid(mixes, s, d)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["dice", "strength", "defense", *BAND_NAMES])
    for i, lab in enumerate(labels):
        for j, sv in enumerate(s):
            for k, dv in enumerate(d):
                w.writerow([lab, sv, dv, *(f"{x:.6f}" for x in probs[i, j, k])])
    return buf.getvalue(), len(labels) * len(s) * len(d)


def chart_ranges(strengths: str = "0..12", defenses: str = "3..16") -> tuple[list[int], list[int]]:
    """``odds chart``'s strengths and defense totals, checked to fit a printable page."""
    s = parse_range(strengths, "--strengths")
    d = parse_range(defenses, "--defenses")
    for what, values, cap in (("--strengths", s, CHART_MAX_STRENGTHS),
                              ("--defenses", d, CHART_MAX_DEFENSES)):  # fmt: skip
        if len(values) > cap:
            raise UsageError(f"{what}: a printable page holds at most {cap} values, got "
                             f"{len(values)}")  # fmt: skip
    if min(d) < 1:
        raise UsageError("--defenses: every unit has strength >= 1, so defense totals start at 1")
    return s, d
