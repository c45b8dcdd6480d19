"""The balance fixer against 10 planted edits of cost 1-3: each undone within its cost, confirmed afresh.

    python -m benchmarks fix [--quick] [--cases 10] [--seed 1] [--work DIR] [--real DIR]

Issue 40, "What it must show". The field is four of the base Manoeuvre armies
(``--armies``, default Prussia, Russia, Austria, Ottoman Empire: the four middle armies of
the default study, so that no army's base rate is far from even), under the default player.
First the base field is played on a check seed (``--base-games`` per ordered pairing) for
each army's base field rate. Then each case, drawn from ``--seed`` and the case's number:

1. an army of the field and a cost c in 1..3, then c edits drawn from the fixer's own
   candidate edits of that army (``fix_edits`` of the kinds ``--kinds``, default strength
   and command, each at its default cost 1 and range 1; no two of one field), applied
   together by the game's edit code (a refused combination is redrawn);
2. the *band*: the army's base field rate +- ``--width`` points (2.5). Not 45-55 %: the
   field's base rates are not all inside it, and a fixer asked for 45-55 % would have to
   mend the base's own imbalance too at no more than the planted cost, which is not the
   question; the question is whether the planted edit is undone;
3. the planted army shown *out* of the band: the planted edits played on the check seed's
   games, paired with the base's; a draw whose change after ``--screen-games`` per pairing
   is under half the width is redrawn at once, the others are played to ``--check-games``
   and kept when the paired change's 95 % interval lies beyond the width plus
   ``--margin`` (1 point: the fixer's sequential test cannot certify a gain on a
   reference less than its confidence sequence's radius outside the band, about 1.3
   points at 2,000 games per pairing), else redrawn (the redraws are counted);
4. the fixer on the planted field (``studies.fix.run``): the planted army the only one
   editable and the only target, the band above, the same kinds, budget c (so any answer
   costs at most the planted edit), ``--min-gain``, its own search seed, its answer
   confirmed on its own fresh confirmation seed with ``--confirm-games`` per pairing
   (default: the fixer's own, from the band: a half-width at most a fifth of the band's;
   the search aims at the band shrunk by that half-width, the fixer's guard).

A case succeeds (the issue's test) when the fixer returns an errata of cost <= c that is
*confirmed* (the target's interval on the fresh seed inside the band), whether the search
certified it as meeting the band (*met*) or it is the frontier's best. The table (planted,
found, cost, confirmed interval, games, seconds, met) goes into ``benchmarks/RESULTS-fix.md``,
rewritten after every case. ``--work DIR`` keeps each finished case (JSON), so that an
interrupted run goes on from the next case (the base is played again); a case with no
planted draw out of its band in 200 draws is listed and the next number drawn. ``--real
DIR``: the real-armies fix the issue asks for, played into DIR (``run_real``; read back when
it finished, resumed when not) and reported (``real_section``) in its own results file,
``benchmarks/RESULTS-fix-real.md`` (``--real-out``); ``--real-only``: that alone (no planted
case, RESULTS-fix.md untouched). With ``--quick`` the real armies' fix is the same command
with test-sized counts (``QUICK_SIZES``), its report printed unless ``--real-out`` names a
file. A Ctrl-C (SIGINT) stops the fix cleanly (its finished blocks kept) and writes the
report as it stands; the same command resumes it.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from benchmarks.common import Parser, Run, progress, results_path

FIELD = "Prussia,Russia,Austria,Ottoman Empire"
GAME = "manoeuvre"


def checker(armies: list[str], args):
    """The base field on the check seed (``--base-games`` per ordered pairing, every army
    editable: a ``fix.Player``), whose games every planted draw is paired with."""
    from manoeuvre_sim.core.games import resolve
    from manoeuvre_sim.studies import fix as F

    g = resolve(GAME)
    spec = F.command_spec(g, armies, games_per_look=args.screen_games,
                          max_games=args.base_games, seed=args.seed + 7,
                          threads=args.threads)  # fmt: skip
    player = F.Player(g, spec)
    player.ensure((), args.base_games)
    st = F.field_stats(player.base, player.joint((), (), args.base_games), armies)
    return player, {a: s.ref for a, s in zip(armies, st, strict=True)}


def planted_change(player, army: str, edits, n: int) -> tuple[float, float]:
    """The planted edits' paired change of the army's field rate over games 0..n-1 of the
    check seed: (change, its standard error)."""
    import math

    from manoeuvre_sim.studies import fix as F

    key = F._key(edits)
    player.ensure(key, n)
    s = F.field_stats(player.base, player.joint(key, (), n), [army])[0]
    return s.change, math.sqrt(s.change_var / s.n)


def draw(rng, armies: list[str], sides: dict, kinds: dict) -> tuple[str, int, list]:
    """An army, a cost in 1..3 and that many of its candidate edits (distinct fields),
    legal together; ``(army, cost, [Edit])``, or raises UsageError when the game refuses
    the combination."""
    from manoeuvre_sim.core.games import hook, resolve
    from manoeuvre_sim.studies.fix import Edit, read_costs

    g = resolve(GAME)
    army = armies[int(rng.integers(len(armies)))]
    cost = int(rng.integers(1, 4))
    offered = [Edit(army, t, k, int(c))
               for t, k, c in hook(g, "fix_edits")(sides[army], read_costs(g, kinds))]  # fmt: skip
    picked: list = []
    for i in rng.permutation(len(offered)):
        e = offered[int(i)]
        if e.slot not in {x.slot for x in picked} and sum(x.cost for x in picked) + e.cost <= cost:
            picked.append(e)
        if sum(x.cost for x in picked) == cost:
            break
    hook(g, "apply_side_edits")(sides[army], [e.text for e in picked])  # may refuse
    return army, cost, picked


def kinds(args) -> dict:
    """The edit kinds of the planted draws and of the fixer, each at its default cost and
    range (``--kinds``)."""
    return {k.strip(): {} for k in args.kinds.split(",") if k.strip()}


def one_case(i: int, args, armies: list[str], rates: dict[str, float], player) -> dict:
    """Draw case ``i`` (redrawn until the planted edits move their army out of its band),
    then fix it."""
    import numpy as np

    from manoeuvre_sim.core.errors import UsageError
    from manoeuvre_sim.core.games import hook, resolve
    from manoeuvre_sim.studies import fix as F

    g = resolve(GAME)
    sides = {a: g.load_side(a) for a in armies}
    redraws = 0
    t0 = time.perf_counter()
    games0 = player.games
    w = args.width / 100
    for attempt in range(200):
        rng = np.random.default_rng([args.seed, i, attempt])
        try:
            army, cost, planted = draw(rng, armies, sides, kinds(args))
        except UsageError:
            redraws += 1
            continue
        band = (max(rates[army] - w, 0.0), min(rates[army] + w, 1.0))
        # a screen first: a draw whose change after --screen-games is under half the width
        # is redrawn at once; the others are played to --check-games
        m, se = planted_change(player, army, planted, args.screen_games)
        out = False
        if abs(m) >= w / 2:
            m, se = planted_change(player, army, planted, args.check_games)
            out = abs(m) - 1.96 * se > w + args.margin / 100
        lo, hi = rates[army] + m - 1.96 * se, rates[army] + m + 1.96 * se
        rate = rates[army] + m
        progress(f"case {i + 1}: {army}, planted {'; '.join(e.text for e in planted)} (cost "
                 f"{cost}): change {100 * m:+.1f} points [{100 * (m - 1.96 * se):+.1f}, "
                 f"{100 * (m + 1.96 * se):+.1f}] against +-{args.width:g}: "
                 f"{'out, kept' if out else 'not out, redrawn'}")  # fmt: skip
        if out:
            break
        redraws += 1
    else:
        progress(f"case {i + 1}: no planted edit out of the band in 200 draws: not a case")
        return {"case": i + 1, "undrawn": True, "redraws": redraws}
    check_games = player.games - games0
    edited = hook(g, "apply_side_edits")(sides[army], [e.text for e in planted])[0]
    field = [edited if a == army else sides[a] for a in armies]
    t1 = time.perf_counter()
    res = F.run(g, field, editable=[army], targets=[army], band=band, budget=cost,
                seed=args.seed * 1_000 + i, games_per_look=args.games_per_look,
                min_gain=args.min_gain, edits=kinds(args),
                max_games=args.max_games,
                confirm_games=args.confirm_games or (300 if args.quick else None),
                threads=args.threads, say=lambda line: progress(f"case {i + 1}: {line}"))  # fmt: skip
    secs = time.perf_counter() - t1
    c = res.confirmation
    found = [] if res.errata is None else list(res.errata["edit"])
    fcost = 0 if res.errata is None else int(res.errata["cost"].sum())
    row = {"case": i + 1, "army": army, "planted": [e.text for e in planted],
           "planted_cost": cost, "band": list(band), "base_rate": rates[army],
           "planted_rate": rate, "planted_low": lo, "planted_high": hi, "redraws": redraws,
           "check_games": check_games, "found": found, "found_cost": fcost,
           "meets": bool(res.meets), "confirmed": bool(c is not None and c.confirmed),
           "candidates": len(res.trail), "search_games": res.manifest["search_games"],
           "games": res.manifest["games"], "seconds": round(secs, 1),
           "draw_seconds": round(t1 - t0, 1), "confirm_games": res.spec.confirm_games,
           "guard": res.spec.guard}  # fmt: skip
    if c is not None:
        r = c.targets.iloc[0]
        row |= {"fixed_rate": float(r.fixed_rate), "fixed_low": float(r.fixed_low),
                "fixed_high": float(r.fixed_high)}  # fmt: skip
    row["success"] = _success(row)
    row["undoes"] = _undoes(found, row["planted"], sides[army])
    progress(f"case {i + 1}: {'SUCCESS' if row['success'] else 'failure'}: found "
             f"{'; '.join(found) or 'nothing'} (cost {fcost}), {row['games']:,} games, "
             f"{secs:.0f} s")  # fmt: skip
    return row


def _success(r: dict) -> bool:
    """The issue's test: an errata of cost <= the planted one returned (met in the search or
    the frontier's best) whose interval on the fresh seeds lies inside the band."""
    return bool(r["confirmed"] and r["found"] and r["found_cost"] <= r["planted_cost"])


def _undoes(found: list[str], planted: list[str], base_army) -> str:
    """``all``, ``some`` or ``none``: how many of the planted edits the errata reverses
    (an edit of the same field back to the base army's value)."""
    from manoeuvre_sim.core.games import hook, resolve

    g = resolve(GAME)
    back = 0
    for p in planted:
        where = p.rsplit("=", 1)[0]
        for f in found:
            if f.rsplit("=", 1)[0] == where:
                try:
                    lines = hook(g, "apply_side_edits")(base_army, [f])[1]
                except Exception:  # noqa: BLE001 - the base's own value: refused or no line
                    lines = []
                if not lines or all(" -> " not in x or x.split(": ")[-1].split(" -> ")[0]
                                    == x.split(" -> ")[-1] for x in lines):  # fmt: skip
                    back += 1
    return "all" if back == len(planted) else ("some" if back else "none")


def _pct(x: float) -> str:
    return f"{100 * x:.1f}"


def report(rows: list[dict], args, armies, rates, base_secs: float, undrawn=(),
           final: bool = True) -> list[str]:  # fmt: skip
    ok = sum(_success(r) for r in rows)
    met = sum(bool(r["meets"]) for r in rows)
    met_ok = sum(bool(r["meets"]) and _success(r) for r in rows)
    games = sum(r["games"] + r["check_games"] for r in rows)
    secs = sum(r["seconds"] + r["draw_seconds"] for r in rows)
    cg = sorted({r.get("confirm_games", args.confirm_games) for r in rows} - {None})
    guards = sorted({round(100 * r["guard"], 2) for r in rows if "guard" in r})
    conf = (f"{' or '.join(f'{x:,}' for x in cg) or 'the fixer default'} games per pairing"
            + ("" if args.confirm_games else " (the fixer's default, from the band: a "
               "half-width at most a fifth of the band's)"))  # fmt: skip
    guard = (
        f" The search aims at the band shrunk at each edge by the fixer's guard, the "
        f"confirmation's half-width for a fair score ({' or '.join(map(str, guards))} "
        "points): its objective, estimates and ranking on that inner band, *meets* "
        "its estimate inside it and its rate interval inside the band."
        if guards
        else ""
    )
    lines = [
        f"Field: {', '.join(armies)} (every ordered pairing, mirrors left out of the field "
        f"rates), the default player; base field rates from {args.base_games:,} games per "
        f"ordered pairing on the check seed {args.seed + 7} "
        f"({'played in an earlier run' if base_secs is None else f'{base_secs:.0f} s'}): "
        + ", ".join(f"{a} {_pct(r)} %" for a, r in rates.items())
        + ".",
        "",
        f"Each case: an army and a cost c in 1..3 drawn from seed {args.seed}, c of the "
        "fixer's own candidate edits of that army (every kind at its default cost 1, no two "
        "of one field) planted together; the band is the army's base field rate +- "
        f"{args.width:g} points. The planted edits are played on the check seed's games "
        f"(paired with the base's): a draw whose change after {args.screen_games} games per "
        "pairing is under half the width is redrawn at once, the others are played to "
        f"{args.check_games:,} per pairing and kept when the paired change's 95 % interval "
        "lies wholly beyond the width (the planted army out of its band), else redrawn. The "
        "fixer then runs on the planted field with that army the only one editable and the "
        f"only target, budget c, {args.games_per_look} games per look up to "
        f"{args.max_games:,} per pairing, min gain {args.min_gain}, its own search seed, and "
        f"its answer is confirmed on a fresh seed with {conf}.{guard} Success (the issue's "
        "test): an errata of cost <= c returned whose confirmed interval lies inside the band; *met*: the search certified it as meeting the band "
        "(its rate interval of the sequential test inside the band at the cap), else it is "
        "the best of the frontier.",
        "",
        f"**{ok} of {len(rows)} cases succeeded**; the search certified its errata as meeting "
        f"the band (*met*) in {met}, of which {met_ok} confirmed; {games:,} games in {secs:.0f} s "
        "(draws, checks, searches and confirmations)."
        + (
            ""
            if final
            else f" **Partial**: {len(rows)} of {args.cases} cases finished so far "
            "(the table is rewritten after each case)."
        )
        + "".join(
            f" Case {u['case']}: no planted draw out of its band in 200 draws, so "
            "not a case (the next number is drawn instead)."
            for u in undrawn
        ),
        "",
        "| case | army | planted (cost) | planted rate [95 %] (redraws) | band | found (cost) | "
        "reverses | confirmed rate [interval] | candidates | games | seconds | met | |",
        "|---:|---|---|---|---|---|---|---|---:|---:|---:|---|---|",
    ]
    for r in rows:
        redrawn = f" ({r['redraws']} redrawn)" if r["redraws"] else ""
        conf = (f"{_pct(r['fixed_rate'])} [{_pct(r['fixed_low'])}, {_pct(r['fixed_high'])}]"
                if "fixed_rate" in r else "")  # fmt: skip
        lines.append(
            f"| {r['case']} | {r['army']} | `{'; '.join(r['planted'])}` ({r['planted_cost']}) | "
            f"{_pct(r['planted_rate'])} [{_pct(r['planted_low'])}, {_pct(r['planted_high'])}]"
            f"{redrawn} | "
            f"{_pct(r['band'][0])}-{_pct(r['band'][1])} | "
            f"`{'; '.join(r['found']) or '-'}` ({r['found_cost']}) | {r['undoes']} | {conf} | "
            f"{r['candidates']} | {r['games']:,} | {r['seconds']:.0f} | "
            f"{'yes' if r['meets'] else 'no'} | {'ok' if _success(r) else 'FAILED'} |"
        )
    lines += ["", "*reverses*: how many of the planted edits the errata sets back to the base "
              "army's value (all, some, none: another edit of no greater cost can fix it too). "
              "*games*: the fixer's search and confirmation; the checks and redraws are in the "
              "total above."]  # fmt: skip
    return lines


def sessions(info: list[str]) -> list[tuple[str, object, object]]:
    """The sessions of a real-armies run from ``command.txt``'s lines after the command:
    ``(how, start, stop)``, each ``started`` or ``resumed`` line paired with the
    ``stopped`` or ``interrupted`` line after it (``stop`` None: still running or killed)."""
    import datetime as dt

    out: list = []
    for x in info:
        k, _, v = x.partition(" ")
        if k in ("started", "resumed"):
            out.append([k, dt.datetime.fromisoformat(v), None])
        elif k in ("stopped", "interrupted", "stopped-again") and out and out[-1][2] is None:
            out[-1][2] = dt.datetime.fromisoformat(v)
            out[-1][0] += " (interrupted)" if k == "interrupted" else ""
    return [tuple(x) for x in out]


SESSION_WORDS = ("started", "resumed", "stopped", "interrupted", "stopped-again")


def real_section(d: Path) -> list[str]:
    """The real-armies fix of ``d``: ``d/command.txt`` (the command, then lines ``started
    ISO``, ``stopped ISO`` (``interrupted ISO``), ``resumed ISO`` and free notes),
    ``d/stderr.txt`` (its progress lines, of every run of it: a resumed run appends),
    ``d/load.log`` (the load each minute) and, when it finished, ``d/out/`` (its ``--out``:
    manifest, summary). The time is the sum of its sessions (a resumed run's manifest
    counts its last session only)."""
    info = (d / "command.txt").read_text(encoding="utf-8").splitlines()
    lines = [f"`{info[0]}` (in the run's directory)", ""]
    notes = [x for x in info[1:] if x.split(" ", 1)[0] not in SESSION_WORDS]
    lines += [*notes, ""] if notes else []
    runs = sessions(info[1:])
    secs = sum((b - a).total_seconds() for _, a, b in runs if b is not None)
    man = d / "out" / "manifest.json"
    if man.exists():
        m = json.loads(man.read_text(encoding="utf-8"))
        lines += ["```", *(d / "out" / "summary.txt").read_text().rstrip().splitlines(), "```",
                  "", f"{m['candidates']} candidates, {m['search_games']:,} search games, "
                  f"{m['confirm_games_played']:,} confirmation games, "
                  f"{m.get('strong_games_played', 0):,} under the stronger player; "
                  f"{secs / 60:.1f} minutes in {len(runs)} session"
                  f"{'s' if len(runs) > 1 else ''} (the last one's own count: "
                  f"{m['seconds']:.0f} s)."]  # fmt: skip
    else:
        text = (d / "stderr.txt").read_text(errors="replace").splitlines()
        prog = [x for x in text if x.startswith("fix: ") and " tried (" in x]
        first = next((x for x in text if "single edits to try" in x), "")
        lines.append(f"**Unfinished.** {first.removeprefix('fix: ')}. The last progress "
                     f"line: `{prog[-1] if prog else 'none'}`; {secs / 60:.1f} minutes so "
                     "far.")  # fmt: skip
    for how, a, b in runs:
        lines.append(f"- {how} {a:%H:%M:%S}, "
                     + ("not stopped (still running, or killed)" if b is None else
                        f"stopped {b:%H:%M:%S} UTC: {(b - a).total_seconds() / 60:.1f} min"))  # fmt: skip
    log = d / "load.log"
    if log.exists():
        loads = [float(x.rsplit("load average:", 1)[1].split(",")[0])
                 for x in log.read_text().splitlines() if "load average:" in x]  # fmt: skip
        if loads:
            lines.append(f"- load (1-minute average each minute of its sessions, "
                         f"{len(loads)} samples): min {min(loads):.1f}, "
                         f"median {sorted(loads)[len(loads) // 2]:.1f}, max {max(loads):.1f} "
                         "on the 2 shared cores")  # fmt: skip
    return lines


# the real-armies fix the issue asks for: the 8 base armies, every one a target in 45-55 %,
# the five outside that band editable (their units' strengths and leaders' commands, cost 1),
# budget 6, the default player, confirmed on fresh seeds and again under the strong player
REAL_EDIT = ("France", "Great Britain", "Austria", "Spain", "United States")
REAL_ARGS = ["--target", "0.45:0.55", "--budget", "6", "--edits", "strength-command.toml",
             "--games-per-look", "100", "--max-games", "1000",
             "--confirm-with", "search:16:tuned:v2", "--confirm-with-games", "100",
             "--threads", "2", "--out", "out"]  # fmt: skip
# --quick: the same command with test-sized counts (a few minutes: the path shaken out)
QUICK_SIZES = {"--games-per-look": "20", "--max-games": "60", "--confirm-games": "60",
               "--confirm-with-games": "2"}  # fmt: skip


def real_args(quick: bool = False) -> list[str]:
    """REAL_ARGS, or under ``--quick`` the same with :data:`QUICK_SIZES`."""
    out = list(REAL_ARGS)
    for flag, v in QUICK_SIZES.items() if quick else ():
        if flag in out:
            out[out.index(flag) + 1] = v
        else:  # a count the real run leaves to the tool's default (the confirmation's)
            out[out.index("--out") : out.index("--out")] = [flag, v]
    return out


def run_real(d: Path, quick: bool = False) -> int:
    """Play the real-armies fix into ``d`` unless ``d/out/manifest.json`` says it finished
    (an interrupted one is resumed): ``d/command.txt`` (the command, ``started``/``stopped``
    lines), ``d/stderr.txt`` (its progress), ``d/load.log`` (the load each minute), ``d/out``
    (its --out); :func:`real_section` reports it. The fix runs in its own process group:
    a Ctrl-C (SIGINT) of the benchmark is passed to it once and waited for (it keeps its
    finished blocks), then ``interrupted`` is written and KeyboardInterrupt raised again.
    The fix's exit status (0 when it had finished)."""
    import datetime as dt
    import os
    import shlex
    import signal
    import subprocess
    import sys
    import threading

    def now() -> str:
        return dt.datetime.now(dt.UTC).replace(tzinfo=None).isoformat()

    if (d / "out" / "manifest.json").exists():
        return 0
    d.mkdir(parents=True, exist_ok=True)
    (d / "strength-command.toml").write_text("[strength]\n[command]\n", encoding="utf-8")
    edit = [x for a in REAL_EDIT for x in ("--edit", a)]
    resume = ["--resume"] if (d / "out" / "games.parquet").exists() else []
    argv = ["manoeuvre-sim", "fix", *edit, *real_args(quick), *resume]
    info = d / "command.txt"
    first = not info.exists()
    with info.open("a", encoding="utf-8") as f:
        if first:
            f.write(shlex.join(argv[:-1] if resume else argv) + "\n")
        f.write(f"{'started' if first else 'resumed'} {now()}\n")
    done = threading.Event()

    def sample() -> None:
        with (d / "load.log").open("a", encoding="utf-8") as log:
            while True:
                log.write(f"{dt.datetime.now(dt.UTC):%H:%M:%S} load average: "
                          + ", ".join(f"{x:.2f}" for x in os.getloadavg()) + "\n")  # fmt: skip
                log.flush()
                if done.wait(60):
                    return

    threading.Thread(target=sample, daemon=True).start()
    progress(f"fix: the real armies: {shlex.join(argv)} (in {d})")

    def stop(signum, frame) -> None:
        raise KeyboardInterrupt

    # a run started in the background (nohup ... &) inherits SIGINT ignored: kill -INT, and
    # kill -TERM, still stop it cleanly; the fix's own SIGINT is restored for it to obey
    old = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    with (d / "stderr.txt").open("a", encoding="utf-8") as err:
        child = subprocess.Popen([str(Path(sys.executable).parent / argv[0]), *argv[1:]],
                                 cwd=d, stderr=err, start_new_session=True,
                                 preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # fmt: skip
        try:
            code = child.wait()
        except KeyboardInterrupt:
            for sig in old:  # one stop: a second signal does not cut the wait short
                signal.signal(sig, signal.SIG_IGN)
            child.send_signal(signal.SIGINT)  # the fix keeps its finished blocks and exits
            child.wait()
            done.set()
            with info.open("a", encoding="utf-8") as f:
                f.write(f"interrupted {now()}\n")
            progress("fix: the real-armies fix interrupted; run the same command to resume it")
            raise
        finally:
            for sig, h in old.items():
                signal.signal(sig, h)
    done.set()
    with info.open("a", encoding="utf-8") as f:
        f.write(f"stopped {now()}\n")
    if code:
        progress(f"fix: the real-armies fix stopped with exit status {code}; see {d}/stderr.txt")
    return code


def main(argv: list[str] | None = None) -> int:
    ap = Parser(__file__, __doc__)
    ap.add_argument("--armies", default=FIELD, help=f"the field (default {FIELD})")
    ap.size("--cases", 10, 1, "planted cases")
    ap.size("--base-games", 4000, 400, "games per ordered pairing of the base field rates")
    ap.size("--screen-games", 200, 100, "games per pairing of a draw's first screen")
    ap.size("--check-games", 1000, 400, "games per pairing of the out-of-band check")
    ap.size("--games-per-look", 200, 100, "the fixer's games per pairing between two looks")
    ap.size(
        "--max-games",
        4000,
        300,
        "the fixer's cap per candidate and pairing (4,000: a "
        "meeting errata's rate interval, about +-1.3 points there, inside the +-2.5 band)",
    )
    ap.add_argument("--confirm-games", type=int,
                    help="the fixer's confirmation games per pairing (default: the fixer's "
                    "own, from the band; --quick 300)")  # fmt: skip
    ap.size("--width", 2.5, 1.0, "the band: the army's base field rate +- this many points",
            type=float)  # fmt: skip
    ap.add_argument("--margin", type=float, default=1.0,
                    help="a planted army must be out of its band by this many points at least "
                    "(1: what the fixer's test can resolve at its cap)")  # fmt: skip
    ap.add_argument("--kinds", default="strength,command",
                    help="the edit kinds planted and searched (strength,command)")  # fmt: skip
    ap.add_argument("--min-gain", type=float, default=0.01,
                    help="the fixer's --min-gain (0.01: a point)")  # fmt: skip
    ap.add_argument("--start", type=int, default=1,
                    help="the first case to play (two runs sharing --work can split the cases; a "
                    "last run from 1 reads them all back and writes the table)")  # fmt: skip
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=0, help="0: all cores")
    ap.add_argument("--work", type=Path, help="keep each finished case here (a rerun resumes)")
    ap.add_argument(
        "--real",
        type=Path,
        help="play the real-armies fix the issue asks for into this directory (or "
        "read it back when it finished; resumed when interrupted) and report it",
    )
    ap.add_argument("--real-only", action="store_true",
                    help="with --real: no planted case played, RESULTS-fix.md left as it is")  # fmt: skip
    ap.add_argument("--real-out", type=Path,
                    help="the real armies' results file (default benchmarks/RESULTS-fix-real.md; "
                    "a --quick run writes none unless given)")  # fmt: skip
    args = ap.parse_args(argv)
    armies = [a.strip() for a in args.armies.split(",") if a.strip()]
    if not args.screen_games <= args.check_games <= args.base_games:
        ap.error("expected --screen-games <= --check-games <= --base-games (the planted "
                 "draws are paired with the base's games)")  # fmt: skip
    run = Run(args, ap.name)
    state: dict = {}  # the check seed's base, played when a case is first drawn

    def base():
        if not state:
            t = time.perf_counter()
            progress(f"fix: base field rates of {', '.join(armies)} ({args.base_games:,} games "
                     "per ordered pairing)")  # fmt: skip
            state["player"], state["rates"] = checker(armies, args)
            state["secs"] = time.perf_counter() - t
            progress("fix: base field rates "
                     + ", ".join(f"{a} {_pct(r)} %" for a, r in state["rates"].items()))  # fmt: skip
        return state["player"], state["rates"]

    rows: list[dict] = []
    undrawn: list[dict] = []

    def write(final: bool) -> None:
        # every case read back: the base rates of the armies drawn, as each case recorded them
        rates = state.get("rates") or {r["army"]: r["base_rate"] for r in rows}
        lines = run.header("The balance fixer against planted imbalances") + report(
            rows, args, armies, rates, state.get("secs"), undrawn, final)  # fmt: skip
        run.write(lines)

    if args.real is not None:
        # its own results file (RESULTS-fix-real.md), so that the planted table's runs and the
        # real armies' run never rewrite each other's figures
        real = Run(argparse.Namespace(**{**vars(args), "out": args.real_out}), ap.name)
        stopped = False
        try:
            run_real(args.real, args.quick)
        except KeyboardInterrupt:
            stopped = True
        real.write(real.header("The balance fixer on the real armies")
                   + real_section(args.real), results_path("fix-real"))  # fmt: skip
        if stopped:
            return 130
        if args.real_only:
            return 0
    i = args.start - 1
    while len(rows) < args.cases - (args.start - 1):
        kept = args.work / f"case-{i + 1}.json" if args.work else None
        if args.real_only and not (kept is not None and kept.exists()):
            break  # --real-only: the cases --work holds are read back, none played
        if kept is not None and kept.exists():
            row = json.loads(kept.read_text(encoding="utf-8"))
            progress(f"case {i + 1}: read back from {kept}")
        else:
            player, rates = base()
            row = one_case(i, args, armies, rates, player)
            if kept is not None:
                from manoeuvre_sim.core.fileio import atomic_write

                kept.parent.mkdir(parents=True, exist_ok=True)
                with atomic_write(kept, encoding="utf-8") as f:
                    f.write(json.dumps(row, indent=1))
        i += 1
        (undrawn if row.get("undrawn") else rows).append(row)
        progress(f"fix: {sum(_success(r) for r in rows)} of {len(rows)} cases so far")
        if rows and not row.get("undrawn"):
            write(final=False)  # a partial table after every case: an interrupted run says it
    write(final=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
