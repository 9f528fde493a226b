"""The position report: what a player at the table asks of a position, answered from the engine.

:func:`analyse` gathers, for the position as it stands,

* the victory points now and the towns in play (14.0, 1.2, 2.1);
* every attack the phasing side can make from where its units stand, ranked by the exact
  chance that the defender leaves the hex, with the expected steps lost on each side and the
  column shifts with their rules (:mod:`cheren.engine.combat_whatif`);
* the threat map of the enemy's next turn (:mod:`cheren.engine.threats`) for the phasing side;
* the units of the other side that may react now (10.0);
* the supply status of every unit, with the reason a line breaks (12.0-12.3).

``report.explain()`` says it in words; ``report.to_json()`` gives the same as data.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from cheren.engine.combat_whatif import WhatIf, proposed, what_if
from cheren.engine.position import Position, Status, Supply
from cheren.engine.rules.combat_eligibility import air_refusal, air_unit, attack_refusal, unit_refusal
from cheren.engine.rules.combat_odds import defenders_in
from cheren.engine.rules.movement import immobile_reason
from cheren.engine.rules.supply import check_side
from cheren.engine.threats import Threats, threats
from cheren.hexes import Hex
from cheren.scenario.models import Phase, Side
from cheren.scenario.sequence import PHASE_RULES, PHASE_TITLES


@dataclass(frozen=True)
class TownState:
    name: str
    hex: Hex
    vp: int
    controller: Side
    held_by: Side | None  # whose units stand in it


@dataclass(frozen=True)
class RankedAttack:
    """The largest legal attack on one enemy hex from where the phasing side stands."""

    target: Hex
    attackers: tuple[str, ...]
    air: bool
    whatif: WhatIf

    @property
    def p_vacated(self) -> Fraction:
        return self.whatif.p_vacated


@dataclass(frozen=True)
class UnitSupply:
    unit: str
    side: Side
    hex: Hex
    supplied: bool
    marker: Supply | None
    reason: str


@dataclass
class AnalysisReport:
    position: Position
    vp: int
    level: str
    towns: list[TownState]
    attacks: list[RankedAttack]
    attacks_note: str
    threats: Threats
    reactors: list[str]
    supply: list[UnitSupply]
    notes: list[str] = field(default_factory=list)

    # -- words ---------------------------------------------------------------------------------
    def explain(self) -> str:
        p = self.position
        s = p.scenario
        name = s.units
        side = p.side
        lines = [
            f"# Turn {p.turn}: {side.adjective} {PHASE_TITLES[p.phase]} ({PHASE_RULES[p.phase]})",
            "",
            f"**Victory points now:** {self.vp} Allied VP, {self.level} if the game ended here (14.0).",
            "",
            "| town | VP | control | units in it |",
            "|---|---|---|---|",
        ]
        for t in self.towns:
            held = t.held_by.adjective if t.held_by is not None else "-"
            lines.append(f"| {t.name} ({t.hex.label}) | {t.vp} | {t.controller.adjective} | {held} |")
        lines += ["", f"## {side.adjective} attacks from where the units stand", "", self.attacks_note, ""]
        if self.attacks:
            lines += [
                "| target | attackers | column | defender leaves | steps lost (att/def) | shifts |",
                "|---|---|---|---|---|---|",
            ]
            for a in self.attacks:
                w = a.whatif
                units = ", ".join(name[u].name for u in a.attackers) + (" + air" if a.air else "")
                shifts = "; ".join(x.describe() for x in w.shifts) or "none"
                lines.append(
                    f"| {a.target.label} ({_defenders(p, a)}) | {units} | {w.column} | {_pct(w.p_vacated)} | "
                    f"{_num(w.expected_attacker_steps)} / {_num(w.expected_defender_steps)} | {shifts} |"
                )
        else:
            lines.append("No attack is possible from where the units stand.")
        th = self.threats
        lines += ["", f"## What the {side.enemy.adjective} side can do next turn", ""]
        lines.append(
            f"Its units' reach in its next Movement phase (9.0), then its best attack on each {side.adjective} "
            "stack (11.0-11.5) and the supply lines one of its moves would cut (12.0, 12.1). "
            + " ".join(n[0].upper() + n[1:] + "." for n in th.notes)
        )
        lines.append("")
        if th.stacks:
            lines += ["| stack | best odds | by | shifts |", "|---|---|---|---|"]
            for st in th.stacks:
                who = ", ".join(name[u].name for u in st.defenders)
                by = ", ".join(name[u].name for u in st.attackers)
                shifts = "; ".join(x.describe() for x in st.odds.shifts) or "none"
                lines.append(
                    f"| {st.hex.label} ({who}) | {st.column} ({st.odds.attack_sp} vs {st.odds.defence_sp}) "
                    f"| {by} | {shifts} |"
                )
        else:
            lines.append(f"No {side.adjective} stack can be attacked next turn.")
        lines.append("")
        if th.cuts:
            for c in th.cuts:
                lines.append(
                    f"- **{name[c.unit].name}** loses its supply line if {name[c.by].name} ends its move "
                    f"in {c.at.label} (12.0, 12.1)."
                )
        else:
            lines.append(f"No single {side.enemy.adjective} move cuts {_a(side.adjective)} supply line.")
        lines += ["", f"## {side.enemy.adjective} units that may react now (10.0)", ""]
        if self.reactors:
            lines.append(", ".join(name[u].name for u in self.reactors) + " (up to a stacking value of 3 in all).")
        else:
            lines.append("None: every unit is next to the enemy or carries a supply marker.")
        lines += ["", "## Supply (12.0-12.4)", ""]
        for side_ in Side:
            cut = [u for u in self.supply if u.side is side_ and not u.supplied]
            ok = sum(1 for u in self.supply if u.side is side_ and u.supplied)
            lines.append(f"- {side_.adjective}: {ok} units can draw supply, {len(cut)} cannot.")
            for u in cut:
                marker = f" (carries a {u.marker.value.title()} marker)" if u.marker else ""
                lines.append(f"  - {name[u.unit].name} in {u.hex.label}{marker}: {_first_line(u.reason)}")
        lines += [f"- {n}" for n in self.notes]
        return "\n".join(lines)

    def _repr_markdown_(self) -> str:
        return self.explain()

    def to_json(self) -> dict[str, Any]:
        p = self.position
        s = p.scenario
        return {
            "turn": p.turn,
            "side": p.side.value,
            "phase": p.phase.value,
            "allied_vp": self.vp,
            "level": self.level,
            "towns": [
                {
                    "name": t.name,
                    "hex": t.hex.label,
                    "vp": t.vp,
                    "control": t.controller.value,
                    "held_by": t.held_by.value if t.held_by else None,
                }
                for t in self.towns
            ],
            "attacks": [
                {
                    "target": a.target.label,
                    "attackers": [s.units[u].name for u in a.attackers],
                    "air": a.air,
                    "column": a.whatif.column,
                    "odds": a.whatif.odds.explain(),
                    "shifts": [{"columns": x.columns, "rule": x.rule, "reason": x.reason} for x in a.whatif.shifts],
                    "p_defender_leaves": float(a.p_vacated),
                    "p_defender_eliminated": float(a.whatif.p_defender_eliminated),
                    "expected_steps_lost": {
                        "attacker": float(a.whatif.expected_attacker_steps),
                        "defender": float(a.whatif.expected_defender_steps),
                    },
                }
                for a in self.attacks
            ],
            "threats": {
                "side": self.threats.side.value,
                "stacks": [
                    {
                        "hex": t.hex.label,
                        "defenders": [s.units[u].name for u in t.defenders],
                        "column": t.column,
                        "attackers": [s.units[u].name for u in t.attackers],
                        "odds": t.odds.explain(),
                    }
                    for t in self.threats.stacks
                ],
                "supply_cuts": [
                    {"unit": s.units[c.unit].name, "by": s.units[c.by].name, "at": c.at.label, "reason": c.reason}
                    for c in self.threats.cuts
                ],
            },
            "may_react": [s.units[u].name for u in self.reactors],
            "supply": [
                {
                    "unit": s.units[u.unit].name,
                    "side": u.side.value,
                    "hex": u.hex.label,
                    "supplied": u.supplied,
                    "marker": u.marker.value if u.marker else None,
                    "reason": u.reason,
                }
                for u in self.supply
            ],
        }


def analyse(position: Position) -> AnalysisReport:
    """The report on ``position`` (see the module).  Never changes the position."""
    p = position
    s = p.scenario
    vp = p.allied_vp()
    towns = []
    for town in s.towns.values():
        h = s.town_hex(town.name)
        units = p.units_at(h)
        towns.append(
            TownState(town.name, h, town.vp, p.controller(town.name), p.units[units[0]].side if units else None)
        )
    attacks, note = ranked_attacks(p)
    return AnalysisReport(
        position=p,
        vp=vp,
        level=s.victory_level(vp),
        towns=sorted(towns, key=lambda t: (-t.vp, t.name)),
        attacks=attacks,
        attacks_note=note,
        threats=threats(p, p.side),
        reactors=reactors(p),
        supply=unit_supply(p),
    )


def ranked_attacks(p: Position) -> tuple[list[RankedAttack], str]:
    """For each enemy hex next to the phasing side's units, the attack by every unit that may
    join it (with the air unit when it may fly), ranked by the chance the defender leaves."""
    side = p.side
    if p.phase is Phase.COMBAT:
        note = "Every attack the rules allow now, each with every unit that may join it (11.0-11.3)."
    else:
        note = (
            f"The position is in the {PHASE_TITLES[p.phase]} phase: these are the attacks the units could "
            "make from where they stand if it were the Combat phase (11.0), before anything moves."
        )
    targets: dict[Hex, list[str]] = {}
    for uid, unit in p.units.items():
        if unit.side is not side or unit.status is not Status.MAP or unit.hex is None:
            continue
        for n in unit.hex.neighbours():
            if defenders_in(p, n, side) and unit_refusal(p, uid, n) is None:
                targets.setdefault(n, []).append(uid)
    air = air_unit(p, side)
    fly = air is not None and air_refusal(p, side) is None
    out = []
    for target, units in sorted(targets.items()):
        attackers = tuple(sorted(units))
        if attack_refusal(p, attackers, target, air=False) is not None:
            continue  # artillery alone (11.2)
        w = what_if(p, proposed(target, attackers, air=fly))
        out.append(RankedAttack(target, attackers, fly, w))
    out.sort(key=lambda a: (-a.p_vacated, a.whatif.expected_attacker_steps, a.target))
    return out, note


def reactors(p: Position) -> list[str]:
    """Units of the non-phasing side that 10.0 lets move in the Enemy reaction phase: not next to
    an enemy unit and without a supply marker (the limit of 3 stacking value is on the total)."""
    side = p.side.enemy
    out = []
    for uid, unit in p.units.items():
        if unit.side is not side or unit.status is not Status.MAP or unit.hex is None or unit.supply is not None:
            continue
        if immobile_reason(p, uid) is not None:
            continue  # garrisons not yet released (6.0), the Massaua garrison (8.5), ...
        if any(p.units[o].side is not side for n in unit.hex.neighbours() for o in p.units_at(n)):
            continue
        out.append(uid)
    return out


def unit_supply(p: Position) -> list[UnitSupply]:
    out = []
    for side in Side:
        for uid, trace in check_side(p, side, explain=True).items():
            unit = p.units[uid]
            assert unit.hex is not None
            out.append(UnitSupply(uid, side, unit.hex, trace.supplied, unit.supply, trace.explain()))
    return out


def _defenders(p: Position, a: RankedAttack) -> str:
    return ", ".join(p.scenario.units[u].name for u in a.whatif.odds.defenders)


def _pct(x: Fraction) -> str:
    return f"{float(x):.0%}"


def _num(x: Fraction) -> str:
    return f"{float(x):.2f}".rstrip("0").rstrip(".") if x.denominator != 1 else str(x.numerator)


def _a(word: str) -> str:
    return f"an {word}" if word[:1] in "AEIOU" else f"a {word}"


def _first_line(text: str) -> str:
    """The first reason a line breaks: the supply trace lists each route it tried under a
    heading that repeats the unit's name."""
    lines = [x.strip() for x in text.splitlines() if x.strip()]
    if len(lines) > 1 and lines[1].startswith("- "):
        return lines[1][2:]
    return lines[0] if lines else ""
