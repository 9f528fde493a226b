"""The course in the app, in a real browser (issue 31): the app's landing page (what `cheren app`
serves) → Course → lesson 1 → every exercise solved in a row by clicks on the map (and End phase
where the exercise asks), each Check saying Solved and what was done, with Next ▸ → the lesson's
summary with its stars → Next lesson → lessons 2 and 3 the same way, all without leaving the page
(no file link, no 403).  A
teacher's lesson, YAML only, from the folder `cheren app --lessons DIR` hands over, runs the same
way.  And Esc from anywhere on the page drops the selection."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from cheren.app.board import Board
from cheren.engine.game import Game
from cheren.hexes import Hex
from cheren.study.lessons import ExerciseRun, load_lesson, parse_lesson_text
from tests.browser.conftest import TIMEOUT_MS
from tests.browser.test_app_browser import Map, scenario, wait_painted
from tests.browser.test_lessons_browser import lesson_canvas
from tests.teacher_lesson import TEACHER_LESSON

H = Hex.from_label
expect.set_options(timeout=TIMEOUT_MS)
LESSON = ".cheren-course .cheren-lesson"


def open_course(page: Any, voila_url: str) -> str:
    page.goto(f"{voila_url}/voila/render/app.ipynb")
    page.wait_for_selector(".cheren-app .cheren-bar", timeout=90_000)
    page.locator("button.cheren-course-open").first.click()
    expect(page.locator(".cheren-course-head").first).to_contain_text("exercises solved")
    return str(page.url)


def solve(page: Any, run: ExerciseRun, clicks: list[str], said: str) -> None:
    """Click these hexes on the lesson's map, press Check: Solved, with what the engine says."""
    expect(page.locator(f"{LESSON} .cheren-goal").first).to_have_attribute("data-exercise", run.exercise.id)
    canvas = lesson_canvas(page, run)
    canvas.sel = f"{LESSON} canvas.cheren-map"
    for label in clicks:
        canvas.click(H(label))
    check(page, said)


def check(page: Any, said: str) -> None:
    page.locator(f"{LESSON} button.cheren-check").first.click()
    verdict = page.locator(f"{LESSON} .cheren-verdict [data-passed='1']").first
    expect(verdict).to_contain_text("Solved")
    expect(verdict).to_contain_text(said)  # what the learner did, in the engine's words


def solve_by_its_solution(page: Any, run: ExerciseRun, said: str) -> None:
    """Play the exercise's own solution as a learner would: click the unit (again, on a stack,
    until the panel names it), click where it goes; End phase where the solution ends one."""
    expect(page.locator(f"{LESSON} .cheren-goal").first).to_have_attribute("data-exercise", run.exercise.id)
    canvas = lesson_canvas(page, run)
    canvas.sel = f"{LESSON} canvas.cheren-map"
    p, s = run.game.position, run.game.scenario
    where = {s.units[uid].name: (uid, u.hex) for uid, u in p.units.items() if u.hex is not None}
    selected = page.locator(f"{LESSON} .cheren-selected").first
    feedback = page.locator(f"{LESSON} .cheren-feedback").first
    for step in run.exercise.solution:
        if step.end_phase:
            before = page.locator(f"{LESSON} .cheren-bar").first.get_attribute("data-phase")
            page.locator(f"{LESSON} button.cheren-end-phase").first.click()
            expect(page.locator(f"{LESSON} .cheren-bar").first).not_to_have_attribute("data-phase", before or "")
            continue
        assert step.move is not None, step
        uid, at = where[step.move.unit]
        canvas.click(at)
        for _ in range(6):  # a second click on a stack picks the next counter
            try:
                expect(selected).to_have_attribute("data-unit", uid, timeout=3_000)
                break
            except AssertionError:
                canvas.click(at)
        expect(selected).to_have_attribute("data-unit", uid)
        canvas.click(H(step.move.to))
        expect(feedback).to_contain_text(step.move.unit)
        where[step.move.unit] = (uid, H(step.move.to))
    check(page, said)


def test_voila_course_lessons_1_to_3_solved_in_a_row_with_next_in_the_app(page: Any, voila_url: str) -> None:
    url = open_course(page, voila_url)
    row = page.locator(".cheren-course-row", has=page.locator("[data-lesson='map-and-terrain']")).first
    row.locator("button.cheren-open-lesson").click()
    lesson = load_lesson("map-and-terrain")
    steps = [
        ("drive-by-road", ["0208", "0911"], "Tank moves 0208 -> 0911 for 4.5 MP"),
        ("river-and-track", ["0512", "0416"], "Refused: Sudan EAC 1 cannot go to 0416"),
        ("tanks-and-mountains", ["1708", "1808"], "1808 is a mountain hex"),
    ]
    for exercise, clicks, said in steps:
        solve(page, ExerciseRun(lesson, exercise), clicks, said)
        page.locator(f"{LESSON} button.cheren-next-exercise").first.click()
    summary = page.locator(f"{LESSON} .cheren-summary").first
    expect(summary).to_have_attribute("data-solved", "3")
    expect(summary).to_have_attribute("data-stars", "9")
    expect(summary).to_contain_text("You have finished the lesson")
    later = {
        "zones-of-control": ("Zones of control", [
            ("hard-zoc-stops", "Refused: Sudan EAC 1 cannot go to 0508"),
            ("soft-zoc-costs", "Tank moves 0310 -> 0711"),
            ("mountain-blocks-zoc", "Tank moves 1608 -> 1806"),
        ]),
        "stacking": ("Stacking", [
            ("mountain-holds-three", "5 Ind moves 1708 -> 1808"),
            ("two-terrains", "Sudan EAC 1 moves 0808 -> 0907"),
            ("reaction-counts-three", "Refused: Col 8 cannot go to 1409"),
        ]),
    }
    for name, (title, exercises) in later.items():
        page.locator(f"{LESSON} button.cheren-next-lesson").first.click()
        expect(page.locator(f"{LESSON} .cheren-lesson-text").first).to_contain_text(title)
        lesson = load_lesson(name)
        for exercise, said in exercises:
            solve_by_its_solution(page, ExerciseRun(lesson, exercise), said)
            page.locator(f"{LESSON} button.cheren-next-exercise").first.click()
        expect(summary).to_have_attribute("data-solved", "3")
        expect(summary).to_have_attribute("data-stars", "9")
    page.locator(f"{LESSON} button.cheren-course-home").first.click()
    head = page.locator(".cheren-course-head").first
    expect(head).to_have_attribute("data-solved", "9")  # the course progress on the start page
    assert page.locator(".cheren-course a[href$='.ipynb']").count() == 0  # no file link
    assert page.url == url  # never left the page: no file link was followed


def test_voila_a_teachers_yaml_lesson_runs_in_the_same_lesson_view(page: Any, voila_url: str) -> None:
    open_course(page, voila_url)
    row = page.locator(".cheren-course-row", has=page.locator("[data-lesson='teachers-roads']")).first
    expect(row).to_contain_text("your teacher's")
    row.locator("button.cheren-open-lesson").click()
    lesson = parse_lesson_text(TEACHER_LESSON, "roads.yaml")
    solve(page, ExerciseRun(lesson, "tank-to-tessenei"), ["0208", "0512"], "Tank moves 0208 -> 0512")
    page.locator(f"{LESSON} button.cheren-next-exercise").first.click()
    solve(page, ExerciseRun(lesson, "no-mountain"), ["1708", "1808"], "1808 is a mountain hex")
    page.locator(f"{LESSON} button.cheren-next-exercise").first.click()
    expect(page.locator(f"{LESSON} .cheren-summary").first).to_have_attribute("data-solved", "2")


def test_voila_the_game_controls_are_at_the_top_and_esc_from_anywhere_drops_the_selection(
    page: Any, voila_url: str
) -> None:
    page.goto(f"{voila_url}/voila/render/app.ipynb")
    page.wait_for_selector(".cheren-app .cheren-bar", timeout=90_000)
    reveal = page.locator(".cheren-reveal:visible")
    if reveal.count():
        reveal.first.click()
    for control in (".cheren-mode", "button.cheren-save", "button.cheren-load", "button.cheren-course-open"):
        box = page.locator(control).first.bounding_box()  # who plays, Save, Load: at the top (they were 1,660 px down)
        assert box is not None and box["y"] < 250, (control, box)
    wait_painted(page)
    Map(page, Board(Game(scenario(), seed=1941)).scene()).click(H("0208"))  # the Kassala stack
    selected = page.locator(".cheren-selected").first
    expect(selected).to_have_attribute("data-hex", "0208")
    page.locator("button.cheren-centre").first.focus()  # the keyboard focus off the map
    page.keyboard.press("Escape")
    expect(selected).to_have_attribute("data-hex", "")
    expect(page.locator(".cheren-feedback").first).to_contain_text("Nothing selected")


def test_voila_the_start_here_notebook_opens_a_lesson_in_place(page: Any, voila_url: str) -> None:
    """`voila notebooks/learn/00_start_here.ipynb` and a click on lesson 1 gave 403 Forbidden (a
    link to another notebook); now Open shows the lesson on the same page."""
    page.goto(f"{voila_url}/voila/render/learn/00_start_here.ipynb")
    page.wait_for_selector(".cheren-course-head", timeout=90_000)
    url = page.url
    assert page.locator(".cheren-course a[href$='.ipynb']").count() == 0  # no file link
    row = page.locator(".cheren-course-row", has=page.locator("[data-lesson='map-and-terrain']")).first
    row.locator("button.cheren-open-lesson").click()
    expect(page.locator(f"{LESSON} .cheren-goal").first).to_have_attribute("data-exercise", "drive-by-road")
    page.wait_for_selector(f"{LESSON} canvas.cheren-map", timeout=60_000)
    assert page.url == url
