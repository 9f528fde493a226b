"""A position's historical plan, played through the gate.

A position file writes its historical plan as steps a person can read (units by printed name,
hexes by label, a move by its destination).  :func:`play_plan` turns each step into the gate's
action at the moment it is played and applies it to a game started from the position, so a plan
that the rules refuse is caught with the step and the rule.  Decisions of the other side that
open on the way (a chit window before a die is rolled) are passed, as a play-out's planner does.

A plan ends at its first die roll (an attack): what comes after depends on the dice, and the
play-outs that compare the plan with an alternative roll their own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from cheren.engine.actions import Action, Move, action_from_json
from cheren.engine.game import Game
from cheren.files.position_files import PositionRecord
from cheren.files.position_model import PlanStep
from cheren.hexes import Hex
from cheren.scenario.compiled import Scenario
from cheren.scenario.models import Side

#: Actions that roll a die: a plan stops after the first one.
DICE_ROLLING = frozenset({"attack", "resolve"})


class PlanError(ValueError):
    """A historical plan that does not play: names the position, the step and why."""


@dataclass
class PlayedPlan:
    """The plan played from the position with the position's own dice: the game where it ends,
    and the plan's actions in the gate's vocabulary (what :func:`cheren.study.analysis.evaluate.compare`
    takes)."""

    game: Game
    side: Side
    actions: list[Action] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)  # what each step did, in words


def plan_side(record: PositionRecord) -> Side:
    """Whose plan it is: the side the question names, else the side to act when the position opens."""
    if record.question is not None:
        return record.question.side
    return Game.from_position(record.position.copy()).moment.acting


def play_plan(record: PositionRecord, *, roll: bool = False) -> PlayedPlan:
    """Play ``record``'s historical plan through the gate; :class:`PlanError` if a step is
    refused, a step follows a die roll, or the position has no plan.  With ``roll`` the other
    side's decisions that still stand before the plan's die (a chit window) are passed, so an
    attack that ends the plan is rolled with the position's own dice."""
    name = record.name
    if record.plan is None:
        raise PlanError(f"{name}: the position has no historical plan")
    game = Game.from_position(record.position.copy())
    side = plan_side(record)
    played = PlayedPlan(game, side)
    rolled: int | None = None
    for i, step in enumerate(record.plan.steps):
        where = f"{name}: historical_plan.steps[{i}] ({step.kind})"
        if rolled is not None:
            raise PlanError(f"{where}: the plan goes on after the die roll of step {rolled + 1}; end it there")
        pass_other_side(game, side)
        if game.over:
            raise PlanError(f"{where}: the game is over before this step")
        if game.acting is not side:
            raise PlanError(f"{where}: it is the {game.acting.adjective} side's turn to act here, not the plan's")
        action = step_action(game, step, where)
        verdict = game.check(action)
        if not verdict.ok:
            raise PlanError(f"{where}: refused: {verdict}")
        events = game.apply(action)
        played.actions.append(action)
        played.texts.append(describe_action(game.scenario, action) + "".join(f"; {e}" for e in events))
        if step.kind in DICE_ROLLING:
            rolled = i
    if roll:
        before = len(game.log)
        pass_other_side(game, side)
        played.texts += [e for entry in game.log[before:] for e in entry.events]
    return played


def describe_action(s: Scenario, action: Action) -> str:
    """An action in words, with counter names rather than ids."""
    names = s.units
    pattern = re.compile(r"\b(" + "|".join(re.escape(u) for u in sorted(names, key=len, reverse=True)) + r")\b")
    return pattern.sub(lambda m: names[m.group(1)].name, action.describe())


def step_action(game: Game, step: PlanStep, where: str = "historical_plan") -> Action:
    """The gate's action for one plan step at the game's present moment."""
    s = game.scenario
    if step.kind == "move":
        if step.unit is None:
            raise PlanError(f"{where}: a move names its unit")
        uid = unit_id(s, step.unit, where)
        if step.path:
            return Move(uid, tuple(Hex.from_label(x) for x in step.path))
        if step.to is None:
            raise PlanError(f"{where}: a move names its destination (to) or its path")
        to = Hex.from_label(step.to)
        moves = [a for a in game.legal_actions() if isinstance(a, Move) and a.unit == uid and a.to == to]
        if not moves:
            reason = game.check(Move(uid, (to,))) if to in game.position.scenario.playable else "not a playable hex"
            raise PlanError(f"{where}: {s.units[uid].name} cannot move to {step.to} now ({reason})")
        return moves[0]
    data = step.model_dump(exclude_none=True)
    if "unit" in data:
        data["unit"] = unit_id(s, data["unit"], where)
    if "attackers" in data:
        data["attackers"] = [unit_id(s, ref, where) for ref in data["attackers"]]
    if step.kind == "attack":
        data.setdefault("air", False)
    try:
        return action_from_json(data)
    except ValueError as exc:
        raise PlanError(f"{where}: {exc}") from None


def unit_id(s: Scenario, ref: str, where: str) -> str:
    if ref in s.units:
        return ref
    by_name = {d.name.casefold(): uid for uid, d in s.units.items()}
    uid = by_name.get(ref.strip().casefold())
    if uid is None:
        raise PlanError(f"{where}: no unit named {ref!r}")
    return uid


def pass_other_side(game: Game, side: Side) -> None:
    """Answer the other side's pending decisions by passing (or their first answer where passing
    is not one), as the planner of a play-out lets the other side's bot do."""
    while not game.over and game.pending is not None and game.acting is not side:
        options = game.legal_actions()
        game.apply(next((a for a in options if a.kind == "pass_chit"), options[0]))
