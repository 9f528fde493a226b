"""Where a stack may retreat, rule 11.7 (used by combat and by 8.1 arrivals)."""

from __future__ import annotations

from dataclasses import dataclass

from cheren.engine.position import Position, Status
from cheren.engine.rules.move_costs import enterable_hexes
from cheren.engine.rules.zoc import Zoc, zoc_map
from cheren.hexes import Hex

PRIORITY_TEXT = {
    1: "a hex outside enemy ZoC (11.7, first choice)",
    2: "a hex in a soft enemy ZoC (11.7, second choice)",
    3: "a hex in a hard enemy ZoC that holds a friendly unit (11.7, third choice)",
}


@dataclass(frozen=True)
class RetreatOptions:
    """The hexes the stack must choose among (all of the best available priority)."""

    priority: int | None  # None: no retreat possible
    hexes: tuple[Hex, ...]
    refused: dict[Hex, str]  # neighbours that are ruled out, with the reason

    @property
    def possible(self) -> bool:
        return bool(self.hexes)


def retreat_options(position: Position, units: list[str], origin: Hex) -> RetreatOptions:
    """11.7: retreat one hex, first where no enemy ZoC reaches, else into a soft ZoC, else into
    a hard ZoC already holding a friendly unit; never onto enemy units, never into a hard ZoC
    without a friend, never into a mountain for a unit that may not enter one (9.1); the
    Massaua naval garrison never retreats (8.5).  The stack retreats together (a reading taken:
    see the interpretation list)."""
    s = position.scenario
    if not units:
        return RetreatOptions(None, (), {})
    side = position.units[units[0]].side
    refused: dict[Hex, str] = {}
    if any(s.units[u].counter.immobile for u in units):
        return RetreatOptions(None, (), {origin: "the Massaua naval garrison never retreats (8.5)"})
    zoc = zoc_map(position, side.enemy)
    by_priority: dict[int, list[Hex]] = {1: [], 2: [], 3: []}
    no_mountain = any(not s.units[u].type.may_enter_mountain for u in units)
    enterable = enterable_hexes(s)
    for n in origin.neighbours():
        if n not in enterable:
            continue
        occupants = [position.units[u] for u in position.units_at(n)]
        if any(o.side is not side for o in occupants):
            refused[n] = "enemy units there (11.7)"
            continue
        if no_mountain and n in s.mountains:
            refused[n] = "mountain: a tank or motorized unit may not retreat into it (9.1, 11.7)"
            continue
        kind = zoc.get(n)
        if kind is None:
            by_priority[1].append(n)
        elif kind is Zoc.SOFT:
            by_priority[2].append(n)
        elif any(o.status is Status.MAP for o in occupants):
            by_priority[3].append(n)
        else:
            refused[n] = "hard enemy ZoC with no friendly unit there (11.7)"
    for priority in (1, 2, 3):
        if by_priority[priority]:
            return RetreatOptions(priority, tuple(sorted(by_priority[priority])), refused)
    return RetreatOptions(None, (), refused)
