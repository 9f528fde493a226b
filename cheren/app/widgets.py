"""Small ipywidgets helpers every view of the app uses: a button that calls a function, and a
titled panel."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cheren.app import panels


def button(text: str, cls: str, fn: Callable[[], Any], style: str = "", tooltip: str = "") -> Any:
    import ipywidgets as w

    b = w.Button(description=text, button_style=style, tooltip=tooltip, layout=w.Layout(width="auto"))
    b.add_class(cls)
    b.on_click(lambda _: fn())
    return b


def panel(title: str, children: list[Any], cls: str) -> Any:
    import ipywidgets as w

    box = w.VBox([w.HTML(f"<h4>{panels.esc(title)}</h4>"), *children])
    box.add_class("cheren-panel")
    box.add_class(cls)
    return box
