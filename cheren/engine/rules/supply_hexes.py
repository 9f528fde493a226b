"""Where a side could draw supply: every hex of the map with the length of its shortest supply
line (12.0-12.2), worked backwards from the road/track network in one search and kept under what
it depends on.  Bots read it for every move they weigh, the threat map and the supply overlay
for the whole map; the line of one unit, with its reasons, is :mod:`cheren.engine.rules.supply`'s."""

from __future__ import annotations

from collections.abc import Hashable, Mapping

from cheren.engine.position import Position
from cheren.engine.rules.supply import LINE_LIMITS, SupplyContext, hill_hexes, supply_context
from cheren.engine.rules.supply_trace import MAX_LINE
from cheren.engine.rules.zoc import zoc_map
from cheren.hexes import Hex
from cheren.scenario.compiled import Scenario
from cheren.scenario.memo import ScenarioMemo
from cheren.scenario.models import Side


def _no_supplied(s: Scenario) -> dict[tuple[object, ...], dict[Hex, int]]:
    return {}


_SUPPLIED = ScenarioMemo(_no_supplied)


def supplied_hexes(position: Position, side: Side, *, context: SupplyContext | None = None) -> dict[Hex, int]:
    """Every hex where a unit of ``side`` could draw supply now (12.0-12.2), with the length of
    its shortest supply line (0: it stands on a source, the road/track network or a live red
    edge).  Hexes holding enemy units are left out.  Worked backwards from the network, so the
    whole map costs about as much as a few units.

    Without a ``context`` the answer is kept under what it depends on: the enemy's units (their
    change stamp), the friendly units that stand in enemy ZoC (12.1: only there do they matter),
    town control and the turn (which red edges are live, 12.2).  A bot moving its units about
    behind the front asks the same question many times and gets it answered once."""
    if context is not None:
        return _supplied_hexes(position, context)
    return dict(supplied_view(position, side)[1])


def supplied_view(position: Position, side: Side) -> tuple[Hashable, Mapping[Hex, int]]:
    """:func:`supplied_hexes` as it is kept (read it, never change it), with the key it is kept
    under: a caller that works something out from it can keep that under the same key."""
    zoc = zoc_map(position, side.enemy)
    held = frozenset(u.hex for u in position.units.values() if u.side is side and u.on_map and u.hex in zoc)
    key = (side, position.stamp(side.enemy), held, frozenset(position.allied_control), position.turn)
    cache = _SUPPLIED(position.scenario)
    found = cache.get(key)
    if found is None:
        if len(cache) > 256:
            cache.clear()
        found = cache[key] = _supplied_hexes(position, supply_context(position, side))
    return key, found


def _supplied_hexes(position: Position, ctx: SupplyContext) -> dict[Hex, int]:
    s = position.scenario
    hills = hill_hexes(s)
    mountains = s.mountains
    adjacent = s.adjacent
    out: dict[Hex, int] = {}
    for h in (*ctx.sources, *ctx.network, *ctx.touch, *ctx.edges):
        if h in s.playable:
            out[h] = 0
    # States (first hex of the line, hill entered, ZoC entered), by length: the hexes in
    # ``frontier`` with their flags (2 * hill + zoc) beside them in ``flags``, and the states seen
    # as a set of hexes per flags (no state made as a tuple: the search looks at thousands).
    zoc = ctx.zoc
    closed = ctx.line_closed()  # where neither the line may go (12.0 mountains, 12.1)
    seen: tuple[set[Hex], set[Hex], set[Hex], set[Hex]] = (set(), set(), set(), set())
    frontier: list[Hex] = []
    flags: list[int] = []
    starts: set[Hex] = set()  # the network hexes a line may end in
    for h in ctx.network:
        if h in mountains or h not in s.playable:
            continue
        starts.add(h)
        f = 2 * (h in hills) + (h in zoc)
        if h not in seen[f]:
            seen[f].add(h)
            frontier.append(h)
            flags.append(f)
    # A line ends at the first network hex it meets: one that would go on through a network hex
    # is longer, and no freer, than the line that stops there (that hex's start state), so
    # going on adds no origin the search has not found sooner.
    barred = closed | starts
    length = 1
    while frontier:
        for h in frontier:
            for origin in adjacent[h]:
                if origin not in out:  # lengths only grow: the first one found is the shortest
                    out[origin] = length
        if length == MAX_LINE:
            break
        nxt: list[Hex] = []
        nxt_flags: list[int] = []
        for j in range(len(frontier)):
            f = flags[j]
            if LINE_LIMITS[f] <= length:
                continue  # as long as this line may be: no hex leads on from here
            for p in adjacent[frontier[j]]:
                if p in barred:
                    continue
                nf = f | (2 if p in hills else 0) | (1 if p in zoc else 0)
                if length + 1 > LINE_LIMITS[nf]:
                    continue
                if p not in seen[nf]:
                    seen[nf].add(p)
                    nxt.append(p)
                    nxt_flags.append(nf)
        frontier, flags = nxt, nxt_flags
        length += 1
    for h in ctx.enemy_hexes:  # (fewer than the hexes kept: taken out rather than copied around)
        out.pop(h, None)
    return out
