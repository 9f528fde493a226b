"""Movement, rules 9.0 and 9.1 with the ZoC effects of 4.0.

Costs are kept as whole "ticks" (the smallest fraction of a movement point the terrain key
uses, e.g. half points for roads) so sums are exact and comparisons never suffer rounding.
"""

from __future__ import annotations

import heapq
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, NamedTuple

from cheren.engine.position import Position, Status
from cheren.engine.rules.immobility import immobile_reason as immobile_reason  # where callers found it
from cheren.engine.rules.immobility import is_immobile
from cheren.engine.rules.move_costs import Edge as Edge  # where callers found them
from cheren.engine.rules.move_costs import MoveGraph as MoveGraph
from cheren.engine.rules.move_costs import enterable_hexes as enterable_hexes
from cheren.engine.rules.move_costs import move_graph as move_graph
from cheren.engine.rules.zoc import Zoc, zoc_map
from cheren.hexes import Hex, Hexside
from cheren.scenario.compiled import Scenario
from cheren.scenario.memo import ScenarioMemo
from cheren.scenario.models import Side


# -- reach ----------------------------------------------------------------------------------
class Reach(NamedTuple):
    """One reachable hex.  A named tuple rather than a dataclass: a search makes dozens of them
    and a game tens of thousands, so their construction cost shows."""

    hex: Hex
    ticks: int
    scale: int
    path: tuple[Hex, ...]  # from the start (excluded) to this hex (included)
    stops: bool  # entered a hard ZoC: movement ends here (4.0)

    @property
    def cost(self) -> Fraction:
        """Movement points spent to get there."""
        return Fraction(self.ticks, self.scale)


@dataclass
class MoveOptions:
    """What chits change about one unit's move this phase: extra MP (Forced march), no ZoC
    cost or stop (Infiltrate), no river cost (Engineers), hexes without road movement where the
    unit must stop (Roadblock), road crossings that pay the river again (Demolition)."""

    extra_mp: int = 0
    ignore_zoc: bool = False
    ignore_rivers: bool = False
    stop_at: frozenset[Hex] = field(default_factory=frozenset)
    no_road: frozenset[Hex] = field(default_factory=frozenset)
    blown_bridges: frozenset[Hexside] = field(default_factory=frozenset)


def edge_cost(graph: MoveGraph, here: Hex, e: Edge, opts: MoveOptions) -> int:
    """Ticks to cross from ``here`` along ``e`` (ZoC not included), with the chits' changes."""
    if e.road and (e.to in opts.no_road or here in opts.no_road):
        cost = e.off_road_ticks
        road = False
    else:
        cost = e.ticks
        road = e.road
    if e.river:
        blown = road and bool(opts.blown_bridges) and Hexside.between(here, e.to) in opts.blown_bridges
        if blown:
            cost += graph.river_ticks  # the bridge is down: the road crossing pays the river again
        if opts.ignore_rivers and (blown or not road):
            cost -= graph.river_ticks  # Engineers cross without the river cost
    return cost


class ReachMap:
    """Where one unit can go this phase: ``reach`` maps every hex it can end its move in to a
    :class:`Reach` (cost, cheapest path, whether it must stop there).

    The search hands over its own tables and the :class:`Reach` values are made only when
    ``reach`` is first read: the game lists moves straight from the paths (:meth:`targets`)
    and asks about one hex at a time (:meth:`get`), so most maps never need them."""

    __slots__ = ("_reach", "_search", "mp", "start", "unit_id")

    def __init__(self, unit_id: str, start: Hex, mp: Fraction, reach: dict[Hex, Reach] | None = None,
                 search: _Search | None = None) -> None:
        self.unit_id = unit_id
        self.start = start
        self.mp = mp
        self._reach = reach if reach is not None or search is not None else {}
        self._search = search

    @property
    def reach(self) -> dict[Hex, Reach]:
        if self._reach is None:
            assert self._search is not None
            self._reach = self._search.all()
        return self._reach

    def get(self, h: Hex) -> Reach | None:
        """The unit's way to ``h``, or None if it cannot end its move there."""
        if self._reach is None and self._search is not None:
            return self._search.get(h)
        return self.reach.get(h)

    def targets(self) -> list[tuple[Hex, tuple[Hex, ...]]]:
        """Every hex the unit can reach with its cheapest path, in hex order."""
        if self._reach is None and self._search is not None:
            return self._search.targets()
        return [(h, r.path) for h, r in sorted(self.reach.items())]

    def target_paths(self) -> list[tuple[Hex, ...]]:
        """The cheapest path to every hex the unit can reach, in hex order (the paths of
        :meth:`targets`)."""
        if self._reach is None and self._search is not None:
            return self._search.target_paths()
        return [r.path for _, r in sorted(self.reach.items())]

    def target_count(self) -> int:
        """How many hexes the unit can reach (of :meth:`targets`), nothing made."""
        if self._reach is None and self._search is not None:
            return len(self._search.found)
        return len(self.reach)

    def target_path(self, i: int) -> tuple[Hex, ...]:
        """``target_paths()[i]``, without making the other paths."""
        s = self._search
        if self._reach is None and s is not None:
            return s.path(s.order()[i])
        return self.target_paths()[i]

    def __contains__(self, h: object) -> bool:
        if self._reach is None and self._search is not None:
            return isinstance(h, Hex) and self._search.get(h) is not None
        return h in self.reach

    def hexes(self) -> list[Hex]:
        return sorted(self.reach)

    def reached(self) -> list[Hex]:
        """``reach``'s hexes in its order, without making their Reach (a named tuple: made by Python code)."""
        s = self._search
        return list(self.reach) if self._reach is not None or s is None else [s.hexes[j] for j in s.found]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ReachMap):
            return NotImplemented
        return (self.unit_id, self.start, self.mp, self.reach) == (other.unit_id, other.start, other.mp, other.reach)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"ReachMap(unit_id={self.unit_id!r}, start={self.start!r}, mp={self.mp!r}, reach={self.reach!r})"


def reachable(position: Position, unit_id: str, options: MoveOptions | None = None, *,
              zoc: dict[Hex, Zoc] | None = None, enemy_hexes: AbstractSet[Hex] | None = None,
              previous: ReachMap | None = None) -> ReachMap:
    """Every hex the unit can reach this phase, with its cost and the cheapest path (9.0).

    Costs: the costliest terrain of the entered hex plus any river hexside, or only the road
    cost when following a road; +1 to enter an enemy ZoC (never more); movement ends on
    entering a hard ZoC; never into enemy units, nor mountains for tanks and motorized units
    (9.1).  A unit that may not move at all reaches nothing (see :func:`immobile_reason`).

    ``zoc`` and ``enemy_hexes`` may be passed in when many units of one side are asked about
    the same position (they must be the enemy's ZoC map and occupied hexes).  ``previous``, an
    earlier answer for the same unit, is returned again when nothing it depends on changed."""
    opts = options or _PLAIN
    unit = position.units[unit_id]
    start = unit.hex
    assert start is not None or unit.status is not Status.MAP
    if start is None or is_immobile(position, unit_id):
        return ReachMap(unit_id, start or Hex(0, 0), Fraction(0), {})
    s = position.scenario
    graph = move_graph(s)
    budget = (position.movement(unit_id) + opts.extra_mp) * graph.scale
    enemy = unit.side.enemy
    if opts.ignore_zoc:
        zoc = _NO_ZOC
    elif zoc is None:
        zoc = zoc_map(position, enemy)
    occupied_by_enemy = enemy_hexes if enemy_hexes is not None else position.occupied(enemy)
    no_mountain = not s.units[unit_id].type.may_enter_mountain
    net = _NETWORKS(s)
    mp = graph.mp(budget)
    if net.positive and start in net.index:
        # (net.positive holds for the costs the chits change too: they never make a step free)
        before = previous._search if previous is not None and previous.unit_id == unit_id else None
        search = _search_network(net, graph.scale, start, budget, no_mountain, zoc, occupied_by_enemy, opts.stop_at,
                                 before, net.steps_with(graph, no_mountain, opts))
        if previous is not None and search is before:
            return previous
        return ReachMap(unit_id, start, mp, search=search)
    reach = _reach_with_options(graph, start, budget, no_mountain, zoc, occupied_by_enemy, opts)
    return ReachMap(unit_id, start, mp, reach)


_NO_ZOC: dict[Hex, Zoc] = {}
_PLAIN = MoveOptions()  # no chit in force (read only, never changed)
BLOCKED = 1 << 30  # the extra ticks of entering a hex that holds enemy units: more than any budget


Steps = tuple[tuple[int, int], ...]  # the hexes a move can enter from one hex, and their cost in ticks


@dataclass(frozen=True)
class _Network:
    """A scenario's movement graph with hexes numbered in sorted order, so the reach search
    works on list indices instead of hashing hexes: for each hex, the hexes a move can enter
    next and their cost in ticks, without mountains (tanks, motorized) and with them."""

    hexes: tuple[Hex, ...]
    index: dict[Hex, int]
    steps: tuple[tuple[Steps, ...], tuple[Steps, ...]]
    positive: bool  # every move costs at least one tick (what the bucket search relies on)
    # each hex as a path of one hex: a path is its parent's plus this, with no tuple made for it
    singles: tuple[tuple[Hex], ...]
    terrain: dict[tuple[int, int, frozenset[Hex]], tuple[object, object, list[int], list[bool]]] = field(
        default_factory=dict
    )
    # the steps as chits change their costs (Engineers, Roadblock, Demolition), by what changes them
    changed: dict[tuple[Any, ...], tuple[Steps, ...]] = field(default_factory=dict)
    # where two enemy terrains differ, and each steps table backwards (see _Search.holds_for)
    diffs: dict[tuple[int, ...], tuple[Any, ...]] = field(default_factory=dict)
    inverse: dict[int, tuple[Any, tuple[tuple[int, ...], ...]]] = field(default_factory=dict)

    def differences(self, enter: list[int], stop: list[bool], enter2: list[int], stop2: list[bool]) -> list[int]:
        """The hexes where two enemy terrains (:meth:`enemy_terrain`) differ, kept while both live:
        every unit of a side that stood still asks it of the same two."""
        key = (id(enter), id(stop), id(enter2), id(stop2))
        found = self.diffs.get(key)
        if found is None or any(a is not b for a, b in zip(found, (enter, stop, enter2, stop2), strict=False)):
            changed = [i for i, (a, b, c, d) in enumerate(zip(enter, enter2, stop, stop2, strict=True))
                       if a != b or c != d]
            if len(self.diffs) > 64:
                self.diffs.clear()
            found = self.diffs[key] = (enter, stop, enter2, stop2, changed)
        return found[4]  # type: ignore[no-any-return]

    def into(self, steps: tuple[Steps, ...]) -> tuple[tuple[int, ...], ...]:
        """For each hex, the hexes a move can enter it from under ``steps``."""
        found = self.inverse.get(id(steps))
        if found is None or found[0] is not steps:
            into: list[list[int]] = [[] for _ in self.hexes]
            for h, nexts in enumerate(steps):
                for j, _ in nexts:
                    into[j].append(h)
            found = self.inverse[id(steps)] = (steps, tuple(tuple(hs) for hs in into))
        return found[1]

    def steps_with(self, graph: MoveGraph, no_mountain: bool, opts: MoveOptions) -> tuple[Steps, ...]:
        """``steps[no_mountain]`` with each cost as :func:`edge_cost` gives it under ``opts``."""
        if not (opts.ignore_rivers or opts.no_road or opts.blown_bridges):
            return self.steps[no_mountain]
        key = (no_mountain, opts.ignore_rivers, opts.no_road, opts.blown_bridges)
        found = self.changed.get(key)
        if found is None:
            index = self.index
            # only the hexes with a crossing the chits change: a road into or out of a hex without
            # road movement, a blown bridge, any river for Engineers (the other rows are the plain ones)
            touched = set(opts.no_road)
            touched.update([n for h in opts.no_road for n in h.neighbours()], *opts.blown_bridges)
            if opts.ignore_rivers:
                touched.update(h for h, edges in graph.edges.items() if any(e.river for e in edges))
            rows = list(self.steps[no_mountain])
            for h in touched & index.keys():
                rows[index[h]] = tuple((index[e.to], edge_cost(graph, h, e, opts)) for e in graph.edges[h]
                                       if e.ticks >= 0 and e.to in index and not (no_mountain and e.mountain))
            found = tuple(rows)
            if len(self.changed) > 64:
                self.changed.clear()
            self.changed[key] = found
        return found

    def enemy_terrain(
        self, zoc: dict[Hex, Zoc], occupied: AbstractSet[Hex], stop_at: frozenset[Hex], zoc_ticks: int
    ) -> tuple[list[int], list[bool]]:
        """What the enemy makes of each hex: ``enter`` is the extra cost of entering it (a ZoC:
        +1 MP) or :data:`BLOCKED` when enemy units hold it; ``stop`` where a move must end (hard ZoC,
        Roadblock).  Kept while the same ZoC map and occupied set are asked about (they are
        the shared, never-changed ones from :func:`zoc_map` and ``Position.occupied``)."""
        key = (id(zoc), id(occupied), stop_at)
        found = self.terrain.get(key)
        if found is None or found[0] is not zoc or found[1] is not occupied:
            index = self.index
            enter = [0] * len(self.hexes)
            stop = [False] * len(self.hexes)
            for h, kind in zoc.items():
                i = index.get(h)
                if i is not None:
                    enter[i] = zoc_ticks
                    stop[i] = kind is Zoc.HARD
            for h in occupied:
                i = index.get(h)
                if i is not None:
                    enter[i] = BLOCKED
            for h in stop_at:
                i = index.get(h)
                if i is not None:
                    stop[i] = True
            if len(self.terrain) > 64:
                self.terrain.clear()
            found = self.terrain[key] = (zoc, occupied, enter, stop)
        return found[2], found[3]


def _network(s: Scenario) -> _Network:
    """The scenario's numbered network, made once from its movement graph."""
    return _NETWORKS(s)


def _build_network(s: Scenario) -> _Network:
    graph = move_graph(s)
    hexes = tuple(sorted(graph.edges))
    index = {h: i for i, h in enumerate(hexes)}
    variants = []
    for no_mountain in (False, True):
        variants.append(tuple(
            tuple((index[e.to], e.ticks) for e in graph.edges[h]
                  if e.ticks >= 0 and e.to in index and not (no_mountain and e.mountain))
            for h in hexes
        ))
    costs = [e.ticks for edges in graph.edges.values() for e in edges if e.ticks >= 0]
    costs += [e.off_road_ticks - (graph.river_ticks if e.river else 0) for edges in graph.edges.values()
              for e in edges if e.ticks >= 0]
    return _Network(hexes, index, (variants[0], variants[1]), min(costs, default=1) > 0, tuple((h,) for h in hexes))


_NETWORKS = ScenarioMemo(_build_network)


class _Search:
    """What one bucket search found, kept as its own tables (see :class:`ReachMap`), with what
    it read of the enemy, so a later search from the same hex can be answered by this one."""

    __slots__ = (
        "_order", "best", "enter", "found", "hexes", "index", "limit", "net", "no_mountain", "origin", "parent",
        "paths", "scale", "steps", "stop",
    )

    def __init__(
        self, net: _Network, scale: int, origin: int, limit: int, no_mountain: bool, best: list[int],
        found: list[int], parent: list[int], enter: list[int], stop: list[bool], steps: tuple[Steps, ...],
    ) -> None:
        self.net, self.hexes, self.index = net, net.hexes, net.index
        self.steps = steps
        self.scale, self.origin, self.limit, self.no_mountain = scale, origin, limit, no_mountain
        self.best, self.found, self.parent = best, found, parent
        # each hex's cheapest path, made when first asked for, from its parent's (made too and
        # kept): most of a search's paths are never read (a random game takes one listed move)
        self.paths: dict[int, tuple[Hex, ...]] = {origin: ()}
        self._order: list[int] | None = None
        self.enter, self.stop = enter, stop

    def path(self, j: int) -> tuple[Hex, ...]:
        """The cheapest path to hex ``j`` (reached, or the origin: ``()``), as the search found it:
        the parent of a hex is final once the hex is settled, and its parent was settled before it."""
        paths = self.paths
        found = paths.get(j)
        if found is not None:
            return found
        chain: list[int] = []
        parent = self.parent
        while found is None:
            chain.append(j)
            j = parent[j]
            found = paths.get(j)
        singles = self.net.singles
        for h in reversed(chain):
            found = paths[h] = found + singles[h]
        return found

    def order(self) -> list[int]:
        """The reached hexes in hex order (their numbers are), kept."""
        if self._order is None:
            self._order = sorted(self.found)
        return self._order

    def holds_for(self, origin: int, limit: int, no_mountain: bool, enter: list[int], stop: list[bool],
                  steps: tuple[Steps, ...] | None = None) -> bool:
        """Would a search from ``origin`` with this budget and these step costs (``steps``;
        default: this search's), over this enemy, find exactly what this one found?  It would if
        it reads the same values wherever this one read: the hexes it settled and every hex it
        looked into from them.  The search is deterministic, so it would then take the same
        steps to the same end."""
        if (origin, limit, no_mountain) != (self.origin, self.limit, self.no_mountain):
            return False
        if steps is not None and steps is not self.steps:
            return False  # other costs (a chit's): kept step tables are shared, so equal ones are the same
        if enter is self.enter and stop is self.stop:
            return True  # the very same enemy
        # It read the hexes it settled (the origin and every hex it reached: each was taken from
        # its bucket) and the hexes it looked into from them, but for the hexes a move had to stop
        # in: nothing was looked at from there.  Of the hexes where the enemy differs, is any one
        # of those?
        best, limit, stopped, into = self.best, self.limit, self.stop, self.net.into(self.steps)
        for c in self.net.differences(self.enter, self.stop, enter, stop):
            if best[c] < limit:
                return False
            for h in into[c]:
                if best[h] < limit and (h == self.origin or not stopped[h]):
                    return False
        return True

    def _reach(self, j: int) -> Reach:
        return Reach(self.hexes[j], self.best[j], self.scale, self.path(j), self.stop[j])

    def get(self, h: Hex) -> Reach | None:
        j = self.index.get(h)
        if j is None or j == self.origin or self.best[j] >= self.limit:
            return None
        return self._reach(j)

    def all(self) -> dict[Hex, Reach]:
        return {self.hexes[j]: self._reach(j) for j in self.found}  # in the order first reached

    def targets(self) -> list[tuple[Hex, tuple[Hex, ...]]]:
        hexes, path = self.hexes, self.path
        return [(hexes[j], path(j)) for j in self.order()]  # numbered in hex order

    def target_paths(self) -> list[tuple[Hex, ...]]:
        """The cheapest path to every hex it reaches, in hex order."""
        path = self.path
        return [path(j) for j in self.order()]


def _search_network(
    net: _Network,
    scale: int,
    start: Hex,
    budget: int,
    no_mountain: bool,
    zoc: dict[Hex, Zoc],
    occupied: AbstractSet[Hex],
    stop_at: frozenset[Hex],
    previous: _Search | None = None,
    steps: tuple[Steps, ...] | None = None,
) -> _Search:
    """Dijkstra with one bucket per tick (costs are small whole numbers).  Each bucket is taken
    in hex order, which is the order a heap of (cost, hex) pops in, so paths and ties come out
    exactly as :func:`_reach_with_options` finds them (``.all()`` gives its answer).

    ``previous``, an earlier search (of the same unit), is the answer when it still holds (see
    :meth:`_Search.holds_for`): a unit that stood still while the enemy moved elsewhere.
    ``steps``: the step costs as the unit's chits change them (:meth:`_Network.steps_with`)."""
    enter, stop = net.enemy_terrain(zoc, occupied, stop_at, scale)
    if steps is None:
        steps = net.steps[no_mountain]
    origin = net.index[start]
    limit = budget + 1
    if previous is not None and previous.holds_for(origin, limit, no_mountain, enter, stop, steps):
        return previous
    best = [limit] * len(net.hexes)
    best[origin] = 0
    parent = [0] * len(best)  # stored into faster than a dict (the paths are made from it when asked for)
    found: list[int] = []  # in the order first reached
    buckets: list[list[int]] = [[] for _ in range(limit)]
    # Every move costs at least a tick (net.positive), so the start is the only hex of bucket 0
    # and is never reached again; it is left whatever holds it there (4.0, 5.1).  A hex holding
    # enemy units costs BLOCKED to enter, which is never within the budget.
    for j, cost in steps[origin]:
        total = cost + enter[j]
        if total < best[j]:
            if best[j] == limit:
                found.append(j)
            best[j] = total
            parent[j] = origin
            buckets[total].append(j)
    for spent in range(1, limit):
        bucket = buckets[spent]
        if len(bucket) > 1:
            bucket.sort()
        for h in bucket:
            if best[h] != spent:
                continue  # reached more cheaply since
            if stop[h]:
                continue  # 4.0: stop on entering a hard ZoC (or a Roadblock)
            for j, cost in steps[h]:
                total = spent + cost + enter[j]
                known = best[j]
                if total < known:
                    if known == limit:
                        found.append(j)
                    best[j] = total
                    parent[j] = h
                    buckets[total].append(j)
    return _Search(net, scale, origin, limit, no_mountain, best, found, parent, enter, stop, steps)


def _reach_with_options(
    graph: MoveGraph,
    start: Hex,
    budget: int,
    no_mountain: bool,
    zoc: dict[Hex, Zoc],
    occupied_by_enemy: AbstractSet[Hex],
    opts: MoveOptions,
) -> dict[Hex, Reach]:
    """The general search: a heap over hexes, for a map with free moves (the bucket search needs
    every step to cost a tick), and the reference the bucket search is tested against."""
    zoc_ticks = graph.scale  # +1 MP
    plain = not (opts.ignore_rivers or opts.no_road or opts.blown_bridges)
    best: dict[Hex, int] = {start: 0}
    parent: dict[Hex, Hex] = {}
    heap: list[tuple[int, Hex]] = [(0, start)]
    while heap:
        spent, h = heapq.heappop(heap)
        if spent > best.get(h, budget + 1):
            continue
        if h != start and (zoc.get(h) is Zoc.HARD or h in opts.stop_at):
            continue  # 4.0: stop on entering a hard ZoC (or a Roadblock)
        for e in graph.edges[h]:
            if e.ticks < 0 or (no_mountain and e.mountain) or e.to in occupied_by_enemy:
                continue
            cost = e.ticks if plain else edge_cost(graph, h, e, opts)
            if e.to in zoc:
                cost += zoc_ticks
            total = spent + cost
            if total <= budget and total < best.get(e.to, budget + 1):
                best[e.to] = total
                parent[e.to] = h
                heapq.heappush(heap, (total, e.to))

    reach: dict[Hex, Reach] = {}
    for h, ticks in best.items():
        if h == start:
            continue
        path = [h]
        while path[-1] in parent and parent[path[-1]] != start:
            path.append(parent[path[-1]])
        reach[h] = Reach(h, ticks, graph.scale, tuple(reversed(path)), zoc.get(h) is Zoc.HARD or h in opts.stop_at)
    return reach


def enemy_occupied(position: Position, enemy: Side) -> set[Hex]:
    return {u.hex for u in position.units.values() if u.side is enemy and u.hex is not None}
