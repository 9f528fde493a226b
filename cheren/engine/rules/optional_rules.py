"""What the optional rules (:mod:`cheren.scenario.variants`) change in play: the die modifiers,
the artillery range and whether a push is allowed after the combat losses stand."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from cheren.scenario.models import Side  # at run time: compiled (mypyc), DieModifier's fields are read from it
from cheren.scenario.variants import ARTILLERY_RANGE, DIE_MODIFIERS, LOSSES_STAND

if TYPE_CHECKING:
    from cheren.engine.position import Position
    from cheren.hexes import Hex


def active(position: Position) -> frozenset[str]:
    return frozenset(getattr(position.scenario, "variants", frozenset()))


# -- (a) die-roll modifiers ------------------------------------------------------------------------
ARMOUR = "Tanks"  # the unit type that plays the part of seed 004's armoured cars, 1 (b) and (g)

@dataclass(frozen=True)
class DieModifier:
    side: Side
    reason: str
    points: int  # +1 for the attacker's, -1 for the defender's

    def describe(self) -> str:
        return f"{self.reason} ({self.side.adjective}) {self.points:+d}"


def die_modifiers(
    position: Position, ground: tuple[str, ...], defenders: tuple[str, ...], target: Hex, attacker: Side
) -> tuple[DieModifier, ...]:
    """The die-roll modifiers of an attack under the die-modifiers variant (empty when off)."""
    if DIE_MODIFIERS not in active(position):
        return ()
    s = position.scenario
    info = s.hexes.get(target)
    mountain = bool(info is not None and info.mountain)
    # A hex of mixed terrain is judged by the terrain that suits the defender best (11.1), so
    # Cheru, rough with some clear, is not clear ground (interpretations: seed 004, 1 (c)).
    clear = bool(info is not None and all(t.key == "clear" for t in info.terrains))
    city = bool(info is not None and any(t.key == "city" for t in info.terrains))
    road = any(target in side for side in s.road_sides)

    def types(units: tuple[str, ...]) -> set[str]:
        return {s.units[u].type.name for u in units}

    a, d = types(ground), types(defenders)
    out: list[DieModifier] = []
    if a & {"Artillery", "Motorized artillery"}:
        out.append(DieModifier(attacker, "artillery", 1))
    if d & {"Artillery", "Motorized artillery"}:
        out.append(DieModifier(attacker.enemy, "artillery", -1))
    # The tank squadrons are the game's only armour: they stand for Gordon's armoured cars in (b)
    # as in the combined arms of (g).
    if clear or city or road:
        if ARMOUR in a:
            out.append(DieModifier(attacker, "armour in the open", 1))
        if ARMOUR in d:
            out.append(DieModifier(attacker.enemy, "armour in the open", -1))
    if "Cavalry" in a and d and d <= {"Infantry"} and (clear or mountain):
        out.append(DieModifier(attacker, "cavalry against infantry", 1))
    if mountain and "Mountain troops" in a:
        out.append(DieModifier(attacker, "mountain troops in the mountains", 1))
    if mountain and "Mountain troops" in d:
        out.append(DieModifier(attacker.enemy, "mountain troops in the mountains", -1))
    if not mountain and "Infantry" in a and a & {"Cavalry", ARMOUR, "Motorized infantry"}:
        out.append(DieModifier(attacker, "combined arms", 1))
    return tuple(out)


# -- (b) artillery range ---------------------------------------------------------------------------
def in_artillery_range(position: Position, uid: str, target: Hex) -> bool:
    """Under artillery-range: an artillery unit two hexes from ``target``."""
    if ARTILLERY_RANGE not in active(position):
        return False
    unit = position.units[uid]
    kind = position.scenario.units[uid].type.name
    return kind in ("Artillery", "Motorized artillery") and unit.hex is not None and unit.hex.distance(target) == 2


# -- (c) losses stand ------------------------------------------------------------------------------
def push_allowed(position: Position) -> bool:
    return LOSSES_STAND not in active(position)
