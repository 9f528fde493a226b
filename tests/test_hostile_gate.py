"""The legality gate refuses anything: arbitrary actions, at arbitrary points of real games, give
a refusal or IllegalAction and leave the game byte-identical (issue 14)."""

from __future__ import annotations

import os
import random
from dataclasses import fields

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from cheren import load_scenario
from cheren.engine.actions import ACTION_TYPES, Action
from cheren.engine.game import Game
from cheren.engine.position import Status
from cheren.engine.registry import IllegalAction
from cheren.files import library_names, load_position
from cheren.hexes import Hex
from cheren.players.bots import make_bot
from cheren.players.views import SideSeat
from cheren.scenario import Side
from cheren.study.game_saves import dumps_game, loads_game
from tests.gate_fuzz import fingerprint

SCENARIO = load_scenario()
UNITS = sorted(SCENARIO.units)
CHITS = sorted(f"{k}.{n}" for k, c in SCENARIO.chits.items() for n in range(1, c.count + 2))
HEXES = sorted(SCENARIO.playable)
GAMES: dict[tuple[int, int], Game] = {}
LIBRARY = library_names()


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


class GateMachine(RuleBasedStateMachine):
    """Play, hostile calls, undo, redo, save and reload in any order: the gate refuses what it
    must without changing anything, and the game stays one the log replays exactly."""

    def __init__(self) -> None:
        super().__init__()
        self.game = Game(SCENARIO, seed=0)

    @initialize(seed=st.integers(0, 3), library=st.booleans())
    def start(self, seed: int, library: bool) -> None:
        if library:
            self.game = Game.from_position(load_position(LIBRARY[seed % len(LIBRARY)], SCENARIO), seed=seed)
        else:
            self.game = Game(SCENARIO, seed=seed)

    @rule(pick=st.integers(0, 10**6), end_phase=st.booleans())
    def play(self, pick: int, end_phase: bool) -> None:
        legal = self.game.legal_actions()
        if not legal:
            return
        ends = [a for a in legal if a.kind == "end_phase"]
        action = ends[0] if end_phase and ends else legal[pick % len(legal)]
        assert self.game.check(action).ok
        self.game.apply(action)

    @rule(action=st.one_of(actions(), st.sampled_from(["move", None, 3, ("0101",)])))
    def hostile(self, action: object) -> None:
        before = fingerprint(self.game)
        verdict = self.game.check(action)  # type: ignore[arg-type]
        assert fingerprint(self.game) == before
        if verdict.ok:
            return
        assert verdict.refusal is not None and verdict.refusal.rules
        with pytest.raises(IllegalAction):
            self.game.apply(action)  # type: ignore[arg-type]
        assert fingerprint(self.game) == before

    @rule()
    def undo(self) -> None:
        if self.game.can_undo():
            self.game.undo()

    @rule()
    def redo(self) -> None:
        if self.game.can_redo():
            self.game.redo()

    @rule()
    def save_and_reload(self) -> None:
        again = loads_game(dumps_game(self.game), SCENARIO)
        assert again.position == self.game.position
        assert (again.moment, again.pending, again.actions()) == (self.game.moment, self.game.pending,
                                                                  self.game.actions())

    @invariant()
    def the_log_replays_to_the_position(self) -> None:
        g = self.game
        replayed = Game.replay(SCENARIO, g.seed, g.actions(), position=g.start)
        assert replayed.position.units == g.position.units
        assert (replayed.moment, replayed.pending) == (g.moment, g.pending)

    @invariant()
    def every_unit_stands_where_the_index_says(self) -> None:
        p = self.game.position
        for uid, unit in p.units.items():
            assert (unit.hex is not None) == (unit.status is Status.MAP)
            if unit.hex is not None:
                assert uid in p.units_at(unit.hex)


# CHEREN_STATEFUL_EXAMPLES=5000 for the long run (docs/reliability.md); CI runs 25
GateMachine.TestCase.settings = settings(
    max_examples=int(os.environ.get("CHEREN_STATEFUL_EXAMPLES", "25")), stateful_step_count=30, deadline=None,
    derandomize=True, suppress_health_check=[HealthCheck.too_slow],
)
test_the_gate_holds_in_any_order_of_play_hostile_calls_undo_redo_and_saves = GateMachine.TestCase
