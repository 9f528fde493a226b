"""Stacking, rules 3.0 and 3.1."""

from __future__ import annotations

from operator import itemgetter

from cheren.engine.position import Position
from cheren.engine.registry import Decision, GameState
from cheren.hexes import Hex
from cheren.scenario.models import Side


def stack_value(position: Position, h: Hex, side: Side) -> int:
    """3.0: the total stacking value of one side's units in a hex."""
    s = position.scenario
    return sum(s.units[u].stack for u in position.units_at(h) if position.units[u].side is side)


def excess(position: Position, h: Hex, side: Side) -> int:
    """How far a side's stack in ``h`` is over the hex's limit (3.1: the least favourable
    terrain of a mixed hex counts); 0 when legal."""
    limit = position.scenario.stack_limits[h]
    return max(0, stack_value(position, h, side) - limit)


def overstacked(position: Position) -> list[tuple[Hex, Side, int]]:
    s = position.scenario
    limits = s.stack_limits
    defs = s.units
    units = position.units
    out: list[tuple[Hex, Side, int]] = []
    for h, ids in position.stack_map().items():
        limit = limits[h]
        if len(ids) == 1:  # most stacks: one unit, one side
            value = defs[ids[0]].stack
            if value > limit:
                out.append((h, units[ids[0]].side, value - limit))
            continue
        values: dict[Side, int] = {}
        for u in ids:
            side = units[u].side
            values[side] = values.get(side, 0) + defs[u].stack
        for side, value in values.items():
            if value > limit:
                out.append((h, side, value - limit))
    out.sort(key=itemgetter(0))  # by hex (stable: one hex's sides in the order of its units); few are over
    return out


def queue_overstack(game: GameState, h: Hex, side: Side, front: bool = True) -> None:
    """If the side is over the limit in ``h``, its owner must remove steps until it fits."""
    position = game.position
    over = excess(position, h, side)
    if not over:
        return
    units = tuple(u for u in position.units_at(h) if position.units[u].side is side)
    limit = position.scenario.hexes[h].stack_limit
    d = Decision(
        "loss",
        side,
        ("3.1",),
        f"{h.label} holds stacking value {stack_value(position, h, side)} over its limit of {limit}: "
        "remove steps until it fits",
        units,
        hex=h,
    )
    if front:
        game.queue_front(d)
    else:
        game.queue_back(d)


def queue_all(game: GameState) -> None:
    """3.1 at the end of a phase: every over-stacked stack, the phasing side's first."""
    position = game.position
    found = overstacked(position)
    found.sort(key=lambda item: (item[1] is not position.side, item[0]))
    for h, side, _ in reversed(found):
        queue_overstack(game, h, side, front=True)
