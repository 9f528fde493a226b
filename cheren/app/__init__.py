"""The interactive notebook app (issue 7): an ipycanvas map and ipywidgets panels driven by a
widget-free :class:`Board` and the controllers of its modes.  Needs the ``ui`` extra (ipycanvas,
ipywidgets); the engine never imports this package.

    from cheren.app import App
    App()          # the bundled scenario, hot-seat
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cheren.app.app import App
    from cheren.app.board import Board
    from cheren.app.map import MapWidget
    from cheren.app.map_overlays import OVERLAYS
    from cheren.app.opponent import pass_bot
    from cheren.study.map_intents import Feedback

__all__ = ["OVERLAYS", "App", "Board", "Feedback", "MapWidget", "pass_bot"]

# each name is loaded when first asked for: the widget classes import ipywidgets/ipycanvas, and
# the board the engine, which `cheren app` and `cheren lab` (cheren.app.launch) do not need
_HOME = {"App": "cheren.app.app", "Board": "cheren.app.board", "MapWidget": "cheren.app.map",
         "OVERLAYS": "cheren.app.map_overlays", "pass_bot": "cheren.app.opponent",
         "Feedback": "cheren.study.map_intents"}


def __getattr__(name: str) -> Any:
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module 'cheren.app' has no attribute {name!r}")
    return getattr(import_module(module), name)
