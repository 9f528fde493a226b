"""Supply reports: what a teacher would say about one side's supply in a position (12.0-12.7).

:func:`side_supply_report` gathers, on one shared :class:`~cheren.engine.rules.supply.SupplyContext`,
the live sources, the road/track network that counts (each hex with the source it leads to),
every hex where a unit could draw supply now (with the length of the line it would need), each
unit's trace, and the empty towns that would change control in a Supply check phase now
(12.7).  :func:`unit_supply_report` is one unit's trace in words.  The overlays that draw these
live in :mod:`cheren.study.overlays`."""

from __future__ import annotations

from dataclasses import dataclass

from cheren.engine.position import Position, Supply
from cheren.engine.rules.supply import SupplyContext, check_side, supply_context, unit_supply
from cheren.engine.rules.supply_hexes import supplied_hexes
from cheren.engine.rules.supply_phase import ControlChange, town_control_changes
from cheren.engine.rules.supply_trace import Block, SupplyTrace
from cheren.hexes import Hex
from cheren.scenario.models import Side


@dataclass(frozen=True)
class SideSupplyReport:
    side: Side
    turn: int
    sources: dict[Hex, str]  # live friendly sources (12.0, 12.2; 1.4 from the data)
    closed_sources: dict[Hex, tuple[Block, ...]]  # sources the line or road may not enter now (12.1)
    network: dict[Hex, str]  # open road/track hexes that lead to a source, and which source
    supplied: dict[Hex, int]  # where a unit could draw supply now, and the line length it needs
    units: dict[str, SupplyTrace]
    control_changes: tuple[ControlChange, ...]  # 12.7, if the Supply check phase were now

    @property
    def unsupplied(self) -> dict[str, SupplyTrace]:
        return {u: t for u, t in self.units.items() if not t.supplied}

    def explain(self) -> str:
        side = self.side.adjective
        lines = [f"{side} supply on turn {self.turn} (12.0-12.7)"]
        if self.sources:
            names = sorted(set(self.sources.values()))
            lines.append(f"  sources: {', '.join(names)} ({len(self.sources)} hexes)")
        else:
            lines.append("  no live supply source")
        for h, blocks in sorted(self.closed_sources.items()):
            lines.append(f"  source hex {h.label} is closed: " + "; ".join(str(b) for b in blocks))
        lines.append(
            f"  road/track network that counts: {len(self.network)} hexes; "
            f"a unit could draw supply in {len(self.supplied)} hexes"
        )
        ok = [t for t in self.units.values() if t.supplied]
        lines.append(f"  units in supply: {len(ok)} of {len(self.units)}")
        for trace in self.unsupplied.values():
            lines += ["  " + line for line in trace.explain().splitlines()]
        for change in self.control_changes:
            lines.append("  " + change.describe())
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.explain()


def network_sources(ctx: SupplyContext) -> dict[Hex, str]:
    """Each hex of the open road/track network, with the name of the source it leads to."""
    out: dict[Hex, str] = {}
    for h in ctx.network:
        chain = []
        here = h
        while here not in out:
            nxt = ctx.network[here]
            if nxt is None:
                out[here] = ctx.sources[here]
                break
            chain.append(here)
            here = nxt
        for c in chain:
            out[c] = out[here]
    return out


def side_supply_report(position: Position, side: Side) -> SideSupplyReport:
    ctx = supply_context(position, side)
    closed = {h: tuple(ctx.closed_because(h)) for h in ctx.sources if not ctx.open(h)}
    contexts = {side: ctx, side.enemy: supply_context(position, side.enemy)}
    return SideSupplyReport(
        side=side,
        turn=position.turn,
        sources=dict(ctx.sources),
        closed_sources=closed,
        network=network_sources(ctx),
        supplied=supplied_hexes(position, side, context=ctx),
        units=check_side(position, side, explain=True),
        control_changes=tuple(town_control_changes(position, contexts, explain=True)),
    )


def unit_supply_report(position: Position, unit_id: str) -> str:
    """One unit's supply in words: the line it traces, or why every route fails, plus what the
    next Supply check would do to its marker (12.4-12.6)."""
    trace = unit_supply(position, unit_id)
    marker = position.units[unit_id].supply
    text = trace.explain()
    if trace.supplied:
        if marker is not None:
            text += f"\n  its {marker.value.title()} supply marker would be removed (12.4)"
    elif marker is None:
        text += "\n  a Supply check now would give it a Low supply marker (12.4)"
    elif marker is Supply.LOW:
        text += "\n  a Supply check now would flip its marker to No supply and cost it a step (12.4, 12.6)"
    else:
        text += "\n  a Supply check now would cost it a step of attrition (12.6)"
    return text
