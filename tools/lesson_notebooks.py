"""Write the course notebooks (``notebooks/learn/``) from the lesson files: one notebook per
lesson plus ``00_start_here.ipynb``.  Run it after adding or renaming a lesson, then execute
them with ``./dev notebooks notebooks/learn/*.ipynb``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import nbformat

from cheren.app.course import notebook_name
from cheren.study.lessons import course

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "notebooks" / "learn"
KERNEL = {"display_name": "Python 3", "language": "python", "name": "python3"}

HOW = (
    "**How it works.** Run all cells (in Voila it runs by itself). Above the map: the lesson, then the "
    "exercise's goal. Do it on the map, as in a game: click a unit, click where it goes; in the Combat phase "
    "click the enemy hex, then your stacks. Press **✓ Check** when you think you are done: it says whether "
    "the rules agree, what you did in the engine's own words (the real strengths, odds, hexes and rules), and "
    "if not, which rule decides. **Hint** gives a clue (each one costs a star), **Show solution** plays it on "
    "the map (no star), **↺ Reset** starts the exercise again. **Next ▸** goes on to the next exercise, and "
    "after the last one to the lesson's summary and **Next lesson**; **☰ Course** lists every lesson with "
    "your stars. Try the illegal moves too: every refusal names its rule, and the Rules panel explains it."
)


def lesson_notebook(name: str, title: str, order: int, rules: list[str]) -> Any:
    nb = nbformat.v4.new_notebook()  # type: ignore[no-untyped-call]
    nb.metadata["kernelspec"] = KERNEL
    nb.cells = [
        nbformat.v4.new_markdown_cell(  # type: ignore[no-untyped-call]
            f"# Lesson {order}: {title}\n\nPart of the cheren course (the **☰ Course** button lists every "
            f"lesson; `cheren app`, then Course, runs the same course); rules {', '.join(rules)}.\n\n{HOW}"
        ),
        nbformat.v4.new_code_cell(  # type: ignore[no-untyped-call]
            f'# NBVAL_IGNORE_OUTPUT\nfrom cheren.app.course_view import CourseView\n\napp = CourseView("{name}")\napp'
        ),
        nbformat.v4.new_markdown_cell("The exercises of this lesson:"),  # type: ignore[no-untyped-call]
        nbformat.v4.new_code_cell(  # type: ignore[no-untyped-call]
            'for i, e in enumerate(app.course.exercises, 1):\n    print(f"{i}. {e.title} ({e.side.adjective}): '
            '{\' \'.join(e.goal.split())}")'
        ),
    ]
    return nb


def start_here(rows: list[tuple[str, str, str]]) -> Any:
    table = "\n".join(f"| {n} | {title} |" for n, title, _ in rows)
    nb = nbformat.v4.new_notebook()  # type: ignore[no-untyped-call]
    nb.metadata["kernelspec"] = KERNEL
    nb.cells = [
        nbformat.v4.new_markdown_cell(  # type: ignore[no-untyped-call]
            "# The Road to CHEREN: learn the rules\n\n"
            "A course through the sequence of play, with exercises on the real map that the rules engine "
            "checks. Take the lessons in order; each one explains a part of the rules in short blocks, with TIPs "
            "and an *Order of ...* checklist, then sets exercises. Below, **Open** starts a lesson in place and "
            "**Continue** takes you to the first exercise you have not solved yet.\n\n"
            f"{HOW}\n\n| # | lesson |\n|---|---|\n{table}\n\n"
            "Your solved exercises and stars are kept in `~/.cheren/progress.json` (or the file named by the "
            "`CHEREN_PROGRESS` environment variable). A teacher's lessons (`cheren app --lessons DIR`) are "
            "listed after these."
        ),
        nbformat.v4.new_code_cell(  # type: ignore[no-untyped-call]
            "# NBVAL_IGNORE_OUTPUT\nfrom cheren.app.course_view import CourseView\n\n"
            "overview = CourseView()\noverview"
        ),
        nbformat.v4.new_markdown_cell(  # type: ignore[no-untyped-call]
            "The course, lesson by lesson (`cheren lessons` prints the same on the command line):"
        ),
        nbformat.v4.new_code_cell(  # type: ignore[no-untyped-call]
            "for lesson in overview.course.lessons:\n"
            '    print(f"{lesson.model.order:2d}. {lesson.title}: {len(lesson.exercises)} exercises, '
            'rules {\', \'.join(lesson.model.rules)}")'
        ),
    ]
    return nb


def main() -> None:
    FOLDER.mkdir(parents=True, exist_ok=True)
    rows = []
    for lesson in course():
        name = notebook_name(lesson)
        nb = lesson_notebook(lesson.name, lesson.title, lesson.model.order, list(lesson.model.rules))
        nbformat.write(nb, FOLDER / name)  # type: ignore[no-untyped-call]
        rows.append((str(lesson.model.order), lesson.title, name))
        print(f"wrote notebooks/learn/{name}")
    nbformat.write(start_here(rows), FOLDER / "00_start_here.ipynb")  # type: ignore[no-untyped-call]
    print("wrote notebooks/learn/00_start_here.ipynb")


if __name__ == "__main__":
    main()
