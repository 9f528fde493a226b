"""Analysis of a position: the threat map, the ranked attacks, the report, play-outs, candidate
comparison, charts and `cheren analyse`, on hand-made positions whose answers can be worked out
by hand and on the bundled ones."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from cheren import load_scenario
from cheren.cli.main import main
from cheren.engine.actions import Attack, EndPhase, Move, NoAdvance, Push, Retreat, StayAndLose
from cheren.engine.game import Game
from cheren.engine.opening import initial_position
from cheren.engine.position import Position, Status
from cheren.engine.rules.combat_odds import compute_odds
from cheren.engine.rules.supply import check_side
from cheren.engine.threats import supply_cuts, threats
from cheren.files import load_position
from cheren.scenario import Phase, Side
from cheren.study.analysis.evaluate import compare, evaluate, wilson
from cheren.study.analysis.report import analyse
from tests.boards import H, allied, board, italian, position

SCENARIO = load_scenario()
CLEAR = ["........", "........", "........", "........", "........"]


# -- the threat map ---------------------------------------------------------------------------------
def test_threat_a_stack_that_can_be_attacked_at_exactly_3_to_1_next_turn_and_no_better(tmp_path: Path) -> None:
    # An Italian 6 within reach of the Allied 2 (6 vs 2 is 3-1 on clear ground, no support on either
    # side); a second Italian 6 too far away to join.
    s = board(tmp_path, CLEAR, [allied("a", sp=2), italian("near", sp=6, mp=4), italian("far", sp=6, mp=1)])
    p = position(s, {"a": "0403", "near": "0703", "far": "0101"})
    t = threats(p, Side.ALLIED)
    st = t.stack_at(H("0403"))
    assert st is not None
    assert st.attackers == ("near",) and st.column == "3-1"
    assert (st.odds.attack_sp, st.odds.defence_sp, st.odds.shifts) == (6, 2, ())
    # the gate agrees: move there in the Italian turn and the attack's odds are those
    g = Game(s, seed=1, position=position(s, {"a": "0403", "near": "0703", "far": "0101"}, side=Side.ITALIAN))
    g.apply(Move("near", g.reach("near").reach[st.placed["near"]].path))
    while g.phase is not Phase.COMBAT:
        g.apply(g.legal_actions()[0] if g.pending is not None else EndPhase())
    assert compute_odds(g.position, ("near",), H("0403")).column_name == "3-1"
    assert t.reach["far"] and not set(t.reach["far"]) & set(H("0403").neighbours())  # "far" cannot get next to it


def test_threat_a_supply_line_the_enemy_can_cut_through_one_hex(tmp_path: Path) -> None:
    # A road runs along the only open row, from the red edge at 0102 to the Allied unit at 0702;
    # an Italian mountain unit above it can step onto the road at one hex and block it.
    terrain = ["MMMMMMMM", "........", "MMMMMMMM"]
    edge = {"name": "West", "hexes": ["0102"], "first_turn": 1, "last_turn": 12}
    s = board(
        tmp_path,
        terrain,
        [allied("a", mp=4), italian("i", mp=1), italian("z")],
        roads=[["0102", "0202", "0302", "0402", "0502", "0602", "0702"]],
        allied_edges=[edge],
    )
    p = position(s, {"a": "0702", "i": "0401", "z": "0803"})
    assert check_side(p, Side.ALLIED)["a"].supplied
    t = threats(p, Side.ALLIED)
    assert [(c.unit, c.by) for c in t.cuts] == [("a", "i")]
    cut = t.cuts[0]
    assert cut.at in {H("0302"), H("0402"), H("0502")} and "cannot draw Allied supply" in cut.reason
    after = p.copy()
    after.units["i"].hex = cut.at
    assert not check_side(after, Side.ALLIED)["a"].supplied


def test_supply_cuts_count_what_the_enemy_unit_opens_by_leaving_its_hex(tmp_path: Path) -> None:
    """Two roads from the red edge to the Allied unit; the Italian cavalry's ZoC closes the lower
    one.  On the upper road alone it cuts nothing (leaving, it opens the lower road again); only
    between the roads, where its ZoC closes both, does it cut.  With a second Italian unit left
    behind in its hex, the upper road is a cut too."""
    terrain = ["MMMMMMMM", "........", "........", "........", "........"]
    edge = {"name": "West", "hexes": ["0102", "0104"], "first_turn": 1, "last_turn": 12}
    s = board(tmp_path, terrain, [allied("a", mp=4), italian("i", mp=6), italian("j", mp=1)],
              roads=[["0102", "0202", "0302", "0402", "0502", "0602", "0702", "0802"],
                     ["0104", "0204", "0304", "0404", "0504", "0604", "0704", "0804"]],
              allied_edges=[edge])
    alone = position(s, {"a": "0803", "i": "0405"})
    cuts = {c.at.label for c in supply_cuts(alone, Side.ALLIED, every=True)}
    assert "0403" in cuts and not cuts & {"0202", "0402", "0602"}
    _same_cuts_as_checking_every_move(alone)
    stacked = position(s, {"a": "0803", "i": "0405", "j": "0405"})
    assert {"0202", "0402", "0602"} <= {c.at.label for c in supply_cuts(stacked, Side.ALLIED, every=True)}
    _same_cuts_as_checking_every_move(stacked)


def test_the_report_on_the_opening_position() -> None:
    r = analyse(initial_position(SCENARIO, seed=1941))
    text = r.explain()
    assert r.vp == 1 and "1 Allied VP, Italian major victory" in text
    assert r.attacks == [] and "No attack is possible" in text
    assert all(u.supplied for u in r.supply)
    assert r.threats.side is Side.ALLIED
    data = r.to_json()
    assert data["allied_vp"] == 1 and {t["name"] for t in data["towns"]} == set(SCENARIO.towns)
    assert not any("_" in name for name in data["may_react"])  # counter names, not ids


def test_the_report_ranks_attacks_by_the_exact_chance_the_defender_leaves() -> None:
    p = load_position("cheren-first-assault", SCENARIO)
    r = analyse(p)
    assert [a.target.label for a in r.attacks] == ["2106"]
    a = r.attacks[0]
    assert set(a.attackers) == {"ind_11", "skinners_horse", "fa_144"} and a.air
    assert a.whatif.column == "2-1" and a.p_vacated == Fraction(2, 3)
    text = r.explain()
    assert "| 2106 (Col 41, Col 2) | " in text and "67%" in text and "(11.1)" in text and "(11.4)" in text


def test_the_engine_is_the_only_source_of_odds_frequencies_through_the_gate_match_the_report() -> None:
    p = load_position("cheren-first-assault", SCENARIO)
    a = analyse(p).attacks[0]
    n = 300
    vacated = 0
    for seed in range(n):
        g = Game.from_position(p, seed=seed)
        g.apply(Attack(a.target, a.attackers, a.air))
        while g.pending is not None:  # the report assumes: retreat when possible, no push
            acts = g.legal_actions()
            g.apply(
                next((x for x in acts if isinstance(x, Retreat)), None)
                or next((x for x in acts if x in (Push(False), NoAdvance(), StayAndLose())), acts[0])
            )
        vacated += not any(g.position.units[u].hex == a.target for u in a.whatif.odds.defenders)
    lo, hi = wilson(vacated, n, z=3.3)
    assert lo <= float(a.p_vacated) <= hi, (vacated / n, a.p_vacated)


# -- play-outs ------------------------------------------------------------------------------------------
def test_evaluate_is_reproducible_and_its_levels_add_up() -> None:
    p = load_position("asmara", SCENARIO)
    ev = evaluate(p, 6, allied="random", italian="random", seed=5)
    again = evaluate(p, 6, allied="random", italian="random", seed=5)
    assert ev.vps == again.vps and ev.games == 6
    levels = ev.levels()
    assert list(levels) == [b.level for b in SCENARIO.info.victory]
    assert sum(x.count for x in levels.values()) == 6
    assert abs(sum(x.p for x in levels.values()) - 1) < 1e-9
    for x in levels.values():
        lo, hi = x.interval
        assert lo <= x.p <= hi
    by_turn = ev.vp_by_turn()
    assert list(by_turn) == [11, 12] and all(len(v) == 6 for v in by_turn.values())
    data = ev.to_json()
    assert data["games"] == 6 and data["bots"] == {"allied": "random", "italian": "random"}


def test_an_evaluation_names_its_bots_games_and_intervals_and_defaults_to_the_strongest_bot() -> None:
    import inspect

    from cheren.players.bots import STRONGEST
    from cheren.study.analysis.evaluate import bot_label

    assert bot_label("planner") == "planner (6 plans per Movement phase)"
    assert bot_label("planner:3") == "planner (3 plans per Movement phase)"
    defaults = inspect.signature(evaluate).parameters
    assert defaults["allied"].default == defaults["italian"].default == STRONGEST == "planner"
    p = load_position("asmara", SCENARIO)
    ev = evaluate(p, 3, allied="random", italian="heuristic", seed=2)
    caption = ev.caption()
    assert caption.startswith("3 play-outs by the random bot as the Allies and the heuristic bot as the Italians")
    assert "95% Wilson intervals" in caption and "played by bots" in caption
    text = ev.explain()
    assert caption in text and "mean" in text and "95% interval" in text
    data = ev.to_json()
    assert data["played_by"] in caption and "Wilson" in data["intervals"] and "bots" in data["measures"]
    lo, hi = data["vp"]["mean_interval"]
    assert lo <= data["vp"]["mean"] <= hi


def test_play_outs_do_not_know_the_hidden_chits() -> None:
    import random

    from cheren.players.simulate import redeal_hidden

    p = load_position("agordat", SCENARIO)
    before = {side: list(p.chits.hands[side]) for side in Side}
    hands = set()
    for seed in range(12):
        q = p.copy()
        redeal_hidden(q, Side.ALLIED, random.Random(seed))
        assert q.chits.hands[Side.ALLIED] == before[Side.ALLIED]  # the side to move knows its own hand
        assert len(q.chits.hands[Side.ITALIAN]) == len(before[Side.ITALIAN])
        assert all(SCENARIO.chits[c.rsplit(".", 1)[0]].side is Side.ITALIAN for c in q.chits.hands[Side.ITALIAN])
        assert sorted([*q.chits.hands[Side.ITALIAN], *q.chits.cup]) == sorted([*before[Side.ITALIAN], *p.chits.cup])
        hands.add(tuple(sorted(q.chits.hands[Side.ITALIAN])))
    assert len(hands) > 1


def test_compare_candidates_on_the_same_seeds() -> None:
    p = load_position("cheren-first-assault", SCENARIO)
    attack = Attack(H("2106"), ("ind_11", "skinners_horse", "fa_144"), True)
    c = compare(p, [attack, EndPhase()], 4, allied="random", italian="random", seed=2)
    assert [ev.label for ev in c.candidates] == [
        "attack 2106 with 11 Ind, Skinner's Horse, 144 Fd RA with air support",
        "end the phase",
    ]
    assert [r.seed for r in c.candidates[0].results] == [r.seed for r in c.candidates[1].results]
    assert "| end the phase |" in c.explain()
    with pytest.raises(ValueError, match="step 1 of the plan"):
        compare(p, [Move("ind_11", (H("2106"),))], 2, allied="random", italian="random")


# -- charts, the HTML page and the command line -------------------------------------------------------
def test_charts_and_the_report_page() -> None:
    from cheren.render.report_html import report_page
    from cheren.study.analysis.charts import candidates_chart, to_png, to_svg, vp_histogram, vp_over_turns
    from cheren.study.analysis.evaluate import Comparison
    from cheren.study.overlays import threat_overlays

    p = load_position("asmara", SCENARIO)
    ev = evaluate(p, 4, allied="random", italian="random", seed=1)
    for fig in (vp_histogram(ev), vp_over_turns(ev), candidates_chart(Comparison([ev, ev]))):
        assert to_svg(fig).lstrip().startswith(("<?xml", "<svg"))
    assert to_png(vp_histogram(ev))[:4] == b"\x89PNG"
    report = analyse(p)
    kinds = {o.kind for o in threat_overlays(report.threats)}
    assert kinds == {"enemy-reach", "threat", "supply-cut"}
    page = report_page("Asmara", report, ev)
    assert page.count("<svg") >= 3 and "<table>" in page and "http" not in page.split("</style>")[0]


def test_cheren_analyse_writes_reproducible_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = [
        "analyse",
        "asmara",
        "--games",
        "4",
        "--jobs",
        "2",
        "--allied",
        "random",
        "--italian",
        "random",
        "--seed",
        "3",
        "--quiet",
    ]
    assert main([*args, "--out", str(tmp_path / "a.json"), "--report", str(tmp_path / "a.html")]) == 0
    assert main([*args, "--out", str(tmp_path / "b.json")]) == 0
    a = json.loads((tmp_path / "a.json").read_text())
    b = json.loads((tmp_path / "b.json").read_text())
    assert a["games"] == 4 and set(a["vp"]) >= {"mean", "median", "histogram"}
    assert abs(sum(v["p"] for v in a["victory_levels"].values()) - 1) < 1e-9
    assert all(len(v["interval"]) == 2 for v in a["victory_levels"].values())
    assert a["victory_levels"] == b["victory_levels"] and a["vp"] == b["vp"]
    assert (tmp_path / "a.html").read_text().startswith("<!DOCTYPE html>")
    out = capsys.readouterr().out
    assert "Victory points now" in out and "play-outs to the end of turn 12" in out
    assert main(["analyse", "nowhere"]) == 1
    assert "not a library position" in capsys.readouterr().err


def test_analysis_never_changes_the_position() -> None:
    p = load_position("dologorodoc", SCENARIO)
    before = p.copy()
    analyse(p)
    threats(p, Side.ITALIAN)
    assert p == before and all(
        u.status is not Status.OFF_MAP or SCENARIO.units[u.id].type.air for u in p.units.values()
    )


def test_the_app_analysis_panel_reports_shows_threats_and_fills_its_gauge() -> None:
    from cheren.app import App
    from cheren.app.analysis_panel import gauge_html

    app = App(Game.from_position(load_position("cheren-first-assault", SCENARIO)))
    panel = app.analysis
    panel.analyse()
    assert "2106 (Col 41, Col 2)" in panel.output.value and "<table>" in panel.output.value
    assert "threats" in app.board.overlays.on
    assert {o.kind for o in app.board.overlays.drawn()} >= {"threat", "enemy-reach"}
    seen: list[str] = []
    panel.gauge.observe(lambda change: seen.append(change["new"]), "value")
    panel.games.value, panel.bot.value = 3, "random"
    ev = panel.play_out(wait=True)
    assert ev is not None and ev.games == 3 and "3 of 3 play-outs" in panel.gauge.value
    assert "by the random bot on both sides" in panel.gauge.value
    assert "95% intervals" in panel.gauge.value and "reconstructed components" in panel.gauge.value
    assert any("1 of 3 play-outs" in v for v in seen) and any("2 of 3 play-outs" in v for v in seen)
    assert panel.chart.value[:4] == b"\x89PNG"
    assert "0 of 5 play-outs" in gauge_html(None, 5)
    app.board.play.end_phase()
    assert "The position has changed" in panel.output.value


@pytest.mark.parametrize("name", ["agordat", "cheren-first-assault", "asmara"])
def test_supply_cuts_checks_only_nearby_units_and_finds_every_cut(name: str) -> None:
    """The threat map re-checks only the units whose line passes near the hex an enemy unit
    moves to; a check of the whole side at every reachable hex finds the same cuts, and, asked
    for every way (what a defender must close), the same enemy units and hexes for each."""
    from cheren.files import load_position
    from cheren.scenario import load_scenario

    _same_cuts_as_checking_every_move(load_position(name, load_scenario()))


def test_supply_cuts_found_in_a_game_are_those_a_check_of_every_move_finds() -> None:
    """The same, at every sixth Movement phase's start of a seeded heuristic game (the threat map
    first asks which units lose supply with one more enemy unit in the hex and every unit where it
    stands, and checks the moved position only for those: this pins that the shortcut misses no
    cut and invents none)."""
    from cheren.players.bots import make_bot
    from cheren.players.views import SideSeat

    game = Game(SCENARIO, seed=3)
    bots = {side: make_bot("heuristic", 7 + i) for i, side in enumerate(Side)}
    seats = {side: SideSeat(game, side) for side in Side}
    seen = phases = 0
    last: tuple[object, ...] = ()
    while not game.over:
        if game.phase is Phase.MOVEMENT and (game.turn, game.phasing) != last:
            last = (game.turn, game.phasing)
            phases += 1
            if phases % 6 == 1:
                seen += _same_cuts_as_checking_every_move(game.position)
        game.apply(bots[game.acting].choose(seats[game.acting]).action)
    assert seen > 20  # positions with cuts to find, not only empty lists


def _same_cuts_as_checking_every_move(p: Position) -> int:
    from cheren.engine.rules.supply import check_side
    from cheren.engine.threats import enemy_reach, supply_cuts
    from cheren.scenario import Side

    found = 0
    for side in Side:
        fast = {(c.unit, c.by, c.at) for c in supply_cuts(p, side)}
        supplied = {u for u, t in check_side(p, side).items() if t.supplied}
        slow: dict[str, tuple[str, str, object]] = {}
        every: set[tuple[str, str, object]] = set()
        for by, hexes in sorted(enemy_reach(p, side.enemy).items()):
            for h in sorted(hexes):
                if h == p.units[by].hex:
                    continue
                trial = p.copy()
                trial.units[by].hex = h
                after = check_side(trial, side)
                for uid in sorted(supplied):
                    if not after[uid].supplied:
                        slow.setdefault(uid, (uid, by, h))
                        every.add((uid, by, h))
        assert {u for u, _, _ in fast} == set(slow)
        assert {(c.unit, c.by, c.at) for c in supply_cuts(p, side, every=True)} == every
        quiet = supply_cuts(p, side, explain=False)
        assert {(c.unit, c.by, c.at) for c in quiet} == fast and all(c.reason == "" for c in quiet)
        found += len(every)
    return found


def test_the_agordat_position_evaluated_in_the_app_names_its_bots_games_and_intervals() -> None:
    from cheren.app import App
    from cheren.players.bots import STRONGEST

    app = App(Game.from_position(load_position("agordat", SCENARIO)))
    panel = app.analysis
    assert panel.bot.value == STRONGEST and panel.bot.options[0] == STRONGEST  # the strongest bot by default
    panel.games.value, panel.bot.value = 2, "tactician"
    ev = panel.play_out(wait=True)
    assert ev is not None and ev.games == 2 and ev.allied_bot == ev.italian_bot == "tactician"
    shown = panel.gauge.value
    assert "2 of 2 play-outs" in shown and "by the tactician bot on both sides" in shown
    assert "(95% intervals)" in shown and "%-" in shown  # every share with its interval
    assert "reconstructed components" in shown and "played by bots" in shown
