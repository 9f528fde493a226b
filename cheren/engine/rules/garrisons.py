"""The Wolkait and Tigre garrisons, rule 6.0."""

from __future__ import annotations

from cheren.engine.position import Position
from cheren.engine.registry import Decision, GameState
from cheren.engine.rules.move_costs import enterable_hexes
from cheren.hexes import Hex
from cheren.scenario.compiled import Scenario
from cheren.scenario.memo import ScenarioMemo
from cheren.scenario.models import Side


def garrison_units(position: Position, area: str) -> list[str]:
    """The units of a garrison on the map, still Italian (a defector has left it)."""
    units = position.units
    return [uid for uid in _members(position.scenario).get(area, ()) if units[uid].on_map and not units[uid].defected]


def _members(s: Scenario) -> dict[str, tuple[str, ...]]:
    """Each garrison area's units, in the scenario's order (fixed by the counter sheet)."""
    return _MEMBERS(s)


def _find_members(s: Scenario) -> dict[str, tuple[str, ...]]:
    members: dict[str, list[str]] = {}
    for uid, d in s.units.items():
        if d.garrison is not None:
            members.setdefault(d.garrison, []).append(uid)
    return {area: tuple(ids) for area, ids in members.items()}


_MEMBERS = ScenarioMemo(_find_members)


def release_trigger(position: Position, area: str) -> str | None:
    """6.0: a garrison is released when an allied unit is inside its area, or next to one of
    its units, at the end of a phase.  Returns the reason, or None."""
    s = position.scenario
    area_hexes = s.area_hexes(area)
    # the map hexes next to a garrison unit (adjacency is symmetric: the same as asking each
    # allied unit whether one of its neighbours holds a garrison unit)
    garrison_hexes = {position.units[u].hex for u in garrison_units(position, area)}
    next_to_garrison = {n for h in garrison_hexes if h is not None for n in s.adjacent[h]}
    allied = position.occupied(Side.ALLIED)
    if allied.isdisjoint(area_hexes) and allied.isdisjoint(next_to_garrison):
        return None  # no allied unit inside or next to it (the scan below names the first that is)
    for uid, unit in position.units.items():
        if unit.side is not Side.ALLIED or not unit.on_map or unit.hex is None:
            continue
        if unit.hex in area_hexes:
            return f"{s.units[uid].name} is inside the {s.garrison_areas[area].name} area ({unit.hex.label})"
        if unit.hex in next_to_garrison:
            area_name = s.garrison_areas[area].name
            return f"{s.units[uid].name} in {unit.hex.label} is next to a {area_name} garrison unit"
    return None


def check_release(game: GameState) -> None:
    """Release any garrison whose trigger holds, then roll for each of its native units:
    1-3 stays Italian, 4-6 defects to the Allies (6.0)."""
    position = game.position
    s = position.scenario
    for area in s.garrison_areas:
        if area in position.released:
            continue
        why = release_trigger(position, area)
        if why is None:
            continue
        position.released.add(area)
        game.event(f"the {s.garrison_areas[area].name} garrison is released: {why} (6.0)")
        for uid in garrison_units(position, area):
            d = s.units[uid]
            if not d.is_native:
                continue
            roll = position.dice.roll()
            if roll <= 3:
                game.event(f"{d.name} rolls {roll}: stays Italian (6.0)")
                continue
            position.set_defected(uid)
            game.event(f"{d.name} rolls {roll}: defects and flips to its allied side (6.0)")
            unit = position.units[uid]
            assert unit.hex is not None
            if any(position.units[o].side is Side.ITALIAN for o in position.units_at(unit.hex)):
                choices = defector_hexes(position, unit.hex)
                game.queue_front(
                    Decision(
                        "place",
                        Side.ITALIAN,
                        ("6.0",),
                        f"{d.name} defected while stacked with Italian units: place it one hex away, "
                        "not on an Italian unit",
                        (uid,),
                        hex=unit.hex,
                        choices=choices,
                    )
                )


def defector_hexes(position: Position, origin: Hex) -> tuple[Hex, ...]:
    s = position.scenario
    out = []
    enterable = enterable_hexes(s)
    for n in origin.neighbours():
        if n not in enterable:
            continue
        if any(position.units[o].side is Side.ITALIAN for o in position.units_at(n)):
            continue
        out.append(n)
    return tuple(sorted(out))
