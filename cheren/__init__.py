"""cheren: a rules engine and study tool for The Road to CHEREN (Kim Kanger, 2013).

The rules are code; the map, counters, terrain key, combat table and chits are data in
``scenarios/`` (a documented reconstruction: the printed components are lost).

The public API (docs/api.md), each name loaded on first use so that ``import cheren`` and
``import cheren.engine...`` stay cheap and never pull in the layers above the one asked for:

>>> from cheren import Game, load_scenario, actions
>>> game = Game(load_scenario(), seed=1)
>>> game.apply(actions.EndPhase())
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

# name -> the module that holds it (lowest layer first)
_PUBLIC: dict[str, str] = {
    "Hex": "cheren.hexes",
    "Hexside": "cheren.hexes",
    "Layout": "cheren.hexes",
    "Phase": "cheren.scenario",
    "Scenario": "cheren.scenario",
    "ScenarioError": "cheren.scenario",
    "Side": "cheren.scenario",
    "load_scenario": "cheren.scenario",
    "Position": "cheren.engine.position",
    "Status": "cheren.engine.position",
    "Supply": "cheren.engine.position",
    "action_from_json": "cheren.engine.actions",
    "Game": "cheren.engine.game",
    "IllegalAction": "cheren.engine.registry",
    "load_position": "cheren.files",
    "evaluate": "cheren.study.analysis.evaluate",
    "analyse": "cheren.study.analysis.report",
    "Study": "cheren.study.variations",
}
# modules offered by a short name
_MODULES: dict[str, str] = {"actions": "cheren.engine.actions"}

__all__ = sorted([*_PUBLIC, *_MODULES])

if TYPE_CHECKING:
    from cheren.engine import actions as actions
    from cheren.engine.actions import action_from_json as action_from_json
    from cheren.engine.game import Game as Game
    from cheren.engine.position import Position as Position
    from cheren.engine.position import Status as Status
    from cheren.engine.position import Supply as Supply
    from cheren.engine.registry import IllegalAction as IllegalAction
    from cheren.files import load_position as load_position
    from cheren.hexes import Hex as Hex
    from cheren.hexes import Hexside as Hexside
    from cheren.hexes import Layout as Layout
    from cheren.scenario import Phase as Phase
    from cheren.scenario import Scenario as Scenario
    from cheren.scenario import ScenarioError as ScenarioError
    from cheren.scenario import Side as Side
    from cheren.scenario import load_scenario as load_scenario
    from cheren.study.analysis.evaluate import evaluate as evaluate
    from cheren.study.analysis.report import analyse as analyse
    from cheren.study.variations import Study as Study


def __getattr__(name: str) -> Any:
    if name in _MODULES:
        value: Any = importlib.import_module(_MODULES[name])
    elif name in _PUBLIC:
        value = getattr(importlib.import_module(_PUBLIC[name]), name)
    else:
        raise AttributeError(f"module 'cheren' has no attribute {name!r}")
    globals()[name] = value  # found once, then an ordinary attribute
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
