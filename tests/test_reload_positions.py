"""Every position the gate can reach saves and reloads, as a JSON save, a position file and a
one-line code, to the same position, in the middle of a phase too (issue 28, item 2)."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from cheren import load_scenario
from cheren.engine.game import Game
from cheren.engine.position import Position, Status, Supply
from cheren.files import (
    PositionError,
    PositionRecord,
    dump_position_file,
    load_position,
    parse_position_code,
    parse_position_text,
    position_code,
)
from cheren.files.position_problems import canonical, errors
from cheren.files.position_saves import SaveError, dumps, loads
from cheren.hexes import Hex
from cheren.players.bots import make_bot
from cheren.players.views import SideSeat
from cheren.scenario import Phase, Side

SCENARIO = load_scenario()


def as_file(p: Position) -> str:
    return dump_position_file(PositionRecord("reached", "a position reached in play", dt.date(1941, 2, 1), p))


def reloads(p: Position) -> None:
    """The position comes back from each form exactly (saves: byte for byte; files and codes:
    code for code, which carries the whole state)."""
    assert dumps(loads(dumps(p), SCENARIO)) == dumps(p)
    code = position_code(p)
    assert parse_position_code(code, SCENARIO) == canonical(p)
    assert position_code(parse_position_code(code, SCENARIO)) == code
    assert parse_position_text(as_file(p), SCENARIO).position == canonical(p)


def random_game(seed: int) -> tuple[Game, dict[Side, object]]:
    return Game(SCENARIO, seed=seed), {side: make_bot("random", seed) for side in Side}


def step(game: Game, bots: dict[Side, object]) -> None:
    bot = bots[game.acting]
    game.apply(bot.choose(SideSeat(game, game.acting)).action)  # type: ignore[attr-defined]


def test_the_air_unit_arrived_in_its_own_reinforcement_phase_reloads() -> None:
    """Allied Reinforcement, turn 3: the game has placed the air unit off the map (11.3) while the
    phase goes on; saves and codes refused that as 'not in play yet'."""
    game, bots = random_game(0)
    while not (game.turn == 3 and game.phasing is Side.ALLIED and game.phase is Phase.REINFORCEMENT):
        step(game, bots)
    assert game.position.units["air_support"].status is Status.OFF_MAP
    reloads(game.position)
    text = as_file(game.position)
    assert "off_map:\n  - RAF/SAAF" in text


def test_a_stack_over_its_limit_in_the_middle_of_a_phase_reloads() -> None:
    """The Italians react into a hex and stand over its limit until their phase ends (3.1): a
    code of that moment was refused."""
    game = Game.from_position(load_position("kassala", SCENARIO))
    while game.phase is not Phase.REACTION or game.pending is not None:
        options = game.legal_actions()
        game.apply(next((a for a in options if a.kind == "end_phase"), options[0]))
    move = next(a for a in game.legal_actions() if a.kind == "move" and getattr(a, "unit", "") == "col_2"
                and a.path[-1] == Hex.from_label("1411"))  # type: ignore[attr-defined]
    game.apply(move)
    p = game.position
    assert any(e.rule == "3.1" for e in errors(p)) and not errors(p, mid_phase=True)
    reloads(p)
    assert "mid_phase: true" in as_file(p)
    # a position file that does not say so still describes the start of its phase: refused
    with pytest.raises(PositionError, match=r"stacking value 8; the limit there is 6 \(Hills\) \(3.1\)"):
        parse_position_text(as_file(p).replace("mid_phase: true\n", ""), SCENARIO)


def test_a_no_supply_marker_survives_a_position_file() -> None:
    """YAML reads a bare ``no`` as false: the file quotes it."""
    p = load_position("agordat", SCENARIO)
    uid = next(u for u, unit in p.units.items() if unit.status is Status.MAP)
    p.units[uid].supply = Supply.NO
    assert 'supply: "no"' in as_file(p)
    assert parse_position_text(as_file(p), SCENARIO).position.units[uid].supply is Supply.NO


def test_positions_of_a_whole_random_game_reload() -> None:
    """A sample (tools/reliability.py reloads every position of many games)."""
    game, bots = random_game(3)
    while not game.over:
        if len(game.log) % 12 == 0 or (game.pending is not None and len(game.log) % 4 == 0):
            reloads(game.position)
        step(game, bots)
    reloads(game.position)


def test_8_1_a_reinforcement_that_lost_a_step_at_its_arrival_town_keeps_it_while_it_waits() -> None:
    """Turn 6: the Medium artillery arrives alone at an Italian-held town and loses a step in the
    exchange; the Italians' retreat then decides whether it arrives or waits in the pool for the
    next Allied turn (8.1).  Files and codes cleared a loss of a unit off the map, so a unit in
    either moment came back at full strength."""
    game = Game(SCENARIO, seed=15)
    bots: dict[Side, object] = {side: make_bot("heuristic", 15) for side in Side}
    lost = None
    while lost is None:
        step(game, bots)
        lost = next((u for u, x in game.position.units.items() if x.status is Status.POOL and x.steps_lost), None)
    p = game.position
    assert (game.turn, game.phasing, game.phase) == (6, Side.ALLIED, Phase.REINFORCEMENT) and game.pending
    name = SCENARIO.units[lost].name
    reloads(p)  # the Italians' retreat still to decide: the middle of the phase
    assert f"to_arrive_steps:\n  {name}: 1" in as_file(p) and "mid_phase: true" in as_file(p)
    waiting = p.copy()  # the Italians could not retreat: it waits (the engine's reading of 8.1)
    waiting.delayed.add(lost)
    reloads(waiting)
    assert parse_position_code(position_code(waiting), SCENARIO).units[lost].steps_lost == 1
    assert "mid_phase" not in as_file(waiting)
    # losses the rules cannot give are refused, naming the field or the rule
    refused = rf"to_arrive_steps.{name}: {name} has 2 steps; a reinforcement keeps 1 to 2"
    with pytest.raises(PositionError, match=refused):
        parse_position_text(as_file(waiting).replace(f"{name}: 1", f"{name}: 0"), SCENARIO)
    with pytest.raises(PositionError, match=r"only an Allied reinforcement that fought for its arrival town"):
        parse_position_text(as_file(waiting).replace(f"delayed:\n  - {name}\n", ""), SCENARIO)


@pytest.mark.parametrize("label", ["0000", "1100", "0011"])
def test_hex_labels_with_a_zero_column_or_row_are_refused_with_the_field(label: str) -> None:
    text = as_file(load_position("agordat", SCENARIO))
    first = text.index('hex: "') + len('hex: "')
    with pytest.raises(PositionError, match=rf"units\[0\] \(.*\)\.hex: hex label '{label}': columns and rows count"):
        parse_position_text(text[:first] + label + text[first + 4 :], SCENARIO)
    code = position_code(load_position("agordat", SCENARIO))
    at = code.index("-", code.index("-") + 1) + 1 + 2  # the first unit's hex in the units section
    with pytest.raises(PositionError, match="expected a hex label with its column and row from 01"):
        parse_position_code(code[:at] + label + code[at + 4 :], SCENARIO)
    data = json.loads(dumps(load_position("agordat", SCENARIO)))
    uid = next(u for u, unit in data["units"].items() if "hex" in unit)
    data["units"][uid]["hex"] = label
    with pytest.raises(SaveError, match=rf"units\.{uid}\.hex: hex label '{label}'"):
        loads(json.dumps(data), SCENARIO)
