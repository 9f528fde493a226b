"""The course overview: every lesson with its rules, its notebook and the learner's stars."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cheren.app import panels
from cheren.scenario.compiled import Scenario
from cheren.study.lessons.course import course
from cheren.study.lessons.files import Lesson
from cheren.study.lessons.stars import Progress


def notebook_name(lesson: Lesson) -> str:
    """The lesson's notebook in ``notebooks/learn/``."""
    return f"{lesson.model.order:02d}_{lesson.name.replace('-', '_')}.ipynb"


def overview_html(lessons: list[Lesson], progress: Progress) -> str:
    rows = []
    total = solved_all = stars_all = 0
    for lesson in lessons:
        keys = [lesson.key(e) for e in lesson.exercises]
        solved = sum(progress.is_solved(k) for k in keys)
        stars = sum(progress.stars.get(k, 0) for k in keys)
        total += len(keys)
        solved_all += solved
        stars_all += stars
        name = notebook_name(lesson)
        rows.append(
            f'<tr class="cheren-course-row" data-lesson="{panels.esc(lesson.name)}">'
            f"<td>{lesson.model.order}</td>"
            f'<td><a href="{panels.esc(name)}" target="_blank">{panels.esc(lesson.title)}</a></td>'
            f"<td>{panels.rules_badges(lesson.model.rules)}</td>"
            f"<td>{solved} / {len(keys)}</td><td>{'★' * stars or '·'}</td></tr>"
        )
    head = "<tr><th>#</th><th>lesson (its notebook)</th><th>rules</th><th>solved</th><th>stars</th></tr>"
    note = f"<p><b>Warning:</b> {panels.esc(progress.problem)}</p>" if progress.problem else ""
    where = f" Progress is kept in <code>{panels.esc(progress.path)}</code>." if progress.path else ""
    return (
        f'<div class="cheren-course"><p><b>{solved_all} of {total}</b> exercises solved, '
        f"<b>{stars_all}</b> of {3 * total} stars.{where}</p>{note}"
        f'<table class="cheren-course-table">{head}{"".join(rows)}</table></div>'
    )


class CourseOverview:
    """A widget listing the course with the learner's progress; ``refresh()`` re-reads it."""

    def __init__(self, scenario: Scenario | None = None, progress: str | Path | None = None) -> None:
        import ipywidgets as w

        self._progress_path = progress
        self.lessons = course(scenario)
        self.html = w.HTML()
        self.html.add_class("cheren-course-overview")
        refresh = w.Button(description="Refresh", layout=w.Layout(width="auto"))
        refresh.on_click(lambda _: self.refresh())
        self.widget = w.VBox([w.HTML(panels.CSS), self.html, refresh])
        self.refresh()

    def refresh(self) -> None:
        self.progress = Progress.open(self._progress_path)
        self.html.value = overview_html(self.lessons, self.progress)

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)
