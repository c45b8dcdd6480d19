"""The benchmarks package (benchmarks/): ``python -m benchmarks`` lists every benchmark and
tool, each benchmark's command line takes ``--quick``, and each results file names the
command that wrote it. Cheap: nothing here runs a benchmark."""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

import benchmarks as B
from benchmarks.__main__ import listing
from benchmarks.common import ROOT, bench_name, results_path

BENCH_DIR = ROOT / "benchmarks"
NAMES = [e.name for e in B.benchmarks()]


def test_every_module_is_a_listed_benchmark_or_tool():
    listed = listing()
    own = set(B.NOT_TOOLS)
    for path in sorted(BENCH_DIR.glob("*.py")):
        if path.stem in own:
            continue
        name = bench_name(path.stem) if path.stem.startswith("bench_") else path.stem
        assert re.search(rf"^  {re.escape(name)} +\S", listed, re.M), f"{path.name} not listed"
    assert len(NAMES) >= 19 and "hex" in NAMES and "odds" in NAMES
    assert {t.name for t in B.tools()} >= {"check_study_identity", "check_trace_identity",
                                           "compare_hex_studies"}  # fmt: skip


def test_the_listing_comes_from_the_command_line():
    out = subprocess.run([sys.executable, "-m", "benchmarks"], capture_output=True, text=True,
                         cwd=ROOT, check=True).stdout  # fmt: skip
    assert out.strip() == listing()
    for e in B.benchmarks():
        assert e.summary and len(e.summary) < 110, f"{e.module}: one line of summary"


def test_an_unknown_benchmark_is_refused_in_one_line(capsys):
    from benchmarks.__main__ import main

    assert main(["odd"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "odds" in err[0]


@pytest.mark.parametrize("name", NAMES)
def test_each_benchmark_takes_quick(name, capsys):
    mod = importlib.import_module(f"benchmarks.{B.find(name).module}")
    with pytest.raises(SystemExit) as e:
        mod.main(["--help"])
    assert e.value.code == 0
    text = capsys.readouterr().out
    assert "--quick" in text and f"python -m benchmarks {name}" in text


@pytest.mark.parametrize("tool", [t.name for t in B.tools()])
def test_each_tool_has_a_command_line(tool, capsys):
    mod = importlib.import_module(f"benchmarks.{tool}")
    with pytest.raises(SystemExit) as e:
        mod.main(["--help"])
    assert e.value.code == 0
    assert f"python -m benchmarks.{tool}" in capsys.readouterr().out


RESULTS = sorted(BENCH_DIR.glob("RESULTS-*.md"))


@pytest.mark.parametrize("path", RESULTS, ids=lambda p: p.name)
def test_each_results_file_names_the_command_that_wrote_it(path):
    head = path.read_text(encoding="utf-8").splitlines()[:8]
    assert head[0].startswith("# ")
    m = re.match(r"^- written by `python -m benchmarks ([\w-]+)(?: [^`]*)?` on \d{4}-\d\d-\d\d",
                 head[2])  # fmt: skip
    assert m, f"{path.name}: line 3 is {head[2]!r}"
    assert m.group(1) in NAMES
    out = re.search(r"--out ([^\s`]+)", head[2])
    if out:  # a run kept under its own name
        assert (ROOT / out.group(1)).resolve() == path.resolve()
    else:  # the benchmark's file, or one of a mode (search --ladder, value --name NAME)
        assert path.name.startswith(results_path(m.group(1)).stem), path.name
    assert head[3].startswith("- rules: Manoeuvre `") and "Maneuver `hex-" in head[3]
    assert any(x.startswith("- machine: ") for x in head)
    assert any(x.startswith("- load: 1-minute load average ") for x in head)
    assert "--quick" not in head[2]


def test_no_benchmark_edits_sys_path():
    for path in BENCH_DIR.glob("*.py"):
        assert "sys.path" not in path.read_text(encoding="utf-8"), path.name
    assert Path(B.__file__).parent == BENCH_DIR
