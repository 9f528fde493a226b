"""What the map shades: the overlays the user switches on (reach, zones of control, supply,
control, garrisons, threats, where two lines differ, the Keren key) and the ones the game state brings with it
(the bot's last moves, a chit window's targets, the hexes that answer a decision)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cheren.engine.wording import mp_text
from cheren.hexes import Hex
from cheren.scenario.models import Side
from cheren.study.map_intents import Feedback
from cheren.study.overlays import Overlay

if TYPE_CHECKING:
    from cheren.app.board import Board

#: The overlays the user can switch: key -> label.
OVERLAYS: dict[str, str] = {
    "reach": "Movement reach",
    "zoc-allied": "Allied ZoC",
    "zoc-italian": "Italian ZoC",
    "supply-unit": "Unit's supply line",
    "supply-allied": "Allied supply map",
    "supply-italian": "Italian supply map",
    "control": "Town control & VP",
    "garrisons": "Garrison areas",
    "markers": "Low/No supply",
    "edges": "Af Abed edge (12.2)",
    "threats": "Enemy threats next turn",
    "line-diff": "Where two lines differ",
    "keren-key": "Keren key (the battle's features)",
}
DEFAULT_OVERLAYS = frozenset({"reach", "supply-unit"})
CHOICE = "#e8791d"
BOT_MOVES = "#e0119d"  # deep pink: apart from the threats' red, the supply cuts' purple, the lines' teal


class MapOverlays:
    def __init__(self, board: Board) -> None:
        self.board = board
        self.on: set[str] = set(DEFAULT_OVERLAYS)
        self._cache: tuple[Any, list[Overlay]] | None = None

    def set(self, key: str, on: bool = True) -> Feedback:
        b = self.board
        if key not in OVERLAYS:
            return b.say(Feedback("refused", f"no overlay {key!r}; choose from {', '.join(OVERLAYS)}"))
        (self.on.add if on else self.on.discard)(key)
        return b.say(Feedback("info", f"{OVERLAYS[key]}: {'on' if on else 'off'}"), "overlays")

    def drawn(self) -> list[Overlay]:
        """The overlays to draw now, bottom first."""
        b = self.board
        key = (b.version, id(b.game), frozenset(self.on), b.selected, b.opponent.step, len(b.opponent.moves),
               id(b.lines.comparison), b.decisions.armed)
        if self._cache is None or self._cache[0] != key:
            self._cache = (key, self._list())
        return self._cache[1]

    def _list(self) -> list[Overlay]:
        from cheren.study import overlays as analysis

        b = self.board
        p = b.position
        out: list[Overlay] = []
        on = self.on
        if "garrisons" in on:
            out += analysis.garrison_overlays(p)
        if "keren-key" in on:
            out += analysis.keren_key_overlays(p.scenario)
        if "control" in on:
            out += analysis.control_overlays(p)
        if "edges" in on:
            out += analysis.edge_overlays(p)
        for side in (Side.ALLIED, Side.ITALIAN):
            if f"zoc-{side.value}" in on:
                out += analysis.zoc_overlays(p, side)
            if f"supply-{side.value}" in on:
                out += self._supply_map(side)
        if "markers" in on:
            out += analysis.supply_marker_overlays(p)
        if "threats" in on:
            from cheren.engine.threats import threats

            out += analysis.threat_overlays(threats(p, p.side))
        if "line-diff" in on and b.lines.comparison is not None:
            out.append(b.lines.comparison.overlay())
        uid = b.selected
        if uid is not None and p.units[uid].on_map:
            if "reach" in on and b.play.legal_moves(uid):
                out.append(self._reach(uid))
            elif "reach" in on and p.units[uid].side is not b.game.acting:
                labels: dict[Hex, str | None] = {h: mp_text(r.cost) for h, r in b.play.next_reach(uid).items()}
                title = f"{b.name(uid)}: reach in its next Movement phase (MP)"
                out.append(Overlay("reach-next", labels, colour="#8a5a00", opacity=0.25, title=title))
            if "supply-unit" in on:
                out += self._supply_line(uid)
        moves = b.opponent.moves
        if moves:
            step = b.opponent.step
            picked = [moves[step]] if step is not None else moves
            paths = [m.path for m in picked if len(m.path) > 1]
            ends = {m.path[-1]: str(i + 1) for i, m in enumerate(moves) if m.path and m in picked}
            if paths or ends:
                out.append(Overlay("bot-moves", ends, colour=BOT_MOVES, opacity=0.3, paths=paths,
                                   title="The bot's last moves"))
        targets = b.decisions.chit_targets()
        if targets:
            what = b.decisions.armed or "a chit"
            out.append(Overlay("chit-targets", targets, colour="#b8860b", opacity=0.35,
                               title=f"Where {what} can be played now: click one"))
        choices = b.decisions.marked_hexes()
        if choices:
            out.append(Overlay("choices", {h: "?" for h in choices}, colour=CHOICE, opacity=0.45, title="Your choices"))
        return out

    def _reach(self, uid: str) -> Overlay:
        b = self.board
        reach = b.game.reach(uid)
        legal = b.play.legal_moves(uid)
        labels: dict[Hex, str | None] = {}
        for h, r in reach.reach.items():
            if h in legal:
                labels[h] = mp_text(r.cost) + ("!" if r.stops else "")
        return Overlay("reach", labels, colour="#2b6cc4", opacity=0.3, title=f"{b.name(uid)}: reach (MP; ! = stop)")

    def supply_trace(self, uid: str) -> Any:
        """The supply rules' trace for a unit (why it is or is not in supply)."""
        from cheren.engine.rules.supply import unit_supply

        return unit_supply(self.board.position, uid)

    def _supply_line(self, uid: str) -> list[Overlay]:
        b = self.board
        trace = self.supply_trace(uid)
        unit = b.position.units[uid]
        colour = "#2f6b2a" if trace.supplied else "#d0201a"
        if trace.supplied:
            hexes = (unit.hex, *trace.line) if unit.hex is not None else trace.line
            paths = [hexes] if len(hexes) > 1 else []
            if len(trace.route) > 1:
                paths.append(trace.route)
            title = f"{b.name(uid)}: in supply ({trace.rule}), its line and the road it follows"
            return [Overlay("supply-line", {}, colour=colour, opacity=0.9, paths=paths, title=title)]
        tried: dict[Hex, str | None] = {}
        for c in getattr(trace, "candidates", ()):
            for blk in c.blocks:
                if blk.hex is not None:
                    tried[blk.hex] = "x"
        out = [Overlay("supply-line", {unit.hex: None} if unit.hex is not None else {}, colour=colour, opacity=0.35,
                       title=f"{b.name(uid)}: out of supply (12.0)")]
        if tried:  # the x marks are where a line is blocked, not units out of supply
            out.append(Overlay("supply-blocked", tried, colour=colour, opacity=0.2,
                               title="x: a hex its supply line cannot pass (12.1)"))
        return out

    def _supply_map(self, side: Side) -> list[Overlay]:
        from cheren.engine.rules.supply_hexes import supplied_hexes

        hexes = supplied_hexes(self.board.position, side)
        colour = "#2f6b2a" if side is Side.ITALIAN else "#b0231b"
        out = []
        # darker where the line is shorter: 0 = on a source, the road/track network or a live edge
        for n, opacity in ((0, 0.34), (1, 0.25), (2, 0.17), (3, 0.1)):
            ring: dict[Hex, str | None] = {h: None for h, length in hexes.items() if length == n}
            what = "on a source, road/track or edge" if n == 0 else f"supply line of {n} hex{'es' if n > 1 else ''}"
            out.append(Overlay(f"supply-{side.value}", ring, colour=colour, opacity=opacity,
                               title=f"{side.adjective} supply: {what}"))
        return out
