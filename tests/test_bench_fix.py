"""``python -m benchmarks fix --real DIR``: the real armies' fix run in a child process and
reported in its own results file (RESULTS-fix-real.md): its sessions summed over an
interruption and a resume, a Ctrl-C passed on to the fix (never a kill), the quick sizes,
a results file's command naming no machine folder; and the fix command's time-left line."""

from __future__ import annotations

import json
import signal

from benchmarks import bench_fix as BF
from benchmarks.common import ROOT, Run


def _real_dir(tmp_path, finished: bool = True):
    d = tmp_path / "real"
    (d / "out").mkdir(parents=True)
    (d / "command.txt").write_text(
        "manoeuvre-sim fix --edit France --out out\n"
        "started 2026-12-02T19:00:00\ninterrupted 2026-12-02T19:10:00\n"
        "resumed 2026-12-02T19:20:00\n" + ("stopped 2026-12-02T19:50:30\n" if finished else ""),
        encoding="utf-8",
    )
    (d / "stderr.txt").write_text("fix: the base's estimated distance from the band 0.542; 208 "
                                  "single edits to try\nfix: 3 tried (43,120 games): x (cost 1) "
                                  "unchanged after 20 games, est. distance 0.542\n")  # fmt: skip
    (d / "load.log").write_text("19:00:00 load average: 2.00, 1, 1\n"
                                "19:01:00 load average: 4.00, 1, 1\n")  # fmt: skip
    if finished:
        (d / "out" / "manifest.json").write_text(json.dumps(
            {"candidates": 240, "search_games": 1_000_000, "confirm_games_played": 82_000,
             "strong_games_played": 2_460, "seconds": 1830.0}))  # fmt: skip
        (d / "out" / "summary.txt").write_text("errata, cost 2:\n")
    return d


def test_the_real_runs_time_is_the_sum_of_its_sessions(tmp_path):
    text = "\n".join(BF.real_section(_real_dir(tmp_path)))
    # 10 minutes, then 30.5 after the resume: the manifest's own count is the last session's
    assert "40.5 minutes in 2 sessions (the last one's own count: 1830 s)" in text
    assert "- started (interrupted) 19:00:00, stopped 19:10:00 UTC: 10.0 min" in text
    assert "- resumed 19:20:00, stopped 19:50:30 UTC: 30.5 min" in text
    assert "1,000,000 search games, 82,000 confirmation games, 2,460 under" in text
    assert "min 2.0, median 4.0, max 4.0" in text


def test_an_unfinished_real_run_says_so_and_its_time_so_far(tmp_path):
    text = "\n".join(BF.real_section(_real_dir(tmp_path, finished=False)))
    assert "**Unfinished.** the base's estimated distance from the band 0.542; 208 single" in text
    assert "10.0 minutes so far" in text and "- resumed 19:20:00, not stopped" in text


def test_the_quick_real_fix_changes_only_the_counts():
    quick, full = BF.real_args(quick=True), BF.real_args()
    assert full == BF.REAL_ARGS
    pairs = dict(zip(quick[::2], quick[1::2], strict=True))
    assert {
        f: v for f, v in pairs.items() if v != dict(zip(full[::2], full[1::2], strict=True)).get(f)
    } == (BF.QUICK_SIZES)
    # the real run's confirmation takes the tool's size from the band; the quick one its own
    assert "--confirm-games" not in full and pairs["--confirm-games"] == "60"
    assert quick[quick.index("--max-games") + 1] == "60" and quick[-2:] == ["--out", "out"]


class _Child:
    """A fix that a Ctrl-C reaches while the benchmark waits for it."""

    def __init__(self, *a, **kw):
        self.kw, self.signals, self.waits = kw, [], 0
        _Child.last = self

    def wait(self):
        self.waits += 1
        if self.waits == 1:
            raise KeyboardInterrupt
        return 130

    def send_signal(self, sig):
        self.signals.append(sig)


def test_a_ctrl_c_is_passed_to_the_fix_and_the_report_written(tmp_path, monkeypatch, capsys):
    import subprocess

    real = subprocess.Popen

    def popen(cmd, *a, **kw):  # the fix is the fake child; git (the header) the real one
        return _Child(cmd, **kw) if str(cmd[0]).endswith("manoeuvre-sim") else real(cmd, *a, **kw)

    monkeypatch.setattr(subprocess, "Popen", popen)
    out = tmp_path / "RESULTS-fix-real.md"
    d = tmp_path / "run"
    term = signal.getsignal(signal.SIGTERM)
    assert BF.main(["--real", str(d), "--real-only", "--real-out", str(out)]) == 130
    child = _Child.last
    # the fix is signalled once and waited for (it keeps its blocks), never killed
    assert child.signals == [signal.SIGINT] and child.waits == 2
    assert child.kw["start_new_session"]  # a terminal's Ctrl-C reaches the benchmark alone
    assert child.kw["preexec_fn"] is not None  # SIGINT obeyed though nohup ... & ignores it
    assert signal.getsignal(signal.SIGTERM) is term  # the benchmark's handlers put back
    info = (d / "command.txt").read_text().splitlines()
    assert info[0].startswith("manoeuvre-sim fix --edit France") and "--resume" not in info[0]
    assert [x.split()[0] for x in info[1:]] == ["started", "interrupted"]
    text = out.read_text()
    assert text.startswith("# The balance fixer on the real armies\n")
    assert "**Unfinished.**" in text and "- started (interrupted) " in text
    # the same command resumes it
    (d / "out" / "games.parquet").mkdir(parents=True)
    monkeypatch.setattr(_Child, "wait", lambda self: 0)
    assert BF.main(["--real", str(d), "--real-only", "--real-out", str(out)]) == 0
    info = (d / "command.txt").read_text().splitlines()
    assert [x.split()[0] for x in info[1:]] == ["started", "interrupted", "resumed", "stopped"]


def test_a_results_files_command_names_no_machine_folder(tmp_path):
    import argparse
    import os

    far = os.path.normpath(os.path.join(ROOT, os.pardir, "fixreal-run"))  # beside the checkout
    run = Run(argparse.Namespace(argv=["--real", str(far), "--real-only"]), "fix")
    assert run.command == "python -m benchmarks fix --real ../fixreal-run --real-only"


def test_the_time_left_line_comes_every_minute_and_when_the_best_changes():
    from manoeuvre_sim.studies.fix_progress import TimeLeft

    lines, now = [], [0.0]
    left = TimeLeft(lines.append, clock=lambda: now[0])
    left.status("3 of 208 single edits tried; no helpful edit yet")  # no best: said once
    assert lines == ["fix: 3 of 208 single edits tried; no helpful edit yet; 0 of about 0 games"]
    for t in range(0, 61, 10):  # 100 games a second, 60,000 games left of 66,000
        now[0] = float(t)
        left.progress(100 * t, 66_000)
    assert len(lines) == 2 and lines[1].endswith(
        "6,000 of about 66,000 games, about 10 min left (the greedy rounds to come not counted)"
    )
    now[0] = 65.0
    left.status("9 of 208 single edits tried; best so far: France/x=1 (cost 1, estimated "
                "distance 0.500)")  # fmt: skip
    assert len(lines) == 3 and "best so far: France/x=1" in lines[2]
    left.status("10 of 208 single edits tried; best so far: France/x=1 (cost 1, estimated "
                "distance 0.500)")  # fmt: skip
    assert len(lines) == 3  # the same best: nothing said until the minute is up


def test_the_fix_estimates_its_games_by_the_screen_and_names_a_promising_best():
    from types import SimpleNamespace as NS

    from manoeuvre_sim.studies.fix import Edit, Trial
    from manoeuvre_sim.studies.fix_progress import Estimate

    # the real armies: 8 sides (56 pairings, 14 touched by an edit), 208 single edits
    edits = tuple(Edit("A", f"A/u{i}/full=5", "strength", 1) for i in range(208))
    spec = NS(balance=NS(names=[f"S{i}" for i in range(8)]), edits=edits, games_per_look=100,
              max_games=1000, screen_keep=10, confirm_games=1000)  # fmt: skip
    est = Estimate(spec, None, None)
    # the base to the cap, one look of every single, 10 on to the cap, the confirmation:
    # not every single to the cap (3,038,100, 95 minutes where the run took a third)
    assert est.total() == 56_000 + 14 * (208 * 100 + 10 * 900) + 1000 * (56 + 14)
    est.done = 600_000  # more than the plan: the games played
    assert est.total() == 600_000 + 70_000
    t = Trial((edits[0],), (), "single", 100, "inconclusive", distance=0.5, gain=0.06,
              gain_se=0.02)  # fmt: skip
    est.trail = [t]
    assert est.line().endswith("best so far: A/u0/full=5 (cost 1, estimated distance 0.500, "
                               "promising, not certified)")  # fmt: skip
    est.trail = [Trial((edits[0],), (), "single", 100, "inconclusive", distance=0.5)]
    assert est.line().endswith("; no helpful edit yet")
    est.trail = [Trial((e,), (), "single", 100, "unchanged") for e in edits]
    assert est.total() == 600_000 + 70_000  # every single ended: the games played


def test_the_time_left_of_the_stronger_players_confirmation_is_at_its_own_rate():
    from manoeuvre_sim.studies.fix_progress import TimeLeft

    lines, now = [], [0.0]
    left = TimeLeft(lines.append, clock=lambda: now[0])
    left.status("confirming on fresh seeds; 208 of 208 single edits tried")
    for t in range(0, 121, 10):  # the default player: 1,000 games a second
        now[0] = float(t)
        left.progress(1000 * t, 200_000)
    left.status("confirming on fresh seeds again under search:16:tuned:v2; 208 of 208 single "
                "edits tried")  # fmt: skip
    for t in range(121, 190, 1):  # the search player: 5 games a second, 3,000 to play
        now[0] = float(t)
        left.progress(120_000 + 5 * (t - 120), 123_000)
    assert "again under search:16:tuned:v2" in lines[-1]
    # 2,655 games left at 5 a second: 9 minutes, not the default player's 0
    assert lines[-1].endswith("of about 123,000 games, about 9 min left"), lines[-1]
