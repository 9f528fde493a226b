"""Scenario data: models of the files, loading with precise errors, and the compiled form.

Each name is loaded on first use (as ``cheren`` does), so that a module of this package that needs
none of them (cheren.scenario.resources, where the bundled files are) loads without the file
models: ``cheren app`` finds its notebooks without them."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cheren.scenario.compiled import HexInfo as HexInfo
    from cheren.scenario.compiled import OddsColumn as OddsColumn
    from cheren.scenario.compiled import Scenario as Scenario
    from cheren.scenario.compiled import Step as Step
    from cheren.scenario.compiled import UnitDef as UnitDef
    from cheren.scenario.errors import Problem as Problem
    from cheren.scenario.errors import ScenarioError as ScenarioError
    from cheren.scenario.loader import bundled_scenario_dir as bundled_scenario_dir
    from cheren.scenario.loader import load_scenario as load_scenario
    from cheren.scenario.models import Phase as Phase
    from cheren.scenario.models import Provenance as Provenance
    from cheren.scenario.models import Side as Side
    from cheren.scenario.models import Source as Source

_HOME = {
    "HexInfo": "compiled", "OddsColumn": "compiled", "Scenario": "compiled", "Step": "compiled", "UnitDef": "compiled",
    "Problem": "errors", "ScenarioError": "errors",
    "bundled_scenario_dir": "loader", "load_scenario": "loader",
    "Phase": "models", "Provenance": "models", "Side": "models", "Source": "models",
}

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


def __getattr__(name: str) -> Any:
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module 'cheren.scenario' has no attribute {name!r}")
    return getattr(import_module(f"cheren.scenario.{module}"), name)
