"""The study pages over real tiny studies of every kind (tests/web/study_fixtures.py):
each kind's page, the list with each study's state, the pairing drill-down, CSV downloads
equal to the study's files, and what the pages refuse (paths leaving the folder, malformed
and unbounded parameters) in the command line's words."""

from __future__ import annotations

import html
import json
import re
from urllib.parse import parse_qs, urlparse

import pandas as pd
import pytest

from manoeuvre_sim.web.app import create_app
from tests.web.server import local_client
from tests.web.study_fixtures import HOSTILE, studies_root  # noqa: F401 (a fixture)

KIND_PAGES = {
    "balance": ["heatmap", "Ratings", "First player", "How games end"],
    "cards": ["cards-chart", "Card values"],
    "whatif": ["whatif-chart", "What-if deltas"],
    "hex/balance": ["heatmap", "Variants"],
    "hex/ladder": ["ladder-chart", "Handicap ladder"],
    "hex/setup": ["capital-first", "capital-second", "Where the Capital stood"],
    "hex/whatif": ["whatif-chart", "What-if deltas"],
}


@pytest.fixture(scope="module")
def web(studies_root):  # noqa: F811
    with local_client(create_app(studies_root), raise_server_exceptions=False) as c:
        c.studies = studies_root
        yield c


def specs(html: str) -> dict[str, dict]:
    """The page's Vega-Lite specs by the id of the element they draw into."""
    found = re.findall(
        r'<script type="application/json" class="vega-spec" data-target="([^"]+)">(.*?)</script>',
        html,
        re.S,
    )
    return {target: json.loads(text) for target, text in found}


def error_line(r) -> str:
    m = re.search(r'id="error-message">(.*?)</p>', r.text, re.S)
    return m.group(1) if m else r.text[:300]


# ------------------------------------------------------------------------------ the list


def test_the_list_shows_every_study_with_its_provenance_and_state(web):
    r = web.get("/studies")
    assert r.status_code == 200
    rows = dict(re.findall(r'dir=([^"]+)">[^<]+</a></td>(.*?)</tr>', r.text, re.S))
    expected = {
        "balance": "complete",
        "cards": "complete",
        "whatif": "complete",
        "hex%2Fbalance": "complete",
        "hex%2Fladder": "complete",
        "hex%2Fsetup": "complete",
        "hex%2Fwhatif": "complete",
        "interrupted": "interrupted",
        "writing": "being written",
        "garbled": "unreadable",
    }
    assert set(rows) == set(expected)
    for rel, status in expected.items():
        assert f">{status}</td>" in rows[rel], rel
    balance = json.loads((web.studies / "balance/manifest.json").read_text())
    assert balance["rules_version"] in rows["balance"]
    assert balance["data_hash"] in rows["balance"]
    assert ">random</td>" in rows["balance"]  # the players
    assert "hex ladder" in rows["hex%2Fladder"] and ">Maneuver</td>" in rows["hex%2Fladder"]
    assert "<script>alert" not in r.text


def test_an_empty_folder_says_how_to_make_a_study(client):
    r = client.get("/studies")
    assert r.status_code == 200 and 'id="no-studies"' in r.text


def test_the_home_page_counts_the_studies(web):
    assert "10 study directories" in web.get("/").text


# ----------------------------------------------------------------------- each kind's page


@pytest.mark.parametrize("rel", list(KIND_PAGES))
def test_each_kind_has_its_page(web, rel):
    r = web.get("/study", params={"dir": rel})
    assert r.status_code == 200, error_line(r)
    for marker in KIND_PAGES[rel]:
        assert marker in r.text, (rel, marker)
    for name in [p.stem for p in (web.studies / rel).glob("*.csv")]:
        assert f"name={name}" in r.text  # every table downloadable
    assert 'id="definitions"' in r.text
    assert "<script>alert" not in r.text


def test_the_heatmap_shows_the_studys_rates_and_opens_each_pairing(web):
    r = web.get("/study", params={"dir": "balance"})
    cells = specs(r.text)["heatmap"]["data"]["values"]
    matrix = pd.read_csv(web.studies / "balance/matrix.csv")
    assert len(cells) == len(matrix) == 9
    index = pd.read_parquet(web.studies / "balance/games.parquet")
    by_key = {(c["army"], c["opponent"]): c for c in cells}  # in rank order: matched by key
    assert len(by_key) == 9
    for _, row in matrix.iterrows():
        cell = by_key[(row["army"], row["opponent"])]
        assert cell["rate"] == pytest.approx(row["win_rate"])
        assert cell["games"] == row["games"]
        q = parse_qs(urlparse(cell["href"]).query)
        games = index[index["pairing"] == int(q["pairing"][0])]
        assert set(games["army_a"]) == {row["army"]} and set(games["army_b"]) == {row["opponent"]}
        if row["army"] != row["opponent"]:
            assert cell["interval"] == f"[{100 * row.ci_low:.1f}, {100 * row.ci_high:.1f}]"


def test_the_hex_heatmap_is_per_variant_and_leaves_out_the_pooled_row(web):
    for label in ("basic", "large_blue"):
        r = web.get("/study", params={"dir": "hex/balance", "label": label})
        cells = specs(r.text)["heatmap"]["data"]["values"]
        assert len(cells) == 4 and all(c["blue"] != "all" for c in cells)
        for c in cells:  # two labels in the records: the pairing link names its label
            assert f"label={label}" in c["href"]


def test_an_unknown_label_is_refused(web):
    r = web.get("/study", params={"dir": "hex/balance", "label": "large_bleu"})
    assert r.status_code == 400
    assert error_line(r).startswith("--label: &#39;large_bleu&#39; is not one of &#39;basic&#39;")


def test_the_ladder_draws_the_libraries_fitted_curve(web):
    from manoeuvre_sim.hexgame.studies.ladder import fitted_score

    spec = specs(web.get("/study", params={"dir": "hex/ladder"}).text)["ladder-chart"]
    fit = json.loads((web.studies / "hex/ladder/fit.json").read_text())
    curve = spec["layer"][0]["data"]["values"]
    ks = [p["k"] for p in curve]
    assert [p["score"] for p in curve] == pytest.approx(list(fitted_score(fit, ks)))


def test_every_card_is_a_point_findable_by_name(web):
    spec = specs(web.get("/study", params={"dir": "cards"}).text)["cards-chart"]
    cards = pd.read_csv(web.studies / "cards/cards.csv")
    assert sorted(p["card"] for p in spec["data"]["values"]) == sorted(cards["card"])
    assert spec["params"][0]["name"] == "find" and spec["params"][0]["bind"]["input"]


def test_a_hostile_army_name_is_text(web):
    for url in ("/study?dir=balance", "/study/pairing?dir=balance&pairing=2", "/studies"):
        r = web.get(url)
        assert r.status_code == 200
        assert "<script>alert" not in r.text, url
    page = web.get("/study?dir=balance").text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page  # tables, provenance
    assert "\\u003cscript\\u003ealert(1)" in page  # the chart's data, inside <script>
    assert HOSTILE in json.dumps(specs(page)["heatmap"]["data"]["values"])


def test_an_interrupted_or_unfinished_study_says_so(web):
    r = web.get("/study", params={"dir": "interrupted"})
    assert r.status_code == 200 and "Interrupted." in r.text and "heatmap" in r.text
    r = web.get("/study", params={"dir": "writing"})
    assert r.status_code == 200 and "Being written." in r.text
    assert re.search(r"\d+ parts? of games on disk", r.text)
    r = web.get("/study", params={"dir": "garbled"})
    assert r.status_code == 200 and "Unreadable." in r.text and "not readable JSON" in r.text


# -------------------------------------------------------------------------- the pairing


def test_the_pairing_page_sums_up_the_pairings_games(web):
    r = web.get("/study/pairing", params={"dir": "balance", "pairing": 1})
    assert r.status_code == 200, error_line(r)
    games = pd.read_parquet(web.studies / "balance/games.parquet")
    mine = games[games["pairing"] == 1]
    a, b = mine["army_a"].iloc[0], mine["army_b"].iloc[0]
    assert re.search(rf"{a}.*seat a.*{b}.*seat b", r.text.split('id="pairing-title">')[1][:400])
    assert "lengths-chart" in r.text and 'id="reverse"' in r.text
    links = re.findall(r'href="(/replay/[^"]+)"', r.text)
    assert len(links) == len(mine)
    assert links[0] == "/replay/manoeuvre?study=balance&amp;pairing=1&amp;game=0"


def test_each_pairings_seat_rates_are_the_studys(web):
    """Seat a's rate on every pairing page is victory.csv's (draws counting half)."""
    victory = pd.read_csv(web.studies / "balance/victory.csv")
    assert victory["draws"].gt(0).any()  # the check covers draws
    index = pd.read_parquet(
        web.studies / "balance/games.parquet", columns=["pairing", "army_a", "army_b"]
    )
    for _, row in victory.iterrows():
        hit = index[(index["army_a"] == row["army_a"]) & (index["army_b"] == row["army_b"])]
        r = web.get("/study/pairing", params={"dir": "balance", "pairing": hit["pairing"].iloc[0]})
        seats = r.text.split('id="table-seats"')[1].split("</table>")[0]
        rate_a = re.findall(r"<td data-sort=\"([0-9.e-]+)\">[0-9.]+% <span class=\"ci\">\[", seats)[
            0
        ]
        assert float(rate_a) == pytest.approx(row["a_win_rate"], abs=1e-6), (
            row["army_a"],
            row["army_b"],
        )


def test_a_hex_pairings_games_link_to_their_replay_with_the_label(web):
    r = web.get(
        "/study/pairing", params={"dir": "hex/balance", "pairing": 5, "label": "large_blue"}
    )
    assert r.status_code == 200, error_line(r)
    links = re.findall(r'href="(/replay/[^"]+)"', r.text)
    assert links and all(
        link.startswith("/replay/hex?study=hex%2Fbalance&amp;pairing=5&amp;game=")
        and link.endswith("&amp;label=large_blue")
        for link in links
    )


def test_the_games_table_is_paged_and_its_size_capped(web):
    r = web.get("/study/pairing", params={"dir": "balance", "pairing": 1, "size": 5, "page": 2})
    assert r.status_code == 200
    assert len(re.findall(r'href="/replay/', r.text)) == 5 and "page 2 of 3" in r.text
    assert "game=5&amp;" in r.text or r.text.count("game=5") >= 1
    r = web.get("/study/pairing", params={"dir": "balance", "pairing": 1, "size": 201})
    assert r.status_code == 400
    assert error_line(r) == "--size: expected an integer from 1 to 200, got 201"
    r = web.get("/study/pairing", params={"dir": "balance", "pairing": 1, "page": 9})
    assert r.status_code == 400 and error_line(r).startswith("--page: expected an integer")


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({"pairing": "abc"}, "--pairing: &#39;abc&#39; is not a valid integer"),
        ({"pairing": "99"}, "--pairing: no pairing 99 in this study (pairings: 0 to 8)"),
        ({"pairing": "-1"}, "--pairing: expected an integer &gt;= 0, got -1"),
        ({}, "--pairing: expected a pairing number"),
        ({"pairing": "1", "label": "tuned"}, "--label: &#39;tuned&#39; is not one of"),
        ({"pairing": "1", "sise": "5"}, "--sise: no such parameter on this page"),
    ],
)
def test_a_malformed_pairing_is_refused_in_the_clis_words(web, query, message):
    r = web.get("/study/pairing", params={"dir": "balance", **query})
    assert r.status_code == 400
    assert error_line(r).startswith(message)


# ---------------------------------------------------------------------------- downloads


def test_every_table_downloads_as_the_studys_own_file(web):
    n = 0
    for f in sorted(web.studies.rglob("*.csv")):
        if f.parent.name == "card_stats":
            continue
        rel = f.parent.relative_to(web.studies).as_posix()
        r = web.get("/study/table.csv", params={"dir": rel, "name": f.stem})
        assert r.status_code == 200, (rel, f.stem, error_line(r))
        assert r.content == f.read_bytes()
        assert r.headers["content-type"].startswith("text/csv")
        n += 1
    assert n >= 15


def test_only_the_studys_tables_download(web):
    r = web.get("/study/table.csv", params={"dir": "balance", "name": "manifest"})
    assert r.status_code == 400 and error_line(r).startswith(
        "--name: &#39;manifest&#39; is not one"
    )
    r = web.get("/study/table.csv", params={"dir": "balance", "name": "../cards/cards"})
    assert r.status_code == 400


# ------------------------------------------------------------------------ paths refused


PAGES = {"/study": {}, "/study/pairing": {"pairing": 0}, "/study/table.csv": {"name": "matrix"}}


@pytest.mark.parametrize("path", list(PAGES))
@pytest.mark.parametrize("rel", ["../x", "/etc", "~/x", "balance/../../x", "a\\b", "nowhere"])
def test_paths_outside_the_folder_are_refused(web, path, rel):
    r = web.get(path, params={"dir": rel, **PAGES[path]})
    assert r.status_code == 400
    assert error_line(r).startswith("--dir: ")


def test_a_way_back_into_the_folder_or_an_absolute_path_to_it_is_refused(web):
    for rel in ("../studies/balance", str(web.studies / "balance"), "balance/../balance"):
        r = web.get("/study", params={"dir": rel})
        assert r.status_code == 400 and error_line(r).startswith("--dir: "), rel


@pytest.mark.parametrize("raw", ["%2e%2e/x", "%2E%2E%2Fetc", "..%2f..%2fetc", "%2fetc"])
def test_encoded_dots_are_refused(web, raw):
    r = web.get(f"/study?dir={raw}")  # sent as typed: the server decodes it
    assert r.status_code == 400 and error_line(r).startswith("--dir: ")


def test_a_link_out_of_the_folder_is_refused(tmp_path):
    outside = tmp_path / "outside"
    (outside / "games.parquet").mkdir(parents=True)
    (outside / "manifest.json").write_text("{}")
    root = tmp_path / "folder"
    root.mkdir()
    (root / "out").symlink_to(outside)
    with local_client(create_app(root), raise_server_exceptions=False) as c:
        r = c.get("/study", params={"dir": "out"})
        assert r.status_code == 400 and "a link outside it" in error_line(r)
        assert c.get("/studies").text.count("dir=out") == 0  # links are not followed


def test_a_file_that_is_not_a_study_is_refused(web):
    r = web.get("/study", params={"dir": "balance/games.parquet"})
    assert r.status_code == 400 and "not a study directory" in error_line(r)


def test_the_list_is_bounded(client, monkeypatch):
    from manoeuvre_sim.analyses.common import study_files as SF

    monkeypatch.setattr(SF, "MAX_STUDIES", 3)
    for k in range(5):
        (client.studies / f"s{k}").mkdir()
        (client.studies / f"s{k}/manifest.json").write_text('{"study": "balance"}')
    deep = client.studies / "a/b/c/d/e/f"
    deep.mkdir(parents=True)
    (deep / "manifest.json").write_text("{}")
    r = client.get("/studies")
    assert r.text.count("/study?dir=") == 3 and "Only the first 3 are listed." in r.text
    monkeypatch.setattr(SF, "MAX_STUDIES", 100)
    assert "a%2Fb%2Fc" not in client.get("/studies").text  # deeper than MAX_DEPTH


# ------------------------------------------------------ the balance page reads as the PDF


def _balance_frames(root, rel="balance"):
    return {n: pd.read_csv(root / rel / f"{n}.csv") for n in ("matrix", "armies")}


def test_the_heatmap_is_in_the_pdfs_rank_order(web):
    """The rows and columns come in the order the PDF draws them (``rank_ordered``: the
    first policy's armies by rank), not in the study's order of armies."""
    from manoeuvre_sim.analyses.manoeuvre.balance import by_rank, rank_ordered

    frames = _balance_frames(web.studies)
    pdf = list(pd.unique(rank_ordered(frames)["matrix"]["army"]))
    assert pdf == list(by_rank(frames["armies"])["army"])
    spec = specs(web.get("/study", params={"dir": "balance"}).text)["heatmap"]
    assert spec["encoding"]["y"]["sort"] == pdf and spec["encoding"]["x"]["sort"] == pdf


def test_the_heatmap_and_ratings_follow_the_ranks_not_the_study_order(tmp_path, studies_root):  # noqa: F811
    """A copy of the study whose ranks are reversed: the heatmap's order and the ratings'
    rows reverse too (the fixture's own ranks could happen to be the study's order)."""
    import shutil

    root = tmp_path / "studies"
    shutil.copytree(studies_root / "balance", root / "balance")
    armies = pd.read_csv(root / "balance/armies.csv")
    n = len(armies)
    armies["rank"] = n + 1 - (armies.index + 1)  # the study's last army ranked first
    armies.to_csv(root / "balance/armies.csv", index=False)
    with local_client(create_app(root)) as c:
        spec = specs(c.get("/study", params={"dir": "balance"}).text)["heatmap"]
        page = c.get("/study", params={"dir": "balance"}).text
    assert spec["encoding"]["y"]["sort"] == list(reversed(armies["army"]))
    rows = re.findall(r'<tr><td class="name" data-sort="[^"]*">[^<]*</td><td class="name" '
                      r'data-sort="([^"]*)">', page.split('id="table-armies"')[1])  # fmt: skip
    assert [html.unescape(x) for x in rows[:n]] == list(reversed(armies["army"]))


def test_each_cell_writes_its_rate_and_interval_as_the_pdf_and_the_diagonal_the_first_mover(web):
    from manoeuvre_sim.analyses.common.chart_style import interval_text, pct_text

    spec = specs(web.get("/study", params={"dir": "balance"}).text)["heatmap"]
    texts = [layer["encoding"]["text"]["field"] for layer in spec["layer"][1:]]
    assert texts == ["text", "sub"]  # the rate, then its interval beneath
    matrix = pd.read_csv(web.studies / "balance/matrix.csv")
    cells = {(c["army"], c["opponent"]): c for c in spec["data"]["values"]}
    mirrors = 0
    for row in matrix.itertuples():
        c = cells[(row.army, row.opponent)]
        if row.army == row.opponent:
            mirrors += 1
            assert c["mirror"] and c["text"] == f"1st {pct_text(row.win_rate_first)}"
            assert c["sub"] == interval_text(row.ci_low_first, row.ci_high_first)
            assert "first mover" in c["interval"]
        else:
            assert c["text"] == pct_text(row.win_rate)
            assert c["sub"] == interval_text(row.ci_low, row.ci_high) and "–" in c["sub"]
    assert mirrors == 3


def test_the_ratings_are_ranked_with_one_precision_per_column(web):
    page = web.get("/study", params={"dir": "balance"}).text
    table = page.split('id="table-armies"')[1].split("</table>")[0]
    heads = re.findall(r"<th [^>]*>([^<]+)</th>", table)
    rows = [re.findall(r"<td[^>]*>(.*?)</td>", tr) for tr in re.findall(r"<tr>(.*?)</tr>",
                                                                         table, re.S)]  # fmt: skip
    rows = [r for r in rows if r]
    rank = [int(r[heads.index("rank [95% interval]")].split()[0]) for r in rows]
    assert rank == sorted(rank) and len(rows) == 3
    rating = heads.index("rating [95% interval]")
    places = set()
    for r in rows:
        numbers = re.findall(r"-?\d[\d,]*(?:\.(\d+))?", r[rating])
        assert len(numbers) == 3, r[rating]  # the rating and its interval
        places |= {len(d) for d in numbers}
    assert len(places) == 1, [r[rating] for r in rows]
    assert re.search(r'<th class="sortable sorted-asc" data-type="num" data-order="asc" '
                     r'aria-sort="ascending"[^>]*>rank \[95% interval\]</th>', table)  # fmt: skip


def test_the_definitions_are_those_of_the_columns_shown(web):
    def terms(rel):
        html_ = web.get("/study", params={"dir": rel}).text
        section = html_.split('id="definitions"')[1].split("</section>")[0]
        return re.findall(r"<dt>([^<]+)</dt>", section)

    balance = terms("balance")
    assert "ablation value" not in balance and "interrupted" not in balance
    assert {"win rate", "95% interval", "rating", "mirror", "first-player advantage"} <= set(
        balance
    )
    assert "ablation value" in terms("cards") and "rating" not in terms("cards")
    assert "interrupted" in terms("interrupted")
    hexes = terms("hex/balance")
    assert "mirror" not in hexes and "rating" not in hexes and "ablation value" not in hexes


def test_a_pairing_says_how_its_games_ended_in_words(web):
    r = web.get("/study/pairing", params={"dir": "balance", "pairing": 1})
    games = r.text.split('id="table-games"')[1].split("</table>")[0]
    assert ">False<" not in games and ">True<" not in games
    assert "turn limit" not in re.findall(r"<thead>.*?</thead>", games, re.S)[0]
    assert "ended by" in games


def test_a_pairings_games_show_their_games_own_columns(web):
    """The shared columns, then the game's own (its web module's ``PAIRING_COLUMNS``):
    Manoeuvre's victory points, Maneuver's Capital hexes as written (0101, not 101)."""

    def table(rel, pairing=1, **q):
        r = web.get("/study/pairing", params={"dir": rel, "pairing": pairing} | q)
        assert r.status_code == 200, error_line(r)
        games = r.text.split('id="table-games"')[1].split("</table>")[0]
        head = re.findall(r"<thead>.*?</thead>", games, re.S)[0]
        return re.findall(r"<th[^>]*>([^<]*)</th>", head), games

    cols, _ = table("balance")
    assert cols.index("winner") < cols.index("vp a") < cols.index("eliminated a"), cols
    assert not any("capital" in c for c in cols)
    cols, games = table("hex/balance", 5, label="large_blue")
    assert "capital hex a" in cols and "vp a" not in cols, cols
    assert re.search(r">0\d{3}<", games)  # a hex of the first column, as written


def test_the_capital_hexes_are_read_as_written(web):
    """Maneuver's ``TEXT_COLUMNS``: the set-up study's hexes are text, CCRR (0101, not 101),
    in its table and in the Capital map's hover."""
    page = web.get("/study", params={"dir": "hex/setup"}).text
    table = page.split('id="table-capital_hexes"')[1].split("</table>")[0]
    hexes = re.findall(r'<td class="name" data-sort="[^"]*">(\d+)</td>', table)
    assert hexes and all(len(h) == 4 for h in hexes), hexes[:5]
    cells = [d for spec in specs(page).values() for d in spec.get("data", {}).get("values", [])]
    assert cells and all(len(c["hex"]) == 4 for c in cells if "hex" in c)


def test_the_length_chart_has_a_bar_centred_on_each_whole_turn(web):
    spec = specs(web.get("/study/pairing", params={"dir": "balance", "pairing": 1}).text)
    spec = spec["lengths-chart"]
    x = spec["encoding"]["x"]
    assert x["axis"]["format"] == "d" and x["axis"]["tickMinStep"] == 1
    assert all(isinstance(v, int) for v in x["axis"]["values"])
    assert "bin" not in x
    calc = {t["as"]: t["calculate"] for t in spec["transform"]}
    assert calc == {"from": "datum.turns - 0.5", "to": "datum.turns + 0.5"}


def test_when_the_capital_fell_is_summed_up_and_its_table_folded(web):
    from manoeuvre_sim.analyses.hexgame.capital_fell import fallen_by_turn

    r = web.get("/study", params={"dir": "hex/balance"})
    s = specs(r.text)
    cf = pd.read_csv(web.studies / "hex/balance/capital_fell.csv")
    for side in ("blue", "red"):
        got = s[f"fell-{side}"]["data"]["values"]
        want = fallen_by_turn(cf, side).to_dict("records")
        assert len(got) == len(want) > 0
        for g, w in zip(got, want, strict=True):
            assert (g["variant"], g["turn"]) == (w["variant"], w["turn"])
            assert g["fallen"] == pytest.approx(w["fallen"])
    fell = r.text.split('id="table-capital_fell"')[1].split("</table>")[0]
    assert "<details" in fell and "name=capital_fell" in r.text
