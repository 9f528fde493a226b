"""Questions a teacher asks of a position, answered as data the renderers can draw."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from cheren.engine.position import Position
from cheren.engine.rules.zoc import Zoc, zoc_map
from cheren.engine.threats import Threats
from cheren.hexes import Hex
from cheren.scenario.compiled import Scenario
from cheren.scenario.models import Side

SIDE_COLOURS = {Side.ALLIED: "#b3261e", Side.ITALIAN: "#2e6b2e"}


@dataclass(frozen=True)
class Overlay:
    """Something to show on top of the map: a reach map, a threat map, a supply trace.

    ``hexes`` maps each highlighted hex to an optional short label (a cost, a path length);
    ``paths`` are hex chains drawn as lines through hex centres (a supply line, a move).
    ``title`` names the overlay in the legend (default: ``kind``)."""

    kind: str
    hexes: Mapping[Hex, str | None] = field(default_factory=dict)
    colour: str = "#2b6cc4"
    opacity: float = 0.35
    paths: Sequence[Sequence[Hex]] = ()
    title: str | None = None



# -- overlays the notebook app switches on and off (issue 7) -------------------------------
def zoc_overlays(position: Position, side: Side) -> list[Overlay]:
    """``side``'s ZoC as two overlays, hard (H, darker) and soft (S), rule 4.0."""
    zoc = zoc_map(position, side)
    colour = SIDE_COLOURS[side]
    hard: dict[Hex, str | None] = {h: "H" for h, k in zoc.items() if k is Zoc.HARD}
    soft: dict[Hex, str | None] = {h: "S" for h, k in zoc.items() if k is Zoc.SOFT}
    return [
        Overlay("zoc-hard", hard, colour=colour, opacity=0.34, title=f"{side.adjective} hard ZoC (4.0)"),
        Overlay("zoc-soft", soft, colour=colour, opacity=0.14, title=f"{side.adjective} soft ZoC (4.0)"),
    ]


def control_overlays(position: Position) -> list[Overlay]:
    """The towns tinted by who controls them (2.1), with the VP each side holds (14.0)."""
    s = position.scenario
    out = []
    for side in (Side.ALLIED, Side.ITALIAN):
        towns = [t for t in s.map.towns if position.controller(t.name) is side]
        hexes: dict[Hex, str | None] = {s.town_hex(t.name): None for t in towns}
        vp = sum(t.vp for t in towns)
        out.append(
            Overlay(
                f"control-{side.value}",
                hexes,
                colour=SIDE_COLOURS[side],
                opacity=0.4,
                title=f"{side.adjective} towns: {vp} VP",
            )
        )
    return out


def garrison_overlays(position: Position) -> list[Overlay]:
    """Each garrison area (6.0), tinted by whether its garrison has been released yet."""
    s = position.scenario
    out = []
    for key, area in s.garrison_areas.items():
        released = key in position.released
        hexes: dict[Hex, str | None] = dict.fromkeys(sorted(s.area_hexes(key)))
        state = "released" if released else "held until an allied unit enters or comes next to it"
        out.append(
            Overlay(
                f"garrison-{key}",
                hexes,
                colour="#5f8f4e" if released else "#6a3d80",
                opacity=0.22,
                title=f"{area.name} garrison: {state} (6.0)",
            )
        )
    return out


def supply_marker_overlays(position: Position) -> list[Overlay]:
    """Hexes of units with Low and with No supply markers (12.4)."""
    from cheren.engine.position import Supply

    out = []
    for marker, colour, name in ((Supply.LOW, "#f2c318", "Low"), (Supply.NO, "#d0201a", "No")):
        hexes: dict[Hex, str | None] = {
            u.hex: None for u in position.units.values() if u.supply is marker and u.on_map and u.hex is not None
        }
        out.append(Overlay(f"supply-{marker.value}", hexes, colour=colour, opacity=0.4, title=f"{name} supply (12.4)"))
    return out


def edge_overlays(position: Position) -> list[Overlay]:
    """The red map edges that supply only on some turns (12.2: Af Abed, turns 5-12), tinted
    when live and greyed before."""
    s = position.scenario
    last = len(s.info.turns)
    out = []
    for edge in s.allied_edges:
        if (edge.first_turn, edge.last_turn) == (1, last):
            continue
        live = s.edge_live(edge, position.turn)
        mark = "live" if live else f"T{edge.first_turn}"
        hexes: dict[Hex, str | None] = {Hex.from_label(label): mark for label in edge.hexes}
        when = f"turns {edge.first_turn}-{edge.last_turn}"
        state = f"live now ({when})" if live else f"not live on turn {position.turn} ({when})"
        out.append(
            Overlay(
                "edge",
                hexes,
                colour="#c4161c" if live else "#7d7d7d",
                opacity=0.3,
                title=f"{edge.name}: {state} (12.2)",
            )
        )
    return out


# -- supply (12.0-12.3) ------------------------------------------------------------------------
def supply_overlay(position: Position, side: Side) -> Overlay:
    """Every hex where a unit of ``side`` could draw supply now (12.0-12.2), labelled with the
    length of the supply line it would need: S on a source, E on a live red edge (12.2), R on
    the road/track network that leads to a source, 1-3 for a line of that many hexes."""
    from cheren.engine.rules.supply import supply_context
    from cheren.engine.rules.supply_hexes import supplied_hexes

    ctx = supply_context(position, side)
    labels: dict[Hex, str | None] = {}
    for h, n in sorted(supplied_hexes(position, side, context=ctx).items()):
        if n:
            labels[h] = str(n)
        elif h in ctx.edges:
            labels[h] = "E"
        elif h in ctx.sources:
            labels[h] = "S"
        else:
            labels[h] = "R"
    title = f"{side.adjective} supply: S source, E red edge, R road/track, 1-3 line length (12.0)"
    return Overlay("supply", labels, colour=SIDE_COLOURS[side], opacity=0.18, title=title)


def supply_line_overlay(position: Position, unit_id: str) -> Overlay:
    """The supply line a unit traces (12.0), drawn as ``paths``: the line from the unit to where
    it meets the source or road/track, then the road/track on to the source.  The line's hexes
    are numbered.  A unit with no line shows each candidate route, its blocked hexes marked x."""
    from cheren.engine.rules.supply import unit_supply

    trace = unit_supply(position, unit_id)
    name = position.scenario.units[unit_id].name
    origin = trace.origin
    if origin is None:  # the air unit off the map: always in supply (11.3)
        return Overlay("supply-line", {}, title=f"{name}: off the map, always in supply ({trace.rule})")
    labels: dict[Hex, str | None] = {}
    paths: list[tuple[Hex, ...]] = []
    if trace.supplied:
        if trace.line:
            paths.append((origin, *trace.line))
            labels.update({h: str(i) for i, h in enumerate(trace.line, 1)})
        if len(trace.route) > 1:
            paths.append(trace.route)
        labels.setdefault(origin, None)
        if trace.route:
            labels.setdefault(trace.route[-1], "S")
        title = f"{name}: in supply ({trace.rule})"
        colour = "#2b6cc4"
    else:
        for c in trace.candidates:
            paths.append((origin, *c.path))
            labels.update({b.hex: "x" for b in c.blocks if b.hex is not None})
            labels.setdefault(c.target, None)
        labels.setdefault(origin, None)
        title = f"{name}: no supply line (12.0); x = blocked"
        colour = "#d0201a"
    return Overlay("supply-line", labels, colour=colour, opacity=0.25, paths=tuple(paths), title=title)


def threat_overlays(t: Threats, reach: bool = True) -> list[Overlay]:
    """The threat map of :func:`cheren.engine.threats.threats` on the map: where the enemy's
    units can end their next move, each threatened stack labelled with the enemy's best column,
    and each hex where one enemy move cuts a supply line."""
    enemy = t.side.enemy.adjective
    out = []
    if reach:
        hexes: dict[Hex, str | None] = {h: None for hs in t.reach.values() for h in hs}
        out.append(Overlay("enemy-reach", hexes, colour="#6b5a3c", opacity=0.14, title=f"{enemy} reach next turn"))
    out.append(Overlay("threat", {st.hex: st.column for st in t.stacks}, colour="#d0201a", opacity=0.3,
                       title=f"best {enemy} odds next turn"))
    article = "an" if enemy[:1] in "AEIOU" else "a"
    out.append(Overlay("supply-cut", {c.at: "cut" for c in t.cuts}, colour="#7a2fa0", opacity=0.32,
                       title=f"{article} {enemy} move here cuts supply"))
    return out


# -- the Keren key (the features of the battle on the map) ----------------------------------------
KEREN_COLOUR = "#5b3a8c"


def keren_key_overlays(scenario: Scenario) -> list[Overlay]:
    """The features of the battle of Cheren where they lie (the scenario's Keren key): each hex
    labelled with the numbers of its features, one legend line per hex naming them (at 12.5 km a
    hex several share one), and the Asmara road drawn as a line."""
    from cheren.study.keren_key import keren_key

    key = keren_key(scenario)
    out = []
    for h, features in key.by_hex().items():
        numbers = ",".join(str(f.number) for f in features)
        names = ", ".join(f"{f.number} {f.name}" for f in features)
        shared = " (one hex at this scale)" if len(features) > 1 else ""
        out.append(Overlay("keren-key", {h: numbers}, colour=KEREN_COLOUR, opacity=0.22,
                           title=f"Keren key {h.label}: {names}{shared}"))
    for f in key.features:
        if f.is_path:
            out.append(Overlay("keren-key", {}, colour=KEREN_COLOUR, opacity=0.22, paths=(f.hexes,),
                               title=f"Keren key: {f.number} {f.name} ({f.labels})"))
    return out
