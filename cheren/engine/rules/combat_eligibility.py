"""Who may attack, and who may advance: rules 11.0-11.3 and 11.9 with 9.1, 8.5, 6.0 and 12.6.

Questions of a position only, so the game's legality gate and the what-if analysis ask the
same ones.  Each answer is None (allowed) or a :class:`cheren.engine.registry.Refusal` naming its rules.
"""

from __future__ import annotations

from cheren.engine.position import Position, Status, Supply
from cheren.engine.registry import Refusal
from cheren.engine.rules.combat_odds import defenders_in
from cheren.engine.rules.optional_rules import in_artillery_range
from cheren.hexes import Hex
from cheren.scenario.compiled import Scenario
from cheren.scenario.memo import ScenarioMemo
from cheren.scenario.models import Side

MOUNTAIN_MP = 6  # 11.0: the movement value a unit needs to attack a mountain hex


def barred_from_mountains(position: Position, uid: str) -> bool:
    """9.1: tanks and motorized units never enter, attack or retreat into a mountain hex."""
    t = position.scenario.units[uid].type
    return t.motorized or not t.may_enter_mountain


def unit_refusal(position: Position, uid: str, target: Hex) -> Refusal | None:
    """Why ``uid`` may not attack ``target`` on its own account, or None.

    It must be on the map next to a hex holding enemy units (11.0) and carry no No supply
    marker (12.6).  Against a mountain hex it must be allowed into mountains (9.1) and, unless it
    is artillery, show exactly 6 MP (11.0, the project's reading); artillery is then judged with
    the whole attack (11.2, :func:`group_refusal`).  The air unit never attacks on its own (11.3).
    """
    s = position.scenario
    if uid not in position.units:
        return Refusal(("2.3",), f"there is no unit {uid!r}")
    d = s.units[uid]
    unit = position.units[uid]
    if d.type.air:
        return Refusal(("11.3",), f"{d.name} is the air support unit: it is added to an attack, never attacks alone")
    if unit.status is not Status.MAP or unit.hex is None:
        return Refusal(("11.0",), f"{d.name} is not on the map")
    if target not in s.playable:
        return Refusal(("11.0",), f"{label(target)} is not a playable hex of the map")
    if not defenders_in(position, target, unit.side):
        return Refusal(("11.0",), f"{target.label} holds no enemy units to attack")
    if not unit.hex.is_adjacent(target) and not in_artillery_range(position, uid, target):
        return Refusal(("11.0",), f"{d.name} in {unit.hex.label} is not adjacent to {target.label}")
    if unit.supply is Supply.NO:
        return Refusal(("12.6",), f"{d.name} has a No supply marker and may not attack")
    if target in s.mountains:  # a playable hex (above): the scenario's set, not its terrains again
        if barred_from_mountains(position, uid):
            return Refusal(("9.1",), f"{d.name} is a tank or motorized unit: it never attacks a mountain hex")
        mp = position.movement(uid)
        if not d.type.artillery and mp != MOUNTAIN_MP:
            return Refusal(
                ("11.0",),
                f"only non-motorized units with a movement value of {MOUNTAIN_MP} attack mountain hexes; "
                f"{d.name} has {mp}",
            )
    return None


def group_refusal(position: Position, attackers: tuple[str, ...] | list[str], air: bool) -> Refusal | None:
    """Rules on the attack as a whole.  It needs a ground unit (the air unit never attacks by
    itself, 11.3), names each unit once, and artillery needs a non-artillery unit beside it
    (11.2).  Against a mountain hex that unit must be mountain-eligible too, which
    :func:`unit_refusal` already asks of every non-artillery attacker.  The air unit is flying
    artillery (11.3), so it does not count as the non-artillery unit."""
    s = position.scenario
    if not attackers:
        if air:
            return Refusal(("11.3",), "the air support unit may not attack by itself")
        return Refusal(("11.0",), "an attack needs at least one attacking unit")
    if len(set(attackers)) != len(attackers):
        return Refusal(("11.0",), "a unit is named twice in the attack")
    if all(u in s.units and s.units[u].type.artillery for u in attackers):
        why = "artillery attacks only together with a non-artillery unit"
        if air:
            return Refusal(("11.2", "11.3"), why + "; the air unit is flying artillery and does not count")
        return Refusal(("11.2",), why)
    return None


def attack_refusal(
    position: Position, attackers: tuple[str, ...] | list[str], target: Hex, air: bool
) -> Refusal | None:
    """Every unit's own eligibility, then the whole attack's."""
    why = group_refusal(position, attackers, air)
    if why is not None:
        return why
    for uid in attackers:
        why = unit_refusal(position, uid, target)
        if why is not None:
            return why
    return None


def air_unit(position: Position, side: Side) -> str | None:
    """The side's air support unit, if its counter sheet has one (11.3)."""
    for uid in _AIR_UNITS(position.scenario):
        if position.units[uid].side is side:
            return uid
    return None


def _air_units(s: Scenario) -> tuple[str, ...]:
    """The scenario's air units, in its order (the combat listing asks after every action)."""
    return tuple(uid for uid, d in s.units.items() if d.type.air)


_AIR_UNITS = ScenarioMemo(_air_units)


def air_refusal(position: Position, side: Side, used: bool = False, placed_on: Hex | None = None) -> Refusal | None:
    """11.3: the air unit supports one attack per Combat phase of its side, once it has arrived
    (it then waits off map).  ``used``: it has supported an attack this phase; ``placed_on``:
    it is already laid on an attack being assembled."""
    air = air_unit(position, side)
    if air is None:
        return Refusal(("11.3",), f"the {side.adjective} side has no air support unit")
    first = position.scenario.info.air_support_from_turn
    if position.turn < first or position.units[air].status is not Status.OFF_MAP:
        return Refusal(("11.3",), f"the air support unit has not arrived (it comes on turn {first})")
    if used:
        return Refusal(("11.3",), "the air support unit has already supported an attack this Combat phase")
    if placed_on is not None:
        return Refusal(("11.3",), f"the air support unit is already laid on the attack on {placed_on.label}")
    return None


def advance_refusal(position: Position, uid: str, target: Hex) -> Refusal | None:
    """Why an attacking unit may not advance into the vacated ``target``: artillery never
    advances (11.9), nor the Massaua garrison (8.5), nor a garrison unit not yet released
    (6.0: it may not move), nor a tank or motorized unit into a mountain hex (9.1)."""
    s = position.scenario
    d = s.units[uid]
    unit = position.units[uid]
    if unit.status is not Status.MAP or unit.hex is None:
        return Refusal(("11.9",), f"{d.name} is no longer on the map")
    if defenders_in(position, target, unit.side):
        return Refusal(("11.9",), f"{target.label} has not been vacated")
    if d.type.artillery:
        return Refusal(("11.9",), f"{d.name} is artillery: artillery never advances after combat")
    if d.counter.immobile:
        return Refusal(("8.5",), f"{d.name} is the Massaua naval garrison: it never advances")
    if d.garrison is not None and d.garrison not in position.released and not unit.defected:
        return Refusal(("6.0",), f"{d.name} belongs to a garrison that has not been released: it may not move")
    if target in s.mountains and barred_from_mountains(position, uid):  # the combat's (playable) hex
        return Refusal(("9.1",), f"{d.name} is a tank or motorized unit: it never enters a mountain hex")
    return None


def label(h: Hex) -> str:
    try:
        return h.label
    except ValueError:
        return str(tuple(h))
