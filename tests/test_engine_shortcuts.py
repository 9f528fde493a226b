"""The engine's speed shortcuts give exactly what the long way gives (issue 29).

The benchmark's own random games (``benchmarks/bench_engine.py``: moves weighted 3 to 1 against
ending the phase) are pinned by hashes of their action log and of every event told, taken on
the engine before the speed work of session 29 (fd47194); and each shortcut is compared with the
computation it replaces over the positions of whole random games."""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterator

import pytest

from cheren.engine.actions import EndPhase, Move
from cheren.engine.game import Game
from cheren.engine.rules.immobility import immobile_reason, is_immobile
from cheren.engine.rules.movement import _network, _Search, _search_network, move_graph
from cheren.engine.rules.supply import check_side, supplied_at, supplied_units, supply_context, trace_from
from cheren.engine.rules.zoc import zoc_map
from cheren.scenario import Side, load_scenario

S = load_scenario()

# seed: (actions, sha256 of the action log, sha256 of the events), first 16 hex digits, at fd47194
PINNED = {
    3: (795, "75faef43bee2de23", "0e9d9613a4894add"),
    4: (787, "b6b1b741276e93e2", "ac728e49e40dee39"),
}


def weighted_random_game(seed: int) -> Iterator[Game]:
    """The benchmark's random game, yielding the game before every action."""
    game = Game(S, seed=seed)
    rng = random.Random(seed)
    while not game.over:
        yield game
        actions = game.legal_actions()
        game.apply(rng.choices(actions, [1 if isinstance(a, EndPhase) else 3 for a in actions])[0])
    yield game


@pytest.mark.parametrize("seed", sorted(PINNED))
def test_the_benchmark_random_games_are_the_games_they_were(seed: int) -> None:
    *_, game = weighted_random_game(seed)
    log = json.dumps([e.action.to_json() for e in game.log], sort_keys=True)
    events = json.dumps([e.events for e in game.log])
    got = (len(game.log), hashlib.sha256(log.encode()).hexdigest()[:16],
           hashlib.sha256(events.encode()).hexdigest()[:16])
    assert got == PINNED[seed]


@pytest.mark.parametrize("seed", sorted(PINNED))
def test_the_benchmark_game_read_from_the_legal_view_is_the_same_game(seed: int) -> None:
    """bench_engine's random game reads its actions from ``Game.legal_view()`` and its weights
    from where the EndPhase is: the same choices, so the same pinned game."""
    game = Game(S, seed=seed)
    rng = random.Random(seed)
    while not game.over:
        view = game.legal_view()
        ends = view.indexes(EndPhase)
        weights = [3 * (i + 1) - 2 * sum(1 for e in ends if e <= i) for i in range(len(view))]
        game.apply(rng.choices(view, cum_weights=weights)[0])
    log = json.dumps([e.action.to_json() for e in game.log], sort_keys=True)
    assert (len(game.log), hashlib.sha256(log.encode()).hexdigest()[:16]) == PINNED[seed][:2]


def test_the_legal_view_reads_as_the_legal_actions_list() -> None:
    """``legal_view()`` is ``legal_actions()`` made lazily: the same actions in the same order,
    by index, by iteration and from the end, and the same EndPhase indexes, at every step of a
    random game (every phase and decision it meets), read before and after the list is made."""
    steps = 0
    for i, game in enumerate(weighted_random_game(5)):
        view = game.legal_view()
        first = view[i % len(view)] if len(view) else None
        actions = game.legal_actions()
        assert len(view) == len(actions) and list(view) == actions
        assert [view[j] for j in range(len(view))] == actions
        assert [view[-j] for j in range(1, len(view) + 1)] == actions[::-1]
        assert view[1:4] == actions[1:4]
        assert first is None or first == actions[i % len(actions)]
        assert view.indexes(EndPhase) == [j for j, a in enumerate(actions) if isinstance(a, EndPhase)]
        steps += 1
    assert steps > 500
    with pytest.raises(IndexError):
        game.legal_view()[0]
    with pytest.raises(ValueError, match="does not make its moves"):
        view.indexes(Move)


def test_supply_yes_or_no_agrees_with_the_traced_lines() -> None:
    """12.0-12.3 and 12.7: the Supply phase asks only whether a unit or an empty town can draw
    supply; the answer must be the full trace's, for every unit and town, both sides."""
    compared = 0
    for i, game in enumerate(weighted_random_game(7)):
        if i % 15:
            continue
        p = game.position
        for side in Side:
            ctx = supply_context(p, side)
            traced = {uid: t.supplied for uid, t in check_side(p, side, context=ctx).items()}
            assert supplied_units(p, side, ctx) == traced
            assert list(supplied_units(p, side)) == list(traced)  # the same units, in the same order
            for town in sorted(S.towns):
                h = S.town_hex(town)
                assert supplied_at(ctx, h) is trace_from(ctx, h, False).supplied, (i, side, town)
                compared += 1
    assert compared > 1000


def test_immobility_without_words_agrees_with_the_worded_reason() -> None:
    """6.0, 8.5, 9.0, 11.3, 12.6: listing moves asks only whether a unit may move at all."""
    kinds = set()
    for i, game in enumerate(weighted_random_game(9)):
        if i % 25:
            continue
        p = game.position
        for uid in p.units:
            why = immobile_reason(p, uid)
            assert is_immobile(p, uid) is (why is not None)
            kinds.add(why[0] if why is not None else None)
    assert {None, "6.0", "8.5", "9.0"} <= kinds


def _read_the_long_way(before: _Search, enter: list[int], stop: list[bool]) -> bool:
    """Every hex the earlier search settled or looked into reads the same in the new terrain."""
    settled = [before.origin, *before.found]  # every hex it took from a bucket
    looked = set(settled)
    for h in settled:
        if h == before.origin or not before.stop[h]:
            looked.update(j for j, _ in before.steps[h])
    return all(enter[i] == before.enter[i] and stop[i] == before.stop[i] for i in looked)


def test_a_kept_search_is_given_back_exactly_when_what_it_read_is_unchanged() -> None:
    """9.0, 4.0: a unit that stood still gets its earlier reach back when the enemy changed only
    where that search never looked (the changed hexes are found once per pair of terrains)."""
    net = _network(S)
    latest: dict[str, _Search] = {}
    answers = {True: 0, False: 0}
    for i, game in enumerate(weighted_random_game(11)):
        if i % 10:
            continue
        p = game.position
        for uid, unit in p.units.items():
            if not unit.on_map or unit.hex is None or is_immobile(p, uid):
                continue
            enemy = unit.side.enemy
            budget = p.movement(uid) * move_graph(S).scale
            no_mountain = not S.units[uid].type.may_enter_mountain
            search = _search_network(net, move_graph(S).scale, unit.hex, budget, no_mountain,
                                     zoc_map(p, enemy), p.occupied(enemy), frozenset())
            before = latest.get(uid)
            if before is not None and (before.origin, before.limit, before.no_mountain) == (
                    search.origin, search.limit, search.no_mountain) and before.enter is not search.enter:
                expected = _read_the_long_way(before, search.enter, search.stop)
                assert before.holds_for(search.origin, search.limit, no_mountain, search.enter, search.stop) is expected
                answers[expected] += 1
            latest[uid] = search
    assert answers[True] > 50 and answers[False] > 20


def test_step_costs_under_chits_are_the_plain_ones_but_where_a_chit_changes_a_crossing() -> None:
    """5.1 Roadblock, Demolition and Engineers change the cost of some crossings (9.0): the
    table the reach search uses is rebuilt only around them and must equal one rebuilt whole."""
    from cheren.engine.rules.chits import road_hexes
    from cheren.engine.rules.movement import MoveOptions, edge_cost

    graph = move_graph(S)
    net = _network(S)
    rng = random.Random(29)
    roads = sorted(road_hexes(Game(S, seed=1).position))
    bridges = sorted(S.road_sides & S.river_sides)
    assert roads and bridges
    for trial in range(40):
        no_road = frozenset(rng.sample(roads, rng.randint(0, 3)))
        blown = frozenset(rng.sample(bridges, rng.randint(0, 2)))
        opts = MoveOptions(ignore_rivers=trial % 3 == 0, no_road=no_road, blown_bridges=blown)
        for no_mountain in (False, True):
            net.changed.clear()
            got = net.steps_with(graph, no_mountain, opts)
            whole = tuple(
                tuple((net.index[e.to], edge_cost(graph, h, e, opts)) for e in graph.edges[h]
                      if e.ticks >= 0 and e.to in net.index and not (no_mountain and e.mountain))
                for h in net.hexes
            )
            assert got == whole, (trial, no_mountain)
