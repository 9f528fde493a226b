"""A whole 12-turn game on the bundled scenario, through the one gate, saved and replayed."""

from __future__ import annotations

import random
from pathlib import Path

from cheren import load_scenario
from cheren.engine.actions import EndPhase
from cheren.engine.game import Game
from cheren.engine.rules.stacking import overstacked
from cheren.scenario import Phase
from cheren.study.game_saves import load_game, save_game


def test_a_whole_game_on_the_bundled_map_can_be_played_saved_loaded_and_replayed(tmp_path: Path) -> None:
    s = load_scenario()
    g = Game(s, seed=11)
    rng = random.Random(11)
    saved_midway = False
    while not g.over:
        actions = g.legal_actions()
        assert actions, g.status()
        ended = g.phase
        g.apply(rng.choices(actions, [1 if isinstance(a, EndPhase) else 3 for a in actions])[0])
        if not saved_midway and g.turn == 6 and g.phase is Phase.MOVEMENT and g.log[-1].action != EndPhase():
            save_game(g, tmp_path / "midway.json")  # mid-phase: some units have moved
            midway = load_game(tmp_path / "midway.json", s)
            assert midway.position.units == g.position.units and midway.flow.moved == g.flow.moved
            saved_midway = True
        if ended is not Phase.REINFORCEMENT and g.phase is not ended and g.phase is not Phase.REINFORCEMENT:
            assert overstacked(g.position) == []
    assert saved_midway
    assert g.turn == 12 and g.over
    save_game(g, tmp_path / "game.json")
    loaded = load_game(tmp_path / "game.json", s)
    assert loaded.position.units == g.position.units and loaded.over
    replayed = Game.replay(s, 11, g.actions())
    assert replayed.position.units == g.position.units
    assert replayed.position.allied_control == g.position.allied_control
