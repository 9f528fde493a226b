"""The app's Moves & lines panel: the move list of the current line (click a move to go there, the
arrow keys step), the lines of the study (:mod:`cheren.study.variations`) as a tree, and the
buttons that branch at the move the board stands at, switch, promote, delete (after asking) and
compare (the dice each line rolled included).  Every button calls the board's
:class:`~cheren.app.lines.Lines` or :class:`~cheren.app.moves.Moves`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cheren.app import panels
from cheren.app.move_list import MoveList
from cheren.app.widgets import button

if TYPE_CHECKING:
    from cheren.app.board import Board


def lines_html(c: Board) -> str:
    rows = []
    for info in c.lines.info():
        name = panels.esc(info["name"])
        label = f"<b>{name}</b>" if info["current"] else name
        where = " <span class='from'>· the main line</span>" if info["parent"] is None else (
            f" <span class='from'>from {panels.esc(info['parent'])} after {info['at']}"
            f"{', new luck' if info['luck'] == 'new' else ''}</span>")
        chance = c.evaluation.line_end(info["name"])
        value = (f" <span class='cheren-line-eval' title='learned evaluation at the end of the line'>· "
                 f"P(Allied win) {chance:.0%}</span>" if chance is not None else "")
        rows.append(f"<div class='cheren-line' data-line='{name}' data-current='{int(info['current'])}' "
                    f"style='padding-left:{info['depth'] * 14}px'>{'▸ ' if info['current'] else ''}{label}: "
                    f"{info['actions']} action{'' if info['actions'] == 1 else 's'}{where}{value}</div>")
    return "<div class='cheren-lines'>" + "".join(rows) + "</div>"


class LinesPanel:
    def __init__(self, board: Board) -> None:
        import ipywidgets as w

        self.board = c = board
        self.moves = MoveList(board)
        self.tree = w.HTML()
        self.name = w.Text(placeholder="name of the new line", layout=w.Layout(width="170px"))
        self.name.add_class("cheren-line-name")
        self.luck = w.ToggleButtons(options=[("same luck", "same"), ("new luck", "new")], value="same",
                                    style={"button_width": "80px"})
        self.luck.add_class("cheren-luck")
        self.branch_button = button("Branch here", "cheren-branch", self.branch)
        self.pick = w.Dropdown(layout=w.Layout(width="170px"))
        self.pick.add_class("cheren-line-select")
        buttons = w.HBox([
            button("Switch", "cheren-switch", lambda: self._with_pick(c.lines.switch)),
            button("Promote", "cheren-promote", lambda: self._with_pick(c.lines.promote)),
            button("Delete…", "cheren-delete-line", lambda: self._with_pick(self.ask_delete)),
            button("Compare", "cheren-compare", lambda: self._with_pick(
                lambda name: c.lines.compare(c.study.current, name))),
        ])
        self.confirm_text = w.HTML()
        self.confirm = w.VBox([self.confirm_text, w.HBox([
            button("Yes, delete it", "cheren-delete-yes", lambda: self.confirm_delete(True), style="danger"),
            button("No, keep it", "cheren-delete-no", lambda: self.confirm_delete(False)),
        ])])
        self.confirm.add_class("cheren-delete-confirm")
        self.confirm.layout.display = "none"
        self._deleting: str | None = None
        self.comparison = w.HTML()
        self.comparison.add_class("cheren-comparison")
        keys = w.HTML("<small>Click a move to go there; ← → step through the line, Home and End go to its ends. "
                      "Play something else at an earlier move and a new line starts there.</small>")
        self.widget = w.VBox([self.moves.widget, keys, self.tree, w.HBox([self.name, self.branch_button]), self.luck,
                              self.pick, buttons, self.confirm, self.comparison])

    def _with_pick(self, fn: Any) -> None:
        if self.pick.value:
            fn(self.pick.value)

    def branch(self) -> Any:
        c = self.board
        return c.lines.branch(self.name.value or None, luck=self.luck.value, at=c.moves.ply)

    def ask_delete(self, name: str) -> None:
        """Delete asks first: the line and every line branching from it would go."""
        study = self.board.study
        if name not in study.lines:
            return
        under = study.descendants(name)
        also = f" and the {len(under)} line{'s' if len(under) > 1 else ''} branching from it" if under else ""
        self._deleting = name
        self.confirm_text.value = (f"<div>Delete the line <b>{panels.esc(name)}</b> ({study.length(name)} actions)"
                                   f"{panels.esc(also)}? This cannot be undone.</div>")
        self.confirm.layout.display = "flex"

    def confirm_delete(self, yes: bool) -> Any:
        name, self._deleting = self._deleting, None
        self.confirm.layout.display = "none"
        if yes and name is not None:
            return self.board.lines.delete(name)
        return None

    def changed(self, what: set[str]) -> None:
        c = self.board
        if not what & {"game", "overlays"}:
            return
        self.moves.refresh()
        self.tree.value = lines_html(c)
        ply, length = c.moves.ply, c.moves.length
        self.branch_button.description = (f"Branch at move {ply}" if ply < length else "Branch here")
        names = [info["name"] for info in c.lines.info()]
        keep = self.pick.value if self.pick.value in names else None
        self.pick.options = names
        self.pick.value = keep if keep is not None else (names[0] if names else None)
        comparison = c.lines.comparison
        if comparison is not None:
            from cheren.render.report_html import markdown_to_html

            self.comparison.value = markdown_to_html(comparison.explain())
