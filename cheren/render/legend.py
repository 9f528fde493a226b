"""The key strip above the map: the title and the game's status, the terrain key and the
symbols, and a line for each overlay shown."""

from __future__ import annotations

from collections.abc import Sequence

from cheren.engine.position import Position
from cheren.hexes import Hex, Layout
from cheren.render.geometry import (
    Point,
    hex_polygon,
    text_width,
)
from cheren.render.palette import Palette
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
from cheren.render.symbols import control_flag, hut, letter_badge, supply_badge, town_symbol
from cheren.scenario.compiled import Scenario
from cheren.scenario.models import TownKind
from cheren.study.overlays import Overlay


def legend_items(
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
