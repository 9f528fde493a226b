"""What the learned evaluation sees of a position: numbers the engine computes, by name.

Every feature is public information (nothing from a hand but how many chits it holds), so the
evaluation shown beside a game against the bot tells the player nothing the board does not.

* time: the game turn, the phase (7.0) and the phasing side, and the player turns left;
* towns: the Allied VP and towns (2.1, 14.0), each side's towns (and their VP) open to a raid
  (no own step on it, enemy steps within four hexes), and for every town its controller, the
  steps of each side on it and the steps of each side within four hexes;
* steps: each side's steps on the map, by area (bands of map columns, west to east), steps
  already lost, steps out of supply now (12.0-12.2) and steps under a Low or No supply marker
  (12.4);
* reinforcements (8.0): each side's steps still to arrive this turn or next, and later;
* chits (5.0): how many chits each side holds;
* the next turn (:mod:`cheren.engine.threats`): for each side, what the enemy's next Movement and
  Combat allow against it: how many of its stacks can be attacked, its steps in stacks the
  enemy reaches at 2-1 or at 3-1 and better, the best column, the steps it would expect to lose
  were every stack attacked at its best odds (each attack counted on its own, so an upper
  bound; the mean of the column's printed defender losses, kept that simple for speed rather
  than the exact distribution of :mod:`cheren.engine.combat_whatif`, which also counts retreat
  losses), the VP of its towns held by a stack the enemy reaches at 2-1 or better, and the VP
  of its empty towns an enemy unit can end its move on.  Supply cuts are left out: finding them
  takes ten times as long as the rest of the evaluation.

:func:`feature_names` lists them in order for a scenario; :func:`features` computes them.  The
model file stores the names it was trained on, so a model and features that drifted apart are
refused rather than misread."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from cheren.engine.position import Position, Status
from cheren.engine.rules.supply_hexes import supplied_view
from cheren.engine.threats import threats
from cheren.hexes import Hex, hex_range, parse_label
from cheren.scenario.compiled import Scenario
from cheren.scenario.models import Phase, Side

NEAR = 4  # hexes: the ring within which a side's steps count as threatening or holding a town
AREA_COLUMNS = 8  # map columns per area band
PHASES = tuple(Phase)
SIDES = (Side.ALLIED, Side.ITALIAN)


@dataclass(frozen=True)
class _Layout:
    """What the features need of a scenario, worked out once per scenario."""

    names: tuple[str, ...]
    towns: tuple[tuple[str, Hex, frozenset[Hex], int], ...]  # name, hex, the hexes within NEAR of it, VP
    areas: int
    full_steps: dict[str, int]
    arrivals: dict[str, int]  # unit id: its arrival turn (8.0), for the units that arrive later
    turns: int


@functools.cache
def _layout(scenario: Scenario) -> _Layout:
    towns = tuple((t.name, parse_label(t.hex), frozenset(hex_range(parse_label(t.hex), NEAR)), t.vp)
                  for t in scenario.towns.values())
    areas = -(-scenario.columns // AREA_COLUMNS)
    names: list[str] = ["turn", "phase", "allied_phasing", "player_turns_left", "allied_vp", "allied_towns",
                        "allied VP open to a raid", "italian VP open to a raid", "allied towns open to a raid",
                        "italian towns open to a raid"]
    for name, _, _, _ in towns:
        names += [f"{name}: allied control", f"{name}: allied steps on it", f"{name}: italian steps on it",
                  f"{name}: allied steps near", f"{name}: italian steps near"]
    for side in SIDES:
        names += [f"{side.value} steps on the map", f"{side.value} steps lost", f"{side.value} steps out of supply",
                  f"{side.value} steps marked low or no supply", f"{side.value} steps arriving soon",
                  f"{side.value} steps arriving later", f"{side.value} chits in hand"]
        names += [f"{side.value} steps in area {i + 1} of {areas}" for i in range(areas)]
    for side in SIDES:
        names += [f"{side.value} stacks the enemy can attack next turn",
                  f"{side.value} steps the enemy can attack at 2-1 or better",
                  f"{side.value} steps the enemy can attack at 3-1 or better",
                  f"{side.value}: the enemy's best column next turn",
                  f"{side.value} steps lost were every stack attacked at its best odds",
                  f"{side.value} VP of towns held by a stack the enemy can attack at 2-1 or better",
                  f"{side.value} VP of empty towns the enemy can move onto"]
    arrivals = {uid: u.counter.arrival.turn for uid, u in scenario.units.items()
                if u.counter.arrival is not None and u.counter.arrival.turn is not None}
    return _Layout(tuple(names), towns, areas, {uid: u.steps for uid, u in scenario.units.items()}, arrivals,
                   len(scenario.info.turns))


def feature_names(scenario: Scenario) -> tuple[str, ...]:
    """The features of :func:`features`, in order."""
    return _layout(scenario).names


def features(position: Position) -> list[float]:
    """The features of ``position`` (see the module), in the order of :func:`feature_names`."""
    lay = _layout(position.scenario)
    p = position
    turn = p.turn
    allied_first = p.side is Side.ALLIED
    row: list[float] = [
        turn, PHASES.index(p.phase), 1.0 if allied_first else 0.0,
        (lay.turns - turn) * 2 + (2 if allied_first else 1),
        p.allied_vp(), len(p.allied_control),
    ]
    on_map: dict[Side, dict[Hex, int]] = {Side.ALLIED: {}, Side.ITALIAN: {}}
    lost = dict.fromkeys(SIDES, 0)
    marked = dict.fromkeys(SIDES, 0)
    soon = dict.fromkeys(SIDES, 0)
    later = dict.fromkeys(SIDES, 0)
    for uid, unit in p.units.items():
        side = unit.side
        left = p.steps_left(uid)
        if unit.status is Status.MAP and unit.hex is not None:
            stacks = on_map[side]
            stacks[unit.hex] = stacks.get(unit.hex, 0) + left
            if unit.supply is not None:
                marked[side] += left
        elif unit.status is Status.ELIMINATED:
            lost[side] += lay.full_steps[uid]
        elif unit.status is Status.POOL and uid in lay.arrivals:
            if lay.arrivals[uid] <= turn + 1:
                soon[side] += left
            else:
                later[side] += left
        if unit.status is not Status.ELIMINATED:
            lost[side] += lay.full_steps[uid] - left
    allied, italian = on_map[Side.ALLIED], on_map[Side.ITALIAN]
    # a town is open to a raid where its side has no step on it and the enemy has steps near
    open_vp = {Side.ALLIED: 0, Side.ITALIAN: 0}
    open_towns = {Side.ALLIED: 0, Side.ITALIAN: 0}
    per_town: list[float] = []
    for name, h, ring, vp in lay.towns:
        near_allied = sum(s for at, s in allied.items() if at in ring)
        near_italian = sum(s for at, s in italian.items() if at in ring)
        held = name in p.allied_control
        per_town += [1.0 if held else 0.0, allied.get(h, 0), italian.get(h, 0), near_allied, near_italian]
        owner, own, enemy_near = ((Side.ALLIED, allied.get(h, 0), near_italian) if held
                                  else (Side.ITALIAN, italian.get(h, 0), near_allied))
        if own == 0 and enemy_near > 0:
            open_vp[owner] += vp
            open_towns[owner] += 1
    row += [open_vp[Side.ALLIED], open_vp[Side.ITALIAN], open_towns[Side.ALLIED], open_towns[Side.ITALIAN]]
    row += per_town
    for side in SIDES:
        supplied = supplied_view(p, side)[1]
        stacks = on_map[side]
        out = sum(steps for at, steps in stacks.items() if at not in supplied)
        by_area = [0] * lay.areas
        for at, steps in stacks.items():
            by_area[min(lay.areas - 1, at.col // AREA_COLUMNS)] += steps
        row += [sum(stacks.values()), lost[side], out, marked[side], soon[side], later[side],
                len(p.chits.hands[side])]
        row += by_area
    for side in SIDES:
        row += _next_turn(p, side, lay, on_map[side])
    return row


def _next_turn(p: Position, side: Side, lay: _Layout, stacks: dict[Hex, int]) -> list[float]:
    """What the enemy's next Movement and Combat allow against ``side`` (see the module)."""
    found = threats(p, side, cuts=False)
    # by the column's ratio, not its name, so a table without a "2-1" column (another scenario) still reads
    at_two = {t.hex for t in found.stacks if t.odds.columns[t.odds.column].ratio >= 2}
    at_three = {t.hex for t in found.stacks if t.odds.columns[t.odds.column].ratio >= 3}
    expected = sum(sum(r.defender for r in t.odds.results) / 6 for t in found.stacks)
    reach: set[Hex] = set().union(*found.reach.values())
    held_vp = empty_vp = 0
    for name, h, _, vp in lay.towns:
        if (name in p.allied_control) is (side is Side.ALLIED):
            held_vp += vp if h in at_two else 0
            empty_vp += vp if h not in stacks and h in reach else 0
    return [len(found.stacks), sum(stacks[h] for h in at_two), sum(stacks[h] for h in at_three),
            max((t.odds.column for t in found.stacks), default=-1), expected, held_vp, empty_vp]
