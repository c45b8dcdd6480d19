"""`python -m benchmarks hex-sensitivity` runs end to end on a few games and writes its
results file with the provenance fields, the tables of every player and the comparisons."""

from __future__ import annotations

import pytest

from benchmarks import bench_hex_sensitivity as bench


def test_writes_the_results_file(tmp_path):
    from manoeuvre_sim.hexgame import RULES_VERSION
    from manoeuvre_sim.hexgame.scenario import load_scenario

    out = tmp_path / "sens.md"
    argv = ["--players", "capital,random,search:2=4", "--games", "12", "--variants",
            "basic,large_blue,step losses", "--seed", "7", "--threads", "1", "--out", str(out)]  # fmt: skip
    assert bench.main(argv) == 0
    text = out.read_text(encoding="utf-8")
    for field in (f"Maneuver `{RULES_VERSION}`", load_scenario(None).sha256, "seed 7",
                  "1-minute load average", "numba ", "numpy ", "scipy ",
                  "hex-sensitivity --players capital,random,search:2=4 --games 12"):  # fmt: skip
        assert field in text, field
    assert not list(tmp_path.glob("*.part"))  # written atomically, nothing left over
    rows = [ln for ln in text.splitlines() if ln.startswith("| large_blue | `")]
    assert len(rows) == 2 * 3  # the variant table and how games end: a row per player
    assert text.count("\n| large_blue | ") == 2 * 3 + 4  # + the three grids and the ranks
    assert "| step losses | `search:2` | 4 |" in text
    assert "| basic | `capital` | 12 |" in text
    assert "| `capital` / `random` |" in text and "Kendall's tau" in text


def test_bad_players_one_line():
    with pytest.raises(SystemExit, match="--players"):
        bench.main(["--players", "capital,nobody"])
    with pytest.raises(SystemExit, match="--variants"):
        bench.main(["--variants", "basic,huge_blue"])


def test_the_tables_depend_on_the_seed_alone(tmp_path):
    """The same seed gives the same tables on 1 and on 2 threads; another seed, others."""

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
