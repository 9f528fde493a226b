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
from cheren.hexes import Hex, Layout
from cheren.render.counters import counter_group, counter_side, stack_offsets
from cheren.render.geometry import (
    Point,
    bounds,
    hex_polygon,
)
from cheren.render.legend import legend_items
from cheren.render.map_features import feature_items
from cheren.render.overlay_items import overlay_items
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
from cheren.render.symbols import terrain_glyph
from cheren.scenario.compiled import Scenario
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
    key_items, key_height = legend_items(scenario, position, overlays or (), s, width, palette) if legend else ([], 0.0)
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
    scene.extend(feature_items(layout, scenario, position, palette))
    if position is not None:
        _counters(scene, scenario, position, palette)
    for overlay in overlays or ():
        scene.extend(overlay_items(layout, overlay, position))
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
