"""Overlays (reach, ZoC, supply, threats, the hexes where two lines differ) drawn as scene
items on top of the map."""

from __future__ import annotations

import math

from cheren.engine.position import Position
from cheren.hexes import Hex, Layout
from cheren.render.geometry import (
    Point,
    hex_polygon,
    route_polyline,
)
from cheren.render.primitives import (
    Circle,
    Group,
    Item,
    Polygon,
    Polyline,
    Shape,
    Style,
    Text,
)
from cheren.study.overlays import Overlay


def overlay_items(layout: Layout, overlay: Overlay, position: Position | None) -> list[Item]:
    """One overlay as ``overlays``-layer items: translucent hex fills with their labels, then its
    paths drawn through hex centres with an arrow at the end."""
    items: list[Item] = []
    s = layout.size
    occupied = set(position.stacks()) if position is not None else set()
    fill = Style(fill=overlay.colour, opacity=overlay.opacity)
    kind = (("kind", overlay.kind),)
    labels: list[Shape] = []
    for h, label in overlay.hexes.items():
        hx = Hex(*h) if not isinstance(h, Hex) else h
        name = _safe_label(hx)
        items.append(
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
        items.append(
            Group(
                items=tuple(group),
                layer="overlays",
                cls="overlay-path",
                data=(*kind, ("hexes", " ".join(_safe_label(h) for h in hexes))),
            )
        )
    items.extend(labels)
    return items


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
