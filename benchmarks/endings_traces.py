"""The traced games of ``python -m benchmarks endings``: a few games of one player traced and
read event by event (``analyses/manoeuvre/endings.py``), and the lines the results file gives
them (the table, the stretches without a loss, the totals, how the fifth elimination came or
did not, the clock, how close the nightfall games were)."""

from __future__ import annotations

import sys

import numpy as np


def trace_games(armies, spec: str, n: int, seed: int):
    """Game 0 of ``n`` pairings spread over the ordered pairings: (army a, army b, pairing
    seed, state, trace, the two armies' packed cards) each."""
    from manoeuvre_sim.core.study import pairing_seed
    from manoeuvre_sim.manoeuvre.runner import SimConfig, prepare, traced_game

    pairs = [(a, b) for a in armies for b in armies]
    picks = sorted({(k * len(pairs)) // n for k in range(n)})
    out = []
    for i in picks:
        a, b = pairs[i]
        s = pairing_seed(seed, a, b)
        cfg = SimConfig(a, b, seed=s, policy_a=spec, policy_b=spec)
        prepared = prepare(cfg)
        st, tr = traced_game(cfg, 0, prepared=prepared)
        out.append((a, b, s, st, tr, prepared[2].tables.cards))
        print(f"  traced {a}-{b} (seed {s}, game 0): {len(tr):,} events", file=sys.stderr)
    return out


def trace_table(spec: str, games: list, tcs: list[dict], seed: int) -> list[str]:
    """What was traced, and a row per traced game."""
    from manoeuvre_sim.manoeuvre.engine.state import VICTORY_NAMES

    L = [
        f"{len(tcs)} games of `{spec}` against itself, traced with `runner.traced_game` (the "
        f"games `manoeuvre-sim replay --army-a A --army-b B --seed SEED --game 0 --policy-a "
        f"{spec} --policy-b {spec}` prints; SEED is the pairing's seed from master seed "
        f"{seed}) and counted by `analyses/manoeuvre/endings.py` `trace_counts`.",
        "",
        "| game | armies | seed | winner, ending | turns | decks out (a, b) | first contact | "
        "combats | units eliminated by a, by b | reduced targets: escaped | hits short of a 5th "
        "(a, b) |",
        "|---:|---|---:|---|---:|---|---:|---:|---|---|---|",
    ]
    for i, ((a, b, s, *_), t) in enumerate(zip(games, tcs, strict=True)):
        w = {0: "a", 1: "b"}.get(t["winner"], "draw")
        L.append(
            f"| {i + 1} | {a}-{b} | {s} | {w}, {VICTORY_NAMES[t['victory']]} | {t['turns']} | "
            f"{t['deck_out'][0]}, {t['deck_out'][1]} | {t['first_contact']} | {t['combats']} "
            f"| {t['kills'][0]}, {t['kills'][1]} | {t['reduced_targets']}: "
            f"{t['reduced_escaped']} | {t['hits_short'][0]}, {t['hits_short'][1]} |"
        )
    return L


def stretch_lines(tcs: list[dict]) -> list[str]:
    """Combats and eliminations per game turn, by stretch of the day."""
    L = ["| game turns | games reaching them | combats per game turn | "
         "eliminations per game turn |", "|---|---:|---:|---:|"]  # fmt: skip
    for lo, hi in [(1, 4), (5, 8), (9, 12), (13, 16), (17, 99)]:
        c = e = k = reach = 0
        for t in tcs:
            cb, eb = t["combats_by_turn"], t["elims_by_turn"]
            if len(cb) >= lo:
                reach += 1
            for j in range(lo - 1, min(hi, len(cb))):
                c += cb[j]
                e += eb[j]
                k += 1
        if k:
            label = f"{lo}-{hi}" if hi < 99 else f"{lo}+"
            L.append(f"| {label} | {reach} | {c / k:.2f} | {e / k:.2f} |")
    return L


def totals_line(tcs: list[dict]) -> str:
    n = len(tcs)
    turns = np.array([t["turns"] for t in tcs])
    comb = np.array([t["combats"] for t in tcs])
    elim = np.array([t["eliminations"] for t in tcs])
    no_contact = np.array([t["turns_without_contact"] for t in tcs])
    fc = [t["first_contact"] for t in tcs if t["first_contact"] is not None]
    contact = f"{np.mean(fc):.1f} on average (range {min(fc)}-{max(fc)})" if fc else "(never)"
    return (
        f"Totals over the {n} games: {turns.mean():.1f} game turns a game (range "
        f"{turns.min()}-{turns.max()}); {comb.sum()} combats ({comb.mean():.1f} a game, "
        f"{comb.sum() / turns.sum() / 2:.2f} per player turn: at most one is allowed, rule "
        f"4); {elim.sum()} eliminations ({elim.mean():.2f} a game); the armies first stood "
        f"next to each other at the start of game turn {contact}, and "
        f"{no_contact.mean():.1f} game turns a game began "
        "with no two enemy units adjacent."
    )


def fate_lines(tcs: list[dict]) -> list[str]:
    """How each combat's target fared, and the reduced units within reach."""
    n = len(tcs)
    tgt = {k: sum(t["target"][k] for t in tcs) for k in tcs[0]["target"]}
    esc = {k: sum(t["reduced_escape_how"][k] for t in tcs) for k in tcs[0]["target"]}
    red = sum(t["reduced_targets"] for t in tcs)
    ntot = sum(tgt.values())
    restored = sum(sum(t["restored"]) for t in tcs)
    reach = sum(t["reach_turns"] for t in tcs)
    armed = sum(t["reach_armed"] for t in tcs)
    armed_hit = sum(t["reach_armed_attacked"] for t in tcs)
    return [
        f"How each combat's target fared ({ntot} combats): eliminated "
        f"{tgt['eliminated']} ({tgt['eliminated'] / ntot:.0%}), hit {tgt['hit']} "
        f"({tgt['hit'] / ntot:.0%}), retreated {tgt['retreated']} "
        f"({tgt['retreated'] / ntot:.0%}), withdrew {tgt['withdrew']} "
        f"({tgt['withdrew'] / ntot:.0%}), unharmed {tgt['unharmed']} "
        f"({tgt['unharmed'] / ntot:.0%}: no effect, the attack repulsed, a missed "
        "Bombardment or Volley, a Skirmish). "
        f"Targets at reduced strength (one hit from elimination): {red}, of which "
        f"{red - sum(esc.values())} "
        f"were eliminated and {sum(esc.values())} escaped: retreated {esc['retreated']}, "
        f"withdrew {esc['withdrew']}, unharmed {esc['unharmed']}. "
        f"The attackers' own units took {sum(t['attacker_hits'] for t in tcs)} hits in their "
        f"combats ({sum(t['attacker_elims'] for t in tcs)} eliminations). Of the "
        f"{sum(t['hits'] for t in tcs)} hits that reduced a full-strength unit (targets, "
        f"attackers, pursuits), {restored} were undone by a restoration (rule 7; "
        f"{restored / n:.1f} a game).",
        "",
        f"Within reach: {reach} player turns began with an enemy unit at reduced strength "
        "next to one of the active side's units (one Assault from elimination, no move "
        f"needed); in {sum(t['reach_attacked'] for t in tcs)} of them the side's combat went "
        f"for such a unit. In {armed} of the {reach} the hand it moved with held a card to "
        "attack one without "
        "moving (an Ambush; an Assault or Volley card of a unit next to it; a Bombardment "
        "card of a unit within two squares, line of sight not checked), and in "
        f"{armed_hit} of those {armed} it did; in the other {reach - armed} it held none "
        "(an Assault needs a card of the attacking unit itself, rule 6.1 step 1).",
    ]


def clock_line(tcs: list[dict]) -> str:
    """The clock (rule 2.3): the decks running out, the winner's and the loser's discards."""
    dec = [t for t in tcs if t["winner"] in (0, 1)]
    wdis = np.mean([t["discards"][t["winner"]] for t in dec]) if dec else float("nan")
    ldis = np.mean([t["discards"][1 - t["winner"]] for t in dec]) if dec else float("nan")
    more = sum(1 for t in dec if t["kills"][t["winner"]] > t["kills"][1 - t["winner"]])
    fewer = sum(1 for t in dec if t["kills"][t["winner"]] < t["kills"][1 - t["winner"]])
    last_out = [
        t for t in dec if None not in t["deck_out"] and t["deck_out"][0] != t["deck_out"][1]
    ]
    loser_last = sum(1 for t in last_out
                     if t["deck_out"][1 - t["winner"]] > t["deck_out"][t["winner"]])  # fmt: skip
    wait = np.mean([abs(t["deck_out"][0] - t["deck_out"][1]) for t in tcs
                    if None not in t["deck_out"]])  # fmt: skip
    return (
        f"The clock (rule 2.3): the day ends with the game turn in which the second first "
        f"deck runs out, {wait:.1f} game turns after the first on average. The winner "
        f"discarded {wdis:.1f} cards unplayed a game, the loser {ldis:.1f}; of the "
        f"{len(last_out)} decided games whose decks ran out in different turns, the loser's "
        f"ran out last in {loser_last}. Of the {len(dec)} decided games the winner had "
        f"eliminated more units than the loser in {more}, as many in "
        f"{len(dec) - more - fewer} and fewer in {fewer}: nightfall is decided by the squares "
        "held (rule 2.2), eliminations only break a tie."
    )


def closeness_line(tcs: list[dict]) -> str:
    """How close the sides came to a fifth elimination, and what they did after 3 and 4."""
    lead = np.array([max(t["kills"]) for t in tcs])
    short = [min(x for x in t["hits_short"] if x is not None) for t in tcs
             if all(x is not None for x in t["hits_short"])]  # fmt: skip
    # after a side first reached 3 or 4 eliminations: turns left and its combats then
    after = {3: [], 4: []}
    for t in tcs:
        for p in (0, 1):
            for k in (3, 4):
                reached = next((j + 1 for j, x in enumerate(t["kills_by_turn"][p]) if x >= k),
                               None)  # fmt: skip
                if reached is None:
                    continue
                mine = [c for c in t["combat_log"] if c["p"] == p and c["turn"] > reached]
                after[k].append((t["turns"] - reached, len(mine)))
    return (
        f"How close: the side with more eliminations ended with {lead.mean():.2f} on average "
        f"(0-4: {', '.join(str(int((lead == k).sum())) for k in range(5))} games; 5: "
        f"{int((lead >= 5).sum())}); in the games that reached nightfall, the side nearer "
        f"its fifth elimination still needed {np.mean(short) if short else float('nan'):.1f} "
        "hits on average (the "
        "enemy's reduced units 1 each, full ones 2). After a side first reached 3 "
        f"eliminations ({len(after[3])} times) {np.mean([x for x, _ in after[3]] or [0]):.1f} "
        f"game turns were left and it declared {np.mean([y for _, y in after[3]] or [0]):.1f} "
        f"more combats; after 4 ({len(after[4])} times) "
        f"{np.mean([x for x, _ in after[4]] or [0]):.1f} turns and "
        f"{np.mean([y for _, y in after[4]] or [0]):.1f} combats."
    )


def trace_lines(spec: str, games: list, seed: int) -> list[str]:
    from manoeuvre_sim.analyses.manoeuvre.endings import trace_counts

    tcs = [trace_counts(tr, cards=cards) for *_, tr, cards in games]
    return [
        *trace_table(spec, games, tcs, seed), "", totals_line(tcs), "", *stretch_lines(tcs),
        "", *fate_lines(tcs), "", clock_line(tcs), "", closeness_line(tcs),
    ]  # fmt: skip
