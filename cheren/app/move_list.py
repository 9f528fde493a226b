"""The move list as a small browser widget (anywidget): every action of the line, a click on one
goes there, and the arrow keys step through the line from anywhere on the page (← →, Home, End),
as on a chess analysis board.  It only draws what the board's :class:`~cheren.app.moves.Moves`
says and sends back what was asked; the board does the rest."""

from __future__ import annotations

from dataclasses import asdict
from typing import TYPE_CHECKING, Any

import anywidget
import traitlets

if TYPE_CHECKING:
    from cheren.app.board import Board

ESM = r"""
function render({ model, el }) {
  el.classList.add("cheren-moves");
  el.tabIndex = 0;
  const list = document.createElement("ol");
  list.className = "cheren-move-rows";
  el.appendChild(list);
  const send = (msg) => model.send(msg);
  const draw = () => {
    const rows = model.get("entries"), at = model.get("current");
    list.replaceChildren();
    const row = (n, text, extra) => {
      const li = document.createElement("li");
      li.className = "cheren-move" + (n === at ? " on" : "") + (extra.ahead ? " ahead" : "");
      li.dataset.n = String(n);
      const go = document.createElement("button");
      go.className = "cheren-move-go";
      go.textContent = n === 0 ? "start" : `${n}.`;
      go.onclick = () => send({ goto: n });
      li.appendChild(go);
      const what = document.createElement("span");
      what.className = "what";
      what.textContent = (extra.when ? extra.when + " · " : "") + text;
      what.onclick = () => send({ goto: n });
      li.appendChild(what);
      for (const d of extra.dice || []) {
        const die = document.createElement("div");
        die.className = "die";
        die.textContent = d;
        li.appendChild(die);
      }
      for (const name of extra.branches || []) {
        const b = document.createElement("button");
        b.className = "cheren-move-branch";
        b.textContent = "⎇ " + name;
        b.title = `the line ${name} parts here: switch to it`;
        b.onclick = () => send({ line: name });
        li.appendChild(b);
      }
      list.appendChild(li);
    };
    row(0, "the position the study starts from", { branches: model.get("start_branches") });
    for (const e of rows) row(e.n, e.text, e);
    const on = list.querySelector(".on");
    if (on) {  // within the list only: the page itself must not move
      const top = on.offsetTop, bottom = top + on.offsetHeight;
      if (top < el.scrollTop) el.scrollTop = top;
      else if (bottom > el.scrollTop + el.clientHeight) el.scrollTop = bottom - el.clientHeight;
    }
  };
  model.on("change:entries", draw);
  model.on("change:current", draw);
  draw();
  const keys = { ArrowLeft: -1, ArrowRight: 1, Home: "start", End: "end" };
  const mine = (e) => {
    const t = e.target;
    if (!t || t.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName)) return false;
    const app = el.closest(".cheren-app");
    if (app && app.contains(t)) return true;
    // nothing focused (Voila's page): the first move list of the page takes the keys
    return t === document.body && document.querySelector(".cheren-moves") === el;
  };
  const onKey = (e) => {
    if (!(e.key in keys) || e.altKey || e.ctrlKey || e.metaKey || !mine(e)) return;
    e.preventDefault();
    e.stopPropagation();
    const k = keys[e.key];
    send(typeof k === "number" ? { step: k } : { goto: k === "start" ? 0 : model.get("length") });
  };
  document.addEventListener("keydown", onKey);
  return () => document.removeEventListener("keydown", onKey);
}
export default { render };
"""

CSS = """
.cheren-moves { position: relative; max-height: 260px; overflow-y: auto; background: #fbf8ef; border: 1px solid #e0d4b8;
  font-size: 12px; outline: none; }
.cheren-moves:focus { border-color: #8c7b55; }
.cheren-move-rows { list-style: none; margin: 0; padding: 0; }
.cheren-move { padding: 1px 4px; border-bottom: 1px dotted #e0d4b8; cursor: pointer; }
.cheren-move.on { background: #ffd88a; }
.cheren-move.ahead { color: #6e5a3c; }
.cheren-move .what { padding-left: 4px; }
.cheren-move .die { padding-left: 3.2em; color: #7a2a1d; font-size: 11px; }
.cheren-move-go { border: none; background: none; font: inherit; font-weight: bold; cursor: pointer;
  min-width: 2.6em; text-align: right; padding: 0; color: inherit; }
.cheren-move-branch { border: 1px solid #b9a57e; border-radius: 3px; background: #efe7d2; font-size: 11px;
  margin-left: 6px; cursor: pointer; color: #2d2418; }
"""


class MoveListWidget(anywidget.AnyWidget):
    _esm = ESM
    _css = CSS
    entries: traitlets.List[Any] = traitlets.List().tag(sync=True)
    start_branches: traitlets.List[str] = traitlets.List().tag(sync=True)
    current = traitlets.Int(0).tag(sync=True)
    length = traitlets.Int(0).tag(sync=True)


class MoveList:
    """The widget wired to the board: it redraws on every change of the game and answers clicks
    and keys through the board's ``moves`` and ``lines``."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.widget = MoveListWidget()
        self.widget.add_class("cheren-move-list")
        self.widget.on_msg(self._message)

    def refresh(self) -> None:
        moves = self.board.moves
        entries = [asdict(e) for e in moves.entries()]
        with self.widget.hold_sync():
            self.widget.entries = entries
            self.widget.start_branches = moves.branches_at_start()
            self.widget.current = moves.ply
            self.widget.length = len(entries)

    def _message(self, _widget: Any, content: dict[str, Any], _buffers: Any) -> None:
        b = self.board
        if "goto" in content:
            b.moves.goto(int(content["goto"]))
        elif "step" in content:
            b.moves.step(int(content["step"]))
        elif "line" in content:
            b.lines.switch(str(content["line"]))
