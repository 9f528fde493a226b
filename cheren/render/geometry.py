"""Pixel geometry for the map: hex outlines, hexside segments, region borders and route lines.

Pure functions of a :class:`~cheren.hexes.Layout` and hexes, so they can be unit tested and
shared by every back-end.  Points are ``(x, y)`` in pixels, y growing downwards.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Sequence

from cheren.hexes import DIRECTIONS, SQRT3, Hex, Hexside, Layout

Point = tuple[float, float]
Segment = tuple[Point, Point]

# Unit-size corner offsets of a flat-topped hex, corner k at 60k degrees (see Layout.corners).
_UNIT_CORNERS: tuple[Point, ...] = tuple((math.cos(math.pi / 3 * k), math.sin(math.pi / 3 * k)) for k in range(6))


def hex_polygon(layout: Layout, h: Hex, scale: float = 1.0) -> tuple[Point, ...]:
    """The six corners of a hex (E, lower right, lower left, W, upper left, upper right),
    optionally shrunk towards the centre by ``scale``."""
    cx, cy = layout.to_pixel(h)
    r = layout.size * scale
    return tuple((cx + r * ux, cy + r * uy) for ux, uy in _UNIT_CORNERS)


def hexside_segment(layout: Layout, side: Hexside) -> Segment:
    """The shared edge of two adjacent hexes, as its two corner points."""
    return layout.hexside_segment(side)


def centre_segment(layout: Layout, side: Hexside) -> Segment:
    """The segment joining the centres of the two hexes of a hexside (how roads are drawn)."""
    return layout.to_pixel(side.a), layout.to_pixel(side.b)


def outward_sides(hexes: Collection[Hex], inside: Collection[Hex] | None = None) -> list[Hexside]:
    """Hexsides between a hex of ``hexes`` and a neighbour outside ``inside`` (default:
    outside ``hexes``): the border of a region, or, with ``inside`` the whole map, the edges of
    border hexes that face off the map.  The outside neighbour may be a hex off the grid."""
    within = hexes if inside is None else inside
    out: list[Hexside] = []
    for h in hexes:
        for dq, dr in DIRECTIONS:
            n = Hex(h.q + dq, h.r + dr)
            if n not in within:
                out.append(Hexside.between(h, n))
    return out


def _key(p: Point) -> tuple[int, int]:
    return (round(p[0] * 100), round(p[1] * 100))


def join_segments(segments: Iterable[Segment]) -> list[list[Point]]:
    """Chain segments that share end points into polylines (a closed loop repeats its first
    point at the end).  Dashes and line joins then run smoothly along a river or a border.
    Where three or more segments meet, the chain stops and a new one starts."""
    segs = list(segments)
    ends: dict[tuple[int, int], list[int]] = {}
    for i, (a, b) in enumerate(segs):
        ends.setdefault(_key(a), []).append(i)
        ends.setdefault(_key(b), []).append(i)
    used = [False] * len(segs)

    def walk(start: Point, first: int) -> list[Point]:
        line = [start]
        current, index = start, first
        while True:
            used[index] = True
            a, b = segs[index]
            nxt = b if _key(a) == _key(current) else a
            line.append(nxt)
            candidates = [j for j in ends[_key(nxt)] if not used[j]]
            if len(ends[_key(nxt)]) != 2 or not candidates:
                return line
            current, index = nxt, candidates[0]

    lines: list[list[Point]] = []
    # Open chains first, from an end point that is not shared by exactly two segments.
    for i, (a, b) in enumerate(segs):
        if used[i]:
            continue
        for p in (a, b):
            if len(ends[_key(p)]) != 2:
                lines.append(walk(p, i))
                break
    # What is left are closed loops.
    for i, (a, _b) in enumerate(segs):
        if not used[i]:
            lines.append(walk(a, i))
    return lines


def route_polyline(layout: Layout, hexes: Sequence[Hex]) -> list[Point]:
    """A road or track drawn through the centres of its hexes."""
    return [layout.to_pixel(h) for h in hexes]


def region_centre(layout: Layout, hexes: Collection[Hex]) -> Hex:
    """The hex of a region nearest the centroid of its hexes (where to write its name)."""
    pts = [layout.to_pixel(h) for h in hexes]
    mx = sum(p[0] for p in pts) / len(pts)
    my = sum(p[1] for p in pts) / len(pts)
    return min(hexes, key=lambda h: (math.dist(layout.to_pixel(h), (mx, my)), h))


def bounds(layout: Layout, hexes: Iterable[Hex]) -> tuple[float, float, float, float]:
    """(min_x, min_y, max_x, max_y) of the corners of the hexes."""
    half_h = layout.size * SQRT3 / 2
    xs: list[float] = []
    ys: list[float] = []
    for h in hexes:
        x, y = layout.to_pixel(h)
        xs.extend((x - layout.size, x + layout.size))
        ys.extend((y - half_h, y + half_h))
    if not xs:
        return (0.0, 0.0, 0.0, 0.0)
    return (min(xs), min(ys), max(xs), max(ys))


def ellipse_points(cx: float, cy: float, rx: float, ry: float, n: int = 16) -> tuple[Point, ...]:
    return tuple((cx + rx * math.cos(2 * math.pi * k / n), cy + ry * math.sin(2 * math.pi * k / n)) for k in range(n))


def text_width(text: str, size: float, bold: bool = False) -> float:
    """A rough width of a line of text in a generic sans-serif face (no font metrics needed)."""
    narrow = sum(1 for c in text if c in "il.,:;'|!()1 ")
    wide = sum(1 for c in text if c in "MWmw")
    upper = sum(1 for c in text if c.isupper())
    n = len(text) - narrow * 0.45 + wide * 0.3 + upper * 0.2
    return n * size * (0.6 if bold else 0.55)
