"""The course in the app, as a controller with no widgets: the lessons (the bundled ones and a
teacher's, :func:`cheren.study.lessons.course.read_course`), the learner's progress, the lesson
open and the exercise being worked on its own board, and the way through them: the start page,
Previous / Next exercise, the end-of-lesson summary with its stars, Next lesson.

    course = CourseController()              # the start page: every lesson with its stars
    course.open("map-and-terrain")           # lesson 1 on a board of its own, first exercise
    course.mode.play_step({"move": {"unit": "Tank", "to": "0911"}})
    course.check(); course.next()            # ... and after the last exercise, the summary
    course.next_lesson()

The views (:mod:`cheren.app.course_view`, :mod:`cheren.app.lesson_app`) subscribe and redraw what
it says changed: ``page`` (start, lesson or summary, or another lesson), ``exercise``,
``verdict`` and ``progress``."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from cheren.app.board import Board
from cheren.app.lesson_mode import LessonMode
from cheren.scenario.compiled import Scenario
from cheren.study.lessons.course import lesson_folders, read_course
from cheren.study.lessons.exercise_run import ExerciseRun, Verdict
from cheren.study.lessons.files import Lesson, LessonError
from cheren.study.lessons.model import Exercise
from cheren.study.lessons.stars import Progress
from cheren.study.map_intents import Feedback

Page = Literal["start", "lesson", "summary"]
Listener = Callable[[set[str]], None]


def notebook_name(lesson: Lesson) -> str:
    """The lesson's notebook in ``notebooks/learn/`` (for JupyterLab; the app needs none)."""
    return f"{lesson.model.order:02d}_{lesson.name.replace('-', '_')}.ipynb"


@dataclass(frozen=True)
class LessonRow:
    """One lesson as the start page lists it."""

    index: int
    lesson: Lesson
    solved: int
    total: int
    stars: int
    teacher: bool  # from a teacher's folder, not the bundled course


class CourseController:
    def __init__(
        self,
        scenario: Scenario | None = None,
        *,
        folders: Iterable[str | Path] | None = None,
        progress: Progress | str | Path | None = None,
    ) -> None:
        """``folders``: a teacher's lesson folders (default: ``$CHEREN_LESSONS``); ``progress``:
        the progress file (default: ``$CHEREN_PROGRESS`` or ``~/.cheren/progress.json``)."""
        if scenario is None:
            from cheren.scenario import load_scenario

            scenario = load_scenario()
        self.scenario = scenario
        self.folders = [Path(f) for f in (lesson_folders() if folders is None else folders)]
        self._progress_path = progress
        self._listeners: list[Listener] = []
        self.page: Page = "start"
        self.lesson: Lesson | None = None
        self.board: Board | None = None
        self.mode: LessonMode | None = None
        self.verdict: Verdict | None = None
        self.refresh()

    # -- listening -------------------------------------------------------------------------------
    def subscribe(self, fn: Listener) -> None:
        self._listeners.append(fn)

    def notify(self, *what: str) -> None:
        for fn in list(self._listeners):
            fn(set(what))

    # -- the start page -----------------------------------------------------------------------------
    def refresh(self) -> None:
        """Read the lessons and the progress file again (a teacher may have added a lesson)."""
        found = read_course(self.scenario, self.folders)
        self.lessons, self.problems = found.lessons, found.problems
        p = self._progress_path
        self.progress = p if isinstance(p, Progress) else Progress.open(p)
        self.notify("progress")

    def rows(self) -> list[LessonRow]:
        teachers = {f.resolve() for f in self.folders}
        out = []
        for i, lesson in enumerate(self.lessons):
            keys = [lesson.key(e) for e in lesson.exercises]
            teacher = lesson.path is not None and lesson.path.parent.resolve() in teachers
            out.append(LessonRow(i, lesson, sum(self.progress.is_solved(k) for k in keys), len(keys),
                                 sum(self.progress.stars.get(k, 0) for k in keys), teacher))
        return out

    def totals(self) -> tuple[int, int, int]:
        """Exercises solved, exercises in all, stars won."""
        rows = self.rows()
        return sum(r.solved for r in rows), sum(r.total for r in rows), sum(r.stars for r in rows)

    def home(self) -> None:
        """Back to the start page (the lesson stays open to come back to)."""
        self.page = "start"
        self.refresh()
        self.notify("page")

    # -- a lesson -------------------------------------------------------------------------------------
    def open(self, ref: str | int | Lesson, exercise: int | str = 0) -> None:
        """Open a lesson (by name, place in the course, or as read) on a board of its own."""
        lesson = self._lesson(ref)
        run = ExerciseRun(lesson, exercise, self.scenario, on_solved=self._solved)
        self.lesson = lesson
        self.board = Board(run.game)
        self.mode = LessonMode(self.board, run)
        self.verdict = None
        self.page = "lesson"
        self.notify("page", "exercise")

    def _lesson(self, ref: str | int | Lesson) -> Lesson:
        if isinstance(ref, Lesson):
            return ref
        if isinstance(ref, int):
            return self.lessons[ref]
        found = next((lesson for lesson in self.lessons if lesson.name == ref), None)
        if found is None:
            from cheren.study.lessons.course import load_lesson

            return load_lesson(ref, self.scenario, self.folders)  # a lesson file by path; else says which exist
        return found

    @property
    def run(self) -> ExerciseRun:
        assert self.mode is not None, "no lesson is open"
        return self.mode.run

    @property
    def exercises(self) -> list[Exercise]:
        return self.lesson.exercises if self.lesson is not None else []

    @property
    def index(self) -> int:
        """The exercise being worked, from 0."""
        return self.exercises.index(self.run.exercise)

    def key(self, exercise: Exercise) -> str:
        assert self.lesson is not None
        return self.lesson.key(exercise)

    def stars(self, exercise: Exercise) -> int | None:
        """The best stars won on an exercise, None while it is unsolved."""
        key = self.key(exercise)
        return self.progress.stars.get(key, 0) if self.progress.is_solved(key) else None

    def choose(self, index: int) -> None:
        """Work on exercise ``index`` of the open lesson (from 0)."""
        assert self.lesson is not None and self.mode is not None
        if self.page == "lesson" and self.run.exercise is self.exercises[index]:
            return
        self.mode.start(ExerciseRun(self.lesson, index, self.scenario, on_solved=self._solved))
        self.verdict = None
        self.page = "lesson"
        self.notify("exercise", "page")

    def previous(self) -> None:
        if self.page == "summary":
            self.choose(len(self.exercises) - 1)
        elif self.index > 0:
            self.choose(self.index - 1)

    def next(self) -> None:
        """The next exercise; after the last one, the lesson's summary."""
        if self.index + 1 < len(self.exercises):
            self.choose(self.index + 1)
        else:
            self.page = "summary"
            self.notify("page")

    def next_lesson(self) -> Lesson | None:
        """Open the lesson after this one (None, and the start page, after the last)."""
        after = self.following()
        if after is None:
            self.home()
            return None
        self.open(after)
        return after

    def following(self) -> Lesson | None:
        """The lesson after the open one in the course, if any."""
        names = [lesson.name for lesson in self.lessons]
        if self.lesson is None or self.lesson.name not in names:
            return self.lessons[0] if self.lessons else None
        i = names.index(self.lesson.name)
        return self.lessons[i + 1] if i + 1 < len(self.lessons) else None

    def summary(self) -> list[tuple[Exercise, int | None]]:
        """Each exercise of the open lesson with its best stars (None: not solved yet)."""
        return [(e, self.stars(e)) for e in self.exercises]

    # -- the buttons of an exercise ------------------------------------------------------------------
    def check(self) -> Verdict:
        assert self.mode is not None
        self.verdict = self.mode.check()
        self.notify("verdict")
        return self.verdict

    def hint(self) -> str | None:
        assert self.mode is not None
        return self.mode.hint()

    def show_solution(self) -> list[Feedback]:
        """Reset and play the solution on the map, click by click; the exercise earns no star."""
        assert self.mode is not None
        self.verdict = None
        return self.mode.show_solution()

    def reset(self) -> None:
        assert self.mode is not None
        self.mode.reset()
        self.verdict = None

    def _solved(self, run: ExerciseRun, verdict: Verdict) -> None:
        self.progress.record(run.lesson.key(run.exercise), verdict.stars)
        self.notify("progress")


__all__ = ["CourseController", "LessonError", "LessonRow", "notebook_name"]
