"""Drawing primitives of the scene model: small frozen dataclasses every back-end understands.

Coordinates are absolute pixels (no transforms), so a back-end draws each item as it comes.
Each item carries a :class:`Style`, the name of its ``layer`` and optional semantic tags:
``cls`` (a class name such as ``"hex"`` or ``"counter"``) and ``data`` (key/value pairs such as
``("hex", "0712")``).  The SVG back-end writes them as ``class`` and ``data-*`` attributes; an
interactive back-end can use them for hit testing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Point = tuple[float, float]
Data = tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class Style:
    """How an item is painted.  ``None`` means no fill / no stroke.  Hashable, so items can be
    grouped by style and drawn in one batch."""

    fill: str | None = None
    stroke: str | None = None
    stroke_width: float = 0.0
    opacity: float = 1.0
    dash: tuple[float, ...] | None = None
    linecap: Literal["butt", "round", "square"] = "butt"
    linejoin: Literal["miter", "round", "bevel"] = "miter"


NO_STYLE = Style()


@dataclass(frozen=True, slots=True, kw_only=True)
class Polygon:
    points: tuple[Point, ...]
    style: Style = NO_STYLE
    layer: str = "features"
    cls: str = ""
    data: Data = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Region:
    """One or more closed rings filled with the even-odd rule (a region with holes)."""

    rings: tuple[tuple[Point, ...], ...]
    style: Style = NO_STYLE
    layer: str = "features"
    cls: str = ""
    data: Data = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Polyline:
    points: tuple[Point, ...]
    style: Style = NO_STYLE
    layer: str = "features"
    cls: str = ""
    data: Data = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Circle:
    cx: float
    cy: float
    r: float
    style: Style = NO_STYLE
    layer: str = "features"
    cls: str = ""
    data: Data = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Rect:
    x: float
    y: float
    width: float
    height: float
    rx: float = 0.0
    style: Style = NO_STYLE
    layer: str = "features"
    cls: str = ""
    data: Data = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Text:
    """A line of text.  ``y`` is the baseline; ``anchor`` aligns ``x`` to the start, middle or
    end.  ``halo`` paints a stroke of that colour under the glyphs, as printed maps do for
    labels over busy terrain."""

    x: float
    y: float
    text: str
    size: float
    anchor: Literal["start", "middle", "end"] = "middle"
    weight: Literal["normal", "bold"] = "normal"
    italic: bool = False
    family: Literal["sans-serif", "serif"] = "sans-serif"
    letter_spacing: float = 0.0
    rotate: float = 0.0  # degrees, about (x, y)
    halo: str | None = None
    halo_width: float = 0.0
    style: Style = NO_STYLE
    layer: str = "features"
    cls: str = ""
    data: Data = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Group:
    """Items that belong together, such as one counter (``cls="counter"``)."""

    items: tuple[Item, ...]
    layer: str = "counters"
    cls: str = ""
    data: Data = ()
    opacity: float = 1.0


Shape = Polygon | Region | Polyline | Circle | Rect | Text
Item = Shape | Group
