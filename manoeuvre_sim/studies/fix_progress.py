"""A fix's progress as it runs (``studies/fix.py``; docs/fix.md): the games played, an
estimate of the games in all (so a job page can say the time left) and the search's state in
one line (candidates tried, the best errata so far), for the workbench's job page and, with
the time left, the command line's progress (:class:`TimeLeft`).

The search's length is not known in advance (a candidate stops as soon as its sequential
test decides), so the total is an estimate that firms up as candidates end. Until every
single edit has ended it is the screen's plan (docs/fix.md, "The screen"): the base to the
cap on every pairing, one look of every single edit on the pairings it touches and the
first ``screen_keep`` of them on to the cap (a bound: they may stop sooner), or the games
played when more; then the games played; plus the confirmation (``confirm_games`` on every
pairing, the touched ones twice). The combinations the greedy step tries after the singles
are not foreseen: when they begin, the total grows by what each of them plays. During the
confirmation the total is exact.
"""

from __future__ import annotations

from collections.abc import Callable


class Estimate:
    """The progress callbacks of one fix: ``tick(games)`` per block of the search,
    ``trial(trail)`` per candidate ended, ``confirming(best)`` then ``confirm_tick(done,
    total)`` during the confirmation. Calls ``progress(done, total)`` and ``status(line)``
    (either may be None)."""

    def __init__(self, spec, progress: Callable[[int, int], None] | None,
                 status: Callable[[str], None] | None) -> None:  # fmt: skip
        self.spec = spec
        self.progress, self.status = progress, status
        self.player = None  # fix.Player, set once made
        self.done = 0
        self.trail: list = []
        self.confirm_at: int | None = None  # games done when the confirmation began
        self.under = ""  # the confirmation's player, when another ("again under ...")
        self.confirm_total = 0

    # ---- the figures ---------------------------------------------------------------
    def _pairings(self) -> tuple[int, float]:
        """The ordered pairings of the study (mirrors out) and the mean an edit touches."""
        n = len(self.spec.balance.names)
        return n * (n - 1), 2 * (n - 1)

    def total(self) -> int:
        if self.confirm_at is not None:
            return self.confirm_at + self.confirm_total
        pairings, touched = self._pairings()
        spec = self.spec
        confirm = spec.confirm_games * (pairings + touched)
        n = len(spec.edits)
        if sum(1 for t in self.trail if t.step == "single") >= n:
            return int(self.done + confirm)
        look, cap = spec.games_per_look, spec.max_games
        plan = pairings * cap + touched * (n * look + min(spec.screen_keep, n) * (cap - look))
        return int(max(plan, self.done) + confirm)

    def line(self) -> str:
        """The search's state in words: the candidates tried, the best errata so far."""
        spec = self.spec
        singles = sum(1 for t in self.trail if t.step == "single")
        combos = len(self.trail) - singles
        words = f"{singles} of {len(spec.edits)} single edits tried"
        if combos:
            words += f", {combos} combination{'s' if combos > 1 else ''}"
        # the certified helpful ones, else the promising ones the greedy step extends then
        helpful = [t for t in self.trail if t.helpful]
        promising = [t for t in self.trail if t.promising] if not helpful else []
        if helpful or promising:
            best = min(helpful or promising, key=lambda t: (t.distance, t.cost, len(t.edits)))
            words += (f"; best so far: {'; '.join(e.text for e in best.edits)} (cost "
                      f"{best.cost}, estimated distance {best.distance:.3f}"
                      f"{'' if helpful else ', promising, not certified'})")  # fmt: skip
        elif self.trail:
            words += "; no helpful edit yet"
        else:
            words += "; playing the base"
        if self.confirm_at is not None:
            words = f"confirming on fresh seeds{self.under}; " + words
        return words

    # ---- the callbacks -------------------------------------------------------------
    def _tell(self) -> None:
        if self.progress is not None:
            self.progress(self.done, self.total())

    def tick(self, games: int) -> None:
        self.done += games
        self._tell()

    def trial(self, trail: list) -> None:
        self.trail = list(trail)
        self._tell()  # the total first: a status line reads it
        if self.status is not None:
            self.status(self.line())

    def confirming(self, best, player: str | None = None) -> None:
        """The confirmation begins (``player``: again under that player, ``--confirm-with``)."""
        self.under = "" if player is None else f" again under {player}"
        self.confirm_at = self.done
        pairings, touched = self._pairings()
        self.confirm_total = self.spec.confirm_games * (pairings + touched)
        if self.status is not None:
            self.status(self.line())

    def confirm_tick(self, done: int, total: int) -> None:
        self.confirm_total = total
        self.done = self.confirm_at + done
        self._tell()


class TimeLeft:
    """The command line's progress: ``progress(done, total)`` and ``status(line)`` of an
    :class:`Estimate`; every minute, and whenever the best errata so far changes, a line
    ``fix: STATE; G of about T games, about M min left`` through ``say``. The rate is that of
    the last few minutes' games (blocks a resume reads back come fast and are not a rate);
    the games of the greedy step's rounds not begun are not foreseen (the estimate grows when
    they begin: the line says so)."""

    WINDOW = 180.0  # seconds of ticks the rate is measured over

    def __init__(self, say: Callable[[str], None], clock=None, every: float = 60.0) -> None:
        import time

        self.say, self.clock, self.every = say, clock or time.monotonic, every
        self.ticks: list[tuple[float, int]] = []
        self.done = self.total = 0
        self.state, self.best, self.told = "", (), None  # (): no status yet
        self.phase = "search"

    def progress(self, done: int, total: int) -> None:
        now = self.clock()
        self.done, self.total = done, total
        self.ticks.append((now, done))
        while len(self.ticks) > 2 and now - self.ticks[1][0] > self.WINDOW:
            self.ticks.pop(0)
        if self.told is None:
            self.told = now
        elif now - self.told >= self.every:
            self.tell(now)

    def status(self, line: str) -> None:
        phase = line.partition(";")[0] if line.startswith("confirming") else "search"
        if self.state and phase != self.phase:  # another player's games: another rate
            self.ticks = self.ticks[-1:]
        self.state, self.phase = line, phase
        best = line.partition("; best so far: ")[2] or None
        if best != self.best:
            self.best = best
            self.tell(self.clock())

    def minutes_left(self) -> float | None:
        if len(self.ticks) < 2 or self.ticks[-1][0] <= self.ticks[0][0]:
            return None
        (t0, g0), (t1, g1) = self.ticks[0], self.ticks[-1]
        rate = (g1 - g0) / (t1 - t0)
        return None if rate <= 0 else max(self.total - self.done, 0) / rate / 60

    def tell(self, now: float) -> None:
        self.told = now
        left = self.minutes_left()
        more = "" if "confirming" in self.state else " (the greedy rounds to come not counted)"
        self.say(f"fix: {self.state or 'playing the base'}; {self.done:,} of about "
                 f"{self.total:,} games"
                 + ("" if left is None else f", about {left:.0f} min left{more}"))  # fmt: skip


__all__ = ["Estimate", "TimeLeft"]
