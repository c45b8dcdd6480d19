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


class PageCache:
    """Rendered HTML by key, bounded, safe across the server's threads."""

    def __init__(self, size: int = MAX_PAGES) -> None:
        self.size = size
        self._pages: OrderedDict[tuple, tuple[bytes, int]] = OrderedDict()
        self._lock = threading.Lock()  # the map
        self._render = threading.Lock()  # one render at a time
        self.hits = 0
        self.renders = 0

    def get(self, key: tuple) -> Response | None:
        with self._lock:
            hit = self._pages.get(key)
            if hit is None:
                return None
            self._pages.move_to_end(key)
            self.hits += 1
        body, status = hit
        return HTMLResponse(body, status_code=status)

    def page(self, key: tuple, render: Callable[[], Response]) -> Response:
        """The page for ``key``: from memory, else ``render()`` (a 200 answer is kept)."""
        hit = self.get(key)
        if hit is not None:
            return hit
        with self._render:
            hit = self.get(key)  # rendered by another request while this one waited
            if hit is not None:
                return hit
            response = render()
            self.renders += 1
        if response.status_code == 200:
            with self._lock:
                self._pages[key] = (bytes(response.body), response.status_code)
                self._pages.move_to_end(key)
                while len(self._pages) > self.size:
                    self._pages.popitem(last=False)
        return response
