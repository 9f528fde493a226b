"""Property tests: long random sequences of legal actions keep the rules' invariants."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cheren.engine.actions import EndPhase, Replace
from cheren.engine.game import Game, IllegalAction
from cheren.engine.position import Status
from cheren.engine.rules.stacking import overstacked
from cheren.scenario import Phase, Scenario
from cheren.study.game_saves import dumps_game, loads_game
from tests.boards import allied, italian, position
from tests.scenario_factory import counter, mini_scenario, town

TERRAIN = ["..r.h...", ".hM.r..h", "..r..M..", "h...r...", "..M..h.."]


@pytest.fixture(scope="module")
def scenario(tmp_path_factory: pytest.TempPathFactory) -> Scenario:
    counters = [allied(f"a{i}", stack=1 + i % 2) for i in range(5)]
    counters += [allied("tank", sp=2, mp=8, type="tank", size="squadron")]
    counters += [counter("late", "allied", letter="B", turn=2, faces=((4, 4), (2, 4)))]
    counters += [italian(f"i{i}", stack=1 + i % 2, sp=2 + i % 3) for i in range(5)]
    counters += [counter("ilate", "italian", letter="Z", turn=3, faces=((3, 4),))]
    towns = [town("Alpha", "0101", vp=10, letter="A"), town("Bravo", "0103", vp=10, letter="B"),
             town("Zulu", "0805", vp=10, letter="Z")]
    return mini_scenario(tmp_path_factory.mktemp("props"), terrain=TERRAIN, counters=counters, towns=towns,
                         roads=[["0101", "0201", "0301", "0401", "0501", "0601", "0701", "0801"]])


def opening(s: Scenario, seed: int) -> Game:
    allied_hexes = ["0101", "0102", "0103", "0201", "0202", "0203"]
    italian_hexes = ["0805", "0804", "0705", "0704", "0803"]
    placements = {f"a{i}": allied_hexes[i] for i in range(5)} | {"tank": "0102"}
    placements |= {f"i{i}": italian_hexes[i] for i in range(5)}
    return Game(s, seed, position(s, placements, phase=Phase.REINFORCEMENT, seed=seed))


def total_steps(g: Game) -> int:
    return sum(g.position.steps_left(u) for u, unit in g.position.units.items() if unit.status is not Status.ELIMINATED)


def random_play(g: Game, rng: random.Random, n: int) -> None:
    for _ in range(n):
        if g.over:
            return
        actions = g.legal_actions()
        # end phases less often than moving, so positions get busy
        weights = [1 if isinstance(a, EndPhase) else 4 for a in actions]
        action = rng.choices(actions, weights)[0]
        before_phase, before_steps = g.phase, total_steps(g)
        assert g.check(action).ok
        g.apply(action)
        after = total_steps(g)
        if isinstance(action, Replace):
            assert after == before_steps + 1
        else:
            assert after <= before_steps, f"{action} created steps"
        if g.phase is not before_phase and g.phase is not Phase.REINFORCEMENT:
            assert overstacked(g.position) == [], f"over-stacked after ending {before_phase}"
        for u in g.position.units.values():
            assert (u.hex is not None) == (u.status is Status.MAP)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(min_value=0, max_value=10_000))
def test_random_legal_play_keeps_invariants_and_replays_identically(scenario: Scenario, seed: int) -> None:
    g = opening(scenario, seed)
    random_play(g, random.Random(seed), 250)
    replayed = Game.replay(scenario, seed, g.actions(), position=g.start)
    assert replayed.position.units == g.position.units
    assert replayed.position.dice == g.position.dice
    assert (replayed.moment, replayed.pending) == (g.moment, g.pending)
    again = loads_game(dumps_game(g), scenario)
    assert again.position.units == g.position.units and again.moment == g.moment


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(min_value=0, max_value=10_000), cut=st.integers(min_value=1, max_value=60))
def test_undo_to_any_point_then_redo_restores_the_game(scenario: Scenario, seed: int, cut: int) -> None:
    g = opening(scenario, seed)
    random_play(g, random.Random(seed), 80)
    final_units = {k: (v.hex, v.steps_lost, v.status) for k, v in g.position.units.items()}
    n = min(cut, len(g.log))
    for _ in range(n):
        g.undo()
    for _ in range(n):
        g.redo()
    assert {k: (v.hex, v.steps_lost, v.status) for k, v in g.position.units.items()} == final_units


def test_a_whole_game_can_be_played_through_the_gate_and_saved(scenario: Scenario, tmp_path: Path) -> None:
    g = opening(scenario, 5)
    rng = random.Random(5)
    while not g.over:
        random_play(g, rng, 1)
    assert g.turn == 12 and "game over" in g.status()
    from cheren.study.game_saves import load_game, save_game

    save_game(g, tmp_path / "game.json")
    again = load_game(tmp_path / "game.json", scenario)
    assert again.over and again.position.units == g.position.units


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(min_value=0, max_value=10_000))
def test_the_reach_cache_never_changes_the_game(scenario: Scenario, seed: int) -> None:
    from cheren.engine.rules import moves

    cached = opening(scenario, seed)
    fresh = opening(scenario, seed)
    moves.cache(fresh).caching = False
    rng_a, rng_b = random.Random(seed), random.Random(seed)
    for _ in range(150):
        if cached.over:
            break
        a, b = cached.legal_actions(), fresh.legal_actions()
        assert a == b
        pick = rng_a.choice(a)
        assert pick == rng_b.choice(b)
        cached.apply(pick)
        fresh.apply(pick)
    assert cached.position.units == fresh.position.units


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(min_value=0, max_value=10_000))
def test_a_game_without_undo_plays_the_same_game_and_keeps_nothing_to_undo(scenario: Scenario, seed: int) -> None:
    # bots' play-outs play without undo (Game(undo=False)): the same legal actions, the same
    # results, the same dice; only the snapshots and the position's journal are not kept
    kept = opening(scenario, seed)
    bare = Game.from_position(kept.position, undo=False)
    kept = Game.from_position(kept.position)
    rng = random.Random(seed)
    for _ in range(200):
        if kept.over:
            break
        listed = kept.legal_actions()
        assert bare.legal_actions() == listed
        action = rng.choice(listed)
        assert kept.apply(action) == bare.apply(action)
    assert bare.position.units == kept.position.units and bare.position.dice == kept.position.dice
    assert (bare.moment, bare.pending, bare.over) == (kept.moment, kept.pending, kept.over)
    assert [e.action for e in bare.log] == kept.actions() and kept.can_undo() and not bare.can_undo()
    with pytest.raises(IndexError):
        bare.undo()
    if not bare.over:  # a refused action still changes nothing (the gate refuses before acting)
        units = {k: (v.hex, v.steps_lost, v.status) for k, v in bare.position.units.items()}
        refused = Replace("no such unit")
        assert not bare.check(refused).ok
        with pytest.raises(IllegalAction):
            bare.apply(refused)
        assert {k: (v.hex, v.steps_lost, v.status) for k, v in bare.position.units.items()} == units
