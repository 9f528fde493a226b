"""Counters drawn as printed wargame counters: coloured square, NATO unit-type symbol, size
mark, designation and strength-movement values, plus the markers the rules put on them."""

from __future__ import annotations

from collections.abc import Sequence

from cheren.engine.position import Supply, UnitState
from cheren.render.geometry import ellipse_points, text_width
from cheren.render.palette import Palette
from cheren.render.primitives import Circle, Group, Item, Polygon, Polyline, Rect, Shape, Style, Text
from cheren.scenario.compiled import Step, UnitDef
from cheren.scenario.models import Counter, UnitSize

SIZE_MARKS: dict[UnitSize, str] = {
    UnitSize.BRIGADE: "X",
    UnitSize.REGIMENT: "III",
    UnitSize.BATTALION: "II",
    UnitSize.SQUADRON: "I",
    UnitSize.NONE: "",
}

LAYER = "counters"


def counter_side(hex_size: float) -> float:
    """A counter is about three quarters of the hex's flat-to-flat width."""
    return hex_size * 1.732 * 0.75


def unit_symbol(symbol: str, x: float, y: float, w: float, h: float, ink: str, body: str) -> list[Shape]:
    """The NATO symbol of a unit type inside the box ``(x, y, w, h)``: the box itself first."""
    lw = max(0.6, w * 0.055)
    line = Style(stroke=ink, stroke_width=lw, linecap="round", linejoin="round")
    solid = Style(fill=ink)
    out: list[Shape] = [Rect(x=x, y=y, width=w, height=h, style=Style(stroke=ink, stroke_width=lw), layer=LAYER)]
    cx, cy = x + w / 2, y + h / 2

    def cross() -> None:
        out.append(Polyline(points=((x, y), (x + w, y + h)), style=line, layer=LAYER))
        out.append(Polyline(points=((x, y + h), (x + w, y)), style=line, layer=LAYER))

    def oval(scale: float = 1.0) -> None:
        ow, oh = w * 0.62 * scale, h * 0.5 * scale
        out.append(Rect(x=cx - ow / 2, y=cy - oh / 2, width=ow, height=oh, rx=oh / 2, style=line, layer=LAYER))

    if symbol == "infantry":
        cross()
    elif symbol == "cavalry":
        out.append(Polyline(points=((x, y + h), (x + w, y)), style=line, layer=LAYER))
    elif symbol == "tank":
        oval()
    elif symbol == "motorized_infantry":
        cross()
        # wheels under the box: motorized
        r = h * 0.09
        for fx in (0.3, 0.7):
            out.append(Circle(cx=x + w * fx, cy=y + h + r * 1.2, r=r, style=solid, layer=LAYER))
    elif symbol == "artillery":
        out.append(Circle(cx=cx, cy=cy, r=h * 0.17, style=solid, layer=LAYER))
    elif symbol == "motorized_artillery":
        oval(0.9)
        out.append(Circle(cx=cx, cy=cy, r=h * 0.12, style=solid, layer=LAYER))
    elif symbol == "mountain":
        cross()
        out.append(
            Polygon(
                points=((cx - w * 0.17, y + h), (cx, y + h * 0.55), (cx + w * 0.17, y + h)),
                style=solid,
                layer=LAYER,
            )
        )
    elif symbol == "naval":
        # an anchor: shank, stock and fluke arc
        top, bottom = y + h * 0.18, y + h * 0.82
        out.append(Polyline(points=((cx, top), (cx, bottom)), style=line, layer=LAYER))
        out.append(
            Polyline(points=((cx - w * 0.1, top + h * 0.14), (cx + w * 0.1, top + h * 0.14)), style=line, layer=LAYER)
        )
        arc = [p for p in ellipse_points(cx, bottom - h * 0.3, w * 0.2, h * 0.3, 16) if p[1] >= bottom - h * 0.31]
        arc.sort(key=lambda p: p[0])
        out.append(Polyline(points=tuple(arc), style=line, layer=LAYER))
    elif symbol == "commando":
        # a dagger, point up
        blade = ((cx, y + h * 0.1), (cx + w * 0.05, y + h * 0.62), (cx - w * 0.05, y + h * 0.62))
        out.append(Polygon(points=blade, style=solid, layer=LAYER))
        gy = y + h * 0.64
        out.append(Polyline(points=((cx - w * 0.14, gy), (cx + w * 0.14, gy)), style=line, layer=LAYER))
        out.append(Polyline(points=((cx, gy), (cx, y + h * 0.9)), style=line, layer=LAYER))
    elif symbol == "air":
        # a propeller: two blades meeting at the hub
        bw, bh = w * 0.19, h * 0.2
        out.append(Polygon(points=ellipse_points(cx - bw, cy, bw, bh, 14), style=solid, layer=LAYER))
        out.append(Polygon(points=ellipse_points(cx + bw, cy, bw, bh, 14), style=solid, layer=LAYER))
    else:
        out.append(Text(x=cx, y=cy + h * 0.2, text="?", size=h * 0.6, style=solid, layer=LAYER))
    return out


def counter_group(
    unit: UnitDef,
    state: UnitState,
    step: Step,
    shown: Counter,
    cx: float,
    cy: float,
    side: float,
    palette: Palette,
    *,
    strength: int | None = None,
    movement: int | None = None,
    badge: int = 0,
    level: int = 0,
) -> Group:
    """One counter centred on ``(cx, cy)`` with edge length ``side``.

    ``shown`` is the physical counter showing (the brigade's replacement counter once the
    brigade has lost two steps).  ``badge`` > 1 writes the number of units in the stack on the counter's corner;
    ``strength``/``movement`` override the step values (a defected native's back); ``level``
    is the counter's place in its stack, 0 at the bottom.
    """
    s = side
    x0, y0 = cx - s / 2, cy - s / 2
    counter = unit.counter
    counter_shown = shown
    body = palette.counter.get(counter_shown.colour, "#777777")
    ink = palette.counter_ink.get(counter_shown.colour, "#ffffff")
    sp = step.sp if strength is None else strength
    mp = step.mp if movement is None else movement
    items: list[Item] = []

    # shadow, body and a thin bevel line: a die-cut counter on the map
    items.append(
        Rect(
            x=x0 + s * 0.05,
            y=y0 + s * 0.06,
            width=s,
            height=s,
            rx=s * 0.09,
            style=Style(fill="#000000", opacity=0.35),
            layer=LAYER,
            cls="shadow",
        )
    )
    items.append(
        Rect(
            x=x0,
            y=y0,
            width=s,
            height=s,
            rx=s * 0.09,
            style=Style(fill=body, stroke="#1d1a15", stroke_width=max(0.6, s * 0.025)),
            layer=LAYER,
            cls="body",
        )
    )
    items.append(
        Rect(
            x=x0 + s * 0.05,
            y=y0 + s * 0.05,
            width=s * 0.9,
            height=s * 0.9,
            rx=s * 0.06,
            style=Style(stroke=ink, stroke_width=max(0.4, s * 0.012), opacity=0.35),
            layer=LAYER,
        )
    )

    # the flipped (reduced) face: a grey bar across the top (11.6)
    if step.face == 1:
        items.append(
            Rect(
                x=x0 + s * 0.025,
                y=y0 + s * 0.05,
                width=s * 0.95,
                height=s * 0.17,
                style=Style(fill=palette.reduced_bar, opacity=0.95),
                layer=LAYER,
                cls="reduced-bar",
            )
        )

    # native units: a bar in the colour of the side they fight for (6.0)
    if unit.is_native:
        colour = palette.allegiance["allied" if state.defected else "italian"]
        items.append(
            Rect(
                x=x0 + s * 0.025,
                y=y0 + s * 0.1,
                width=s * 0.12,
                height=s * 0.8,
                style=Style(fill=colour),
                layer=LAYER,
                cls="allegiance-allied" if state.defected else "allegiance-italian",
            )
        )

    # size mark above the symbol box
    mark = SIZE_MARKS.get(counter_shown.size, "")
    box_w, box_h = s * 0.46, s * 0.29
    box_x, box_y = cx - box_w / 2, y0 + s * 0.25
    if mark:
        items.append(
            Text(
                x=cx,
                y=box_y - s * 0.035,
                text=mark,
                size=s * 0.15,
                weight="bold",
                letter_spacing=s * 0.01 if mark.startswith("I") else 0.0,
                style=Style(fill="#1d1a15" if step.face == 1 else ink),
                layer=LAYER,
                cls="size",
            )
        )
    items.extend(unit_symbol(unit.type.symbol, box_x, box_y, box_w, box_h, ink, body))

    # the replacement counter's white dot (11.6)
    if step.counter != counter.id:
        items.append(
            Circle(
                cx=x0 + s * 0.14,
                cy=box_y + box_h / 2,
                r=s * 0.065,
                style=Style(fill="#ffffff", stroke="#1d1a15", stroke_width=max(0.4, s * 0.015)),
                layer=LAYER,
                cls="replacement-dot",
            )
        )

    # designation, small, under the box
    name = counter_shown.name
    name_size = min(s * 0.135, s * 0.88 / max(text_width(name, 1.0), 1.0))
    items.append(
        Text(
            x=cx,
            y=box_y + box_h + s * 0.155,
            text=name,
            size=name_size,
            style=Style(fill=ink),
            layer=LAYER,
            cls="designation",
        )
    )
    # strength-movement
    items.append(
        Text(
            x=cx,
            y=y0 + s * 0.92,
            text=f"{sp}-{mp}",
            size=s * 0.25,
            weight="bold",
            style=Style(fill=ink),
            layer=LAYER,
            cls="values",
        )
    )
    # stacking value if not 1 (3.0)
    if counter_shown.stack != 1:
        items.append(
            Text(
                x=x0 + s * 0.9,
                y=y0 + s * 0.2,
                text=str(counter_shown.stack),
                size=s * 0.14,
                anchor="end",
                weight="bold",
                style=Style(fill="#1d1a15" if step.face == 1 else ink),
                layer=LAYER,
                cls="stack-value",
            )
        )
    # Low / No supply marker (12.4)
    if state.supply is not None:
        low = state.supply is Supply.LOW
        tw, th = s * (0.5 if low else 0.4), s * 0.22
        tx, ty = x0 + s - tw * 0.7, y0 + s - th * 0.55
        items.append(
            Rect(
                x=tx,
                y=ty,
                width=tw,
                height=th,
                rx=s * 0.03,
                style=Style(
                    fill=palette.low_supply if low else palette.no_supply,
                    stroke="#1d1a15",
                    stroke_width=max(0.4, s * 0.015),
                ),
                layer=LAYER,
                cls="supply-low" if low else "supply-no",
            )
        )
        items.append(
            Text(
                x=tx + tw / 2,
                y=ty + th * 0.78,
                text="LOW" if low else "NO",
                size=th * 0.78,
                weight="bold",
                style=Style(fill="#1d1a15" if low else "#ffffff"),
                layer=LAYER,
            )
        )
    # number of units in the stack
    if badge > 1:
        r = s * 0.13
        bx, by = x0 + s + r * 0.2, y0 - r * 0.2
        items.append(
            Circle(
                cx=bx,
                cy=by,
                r=r,
                style=Style(fill="#fdfaf2", stroke="#1d1a15", stroke_width=max(0.5, s * 0.02)),
                layer=LAYER,
                cls="stack-badge",
            )
        )
        items.append(
            Text(
                x=bx,
                y=by + r * 0.45,
                text=str(badge),
                size=r * 1.25,
                weight="bold",
                style=Style(fill="#1d1a15"),
                layer=LAYER,
                cls="stack-count",
            )
        )
    data = (
        ("unit", unit.id),
        ("hex", state.hex.label if state.hex is not None else ""),
        ("side", state.side.value),
        ("step", str(state.steps_lost)),
        ("level", str(level)),
    )
    return Group(items=tuple(items), layer=LAYER, cls="counter", data=data)


def stack_offsets(n: int, side: float) -> Sequence[tuple[float, float]]:
    """Offsets of the counters of a stack from the hex centre, bottom one first: each counter
    sits up and to the right of the one below.  The bottom counter keeps its foot where a lone
    counter's is, so the town name under it stays readable; the stack centres sideways."""
    if n <= 1:
        return [(0.0, 0.0)]
    step = min(side * 0.08, side * 0.3 / (n - 1))
    total = step * (n - 1)
    return [(-total / 2 + i * step, -i * step) for i in range(n)]
