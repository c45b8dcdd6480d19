"""benchmarks/bench_hex_sensitivity.py runs end to end on a few games and writes its results
file with the provenance fields, the tables of every player and the comparisons."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def load_bench():
    spec = importlib.util.spec_from_file_location(
        "bench_hex_sensitivity", ROOT / "benchmarks" / "bench_hex_sensitivity.py"
    )
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_writes_the_results_file(tmp_path):
    from manoeuvre_sim.hexgame import RULES_VERSION
    from manoeuvre_sim.hexgame.scenario import load_scenario

    out = tmp_path / "sens.md"
    (tmp_path / "sens.md").write_text("# old\n\n## Where the answer changes\n\nkept words\n")
    argv = ["--players", "capital,random,search:2=4", "--games", "12", "--variants",
            "basic,large_blue,step losses", "--seed", "7", "--threads", "1", "--out", str(out)]  # fmt: skip
    assert load_bench().main(argv) == out
    text = out.read_text(encoding="utf-8")
    for field in (f"rules version `{RULES_VERSION}`", load_scenario(None).sha256, "seed 7",
                  "1-minute load average", "numba ", "numpy ", "scipy ",
                  "--players capital,random,search:2=4 --games 12"):  # fmt: skip
        assert field in text, field
    assert "kept words" in text  # the written reading survives a rewrite
    assert not list(tmp_path.glob("*.part"))  # written atomically, nothing left over
    rows = [ln for ln in text.splitlines() if ln.startswith("| large_blue | `")]
    assert len(rows) == 2 * 3  # the variant table and how games end: a row per player
    assert text.count("\n| large_blue | ") == 2 * 3 + 4  # + the three grids and the ranks
    assert "| step losses | `search:2` | 4 |" in text
    assert "| basic | `capital` | 12 |" in text
    assert "| `capital` / `random` |" in text and "Kendall's tau" in text


def test_bad_players_one_line():
    bench = load_bench()
    with pytest.raises(SystemExit, match="--players"):
        bench.main(["--players", "capital,nobody"])
    with pytest.raises(SystemExit, match="--variants"):
        bench.main(["--variants", "basic,huge_blue"])


def test_the_tables_depend_on_the_seed_alone(tmp_path):
    """The same seed gives the same tables on 1 and on 2 threads; another seed, others."""
    bench = load_bench()

    def tables(threads: int, seed: int = 3) -> str:
        out = tmp_path / f"t{threads}-{seed}.md"
        bench.main(["--players", "capital,search:2=6", "--games", "30", "--variants",
                    "basic,large_red", "--seed", str(seed), "--threads", str(threads),
                    "--out", str(out)])  # fmt: skip
        text = out.read_text(encoding="utf-8")
        return text[text.index("## The variant table") :]

    one = tables(1)
    assert one == tables(2)
    assert one != tables(2, seed=4)
