"""The Rules panel: the summary of any rule, the rules the last message cited, and the readings
the engine takes where the rules are unclear (:mod:`cheren.engine.interpretations`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cheren.app import panels
from cheren.engine.interpretations import INTERPRETATIONS
from cheren.engine.rule_summaries import RULES, summary

if TYPE_CHECKING:
    from cheren.app.board import Board


def rule_html(number: str) -> str:
    r = summary(number)
    if r is None:
        return f"<div>Rule {panels.esc(number)}: no summary.</div>"
    return (
        f'<div class="cheren-rule-summary" data-rule="{panels.esc(r.number)}"><b>{panels.esc(r.number)} '
        f"{panels.esc(r.title)}</b>: {panels.esc(r.summary)}</div>"
    )


def interpretations_html() -> str:
    rows = []
    for i in INTERPRETATIONS:
        rows.append(
            f'<li class="cheren-reading"><b>{panels.esc(i.rule)}</b> {panels.esc(i.question)}<br>'
            f"<i>Reading:</i> {panels.esc(i.reading)}<br><small><i>Why:</i> {panels.esc(i.why)}</small></li>"
        )
    return f'<ol class="cheren-readings">{"".join(rows)}</ol>'


class RulesPanel:
    """``widget``: pick a rule to read its summary; the rules cited by the latest message are
    summarised at the top; a button lists the engine's readings of unclear rules."""

    def __init__(self, board: Board) -> None:
        import ipywidgets as w

        self.board = board
        self.cited = w.HTML()
        self.cited.add_class("cheren-rules-cited")
        self.pick = w.Dropdown(
            options=[(f"{r.number} {r.title}", r.number) for r in RULES],
            value=None,
            description="Rule",
            layout=w.Layout(width="320px"),
        )
        self.pick.add_class("cheren-rule-pick")
        self.text = w.HTML()
        self.text.add_class("cheren-rule-text")
        self.pick.observe(lambda change: self.show(change["new"]) if change["new"] else None, "value")
        self.readings_button = w.ToggleButton(
            value=False,
            description=f"Readings of unclear rules ({len(INTERPRETATIONS)})",
            layout=w.Layout(width="auto"),
        )
        self.readings_button.add_class("cheren-readings-toggle")
        self.readings = w.HTML()
        self.readings.add_class("cheren-readings-box")
        self.readings.layout.display = "none"
        self.readings_button.observe(self._toggle_readings, "value")
        self.widget = w.VBox([self.cited, self.pick, self.text, self.readings_button, self.readings])
        board.subscribe(self._changed)
        self._changed({"feedback"})

    def show(self, number: str) -> None:
        self.text.value = rule_html(number)

    def _toggle_readings(self, change: dict[str, Any]) -> None:
        on = bool(change["new"])
        self.readings.value = interpretations_html() if on else ""
        self.readings.layout.display = "block" if on else "none"

    def _changed(self, what: set[str]) -> None:
        if "feedback" not in what:
            return
        rules = self.board.feedback.rules
        if rules:
            self.cited.value = "<div><small>The rules behind the last message:</small></div>" + "".join(
                rule_html(r) for r in dict.fromkeys(rules)
            )
        else:
            self.cited.value = (
                "<div><small>Pick a rule to read it; rule numbers anywhere show it when pointed at.</small></div>"
            )
