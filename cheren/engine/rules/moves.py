"""Moves in the game, rules 9.0 (Movement), 10.0 (Enemy reaction) and 13.0 (Exploitation): who
may move in this phase, the :class:`Move` action's refusal and effect, and the legal moves.

Where one unit can go is worked out by :mod:`cheren.engine.rules.movement` on a position; here
the game's side of it: the phase, the units that moved already, the reaction allowance, the
chits in force (the rulebook's move-option and exploitation hooks), and the caches that keep
listing every legal move cheap as a phase goes on (:class:`MoveCache`, one per game).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from dataclasses import replace
from fractions import Fraction
from typing import Any

from cheren.engine.actions import Action, Move
from cheren.engine.position import Position, Status, Supply
from cheren.engine.registry import ActionRule, GameState, Refusal
from cheren.engine.rules import control
from cheren.engine.rules.immobility import immobile_reason, is_immobile
from cheren.engine.rules.move_reasons import explain_move, stop_reason
from cheren.engine.rules.movement import (
    MoveOptions,
    ReachMap,
    edge_cost,
    move_graph,
    reachable,
)
from cheren.engine.rules.zoc import Zoc, zoc_map
from cheren.engine.wording import hex_text, mp_text, rules_cited
from cheren.hexes import Hex
from cheren.scenario.models import Phase
from cheren.scenario.sequence import PHASE_TITLES

REACTION_LIMIT = 3  # 10.0: total stacking value the reacting side may move
MOVING_PHASES = (Phase.MOVEMENT, Phase.REACTION, Phase.EXPLOITATION)
_LIMIT = 4096  # entries a cache holds before it starts afresh


class UnitMoves:
    """One unit's legal moves, one per hex it can reach along the cheapest path, in hex order,
    read off its reach: a :class:`Move` (and its path) is made when one is asked for
    (``listed[i]``), or all of them at once (:meth:`moves`, kept).  A random game takes one of
    some 300 listed moves a step, so most are never made (issue 29; python-chess lists a board's
    legal moves so)."""

    def __init__(self, unit: str, reach: ReachMap | None) -> None:
        self.unit = unit
        self.reach = reach
        self.count = reach.target_count() if reach is not None else 0
        self._moves: list[Action] | None = None

    def __len__(self) -> int:
        return self.count

    def __getitem__(self, i: int) -> Action:
        if self._moves is not None:
            return self._moves[i]
        if self.reach is None:
            raise IndexError("the unit has no legal move")
        return moves_along(self.unit, [self.reach.target_path(i)])[0]

    def __iter__(self) -> Iterator[Action]:
        return iter(self.moves())

    def moves(self) -> list[Action]:
        """Every move, made once and kept (shared: never change the list)."""
        if self._moves is None:
            self._moves = moves_along(self.unit, self.reach.target_paths()) if self.reach is not None else []
        return self._moves


_NO_MOVES = UnitMoves("", None)


class MoveCache:
    """What one game keeps of units' reach and moves between actions.  Never game state: every
    entry is keyed by what it depends on (the units by their change stamps), so a stale entry can
    never be returned, undo and replay included; forgetting them all changes no game."""

    def __init__(self) -> None:
        self.caching = True  # False: work out every reach and move afresh (tests compare the two)
        self.reach: dict[tuple[Any, ...], ReachMap] = {}
        # each unit's latest reach and moves, across phases: a unit that stood still while the
        # enemy moved elsewhere gets them back after a check (see movement.reachable's previous)
        self.latest: dict[str, tuple[ReachMap, UnitMoves | None]] = {}
        self.options: dict[tuple[Any, ...], tuple[MoveOptions, Hashable]] = {}
        self.moment: tuple[Any, ...] = ()
        self.last_walk: tuple[Any, ...] | None = None
        self.last_checked: tuple[Any, ...] | None = None  # (unit, path, stamps, its Reach): a move just let through
        self.phase_moves: tuple[Any, dict[str, tuple[int, UnitMoves]]] = (None, {})
        self.kept: dict[tuple[Any, ...], tuple[Any, Any, Any]] = {}  # the tables of other phases

    KEEP = 2  # other phases whose tables are kept (games that share the cache come back to them)

    def phase(self, position: Position) -> None:
        """The caches hold a phase: the stamps in their keys are never seen again once the
        units change, and a game-long cache would only give the garbage collector more to walk.
        A few other phases' tables are kept aside, for games that share this cache and come back
        to a phase (a bot's play-outs of one position, see :class:`Game`'s ``caches``).  (Each
        unit's latest reach stays: it is checked, not trusted, before it is used again.)"""
        m = self.moment
        if m and m[0] == position.turn and m[1] is position.side and m[2] is position.phase:
            return  # asked before every reach: nothing made when nothing changed
        moment = (position.turn, position.side, position.phase)
        if moment != self.moment:
            if self.reach or self.phase_moves[1]:
                self.kept.pop(self.moment, None)
                if len(self.kept) >= self.KEEP:
                    del self.kept[next(iter(self.kept))]  # the longest unused
                self.kept[self.moment] = (self.reach, self.options, self.phase_moves)
            found = self.kept.pop(moment, None)
            if found is not None:
                self.reach, self.options, self.phase_moves = found
            else:
                self.reach, self.options, self.phase_moves = {}, {}, (None, {})
            self.moment = moment


def cache(game: GameState) -> MoveCache:
    """The game's move cache (made on first use; :meth:`Game.clear_caches` forgets it)."""
    found = game.caches.get("moves")
    if found is None:
        found = game.caches["moves"] = MoveCache()
    assert isinstance(found, MoveCache)
    return found


# -- who may move -----------------------------------------------------------------------------------
def mover_refusal(game: GameState, uid: str, allowance: bool = True) -> Refusal | None:
    """Why the unit may not move in this phase (``allowance`` False: leave the reaction
    allowance of 10.0 aside, see :func:`allowance_refusal`)."""
    p = game.position
    d = game.scenario.units[uid]
    unit = p.units[uid]
    phase = p.phase  # game.phase, read off the (compiled) position: asked for every unit listed
    if phase is Phase.REACTION:
        if unit.supply is not None:
            marker = "Low" if unit.supply is Supply.LOW else "No"
            return Refusal(("10.0", "12.5"), f"{d.name} has a {marker} supply marker and may not react")
        if unit.hex is not None:
            enemy_hexes = p.occupied(unit.side.enemy)
            for n in game.scenario.adjacent.get(unit.hex) or unit.hex.neighbours():  # (enemy units are on the map)
                if n in enemy_hexes:
                    return Refusal(("10.0",), f"{d.name} is adjacent to an enemy unit in {n.label} and may not react")
        if allowance:
            return allowance_refusal(game, uid)
    if phase is Phase.EXPLOITATION:
        if not d.type.may_exploit and not any(grant(game, uid) for grant in game.rules.exploit_grants):
            return Refusal(("13.0",), f"{d.name} ({d.type.name}) does not move in the Exploitation phase")
        if unit.supply is not None:
            return Refusal(("13.0", "12.5"), f"{d.name} has a Low/No supply marker and may not exploit")
    return None


def allowance_refusal(game: GameState, uid: str) -> Refusal | None:
    """10.0: the reacting side moves units of a total stacking value of 3 at most."""
    d = game.scenario.units[uid]
    limit = game.flow.extra.get("reaction_limit", REACTION_LIMIT)
    if game.flow.reaction_used + d.stack > limit:
        return Refusal(
            ("10.0",),
            f"reaction may move units with a total stacking value of {limit}; "
            f"{game.flow.reaction_used} used, {d.name} adds {d.stack}",
        )
    return None


def may_move(game: GameState, uid: str, allowance: bool = True) -> bool:
    return mover_refusal(game, uid, allowance) is None and not is_immobile(game.position, uid)


# -- the Move action ------------------------------------------------------------------------------
def move_refusal(game: GameState, action: Move) -> Refusal | None:
    p = game.position
    phase = game.phase
    uid = action.unit
    if uid not in p.units:
        return Refusal(("2.3",), f"there is no unit {uid!r}")
    unit = p.units[uid]
    name = game.scenario.units[uid].name
    if phase not in MOVING_PHASES:
        return Refusal(
            ("7.0",),
            "units move only in the Movement, Enemy reaction and Exploitation phases, "
            f"not in {PHASE_TITLES[phase]}",
        )
    actor = p.side.enemy if phase is Phase.REACTION else p.side  # the phase's actor (7.0, 10.0)
    if unit.side is not actor:
        who = "the phasing player's" if phase is not Phase.REACTION else "the non-phasing player's"
        rule = {Phase.REACTION: "10.0", Phase.EXPLOITATION: "13.0"}.get(phase, "9.0")
        return Refusal((rule,), f"{name} is not one of {who} units in this phase")
    if uid in game.flow.moved:
        return Refusal(("9.0",), f"{name} has already moved this phase (each unit moves once per phase)")
    if unit.status is not Status.MAP or unit.hex is None:
        return Refusal(("9.0",), f"{name} is not on the map")
    why = mover_refusal(game, uid)
    if why is not None:
        return why
    blocked = immobile_reason(p, uid)
    if blocked is not None:
        return Refusal((blocked[0],), blocked[1])
    if not action.path:
        return Refusal(("9.0",), "a move needs at least one hex")
    return _path_refusal(game, uid, action.path)


def _path_refusal(game: GameState, uid: str, path: tuple[Hex, ...]) -> Refusal | None:
    p = game.position
    d = game.scenario.units[uid]
    start = p.units[uid].hex
    assert start is not None  # immobile_reason refused a unit off the map
    moves = cache(game)
    key, options = _reach_key(game, uid)
    known = moves.reach.get(key) if moves.caching else None
    if known is not None and path[-1] != start:
        # the cheapest path, as listed (a bot or the app listed the moves): legal as it stands
        best = known.get(path[-1])
        if best is not None and best.path == path:
            moves.last_checked = (uid, path, p.unit_stamp(uid), p.stamp(p.units[uid].side.enemy), best)
            return None
    previous = start
    for h in path:
        if not previous.is_adjacent(h):
            return Refusal(("9.0",), f"the path jumps from {hex_text(previous)} to {hex_text(h)}: move hex by hex")
        previous = h
    if path[-1] == start:
        # Nothing in 9.0 forbids a move that ends where it began (into a town and back, say):
        # the path is walked hex by hex like any other that is not the cheapest.
        cost, walk_refusal = walk_cost(p, uid, path, options)
        if walk_refusal is not None:
            return walk_refusal
        mp = p.movement(uid) + options.extra_mp
        return None if cost <= mp else Refusal(("9.0",), f"that path costs {mp_text(cost)} MP; {d.name} has {mp}")
    if known is None and _walked(game, uid, path, options) is not None:
        return None  # walked hex by hex and within the unit's MP: no need for its whole reach
    reach = known if known is not None else unit_reach(game, uid)
    target = path[-1]
    best = reach.get(target)
    if best is None:
        why = explain_move(p, uid, target, _move_options(game, uid))
        return Refusal(rules_cited(why), why)
    if best.path == path:
        return None
    # A path other than the cheapest: walk it and check every step.
    cost, walk_refusal = walk_cost(p, uid, path, _move_options(game, uid))
    if walk_refusal is not None:
        return walk_refusal
    if cost > reach.mp:
        return Refusal(("9.0",), f"that path costs {cost} MP; {d.name} has {reach.mp}")
    return None


def _apply_move(game: GameState, action: Move) -> None:
    p = game.position
    uid = action.unit
    unit = p.units[uid]
    d = game.scenario.units[uid]
    moves = cache(game)
    walk, moves.last_walk = moves.last_walk, None
    checked, moves.last_checked = moves.last_checked, None
    enemy = unit.side.enemy
    stamps = (uid, action.path, p.unit_stamp(uid), p.stamp(enemy))
    if walk is not None and walk[:4] != stamps:
        walk = None  # kept for another move or another position
    r = None
    if checked is not None and checked[:4] == stamps:
        r = checked[4]  # the check that let this move through found its way in the reach
    elif walk is None:
        reach = _known_reach(game, uid)
        r = reach.get(action.to) if reach is not None else None
    options = None
    if r is not None and r.path == action.path:
        cost, stops = move_graph(p.scenario).mp(r.ticks), r.stops  # Reach.cost makes a new Fraction
    else:
        if walk is not None:
            cost, options = walk[4], walk[5]
        else:
            options = _move_options(game, uid)
            cost = walk_cost(p, uid, action.path, options)[0]
        hard = not options.ignore_zoc and zoc_map(p, enemy).get(action.to) is Zoc.HARD
        stops = hard or action.to in options.stop_at
    # the rule that stops it there: a hard enemy ZoC (4.0) or a Roadblock (5.1)
    why = stop_reason(p, uid, action.to, options or _move_options(game, uid)) if stops else ""
    start = unit.hex
    assert start is not None
    unit.hex = action.to
    game.flow.moved.add(uid)
    stop = f" and stops {why}" if why else ""
    # the move first, then what it did on the way (the towns it took), as a player tells it
    game.event(f"{d.name} moves {start.label} -> {action.to.label} for {mp_text(cost)} MP{stop}")
    control.enter_hexes(game, unit.side, action.path)
    if game.phase is Phase.REACTION:
        game.flow.reaction_used += d.stack


MOVE: ActionRule = ActionRule(move_refusal, _apply_move)


# -- the legal moves ------------------------------------------------------------------------------
def legal_moves(game: GameState) -> list[Action]:
    """Every legal move of the acting side, in the order of the units (see :func:`unit_moves_listed`)."""
    out: list[Action] = []
    for listed in unit_moves_listed(game):
        out += listed.moves()
    return out


def unit_moves_listed(game: GameState) -> list[UnitMoves]:
    """The legal moves of the acting side, unit by unit in the order of the units, each unit's
    as a :class:`UnitMoves` (its moves made only when asked for).

    Kept for the phase: whether a unit may move and where depends only on the unit itself,
    the enemy's units, released garrisons and the chits in force (and, in reaction, on the
    allowance used, checked apart), so the moves of a unit are kept under its change stamp
    and thrown away when any of the rest changes.  After one unit moves, the next call
    rebuilds nothing."""
    phase = game.phase
    if phase not in MOVING_PHASES:
        return []
    p = game.position
    moves = cache(game)
    moves.phase(p)
    actor = p.side.enemy if phase is Phase.REACTION else p.side  # 7.0: the reacting side acts in 10.0
    hooks = game.rules.hooks_key(game)
    context = (p.stamp(actor.enemy), frozenset(p.released), hooks)
    if hooks is None or not moves.caching or moves.phase_moves[0] != context:
        moves.phase_moves = (context, {})
    kept = moves.phase_moves[1]
    moved = game.flow.moved
    reaction = phase is Phase.REACTION
    # 10.0's allowance as allowance_refusal judges it, without wording a refusal for every unit
    # over it (the reaction moves are listed again after each one)
    room = game.flow.extra.get("reaction_limit", REACTION_LIMIT) - game.flow.reaction_used if reaction else 0
    definitions = game.scenario.units
    unit_stamp = p.unit_stamp
    on_map = Status.MAP
    out: list[UnitMoves] = []
    for uid, unit in p.units.items():
        if unit.side is not actor or unit.status is not on_map or uid in moved:
            continue
        stamp = unit_stamp(uid)
        entry = kept.get(uid)
        if entry is None or entry[0] != stamp:
            entry = kept[uid] = (stamp, _unit_moves(game, uid, hooks) if may_move(game, uid, allowance=False)
                                 else _NO_MOVES)
        if entry[1].count and (not reaction or definitions[uid].stack <= room):
            out.append(entry[1])
    return out


def moves_along(unit: str, paths: list[tuple[Hex, ...]]) -> list[Action]:
    """``Move(unit, path)`` for each path, made without the dataclass's ``__init__`` (the same
    objects: equal, hashed and shown alike).  Listing the legal moves makes tens of thousands of
    them in a game, most of which are never taken (here, compiled, rather than beside ``Move``:
    the loop ran in the interpreter, a thirtieth of a planner game)."""
    new, put_unit, put_path = object.__new__, _MOVE_UNIT.__set__, _MOVE_PATH.__set__
    out: list[Action] = []
    for path in paths:
        move = new(Move)
        put_unit(move, unit)
        put_path(move, path)
        out.append(move)
    return out


_MOVE_UNIT: Any = Move.__dict__["unit"]  # the slots' descriptors: they set a field past the frozen __setattr__
_MOVE_PATH: Any = Move.__dict__["path"]


def _unit_moves(game: GameState, uid: str, hooks: Hashable | None = None) -> UnitMoves:
    """The unit's legal moves (one per reachable hex, cheapest path), kept with its reach."""
    reach = unit_reach(game, uid, hooks)
    moves = cache(game)
    latest = moves.latest.get(uid)
    if latest is not None and latest[0] is reach and latest[1] is not None:
        return latest[1]
    found = UnitMoves(uid, reach)
    moves.latest[uid] = (reach, found)
    return found


def unit_reach(game: GameState, uid: str, hooks: Hashable | None = None) -> ReachMap:
    """Where the unit can move this phase, chits' effects included, cached: within a phase it
    changes only when the enemy's units, the unit itself, released garrisons or its chit options
    change, and the key holds exactly those."""
    moves = cache(game)
    key, options = _reach_key(game, uid, hooks)
    cached = moves.reach.get(key) if moves.caching else None
    if cached is None:
        p = game.position
        enemy = p.units[uid].side.enemy
        latest = moves.latest.get(uid) if moves.caching else None
        previous = latest[0] if latest is not None else None
        cached = reachable(p, uid, options, zoc=zoc_map(p, enemy), enemy_hexes=p.occupied(enemy), previous=previous)
        if len(moves.reach) > _LIMIT:
            moves.reach.clear()
        moves.reach[key] = cached
        if cached is not previous:
            moves.latest[uid] = (cached, None)
    return cached


def _reach_key(game: GameState, uid: str, hooks: Hashable | None = None) -> tuple[tuple[Any, ...], MoveOptions]:
    """The reach cache's key for the unit, and its options (``hooks``: the hooks' key if the
    caller has it already)."""
    p = game.position
    cache(game).phase(p)
    options, summary = _move_options_and_key(game, uid, hooks)
    return (uid, p.unit_stamp(uid), p.stamp(p.units[uid].side.enemy), frozenset(p.released), summary), options


def _known_reach(game: GameState, uid: str) -> ReachMap | None:
    """The unit's reach if it is in the cache (a bot or the app listed the moves)."""
    moves = cache(game)
    return moves.reach.get(_reach_key(game, uid)[0]) if moves.caching else None


def _walked(game: GameState, uid: str, path: tuple[Hex, ...], options: MoveOptions) -> Fraction | None:
    """The cost of ``path`` when walking it hex by hex shows it legal and within the unit's
    MP, else None (then the unit's reach decides, and explains).  A path back through the
    start hex is always left to the reach: a move never ends where it began (9.0)."""
    p = game.position
    if p.units[uid].hex in path:
        return None
    walked = walk_cost(p, uid, path, options)
    cost: Fraction = walked[0]
    if walked[1] is not None or cost > p.movement(uid) + options.extra_mp:
        return None
    # the move that follows this check needs the same walk: keep it for this very position
    cache(game).last_walk = (uid, path, p.unit_stamp(uid), p.stamp(p.units[uid].side.enemy), cost, options)
    return cost


def move_options(game: GameState, uid: str) -> MoveOptions:
    """What the chits played this phase change about the unit's move (a copy)."""
    return replace(_move_options(game, uid))


def _move_options(game: GameState, uid: str, hooks: Hashable | None = None) -> MoveOptions:
    """The unit's options (shared: never change them), kept under the hooks' key."""
    return _move_options_and_key(game, uid, hooks)[0]


def _move_options_and_key(game: GameState, uid: str, hooks: Hashable | None = None) -> tuple[MoveOptions, Hashable]:
    """The unit's options (shared: never change them) and a value equal for equal options, kept
    under the hooks' key."""
    if hooks is None:
        hooks = game.rules.hooks_key(game)
    moves = cache(game)
    key = (uid, game.position.units[uid].side, hooks)
    found = moves.options.get(key) if hooks is not None and moves.caching else None
    if found is None:
        options = MoveOptions()
        for modify in game.rules.move_options:
            modify(game, uid, options)
        found = (options, (options.extra_mp, options.ignore_zoc, options.ignore_rivers, options.stop_at,
                           options.no_road, options.blown_bridges))
        if hooks is not None:
            if len(moves.options) > _LIMIT:
                moves.options.clear()
            moves.options[key] = found
    return found


def walk_cost(position: Position, uid: str, path: tuple[Hex, ...], options: MoveOptions) -> tuple[Any, Refusal | None]:
    """Cost of an explicit path, refusing the first illegal step."""
    s = position.scenario
    graph = move_graph(s)
    d = s.units[uid]
    unit = position.units[uid]
    zoc = {} if options.ignore_zoc else zoc_map(position, unit.side.enemy)
    ticks = 0
    here = unit.hex
    assert here is not None
    for i, h in enumerate(path):
        # A unit may leave the hex it starts in whatever holds it there; coming back into that
        # hex later in the path is entering it, and stops it like any other (4.0, 5.1).
        if i > 0 and zoc.get(here) is Zoc.HARD:
            return Fraction(0), Refusal(("4.0",), f"{d.name} must stop in {here.label}: it is in a hard enemy ZoC")
        if i > 0 and here in options.stop_at:
            return Fraction(0), Refusal(("5.1",), f"{d.name} must stop in {here.label}: a Roadblock is there")
        edge = next((e for e in graph.edges.get(here, ()) if e.to == h), None)
        if edge is None or edge.ticks < 0:
            return Fraction(0), Refusal(("1.1",), f"{hex_text(h)} cannot be entered")
        if edge.mountain and not d.type.may_enter_mountain:
            return Fraction(0), Refusal(("9.1",), f"{h.label} is a mountain hex: {d.name} may never enter it")
        if any(position.units[o].side is not unit.side for o in position.units_at(h)):
            return Fraction(0), Refusal(("9.0",), f"{h.label} holds enemy units")
        ticks += edge_cost(graph, here, edge, options) + (graph.scale if h in zoc else 0)
        here = h
    return graph.mp(ticks), None
