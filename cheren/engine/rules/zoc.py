"""Zones of control, rule 4.0."""

from __future__ import annotations

from enum import IntEnum

from cheren.engine.position import Position, Status, Supply
from cheren.hexes import Hex
from cheren.scenario.compiled import Scenario
from cheren.scenario.memo import ScenarioMemo
from cheren.scenario.models import Side

HARD_ZOC_STACK = 3  # 4.0: a stack totalling 3 or more stacking value projects a hard ZoC


class Zoc(IntEnum):
    SOFT = 1
    HARD = 2


def _no_maps(s: Scenario) -> dict[tuple[Side, int], dict[Hex, Zoc]]:
    return {}


_MAPS = ScenarioMemo(_no_maps)


def zoc_map(position: Position, side: Side) -> dict[Hex, Zoc]:
    """The hexes in the ZoC of ``side``'s units, hard where any adjacent projecting stack totals
    3+ stacking value.  No ZoC extends into or out of a mountain hex (4.0).

    Reading taken (see interpretations): a stack's hardness counts only its units that project
    a ZoC, and separate stacks never add up.

    The map depends on nothing but ``side``'s units, so it is kept under their change stamp
    and shared by everyone who asks: read it, never change it."""
    maps = _MAPS(position.scenario)
    key = (side, position.stamp(side))
    found = maps.get(key)
    if found is None:
        if len(maps) > 64:
            maps.clear()
        found = maps[key] = _zoc_map(position, side)
    return found


def _stack_values(s: Scenario) -> dict[str, int | None]:
    """Each unit's stacking value, None for an air unit (it projects no ZoC): read from the unit
    definitions once, not for every unit of every map."""
    return {uid: None if d.type.air else d.stack for uid, d in s.units.items()}


_STACK_VALUES = ScenarioMemo(_stack_values)


def _zoc_map(position: Position, side: Side) -> dict[Hex, Zoc]:
    s = position.scenario
    values = _STACK_VALUES(s)
    stack_value: dict[Hex, int] = {}
    no_supply, on_map = Supply.NO, Status.MAP
    for uid, unit in position.units.items():
        h = unit.hex
        if unit.side is side and h is not None and unit.supply is not no_supply and unit.status is on_map:
            value = values[uid]
            if value is not None:
                stack_value[h] = stack_value.get(h, 0) + value
    out: dict[Hex, Zoc] = {}
    mountains = s.mountains
    adjacent = s.adjacent
    for h, value in stack_value.items():
        if h in mountains:
            continue
        kind = Zoc.HARD if value >= HARD_ZOC_STACK else Zoc.SOFT
        for n in adjacent[h]:
            if n in mountains:
                continue
            if kind is Zoc.HARD or n not in out:
                out[n] = kind
    return out
