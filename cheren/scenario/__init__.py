"""Scenario data: models of the files, loading with precise errors, and the compiled form."""

from cheren.scenario.compiled import HexInfo, OddsColumn, Scenario, Step, UnitDef
from cheren.scenario.errors import Problem, ScenarioError
from cheren.scenario.loader import bundled_scenario_dir, load_scenario
from cheren.scenario.models import Phase, Provenance, Side, Source

__all__ = [
    "HexInfo",
    "OddsColumn",
    "Phase",
    "Problem",
    "Provenance",
    "Scenario",
    "ScenarioError",
    "Side",
    "Source",
    "Step",
    "UnitDef",
    "bundled_scenario_dir",
    "load_scenario",
]
