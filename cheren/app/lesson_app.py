"""The app in lesson mode: the lesson's explanation, the exercise's goal and progress above the
map, and Check, Hint, Show solution and Reset.  Only the side panels the lesson needs are shown.

    from cheren.app.lesson_app import LessonApp
    LessonApp("zones-of-control")          # a lesson of the course, from its first exercise

``app.run`` is the exercise being worked (:class:`cheren.study.lessons.exercise_run.ExerciseRun`),
``app.mode`` the app's lesson mode that puts it on the board (:class:`cheren.app.lesson_mode.LessonMode`);
``app.check()``, ``app.hint()``, ``app.show_solution()``, ``app.reset()`` and ``app.choose(i)``
are what the buttons call.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cheren.app import panels
from cheren.app.app import App
from cheren.app.board import Board
from cheren.app.lesson_mode import LessonMode
from cheren.render.report_html import markdown_to_html
from cheren.scenario.compiled import Scenario
from cheren.study.lessons.course import load_lesson
from cheren.study.lessons.exercise_run import ExerciseRun, Verdict
from cheren.study.lessons.files import Lesson
from cheren.study.lessons.stars import Progress

CSS = """
<style>
.cheren-lesson { font-family: "DejaVu Sans", "Helvetica Neue", Arial, sans-serif; color: #2d2418; }
.cheren-lesson-text { max-height: 260px; overflow-y: auto; background: #fbf8ef; border: 1px solid #e0d4b8;
  border-radius: 6px; padding: 4px 12px; }
.cheren-tip { background: #fff3cf; border-left: 4px solid #c98a00; padding: 4px 8px; margin: 6px 0; }
.cheren-checklist { background: #eef3e6; border-left: 4px solid #5b7a2e; padding: 4px 8px; margin: 6px 0; }
.cheren-goal { font-size: 15px; padding: 6px 10px; background: #2d2418; color: #f4efe1; border-radius: 6px; }
.cheren-verdict .pass { background: #e3f1d8; border: 1px solid #5b7a2e; padding: 6px 10px; border-radius: 6px; }
.cheren-verdict .fail { background: #fbe3de; border: 1px solid #a33b2b; padding: 6px 10px; border-radius: 6px; }
.cheren-verdict .hint { background: #fff3cf; border: 1px solid #c98a00; padding: 6px 10px; border-radius: 6px; }
</style>
"""


def prose(text: str) -> str:
    """A block as written in YAML (lines broken anywhere) as Markdown paragraphs."""
    paragraphs = [" ".join(line.strip() for line in part.splitlines()) for part in text.strip().split("\n\n")]
    return "\n\n".join(paragraphs)


def blocks_html(lesson: Lesson) -> str:
    parts = [f"<h3>{panels.esc(lesson.title)} {panels.rules_badges(lesson.model.rules)}</h3>"]
    for block in lesson.model.blocks:
        if block.text is not None:
            parts.append(markdown_to_html(prose(block.text)))
        elif block.tip is not None:
            parts.append(f'<div class="cheren-tip"><b>TIP</b> {markdown_to_html(prose(block.tip))}</div>')
        elif block.checklist is not None:
            items = "".join(f"<li>{panels.esc(item)}</li>" for item in block.checklist.items)
            parts.append(
                f'<div class="cheren-checklist"><b>{panels.esc(block.checklist.title)}</b><ol>{items}</ol></div>'
            )
    return "".join(parts)


class LessonApp:
    def __init__(
        self,
        lesson: str | Path | Lesson,
        exercise: int | str = 0,
        *,
        scenario: Scenario | None = None,
        progress: Progress | str | Path | None = None,
        width: int = 860,
        height: int = 520,
    ) -> None:
        import ipywidgets as w

        if scenario is None:
            from cheren.scenario import load_scenario

            scenario = load_scenario()
        self.scenario = scenario
        self.lesson = lesson if isinstance(lesson, Lesson) else load_lesson(lesson, scenario)
        self.progress = progress if isinstance(progress, Progress) else Progress.open(progress)
        run = ExerciseRun(self.lesson, exercise, scenario, on_solved=self._solved)
        self.board = Board(run.game)
        self.mode = LessonMode(self.board, run)
        self.app = App(board=self.board, show=self.lesson.model.panels, width=width, height=height)
        self._w = w

        self.text = w.HTML(blocks_html(self.lesson))
        self.text.add_class("cheren-lesson-text")
        self.picker = w.Dropdown(description="Exercise", layout=w.Layout(width="420px"))
        self.picker.add_class("cheren-exercise-pick")
        self.count = w.HTML()
        self.count.add_class("cheren-lesson-progress")
        self.goal = w.HTML()
        self.goal.add_class("cheren-goal-box")
        buttons = [
            self._button("✓ Check", "cheren-check", self.check, "success"),
            self._button("Hint", "cheren-hint", self.hint, "warning"),
            self._button("Show solution", "cheren-solution", self.show_solution, ""),
            self._button("↺ Reset", "cheren-reset", self.reset, ""),
        ]
        self.verdict = w.HTML()
        self.verdict.add_class("cheren-verdict")
        self._relabelling = False
        self._refresh_picker()
        self.picker.value = self.lesson.exercises.index(self.run.exercise)
        self.picker.observe(self._picked, "value")
        bar = w.HBox([self.picker, self.count], layout=w.Layout(align_items="center"))
        self.widget = w.VBox(
            [w.HTML(CSS), self.text, bar, self.goal, w.HBox(buttons), self.verdict, self.app.widget],
            layout=w.Layout(width="100%"),
        )
        self.widget.add_class("cheren-lesson")
        self._show_goal()
        self.app.map.focus(self.run.focus_hexes())

    def _button(self, text: str, cls: str, fn: Any, style: str) -> Any:
        b = self._w.Button(description=text, button_style=style, layout=self._w.Layout(width="auto"))
        b.add_class(cls)
        b.on_click(lambda _: fn())
        return b

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    @property
    def run(self) -> ExerciseRun:
        return self.mode.run

    # -- what the buttons do -----------------------------------------------------------------
    def check(self) -> Verdict:
        verdict = self.mode.check()
        kind = "pass" if verdict.passed else "fail"
        self.verdict.value = (
            f'<div class="{kind}" data-passed="{int(verdict.passed)}">{panels.esc(verdict.text)}'
            f"{panels.rules_badges(verdict.rules)}</div>"
        )
        return verdict

    def hint(self) -> str | None:
        text = self.mode.hint()
        n, total = self.run.hints_shown, len(self.run.exercise.hints)
        if text is None:
            message = "No more hints: try Show solution." if total else "This exercise has no hints."
            self.verdict.value = f'<div class="hint">{panels.esc(message)}</div>'
        else:
            self.verdict.value = f'<div class="hint"><b>Hint {n} of {total}</b>: {panels.esc(text)}</div>'
        return text

    def show_solution(self) -> None:
        feedback = self.mode.show_solution()
        steps = "; ".join(str(fb) for fb in feedback if fb.text)
        self.verdict.value = (
            '<div class="hint"><b>The solution, played on the map</b> (no star for this one): '
            f"{panels.esc(steps)}</div>"
        )

    def reset(self) -> None:
        self.mode.reset()
        self.verdict.value = ""
        self.app.map.focus(self.run.focus_hexes())

    def choose(self, index: int) -> None:
        """Work on the lesson's exercise number ``index`` (from 0)."""
        if self.run.exercise is self.lesson.exercises[index]:
            return
        self.mode.start(ExerciseRun(self.lesson, index, self.scenario, on_solved=self._solved))
        self.verdict.value = ""
        self._show_goal()
        self.app.map.focus(self.run.focus_hexes())

    # -- display -----------------------------------------------------------------------------
    def _solved(self, run: ExerciseRun, verdict: Verdict) -> None:
        self.progress.record(self.lesson.key(run.exercise), verdict.stars)
        self._refresh_picker()

    def _label(self, i: int) -> str:
        e = self.lesson.exercises[i]
        key = self.lesson.key(e)
        mark = (" " + "★" * self.progress.stars.get(key, 0) if self.progress.stars.get(key) else " ✓") if (
            self.progress.is_solved(key)
        ) else ""
        return f"{i + 1}. {e.title}{mark}"

    def _picked(self, change: dict[str, Any]) -> None:
        if change["new"] is not None and not self._relabelling:
            self.choose(change["new"])

    def _refresh_picker(self) -> None:
        # new labels (stars) must not look like the learner picking another exercise
        self._relabelling = True
        try:
            current = self.picker.value
            self.picker.options = [(self._label(i), i) for i in range(len(self.lesson.exercises))]
            if current is not None:
                self.picker.value = current
        finally:
            self._relabelling = False
        solved = sum(self.progress.is_solved(self.lesson.key(e)) for e in self.lesson.exercises)
        warning = f" <small>({panels.esc(self.progress.problem)})</small>" if self.progress.problem else ""
        self.count.value = f"<span>{solved} of {len(self.lesson.exercises)} solved{warning}</span>"

    def _show_goal(self) -> None:
        e = self.run.exercise
        side = e.side.adjective
        self.goal.value = (
            f'<div class="cheren-goal" data-exercise="{panels.esc(e.id)}"><b>{panels.esc(e.title)}</b> '
            f"<small>(you play the {panels.esc(side)} side)</small><br>{panels.esc(e.goal.strip())}"
            f"{panels.rules_badges(e.rules)}</div>"
        )
