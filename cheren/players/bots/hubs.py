"""Which towns a side's supply hangs on, and who can reach them: what the planning bot reads to
guard its hubs, retake them at once and raid the enemy's (designer's notes, 15.0).

A town an enemy holds blocks supply lines and the roads and tracks behind it (12.1), so one
town can carry the supply of a whole army: Kassala, where the roads west meet the red edge,
carries the Allies' until the red edge near Af Abed opens (12.2).  :func:`town_lines` says, for
every town, which hexes a side draws supply in only while the town is its own; what it costs
to lose the town (or gains to retake it) is then the steps of the side's units standing there.
Worked out on the map with no units (control and the turn are what decide it), so it is kept
per control and turn and costs nothing in a play-out once known.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from weakref import WeakKeyDictionary

from cheren.engine.position import Position
from cheren.engine.rules.zoc import zoc_map
from cheren.hexes import Hex
from cheren.scenario.compiled import Scenario
from cheren.scenario.memo import ScenarioMemo
from cheren.scenario.models import Side

Key = tuple[Side, frozenset[str], int]


def _no_lines(s: Scenario) -> dict[Key, Mapping[str, int]]:
    return {}


_LINES = ScenarioMemo(_no_lines)


class _Board:
    """The map with no units, as supply sees it (12.0-12.2), with every hex a bit of an int so a
    region is an int and a union is an or: the route network (road/track hexsides), and for
    each hex the hexes whose supply line could end in it - up to 3 hexes entered, 2 if one is a
    hill, never a mountain (12.0); a unit on the network itself needs no line."""

    def __init__(self, s: Scenario) -> None:
        self.hexes = sorted(s.playable)
        self.bit = {h: 1 << i for i, h in enumerate(self.hexes)}
        routes: dict[Hex, set[Hex]] = {}
        for side in (*s.road_sides, *s.track_sides):
            routes.setdefault(side.a, set()).add(side.b)
            routes.setdefault(side.b, set()).add(side.a)
        self.routes = {h: tuple(sorted(n)) for h, n in routes.items()}
        self.towns = {name: s.town_hex(name) for name in s.towns}
        self.edges = [(e, tuple(Hex.from_label(x) for x in e.hexes)) for e in s.allied_edges]
        self.sources = {side: tuple(Hex.from_label(x) for src in s.supply_sources if src.side is side
                                    for x in src.hexes) for side in Side}
        mountain = {h for h in self.hexes if s.hexes[h].mountain}
        hill = {h for h in self.hexes if s.hexes[h].hill}
        adjacent = s.adjacent
        self.ball: dict[Hex, int] = {}
        for n in self.hexes:
            bits = self.bit[n]
            if n not in mountain:
                # (hex, entered so far, a hill among them); the end hex n is entered first
                frontier = [(n, 1, n in hill)]
                while frontier:
                    h, k, hilly = frontier.pop()
                    for x in adjacent[h]:
                        if x not in self.bit:
                            continue
                        bits |= self.bit[x]  # a line from x enters h, ..., n
                        if k < 3 and x not in mountain:
                            seen_hill = hilly or x in hill
                            if k + 1 <= (2 if seen_hill else 3):
                                frontier.append((x, k + 1, seen_hill))
            self.ball[n] = bits

    def region(self, s: Scenario, side: Side, turn: int, enemy_towns: frozenset[Hex]) -> int:
        """The hexes ``side`` could draw supply in on an empty map with these enemy towns."""
        return self.covered(self.network(s, side, turn, enemy_towns))

    def sources_of(self, s: Scenario, side: Side, turn: int) -> list[Hex]:
        sources = list(self.sources[side])
        if side is Side.ALLIED:
            sources += [h for e, hexes in self.edges if s.edge_live(e, turn) for h in hexes]
        return sources

    def network(self, s: Scenario, side: Side, turn: int, enemy_towns: frozenset[Hex]) -> set[Hex]:
        """The sources and the road/track hexes that lead to one past no enemy town."""
        seen = {h for h in self.sources_of(s, side, turn) if h not in enemy_towns}
        queue = list(seen)
        while queue:
            h = queue.pop()
            for n in self.routes.get(h, ()):
                if n not in seen and n not in enemy_towns:
                    seen.add(n)
                    queue.append(n)
        return seen

    def opened(self, network: set[Hex], town: Hex, enemy_towns: frozenset[Hex]) -> set[Hex]:
        """The hexes the network (:meth:`network` with ``enemy_towns``) gains when the enemy
        town ``town``, a source or next to the network along road or track, is no longer the
        enemy's: the town and what the search from it reaches past no other enemy town.  Only
        through it could the search reach more, so the network with the town opened is the
        network and these."""
        seen = {town}
        queue = [town]
        while queue:
            h = queue.pop()
            for n in self.routes.get(h, ()):
                if n not in seen and n not in network and n not in enemy_towns:
                    seen.add(n)
                    queue.append(n)
        return seen

    def covered(self, network: set[Hex]) -> int:
        """The hexes whose supply line can end in ``network``."""
        bits = 0
        ball = self.ball
        for h in network:
            bits |= ball[h]
        return bits


_BOARD: WeakKeyDictionary[Scenario, _Board] = WeakKeyDictionary()


def _board(s: Scenario) -> _Board:
    found = _BOARD.get(s)
    if found is None:
        found = _BOARD[s] = _Board(s)
    return found


def _edge_epoch(s: Scenario, turn: int) -> int:
    """The turns on which the same red edges are live share one answer (12.2)."""
    epochs = _EPOCHS(s)
    found = epochs.get(turn)
    if found is None:
        found = epochs[turn] = sum(1 << i for i, e in enumerate(s.map.allied_edges) if s.edge_live(e, turn))
    return found


def _no_epochs(s: Scenario) -> dict[int, int]:
    return {}


_EPOCHS = ScenarioMemo(_no_epochs)  # by turn: asked twice in every hub question of every play-out


def town_lines(p: Position, side: Side) -> Mapping[str, int]:
    """For each town, the hexes (as bits of :class:`_Board`) in which ``side`` can draw supply,
    on a map with no units, only while ``side`` controls the town: what the town costs it to
    lose, or gives it to retake."""
    s = p.scenario
    control = frozenset(p.allied_control)
    key = (side, control, _edge_epoch(s, p.turn))
    cache = _LINES(s)
    found = cache.get(key)
    if found is not None:
        return found
    board = _board(s)
    allied = side is Side.ALLIED
    enemy = frozenset(h for name, h in board.towns.items() if (name in control) is not allied)
    network = board.network(s, side, p.turn, enemy)
    now = board.covered(network)
    sources = set(board.sources_of(s, side, p.turn))
    out: dict[str, int] = {}
    for name, h in board.towns.items():
        # A town the search does not reach (an own one off the network; an enemy one that is no
        # source and next to none of it along road or track) changes nothing held or lost.
        if h in enemy:
            opens = h in sources or any(n in network for n in board.routes.get(h, ()))
            out[name] = board.covered(board.opened(network, h, enemy)) & ~now if opens else 0
        else:
            out[name] = now & ~board.region(s, side, p.turn, enemy | {h}) if h in network else 0
    if len(cache) > 5000:
        cache.clear()
    cache[key] = out
    return out


def hexes_of(s: Scenario, bits: int) -> frozenset[Hex]:
    """The hexes of a region of :func:`town_lines`."""
    board = _board(s)
    return frozenset(h for h in board.hexes if bits & board.bit[h])


def _no_weights(s: Scenario) -> dict[tuple[Side, int, frozenset[str], int], Mapping[str, int]]:
    return {}


_WEIGHTS = ScenarioMemo(_no_weights)


def hub_weights(p: Position, side: Side) -> Mapping[str, int]:
    """For each town: the steps of ``side`` whose supply hangs on it (for an own town, lost if
    the enemy takes it; for an enemy town, regained if ``side`` takes it back).

    Kept under what it depends on: ``side``'s units (their change stamp, which no other units
    ever carry), town control and the live red edges; the tactician asks it of both sides in
    every phase of every play-out, mostly of units that have not changed since (read it, never
    change it: it is the kept answer)."""
    s = p.scenario
    key = (side, p.stamp(side), frozenset(p.allied_control), _edge_epoch(s, p.turn))
    cache = _WEIGHTS(s)
    found = cache.get(key)
    if found is None:
        if len(cache) > 4096:
            cache.clear()
        found = cache[key] = MappingProxyType(_hub_weights(p, side))  # kept: read, never changed
    return found


def _hub_weights(p: Position, side: Side) -> dict[str, int]:
    lines = town_lines(p, side)
    bit = _board(p.scenario).bit
    where: dict[int, int] = {}
    for uid, u in p.units.items():
        if u.side is side and u.hex is not None and u.on_map:
            b = bit.get(u.hex, 0)
            where[b] = where.get(b, 0) + p.steps_left(uid)
    return {name: sum(n for b, n in where.items() if b & bits) for name, bits in lines.items() if bits}


def raid_values(p: Position, side: Side) -> dict[str, int]:
    """For each town the enemy of ``side`` controls: the enemy's steps it would cut off if
    ``side`` took it (12.1), plus ``side``'s own steps it would put back in supply."""
    enemy = side.enemy
    cut = hub_weights(p, enemy)
    back = hub_weights(p, side)
    out: dict[str, int] = {}
    for name in p.scenario.towns:
        if p.controller(name) is enemy:
            value = cut.get(name, 0) + back.get(name, 0)
            if value:
                out[name] = value
    return out


def may_react(p: Position, uid: str) -> bool:
    """Could this unit move in its side's next reaction phase as things stand (10.0: not next to
    an enemy unit, no supply marker)?"""
    u = p.units[uid]
    if u.hex is None or u.supply is not None or not u.on_map:
        return False
    d = p.scenario.units[uid]
    if d.type.air or d.counter.immobile:
        return False
    enemy = u.side.enemy
    return not any(o for n in u.hex.neighbours() for o in p.units_at(n) if p.units[o].side is enemy)


def zoc_of(p: Position, side: Side) -> frozenset[Hex]:
    """The hexes in ``side``'s zone of control (4.0)."""
    return frozenset(zoc_map(p, side))
