"""Combat odds, rules 11.0 to 11.5: strength totals, the rounded ratio, the column shifts and
the column of the Combat Results Table an attack is rolled on.

Pure functions of a position: the rules module (:mod:`cheren.engine.rules.combat`) rolls on the column
found here, and the what-if analysis (:mod:`cheren.engine.combat_whatif`) explains it.  Readings taken
(see :mod:`cheren.engine.interpretations`):

* the ratio is rounded in the defender's favour in both directions (17 vs 5 is 3-1, 5 vs 8 is
  1-2), then down to a column the table has (11.5);
* shifts are column moves from that raw column, added together, and only then is the result
  held to the ends of the table; a ratio below 1-3 starts on the 1-3 column, one above 13-1 on
  the 13-1 column;
* the terrain shift is the best one in the hex (11.1); a river hexside adds its own shift when
  every attacking ground unit attacks across a river (the air unit crosses nothing);
* the air unit's strength counts for the attacker in the support comparison (11.3, 11.4).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from cheren.engine.position import Position
from cheren.engine.rules.optional_rules import DieModifier, active, die_modifiers
from cheren.hexes import Hex, Hexside
from cheren.scenario.compiled import OddsColumn, Scenario
from cheren.scenario.memo import ScenarioMemo
from cheren.scenario.models import CombatResult, Side
from cheren.scenario.variants import ARTILLERY_RANGE


@dataclass(frozen=True)
class Shift:
    """One column shift: positive moves right (the attacker's favour), negative left."""

    columns: int
    rule: str
    reason: str

    def describe(self) -> str:
        n = abs(self.columns)
        way = "right" if self.columns > 0 else "left"
        return f"{self.reason}: {n} column{'s' if n != 1 else ''} {way} ({self.rule})"


@dataclass(frozen=True)
class Odds:
    """Everything that decides the column of one attack, with the reasons."""

    target: Hex
    attackers: tuple[str, ...]  # ground units
    air: str | None  # the air support unit, when it joins (11.3)
    defenders: tuple[str, ...]
    attack_sp: int
    defence_sp: int
    raw: str  # the ratio rounded in the defender's favour, e.g. "4-1" (may not be a column)
    raw_column: int  # index of the column the raw ratio is played on before shifts (11.5)
    shifts: tuple[Shift, ...]
    column: int  # index of the final column
    columns: tuple[OddsColumn, ...]
    attack_support: int
    defence_support: int
    notes: tuple[str, ...] = ()
    die_modifiers: tuple[DieModifier, ...] = ()  # the die-modifiers variant's points (cheren.scenario.variants)

    @property
    def die_shift(self) -> int:
        """What the die-roll modifiers add to the die (attacker's points minus defender's)."""
        return sum(m.points for m in self.die_modifiers)

    def row(self, die: int) -> int:
        """The row of the table a die is read on: the die moved by the modifiers, held to 1-6."""
        return min(max(die + self.die_shift, 1), 6)

    @property
    def column_name(self) -> str:
        return self.columns[self.column].name

    @property
    def raw_column_name(self) -> str:
        return self.columns[self.raw_column].name

    @property
    def results(self) -> tuple[CombatResult, ...]:
        """The six results for die rolls 1 to 6: the final column's, read on the rows the die-roll
        modifiers move each die to (no modifiers: the column as printed)."""
        column = self.columns[self.column].results
        if not self.die_modifiers:
            return column
        return tuple(column[self.row(die) - 1] for die in range(1, 7))

    @property
    def net_shift(self) -> int:
        return sum(s.columns for s in self.shifts)

    def explain(self) -> str:
        """One line a teacher can read out, e.g.
        ``17 vs 5 = 3.4 -> 3-1; rough terrain: 1 column left (11.1) -> 2-1``."""
        parts = [f"{self.attack_sp} vs {self.defence_sp} = {_quotient(self.attack_sp, self.defence_sp)} -> {self.raw}"]
        if self.raw != self.raw_column_name:
            parts[0] += f" (played on {self.raw_column_name}, 11.5)"
        parts += [s.describe() for s in self.shifts]
        text = "; ".join(parts)
        if self.shifts:
            text += f" -> {self.column_name}"
        if self.die_modifiers:
            text += f"; die {self.die_shift:+d} (die-roll modifiers, variant)"
        return text


def _quotient(a: int, d: int) -> str:
    if d == 0:
        return "no defence strength"
    value = Fraction(a, d)
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):.2f}".rstrip("0").rstrip(".")


def rounded_ratio(attack: int, defence: int) -> tuple[int, int]:
    """11.0: attack to defence, rounded in the defender's favour: (a, 1) when the attack is at
    least the defence (17 vs 5 -> 3-1), (1, d) below it (5 vs 8 -> 1-2).  A defence of 0 counts
    as overwhelming odds and an attack of 0 as hopeless ones."""
    if defence <= 0:
        return (max(attack, 1) * 1000, 1)
    if attack <= 0:
        return (1, 1000)
    if attack >= defence:
        return (attack // defence, 1)
    return (1, -(-defence // attack))  # the ceiling of defence / attack, in whole numbers


def raw_column(terms: list[tuple[int, int]], ratio: tuple[int, int]) -> int:
    """11.5: the highest column whose ratio does not exceed ``ratio`` (4-1 is played on 3-1);
    a ratio below the lowest column starts on it (below 1-3 is played on 1-3).  ``terms``: the
    columns' ratios as whole numbers, :data:`odds_terms` of the scenario."""
    a, d = ratio
    best = 0
    # n/m <= a/d as n*d <= a*m (every term positive): the same answer as comparing Fractions,
    # without making one for every column of every attack the bots weigh
    for i, (n, m) in enumerate(terms):
        if n * d <= a * m:
            best = i
    return best


def _odds_terms(s: Scenario) -> list[tuple[int, int]]:
    return [(c.ratio.numerator, c.ratio.denominator) for c in s.odds_columns]


odds_terms = ScenarioMemo(_odds_terms)  # each odds column's ratio as (numerator, denominator)


def ratio_text(ratio: tuple[int, int]) -> str:
    a, d = ratio
    if a >= 1000:
        return "overwhelming"
    if d >= 1000:
        return "hopeless"
    return f"{a}-{d}"


def defenders_in(position: Position, target: Hex, attacking_side: Side) -> tuple[str, ...]:
    """The enemy units in the hex; all of them defend (the air unit never does, 11.3)."""
    return tuple(
        u
        for u in position.units_at(target)
        if position.units[u].side is not attacking_side and not position.scenario.units[u].type.air
    )


def terrain_shift(scenario: Scenario, target: Hex) -> Shift | None:
    """11.1: the best shift of the terrains in the defender's hex."""
    info = scenario.hexes[target]
    best = max(info.terrains, key=lambda t: t.column_shift)
    if best.column_shift <= 0:
        return None
    return Shift(-best.column_shift, "11.1", f"{best.name.lower()} terrain in {target.label}")


def river_shift(position: Position, attackers: Iterable[str], target: Hex) -> Shift | None:
    """11.1: the river shift, only when every attacking ground unit attacks across a river."""
    s = position.scenario
    sources = [position.units[u].hex for u in attackers]
    if ARTILLERY_RANGE in active(position):  # guns firing from two hexes away cross no river
        sources = [h for h in sources if h is not None and h.is_adjacent(target)]
    if not sources or any(h is None or not h.is_adjacent(target) for h in sources):
        return None
    if not all(Hexside.between(h, target) in s.river_sides for h in sources if h is not None):
        return None
    shift = s.terrain_key.river.column_shift
    if shift <= 0:
        return None
    return Shift(-shift, "11.1", "every attacker crosses a river")


def support_points(position: Position, units: Iterable[str]) -> int:
    """11.4: the strength of the support units (artillery, tanks and the air unit)."""
    return sum(position.strength(u) for u in units if position.scenario.units[u].type.support)


def support_shift(
    attack_support: int, defence_support: int, attacker: Side, winner: Side | None = None
) -> Shift | None:
    """11.4: the side with more support strength gets one column; a tie gives none.  ``winner``
    forces the comparison (a chit that wins it, 5.1)."""
    if winner is None:
        if attack_support == defence_support:
            return None
        winner = attacker if attack_support > defence_support else attacker.enemy
        high, low = max(attack_support, defence_support), min(attack_support, defence_support)
        reason = f"the {_plural(winner)} win the support comparison {high} vs {low}"
    else:
        reason = f"the {_plural(winner)} win the support comparison (a chit)"
    return Shift(1 if winner is attacker else -1, "11.4", reason)


def _plural(side: Side) -> str:
    return "Allies" if side is Side.ALLIED else "Italians"


def compute_odds(
    position: Position,
    attackers: Iterable[str],
    target: Hex,
    air: str | None = None,
    *,
    extra_shifts: Iterable[Shift] = (),
    support_bonus: tuple[int, int] = (0, 0),
    support_winner: Side | None = None,
) -> Odds:
    """The column an attack by ``attackers`` (plus the air unit ``air``) on ``target`` is rolled
    on, with the raw ratio and every shift.  ``extra_shifts`` are shifts from outside the rules
    modelled here (a what-if, a chit); ``support_bonus`` adds support points to the attacker and
    the defender, and ``support_winner`` decides the support comparison outright (chits, 5.1).
    Does not judge whether the attack is legal."""
    s = position.scenario
    ground = tuple(attackers)
    if not ground and air is None:
        raise ValueError("an attack needs at least one attacking unit")
    first = ground[0] if ground else air
    assert first is not None
    side = position.units[first].side
    defenders = defenders_in(position, target, side)
    participants = (*ground, air) if air is not None else ground
    attack_sp = sum(position.strength(u) for u in participants)
    defence_sp = sum(position.strength(u) for u in defenders)
    ratio = rounded_ratio(attack_sp, defence_sp)
    columns = s.odds_columns
    raw = raw_column(odds_terms(s), ratio)
    notes = []
    name = ratio_text(ratio)
    if name != columns[raw].name:
        if Fraction(*ratio) < columns[0].ratio:
            notes.append(f"{name} is below the lowest column: it starts on {columns[raw].name} (11.5)")
        elif raw == len(columns) - 1:
            notes.append(f"{name} is above the highest column: it starts on {columns[raw].name} (11.5)")
        else:
            notes.append(f"{name} is not on the table: rounded down to {columns[raw].name} (11.5)")
    attack_support = support_points(position, participants) + support_bonus[0]
    defence_support = support_points(position, defenders) + support_bonus[1]
    shifts = [
        x
        for x in (
            terrain_shift(s, target),
            river_shift(position, ground, target),
            support_shift(attack_support, defence_support, side, support_winner),
        )
        if x is not None
    ]
    shifts += [x for x in extra_shifts if x.columns]
    moved = raw + sum(x.columns for x in shifts)
    final = min(max(moved, 0), len(columns) - 1)
    if moved != final:
        notes.append(f"the shifts run off the table: held at {columns[final].name} (11.5)")
    modifiers = die_modifiers(position, ground, defenders, target, side)
    if modifiers:
        net = sum(m.points for m in modifiers)
        notes.append(
            "die-roll modifiers (variant): " + "; ".join(m.describe() for m in modifiers)
            + f": the die moves {net:+d}, held to 1-6"
        )
    return Odds(
        target=target,
        attackers=ground,
        air=air,
        defenders=defenders,
        attack_sp=attack_sp,
        defence_sp=defence_sp,
        raw=name,
        raw_column=raw,
        shifts=tuple(shifts),
        column=final,
        columns=columns,
        attack_support=attack_support,
        defence_support=defence_support,
        notes=tuple(notes),
        die_modifiers=modifiers,
    )
