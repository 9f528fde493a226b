"""The backend-neutral scene: what the map looks like, as ordered layers of primitives.

:func:`build_scene` turns a scenario, an optional position and optional overlays into a
:class:`Scene`.  Back-ends (:mod:`cheren.render.svg`, later an ipycanvas one) only paint what the
scene holds; they never look at rules or state.  Layers, bottom to top:

``terrain``   hex fills, mixed-terrain patches, terrain marks, grid, CCRR labels
``features``  garrison areas, rivers, tracks, roads, allied edges, supply sources, villages,
              towns with their names, VP and setup letters, control markers
``counters``  one group per unit on the map, stacks drawn as offset counters
``overlays``  translucent hex fills with labels, and paths (supply lines, moves)
``legend``    the title and key strip above the map
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from cheren.engine.position import Position
from cheren.hexes import Hex, Hexside, Layout, parse_label
from cheren.render.counters import counter_group, counter_side, stack_offsets
from cheren.render.geometry import (
    Point,
    bounds,
    centre_segment,
    hex_polygon,
    hexside_segment,
    join_segments,
    outward_sides,
    region_centre,
    route_polyline,
    text_width,
)
from cheren.render.palette import PALETTE, Palette
from cheren.render.primitives import (
    Circle,
    Group,
    Item,
    Polygon,
    Polyline,
    Rect,
    Region,
    Shape,
    Style,
    Text,
)
from cheren.render.symbols import control_flag, hut, letter_badge, supply_badge, terrain_glyph, town_symbol
from cheren.scenario.compiled import Scenario
from cheren.scenario.models import TownKind
from cheren.study.overlays import Overlay

__all__ = [
    "LAYERS",
    "Circle",
    "Group",
    "Item",
    "Overlay",
    "Polygon",
    "Polyline",
    "Rect",
    "Region",
    "Scene",
    "Shape",
    "Style",
    "Text",
    "build_scene",
]

LAYERS: tuple[str, ...] = ("terrain", "features", "counters", "overlays", "legend")
DEFAULT_HEX_SIZE = 36.0


@dataclass
class Scene:
    """Ordered layers of primitives plus the layout that placed them."""

    width: float
    height: float
    layout: Layout
    background: str = PALETTE.paper
    title: str = ""
    hexes: frozenset[Hex] = frozenset()
    layers: dict[str, list[Item]] = field(default_factory=lambda: {name: [] for name in LAYERS})

    def add(self, item: Item) -> None:
        self.layers.setdefault(item.layer, []).append(item)

    def extend(self, items: Iterable[Item]) -> None:
        for item in items:
            self.add(item)

    def items(self, layer: str | None = None) -> Iterator[Item]:
        """Items in painting order (of one layer, or of all)."""
        names = [layer] if layer is not None else list(self.layers)
        for name in names:
            yield from self.layers.get(name, [])

    def find(self, cls: str, layer: str | None = None) -> list[Item]:
        """Top-level items whose class list contains ``cls``."""
        return [i for i in self.items(layer) if cls in i.cls.split()]

    def polygons_by_style(self, layer: str = "terrain", cls: str | None = None) -> dict[Style, list[tuple[Point, ...]]]:
        """Polygon outlines of a layer grouped by style, for back-ends that draw many polygons
        in one call (the hex fills come out as one batch per terrain).  Painting the batches in
        the order returned keeps the painting order of the first polygon of each style."""
        out: dict[Style, list[tuple[Point, ...]]] = {}
        for item in self.items(layer):
            if isinstance(item, Polygon) and (cls is None or cls in item.cls.split()):
                out.setdefault(item.style, []).append(item.points)
        return out

    def hex_at(self, x: float, y: float) -> Hex | None:
        """The map hex under a pixel (for clicks), or None off the map."""
        h = self.layout.from_pixel(x, y)
        return h if h in self.hexes else None


def build_scene(
    scenario: Scenario,
    position: Position | None = None,
    overlays: Sequence[Overlay] | None = None,
    hex_size: float = DEFAULT_HEX_SIZE,
    *,
    palette: Palette = PALETTE,
    legend: bool = True,
    coordinates: bool = True,
) -> Scene:
    """Lay out the map of ``scenario`` with the units of ``position`` (a
    :class:`cheren.engine.position.Position`, optional) and ``overlays`` on top."""
    s = float(hex_size)
    base = Layout(s)
    min_x, min_y, max_x, max_y = bounds(base, scenario.hexes)
    margin = s * 0.95
    width = (max_x - min_x) + 2 * margin
    key_items, key_height = _legend(scenario, position, overlays or (), s, width, palette) if legend else ([], 0.0)
    layout = Layout(s, margin - min_x, key_height + margin - min_y)
    height = key_height + (max_y - min_y) + 2 * margin
    scene = Scene(
        width=math.ceil(width),
        height=math.ceil(height),
        layout=layout,
        background=palette.paper,
        title=scenario.name,
        hexes=frozenset(scenario.hexes),
    )
    _terrain(scene, scenario, palette, coordinates)
    _features(scene, scenario, position, palette)
    if position is not None:
        _counters(scene, scenario, position, palette)
    for overlay in overlays or ():
        _overlay(scene, overlay, position)
    scene.extend(key_items)
    return scene


# -- terrain -------------------------------------------------------------------------------
def _terrain(scene: Scene, scenario: Scenario, palette: Palette, coordinates: bool) -> None:
    layout = scene.layout
    s = layout.size
    grid = palette.grid
    # sea and other unplayable hexes carry no grid, as on a printed map (a hairline of their own
    # colour closes the seams between fills)
    styles = {
        key: Style(
            fill=t.colour,
            stroke=grid if t.playable else t.colour,
            stroke_width=s * palette.grid_width if t.playable else s * 0.02,
        )
        for key, t in scenario.terrain_types.items()
    }
    patch_styles = {key: Style(fill=t.colour) for key, t in scenario.terrain_types.items()}
    # Hex fills first (one batch per terrain), then patches, glyphs and labels above them.
    patches: list[Shape] = []
    glyphs: list[Shape] = []
    labels: list[Shape] = []
    coord_style = Style(fill=palette.coord, opacity=palette.coord_opacity)
    for h, info in scenario.hexes.items():
        primary = info.terrains[0]
        label = h.label
        scene.add(
            Polygon(
                points=hex_polygon(layout, h),
                style=styles[primary.key],
                layer="terrain",
                cls="hex",
                data=(("hex", label), ("terrain", "+".join(t.key for t in info.terrains))),
            )
        )
        cx, cy = layout.to_pixel(h)
        for i, extra in enumerate(info.terrains[1:]):
            # a mixed hex: the other terrain as a patch inside the hex
            patches.append(
                Polygon(
                    points=hex_polygon(layout, h, 0.6 - 0.18 * i),
                    style=patch_styles[extra.key],
                    layer="terrain",
                    cls="hex-mixed",
                    data=(("hex", label),),
                )
            )
        if info.playable:
            strongest = max(info.terrains, key=lambda t: (t.mountain, t.hill, t.column_shift))
            glyphs.extend(terrain_glyph(strongest.key, cx - s * 0.42, cy + s * 0.5, s, palette.ink))
            if coordinates:
                labels.append(
                    Text(
                        x=cx, y=cy - s * 0.62, text=label, size=s * 0.2, style=coord_style, layer="terrain", cls="coord"
                    )
                )
    scene.extend(patches)
    scene.extend(glyphs)
    scene.extend(labels)


# -- map features --------------------------------------------------------------------------
def _features(scene: Scene, scenario: Scenario, position: Position | None, palette: Palette) -> None:
    layout = scene.layout
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
        scene.add(
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
            scene.add(
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
        scene.add(Polyline(points=tuple(line), style=river_style, cls="river"))

    # tracks dotted, roads solid, both between hex centres
    track_sides = sorted(scenario.track_sides - scenario.road_sides)
    track_style = Style(
        stroke=palette.track, stroke_width=s * 0.085, dash=(0.001, s * 0.2), linecap="round", linejoin="round"
    )
    for line in join_segments(centre_segment(layout, side) for side in track_sides):
        scene.add(Polyline(points=tuple(line), style=track_style, cls="track"))
    road_lines = join_segments(centre_segment(layout, side) for side in sorted(scenario.road_sides))
    casing = Style(stroke=palette.label_halo, stroke_width=s * 0.19, linecap="round", linejoin="round", opacity=0.7)
    road_style = Style(stroke=palette.road, stroke_width=s * 0.1, linecap="round", linejoin="round")
    for line in road_lines:
        scene.add(Polyline(points=tuple(line), style=casing, cls="road-casing"))
    for line in road_lines:
        scene.add(Polyline(points=tuple(line), style=road_style, cls="road"))

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
            scene.add(Polyline(points=tuple(line), style=style, cls="allied-edge", data=data))
        turns = "" if (edge.first_turn, edge.last_turn) == (1, 12) else f" · turns {edge.first_turn}-{edge.last_turn}"
        scene.add(
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
                scene.add(Polyline(points=tuple(line), style=style, cls="supply-edge", data=data))
            scene.add(
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
            scene.add(
                Polygon(
                    points=hex_polygon(layout, h, 0.86),
                    style=Style(stroke=colour, stroke_width=s * 0.07, opacity=0.8, linejoin="round"),
                    cls="supply-ring",
                    data=hex_data,
                )
            )
            cx, cy = layout.to_pixel(h)
            scene.extend(supply_badge(cx + s * 0.44, cy - s * 0.74, s, colour, data=hex_data))

    # native villages (12.3): a hut in the hex's left corner and the name in italics
    for village in scenario.villages.values():
        h = parse_label(village.hex)
        cx, cy = layout.to_pixel(h)
        data = (("village", village.name), ("hex", village.hex))
        scene.extend(hut(cx - s * 0.76, cy + s * 0.08, s, palette, data=data))
        # under the hex, or over it when a town already writes its name there
        y = cy - s * 0.66 if h in scenario.towns_by_hex else cy + s * 0.9
        scene.add(
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
        scene.extend(town_symbol(town.kind, cx, cy, s, palette, data=data))
        city = town.kind is TownKind.CITY
        name = town.name.upper() if city else town.name
        text = f"{name} ({town.vp})" if town.vp else name
        size = s * (0.32 if city else 0.28 if town.kind is TownKind.TOWN else 0.25)
        scene.add(
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
            scene.extend(letter_badge(town.letter, cx - s * 0.8, cy, s, palette, data=data))
        if town.name in control:
            # at the end of the name, where a counter on the town does not hide it
            fx = cx + text_width(text, size, bold=city or town.vp >= 3) / 2 + s * 0.08
            scene.extend(control_flag(fx, cy + s * 0.93, s * 0.8, palette, data=data))
    scene.extend(area_labels)


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


# -- counters ------------------------------------------------------------------------------
def _counters(scene: Scene, scenario: Scenario, position: Position, palette: Palette) -> None:
    layout = scene.layout
    side = counter_side(layout.size)
    for h, ids in sorted(position.stacks().items()):
        if h not in scene.hexes:
            continue
        # the strongest unit on top, so the stack reads like a player would build it
        ids = sorted(ids, key=lambda u: (position.strength(u), scenario.units[u].stack, u))
        cx, cy = layout.to_pixel(h)
        offsets = stack_offsets(len(ids), side)
        for level, (uid, (dx, dy)) in enumerate(zip(ids, offsets, strict=True)):
            unit = scenario.units[uid]
            state = position.units[uid]
            step = position.step(uid)
            scene.add(
                counter_group(
                    unit,
                    state,
                    step,
                    scenario.counters[step.counter],
                    cx + dx,
                    cy + dy,
                    side,
                    palette,
                    strength=position.strength(uid),
                    movement=position.movement(uid),
                    badge=len(ids) if level == len(ids) - 1 else 0,
                    level=level,
                )
            )


# -- overlays ------------------------------------------------------------------------------
def _overlay(scene: Scene, overlay: Overlay, position: Position | None) -> None:
    layout = scene.layout
    s = layout.size
    occupied = set(position.stacks()) if position is not None else set()
    fill = Style(fill=overlay.colour, opacity=overlay.opacity)
    kind = (("kind", overlay.kind),)
    labels: list[Shape] = []
    for h, label in overlay.hexes.items():
        hx = Hex(*h) if not isinstance(h, Hex) else h
        name = _safe_label(hx)
        scene.add(
            Polygon(
                points=hex_polygon(layout, hx, 0.94),
                style=fill,
                layer="overlays",
                cls="overlay",
                data=(*kind, ("hex", name)),
            )
        )
        if label:
            cx, cy = layout.to_pixel(hx)
            # in the middle of an empty hex; in the left corner, beside the counters, otherwise
            busy = hx in occupied
            labels.append(
                Text(
                    x=cx - s * 0.8 if busy else cx,
                    y=cy + s * 0.12 if busy else cy + s * 0.17,
                    text=str(label),
                    size=s * (0.32 if busy else 0.42),
                    weight="bold",
                    halo="#ffffff",
                    halo_width=s * 0.1,
                    style=Style(fill=_darker(overlay.colour)),
                    layer="overlays",
                    cls="overlay-label",
                    data=(*kind, ("hex", name)),
                )
            )
    path_style = Style(stroke=overlay.colour, stroke_width=s * 0.14, linecap="round", linejoin="round", opacity=0.9)
    for path in overlay.paths:
        hexes = [Hex(*h) for h in path]
        if not hexes:
            continue
        pts = route_polyline(layout, hexes)
        group: list[Item] = []
        if len(pts) > 1:
            group.append(Polyline(points=tuple(pts), style=path_style, layer="overlays"))
            group.append(_arrow_head(pts[-2], pts[-1], s, overlay.colour))
        group.append(
            Circle(
                cx=pts[0][0],
                cy=pts[0][1],
                r=s * 0.14,
                style=Style(fill="#ffffff", stroke=overlay.colour, stroke_width=s * 0.07),
                layer="overlays",
            )
        )
        scene.add(
            Group(
                items=tuple(group),
                layer="overlays",
                cls="overlay-path",
                data=(*kind, ("hexes", " ".join(_safe_label(h) for h in hexes))),
            )
        )
    scene.extend(labels)


def _arrow_head(a: Point, b: Point, s: float, colour: str) -> Polygon:
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = math.hypot(dx, dy) or 1.0
    ux, uy = dx / n, dy / n
    length, half = s * 0.42, s * 0.24
    tip = (b[0] + ux * s * 0.1, b[1] + uy * s * 0.1)
    base = (tip[0] - ux * length, tip[1] - uy * length)
    return Polygon(
        points=(tip, (base[0] - uy * half, base[1] + ux * half), (base[0] + uy * half, base[1] - ux * half)),
        style=Style(fill=colour, stroke="#ffffff", stroke_width=s * 0.03, linejoin="round"),
        layer="overlays",
        cls="overlay-arrow",
    )


def _darker(colour: str, factor: float = 0.6) -> str:
    if len(colour) == 7 and colour.startswith("#"):
        try:
            r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
        except ValueError:
            return colour
        return "#{:02x}{:02x}{:02x}".format(*(int(c * factor) for c in (r, g, b)))
    return colour


def _safe_label(h: Hex) -> str:
    try:
        return h.label
    except ValueError:
        return f"{h.q},{h.r}"


# -- legend --------------------------------------------------------------------------------
def _legend(
    scenario: Scenario, position: Position | None, overlays: Sequence[Overlay], s: float, width: float, palette: Palette
) -> tuple[list[Item], float]:
    """The strip above the map: title and game status, then the terrain key and symbols."""
    L = "legend"
    pad = s * 0.5
    font = s * 0.28
    title_size = s * 0.62
    row1 = pad + title_size * 0.85
    items: list[Item] = []
    items.append(
        Text(
            x=pad,
            y=row1,
            text=scenario.name.upper(),
            size=title_size,
            anchor="start",
            weight="bold",
            family="serif",
            letter_spacing=s * 0.03,
            style=Style(fill=palette.ink),
            layer=L,
            cls="title",
        )
    )
    sub_x = pad + text_width(scenario.name.upper(), title_size, bold=True) * 1.02 + len(scenario.name) * s * 0.03 + pad
    items.append(
        Text(
            x=sub_x,
            y=row1,
            text="Eritrea, January - April 1941",
            size=s * 0.3,
            anchor="start",
            italic=True,
            family="serif",
            style=Style(fill=palette.ink, opacity=0.75),
            layer=L,
            cls="subtitle",
        )
    )
    if position is not None:
        turn_info = scenario.info.turns[position.turn - 1]
        status = (
            f"Turn {position.turn} (week of {turn_info.week_of})"
            f"{' · replacement turn' if turn_info.replacement else ''} · {position.side.adjective} "
            f"{position.phase.value} phase · Allied VP {position.allied_vp()} of {scenario.total_vp} · "
            f"{scenario.victory_level(position.allied_vp())}"
        )
        items.append(
            Text(
                x=width - pad,
                y=row1,
                text=status,
                size=s * 0.3,
                anchor="end",
                weight="bold",
                style=Style(fill=palette.ink),
                layer=L,
                cls="status",
            )
        )

    # key entries: (drawing function, label); each entry is a sample s wide and a label
    entries: list[tuple[list[Shape], str, float]] = []

    def sample_width() -> float:
        return s * 0.8

    for t in scenario.terrain_key.terrain:
        entries.append(
            (
                [
                    Polygon(
                        points=hex_polygon(Layout(s * 0.3), Hex(0, 0)),
                        style=Style(fill=t.colour, stroke=palette.grid, stroke_width=s * 0.03),
                        layer=L,
                    )
                ],
                t.name,
                sample_width(),
            )
        )
    mixed: list[Shape] = [
        Polygon(
            points=hex_polygon(Layout(s * 0.3), Hex(0, 0)),
            style=Style(fill=scenario.terrain_key.terrain[0].colour, stroke=palette.grid, stroke_width=s * 0.03),
            layer=L,
        ),
        Polygon(
            points=hex_polygon(Layout(s * 0.18), Hex(0, 0)),
            style=Style(fill=scenario.terrain_key.terrain[min(1, len(scenario.terrain_key.terrain) - 1)].colour),
            layer=L,
        ),
    ]
    entries.append((mixed, "Mixed hex", sample_width()))
    half = s * 0.35

    def line(style: Style) -> list[Shape]:
        return [Polyline(points=((-half, 0.0), (half, 0.0)), style=style, layer=L)]

    entries.append((line(Style(stroke=palette.road, stroke_width=s * 0.1, linecap="round")), "Road", s))
    entries.append(
        (line(Style(stroke=palette.track, stroke_width=s * 0.085, dash=(0.001, s * 0.2), linecap="round")), "Track", s)
    )
    entries.append((line(Style(stroke=palette.river, stroke_width=s * 0.11, linecap="round")), "River (hexside)", s))
    entries.append((line(Style(stroke=palette.allied_edge, stroke_width=s * 0.2)), "Allied supply edge", s))
    entries.append(
        (line(Style(stroke=palette.area_line, stroke_width=s * 0.075, dash=(s * 0.26, s * 0.14))), "Garrison area", s)
    )
    entries.append((town_symbol(TownKind.CITY, 0, 0, s, palette, layer=L), "City (VP)", sample_width()))
    entries.append((town_symbol(TownKind.TOWN, 0, 0, s, palette, layer=L), "Town (VP)", sample_width()))
    entries.append((town_symbol(TownKind.VILLAGE, 0, 0, s, palette, layer=L), "Village (VP)", sample_width()))
    entries.append((letter_badge("A", 0, 0, s, palette, layer=L), "Setup letter", sample_width()))
    entries.append((hut(0, s * 0.06, s, palette, layer=L), "Native village", sample_width()))
    entries.append((supply_badge(0, 0, s, palette.supply["italian"], layer=L), "Italian supply source", sample_width()))
    entries.append((control_flag(-s * 0.06, s * 0.2, s, palette, layer=L), "Allied control", sample_width()))
    for ov in overlays:
        if ov.hexes or not ov.paths:
            entries.append(
                (
                    [
                        Polygon(
                            points=hex_polygon(Layout(s * 0.3), Hex(0, 0)),
                            style=Style(fill=ov.colour, opacity=max(ov.opacity, 0.35)),
                            layer=L,
                        )
                    ],
                    ov.title or ov.kind,
                    sample_width(),
                )
            )
        else:
            entries.append(
                (
                    line(Style(stroke=ov.colour, stroke_width=s * 0.14, linecap="round", opacity=0.9)),
                    ov.title or ov.kind,
                    s,
                )
            )

    x = pad
    row_h = s * 0.62
    y = row1 + pad * 0.6 + row_h * 0.5
    for shapes, label, w in entries:
        need = w + text_width(label, font) + s * 0.45
        if x + need > width - pad and x > pad:
            x = pad
            y += row_h
        ox, oy = x + w / 2, y
        items.append(
            Group(
                items=tuple(_moved(shape, ox, oy) for shape in shapes),
                layer=L,
                cls="key-sample",
                data=(("key", label),),
            )
        )
        items.append(
            Text(
                x=x + w + s * 0.05,
                y=y + font * 0.36,
                text=label,
                size=font,
                anchor="start",
                style=Style(fill=palette.ink),
                layer=L,
                cls="key-label",
            )
        )
        x += need
    height = y + row_h * 0.5 + pad * 0.5
    items.insert(0, Rect(x=0, y=0, width=width, height=height, style=Style(fill="#e8dec3"), layer=L, cls="key-strip"))
    items.insert(
        1,
        Polyline(
            points=((0, height), (width, height)), style=Style(stroke=palette.ink, stroke_width=s * 0.04), layer=L
        ),
    )
    return items, height


def _moved(shape: Shape, dx: float, dy: float) -> Shape:
    """A copy of a shape drawn around the origin, moved to ``(dx, dy)``."""
    from dataclasses import replace

    def pts(points: tuple[Point, ...]) -> tuple[Point, ...]:
        return tuple((x + dx, y + dy) for x, y in points)

    if isinstance(shape, Polygon | Polyline):
        return replace(shape, points=pts(shape.points))
    if isinstance(shape, Region):
        return replace(shape, rings=tuple(pts(r) for r in shape.rings))
    if isinstance(shape, Circle):
        return replace(shape, cx=shape.cx + dx, cy=shape.cy + dy)
    if isinstance(shape, Rect):
        return replace(shape, x=shape.x + dx, y=shape.y + dy)
    return replace(shape, x=shape.x + dx, y=shape.y + dy)
