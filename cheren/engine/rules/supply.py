"""Supply lines, rules 12.0 to 12.3 (with 11.3 for the air unit).

A unit is in supply when a *supply line* of at most three hexes runs from it (its own hex not
counted) to a friendly supply source, or to a road/track hex from which road and track lead on
to one (12.0).  Hills and enemy ZoC shorten the line (3, then 2, then 1 hex), mountains stop
it, and neither the line nor the road/track beyond it may enter enemy units, enemy-controlled
towns or an enemy ZoC that no friendly unit holds (12.1).  Allied units on a live red map edge
(12.2), native units in their own village (12.3) and the air unit (11.3) are supplied anyway.

Everything here is a pure function of a :class:`~cheren.engine.position.Position`: the answers
(:class:`~cheren.engine.rules.supply_trace.SupplyTrace`, with the reasons in words) are in
:mod:`cheren.engine.rules.supply_trace`, the Supply check & attrition phase that acts on them
(12.4-12.7) in :mod:`cheren.engine.rules.supply_phase`.  The questions a whole side asks share
one :class:`SupplyContext`: the enemy ZoC map, who stands where, and the road/track network that
leads to a source, each computed once.

Readings taken where the rules are silent are in :mod:`cheren.engine.interpretations`; the main ones:

* the sources of the Allies are the hexes of the live red map edges (and any allied source the
  data lists), so a road or track that runs to a live edge hex carries allied supply;
* the mountain ban of 12.0 binds the supply line, not the road/track (a track may cross a
  mountain pass); the restrictions of 12.1 bind both;
* a friendly unit lets the line into an enemy ZoC hex (12.1), but the hex still counts as an
  enemy ZoC for the length limit of 12.0.
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property

from cheren.engine.position import Position, Status
from cheren.engine.rules.supply_trace import MAX_LINE, Block, Candidate, SupplyTrace
from cheren.engine.rules.zoc import Zoc, zoc_map
from cheren.hexes import Hex
from cheren.scenario.compiled import Scenario
from cheren.scenario.memo import ScenarioMemo
from cheren.scenario.models import Side


def line_limit(hill: bool, zoc: bool) -> int:
    """12.0: 3 hexes; 2 if the line enters a hill hex or an enemy ZoC; 1 if it enters both."""
    if hill and zoc:
        return 1
    if hill or zoc:
        return 2
    return MAX_LINE


# line_limit as a table, by 2 * hill + zoc (the line search asks it of every hex it looks at)
LINE_LIMITS = tuple(line_limit(hill, zoc) for hill in (False, True) for zoc in (False, True))


# -- the static part of the map: road/track adjacency and hills, once per scenario ---------------
ROAD, TRACK = 1, 2  # bits of a route-kind mask
_KIND_NAMES = {0: "road/track", ROAD: "road", TRACK: "track", ROAD | TRACK: "road/track"}


@dataclass(frozen=True)
class _Static:
    routes: dict[Hex, tuple[tuple[Hex, int], ...]]  # neighbours along a road or track, and which
    hills: frozenset[Hex]
    villages: dict[str, Hex]
    towns: dict[str, Hex]
    edges: tuple[tuple[str, int, int, tuple[Hex, ...]], ...]  # name, first and last turn, hexes
    sources: tuple[tuple[str, Side, tuple[Hex, ...]], ...]


def _static(s: Scenario) -> _Static:
    return _STATIC(s)


def hill_hexes(s: Scenario) -> frozenset[Hex]:
    """The hill hexes, which shorten a supply line (12.0)."""
    return _STATIC(s).hills


def _build_static(s: Scenario) -> _Static:
    routes: dict[Hex, dict[Hex, int]] = {}
    for kind, sides in ((TRACK, s.track_sides), (ROAD, s.road_sides)):  # a road wins over a track
        for side in sides:
            routes.setdefault(side.a, {})[side.b] = kind
            routes.setdefault(side.b, {})[side.a] = kind
    return _Static(
        routes={h: tuple(sorted(v.items())) for h, v in routes.items()},
        hills=frozenset(h for h in s.playable if s.hexes[h].hill),
        villages={name: s.village_hex(name) for name in s.villages},
        towns={name: s.town_hex(name) for name in s.towns},
        edges=tuple(
            (e.name, e.first_turn, e.last_turn, tuple(Hex.from_label(x) for x in e.hexes)) for e in s.allied_edges
        ),
        sources=tuple(
            (src.name, src.side, tuple(Hex.from_label(x) for x in src.hexes)) for src in s.supply_sources
        ),
    )


_STATIC = ScenarioMemo(_build_static)


# How far a block is from being lifted, to show the route closest to working first: a line that
# is one hex too long, or a ZoC a friendly unit could cancel, before mountains and enemy units.
_BLOCK_WEIGHT = {"length": 1, "zoc": 2, "enemy_town": 2, "route": 2, "mountain": 3, "enemy_units": 3}


# -- the context: everything a side's supply questions share --------------------------------------
@dataclass
class SupplyContext:
    """One side's supply situation in one position, computed once and asked many times.

    ``network`` maps every hex of the road/track network that counts (open hexes that road or
    track lead from to a source, the sources included) to the next hex towards its source
    (``None`` at a source).  ``touch`` maps the hexes that are not open themselves (an enemy
    town, an empty hex in enemy ZoC) but have a road/track hexside into the network to that
    network neighbour: a unit standing there is on the road, since its own hex is never part of
    the line (12.0)."""

    position: Position
    side: Side
    zoc: dict[Hex, Zoc]
    enemy_hexes: frozenset[Hex]
    friendly_hexes: frozenset[Hex]
    enemy_towns: dict[Hex, str]
    sources: dict[Hex, str]
    edges: dict[Hex, str]  # 12.2: live red-edge hexes (Allies only)
    network: dict[Hex, Hex | None] = field(default_factory=dict)
    touch: dict[Hex, Hex] = field(default_factory=dict)
    kinds: dict[Hex, int] = field(default_factory=dict)  # road/track bits from a network hex to its source

    def __post_init__(self) -> None:
        # not a field: compiled (mypyc), a field with init=False would never be set
        self._line_closed: frozenset[Hex] | None = None

    def line_closed(self) -> frozenset[Hex]:
        """The hexes a supply line may not enter: mountains (12.0) and those :meth:`open` refuses
        (12.1), as one set (every line traced on this context asks it of each hex it looks at)."""
        if self._line_closed is None:
            # union(), not |: a frozenset | dict keys is a set at run time, which compiled code refuses
            self._line_closed = self.position.scenario.mountains.union(
                self.enemy_hexes, self.enemy_towns.keys(), self.zoc.keys() - self.friendly_hexes)
        return self._line_closed

    @property
    def scenario(self) -> Scenario:
        return self.position.scenario

    def open(self, h: Hex) -> bool:
        """12.1: may a supply line, or the road/track, enter ``h``?  (Mountains are checked
        apart: they bind the line only, 12.0.)"""
        if h in self.enemy_hexes or h in self.enemy_towns:
            return False
        return h not in self.zoc or h in self.friendly_hexes

    def closed_because(self, h: Hex) -> list[Block]:
        """Why ``h`` may not be entered by the line or the road/track (12.1)."""
        out: list[Block] = []
        if h in self.enemy_hexes:
            out.append(Block("12.1", f"{h.label} holds enemy units", h, "enemy_units"))
        if h in self.enemy_towns:
            owner = self.side.enemy.adjective
            town = self.enemy_towns[h]
            out.append(Block("12.1", f"{town} ({h.label}) is an {owner}-controlled town", h, "enemy_town"))
        if h in self.zoc and h not in self.friendly_hexes:
            out.append(Block("12.1", f"{h.label} is in an enemy ZoC and no friendly unit is there", h, "zoc"))
        return out

    def route_to_source(self, h: Hex) -> tuple[Hex, ...]:
        """The road/track from a network (or touching) hex to its source, both ends included."""
        out = [h]
        nxt: Hex | None = self.network[h] if h in self.network else self.touch[h]
        while nxt is not None:
            out.append(nxt)
            nxt = self.network[nxt]
        return tuple(out)

    def route_name(self, hexes: tuple[Hex, ...]) -> str:
        """What a chain of road/track hexes runs along: ``road``, ``track`` or ``road/track``."""
        routes = _static(self.scenario).routes
        mask = 0
        for a, b in itertools.pairwise(hexes):
            mask |= dict(routes.get(a, ())).get(b, 0)
        return _KIND_NAMES[mask]

    @cached_property
    def all_routes(self) -> dict[Hex, Hex | None]:
        """The network as it would be with nothing blocking it (for explanations)."""
        routes = _static(self.scenario).routes
        parent: dict[Hex, Hex | None] = dict.fromkeys(sorted(self.sources))
        queue = deque(sorted(self.sources))
        while queue:
            h = queue.popleft()
            for n, _ in routes.get(h, ()):
                if n not in parent:
                    parent[n] = h
                    queue.append(n)
        return parent


def supply_context(position: Position, side: Side) -> SupplyContext:
    """Build the shared facts for ``side``'s supply questions in ``position``: one enemy ZoC map,
    one breadth-first search from the sources along road/track hexsides."""
    s = position.scenario
    enemy = side.enemy
    enemy_hexes = position.occupied(enemy)
    friendly_hexes = position.occupied(side)
    static = _static(s)
    allied_control = position.allied_control
    enemy_towns = {
        h: name for name, h in static.towns.items() if (name in allied_control) is (enemy is Side.ALLIED)
    }
    sources: dict[Hex, str] = {}
    edges: dict[Hex, str] = {}
    if side is Side.ALLIED:
        for name, first, last, hexes in static.edges:
            if first <= position.turn <= last:
                for h in hexes:
                    edges.setdefault(h, name)
                    sources.setdefault(h, name)
    for name, owner, hexes in static.sources:
        if owner is side:
            for h in hexes:
                sources.setdefault(h, name)
    ctx = SupplyContext(
        position=position,
        side=side,
        zoc=zoc_map(position, enemy),
        enemy_hexes=enemy_hexes,
        friendly_hexes=friendly_hexes,
        enemy_towns=enemy_towns,
        sources=sources,
        edges=edges,
    )
    return _connect(ctx)


def closing(ctx: SupplyContext, enemy_at: Hex, zoc: Iterable[Hex]) -> SupplyContext:
    """``ctx`` with enemy units in ``enemy_at`` and the hexes ``zoc`` in their ZoC besides, every
    other unit where it stands: a supply check of one more enemy unit on the map.  It only closes
    ways (12.1) and shortens lines (12.0), so a unit of the side that draws supply on it draws
    supply wherever that enemy unit comes from (its leaving a hex only opens ways); the threat
    map's supply cuts check a unit on the moved position only where it does not.  New ZoC hexes
    are entered as soft: supply asks only whether a hex is in a ZoC."""
    zones = dict(ctx.zoc)
    for h in zoc:
        zones.setdefault(h, Zoc.SOFT)
    out = SupplyContext(
        position=ctx.position,
        side=ctx.side,
        zoc=zones,
        enemy_hexes=ctx.enemy_hexes | {enemy_at},
        friendly_hexes=ctx.friendly_hexes,
        enemy_towns=ctx.enemy_towns,
        sources=ctx.sources,
        edges=ctx.edges,
    )
    network = ctx.network
    if enemy_at in network or any(h in network and h not in ctx.friendly_hexes for h in zones.keys() - ctx.zoc.keys()):
        return _connect(out)
    # No hex of the road/track network closes, so the search from the sources would find the
    # same network, hex by hex: it is shared, not searched again (nothing changes it once made).
    out.network, out.touch, out.kinds = network, ctx.touch, ctx.kinds
    return out


def _connect(ctx: SupplyContext) -> SupplyContext:
    """Breadth-first from the open sources along road/track: the nearest source wins."""
    routes = _static(ctx.scenario).routes
    sources = ctx.sources
    network = ctx.network
    touch = ctx.touch
    kinds = ctx.kinds
    queue: deque[Hex] = deque()
    for h in sorted(sources):
        if ctx.open(h):
            network[h] = None
            kinds[h] = 0
            queue.append(h)
    while queue:
        h = queue.popleft()
        mask = kinds[h]
        for n, kind in routes.get(h, ()):
            if n in network:
                continue
            if ctx.open(n):
                network[n] = h
                kinds[n] = mask | kind
                queue.append(n)
            elif n not in touch:
                touch[n] = h
                kinds[n] = mask | kind
    return ctx


# -- tracing -----------------------------------------------------------------------------------
def can_draw_supply(
    position: Position,
    side: Side,
    from_hex: Hex,
    *,
    context: SupplyContext | None = None,
    explain: bool = True,
) -> SupplyTrace:
    """Could a unit of ``side`` standing in ``from_hex`` draw supply now (12.0-12.2)?

    The trace names the line and the limit that applied, or (``explain``) the candidate routes
    and what blocks each.  Native villages (12.3) and the air unit (11.3) belong to units: see
    :func:`unit_supply`.  The same question, asked of an empty town, decides 12.7."""
    ctx = context if context is not None else supply_context(position, side)
    if ctx.side is not side:
        raise ValueError(f"the context is for the {ctx.side.adjective} side, not the {side.adjective}")
    return trace_from(ctx, from_hex, explain)


def trace_from(
    ctx: SupplyContext, origin: Hex, explain: bool, unit: str | None = None, name: str | None = None
) -> SupplyTrace:
    side = ctx.side
    if origin in ctx.edges:
        return SupplyTrace(side, origin, True, "12.2", "edge", source=ctx.edges[origin], unit=unit, name=name)
    if origin in ctx.sources:
        return SupplyTrace(side, origin, True, "12.0", "source", route=(origin,), source=ctx.sources[origin],
                           limit_why="no hex entered", unit=unit, name=name)
    if origin in ctx.network or origin in ctx.touch:
        route = ctx.route_to_source(origin)
        return SupplyTrace(side, origin, True, "12.0", _KIND_NAMES[ctx.kinds[origin]], route=route,
                           source=ctx.sources[route[-1]], limit_why="no hex entered", unit=unit, name=name)
    found = _search_line(ctx, origin)
    if found is not None:
        line = found
        end = line[-1]
        route = ctx.route_to_source(end)
        hill = next((h for h in line if h in _static(ctx.scenario).hills), None)
        zoc = next((h for h in line if h in ctx.zoc), None)
        reaches = "source" if end in ctx.sources else _KIND_NAMES[ctx.kinds[end]]
        return SupplyTrace(
            side, origin, True, "12.0", reaches, line=line, reached=end, route=route,
            source=ctx.sources[route[-1]], limit=line_limit(hill is not None, zoc is not None),
            limit_why=_limit_why(ctx, hill, zoc) + " (12.0)", unit=unit, name=name,
        )
    candidates = _candidates(ctx, origin) if explain else ()
    return SupplyTrace(side, origin, False, "12.0", candidates=candidates, unit=unit, name=name)


def supplied_at(ctx: SupplyContext, origin: Hex) -> bool:
    """``trace_from(ctx, origin, ...).supplied`` without making the trace (the Supply phase asks
    it of every unit and empty town, and needs the line only to tell it)."""
    return (origin in ctx.edges or origin in ctx.sources or origin in ctx.network or origin in ctx.touch
            or _line_exists(ctx, origin))


def _line_exists(ctx: SupplyContext, origin: Hex) -> bool:
    """``_search_line(ctx, origin) is not None`` without the line (the Supply phase, the threat
    map and the planner ask it of many units): the same search, unrolled over the hexes a line
    may run with no state kept as a tuple.  12.0's limits (``LINE_LIMITS``): a line that has
    entered a hill and a ZoC ends in its first hex, one that has entered either in its second."""
    s = ctx.scenario
    adjacent = s.adjacent
    closed = ctx.line_closed()
    hills = _static(s).hills
    zoc = ctx.zoc
    network = ctx.network
    clear: list[Hex] = []  # first hexes of a line that has entered neither a hill nor a ZoC
    second: list[tuple[Hex, bool]] = []  # first hexes of a line that has entered one: (hex, a hill)
    for n in adjacent.get(origin, ()):
        if n in closed or n == origin:
            continue
        if n in network:
            return True
        nh, nz = n in hills, n in zoc
        if not nh and not nz:
            clear.append(n)
        elif not (nh and nz):
            second.append((n, nh))
    for h, hill in second:  # its second hex may not enter the other one
        for n in adjacent.get(h, ()):
            if n in network and n not in closed and n != origin and not (n in zoc if hill else n in hills):
                return True
    third: set[Hex] = set()  # only a line that has entered neither runs three hexes
    for h in clear:
        for n in adjacent.get(h, ()):
            if n in closed or n == origin:
                continue
            nh, nz = n in hills, n in zoc
            if n in network and not (nh and nz):
                return True
            if not nh and not nz:
                third.add(n)
    for h in third:
        for n in adjacent.get(h, ()):
            if n in network and n not in closed and n != origin and n not in hills and n not in zoc:
                return True
    return False


assert LINE_LIMITS == (3, 2, 2, 1) and MAX_LINE == 3  # what _line_exists unrolls


def _limit_why(ctx: SupplyContext, hill: Hex | None, zoc: Hex | None) -> str:
    """Why the line may be as long as it may (12.0), in words, without the rule number."""
    parts = []
    if hill is not None:
        parts.append(f"a hill hex ({hill.label})")
    if zoc is not None:
        held = ", held by a friendly unit" if zoc in ctx.friendly_hexes else ""
        parts.append(f"an enemy ZoC ({zoc.label}{held})")
    if not parts:
        return "it enters neither hills nor an enemy ZoC"
    return "it enters " + " and ".join(parts)


def _search_line(ctx: SupplyContext, origin: Hex) -> tuple[Hex, ...] | None:
    """The shortest legal supply line from ``origin`` to the network, breadth-first over
    (hex, entered a hill yet, entered an enemy ZoC yet)."""
    s = ctx.scenario
    adjacent = s.adjacent
    closed = ctx.line_closed()
    hills = _static(s).hills
    zoc = ctx.zoc
    network = ctx.network
    start = (origin, False, False)
    parent: dict[tuple[Hex, bool, bool], tuple[Hex, bool, bool]] = {}
    frontier = [start]
    for depth in range(1, MAX_LINE + 1):
        nxt = []
        for state in frontier:
            h, hill, inzoc = state
            for n in adjacent.get(h, ()):
                if n in closed or n == origin:
                    continue
                nh = hill or n in hills
                nz = inzoc or n in zoc
                if depth > LINE_LIMITS[2 * nh + nz]:
                    continue
                ns = (n, nh, nz)
                if ns in parent:
                    continue
                parent[ns] = state
                if n in network:
                    path = [n]
                    back = state
                    while back != start:
                        path.append(back[0])
                        back = parent[back]
                    return tuple(reversed(path))
                nxt.append(ns)
        frontier = nxt
    return None


def _candidates(ctx: SupplyContext, origin: Hex) -> tuple[Candidate, ...]:
    """Every source or road/track hex (that leads to a source when nothing blocks it) within
    three hexes, with the least-blocked route to it and everything that blocks that route."""
    s = ctx.scenario
    all_routes = ctx.all_routes
    best: dict[Hex, tuple[tuple[int, int, tuple[Hex, ...]], Candidate]] = {}

    def consider(path: tuple[Hex, ...]) -> None:
        target = path[-1] if path else origin
        blocks: list[Block] = []
        for h in path:
            if h in s.mountains:
                why = f"{h.label} is a mountain hex: a supply line never enters one"
                blocks.append(Block("12.0", why, h, "mountain"))
            blocks += ctx.closed_because(h)
        hill = next((h for h in path if h in _static(s).hills), None)
        zoc = next((h for h in path if h in ctx.zoc), None)
        limit = line_limit(hill is not None, zoc is not None)
        if len(path) > limit:
            why = _limit_why(ctx, hill, zoc)
            blocks.append(Block("12.0", f"the line would be {len(path)} hexes but may be only {limit}: {why}",
                                None, "length"))
        if target not in ctx.sources:
            blocks += _route_blocks(ctx, target)
        if target in ctx.sources:
            reaches = "source"
        else:
            chain = _all_route(all_routes, target)
            reaches = ctx.route_name(chain)
        key = (sum(_BLOCK_WEIGHT.get(b.kind, 2) for b in blocks), len(path), path)
        old = best.get(target)
        if old is None or key < old[0]:
            best[target] = (key, Candidate(target, reaches, path, tuple(blocks)))

    if origin in all_routes:
        consider(())
    adjacent = s.adjacent

    def walk(path: tuple[Hex, ...]) -> None:
        here = path[-1] if path else origin
        for n in adjacent.get(here, ()):
            if n == origin or n in path:
                continue
            longer = (*path, n)
            if n in all_routes:
                consider(longer)
            if len(longer) < MAX_LINE:
                walk(longer)

    walk(())
    ordered = sorted(best.values(), key=lambda item: (item[0][0], len(item[1].path), item[1].target))
    return tuple(c for _, c in ordered)


def _all_route(all_routes: dict[Hex, Hex | None], h: Hex) -> tuple[Hex, ...]:
    out = [h]
    nxt = all_routes[h]
    while nxt is not None:
        out.append(nxt)
        nxt = all_routes[nxt]
    return tuple(out)


def _route_blocks(ctx: SupplyContext, target: Hex) -> list[Block]:
    """If the road/track from ``target`` no longer leads to a source, where it is cut (12.1):
    one block naming every closed hex along the shortest road/track to a source."""
    if target in ctx.network:
        return []
    chain = _all_route(ctx.all_routes, target)
    cuts = [(h, ctx.closed_because(h)) for h in chain[1:]]
    cuts = [(h, why) for h, why in cuts if why]
    if not cuts:
        return []
    kind = ctx.route_name(chain)
    source = ctx.sources[chain[-1]]
    owner = ctx.side.enemy.adjective
    groups: dict[str, list[str]] = {}
    for h, why in cuts:
        for b in why:
            if b.kind == "enemy_town":
                text = f"{ctx.enemy_towns[h]}, an {owner}-controlled town"
            else:
                text = {"enemy_units": "enemy units", "zoc": "enemy ZoC, no friendly unit"}[b.kind]
            groups.setdefault(text, []).append(h.label)
    where = "; ".join(f"{', '.join(hexes)} ({text})" for text, hexes in groups.items())
    return [Block("12.1", f"the {kind} from {target.label} to {source} is cut at {where}", cuts[0][0], "route")]


def unit_supply(
    position: Position,
    unit_id: str,
    *,
    context: SupplyContext | None = None,
    explain: bool = True,
) -> SupplyTrace:
    """Can this unit draw supply now?  The air unit always can (11.3); a native unit can in its
    own village (12.3); an allied unit can on a live red edge (12.2); any other traces a line
    (12.0, 12.1)."""
    s = position.scenario
    unit = position.units[unit_id]
    d = s.units[unit_id]
    name = d.name
    own = _own_supply(s, unit_id, unit.hex)
    if own is not None:
        rule, reaches, source = own
        return SupplyTrace(unit.side, unit.hex, True, rule, reaches, source=source, unit=unit_id, name=name)
    if unit.hex is None:
        raise ValueError(f"{name} is not on the map; only units on the map trace supply")
    ctx = context if context is not None and context.side is unit.side else supply_context(position, unit.side)
    return trace_from(ctx, unit.hex, explain, unit_id, name)


def _own_supply(s: Scenario, unit_id: str, at: Hex | None) -> tuple[str, str, str | None] | None:
    """(rule, what it reaches, source) for a unit that needs no line: the air unit (11.3), a
    native unit in its own village (12.3)."""
    d = s.units[unit_id]
    if d.type.air:
        return ("11.3", "air", None)
    native = d.counter.native
    if native is not None and _static(s).villages.get(native.village) == at:
        return ("12.3", "village", native.village)
    return None


def check_side(
    position: Position, side: Side, *, explain: bool = False, context: SupplyContext | None = None
) -> dict[str, SupplyTrace]:
    """Every unit of ``side`` on the map, traced on one shared context (``context``, if given,
    must be ``side``'s for this very position)."""
    ctx = context if context is not None and context.side is side else supply_context(position, side)
    return {
        uid: unit_supply(position, uid, context=ctx, explain=explain)
        for uid, unit in position.units.items()
        if unit.side is side and unit.status is Status.MAP and unit.hex is not None
    }


def supplied_units(position: Position, side: Side, context: SupplyContext | None = None) -> dict[str, bool]:
    """``{uid: trace.supplied}`` for :func:`check_side`'s traces, in the same order, without
    making them."""
    ctx = context if context is not None and context.side is side else supply_context(position, side)
    s = position.scenario
    out: dict[str, bool] = {}
    for uid, unit in position.units.items():
        if unit.side is side and unit.status is Status.MAP and unit.hex is not None:
            out[uid] = _own_supply(s, uid, unit.hex) is not None or supplied_at(ctx, unit.hex)
    return out
