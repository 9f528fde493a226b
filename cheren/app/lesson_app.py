"""A lesson in the app: the lesson's explanation, the exercise's goal, ◂ Previous / Next ▸ with
the exercises and their stars, Check, Hint, Show solution and Reset, then the map in lesson mode
with only the side panels the lesson needs; after the last exercise, the lesson's summary with
its stars and Next lesson.  Any lesson file runs here, a teacher's too: no Python is needed.

    from cheren.app.lesson_app import LessonApp
    LessonApp("zones-of-control")          # a lesson of the course, from its first exercise

``app.course`` is the controller (:class:`cheren.app.course.CourseController`); ``app.run`` the
exercise being worked, ``app.mode`` the lesson mode that puts it on the board; ``app.check()``,
``app.hint()``, ``app.show_solution()``, ``app.reset()``, ``app.choose(i)``, ``app.next()`` and
``app.next_lesson()`` are what the buttons call.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from cheren.app import panels
from cheren.app.app import App
from cheren.app.course import CourseController
from cheren.app.lesson_mode import LessonMode
from cheren.app.widgets import button
from cheren.render.report_html import markdown_to_html
from cheren.scenario.compiled import Scenario
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
.cheren-verdict .what { margin-top: 4px; font-size: 13px; }
.cheren-summary { background: #fbf8ef; border: 1px solid #e0d4b8; border-radius: 6px; padding: 8px 14px; }
.cheren-summary td { padding: 2px 10px 2px 0; }
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


def verdict_html(verdict: Verdict) -> str:
    """What Check says: the verdict, then what the learner did as the engine works it out, then
    the lesson author's words."""
    kind = "pass" if verdict.passed else "fail"
    what = "".join(f"<li>{panels.esc(line)}</li>" for line in verdict.account)
    account = f'<div class="what">What you did:<ul>{what}</ul></div>' if what else ""
    note = f'<div class="what"><b>From the lesson:</b> {panels.esc(verdict.note)}</div>' if verdict.note else ""
    return (
        f'<div class="{kind}" data-passed="{int(verdict.passed)}">{panels.esc(verdict.text)}'
        f"{panels.rules_badges(verdict.rules)}{account}{note}</div>"
    )


class LessonApp:
    def __init__(
        self,
        lesson: str | Path | Lesson | None = None,
        exercise: int | str = 0,
        *,
        course: CourseController | None = None,
        scenario: Scenario | None = None,
        progress: Progress | str | Path | None = None,
        folders: Iterable[str | Path] | None = None,
        on_course: Callable[[], Any] | None = None,
        width: int = 860,
        height: int = 520,
    ) -> None:
        """``course``: the controller to show (default: a new one); ``on_course``: what the
        Course button does (the course's start page); without it there is no such button."""
        import ipywidgets as w

        self._w = w
        self.course = c = course or CourseController(scenario, folders=folders, progress=progress)
        if lesson is not None:
            c.open(lesson if not isinstance(lesson, Path) else str(lesson), exercise)
        assert c.lesson is not None, "open a lesson first (CourseController.open)"
        self._size = (width, height)
        self._shown: Lesson | None = None
        self.app: App | None = None
        self.text = w.HTML()
        self.text.add_class("cheren-lesson-text")
        self.picker = w.Dropdown(layout=w.Layout(width="360px"))
        self.picker.add_class("cheren-exercise-pick")
        self.prev_button = button("◂ Previous", "cheren-prev-exercise", c.previous)
        self.next_button = button("Next ▸", "cheren-next-exercise", c.next)
        self.count = w.HTML()
        self.count.add_class("cheren-lesson-progress")
        self.goal = w.HTML()
        self.goal.add_class("cheren-goal-box")
        self.verdict = w.HTML()
        self.verdict.add_class("cheren-verdict")
        self.map_box = w.VBox()
        self.exercise_box = w.VBox([
            w.HBox([self.prev_button, self.picker, self.next_button, self.count],
                   layout=w.Layout(align_items="center")),
            self.goal,
            w.HBox([
                button("✓ Check", "cheren-check", self.check, "success"),
                button("Hint", "cheren-hint", self.hint, "warning"),
                button("Show solution", "cheren-solution", self.show_solution),
                button("↺ Reset", "cheren-reset", self.reset),
            ]),
            self.verdict, self.map_box,
        ])
        self.summary = w.HTML()
        self.summary.add_class("cheren-lesson-summary")
        self.summary_rows = w.VBox()
        self.next_lesson_button = button("Next lesson ▸", "cheren-next-lesson", self.next_lesson, "primary")
        top = [button("☰ Course", "cheren-course-home", on_course, tooltip="Every lesson, with your stars")] if (
            on_course is not None) else []
        self.summary_box = w.VBox([self.summary, self.summary_rows, w.HBox([
            button("◂ Back to the last exercise", "cheren-summary-back", c.previous),
            self.next_lesson_button, *top,
        ])])
        self._relabelling = False
        self.picker.observe(self._picked, "value")
        head = w.HBox(top, layout=w.Layout(justify_content="flex-end")) if top else w.HBox()
        self.widget = w.VBox([w.HTML(CSS), head, self.text, self.exercise_box, self.summary_box],
                             layout=w.Layout(width="100%"))
        self.widget.add_class("cheren-lesson")
        c.subscribe(self._changed)
        self._changed({"page", "exercise", "progress"})

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    # -- what the course is on --------------------------------------------------------------------
    @property
    def lesson(self) -> Lesson:
        assert self.course.lesson is not None
        return self.course.lesson

    @property
    def mode(self) -> LessonMode:
        assert self.course.mode is not None
        return self.course.mode

    @property
    def run(self) -> ExerciseRun:
        return self.course.run

    @property
    def board(self) -> Any:
        return self.course.board

    @property
    def progress(self) -> Progress:
        return self.course.progress

    # -- what the buttons do -----------------------------------------------------------------
    def check(self) -> Verdict:
        verdict = self.course.check()
        self.verdict.value = verdict_html(verdict)
        if verdict.passed:
            self.next_button.button_style = "success"  # the way on
        return verdict

    def hint(self) -> str | None:
        text = self.course.hint()
        n, total = self.run.hints_shown, len(self.run.exercise.hints)
        if text is None:
            message = "No more hints: try Show solution." if total else "This exercise has no hints."
            self.verdict.value = f'<div class="hint">{panels.esc(message)}</div>'
        else:
            self.verdict.value = f'<div class="hint"><b>Hint {n} of {total}</b>: {panels.esc(text)}</div>'
        return text

    def show_solution(self) -> None:
        feedback = self.course.show_solution()
        steps = "; ".join(str(fb) for fb in feedback if fb.text)
        self.verdict.value = (
            '<div class="hint"><b>The solution, played on the map</b> (no star for this one): '
            f"{panels.esc(steps)}</div>"
        )

    def reset(self) -> None:
        self.course.reset()
        self.verdict.value = ""
        self._focus()

    def choose(self, index: int) -> None:
        """Work on the lesson's exercise number ``index`` (from 0)."""
        self.course.choose(index)

    def next(self) -> None:
        self.course.next()

    def next_lesson(self) -> None:
        self.course.next_lesson()

    # -- display -----------------------------------------------------------------------------
    def _changed(self, what: set[str]) -> None:
        c = self.course
        if c.lesson is None:
            return
        if "page" in what and c.lesson is not self._shown:
            self._show_lesson()
        if "exercise" in what:
            self.verdict.value = ""
            self.next_button.button_style = ""
            self._show_goal()
            self._focus()
        if what & {"exercise", "progress", "page"}:
            self._refresh_picker()
        if "page" in what:
            summary = c.page == "summary"
            self.exercise_box.layout.display = "none" if summary else "flex"
            self.summary_box.layout.display = "flex" if summary else "none"
            if summary:
                self.summary.value = self._summary_html()
                self._summary_rows()

    def _show_lesson(self) -> None:
        c = self.course
        assert c.board is not None
        self._shown = c.lesson
        width, height = self._size
        self.app = App(board=c.board, show=self.lesson.model.panels, width=width, height=height)
        self.map_box.children = [self.app.widget]
        self.text.value = blocks_html(self.lesson)

    def _focus(self) -> None:
        if self.app is not None:
            self.app.map.focus(self.run.focus_hexes())

    def _label(self, i: int) -> str:
        e = self.lesson.exercises[i]
        stars = self.course.stars(e)
        mark = "" if stars is None else " " + ("★" * stars if stars else "✓")
        return f"{i + 1}. {e.title}{mark}"

    def _picked(self, change: dict[str, Any]) -> None:
        if change["new"] is not None and not self._relabelling:
            self.choose(change["new"])

    def _refresh_picker(self) -> None:
        # new labels (stars) must not look like the learner picking another exercise
        self._relabelling = True
        try:
            self.picker.options = [(self._label(i), i) for i in range(len(self.lesson.exercises))]
            self.picker.value = self.course.index
        finally:
            self._relabelling = False
        c = self.course
        solved = sum(stars is not None for _, stars in c.summary())
        warning = f" <small>({panels.esc(c.progress.problem)})</small>" if c.progress.problem else ""
        self.count.value = f"<span>{solved} of {len(self.lesson.exercises)} solved{warning}</span>"
        self.prev_button.disabled = c.index == 0
        last = c.index + 1 == len(self.lesson.exercises)
        self.next_button.description = "Lesson summary ▸" if last else "Next ▸"

    def _show_goal(self) -> None:
        e = self.run.exercise
        side = e.side.adjective
        self.goal.value = (
            f'<div class="cheren-goal" data-exercise="{panels.esc(e.id)}"><b>{panels.esc(e.title)}</b> '
            f"<small>(you play the {panels.esc(side)} side)</small><br>{panels.esc(e.goal.strip())}"
            f"{panels.rules_badges(e.rules)}</div>"
        )

    def _summary_html(self) -> str:
        c = self.course
        rows = c.summary()
        solved = sum(s is not None for _, s in rows)
        stars = sum(s or 0 for _, s in rows)
        after = c.following()
        self.next_lesson_button.description = f"Next lesson ▸ {after.title}" if after else "Back to the course ▸"
        done = "You have finished the lesson." if solved == len(rows) else (
            f"{len(rows) - solved} exercise{'s' if len(rows) - solved != 1 else ''} still to solve: open "
            f"{'it' if len(rows) - solved == 1 else 'one'} below, or go on.")
        return (
            f'<div class="cheren-summary" data-solved="{solved}" data-stars="{stars}">'
            f"<h3>{panels.esc(self.lesson.title)}: {solved} of {len(rows)} solved, {stars} of {3 * len(rows)} stars"
            f"</h3><p>{done}</p></div>"
        )

    def _summary_rows(self) -> None:
        """Each exercise with its stars, and a button to work on it (again)."""
        w = self._w
        lines = []
        for i, (e, s) in enumerate(self.course.summary()):
            stars = "★" * s + "☆" * (3 - s) if s is not None else "not solved yet"
            go = w.Button(description="Again" if s is not None else "Solve it", layout=w.Layout(width="80px"),
                          button_style="" if s is not None else "info")
            go.add_class("cheren-summary-open")
            go.on_click(lambda _, k=i: self.choose(k))
            lines.append(w.HBox([go, w.HTML(f"{i + 1}. {panels.esc(e.title)} <b>{stars}</b>")],
                                layout=w.Layout(align_items="center")))
        self.summary_rows.children = lines
