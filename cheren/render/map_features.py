"""The map's features as scene items: garrison areas, rivers, tracks, roads, the Allied red
edges, supply sources, villages and towns (name, VP, setup letter, control marker), placed so
their labels stay clear of each other and of the counters."""

from __future__ import annotations

import math
from collections.abc import Sequence

from cheren.engine.position import Position
from cheren.hexes import Hex, Hexside, Layout, parse_label
from cheren.render.geometry import (
    centre_segment,
    hex_polygon,
    hexside_segment,
    join_segments,
    outward_sides,
    region_centre,
    text_width,
)
from cheren.render.palette import Palette
from cheren.render.primitives import (
    Item,
    Polygon,
    Polyline,
    Region,
    Shape,
    Style,
    Text,
)
from cheren.render.symbols import control_flag, hut, letter_badge, supply_badge, town_symbol
from cheren.scenario.compiled import Scenario
from cheren.scenario.models import TownKind


def feature_items(layout: Layout, scenario: Scenario, position: Position | None, palette: Palette) -> list[Item]:
    """The ``features`` layer: garrison areas, rivers, tracks, roads, the red edges, supply
    sources, villages, towns with their names, VP and setup letters, control markers."""
    items: list[Item] = []
    s = layout.size
    all_hexes = scenario.hexes.keys()
    turn = position.turn if position is not None else None

    # garrison areas: a light tint and a dashed border along the area's outer hexsides
    busy = set(scenario.towns_by_hex) | {parse_label(v.hex) for v in scenario.villages.values()}
    if position is not None:
        busy |= set(position.stacks())
    area_labels: list[Shape] = []
    for key, area in scenario.garrison_areas.items():
        hexes = scenario.area_hexes(key)
        if not hexes:
            continue
        loops = join_segments(hexside_segment(layout, side) for side in outward_sides(hexes))
        items.append(
            Region(
                rings=tuple(tuple(loop) for loop in loops),
                style=Style(fill=palette.area_tint, opacity=0.1),
                cls="garrison-area",
                data=(("area", key),),
            )
        )
        # the dashed border runs inside the map only; the map edge needs no second line
        inner = [side for side in outward_sides(hexes) if side.a in all_hexes and side.b in all_hexes]
        for loop in join_segments(hexside_segment(layout, side) for side in inner):
            items.append(
                Polyline(
                    points=tuple(loop),
                    style=Style(
                        stroke=palette.area_line, stroke_width=s * 0.075, dash=(s * 0.26, s * 0.14), linejoin="round"
                    ),
                    cls="garrison-border",
                    data=(("area", key),),
                )
            )
        cx, cy = layout.to_pixel(_label_spot(layout, hexes, busy))
        area_labels.append(
            Text(
                x=cx,
                y=cy + s * 0.1,
                text=area.name.upper(),
                size=s * 0.42,
                weight="bold",
                italic=True,
                family="serif",
                letter_spacing=s * 0.12,
                halo=palette.label_halo,
                halo_width=s * 0.08,
                style=Style(fill=palette.area_line, opacity=0.85),
                cls="area-label",
                data=(("area", key),),
            )
        )

    # rivers along hexsides
    river_style = Style(stroke=palette.river, stroke_width=s * 0.11, linecap="round", linejoin="round")
    for line in join_segments(hexside_segment(layout, side) for side in sorted(scenario.river_sides)):
        items.append(Polyline(points=tuple(line), style=river_style, cls="river"))

    # tracks dotted, roads solid, both between hex centres
    track_sides = sorted(scenario.track_sides - scenario.road_sides)
    track_style = Style(
        stroke=palette.track, stroke_width=s * 0.085, dash=(0.001, s * 0.2), linecap="round", linejoin="round"
    )
    for line in join_segments(centre_segment(layout, side) for side in track_sides):
        items.append(Polyline(points=tuple(line), style=track_style, cls="track"))
    road_lines = join_segments(centre_segment(layout, side) for side in sorted(scenario.road_sides))
    casing = Style(stroke=palette.label_halo, stroke_width=s * 0.19, linecap="round", linejoin="round", opacity=0.7)
    road_style = Style(stroke=palette.road, stroke_width=s * 0.1, linecap="round", linejoin="round")
    for line in road_lines:
        items.append(Polyline(points=tuple(line), style=casing, cls="road-casing"))
    for line in road_lines:
        items.append(Polyline(points=tuple(line), style=road_style, cls="road"))

    # red allied map edges (12.2) along the outer border of their hexes, with their turns
    for edge in scenario.allied_edges:
        edge_hexes = [parse_label(label) for label in edge.hexes]
        sides = outward_sides(edge_hexes, inside=all_hexes)
        lines = join_segments(hexside_segment(layout, side) for side in sides)
        live = turn is None or scenario.edge_live(edge, turn)
        style = Style(
            stroke=palette.allied_edge,
            stroke_width=s * 0.2,
            linecap="round",
            linejoin="round",
            opacity=1.0 if live else 0.4,
        )
        data = (("edge", edge.name), ("turns", f"{edge.first_turn}-{edge.last_turn}"))
        for line in lines:
            items.append(Polyline(points=tuple(line), style=style, cls="allied-edge", data=data))
        turns = "" if (edge.first_turn, edge.last_turn) == (1, 12) else f" · turns {edge.first_turn}-{edge.last_turn}"
        items.append(
            _margin_label(
                layout,
                edge_hexes,
                sides,
                edge.name + turns,
                palette.allied_edge,
                "allied-edge-label",
                (("edge", edge.name),),
                1.0 if live else 0.55,
            )
        )

    # supply sources (1.4): along the map border a band like the red edges; inside the map a
    # ring in each hex and an S badge in its top corner
    for source in scenario.supply_sources:
        colour = palette.supply.get(source.side.value, palette.ink)
        source_hexes = [parse_label(label) for label in source.hexes]
        data = (("source", source.name), ("side", source.side.value))
        border = outward_sides(source_hexes, inside=all_hexes)
        if len(source_hexes) > 1 and {h for side in border for h in side if h in all_hexes} == set(source_hexes):
            style = Style(stroke=colour, stroke_width=s * 0.2, linecap="round", linejoin="round")
            for line in join_segments(hexside_segment(layout, side) for side in border):
                items.append(Polyline(points=tuple(line), style=style, cls="supply-edge", data=data))
            items.append(
                _margin_label(
                    layout,
                    source_hexes,
                    border,
                    f"{source.side.adjective} supply: {source.name}",
                    colour,
                    "supply-edge-label",
                    data,
                )
            )
            continue
        for h in source_hexes:
            hex_data = (*data, ("hex", h.label))
            items.append(
                Polygon(
                    points=hex_polygon(layout, h, 0.86),
                    style=Style(stroke=colour, stroke_width=s * 0.07, opacity=0.8, linejoin="round"),
                    cls="supply-ring",
                    data=hex_data,
                )
            )
            cx, cy = layout.to_pixel(h)
            items.extend(supply_badge(cx + s * 0.44, cy - s * 0.74, s, colour, data=hex_data))

    # native villages (12.3): a hut in the hex's left corner and the name in italics
    for village in scenario.villages.values():
        h = parse_label(village.hex)
        cx, cy = layout.to_pixel(h)
        data = (("village", village.name), ("hex", village.hex))
        items.extend(hut(cx - s * 0.76, cy + s * 0.08, s, palette, data=data))
        # under the hex, or over it when a town already writes its name there
        y = cy - s * 0.66 if h in scenario.towns_by_hex else cy + s * 0.9
        items.append(
            Text(
                x=cx,
                y=y,
                text=village.name,
                size=s * 0.24,
                italic=True,
                halo=palette.label_halo,
                halo_width=s * 0.07,
                style=Style(fill=palette.village_hut),
                cls="village-name",
                data=data,
            )
        )

    # towns: symbol, name with VP, setup letter, allied Control marker
    control = position.allied_control if position is not None else set()
    for town in scenario.map.towns:
        h = parse_label(town.hex)
        cx, cy = layout.to_pixel(h)
        data = (("town", town.name), ("hex", town.hex))
        items.extend(town_symbol(town.kind, cx, cy, s, palette, data=data))
        city = town.kind is TownKind.CITY
        name = town.name.upper() if city else town.name
        text = f"{name} ({town.vp})" if town.vp else name
        size = s * (0.32 if city else 0.28 if town.kind is TownKind.TOWN else 0.25)
        items.append(
            Text(
                x=cx,
                y=cy + s * 0.9,
                text=text,
                size=size,
                weight="bold" if city or town.vp >= 3 else "normal",
                halo=palette.label_halo,
                halo_width=s * 0.08,
                style=Style(fill=palette.ink),
                cls="town-name",
                data=data,
            )
        )
        if town.letter:
            items.extend(letter_badge(town.letter, cx - s * 0.8, cy, s, palette, data=data))
        if town.name in control:
            # at the end of the name, where a counter on the town does not hide it
            fx = cx + text_width(text, size, bold=city or town.vp >= 3) / 2 + s * 0.08
            items.extend(control_flag(fx, cy + s * 0.93, s * 0.8, palette, data=data))
    items.extend(area_labels)
    return items


def _margin_label(
    layout: Layout,
    hexes: Sequence[Hex],
    sides: Sequence[Hexside],
    text: str,
    colour: str,
    cls: str,
    data: tuple[tuple[str, str], ...],
    opacity: float = 1.0,
) -> Text:
    """A label for a stretch of the map border (a red edge, an edge supply source), written in
    the margin outside it, turned to run along a side edge."""
    s = layout.size
    pts = [p for side in sides for p in hexside_segment(layout, side)]
    bx = sum(p[0] for p in pts) / len(pts)
    by = sum(p[1] for p in pts) / len(pts)
    centres = [layout.to_pixel(h) for h in hexes]
    hx = sum(p[0] for p in centres) / len(centres)
    hy = sum(p[1] for p in centres) / len(centres)
    dx, dy = bx - hx, by - hy
    norm = math.hypot(dx, dy) or 1.0
    dx, dy = dx / norm, dy / norm
    # clear of the outermost point of the border, on the side facing off the map
    rotate = 0.0
    if abs(dx) > abs(dy):
        rotate = -90.0 if dx < 0 else 90.0
        edge_x = min(p[0] for p in pts) if dx < 0 else max(p[0] for p in pts)
        x, y = edge_x + (-1 if dx < 0 else 1) * s * 0.45, by
    else:
        edge_y = min(p[1] for p in pts) if dy < 0 else max(p[1] for p in pts)
        x, y = bx, edge_y + (s * 0.45 if dy > 0 else -s * 0.22)
    return Text(
        x=x,
        y=y,
        text=text,
        size=s * 0.28,
        weight="bold",
        rotate=rotate,
        style=Style(fill=colour, opacity=opacity),
        cls=cls,
        data=data,
    )


def _label_spot(layout: Layout, hexes: frozenset[Hex], busy: set[Hex]) -> Hex:
    """Where to write a region's name: near its middle, on a hex that is free of towns, villages
    and counters, with free hexes to its left and right for the long word."""
    centre = region_centre(layout, hexes)
    cx, cy = layout.to_pixel(centre)

    def score(h: Hex) -> tuple[int, int, float, Hex]:
        sideways = [h.neighbour(d) for d in (0, 1, 3, 4)]
        crowded = sum(1 for n in sideways if n in busy or n not in hexes)
        return (h in busy, crowded, math.dist(layout.to_pixel(h), (cx, cy)), h)

    return min(hexes, key=score)
