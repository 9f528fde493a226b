"""The position keeps an index of who stands where, change stamps and an undo journal alongside
its units.  They are only worth having if they always agree with the units themselves."""

from __future__ import annotations

import copy
import pickle
import random

from cheren import load_scenario
from cheren.engine.actions import EndPhase
from cheren.engine.game import Game
from cheren.engine.position import Position, Status, Supply
from cheren.engine.registry import Decision, Flow, Task
from cheren.hexes import Hex
from cheren.scenario import Side


def scanned(p: Position) -> dict[Hex, list[str]]:
    """Who stands where, found the slow way."""
    out: dict[Hex, list[str]] = {}
    for u in p.units.values():
        if u.status is Status.MAP and u.hex is not None:
            out.setdefault(u.hex, []).append(u.id)
    return out


def test_units_at_agrees_with_the_units_through_random_play_undo_and_redo() -> None:
    game = Game(load_scenario(), seed=8)
    rng = random.Random(8)
    for step in range(400):
        if step % 7 == 3 and game.can_undo():
            game.undo()
            if step % 2:
                game.redo()
        else:
            actions = game.legal_actions()
            game.apply(rng.choices(actions, [1 if isinstance(a, EndPhase) else 3 for a in actions])[0])
        p = game.position
        assert p.stacks() == scanned(p), f"after step {step}"
        assert all(p.units_at(h) == ids for h, ids in scanned(p).items())


def test_undo_puts_back_every_part_of_the_position() -> None:
    game = Game(load_scenario(), seed=21)
    rng = random.Random(21)
    before = [(game.position.copy(), game.flow.copy())]
    for _ in range(150):
        actions = game.legal_actions()
        game.apply(rng.choices(actions, [1 if isinstance(a, EndPhase) else 3 for a in actions])[0])
        before.append((game.position.copy(), game.flow.copy()))
    before.pop()
    while game.can_undo():
        game.undo()
        position, flow = before.pop()
        assert game.position == position
        assert game.flow == flow


def test_stamps_change_with_the_units_of_their_side_only() -> None:
    p = Game(load_scenario(), seed=2).position.copy()
    allied, italian = p.stamp(Side.ALLIED), p.stamp(Side.ITALIAN)
    uid = next(u for u, st in p.units.items() if st.side is Side.ITALIAN and st.on_map)
    p.units[uid].supply = Supply.LOW
    assert p.stamp(Side.ALLIED) == allied and p.stamp(Side.ITALIAN) != italian
    italian = p.stamp(Side.ITALIAN)
    p.units[uid].supply = Supply.LOW  # the same value again: nothing changed
    assert p.stamp(Side.ITALIAN) == italian
    copied = p.copy()
    assert copied.stamp(Side.ITALIAN) == italian  # the same units, the same stamp
    copied.remove(uid)
    assert copied.stamp(Side.ITALIAN) not in (italian, p.stamp(Side.ITALIAN))
    assert p.units[uid].on_map and uid in p.units_at(p.units[uid].hex or Hex(0, 0))


def test_copied_and_pickled_units_are_detached_from_their_position() -> None:
    p = Game(load_scenario(), seed=3).position
    uid, unit = next((u, st) for u, st in p.units.items() if st.on_map)
    where = unit.hex
    assert where is not None
    for twin in (copy.copy(unit), copy.deepcopy(unit), pickle.loads(pickle.dumps(unit))):
        assert twin == unit
        twin.status, twin.hex = Status.ELIMINATED, None
        assert uid in p.units_at(where) and unit.hex == where


def test_a_flow_copy_is_deep_and_equal() -> None:
    d = Decision("loss", Side.ALLIED, ("3.1",), "remove a step", ("a", "b"), hex=Hex(1, 1), data={"n": [1, 2]})
    flow = Flow(queue=[d, Task("call", {"args": {"hook": print}})], moved={"a"},
                extra={"combat": {"attacks": {"0101": ["a"]}}, "shared": [d]}, turn_extra={"x": [Hex(2, 2)]})
    twin = flow.copy()
    assert twin == flow == copy.deepcopy(flow)
    assert twin.queue[0] is not d and twin.extra["shared"][0] is twin.queue[0]  # aliasing kept
    assert twin.queue[1].data["args"]["hook"] is print
    twin.extra["combat"]["attacks"]["0101"].append("b")
    twin.moved.add("b")
    assert flow.extra["combat"]["attacks"]["0101"] == ["a"] and flow.moved == {"a"}


def test_a_flow_copy_copies_the_combat_state_it_holds() -> None:
    from cheren.engine.rules.combat_resolution import Assembly, CombatState

    state = CombatState(assemblies={Hex(3, 3): Assembly(Hex(3, 3), ["a"])}, attacked={"a"})
    flow = Flow(extra={"combat": {"state": state, "attacks": {"0404": ["a"]}}})
    twin = flow.copy()
    assert twin == copy.deepcopy(flow)
    copied = twin.extra["combat"]["state"]
    assert isinstance(copied, CombatState) and copied is not state
    copied.assemblies[Hex(3, 3)].units.append("b")
    copied.attacked.add("b")
    assert state.assemblies[Hex(3, 3)].units == ["a"] and state.attacked == {"a"}


def test_cached_zoc_and_supply_maps_agree_with_fresh_ones_through_play() -> None:
    from cheren.engine.rules.supply import supply_context
    from cheren.engine.rules.supply_hexes import supplied_hexes
    from cheren.engine.rules.zoc import _zoc_map, zoc_map

    game = Game(load_scenario(), seed=13)
    rng = random.Random(13)
    for step in range(300):
        if step % 5 == 0:
            p = game.position
            for side in Side:
                assert zoc_map(p, side) == _zoc_map(p, side)
                assert supplied_hexes(p, side) == supplied_hexes(p, side, context=supply_context(p, side))
        if step % 11 == 5 and game.can_undo():
            game.undo()
            continue
        actions = game.legal_actions()
        game.apply(rng.choices(actions, [1 if isinstance(a, EndPhase) else 3 for a in actions])[0])


def test_a_copy_has_every_field_and_shares_nothing_it_could_change() -> None:
    import dataclasses

    p = Game(load_scenario(), seed=4).position
    twin = p.copy()
    for f in dataclasses.fields(Position):  # a field added to Position must be copied too
        mine, theirs = getattr(p, f.name), getattr(twin, f.name)
        assert mine == theirs, f.name
        if f.name != "scenario" and not isinstance(mine, int | str):
            assert mine is not theirs, f.name
    uid, where = next((u, st.hex) for u, st in twin.units.items() if st.hex is not None)
    twin.remove(uid)
    assert p.units[uid].on_map and uid in p.units_at(where) and uid not in twin.units_at(where)


def test_copied_and_pickled_positions_keep_their_index() -> None:
    p = Game(load_scenario(), seed=6).position
    for twin in (copy.copy(p), copy.deepcopy(p), pickle.loads(pickle.dumps(p))):
        assert twin.units == p.units and twin.chits == p.chits
        uid, where = next((u, st.hex) for u, st in twin.units.items() if st.hex is not None)
        twin.units[uid].status, twin.units[uid].hex = Status.ELIMINATED, None
        assert uid not in twin.units_at(where) and uid in p.units_at(where)
        assert twin.stacks() == scanned(twin)
