"""Questions a teacher asks of a position, answered as data the renderers can draw."""

from __future__ import annotations

from cheren.hexes import Hex
from cheren.render.scene import Overlay
from cheren.rules.movement import explain_move, immobile_reason, reachable
from cheren.rules.zoc import Zoc, zoc_map
from cheren.scenario.models import Side
from cheren.state import Position

SIDE_COLOURS = {Side.ALLIED: "#b3261e", Side.ITALIAN: "#2e6b2e"}


def reach_overlay(position: Position, unit_id: str) -> Overlay:
    """Every hex the unit can reach, labelled with its movement cost; hard-ZoC stops marked."""
    reach = reachable(position, unit_id)
    labels: dict[Hex, str | None] = {}
    for h, r in reach.reach.items():
        cost = r.cost
        text = str(cost.numerator) if cost.denominator == 1 else f"{float(cost):g}"
        labels[h] = text + ("!" if r.stops else "")
    name = position.scenario.units[unit_id].name
    return Overlay("reach", labels, colour="#2b6cc4", opacity=0.3, title=f"{name}: reach (MP; ! = ZoC stop)")


def zoc_overlay(position: Position, side: Side) -> Overlay:
    """The hexes in ``side``'s ZoC, marked H (hard) or S (soft), rule 4.0."""
    zoc = zoc_map(position, side)
    labels: dict[Hex, str | None] = {h: ("H" if k is Zoc.HARD else "S") for h, k in zoc.items()}
    title = f"{side.adjective} ZoC (H hard, S soft)"
    return Overlay("zoc", labels, colour=SIDE_COLOURS[side], opacity=0.22, title=title)


def why_not(position: Position, unit_id: str) -> dict[Hex, str]:
    """For each neighbour of the unit's hex it cannot reach, the reason with its rule."""
    unit = position.units[unit_id]
    if unit.hex is None:
        return {}
    blocked = immobile_reason(position, unit_id)
    reach = reachable(position, unit_id)
    out: dict[Hex, str] = {}
    for n in unit.hex.neighbours():
        if n in position.scenario.hexes and n not in reach:
            out[n] = f"{blocked[1]} ({blocked[0]})" if blocked else explain_move(position, unit_id, n)
    return out
