"""Resolving one attack, rules 11.5 to 11.9: the roll, then the decisions it hands to the
players, in the order of :mod:`cheren.engine.rules.combat_sequence` (which the what-if follows
too).  Here each step of that order becomes a decision for a player or a change to the position:
the losses one step at a time, each step's unit chosen by its owner (11.6); the retreat of the
survivors together (over-stacking in the new hex is removed at once, 11.7 and 3.1); the push
(11.8); the advance one unit at a time, units that lost steps in this attack first, never
artillery (11.9) or the Massaua garrison (8.5).

The state of the attack being resolved lives in ``game.flow.extra["combat"]`` with the rest of
the phase's combat state, so undo and replay keep it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from cheren.engine.actions import Action, Advance, NoAdvance, Push, RemoveStep, Retreat, StayAndLose
from cheren.engine.position import Position, Status, chit_key
from cheren.engine.registry import Decision, DecisionKind, GameState, Task, call
from cheren.engine.rules import chits, control, stacking
from cheren.engine.rules.combat_eligibility import advance_refusal
from cheren.engine.rules.combat_odds import Odds, Shift, compute_odds, defenders_in
from cheren.engine.rules.combat_sequence import (
    ATTACKER_LOSS,
    CHOOSE_ADVANCE,
    CHOOSE_PUSH,
    CHOOSE_RETREAT,
    DEFENDER_LOSS,
    PUSH_LOSS,
    RETREAT,
    STAY_LOSS,
    Resolution,
    Step,
    next_step,
)
from cheren.engine.rules.optional_rules import push_allowed
from cheren.engine.rules.retreat import retreat_options
from cheren.hexes import Hex
from cheren.scenario.compiled import Scenario
from cheren.scenario.models import Side

STATE_KEY = "combat"


# -- per-phase state -----------------------------------------------------------------------------
@dataclass
class Assembly:
    """An attack being assembled against one hex (11.0)."""

    target: Hex
    units: list[str] = field(default_factory=list)
    air: str | None = None


@dataclass
class CombatState:
    """Everything combat remembers during one Combat phase."""

    assemblies: dict[Hex, Assembly] = field(default_factory=dict)
    attacked: set[str] = field(default_factory=set)  # units that have attacked (11.0: once a phase)
    air_used: bool = False  # 11.3: one attack per Combat phase
    current: Resolution | None = None
    resolved: list[Hex] = field(default_factory=list)


def state(game: GameState) -> CombatState:
    """The phase's combat state, created on first use (for changing it).

    ``flow.extra["combat"]`` is a dict so other rule areas can read it: ``"attacks"`` maps the
    label of every hex attacked this phase (assembled or resolved) to its attacking units, which
    is what the chit rules look for; ``"state"`` holds the :class:`CombatState`."""
    box: dict[str, Any] = game.flow.extra.setdefault(STATE_KEY, {})
    st = box.get("state")
    if not isinstance(st, CombatState):
        st = CombatState()
        box["state"] = st
        box.setdefault("attacks", {})
    return st


def peek(game: GameState) -> CombatState:
    """The phase's combat state for reading: never changes the game."""
    box = game.flow.extra.get(STATE_KEY)
    st = box.get("state") if isinstance(box, dict) else None
    return st if isinstance(st, CombatState) else CombatState()


def publish(game: GameState, target: Hex, units: list[str] | tuple[str, ...] | None) -> None:
    """Keep ``flow.extra["combat"]["attacks"]`` in step with the attacks (None: withdrawn)."""
    state(game)
    attacks: dict[str, list[str]] = game.flow.extra[STATE_KEY]["attacks"]
    if units is None:
        attacks.pop(target.label, None)
    else:
        attacks[target.label] = list(units)


# -- chits played on an attack (5.1): their effects on the odds -------------------------------
def chit_modifiers(game: GameState, target: Hex, attacker: Side) -> dict[str, Any]:
    """Column shifts and support changes from chits played on this attack, as keyword
    arguments for :func:`compute_odds`."""
    return modifiers_from_effects(game.scenario, chits.attack_effects(game, target), attacker)


def modifiers_from_effects(scenario: Scenario, effects: Iterable[dict[str, Any]], attacker: Side) -> dict[str, Any]:
    """The :func:`compute_odds` keyword arguments for chit effects on one attack: each a dict
    with the chit's ``effect``, ``side``, ``params`` and (optionally) ``chit`` instance."""
    shifts: list[Shift] = []
    bonus = [0, 0]
    winner: Side | None = None
    for e in effects:
        side = Side(e["side"])
        name = scenario.chits[chit_key(str(e["chit"]))].name if e.get("chit") else e["effect"]
        params = e.get("params", {})
        if e["effect"] == "column_shift":
            n = int(params.get("columns", 1))
            shifts.append(Shift(n if side is attacker else -n, "5.1", f"{name} chit"))
        elif e["effect"] == "win_support":
            winner = side
        elif e["effect"] == "support_points":
            bonus[0 if side is attacker else 1] += int(params.get("sp", 1))
    return {"extra_shifts": tuple(shifts), "support_bonus": (bonus[0], bonus[1]), "support_winner": winner}


def odds_for(game: GameState, target: Hex, attackers: tuple[str, ...], air: str | None) -> Odds:
    """The odds of an attack in the game, chits included."""
    return compute_odds(game.position, attackers, target, air, **chit_modifiers(game, target, game.phasing))


# -- the roll ------------------------------------------------------------------------------------
def roll(game: GameState, target: Hex, attackers: tuple[str, ...], air: str | None) -> None:
    """Roll an attack and start its sequence of decisions (the attack has been judged legal)."""
    p = game.position
    st = state(game)
    odds = odds_for(game, target, attackers, air)
    die = p.dice.roll()
    result = odds.results[die - 1]
    row = odds.row(die)  # the die as the variant's modifiers move it (the die itself without them)
    st.attacked.update(attackers)
    if air is not None:
        st.air_used = True
    st.resolved.append(target)
    publish(game, target, attackers)
    names = ", ".join(_name(game, u) for u in (*attackers, *([air] if air else [])))
    game.event(f"{names} attack {target.label}: {odds.explain()}")
    for note in odds.notes:
        game.event(note)
    moved = f" {odds.die_shift:+d} = {row}" if odds.die_modifiers else ""
    game.event(f"die {die}{moved} on the {odds.column_name} column: {result} (attacker/defender steps, 11.5)")
    st.current = Resolution(target, game.phasing, attackers, row, result, odds.column_name)
    game.queue_front(_next())


# -- the sequence --------------------------------------------------------------------------------
def _next() -> Task:
    return call(_continue)


def _ask(game: GameState, decision: Decision) -> None:
    game.queue_front(decision, _next())


def _current(game: GameState) -> Resolution:
    cur = state(game).current
    assert cur is not None, "no combat is being resolved"
    return cur


def _alive(position: Position, units: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(u for u in units if position.units[u].status is Status.MAP)


def _steps(position: Position, units: tuple[str, ...]) -> int:
    return sum(position.steps_left(u) for u in units)


def _loss(
    side: Side, units: tuple[str, ...], n: int, rules: tuple[str, ...], prompt: str, artillery_ok: bool
) -> Decision:
    return Decision("combat_loss", side, rules, prompt, units, count=n, data={"artillery_ok": artillery_ok})


def _plural(n: int) -> str:
    return f"{n} step{'s' if n != 1 else ''}"


class _InTheGame:
    """The units of the attack as the game has them (for :func:`next_step`)."""

    def __init__(self, game: GameState, cur: Resolution) -> None:
        self.game, self.cur = game, cur

    def defenders(self) -> tuple[str, ...]:
        return defenders_in(self.game.position, self.cur.target, self.cur.side)

    def defender_steps(self) -> int:
        return _steps(self.game.position, self.defenders())

    def attacker_steps(self) -> int:
        return _steps(self.game.position, _alive(self.game.position, self.cur.attackers))

    def push_allowed(self) -> bool:
        return push_allowed(self.game.position)

    def may_advance(self) -> bool:
        return bool(advancers(self.game, self.cur))


def _continue(game: GameState) -> None:
    """Run the attack being resolved up to its next decision, or to its end."""
    cur = _current(game)
    units = _InTheGame(game, cur)
    step = next_step(cur, units)
    if step is None:
        _finish(game)
        return
    _STEPS[step.kind](game, cur, units.defenders(), step)


def _choose_retreat(game: GameState, cur: Resolution, defenders: tuple[str, ...], step: Step) -> None:
    first = cur.pushes == 0
    why = f"a retreat result ({cur.result})" if first else "a new retreat result after the push (11.8)"
    _ask(game, Decision(
        "combat_retreat", cur.side.enemy, ("11.7",) if first else ("11.8", "11.7"),
        f"{cur.target.label}: {why}: retreat one hex, or stay and lose one step", defenders, hex=cur.target,
    ))


def _defender_loss(game: GameState, cur: Resolution, defenders: tuple[str, ...], step: Step) -> None:
    retreating = cur.retreat_to is not None
    rider = "" if retreating else " (artillery only when no other unit can)"
    prompt = f"{cur.target.label}: the defender loses {_plural(step.n)}{rider}"
    _ask(game, _loss(cur.side.enemy, defenders, step.n, ("11.5", "11.6"), prompt, artillery_ok=retreating))


def _retreat(game: GameState, cur: Resolution, defenders: tuple[str, ...], step: Step) -> None:
    to = cur.retreat_to
    assert to is not None
    enemy = cur.side.enemy
    for u in defenders:
        game.position.units[u].hex = to
    game.event(f"{', '.join(_name(game, u) for u in defenders)} retreat from {cur.target.label} to {to.label} (11.7)")
    control.enter_hexes(game, enemy, [to])
    game.queue_front(_next())
    stacking.queue_overstack(game, to, enemy, front=True)  # removed at once (11.7)


def _stay_loss(game: GameState, cur: Resolution, defenders: tuple[str, ...], step: Step) -> None:
    _ask(game, _loss(cur.side.enemy, defenders, 1, ("11.7",), f"{cur.target.label}: the stack stays and loses one step",
                     artillery_ok=False))


def _choose_push(game: GameState, cur: Resolution, defenders: tuple[str, ...], step: Step) -> None:
    _ask(game, Decision(
        "combat_push", cur.side, ("11.8",),
        f"{cur.target.label}: the die was {cur.die} and the defender stayed: push (lose a step; the defender "
        "must then retreat or lose another)?", hex=cur.target,
    ))


def _push_loss(game: GameState, cur: Resolution, defenders: tuple[str, ...], step: Step) -> None:
    _ask(game, _loss(cur.side, _alive(game.position, cur.attackers), 1, ("11.8",),
                     f"{cur.target.label}: the push costs the attacker a step", artillery_ok=False))


def _attacker_loss(game: GameState, cur: Resolution, defenders: tuple[str, ...], step: Step) -> None:
    _ask(game, _loss(cur.side, _alive(game.position, cur.attackers), step.n, ("11.5", "11.6"),
                     f"{cur.target.label}: the attacker loses {_plural(step.n)}", artillery_ok=False))


def _choose_advance(game: GameState, cur: Resolution, defenders: tuple[str, ...], step: Step) -> None:
    _ask(game, Decision(
        "combat_advance", cur.side, ("11.9",),
        f"{cur.target.label} is vacated: advance into it (units that lost steps in this attack first)?",
        hex=cur.target,
    ))


_STEPS = {
    CHOOSE_RETREAT: _choose_retreat, DEFENDER_LOSS: _defender_loss, RETREAT: _retreat, STAY_LOSS: _stay_loss,
    CHOOSE_PUSH: _choose_push, PUSH_LOSS: _push_loss, ATTACKER_LOSS: _attacker_loss, CHOOSE_ADVANCE: _choose_advance,
}


def _finish(game: GameState) -> None:
    st = state(game)
    cur = st.current
    assert cur is not None
    st.current = None
    p = game.position
    for h in list(st.assemblies):
        if not defenders_in(p, h, cur.side):
            del st.assemblies[h]
            publish(game, h, None)
            game.event(f"the attack being assembled on {h.label} lapses: no enemy units are left there (11.0)")


def advancers(game: GameState, cur: Resolution) -> list[str]:
    """Units that may advance now (11.9): those that lost steps in this attack come first."""
    p = game.position
    able = [u for u in cur.attackers if u not in cur.advanced and advance_refusal(p, u, cur.target) is None]
    first = [u for u in able if u in cur.lost]
    return first or able


# -- decision kinds --------------------------------------------------------------------------------
def _pop(game: GameState, d: Decision) -> None:
    assert game.flow.queue and game.flow.queue[0] is d
    game.flow.queue.pop(0)


def _loss_actions(game: GameState, d: Decision) -> list[Action]:
    p = game.position
    alive = list(_alive(p, d.units))
    if not d.data.get("artillery_ok"):
        others = [u for u in alive if not p.scenario.units[u].type.artillery]
        alive = others or alive  # 11.6: artillery only when no other unit can take the step
    return [RemoveStep(u) for u in alive]


def _loss_answer(game: GameState, d: Decision, action: Action) -> None:
    assert isinstance(action, RemoveStep)
    cur = _current(game)
    game.lose_step(action.unit, tuple(r for r in d.rules if r != "11.6"))  # it cites 11.6 itself
    if action.unit in cur.attackers and action.unit not in cur.lost:
        cur.lost.append(action.unit)
    d.count -= 1
    if d.count <= 0 or not _loss_actions(game, d):
        _pop(game, d)


def _retreat_actions(game: GameState, d: Decision) -> list[Action]:
    assert d.hex is not None
    units = _alive(game.position, d.units)
    options = retreat_options(game.position, list(units), d.hex)
    return [*(Retreat(units, h) for h in options.hexes), StayAndLose()]


def _retreat_answer(game: GameState, d: Decision, action: Action) -> None:
    cur = _current(game)
    _pop(game, d)
    if isinstance(action, Retreat):
        cur.retreat(action.to)
        game.event(f"the defenders of {cur.target.label} will retreat to {action.to.label} (11.7)")
    else:
        cur.stay()
        game.event(f"the defenders of {cur.target.label} stay and lose a step instead of retreating (11.7)")


def _push_actions(game: GameState, d: Decision) -> list[Action]:
    return [Push(True), Push(False)]


def _push_answer(game: GameState, d: Decision, action: Action) -> None:
    assert isinstance(action, Push)
    cur = _current(game)
    _pop(game, d)
    if action.yes:
        cur.push()
        game.event(f"the attacker pushes at {cur.target.label} (11.8)")


def _advance_actions(game: GameState, d: Decision) -> list[Action]:
    return [*(Advance(u) for u in advancers(game, _current(game))), NoAdvance()]


def _advance_answer(game: GameState, d: Decision, action: Action) -> None:
    cur = _current(game)
    if isinstance(action, Advance):
        unit = game.position.units[action.unit]
        start = unit.hex
        assert start is not None
        unit.hex = cur.target
        cur.advanced.append(action.unit)
        control.enter_hexes(game, cur.side, [cur.target])
        game.event(f"{_name(game, action.unit)} advances {start.label} -> {cur.target.label} (11.9)")
        if advancers(game, cur):
            return
    _pop(game, d)


def _name(game: GameState, uid: str) -> str:
    return game.scenario.units[uid].name


LOSS: DecisionKind = DecisionKind(_loss_actions, _loss_answer)
RETREAT_OR_STAY: DecisionKind = DecisionKind(_retreat_actions, _retreat_answer)
PUSH: DecisionKind = DecisionKind(_push_actions, _push_answer)
ADVANCE: DecisionKind = DecisionKind(_advance_actions, _advance_answer)
