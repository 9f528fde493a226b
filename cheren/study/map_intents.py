"""What a player means by a hex or a unit on the map, in the game's own terms: the move to a hex,
the answer to a decision that a hex stands for, the attack being lined up, and why the rules
refuse what was meant.

The app's controllers (a click) and the lessons' exercise runner (a step written in a lesson
file) both ask here, so a lesson's ``move: {unit: ..., to: ...}`` and a learner's two clicks mean
the same thing.  Nothing here changes a game: every answer is an action for the gate
(``Game.check`` / ``Game.push``) or a :class:`~cheren.engine.registry.Refusal` with its rules.
"""

from __future__ import annotations

import re
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any, Literal

from cheren.engine.actions import Action, Move, Place, Retreat
from cheren.engine.game import Game
from cheren.engine.registry import Refusal
from cheren.engine.rules.move_reasons import explain_move
from cheren.engine.wording import hex_text, rules_cited
from cheren.hexes import Hex, line
from cheren.scenario.models import Phase

Kind = Literal["ok", "refused", "info"]


@dataclass(frozen=True)
class Feedback:
    """What a player is told after a click, a button or a lesson's step: ``ok`` (something
    happened, ``events`` says what), ``refused`` (nothing changed; ``rules`` are the rule numbers
    of the reason) or ``info``."""

    kind: Kind
    text: str
    rules: tuple[str, ...] = ()
    events: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.kind != "refused"

    def hexes(self, playable: AbstractSet[Hex]) -> tuple[Hex, ...]:
        """The hexes a refusal is about (the map marks them): every playable hex its reason
        names, the hex tried and the one that decided it ("only through 2106, where a Roadblock
        stops it"); none for other messages."""
        if self.kind != "refused":
            return ()
        found = (Hex.from_label(m) for m in re.findall(r"(?<![\d.])(\d{4})(?![\d.])", self.text))
        return tuple(dict.fromkeys(h for h in found if h in playable))

    @classmethod
    def refused(cls, refusal: Refusal, prefix: str = "") -> Feedback:
        return cls("refused", prefix + refusal.reason, refusal.rules)

    def __str__(self) -> str:
        """The text, with the rule numbers of a refusal when the text does not name them."""
        missing = [r for r in self.rules if r not in self.text]
        if self.kind == "refused" and missing:
            return f"{self.text} (rule {', '.join(self.rules)})"
        return self.text


# -- moving --------------------------------------------------------------------------------------
def legal_moves(game: Game, uid: str, actions: list[Action] | None = None) -> dict[Hex, Move]:
    """The legal moves of a unit now, by destination (the gate lists the cheapest path to each)."""
    listed = game.legal_actions() if actions is None else actions
    return {a.to: a for a in listed if isinstance(a, Move) and a.unit == uid}


def move_refusal(game: Game, uid: str, h: Hex) -> Refusal:
    """Why ``uid`` cannot end a move in ``h`` now (nothing is moved), citing the rules."""
    unit = game.position.units[uid]
    name = game.scenario.units[uid].name
    if unit.hex is None:
        return Refusal(("9.0",), f"{name} is not on the map")
    path = tuple(line(unit.hex, h)[1:]) or (h,)
    refusal = game.check(Move(uid, path)).refusal
    if refusal is not None:
        return Refusal(refusal.rules, f"{name} cannot go to {hex_text(h)}: {refusal.reason}")
    why = explain_move(game.position, uid, h, game.move_options(uid))
    return Refusal(rules_cited(why), why)


def stacking_warning(game: Game) -> str | None:
    """Ending the phase now would cost steps to over-stacking (3.1): where, in words; None when
    every stack of the acting side fits (the app says it once before ending the phase)."""
    from cheren.engine.rules.stacking import overstacked

    if game.phase is Phase.REINFORCEMENT:
        return None  # 3.1: not checked at the end of this phase
    mine = [(h, over) for h, side, over in overstacked(game.position) if side is game.acting]
    if not mine:
        return None
    where = ", ".join(f"{h.label} (+{over})" for h, over in mine)
    return (
        f"Over the stacking limit in {where}: ending the phase now means removing steps until each "
        "stack fits (3.1). Move units apart, or click End phase again to go on."
    )


# -- decisions -----------------------------------------------------------------------------------
def hex_answers(answers: list[Action]) -> dict[Hex, Action]:
    """The answers to a pending decision that are a hex on the map (a retreat, a placement, or
    any answer naming one hex)."""
    out: dict[Hex, Action] = {}
    for a in answers:
        if isinstance(a, Retreat):
            out[a.to] = a
        elif isinstance(a, Place):
            out[a.hex] = a
        else:
            h = next((v for v in a.field_values().values() if isinstance(v, Hex)), None)
            if h is not None:
                out.setdefault(h, a)
    return out


def retreat_refusal(game: Game, h: Hex) -> Refusal | None:
    """A retreat waits and ``h`` is a neighbour it may not go to: why not, in the words of 11.7
    (None when no retreat waits, ``h`` is not next to it, or it may go there)."""
    from cheren.engine.rules.retreat import PRIORITY_TEXT, retreat_options

    d = game.pending
    origin = d.hex if d is not None else None
    if d is None or origin is None or h not in origin.neighbours():
        return None
    if not any(isinstance(a, Retreat) for a in game.legal_actions()):
        return None
    p = game.position
    units = [u for u in d.units if p.units[u].hex == origin]
    options = retreat_options(p, units, origin)
    who = ", ".join(game.scenario.units[u].name for u in units) or "the stack"
    if h in options.refused:
        return Refusal(("11.7",), f"{who} may not retreat to {h.label}: {options.refused[h]}")
    if options.priority is None or h in options.hexes:
        return None
    where = ", ".join(x.label for x in options.hexes)
    return Refusal(("11.7",), f"{who} may not retreat to {h.label} while {PRIORITY_TEXT[options.priority]} is "
                              f"free: {where}")


def refused_answers(game: Game) -> list[tuple[Action, Refusal]]:
    """The answers a player may think of for the pending decision that the rules refuse, each
    with the rule's reason: every other neighbour of a retreating stack (11.7), every attacker
    that may not advance (11.9).  A lesson offers them beside the legal answers, so that the
    buttons never give the answer away."""
    from cheren.engine.actions import Advance
    from cheren.engine.rules.combat_eligibility import advance_refusal
    from cheren.engine.rules.combat_resolution import peek

    d = game.pending
    if d is None:
        return []
    legal = game.legal_actions()
    out: list[tuple[Action, Refusal]] = []
    retreats = [a for a in legal if isinstance(a, Retreat)]
    if retreats and d.hex is not None:
        units = retreats[0].units
        taken = {a.to for a in retreats}
        for n in sorted(d.hex.neighbours(), key=lambda h: h.label):
            if n in game.scenario.playable and n not in taken:
                why = retreat_refusal(game, n) or Refusal(("11.7",), f"{n.label} is not a hex the retreat may go to")
                out.append((Retreat(units, n), why))
    cur = peek(game).current
    if d.kind == "combat_advance" and cur is not None:
        able = {getattr(a, "unit", None) for a in legal if isinstance(a, Advance)}
        p = game.position
        for uid in cur.attackers:
            if uid in able or uid in cur.advanced or p.units[uid].hex is None:
                continue
            why = advance_refusal(p, uid, cur.target) or Refusal(
                ("11.9",), f"{game.scenario.units[uid].name} may not advance yet: units that lost steps in this "
                           "attack advance first")
            out.append((Advance(uid), why))
    return out


# -- the attack being lined up (11.0) --------------------------------------------------------------
@dataclass
class AttackDraft:
    """An attack being lined up in the Combat phase: the defending hex, the attackers, the air unit."""

    defender: Hex | None = None
    attackers: list[str] = field(default_factory=list)
    air: bool = False

    def key(self) -> tuple[Hex | None, frozenset[str], bool]:
        """What tells two drafts apart (the order the attackers joined in does not)."""
        return (self.defender, frozenset(self.attackers), self.air)


def enemy_at(game: Game, h: Hex) -> bool:
    """Whether ``h`` holds a unit of the side not phasing (something to attack)."""
    p = game.position
    return any(p.units[u].side is not game.phasing for u in p.units_at(h))


def attacker_refusal(game: Game, draft: AttackDraft, uid: str) -> Refusal | None:
    """Why ``uid`` may not join the attack on the draft's defender, or None."""
    from cheren.engine.actions import Commit

    if draft.defender is None:
        return Refusal(("11.0",), "pick the defending hex first")
    return game.check(Commit(uid, draft.defender)).refusal


def air_refusal(game: Game) -> Refusal | None:
    """Why the air unit may not join an attack now (not arrived before turn 3, already used this
    phase), or None (11.3)."""
    from cheren.engine.rules.combat import combat_state
    from cheren.engine.rules.combat_eligibility import air_refusal as refusal

    used = bool(getattr(combat_state(game), "air_used", False))
    return refusal(game.position, game.phasing, used)


def draft_whatif(game: Game, draft: AttackDraft) -> Any:
    """The what-if of the attack lined up (odds with their reasons, the exact chance of every
    outcome, a refusal when the rules would not allow it), or None while a side is missing."""
    from cheren.engine.combat_whatif import proposed, what_if
    from cheren.engine.rules.combat_resolution import chit_modifiers

    if draft.defender is None or not draft.attackers:
        return None
    shifts = tuple(chit_modifiers(game, draft.defender, game.phasing).get("extra_shifts", ()))
    return what_if(game.position, proposed(draft.defender, draft.attackers, draft.air), shifts=shifts)


def attack_account(game: Game, target: Hex, attackers: list[str] | tuple[str, ...], whatif: Any) -> str:
    """An attack in words, from the engine's own odds: who against whom, the strengths, the
    ratio, every column shift with its rule, and the column ("10 Ind, 11 Ind against Savoia 10
    in 0609: 16 vs 5 = 3.2 -> 3-1")."""
    s, p = game.scenario, game.position
    names = [s.units[u].name for u in attackers]
    air = " with air support" if getattr(getattr(whatif, "attack", None), "air", False) else ""
    odds = getattr(whatif, "odds", whatif)
    defenders = [s.units[u].name for u in getattr(odds, "defenders", ()) or p.units_at(target)]
    where = f"{_and(defenders)} in {target.label}" if defenders else target.label
    return f"{_and(names)}{air} against {where}: {odds.explain()} (11.0-11.5)"


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1] if names else "nobody"


def draft_attack(draft: AttackDraft) -> Action:
    """The one ``Attack`` action that rolls the draft through the gate."""
    from cheren.engine.actions import Attack

    assert draft.defender is not None
    return Attack(draft.defender, tuple(draft.attackers), draft.air)
