"""Where a study's tasks run: this process (``local``) or a Dask cluster (``dask``).

A backend is an interface, not a fork: both run the same task function
(``study.run_task``, which plays a block of the study's game: ``games.Game.play_block``)
on the same items and hand the results back **in task order**, so the records, the store
and the tables are the same on either, for every game; only the scheduling differs.

- :class:`LocalBackend` plays in this process on ``--threads`` numba threads: a study of
  many tasks plays that many at once, each on one thread (their results still handed back
  in task order); a study of few plays them one after the other, each on all the threads.
- :class:`DaskBackend` joins a cluster (``--scheduler ADDRESS``) or starts a
  ``LocalCluster`` of worker processes with one thread each. The study's shared data (the
  pairings and what the game prepared from them: Manoeuvre's packed tables) is scattered to every worker once; each task is then a
  small message (a pairing index and a game range) and comes back as its records. Each
  worker plays its task on one numba thread (a cluster scales by worker processes: run
  ``dask worker ADDRESS --nworkers N --nthreads 1``). A worker that dies loses only the
  task it was playing: the scheduler runs it again elsewhere (``distributed``'s
  ``allowed-failures``), and as game ``i`` is seeded from (pairing seed, i) alone the retry
  gives the same records.

The local backend imports none of Dask: it is an optional extra
(``pip install 'manoeuvre-sim[dask]'``).
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from manoeuvre_sim.core.errors import UsageError

BACKENDS = ("local", "dask")


class LocalBackend:
    """Tasks in this process on ``threads`` numba threads (0: all cores).

    Given a study of at least ``TASKS_PER_THREAD`` tasks per thread (:meth:`plan`), it plays
    as many tasks at once as it has threads, each on one numba thread (the kernels release
    the GIL): a task's set-up, its games' frame and the store's write, which hold the
    GIL, then run beside the other tasks' games instead of leaving every core idle, and no
    thread waits at the end of a block for the other's half (issue 41: a fixer's 100-game
    blocks 1.3x, a balance study's 1,000-game blocks some 1.1x). Fewer tasks (one large
    ``simulate``) play one after the other, each on all the threads. Either way every game
    is seeded from its pairing and index alone: the same records."""

    name = "local"
    TASKS_PER_THREAD = 4

    def __init__(self, threads: int = 0) -> None:
        if threads < 0:
            raise UsageError(f"--threads: expected 0 (all cores) or more, got {threads}")
        self.threads = threads
        self.at_once = 1

    def plan(self, tasks: int) -> None:
        """How the next :meth:`map` plays its ``tasks`` tasks (``study.play`` says)."""
        n = self.total_threads()
        self.at_once = n if n > 1 and tasks >= self.TASKS_PER_THREAD * n else 1

    @property
    def task_threads(self) -> int:
        return 1 if self.at_once > 1 else self.threads

    def total_threads(self) -> int:
        import numba

        n = numba.config.NUMBA_NUM_THREADS
        return min(self.threads or n, n)

    def map(self, fn: Callable, shared: Any, items: Iterable) -> Iterator:
        """``fn(shared, item)`` for each item, lazily, in order: one after the other, or
        :attr:`at_once` at a time on as many Python threads (two waiting per thread)."""
        if self.at_once == 1:
            for item in items:
                yield fn(shared, item)
            return
        from concurrent.futures import ThreadPoolExecutor

        pool = ThreadPoolExecutor(self.at_once, thread_name_prefix="task")
        pending: deque = deque()
        try:
            for item in items:
                pending.append(pool.submit(fn, shared, item))
                if len(pending) >= 2 * self.at_once:
                    yield pending.popleft().result()
            while pending:
                yield pending.popleft().result()
        finally:  # interrupted: the tasks playing end, the waiting ones are dropped
            pool.shutdown(wait=True, cancel_futures=True)

    def close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class DaskBackend:
    """Tasks on a Dask cluster: ``scheduler`` (an address such as ``tcp://host:8786``), or
    None for a ``LocalCluster`` of ``workers`` processes (default: the cores), one thread
    each. Results come back in task order; at most ``window`` tasks are in flight (default
    two per worker thread), so memory stays flat however many tasks a study has."""

    name = "dask"

    def __init__(self, scheduler: str | None = None, workers: int = 0, window: int = 0) -> None:
        try:
            from dask.distributed import Client, LocalCluster
        except ImportError:
            raise UsageError(
                "--backend dask: Dask is not installed (pip install 'manoeuvre-sim[dask]')"
            ) from None
        if workers < 0:
            raise UsageError(f"--workers: expected 0 (one per core) or more, got {workers}")
        self.cluster = None
        if scheduler:
            try:
                self.client = Client(scheduler, timeout="20s")
            except (OSError, TimeoutError, ValueError) as e:
                raise UsageError(
                    f"--scheduler {scheduler}: cannot reach a Dask scheduler there ({e})"
                ) from None
        else:
            import signal

            n = workers or os.cpu_count() or 1
            # the worker processes ignore SIGINT: Ctrl-C stops the client, which cancels the
            # tasks in flight and closes the cluster (not every worker dying on its own)
            previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
            try:
                self.cluster = LocalCluster(
                    n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None
                )
            finally:
                signal.signal(signal.SIGINT, previous)
            self.client = Client(self.cluster)
        self.window = window

    @property
    def task_threads(self) -> int:
        return 1  # one numba thread per task: a worker process is one core

    def total_threads(self) -> int:
        info = self.client.scheduler_info()
        return sum(w.get("nthreads", 1) for w in info.get("workers", {}).values()) or 1

    def plan(self, tasks: int) -> None:
        """Nothing to choose: each task plays on one worker's one thread."""

    def map(self, fn: Callable, shared: Any, items: Iterable) -> Iterator:
        """``fn(shared, item)`` for each item on the cluster, results in order; ``shared`` is
        scattered to every worker once."""
        client = self.client
        # a key of its own (hash=False): two maps of equal data (a fix's looks) would share a
        # content-hashed key, and the first one's release would take it from the second
        [data] = client.scatter([shared], broadcast=True, hash=False)
        window = self.window or 2 * self.total_threads()
        pending: deque = deque()
        it = iter(items)
        try:
            for item in it:
                pending.append(client.submit(fn, data, item, pure=False))
                if len(pending) >= window:
                    break
            while pending:
                fut = pending.popleft()
                result = fut.result()
                fut.release()
                for item in it:
                    pending.append(client.submit(fn, data, item, pure=False))
                    break
                yield result
        finally:
            if pending:
                client.cancel(list(pending))
            data.release()

    def close(self) -> None:
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def make_backend(
    name: str = "local", *, scheduler: str | None = None, threads: int = 0, workers: int = 0
):
    """The backend named by ``--backend`` (checked; ``--scheduler`` only with dask)."""
    if name not in BACKENDS:
        raise UsageError(f"--backend: expected one of {', '.join(BACKENDS)}, got {name!r}")
    if name == "local":
        if scheduler:
            raise UsageError("--scheduler: only with --backend dask")
        if workers:
            raise UsageError("--workers: only with --backend dask (local uses --threads)")
        return LocalBackend(threads)
    return DaskBackend(scheduler, workers)
