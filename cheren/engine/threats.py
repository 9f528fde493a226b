"""What the enemy can do to a side in its next Movement and Combat: which of the side's stacks
it can attack and at what best odds, and which of the side's units it can cut off from supply.

The reading of "next turn", stated here and in every report that uses it:

* the enemy moves in its own Movement phase (9.0) with every unit that may move then: full
  movement points, the ZoC and terrain of the position as it stands (the threatened side's units
  do not move first), chits not counted;
* an attack then comes from units that end their move next to the stack (or stand there
  already), with the eligibility rules of 11.0-11.3 and 9.1, the enemy's air unit when it has
  one in play, and the stacking limit of each hex it attacks from (3.1); each unit is put where
  the attack is best (a hex not across a river when one is in reach, 11.1);
* a supply cut is one enemy unit ending its move in one hex after which a supply check of the
  threatened side (12.0-12.3) finds a unit of it unable to draw supply that can draw it now.

Every number comes from the engine's own functions: reach (:mod:`cheren.engine.rules.movement`), odds
(:func:`cheren.engine.rules.combat_odds.compute_odds`) and supply (:mod:`cheren.engine.rules.supply`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from cheren.engine.position import Position, Status
from cheren.engine.rules.combat_eligibility import air_refusal, air_unit, attack_refusal, unit_refusal
from cheren.engine.rules.combat_odds import Odds, compute_odds
from cheren.engine.rules.movement import immobile_reason, reachable
from cheren.engine.rules.stacking import stack_value
from cheren.engine.rules.supply import check_side, closing, supplied_at, supply_context, unit_supply
from cheren.engine.rules.zoc import projects_zoc, zoc_hexes
from cheren.hexes import Hex
from cheren.scenario.models import Phase, Side


@dataclass(frozen=True)
class StackThreat:
    """The best attack the enemy can make on one stack next turn."""

    hex: Hex
    defenders: tuple[str, ...]
    attackers: tuple[str, ...]  # the enemy units that can take part
    placed: dict[str, Hex]  # where each attacker attacks from
    odds: Odds  # the engine's odds of that attack

    @property
    def column(self) -> str:
        return self.odds.column_name


@dataclass(frozen=True)
class SupplyCut:
    """An enemy unit that can end its move where a unit of the side loses its supply line."""

    unit: str  # the unit cut off
    by: str  # the enemy unit
    at: Hex  # where the enemy unit ends its move
    reason: str  # why the line breaks then, in the supply check's words


@dataclass(frozen=True)
class Threats:
    side: Side  # the side threatened
    reach: dict[str, frozenset[Hex]]  # each enemy unit that may move: the hexes it can end in
    stacks: tuple[StackThreat, ...]  # best first
    cuts: tuple[SupplyCut, ...]
    notes: tuple[str, ...] = field(default=())

    def stack_at(self, h: Hex) -> StackThreat | None:
        return next((t for t in self.stacks if t.hex == h), None)


def _next_turn(position: Position, enemy: Side) -> Position:
    """The position as the enemy's Movement phase would begin, units where they stand."""
    p = position.copy()
    turn = p.turn if (enemy is Side.ITALIAN or p.side is Side.ITALIAN) else p.turn + 1
    if enemy is Side.ALLIED and p.side is Side.ALLIED and p.phase is Phase.REINFORCEMENT:
        turn = p.turn
    p.turn, p.side, p.phase = min(turn, len(p.scenario.info.turns)), enemy, Phase.MOVEMENT
    return p


def enemy_reach(position: Position, enemy: Side) -> dict[str, frozenset[Hex]]:
    """Where each enemy unit can end its next Movement phase (its own hex included)."""
    p = _next_turn(position, enemy)
    out: dict[str, frozenset[Hex]] = {}
    for uid, unit in p.units.items():
        if unit.side is not enemy or unit.status is not Status.MAP or unit.hex is None:
            continue
        if p.scenario.units[uid].type.air:
            continue
        hexes = {unit.hex}
        if immobile_reason(p, uid) is None:
            hexes |= set(reachable(p, uid).reached())
        out[uid] = frozenset(hexes)
    return out


def threats(position: Position, side: Side, *, cuts: bool = True) -> Threats:
    """What the enemy of ``side`` can do to it next turn (see the module's reading)."""
    enemy = side.enemy
    p = _next_turn(position, enemy)
    reach = enemy_reach(position, enemy)
    stacks = sorted(
        (t for t in (_best_attack(p, h, units, reach) for h, units in _stacks(p, side).items()) if t is not None),
        key=lambda t: (-t.odds.column, -t.odds.attack_sp, t.hex),
    )
    notes = [
        "chits are not counted; the threatened side's units stand still; stacking limits hold where "
        "the attackers stand (3.1)"
    ]
    return Threats(side, reach, tuple(stacks), tuple(supply_cuts(position, side, reach)) if cuts else (), tuple(notes))


def _stacks(p: Position, side: Side) -> dict[Hex, list[str]]:
    return {h: units for h, units in p.stacks().items() if p.units[units[0]].side is side}


def _best_attack(
    p: Position, target: Hex, defenders: list[str], reach: dict[str, frozenset[Hex]]
) -> StackThreat | None:
    s = p.scenario
    enemy = p.units[defenders[0]].side.enemy
    around = [
        n
        for n in target.neighbours()
        if n in s.playable and not any(p.units[u].side is not enemy for u in p.units_at(n))
    ]
    if not around:
        return None
    room = {n: s.hexes[n].stack_limit - stack_value(p, n, enemy) for n in around}
    river_free = {n for n in around if not _river_between(p, n, target)}
    placed: dict[str, Hex] = {}
    # strongest units first, so the stacking room goes to them
    candidates = sorted(reach, key=lambda u: (-p.strength(u), u))
    for uid in candidates:
        here = p.units[uid].hex
        options = [n for n in around if n in reach[uid]]
        if not options:
            continue
        d = s.units[uid]
        if here in options:
            spot: Hex | None = here  # already next to the stack: it attacks from where it stands
        else:
            fits = [n for n in options if room[n] >= d.stack]
            fits.sort(key=lambda n: (n not in river_free, n))
            spot = fits[0] if fits else None
            if spot is not None:
                room[spot] -= d.stack
        if spot is None:
            continue
        trial = p.copy()
        trial.units[uid].hex = spot
        if unit_refusal(trial, uid, target) is not None:
            if here not in options:
                room[spot] += d.stack
            continue
        placed[uid] = spot
    if not placed:
        return None
    trial = p.copy()
    for uid, h in placed.items():
        trial.units[uid].hex = h
    attackers = tuple(placed)
    if attack_refusal(trial, attackers, target, air=False) is not None:
        attackers = tuple(u for u in attackers if not s.units[u].type.artillery)
        placed = {u: placed[u] for u in attackers}
        if not attackers:
            return None
    air = air_unit(p, enemy)
    if air is not None and air_refusal(trial, enemy) is not None:
        air = None
    odds = compute_odds(trial, attackers, target, air)
    # a river shift applies only if every attacker crosses (11.1): try without the crossers
    if any(x.rule == "11.1" and "river" in x.reason for x in odds.shifts):
        dry = tuple(u for u in attackers if not _river_between(trial, placed[u], target))
        if dry and attack_refusal(trial, dry, target, air=False) is None:
            alt = compute_odds(trial, dry, target, air)
            if alt.column > odds.column:
                odds, attackers = alt, dry
                placed = {u: placed[u] for u in dry}
    return StackThreat(target, tuple(defenders), attackers, placed, odds)


def _river_between(p: Position, a: Hex, b: Hex) -> bool:
    from cheren.hexes import Hexside

    return Hexside.between(a, b) in p.scenario.river_sides


def supply_cuts(
    position: Position,
    side: Side,
    reach: dict[str, frozenset[Hex]] | None = None,
    *,
    explain: bool = True,
    every: bool = False,
) -> list[SupplyCut]:
    """Each unit of ``side`` in supply now that one enemy unit, ending its next move in one hex,
    would leave without supply at the side's next check, with the hex and the reason (left empty
    when ``explain`` is false: a bot that only needs where the cuts are is spared the words,
    which cost most of the search).  One cut per unit, the first found; ``every`` lists each
    enemy unit and hex that would cut it (what a defender has to close)."""
    enemy = side.enemy
    reach = reach if reach is not None else enemy_reach(position, enemy)
    ctx = supply_context(position, side)
    now = check_side(position, side, context=ctx)
    supplied = {uid for uid, t in now.items() if t.supplied}
    if not supplied:
        return []
    # Only hexes near a supply line or the route behind it can matter: a unit in them blocks the
    # hex itself, its ZoC the hexes around it.  (A supplied unit's trace names its line and route
    # whether or not it was asked to explain.)  A unit that moves in can only close ways (its
    # hex, its ZoC); leaving its hex only opens them. So a unit whose present line and route pass
    # nowhere near the hex keeps its supply, and only the units near the hex are checked again.
    # Units are bits of a mask, in the order of their ids, so a set of them is an int.
    order = sorted(supplied)
    on: dict[Hex, int] = {}
    for i, uid in enumerate(order):
        t, b = now[uid], 1 << i
        for h in (*t.line, *t.route):
            on[h] = on.get(h, 0) | b
    near_of: dict[Hex, int] = {}
    for h, b in on.items():
        for x in (h, *h.neighbours()):
            near_of[x] = near_of.get(x, 0) | b
    near = set(near_of)

    # A unit near a line traces one itself (the air unit and a native in its village have none),
    # so whether it can draw supply on a context is whether its hex can: asked without a trace.
    at: list[Hex] = []
    for uid in order:
        where = position.units[uid].hex
        assert where is not None  # check_side traces the units on the map
        at.append(where)

    out: dict[str, SupplyCut] = {}
    gone = 0  # the units in ``out``
    found: list[SupplyCut] = []
    trial = position.copy()  # one copy, its enemy unit moved hex to hex: copying for each was most of the time
    # Per hex (and whether the unit coming there has a ZoC, 4.0): the units near it that lose
    # supply with one more enemy unit there and every unit where it stands.  Only those can lose
    # it when an enemy unit moves there (its leaving a hex only opens ways), so the others are
    # not checked again for each enemy unit that could come (most hexes cut nothing).
    suspects: dict[tuple[Hex, bool], int] = {}
    s = position.scenario
    for by, hexes in sorted(reach.items()):
        start = position.units[by].hex
        projects = projects_zoc(position, by)
        # Another unit with a ZoC that stays in the hex it leaves keeps the hex and its ZoC
        # closed: the moved position closes just what the check with one more unit did.
        stays = start is not None and any(o != by and projects_zoc(position, o) for o in position.units_at(start))
        for h in sorted(hexes & near):
            if h == start:
                continue
            mask = near_of[h] if every else near_of[h] & ~gone
            if not mask:
                continue
            could = suspects.get((h, projects))
            if could is None:
                closed = closing(ctx, h, zoc_hexes(s, h) if projects else ())
                could = suspects[h, projects] = sum(
                    1 << i for i, uid in enumerate(order)
                    if near_of[h] >> i & 1 and not supplied_at(closed, at[i]))
            mask &= could
            if not mask:
                continue
            trial.units[by].hex = h
            if stays:
                cut = [uid for i, uid in enumerate(order) if mask >> i & 1]
            else:
                trial_ctx = supply_context(trial, side)  # the quick check; the reasons only for a cut found
                cut = [uid for i, uid in enumerate(order) if mask >> i & 1 and not supplied_at(trial_ctx, at[i])]
            if not cut:
                continue
            for uid in cut:
                reason = unit_supply(trial, uid, explain=True).explain() if explain else ""
                out[uid] = SupplyCut(uid, by, h, reason)
                gone |= 1 << order.index(uid)
                found.append(out[uid])
        trial.units[by].hex = start
    return sorted(found if every else out.values(), key=lambda c: (c.at, c.unit, c.by))
