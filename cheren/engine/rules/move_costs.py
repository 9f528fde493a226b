"""The static movement costs of a scenario's map (9.0, 9.1, 1.1): for every hex, what entering
each neighbour costs in whole "ticks" (the smallest fraction of a movement point the terrain key
uses, e.g. half points for roads), made once per scenario.  Who is where (ZoC, enemy units) and
the chits in force are :mod:`cheren.engine.rules.movement`'s."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

from cheren.hexes import Hex, Hexside
from cheren.scenario.compiled import Scenario
from cheren.scenario.memo import ScenarioMemo


@dataclass(frozen=True, slots=True)
class Edge:
    """Moving from one hex into a neighbour: its cost in ticks, or why it is impossible."""

    to: Hex
    ticks: int  # -1: cannot be entered at all (unplayable or impassable terrain)
    off_road_ticks: int  # the cost when road movement is denied (a Roadblock chit)
    road: bool
    river: bool
    mountain: bool


@dataclass(frozen=True)
class MoveGraph:
    scale: int  # ticks per movement point
    river_ticks: int
    edges: dict[Hex, tuple[Edge, ...]]
    _mp: dict[int, Fraction] = field(default_factory=dict, compare=False, repr=False)

    def mp(self, ticks: int) -> Fraction:
        found = self._mp.get(ticks)  # a Fraction takes a gcd to make; a game asks for a few dozen
        if found is None:
            found = self._mp[ticks] = Fraction(ticks, self.scale)
        return found


def move_graph(s: Scenario) -> MoveGraph:
    """The static movement costs of a scenario's map, built once per scenario."""
    return _GRAPHS(s)


def _ticks_scale(values: list[float]) -> int:
    scale = 1
    for v in values:
        denominator = Fraction(v).limit_denominator(1000).denominator
        scale = scale * denominator // math.gcd(scale, denominator)
    return scale


def _build_graph(s: Scenario) -> MoveGraph:
    key = s.terrain_key
    costs = [t.move_cost for t in key.terrain if t.move_cost is not None]
    costs += [key.river.move_cost]
    road_cost = key.road.move_cost
    if road_cost is not None:
        costs.append(road_cost)
    scale = _ticks_scale(costs)

    known: dict[float, int] = {}

    def ticks(mp: float) -> int:
        found = known.get(mp)
        if found is None:  # a terrain key has a handful of costs; thousands of hexsides share them
            found = known[mp] = round(Fraction(mp).limit_denominator(1000) * scale)
        return found

    # A hex "has a road" if any road hexside touches it; following a track onto such a hex
    # pays the road cost (9.0: "from track onto road").
    road_hexes = {h for side in s.road_sides for h in side}
    enterable = enterable_hexes(s)
    edges: dict[Hex, tuple[Edge, ...]] = {}
    for h in s.playable:
        out = []
        for n in h.neighbours():
            info = s.hexes.get(n)
            if info is None:
                continue
            if n not in enterable:
                out.append(Edge(n, -1, -1, False, False, info.mountain))
                continue
            assert info.move_cost is not None  # an enterable hex has a cost
            side = Hexside.between(h, n)
            river = side in s.river_sides
            on_road = road_cost is not None and (
                side in s.road_sides or (side in s.track_sides and n in road_hexes)
            )
            off_road = ticks(info.move_cost) + (ticks(key.river.move_cost) if river else 0)
            if on_road:
                assert road_cost is not None
                cost = ticks(road_cost)
            else:
                cost = off_road
            out.append(Edge(n, cost, off_road, on_road, river, info.mountain))
        edges[h] = tuple(out)
    return MoveGraph(scale, ticks(key.river.move_cost), edges)


def _enterable(s: Scenario) -> frozenset[Hex]:
    return frozenset(h for h in s.playable if s.hexes[h].move_cost is not None)


# the map's hexes a unit may enter at all (1.1): the movement graph's, and asked of every
# neighbour of a retreat or a defection, so one set per scenario rather than each hex's terrains
# gone through again on every ask
enterable_hexes = ScenarioMemo(_enterable)
_GRAPHS = ScenarioMemo(_build_graph)
