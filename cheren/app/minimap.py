"""The minimap: the whole map in small, in a corner of the map, with a frame where the map is
looking; a click on it brings that part of the map into view.  The map itself opens zoomed on
the action (:func:`action_hexes`), at a zoom where town names and counter values are read
without a magnifier, so the minimap is how a player finds the rest.

It paints the terrain once, the units as dots in their side's colour whenever the game changes,
and the frame whenever the map's view changes: a few batched calls each, so the minimap costs a
move next to nothing."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from cheren.hexes import Hex
from cheren.render.canvas import TABLE, SceneCanvas, fit_view
from cheren.scenario.models import Side

if TYPE_CHECKING:
    from cheren.app.board import Board
    from cheren.app.map import MapWidget

WIDTH = 200  # page pixels
FRAME = "#ffd21f"
DOTS = {Side.ALLIED: "#b8412f", Side.ITALIAN: "#3f6b25"}


def action_hexes(board: Board, near: int = 3) -> list[Hex]:
    """Where the action is: the last move, and the acting side's units within ``near`` hexes
    of an enemy unit (the front); else all the acting side's units."""
    p, g = board.position, board.game
    mine = [u.hex for u in p.units.values() if u.hex is not None and u.side is g.acting]
    enemy = [u.hex for u in p.units.values() if u.hex is not None and u.side is not g.acting]
    front = [h for h in mine if any(h.distance(e) <= near for e in enemy)]
    return [*board.last_move, *(front or mine)]


class MiniMap:
    def __init__(self, board: Board, map_widget: MapWidget) -> None:
        import ipywidgets as w
        from ipycanvas import MultiCanvas

        self.board = board
        self.map = map_widget
        ratio = map_widget.canvas.height / map_widget.canvas.width
        self.width, self.height = WIDTH * 2, round(WIDTH * 2 * ratio)
        self.widget = MultiCanvas(3, width=self.width, height=self.height)  # terrain, units, frame
        self.widget.layout = w.Layout(width=f"{WIDTH}px", height="auto")
        self.widget.add_class("cheren-minimap")
        self.widget.on_mouse_down(self._click)
        self.widget.on_client_ready(self._client_ready)
        self.seen = False  # nothing is drawn before a browser is there (SceneCanvas.seen)
        self._units: tuple[Any, ...] | None = None
        self._frame: tuple[float, ...] | None = None
        scene = board.scene()
        self.view = fit_view(scene.width, scene.height, self.width, self.height, pad=2)
        board.subscribe(self._changed)
        map_widget.canvas.on_paint(lambda _: self.frame())
        self.paint(force=True)

    def _changed(self, what: set[str]) -> None:
        if "game" in what:
            self.units()

    def paint(self, force: bool = False) -> None:
        """Everything: the terrain (it never changes), the units and the frame."""
        from ipycanvas import hold_canvas

        if not self.seen:  # what it would show is kept; drawn when a browser comes
            self.units(force=force)
            self.frame(force=force)
            return
        scene = self.board.scene()
        ground = self.widget[0]
        with hold_canvas():
            ground.clear()
            ground.fill_style, ground.global_alpha = TABLE, 1.0
            ground.fill_rect(0, 0, self.width, self.height)
            v = self.view
            ground.set_transform(v.zoom, 0, 0, v.zoom, v.tx, v.ty)
            for style, polys in scene.polygons_by_style("terrain", cls="hex").items():
                if style.fill:
                    ground.fill_style = style.fill
                    ground.fill_polygons(np.asarray(polys, dtype=np.float32))
            ground.reset_transform()
        self.units(force=force)
        self.frame(force=force)

    def units(self, force: bool = False) -> None:
        """A dot in its side's colour on every hex a unit stands in."""
        from ipycanvas import hold_canvas

        p = self.board.position
        stacks = tuple(sorted({(u.hex.label, u.side.value) for u in p.units.values() if u.hex is not None}))
        if stacks == self._units and not force:
            return
        self._units = stacks
        if not self.seen:
            return
        layout, top = self.board.scene().layout, self.widget[1]
        size = max(3.0, layout.size * self.view.zoom * 1.1)
        with hold_canvas():
            top.clear()
            for side, colour in DOTS.items():
                hexes = [Hex.from_label(h) for h, s in stacks if s == side.value]
                points = [self.view.to_screen(*layout.to_pixel(h)) for h in hexes]
                if points:
                    xs = np.array([x - size / 2 for x, _ in points], dtype=np.float32)
                    ys = np.array([y - size / 2 for _, y in points], dtype=np.float32)
                    top.fill_style = colour
                    top.fill_rects(xs, ys, size, size)

    def frame(self, force: bool = False) -> None:
        """The frame round the part of the map the map shows."""
        from ipycanvas import hold_canvas

        c: SceneCanvas = self.map.canvas
        x0, y0 = c.view.to_map(0, 0)
        x1, y1 = c.view.to_map(c.width, c.height)
        (sx0, sy0), (sx1, sy1) = self.view.to_screen(x0, y0), self.view.to_screen(x1, y1)
        rect = (round(sx0, 1), round(sy0, 1), round(sx1 - sx0, 1), round(sy1 - sy0, 1))
        if rect == self._frame and not force:
            return
        self._frame = rect
        if not self.seen:
            return
        top = self.widget[2]
        with hold_canvas():
            top.clear()
            top.stroke_style, top.line_width, top.global_alpha = FRAME, 4, 1.0
            top.stroke_rect(*rect)

    def _click(self, x: float, y: float) -> None:
        self.map.centre_on(*self.view.to_map(x, y))

    def _client_ready(self) -> None:
        manager = getattr(self.widget, "_canvas_manager", None)  # see SceneCanvas._client_ready
        if manager is not None:
            manager._current_canvas = None
        self.seen = True
        self.paint(force=True)
