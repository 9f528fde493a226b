"""The ipycanvas back-end: paints a :class:`~cheren.render.scene.Scene` on an HTML canvas.

It mirrors :mod:`cheren.render.svg` item for item (same primitives, same styles, same painting
order) but draws with canvas commands, batched:

* the hex fills of the terrain layer go out as one ``fill_polygons`` call per terrain (via
  :meth:`Scene.polygons_by_style`), then one ``stroke_polygons`` call per grid style;
* any run of consecutive polygons, lines, circles or rectangles that share a style becomes one
  vectorised call (``fill_polygons``, ``stroke_line_segments``, ``fill_circles``, ...);
* every drawing attribute is sent only when it changes;
* a whole redraw happens inside one ``hold_canvas()``, so it reaches the browser as a single
  message.

:func:`paint_items` works on anything with the ipycanvas ``Canvas`` drawing API (tests pass a
recorder).  :class:`SceneCanvas` is the widget: a ``MultiCanvas`` with one canvas per group of
layers (map, counters, overlays, ui), a pan/zoom :class:`View`, and a repaint that only redraws
the groups whose items changed, which makes redrawing idempotent.  It also carries the fix that
makes the canvas paint in Voila and after a page reload (``on_client_ready`` plus forgetting the
canvas manager's cached current canvas, ipycanvas#322): ipycanvas is pinned for that reason.
Until a browser has said it is there, nothing is sent: a canvas is stateless for a browser that
connects later, so whatever was drawn before would be drawn again then (the app built in a kernel
kept ready for its page, issue 29, makes its whole first paint ready beforehand with
:meth:`SceneCanvas.prepare` and sends it once, when the page comes).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cheren.render.primitives import Circle, Group, Item, Point, Polygon, Polyline, Rect, Region, Style, Text
from cheren.render.scene import Scene

__all__ = [
    "GROUPS",
    "PaintStats",
    "Recorder",
    "SceneCanvas",
    "View",
    "fit_view",
    "paint_items",
    "paint_scene",
]

#: Canvas groups of the MultiCanvas, bottom to top, and the scene layers each one paints.  The
#: map group (terrain and features) changes only when control markers or the turn change.
GROUPS: dict[str, tuple[str, ...]] = {
    "map": ("terrain", "features"),
    "counters": ("counters",),
    "overlays": ("overlays",),
    "ui": ("ui",),
}
TABLE = "#34302a"  # the table round the map sheet


# -- the view: zoom and pan ----------------------------------------------------------------
@dataclass(frozen=True)
class View:
    """Screen = map * zoom + (tx, ty).  Map coordinates are the scene's pixels."""

    zoom: float = 1.0
    tx: float = 0.0
    ty: float = 0.0

    def to_screen(self, x: float, y: float) -> Point:
        return (x * self.zoom + self.tx, y * self.zoom + self.ty)

    def to_map(self, x: float, y: float) -> Point:
        return ((x - self.tx) / self.zoom, (y - self.ty) / self.zoom)

    def zoomed(self, factor: float, at: Point, lo: float = 0.05, hi: float = 8.0) -> View:
        """Zoom by ``factor`` keeping the screen point ``at`` over the same map point."""
        z = min(hi, max(lo, self.zoom * factor))
        mx, my = self.to_map(*at)
        return View(z, at[0] - mx * z, at[1] - my * z)

    def panned(self, dx: float, dy: float) -> View:
        return View(self.zoom, self.tx + dx, self.ty + dy)

    def centred(self, x: float, y: float, width: float, height: float) -> View:
        """The same zoom with the map point ``(x, y)`` in the middle of the screen."""
        return View(self.zoom, width / 2 - x * self.zoom, height / 2 - y * self.zoom)


def fit_view(scene_width: float, scene_height: float, width: float, height: float, pad: float = 6.0) -> View:
    """The view that shows the whole scene inside ``width`` x ``height``, centred."""
    z = min((width - 2 * pad) / scene_width, (height - 2 * pad) / scene_height)
    return View(z, (width - scene_width * z) / 2, (height - scene_height * z) / 2)


def focus_view(
    points: list[Point],
    scene_width: float,
    scene_height: float,
    width: float,
    height: float,
    margin: float = 90.0,
    max_zoom: float = 2.0,
) -> View:
    """The view that shows ``points`` (scene pixels, e.g. hex centres) with ``margin`` around
    them, as large as fits and never smaller than the whole map (a lesson's corner of the map)."""
    whole = fit_view(scene_width, scene_height, width, height)
    if not points:
        return whole
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    x0, x1, y0, y1 = min(xs) - margin, max(xs) + margin, min(ys) - margin, max(ys) + margin
    z = min(width / (x1 - x0), height / (y1 - y0), max_zoom)
    if z <= whole.zoom:
        return whole
    return View(z, width / 2 - (x0 + x1) / 2 * z, height / 2 - (y0 + y1) / 2 * z)


# -- painting ------------------------------------------------------------------------------
class _Pen:
    """The canvas's drawing state as last set, so each attribute is sent only on change."""

    def __init__(self, canvas: Any, min_text: dict[str, float] | None = None) -> None:
        self.canvas = canvas
        self.state: dict[str, Any] = {}
        self.calls = 0
        self.min_text = min_text or {}  # text class -> least font size, in scene pixels, for this view

    def set(self, **attrs: Any) -> None:
        for name, value in attrs.items():
            if self.state.get(name, _UNSET) != value:
                setattr(self.canvas, name, value)
                self.state[name] = value

    def dash(self, segments: tuple[float, ...] | None) -> None:
        want = [max(d, 0.01) for d in segments] if segments else []
        if self.state.get("dash", []) != want:
            self.canvas.set_line_dash(want)
            self.state["dash"] = want

    def fill(self, style: Style, alpha: float) -> bool:
        if not style.fill:
            return False
        self.set(fill_style=style.fill, global_alpha=_alpha(style.opacity * alpha))
        return True

    def stroke(self, style: Style, alpha: float) -> bool:
        if not style.stroke or style.stroke_width <= 0:
            return False
        self.set(
            stroke_style=style.stroke,
            global_alpha=_alpha(style.opacity * alpha),
            line_width=style.stroke_width,
            line_cap=style.linecap,
            line_join=style.linejoin,
        )
        self.dash(style.dash)
        return True

    def forget(self) -> None:
        """After a reset of the canvas (clear, reconnect): assume nothing."""
        self.state.clear()


_UNSET = object()


def _alpha(value: float) -> float:
    return round(min(1.0, max(0.0, value)), 4)


# Coordinates go to the browser as float32 (a hundredth of a pixel is plenty): half the bytes.
F32 = np.float32


def _points_array(polys: Sequence[Sequence[Point]]) -> Any:
    """A (n, k, 2) array when every polygon has k points, else a list of (k_i, 2) arrays."""
    lengths = {len(p) for p in polys}
    if len(lengths) == 1:
        return np.asarray(polys, dtype=F32)
    return [np.asarray(p, dtype=F32) for p in polys]


def _points(points: Sequence[Point]) -> Any:
    return np.asarray(points, dtype=F32)


def _rounded_rect(x: float, y: float, w: float, h: float, r: float, per_corner: int = 4) -> tuple[Point, ...]:
    r = max(0.0, min(r, w / 2, h / 2))
    corners = ((x + w - r, y + r, -90.0), (x + w - r, y + h - r, 0.0), (x + r, y + h - r, 90.0), (x + r, y + r, 180.0))
    pts: list[Point] = []
    for cx, cy, start in corners:
        for k in range(per_corner + 1):
            a = math.radians(start + 90.0 * k / per_corner)
            pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return tuple(pts)


def _batch_key(item: Item) -> tuple[Any, ...] | None:
    if isinstance(item, Polygon):
        return ("polygon", item.style) if len(item.points) >= 3 else None
    if isinstance(item, Polyline):
        return ("line", item.style) if len(item.points) >= 2 else None
    if isinstance(item, Circle):
        return ("circle", item.style)
    if isinstance(item, Rect):
        return ("rect", item.style, item.rx > 0)
    return None


def paint_items(canvas: Any, items: Sequence[Item], pen: _Pen | None = None, alpha: float = 1.0) -> _Pen:
    """Paint items in order on ``canvas``, batching runs of same-style shapes."""
    pen = pen if pen is not None else _Pen(canvas)
    i, count = 0, len(items)
    while i < count:
        item = items[i]
        if isinstance(item, Group):
            paint_items(canvas, item.items, pen, alpha * item.opacity)
            i += 1
            continue
        key = _batch_key(item)
        j = i + 1
        if key is not None:
            while j < count and _batch_key(items[j]) == key:
                j += 1
        _paint_run(canvas, items[i:j], pen, alpha)
        i = j
    return pen


def _paint_run(canvas: Any, run: Sequence[Item], pen: _Pen, alpha: float) -> None:
    first = run[0]
    if isinstance(first, Polygon | Rect) and not (isinstance(first, Rect) and first.rx <= 0):
        polys = [
            it.points if isinstance(it, Polygon) else _rounded_rect(it.x, it.y, it.width, it.height, it.rx)
            for it in run
            if isinstance(it, Polygon | Rect)
        ]
        _polygons(canvas, polys, first.style, pen, alpha)
    elif isinstance(first, Rect):
        rects = [it for it in run if isinstance(it, Rect)]
        xs = np.array([r.x for r in rects], dtype=F32)
        ys = np.array([r.y for r in rects], dtype=F32)
        ws = np.array([r.width for r in rects], dtype=F32)
        hs = np.array([r.height for r in rects], dtype=F32)
        if pen.fill(first.style, alpha):
            canvas.fill_rects(xs, ys, ws, hs)
            pen.calls += 1
        if pen.stroke(first.style, alpha):
            canvas.stroke_rects(xs, ys, ws, hs)
            pen.calls += 1
    elif isinstance(first, Polyline):
        lines = [it.points for it in run if isinstance(it, Polyline)]
        if pen.stroke(first.style, alpha):
            if len(lines) == 1:
                canvas.stroke_lines(_points(lines[0]))
            else:
                canvas.stroke_line_segments(_points_array(lines))
            pen.calls += 1
        if first.style.fill and len(lines[0]) >= 3:  # a filled polyline is an open polygon
            _polygons(canvas, lines, Style(fill=first.style.fill, opacity=first.style.opacity), pen, alpha)
    elif isinstance(first, Circle):
        circles = [it for it in run if isinstance(it, Circle)]
        if len(circles) == 1:
            c = circles[0]
            if pen.fill(c.style, alpha):
                canvas.fill_circle(c.cx, c.cy, c.r)
                pen.calls += 1
            if pen.stroke(c.style, alpha):
                canvas.stroke_circle(c.cx, c.cy, c.r)
                pen.calls += 1
        else:
            xs = np.array([c.cx for c in circles], dtype=F32)
            ys = np.array([c.cy for c in circles], dtype=F32)
            rs = np.array([c.r for c in circles], dtype=F32)
            if pen.fill(first.style, alpha):
                canvas.fill_circles(xs, ys, rs)
                pen.calls += 1
            if pen.stroke(first.style, alpha):
                canvas.stroke_circles(xs, ys, rs)
                pen.calls += 1
    elif isinstance(first, Text):
        for it in run:
            assert isinstance(it, Text)
            _text(canvas, it, pen, alpha)
    elif isinstance(first, Region):
        for it in run:
            assert isinstance(it, Region)
            _region(canvas, it, pen, alpha)
    else:  # pragma: no cover - groups are unpacked by paint_items
        raise TypeError(f"cannot draw {type(first).__name__}")


def _polygons(canvas: Any, polys: Sequence[Sequence[Point]], style: Style, pen: _Pen, alpha: float) -> None:
    if not polys:
        return
    pts = None
    if pen.fill(style, alpha):
        pts = _points_array(polys)
        if len(polys) == 1:
            canvas.fill_polygon(_points(polys[0]))
        else:
            canvas.fill_polygons(pts)
        pen.calls += 1
    if pen.stroke(style, alpha):
        if len(polys) == 1:
            canvas.stroke_polygon(_points(polys[0]))
        else:
            canvas.stroke_polygons(pts if pts is not None else _points_array(polys))
        pen.calls += 1


_ANCHORS = {"start": "left", "middle": "center", "end": "right"}


def _font(t: Text, least: float = 0.0) -> str:
    parts = []
    if t.italic:
        parts.append("italic")
    if t.weight == "bold":
        parts.append("bold")
    parts.append(f"{max(t.size, least):.2f}px")
    parts.append("serif" if t.family == "serif" else "sans-serif")
    return " ".join(parts)


def _text(canvas: Any, t: Text, pen: _Pen, alpha: float) -> None:
    least = max((pen.min_text.get(c, 0.0) for c in t.cls.split()), default=0.0) if pen.min_text else 0.0
    pen.set(font=_font(t, least), text_align=_ANCHORS[t.anchor], global_alpha=_alpha(t.style.opacity * alpha))
    rotated = bool(t.rotate)
    x, y = t.x, t.y
    if rotated:
        canvas.save()
        canvas.translate(t.x, t.y)
        canvas.rotate(math.radians(t.rotate))
        x, y = 0.0, 0.0
    if t.halo and t.halo_width > 0:
        pen.set(stroke_style=t.halo, line_width=t.halo_width, line_join="round")
        pen.dash(None)
        canvas.stroke_text(t.text, x, y)
        pen.calls += 1
    pen.set(fill_style=t.style.fill or "#000000")
    canvas.fill_text(t.text, x, y)
    pen.calls += 1
    if rotated:
        canvas.restore()


def _region(canvas: Any, region: Region, pen: _Pen, alpha: float) -> None:
    canvas.begin_path()
    for ring in region.rings:
        if not ring:
            continue
        canvas.move_to(*ring[0])
        for p in ring[1:]:
            canvas.line_to(*p)
        canvas.close_path()
    if pen.fill(region.style, alpha):
        canvas.fill("evenodd")
        pen.calls += 1
    if pen.stroke(region.style, alpha):
        canvas.stroke()
        pen.calls += 1


def paint_layer(canvas: Any, scene: Scene, layer: str, pen: _Pen) -> None:
    """One scene layer.  The terrain's hex fills go first as one batch per terrain (they never
    overlap, so the order among them does not matter), their grid strokes after them, then the
    rest of the layer in scene order."""
    items = scene.layers.get(layer, [])
    if layer == "terrain":
        batches = scene.polygons_by_style("terrain", cls="hex")
        for style, polys in batches.items():
            if pen.fill(style, 1.0):
                canvas.fill_polygons(_points_array(polys))
                pen.calls += 1
        for style, polys in batches.items():
            if pen.stroke(style, 1.0):
                canvas.stroke_polygons(_points_array(polys))
                pen.calls += 1
        items = [i for i in items if not (isinstance(i, Polygon) and "hex" in i.cls.split())]
    paint_items(canvas, items, pen)


def paint_scene(
    canvas: Any,
    scene: Scene,
    layers: Sequence[str],
    view: View | None = None,
    *,
    clear: bool = True,
    paper: bool = False,
    size: tuple[float, float] | None = None,
    min_text: dict[str, float] | None = None,
) -> int:
    """Paint ``layers`` of ``scene`` on one canvas under ``view``; returns the number of draw
    calls.  ``paper`` lays the table and the map sheet first (the bottom canvas does).
    ``min_text``: text class -> the least font size on the canvas, in its pixels (town names
    and counter values stay readable when the view is zoomed out to the whole map)."""
    v = view or View()
    pen = _Pen(canvas, {cls: px / v.zoom for cls, px in (min_text or {}).items()})
    canvas.reset_transform()
    if clear:
        canvas.clear()
    if paper:
        w, h = size if size is not None else (scene.width, scene.height)
        pen.set(global_alpha=1.0, fill_style=TABLE)
        canvas.fill_rect(0, 0, w, h)
        x0, y0 = v.to_screen(0, 0)
        pen.set(fill_style="#1c1915", global_alpha=0.5)
        canvas.fill_rect(x0 + 4, y0 + 5, scene.width * v.zoom, scene.height * v.zoom)
        pen.set(fill_style=scene.background, global_alpha=1.0)
        canvas.fill_rect(x0, y0, scene.width * v.zoom, scene.height * v.zoom)
        pen.calls += 3
    canvas.set_transform(v.zoom, 0, 0, v.zoom, v.tx, v.ty)
    for layer in layers:
        paint_layer(canvas, scene, layer, pen)
    canvas.reset_transform()
    return pen.calls


# -- the widget ----------------------------------------------------------------------------
@dataclass
class PaintStats:
    """What the last repaint did: which canvas groups, how many draw calls, how long.  Before a
    browser is there, ``groups`` are those that changed and ``calls`` is 0: nothing was sent."""

    groups: tuple[str, ...] = ()
    calls: int = 0
    seconds: float = 0.0
    repaints: int = 0
    history: list[tuple[tuple[str, ...], int, float]] = field(default_factory=list)


class SceneCanvas:
    """A ``MultiCanvas`` that shows a scene under a pan/zoom view.

    :meth:`show` repaints only the canvas groups (:data:`GROUPS`) whose items or view changed,
    in one batched message; calling it twice with an equal scene sends nothing.  The canvas
    repaints itself whenever a browser connects (Voila, a page reload), and sends nothing before
    the first one does; see the module notes."""

    def __init__(
        self, width: int = 1000, height: int = 700, *, sync_image_data: bool = False,
        min_text: dict[str, float] | None = None,
    ) -> None:
        """``min_text``: text class -> least font size in canvas pixels (see :func:`paint_scene`)."""
        from ipycanvas import MultiCanvas

        self.width, self.height = width, height
        self.min_text = dict(min_text or {})
        self.widget = MultiCanvas(len(GROUPS), width=width, height=height, sync_image_data=sync_image_data)
        self.scene: Scene | None = None
        self.view = View()
        self.stats = PaintStats()
        self._painted: dict[str, tuple[Any, ...]] = {}
        self._listeners: list[Callable[[PaintStats], None]] = []
        self.seen = False  # a browser has shown this canvas: draw commands reach it
        self._prepared: tuple[dict[str, tuple[Any, ...]], Any, list[Any], Any] | None = None  # see prepare()
        self._prepared_calls = 0
        self.widget.on_client_ready(self._client_ready)

    # the layers as canvases, bottom to top
    def canvas(self, group: str) -> Any:
        return self.widget[list(GROUPS).index(group)]

    def on_paint(self, fn: Callable[[PaintStats], None]) -> None:
        self._listeners.append(fn)

    def set_view(self, view: View) -> None:
        self.view = view
        if self.scene is not None:
            self.show(self.scene)

    def fit(self) -> View:
        if self.scene is None:
            return self.view
        self.set_view(fit_view(self.scene.width, self.scene.height, self.width, self.height))
        return self.view

    def show(self, scene: Scene, *, force: bool = False) -> PaintStats:
        """Paint ``scene``: the groups whose items (or the view) differ from what is on the
        canvas, or every group with ``force``."""
        from ipycanvas import hold_canvas

        first = self.scene is None
        self.scene = scene
        if first:
            self.view = fit_view(scene.width, scene.height, self.width, self.height)
        t0 = time.perf_counter()
        todo: list[str] = []
        for group, signature in self._signatures(scene).items():
            if force or self._painted.get(group) != signature:
                todo.append(group)
                self._painted[group] = signature
        calls = 0
        if todo and self.seen:
            if len(todo) == len(GROUPS) and self._send_prepared():
                calls = self._prepared_calls
            else:
                with hold_canvas():
                    calls = self._paint(scene, todo)
        seconds = time.perf_counter() - t0
        self.stats.groups, self.stats.calls, self.stats.seconds = tuple(todo), calls, seconds
        if todo:
            self.stats.repaints += 1
            self.stats.history.append((tuple(todo), calls, seconds))
            del self.stats.history[:-50]
        for fn in self._listeners:
            fn(self.stats)
        return self.stats

    def _signatures(self, scene: Scene) -> dict[str, tuple[Any, ...]]:
        return {group: (self.view, scene.width, scene.height, *(scene.layers.get(name, []) for name in layers))
                for group, layers in GROUPS.items()}

    def _paint(self, scene: Scene, groups: Sequence[str]) -> int:
        calls = 0
        for group in groups:
            calls += paint_scene(self.canvas(group), scene, GROUPS[group], self.view, paper=group == "map",
                                 size=(self.width, self.height), min_text=self.min_text)
        return calls

    def prepare(self) -> None:
        """Make the whole paint of the scene shown now, ready to send: a browser that connects
        later (the app built in a kept kernel, whose page is loading its scripts meanwhile) gets
        it as soon as it says it is there, without waiting for the scene to be painted then.  A
        scene changed by then is painted as usual."""
        manager = getattr(self.widget, "_canvas_manager", None)
        if self.scene is None or self.seen or manager is None:
            return
        from ipycanvas.utils import commands_to_buffer

        saved = manager._caching, manager._commands_cache, manager._buffers_cache, manager._current_canvas
        # what hold_canvas() would collect for a browser that has no current canvas yet
        manager._caching, manager._commands_cache, manager._buffers_cache, manager._current_canvas = True, [], [], None
        try:
            calls = self._paint(self.scene, list(GROUPS))
            commands, buffers, last = manager._commands_cache, manager._buffers_cache, manager._current_canvas
        finally:
            manager._caching, manager._commands_cache, manager._buffers_cache, manager._current_canvas = saved
        metadata, command_buffer = commands_to_buffer(commands)
        self._prepared = (self._signatures(self.scene), metadata, [command_buffer, *buffers], last)
        self._prepared_calls = calls

    def _send_prepared(self) -> bool:
        """Send the prepared paint if it is the paint of the scene and view now (once)."""
        prepared, self._prepared = self._prepared, None
        manager = getattr(self.widget, "_canvas_manager", None)
        if prepared is None or manager is None or self.scene is None or prepared[0] != self._signatures(self.scene):
            return False
        _, metadata, buffers, last = prepared
        manager.send(metadata, buffers=buffers)
        manager._current_canvas = last  # where the commands sent leave the browser
        return True

    def repaint(self) -> None:
        """Send everything again (what a newly connected browser needs)."""
        if self.scene is not None:
            self.show(self.scene, force=True)

    def _client_ready(self) -> None:
        # ipycanvas 0.14.3 remembers which canvas its (shared) manager last switched to and
        # skips the switch command when it is unchanged; a browser that connects later never
        # saw that command and would drop every draw command (ipycanvas#322).  Forget it.
        manager = getattr(self.widget, "_canvas_manager", None)
        if manager is not None:
            manager._current_canvas = None
        self.seen = True
        self.repaint()


class Recorder:
    """A stand-in canvas for tests and benchmarks: records the drawing calls it receives
    (attribute sets as ``("set", (name, value))``)."""

    calls: list[tuple[str, tuple[Any, ...]]]

    def __init__(self, calls: list[tuple[str, tuple[Any, ...]]] | None = None) -> None:
        object.__setattr__(self, "calls", calls if calls is not None else [])

    def __setattr__(self, name: str, value: Any) -> None:
        self.calls.append(("set", (name, value)))

    def __getattr__(self, name: str) -> Callable[..., None]:
        if name.startswith("__"):
            raise AttributeError(name)

        def call(*args: Any) -> None:
            self.calls.append((name, args))

        return call

    def names(self) -> list[str]:
        return [name for name, _ in self.calls]
