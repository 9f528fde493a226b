"""The SVG back-end: a standalone SVG document of the map (no external fonts or resources).

``render_svg`` and ``position_svg`` serve the notebooks, the docs and the tests.  Items of the scene keep
their semantic tags as attributes: hexes are ``<polygon class="hex" data-hex="0712">``, counters
``<g class="counter" data-unit="ind_5" data-hex="0712">``, overlays ``class="overlay"``.
Consecutive items that share a style are wrapped in one ``<g>`` carrying that style, which keeps
the document small.
"""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape, quoteattr

from cheren.engine.position import Position
from cheren.render.palette import PALETTE, Palette
from cheren.render.primitives import Circle, Group, Item, Polygon, Polyline, Rect, Region, Style, Text
from cheren.render.scene import DEFAULT_HEX_SIZE, Scene, build_scene
from cheren.scenario.compiled import Scenario
from cheren.study.overlays import Overlay

SVG_NS = "http://www.w3.org/2000/svg"


def render_svg(
    scenario: Scenario,
    position: Position | None = None,
    overlays: Sequence[Overlay] | None = None,
    hex_size: float = DEFAULT_HEX_SIZE,
    *,
    palette: Palette = PALETTE,
    legend: bool = True,
    coordinates: bool = True,
) -> str:
    """The map as a standalone SVG document."""
    scene = build_scene(scenario, position, overlays, hex_size, palette=palette, legend=legend, coordinates=coordinates)
    return scene_to_svg(scene)


def position_svg(position: Position, overlays: Sequence[Overlay] | None = None) -> str:
    """A position on its scenario's map as SVG (``IPython.display.SVG(position_svg(p))`` shows it in a
    notebook); the engine's :class:`Position` knows nothing of drawing."""
    return render_svg(position.scenario, position, overlays)


def scene_to_svg(scene: Scene) -> str:
    w, h = scene.width, scene.height
    out: list[str] = [
        f'<svg xmlns="{SVG_NS}" width="{_n(w)}" height="{_n(h)}" viewBox="0 0 {_n(w)} {_n(h)}" '
        'font-family="sans-serif" class="cheren-map">',
        f"<title>{escape(scene.title)}</title>",
        f'<rect class="paper" x="0" y="0" width="{_n(w)}" height="{_n(h)}" fill="{scene.background}"/>',
    ]
    for name, items in scene.layers.items():
        if not items:
            continue
        out.append(f'<g class="layer" id="layer-{name}">')
        _emit(items, out)
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out)


# -- serialisation -------------------------------------------------------------------------
def _n(v: float) -> str:
    """A number with at most two decimals and no trailing zeros."""
    text = f"{v:.2f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _emit(items: Sequence[Item], out: list[str]) -> None:
    """Write items in order; runs of items with the same presentation share one ``<g>``."""
    i = 0
    count = len(items)
    while i < count:
        item = items[i]
        if isinstance(item, Group):
            out.append(_group_open(item))
            _emit(item.items, out)
            out.append("</g>")
            i += 1
            continue
        presentation = _presentation(item)
        j = i + 1
        while j < count and not isinstance(items[j], Group) and _presentation(items[j]) == presentation:
            j += 1
        if j - i > 1:
            out.append(f"<g {presentation}>")
            out.extend(_element(x, "") for x in items[i:j])
            out.append("</g>")
        else:
            out.append(_element(item, presentation))
        i = j


def _group_open(group: Group) -> str:
    attrs = _tags(group.cls, group.data)
    if group.opacity < 1:
        attrs += f' opacity="{_n(group.opacity)}"'
    return f"<g{attrs}>"


def _tags(cls: str, data: tuple[tuple[str, str], ...]) -> str:
    text = f" class={quoteattr(cls)}" if cls else ""
    for key, value in data:
        text += f" data-{key}={quoteattr(value)}"
    return text


def _style(style: Style) -> str:
    parts = [f'fill="{style.fill}"' if style.fill else 'fill="none"']
    if style.stroke:
        parts.append(f'stroke="{style.stroke}" stroke-width="{_n(style.stroke_width)}"')
        if style.dash:
            parts.append(f'stroke-dasharray="{" ".join(_n(d) if d >= 0.01 else "0.01" for d in style.dash)}"')
        if style.linecap != "butt":
            parts.append(f'stroke-linecap="{style.linecap}"')
        if style.linejoin != "miter":
            parts.append(f'stroke-linejoin="{style.linejoin}"')
    if style.opacity < 1:
        parts.append(f'fill-opacity="{_n(style.opacity)}" stroke-opacity="{_n(style.opacity)}"')
    return " ".join(parts)


def _presentation(item: Item) -> str:
    if isinstance(item, Text):
        parts = [
            f'fill="{item.style.fill or "#000000"}"',
            f'font-size="{_n(item.size)}"',
            f'text-anchor="{item.anchor}"',
        ]
        if item.weight != "normal":
            parts.append(f'font-weight="{item.weight}"')
        if item.italic:
            parts.append('font-style="italic"')
        if item.family != "sans-serif":
            parts.append(f'font-family="{item.family}"')
        if item.letter_spacing:
            parts.append(f'letter-spacing="{_n(item.letter_spacing)}"')
        if item.halo:
            parts.append(
                f'stroke="{item.halo}" stroke-width="{_n(item.halo_width)}" stroke-linejoin="round" '
                'paint-order="stroke"'
            )
        if item.style.opacity < 1:
            parts.append(f'fill-opacity="{_n(item.style.opacity)}" stroke-opacity="{_n(item.style.opacity)}"')
        return " ".join(parts)
    if isinstance(item, Group):
        return ""
    return _style(item.style)


def _points(points: Sequence[tuple[float, float]]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in points)


def _element(item: Item, presentation: str) -> str:
    pres = f" {presentation}" if presentation else ""
    tags = _tags(item.cls, item.data)
    if isinstance(item, Polygon):
        return f'<polygon{tags} points="{_points(item.points)}"{pres}/>'
    if isinstance(item, Polyline):
        return f'<polyline{tags} points="{_points(item.points)}"{pres}/>'
    if isinstance(item, Region):
        d = " ".join("M" + " L".join(f"{x:.1f},{y:.1f}" for x, y in ring) + " Z" for ring in item.rings if ring)
        return f'<path{tags} d="{d}" fill-rule="evenodd"{pres}/>'
    if isinstance(item, Circle):
        return f'<circle{tags} cx="{_n(item.cx)}" cy="{_n(item.cy)}" r="{_n(item.r)}"{pres}/>'
    if isinstance(item, Rect):
        rx = f' rx="{_n(item.rx)}"' if item.rx else ""
        return (
            f'<rect{tags} x="{_n(item.x)}" y="{_n(item.y)}" width="{_n(item.width)}" '
            f'height="{_n(item.height)}"{rx}{pres}/>'
        )
    if isinstance(item, Text):
        rotate = f' transform="rotate({_n(item.rotate)} {_n(item.x)} {_n(item.y)})"' if item.rotate else ""
        return f'<text{tags} x="{_n(item.x)}" y="{_n(item.y)}"{rotate}{pres}>{escape(item.text)}</text>'
    raise TypeError(f"cannot draw {type(item).__name__}")  # pragma: no cover - groups handled by _emit
