"""What the map shows: the position with the overlays switched on (cached until either changes),
and on top a ``ui`` layer with the selection, the last move, the attack being lined up and the
path the selected unit would take to the hex under the mouse."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from cheren.engine.wording import mp_text
from cheren.render.geometry import hex_polygon, route_polyline
from cheren.render.primitives import Circle, Item, Polygon, Polyline, Style, Text
from cheren.render.scene import Scene, build_scene

if TYPE_CHECKING:
    from cheren.app.board import Board

SELECT = "#ffd21f"
ATTACK = "#ff7a1a"
TARGET = "#d0201a"
PATH = "#1d4fa0"
LAST = "#6b5a3c"
SUGGESTION = "#2e8b3a"  # the review's better choice
REFUSED = "#b3261e"


class MapScene:
    def __init__(self, board: Board) -> None:
        self.board = board
        self._key: tuple[Any, ...] | None = None
        self._scene: Scene | None = None

    def forget(self) -> None:
        """Draw afresh next time (the game was replaced)."""
        self._scene = None

    def scene(self) -> Scene:
        """The map scene: the position, the switched-on overlays, and the ``ui`` layer."""
        b = self.board
        overlays = b.overlays.drawn()
        key = (b.version, id(b.position), overlays)
        if self._scene is None or self._key != key:
            self._scene = build_scene(b.scenario, b.position, overlays, b.hex_size, legend=False)
            self._key = key
        base = self._scene
        return replace(base, layers={**base.layers, "ui": self.ui_items(base)})

    def ui_items(self, scene: Scene) -> list[Item]:
        b = self.board
        layout = scene.layout
        s = layout.size
        items: list[Item] = []
        if len(b.last_move) > 1:
            style = Style(stroke=LAST, stroke_width=s * 0.08, dash=(s * 0.2, s * 0.15), linecap="round")
            items.append(Polyline(points=tuple(route_polyline(layout, list(b.last_move))), style=style, layer="ui",
                                  cls="last-move"))
        if b.suggestion:
            style = Style(stroke=SUGGESTION, stroke_width=s * 0.12, linecap="round", linejoin="round")
            if len(b.suggestion) > 1:
                items.append(Polyline(points=tuple(route_polyline(layout, list(b.suggestion))), style=style,
                                      layer="ui", cls="suggestion"))
            items.append(Polygon(points=hex_polygon(layout, b.suggestion[-1], 0.9), style=style, layer="ui",
                                 cls="suggestion", data=(("hex", b.suggestion[-1].label),)))
        if b.stack_hex is not None:
            items.append(Polygon(points=hex_polygon(layout, b.stack_hex, 0.96),
                                 style=Style(stroke=SELECT, stroke_width=s * 0.12, linejoin="round"), layer="ui",
                                 cls="selection", data=(("hex", b.stack_hex.label),)))
        draft = b.combat.draft
        for uid in draft.attackers:
            h = b.position.units[uid].hex
            if h is not None:
                style = Style(stroke=ATTACK, stroke_width=s * 0.1, dash=(s * 0.18, s * 0.1))
                items.append(Polygon(points=hex_polygon(layout, h, 0.88), style=style, layer="ui", cls="attacker"))
        if draft.defender is not None:
            items.append(Polygon(points=hex_polygon(layout, draft.defender, 0.96),
                                 style=Style(stroke=TARGET, stroke_width=s * 0.14, linejoin="round"), layer="ui",
                                 cls="defender"))
        for h in b.feedback.hexes(b.scenario.playable):  # the hexes a refusal names: where it was decided
            items.append(Polygon(points=hex_polygon(layout, h, 0.9), layer="ui", cls="refused",
                                 style=Style(stroke=REFUSED, stroke_width=s * 0.1, dash=(s * 0.14, s * 0.08)),
                                 data=(("hex", h.label),)))
        return items + self._path(scene)

    def _path(self, scene: Scene) -> list[Item]:
        """The path the selected unit would take to the hovered hex, and what it costs."""
        b = self.board
        chosen = b.selected
        if chosen is None or b.hover is None or b.game.pending is not None:
            return []
        move = b.play.legal_moves(chosen).get(b.hover)
        start = b.position.units[chosen].hex
        if move is None or start is None:
            return []
        layout = scene.layout
        s = layout.size
        pts = tuple(route_polyline(layout, [start, *move.path]))
        halo = Style(stroke="#ffffff", stroke_width=s * 0.22, linecap="round", linejoin="round", opacity=0.8)
        items: list[Item] = [
            Polyline(points=pts, style=halo, layer="ui"),
            Polyline(points=pts, style=Style(stroke=PATH, stroke_width=s * 0.12, linecap="round", linejoin="round"),
                     layer="ui", cls="path"),
        ]
        ex, ey = pts[-1]
        items.append(Circle(cx=ex, cy=ey, r=s * 0.18, style=Style(fill=PATH, stroke="#ffffff", stroke_width=s * 0.05),
                            layer="ui"))
        r = b.game.reach(chosen).reach.get(b.hover)
        if r is not None:
            items.append(Text(x=ex, y=ey - s * 0.3, text=f"{mp_text(r.cost)} MP", size=s * 0.34, weight="bold",
                              halo="#ffffff", halo_width=s * 0.1, style=Style(fill=PATH), layer="ui"))
        return items
