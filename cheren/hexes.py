"""Flat-topped hex grid: axial coordinates in storage, offset "CCRR" labels for people.

The conventions follow Red Blob Games' hex guide.  Storage is axial ``(q, r)``; distance and
rings use cube maths (``s = -q - r``).  Printed wargame maps number hexes by column and row,
so data files and the UI use four-digit labels ``CCRR`` (1-based).  Columns are "odd-q":
counting from 0, every odd column sits half a hex lower than its neighbours, which is how
column 02, 04, ... look on a map numbered from 01.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from functools import lru_cache
from typing import NamedTuple

SQRT3 = math.sqrt(3.0)


class Hex(NamedTuple):
    """A hex in axial coordinates.  A tuple, so it is hashable, ordered and cheap."""

    q: int
    r: int

    @property
    def s(self) -> int:
        return -self.q - self.r

    # -- offset coordinates and labels -------------------------------------------------
    @property
    def col(self) -> int:
        """0-based offset column."""
        return self.q

    @property
    def row(self) -> int:
        """0-based offset row (odd-q layout)."""
        return self.r + (self.q - (self.q & 1)) // 2

    @property
    def label(self) -> str:
        return hex_label(self)

    @classmethod
    def from_offset(cls, col: int, row: int) -> Hex:
        return cls(col, row - (col - (col & 1)) // 2)

    @classmethod
    def from_label(cls, label: str) -> Hex:
        return parse_label(label)

    # -- neighbours and metrics --------------------------------------------------------
    def neighbour(self, direction: int) -> Hex:
        dq, dr = DIRECTIONS[direction % 6]
        return Hex(self.q + dq, self.r + dr)

    def neighbours(self) -> list[Hex]:
        # Kept per hex: a Hex is made through the named tuple's Python ``__new__`` (compiled or
        # not), and the rules and bots ask a planner game for some 50,000 neighbours.
        found = _NEIGHBOURS.get(self)
        if found is None:
            if len(_NEIGHBOURS) > _NEIGHBOURS_KEPT:
                _NEIGHBOURS.clear()
            q, r = self
            found = _NEIGHBOURS[self] = tuple([Hex(q + dq, r + dr) for dq, dr in DIRECTIONS])
        return list(found)

    def distance(self, other: Hex) -> int:
        dq = self.q - other.q
        dr = self.r - other.r
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def is_adjacent(self, other: Hex) -> bool:
        return self.distance(other) == 1

    def direction_to(self, other: Hex) -> int:
        """Index into DIRECTIONS of an adjacent hex; ValueError if not adjacent."""
        delta = (other.q - self.q, other.r - self.r)
        try:
            return DIRECTIONS.index(delta)
        except ValueError:
            raise ValueError(f"{_lbl(other)} is not adjacent to {_lbl(self)}") from None

    def ring(self, radius: int) -> list[Hex]:
        return ring(self, radius)

    def within(self, radius: int) -> list[Hex]:
        return hex_range(self, radius)

    def __str__(self) -> str:
        try:
            return self.label
        except ValueError:  # off the labelled grid: its coordinates, so any message can show it
            return f"({self.q}, {self.r})"


# Flat-topped axial directions, clockwise from "lower right" (south-east):
# SE, NE, N, NW, SW, S.  The index is used for hexside and vertex geometry below.
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
_NEIGHBOURS: dict[Hex, tuple[Hex, ...]] = {}  # see Hex.neighbours
_NEIGHBOURS_KEPT = 100_000  # far more than any map's hexes: only a caller wandering off-map fills it
DIRECTION_NAMES: tuple[str, ...] = ("SE", "NE", "N", "NW", "SW", "S")


@lru_cache(maxsize=8192)
def hex_label(h: Hex) -> str:
    col, row = h.col + 1, h.row + 1
    if not (0 < col < 100 and 0 < row < 100):
        raise ValueError(f"hex {tuple(h)} has no CCRR label (column {col}, row {row})")
    return f"{col:02d}{row:02d}"


def parse_label(label: str) -> Hex:
    """Parse a four-digit ``CCRR`` label (columns and rows count from 01)."""
    try:
        return _parse_known(label)
    except TypeError:  # not hashable, so not a label either: say so as for any bad label
        return _parse_label(label)


@lru_cache(maxsize=8192)
def _parse_known(label: str) -> Hex:
    # logs and saves name the same few hundred hexes over and over
    return _parse_label(label)


def _parse_label(label: str) -> Hex:
    text = str(label).strip()
    if len(text) != 4 or not all("0" <= ch <= "9" for ch in text):
        raise ValueError(f"hex label {label!r} is not four digits CCRR (for example 0712)")
    col, row = int(text[:2]), int(text[2:])
    if col < 1 or row < 1:
        raise ValueError(f"hex label {label!r}: columns and rows count from 01")
    return Hex.from_offset(col - 1, row - 1)


# -- hexsides ----------------------------------------------------------------------------
class Hexside(NamedTuple):
    """The edge between two adjacent hexes, the same value whichever side it is named from."""

    a: Hex
    b: Hex

    @classmethod
    def between(cls, h1: Hex, h2: Hex) -> Hexside:
        if h1.distance(h2) != 1:
            raise ValueError(f"{_lbl(h1)} and {_lbl(h2)} are not adjacent, so share no hexside")
        return cls(h1, h2) if h1 < h2 else cls(h2, h1)

    @property
    def label(self) -> str:
        return f"{self.a.label}/{self.b.label}"

    def touches(self, other: Hexside) -> bool:
        """True when the two hexsides meet at a vertex (so a river can run from one to the other)."""
        if self == other:
            return False
        hexes = {self.a, self.b, other.a, other.b}
        if len(hexes) != 3:
            return False
        x, y, z = hexes
        return x.is_adjacent(y) and y.is_adjacent(z) and x.is_adjacent(z)


def _lbl(h: Hex) -> str:
    try:
        return h.label
    except ValueError:
        return str(tuple(h))


def parse_hexside(text: str) -> Hexside:
    """Parse ``"CCRR/CCRR"`` (a ``-`` works as the separator too)."""
    raw = str(text).replace("-", "/")
    parts = [p.strip() for p in raw.split("/")]
    if len(parts) != 2:
        raise ValueError(f"hexside {text!r} is not two hex labels like 0712/0713")
    return Hexside.between(parse_label(parts[0]), parse_label(parts[1]))


# -- rings and ranges ------------------------------------------------------------------
def ring(center: Hex, radius: int) -> list[Hex]:
    if radius < 0:
        raise ValueError("radius must be >= 0")
    if radius == 0:
        return [center]
    results: list[Hex] = []
    # Start radius steps in direction 4 (SW) and walk the six sides.
    dq, dr = DIRECTIONS[4]
    h = Hex(center.q + dq * radius, center.r + dr * radius)
    for side in range(6):
        for _ in range(radius):
            results.append(h)
            h = h.neighbour(side)
    return results


def hex_range(center: Hex, radius: int) -> list[Hex]:
    if radius < 0:
        raise ValueError("radius must be >= 0")
    out: list[Hex] = []
    for dq in range(-radius, radius + 1):
        for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
            out.append(Hex(center.q + dq, center.r + dr))
    return out


def line(a: Hex, b: Hex) -> list[Hex]:
    """Hexes on the straight line from a to b (both included), by cube interpolation."""
    n = a.distance(b)
    if n == 0:
        return [a]
    out = []
    for i in range(n + 1):
        t = i / n
        # nudge off exact vertex ties so the line is deterministic
        fq = a.q + (b.q - a.q) * t + 1e-6
        fr = a.r + (b.r - a.r) * t + 1e-6
        out.append(round_axial(fq, fr))
    return out


def round_axial(fq: float, fr: float) -> Hex:
    fs = -fq - fr
    q, r, s = round(fq), round(fr), round(fs)
    dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return Hex(int(q), int(r))


# -- pixel layout ------------------------------------------------------------------------
class Layout(NamedTuple):
    """Flat-topped pixel layout: ``size`` is the centre-to-corner radius, origin the centre of
    axial (0, 0).  ``size * sqrt(3)`` is the distance between neighbouring hex centres."""

    size: float
    origin_x: float = 0.0
    origin_y: float = 0.0

    def to_pixel(self, h: Hex) -> tuple[float, float]:
        x = self.size * 1.5 * h.q
        y = self.size * SQRT3 * (h.r + h.q / 2.0)
        return (x + self.origin_x, y + self.origin_y)

    def from_pixel(self, x: float, y: float) -> Hex:
        px = (x - self.origin_x) / self.size
        py = (y - self.origin_y) / self.size
        fq = 2.0 / 3.0 * px
        fr = -1.0 / 3.0 * px + SQRT3 / 3.0 * py
        return round_axial(fq, fr)

    def corners(self, h: Hex) -> list[tuple[float, float]]:
        cx, cy = self.to_pixel(h)
        return [
            (cx + self.size * math.cos(math.pi / 3 * k), cy + self.size * math.sin(math.pi / 3 * k))
            for k in range(6)
        ]

    def hexside_segment(self, side: Hexside) -> tuple[tuple[float, float], tuple[float, float]]:
        """The two corner points of the shared edge."""
        d = side.a.direction_to(side.b)
        corners = self.corners(side.a)
        # Corner k sits at angle 60k degrees (screen y grows downwards); the edge towards
        # direction d lies between corners CORNER_PAIRS[d].
        i, j = CORNER_PAIRS[d]
        return corners[i], corners[j]


# For each direction index (SE, NE, N, NW, SW, S) the pair of corner indices bounding that edge.
# Corners: 0 = E, 1 = lower right, 2 = lower left, 3 = W, 4 = upper left, 5 = upper right.
CORNER_PAIRS: tuple[tuple[int, int], ...] = ((0, 1), (5, 0), (4, 5), (3, 4), (2, 3), (1, 2))


def grid(columns: int, rows: int) -> Iterator[Hex]:
    """Every hex of a columns x rows offset rectangle, column by column."""
    for col in range(columns):
        for row in range(rows):
            yield Hex.from_offset(col, row)
