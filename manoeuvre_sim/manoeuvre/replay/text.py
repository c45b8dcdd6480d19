"""Replays, the text: a :class:`~manoeuvre_sim.manoeuvre.replay.Replay` as plain English — one line
per event, the board after the set-up and each player turn in ASCII, the header and the
legend. This is what ``manoeuvre-sim replay`` prints and what the golden transcripts in
``tests/golden/`` hold; the PDF (``analyses/manoeuvre/replay_pdf.py``) uses the same lines.
"""

from __future__ import annotations

from manoeuvre_sim.manoeuvre.model import Army
from manoeuvre_sim.manoeuvre.replay.model import (
    FILES,
    Board,
    Line,
    MatchInfo,
    Replay,
    Result,
    Section,
    check_turns,
    selected,
    square_name,
    unit_label,
)

BAND_TEXT = (
    "A < D: every attacking unit takes a hit",
    "A = D: no effect",
    "A > D: the defender chooses a hit or a retreat",
    "A >= 2D: the attacker chooses a hit or a retreat for the defender",
    "A >= 3D: the defender takes a hit and retreats",
    "A >= 4D: the defender is eliminated",
)
COMBAT_TEXT = {
    "assault": "Assault",
    "ambush": "Ambush",
    "bombard": "Bombardment",
    "volley": "Volley",
    "grand_battery": "Grand Battery",
    "rockets": "Rockets",
    "death_with_honour": "Death With Honour",
}
ROCKET_TEXT = ("no effect", "the target retreats", "the target retreats and takes a hit")
TIEBREAK_TEXT = (
    "decided by the squares controlled",
    "squares tied; decided by the enemy units eliminated",
    "squares and eliminations tied; decided by fewer units at reduced strength",
    "squares, eliminations and reduced units tied; decided by the nation listed first in rule 2.2",
    "a complete tie between identical nations: a draw",
)
ROLL_TEXT = {
    "attack": "for the attack",
    "fire": "to fire",
    "rockets": "for the rockets",
    "pursuit": "for the pursuit",
    "rally": "to rally",
    "withdraw": "to withdraw",
}
MOVE_TEXT = {"supply": " with Supply", "forced_march": " by Forced March",
             "banzai": " by Banzai Charge",
             "skirmish": " after the Skirmish"}  # fmt: skip
# what "plays CARD" says for each purpose of a card play; {u}: the unit
PLAY_TEXT = {
    "defense": "plays {card} in defense of {u}",
    "attack": "plays {card} for the attack of {u}",
    "leader_command": "plays {card} for its command value (supporting units may join)",
    "committed": "plays {card} for {u} (+2d6; a hit to it afterwards)",
    "sappers": "plays {card}: the redoubt of {u} gives no defense",
    "skirmish": "plays {card}: the combat is cancelled (Skirmish)",
    "withdraw": "plays {card} to withdraw {u}",
    "restore": "plays {card} to restore {u}",
    "redoubt": "plays {card} under {u}",
    "supply_move": "plays {card} to move a second unit, {u}",
    "forced_march": "plays {card} for {u}",
    "banzai": "plays {card}: {u} and one more unit move up to two squares",
}


# ------------------------------------------------------------------------------------------
# card names
# ------------------------------------------------------------------------------------------
def _unit_card_text(name: str, card) -> str:
    parts = []
    if card.attack:
        parts.append(f"attack {card.attack}")
    parts.append(f"defense {card.defense}")
    if card.bombard:
        parts.append(f"bombard {card.bombard} range {card.range}")
    if card.volley:
        parts.append(f"volley {card.volley}")
    parts += card.ability_terms()
    return f"{name} card ({', '.join(parts)})"


_CARD_CACHE: dict[int, tuple[Army, list[str]]] = {}


def card_names(army: Army) -> list[str]:
    """Card names in the packed order (``engine/pack.py``): unit cards unit by unit, then the
    leaders, then the HQ cards copy by copy — also the ``card_no`` order of ``armies
    export``."""
    hit = _CARD_CACHE.get(id(army))
    if hit is not None and hit[0] is army:
        return hit[1]
    names = []
    for u in army.units:
        names += [_unit_card_text(u.name, c) for c in u.cards]
    for ld in army.leaders:
        combat = (
            str(ld.combat_attack)
            if ld.combat_attack == ld.combat_defense
            else f"{ld.combat_attack}/{ld.combat_defense}"
        )
        extra = f", Grand Battery {ld.grand_battery}" if ld.grand_battery else ""
        names.append(f"leader {ld.name} (command {ld.command}, combat {combat}{extra})")
    for h in army.hq:
        names += [f"HQ {h.printed_title}"] * h.count
    _CARD_CACHE[id(army)] = (army, names)
    return names


def card_name(info: MatchInfo, p: int, c: int) -> str:
    """Readable name of card ``c`` (index into the packed card table) of player p."""
    return card_names(info.armies[p])[c]


# ------------------------------------------------------------------------------------------
# lines
# ------------------------------------------------------------------------------------------
def _n(k: int, word: str) -> str:
    return f"{k} {word}{'' if k == 1 else 's'}"


def result_text(info: MatchInfo, res: Result) -> str:
    """One line: who won, how, when."""
    t = res.game_turns
    if res.victory == "attrition":
        loser = 1 - res.winner
        return (
            f"{info.side(res.winner)} wins by attrition in game turn {t}: "
            f"{info.armies[loser].name} lost {res.eliminated[loser]} units"
        )
    when = (
        f"at the turn limit of {info.config.max_turns} game turns"
        if res.turn_limit
        else f"at nightfall after game turn {t}"
    )
    who = "Draw" if res.winner < 0 else f"{info.side(res.winner)} wins"
    return (
        f"{who} {when}: squares controlled A {res.vp[0]}, B {res.vp[1]}; "
        f"{TIEBREAK_TEXT[res.tiebreak]}"
    )


def summary(replay: Replay) -> str:
    """The result in one line (what ``replay --out`` prints on stderr)."""
    return result_text(replay.info, replay.result)


class _Text:
    """The English of each kind of :class:`Line` (method ``_<kind>``)."""

    def __init__(self, replay: Replay):
        self.replay = replay
        self.info = replay.info
        self.terrain = replay.board.terrain  # laid by the map events, never changed after

    def line(self, ln: Line) -> str:
        text = getattr(self, f"_{ln.kind}")(ln.player, **ln.values)
        return (self.info.side(ln.player) + ": " if ln.player >= 0 else "") + text

    def _sq(self, sq: int, terrain: bool = False) -> str:
        name = square_name(sq)
        if terrain:
            t = self.terrain[sq]
            if t != "C":
                name += f" ({self.info.terrain(t)})"
        return name

    def _card(self, p: int, c: int) -> str:
        return card_name(self.info, p, c)

    def _draw(self, p, card):
        return f"draws {self._card(p, card)}"

    def _first_deck_done(self, p):
        return "has drawn the last card of its first deck (rule 2.3)"

    def _discard(self, p, card):
        return f"discards {self._card(p, card)}"

    def _move(self, p, unit, fr, to, how):
        u = self.info.unit(unit)
        return f"moves {u} {self._sq(fr)} -> {self._sq(to, True)}{MOVE_TEXT.get(how, '')}"

    def _play(self, p, card, purpose, other, **initiate):
        info, card = self.info, self._card(p, card)
        if purpose == "initiate":
            tgt = f"{info.unit(other)} at {self._sq(initiate['target_sq'])}"
            combat = initiate["combat"]
            if combat == "ambush":
                return f"plays {card} to ambush {tgt}"
            if combat == "grand_battery":
                return f"plays {card} for a Grand Battery at {tgt}"
            if combat == "rockets":
                return f"plays {card} to fire rockets at {tgt}"
            if combat == "death_with_honour":
                return f"plays {card}: Death With Honour for {tgt}"
            u = initiate["unit"]
            verb = {"assault": "assaults", "bombard": "bombards"}.get(combat, "volleys at")
            return f"{info.unit(u)} at {self._sq(initiate['unit_sq'])} {verb} {tgt}, playing {card}"
        if purpose == "leader_combat":
            if other >= 0:
                return f"plays {card} for its combat value, defending {info.unit(other)}"
            return f"plays {card} for its combat value"
        if purpose == "guerrilla":
            return f"plays {card} against {self._card(1 - p, other)}"
        if purpose == "maharaja":
            return (
                f"plays {card} with {self._card(p, other)}: no nationality restriction, Command 4"
            )
        text = PLAY_TEXT[purpose]
        return text.format(card=card, u=info.unit(other) if "{u}" in text else "")

    def _first_roll(self, p, sides, roll_a, roll_b):
        info = self.info
        return f"First player roll (d{sides}): {info.side(0)} {roll_a}, {info.side(1)} {roll_b}"

    def _roll(self, p, roll, total, count, sides, mod, dice=()):
        what = ROLL_TEXT.get(roll, f"(roll kind {roll})")
        detail = f" ({total - mod} {mod:+d} for the leader)" if mod else ""
        if len(dice) > 1:  # each die, as a checker would count them
            detail = f" ({' + '.join(str(v) for v in dice)})"
        return f"rolls {count}d{sides} {what}: {total}{detail}"

    def _combat(self, p, combat, code, attack, defense, result):
        name = COMBAT_TEXT.get(combat, f"combat kind {code}")
        if combat == "rockets":
            return f"{name}: d10 {attack}: {ROCKET_TEXT[result]}"
        if combat == "death_with_honour":
            return (
                f"{name}: {self.info.unit(attack)} falls; {_n(result, 'adjacent enemy unit')} hit"
            )
        if combat in ("assault", "ambush"):
            return f"{name}: attack {attack} against defense {defense}: {BAND_TEXT[result]}"
        return f"{name}: {attack} against defense {defense}: {'one hit' if result else 'no effect'}"

    def _hit(self, p, unit, step, lost):
        if step == 1:
            red = self.info.unit_of(unit)[1].reduced
            return f"{self.info.unit(unit)} takes a hit: reduced to strength {red}"
        return f"{self.info.unit(unit)} is eliminated ({lost} of 5 lost)"

    def _retreat(self, p, unit, fr, to):
        if to < 0:
            return f"{self.info.unit(unit)} had no square to retreat to from {self._sq(fr)}"
        return f"{self.info.unit(unit)} retreats {self._sq(fr)} -> {self._sq(to, True)}"

    def _advance(self, p, unit, fr, to):
        return f"{self.info.unit(unit)} advances {self._sq(fr)} -> {self._sq(to, True)}"

    def _restore(self, p, unit, ok):
        if ok:
            return f"{self.info.unit(unit)} is restored to full strength"
        return f"the restoration of {self.info.unit(unit)} fails"

    def _redoubt(self, p, sq):
        return f"builds a redoubt at {self._sq(sq)} (+3 defense)"

    def _negate(self, p, card, guerrilla):
        return f"cancels {self._card(1 - p, card)}; both cards are discarded"

    def _reshuffle(self, p, cards):
        return f"shuffles the {cards} discarded cards into a new draw pile"

    def _setup(self, p, unit, sq):
        return f"sets up {self.info.unit(unit)} at {self._sq(sq, True)}"

    def _first(self, p, side):
        return f"{self.info.side(side)} is the first player"

    def _map(self, p, section, turns, quarter):
        turned = f", turned {turns} quarter turn{'s' * (turns != 1)} clockwise" if turns else ""
        if p >= 0:  # the first player lays the map (rule 3)
            return f"lays section {section} in the {quarter} quarter{turned}"
        return f"Map: section {section} in the {quarter} quarter{turned}"

    def _edge(self, p, edge, turns):
        side = "bottom (ranks 1-2)" if p == 0 else "top (ranks 7-8)"
        how = (
            f"the battlefield turns {turns} quarter turn{'s' * (turns != 1)} clockwise to bring "
            f"it to the {side}"
            if turns
            else f"it is already at the {side}"
        )
        return (
            f"chooses the {edge} edge of the map as laid as its starting edge, "
            f"{self.info.side(1 - p)} takes the opposite one (rule 3); {how}"
        )

    def _spy(self, p, card):
        opp = self.info.armies[1 - p].name
        return f"plays {self._card(p, card)}: looks at {opp}'s hand, then draws to 5"

    def _dig_in(self, p):
        return "digs in: no move, the whole hand discarded"

    def _no_move(self, p):
        return "has no unit that can move"

    def _pursuit(self, p, unit, roll, hit):
        return f"pursuit by {self.info.unit(unit)}: {roll}, {'a hit' if hit else 'no hit'}"

    def _declare_committed(self, p, unit, card):
        return (
            f"declares the attack of {self.info.unit(unit)} Committed with "
            f"{self._card(p, card)} (+2d6; a hit to it afterwards)"
        )

    def _support(self, p, unit, unit_sq, target, leader, step):
        info = self.info
        u = info.unit_of(unit)[1]
        strength = u.full if step == 2 else u.reduced
        army = info.armies[p]
        k = leader - sum(len(x.cards) for x in army.units)  # leaders follow the unit cards
        led = army.leaders[k].name if 0 <= k < len(army.leaders) else self._card(p, leader)
        return (
            f"{info.unit(unit)} at {self._sq(unit_sq)} supports the attack on "
            f"{info.unit(target)}, led by {led}: +{strength} strength (rule 6.4)"
        )

    def _withdraw(self, p, unit, ok):
        if ok:
            return f"{self.info.unit(unit)} withdraws"
        return f"the withdrawal of {self.info.unit(unit)} fails"

    def _attrition(self, p, winner, loser, lost):
        return (
            f"{self.info.armies[loser].name} has lost {lost} units: "
            f"{self.info.side(winner)} wins by attrition (rule 2.1)"
        )

    def _turn_limit(self, p, max_turns):
        return (
            f"The game stops at the safety limit of {max_turns} game turns "
            "(not both first decks were drawn); it is scored as at nightfall"
        )

    def _nightfall(self, p, game_turn):
        return (
            f"Nightfall: both players have drawn their first deck; the day ends "
            f"after game turn {game_turn} (rule 2.3)"
        )

    def _standing(self, p, side, squares, eliminated, reduced):
        return (
            f"{self.info.side(side)}: controls {_n(squares, 'square')} of the enemy half, has "
            f"eliminated {_n(eliminated, 'enemy unit')}, has {_n(reduced, 'reduced unit')}"
        )

    def _result(self, p):
        return summary(self.replay)


def section_lines(replay: Replay, sec: Section) -> list[str]:
    """The plain-English lines of one section of ``replay``."""
    text = _Text(replay)
    return [text.line(ln) for ln in sec.lines]


# ------------------------------------------------------------------------------------------
# boards
# ------------------------------------------------------------------------------------------
def board_cell(board: Board, sq: int) -> str:
    """``'H A3r#'``: terrain letter (``.`` for Clear), then the unit's label with ``r`` if it
    is reduced and ``#`` on a redoubt."""
    t = board.terrain[sq]
    t = "." if t == "C" else t
    u = board.occ[sq]
    if u < 0:
        return t
    lab = unit_label(u) + ("r" if board.step[u] == 1 else "")
    return f"{t} {lab}{'#' if sq in board.redoubt else ''}"


def board_ascii(board: Board) -> str:
    """The board as text: 8 ranks top (8, army B's edge) to bottom (1, army A's)."""
    cw = max(6, max(len(board_cell(board, sq)) for sq in range(64)))
    head = "     " + "".join(f" {f:<{cw + 1}}" for f in FILES).rstrip()
    lines = [head]
    for row in range(8):
        cells = "".join(f" {board_cell(board, row * 8 + c):<{cw}}|" for c in range(8))
        lines.append(f"  {8 - row} |{cells} {8 - row}")
    lines.append(head)
    return "\n".join(lines)


# ------------------------------------------------------------------------------------------
# the transcript
# ------------------------------------------------------------------------------------------
def legend(info: MatchInfo) -> list[str]:
    lines = ["Units (label, army, unit, type, full/reduced strength):"]
    for p, army in enumerate(info.armies):
        for u, unit in zip(info.unit_ids(p), army.units, strict=True):
            lab = unit_label(u)
            lines.append(
                f"  {lab:<4}{army.name}: {unit.name}, {unit.type} {unit.full}/{unit.reduced}"
            )
    terr = ", ".join(f"{'.' if k == 'C' else k} {v}" for k, v in sorted(info.terrain_names.items()))
    lines += [
        f"Terrain: {terr}",
        "Board: files a-h, ranks 1-8; army A sets up on ranks 1-2 (bottom), army B on "
        "ranks 7-8 (top).",
        "A3 = unit 3 of army A at full strength, A3r at reduced strength, # on a redoubt.",
    ]
    return lines


def rules_text(info: MatchInfo) -> str:
    """The game options that are not the defaults, in words (``""`` for none): what a
    replay was played with beyond the set-up."""
    from pathlib import Path

    from manoeuvre_sim.manoeuvre.runner import rule_record

    cfg = info.config
    if cfg is None:
        return ""
    words = {"tournament_hand": "tournament hand (rule 3)",
             "advance_to_contact": "Advance to Contact", "digging_in": "Digging In",
             "dl_forced_march": "Distant Lands Forced March"}  # fmt: skip
    parts = [
        f"turn limit {v}" if k == "max_turns" else words[k] for k, v in rule_record(cfg).items()
    ]
    if cfg.sections_file:
        parts.append(f"sections {Path(cfg.sections_file).name}")
    return "options: " + ", ".join(parts) if parts else ""


def header(replay: Replay) -> list[str]:
    from manoeuvre_sim.manoeuvre.engine.options import describe_setup

    info = replay.info
    cfg = info.config
    setup = describe_setup(cfg.setup, cfg.fixed_map, cfg.fixed_rot)
    rules = rules_text(info)
    return [
        f"Manoeuvre replay: {info.side(0)} vs {info.side(1)}",
        f"seed {info.seed}, game {info.game}, rules {info.rules_version}; players: "
        f"A {info.policies[0]}, B {info.policies[1]}"
        + (f"; {setup}" if setup else "")
        + (f"; {rules}" if rules else ""),
        f"Result: {summary(replay)}",
    ]


def render_text(replay: Replay, turns: tuple[int, int] | None = None) -> str:
    """The transcript: header, legend, set-up (when the range starts at turn 1), each
    selected player turn with the board after it, the end (when the range reaches it)."""
    check_turns(replay, turns)
    out = header(replay) + [""] + legend(replay.info)
    blocks = []
    if turns is None or turns[0] <= 1:
        blocks.append(replay.setup)
    blocks += selected(replay, turns)
    if turns is None or turns[1] >= replay.game_turns:
        blocks.append(replay.end)
    text = _Text(replay)
    for sec in blocks:
        out += ["", f"== {sec.title} ==", *(text.line(ln) for ln in sec.lines)]
        if sec is not replay.end:
            out += ["", board_ascii(sec.board)]
    return "\n".join(out) + "\n"


def transcript(
    army_a: str,
    army_b: str,
    *,
    seed: int,
    game: int = 0,
    policies: tuple[str, str] | None = None,
) -> str:
    """The whole checked transcript of one game as text (what the golden files hold)."""
    from manoeuvre_sim.manoeuvre.replay.reader import replay_game

    return render_text(replay_game(army_a, army_b, seed=seed, game=game, policies=policies))
