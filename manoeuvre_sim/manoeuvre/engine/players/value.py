"""The learned position value (issue 26): a seat's chance to win from a position, as a
logistic model of its features (``engine/players/features.py``), stored as plain arrays.

A model is a ``.npz`` file of plain arrays (no pickles), in ``data/value/`` by name
(``tuned`` is ``data/value/tuned.npz``) or at any path:

    format      int, FORMAT
    features    str (NFEAT,)   the feature names, ``features.FEATURE_NAMES`` in order
    mean, scale float64 (NFEAT,)   the standardisation: z_i = (x_i - mean_i) / scale_i
    coef        float64 (NFEAT,)   the logistic weights of the z_i
    intercept   float64 ()
    provenance  str ()         JSON: how it was made (seeds, rules version, data hash,
                               library versions; ``manoeuvre_sim/manoeuvre/value_fit.py``)

The value is ``1 / (1 + exp(-(intercept + sum_i coef_i z_i)))``. ``pack_value`` lays a
model out as the one float64 vector the search configuration carries (``policy_ids.SC_VALUE``:
mean, scale, coef, intercept) and ``value_of`` evaluates it in a kernel. The fitting
(scikit-learn, an optional extra) is not here: the engine only reads the arrays.
"""

from __future__ import annotations

import json
import math
import zipfile
from pathlib import Path

import numpy as np

from manoeuvre_sim.core.errors import DataError
from manoeuvre_sim.core.jit import kernel
from manoeuvre_sim.manoeuvre.engine.players.features import FEATURE_NAMES, NFEAT, features

FORMAT = 1
VALUE_SIZE = 3 * NFEAT + 1  # pack_value's length
_FIELDS = ("format", "features", "mean", "scale", "coef", "intercept", "provenance")


def value_path(name: str) -> Path:
    """The file of model ``name``: a path if it ends in ``.npz``, else data/value/NAME.npz."""
    if str(name).endswith(".npz"):
        return Path(name)
    from manoeuvre_sim.core.data import data_dir

    return data_dir() / "value" / f"{name}.npz"


def load_value(name: str) -> dict:
    """The model ``name`` (``value_path``) as a dict of its fields (the module docstring),
    checked: a missing or malformed file raises a one-line DataError naming the file and
    the field."""
    path = value_path(name)
    src = str(path)
    if not path.is_file():
        raise DataError(src, [("", "no such value model file (expected a .npz of arrays)")])
    try:
        with np.load(path, allow_pickle=False) as z:
            raw = {k: z[k] for k in z.files}
    except (OSError, ValueError, zipfile.BadZipFile) as e:
        raise DataError(src, [("", f"not a readable .npz of plain arrays ({e})")]) from None
    for k in _FIELDS:
        if k not in raw:
            raise DataError(src, [(k, f"missing; expected the fields {', '.join(_FIELDS)}")])
    if raw["format"].shape != () or int(raw["format"]) != FORMAT:
        raise DataError(src, [("format", f"expected {FORMAT}, got {raw['format']!r}")])
    names = tuple(str(x) for x in np.atleast_1d(raw["features"]))
    if names != FEATURE_NAMES:
        raise DataError(
            src,
            [("features", f"expected the {NFEAT} features of this engine "
                          f"({', '.join(FEATURE_NAMES)}), got {len(names)}: {', '.join(names)}")],
        )  # fmt: skip
    out = {"format": FORMAT, "features": names, "path": src}
    for k in ("mean", "scale", "coef"):
        a = raw[k]
        if a.shape != (NFEAT,) or a.dtype.kind != "f" or not np.all(np.isfinite(a)):
            raise DataError(src, [(k, f"expected {NFEAT} finite floats, got {a.dtype} {a.shape}")])
        out[k] = a.astype(np.float64)
    if np.any(out["scale"] <= 0):
        raise DataError(src, [("scale", "expected every scale > 0")])
    b = raw["intercept"]
    if b.shape != () or b.dtype.kind != "f" or not math.isfinite(float(b)):
        raise DataError(src, [("intercept", f"expected one finite float, got {b!r}")])
    out["intercept"] = float(b)
    try:
        out["provenance"] = json.loads(str(raw["provenance"]))
    except json.JSONDecodeError as e:
        raise DataError(src, [("provenance", f"expected a JSON object ({e})")]) from None
    return out


def save_value(path: Path, mean, scale, coef, intercept: float, provenance: dict) -> None:
    """Write a model file (the module docstring) atomically; ``load_value`` reads it back."""
    from manoeuvre_sim.core.fileio import atomic_write

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    arrays = {
        "format": np.array(FORMAT),
        "features": np.array(FEATURE_NAMES),
        "mean": np.asarray(mean, dtype=np.float64),
        "scale": np.asarray(scale, dtype=np.float64),
        "coef": np.asarray(coef, dtype=np.float64),
        "intercept": np.array(float(intercept)),
        "provenance": np.array(json.dumps(provenance, sort_keys=True)),
    }
    with atomic_write(path, mode="wb") as f:
        np.savez(f, **arrays)


def pack_value(model: dict) -> np.ndarray:
    """The model as ``value_of`` reads it: mean, scale, coef, intercept in one vector."""
    return np.concatenate(
        [model["mean"], model["scale"], model["coef"], [model["intercept"]]]
    ).astype(np.float64)


@kernel
def value_of(vm, x):
    """The packed model ``vm`` (``pack_value``) at features ``x``: the chance to win."""
    n = x.shape[0]
    z = vm[3 * n]
    for i in range(n):
        z += vm[2 * n + i] * (x[i] - vm[i]) / vm[n + i]
    if z < -30.0:
        z = -30.0
    return 1.0 / (1.0 + math.exp(-z))


@kernel
def position_value(st, units, cards, uowner, dsize, s, to_move, vm, x):
    """Seat ``s``'s chance to win from ``st`` by the packed model ``vm``, ``to_move`` to
    play next; ``x``: scratch for the features (NFEAT floats)."""
    features(st, units, cards, uowner, dsize, s, to_move, x)
    return value_of(vm, x)
