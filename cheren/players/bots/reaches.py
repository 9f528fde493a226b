"""Where the enemy's units can be before our next Movement phase: what the planner's garrisons
and its supply mends (planner2) plan against."""

from __future__ import annotations

from cheren.engine.position import Position, Status
from cheren.engine.rules.movement import MoveOptions, immobile_reason, reachable
from cheren.hexes import Hex
from cheren.players.bots.hubs import may_react
from cheren.scenario.models import Side


def reaction_reach(p: Position, enemy: Side) -> dict[str, frozenset[Hex]]:
    """For each ``enemy`` unit that may react as things stand (10.0: not next to a unit of ours,
    no supply marker), every hex its reaction could end in, its own included."""
    from cheren.engine.threats import _next_turn

    q = _next_turn(p, enemy)
    out: dict[str, frozenset[Hex]] = {}
    for uid, unit in p.units.items():
        if unit.side is not enemy or not may_react(p, uid) or immobile_reason(q, uid) is not None:
            continue
        assert unit.hex is not None  # may_react: on the map
        out[uid] = frozenset({unit.hex, *reachable(q, uid).reached()})
    return out


def reaction_cuts(p: Position, side: Side) -> dict[tuple[str, Hex], int]:
    """For each enemy unit that may react (:func:`reaction_reach`) and each hex its reaction could
    end in, the steps of ``side`` it would leave unable to draw supply at the side's next check
    (the threat map's supply cuts, 12.1); moves that cut nothing are left out."""
    from cheren.engine.threats import supply_cuts

    reach = reaction_reach(p, side.enemy)
    out: dict[tuple[str, Hex], int] = {}
    if not reach:
        return out
    for c in supply_cuts(p, side, reach, explain=False, every=True):
        out[(c.by, c.at)] = out.get((c.by, c.at), 0) + p.steps_left(c.unit)
    return out


def deep_reach(p: Position, enemy: Side) -> dict[str, set[Hex]]:
    """For each ``enemy`` unit that may move, every hex it could stand in before the other side's
    next Movement phase: its reaction (units not next to ours, no marker, 10.0), its whole
    Movement and, for the units that exploit (13.0), its Exploitation, taken as one long move on
    the map as it is."""
    from cheren.engine.threats import _next_turn

    q = _next_turn(p, enemy)
    out: dict[str, set[Hex]] = {}
    for uid, unit in q.units.items():
        if unit.side is not enemy or unit.status is not Status.MAP or unit.hex is None:
            continue
        d = q.scenario.units[uid]
        if d.type.air or immobile_reason(q, uid) is not None:
            continue
        mp = q.movement(uid)
        extra = (mp if d.type.may_exploit and unit.supply is None else 0) + (mp if may_react(p, uid) else 0)
        out[uid] = {unit.hex, *reachable(q, uid, MoveOptions(extra_mp=extra)).reached()}
    return out
