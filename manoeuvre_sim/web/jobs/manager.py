"""The workbench's job queue (issue 33): studies started from the pages, one at a time.

One :class:`JobManager` per application (``create_app``): a worker thread plays one job at
a time through the study layer (the store, ``resume``, the backend named when the server
started); the others wait in a queue. Each job lives in its own study directory under the
studies folder, ``jobs/<id>-<kind>/``, with its state in ``job.json`` beside the manifest,
written atomically at every change (and about twice a second while it plays), so:

- a page reload reads the job again (state, games done of the total, games per second,
  time left);
- cancel raises the study layer's interrupt at the next finished task (the same path as
  Ctrl-C: the finished tasks stay in the store); the tables of the games finished are
  written as the command line writes them, and ``--resume`` (or the page's resume)
  finishes the study;
- a server stopped mid-job leaves ``job.json`` saying ``running`` or ``queued``: the next
  start queues it again with ``resume`` (the tasks in the store are read back, checked to be
  of the same study). Tables are only ever written whole (``atomic_write``): never a
  half-written one.
"""

from __future__ import annotations

import datetime as _dt
import json
import queue
import shutil
import threading
import time
import uuid
from dataclasses import asdict, dataclass, field
from pathlib import Path

from manoeuvre_sim.core.errors import ManoeuvreError, UsageError
from manoeuvre_sim.core.fileio import atomic_write
from manoeuvre_sim.web.jobs.kinds import build, command_line, job_kinds

JOBS_DIR = "jobs"
STATE_FILE = "job.json"
UNFINISHED = ("queued", "running")
MAX_JOBS_LISTED = 200
SAVE_EVERY = 0.4  # seconds between two writes of a playing job's state
STOP_WAIT = 3.0  # seconds a stopping server waits for the job's blocks in play


def _now() -> str:
    return _dt.datetime.now().isoformat(timespec="seconds")


@dataclass
class Job:
    """A job's state, as ``job.json`` holds it."""

    id: str
    kind: str
    options: dict
    dir: str  # relative to the studies folder
    state: str = "queued"  # queued | running | done | cancelled | interrupted | failed
    created: str = field(default_factory=_now)
    started: str | None = None
    finished: str | None = None
    done: int = 0
    total: int = 0
    rate: float = 0.0  # games per second while playing
    left: float | None = None  # seconds
    resume: bool = False
    message: str = ""
    command: str = ""
    stopped: str | None = None  # when a cancelled job's games stopped (its tables follow)
    name: str = ""  # the user's name for it (``rename``), shown beside its id
    status: str = ""  # its study's state in words, when it says it (a fix's search)

    @property
    def fraction(self) -> float:
        return min(1.0, self.done / self.total) if self.total else 0.0

    def to_dict(self) -> dict:
        return asdict(self) | {"fraction": self.fraction}


class JobManager:
    """The queue and its worker thread over the studies folder ``root``.

    Parameters
    ----------
    root : the studies folder; jobs go to ``root/jobs/``.
    backend : ``core.backend.make_backend``'s keywords (``name``, ``scheduler``,
        ``workers``) every job plays on.
    start : start the worker now (``create_app`` starts it with the application).
    """

    def __init__(self, root: Path, backend: dict | None = None, warm: bool = False) -> None:
        self.root = Path(root)
        self.warm = warm  # the worker loads what a job's end needs before its first job
        self.backend = dict(backend or {"name": "local"})
        self.lock = threading.Lock()
        self.jobs: dict[str, Job] = {}
        self.queue: queue.Queue[str | None] = queue.Queue()
        self.cancelled: set[str] = set()
        self.stopping = threading.Event()
        self.thread: threading.Thread | None = None
        self.current: str | None = None
        # the study each queued job was checked as at its submission, played as it is
        # (not built a second time); a job recovered or resumed is built again
        self.built: dict = {}

    # ---- state on disk -------------------------------------------------------------
    def _state_path(self, job: Job) -> Path:
        return self.root / job.dir / STATE_FILE

    def save(self, job: Job) -> None:
        path = self._state_path(job)
        path.parent.mkdir(parents=True, exist_ok=True)
        with atomic_write(path) as f:
            json.dump(job.to_dict(), f, indent=1)

    def recover(self) -> list[Job]:
        """Read every job under ``root/jobs/``; queue again, with resume, each one a stopped
        server left queued or running. Returns the jobs queued again."""
        folder = self.root / JOBS_DIR
        again = []
        for path in sorted(folder.glob(f"*/{STATE_FILE}"))[-MAX_JOBS_LISTED:]:
            try:
                doc = json.loads(path.read_text())
                doc.pop("fraction", None)
                job = Job(**doc)
            except (OSError, ValueError, TypeError):
                continue
            if job.id in self.jobs:  # submitted to this manager before it started
                continue
            self.jobs[job.id] = job
            if job.state in UNFINISHED:
                was = job.state
                job.state, job.resume = "queued", job.state == "running" or job.resume
                job.message = f"the server stopped while it was {was}; resumed at restart"
                self.save(job)
                again.append(job)
        for job in sorted(again, key=lambda j: j.created):
            self.queue.put(job.id)
        return again

    # ---- the queue -----------------------------------------------------------------
    def submit(self, kind: str, options: dict) -> Job:
        """Check the study (``jobs.kinds.build``: a UsageError in the command line's words),
        then write its state and queue it."""
        built = build(kind, options, self.root)  # every option and the cost checked first
        jid = _dt.datetime.now().strftime("%Y%m%d-%H%M%S-") + uuid.uuid4().hex[:6]
        rel = f"{JOBS_DIR}/{jid}-{kind.replace(' ', '-')}"
        job = Job(jid, kind, dict(options), rel, total=built.games,
                  command=command_line(kind, options, rel))  # fmt: skip
        with self.lock:
            self.jobs[jid] = job
            self.built[jid] = built
            self.save(job)
        self.queue.put(jid)
        return job

    def get(self, jid: str) -> Job | None:
        return self.jobs.get(jid)

    def listed(self) -> list[Job]:
        with self.lock:
            return sorted(self.jobs.values(), key=lambda j: j.created, reverse=True)

    def cancel(self, jid: str) -> Job | None:
        """Cancel a queued job now, a running one at the end of the blocks in play (a block
        costs at most ``jobs.kinds.MAX_BLOCK_COST``: well under a second or two)."""
        with self.lock:  # checked under the lock: a delete or the job's end may come between
            job = self.jobs.get(jid)
            if job is None or job.state not in UNFINISHED:
                return job
            self.cancelled.add(jid)
            if job.state == "queued":
                self.built.pop(jid, None)
                job.state, job.finished = "cancelled", _now()
                job.message = "cancelled before it started"
            else:
                job.message = "cancelling: it stops when the games in play end"
            self.save(job)
        return job

    def resume(self, jid: str) -> Job | None:
        """Queue a cancelled or interrupted job again, keeping its finished tasks."""
        with self.lock:
            job = self.jobs.get(jid)
            if job is None or job.state not in ("cancelled", "interrupted"):
                return job
            self.cancelled.discard(jid)
            job.state, job.resume, job.message, job.finished = "queued", True, "resumed", None
            job.stopped = None
            self.save(job)
        self.queue.put(jid)
        return job

    # ---- the worker ----------------------------------------------------------------
    def start(self) -> None:
        if self.thread is None:
            self.recover()
            self.thread = threading.Thread(target=self._work, name="jobs", daemon=True)
            self.thread.start()

    def stop(self, timeout: float = STOP_WAIT) -> None:
        """Interrupt the running job (it stays ``running`` on disk, so the next start resumes
        it) and end the worker, waiting at most ``timeout`` seconds for the blocks in play
        (the worker is a daemon thread: a block still playing then ends with the process,
        and its games are played again at the resume; the store holds whole blocks only)."""
        self.stopping.set()
        self.queue.put(None)
        if self.thread is not None:
            self.thread.join(timeout)
            self.thread = None

    def _work(self) -> None:
        if self.warm:
            warm_up()
        while not self.stopping.is_set():
            jid = self.queue.get()
            if jid is None:
                break
            with self.lock:  # taken as current at once: no delete in between
                job = self.jobs.get(jid)
                if job is None or job.state != "queued" or jid in self.cancelled:
                    self.built.pop(jid, None)
                    continue
                self.current = jid
            try:
                self._run(job)
            except ManoeuvreError as e:
                self._end(job, "failed", str(e))
            except Exception as e:  # noqa: BLE001 - a job's crash must not end the worker
                import traceback

                traceback.print_exc()
                self._end(job, "failed", f"the job failed ({type(e).__name__}: {e})")
            finally:
                self.current = None

    def _end(self, job: Job, state: str, message: str) -> None:
        with self.lock:
            job.state, job.message, job.finished, job.left = state, message, _now(), None
            self.save(job)

    def _progress(self, job: Job):
        t0, last = time.perf_counter(), [0.0]
        first = [None]

        def progress(done: int, total: int) -> None:
            now = time.perf_counter()
            if first[0] is None:  # games read back from the store are not played
                first[0] = (now, done)
            t_first, d_first = first[0]
            played, secs = done - d_first, now - t_first
            with self.lock:
                job.done, job.total = done, total
                if played > 0 and secs > 0:
                    job.rate = played / secs
                elif now > t0:
                    job.rate = done / (now - t0)
                job.left = (total - done) / job.rate if job.rate > 0 else None
                if now - last[0] >= SAVE_EVERY or done >= total:
                    last[0] = now
                    self.save(job)
            if job.id in self.cancelled or self.stopping.is_set():
                with self.lock:
                    job.stopped = _now()  # no game plays after this one
                raise KeyboardInterrupt  # the study layer's interrupt, as Ctrl-C

        return progress

    def _status(self, job: Job):
        """The study's state in words (``Built.status``), kept in the job's state and saved
        with its next progress."""

        def status(line: str) -> None:
            with self.lock:
                job.status = str(line)[:500]

        return status

    def _run(self, job: Job) -> None:
        from manoeuvre_sim.analyses.common.study_dir import prepare_out_dir
        from manoeuvre_sim.core.backend import make_backend

        with self.lock:
            built = self.built.pop(job.id, None)
        if built is None or job.resume:
            built = build(job.kind, job.options, self.root)
        out = self.root / job.dir
        with self.lock:
            job.state, job.started = "running", _now()
            job.message = job.message if job.resume else ""
            self.save(job)
        out_dir = prepare_out_dir(out, force=not job.resume, resume=job.resume)
        said = {"status": self._status(job)} if built.status else {}
        with make_backend(threads=built.threads, **self.backend) as engine:
            res = built.run(out_dir=out_dir, progress=self._progress(job), backend=engine,
                            resume=job.resume, **said)  # fmt: skip
        if self.stopping.is_set() and res.interrupted:
            return  # left "running" on disk: the next start resumes it
        if res.interrupted:  # the games stopped; writing the tables takes a few seconds
            with self.lock:
                job.message = f"stopped after {job.done:,} games: writing their tables"
                self.save(job)
        if res.manifest.get(job_kinds()[job.kind].done_key, 0) == 0:
            state = "cancelled" if job.id in self.cancelled else "interrupted"
            if job.done:  # a study that writes its tables only once it ends (a fix)
                self._end(job, state, f"stopped after {job.done:,} games, kept for the resume; "
                          "this study writes its tables when it ends")  # fmt: skip
            else:
                self._end(job, state, "stopped before any game finished: no tables written")
            return
        res.manifest["command"] = job.command
        res.write(out_dir, paper="a4")
        if res.interrupted:
            state = "cancelled" if job.id in self.cancelled else "interrupted"
            self._end(job, state, "stopped: the tables cover the games finished; resume "
                      "finishes the study")  # fmt: skip
        else:  # a what-if says where its base games came from (read from a study, played)
            from manoeuvre_sim.studies.whatif_base import base_line

            said = base_line(res.manifest.get("base_study"))
            self._end(job, "done", " ".join(x for x in (job.message if job.resume else "",
                                                        said) if x))  # fmt: skip

    # ---- naming and deleting (the jobs pages' rename and delete) --------------------
    def rename(self, jid: str, name: str) -> Job | None:
        """Give the job ``name`` (:func:`job_name`: trimmed; empty: no name), saved."""
        with self.lock:
            job = self.jobs.get(jid)
            if job is None:
                return None
            job.name = job_name(name)
            self.save(job)
        return job

    def folder(self, job: Job) -> Path:
        """The job's study folder, refused (a UsageError) unless it is a real folder
        inside the studies folder's ``jobs/`` (a ``job.json`` edited by hand may name any
        path)."""
        jobs = (self.root / JOBS_DIR).resolve()
        path = self.root / job.dir
        if path.is_symlink() or jobs not in path.resolve().parents:
            raise UsageError(f"--job: {job.id}'s folder {job.dir!r} is not a folder of the "
                             f"studies folder's {JOBS_DIR}/: nothing deleted")  # fmt: skip
        return path

    def delete(self, jid: str) -> Job | None:
        """Forget a finished, cancelled, interrupted or failed job and delete its study
        folder (only inside the studies folder's ``jobs/``); a queued or running job is
        refused: cancel it first."""
        with self.lock:
            job = self.jobs.get(jid)
            if job is None:
                return None
            if job.state in UNFINISHED:
                raise UsageError(f"--job: {job.id} is {job.state}: cancel it, then delete it")
            if self.current == jid:
                raise UsageError(f"--job: {job.id} is still writing its tables: delete it in "
                                 "a moment")  # fmt: skip
            path = self.folder(job)
            del self.jobs[jid]
            self.cancelled.discard(jid)
        try:  # outside the lock: the worker saves its job's progress meanwhile
            if path.exists():
                shutil.rmtree(path)
        except OSError as e:
            with self.lock:  # listed again, so the page can say what happened to it
                self.jobs[jid] = job
            raise UsageError(f"--job: {job.dir} was not deleted entirely ({e})") from None
        return job


def warm_up() -> float:
    """Load what a job's first run would otherwise load between its last game and its
    result (a second or so on an idle machine, issue 41): every job kind's study module and
    its game's table and page modules, the statistics (one Bradley-Terry fit) and the PDF
    pages' drawing (a page rendered to memory: matplotlib's fonts). The server's worker
    runs it before its first job (``ui``; ``--no-warmup`` skips it); returns its seconds."""
    import io

    from manoeuvre_sim.core import stats
    from manoeuvre_sim.core.games import get_game, pages_module
    from manoeuvre_sim.studies import find

    t = time.perf_counter()
    for entry in job_kinds().values():
        find(entry.game, entry.study)
        for name in ("BALANCE_TABLES", "WHATIF_PAGES"):
            pages_module(get_game(entry.game), name)
    stats.bradley_terry(["a", "b"], [0, 1], [1, 0], [3.0, 2.0], [5, 5])
    from manoeuvre_sim.analyses.common import pages

    fig = pages.plt.figure(figsize=pages.page_size("a4"))
    try:
        pages.page_title(fig, "warm-up")
        with pages.PdfPages(io.BytesIO()) as pdf:
            pdf.savefig(fig)
    finally:
        pages.plt.close(fig)
    return time.perf_counter() - t


MAX_NAME = 80


def job_name(text: str | None) -> str:
    """A job's name as typed, trimmed: at most :data:`MAX_NAME` characters of one line."""
    name = " ".join((text or "").split())
    if len(name) > MAX_NAME:
        raise UsageError(f"--job-name: expected at most {MAX_NAME} characters, got {len(name)}")
    if any(not ch.isprintable() for ch in name):
        raise UsageError("--job-name: expected printable characters only")
    return name
