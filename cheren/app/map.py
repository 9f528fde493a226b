"""The interactive map: the ipycanvas back-end (:class:`~cheren.render.canvas.SceneCanvas`) wired
to a mode's controller (the play :class:`~cheren.app.board.Board`, the position editor).

Mouse: a click selects, moves or answers (whatever the controller decides); dragging pans; the
wheel zooms at the pointer; moving the pointer over a reachable hex shows the path and its cost.
The toolbar has fit-to-view (the whole map), zoom in/out and centre-on-selection."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any, Protocol

from cheren.hexes import Hex
from cheren.render.canvas import SceneCanvas, View, fit_view, focus_view
from cheren.render.scene import Scene

CLICK_SLOP = 6.0  # pixels a press may move and still count as a click
DRAG_REPAINT = 0.12  # seconds between repaints while dragging


class MapController(Protocol):
    """What the map needs from a mode's controller (play, edit, ...)."""

    @property
    def stack_hex(self) -> Hex | None: ...

    def scene(self) -> Scene: ...

    def subscribe(self, fn: Callable[[set[str]], None]) -> None: ...

    def click_map(self, x: float, y: float) -> Any: ...

    def set_hover(self, h: Hex | None) -> bool: ...


PIXEL_RATIO = 2
READABLE = 9.5  # page pixels: the least size of a town name or a counter's values, whatever the zoom
READABLE_TEXT = ("town-name", "values")
READABLE_ZOOM = 1.0  # scene pixels to page pixels where every label is at its own size


class MapWidget:
    def __init__(self, controller: MapController, width: int = 1000, height: int = 700) -> None:
        import ipywidgets as w

        self.controller = controller
        # twice the pixels of its size on the page: sharp on 2x screens, scaled down on others;
        # town names and counter values never smaller than READABLE page pixels
        least = {cls: READABLE * PIXEL_RATIO for cls in READABLE_TEXT}
        self.canvas = SceneCanvas(width * PIXEL_RATIO, height * PIXEL_RATIO, min_text=least)
        self.widget = self.canvas.widget
        self.widget.add_class("cheren-map")
        self.widget.layout = w.Layout(width="100%", height="auto")
        self._press: tuple[float, float] | None = None  # where the press event says it was
        self._press_at: tuple[float, float] | None = None  # where the pointer was when pressed
        self._press_view: View | None = None
        self._dragging = False
        self._last_drag_paint = 0.0
        self._pointer: tuple[float, float] | None = None
        self.widget.on_mouse_down(self._down)
        self.widget.on_mouse_up(self._up)
        self.widget.on_mouse_move(self._move)
        self.widget.on_mouse_out(self._out)
        self.widget.on_mouse_wheel(self._wheel)
        self.widget.on_key_down(self._key)
        self._heard: list[MapController] = []
        self._listen(controller)

        def button(text: str, tip: str, fn: Any, cls: str) -> Any:
            # text, not Font Awesome icons: Voila loads those from a CDN, which may be out of reach
            b = w.Button(description=text, tooltip=tip, layout=w.Layout(width="auto", height="28px"))
            b.add_class(cls)
            b.on_click(lambda _: fn())
            return b

        self.toolbar = w.HBox(
            [
                button("Whole map", "Fit the whole map in view", self.fit, "cheren-fit"),
                button("+", "Zoom in (or turn the mouse wheel over the map)", lambda: self.zoom(1.4), "cheren-zoom-in"),
                button("−", "Zoom out", lambda: self.zoom(1 / 1.4), "cheren-zoom-out"),
                button("Centre", "Centre on the selected unit", self.centre, "cheren-centre"),
            ],
        )
        self.toolbar.add_class("cheren-toolbar")
        self.refresh()

    def set_controller(self, controller: MapController) -> None:
        """Draw another mode's map on this widget (the app's board, the position editor): one
        canvas for both, the view kept."""
        if controller is self.controller:
            return
        self.controller = controller
        self._listen(controller)
        self.refresh()

    def _listen(self, controller: MapController) -> None:
        if any(c is controller for c in self._heard):
            return
        self._heard.append(controller)

        def heard(what: set[str]) -> None:
            if controller is self.controller:  # a mode not on the map now draws nothing
                self._changed(what)

        controller.subscribe(heard)

    # -- drawing -------------------------------------------------------------------------------
    def refresh(self) -> None:
        self.canvas.show(self.controller.scene())

    def _changed(self, what: set[str]) -> None:
        if what & {"game", "selection", "overlays", "hover", "feedback"}:
            self.refresh()  # a message may be a refusal whose hexes the map marks

    # -- view ----------------------------------------------------------------------------------
    def fit(self) -> None:
        self.canvas.fit()

    def focus(self, hexes: list[Hex]) -> None:
        """Show these hexes as large as they fit (a lesson's part of the map)."""
        scene = self.canvas.scene
        if scene is None:
            return
        points = [scene.layout.to_pixel(h) for h in hexes]
        width, height = self.canvas.width, self.canvas.height
        self.canvas.set_view(focus_view(points, scene.width, scene.height, width, height, max_zoom=2.0 * PIXEL_RATIO))

    def centre_on(self, x: float, y: float, zoom: float | None = None) -> None:
        """Bring the scene point ``(x, y)`` to the middle (at ``zoom``, canvas pixels per scene
        pixel; default: the zoom now)."""
        c = self.canvas
        view = (c.view if zoom is None else View(zoom, 0.0, 0.0)).centred(x, y, c.width, c.height)
        if c.scene is not None:  # no table showing beside the sheet when the map is larger than the view
            w, h = c.scene.width * view.zoom, c.scene.height * view.zoom
            tx = min(0.0, max(c.width - w, view.tx)) if w > c.width else view.tx
            ty = min(0.0, max(c.height - h, view.ty)) if h > c.height else view.ty
            view = View(view.zoom, tx, ty)
        c.set_view(view)

    def open_on(self, hexes: list[Hex]) -> None:
        """Open on these hexes at the zoom where names and values read at their own size
        (the whole map is a click on Whole map away, or on the minimap)."""
        scene = self.canvas.scene
        if scene is None or not hexes:
            return
        points = [scene.layout.to_pixel(h) for h in hexes]
        x = (min(p[0] for p in points) + max(p[0] for p in points)) / 2
        y = (min(p[1] for p in points) + max(p[1] for p in points)) / 2
        self.centre_on(x, y, READABLE_ZOOM * PIXEL_RATIO)

    def zoom(self, factor: float, at: tuple[float, float] | None = None) -> None:
        scene = self.canvas.scene
        if scene is None:
            return
        fit = fit_view(scene.width, scene.height, self.canvas.width, self.canvas.height)
        centre = at if at is not None else (self.canvas.width / 2, self.canvas.height / 2)
        self.canvas.set_view(self.canvas.view.zoomed(factor, centre, lo=fit.zoom * 0.8, hi=3.0 * PIXEL_RATIO))

    def centre(self) -> None:
        c = self.controller
        scene = self.canvas.scene
        h = c.stack_hex
        if scene is None or h is None:
            return
        view = self.canvas.view
        if view.zoom < 0.9 * PIXEL_RATIO:
            view = View(1.2 * PIXEL_RATIO, view.tx, view.ty)
        x, y = scene.layout.to_pixel(h)
        self.canvas.set_view(view.centred(x, y, self.canvas.width, self.canvas.height))

    def _key(self, key: str, shift: bool = False, ctrl: bool = False, meta: bool = False) -> None:
        # the canvas keeps the keys pressed while it has the focus: hand them to the mode
        handler = getattr(self.controller, "key", None)
        if handler is not None and not (ctrl or meta):
            handler(key)

    # -- mouse ---------------------------------------------------------------------------------
    def hex_at(self, x: float, y: float) -> Any:
        scene = self.canvas.scene
        if scene is None:
            return None
        return scene.hex_at(*self.canvas.view.to_map(x, y))

    def _down(self, x: float, y: float) -> None:
        # ipycanvas focuses the canvas on mouse down, and the browser scrolls a canvas that is
        # partly off screen into view *before* the coordinates are taken: the press then
        # reports a point the user did not press.  The last pointer move (taken before the
        # scroll) is where the user pressed; later events share the press event's frame.
        self._press = (x, y)
        self._press_at = self._pointer if self._pointer is not None else (x, y)
        self._press_view = self.canvas.view
        self._dragging = False

    def _move(self, x: float, y: float) -> None:
        self._pointer = (x, y)
        if self._press is not None and self._press_view is not None:
            dx, dy = x - self._press[0], y - self._press[1]
            if self._dragging or math.hypot(dx, dy) > CLICK_SLOP:
                self._dragging = True
                now = time.monotonic()
                if now - self._last_drag_paint > DRAG_REPAINT:
                    self._last_drag_paint = now
                    self.canvas.set_view(self._press_view.panned(dx, dy))
            return
        self.controller.set_hover(self.hex_at(x, y))

    def _up(self, x: float, y: float) -> None:
        press, at, start = self._press, self._press_at, self._press_view
        self._press = self._press_at = self._press_view = None
        if press is None or at is None:
            return
        if self._dragging and start is not None:
            self._dragging = False
            self.canvas.set_view(start.panned(x - press[0], y - press[1]))
            return
        self._pointer = None  # the page may have scrolled: wait for the next move
        self.click(*at)

    def click(self, x: float, y: float) -> Any:
        """A click at canvas pixel ``(x, y)``."""
        return self.controller.click_map(*self.canvas.view.to_map(x, y))

    def _out(self, x: float, y: float) -> None:
        if self._dragging:
            self._up(x, y)
        self._press = self._press_at = self._press_view = None
        self._pointer = None
        self.controller.set_hover(None)

    def _wheel(self, dx: float, dy: float) -> None:
        if dy:
            self.zoom(1.2 if dy < 0 else 1 / 1.2, self._pointer)
