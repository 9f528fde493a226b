"""Map symbols shared by the map and its legend: towns, the city, native villages, setup
letters, control markers, supply sources and terrain glyphs.  Each returns primitives placed
around a point, scaled by the hex size ``s``."""

from __future__ import annotations

from cheren.render.palette import Palette
from cheren.render.primitives import Circle, Data, Polygon, Polyline, Rect, Shape, Style, Text
from cheren.scenario.models import TownKind


def town_symbol(
    kind: TownKind, x: float, y: float, s: float, palette: Palette, *, layer: str = "features", data: Data = ()
) -> list[Shape]:
    ink = palette.town
    if kind is TownKind.CITY:
        a = s * 0.46
        return [
            Rect(
                x=x - a / 2,
                y=y - a / 2,
                width=a,
                height=a,
                style=Style(fill="#f7f1df", stroke=ink, stroke_width=s * 0.07),
                layer=layer,
                cls="city",
                data=data,
            ),
            Rect(x=x - a * 0.22, y=y - a * 0.22, width=a * 0.44, height=a * 0.44, style=Style(fill=ink), layer=layer),
        ]
    if kind is TownKind.VILLAGE:
        return [
            Circle(
                cx=x,
                cy=y,
                r=s * 0.13,
                style=Style(fill=ink, stroke="#f7f1df", stroke_width=s * 0.03),
                layer=layer,
                cls="village",
                data=data,
            )
        ]
    a = s * 0.3
    return [
        Rect(
            x=x - a / 2,
            y=y - a / 2,
            width=a,
            height=a,
            style=Style(fill=ink, stroke="#f7f1df", stroke_width=s * 0.03),
            layer=layer,
            cls="town",
            data=data,
        )
    ]


def hut(x: float, y: float, s: float, palette: Palette, *, layer: str = "features", data: Data = ()) -> list[Shape]:
    """A native village: a round hut with a conical roof."""
    w = s * 0.3
    roof = ((x - w * 0.62, y), (x, y - w * 0.62), (x + w * 0.62, y))
    return [
        Rect(
            x=x - w * 0.42,
            y=y - w * 0.02,
            width=w * 0.84,
            height=w * 0.42,
            style=Style(fill="#e9d7a8", stroke=palette.village_hut, stroke_width=s * 0.035),
            layer=layer,
            cls="native-village",
            data=data,
        ),
        Polygon(
            points=roof,
            style=Style(fill=palette.village_hut, stroke=palette.village_hut, stroke_width=s * 0.02, linejoin="round"),
            layer=layer,
        ),
    ]


def letter_badge(
    letter: str, x: float, y: float, s: float, palette: Palette, *, layer: str = "features", data: Data = ()
) -> list[Shape]:
    """A setup letter (5.0) in a small circle."""
    r = s * 0.15
    return [
        Circle(
            cx=x,
            cy=y,
            r=r,
            style=Style(fill="#fdfaf0", stroke=palette.ink, stroke_width=s * 0.03),
            layer=layer,
            cls="setup-letter",
            data=data,
        ),
        Text(x=x, y=y + r * 0.45, text=letter, size=r * 1.3, weight="bold", style=Style(fill=palette.ink), layer=layer),
    ]


def control_flag(
    x: float, y: float, s: float, palette: Palette, *, layer: str = "features", data: Data = ()
) -> list[Shape]:
    """An allied Control marker (2.1): a red pennant on a pole, ``(x, y)`` the foot of the pole."""
    h = s * 0.42
    return [
        Polyline(
            points=((x, y), (x, y - h)),
            style=Style(stroke=palette.ink, stroke_width=s * 0.035, linecap="round"),
            layer=layer,
        ),
        Polygon(
            points=((x, y - h), (x + s * 0.26, y - h * 0.78), (x, y - h * 0.56)),
            style=Style(fill=palette.control, stroke=palette.ink, stroke_width=s * 0.015, linejoin="round"),
            layer=layer,
            cls="control",
            data=data,
        ),
    ]


def supply_badge(x: float, y: float, s: float, colour: str, *, layer: str = "features", data: Data = ()) -> list[Shape]:
    """A supply source: a small disc in the side's colour with an S."""
    r = s * 0.115
    return [
        Circle(
            cx=x,
            cy=y,
            r=r,
            style=Style(fill=colour, stroke="#fdfaf0", stroke_width=s * 0.025),
            layer=layer,
            cls="supply-source",
            data=data,
        ),
        Text(x=x, y=y + r * 0.45, text="S", size=r * 1.3, weight="bold", style=Style(fill="#ffffff"), layer=layer),
    ]


def terrain_glyph(key: str, x: float, y: float, s: float, colour: str, *, layer: str = "terrain") -> list[Shape]:
    """Small printed marks that help tell terrain apart beyond its colour (mountain peaks,
    hill bumps, rough dots).  Empty for other terrain."""
    style = Style(stroke=colour, stroke_width=s * 0.035, linecap="round", linejoin="round", opacity=0.55)
    if key == "mountain":
        w = s * 0.16
        return [
            Polyline(
                points=(
                    (x - 2.2 * w, y + w * 0.7),
                    (x - w, y - w * 0.7),
                    (x, y + w * 0.2),
                    (x + w, y - w),
                    (x + 2.2 * w, y + w * 0.7),
                ),
                style=style,
                layer=layer,
            )
        ]
    if key == "hills":
        w = s * 0.13
        return [
            Polyline(
                points=(
                    (x - 2 * w, y + w * 0.4),
                    (x - 1.3 * w, y - w * 0.35),
                    (x - 0.6 * w, y + w * 0.4),
                    (x + 0.1 * w, y - w * 0.35),
                    (x + 0.8 * w, y + w * 0.4),
                ),
                style=style,
                layer=layer,
            )
        ]
    if key == "rough":
        d = s * 0.12
        dot = Style(fill=colour, opacity=0.3)
        return [
            Circle(cx=x + dx * d, cy=y + dy * d, r=s * 0.022, style=dot, layer=layer)
            for dx, dy in ((-0.9, 0.3), (0.1, -0.25), (1.0, 0.3))
        ]
    return []
