"""`manoeuvre-sim report`: one PDF from study directories — its pages, table of contents and
provenance, the studies read back rather than recomputed, and bad input refused with one
line and exit 2."""

from __future__ import annotations

import json
import platform
import re
import shutil

import pandas as pd
import pytest

from manoeuvre_sim.cli.main import main
from manoeuvre_sim.manoeuvre import DEFAULT_POLICY, RULES_VERSION

pypdf = pytest.importorskip("pypdf")


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    """A tiny balance study as `balance --out` writes it."""
    from manoeuvre_sim.studies import balance

    out = tmp_path_factory.mktemp("study")
    res = balance.run("manoeuvre", ["France", "Russia"], games_per_pairing=6, seed=7, out_dir=out,
                      threads=1, block=6)  # fmt: skip
    res.write(out)
    return out


def _texts(pdf) -> list[str]:
    return [p.extract_text() for p in pypdf.PdfReader(pdf).pages]


def _toc(text: str) -> dict[str, int]:
    """Contents page text -> {heading: page}."""
    out = {}
    for line in text.splitlines():
        m = re.match(r"^\s*(.+?)[\s.]*?(\d+)\s*$", line)
        if m:
            out[m.group(1).strip()] = int(m.group(2))
    return out


def test_report_from_a_balance_study(study, tmp_path, capsys):
    pdf = tmp_path / "r" / "report.pdf"
    main(["report", "--from", str(study), "--out", str(pdf), "--quiet"])
    assert "15 pages" in capsys.readouterr().out
    texts = _texts(pdf)
    # cover, contents, the balance study's three chart pages and its summary, the odds
    # charts (six assault dice mixes, bombardment / volley), methods (two pages since
    # "Under stronger play")
    assert len(texts) == 15 and texts[14].startswith("Methods (continued)")
    for n, text in enumerate(texts, start=1):
        assert f"page {n} of 15" in text
    # the table of contents: every heading, and each points at the page that holds it
    assert "Contents" in texts[1]
    toc = _toc(texts[1])
    expect = {
        "Provenance of every study": "Manoeuvre — balance report",
        "Balance study — 2 armies": "win rate of each pairing",
        f"Win rate of each pairing ({DEFAULT_POLICY})": "win rate of each pairing",
        f"Army strength: ratings and field win rates ({DEFAULT_POLICY})": "Army strength",
        f"Seat and game ends: first player, victory types ({DEFAULT_POLICY})": "Seat and game ends",
        "Summary (as the command printed it)": f"ranking under policy {DEFAULT_POLICY}",
        "Combat odds": "Assault / Ambush odds — attack dice 1d6",
        "Assault / Ambush — attack dice 2d10": "Assault / Ambush odds — attack dice 2d10",
        "Bombardment and volley; rockets": "Bombardment and Volley odds",
        "Methods": "What an interval means here",
    }
    for heading, needle in expect.items():
        assert heading in toc, (heading, texts[1])
        assert needle in texts[toc[heading] - 1], (heading, toc[heading])
    assert toc["Methods"] == 14 and toc[f"Win rate of each pairing ({DEFAULT_POLICY})"] == 3
    assert toc["Combat odds"] == 7 and "Rockets" in texts[12] and "exact" in texts[12]
    # the cover: everything that decided the study's games
    man = json.loads((study / "manifest.json").read_text())
    cover = texts[0]
    for needle in (
        f"rules {RULES_VERSION}",
        f"manoeuvre-sim {man['version']}",
        "seed 7",
        "24 games (6 per ordered pairing)",
        f"policies: {DEFAULT_POLICY}",
        "rule switches: set-up random",
        man["data_hash"],
        *(a["data_hash"] for a in man["armies"]),
        "built-in, same as installed",
        "unverified 2-4 left out",
        platform.node(),
        "run time",
        str(study),
    ):
        assert needle in cover, needle
    # each study page is footed with its study's provenance, the report's own with the tool's
    assert f"data {man['data_hash']}" in texts[2] and "seed 7" in texts[2]
    assert "report built" in texts[13]
    assert "#27" in texts[13] and "RULE_INTERPRETATIONS" in texts[13]
    assert sorted(p.name for p in pdf.parent.iterdir()) == ["report.pdf"]  # no .part left


def test_changed_army_data_is_flagged_on_the_cover(study, tmp_path):
    from manoeuvre_sim.analyses.common import report
    from manoeuvre_sim.analyses.manoeuvre.report import study_provenance

    d = tmp_path / "s"
    shutil.copytree(study, d, ignore=shutil.ignore_patterns("games.parquet"))
    man = json.loads((d / "manifest.json").read_text())
    man["armies"][0]["data_hash"] = "0" * 16
    (d / "manifest.json").write_text(json.dumps(man))
    lines = [t for _, t in study_provenance(report.load_study(d))]
    flagged = [t for t in lines if "CHANGED since" in t]
    assert len(flagged) == 1 and flagged[0].startswith(man["armies"][0]["name"])


def test_victory_types_counted_from_the_games_when_the_csv_is_missing(study, tmp_path):
    """A study written before victory_by_army.csv existed: the same table from its games."""
    from manoeuvre_sim.analyses.common import report

    d = tmp_path / "old"
    shutil.copytree(study, d)
    (d / "victory_by_army.csv").unlink()
    got = report.load_study(d).frames["victory_by_army"]
    want = pd.read_csv(study / "victory_by_army.csv")
    pd.testing.assert_frame_equal(got.reset_index(drop=True)[want.columns], want, check_dtype=False)
    shutil.rmtree(d / "games.parquet")
    with pytest.raises(Exception, match="victory_by_army.csv: missing"):
        report.load_study(d)


@pytest.fixture
def no_games(monkeypatch):
    """Any game played fails the test: bad options must be refused before."""
    import manoeuvre_sim.manoeuvre.runner as R

    def boom(*a, **k):
        raise AssertionError("a game was played before the options were checked")

    monkeypatch.setattr(R, "simulate", boom)


def test_report_runs_the_balance_study_it_lacks(tmp_path, capsys):
    """Without a balance study in --from, the report plays one (small options here), keeps
    it in OUT-studies/balance for --from next time, and reports it like any other."""
    pdf = tmp_path / "r.pdf"
    main(["report", "--armies", "France,Russia", "--games-per-pairing", "4", "--seed", "9",
          "--threads", "1", "--out", str(pdf), "--quiet"])  # fmt: skip
    out = capsys.readouterr()
    work = tmp_path / "r-studies" / "balance"
    assert "no balance study in --from: playing one" in out.err and str(work) in out.err
    assert "15 pages" in out.out
    man = json.loads((work / "manifest.json").read_text())
    assert man["seed"] == 9 and man["games"] == 16
    assert len(pd.read_parquet(work / "games.parquet")) == 16
    texts = _texts(pdf)
    assert len(texts) == 15
    assert "seed 9; 16 games (4 per ordered pairing)" in texts[0] and str(work) in texts[0]
    assert not (tmp_path / "r-studies" / "cards_russia").exists()  # only with --cards
    # run again: the report's own earlier study is replaced, not refused
    main(["report", "--armies", "France,Russia", "--games-per-pairing", "2", "--seed", "9",
          "--threads", "1", "--out", str(pdf), "--quiet"])  # fmt: skip
    assert json.loads((work / "manifest.json").read_text())["games"] == 8


def _run(args, capsys):
    with pytest.raises(SystemExit) as ex:
        main(args)
    return ex.value.code, capsys.readouterr().err


def _broken(study, tmp_path, what: str):
    d = tmp_path / what
    shutil.copytree(study, d, ignore=shutil.ignore_patterns("games.parquet"))
    if what == "no_manifest":
        (d / "manifest.json").unlink()
    elif what == "bad_json":
        (d / "manifest.json").write_text("{not json")
    elif what == "tune_dir":
        man = json.loads((d / "manifest.json").read_text())
        (d / "manifest.json").write_text(json.dumps(man | {"study": "tune"}))
    elif what == "no_matrix":
        (d / "matrix.csv").unlink()
    return d


BAD = [
    ("missing_dir", "expected a study directory"),
    ("no_manifest", "manifest.json: missing"),
    ("bad_json", "manifest.json: not readable JSON"),
    (
        "tune_dir",
        "study: expected one of balance, cards, whatif, hex balance, hex ladder, hex setup, hex whatif, got 'tune'",
    ),
    ("no_matrix", "matrix.csv: missing"),
]


@pytest.mark.parametrize("what,needle", BAD)
def test_bad_study_directory_one_line_exit_2(what, needle, study, tmp_path, capsys):
    d = tmp_path / "nowhere" if what == "missing_dir" else _broken(study, tmp_path, what)
    pdf = tmp_path / "r.pdf"
    code, err = _run(["report", "--from", str(d), "--out", str(pdf), "--quiet"], capsys)
    assert code == 2, err
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith(f"error: --from {d}: "), err
    assert needle in lines[0]
    assert not pdf.exists()


@pytest.mark.parametrize(
    "args,needle",
    [
        (["--out", "r.txt"], "--out r.txt: expected a file name ending in .pdf"),
        (["--paper", "a5"], "a5"),
        (["--seed", "3"], "--seed: only for the balance study the report runs"),
        (["--games-per-pairing", "5"], "--games-per-pairing: only for the balance study"),
        # without a balance study in --from, the one the report would run is checked first
        (["--policy", "clever"], "unknown policy 'clever'"),
        (["--armies", "France,Narnia"], "Narnia"),
        (["--games-per-pairing", "0"], "--games-per-pairing: expected a positive"),
        (["--seed", "-1"], "--seed: expected an integer"),
        (["--threads", "-1"], "--threads"),
        (["--cards", "Narnia"], "--cards: 'Narnia' is not an army of the balance study"),
        (["--card-games", "5"], "--card-games: only with --cards"),
        (["--cards", "Russia", "--card-games", "0"], "--card-games: expected a positive number"),
    ],
)
def test_bad_options_one_line_exit_2(args, needle, study, tmp_path, capsys, monkeypatch, no_games):
    monkeypatch.chdir(tmp_path)
    runs = any(a in args for a in ("--policy", "--armies", "--threads", "0", "-1"))
    given = [] if runs else ["--from", str(study)]
    code, err = _run(["report", *given, *args, "--quiet"], capsys)
    assert code == 2 and needle in err, err
    assert "Traceback" not in err
    assert not list(tmp_path.rglob("*.pdf"))


def test_same_directory_twice_is_refused(study, tmp_path, capsys):
    code, err = _run(["report", "--from", str(study), "--from", str(study), "--out",
                      str(tmp_path / "r.pdf"), "--quiet"], capsys)  # fmt: skip
    assert code == 2 and "named twice" in err


@pytest.fixture(scope="module")
def card_study(tmp_path_factory):
    """A tiny card study (one ablation) as `cards --out` writes it."""
    from manoeuvre_sim.analyses.manoeuvre.cards import CardFiles
    from manoeuvre_sim.manoeuvre.studies import cards

    out = tmp_path_factory.mktemp("cards")
    res = cards.run("Russia", against=["Austria"], games=8, seed=5, replace=["Supply=blank"],
                    out_dir=out, threads=1)  # fmt: skip
    CardFiles(res).write(out)
    return out


@pytest.fixture(scope="module")
def whatif_study(tmp_path_factory):
    """A tiny what-if as `whatif --out` writes it."""
    from manoeuvre_sim.studies import whatif

    out = tmp_path_factory.mktemp("whatif")
    res = whatif.run("manoeuvre", ["France", "Russia"], edits=["Russia/Russian Guard/full=9"],
                     games_per_pairing=6, seed=7, out_dir=out, threads=1)  # fmt: skip
    res.write(out)
    return out


def test_report_with_card_and_whatif_sections(study, card_study, whatif_study, tmp_path):
    """Balance first, then card value, then what-ifs, whatever the order given; each
    section's pages are its own command's, footed with its own study's provenance."""
    from manoeuvre_sim.analyses.common import report
    from manoeuvre_sim.analyses.manoeuvre.cards_pdf import card_pages
    from manoeuvre_sim.analyses.manoeuvre.report import methods_items

    pdf = tmp_path / "all.pdf"
    main(["report", "--from", str(whatif_study), "--from", str(card_study), "--from",
          str(study), "--out", str(pdf), "--paper", "letter", "--quiet"])  # fmt: skip
    texts = _texts(pdf)
    cards = report.load_study(card_study)
    n_cards = len(card_pages(cards.frames["cards"], army="Russia", against="Austria",
                             paper="letter"))  # fmt: skip
    n_summary = {
        d: len(report.text_pages("x", report.load_study(d).summary, "letter"))
        for d in (study, card_study, whatif_study)
    }
    toc = _toc(texts[1 if "Contents" in texts[1] else 2])
    n_cover = toc["Contents"] - 1
    studies = report.load_studies([study, card_study, whatif_study])
    n_methods = len(report.flow_pages("M", methods_items(studies), "letter", "x"))
    # cover, contents, balance 3, cards, what-if 1, the three summaries, odds 7, methods
    assert len(texts) == n_cover + 1 + 3 + n_cards + 1 + sum(n_summary.values()) + 7 + n_methods
    assert toc["Methods"] == len(texts) - n_methods + 1
    titles = list(toc)
    order = [
        "Balance study — 2 armies",
        "Card value — Russia against Austria",
        "What-if — Russia / Russian Guard / full: 8 -> 9",
        "Methods",
    ]
    assert [t for t in titles if t in order] == order, titles
    assert "Ablation — Russia" in toc and "Play rates — Russia" in toc
    assert "Card value — Russia against Austria" in texts[toc["Ablation — Russia"] - 1]
    wi = texts[toc["What-if — Russia / Russian Guard / full: 8 -> 9"] - 1]
    assert "Change of win rate per pairing" in wi
    wman = json.loads((whatif_study / "manifest.json").read_text())
    assert f"data {wman['data_hash']}" in wi and "seed 7" in wi
    cman = json.loads((card_study / "manifest.json").read_text())
    assert f"data {cman['data_hash']}" in texts[toc["Ablation — Russia"] - 1]
    cover = " ".join(texts[: toc["Contents"] - 1])
    assert "change: Russia / Russian Guard / full: 8 -> 9" in cover
    assert wman["variant"]["armies"][0]["data_hash"] in cover
    assert "mode both; 1 ablation(s); against Austria" in cover
    assert "seed 5" in cover


def test_fire_odds_page_numbers():
    """The bombardment / volley grid holds the exact chance that dice (+2 from a hill) beat
    the defense total (rule 6.2): 2d6 against 10 is 3/36 level, 10/36 from a hill."""
    from manoeuvre_sim.analyses.manoeuvre.odds_chart import fire_grid

    labels, hits = fire_grid(["2d6", "1d10"], [1, 10, 12])
    assert labels == ["2d6", "1d10"]
    assert hits[0, 0].tolist() == pytest.approx([1.0, 3 / 36, 0.0])
    assert hits[0, 1].tolist() == pytest.approx([1.0, 10 / 36, 3 / 36])
    assert hits[1, 0].tolist() == pytest.approx([0.9, 0.0, 0.0])
    assert hits[1, 1].tolist() == pytest.approx([1.0, 0.2, 0.0])


def test_play_style_pages_when_the_study_compared_styles(tmp_path, capsys):
    """A balance study run with --policies brings a heatmap per further style and the
    play-style sensitivity chart into the report, listed in the contents."""
    from manoeuvre_sim.studies import balance

    d = tmp_path / "styles"
    res = balance.run("manoeuvre", ["France", "Russia"], games_per_pairing=4, seed=2, out_dir=d, threads=1,
                      policies=["balanced", "attritional"], block=4)  # fmt: skip
    res.write(d)
    pdf = tmp_path / "r.pdf"
    main(["report", "--from", str(d), "--out", str(pdf), "--quiet"])
    texts = _texts(pdf)
    toc = _toc(texts[1])
    assert toc["Win rate of each pairing (attritional)"] == 6
    assert "policy: attritional" in texts[5]
    assert "Kendall" in texts[toc["Play-style sensitivity"] - 1]
    assert "policies: balanced; attritional" in texts[0]


def test_rank_ordered_keeps_the_study_policy_order():
    """The first policy given is the study's main one: its heatmap leads balance.pdf and the
    report (the matrix used to be sorted alphabetically by policy)."""
    from manoeuvre_sim.analyses.manoeuvre.balance import rank_ordered

    armies = pd.DataFrame({"policy": ["territorial"] * 2 + ["balanced"] * 2,
                           "army": ["A", "B"] * 2, "rank": [2, 1, 1, 2]})  # fmt: skip
    cells = [(p, a, o) for p in ("territorial", "balanced") for a in "AB" for o in "AB"]
    matrix = pd.DataFrame(cells, columns=["policy", "army", "opponent"])
    m = rank_ordered({"armies": armies, "matrix": matrix})["matrix"]
    assert list(pd.unique(m["policy"])) == ["territorial", "balanced"]
    assert list(m["army"].iloc[:4]) == ["B", "B", "A", "A"]  # territorial's rank order
    assert list(m["opponent"].iloc[:2]) == ["B", "A"]


def test_report_runs_the_card_studies_asked_for(study, card_study, tmp_path, capsys):
    """--cards: an observed card study for each named army of the balance study that
    --from does not already give, against the study's other armies, on its seed."""
    pdf = tmp_path / "r.pdf"
    main(["report", "--from", str(study), "--from", str(card_study), "--cards", "all",
          "--card-games", "8", "--threads", "1", "--out", str(pdf), "--quiet"])  # fmt: skip
    err = capsys.readouterr().err
    work = tmp_path / "r-studies" / "cards_france"
    assert "no card study of France in --from" in err and "of Russia" not in err
    man = json.loads((work / "manifest.json").read_text())
    assert man["study"] == "cards" and man["army"] == "France" and man["against"] == ["Russia"]
    assert man["mode"] == "observed" and man["seed"] == 7 and man["games"] == 8
    toc = _toc(_texts(pdf)[1])
    assert "Card value — France against Russia" in toc and "Play rates — France" in toc
    assert "Card value — Russia against Austria" in toc  # the one given with --from


def test_contents_over_two_pages_still_point_at_the_right_pages(study, card_study, tmp_path):
    """Many studies: the contents run onto a second page, and every page number after them
    still points at its page."""
    dirs = [str(study)]
    for k in range(7):
        d = tmp_path / f"cards{k}"
        shutil.copytree(card_study, d, ignore=shutil.ignore_patterns("games.parquet"))
        dirs.append(str(d))
    pdf = tmp_path / "r.pdf"
    main(["report", *(x for d in dirs for x in ("--from", d)), "--out", str(pdf), "--quiet"])
    texts = _texts(pdf)
    first = next(k for k, t in enumerate(texts) if t.startswith("Contents"))
    assert texts[first + 1].startswith("Contents (continued)")
    toc = {}
    for t in texts[first : first + 2]:
        toc |= _toc(t)
    assert toc["Contents"] == first + 1
    assert toc["Methods"] == len(texts) - 1  # methods: two pages
    assert "Bombardment and Volley odds" in texts[toc["Bombardment and volley; rockets"] - 1]
    assert "win rate of each pairing" in texts[toc["Balance study — 2 armies"] - 1]
