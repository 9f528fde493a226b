"""Small hand-made boards for rule tests: a scenario from the factory plus a position."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from cheren.engine.game import Game
from cheren.engine.position import Position, Supply
from cheren.hexes import Hex
from cheren.scenario import Phase, Scenario, Side
from tests.scenario_factory import counter, mini_scenario, town

H = Hex.from_label


def units(*specs: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [dict(s) for s in specs]


def board(
    tmp_path: Path,
    terrain: Sequence[str],
    counters: Sequence[Mapping[str, Any]],
    towns: Sequence[Mapping[str, Any]] | None = None,
    **options: Any,
) -> Scenario:
    """A scenario whose towns default to two 15-VP towns at the first and last hex of row 1."""
    if towns is None:
        width = len(terrain[0])
        towns = [town("Alpha", "0101", vp=15, letter="A"), town("Zulu", f"{width:02d}01", vp=15, letter="Z")]
    return mini_scenario(tmp_path, terrain=terrain, counters=counters, towns=towns, **options)


def position(
    scenario: Scenario,
    placements: Mapping[str, str | tuple[str, int]],
    *,
    turn: int = 1,
    side: Side = Side.ALLIED,
    phase: Phase = Phase.MOVEMENT,
    supply: Mapping[str, Supply] | None = None,
    seed: int = 1,
) -> Position:
    p = Position.empty(scenario, seed=seed)
    for uid, where in placements.items():
        label, lost = (where, 0) if isinstance(where, str) else where
        p.place(uid, label, steps_lost=lost)
    for uid, marker in (supply or {}).items():
        p.set_supply(uid, marker)
    p.set_turn(turn, side, phase)
    return p


def game(
    scenario: Scenario,
    placements: Mapping[str, str | tuple[str, int]],
    **kwargs: Any,
) -> Game:
    return Game(scenario, seed=kwargs.pop("seed", 1), position=position(scenario, placements, **kwargs))


def allied(id: str, sp: int = 4, mp: int = 4, **extra: Any) -> dict[str, Any]:
    return counter(id, "allied", letter="A", faces=((sp, mp), (sp // 2, mp)), **extra)


def italian(id: str, sp: int = 2, mp: int = 4, **extra: Any) -> dict[str, Any]:
    return counter(id, "italian", letter="Z", faces=((sp, mp),), **extra)
