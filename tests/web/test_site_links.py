"""The static site's addresses (web/site_links.py), without a server: each workbench URL maps
to one file under --out, hostile queries cannot leave it, and pages' links become relative."""

from __future__ import annotations

from pathlib import Path

import pytest

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.web.site import links as L

HOSTILE = [
    "/study?dir=../../etc/passwd",
    "/study?dir=..%2F..%2Fetc",
    "/study?dir=%2E%2E%2F%2E%2E",
    "/study/pairing?dir=a/../../b&pairing=..",
    "/study/table.csv?dir=/etc&name=../../x",
    "/study?dir=%00x",
    "/study?dir=a\\..\\..\\b",
    "/compare?a=..&b=/",
    "/replay/hex?study=" + "../" * 200,
    "/static/../../etc/passwd",
    "/static/%2e%2e/x.js",
]


def test_names_are_readable_and_deterministic():
    assert L.file_for("/study?dir=balance") == "study/balance.html"
    assert L.file_for("/studies") == "index.html"
    assert L.file_for("/") == "index.html"
    a = L.file_for("/study/pairing?dir=hex/balance&pairing=3&size=50&page=2")
    b = L.file_for("/study/pairing?page=2&size=50&pairing=3&dir=hex/balance")
    assert a == b == "pairing/hex~2Fbalance__page-2__pairing-3.html"
    one = L.file_for("/study/pairing?dir=x&pairing=1&page=1&size=50")
    assert one == L.file_for("/study/pairing?pairing=1&dir=x") == "pairing/x__pairing-1.html"
    assert L.file_for("/study/table.csv?dir=b&name=matrix") == "table/b__name-matrix.csv"
    assert L.file_for("/static/vendor/vega.min.js") == "static/vendor/vega.min.js"


def test_pages_not_in_the_site_have_no_file():
    for url in ("/odds/manoeuvre", "/replay", "/jobs?x=1", "#top", "https://x.org/a", "//x/y"):
        assert L.file_for(url) is None


def test_distinct_urls_give_distinct_files():
    urls = ["/study?dir=a_b", "/study?dir=a/b", "/study?dir=a~2Fb", "/study?dir=a.b",
            "/study?dir=a&label=x", "/study?dir=a__label-x", "/study?dir=" + "x" * 300,
            "/study?dir=" + "x" * 301]  # fmt: skip
    files = [L.file_for(u) for u in urls]
    assert len(set(files)) == len(files)
    assert all(len(f.rsplit("/", 1)[1]) <= L.MAX_NAME + 5 for f in files)


@pytest.mark.parametrize("url", HOSTILE)
def test_hostile_queries_stay_under_out(url, tmp_path):
    f = L.file_for(url)
    if f is None:
        return
    out = tmp_path / "site"
    out.mkdir()
    target = L.confined(out, f)
    assert out.resolve() in target.parents
    folder, name = f.rsplit("/", 1)
    assert ".." not in f.split("/") and "/" not in name and "\x00" not in f
    assert folder in {"study", "pairing", "table", "compare", "replay/hex", "static"}


@pytest.mark.parametrize("rel", ["../x.html", "/etc/x", "a/../../x", "", "a\x00b"])
def test_confined_refuses_leaving(rel, tmp_path):
    with pytest.raises(UsageError, match="--out"):
        L.confined(tmp_path, rel)


def test_links_are_made_relative():
    held = {"study/balance.html", "pairing/balance__pairing-0.html", "index.html",
            "static/style.css"}  # fmt: skip
    here = "study/balance.html"
    assert L.link("/studies", here, held) == "../index.html"
    assert L.link("/static/style.css", here, held) == "../static/style.css"
    assert L.link("/study/pairing?pairing=0&dir=balance", here, held) == (
        "../pairing/balance__pairing-0.html"
    )
    assert L.link("/study?dir=balance#matrix", here, held) == "balance.html#matrix"
    assert L.link("/odds/hex", here, held) is None  # not in the site: no link
    assert L.link("/study?dir=other", here, held) is None
    assert L.link("#top", here, held) == "#top"
    assert L.link("https://example.org/", here, held) == "https://example.org/"


def test_rewrite_page_attributes_json_and_htmx():
    held = {"study/b.html", "pairing/b__pairing-1.html", "index.html",
            "replay/manoeuvre/b__game-3__pairing-1.html"}  # fmt: skip
    page = (
        '<a href="/study/pairing?dir=b&amp;pairing=1">p</a>'
        '<a class="x" href="/jobs">the <b>jobs</b></a>'
        '<td><a href="/replay/manoeuvre?study=b&amp;pairing=1&amp;game=3">3</a></td>'
        '<td><a href="/replay/manoeuvre?study=b&amp;pairing=1&amp;game=4">4</a></td>'
        '<form action="/odds/hex" hx-get="/odds/hex/result" hx-target="#x"><button>go</button></form>'
        '<img src="/odds/hex/chart.png">'
        '<script src="/static/vendor/htmx.min.js"></script>'
        '<script type="application/json" class="vega-spec" data-target="c">'
        '{"data":{"values":[{"href":"/study/pairing?dir=b\\u0026pairing=1","n":"\\u003c/script\\u003e"}]}}'
        "</script>"
    )
    out = L.rewrite_page(page, "study/b.html", held)
    assert 'href="../pairing/b__pairing-1.html"' in out
    assert "p</a>the <b>jobs</b><td>" in out
    assert '<a href="../replay/manoeuvre/b__game-3__pairing-1.html">▶ 3</a>' in out
    assert "<td>4</td>" in out
    assert '<form><fieldset class="static-off" disabled' in out and "action=" not in out
    assert "<img>" in out  # an image the site lacks: no address at all
    assert "hx-" not in out
    assert 'src="../static/vendor/htmx.min.js"' in out
    assert '"href":"../pairing/b__pairing-1.html"' in out
    assert "\\u003c/script\\u003e" in out and "</script>" not in out.split("vega-spec")[1][:-9]
    assert 'href="/' not in out and 'src="/' not in out


def test_names_for_the_studies():
    from manoeuvre_sim.web.site.build import names_for

    paths = [Path("/r/balance"), Path("/r/hex/balance"), Path("/r/hex/whatif")]
    assert names_for(paths) == ["balance", "hex/balance", "hex/whatif"]
    assert names_for([Path("/r/hex/balance")]) == ["balance"]
    assert names_for([Path("/r/b"), Path("/r/b/c/b")]) == ["r/b", "c/b"]


def test_boards_pack_and_unpack_exactly():
    from manoeuvre_sim.web.site.pages import pack_boards, unpack

    boards = ['<svg><g id="a">x</g><circle r="1"/></svg>', '<svg><g id="a">x</g><circle r="2"/></svg>',
              '<svg><g id="a">x</g><circle r="1"/></svg>', "", "no tag"]  # fmt: skip
    parts, packed = pack_boards(boards)
    assert [unpack(parts, r) for r in packed] == boards
    assert len(parts) == 7 and packed[2] == [0, 5]


def test_the_default_page_size_is_the_pairing_pages():
    from manoeuvre_sim.web.studies.pages import DEFAULT_PAGE_SIZE

    assert ("size", str(DEFAULT_PAGE_SIZE)) in L.DEFAULTS["/study/pairing"]
