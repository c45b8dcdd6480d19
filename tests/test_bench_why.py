"""``python -m benchmarks why``: a pairing not named in ``--pairings`` keeps its section of
the results file as it was played (its date, commit, load and figures), so the Manoeuvre
pairing (11 minutes) need not be replayed to add or replay Maneuver's."""

from __future__ import annotations

from benchmarks import bench_why as BW
from benchmarks.common import ROOT

OLD = """# The why study: France against United States

- written by `python -m benchmarks why` on 2026-12-02 08:11 UTC at commit 9b56881
- rules: Manoeuvre `2026.11-5`, Maneuver `hex-2026.12-1`
- data hash: `390b21320aced1c2`
- machine: AMD EPYC
- load: 1-minute load average 19.35 at the start, 27.38 at the end

France against United States, 42 parts.

| side | part |
|---|---|
| France | HQ Supply x4 |
"""


def test_a_file_from_before_the_sections_is_the_manoeuvre_pairing_with_its_provenance():
    got = BW.sections(OLD)
    assert list(got) == ["manoeuvre"]
    first, blank, *body = got["manoeuvre"]
    assert first == ("- played on 2026-12-02 08:11 UTC at commit 9b56881; load: 1-minute load "
                     "average 19.35 at the start, 27.38 at the end; data hash: "
                     "`390b21320aced1c2`")  # fmt: skip
    assert blank == "" and body[0] == "France against United States, 42 parts."
    assert body[-1] == "| France | HQ Supply x4 |"


def test_the_quick_run_of_one_pairing_keeps_the_others_section(tmp_path, capsys):
    out = tmp_path / "RESULTS-why.md"
    out.write_text(OLD, encoding="utf-8")
    assert BW.main(["--quick", "--pairings", "hex", "--out", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert text.startswith("# The why study") and "`python -m benchmarks why --quick" in text
    kept = BW.sections(text)
    assert kept["manoeuvre"] == BW.sections(OLD)["manoeuvre"]  # as it was, line for line
    assert "blue against red, `capital` in both seats" in "\n".join(kept["hex"])
    # and the committed file holds both pairings
    both = BW.sections((ROOT / "benchmarks" / "RESULTS-why.md").read_text(encoding="utf-8"))
    assert set(both) == {"manoeuvre", "hex"}
