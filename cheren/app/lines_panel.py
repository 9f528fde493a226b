"""The app's Lines panel: the variation tree (:mod:`cheren.study.variations`) as a list of lines, and the
buttons that branch, switch, promote, delete and compare them.  Every button calls one method
of the board's :class:`~cheren.app.lines.Lines`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cheren.app import panels

if TYPE_CHECKING:
    from cheren.app.board import Board


def lines_html(c: Board) -> str:
    rows = []
    for info in c.lines.info():
        name = panels.esc(info["name"])
        label = f"<b>{name}</b>" if info["current"] else name
        where = "" if info["parent"] is None else (
            f" <span class='from'>from {panels.esc(info['parent'])} after {info['at']}"
            f"{', new luck' if info['luck'] == 'new' else ''}</span>")
        rows.append(f"<div class='cheren-line' data-line='{name}' data-current='{int(info['current'])}' "
                    f"style='padding-left:{info['depth'] * 14}px'>{'▸ ' if info['current'] else ''}{label}: "
                    f"{info['actions']} actions{where}</div>")
    return "<div class='cheren-lines'>" + "".join(rows) + "</div>"


class LinesPanel:
    def __init__(self, board: Board) -> None:
        import ipywidgets as w

        self.board = c = board
        self.tree = w.HTML()
        self.name = w.Text(placeholder="name of the new line", layout=w.Layout(width="170px"))
        self.name.add_class("cheren-line-name")
        self.luck = w.ToggleButtons(options=[("same luck", "same"), ("new luck", "new")], value="same",
                                    style={"button_width": "80px"})
        self.luck.add_class("cheren-luck")
        branch = self._button("Branch here", "cheren-branch", lambda: c.lines.branch(self.name.value or None,
                                                                              luck=self.luck.value))
        self.pick = w.Dropdown(layout=w.Layout(width="170px"))
        self.pick.add_class("cheren-line-select")
        buttons = w.HBox([
            self._button("Switch", "cheren-switch", lambda: self._with_pick(c.lines.switch)),
            self._button("Promote", "cheren-promote", lambda: self._with_pick(c.lines.promote)),
            self._button("Delete", "cheren-delete-line", lambda: self._with_pick(c.lines.delete)),
            self._button("Compare", "cheren-compare", lambda: self._with_pick(
                lambda name: c.lines.compare(c.study.current, name))),
        ])
        self.comparison = w.HTML()
        self.widget = w.VBox([self.tree, w.HBox([self.name, branch]), self.luck, self.pick, buttons, self.comparison])
        c.subscribe(self._changed)
        self._changed({"game"})

    def _button(self, text: str, cls: str, fn: Any) -> Any:
        import ipywidgets as w

        b = w.Button(description=text, layout=w.Layout(width="auto"))
        b.add_class(cls)
        b.on_click(lambda _: fn())
        return b

    def _with_pick(self, fn: Any) -> None:
        if self.pick.value:
            fn(self.pick.value)

    def _changed(self, what: set[str]) -> None:
        c = self.board
        if not what & {"game", "overlays"}:
            return
        self.tree.value = lines_html(c)
        names = [info["name"] for info in c.lines.info()]
        keep = self.pick.value if self.pick.value in names else None
        self.pick.options = names
        self.pick.value = keep if keep is not None else (names[0] if names else None)
        if c.lines.comparison is not None:
            from cheren.render.report_html import markdown_to_html

            self.comparison.value = markdown_to_html(c.lines.comparison.explain())
