"""The course in the app (issue 31, item 1), without a browser: the start page's lessons and
progress, the way through a lesson (Previous / Next, the summary with its stars, Next lesson), a
teacher's YAML lessons from a folder of their own (`cheren app --lessons DIR`), and the Course
button of the play app."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cheren.app.app import App
from cheren.app.course import CourseController
from cheren.app.course_view import CourseView
from cheren.app.launch import LaunchError, lessons_env
from cheren.cli.main import main
from cheren.hexes import Hex
from cheren.scenario import Scenario, load_scenario
from tests.teacher_lesson import TEACHER_LESSON

H = Hex.from_label


@pytest.fixture(scope="module")
def scenario() -> Scenario:
    return load_scenario()


@pytest.fixture
def teacher(tmp_path: Path) -> Path:
    folder = tmp_path / "my-lessons"
    folder.mkdir()
    (folder / "roads.yaml").write_text(TEACHER_LESSON)
    return folder


def test_a_lesson_is_worked_through_with_next_to_its_summary_and_the_next_lesson(
    scenario: Scenario, tmp_path: Path
) -> None:
    c = CourseController(scenario, folders=[], progress=tmp_path / "p.json")
    assert str(c.page) == "start" and [r.lesson.name for r in c.rows()][:2] == ["map-and-terrain", "zones-of-control"]
    c.open("map-and-terrain")
    assert str(c.page) == "lesson" and c.index == 0 and c.mode is not None
    c.mode.play_step({"move": {"unit": "Tank", "to": "0911"}})
    assert c.check().passed and c.stars(c.exercises[0]) == 3
    c.next()
    assert c.index == 1
    c.previous()
    assert c.index == 0
    c.choose(2)
    c.next()  # past the last exercise: the summary
    assert str(c.page) == "summary"
    assert [stars for _, stars in c.summary()] == [3, None, None]
    c.next_lesson()
    assert c.lesson is not None and c.lesson.name == "zones-of-control" and str(c.page) == "lesson"
    c.home()
    assert str(c.page) == "start" and c.totals()[0] == 1  # the progress file was read again


def test_the_lesson_view_shows_the_summary_page_and_its_buttons(scenario: Scenario, tmp_path: Path) -> None:
    view = CourseView(scenario=scenario, folders=[], progress=tmp_path / "p.json")
    assert 'data-solved="0"' in view.head.value and len(view.rows.children) == 10
    page = view.open("map-and-terrain", 2)
    assert page.next_button.description == "Lesson summary ▸" and not page.prev_button.disabled
    page.next()
    assert page.summary_box.layout.display == "flex" and page.exercise_box.layout.display == "none"
    assert "0 of 3 solved" in page.summary.value and "Zones of control" in page.next_lesson_button.description
    page.summary_rows.children[1].children[0].click()  # "Solve it" on exercise 2
    assert view.course.page == "lesson" and page.run.exercise.id == "river-and-track"


def test_a_teachers_yaml_lesson_joins_the_course_and_runs_in_the_lesson_view(
    scenario: Scenario, teacher: Path, tmp_path: Path
) -> None:
    view = CourseView(scenario=scenario, folders=[teacher], progress=tmp_path / "p.json")
    row = next(r for r in view.course.rows() if r.lesson.name == "teachers-roads")
    assert row.teacher and row.index == len(view.course.lessons) - 1  # order 50: after the bundled ten
    page = view.open(row.index)
    page.board.play.select("tank_sqn")
    page.board.click_hex(H("0512"))
    verdict = page.check()
    assert verdict.passed and "Tank moves 0208 -> 0512" in " ".join(verdict.account)
    assert "data-passed=\"1\"" in page.verdict.value and "What you did" in page.verdict.value


def test_a_broken_teachers_file_is_named_and_hides_nothing_else(scenario: Scenario, teacher: Path) -> None:
    (teacher / "broken.yaml").write_text("name: broken\ntitle: x\norder: 60\nrules: [9.0]\n")
    (teacher / "clash.yaml").write_text(TEACHER_LESSON)  # the same name again
    c = CourseController(scenario, folders=[teacher])
    names = [lesson.name for lesson in c.lessons]
    assert "teachers-roads" in names and "broken" not in names and len(names) == 11
    assert any("broken.yaml" in p and "rules" in p for p in c.problems), c.problems
    assert any("clash.yaml" in p and "already the name of" in p for p in c.problems), c.problems
    view = CourseView(scenario=scenario, folders=[teacher])
    assert "broken.yaml" in view.problems.value and "Lesson files left out" in view.problems.value


def test_the_app_has_a_course_button_that_shows_the_course_in_place(scenario: Scenario, tmp_path: Path) -> None:
    app = App()
    course = app.open_course()
    assert app.body.layout.display == "none" and app.course_box.layout.display == "flex"
    assert isinstance(course, CourseView) and course.course.lessons
    app.close_course()
    assert app.course_box.layout.display == "none" and app.body.layout.display == "flex"


def test_the_app_pages_intro_speaks_of_the_map_so_it_goes_while_the_course_is_open(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cheren.app.app_page import AppPage

    monkeypatch.delenv("VOILA_PREHEAT", raising=False)
    app = AppPage(autosave=tmp_path / "cheren-autosave.json").app
    intro = next(c for c in app.top.children if "cheren-intro" in c._dom_classes)
    assert "Play on the map below" in intro.value and "Course" in intro.value
    app.open_course()
    assert app.top.layout.display == "none"  # the intro with the bar, out of the lesson's way
    app.close_course()
    assert app.top.layout.display is None and intro.layout.display is None
    assert all("cheren-intro" not in c._dom_classes for c in App().top.children)  # only the page's app


def test_cheren_app_hands_a_teachers_folders_to_the_app_and_refuses_a_missing_one(teacher: Path) -> None:
    env = lessons_env([teacher], {})
    assert env["CHEREN_LESSONS"] == str(teacher.resolve())
    with pytest.raises(LaunchError, match="no such folder"):
        lessons_env([teacher / "nope"], {})
    assert "CHEREN_LESSONS" not in lessons_env(None, {})


def test_cheren_lessons_lists_and_checks_a_teachers_folder(teacher: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lessons", "--lessons", str(teacher)]) == 0
    out = capsys.readouterr().out
    assert "teachers-roads" in out and "The course: 11 lessons" in out
    assert main(["lessons", "check", str(teacher)]) == 0
    assert "ok   roads.yaml: 2 exercises" in capsys.readouterr().out


def test_the_course_folders_come_from_the_environment(scenario: Scenario, teacher: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CHEREN_LESSONS", os.pathsep.join([str(teacher), str(teacher / "missing")]))
    c = CourseController(scenario)
    assert "teachers-roads" in [lesson.name for lesson in c.lessons]
    assert any("missing: no such folder" in p for p in c.problems)


def test_a_lessons_decisions_offer_every_answer_and_refuse_the_wrong_ones_with_the_rule(
    scenario: Scenario, tmp_path: Path
) -> None:
    """Lesson 6: the retreat offered one button, the answer; the advance only 10 Ind.  Now every
    neighbour and every attacker is offered, and the rules refuse the wrong ones with their reason."""
    from cheren.app.lesson_app import LessonApp

    app = LessonApp("losses-retreat-push-advance", 0, scenario=scenario, folders=[], progress=tmp_path / "p.json")
    b = app.board
    offered = {label: why for label, _, why in b.decisions.candidates()}
    retreats = [label for label in offered if label.startswith("retreat Col 41 to ")]
    assert len(retreats) == 6 and "stay and lose a step instead of retreating" in offered
    assert [label for label, why in offered.items() if why is None] == [
        "retreat Col 41 to 0709", "stay and lose a step instead of retreating"]
    assert set(b.decisions.marked_hexes()) == {h for h in H("0609").neighbours()}  # no give-away on the map
    wrong = next((a, why) for label, a, why in b.decisions.candidates() if why is not None and "0610" in label)
    fb = b.decisions.offer(*wrong)
    assert fb.kind == "refused" and fb.rules == ("11.7",) and app.run.refusals
    assert len(b.game.log) == app.run.start_actions  # nothing happened
    app.choose(3)  # the advance after combat
    offered = {label: why for label, _, why in b.decisions.candidates()}
    assert set(offered) == {"advance 10 Ind", "advance 28 Fd RA", "advance no further"}
    why = offered["advance 28 Fd RA"]
    assert why is not None and why.rules == ("11.9",) and "artillery never advances" in why.reason
