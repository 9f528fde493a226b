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

from cheren.engine.actions import EndPhase
from cheren.engine.game import Game
from cheren.engine.rules.supply import check_side, supplied_at, supplied_units, supply_context, trace_from
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
