"""``manoeuvre-sim site``: a static copy of the study pages, built from the tiny studies and
opened from ``file://`` in Chromium with the network cut: every page loads with no failed
request and no request that is not a file; the figures equal the study's CSV tables; a
replay steps with the arrow keys from its file alone; the CLI's errors are one line."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from urllib.parse import unquote, urlencode, urlparse

import pandas as pd
import pytest
from starlette.responses import HTMLResponse
from starlette.routing import Route

from manoeuvre_sim.web.site import links as L
from tests.web.chromium import watch_requests
from tests.web.study_fixtures import studies_root  # noqa: F401 (a fixture)

FROM = ["balance", "whatif", "hex/balance", "hex/whatif"]


def _fake_compare(request):
    """A stand-in for the comparison page (another part's): links to both studies, an htmx
    attribute that a static copy must drop."""
    a, b = request.query_params["a"], request.query_params["b"]
    return HTMLResponse(
        f'<html><body><main><p id="cmp">{a} v {b}</p><a href="/study?dir={a}">a</a>'
        f'<a href="/study?dir={b}">b</a><div hx-get="/compare/rows?a={a}"></div>'
        '<a href="/jobs">jobs</a></main></body></html>'
    )


@pytest.fixture(scope="module")
def site(studies_root, tmp_path_factory):  # noqa: F811
    from manoeuvre_sim.web import app as A
    from manoeuvre_sim.web.site.build import build_site

    make = A.create_app

    def with_compare(root, **kw):
        app = make(root, **kw)
        app.router.routes.insert(0, Route("/compare", _fake_compare))
        return app

    out = tmp_path_factory.mktemp("site") / "out"
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(A, "create_app", with_compare)
        result = build_site([studies_root / s for s in FROM], out, replays=1)
    result.root = studies_root
    return result


def test_the_site_holds_the_pages_and_records_the_studies(site):
    out = site.out
    for f in ("index.html", "site.css", "site.json", "study/balance.html",
              "table/balance__name-matrix.csv", "static/vendor/LICENSE-vega.txt",
              "static/vendor/VENDORED.md"):  # fmt: skip
        assert (out / f).is_file(), f
    assert not (out / "static.html").exists()  # no page says "not in this copy"
    record = json.loads((out / "site.json").read_text())
    assert record["version"]
    for s in record["studies"]:
        manifest = json.loads((site.root / s["name"] / "manifest.json").read_text())
        assert (s["seed"], s["rules_version"]) == (manifest["seed"], manifest["rules_version"])
        assert s["data_hash"] and s["data_hash"] in (out / "index.html").read_text()
        # one replay of each study (a what-if's from its base or its kept variant data)
        assert len(s["replays"]) == 1, s["name"]
    assert record["skipped"] == []
    # every two studies of the same game compared, through the page the app has
    assert sorted(record["comparisons"]) == ["/compare?a=balance&b=whatif",
                                             "/compare?a=hex%2Fbalance&b=hex%2Fwhatif"]  # fmt: skip
    cmp = (out / "compare/balance__b-whatif.html").read_text()
    assert 'href="../study/balance.html"' in cmp and "hx-get" not in cmp
    # the job page is not in the site: its link is its text alone
    assert "<div></div>jobs</main>" in cmp  # (the stand-in's last link)
    assert "static.html" not in cmp
    # the CSV tables are the study's, byte for byte
    assert (out / "table/balance__name-matrix.csv").read_bytes() == (
        site.root / "balance/matrix.csv"
    ).read_bytes()
    # nothing links to a server
    for f in out.rglob("*.html"):
        text = f.read_text()
        assert 'href="/' not in text and 'src="/' not in text and 'action="/' not in text, f


def _local_links(page) -> list[str]:
    """Every link of the page (``a[href]``, ``link[href]``, ``script[src]``, ``img[src]``) as
    the browser resolves it; the pages' own ``#fragment`` links aside."""
    return page.eval_on_selector_all(
        "a[href], link[href], script[src], img[src]",
        "els => els.map(e => e.href || e.src).filter(h => h && !h.startsWith('about:'))",
    )


def test_every_page_loads_from_files_with_the_network_off(site, browser):
    """The crawl from index.html, as a reader clicks: every link of every page resolves to
    a file the site wrote, no page is a "not in this copy" notice, the navigation holds
    only what the copy has (the live-only items replaced by one word), and the comparison
    pages are reached from the index."""
    context = browser.new_context(viewport={"width": 1366, "height": 820}, offline=True)
    outside, problems = [], []
    context.route("**/*", lambda r: r.continue_() if r.request.url.startswith("file://")
                  else (outside.append(r.request.url), r.abort()))  # fmt: skip
    pg = context.new_page()
    pg.on("pageerror", lambda e: problems.append(f"javascript error: {e}"))
    watch_requests(pg, problems)
    pg.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    pg.on("dialog", lambda d: (problems.append(f"dialog: {d.message}"), d.dismiss()))
    out = site.out.resolve()
    todo, seen, broken, navs = [str(out / "index.html")], set(), [], 0
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        pg.goto(Path(path).as_uri())
        pg.wait_for_load_state("load")
        charts = pg.locator(".chart")
        for i in range(charts.count()):
            charts.nth(i).locator("svg").first.wait_for(timeout=10_000)
        assert "Not in this static copy" not in pg.content(), path
        if pg.locator("header nav").count():  # (the stand-in comparison page has none)
            navs += 1
            nav = pg.eval_on_selector_all("header nav a", "els => els.map(e => e.textContent)")
            assert nav == ["Studies"], (path, nav)
            assert pg.inner_text("header nav .static-note").startswith("static copy"), path
            words = pg.inner_text("header nav")
            assert not any(w in words for w in ("Odds", "Replay", "Jobs")), (path, words)
        for href in _local_links(pg):
            u = urlparse(href)
            assert u.scheme == "file", (path, href)
            target = Path(unquote(u.path))
            if not target.is_file():
                broken.append((path, href))
            elif target.suffix == ".html" and str(target) not in seen:
                todo.append(str(target))
    context.close()
    assert broken == [] and outside == [] and problems == []
    assert len(seen) >= 20 and navs == len(seen) - 2
    assert {str(out / "compare/balance__b-whatif.html"),
            str(out / "compare/hex~2Fbalance__b-hex~2Fwhatif.html")} <= seen  # fmt: skip
    assert not any(p.startswith(str(out / "static.html")) for p in seen)


def test_pairing_pages_say_which_games_replay(site):
    """Each pairing page's games note is true: "Games with a ▶ link replay" where the table
    has ▶ links (each to a replay the site wrote), "No game of this pairing replays" where
    it has none; no page says a game's number replays it."""
    out = site.out
    record = json.loads((out / "site.json").read_text())
    replayed = {r["file"] for s in record["studies"] for r in s["replays"]}
    pages = sorted((out / "pairing").glob("*.html"))
    assert pages and not any("page-" in p.name for p in pages)  # the first page of games only
    with_links = 0
    for p in pages:
        text = p.read_text()
        assert "Click a game" not in text and "controls pager" not in text, p.name
        links = re.findall(r'<a href="([^"]*)">▶ [\d,]+</a>', text)
        for href in links:
            assert (p.parent / href).resolve().relative_to(out.resolve()).as_posix() in replayed
        if links:
            with_links += 1
            assert "Games with a ▶ link replay on their board in this copy" in text, p.name
        else:
            assert "No game of this pairing replays in this copy" in text, p.name
    # each replayed game is linked from its pairing's page, where the site has one (a
    # what-if's pages and a hex study's link no pairing page: their replays are linked from
    # the study's page, which the crawl test follows)
    linked_from = 0
    for s in record["studies"]:
        for r in s["replays"]:
            q = {"dir": s["name"], "pairing": r["pairing"]}
            pages = {L.file_for("/study/pairing?" + urlencode(q | extra))
                     for extra in ({}, {"label": r["label"]})}  # fmt: skip
            held = [f for f in pages if (out / f).is_file()]
            if held:
                linked_from += 1
                page = (out / held[0]).read_text()
                assert f'href="../{r["file"]}">▶ {r["game"]}</a>' in page, r
    assert with_links == linked_from >= 1


def test_progress_shows_a_total_on_lines_of_their_own():
    import io

    from manoeuvre_sim.cli.site import progress_printer

    log, now = io.StringIO(), [0.0]
    show = progress_printer(log, every=2.0, clock=lambda: now[0])
    for i in range(1, 11):
        now[0] += 0.5
        show(i, 10, f"pairing/b__pairing-{i}.html")
    lines = log.getvalue().splitlines()
    assert "\r" not in log.getvalue()
    assert lines == ["site: files 1/10  pairing/b__pairing-1.html",
                     "site: files 5/10  pairing/b__pairing-5.html",
                     "site: files 9/10  pairing/b__pairing-9.html",
                     "site: files 10/10  pairing/b__pairing-10.html"]  # fmt: skip


def test_the_heatmap_shows_the_studys_matrix(site, browser):
    context = browser.new_context(offline=True)
    pg = context.new_page()
    pg.goto((site.out / "study/balance.html").resolve().as_uri())
    pg.wait_for_function("document.getElementById('heatmap').vegaView !== undefined")
    cells = pg.evaluate(
        "JSON.parse(document.querySelector('script.vega-spec[data-target=heatmap]')"
        ".textContent).data.values"
    )
    texts = pg.eval_on_selector_all("#heatmap svg text", "els => els.map(e => e.textContent)")
    context.close()
    matrix = pd.read_csv(site.out / "table/balance__name-matrix.csv")
    assert len(cells) == len(matrix) == 9
    by_key = {(c["army"], c["opponent"]): c for c in cells}  # the cells come in rank order
    for _, row in matrix.iterrows():
        cell = by_key[(row["army"], row["opponent"])]
        assert cell["rate"] == pytest.approx(row["win_rate"])
        assert cell["games"] == row["games"]
        assert (site.out / "study" / cell["href"]).resolve().is_file()
    # the cells' words as drawn: the PDF's rate (the first mover's on the diagonal) and interval
    for cell in cells:
        assert cell["text"] in texts and cell["sub"] in texts


def test_a_replay_steps_with_the_arrow_keys_from_its_file(site, browser):
    record = json.loads((site.out / "site.json").read_text())
    game = record["studies"][0]["replays"][0]
    context = browser.new_context(viewport={"width": 1366, "height": 820}, offline=True)
    pg = context.new_page()
    problems = []
    pg.on("pageerror", lambda e: problems.append(str(e)))
    pg.goto((site.out / game["file"]).resolve().as_uri())
    data = json.loads(pg.inner_text("#replay-data"))
    first = pg.inner_html("#board")
    s = data["step"]  # the page opens on the set-up's last event (every unit deployed)
    pg.keyboard.press("ArrowRight")
    pg.wait_for_function(f"document.getElementById('board').dataset.step === '{s + 1}'")
    assert pg.inner_text("#position").startswith(f"event {s + 2} of")
    assert pg.inner_html("#board") != first or data["boards"][s] == data["boards"][s + 1]
    pg.keyboard.press("End")
    pg.wait_for_function(f"document.getElementById('board').dataset.step === '{data['n'] - 1}'")
    assert pg.url.startswith("file://") and problems == []
    context.close()


def _cli(args: list[str], capsys) -> tuple[int, str]:
    from manoeuvre_sim.cli.main import main

    with pytest.raises(SystemExit) as e:
        main(args)
    return e.value.code, capsys.readouterr().err


def test_cli_errors_are_one_line(tmp_path, studies_root, capsys):  # noqa: F811
    code, err = _cli(["site", "--from", str(tmp_path), "--out", str(tmp_path / "o")], capsys)
    assert (
        code == 2 and err == f"error: --from {tmp_path}: not a study directory (no manifest.json)\n"
    )
    code, err = _cli(["site", "--from", str(studies_root / "writing"), "--out",
                      str(tmp_path / "o")], capsys)  # fmt: skip
    assert code == 2 and err.count("\n") == 1 and f"--from {studies_root / 'writing'}" in err
    full = tmp_path / "full"
    full.mkdir()
    (full / "x").write_text("keep")
    code, err = _cli(["site", "--from", str(studies_root / "balance"), "--out", str(full)], capsys)
    assert code == 2 and err == f"error: --out {full}: not empty; give --force to replace it\n"
    assert (full / "x").read_text() == "keep"


def _listing(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}  # fmt: skip


@pytest.mark.parametrize("force", [False, True], ids=["plain", "force"])
@pytest.mark.parametrize(
    "where, why",
    [("studies", "holds"), ("above", "holds"), ("study", "is"), ("inside", "is inside"),
     ("inside-new", "is inside")],
)  # fmt: skip
def test_out_over_a_study_is_refused(where, why, force, tmp_path, studies_root, capsys):  # noqa: F811
    """``--out`` the studies folder, a folder above it, the study itself or a folder inside
    it (existing or not): one line naming ``--out`` and the study it would replace or write
    into, with or without ``--force`` (which must not make it replace the study); the study
    is left as it was, and no scratch folder is left beside it."""
    studies = tmp_path / "top" / "studies"
    study = studies / "balance"
    shutil.copytree(studies_root / "balance", study)
    (study / "site").mkdir()
    (study / "site" / "old.html").write_text("old")
    before = _listing(tmp_path)
    out = {"studies": studies, "above": tmp_path / "top", "study": study,
           "inside": study / "site", "inside-new": study / "new"}[where]  # fmt: skip
    args = ["site", "--from", str(study), "--out", str(out), "--replays", "0"]
    code, err = _cli([*args, "--force"] if force else args, capsys)
    assert code == 2 and err.count("\n") == 1, err
    assert err.startswith(
        f"error: --out {out}: {why} the study {study.resolve()}, which the site"
    ), err
    assert "choose another folder" in err
    assert _listing(tmp_path) == before
    assert sorted(p.name for p in studies.iterdir()) == ["balance"]


def test_a_heatmap_cell_opens_its_pairing_file(site, browser):
    from tests.web.test_studies_browser import _cell_point

    context = browser.new_context(viewport={"width": 1366, "height": 820}, offline=True)
    pg = context.new_page()
    pg.goto((site.out / "study/balance.html").resolve().as_uri())
    pg.wait_for_function("document.getElementById('heatmap').vegaView !== undefined")
    point = _cell_point(pg, "heatmap", "France", "Russia")
    with pg.expect_navigation():
        pg.mouse.click(point["x"], point["y"])
    assert pg.url.startswith("file://") and "/pairing/balance__" in pg.url
    assert "France" in pg.inner_text("#pairing-title")
    context.close()


def test_the_sample_is_the_most_lopsided_pairings(studies_root):  # noqa: F811
    from manoeuvre_sim.analyses.common.study_sample import lopsided_games

    games = pd.read_parquet(studies_root / "balance/games.parquet")
    score = games["winner"].map({"a": 1.0, "draw": 0.5}).fillna(0.0)
    rate = score.groupby(games["pairing"]).mean()
    far = (rate - 0.5).abs()
    picked = lopsided_games(studies_root / "balance", 3)
    assert [s.pairing for s in picked] == sorted(far.index, key=lambda p: (-far[p], p))[:3]
    for s in picked:
        assert s.win_rate_a == pytest.approx(rate[s.pairing])
        assert s.game == games[games["pairing"] == s.pairing]["game"].min()
    assert lopsided_games(studies_root / "balance", 0) == []


def test_cli_writes_a_site_and_replaces_it_with_force(tmp_path, studies_root, capsys):  # noqa: F811
    from manoeuvre_sim.cli.main import main

    out = tmp_path / "site"
    args = ["site", "--from", str(studies_root / "balance"), "--out", str(out), "--replays", "0"]
    main(args)
    captured = capsys.readouterr()
    assert "site: files " in captured.err and f" MB in {out}, " in captured.out
    (out / "stale.html").write_text("old")
    code, err = _cli(args, capsys)
    assert code == 2 and "--force" in err and (out / "stale.html").exists()
    main([*args, "--force", "--quiet"])
    assert capsys.readouterr().err == ""
    assert not (out / "stale.html").exists() and (out / "study/balance.html").is_file()
    assert [p.name for p in tmp_path.iterdir()] == ["site"]  # no scratch folder left


def test_the_site_starts_no_job_worker(tmp_path, monkeypatch):
    """A site only renders pages: no job worker starts (one would resume the jobs it found)
    and the job pages of its workbench answer 404."""
    from manoeuvre_sim.web import app as A
    from manoeuvre_sim.web.jobs import pages as jobs
    from tests.web.server import local_client

    started = []
    monkeypatch.setattr(jobs, "start_manager", lambda *a: started.append(a))
    with local_client(A.create_app(tmp_path, run_jobs=False)) as client:
        assert client.get("/jobs").status_code == 404
        assert client.get("/studies").status_code == 200
    assert started == []
