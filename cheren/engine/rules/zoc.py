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


def zoc_value(position: Position, uid: str) -> int | None:
    """The stacking value the unit adds to the ZoC of its hex, or None where it has no ZoC
    (4.0): it is off the map, out of supply (a No supply marker), or the air unit."""
    unit = position.units[uid]
    if unit.hex is None or unit.status is not Status.MAP or unit.supply is Supply.NO:
        return None
    return _STACK_VALUES(position.scenario)[uid]


def projects_zoc(position: Position, uid: str) -> bool:
    """Whether the unit has a ZoC where it stands (4.0; see :func:`zoc_value`)."""
    return zoc_value(position, uid) is not None


def _hexes_covered(s: Scenario) -> dict[Hex, tuple[Hex, ...]]:
    mountains = s.mountains
    return {h: () if h in mountains else tuple(n for n in around if n not in mountains)
            for h, around in s.adjacent.items()}


_COVERED = ScenarioMemo(_hexes_covered)


def zoc_hexes(s: Scenario, h: Hex) -> tuple[Hex, ...]:
    """The hexes a unit with a ZoC in ``h`` puts in its zone: those adjacent, but none into or
    out of a mountain hex (4.0)."""
    return _COVERED(s)[h]


def _zoc_map(position: Position, side: Side) -> dict[Hex, Zoc]:
    stack_value: dict[Hex, int] = {}
    for uid, unit in position.units.items():
        if unit.side is side:
            value = zoc_value(position, uid)
            if value is not None:
                h = unit.hex
                assert h is not None
                stack_value[h] = stack_value.get(h, 0) + value
    out: dict[Hex, Zoc] = {}
    covered = _COVERED(position.scenario)
    for h, value in stack_value.items():
        kind = Zoc.HARD if value >= HARD_ZOC_STACK else Zoc.SOFT
        for n in covered[h]:
            if kind is Zoc.HARD or n not in out:
                out[n] = kind
    return out
