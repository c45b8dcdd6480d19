"""Two studies of the same game side by side (issue 33, item 3): each army's (Manoeuvre) or
variant's (Maneuver) rate in both, the difference with its 95 % interval, what moved beyond
its interval, the agreement of the two rankings (Kendall's tau) and the matrix of
differences cell by cell.

What is compared, read from each study's game records (``games.parquet/``):

* a balance study (``manoeuvre-sim balance``, or any game's ``balance``): per army its field
  win rate, the mean over its opponents (mirrors excluded) of its score against each, seats
  pooled, a draw half a win (``analyses/manoeuvre/tally.py``'s ``field_win_rate``); a cell
  is (army, opponent);
* a variant study (``manoeuvre-sim hex balance``): per variant blue's score (a draw half a
  win), the mean over the pairings of players; a cell is (variant, blue's player v red's).

Which of the two a study is, and the word of its rows, its game's adapter says
(:func:`rows_of`: ``BALANCE_STUDY``, ``BALANCE_ROWS``, ``BALANCE_SIDES``), so compare reads
the balance study of any registered game and lists no game or kind of its own.

**Paired** when the two studies played the same games on the same seeds (the same master
seed and, for every cell, the same games with the same seeds in the records: e.g. one study
under two players, or before and after an edit): then a difference is the mean of the
per-game differences, its interval as the paired what-if's (``studies/whatif.py``: a
cell's from :func:`~manoeuvre_sim.core.stats.paired_interval`, Student t; a field rate's the
stratified normal interval of ``analyses/manoeuvre/whatif.py``), and an identical pair of
studies gives exactly zero. **Independent** otherwise: the Wald interval of the difference
of two independent rates (each rate's standard error from the per-game scores' variance;
without draws the Wald interval of two proportions, checked against statsmodels).

Python API (what ``manoeuvre-sim compare A B`` and the workbench's /compare page call)::

    from manoeuvre_sim.analyses.common import compare as C
    cmp = C.compare("reports/balance", "reports/balance-strong")
    cmp.table      # per army: rate_a, rate_b, diff, diff_low, diff_high, paired, moved
    cmp.cells      # per cell: the same, for the heatmap of differences
    cmp.tau, cmp.tau_p_value
    cmp.write("reports/compare")
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
import pandas as pd

from manoeuvre_sim.core import stats
from manoeuvre_sim.core.errors import DataError, UsageError
from manoeuvre_sim.core.store import STORE
from manoeuvre_sim.core.study import game_of

COLUMNS = ["label", "army_a", "army_b", "policy_a", "policy_b", "game", "seed", "winner"]
MAX_GAMES = 5_000_000  # game records read per study at most (a page's bound)
PROVENANCE = ("study", "game_title", "seed", "rules_version", "data_hash", "games", "version",
              "finished", "command")  # fmt: skip


@dataclass(frozen=True)
class Rows:
    """What a row of a game's balance study is, as its adapter says (``BALANCE_STUDY``,
    ``BALANCE_ROWS``, ``BALANCE_SIDES``' one): the manifests' ``kind``, the rows' ``word``
    (``army``, ``variant``: the tables' column) and whether the rows are the pairings'
    labels (``by_label``) or the sides."""

    kind: str
    word: str
    by_label: bool


def rows_of(game: str) -> Rows:
    """The :class:`Rows` of the balance study of ``game`` (a key of the registry)."""
    from manoeuvre_sim.core.games import get_game, hook
    from manoeuvre_sim.studies import balance

    g = get_game(game)
    one = (balance.SIDE_WORDS | hook(g, "BALANCE_SIDES"))["one"]
    return Rows(hook(g, "BALANCE_STUDY") or balance.KIND, one.split(" ", 1)[-1],
                hook(g, "BALANCE_ROWS") == "labels")  # fmt: skip


def compared_kinds() -> tuple[str, ...]:
    """The study kinds compare reads: each installed game's balance study, registry order."""
    from manoeuvre_sim.core.games import installed

    return tuple(dict.fromkeys(rows_of(key).kind for key in installed()))


def _rows(m: dict) -> Rows | None:
    """The :class:`Rows` of the study of manifest ``m``: None when it is not its game's
    balance study (or its game is not installed)."""
    try:
        rows = rows_of(game_of(m))
    except UsageError:
        return None
    return rows if rows.kind == str(m.get("study")) else None


@dataclass
class Study:
    """One side of a comparison: its directory, manifest, the label of its records
    compared, and its games as ``row, col, key..., s`` (the row's score, a draw 1/2)."""

    path: Path
    name: str
    manifest: dict
    label: str
    games: pd.DataFrame
    labels: tuple[str, ...] = ()

    @property
    def kind(self) -> str:
        return str(self.manifest.get("study"))

    def provenance(self) -> dict:
        m = self.manifest
        out = {"study": self.name, "kind": self.kind, "label": self.label}
        out |= {k: m.get(k) for k in PROVENANCE if k != "study"}
        for key in ("data_hash", "scenario_sha256", "base_scenario_sha256"):
            if m.get(key):
                out["data_hash"] = m[key]
                break
        out["players"] = players(m, self.label)
        out["labels"] = list(self.labels)
        return out


def players(manifest: dict, label: str) -> str:
    """The players of ``label`` as the manifest names them (``a`` or ``a v b``)."""
    pols = manifest.get("policies")
    if isinstance(pols, list):
        for p in pols:
            if isinstance(p, dict) and str(p.get("label")) == label:
                a, b = p.get("policy_a"), p.get("policy_b")
                return str(a) if a == b else f"{a} v {b}"
        if pols and not isinstance(pols[0], dict):
            return ", ".join(str(p) for p in pols)
    return str(manifest.get("policy", label))


def _manifest(path: Path, what: str) -> dict:
    f = path / "manifest.json"
    if not path.is_dir():
        raise UsageError(f"{what}: {path} is not a directory")
    if not f.is_file():
        raise UsageError(f"{what}: {path.name} is not a finished study (no manifest.json: it "
                         "is being written, or stopped before it)")  # fmt: skip
    try:
        m = json.loads(f.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise UsageError(f"{what}: {path.name}/manifest.json is not readable JSON ({e})") from None
    if not isinstance(m, dict):
        raise UsageError(f"{what}: {path.name}/manifest.json is not a JSON object")
    if m.get("interrupted"):
        raise UsageError(f"{what}: {path.name} is not a finished study (its run was "
                         "interrupted); resume it first")  # fmt: skip
    store = path / STORE
    if store.is_dir() and any(p.name.startswith(".") for p in store.iterdir()):
        raise UsageError(f"{what}: {path.name} is not a finished study (a part of its games "
                         "is being written: a run is adding to it)")  # fmt: skip
    kind = str(m.get("study"))
    if _rows(m) is None:
        raise UsageError(f"{what}: {path.name} is a {kind!r} study; compare reads balance "
                         f"studies ({', '.join(repr(k) for k in compared_kinds())})")  # fmt: skip
    return m


def read_records(path: Path, what: str, max_games: int = MAX_GAMES) -> pd.DataFrame:
    """The study's game records (the columns compared), at most ``max_games`` of them."""
    import pyarrow.parquet as pq

    from manoeuvre_sim.core.store import read_parts

    store = path / STORE
    files = sorted(p for p in store.glob("*.parquet") if not p.name.startswith("."))
    if not files:
        raise UsageError(f"{what}: {path.name} has no game records ({STORE}/ is empty)")
    try:
        rows = sum(pq.read_metadata(f).num_rows for f in files)
        if rows > max_games:
            raise UsageError(f"{what}: {path.name} has {rows:,} games, more than the "
                             f"{max_games:,} compared at most")  # fmt: skip
        df = read_parts(files, columns=COLUMNS)
    except (OSError, ValueError) as e:
        raise DataError(f"{what}: {STORE}: cannot read the game records ({e})") from None
    if "label" not in df:
        df["label"] = ""
    df["label"] = df["label"].astype(str)
    return df


def _score_a(df: pd.DataFrame) -> np.ndarray:
    w = df["winner"].to_numpy()
    return np.where(w == "a", 1.0, np.where(w == "b", 0.0, 0.5))


def perspective(df: pd.DataFrame, by_label: bool, label: str | None) -> pd.DataFrame:
    """Each game as ``row, col, pair, game, seed, s``: a study of sides' game twice (from
    each side, mirrors left out), a study whose rows are its labels (``by_label``:
    Maneuver's variants) once (side a's score). ``pair`` and ``game`` identify the game
    across two studies played on the same seeds."""
    if by_label:
        s = _score_a(df)
        col = df["policy_a"].astype(str) + " v " + df["policy_b"].astype(str)
        pair = df["label"].astype(str) + "\x1f" + col
        return pd.DataFrame({"row": df["label"], "col": col, "pair": pair, "game": df["game"],
                             "seed": df["seed"], "s": s})  # fmt: skip
    d = df[df["label"] == label] if label is not None else df
    d = d[d["army_a"] != d["army_b"]]
    s = _score_a(d)
    pair = d["army_a"].astype(str) + "\x1f" + d["army_b"].astype(str)
    one = pd.DataFrame({"row": d["army_a"], "col": d["army_b"], "pair": pair,
                        "game": d["game"], "seed": d["seed"], "s": s})  # fmt: skip
    two = pd.DataFrame({"row": d["army_b"], "col": d["army_a"], "pair": pair,
                        "game": d["game"], "seed": d["seed"], "s": 1.0 - s})  # fmt: skip
    out = pd.concat([one, two], ignore_index=True)
    out["row"], out["col"] = out["row"].astype(str), out["col"].astype(str)
    return out


def load(path: str | Path, what: str = "A", label: str | None = None,
         max_games: int = MAX_GAMES) -> Study:  # fmt: skip
    """A finished balance or variant study, ready to compare (``label``: which players of a
    study of several, by its tables' label; None: the first)."""
    path = Path(path)
    m = _manifest(path, what)
    df = read_records(path, what, max_games)
    labels = [str(p.get("label")) for p in m.get("policies", []) if isinstance(p, dict)]
    labels = [x for x in labels if x in set(df["label"])] or sorted(set(df["label"]))
    rows = _rows(m)
    if rows.by_label:
        use = None
        if label is not None:
            raise UsageError(f"--label-{what.lower()}: a {rows.word} study's rows are its "
                             f"{rows.word}s; it takes no label")  # fmt: skip
    elif label is None:
        use = labels[0]
    elif label not in labels:
        raise UsageError(f"--label-{what.lower()}: {label!r} is not one of "
                         f"{', '.join(repr(x) for x in labels)}")  # fmt: skip
    else:
        use = label
    games = perspective(df, rows.by_label, use)
    return Study(path, path.name, m, use or "", games, tuple(labels) if use else ())


# ------------------------------------------------------------------------------ the figures


def pairing_check(a: Study, b: Study) -> tuple[bool, str]:
    """Whether ``a`` and ``b`` played the same games on the same seeds (then the
    comparison is paired), and why not when they did not."""
    sa, sb = a.manifest.get("seed"), b.manifest.get("seed")
    if sa != sb:
        return False, f"the master seeds differ ({sa} and {sb})"
    keys = ["row", "col", "pair", "game", "seed"]
    ka = a.games[keys].drop_duplicates()
    kb = b.games[keys].drop_duplicates()
    both = ka.merge(kb, on=keys, how="inner")
    if len(both) != len(ka) or len(both) != len(kb):
        return False, (f"the games differ ({len(ka) - len(both):,} of A's and "
                       f"{len(kb) - len(both):,} of B's are not in the other on the same "
                       "seed)")  # fmt: skip
    games = len(ka[["pair", "game", "seed"]].drop_duplicates())
    mirrors = " (mirrors left out)" if a.kind == "balance" else ""
    return True, f"the same {games:,} games{mirrors} on the same seeds (seed {sa})"


def _cells_independent(a: Study, b: Study) -> pd.DataFrame:
    def moments(s: Study) -> pd.DataFrame:
        g = s.games.groupby(["row", "col"], observed=True)["s"]
        return pd.DataFrame({"games": g.size(), "rate": g.mean(), "var": g.var(ddof=0)})

    ma, mb = moments(a), moments(b)
    out = ma.add_suffix("_a").join(mb.add_suffix("_b"), how="inner")
    out["diff"] = out["rate_b"] - out["rate_a"]
    out["se"] = np.sqrt(out["var_a"] / out["games_a"] + out["var_b"] / out["games_b"])
    out["changed_games"] = np.nan
    return out


def _cells_paired(a: Study, b: Study) -> pd.DataFrame:
    keys = ["row", "col", "pair", "game", "seed"]
    m = a.games.merge(b.games, on=keys, suffixes=("_a", "_b"))
    m["d"] = m["s_b"] - m["s_a"]
    m["d2"] = m["d"] * m["d"]
    m["changed"] = (m["d"] != 0).astype(np.int64)
    g = m.groupby(["row", "col"], observed=True)
    out = pd.DataFrame({"games_a": g.size(), "rate_a": g["s_a"].mean(),
                        "var_a": g["s_a"].var(ddof=0), "games_b": g.size(),
                        "rate_b": g["s_b"].mean(), "var_b": g["s_b"].var(ddof=0),
                        "d_sum": g["d"].sum(), "d2_sum": g["d2"].sum(),
                        "changed_games": g["changed"].sum()})  # fmt: skip
    return out


def cell_table(a: Study, b: Study, paired: bool, confidence: float = 0.95) -> pd.DataFrame:
    """Per cell (row, col): the row's score in A and in B (95 % Wilson intervals), the
    difference B - A with its interval (paired: Student t on the per-game differences;
    else Wald), whether it moved beyond it, and (paired) the games whose result changed."""
    c = _cells_paired(a, b) if paired else _cells_independent(a, b)
    if paired:
        n = c["games_a"].to_numpy(dtype=np.float64)
        mean, lo, hi = stats.paired_interval(c["d_sum"], c["d2_sum"], n, confidence)
        c["diff"], c["diff_low"], c["diff_high"] = mean, lo, hi
    else:
        half = stats.z_value(confidence) * c["se"]
        c["diff_low"], c["diff_high"] = c["diff"] - half, c["diff"] + half
    for s in ("a", "b"):
        k = c[f"rate_{s}"] * c[f"games_{s}"]
        lo, hi = stats.wilson_interval(k.to_numpy(), c[f"games_{s}"].to_numpy(), confidence)
        c[f"rate_{s}_low"], c[f"rate_{s}_high"] = lo, hi
    c["moved"] = (c["diff_low"] > 0) | (c["diff_high"] < 0)
    return c.reset_index()


def _field(c: pd.DataFrame, s: str, confidence: float) -> tuple[float, float, float, float]:
    """The mean over a row's cells of study ``s``'s rates: (rate, low, high, se)."""
    r, v, n = c[f"rate_{s}"], c[f"var_{s}"], c[f"games_{s}"]
    mean, lo, hi = stats.mean_of_rates_interval(r, v, n, confidence)
    se = float(np.sqrt(np.sum(v / n)) / len(r))
    return mean, lo, hi, se


def field_table(cells: pd.DataFrame, unit: str, paired: bool,
                confidence: float = 0.95) -> pd.DataFrame:  # fmt: skip
    """Per row (army or variant): its rate in A and B (the mean over its cells, as the
    balance study's field win rate), their ranks, the difference with its interval and
    whether it moved beyond it."""
    z = stats.z_value(confidence)
    rows = []
    for name, c in cells.groupby("row", sort=False, observed=True):
        ra, la, ha, sea = _field(c, "a", confidence)
        rb, lb, hb, seb = _field(c, "b", confidence)
        if paired:  # as analyses/manoeuvre/whatif.py's field row
            n = c["games_a"].to_numpy(dtype=np.float64)
            d = c["d_sum"].to_numpy() / n
            var = np.maximum(c["d2_sum"].to_numpy() / n - d * d, 0.0)
            diff = float(d.mean())
            half = 0.0 if (c["d2_sum"] == 0).all() else z * float(np.sqrt(np.sum(var / n)))
            half /= len(c)
        else:
            diff, half = rb - ra, z * float(np.hypot(sea, seb))
        rows.append({unit: name, "games_a": int(c["games_a"].sum()), "rate_a": ra,
                     "rate_a_low": la, "rate_a_high": ha, "games_b": int(c["games_b"].sum()),
                     "rate_b": rb, "rate_b_low": lb, "rate_b_high": hb, "diff": diff,
                     "diff_low": diff - half, "diff_high": diff + half,
                     "paired": paired})  # fmt: skip
    out = pd.DataFrame(rows)
    for s in ("a", "b"):
        out.insert(
            out.columns.get_loc(f"rate_{s}_high") + 1,
            f"rank_{s}",
            out[f"rate_{s}"].rank(ascending=False, method="min").astype("Int64"),
        )
    out["moved"] = (out["diff_low"] > 0) | (out["diff_high"] < 0)
    return out


def kendall(table: pd.DataFrame) -> tuple[float, float]:
    """Kendall's tau (tau-b, scipy) between the two studies' orderings of the rows by
    rate, and its p-value; NaN with fewer than two rows or a constant ordering."""
    from scipy.stats import kendalltau

    if len(table) < 2:
        return float("nan"), float("nan")
    res = kendalltau(table["rate_a"].to_numpy(), table["rate_b"].to_numpy())
    return float(res.statistic), float(res.pvalue)


BOOT = 200  # bootstrap resamples of tau's interval


class _Resampler:
    """A study's games resampled within each pairing (``pair``): per resample, each row's
    rate (the mean over its cells, as :func:`field_table`) for every score column."""

    def __init__(self, df: pd.DataFrame, scores: Sequence[str], rows: Sequence[str]):
        games = df[["pair", "game", "seed"]].drop_duplicates().sort_values("pair", kind="stable")
        games = games.reset_index(drop=True).rename_axis("pos").reset_index()
        self.counts = games.groupby("pair", sort=False).size().to_numpy()
        d = df.merge(games, on=["pair", "game", "seed"])
        self.pos = d["pos"].to_numpy()
        cell = d.groupby(["row", "col"], sort=True).ngroup().to_numpy()
        self.cell = cell
        first = d.assign(cell=cell).drop_duplicates("cell").sort_values("cell")
        index = {r: i for i, r in enumerate(rows)}
        self.cell_row = first["row"].map(index).to_numpy()
        self.per_row = np.bincount(self.cell_row, minlength=len(rows))
        self.scores = [d[c].to_numpy(dtype=np.float64) for c in scores]
        self.k = len(rows)

    def rates(self, rng: np.random.Generator) -> list[np.ndarray]:
        w = np.concatenate([rng.multinomial(n, np.full(n, 1.0 / n)) for n in self.counts])
        w = w[self.pos].astype(np.float64)
        n = np.bincount(self.cell, weights=w)
        out = []
        for s in self.scores:
            cell = np.bincount(self.cell, weights=w * s) / n
            out.append(np.bincount(self.cell_row, weights=cell, minlength=self.k) / self.per_row)
        return out


def tau_interval(a: Study, b: Study, rows: Sequence[str], paired: bool, boot: int = BOOT,
                 confidence: float = 0.95) -> tuple[float, float]:  # fmt: skip
    """A percentile bootstrap interval of Kendall's tau between the two studies' orderings
    of ``rows``: ``boot`` resamples of the games within each pairing (as
    ``benchmarks/bench_rank_agreement.py``), the same resample of both studies when the
    comparison is paired. Seeded from the two studies' seeds: the same answer every time."""
    from scipy.stats import kendalltau

    if boot <= 0 or len(rows) < 2:
        return float("nan"), float("nan")
    rng = np.random.default_rng([int(a.manifest.get("seed") or 0),
                                 int(b.manifest.get("seed") or 0), 0x7A0])  # fmt: skip
    keys = ["row", "col", "pair", "game", "seed"]
    if paired:
        both = [_Resampler(a.games.merge(b.games, on=keys, suffixes=("_a", "_b")),
                           ["s_a", "s_b"], rows)]  # fmt: skip
    else:
        both = [_Resampler(a.games, ["s"], rows), _Resampler(b.games, ["s"], rows)]
    taus = np.empty(boot)
    with np.errstate(invalid="ignore", divide="ignore"):
        for i in range(boot):
            ra, rb = [r for x in both for r in x.rates(rng)]
            taus[i] = kendalltau(ra, rb).statistic
    if np.isnan(taus).all():
        return float("nan"), float("nan")
    lo, hi = np.nanquantile(taus, [(1 - confidence) / 2, (1 + confidence) / 2])
    return float(lo), float(hi)


@dataclass
class Comparison:
    """Two studies compared: ``table`` (per army or variant: :func:`field_table`),
    ``cells`` (per cell: :func:`cell_table`), Kendall's ``tau`` and its p-value, whether the
    comparison is ``paired`` and why, each study's provenance, and the rows only one study
    has (left out of the figures)."""

    game: str
    kind: str
    unit: str
    table: pd.DataFrame
    cells: pd.DataFrame
    tau: float
    tau_p_value: float
    paired: bool
    pairing_reason: str
    a: dict
    b: dict
    only_in: dict = field(default_factory=dict)
    tau_low: float = float("nan")
    tau_high: float = float("nan")
    boot: int = BOOT
    by_label: bool = False  # the rows are the pairings' labels (Rows.by_label)

    @property
    def moved(self) -> list[str]:
        return [str(x) for x in self.table.loc[self.table["moved"], self.unit]]

    def manifest(self) -> dict:
        return {"tool": "manoeuvre-sim", "study": "compare", "game": self.game,
                "kind": self.kind, "paired": self.paired, "pairing": self.pairing_reason,
                "tau": self.tau, "tau_p_value": self.tau_p_value, "tau_low": self.tau_low,
                "tau_high": self.tau_high, "tau_boot": self.boot, "moved": self.moved,
                "only_in": self.only_in, "a": self.a, "b": self.b}  # fmt: skip

    def summary(self) -> list[str]:
        a, b = self.a, self.b
        out = [f"{a.get('game_title') or self.game}: {self.kind} study A {a['study']} "
               f"({a['players']}, seed {a['seed']}) against B {b['study']} ({b['players']}, "
               f"seed {b['seed']})",
               f"{'paired' if self.paired else 'independent'}: {self.pairing_reason}",
               f"each {self.unit}'s rate in % (a win 1, a draw 1/2), B - A [95 % interval]", ""]  # fmt: skip
        w = max([len(self.unit), *(len(str(x)) for x in self.table[self.unit])])
        for r in self.table.sort_values("rank_a").to_dict("records"):
            out.append(f"{str(r[self.unit]):<{w}} {100 * r['rate_a']:5.1f} -> "
                       f"{100 * r['rate_b']:5.1f}  {100 * r['diff']:+5.1f} "
                       f"[{100 * r['diff_low']:+.1f}, {100 * r['diff_high']:+.1f}]"
                       f"{'  moved' if r['moved'] else ''}")  # fmt: skip
        out += ["", f"Kendall's tau between the two rankings: {self.tau:.3f} "
                    f"[{self.tau_low:.2f}, {self.tau_high:.2f}] (95 % bootstrap interval, "
                    f"{self.boot} resamples; p = {self.tau_p_value:.3g})",
                f"moved beyond its interval: {', '.join(self.moved) or 'none'}"]  # fmt: skip
        for k, names in self.only_in.items():
            if names:
                out.append(f"only in {k} (left out): {', '.join(names)}")
        return out

    def write(self, out_dir: str | Path) -> list[Path]:
        """comparison.csv, cells.csv, manifest.json and summary.txt into ``out_dir``, each
        atomically."""
        from manoeuvre_sim.core.results import write_csv, write_json, write_text

        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        return [write_csv(self.table, out / "comparison.csv"),
                write_csv(self.cells, out / "cells.csv"),
                write_json(out / "manifest.json", self.manifest()),
                write_text(out / "summary.txt", "\n".join(self.summary()) + "\n")]  # fmt: skip


CELL_COLUMNS = ["row", "col", "games_a", "rate_a", "rate_a_low", "rate_a_high", "games_b",
                "rate_b", "rate_b_low", "rate_b_high", "diff", "diff_low", "diff_high", "moved",
                "changed_games"]  # fmt: skip


def compare_studies(a: Study, b: Study, confidence: float = 0.95,
                    boot: int = BOOT) -> Comparison:  # fmt: skip
    """:class:`Comparison` of two loaded studies (:func:`load`)."""
    ga, gb = game_of(a.manifest), game_of(b.manifest)  # study.LEGACY_GAME
    if ga != gb:
        raise UsageError(f"compare: A ({a.name}) is a study of {ga!r} and B ({b.name}) of "
                         f"{gb!r}; compare two studies of the same game")  # fmt: skip
    if a.kind != b.kind:
        raise UsageError(f"compare: A ({a.name}) is a {a.kind!r} study and B ({b.name}) a "
                         f"{b.kind!r} study; compare two studies of the same kind")  # fmt: skip
    rows = _rows(a.manifest)
    unit = rows.word
    ra, rb = set(a.games["row"]), set(b.games["row"])
    common = ra & rb
    if len(common) < 1:
        raise UsageError(f"compare: A and B have no {unit} in common")
    only = {"A": sorted(ra - rb), "B": sorted(rb - ra)}
    a = replace(a, games=_keep(a.games, common, rows.by_label))
    b = replace(b, games=_keep(b.games, common, rows.by_label))
    paired, why = pairing_check(a, b)
    cells = cell_table(a, b, paired, confidence)
    table = field_table(cells, unit, paired, confidence)
    tau, p = kendall(table)
    lo, hi = tau_interval(a, b, [str(x) for x in table[unit]], paired, boot, confidence)
    cells = cells[CELL_COLUMNS]
    return Comparison(str(ga), a.kind, unit, table, cells, tau, p, paired, why,
                      a.provenance(), b.provenance(), only, lo, hi, boot,
                      rows.by_label)  # fmt: skip


def _keep(games: pd.DataFrame, rows: set, by_label: bool) -> pd.DataFrame:
    """The games between rows both studies have (a side's field: the common sides)."""
    keep = games["row"].isin(rows)
    if not by_label:
        keep &= games["col"].isin(rows)
    return games[keep]


def compare(a: str | Path, b: str | Path, *, label_a: str | None = None,
            label_b: str | None = None, confidence: float = 0.95,
            max_games: int = MAX_GAMES, boot: int = BOOT) -> Comparison:  # fmt: skip
    """Compare the finished study directories ``a`` and ``b`` (both balance studies of one
    game, or both variant studies); a UsageError in one line otherwise. ``boot``: the
    resamples of tau's bootstrap interval (0: none)."""
    return compare_studies(load(a, "A", label_a, max_games), load(b, "B", label_b, max_games),
                           confidence, boot)  # fmt: skip


__all__ = ["BOOT", "Comparison", "Rows", "Study", "cell_table", "compare", "compare_studies",
           "compared_kinds", "field_table", "kendall", "load", "pairing_check", "rows_of",
           "tau_interval"]  # fmt: skip
