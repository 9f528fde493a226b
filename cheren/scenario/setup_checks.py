"""Checks on the opening position that need the compiled scenario (hex terrain, stacking values).

3.1 enforces stacking at the end of every phase but Reinforcement.  The side that moves first
can spread its set-up stacks in its first Movement phase, but the other side's set-up stacks
face 3.1 at the end of that phase before they have moved at all, so a reconstruction that sets
them up over the limit throws away steps on turn 1 for no play reason.  The rules still say what
happens then, so these are warnings (``cheren validate`` prints them), not load errors."""

from __future__ import annotations

from collections import defaultdict

from cheren.hexes import Hex
from cheren.scenario.compiled import Scenario
from cheren.scenario.errors import Problem
from cheren.scenario.sequence import SIDES_IN_ORDER


def setup_problems(scenario: Scenario) -> list[Problem]:
    second = SIDES_IN_ORDER[1]
    file = scenario.info.files["counters"]
    stacks: dict[Hex, list[tuple[int, str]]] = defaultdict(list)
    for i, c in enumerate(scenario.counter_sheet.counters):
        if c.side is not second or c.id not in scenario.units:
            continue
        if c.native is not None:
            stacks[scenario.village_hex(c.native.village)].append((i, c.id))
        elif c.arrival is not None and c.arrival.turn is None:
            stacks[scenario.letter_hex(c.arrival.letter)].append((i, c.id))
    problems = []
    for h, members in sorted(stacks.items()):
        total = sum(scenario.units[uid].stack for _, uid in members)
        info = scenario.hexes[h]
        if total > info.stack_limit:
            terrain = min(info.terrains, key=lambda t: t.stack_limit).name.lower()
            i, first = members[0]
            units = ", ".join(uid for _, uid in members)
            problems.append(
                Problem(
                    file,
                    f"counters[{i}] ({first}).arrival",
                    f"the {second.adjective} set-up stack ({units}) totals stacking value {total}, over the "
                    f"{terrain} limit of {info.stack_limit}; 3.1 would remove steps at the end of the first "
                    f"{SIDES_IN_ORDER[0].adjective} phase before these units could move",
                    hex=h.label,
                )
            )
    return problems
