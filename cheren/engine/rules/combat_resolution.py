"""Resolving one attack, rules 11.5 to 11.9: the roll, then the decisions it hands to the
players, in this order.

1. One die from the game's dice on the column of :mod:`cheren.engine.rules.combat_odds`.
2. On an "r" result the defender first chooses: retreat (and where, 11.7), or stay and lose one
   extra step for the stack.  The choice comes before the losses because 11.6 lets artillery
   absorb losses only when the stack retreats.  A stack that cannot retreat (the Massaua
   garrison never does, 8.5) has only the second option.  When the result would eliminate the
   whole stack there is nothing to choose.
3. The defender's losses, one step at a time, each step's unit chosen by the defender (11.6).
4. The retreat (the survivors move together; over-stacking in the new hex is removed at once,
   11.7 and 3.1), or the extra step for staying.
5. On a die of 5 or 6, when the defender stayed and still holds the hex, the attacker may push
   if it has a step to spare beyond its table loss: it loses that step and the defender gets a
   new retreat-or-loss choice, after which the attacker may push again (11.8).
6. The attacker's losses (11.5, 11.6).
7. If the hex was vacated, advance after combat, one unit at a time, units that lost steps in
   this attack first, never artillery (11.9) or the Massaua garrison (8.5).

The state of the attack being resolved lives in ``game.flow.extra["combat"]`` with the rest of
the phase's combat state, so undo and replay keep it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cheren.engine.actions import Action, RemoveStep, Retreat
from cheren.engine.position import Position, Status, chit_key
from cheren.engine.registry import Decision, DecisionKind, Task, register_decision
from cheren.engine.rules import control, stacking
from cheren.engine.rules.combat_actions import Advance, NoAdvance, Push, StayAndLose
from cheren.engine.rules.combat_eligibility import advance_refusal
from cheren.engine.rules.combat_odds import Odds, Shift, compute_odds, defenders_in
from cheren.engine.rules.optional_rules import push_allowed
from cheren.engine.rules.retreat import retreat_options
from cheren.hexes import Hex
from cheren.scenario.compiled import Scenario
from cheren.scenario.models import CombatResult, Side

if TYPE_CHECKING:
    from cheren.engine.game import Game

PUSH_ROLLS = (5, 6)  # 11.8
STATE_KEY = "combat"


# -- per-phase state -----------------------------------------------------------------------------
@dataclass
class Assembly:
    """An attack being assembled against one hex (11.0)."""

    target: Hex
    units: list[str] = field(default_factory=list)
    air: str | None = None


@dataclass
class Resolution:
    """The attack being resolved: where the sequence of 11.5-11.9 stands."""

    target: Hex
    side: Side  # the attacker
    attackers: tuple[str, ...]
    die: int
    result: CombatResult
    column: str
    stage: str = "choice"
    retreat_to: Hex | None = None
    stayed: bool = False
    pushes: int = 0
    lost: list[str] = field(default_factory=list)  # attackers that lost a step in this attack
    advanced: list[str] = field(default_factory=list)


@dataclass
class CombatState:
    """Everything combat remembers during one Combat phase."""

    assemblies: dict[Hex, Assembly] = field(default_factory=dict)
    attacked: set[str] = field(default_factory=set)  # units that have attacked (11.0: once a phase)
    air_used: bool = False  # 11.3: one attack per Combat phase
    current: Resolution | None = None
    resolved: list[Hex] = field(default_factory=list)


def state(game: Game) -> CombatState:
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


def peek(game: Game) -> CombatState:
    """The phase's combat state for reading: never changes the game."""
    box = game.flow.extra.get(STATE_KEY)
    st = box.get("state") if isinstance(box, dict) else None
    return st if isinstance(st, CombatState) else CombatState()


def publish(game: Game, target: Hex, units: list[str] | tuple[str, ...] | None) -> None:
    """Keep ``flow.extra["combat"]["attacks"]`` in step with the attacks (None: withdrawn)."""
    state(game)
    attacks: dict[str, list[str]] = game.flow.extra[STATE_KEY]["attacks"]
    if units is None:
        attacks.pop(target.label, None)
    else:
        attacks[target.label] = list(units)


# -- chits played on an attack (5.1): their effects on the odds -------------------------------
def chit_modifiers(game: Game, target: Hex, attacker: Side) -> dict[str, Any]:
    """Column shifts and support changes from chits played on this attack, as keyword
    arguments for :func:`compute_odds`."""
    from cheren.engine.rules import chits

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


def odds_for(game: Game, target: Hex, attackers: tuple[str, ...], air: str | None) -> Odds:
    """The odds of an attack in the game, chits included."""
    return compute_odds(game.position, attackers, target, air, **chit_modifiers(game, target, game.phasing))


# -- the roll ------------------------------------------------------------------------------------
def roll(game: Game, target: Hex, attackers: tuple[str, ...], air: str | None) -> None:
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
    return Task("call", {"handler": _continue})


def _ask(game: Game, decision: Decision) -> None:
    game.queue_front(decision, _next())


def _current(game: Game) -> Resolution:
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


def _continue(game: Game) -> None:
    """Run the attack being resolved up to its next decision, or to its end."""
    p = game.position
    cur = _current(game)
    enemy = cur.side.enemy
    where = cur.target.label
    while True:
        stage = cur.stage
        defenders = defenders_in(p, cur.target, cur.side)
        if stage == "choice":
            cur.stage = "defender_losses"
            cur.retreat_to, cur.stayed = None, False
            first = cur.pushes == 0
            if defenders and (not first or (cur.result.retreat and cur.result.defender < _steps(p, defenders))):
                why = f"a retreat result ({cur.result})" if first else "a new retreat result after the push (11.8)"
                _ask(game, Decision(
                    "combat_retreat", enemy, ("11.7",) if first else ("11.8", "11.7"),
                    f"{where}: {why}: retreat one hex, or stay and lose one step", defenders, hex=cur.target,
                ))
                return
        elif stage == "defender_losses":
            cur.stage = "after_losses"
            n = cur.result.defender
            if cur.pushes == 0 and n and defenders:
                retreating = cur.retreat_to is not None
                rider = "" if retreating else " (artillery only when no other unit can)"
                prompt = f"{where}: the defender loses {_plural(n)}{rider}"
                _ask(game, _loss(enemy, defenders, n, ("11.5", "11.6"), prompt, artillery_ok=retreating))
                return
        elif stage == "after_losses":
            cur.stage = "push" if cur.stayed else "attacker_losses"
            if cur.retreat_to is not None and defenders:
                to = cur.retreat_to
                for u in defenders:
                    p.units[u].hex = to
                game.event(f"{', '.join(_name(game, u) for u in defenders)} retreat from {where} to {to.label} (11.7)")
                control.enter_hexes(game, enemy, [to])
                game.queue_front(_next())
                stacking.queue_overstack(game, to, enemy, front=True)  # removed at once (11.7)
                return
            if cur.stayed and defenders:
                _ask(game, _loss(enemy, defenders, 1, ("11.7",), f"{where}: the stack stays and loses one step",
                                 artillery_ok=False))
                return
        elif stage == "push":
            cur.stage = "attacker_losses"
            # 11.8 makes the push an extra step, and 11.5 takes the table's loss after the
            # defender's: an attacker with no step left beyond that loss cannot pay for a push.
            payable = _steps(p, _alive(p, cur.attackers)) > cur.result.attacker
            if cur.stayed and cur.die in PUSH_ROLLS and defenders and payable and push_allowed(game.position):
                _ask(game, Decision(
                    "combat_push", cur.side, ("11.8",),
                    f"{where}: the die was {cur.die} and the defender stayed: push (lose a step; the defender "
                    "must then retreat or lose another)?", hex=cur.target,
                ))
                return
        elif stage == "push_loss":
            cur.stage = "choice"
            attackers = _alive(p, cur.attackers)
            if attackers:
                _ask(game, _loss(cur.side, attackers, 1, ("11.8",), f"{where}: the push costs the attacker a step",
                                 artillery_ok=False))
                return
        elif stage == "attacker_losses":
            cur.stage = "advance"
            attackers = _alive(p, cur.attackers)
            n = cur.result.attacker
            if n and attackers:
                _ask(game, _loss(cur.side, attackers, n, ("11.5", "11.6"), f"{where}: the attacker loses {_plural(n)}",
                                 artillery_ok=False))
                return
        elif stage == "advance":
            cur.stage = "done"
            if not defenders and advancers(game, cur):
                _ask(game, Decision(
                    "combat_advance", cur.side, ("11.9",),
                    f"{where} is vacated: advance into it (units that lost steps in this attack first)?",
                    hex=cur.target,
                ))
                return
        else:
            _finish(game)
            return


def _finish(game: Game) -> None:
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


def advancers(game: Game, cur: Resolution) -> list[str]:
    """Units that may advance now (11.9): those that lost steps in this attack come first."""
    p = game.position
    able = [u for u in cur.attackers if u not in cur.advanced and advance_refusal(p, u, cur.target) is None]
    first = [u for u in able if u in cur.lost]
    return first or able


# -- decision kinds --------------------------------------------------------------------------------
def _pop(game: Game, d: Decision) -> None:
    assert game.flow.queue and game.flow.queue[0] is d
    game.flow.queue.pop(0)


def _loss_actions(game: Game, d: Decision) -> list[Action]:
    p = game.position
    alive = list(_alive(p, d.units))
    if not d.data.get("artillery_ok"):
        others = [u for u in alive if not p.scenario.units[u].type.artillery]
        alive = others or alive  # 11.6: artillery only when no other unit can take the step
    return [RemoveStep(u) for u in alive]


def _loss_answer(game: Game, d: Decision, action: Action) -> None:
    assert isinstance(action, RemoveStep)
    cur = _current(game)
    game.lose_step(action.unit, tuple(r for r in d.rules if r != "11.6"))  # it cites 11.6 itself
    if action.unit in cur.attackers and action.unit not in cur.lost:
        cur.lost.append(action.unit)
    d.count -= 1
    if d.count <= 0 or not _loss_actions(game, d):
        _pop(game, d)


def _retreat_actions(game: Game, d: Decision) -> list[Action]:
    assert d.hex is not None
    units = _alive(game.position, d.units)
    options = retreat_options(game.position, list(units), d.hex)
    return [*(Retreat(units, h) for h in options.hexes), StayAndLose()]


def _retreat_answer(game: Game, d: Decision, action: Action) -> None:
    cur = _current(game)
    _pop(game, d)
    if isinstance(action, Retreat):
        cur.retreat_to = action.to
        game.event(f"the defenders of {cur.target.label} will retreat to {action.to.label} (11.7)")
    else:
        cur.stayed = True
        game.event(f"the defenders of {cur.target.label} stay and lose a step instead of retreating (11.7)")


def _push_actions(game: Game, d: Decision) -> list[Action]:
    return [Push(True), Push(False)]


def _push_answer(game: Game, d: Decision, action: Action) -> None:
    assert isinstance(action, Push)
    cur = _current(game)
    _pop(game, d)
    if action.yes:
        cur.pushes += 1
        cur.stage = "push_loss"
        game.event(f"the attacker pushes at {cur.target.label} (11.8)")


def _advance_actions(game: Game, d: Decision) -> list[Action]:
    return [*(Advance(u) for u in advancers(game, _current(game))), NoAdvance()]


def _advance_answer(game: Game, d: Decision, action: Action) -> None:
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


def _name(game: Game, uid: str) -> str:
    return game.scenario.units[uid].name


register_decision("combat_loss", DecisionKind(_loss_actions, _loss_answer))
register_decision("combat_retreat", DecisionKind(_retreat_actions, _retreat_answer))
register_decision("combat_push", DecisionKind(_push_actions, _push_answer))
register_decision("combat_advance", DecisionKind(_advance_actions, _advance_answer))
