"""`manoeuvre-sim report` with Maneuver studies (issue 25 part 6): the directories of
`hex balance`, `hex ladder`, `hex setup` and `hex whatif` read back by their manifests (the
games registry names the module that reads them), a section of their own drawn by each
study's own page functions, nothing recomputed; alone, mixed with Manoeuvre's, or of two
scenarios; bad input in one line."""

from __future__ import annotations

import json
import re
import shutil

import pytest

from manoeuvre_sim.cli.main import main
from manoeuvre_sim.hexgame import RULES_VERSION as HEX_RULES

pypdf = pytest.importorskip("pypdf")


def _pages(pdf) -> list[str]:
    return [p.extract_text() for p in pypdf.PdfReader(pdf).pages]


def _body(text: str) -> str:
    """A page's text without its "page n of m" (the rest of the footer is the study's)."""
    return re.sub(r"page \d+ of \d+", "", text)


def _toc(text: str) -> dict[str, int]:
    out = {}
    for line in text.splitlines():
        m = re.match(r"^\s*(.+?)[\s.]*?(\d+)\s*$", line)
        if m:
            out[m.group(1).strip()] = int(m.group(2))
    return out


@pytest.fixture(scope="module")
def hex_studies(tmp_path_factory):
    """One small study of each kind, written as its command writes it."""
    from manoeuvre_sim.analyses.hexgame.ladder import LadderFiles
    from manoeuvre_sim.analyses.hexgame.setup import SetupFiles
    from manoeuvre_sim.hexgame.studies import ladder as HL
    from manoeuvre_sim.hexgame.studies import setup as HS
    from manoeuvre_sim.hexgame.variants import Variant, VariantSettings
    from manoeuvre_sim.studies import balance
    from manoeuvre_sim.studies import whatif as W

    root = tmp_path_factory.mktemp("hex")
    out = {k: root / k for k in ("balance", "ladder", "setup", "whatif")}
    spec = balance.BalanceSpec("hex", (Variant(), Variant(border="large_blue")),
                               policies=("capital", "attrition"), games_per_pairing=20, seed=3,
                               threads=1, settings=VariantSettings())  # fmt: skip
    balance.run_spec(spec, out["balance"], command="hex balance (test)").write(out["balance"])
    LadderFiles(HL.run_spec(HL.LadderSpec(border="large_blue", favoured="blue", max_k=3,
                                          games=20, seed=3, threads=1),
                            out_dir=out["ladder"])).write(out["ladder"])  # fmt: skip
    SetupFiles(HS.run_spec(HS.SetupSpec(games=120, seed=3, threads=1),
                           out_dir=out["setup"])).write(out["setup"])  # fmt: skip
    edits = ("blue/infantry/strength=5",)
    W.run("hex", edits=edits, games_per_pairing=20, seed=3, threads=1,
          out_dir=out["whatif"]).write(out["whatif"])  # fmt: skip
    return out


def _report(args, tmp_path, capsys, name="r.pdf"):
    pdf = tmp_path / name
    main(["report", *args, "--out", str(pdf), "--quiet"])
    return pdf, capsys.readouterr()


def test_a_report_of_maneuver_studies_alone(hex_studies, tmp_path, capsys, monkeypatch):
    from manoeuvre_sim.cli import report as Rp

    def no_balance(*a, **k):
        raise AssertionError("the report ran a Manoeuvre balance study")

    monkeypatch.setattr(Rp, "_run_balance", no_balance)
    s = hex_studies
    args = [a for k in ("whatif", "setup", "ladder", "balance") for a in ("--from", str(s[k]))]
    pdf, io = _report(args, tmp_path, capsys)
    texts = _pages(pdf)
    assert f"{len(texts)} pages" in io.out and "playing one" not in io.err
    assert not (tmp_path / "r-studies").exists()  # no Manoeuvre balance study was run
    toc = _toc(texts[1] if "Contents" in texts[1] else texts[2])
    # every section, in registry order whatever the --from order, each pointing at its page
    expect = {
        "Maneuver variant study — 2 variants, players capital, attrition": "Who wins each variant?",
        "When did the Capital fall?": "When did the Capital fall?",
        "Maneuver handicap ladder — border large_blue, blue handicapped": "handicap ladder",
        "Maneuver set-up — where the Capital stands (120 games)": "first player's Capital",
        "Where the second player's Capital stood": "second player's Capital",
        "Maneuver what-if — blue/infantry/strength=5": "What changes with the variant?",
        "Maneuver — combat results table": "Combat results by difference",
        "Maneuver — methods": "Common random numbers",
    }
    for heading, needle in expect.items():
        assert heading in toc, (heading, toc)
        assert needle in texts[toc[heading] - 1], heading
    order = [toc[h] for h in list(expect)[::2]]
    assert order == sorted(order) and toc["Maneuver — methods"] == len(texts)
    assert "Combat odds" not in toc and "Methods" not in toc  # no Manoeuvre part
    # each study's pages are the ones its own PDF draws (nothing recomputed), footer too
    for kind, own_pdf, first in (
        ("balance", "hex_balance.pdf", "When did the Capital fall?"),
        ("ladder", "hex_ladder.pdf", "The handicap ladder: which handicap"),
        ("setup", "hex_setup.pdf", "Where the first player's Capital stood"),
        ("whatif", "hex_whatif.pdf", "What changes with the variant?"),
    ):
        own = _pages(s[kind] / own_pdf)
        k = next(i for i, t in enumerate(own) if first in t)
        at = next(i for i, t in enumerate(texts) if i > 2 and first in t)
        assert _body(texts[at]) == _body(own[k]), kind
    # the cover: the provenance of every study and of the scenario they played
    cover = "\n".join(t for t in texts[:3] if "balance report" in t)
    man = json.loads((s["setup"] / "manifest.json").read_text())
    for needle in (
        "Maneuver — balance report", f"rules {HEX_RULES}", man["scenario_sha256"],
        "AUTHORED", "RECONSTRUCTION", "seed 3", "edit: blue/infantry/strength=5",
        "variant large_blue: border large_blue", "rungs k = 0..3: blue handicapped (given)",
        "$ hex balance (test)", str(s["ladder"]), "1 scenario played",
    ):  # fmt: skip
        assert needle in cover.replace("\n", " "), needle
    # the results-table chart is drawn for that scenario: its strengths
    chart = texts[toc["Maneuver — combat results table"] - 1]
    assert "6 x Infantry 4 (2)" in chart.replace("\n", " ") and man["scenario_sha256"][:16] in chart
    assert "authored reconstruction" in texts[-1] and "Wilson" in texts[-1]


def test_a_report_of_both_games(hex_studies, tmp_path, capsys):
    from manoeuvre_sim.studies import balance

    bal = tmp_path / "manoeuvre"
    res = balance.run("manoeuvre", ["France", "Russia"], games_per_pairing=4, seed=7, out_dir=bal, threads=1,
                      block=4)  # fmt: skip
    res.write(bal)
    pdf, _ = _report(["--from", str(hex_studies["ladder"]), "--from", str(bal)], tmp_path, capsys)
    texts = _pages(pdf)
    toc = _toc(texts[1] if "Contents" in texts[1] else texts[2])
    # Manoeuvre's part first (its balance study, odds, methods), then Maneuver's
    names = list(toc)
    for a, b in (("Balance study — 2 armies", "Combat odds"), ("Combat odds", "Methods"),
                 ("Methods", "Maneuver handicap ladder — border large_blue, blue handicapped"),
                 ("Maneuver — combat results table", "Maneuver — methods")):  # fmt: skip
        assert toc[a] < toc[b] and names.index(a) < names.index(b), (a, b)
    assert "What an interval means here" in texts[toc["Methods"] - 1]
    assert "Common random numbers" in texts[toc["Maneuver — methods"] - 1]
    cover = " ".join(texts[:2]).replace("\n", " ")
    assert "Manoeuvre and Maneuver — balance report" in cover
    assert "Manoeuvre (GMT Games)" in cover and "Map sections" in cover
    assert f"rules {HEX_RULES}" in cover and "France" in cover


def test_two_scenarios_show_both(hex_studies, tmp_path, capsys):
    """Studies of two scenarios: each scenario on the cover with its studies, a results
    chart for each, each study footed with its own."""
    from manoeuvre_sim.analyses.hexgame.setup import SetupFiles
    from manoeuvre_sim.hexgame.scenario import default_path, load_scenario
    from manoeuvre_sim.hexgame.studies import setup as HS

    text = default_path().read_text(encoding="utf-8")
    changed = re.sub(
        r'(name = "Infantry"[^\[]*?strength = )\[4, 2\]', r"\g<1>[5, 2]", text, count=1
    )
    assert changed != text
    scen = tmp_path / "mine.toml"
    scen.write_text(changed, encoding="utf-8")
    other = tmp_path / "setup_mine"
    SetupFiles(HS.run_spec(HS.SetupSpec(games=40, seed=2, threads=1, scenario=str(scen)),
                           out_dir=other)).write(other)  # fmt: skip
    pdf, _ = _report(["--from", str(hex_studies["ladder"]), "--from", str(other)], tmp_path,
                     capsys)  # fmt: skip
    texts = _pages(pdf)
    cover = " ".join(t for t in texts[:2]).replace("\n", " ")
    mine = load_scenario(scen).sha256
    assert "2 scenarios played" in cover and mine in cover and "not the built-in" in cover
    charts = [t for t in texts if "Combat results by difference" in t]
    assert len(charts) == 2 and any(mine[:16] in t for t in charts)
    assert any("Infantry 5 (2)" in t.replace("\n", " ") for t in charts)


def test_a_moved_scenario_file_falls_back_to_the_same_built_in_one(hex_studies, tmp_path):
    """The set-up map needs the scenario its games were played on: a study whose file is
    gone is drawn on the built-in scenario when that has the study's sha256."""
    from manoeuvre_sim.analyses.common import report

    d = _copy(hex_studies["setup"], tmp_path, "moved")
    man = json.loads((d / "manifest.json").read_text())
    (d / "manifest.json").write_text(
        json.dumps(man | {"scenario_file": str(tmp_path / "gone.toml")})
    )
    study = report.load_study(d)
    assert study.scenario is not None and study.scenario.sha256 == man["scenario_sha256"]
    path, n = report.write_report(tmp_path / "m.pdf", [study])
    cover = _pages(path)[0].replace("\n", " ")
    assert "gone.toml (the built-in scenario now)" in cover


def _copy(src, tmp_path, name):
    d = tmp_path / name
    shutil.copytree(src, d, ignore=shutil.ignore_patterns("games.parquet"))
    return d


def _err(args, capsys) -> tuple[int, str]:
    with pytest.raises(SystemExit) as ex:
        main(["report", *args, "--quiet"])
    return ex.value.code, capsys.readouterr().err


@pytest.mark.parametrize(
    "kind,what,needle",
    [
        ("ladder", "no_ladder", "ladder.csv: missing (a hex ladder study directory holds it)"),
        ("ladder", "bad_fit", "fit.json: not readable JSON"),
        ("balance", "no_scenario_hash", "manifest.json: scenario_sha256: missing"),
        ("whatif", "wrong_game", "manifest.json: game: expected 'hex' for a hex whatif study"),
        ("setup", "scenario_changed", "the set-up map is drawn on the scenario"),
        ("balance", "unknown_kind", "study: expected one of balance, cards, whatif, hex balance"),
    ],
)
def test_bad_maneuver_study_one_line(kind, what, needle, hex_studies, tmp_path, capsys):
    d = _copy(hex_studies[kind], tmp_path, what)
    man = json.loads((d / "manifest.json").read_text())
    if what == "no_ladder":
        (d / "ladder.csv").unlink()
    elif what == "bad_fit":
        (d / "fit.json").write_text("{")
    elif what == "no_scenario_hash":
        del man["scenario_sha256"]
    elif what == "wrong_game":
        man["game"] = "manoeuvre"
    elif what == "scenario_changed":  # its file and the built-in one both differ now
        man["scenario_sha256"] = "0" * 64
    elif what == "unknown_kind":
        man["study"] = "hex tune"
    (d / "manifest.json").write_text(json.dumps(man))
    pdf = tmp_path / "r.pdf"
    code, err = _err(["--from", str(d), "--out", str(pdf)], capsys)
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert code == 2 and len(lines) == 1 and lines[0].startswith(f"error: --from {d}: "), err
    assert needle in lines[0], lines[0]
    assert not pdf.exists()


@pytest.mark.parametrize("opt", [["--armies", "France"], ["--seed", "3"], ["--cards", "all"]])
def test_run_options_refused_when_only_maneuver_studies(opt, hex_studies, tmp_path, capsys):
    code, err = _err(["--from", str(hex_studies["whatif"]), *opt, "--out",
                      str(tmp_path / "r.pdf")], capsys)  # fmt: skip
    assert code == 2 and "\n" not in err.strip(), err
    assert f"{opt[0]}: only for the Manoeuvre balance study the report runs" in err
    assert "only Maneuver studies" in err and not (tmp_path / "r.pdf").exists()
