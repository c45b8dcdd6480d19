"""Compiling the engine ahead of a run, and saying so.

numba compiles the engine the first time a batch kernel is called and keeps the machine
code in its cache (a directory keyed on the engine's sources, ``numba_cache.py``), so only
the first run after an install or an engine change pays for it. ``make setup`` and ``make run`` do it up front:

    python -m manoeuvre_sim.core.warmup [games] [cards] [search] [hex]

compiles the named batch kernels unless numba's cache already holds them; kernels of both
games compile side by side, each game's in a process of its own (on more than one core:
:func:`side_by_side`). Each game names its kinds in its adapter (``WARMUP``: kind -> about how many seconds it compiles cold, and
``warmup_kernel(kind)``: the kernel and the arguments of two games): Manoeuvre's ``games``
(``batch.play_range``, behind ``play_games``: every policy but the search player, which is
what ``make run`` plays), ``cards`` (``play_range_cards``, card studies) and ``search``
(``play_range_search``); Maneuver's ``hex`` (``hexgame.batch.play_range``, every hex
player, which only the ``hex`` commands play, so ``make setup`` leaves it out). This module
finds them through the games registry, the one list of games; it and says what it does and about how long it takes, then shows its progress on
one line (the kernel, the seconds so far, numba functions compiled: :class:`Ticker`; on a
terminal the line is rewritten each second, else a line every 15 s). The commands' progress bars
use :func:`is_compiled` to say "compiling the game engine" rather than sit at 0 % when a
compile happens at run time. Nothing here compiles on import.
"""

from __future__ import annotations

import os
import sys
import threading
import time

from manoeuvre_sim.core.games import get_game, hook, keys


def _game_of_kind() -> dict[str, str]:
    """Every warm-up kind of every registered game, ``kind -> game key``."""
    return {kind: key for key in keys() for kind in hook(get_game(key), "WARMUP")}


# about how long each kind compiles cold on 2 cores (the games' WARMUP), and the kinds
COMPILE_SECONDS = {k: hook(get_game(g), "WARMUP")[k] for k, g in _game_of_kind().items()}
KINDS = tuple(COMPILE_SECONDS)


def first_kinds() -> tuple[str, ...]:
    """Each game's first warm-up kind (its ``WARMUP``'s first: the kernel of its default
    games), in the registry's order."""
    firsts: dict[str, str] = {}
    for kind, key in _game_of_kind().items():
        firsts.setdefault(key, kind)
    return tuple(firsts.values())


def _kernel_and_args(kind: str):
    """The batch kernel of ``kind`` and the arguments of two games (its game's
    ``warmup_kernel``)."""
    return hook(get_game(_game_of_kind()[kind]), "warmup_kernel")(kind)


def is_compiled(kind: str) -> bool:
    """Whether calling batch kernel ``kind`` now would find its machine code (in memory or
    in numba's cache) rather than compile it. Reads numba's cache index the way numba
    does on a call; if that cannot be read (another numba version), False."""
    import numba

    disp, args = _kernel_and_args(kind)
    if not isinstance(disp, numba.core.dispatcher.Dispatcher):
        return True  # NUMBA_DISABLE_JIT: plain Python, nothing to compile
    sig = tuple(numba.typeof(a) for a in args)
    if sig in disp.overloads:
        return True
    try:
        cache = disp._cache
        key = cache._index_key(sig, disp.targetctx.codegen())
        return key in cache._cache_file._load_index()
    except Exception:  # a private numba API: if it moved, say a compile may come
        return False


def compiling_message(kinds) -> str:
    """What a progress bar or the set-up says while the kernels ``kinds`` compile."""
    secs = sum(COMPILE_SECONDS[k] for k in kinds)
    return f"compiling the game engine, once, about {secs} s"


class Ticker:
    """The progress of a compile on one line of ``stream``: which kernel (i of n), the
    seconds so far against the estimate, and how many numba functions have been compiled
    (numba's ``numba:compile`` events, counted as they end). A daemon thread writes it:
    each ``interval`` s rewritten in place on a terminal, else a new line each ``every``
    s (a log stays short). Use as a context manager; :meth:`kernel` names the kernel
    being compiled."""

    def __init__(self, kinds, stream=None, interval: float = 1.0, every: float = 15.0,
                 estimate: float | None = None):  # fmt: skip
        self.kinds = tuple(kinds)  # kernels of COMPILE_SECONDS, or any names with `estimate`
        self.stream = stream if stream is not None else sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.interval = interval if self.tty else every
        self.estimate = (sum(COMPILE_SECONDS[k] for k in self.kinds) if estimate is None
                         else estimate)  # fmt: skip
        self.functions = 0
        self.current = 0
        self._stop = threading.Event()
        self._t0 = time.perf_counter()
        self._listener = None

    def kernel(self, i: int) -> None:
        self.current = i

    def line(self) -> str:
        secs = time.perf_counter() - self._t0
        kind = self.kinds[self.current] if self.kinds else ""
        return (
            f"  compiling {kind} ({self.current + 1}/{len(self.kinds)}): {secs:.0f} s of about "
            f"{self.estimate} s, {self.functions} functions compiled"
        )

    def _write(self, end: str) -> None:
        if self.tty:
            self.stream.write("\r" + self.line().ljust(78) + end)
        else:
            self.stream.write(self.line() + "\n")
        self.stream.flush()

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            self._write("")

    def _count(self, event) -> None:
        self.functions += 1

    def __enter__(self):
        try:
            from numba.core import event as ev

            class _Counter(ev.Listener):
                def on_start(_, event):
                    pass

                def on_end(_, event):
                    self._count(event)

            self._listener = _Counter()
            ev.register("numba:compile", self._listener)
        except Exception:  # an older or newer numba: the seconds alone
            self._listener = None
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()
        if self._listener is not None:
            from numba.core import event as ev

            ev.unregister("numba:compile", self._listener)
        if self.tty:
            self.stream.write("\r" + " " * 78 + "\r")
            self.stream.flush()


def compile_kernels(kinds, ticker: Ticker | None = None) -> float:
    """Compile (or load from the cache) the batch kernels ``kinds`` by playing two games
    with each; returns the seconds taken. ``ticker``: told which kernel compiles."""
    t = time.perf_counter()
    for i, kind in enumerate(kinds):
        if ticker is not None:
            ticker.kernel(i)
        disp, args = _kernel_and_args(kind)
        disp(*args)
    return time.perf_counter() - t


def load_note() -> str:
    """``"; load now 4.3 on 2 cores: expect longer"`` when the machine is busy (the
    1-minute load average at least half the cores), else ``""``."""
    try:
        load, cores = os.getloadavg()[0], os.cpu_count() or 1
    except (AttributeError, OSError):  # no load average on this system
        return ""
    if load < cores / 2:
        return ""
    return f"; load now {load:.1f} on {cores} cores: expect longer"


def _by_game(kinds) -> list[tuple[str, ...]]:
    """``kinds`` grouped by their game, in the order given (each game's engine is its own
    chain of numba functions, compiled apart from the other's)."""
    groups: dict[str, list[str]] = {}
    for k in kinds:
        groups.setdefault(_game_of_kind()[k], []).append(k)
    return [tuple(g) for g in groups.values()]


def side_by_side(groups: list[tuple[str, ...]]) -> int:
    """Compile each group of kinds (one per game) in a child process of its own, all at
    once: one core compiles Manoeuvre's engine while another compiles Maneuver's. The
    children's lines are passed on as they come; returns the worst exit status."""
    import subprocess

    print(
        f"compiling the game engines side by side, once, about "
        f"{max(sum(COMPILE_SECONDS[k] for k in g) for g in groups)} s on 2 idle cores "
        f"({'; '.join(', '.join(g) for g in groups)}){load_note()} ...",
        file=sys.stderr,
        flush=True,
    )
    children = [
        subprocess.Popen(
            [sys.executable, "-m", "manoeuvre_sim.core.warmup", *g],
            stderr=subprocess.PIPE,
            text=True,
        )
        for g in groups
    ]

    def relay(stream) -> None:
        for line in stream:
            if not line.startswith("compiling the game engine, once"):  # said above
                sys.stderr.write(line)
                sys.stderr.flush()

    threads = [threading.Thread(target=relay, args=(c.stderr,), daemon=True) for c in children]
    for t in threads:
        t.start()
    try:
        codes = [c.wait() for c in children]
    finally:
        for c in children:
            if c.poll() is None:
                c.terminate()
        for t in threads:
            t.join(timeout=5)
    return max(codes)


def main(argv: list[str] | None = None) -> int:
    # no kind named: the registry's first game's default kernel (Manoeuvre's ``games``)
    kinds = tuple(argv if argv is not None else sys.argv[1:]) or first_kinds()[:1]
    bad = [k for k in kinds if k not in COMPILE_SECONDS]
    if bad:
        print(
            f"warmup: unknown kernel {bad[0]!r}; expected one of {', '.join(KINDS)}",
            file=sys.stderr,
        )
        return 2
    todo = tuple(k for k in kinds if not is_compiled(k))
    if not todo:
        return 0
    groups = _by_game(todo)
    if len(groups) > 1 and (os.cpu_count() or 1) > 1:
        return side_by_side(groups)
    print(
        compiling_message(todo) + f" on 2 idle cores ({', '.join(todo)}){load_note()} ...",
        file=sys.stderr,
        flush=True,
    )
    with Ticker(todo) as ticker:
        secs = compile_kernels(todo, ticker)
    print(
        f"compiled the game engine ({', '.join(todo)}) in {secs:.0f} s, {ticker.functions} "
        "functions (kept in numba's cache)",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
