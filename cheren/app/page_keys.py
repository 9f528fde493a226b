"""Keys the app hears anywhere on its page, not only while the map has the keyboard focus: Esc
drops the selection, an attack being lined up and a chit picked for play, whatever was clicked
last (a button, a panel, the page itself).

ipywidgets has no page-wide key events, so this is a small anywidget (the field's library for
a widget with a few lines of JavaScript, shipped with its front-end, no CDN): it listens on the
document and sends the key to Python.  The map's own key handler (:mod:`cheren.app.map`) keeps
the keys pressed on the map, so they are not heard twice."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import anywidget

ESM = """
export default {
  render({ model, el }) {
    const onKey = (event) => {
      const onMap = event.target instanceof Element && event.target.closest("canvas.cheren-map");
      if (event.key === "Escape" && !onMap) model.send({ key: "Escape" });
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  },
};
"""


class PageKeys(anywidget.AnyWidget):
    """An invisible widget that calls ``on_key(key)`` for the keys it knows (Esc)."""

    _esm = ESM

    def __init__(self, on_key: Callable[[str], Any], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_class("cheren-page-keys")
        self.layout.width = self.layout.height = "0px"
        self._on_key = on_key
        self.on_msg(self._message)

    def _message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        key = content.get("key") if isinstance(content, dict) else None
        if key == "Escape":
            self._on_key(key)
