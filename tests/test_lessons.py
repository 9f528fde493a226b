"""The course: lessons as data, exercises the engine judges, hints, stars and progress, the
rules reference, and every way a lesson file can be wrong."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cheren.cli.main import main
from cheren.engine.rule_summaries import RULES, summary, tooltip
from cheren.files import position_problems
from cheren.hexes import Hex
from cheren.scenario import Side, load_scenario
from cheren.study.lessons import ExerciseRun, LessonError, course, load_lesson, parse_lesson_text, start_position
from cheren.study.lessons.check import check_lesson
from cheren.study.lessons.model import Exercise
from cheren.study.lessons.stars import Progress, ProgressError, load_progress

SCENARIO = load_scenario()
COURSE = course(SCENARIO)
EXERCISES = [(lesson, e) for lesson in COURSE for e in lesson.exercises]
WRONG = [(lesson, e, i) for lesson, e in EXERCISES for i in range(len(e.wrong))]


def _id(item: tuple[object, ...]) -> str:
    lesson, exercise = item[0], item[1]
    return f"{lesson.name}/{exercise.id}" + (f"/wrong{item[2]}" if len(item) > 2 else "")  # type: ignore[attr-defined]


# -- the course as a whole -----------------------------------------------------------------
def test_the_course_has_ten_lessons_in_the_order_of_play_and_thirty_exercises() -> None:
    assert len(COURSE) >= 10
    assert len(EXERCISES) >= 30
    assert [lesson.model.order for lesson in COURSE] == sorted(lesson.model.order for lesson in COURSE)
    assert [lesson.name for lesson in COURSE][:2] == ["map-and-terrain", "zones-of-control"]
    for lesson in COURSE:
        assert len(lesson.exercises) >= 3, lesson.name


def test_every_lesson_has_an_exercise_where_the_learner_provokes_a_refusal() -> None:
    for lesson in COURSE:
        assert any(t.refused is not None for e in lesson.exercises for t in e.success), lesson.name


def test_every_lesson_has_a_notebook_in_notebooks_learn() -> None:
    from cheren.app.course import notebook_name

    folder = Path(__file__).resolve().parents[1] / "notebooks" / "learn"
    for lesson in COURSE:
        notebook = folder / notebook_name(lesson)
        assert notebook.is_file(), notebook
        sources = "".join("".join(c["source"]) for c in json.loads(notebook.read_text())["cells"])
        assert f'CourseView("{lesson.name}")' in sources
    assert (folder / "00_start_here.ipynb").is_file()


# -- every exercise proves itself -------------------------------------------------------------
@pytest.mark.parametrize("item", EXERCISES, ids=_id)
def test_the_start_position_is_legal_and_the_learner_acts(item: tuple[object, Exercise]) -> None:
    lesson, exercise = item
    assert position_problems(start_position(lesson, exercise, SCENARIO)) == []  # type: ignore[arg-type]
    run = ExerciseRun(lesson, exercise, SCENARIO)  # type: ignore[arg-type]
    assert run.game.acting is exercise.side
    assert not run.passed(), "an exercise must not be solved before the learner acts"
    assert run.check().text.startswith("Nothing done yet")


@pytest.mark.parametrize("item", EXERCISES, ids=_id)
def test_the_solution_passes_its_tests(item: tuple[object, Exercise]) -> None:
    lesson, exercise = item
    run = ExerciseRun(lesson, exercise, SCENARIO)  # type: ignore[arg-type]
    run.play(exercise.solution)
    verdict = run.check()
    assert verdict.passed, verdict.text
    assert verdict.stars == 3
    for test in exercise.success:
        if test.refused is not None:  # the refusal the learner provokes cites its rule
            assert any(test.refused.rule in fb.rules for fb in run.refusals)


@pytest.mark.parametrize("item", WRONG, ids=_id)
def test_each_listed_wrong_answer_fails_with_its_feedback_and_rule(item: tuple[object, Exercise, int]) -> None:
    lesson, exercise, i = item
    wrong = exercise.wrong[i]
    run = ExerciseRun(lesson, exercise, SCENARIO)  # type: ignore[arg-type]
    run.play(wrong.steps)
    verdict = run.check()
    assert not verdict.passed
    assert wrong.feedback.strip() in verdict.text
    assert wrong.rule in verdict.rules


@pytest.mark.parametrize("item", EXERCISES, ids=_id)
def test_the_solution_clicked_in_the_app_passes_too(item: tuple[object, Exercise]) -> None:
    """The runner plays steps on the game itself; the app's lesson mode plays them as clicks on
    the board.  Both must mean the same: what a lesson checks is what a learner can click."""
    from cheren.app.board import Board
    from cheren.app.lesson_mode import LessonMode

    lesson, exercise = item
    run = ExerciseRun(lesson, exercise, SCENARIO)  # type: ignore[arg-type]
    mode = LessonMode(Board(run.game), run)
    said = [mode.play_step(step) for step in exercise.solution]
    verdict = mode.check()
    assert verdict.passed, (verdict.text, [str(fb) for fb in said])
    for i, wrong in enumerate(exercise.wrong):
        trial = ExerciseRun(lesson, exercise, SCENARIO)  # type: ignore[arg-type]
        mode = LessonMode(Board(trial.game), trial)
        for step in wrong.steps:
            mode.play_step(step)
        assert mode.check().wrong is wrong, f"wrong[{i}] clicked in the app is not recognised"


def test_cheren_lessons_check_is_green(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lessons", "check"]) == 0
    out = capsys.readouterr().out
    assert f"{len(COURSE)} of {len(COURSE)} lessons ok" in out


# -- the rules' worked examples, as a learner meets them -------------------------------------
def _lined_up(lesson: str, exercise: str) -> str:
    run = ExerciseRun(load_lesson(lesson, SCENARIO), exercise, SCENARIO)
    run.play(run.exercise.solution)
    w = run.whatif()
    return str(w.odds.column_name)


def test_11_0_seventeen_against_five_is_3_to_1_in_the_lesson() -> None:
    run = ExerciseRun(load_lesson("combat-odds", SCENARIO), "seventeen-against-five", SCENARIO)
    run.play(run.exercise.solution)
    odds = run.whatif().odds
    assert (odds.attack_sp, odds.defence_sp, odds.raw, odds.column_name) == (17, 5, "3-1", "3-1")


def test_11_1_the_terrain_shift_turns_5_to_1_into_3_to_1_in_the_lesson() -> None:
    run = ExerciseRun(load_lesson("combat-odds", SCENARIO), "terrain-shift", SCENARIO)
    run.play(run.exercise.wrong[0].steps)  # 10 against 2 in rough Sabderat
    odds = run.whatif().odds
    assert (odds.raw, odds.column_name) == ("5-1", "3-1")
    assert any(s.rule == "11.1" for s in odds.shifts)


def test_11_4_support_turns_2_to_1_into_3_to_1_in_the_lesson() -> None:
    run = ExerciseRun(load_lesson("combat-odds", SCENARIO), "support-shift", SCENARIO)
    run.play(run.exercise.solution)
    odds = run.whatif().odds
    assert (odds.raw, odds.column_name) == ("2-1", "3-1")
    assert any(s.rule == "11.4" for s in odds.shifts)


def test_12_1_the_arressa_example() -> None:
    """The brigade in Arressa is supplied along the track (the unit in the mountains has no
    ZoC); the 3-6 in the hills beside it is not (hills and enemy ZoC: a line of 1 hex)."""
    from cheren.engine.rules.supply import unit_supply

    run = ExerciseRun(load_lesson("supply", SCENARIO), "arressa-example", SCENARIO)
    assert unit_supply(run.game.position, "ind_10").supplied
    trace = unit_supply(run.game.position, "comm_51")
    assert not trace.supplied
    assert "hill hex" in str(trace) and "enemy ZoC" in str(trace)


# -- how an exercise is worked: by clicks, with hints, stars and the solution ----------------
def test_an_exercise_solved_by_clicks_with_one_hint_earns_two_stars(tmp_path: Path) -> None:
    from cheren.app.board import Board
    from cheren.app.lesson_mode import LessonMode

    progress = Progress.open(tmp_path / "progress.json")
    lesson = load_lesson("map-and-terrain", SCENARIO)
    run = ExerciseRun(lesson, "drive-by-road", SCENARIO,
                      on_solved=lambda r, v: progress.record(lesson.key(r.exercise), v.stars))
    board = Board(run.game)
    mode = LessonMode(board, run)
    assert mode.hint() == lesson.exercises[0].hints[0]
    board.click_hex(Hex.from_label("0208"))            # select the Tank (the first unit that can move)
    if board.selected != "tank_sqn":
        board.click_hex(Hex.from_label("0208"))        # a second click cycles through the stack
    assert board.selected == "tank_sqn"
    board.click_hex(Hex.from_label("0911"))
    verdict = mode.check()
    assert verdict.passed and verdict.stars == 2
    saved = json.loads((tmp_path / "progress.json").read_text())
    assert saved["exercises"]["map-and-terrain/drive-by-road"]["stars"] == 2


def test_hints_run_out_and_the_solution_earns_no_star() -> None:
    run = ExerciseRun(load_lesson("zones-of-control", SCENARIO), "hard-zoc-stops", SCENARIO)
    hints = [run.hint() for _ in range(4)]
    assert hints[:3] == run.exercise.hints and hints[3] is None
    run.show_solution()
    verdict = run.check()
    assert verdict.passed and verdict.stars == 0


def test_an_unexpected_mistake_says_what_was_done_and_never_the_answer() -> None:
    run = ExerciseRun(load_lesson("map-and-terrain", SCENARIO), "drive-by-road", SCENARIO)
    run.do({"move": {"unit": "tank_sqn", "to": "0210"}})
    verdict = run.check()
    assert not verdict.passed and verdict.wrong is None
    assert verdict.text == "Not yet: Tank is in 0210, not where the goal asks."
    assert verdict.account == ("Tank moves 0208 -> 0210 for 2 MP",)  # the engine's event
    assert "0911" not in str(verdict)  # the hex that would do is the answer: never said


def test_reset_goes_back_to_the_start_and_keeps_the_hints_taken() -> None:
    run = ExerciseRun(load_lesson("map-and-terrain", SCENARIO), "drive-by-road", SCENARIO)
    run.hint()
    run.play(run.exercise.solution)
    run.reset()
    assert run.game.position.units["tank_sqn"].hex == Hex.from_label("0208")
    assert run.hints_shown == 1 and run.refusals == []


def test_the_other_side_only_passes_and_never_moves() -> None:
    run = ExerciseRun(load_lesson("sequence-of-play", SCENARIO), "step-through-a-turn", SCENARIO)
    before = run.game.position.units["col_5"].hex
    run.play(run.exercise.solution)
    assert run.game.position.units["col_5"].hex == before
    assert all(e.side is Side.ALLIED or e.action.kind in ("end_phase", "pass_chit") for e in run.game.log)


# -- progress --------------------------------------------------------------------------------
def test_progress_keeps_the_best_stars_and_survives_a_reload(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "progress.json"
    p = Progress.open(path)
    p.record("stacking/two-terrains", 1)
    p.record("stacking/two-terrains", 3)
    p.record("stacking/two-terrains", 2)
    again = load_progress(path)
    assert again.stars == {"stacking/two-terrains": 3} and again.is_solved("stacking/two-terrains")


@pytest.mark.parametrize(
    "text, message",
    [
        ("{not json", "not valid JSON"),
        ('{"format": "other"}', "not a cheren progress file"),
        ('{"format": "cheren-progress", "version": 9, "exercises": {}}', "version 9"),
        ('{"format": "cheren-progress", "version": 1, "exercises": {"a/b": {"stars": 7, "solved": "x"}}}',
         "stars 0-3"),
        ("[" * 5000 + "]" * 5000, "progress file"),
    ],
)
def test_a_bad_progress_file_is_named_and_never_overwritten(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "progress.json"
    path.write_text(text)
    with pytest.raises(ProgressError, match=re.escape(message)) as info:
        load_progress(path)
    assert str(path) in str(info.value)
    p = Progress.open(path)
    assert p.problem is not None
    p.record("stacking/two-terrains", 3)  # kept in memory only
    assert path.read_text() == text


# -- lesson files a teacher gets wrong ---------------------------------------------------------
GOOD = """
name: tiny
title: A tiny lesson
order: 50
rules: ["9.1"]
blocks:
  - text: Tanks and mountains.
exercises:
  - id: one
    title: One
    goal: Try the mountain.
    side: allied
    position:
      turn: 2
      units:
        - {unit: Tank, hex: "1708"}
        - {unit: Col 5, hex: "2205"}
      allied_control: [Agordat]
    success:
      - refused: {rule: "9.1"}
    solution:
      - move: {unit: Tank, to: "1808"}
"""


def test_a_teacher_writes_a_new_exercise_without_python() -> None:
    lesson = parse_lesson_text(GOOD, "tiny.yaml")
    report = check_lesson(lesson, SCENARIO)
    assert report.ok, report.problems


@pytest.mark.parametrize(
    "change, message",
    [
        (("    success:\n", "    hints:\n      - Look here: the mountain.\n    success:\n"), "put the text in quotes"),
        (("goal: Try the mountain.", "goal: Tip: try the mountain."), "not valid YAML at line 11"),
        (("- move: {unit: Tank, to: \"1808\"}", "- fly: {unit: Tank}"), "unknown key 'fly'"),
        (('hex: "1708"', "hex: 1708"), 'write the hex label in quotes'),
        (("unit: Tank, hex", "unit: Tiger, hex"), "Tiger"),
        (('hex: "1708"', 'hex: "1808"'), "mountain"),
        (('rule: "9.1"', 'rule: "nine"'), "rule"),
        (("order: 50", "order: fifty"), "order"),
        (("side: allied", "side: french"), "side"),
    ],
)
def test_a_bad_lesson_file_is_refused_naming_the_file_and_field(change: tuple[str, str], message: str) -> None:
    text = GOOD.replace(*change)
    assert text != GOOD
    with pytest.raises(LessonError) as info:
        lesson = parse_lesson_text(text, "tiny.yaml")
        ExerciseRun(lesson, 0, SCENARIO)
    assert "tiny.yaml" in str(info.value)
    assert message in str(info.value)


def test_a_solution_that_does_not_pass_is_reported_by_the_check() -> None:
    text = GOOD.replace('to: "1808"', 'to: "1707"')
    report = check_lesson(parse_lesson_text(text, "tiny.yaml"), SCENARIO)
    assert not report.ok
    assert "exercises[one].solution: does not pass" in str(report.problems[0])


def test_a_wrong_answer_that_passes_is_reported_by_the_check() -> None:
    text = GOOD + """    wrong:
      - steps:
          - move: {unit: Tank, to: "1808"}
        feedback: This is the solution itself.
        rule: "9.1"
"""
    report = check_lesson(parse_lesson_text(text, "tiny.yaml"), SCENARIO)
    assert "passes the exercise's tests: it is not a wrong answer" in str(report.problems)


def test_cheren_lessons_check_fails_on_a_broken_lesson_and_lists_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(GOOD.replace('to: "1808"', 'to: "1707"'))
    assert main(["lessons", "check", str(bad)]) == 1
    assert "FAIL bad.yaml" in capsys.readouterr().out
    broken = tmp_path / "broken.yaml"
    broken.write_text("name: [")
    assert main(["lessons", "check", str(broken)]) == 1
    assert "broken.yaml" in capsys.readouterr().err
    assert main(["lessons"]) == 0
    listing = capsys.readouterr().out
    assert "zones-of-control" in listing and "exercises" in listing


def test_the_lesson_schema_is_printed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", "--file", "lesson"]) == 0
    schema = json.loads(capsys.readouterr().out)["lesson file"]
    assert "exercises" in schema["properties"]


# -- the rules reference -------------------------------------------------------------------------
def test_every_rule_number_cited_by_the_engine_and_the_lessons_has_a_summary() -> None:
    root = Path(__file__).resolve().parents[1] / "cheren"
    cited: set[str] = set()
    for path in root.rglob("*.py"):
        # "(12.1)" or "(9.0, 11.7)" in text, not a call such as _figure(6.4, 3.6)
        cited |= set(re.findall(r"(?<=[\s\"'])\((\d{1,2}\.\d)[,)]", path.read_text()))
        cited |= set(re.findall(r'rules=\("(\d{1,2}\.\d)"', path.read_text()))
        cited |= set(re.findall(r'Refusal\(\("(\d{1,2}\.\d)"', path.read_text()))
    cited |= {r for lesson in COURSE for r in lesson.model.rules}
    cited = {r for r in cited if 1 <= int(r.split(".")[0]) <= 15}
    missing = sorted(r for r in cited if summary(r) is None)
    assert missing == []
    assert len(cited) > 30


def test_rule_summaries_are_the_projects_own_words_and_open_from_any_badge() -> None:
    rules_text = (Path("/work/shared/rules/road_to_cheren_rules.md"))
    numbers = [r.number for r in RULES]
    assert len(numbers) == len(set(numbers))
    assert tooltip("11.7").startswith("11.7 Retreat:")
    assert summary("12.5-6") is not None and summary("12.5-6").number == "12.5"  # type: ignore[union-attr]
    if rules_text.exists():  # no sentence of the rulebook pasted: no run of 8 words in common
        source = " ".join(rules_text.read_text().split()).lower()
        texts = [r.summary for r in RULES] + [lesson.path.read_text() for lesson in COURSE if lesson.path]
        for text in texts:
            words = " ".join(text.split()).lower().split()
            for i in range(len(words) - 7):
                assert " ".join(words[i:i + 8]) not in source, words[i:i + 8]


def test_solving_an_exercise_in_the_app_keeps_the_map_and_marks_the_picker(tmp_path: Path) -> None:
    from cheren.app.lesson_app import LessonApp

    app = LessonApp("map-and-terrain", 2, progress=tmp_path / "p.json")
    app.board.play.select("tank_sqn")
    app.board.click_hex(Hex.from_label("1808"))
    assert app.check().passed
    assert app.run.exercise.id == "tanks-and-mountains" and app.run.refusals
    assert app.picker.options[2][0].endswith("★★★") and "1 of 3 solved" in app.count.value
    app.choose(0)
    assert app.run.exercise.id == "drive-by-road" and "By road to Aicota" in app.goal.value
    assert app.hint() == app.run.exercise.hints[0] and "Hint 1 of 3" in app.verdict.value
    app.show_solution()
    assert app.board.position.units["tank_sqn"].hex == Hex.from_label("0911")
    assert app.check().stars == 0


def test_the_readme_example_exercise_for_teachers_passes_the_check() -> None:
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    section = readme.split("### Writing an exercise (for teachers)", 1)[1]
    example = section.split("```yaml\n", 1)[1].split("```", 1)[0]
    text = GOOD.split("exercises:\n", 1)[0] + "exercises:\n" + example
    lesson = parse_lesson_text(text, "readme.yaml")
    report = check_lesson(lesson, SCENARIO)
    assert report.ok, report.problems
    assert report.exercises == 1 and report.wrong_answers == 1


def test_undo_never_takes_back_an_exercises_setup_only_the_learners_own_moves(tmp_path: Path) -> None:
    """An exercise whose setup played actions through the gate (the opponent's chit pass): Undo
    starts greyed out and refuses; after the learner's move it takes back that move only, to the
    exercise's own start."""
    from cheren.app.lesson_app import LessonApp

    app = LessonApp("map-and-terrain", 0, progress=tmp_path / "p.json")
    assert app.run.start_actions > 0  # the setup is in the game's log: what Undo used to take back
    assert app.app is not None
    start = app.board.position.copy()
    assert app.app.undo_button.disabled
    said = app.board.play.undo()
    assert said.kind == "refused" and "exercise starts here" in said.text
    assert app.board.position.units == start.units and len(app.board.game.log) == app.run.start_actions
    app.mode.play_step(app.run.exercise.solution[0])
    assert len(app.board.game.log) > app.run.start_actions and not app.app.undo_button.disabled
    assert app.board.play.undo().kind == "ok"
    assert app.board.position.units == start.units and app.app.undo_button.disabled
