"""The reach search runs on a numbered copy of the map graph with one bucket per tick; the
general search (a heap over hexes) is kept as the reference.  For the same question, the chits'
changes to the costs included, both must give the same hexes, costs, stops and paths, in the
same order."""

from __future__ import annotations

import random

from cheren import load_scenario
from cheren.engine.actions import EndPhase
from cheren.engine.game import Game
from cheren.engine.rules.movement import MoveOptions, _network, _reach_with_options, _search_network, move_graph
from cheren.engine.rules.zoc import zoc_map


def test_the_bucket_search_finds_what_the_heap_search_finds() -> None:
    s = load_scenario()
    graph = move_graph(s)
    net = _network(s)
    assert net.positive
    compared = changed = 0
    for seed in (1, 2):
        game = Game(s, seed=seed)
        rng = random.Random(seed)
        for step in range(260):
            if game.over:
                break
            if step % 20 == 0:
                p = game.position
                for uid, unit in p.units.items():
                    if not unit.on_map or unit.hex is None:
                        continue
                    enemy = unit.side.enemy
                    zoc, occupied = zoc_map(p, enemy), p.occupied(enemy)
                    for mp in (3, 8):
                        no_mountain = not s.units[uid].type.may_enter_mountain
                        budget = mp * graph.scale
                        stop_at = frozenset(h for h in zoc if rng.random() < 0.1)
                        fast = _search_network(net, graph.scale, unit.hex, budget, no_mountain, zoc, occupied,
                                               stop_at).all()
                        slow = _reach_with_options(graph, unit.hex, budget, no_mountain, zoc, occupied,
                                                   MoveOptions(stop_at=stop_at))
                        assert list(fast.items()) == list(slow.items())
                        compared += 1
                    # what Engineers, Roadblock and Demolition change (5.1): the costs of the steps
                    roads = sorted({h for side in s.road_sides for h in side})
                    bridges = sorted(s.road_sides & s.river_sides)
                    opts = MoveOptions(
                        ignore_rivers=rng.random() < 0.5,
                        no_road=frozenset(h for h in roads if rng.random() < 0.2),
                        blown_bridges=frozenset(b for b in bridges if rng.random() < 0.5),
                        stop_at=frozenset(h for h in zoc if rng.random() < 0.1),
                    )
                    no_mountain = not s.units[uid].type.may_enter_mountain
                    budget = 6 * graph.scale
                    fast = _search_network(net, graph.scale, unit.hex, budget, no_mountain, zoc, occupied,
                                           opts.stop_at, steps=net.steps_with(graph, no_mountain, opts)).all()
                    slow = _reach_with_options(graph, unit.hex, budget, no_mountain, zoc, occupied, opts)
                    assert list(fast.items()) == list(slow.items())
                    changed += bool(opts.ignore_rivers or opts.no_road or opts.blown_bridges)
            actions = game.legal_actions()
            game.apply(rng.choices(actions, [1 if isinstance(a, EndPhase) else 3 for a in actions])[0])
    assert compared > 500 and changed > 200


def test_a_reach_given_back_for_a_unit_that_stood_still_is_the_reach_it_has_now() -> None:
    from cheren.engine.rules.movement import ReachMap, reachable

    game = Game(load_scenario(), seed=9)
    rng = random.Random(9)
    latest: dict[str, ReachMap] = {}
    reused = 0
    for _ in range(400):
        if game.over:
            break
        p = game.position
        for uid, unit in p.units.items():
            if not unit.on_map:
                continue
            previous = latest.get(uid)
            again = reachable(p, uid, previous=previous)
            fresh = reachable(p, uid)
            assert list(again.reach.items()) == list(fresh.reach.items()) and again.mp == fresh.mp
            reused += again is previous
            latest[uid] = again
        actions = game.legal_actions()
        game.apply(rng.choices(actions, [1 if isinstance(a, EndPhase) else 3 for a in actions])[0])
    assert reused > 100
