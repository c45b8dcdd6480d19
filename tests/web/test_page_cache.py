"""Study pages are rendered once per state of the study (web/page_cache.py): a second visit
is served from memory, and any change to the study's files renders the page again, so a
study being written is never shown stale."""

from __future__ import annotations

import os
import shutil

from manoeuvre_sim.web.app import create_app
from manoeuvre_sim.web.page_cache import PageCache, study_state
from manoeuvre_sim.web.studies import pages as S
from tests.web.server import local_client
from tests.web.study_fixtures import studies_root  # noqa: F401 (a fixture)


def test_a_page_is_rendered_once_then_again_when_the_study_changes(studies_root, tmp_path):  # noqa: F811
    root = tmp_path / "studies"
    shutil.copytree(studies_root / "balance", root / "balance")
    client = local_client(create_app(root))
    renders = S.PAGES.renders
    first = client.get("/study?dir=balance")
    assert first.status_code == 200
    assert client.get("/study?dir=balance").text == first.text
    assert S.PAGES.renders == renders + 1  # the second visit read memory
    # the study changes (a table rewritten): the page follows it
    matrix = root / "balance" / "matrix.csv"
    text = matrix.read_text(encoding="utf-8")
    matrix.write_text(text.replace("France", "Francia", 1), encoding="utf-8")
    os.utime(matrix, ns=(1, 1))  # a different time even on a coarse clock
    changed = client.get("/study?dir=balance")
    assert S.PAGES.renders == renders + 2
    assert changed.status_code == 200
    # another pairing page is its own entry; a bad query is never kept
    assert client.get("/study/pairing?dir=balance&pairing=1").status_code == 200
    n = S.PAGES.renders
    assert client.get("/study/pairing?dir=balance&pairing=abc").status_code == 400
    assert S.PAGES.renders == n


def test_the_state_sees_a_new_part_of_the_store(tmp_path):
    (tmp_path / "games.parquet").mkdir()
    before = study_state(tmp_path, "games.parquet")
    (tmp_path / "games.parquet" / "p1.parquet").write_bytes(b"x")
    assert study_state(tmp_path, "games.parquet") != before


def test_the_cache_is_bounded_and_keeps_only_answers_that_succeeded():
    from starlette.responses import HTMLResponse

    cache = PageCache(size=2)
    for k in range(3):
        cache.page((k,), lambda k=k: HTMLResponse(f"page {k}"))
    assert cache.get((0,)) is None  # the least recently used went
    assert cache.get((2,)).body == b"page 2"
    cache.page(("bad",), lambda: HTMLResponse("no", status_code=400))
    assert cache.get(("bad",)) is None
