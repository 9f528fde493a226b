"""The course in the app: the start page (the course progress, every lesson with its rules and
stars, each opened by a button, never by a file link) and the lesson page
(:class:`cheren.app.lesson_app.LessonApp`), switched in place.  The app's Course button shows
it; each notebook of ``notebooks/learn/`` is this view too.

    CourseView()                         # the start page
    CourseView("zones-of-control")       # opened on a lesson
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from cheren.app import panels
from cheren.app.course import CourseController, LessonRow
from cheren.app.lesson_app import CSS, LessonApp
from cheren.app.widgets import button
from cheren.scenario.compiled import Scenario
from cheren.study.lessons.stars import Progress

START_CSS = """
<style>
.cheren-course-start { font-family: "DejaVu Sans", "Helvetica Neue", Arial, sans-serif; color: #2d2418; }
.cheren-course-row { border-bottom: 1px solid #e0d4b8; padding: 2px 0; align-items: center; }
.cheren-course-row .title { font-weight: bold; }
.cheren-course-row .teacher { background: #e8dec3; border-radius: 3px; padding: 0 4px; font-size: 11px; }
.cheren-course-head { background: #2d2418; color: #f4efe1; border-radius: 6px; padding: 6px 12px; }
.cheren-course-head b { color: #ffd88a; }
.cheren-bar-track { display: inline-block; width: 120px; height: 8px; background: #e0d4b8; border-radius: 4px;
  vertical-align: middle; }
.cheren-bar-fill { display: block; height: 8px; background: #5b7a2e; border-radius: 4px; }
</style>
"""


def row_html(row: LessonRow) -> str:
    lesson = row.lesson
    share = row.solved / row.total if row.total else 0.0
    mark = ' <span class="teacher">your teacher\'s</span>' if row.teacher else ""
    return (
        f'<div class="cheren-course-lesson" data-lesson="{panels.esc(lesson.name)}" data-solved="{row.solved}">'
        f'{lesson.model.order}. <span class="title">{panels.esc(lesson.title)}</span>{mark} '
        f"{panels.rules_badges(lesson.model.rules)}<br><small>{row.solved} of {row.total} solved · "
        f"{f'{row.stars} of {3 * row.total} ★' if row.stars else 'no stars yet'}</small> "
        f'<span class="cheren-bar-track"><span class="cheren-bar-fill" style="width:{share:.0%}"></span></span></div>'
    )


class CourseView:
    def __init__(
        self,
        lesson: str | None = None,
        exercise: int | str = 0,
        *,
        scenario: Scenario | None = None,
        progress: Progress | str | Path | None = None,
        folders: Iterable[str | Path] | None = None,
        on_close: Callable[[], Any] | None = None,
        width: int = 860,
        height: int = 520,
    ) -> None:
        """``on_close``: what "Back to the game" does (the app's Course button hands it in);
        ``folders``: a teacher's lesson folders (default ``$CHEREN_LESSONS``)."""
        import ipywidgets as w

        self._w = w
        self._size = (width, height)
        self.course = c = CourseController(scenario, folders=folders, progress=progress)
        self.head = w.HTML()
        self.head.add_class("cheren-course-progress")
        self.rows = w.VBox()
        self.problems = w.HTML()
        back = [button("◂ Back to the game", "cheren-course-close", on_close)] if on_close is not None else []
        self.continue_button = button("Continue ▸", "cheren-course-continue", self.go_on, "primary")
        self.start = w.VBox([w.HTML(START_CSS), w.HBox([*back, self.continue_button]), self.head, self.rows,
                             self.problems])
        self.start.add_class("cheren-course-start")
        self.lesson_page: LessonApp | None = None
        self.page_box = w.VBox()
        self.widget = w.VBox([w.HTML(CSS), self.start, self.page_box], layout=w.Layout(width="100%"))
        self.widget.add_class("cheren-course")
        c.subscribe(self._changed)
        if lesson is not None:
            c.open(lesson, exercise)
        self._changed({"page", "progress"})

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    # -- what the buttons do ------------------------------------------------------------------------
    def open(self, ref: str | int, exercise: int | str = 0) -> LessonApp:
        """Open a lesson in place (by name or place in the course)."""
        self.course.open(ref, exercise)
        assert self.lesson_page is not None
        return self.lesson_page

    def go_on(self) -> None:
        """Open the first exercise not solved yet, in course order (the first lesson if all are)."""
        c = self.course
        for row in c.rows():
            for i, e in enumerate(row.lesson.exercises):
                if not c.progress.is_solved(row.lesson.key(e)):
                    c.open(row.lesson, i)
                    return
        if c.lessons:
            c.open(c.lessons[0])

    # -- display -----------------------------------------------------------------------------------
    def _changed(self, what: set[str]) -> None:
        c = self.course
        if "page" in what and c.page != "start" and self.lesson_page is None:
            width, height = self._size
            self.lesson_page = LessonApp(course=c, on_course=c.home, width=width, height=height)
            self.page_box.children = [self.lesson_page.widget]
        start = c.page == "start"
        self.start.layout.display = "flex" if start else "none"
        self.page_box.layout.display = "none" if start else "flex"
        if start and what & {"page", "progress"}:
            self._show_start()

    def _show_start(self) -> None:
        w, c = self._w, self.course
        solved, total, stars = c.totals()
        where = f" Progress is kept in <code>{panels.esc(c.progress.path)}</code>." if c.progress.path else ""
        warning = f"<br><b>Warning:</b> {panels.esc(c.progress.problem)}" if c.progress.problem else ""
        self.head.value = (
            f'<div class="cheren-course-head" data-solved="{solved}" data-total="{total}"><b>The course</b>: '
            f"{len(c.lessons)} lessons through the sequence of play. <b>{solved} of {total}</b> exercises solved, "
            f"<b>{stars}</b> of {3 * total} stars.{where}{warning}</div>"
        )
        rows = []
        for row in c.rows():
            go = w.Button(description="Open" if not row.solved else ("Again" if row.solved == row.total else "Go on"),
                          button_style="" if row.solved == row.total else "info", layout=w.Layout(width="80px"))
            go.add_class("cheren-open-lesson")
            go.on_click(lambda _, i=row.index: c.open(i))
            line = w.HBox([go, w.HTML(row_html(row), layout=w.Layout(flex="1"))])
            line.add_class("cheren-course-row")
            rows.append(line)
        self.rows.children = rows
        self.continue_button.layout.display = "flex" if solved < total else "none"
        self.problems.value = "" if not c.problems else (
            "<div><b>Lesson files left out</b> (fix them and reload):<ul>"
            + "".join(f"<li><code>{panels.esc(p)}</code></li>" for p in c.problems) + "</ul></div>"
        )
