"""The plain choices several rules hand to a unit's owner, answered with ordinary actions:

* ``loss``: which unit loses the next step (3.1 over-stacking, 8.1 an arrival into a held town,
  11.7 a stack with nowhere to retreat), answered with :class:`RemoveStep`;
* ``retreat``: where a stack retreats (8.1, by the rule of 11.7), answered with :class:`Retreat`;
* ``place``: where a unit goes (6.0 a defector, 8.2 a reinforcement sent to a Tigre town),
  answered with :class:`Place`.

Combat asks its own questions (:mod:`cheren.engine.rules.combat_resolution`), chits theirs.
"""

from __future__ import annotations

from cheren.engine.actions import Action, Place, RemoveStep, Retreat
from cheren.engine.position import Status
from cheren.engine.registry import ActionRule, Decision, DecisionKind, GameState, Refusal
from cheren.engine.rules import control, reinforcement, stacking
from cheren.engine.rules.retreat import retreat_options


def _alive(game: GameState, uid: str) -> bool:
    return game.position.units[uid].status is not Status.ELIMINATED


def _on_map(game: GameState, uid: str) -> bool:
    return game.position.units[uid].status is Status.MAP


def _name(game: GameState, uid: str) -> str:
    return game.scenario.units[uid].name


# -- loss -------------------------------------------------------------------------------------------
def _loss_actions(game: GameState, d: Decision) -> list[Action]:
    return [RemoveStep(u) for u in d.units if _alive(game, u)]


def _loss_answer(game: GameState, d: Decision, action: Action) -> None:
    assert isinstance(action, RemoveStep)
    game.lose_step(action.unit, d.rules)
    d.count -= 1
    remaining = [u for u in d.units if _alive(game, u)]
    if d.count <= 0 or not remaining:
        game.flow.queue.pop(0)
    else:
        d.units = tuple(remaining)
    if d.hex is not None and d.rules == ("3.1",):
        # 3.1: keep removing until the stack fits, whatever count was guessed
        game.flow.queue = [q for q in game.flow.queue if q is not d]
        stacking.queue_overstack(game, d.hex, d.side)


LOSS: DecisionKind = DecisionKind(_loss_actions, _loss_answer)


# -- retreat ----------------------------------------------------------------------------------------
def _retreat_actions(game: GameState, d: Decision) -> list[Action]:
    assert d.hex is not None
    units = [u for u in d.units if _on_map(game, u)]
    options = retreat_options(game.position, units, d.hex)
    return [Retreat(tuple(units), h) for h in options.hexes]


def _retreat_answer(game: GameState, d: Decision, action: Action) -> None:
    assert isinstance(action, Retreat)
    p = game.position
    for u in action.units:
        p.units[u].hex = action.to
    if action.units:
        control.enter_hexes(game, p.units[action.units[0]].side, [action.to])
    game.flow.queue.pop(0)
    game.event(f"{', '.join(_name(game, u) for u in action.units)} retreat to {action.to.label} (11.7)")
    stacking.queue_overstack(game, action.to, d.side, front=True)


def _no_retreat(game: GameState, d: Decision) -> None:
    units = [u for u in d.units if _on_map(game, u)]
    if units:
        game.event("no retreat is possible: the stack loses a step instead (11.7)")
        game.queue_front(Decision("loss", d.side, ("11.7",), "take a step loss: no retreat possible", tuple(units)))


RETREAT: DecisionKind = DecisionKind(_retreat_actions, _retreat_answer, impossible=_no_retreat)


# -- place ------------------------------------------------------------------------------------------
def _place_actions(game: GameState, d: Decision) -> list[Action]:
    return [Place(d.units[0], h) for h in d.choices]


def _place_answer(game: GameState, d: Decision, action: Action) -> None:
    assert isinstance(action, Place)
    unit = game.position.units[action.unit]
    unit.status = Status.MAP
    unit.hex = action.hex
    game.flow.queue.pop(0)
    game.event(f"{_name(game, action.unit)} placed in {action.hex.label} ({', '.join(d.rules)})")
    # placing a unit in a town takes it like entering it (2.1): a defector (6.0), a
    # reinforcement sent to a Tigre town (8.2)
    control.enter_hexes(game, unit.side, [action.hex])
    reinforcement.after_place(game, action.unit, action.hex, d)


def _nowhere_to_place(game: GameState, d: Decision) -> None:
    game.eliminate(d.units[0], d.rules, "no hex to place it in")


PLACE: DecisionKind = DecisionKind(_place_actions, _place_answer, impossible=_nowhere_to_place)


# -- an answer with no question -------------------------------------------------------------------
def _no_decision(game: GameState, action: Action) -> Refusal:
    return Refusal(("7.0",), f"no decision is pending that {action.describe()} would answer")


def _never(game: GameState, action: Action) -> None:
    raise AssertionError("a refused action is never applied")


ANSWER_ONLY: ActionRule = ActionRule(_no_decision, _never)
"""The rule of an action that only answers a decision (with one pending, the gate takes it as
that decision's answer before it looks here)."""
