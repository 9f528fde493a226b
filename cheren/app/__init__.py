"""The interactive notebook app (issue 7): an ipycanvas map and ipywidgets panels driven by a
widget-free :class:`Board` and the controllers of its modes.  Needs the ``ui`` extra (ipycanvas,
ipywidgets); the engine never imports this package.

    from cheren.app import App
    App()          # the bundled scenario, hot-seat
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cheren.app.board import Board
from cheren.app.map_overlays import OVERLAYS
from cheren.app.opponent import pass_bot
from cheren.study.map_intents import Feedback

if TYPE_CHECKING:
    from cheren.app.app import App
    from cheren.app.map import MapWidget

__all__ = ["OVERLAYS", "App", "Board", "Feedback", "MapWidget", "pass_bot"]


def __getattr__(name: str) -> Any:
    # the widget classes import ipywidgets/ipycanvas only when asked for
    if name == "App":
        from cheren.app.app import App

        return App
    if name == "MapWidget":
        from cheren.app.map import MapWidget

        return MapWidget
    raise AttributeError(name)
