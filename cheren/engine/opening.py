"""The opening position, rule 5.0."""

from __future__ import annotations

from cheren.engine.dice import Dice
from cheren.engine.position import ChitState, Position, Status, UnitState, chit_instances
from cheren.scenario.compiled import Scenario
from cheren.scenario.models import Side

__all__ = ["chit_instances", "draw_hands", "initial_position"]


def initial_position(scenario: Scenario, seed: int = 0) -> Position:
    """Set up per rule 5.0: units on their setup towns, reinforcements in the pool, native units
    at their villages on the Italian side, Kassala's Control marker, and four chits a side drawn
    with the game's dice (Italians first, as 5.0 tells it), the rest in the common cup."""
    dice = Dice(seed)
    units: dict[str, UnitState] = {}
    for uid, unit in scenario.units.items():
        counter = unit.counter
        if counter.native is not None:
            units[uid] = UnitState(uid, unit.side, Status.MAP, scenario.village_hex(counter.native.village))
        elif counter.arrival is not None and counter.arrival.turn is None:
            units[uid] = UnitState(uid, unit.side, Status.MAP, scenario.letter_hex(counter.arrival.letter))
        else:
            units[uid] = UnitState(uid, unit.side, Status.POOL)

    return Position(
        scenario=scenario,
        units=units,
        dice=dice,
        allied_control=set(scenario.info.allied_control_at_start),
        chits=draw_hands(scenario, dice),
    )


def draw_hands(scenario: Scenario, dice: Dice) -> ChitState:
    """5.0: each side draws its hand from its own chits, the Italians first; the rest of both
    sides' chits go into the common cup."""
    chits = ChitState()
    hand = scenario.chit_chart.hand_size
    for side in (Side.ITALIAN, Side.ALLIED):
        own = chit_instances(scenario, side)
        for _ in range(min(hand, len(own))):
            chits.hands[side].append(own.pop(dice.below(len(own))))
        chits.cup.extend(own)
    chits.cup.sort()
    return chits
