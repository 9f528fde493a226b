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

import hashlib
import importlib
import os
import sys
from importlib.abc import MetaPathFinder
from importlib.machinery import ModuleSpec
from importlib.util import spec_from_file_location
from types import ModuleType
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

# The hot path that tools/build_compiled.py (`./dev build`, run by `./dev test` and `./dev play`)
# compiles with mypyc where a C compiler is at hand: the same sources, built next to them.  The
# compiled build is used only while it matches these sources byte for byte (the stamp the build
# writes) and CHEREN_PURE_PYTHON is unset; otherwise these modules load from their .py files.
# The gate (engine/game.py) and the actions (engine/actions.py) stay pure Python: compiled, a
# function refuses an argument of the wrong type with a TypeError before the gate could word its
# refusal, and a dataclass's field annotations (what the gate checks an action's fields against)
# become bare types.
COMPILED_MODULES: tuple[str, ...] = (
    "cheren.hexes",
    "cheren.scenario.memo",  # the rules ask their per-scenario tables through it a hundred thousand times a game
    "cheren.engine.dice",
    "cheren.engine.position",
    "cheren.engine.wording",
    "cheren.engine.rules.chits",
    "cheren.engine.rules.combat",
    "cheren.engine.rules.combat_eligibility",
    "cheren.engine.rules.combat_odds",
    "cheren.engine.rules.combat_resolution",
    "cheren.engine.rules.combat_sequence",
    "cheren.engine.rules.control",
    "cheren.engine.rules.decisions",
    "cheren.engine.rules.garrisons",
    "cheren.engine.rules.immobility",
    "cheren.engine.rules.move_costs",
    "cheren.engine.rules.move_reasons",
    "cheren.engine.rules.movement",
    "cheren.engine.rules.moves",
    "cheren.engine.rules.optional_rules",
    "cheren.engine.rules.phases",
    "cheren.engine.rules.reinforcement",
    "cheren.engine.rules.retreat",
    "cheren.engine.rules.stacking",
    "cheren.engine.rules.supply",
    "cheren.engine.rules.supply_hexes",
    "cheren.engine.rules.supply_phase",
    "cheren.engine.rules.supply_trace",
    "cheren.engine.rules.victory",
    "cheren.engine.rules.zoc",
    # what the bots ask of a position most, and their own move and attack scoring: most of a
    # planner game is its play-outs of both tacticians (the planner's search itself, the
    # look-ahead and the seats stay pure Python: tests patch the planner's play-out sharing, and a
    # compiled class cannot subclass the pure-Python SideSeat)
    "cheren.engine.combat_whatif",
    "cheren.engine.threats",
    "cheren.players.bots.hubs",
    "cheren.players.bots.heuristic",
    "cheren.players.bots.tactician",
)
_HERE = os.path.dirname(os.path.abspath(__file__))
COMPILED_STAMP = os.path.join(_HERE, "_compiled.stamp")


def source_path(module: str) -> str:
    return os.path.join(_HERE, *module.split(".")[1:]) + ".py"


def sources_digest() -> str:
    """What the compiled build must have been made from: a hash of the compiled modules' sources."""
    digest = hashlib.sha256()
    for module in COMPILED_MODULES:
        with open(source_path(module), "rb") as f:
            digest.update(module.encode() + b"\0" + f.read() + b"\0")
    return digest.hexdigest()


class _CompiledOrSource(MetaPathFinder):
    """Loads the compiled modules from their .py sources unless the compiled build is usable (the
    import system would otherwise prefer a built extension module next to its source, even a
    stale one).  Decided once per process, for all of them: compiled code calls its siblings
    directly, so the two kinds are never mixed."""

    def __init__(self) -> None:
        self.compiled: bool | None = None
        self.why = ""

    def decide(self) -> bool:
        if self.compiled is None:
            self.compiled, self.why = _compiled_usable()
        return self.compiled

    def find_spec(self, fullname: str, path: Any = None, target: ModuleType | None = None) -> ModuleSpec | None:
        if fullname not in COMPILED_MODULES or self.decide():
            return None
        return spec_from_file_location(fullname, source_path(fullname))


def _compiled_usable() -> tuple[bool, str]:
    if os.environ.get("CHEREN_PURE_PYTHON"):
        return False, "pure Python (CHEREN_PURE_PYTHON is set)"
    try:
        with open(COMPILED_STAMP, encoding="ascii") as f:
            stamp = f.read().strip()
    except OSError:
        return False, "pure Python (no compiled build: ./dev build makes one)"
    if stamp != sources_digest():
        return False, "pure Python (the compiled build is older than its sources: ./dev build)"
    return True, f"compiled with mypyc ({len(COMPILED_MODULES)} modules)"


_FINDER = _CompiledOrSource()
if not any(isinstance(f, _CompiledOrSource) for f in sys.meta_path):
    sys.meta_path.insert(0, _FINDER)


def compiled() -> bool:
    """Does this process run the compiled hot path?  (See COMPILED_MODULES.)"""
    module = importlib.import_module("cheren.engine.position")
    return not (module.__file__ or "").endswith(".py")


def build_kind() -> str:
    """Which engine this process runs, in words, for benchmarks and ``cheren --version``."""
    if compiled():
        return f"compiled with mypyc ({len(COMPILED_MODULES)} modules)"
    _FINDER.decide()
    return _FINDER.why

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
