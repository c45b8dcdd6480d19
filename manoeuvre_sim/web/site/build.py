"""A static copy of the workbench for some studies (``manoeuvre-sim site``): the pages the
server shows, written as plain files that open from disk or any static host, with no server
and no network (docs/ui.md).

The pages are the workbench's own: the application is built in process
(:func:`~manoeuvre_sim.web.app.create_app`) over a scratch folder holding the studies
(hard links, else copies, named by the shortest distinct tail of their paths), and each
address is requested through Starlette's TestClient. Then every link is made relative to the
file written (:mod:`.links`), the static files are copied with their licences, and the
whole site is written into a scratch folder renamed onto ``--out`` at the end, so an
interrupted run never leaves half a site.

What the site holds: the list of its studies (``index.html``), each study's page (and one per
label of its records), each pairing's page (its games table's first page, 50 games: the
others are in the study's records), the study's CSV tables, the replays of a sample of games
per study (:func:`~manoeuvre_sim.analyses.common.study_sample.lopsided_games`, each board
written into the page so stepping needs no server), and the comparison page of every two
studies of the same game when the workbench has ``/compare`` (linked from the index, in
place of its form, and from both studies' pages). ``site.json`` records the seeds, rules
versions and data hashes of the studies and the tool's version.

Nothing links to a page the site lacks (:func:`~.links.rewrite_page`): such a link is
its text alone, the navigation keeps only the items the copy has, and a pairing's page says
which of its games replay (a ▶ before their number). ``site.css`` styles these bits.
"""

from __future__ import annotations

import html as H
import json
import os
import re
import shutil
import tempfile
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit

from manoeuvre_sim import __version__
from manoeuvre_sim.analyses.common import study_files as SF
from manoeuvre_sim.analyses.common.study_sample import RULE, lopsided_games
from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.web.game_parts import has_replay
from manoeuvre_sim.web.render import STATIC
from manoeuvre_sim.web.site import links as L
from manoeuvre_sim.web.site.pages import (
    SITE_CSS,
    SITE_JS,
    comparisons_html,
    games_note_html,
    nav_note_html,
    provenance_html,
    replays_html,
    static_replay,
)

MAX_FILES = 20_000  # pages and tables of one site at most
# followed from page to page (a fix's study page links its result page)
CRAWLED = {"/study", "/study/pairing", "/study/table.csv", "/fix/result"}


@dataclass
class Source:
    path: Path  # the study directory given to --from
    name: str  # its name in the site (the scratch folder's sub-path)
    info: SF.StudyInfo | None = None


@dataclass
class SiteResult:
    out: Path
    files: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # addresses the workbench refused
    record: dict = field(default_factory=dict)


def check_source(path: str | Path) -> Path:
    """A ``--from`` directory, when it is a finished or interrupted study; else a one-line
    UsageError naming ``--from DIR``."""
    p = Path(path)
    if not p.is_dir():
        raise UsageError(f"--from {path}: no such directory")
    if not (p / "manifest.json").is_file():
        raise UsageError(f"--from {path}: not a study directory (no manifest.json)")
    info = SF.read_info(p, p.name)
    if info.status not in (SF.COMPLETE, SF.INTERRUPTED):
        raise UsageError(f"--from {path}: not a readable study ({info.status}: {info.problem})")
    return p.resolve()


def names_for(paths: list[Path]) -> list[str]:
    """Each study's name in the site: its path under the studies' common folder
    (``balance``, ``hex/balance``); one study alone, or one inside another, by the
    shortest tail of its path that no other shares."""
    if len(paths) > 1:
        common = Path(os.path.commonpath([str(p) for p in paths]))
        rels = [p.relative_to(common).as_posix() for p in paths]
        if all(r != "." for r in rels):
            return rels
    parts = [p.parts for p in paths]
    names = []
    for mine in parts:
        for k in range(1, len(mine) + 1):
            tail = mine[-k:]
            if all(o == mine or o[-k:] != tail for o in parts):
                break
        names.append("/".join(tail))
    return names


def _link_tree(src: Path, dst: Path) -> None:
    def copy(a, b):
        try:
            os.link(a, b)
        except OSError:
            shutil.copy2(a, b)

    shutil.copytree(src, dst, copy_function=copy, symlinks=False)


def check_out(out: Path, sources: list[Path], force: bool) -> None:
    """Refuse an ``--out`` that is a file, is, holds or is inside one of the studies (even
    with ``--force``: the site replaces its folder), or holds files (without ``--force``)."""
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out}: exists and is not a directory")
    o = out.resolve()
    for s in sources:
        if o == s or o in s.parents:
            why = "is" if o == s else "holds"
            raise UsageError(f"--out {out}: {why} the study {s}, which the site would replace; "
                             "choose another folder")  # fmt: skip
        if s in o.parents:
            raise UsageError(f"--out {out}: is inside the study {s}, which the site would "
                             "write into; choose another folder")  # fmt: skip
    if out.is_dir() and any(out.iterdir()) and not force:
        raise UsageError(f"--out {out}: not empty; give --force to replace it")


class _Crawler:
    """Requests pages through the TestClient, rewrites and keeps them, and tells
    ``progress`` (files written so far, files planned, what) after each."""

    def __init__(self, client, progress, scratch: Path):
        self.client = client
        self.hide = sorted({str(scratch), str(scratch.resolve())}, key=len, reverse=True)
        self.progress = progress
        self.pages: dict[str, str | bytes] = {}  # file -> rewritten text (or bytes)
        self.raw: dict[str, tuple[str, str]] = {}  # file -> (url, raw text) of pages
        self.skipped: list[str] = []
        self.queued: set[str] = set()  # files the crawl will ask for and has not yet
        self.later = 0  # files asked for after the crawl (replays, comparisons)

    def done(self) -> int:
        return len(self.pages) + len(self.raw)

    def total(self) -> int:
        return self.done() + len(self.queued) + self.later

    def tell(self, what: str) -> None:
        if self.progress:
            self.progress(self.done(), max(self.total(), self.done()), what)

    def get(self, url: str, required: bool = True) -> str | None:
        f = L.file_for(url)
        if f is None:
            raise UsageError(f"site: no file for {url!r}")
        if f in self.pages or f in self.raw:
            return f
        if self.done() >= MAX_FILES:
            raise UsageError(f"site: more than {MAX_FILES} files; give fewer studies")
        r = self.client.get(url)
        if f in self.queued:
            self.queued.discard(f)
        elif self.later:
            self.later -= 1
        if r.status_code != 200:
            if required:
                raise UsageError(f"site: the workbench answered {r.status_code} at {url}")
            self.skipped.append(f"{url} ({r.status_code})")
            return None
        if f.endswith(".html"):
            text = r.text
            for folder in self.hide:  # the scratch folder is no place a reader can go
                text = text.replace(folder, "the studies of this copy")
            self.raw[f] = (url, text)
        else:
            self.pages[f] = r.content
        self.tell(f)
        return f

    def crawl(self, seeds: list[str]) -> None:
        """Each seed, then every page of :data:`CRAWLED` its pages link to (a pairing's
        first page of games only)."""
        todo = deque(seeds)
        self.queued |= {L.file_for(u) for u in seeds}
        while todo:
            url = todo.popleft()
            f = self.get(url)
            if f is None or f not in self.raw:
                continue
            for link in _links(self.raw[f][1]):
                key = L.key_of(link)
                if key is None or key[0] not in CRAWLED:
                    continue
                g = L.file_for(link)
                if g in self.raw or g in self.pages or g in self.queued:
                    continue
                if key[0] == "/study/pairing" and dict(key[1]).get("page", "1") != "1":
                    continue  # the rest of the games are in the records (and the workbench)
                self.queued.add(g)
                todo.append(link)


def _links(text: str) -> list[str]:
    return [H.unescape(m.group(2)) for m in L._ATTR.finditer(text)]


def _compare_urls(app, sources: list[Source]) -> list[str]:
    """``/compare?a=..&b=..`` for every two studies of the same game, when the workbench
    has that page (the pairs it refuses are left out, and said so)."""
    if not any(getattr(r, "path", None) == "/compare" for r in app.routes):
        return []
    urls = []
    for i, a in enumerate(sources):
        for b in sources[i + 1 :]:
            if a.info.game == b.info.game:
                urls.append("/compare?" + urlencode({"a": a.name, "b": b.name}))
    return urls


def _sample(src: Source, n: int) -> list[tuple[str, int, str | None, int, float | None, int]]:
    """The games a study's replays are drawn from: ``(url, pairing, label, game, side a's
    win rate, games)``; a fix's: the first game of each of its first ``n`` touched pairings
    in its confirmation, as the base played it and as the fixed sides did (its result
    page's pairs, ``fix_page.replay_pairs``); another study's: :func:`lopsided_games`."""
    from manoeuvre_sim.web.studies.pages import replay_href

    if src.info.kind == "fix":
        from manoeuvre_sim.web.studies.fix_page import replay_pairs

        out = []
        for r in replay_pairs(src.info)[:n]:
            g = r["games"][0]
            out += [(g[w], g[f"{w}_pairing"], g[f"{w}_label"], g["game"], None, 0)
                    for w in ("base", "fixed")]  # fmt: skip
        return out
    index = SF.pairing_index(src.info.path)
    many = "label" in index and index["label"].nunique() > 1
    return [(replay_href(src.info, s.pairing, s.game, s.label if many else None), s.pairing,
             s.label, s.game, s.win_rate_a, s.games)
            for s in lopsided_games(src.info.path, n)]  # fmt: skip


def _replays(crawler: _Crawler, src: Source, n: int) -> list[dict]:
    """The sampled games' replay pages, their boards written in, and their traces."""
    done = []
    for url, pairing, label, game, rate, games in _sample(src, n):
        f = crawler.get(url, required=False)
        if f is None:
            crawler.later = max(crawler.later - 1, 0)  # nor its trace
            continue
        page_url, text = crawler.raw[f]
        crawler.raw[f] = (page_url, static_replay(crawler.client, text, crawler.tell, f))
        trace = url.replace("?", "/trace.jsonl?", 1)
        crawler.get(trace, required=False)
        done.append({"url": url, "file": f, "pairing": pairing, "label": label,
                     "game": game, "win_rate_a": rate, "games": games})  # fmt: skip
    return done


def _record(sources: list[Source], replays: dict, compare: list[str], skipped, n: int) -> dict:
    studies = []
    for s in sources:
        m = s.info.manifest or {}
        studies.append({
            "name": s.name, "from": str(s.path), "game": s.info.game, "kind": s.info.kind,
            "status": s.info.status, "seed": m.get("seed"),
            "rules_version": m.get("rules_version"), "data_hash": s.info.data_hash,
            "games": m.get("games"), "tool": m.get("tool"), "tool_version": m.get("version"),
            "command": m.get("command"), "replays": replays.get(s.name, []),
        })  # fmt: skip
    return {"tool": "manoeuvre-sim", "version": __version__, "replay_rule": RULE,
            "replays": n,
            "studies": studies, "comparisons": compare, "skipped": skipped}  # fmt: skip


_GAMES = re.compile(r'(<section id="games">)(.*?)(</section>)', re.DOTALL)
_PAGER = re.compile(r'<div class="controls pager">.*?</div>', re.DOTALL)
_NOTE = re.compile(r"<p\b[^>]*>(?:(?!</p>).)*\breplay(?:(?!</p>).)*</p>", re.DOTALL | re.I)
_HEAD = re.compile(r"(<h2>[^<]*</h2>)")
_NAV = re.compile(r"(<nav>)(.*?)(</nav>)", re.DOTALL)
_NAV_LINK = re.compile(r'<a\b[^>]*\shref="([^"]*)"[^>]*>.*?</a>\s*', re.DOTALL)
_COMPARE_FORM = re.compile(r'<form id="compare-form".*?</form>', re.DOTALL)
_SAME_SORT = re.compile(r'<td( class="name")? data-sort="([^"<>]*)">\2</td>')
_TICK = re.compile(r'<input type="checkbox" name="study" value="([^"]*)" form="compare-form"[^>]*>')


def _pairs(record: dict) -> list[tuple[str, str, str]]:
    """The comparisons written: (url, study a, study b)."""
    out = []
    for url in record["comparisons"]:
        q = dict(parse_qsl(urlsplit(url).query))
        out.append((url, q["a"], q["b"]))
    return out


def _index_page(text: str, record: dict) -> str:
    """The list of studies as the copy has it: the comparisons written in place of the
    form that asks the server for one, and each study's row linking its comparisons in
    place of its tick box."""
    pairs = _pairs(record)
    text = _COMPARE_FORM.sub(lambda m: comparisons_html(pairs, None), text, count=1)

    def tick(m: re.Match) -> str:
        me = H.unescape(m.group(1))
        return " ".join(f'<a href="{H.escape(u)}">v {H.escape(b if a == me else a)}</a>'
                        for u, a, b in pairs if me in (a, b))  # fmt: skip

    return _TICK.sub(tick, text)


def _pairing_games(text: str, games: int | None, replays: int) -> str:
    """A pairing's page as the copy has it (after its links are rewritten): the pager and
    the server's note on replays replaced by what is true here, which games are in the
    table and which of them replay (the ▶ links)."""
    m = _GAMES.search(text)
    if m is None:
        return text
    body = _PAGER.sub("", _NOTE.sub("", m.group(2)), count=1)
    rows = body.count("<tr>") - 1  # the header's row
    linked = body.count(">▶ ")
    note = games_note_html(max(rows, 0), games, linked, replays)
    body, n = _HEAD.subn(lambda h: h.group(1) + note, body, count=1)
    if not n:
        body = note + body
    return text[: m.start(2)] + body + text[m.end(2) :]


def _finish(f: str, text: str, record: dict, held: set[str], games: dict) -> str:
    """A rendered page as the site writes it: the sample's note on a study's page and its
    comparisons, the provenance and comparisons on the index, site.js where there are
    charts, site.css, a footer naming site.json, then every link made relative, the
    navigation's live-only items left out and a pairing's games note made true."""
    study = record["files"].get(f)
    if study is not None:
        s = record["by_name"][study]
        extra = replays_html(s["replays"], RULE)
        extra += comparisons_html([p for p in _pairs(record) if study in p[1:]], study)
        text = text.replace("</main>", extra + "</main>", 1)
    if f == L.INDEX:
        text = _index_page(text, record)
        text = text.replace("</main>", provenance_html(record) + "</main>", 1)
    if 'class="vega-spec"' in text:
        js = L.relative(f, "site.js")
        text = text.replace("</body>", f'<script src="{js}"></script></body>', 1)
    css = L.relative(f, "site.css")
    text = text.replace("</head>", f'<link rel="stylesheet" href="{css}">\n</head>', 1)
    where = L.relative(f, "site.json")
    text = text.replace(" · local workbench (docs/ui.md)", "", 1).replace(
        "</footer>",
        f' · a static copy (manoeuvre-sim site): <a href="{where}">site.json</a></footer>',
        1,
    )
    text = _NAV.sub(lambda m: m.group(1) + _NAV_LINK.sub(
        lambda a: a.group(0) if L.target(H.unescape(a.group(1)), held) else "", m.group(2)
    ) + nav_note_html() + m.group(3), text, count=1)  # fmt: skip
    text = L.rewrite_page(text, f, held)
    if f.startswith("pairing/"):
        text = _pairing_games(text, games.get(f), record["replays"])
    # a cell's sort key when it is its text (the tables' script sorts by the text then)
    return _SAME_SORT.sub(r"<td\1>\2</td>", text)


def _write(tmp: Path, crawler: _Crawler, record: dict, games: dict) -> list[str]:
    held = set(crawler.pages) | set(crawler.raw)
    index = dict(record)
    index["files"] = {L.file_for("/study?" + urlencode({"dir": s["name"]})): s["name"]
                      for s in record["studies"]}  # fmt: skip
    index["by_name"] = {s["name"]: s for s in record["studies"]}
    pages = {f: text for f, (_url, text) in crawler.raw.items()}
    for f, text in sorted(pages.items()):
        _put(tmp, f, _finish(f, text, index, held, games).encode("utf-8"))
    for f, data in sorted(crawler.pages.items()):
        _put(tmp, f, data)
    _put(tmp, "site.js", SITE_JS.encode("utf-8"))
    _put(tmp, "site.css", SITE_CSS.encode("utf-8"))
    _put(tmp, "site.json", (json.dumps(record, indent=2) + "\n").encode("utf-8"))
    shutil.copytree(STATIC, tmp / "static", ignore=shutil.ignore_patterns("__pycache__"))
    return sorted([*pages, *crawler.pages, "site.js", "site.css", "site.json"])


def _games_of(srcs: list[Source]) -> dict[str, int]:
    """The games of each pairing's page, by its file (from each study's pairing index)."""
    out = {}
    for s in srcs:
        index = SF.pairing_index(s.info.path)
        many = "label" in index and index["label"].nunique() > 1
        for row in index.itertuples():
            q = {"dir": s.name, "pairing": int(row.pairing)}
            if many:
                q["label"] = row.label
            out[L.file_for("/study/pairing?" + urlencode(q))] = int(row.games)
    return out


def _put(tmp: Path, rel: str, data: bytes) -> None:
    target = L.confined(tmp, rel)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)


def _swap(tmp: Path, out: Path) -> None:
    """The finished site onto ``out``: the old content (``--force``) moved aside first and
    removed only once the new one is in place."""
    old = None
    if out.exists():
        old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old-", dir=out.parent))
        os.replace(out, old / "site")
    os.replace(tmp, out)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def build_site(
    sources: list[str | Path],
    out: str | Path,
    replays: int = 3,
    force: bool = False,
    progress: Callable[[int, int, str], None] | None = None,
) -> SiteResult:
    """Write the static site of the studies ``sources`` into ``out``.

    Parameters
    ----------
    sources : paths
        Study directories (``--from``); each must hold a manifest.
    out : path
        The site's folder; refused when it holds files unless ``force``.
    replays : int
        Games replayed per study (the sample's rule: :data:`RULE`).
    progress : callable, optional
        Called with (files so far, files in all, what) after each file is rendered and
        every 50 boards of a replay; the total grows while the crawl finds pages, and is
        exact once the studies' pages are read.
    """
    from starlette.testclient import TestClient

    from manoeuvre_sim.web.app import create_app

    if not sources:
        raise UsageError("--from: give at least one study directory")
    if replays < 0:
        raise UsageError(f"--replays: expected 0 or more, got {replays}")
    paths = [check_source(s) for s in sources]
    if len(set(paths)) != len(paths):
        raise UsageError("--from: the same study is given twice")
    out = Path(out)
    check_out(out, paths, force)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-", dir=out.parent))
    scratch = Path(tempfile.mkdtemp(prefix=".site-studies-", dir=out.parent))
    try:
        srcs = [Source(p, n) for p, n in zip(paths, names_for(paths), strict=True)]
        for s in srcs:
            _link_tree(s.path, scratch / s.name)
            s.info = SF.read_info(scratch / s.name, s.name)
        app = create_app(scratch, run_jobs=False)  # pages only: no job worker
        with TestClient(app, base_url="http://127.0.0.1", raise_server_exceptions=True) as client:
            crawler = _Crawler(client, progress, scratch)
            crawler.get("/studies")
            # the games replayed per study: none of a game without a replay
            per = {s.name: replays if has_replay(s.info.game) else 0 for s in srcs}
            samples = {s.name: len(_sample(s, per[s.name])) for s in srcs}
            wanted = _compare_urls(app, srcs)
            crawler.later = 2 * sum(samples.values()) + len(wanted)  # replay + trace each
            crawler.crawl(["/study?" + urlencode({"dir": s.name}) for s in srcs])
            sampled = {s.name: _replays(crawler, s, per[s.name]) for s in srcs}
            compare = [u for u in wanted if crawler.get(u, required=False)]
            games = _games_of(srcs)
        record = _record(srcs, sampled, compare, crawler.skipped, replays)
        files = _write(tmp, crawler, record, games)
        _swap(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return SiteResult(out=out, files=files, skipped=crawler.skipped, record=record)
