"""Pages of a study rendered once per state of the study, then served from memory.

A study's page reads its tables and records and lays out a heatmap and tables: a few
hundred milliseconds for the default study, which twenty people opening it at once would
queue behind each other. What a study page shows depends only on its query and on the
files of its directory, so it is kept keyed on both: the names, sizes and modification
times of the directory's files and of its store's parts. A study still being written has
a new key after every part it adds, so its page is never stale; a finished one is rendered
once. One page is rendered at a time (a lock), so a crowd asking for the same cold page
renders it once and the rest read it.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path

from starlette.responses import HTMLResponse, Response

MAX_PAGES = 64  # rendered pages kept (the least recently used goes first)


def study_state(path: Path, store: str) -> tuple:
    """What a study page depends on besides its query: each file of the directory and of
    its store (``store``, a folder of parts) as (name, size, mtime)."""
    out = []
    for folder in (path, path / store):
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for e in entries:
            if e.is_file(follow_symlinks=False):
                st = e.stat(follow_symlinks=False)
                out.append((folder is path, e.name, st.st_size, st.st_mtime_ns))
    return tuple(sorted(out))


class Memo:
    """Values by key, bounded (the least recently used goes first), safe across the
    server's threads, and built one at a time: a crowd asking for the same missing value
    builds it once and the rest read it. The workbench's rendered pages (:class:`PageCache`)
    and its replayed games (``replay.data``) are kept in one."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[tuple, object] = OrderedDict()
        self._lock = threading.Lock()  # the map
        self._build = threading.Lock()  # one build at a time
        self.hits = 0
        self.renders = 0  # values built

    def lookup(self, key: tuple):
        """The value kept for ``key`` (now the most recently used), else ``None``."""
        with self._lock:
            hit = self._items.get(key)
            if hit is not None:
                self._items.move_to_end(key)
                self.hits += 1
            return hit

    def get_or_build(self, key: tuple, build: Callable[[], object],
                     keep: Callable[[object], bool] = lambda value: True):  # fmt: skip
        """The value for ``key``: from memory, else ``build()`` (kept when ``keep`` says)."""
        hit = self.lookup(key)
        if hit is not None:
            return hit
        with self._build:
            hit = self.lookup(key)  # built by another request while this one waited
            if hit is not None:
                return hit
            value = build()
            self.renders += 1
        if keep(value):
            with self._lock:
                self._items[key] = value
                self._items.move_to_end(key)
                while len(self._items) > self.size:
                    self._items.popitem(last=False)
        return value


class PageCache(Memo):
    """Rendered HTML by key: a 200 answer is kept, as its body and status."""

    def __init__(self, size: int = MAX_PAGES) -> None:
        super().__init__(size)

    def get(self, key: tuple) -> Response | None:
        hit = self.lookup(key)
        return None if hit is None else HTMLResponse(hit[0], status_code=hit[1])

    def page(self, key: tuple, render: Callable[[], Response]) -> Response:
        """The page for ``key``: from memory, else ``render()`` (a 200 answer is kept)."""

        def build() -> tuple[bytes, int]:
            response = render()
            return bytes(response.body), response.status_code

        body, status = self.get_or_build(key, build, keep=lambda v: v[1] == 200)
        return HTMLResponse(body, status_code=status)
