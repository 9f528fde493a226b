"""Units that may not move at all (6.0 garrisons, 8.5 the naval garrison, 9.0, 11.3 the air
unit, 12.6 motorized units out of supply), with the reason in words or without it."""

from __future__ import annotations

from cheren.engine.position import Position, Status, Supply


def immobile_reason(position: Position, unit_id: str) -> tuple[str, str] | None:
    """(rule, reason) if the unit may not move at all now, else None."""
    why = _immobile(position, unit_id)
    if why is None:
        return None
    s = position.scenario
    d = s.units[unit_id]
    rule, text = _IMMOBILE[why]
    area = s.garrison_areas[d.garrison].name if why == "garrison" and d.garrison is not None else ""
    return (rule, f"{d.name} {text.format(area=area)}")


def is_immobile(position: Position, unit_id: str) -> bool:
    """:func:`immobile_reason` is not None, without wording the reason (asked of every unit)."""
    return _immobile(position, unit_id) is not None


_IMMOBILE = {
    "off_map": ("9.0", "is not on the map"),
    "air": ("11.3", "is the air support unit: it never moves on the map"),
    "naval": ("8.5", "is the Massaua naval garrison and never moves"),
    "garrison": ("6.0", "belongs to the {area} garrison, which has not been released"),
    "no_supply": ("12.6", "is a tank or motorized unit with a No supply marker"),
    "no_mp": ("9.0", "has no movement points"),
}


def _immobile(position: Position, unit_id: str) -> str | None:
    unit = position.units[unit_id]
    d = position.scenario.units[unit_id]
    if unit.status is not Status.MAP:
        return "off_map"
    if d.type.air:
        return "air"
    if d.counter.immobile:
        return "naval"
    if d.garrison is not None and d.garrison not in position.released and not unit.defected:
        return "garrison"
    if unit.supply is Supply.NO and d.type.motorized:
        return "no_supply"
    if position.movement(unit_id) <= 0:
        return "no_mp"
    return None
