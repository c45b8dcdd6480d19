"""The static site's addresses: each workbench URL the site holds mapped to one file name
under ``--out``, and every link of a rendered page rewritten to the relative path of its file.

The mapping is a pure function of the URL (its path and its query, the query's items
sorted), so the same study always gives the same files. Every piece of a query becomes one
file-name component in which each character other than ``A-Z a-z 0-9 -`` is written
``~XX`` (its UTF-8 bytes in hex): a ``/``, a ``.``, a ``..`` or an encoded slash in a
hostile query cannot make a name leave its folder, and two different URLs never share a
file. :func:`confined` checks the joined path once more before anything is written.

A link to a page the site does not hold (the odds, the forms, a game not replayed, a job
page) is no link at all: its text stays (a form sending to one is disabled, titled
:data:`OFF`), so no page of the site leads to a page it does not have.
"""

from __future__ import annotations

import hashlib
import html
import json
import posixpath
import re
from pathlib import Path, PurePosixPath
from urllib.parse import parse_qsl, unquote, urlsplit

from manoeuvre_sim.core.errors import UsageError

OFF = "needs the live workbench (manoeuvre-sim ui)"  # the title of an unlinked link
INDEX = "index.html"
MAX_NAME = 120  # characters of a file name before it is shortened with a hash
_PLAIN = re.compile(r"[A-Za-z0-9-]")
# workbench path -> (folder under --out, the query key that names the file first, suffix)
FOLDERS = {
    "/study": ("study", "dir", ".html"),
    "/study/pairing": ("pairing", "dir", ".html"),
    "/study/table.csv": ("table", "dir", ".csv"),
    "/compare": ("compare", "a", ".html"),
    "/fix/result": ("fix", "dir", ".html"),
}
# a registered game's replay page and trace (``/replay/<key>``, ``/replay/<key>/trace.jsonl``)
# -> (``replay/<key>``, "study", ".html" or ".jsonl")
_REPLAY = re.compile(r"/replay/([a-z][a-z0-9_-]*)(/trace\.jsonl)?")
ROOT_PAGES = {"/": INDEX, "/studies": INDEX}
# query items that name a page's default (a pairing's first page of 50 games): left out of
# the file name, so /study/pairing?dir=x&pairing=1 and ...&page=1&size=50 are one file
DEFAULTS = {"/study/pairing": {("page", "1"), ("size", "50")}}
_ATTR = re.compile(r'(\s(?:href|src|action)=)"([^"]*)"')
_ANCHOR = re.compile(r'<a\b([^>]*?)\shref="([^"]*)"([^>]*)>(.*?)</a>', re.DOTALL)
_FORM = re.compile(r'(<form\b[^>]*?)\saction="([^"]*)"([^>]*>)(.*?)(</form>)', re.DOTALL)
_HX = re.compile(r'\shx-[a-z-]+="[^"]*"')
_JSON_SCRIPT = re.compile(
    r'(<script\b[^>]*type="application/json"[^>]*>)(.*?)(</script>)', re.DOTALL
)


def escape_part(text: str) -> str:
    """``text`` as one safe file-name component: every character but ``A-Za-z0-9-`` as
    ``~XX`` per UTF-8 byte (so no ``/``, ``.``, ``~`` or NUL survives as itself)."""
    out = []
    for ch in str(text):
        if _PLAIN.fullmatch(ch):
            out.append(ch)
        else:
            out.extend(f"~{b:02X}" for b in ch.encode("utf-8"))
    return "".join(out) or "~"


def _shorten(name: str) -> str:
    if len(name) <= MAX_NAME:
        return name
    digest = hashlib.sha256(name.encode("utf-8")).hexdigest()[:16]
    return f"{name[: MAX_NAME - 18]}~~{digest}"


def key_of(url: str) -> tuple[str, tuple[tuple[str, str], ...]] | None:
    """A workbench URL (``/study?dir=x``) as (path, sorted query items); None when it is
    not a server-relative address (``#top``, ``https://...``, ``//host``, ``mailto:``)."""
    if not url.startswith("/") or url.startswith("//"):
        return None
    parts = urlsplit(url)
    items = tuple(sorted(parse_qsl(parts.query, keep_blank_values=True)))
    return parts.path, items


def file_for(url: str) -> str | None:
    """The file (``/``-separated, relative to ``--out``) that holds the page at ``url``, or
    None when the site has no file for that kind of address.

    ``/study?dir=balance`` is ``study/balance.html``; ``/study?dir=hex/balance&label=x``
    is ``study/hex~2Fbalance__label-x.html``; ``/studies`` and ``/`` are ``index.html``.
    """
    key = key_of(url)
    if key is None:
        return None
    path, items = key
    if path in ROOT_PAGES:
        return ROOT_PAGES[path]
    if path.startswith("/static/"):
        rel = unquote(path[len("/") :])
        pure = PurePosixPath(rel)
        if any(p in ("..", ".", "") for p in pure.parts) or "\\" in rel or "\x00" in rel:
            return None
        return pure.as_posix()
    folder_of = FOLDERS.get(path) or _replay_folder(path)
    if folder_of is None:
        return None
    folder, first, suffix = folder_of
    items = tuple(i for i in items if i not in DEFAULTS.get(path, ()))
    lead = [v for k, v in items if k == first]
    rest = [(k, v) for k, v in items if k != first]
    pieces = [escape_part(v) for v in lead]
    pieces += [f"{escape_part(k)}-{escape_part(v)}" for k, v in rest]
    name = _shorten("__".join(pieces) if pieces else "~") + suffix
    return f"{folder}/{name}"


def _replay_folder(path: str) -> tuple[str, str, str] | None:
    """A registered game's replay address's folder, key and suffix (as :data:`FOLDERS`)."""
    from manoeuvre_sim.core.games import GAMES

    m = _REPLAY.fullmatch(path)
    if m is None or m.group(1) not in GAMES:
        return None
    return f"replay/{m.group(1)}", "study", ".jsonl" if m.group(2) else ".html"


def confined(out: Path, rel: str) -> Path:
    """``out / rel`` when it stays under ``out`` (no absolute path, no ``..``); else a
    UsageError. Every file the site writes passes through here."""
    pure = PurePosixPath(rel)
    if pure.is_absolute() or any(p in ("..", "") for p in pure.parts) or "\x00" in rel:
        raise UsageError(f"--out: refusing to write {rel!r} (it would leave the site folder)")
    base = Path(out).resolve()
    target = (base / pure).resolve()
    if base not in target.parents:
        raise UsageError(f"--out: refusing to write {rel!r} (it would leave the site folder)")
    return target


def relative(from_file: str, to_file: str) -> str:
    """The link from the page ``from_file`` to ``to_file`` (both relative to ``--out``)."""
    start = posixpath.dirname(from_file) or "."
    return posixpath.relpath(to_file, start)


def _static(rel: str) -> bool:
    """Whether ``rel`` is one of the workbench's static files (the site copies them all)."""
    from manoeuvre_sim.web.render import STATIC

    return rel.startswith("static/") and (STATIC / rel[len("static/") :]).is_file()


def target(url: str, held: set[str]) -> str | None:
    """The file the site holds for the server address ``url`` (its ``#fragment`` aside),
    or None when the site does not hold it."""
    f = file_for(url.partition("#")[0])
    return f if f is not None and (f in held or _static(f)) else None


def link(url: str, from_file: str, held: set[str]) -> str | None:
    """``url`` as the page ``from_file`` of the site should link it: the relative path of
    its file when the site holds it (a ``#fragment`` kept), None when it is a workbench
    address the site lacks (the caller drops the link), unchanged when it is not a
    workbench address."""
    if not url.startswith("/") or url.startswith("//"):
        return url
    f = target(url, held)
    if f is None:
        return None
    fragment = url.partition("#")[2]
    rel = relative(from_file, f)
    return f"{rel}#{fragment}" if fragment else rel


def _json_links(value, from_file: str, held: set[str]):
    if isinstance(value, dict):
        return {k: _json_links(v, from_file, held) for k, v in value.items()}
    if isinstance(value, list):
        return [_json_links(v, from_file, held) for v in value]
    if isinstance(value, str) and value.startswith("/") and not value.startswith("//"):
        return link(value, from_file, held)
    return value


def script_json(value) -> str:
    """JSON for a ``<script>`` element, escaped as the pages' ``script_json`` filter does."""
    from manoeuvre_sim.web.render import _tojson_script

    return str(_tojson_script(value))


def rewrite_page(text: str, from_file: str, held: set[str]) -> str:
    """A rendered page with every server address made a relative file link: its
    ``href``/``src``/``action`` attributes and the addresses inside its JSON ``<script>``
    blocks (the charts' cells, the replay's data); its htmx attributes removed (a static
    copy has no server to ask). What the site lacks is not linked: a link to it becomes its
    text alone, a form sending to it is disabled, an attribute or a JSON address
    naming it is dropped (``null``). A link to a replayed game named by its number reads
    ``▶ N``."""

    def anchor(m: re.Match) -> str:
        url = html.unescape(m.group(2))
        rel = link(url, from_file, held)
        if rel is None:
            return m.group(4)
        inner = m.group(4)
        if inner.strip().isdigit() and (target(url, held) or "").startswith("replay/"):
            inner = f"▶ {inner.strip()}"
        href = html.escape(rel, quote=True)
        return f'<a{m.group(1)} href="{href}"{m.group(3)}>{inner}</a>'

    def form(m: re.Match) -> str:
        if link(html.unescape(m.group(2)), from_file, held) is not None:
            return m.group(0)
        return (f'{m.group(1)}{m.group(3)}<fieldset class="static-off" disabled title="{OFF}">'
                f"{m.group(4)}</fieldset>{m.group(5)}")  # fmt: skip

    def attr(m: re.Match) -> str:
        rel = link(html.unescape(m.group(2)), from_file, held)
        return "" if rel is None else f'{m.group(1)}"{html.escape(rel, quote=True)}"'

    def block(m: re.Match) -> str:
        try:
            value = json.loads(m.group(2))
        except ValueError:
            return m.group(0)
        return m.group(1) + script_json(_json_links(value, from_file, held)) + m.group(3)

    text = _HX.sub("", text)
    text = _ANCHOR.sub(anchor, text)
    text = _FORM.sub(form, text)
    text = _ATTR.sub(attr, text)
    return _JSON_SCRIPT.sub(block, text)
