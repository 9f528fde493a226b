"""Victory, rule 14.0: at the end of turn 12 the Allies score the VP of every town they control
(1.2, 2.1) and the total falls in one band of the victory scale.

The game loop ends the game and names the level (:meth:`cheren.engine.game.Game.status`); this module
answers the live question a player asks any time: what do the Allies hold now, which level is
that, how far are the neighbouring bands, and which Italian towns could they take (sorted by
VP, with the allied units that could move into each this turn)."""

from __future__ import annotations

from dataclasses import dataclass

from cheren.engine.position import Position, Status
from cheren.engine.rules.movement import enemy_occupied, reachable
from cheren.engine.rules.zoc import zoc_map
from cheren.hexes import Hex
from cheren.scenario.models import Side


@dataclass(frozen=True)
class TownStatus:
    """One town as the victory count sees it."""

    name: str
    hex: Hex
    vp: int
    controller: Side
    occupant: Side | None  # whose units stand in it, if any
    enterable_by: tuple[str, ...] = ()  # allied units that could move into it now (Italian towns only)

    @property
    def label(self) -> str:
        return f"{self.name} ({self.hex.label}, {self.vp} VP)"


@dataclass(frozen=True)
class VictorySummary:
    turn: int
    allied_vp: int
    total_vp: int
    level: str
    allied_towns: tuple[TownStatus, ...]  # highest VP first
    italian_towns: tuple[TownStatus, ...]  # highest VP first: what the Allies could still take
    next_level: tuple[int, str] | None  # (VP needed, level) of the band above, if any
    previous_level: tuple[int, str] | None  # (VP lost, level) of the band below, if any
    reach_checked: bool

    def explain(self) -> str:
        lines = [
            f"Turn {self.turn}: the Allies control {_towns(len(self.allied_towns))} worth {self.allied_vp} of "
            f"{self.total_vp} VP: {self.level} if the game ended now (14.0)."
        ]
        if self.next_level is not None:
            need, level = self.next_level
            lines.append(f"  {need} more VP would make it {level}.")
        if self.previous_level is not None:
            lost, level = self.previous_level
            lines.append(f"  Losing {lost} VP would make it {level}.")
        if self.allied_towns:
            lines.append("  Allied: " + ", ".join(t.label for t in self.allied_towns))
        if self.italian_towns:
            lines.append("  Italian (by VP):")
            for t in self.italian_towns:
                extra = ""
                if t.occupant is Side.ITALIAN:
                    extra = " - held by Italian units"
                elif self.reach_checked and t.enterable_by:
                    extra = " - allied units could enter it this turn: " + ", ".join(t.enterable_by)
                lines.append(f"    {t.label}{extra}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.explain()


def _towns(n: int) -> str:
    return f"{n} town" if n == 1 else f"{n} towns"


def victory_summary(position: Position, *, reach: bool = True) -> VictorySummary:
    """What the Allies hold now and could take (14.0).  With ``reach``, each Italian-controlled
    town lists the allied units on the map that could move into it with one full move from where
    they stand (9.0, with ZoC, 4.0), whatever phase it is."""
    s = position.scenario
    enemy_zoc = zoc_map(position, Side.ITALIAN) if reach else {}
    occupied = enemy_occupied(position, Side.ITALIAN)
    by_hex: dict[Hex, list[str]] = {}
    if reach:
        for uid, unit in position.units.items():
            if unit.side is not Side.ALLIED or unit.status is not Status.MAP:
                continue
            for h in reachable(position, uid, zoc=enemy_zoc, enemy_hexes=occupied).reach:
                by_hex.setdefault(h, []).append(s.units[uid].name)
    stacks = position.stacks()
    towns: list[TownStatus] = []
    for name, town in s.towns.items():
        h = s.town_hex(name)
        sides = {position.units[u].side for u in stacks.get(h, [])}
        occupant = next(iter(sides)) if len(sides) == 1 else None
        controller = position.controller(name)
        enterable = tuple(by_hex.get(h, ())) if controller is Side.ITALIAN else ()
        towns.append(TownStatus(name, h, town.vp, controller, occupant, enterable))
    towns.sort(key=lambda t: (-t.vp, t.name))
    vp = position.allied_vp()
    level = s.victory_level(vp)
    up = next((v for v in range(vp + 1, s.total_vp + 1) if s.victory_level(v) != level), None)
    down = next((v for v in range(vp - 1, -1, -1) if s.victory_level(v) != level), None)
    return VictorySummary(
        turn=position.turn,
        allied_vp=vp,
        total_vp=s.total_vp,
        level=level,
        allied_towns=tuple(t for t in towns if t.controller is Side.ALLIED),
        italian_towns=tuple(t for t in towns if t.controller is Side.ITALIAN),
        next_level=(up - vp, s.victory_level(up)) if up is not None else None,
        previous_level=(vp - down, s.victory_level(down)) if down is not None else None,
        reach_checked=reach,
    )
