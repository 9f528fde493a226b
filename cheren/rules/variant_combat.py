"""Combat rules of the optional rules (:mod:`cheren.variants`): die-roll modifiers and artillery range.

The printed rules have none: an attack is decided by its column (11.0-11.5) and one die.  With
a modifier variant on, the units in the attack and in the defending hex may move the die before
the table is read; :func:`die_modifiers` lists each modifier that applies with its reason, and
:class:`cheren.rules.combat_odds.Odds` applies their sum to every row (held to 1-6).

Unit kinds are read from the unit type's map symbol (2.3), which names the kind whatever the
scenario's own type keys: the modifiers ask "is it artillery, cavalry, mountain troops, foot
infantry, a mobile unit?".
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from cheren.hexes import Hex
from cheren.scenario.compiled import Scenario
from cheren.state import Position
from cheren.variants import VARIANTS, is_on

FOOT = frozenset({"infantry", "mountain", "commando"})  # foot infantry (combined arms)
INFANTRY = FOOT | {"motorized_infantry"}  # infantry of any kind (the cavalry modifier)
MOBILE = frozenset({"cavalry", "tank", "motorized_infantry"})
ARTILLERY_RANGE = 2  # hexes, counting the target (seed 004, note 2)


@dataclass(frozen=True)
class DieModifier:
    """One modifier to the combat die: positive helps the attacker."""

    amount: int
    variant: str  # the variant's name
    reason: str

    @property
    def title(self) -> str:
        return VARIANTS[self.variant].title

    def describe(self) -> str:
        """e.g. ``artillery in the attack: +1 to the die (variant: Artillery die modifier)``"""
        return f"{self.reason}: {self.amount:+d} to the die (variant: {self.title})"


def _symbol(scenario: Scenario, uid: str) -> str:
    return scenario.units[uid].type.symbol


def _names(scenario: Scenario, units: Iterable[str]) -> str:
    return ", ".join(scenario.units[u].name for u in units)


def _clear_or_mountain(scenario: Scenario, target: Hex) -> bool:
    return all(t.key == "clear" or t.mountain for t in scenario.hexes[target].terrains)


def die_modifiers(
    position: Position, attackers: Iterable[str], defenders: Iterable[str], target: Hex
) -> tuple[DieModifier, ...]:
    """Every die modifier the variants on in ``position``'s scenario give this attack, the
    attacker's first.  ``attackers`` are the ground units (the air unit never counts)."""
    s = position.scenario
    if not s.variants:
        return ()
    att = tuple(attackers)
    dfd = tuple(defenders)
    out: list[DieModifier] = []
    mountain = s.hexes[target].mountain
    if is_on(s, "artillery-modifier"):
        guns = [u for u in att if s.units[u].type.artillery]
        if guns:
            out.append(DieModifier(1, "artillery-modifier", f"artillery in the attack ({_names(s, guns)})"))
    if is_on(s, "cavalry-modifier") and _clear_or_mountain(s, target) and att and dfd:
        horse = [u for u in att if _symbol(s, u) == "cavalry"]
        if horse and all(_symbol(s, u) in INFANTRY for u in dfd):
            out.append(DieModifier(1, "cavalry-modifier",
                                   f"cavalry ({_names(s, horse)}) attacks only infantry in {target.label}"))
    if is_on(s, "mountain-troops-modifier") and mountain:
        alpine = [u for u in att if _symbol(s, u) == "mountain"]
        if alpine:
            out.append(DieModifier(1, "mountain-troops-modifier",
                                   f"mountain troops ({_names(s, alpine)}) attack a mountain hex"))
    if is_on(s, "combined-arms-modifier") and not mountain:
        foot = [u for u in att if _symbol(s, u) in FOOT]
        mobile = [u for u in att if _symbol(s, u) in MOBILE]
        if foot and mobile:
            out.append(DieModifier(1, "combined-arms-modifier",
                                   f"combined arms: foot infantry with {_names(s, mobile)}"))
    # the defender's
    if is_on(s, "artillery-modifier"):
        guns = [u for u in dfd if s.units[u].type.artillery]
        if guns:
            out.append(DieModifier(-1, "artillery-modifier", f"artillery in the defence ({_names(s, guns)})"))
    if is_on(s, "cavalry-modifier") and _clear_or_mountain(s, target) and att and dfd:
        horse = [u for u in dfd if _symbol(s, u) == "cavalry"]
        if horse and all(_symbol(s, u) in INFANTRY for u in att):
            out.append(DieModifier(-1, "cavalry-modifier",
                                   f"cavalry ({_names(s, horse)}) defends {target.label} against only infantry"))
    if is_on(s, "mountain-troops-modifier") and mountain:
        alpine = [u for u in dfd if _symbol(s, u) == "mountain"]
        if alpine:
            out.append(DieModifier(-1, "mountain-troops-modifier",
                                   f"mountain troops ({_names(s, alpine)}) defend a mountain hex"))
    return tuple(out)


def modified_roll(die: int, modifiers: Iterable[DieModifier]) -> int:
    """The row of the table a die is read on: the die plus the modifiers, held to 1-6."""
    return min(6, max(1, die + sum(m.amount for m in modifiers)))


def ranged(position: Position, uid: str) -> bool:
    """May ``uid`` join attacks on hexes two away (artillery, with ``artillery-range`` on)?"""
    s = position.scenario
    return bool(s.variants) and is_on(s, "artillery-range") and s.units[uid].type.artillery


def attack_reach(position: Position, uid: str) -> int:
    """How far from ``uid`` a hex it may attack lies: 1 (11.0), or 2 for ranged artillery."""
    return ARTILLERY_RANGE if ranged(position, uid) else 1


def source_hexes(position: Position, target: Hex) -> tuple[Hex, ...]:
    """The hexes whose units may join an attack on ``target``: its neighbours (11.0) and,
    with ``artillery-range`` on, the ring two hexes out (for artillery only)."""
    s = position.scenario
    near = s.adjacent.get(target, ())
    if not s.variants or not is_on(s, "artillery-range"):
        return near
    return (*near, *(h for h in target.ring(ARTILLERY_RANGE) if h in s.playable))


def ranged_attackers(position: Position, attackers: Iterable[str], target: Hex) -> tuple[str, ...]:
    """The artillery firing from beyond the adjacent hexes (``artillery-range``)."""
    out = []
    for u in attackers:
        h = position.units[u].hex
        if h is not None and h.distance(target) > 1 and ranged(position, u):
            out.append(u)
    return tuple(out)
