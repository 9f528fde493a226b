"""The Supply check & attrition phase, rules 12.4 to 12.7: first town control (an empty town
changes hands when only the other side can trace supply to it, 12.7), then each unit's supply
marker (12.4; a Supply convoy chit keeps one stack supplied, 5.1), then attrition for units with
a No supply marker (12.6).  The lines themselves are traced by :mod:`cheren.engine.rules.supply`."""

from __future__ import annotations

from dataclasses import dataclass

from cheren.engine.position import Position, Status, Supply
from cheren.engine.registry import GameState
from cheren.engine.rules.chits import convoy_hex
from cheren.engine.rules.supply import SupplyContext, supplied_at, supplied_units, supply_context, trace_from
from cheren.engine.rules.supply_trace import SupplyTrace
from cheren.hexes import Hex
from cheren.scenario.models import Side


# -- 12.4-12.6: markers and attrition --------------------------------------------------------------
def marker_after(marker: Supply | None, supplied: bool) -> Supply | None:
    """12.4: supplied units lose their marker; the others get Low, and Low turns to No."""
    if supplied:
        return None
    return Supply.LOW if marker is None else Supply.NO


# -- 12.7: town control ------------------------------------------------------------------------------
@dataclass(frozen=True)
class ControlChange:
    """An empty town that changes hands in the Supply check phase (12.7)."""

    town: str
    hex: Hex
    vp: int
    before: Side
    after: Side
    italian: SupplyTrace
    allied: SupplyTrace

    def describe(self) -> str:
        if self.after is Side.ALLIED:
            why = "cannot draw Italian supply but can draw Allied supply"
        else:
            why = "can draw Italian supply and not Allied supply"
        return (
            f"{self.town} ({self.hex.label}, {self.vp} VP) is empty, {why}: it becomes "
            f"{self.after.adjective}-controlled (12.7)"
        )


def town_control_changes(
    position: Position, contexts: dict[Side, SupplyContext] | None = None, *, explain: bool = False
) -> list[ControlChange]:
    """12.7: the empty towns that change control now.  Each town traces supply for both sides
    as if it were a unit (its own hex not counted); all towns are judged on the same position
    and change together."""
    s = position.scenario
    ctx = contexts if contexts is not None else {}  # filled in as needed: the caller may reuse them
    occupied = {u.hex for u in position.units.values() if u.status is Status.MAP and u.hex is not None}
    out: list[ControlChange] = []
    for name in sorted(s.towns):
        h = s.town_hex(name)
        if h in occupied:
            continue
        owner = position.controller(name)
        if Side.ITALIAN not in ctx:
            ctx[Side.ITALIAN] = supply_context(position, Side.ITALIAN)
        italian = supplied_at(ctx[Side.ITALIAN], h)
        if italian is (owner is Side.ITALIAN):
            continue  # Italian supply alone already keeps the town where it is
        if Side.ALLIED not in ctx:
            ctx[Side.ALLIED] = supply_context(position, Side.ALLIED)
        allied = supplied_at(ctx[Side.ALLIED], h)
        if owner is Side.ITALIAN and not italian and allied:
            after = Side.ALLIED
        elif owner is Side.ALLIED and italian and not allied:
            after = Side.ITALIAN
        else:
            continue
        # the lines themselves only for a town that changes hands (most stay: only yes or no is needed)
        italian_line = trace_from(ctx[Side.ITALIAN], h, explain, None, name)
        allied_line = trace_from(ctx[Side.ALLIED], h, explain, None, name)
        out.append(ControlChange(name, h, s.towns[name].vp, owner, after, italian_line, allied_line))
    return out


# -- the phase -------------------------------------------------------------------------------------
def supply_phase(game: GameState) -> None:
    """The Supply check & attrition phase of the phasing side: first town control (12.7), then
    every friendly unit on the map (12.4), then attrition for units with No supply (12.6)."""
    position = game.position
    s = position.scenario
    contexts: dict[Side, SupplyContext] = {}
    changes = town_control_changes(position, contexts)
    for change in changes:
        position.set_control(change.town, change.after)
        game.event(change.describe())
    side = position.side
    # the context 12.7 traced on still holds unless a town changed hands (12.1: enemy towns)
    supplied = supplied_units(position, side, context=None if changes else contexts.get(side))
    attrition: list[str] = []
    convoy = convoy_hex(game)
    for uid, in_supply in supplied.items():
        unit = position.units[uid]
        before = unit.supply
        by_convoy = convoy is not None and unit.hex == convoy and not in_supply
        after = marker_after(before, in_supply or by_convoy)
        if by_convoy and convoy is not None:
            game.event(f"{s.units[uid].name} in {convoy.label} is kept in supply by a Supply convoy (5.1)")
        unit.supply = after
        name = s.units[uid].name
        where = unit.hex.label if unit.hex is not None else "?"
        if before is not None and after is None:
            marker = before.value.title()
            game.event(f"{name} in {where} draws supply again: its {marker} supply marker is removed (12.4)")
        elif before is None and after is Supply.LOW:
            game.event(f"{name} in {where} cannot draw supply: Low supply marker (12.4)")
        elif before is Supply.LOW and after is Supply.NO:
            game.event(f"{name} in {where} still cannot draw supply: the marker flips to No supply (12.4)")
        elif before is Supply.NO and after is Supply.NO:
            game.event(f"{name} in {where} still cannot draw supply: No supply (12.4)")
        if after is Supply.NO:
            attrition.append(uid)
    # The air unit off the map is always in supply (11.3): it never keeps a marker.
    for unit in position.units.values():
        if unit.side is side and unit.status is Status.OFF_MAP and unit.supply is not None:
            unit.supply = None
    for uid in attrition:
        game.event(f"attrition: {s.units[uid].name} has a No supply marker and loses a step (12.6)")
        game.lose_step(uid, ("12.6",))

