"""cheren: a rules engine and study tool for The Road to CHEREN (Kim Kanger, 2013).

The rules are code; the map, counters, terrain key, combat table and chits are data in
``scenarios/`` (a documented reconstruction: the printed components are lost).
"""

from cheren.engine.position import Position, Status, Supply
from cheren.hexes import Hex, Hexside, Layout
from cheren.scenario import Phase, Scenario, ScenarioError, Side, load_scenario

__version__ = "0.1.0"

__all__ = [
    "Hex",
    "Hexside",
    "Layout",
    "Phase",
    "Position",
    "Scenario",
    "ScenarioError",
    "Side",
    "Status",
    "Supply",
    "load_scenario",
]
