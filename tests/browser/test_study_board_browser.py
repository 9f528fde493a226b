"""The study board in a real browser (issue 30), in `cheren app` (notebooks/app.ipynb in Voila):
a position opened from the toolbar's picker (a library position, then a pasted code) is studied
without a curtain, both hands shown, its question and narrative beside the map; played hot-seat
instead, it opens behind a curtain whose text is readable (WCAG AA contrast).  Kassala opens on
the Italian chit window (the hidden hand matters at once); Agordat on the Allied Combat phase
of 28 January, where a new user's study starts with an attack."""

from __future__ import annotations

from functools import cache
from typing import Any

from playwright.sync_api import expect

from cheren import load_scenario
from cheren.app.board import Board
from cheren.app.position_view import library_label
from cheren.engine.game import Game
from cheren.engine.position import chit_key
from cheren.files import open_position, position_code
from cheren.hexes import Hex
from cheren.scenario import Scenario, Side
from tests.browser.conftest import TIMEOUT_MS
from tests.browser.test_app_landing_browser import open_app
from tests.browser.test_positions_browser import APP_CANVAS, FIT, Canvas

expect.set_options(timeout=TIMEOUT_MS)
H = Hex.from_label
CONTRAST = """(sel) => { const box = document.querySelector(sel);
  const lum = (c) => { const [r, g, b] = c.match(/\\d+(\\.\\d+)?/g).slice(0, 3).map(Number).map(v => {
      v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const bg = getComputedStyle(box).backgroundColor;
  return [...box.querySelectorAll('h3, p')].map(el => { const fg = getComputedStyle(el).color;
    const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x); return (a + 0.05) / (b + 0.05); }); }"""


@cache
def scenario() -> Scenario:
    return load_scenario()


def hand(name: str, side: Side) -> list[str]:
    s = scenario()
    p = open_position(name, s).position
    return [s.chits[chit_key(c)].name for c in p.chits.hands[side]]


def open_from_library(page: Any, name: str, *, play: bool = False) -> None:
    page.locator("button.cheren-open-position").first.click()
    picker = page.locator(".cheren-picker").first
    expect(picker).to_be_visible()
    picker.locator(".cheren-library select").select_option(label=library_label(open_position(name, scenario())))
    expect(picker.locator(".cheren-library-detail")).to_contain_text(open_position(name, scenario()).title)
    picker.locator(".cheren-open-seating button", has_text="Play it" if play else "Study it").click()
    picker.locator("button.cheren-open-go").click()
    expect(page.locator(".cheren-feedback").first).to_contain_text("Opened")


def test_voila_opens_a_position_for_study_without_a_curtain_and_a_code(page: Any, voila_url: str) -> None:
    open_app(page, voila_url)
    open_from_library(page, "kassala")
    record = open_position("kassala", scenario())
    panel = page.locator(".cheren-position-panel").first
    expect(panel).to_contain_text(record.title)
    expect(panel).to_contain_text(record.sources[0][:30])
    expect(page.locator(".cheren-curtain").first).to_be_hidden()
    expect(page.locator(".cheren-bar").first).to_have_attribute("data-turn", "1")
    chits = page.locator(".cheren-chits").first
    for side in Side:
        for name in hand("kassala", side):
            expect(chits).to_contain_text(name)
    # the Italian chit window opens the position: answer it, and the Allies act, still no curtain
    page.locator(".cheren-answer-pass_chit:visible").first.click()
    expect(page.locator(".cheren-bar").first).to_have_attribute("data-pending", "0")
    expect(page.locator(".cheren-curtain").first).to_be_hidden()
    expect(page.locator(".cheren-body").first).to_be_visible()

    # a code pasted into the picker
    other = open_position("cheren-first-assault", scenario())
    page.locator("button.cheren-open-position").first.click()
    page.locator(".cheren-open-code input").first.fill(position_code(other.position))
    page.locator("button.cheren-open-code-go").first.click()
    expect(page.locator(".cheren-feedback").first).to_contain_text("Opened a position from its code")
    expect(page.locator(".cheren-bar").first).to_have_attribute("data-turn", str(other.position.turn))
    expect(page.locator(".cheren-picker").first).to_be_hidden()
    assert not page.evaluate("() => document.querySelector('.cheren-open-code input').value")
    # nonsense is refused with the reason, and the position on the board stays
    page.locator("button.cheren-open-position").first.click()
    page.locator(".cheren-open-code input").first.fill("C1-nonsense")
    page.locator("button.cheren-open-code-go").first.click()
    expect(page.locator(".cheren-feedback .cheren-msg.refused").first).to_contain_text("Could not open")
    expect(page.locator(".cheren-bar").first).to_have_attribute("data-turn", str(other.position.turn))


def test_voila_a_position_played_hot_seat_opens_behind_a_readable_curtain(page: Any, voila_url: str) -> None:
    open_app(page, voila_url)
    open_from_library(page, "kassala", play=True)  # the Italian chit window: the Allied player sat down
    curtain = page.locator(".cheren-curtain").first
    expect(curtain).to_be_visible()
    expect(curtain).to_contain_text("Hand over to the Italian player")
    expect(page.locator(".cheren-body").first).to_be_hidden()
    ratios = page.evaluate(CONTRAST, ".cheren-curtain")
    assert ratios and min(ratios) >= 4.5, ratios  # WCAG AA for normal text
    page.locator(".cheren-reveal").first.click()
    expect(page.locator(".cheren-chits").first).to_contain_text(hand("kassala", Side.ITALIAN)[0])


def end_phase(page: Any, rows: Any) -> None:
    """One End phase as an action of the line (clicked again after the stacking warning of 3.1)."""
    before = rows.count()
    for _ in range(3):
        page.locator("button.cheren-end-phase").first.click()
        try:
            expect(rows).to_have_count(before + 1, timeout=5_000)
            return
        except AssertionError:
            continue
    expect(rows).to_have_count(before + 1)


def test_voila_the_move_list_steps_with_the_arrow_keys_and_branches_at_an_earlier_move(
    page: Any, voila_url: str
) -> None:
    open_app(page, voila_url)
    open_from_library(page, "agordat")  # Allied Combat: End phase twice, then the Italian's window
    rows = page.locator(".cheren-moves .cheren-move")
    bar = page.locator(".cheren-bar").first
    expect(rows).to_have_count(1)  # the start only
    end_phase(page, rows)
    end_phase(page, rows)
    expect(bar).to_have_attribute("data-pending", "1")  # the Italian chit window of the Exploitation phase
    page.locator(".cheren-answer-pass_chit:visible").first.click()
    expect(rows).to_have_count(4)
    on = page.locator(".cheren-moves .cheren-move.on")
    expect(on).to_have_attribute("data-n", "3")
    page.locator(".cheren-move[data-n='1'] .cheren-move-go").click()
    expect(on).to_have_attribute("data-n", "1")
    expect(page.locator(".cheren-move[data-n='3']")).to_have_class("cheren-move ahead")
    page.keyboard.press("ArrowRight")
    expect(on).to_have_attribute("data-n", "2")
    expect(bar).to_have_attribute("data-pending", "1")  # the Italian window again
    page.keyboard.press("ArrowLeft")
    expect(on).to_have_attribute("data-n", "1")
    page.keyboard.press("End")
    expect(on).to_have_attribute("data-n", "3")
    page.keyboard.press("Home")
    expect(on).to_have_attribute("data-n", "0")
    expect(bar).to_have_attribute("data-phase", "combat")  # the position as it opened
    # the keys work with the map focused too
    page.locator("canvas.cheren-map").first.click(position={"x": 4, "y": 4})
    page.keyboard.press("ArrowRight")
    expect(on).to_have_attribute("data-n", "1")
    # branch at an earlier move: the new line starts after move 1 and the main line keeps its 3
    page.locator("button.cheren-branch").first.click()
    line = page.locator(".cheren-line[data-line='line 1']")
    expect(line).to_have_attribute("data-current", "1")
    expect(line).to_contain_text("from main after 1")
    expect(page.locator(".cheren-line[data-line='main']")).to_contain_text("3 actions")
    expect(rows).to_have_count(2)
    expect(page.locator(".cheren-move[data-n='1'] .cheren-move-branch")).to_contain_text("main")


def test_voila_play_outs_run_in_the_background_the_map_answers_and_stop_keeps_the_games(
    page: Any, voila_url: str
) -> None:
    import statistics
    import time

    from tests.browser.conftest import TIMINGS

    open_app(page, voila_url)
    open_from_library(page, "kassala")
    page.locator(".cheren-answer-pass_chit:visible").first.click()
    expect(page.locator(".cheren-bar").first).to_have_attribute("data-pending", "0")
    board = Board(Game.from_position(open_position("kassala", scenario()).position))
    m = Canvas(page, APP_CANVAS, board.scene(), fit=FIT)
    # Italian stacks: the Allies are to move, so a click on one only looks at it, never moves anything
    italian = {u.hex for u in board.position.units.values() if u.hex is not None and u.side is Side.ITALIAN}
    stacks = sorted(italian)[:6]

    def clicks() -> list[float]:
        out = []
        for h in stacks:  # each click answered: the selection on the map and in the side panel
            t0 = time.monotonic()
            m.click(h)
            page.wait_for_selector(f".cheren-selected[data-hex='{h.label}']", timeout=TIMEOUT_MS)
            out.append(time.monotonic() - t0)
        return out

    idle = clicks()
    page.locator(".cheren-analysis-panel input[type=number]").first.fill("400")
    page.locator(".cheren-analysis-panel select").first.select_option("random")
    page.locator("button.cheren-playout").first.click()
    gauge = page.locator(".cheren-gauge").first
    expect(gauge).to_have_attribute("data-state", "running")
    page.wait_for_function(
        "() => +document.querySelector('.cheren-gauge').dataset.games >= 1", timeout=120_000)
    busy = clicks()
    expect(gauge).to_have_attribute("data-state", "running")  # every click was answered during the run
    TIMINGS.append(f"Voila, a click on the map answered in {statistics.median(busy) * 1000:.0f} ms while play-outs "
                   f"run, {statistics.median(idle) * 1000:.0f} ms before (medians of {len(busy)} clicks; "
                   f"max {max(busy) * 1000:.0f} ms)")
    page.locator("button.cheren-playout-stop").first.click()
    expect(gauge).to_have_attribute("data-state", "stopped")
    kept = int(gauge.get_attribute("data-games") or 0)
    assert 1 <= kept < 400
    expect(gauge).to_contain_text(f"Stopped: {kept} of 400 play-outs finished and kept")
    page.wait_for_timeout(3000)
    assert int(gauge.get_attribute("data-games") or 0) == kept  # nothing counted after Stop
    expect(page.locator(".cheren-playout-chart").first).to_be_visible()


CLIPPED = """() => { const box = document.querySelector('.cheren-report-box');
  const edge = box.getBoundingClientRect();
  const out = [];
  for (const el of box.querySelectorAll('.cheren-analysis-report table, .cheren-analysis-report h1, '
                                        + '.cheren-analysis-report h2, .cheren-analysis-report h3')) {
    const r = el.getBoundingClientRect();
    if (el.scrollWidth > el.clientWidth + 1 || r.right > edge.right + 1 || r.left < edge.left - 1)
      out.push(el.tagName + ': ' + el.textContent.slice(0, 40));
    for (let p = el.parentElement; p && p !== box; p = p.parentElement) {
      const s = getComputedStyle(p);
      if ((s.overflowX !== 'visible' || s.overflowY !== 'visible') && (p.scrollHeight > p.clientHeight + 1
          || p.scrollWidth > p.clientWidth + 1)) { out.push('scrolled in ' + p.className); break; }
    }
  }
  return out; }"""


def test_voila_the_report_takes_the_maps_place_whole(page: Any, voila_url: str) -> None:
    open_app(page, voila_url)
    open_from_library(page, "agordat")
    page.locator("button.cheren-analyse").first.click()
    report = page.locator(".cheren-analysis-report").first
    expect(report).to_be_visible()  # the Report tab comes forward by itself
    expect(report.locator("table").first).to_be_visible()
    assert page.locator(".cheren-analysis-report table").count() >= 3
    assert page.evaluate(CLIPPED) == []
    box = page.locator(".cheren-report-box").first.bounding_box()
    assert box is not None and box["width"] >= 600  # the map's width, not a side panel's 330 px
    page.locator(".cheren-map-tabs .lm-TabBar-tab, .cheren-map-tabs .p-TabBar-tab").first.click()
    expect(page.locator("canvas.cheren-map").first).to_be_visible()


def test_voila_a_new_users_study_of_agordat_from_start_to_comparison(page: Any, voila_url: str) -> None:
    """Issue 30, tried as a new user would: `cheren app` -> open "agordat" -> read its question ->
    run a play-out and stop it -> branch at the second move -> compare the two lines, without a
    curtain and without leaving the app.  Agordat stands at the Allied Combat phase: the first
    move is the attack on the town, the second the Italian's answer (no chit, then Ambush)."""
    from cheren.app.positions import question_text

    open_app(page, voila_url)
    url = page.url
    curtain = page.locator(".cheren-curtain").first
    open_from_library(page, "agordat")
    record = open_position("agordat", scenario())
    panel = page.locator(".cheren-position-panel").first
    expect(panel).to_contain_text(record.title)
    assert question_text(record)  # the corrected Agordat puts the Allied question
    expect(panel.locator(".cheren-question")).to_contain_text(question_text(record)[:40])
    expect(panel.locator(".cheren-narrative")).to_contain_text(record.narrative.strip()[:30].replace("**", ""))

    # a play-out in the background, stopped: its finished games are kept
    page.locator(".cheren-analysis-panel input[type=number]").first.fill("300")
    page.locator(".cheren-analysis-panel select").first.select_option("random")
    page.locator("button.cheren-playout").first.click()
    page.wait_for_function("() => +document.querySelector('.cheren-gauge').dataset.games >= 1", timeout=120_000)
    page.locator("button.cheren-playout-stop").first.click()
    expect(page.locator(".cheren-gauge").first).to_have_attribute("data-state", "stopped")

    # move 1: the attack on Agordat (1708) by the stacks west and south of it, rolled
    m = Canvas(page, APP_CANVAS, Board(Game.from_position(record.position)).scene(), fit=FIT)
    rows = page.locator(".cheren-moves .cheren-move")
    expect(rows).to_have_count(1)
    m.click(H("1708"))
    expect(page.locator(".cheren-feedback").first).to_contain_text("Defender: 1708")
    for h in ("1608", "1709"):
        m.click(H(h))
        expect(page.locator(".cheren-feedback").first).to_contain_text(f"({h}) to the attack")
    page.locator("button.cheren-resolve").first.click()
    expect(rows).to_have_count(2)
    # move 2: the Italian plays no chit on it; the die is rolled
    page.locator(".cheren-answer-pass_chit:visible").first.click()
    expect(rows).to_have_count(3)
    expect(page.locator(".cheren-feedback").first).to_contain_text("die")
    # back to move 1, another second move (Ambush): a new line parts at the second move
    page.locator(".cheren-move[data-n='1'] .cheren-move-go").click()
    expect(page.locator(".cheren-moves .cheren-move.on")).to_have_attribute("data-n", "1")
    page.locator(".cheren-answer-play_chit:visible", has_text="Ambush").first.click()
    expect(page.locator(".cheren-feedback").first).to_contain_text("new line 'line 1' from main after 1 actions")
    expect(page.locator(".cheren-line[data-line='line 1']")).to_have_attribute("data-current", "1")
    expect(page.locator(".cheren-line[data-line='main']")).to_contain_text("2 actions")
    # compare the two lines: where they part and the dice each rolled
    page.locator(".cheren-line-select select").select_option(label="main")
    page.locator("button.cheren-compare").click()
    comparison = page.locator(".cheren-comparison").first
    expect(comparison).to_contain_text("they share the first 1 actions")
    expect(comparison).to_contain_text("dice rolled since they parted")
    for line in ("line 1", "main"):  # each line whole, with the die its answer rolled
        expect(comparison).to_contain_text(f"Dice of {line}")
    expect(curtain).to_be_hidden()  # never a curtain
    assert page.url == url  # never left the app


PANEL_CLIPPED = """(sel) => { const box = document.querySelector(sel); const edge = box.getBoundingClientRect();
  return [...box.querySelectorAll('p, table')].filter(el => { const r = el.getBoundingClientRect();
    return r.width > 0 && (r.right > edge.right + 1 || r.left < edge.left - 1); })
    .map(el => el.tagName + ': ' + el.textContent.slice(0, 40)); }"""


def test_voila_a_new_users_answer_key_of_agordat_from_the_question_to_the_comparison(
    page: Any, voila_url: str
) -> None:
    """Issue 32, tried as a new user would, in `cheren app`: open the Agordat position, read its
    question, play the historical plan (a line of its own, its attack rolled), compare it with the
    analysis's best alternative (2 games each, in the background: the board answers meanwhile),
    the numbers and what they mean readable in the side panel."""
    from cheren.app.answer_key_panel import HISTORICAL_LINE
    from cheren.app.positions import question_text

    open_app(page, voila_url)
    open_from_library(page, "agordat")
    record = open_position("agordat", scenario())
    expect(page.locator(".cheren-position-panel .cheren-question").first).to_contain_text(question_text(record)[:40])
    answer = page.locator(".cheren-answer-panel").first
    expect(answer).to_be_visible()
    expect(answer).to_contain_text("The historical plan")

    answer.locator("button.cheren-answer-play").click()
    feedback = page.locator(".cheren-feedback").first
    expect(feedback).to_contain_text(f"The historical plan, played as the line '{HISTORICAL_LINE}': attack 1708 with")
    expect(feedback).to_contain_text("die ")  # its attack rolled with the position's own dice
    expect(page.locator(f".cheren-line[data-line='{HISTORICAL_LINE}']")).to_have_attribute("data-current", "1")
    expect(page.locator(".cheren-moves .cheren-move[data-n='1']")).to_contain_text("attack 1708")

    answer.locator("input[type=number]").fill("2")
    button = answer.locator("button.cheren-answer-compare-button")
    button.click()
    output = answer.locator(".cheren-answer-output")
    expect(output).to_contain_text("Playing each plan out 2 times")
    expect(button).to_be_disabled()  # one comparison at a time
    # the board answers while the games are played out in worker processes
    page.locator(".cheren-move[data-n='0'] .cheren-move-go").click()
    expect(page.locator(".cheren-moves .cheren-move.on")).to_have_attribute("data-n", "0")
    expect(output.locator("table")).to_be_visible(timeout=240_000)
    expect(output).to_contain_text("the historical plan")
    expect(output).to_contain_text("the analysis's alternative")
    expect(output).to_contain_text("played out 2 times")
    expect(button).to_be_enabled()
    assert page.evaluate(PANEL_CLIPPED, ".cheren-answer-panel") == []  # nothing cut off at the panel's edge
    expect(page.locator(".cheren-curtain").first).to_be_hidden()
    # a reload takes the study up again as it was: no curtain, the question and the answer key beside the map
    page.reload()
    page.wait_for_selector(".cheren-app .cheren-bar", timeout=90_000)
    expect(page.locator(".cheren-feedback").first).to_contain_text("Took up the game where it was")
    expect(page.locator(".cheren-curtain").first).to_be_hidden()
    expect(page.locator(".cheren-position-panel .cheren-question").first).to_contain_text(question_text(record)[:40])
    expect(page.locator(".cheren-answer-panel").first).to_be_visible()
