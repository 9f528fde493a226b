"""Replaying a whole variation tree at once, each shared action once.

A study save holds every line as the actions it adds after its branch point.  Replaying each
line from the start of the game costs the depth of the tree for every line (quadratic: 200
nested lines took 18 s).  Here one game walks the tree depth first: it plays a line's actions,
steps into each line branching from it where it branches, and undoes its way back to go on, so
every action of the tree goes through the gate once (plus the undo of those it leaves).  The
walk is a loop with its own stack, never a recursion, however deep the lines nest.

The line the study is on is walked last, and the walk stops at its end: its game is the one the
study keeps, with undo history for its last :data:`~cheren.study.variations.UNDO_STEPS` actions
at least (and for every action after the first branch point, which the walk needed)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from cheren.engine.dice import Dice
from cheren.engine.game import Game, IllegalAction
from cheren.study.line import Line

if TYPE_CHECKING:
    from cheren.engine.position import Position
    from cheren.scenario.compiled import Scenario


class ReplayError(ValueError):
    """A line whose actions the gate refuses, or whose branch point its parent never reaches."""


@dataclass
class _Frame:
    line: Line
    children: list[Line]  # the lines branching from this one, in the order they are visited
    played: int = 0  # how many of the line's own actions the game has applied
    next_child: int = 0
    onward: Line | None = None  # the child leading to the current line: visited last, never left
    done_at: set[int] = field(default_factory=set)


def replay_tree(
    scenario: Scenario, seed: int, start: Position, lines: list[Line], current: str, undo_steps: int
) -> Game:
    """Check that every line replays through the gate and return the current line's game.

    ``lines`` come parents first (a save lists them so); their branch points and reseeds are
    already checked against their own lengths (:mod:`cheren.study.game_saves`)."""
    by_name = {line.name: line for line in lines}
    # A line may branch inside the history its parent took over from its own parent (after a
    # promote): the walk takes it from the line whose own actions hold its branch point.
    parent_of = _owners(lines)
    children: dict[str, list[Line]] = {line.name: [] for line in lines}
    for line in lines:
        parent = parent_of[line.name]
        if parent is not None:
            children[parent].append(line)
    path = _path_to(by_name, parent_of, current)  # main line ... current line
    on_path = {line.name for line in path}

    game = Game(scenario, seed, start.copy())
    dice_after = [game.position.dice.copy()]  # the dice after each action of the walk's path, before any reseed
    # Undo history is kept from the first point the walk comes back to (where a line off the way
    # to the current line branches, or where that way leaves a line that goes on), and for the
    # current line's last ``undo_steps`` actions: elsewhere actions are applied without it.
    current_length = path[-1].at + len(path[-1].actions)
    returns = [line.at for line in lines if line.name not in on_path]
    returns += [path[i + 1].at for i in range(len(path) - 1)
                if path[i + 1].at < path[i].at + len(path[i].actions)]
    keep_from = min([*returns, current_length - undo_steps])

    def frame(line: Line) -> _Frame:
        kids = sorted((c for c in children[line.name] if c.name not in on_path), key=lambda c: c.at)
        onward = next((c for c in children[line.name] if c.name in on_path), None)
        return _Frame(line, kids, onward=onward)

    def back_to(depth: int) -> None:
        while len(game.log) > depth:
            game.undo()
        del dice_after[depth + 1 :]
        game.position.dice = dice_after[depth].copy()

    stack = [frame(path[0])]
    while stack:
        top = stack[-1]
        line = top.line
        depth = line.at + top.played
        if top.next_child < len(top.children) and top.children[top.next_child].at == depth:
            child = top.children[top.next_child]
            top.next_child += 1
            back_to(depth)
            stack.append(frame(child))
            continue
        if top.played < len(line.actions):
            if depth in line.reseeds:
                game.position.dice = Dice(line.reseeds[depth])
            action = line.actions[top.played]
            last = top.played == len(line.actions) - 1 and top.next_child == len(top.children)
            if last and top.onward is None and line.name != current:
                # nothing is played after it on this line: the gate's verdict is all the walk needs
                verdict = game.check(action)
                if not verdict.ok:
                    raise ReplayError(f"line {line.name!r}, action {depth + 1} ({action.describe()}): {verdict}")
                top.played += 1
                continue
            try:
                game.apply(action, history=depth >= keep_from)
            except IllegalAction as exc:
                raise ReplayError(
                    f"line {line.name!r}, action {depth + 1} ({action.describe()}): {exc.refusal}"
                ) from None
            dice_after.append(game.position.dice.copy())
            top.played += 1
            continue
        if top.onward is not None:  # the rest of the way to the current line; nothing comes back here
            back_to(top.onward.at)
            stack.append(frame(top.onward))
            top.onward = None
            continue
        if line.name == current:
            if depth in line.reseeds:
                game.position.dice = Dice(line.reseeds[depth])
            # the walk's undos are not the player's: nothing may be redone after loading
            game._redo.clear()
            return game
        stack.pop()
        if stack:
            below = stack[-1]
            back_to(below.line.at + below.played)
    raise ReplayError(f"the current line {current!r} was never reached")  # lines not parents first


def _owners(lines: list[Line]) -> dict[str, str | None]:
    """For each line, the line whose own actions hold its branch point: its parent, or the
    nearest line up the chain branching no later than it.  Going up that chain the branch
    points never grow, so the search jumps (by 1, 2, 4 ... lines) rather than walking: a tree
    made to be deep costs no more than a shallow one."""
    index = {line.name: i for i, line in enumerate(lines)}
    at = [line.at for line in lines]
    jumps: list[list[int]] = []  # jumps[j][i]: the 2^j-th owner up from line i (-1: none)
    owner_of: dict[str, str | None] = {}
    for i, line in enumerate(lines):
        owner = -1 if line.parent is None else index[line.parent]
        if owner >= 0 and at[owner] > at[i]:
            for j in range(len(jumps) - 1, -1, -1):
                up = jumps[j][owner]
                if up >= 0 and at[up] > at[i]:
                    owner = up
            owner = jumps[0][owner]
        level, up = 0, owner
        while True:
            if level == len(jumps):
                jumps.append([-1] * len(lines))
            jumps[level][i] = up
            if up < 0:
                break
            up = jumps[level][up]
            level += 1
        owner_of[line.name] = lines[owner].name if owner >= 0 else None
    return owner_of


def _path_to(by_name: dict[str, Line], parent_of: dict[str, str | None], name: str) -> list[Line]:
    path = [by_name[name]]
    while (parent := parent_of[path[-1].name]) is not None:
        path.append(by_name[parent])
    return path[::-1]
