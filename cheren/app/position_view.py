"""The position picker (the toolbar's **Open position…**: the library with dates and questions, a
code to paste, a file) and the position panel beside the map: the position's question, its
narrative and its sources, and what its file keeps for after the study (what happened next, the
historical plan) folded away until asked."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cheren.app import panels
from cheren.app.positions import question_text
from cheren.app.widgets import button, panel
from cheren.render.report_html import markdown_to_html
from cheren.scenario.sequence import PHASE_TITLES

if TYPE_CHECKING:
    from cheren.app.board import Board

SHOWN = {"name", "title", "date", "position", "narrative", "sources", "provenance", "path", "question"}


def _paragraphs(text: str) -> str:
    """Markdown written with its lines broken anywhere (as the YAML files keep it), as HTML."""
    blocks = [" ".join(line.strip() for line in part.splitlines()) for part in text.strip().split("\n\n")]
    return markdown_to_html("\n\n".join(b for b in blocks if b))


def _folded(title: str, body: str, cls: str) -> str:
    return f'<details class="{cls}"><summary>{panels.esc(title)}</summary>{body}</details>'


def record_html(record: Any) -> str:
    """A position's record as the panel shows it: whatever its file says (question, narrative,
    sources, what happened next, the historical plan, the position it follows, any other text)."""
    p = record.position
    when = f"Turn {p.turn}, {p.side.adjective} {PHASE_TITLES[p.phase]}"
    parts = [f'<div class="cheren-position" data-name="{panels.esc(record.name)}">',
             f"<div class='title'><b>{panels.esc(record.title)}</b></div>",
             f"<div class='when'>{record.date:%d %B %Y} · {panels.esc(when)}</div>"]
    question = question_text(record)
    if question:
        parts.append(f'<div class="cheren-question"><b>The question</b><br>{panels.esc(question)}</div>')
    if record.narrative:
        # the first paragraph says the week; the rest is there when asked for, so the move list
        # stays beside the map
        first, _, rest = record.narrative.strip().partition("\n\n")
        parts.append(f'<div class="cheren-narrative">{_paragraphs(first)}')
        if rest.strip():
            parts.append(_folded("The sides, the stakes", _paragraphs(rest), "cheren-narrative-more"))
        parts.append("</div>")
    if record.sources:
        items = "".join(f"<li>{panels.esc(s)}</li>" for s in record.sources)
        parts.append(_folded(f"Sources ({len(record.sources)})", f"<ul>{items}</ul>", "cheren-sources"))
    for f in dataclasses.fields(record):
        if f.name in SHOWN:
            continue
        html = _extra_html(f.name, getattr(record, f.name))
        if html:
            parts.append(html)
    parts.append("</div>")
    return "".join(parts)


def _extra_html(name: str, value: Any) -> str:
    """One more field of a position file, folded away (the answer key of a study position)."""
    if not value:
        return ""
    title = {"happened_next": "What happened next", "plan": "The historical plan",
             "follows": "The position before this one"}.get(name, name.replace("_", " ").capitalize())
    if isinstance(value, str):
        body = _paragraphs(value)
    elif isinstance(value, list):
        rows = []
        for item in value:
            date = getattr(item, "date", None)
            text = str(getattr(item, "text", item))
            rows.append(f"<li>{f'<b>{date:%d %b %Y}</b>: ' if date else ''}{panels.esc(text.strip())}</li>")
        body = f"<ul>{''.join(rows)}</ul>"
    else:
        text = getattr(value, "summary", None) or getattr(value, "why", None) or getattr(value, "text", None) or value
        steps = getattr(value, "steps", None)
        extra = f"<div><small>{len(steps)} actions, played through the gate.</small></div>" if steps else ""
        before = getattr(value, "position", None)
        lead = f"<div><b>{panels.esc(before)}</b></div>" if isinstance(before, str) else ""
        body = lead + _paragraphs(str(text)) + extra
    return _folded(title + " (the answer: read it after your own study)" if name != "follows" else title,
                   body, f"cheren-extra cheren-{name.replace('_', '-')}")


def library_label(record: Any) -> str:
    return f"{record.date:%d %b %Y} · {record.title}"


def library_detail_html(record: Any) -> str:
    question = question_text(record)
    lead = question or record.narrative.strip().split("\n\n")[0]
    said = f"<br><i>The question</i>: {panels.esc(lead)}" if question else _paragraphs(lead)
    return (f'<div class="cheren-library-detail"><b>{panels.esc(record.title)}</b> '
            f"<small>({record.date:%d %B %Y}, turn {record.position.turn})</small>{said}</div>")


class _PickerPart:
    """A widget of the picker, built with all the others the first time any of them is asked for."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, view: PositionView, owner: type | None = None) -> Any:
        return view._part(self.name)


class PositionView:
    """The picker (shown by the toolbar's button) and the position panel."""

    def __init__(self, board: Board) -> None:
        import ipywidgets as w

        self.board = board
        self._w = w
        self.open_button = button("Open position…", "cheren-open-position", self.toggle,
                                  tooltip="A library position, a position code or a file")
        # the picker is built the first time it opens (or is asked for): about 50 widgets that
        # every page would otherwise send to the browser and draw, hidden, before the map
        self.picker = w.VBox()
        self._parts: dict[str, Any] = {}
        self.picker.add_class("cheren-picker")
        self.picker.layout.display = "none"
        self.text = w.HTML()
        self.text.add_class("cheren-position-text")
        self.panel = panel("Position", [self.text], "cheren-position-panel")
        self.panel.layout.display = "none"
        self.on_open: Callable[[], None] | None = None  # the app's map goes to the new position's action

    # -- the picker ----------------------------------------------------------------------------
    library = _PickerPart()
    detail = _PickerPart()
    seating = _PickerPart()
    code = _PickerPart()
    path = _PickerPart()
    upload = _PickerPart()

    def _part(self, name: str) -> Any:
        if not self._parts:
            self._build_picker()
        return self._parts[name]

    def _build_picker(self) -> None:
        w = self._w
        library = w.Select(rows=9, layout=w.Layout(width="100%"))
        library.add_class("cheren-library")
        library.observe(lambda _: self._detail(), "value")
        detail = w.HTML()
        ways = [("Study it (analysis)", "analysis"), ("Play it (hot-seat)", "hot-seat")]
        seating = w.ToggleButtons(options=ways, value="analysis", style={"button_width": "150px"})
        seating.add_class("cheren-open-seating")
        code = w.Text(placeholder="paste a position code (C1…)", layout=w.Layout(width="420px"))
        code.add_class("cheren-open-code")
        path = w.Text(placeholder="a position file (.yaml) or save (.json) on this machine",
                      layout=w.Layout(width="420px"))
        path.add_class("cheren-open-path")
        upload = w.FileUpload(accept=".yaml,.yml,.json", multiple=False, description="Upload a file…")
        upload.observe(self._uploaded, "value")
        self._parts = {"library": library, "detail": detail, "seating": seating, "code": code, "path": path,
                       "upload": upload}
        self.picker.children = [
            w.HTML("<h4>Open a position</h4>"),
            w.HBox([w.VBox([library, detail], layout=w.Layout(flex="1 1 420px")),
                    w.VBox([w.HTML("<small>or a code</small>"),
                            w.HBox([code, button("Open code", "cheren-open-code-go", self.open_code)]),
                            w.HTML("<small>or a file</small>"),
                            w.HBox([path, button("Open file", "cheren-open-path-go", self.open_path)]),
                            upload], layout=w.Layout(flex="1 1 420px"))],
                   layout=w.Layout(flex_flow="row wrap", grid_gap="12px")),
            w.HBox([seating, button("Open it", "cheren-open-go", self.open_library, style="primary"),
                    button("Close", "cheren-open-close", self.toggle)], layout=w.Layout(align_items="center")),
        ]

    def toggle(self) -> None:
        shown = self.picker.layout.display != "none"
        if not shown and not self.library.options:
            records = self.board.positions.library()
            self.library.options = [(library_label(r), r.name) for r in records]
            self.library.value = records[0].name if records else None
            self._detail()
        self.picker.layout.display = "none" if shown else "flex"

    def _detail(self) -> None:
        name = self.library.value
        record = next((r for r in self.board.positions.library() if r.name == name), None)
        self.detail.value = library_detail_html(record) if record is not None else ""

    def _opened(self, fb: Any) -> Any:
        if fb.ok:  # what was typed belongs to the position now on the board
            self.picker.layout.display = "none"
            if self._parts:
                self.code.value = self.path.value = ""
            if self.on_open is not None:
                self.on_open()
        return fb

    def open_library(self) -> Any:
        return self._opened(self.board.positions.open(self.library.value or "", seating=self.seating.value))

    def open_code(self) -> Any:
        return self._opened(self.board.positions.open(self.code.value, seating=self.seating.value))

    def open_path(self) -> Any:
        return self._opened(self.board.positions.open(self.path.value, seating=self.seating.value))

    def _uploaded(self, change: dict[str, Any]) -> None:
        files = change["new"]
        if files:
            f = files[0]
            self._opened(self.board.positions.open_upload(f["name"], bytes(f["content"]), seating=self.seating.value))

    # -- the panel -----------------------------------------------------------------------------
    def changed(self, what: set[str]) -> None:
        if not what & {"position", "game"}:
            return
        record = self.board.positions.record
        self.panel.layout.display = "none" if record is None else "flex"
        self.text.value = record_html(record) if record is not None else ""
