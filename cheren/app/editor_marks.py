"""What the position editor draws over the map: every hex at fault outlined (red: not legal,
amber: play would have changed it) with the rule number, and the picked counter's hex."""

from __future__ import annotations

from cheren.app.map_scene import SELECT
from cheren.files import PositionProblem
from cheren.hexes import Hex
from cheren.render.geometry import hex_polygon
from cheren.render.primitives import Item, Polygon, Style, Text
from cheren.render.scene import Scene

PROBLEM = "#c0161b"
WARNING = "#d98b00"


def editor_marks(scene: Scene, problems: list[PositionProblem], picked: Hex | None) -> list[Item]:
    """The picked stack, and every hex at fault outlined (red: not legal, amber: play would
    have changed it) with the rule number, drawn over the counters without hiding them."""
    layout = scene.layout
    s = layout.size
    items: list[Item] = []
    marks: dict[Hex, PositionProblem] = {}
    for p in problems:
        if p.hex is not None and (p.hex not in marks or p.severity == "error"):
            marks[p.hex] = p
    for h, p in sorted(marks.items()):
        colour = PROBLEM if p.severity == "error" else WARNING
        items.append(
            Polygon(
                points=hex_polygon(layout, h, 0.9),
                style=Style(stroke=colour, stroke_width=s * 0.12, linejoin="round", dash=(s * 0.2, s * 0.1)),
                layer="ui",
                cls=f"problem-{p.severity}",
                data=(("hex", h.label), ("rule", p.rule)),
            )
        )
        x, y = layout.to_pixel(h)
        items.append(
            Text(
                x=x,
                y=y - s * 0.62,
                text=p.rule,
                size=s * 0.3,
                weight="bold",
                halo="#ffffff",
                halo_width=s * 0.08,
                style=Style(fill=colour),
                layer="ui",
            )
        )
    if picked is not None:
        items.append(
            Polygon(
                points=hex_polygon(layout, picked, 0.96),
                style=Style(stroke=SELECT, stroke_width=s * 0.12, linejoin="round"),
                layer="ui",
                cls="selection",
                data=(("hex", picked.label),),
            )
        )
    return items
