"""The legality gate refuses anything: arbitrary actions, at arbitrary points of real games, give
a refusal or IllegalAction and leave the game byte-identical (issue 14)."""

from __future__ import annotations

import random
from dataclasses import fields

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cheren import load_scenario
from cheren.engine.actions import ACTION_TYPES, Action
from cheren.engine.game import Game
from cheren.engine.registry import IllegalAction
from cheren.hexes import Hex
from cheren.players.bots import make_bot
from cheren.players.views import SideSeat
from cheren.scenario import Side
from cheren.study.game_saves import dumps_game

SCENARIO = load_scenario()
UNITS = sorted(SCENARIO.units)
CHITS = sorted(f"{k}.{n}" for k, c in SCENARIO.chits.items() for n in range(1, c.count + 2))
HEXES = sorted(SCENARIO.playable)
GAMES: dict[tuple[int, int], Game] = {}


def game_at(seed: int, steps: int) -> Game:
    """A game of two random bots, ``steps`` actions in (kept: the test must not change it)."""
    key = (seed, steps)
    if key not in GAMES:
        g = Game(SCENARIO, seed=seed)
        bots = {side: make_bot("random", seed) for side in Side}
        for _ in range(steps):
            if g.over:
                break
            side = g.acting
            g.apply(bots[side].choose(SideSeat(g, side)).action)
        GAMES[key] = g
    return GAMES[key]


texts = st.one_of(st.sampled_from([*UNITS, *CHITS, "", "nobody", "K7-F8", "0101", "x" * 300]), st.text(max_size=12))
hexes = st.one_of(
    st.sampled_from(HEXES),
    st.builds(Hex, st.integers(-50, 50), st.integers(-50, 50)),
    st.builds(Hex, st.integers(-(10**6), 10**6), st.integers(-(10**6), 10**6)),
)
anything = st.one_of(st.none(), st.integers(), st.floats(), texts, st.lists(st.integers(), max_size=3), hexes)


def value_for(annotation: str, wild: bool) -> st.SearchStrategy[object]:
    if wild:
        return anything
    return {
        "str": texts,
        "bool": st.booleans(),
        "Hex": hexes,
        "tuple[Hex, ...]": st.lists(hexes, max_size=6).map(tuple),
        "tuple[str, ...]": st.lists(texts, max_size=5).map(tuple),
    }.get(annotation, anything)


@st.composite
def actions(draw: st.DrawFn) -> Action:
    cls = draw(st.sampled_from(sorted(ACTION_TYPES.values(), key=lambda c: c.kind)))
    wild = draw(st.integers(0, 9)) == 0  # now and then a field of the wrong kind altogether
    kwargs = {f.name: draw(value_for(str(f.type), wild)) for f in fields(cls)}
    action: Action = cls(**kwargs)
    return action


@settings(max_examples=400, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.sampled_from([1, 2, 3]), steps=st.sampled_from([0, 7, 40, 150, 400]), action=actions())
def test_the_gate_refuses_anything_and_changes_nothing(seed: int, steps: int, action: Action) -> None:
    game = game_at(seed, steps)
    before = dumps_game(game)
    verdict = game.check(action)
    assert dumps_game(game) == before
    if verdict.ok:
        return  # a legal action: applying it is ordinary play (the bots' own tests cover that)
    try:
        game.apply(action)
    except IllegalAction as exc:
        assert exc.refusal == verdict.refusal
    else:
        raise AssertionError(f"{action} was refused by check() but applied")
    assert dumps_game(game) == before


def test_a_malformed_action_is_refused_with_the_field_at_fault() -> None:
    from cheren.engine.actions import Move

    game = game_at(1, 7)
    refusal = game.check(Move(["ind_5"], (Hex(1, 1),))).refusal  # type: ignore[arg-type]
    assert refusal is not None and "move: unit must be a text" in refusal.reason
    refusal = game.check(Move("ind_5", (Hex(10**9, 0),))).refusal
    assert refusal is not None and "path must be a list of at most 64 hexes" in refusal.reason
    refusal = game.check("end the phase").refusal  # type: ignore[arg-type]
    assert refusal is not None and "str is not an action" in refusal.reason
    rng = random.Random(0)
    assert rng is not None
