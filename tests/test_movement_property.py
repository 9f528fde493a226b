"""Property: the gate and the reach map agree with the movement rules read afresh.

For positions reached by seeded random play on the bundled map, every reach-map path is accepted
by the gate, and for random walks from each unit the gate accepts a path exactly when an
independent reading of 9.0, 9.1 and 4.0 (written here from the rules, not from the engine)
finds it legal: adjacent hexes, enterable terrain, no mountain for tanks and motorized units,
never an enemy-held hex, a stop on entering a hard ZoC (re-entering the start hex included),
and a total within the unit's movement points (road cost when following a road, or from a
track onto a road, else the costliest terrain plus any river crossed; +1 MP entering enemy ZoC).
"""

from __future__ import annotations

import random
from fractions import Fraction

from cheren import load_scenario
from cheren.engine.actions import Move
from cheren.engine.game import Game
from cheren.engine.position import Position, Status, Supply
from cheren.engine.rules.movement import MoveOptions
from cheren.hexes import Hex, Hexside
from cheren.players.bots import make_bot
from cheren.players.views import SideSeat
from cheren.scenario import Phase, Scenario, Side

SCENARIO = load_scenario()
MOVING = (Phase.MOVEMENT, Phase.REACTION, Phase.EXPLOITATION)


def enemy_zoc(p: Position, enemy: Side) -> dict[Hex, bool]:
    """4.0 read afresh: hex -> hard?  Stacks of 3+ stacking value are hard; no ZoC into or out of
    mountains; the air unit and units with No supply project none."""
    s = p.scenario
    value: dict[Hex, int] = {}
    for uid, u in p.units.items():
        projects = u.status is Status.MAP and u.supply is not Supply.NO and not s.units[uid].type.air
        if u.side is enemy and projects and u.hex is not None:
            value[u.hex] = value.get(u.hex, 0) + s.units[uid].stack
    out: dict[Hex, bool] = {}
    for h, v in value.items():
        if s.hexes[h].mountain:
            continue
        for n in h.neighbours():
            if n in s.hexes and not s.hexes[n].mountain:
                out[n] = out.get(n, False) or v >= 3
    return out


def step_cost(s: Scenario, a: Hex, b: Hex) -> Fraction:
    key = s.terrain_key
    side = Hexside.between(a, b)
    road_hexes = {h for rs in s.road_sides for h in rs}
    if side in s.road_sides or (side in s.track_sides and b in road_hexes):
        return Fraction(str(key.road.move_cost))
    info = s.hexes[b]
    cost = Fraction(str(max(t.move_cost for t in info.terrains if t.move_cost is not None)))
    if side in s.river_sides:
        cost += Fraction(str(key.river.move_cost))
    return cost


def legal_path(p: Position, uid: str, path: tuple[Hex, ...]) -> bool:
    s = p.scenario
    unit = p.units[uid]
    d = s.units[uid]
    assert unit.hex is not None
    zoc = enemy_zoc(p, unit.side.enemy)
    here, spent = unit.hex, Fraction(0)
    for i, h in enumerate(path):
        if i > 0 and zoc.get(here):  # stopped on entering a hard ZoC
            return False
        if h not in s.playable or here.distance(h) != 1:
            return False
        info = s.hexes[h]
        if any(t.move_cost is None for t in info.terrains):
            return False
        if info.mountain and not d.type.may_enter_mountain:
            return False
        if any(p.units[o].side is not unit.side for o in p.units_at(h)):
            return False
        spent += step_cost(s, here, h) + (1 if h in zoc else 0)
        here = h
    return spent <= p.movement(uid)


def random_walk(rng: random.Random, start: Hex, length: int) -> tuple[Hex, ...]:
    path, here = [], start
    for _ in range(length):
        here = rng.choice(sorted(here.neighbours()))
        path.append(here)
    return tuple(path)


def test_9_0_4_0_the_gate_and_the_reach_agree_with_the_rules_read_afresh() -> None:
    checked_reach = checked_walks = accepted_walks = 0
    for seed in range(3):
        game = Game(SCENARIO, seed=seed)
        bots = {side: make_bot("random", seed=seed) for side in Side}
        rng = random.Random(seed)
        while not game.over and game.turn <= 3:
            if game.pending is None and game.phase in MOVING and rng.random() < 0.5:
                p = game.position
                actor = game.moment.acting
                movers = sorted({a.unit for a in game.legal_actions() if isinstance(a, Move)})
                for uid in rng.sample(movers, min(3, len(movers))):
                    if game.move_options(uid) != MoveOptions():
                        continue  # a chit changes this unit's move: out of this reading's scope
                    for r in game.reach(uid).reach.values():
                        assert game.check(Move(uid, r.path)).ok, (uid, r.path)
                        assert legal_path(p, uid, r.path), (uid, [h.label for h in r.path])
                        checked_reach += 1
                    start = p.units[uid].hex
                    assert start is not None and p.units[uid].side is actor
                    for _ in range(25):
                        path = random_walk(rng, start, rng.randint(1, 5))
                        verdict = game.check(Move(uid, path))
                        assert verdict.ok == legal_path(p, uid, path), (uid, [h.label for h in path], verdict)
                        checked_walks += 1
                        accepted_walks += verdict.ok
            side = game.acting
            game.apply(bots[side].choose(SideSeat(game, side)).action)
    assert checked_reach > 1000 and checked_walks > 1000 and accepted_walks > 50, (
        checked_reach, checked_walks, accepted_walks)
