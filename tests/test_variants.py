"""Optional rules (cheren.variants, seed 004) on small hand-made boards: each variant's effect on
the odds, the six die rows, the legality gate and the resolution; the printed rules untouched
when no variant is on; variants in scenario.yaml, in Game(...) and in game saves."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cheren.actions import RemoveStep, Retreat
from cheren.analysis.combat import Choices, proposed, what_if
from cheren.game import Game, IllegalAction
from cheren.game_saves import dumps_game, loads_game
from cheren.rules.combat import Attack, Commit, Push, StayAndLose
from cheren.rules.combat_odds import compute_odds
from cheren.rules.variant_combat import source_hexes
from cheren.saves import SaveError
from cheren.scenario import Scenario, ScenarioError, Side, load_scenario
from cheren.variants import VARIANTS, UnknownVariant, check_variants, listing
from tests.boards import H, allied, italian
from tests.test_rules_combat import CLEAR, combat_game, make, two_step

# 0303 and 0304 touch 0403; 0203 and 0205 are two hexes from it.
MOUNTAIN_TARGET = ["........", "........", "...M....", "........", "........"]  # 0403 is a mountain hex
ROUGH_TARGET = ["........", "........", "...r....", "........", "........"]


def gun(id: str, side: str = "allied", sp: int = 3) -> dict[str, Any]:
    if side == "allied":
        return allied(id, sp=sp, type="field_gun")
    return italian(id, sp=sp, type="field_gun")


def on(s: Scenario, *names: str) -> Scenario:
    return s.with_variants(names)


def rows(odds: Any) -> list[int]:
    return [odds.row(d) for d in range(1, 7)]


# -- the registry ----------------------------------------------------------------------------------
def test_every_variant_is_documented_with_the_rules_it_changes() -> None:
    for name, v in VARIANTS.items():
        assert v.name == name and v.title and v.summary and len(v.text) > len(v.summary)
        assert v.rules and all(r[0].isdigit() for r in v.rules)
        assert "seed 004" in v.source
        assert name in listing() and v.summary in listing()


def test_an_unknown_variant_is_refused_by_name() -> None:
    with pytest.raises(UnknownVariant, match=r"'long-range-tanks'.*known: artillery-modifier"):
        check_variants(["artillery-range", "long-range-tanks"])
    with pytest.raises(UnknownVariant, match="long-range-tanks"):
        Game(load_scenario(), seed=1, variants=["long-range-tanks"])
    assert check_variants(["artillery-range", "artillery-modifier", "artillery-range"]) == (
        "artillery-modifier", "artillery-range")


def test_scenario_yaml_lists_the_variants_that_are_on(tmp_path: Path) -> None:
    def switch(names: list[str]) -> Any:
        def mutate(files: dict[str, Any]) -> None:
            files["scenario.yaml"]["variants"] = names
        return mutate

    s = make(tmp_path / "a", [allied("a"), italian("i")], mutate=switch(["artillery-range"]))
    assert s.variants == {"artillery-range"}
    assert Game(s, seed=1).variants == ("artillery-range",)
    assert Game(s, seed=1, variants=[]).variants == ()  # a game may switch them off again
    with pytest.raises(ScenarioError) as err:
        make(tmp_path / "b", [allied("a"), italian("i")], mutate=switch(["artillery-range", "heavy-rain"]))
    assert "scenario.yaml" in str(err.value) and "variants" in str(err.value) and "'heavy-rain'" in str(err.value)


def test_the_bundled_scenario_plays_the_printed_rules() -> None:
    s = load_scenario()
    assert s.variants == frozenset() and Game(s, seed=3).variants == ()
    assert s.with_variants(["artillery-range"]) is s.with_variants(["artillery-range"])  # one copy per set
    assert s.with_variants([]) is s


# -- the printed rules are untouched -------------------------------------------------------------------
def test_no_variant_no_modifier_and_the_columns_rows_as_printed(tmp_path: Path) -> None:
    s = make(tmp_path, [allied("a", sp=4), gun("g"), italian("i", sp=2), gun("ig", "italian")])
    g = combat_game(s, {"a": "0303", "g": "0304", "i": "0403", "ig": "0403"})
    odds = compute_odds(g.position, ["a", "g"], H("0403"))
    assert odds.modifiers == () and rows(odds) == [1, 2, 3, 4, 5, 6]
    assert odds.results == odds.columns[odds.column].results
    assert what_if(g.position, proposed("0403", ["a", "g"])).variant_lines == ()


# -- (a) die-roll modifiers ----------------------------------------------------------------------------
def test_artillery_in_the_attack_adds_one_and_the_rows_shift_and_clamp(tmp_path: Path) -> None:
    s = on(make(tmp_path, [allied("a", sp=4), gun("g", sp=2), italian("i", sp=3)]), "artillery-modifier")
    g = combat_game(s, {"a": "0303", "g": "0304", "i": "0403"})
    odds = compute_odds(g.position, ["a", "g"], H("0403"))  # 6 vs 3: 2-1, support 2 vs 0: 3-1
    assert [(m.amount, m.variant) for m in odds.modifiers] == [(1, "artillery-modifier")]
    assert rows(odds) == [2, 3, 4, 5, 6, 6]
    column = odds.columns[odds.column].results
    assert odds.results == (column[1], column[2], column[3], column[4], column[5], column[5])
    assert "artillery in the attack (G): +1 to the die" in odds.explain()
    w = what_if(g.position, proposed("0403", ["a", "g"]))
    assert w.variant_lines[0].startswith("artillery in the attack (G): +1 to the die (variant: Artillery die modifier)")
    assert "1->2, 2->3, 3->4, 4->5, 5->6, 6->6" in w.variant_lines[1]
    assert "| 1 (row 2) |" in w.explain() and "| 6 |" in w.explain()


def test_artillery_in_the_defence_subtracts_one_and_both_cancel(tmp_path: Path) -> None:
    s = on(make(tmp_path, [allied("a", sp=6), gun("g"), italian("i", sp=2), gun("ig", "italian")]),
           "artillery-modifier")
    g = combat_game(s, {"a": "0303", "g": "0304", "i": "0403", "ig": "0403"})
    alone = compute_odds(g.position, ["a"], H("0403"))
    assert [m.amount for m in alone.modifiers] == [-1] and rows(alone) == [1, 1, 2, 3, 4, 5]
    both = compute_odds(g.position, ["a", "g"], H("0403"))
    assert [m.amount for m in both.modifiers] == [1, -1] and rows(both) == [1, 2, 3, 4, 5, 6]
    assert len(what_if(g.position, proposed("0403", ["a", "g"])).variant_lines) == 3  # two modifiers, the net


def test_cavalry_attacking_only_infantry_in_clear_adds_one(tmp_path: Path) -> None:
    horse = italian("horse", sp=2, mp=8, type="cavalry")
    s = on(make(tmp_path, [horse, italian("inf", sp=2), allied("a", sp=2), gun("g", sp=1)]), "cavalry-modifier")
    g = combat_game(s, {"horse": "0303", "inf": "0304", "a": "0403"}, side=Side.ITALIAN)
    assert [m.amount for m in compute_odds(g.position, ["horse", "inf"], H("0403")).modifiers] == [1]
    g.position.place("g", "0403")  # a gun among the defenders: no longer only infantry
    assert compute_odds(g.position, ["horse", "inf"], H("0403")).modifiers == ()


def test_cavalry_gets_nothing_in_rough_terrain_and_defends_in_mountains(tmp_path: Path) -> None:
    horse = italian("horse", sp=2, mp=8, type="cavalry")
    s = on(make(tmp_path, [horse, allied("a", sp=4)], ROUGH_TARGET), "cavalry-modifier")
    g = combat_game(s, {"horse": "0303", "a": "0403"}, side=Side.ITALIAN)
    assert compute_odds(g.position, ["horse"], H("0403")).modifiers == ()
    s2 = on(make(tmp_path / "m", [horse, allied("a", sp=4, mp=6)], MOUNTAIN_TARGET), "cavalry-modifier")
    g2 = combat_game(s2, {"horse": "0403", "a": "0303"})
    odds = compute_odds(g2.position, ["a"], H("0403"))
    reasons = [(m.amount, m.reason) for m in odds.modifiers]
    assert reasons == [(-1, "cavalry (Horse) defends 0403 against only infantry")]


def test_mountain_troops_in_mountain_hexes_attack_and_defend_better(tmp_path: Path) -> None:
    alpini = italian("alpini", sp=3, mp=6, type="mountain_infantry")
    s = on(make(tmp_path, [alpini, allied("a", sp=8, mp=6), allied("b", sp=8, mp=6)], MOUNTAIN_TARGET),
           "mountain-troops-modifier")
    g = combat_game(s, {"alpini": "0403", "a": "0303", "b": "0304"})
    assert [m.amount for m in compute_odds(g.position, ["a", "b"], H("0403")).modifiers] == [-1]
    clear = on(make(tmp_path / "c", [alpini, allied("a", sp=8, mp=6)], CLEAR), "mountain-troops-modifier")
    g2 = combat_game(clear, {"alpini": "0403", "a": "0303"})
    assert compute_odds(g2.position, ["a"], H("0403")).modifiers == ()  # only in mountain hexes
    g3 = combat_game(s, {"alpini": "0303", "a": "0403"}, side=Side.ITALIAN)
    assert [m.amount for m in compute_odds(g3.position, ["alpini"], H("0403")).modifiers] == [1]


def test_combined_arms_needs_foot_infantry_and_a_mobile_unit_off_the_mountains(tmp_path: Path) -> None:
    lorry = allied("lorry", sp=3, mp=8, type="motorized_infantry")
    s = on(make(tmp_path, [allied("a", sp=4), lorry, italian("i", sp=3)]), "combined-arms-modifier")
    g = combat_game(s, {"a": "0303", "lorry": "0304", "i": "0403"})
    odds = compute_odds(g.position, ["a", "lorry"], H("0403"))
    assert [(m.amount, m.reason) for m in odds.modifiers] == [(1, "combined arms: foot infantry with Lorry")]
    assert compute_odds(g.position, ["a"], H("0403")).modifiers == ()
    assert compute_odds(g.position, ["lorry"], H("0403")).modifiers == ()
    m = on(make(tmp_path / "m", [allied("a", sp=4, mp=6), allied("horse", sp=2, mp=8, type="cavalry"),
                                 italian("i", sp=3)], MOUNTAIN_TARGET), "combined-arms-modifier")
    g2 = combat_game(m, {"a": "0303", "horse": "0304", "i": "0403"})
    assert compute_odds(g2.position, ["a", "horse"], H("0403")).modifiers == ()


def test_the_die_clamps_at_one_when_the_modifiers_add_to_minus_two(tmp_path: Path) -> None:
    alpini = italian("alpini", sp=3, mp=6, type="mountain_infantry")
    s = on(make(tmp_path, [alpini, gun("ig", "italian"), allied("a", sp=12, mp=6)], MOUNTAIN_TARGET),
           "artillery-modifier", "mountain-troops-modifier")
    g = combat_game(s, {"alpini": "0403", "ig": "0403", "a": "0303"})
    odds = compute_odds(g.position, ["a"], H("0403"))
    assert odds.die_modifier == -2 and rows(odds) == [1, 1, 1, 2, 3, 4]


def test_the_game_rolls_on_the_modified_row_and_the_push_reads_it(tmp_path: Path) -> None:
    # 24 vs 4 = 6-1, played on 5-1 (11.5); the gun wins support 2 vs 0: 7-1.  Die 4 reads row 5: 0/2r.
    s = on(make(tmp_path, [allied("a", sp=11), allied("b", sp=11), gun("g", sp=2), two_step("i"), two_step("j")]),
           "artillery-modifier")
    g = combat_game(s, {"a": "0303", "b": "0304", "g": "0304", "i": "0403", "j": "0403"}, 4)
    odds = compute_odds(g.position, ["a", "b", "g"], H("0403"))
    assert odds.column_name == "7-1" and str(odds.results[3]) == "0/2r"
    g.apply(Attack(H("0403"), ("a", "b", "g")))
    assert any("die 4, modified +1 to 5, on the 7-1 column: 0/2r" in e for e in g.log[-1].events)
    g.apply(StayAndLose())
    g.apply(RemoveStep("i"))
    g.apply(RemoveStep("j"))
    g.apply(RemoveStep("i"))
    assert g.pending is not None and g.pending.kind == "combat_push"  # a natural 4, a modified 5 (11.8)


# -- (b) artillery from two hexes away -------------------------------------------------------------------
def _range_board(tmp_path: Path, **options: Any) -> Scenario:
    return make(tmp_path, [allied("a", sp=4), gun("g", sp=3), italian("i", sp=2)], **options)


def test_printed_rules_artillery_must_be_adjacent(tmp_path: Path) -> None:
    g = combat_game(_range_board(tmp_path), {"a": "0303", "g": "0203", "i": "0403"})
    verdict = g.check(Commit("g", H("0403")))
    assert not verdict.ok and verdict.refusal is not None and "not adjacent" in verdict.refusal.reason
    assert Commit("g", H("0403")) not in g.legal_actions()


def test_artillery_range_lets_a_gun_two_hexes_away_join_with_full_strength(tmp_path: Path) -> None:
    s = on(_range_board(tmp_path), "artillery-range")
    g = combat_game(s, {"a": "0303", "g": "0203", "i": "0403"}, 6)
    assert Commit("g", H("0403")) in g.legal_actions()
    assert H("0203") in source_hexes(g.position, H("0403"))
    w = what_if(g.position, proposed("0403", ["a", "g"]))
    assert w.legal and w.odds.attack_sp == 7 and w.odds.attack_support == 3
    assert any(line.startswith("G fires from 0203, two hexes from 0403, with 3 strength") for line in w.variant_lines)
    g.apply(Attack(H("0403"), ("a", "g")))  # the gate agrees
    assert any("7 vs 2" in e for e in g.log[-1].events)


def test_artillery_range_keeps_11_2_and_reaches_no_further_than_two(tmp_path: Path) -> None:
    s = on(_range_board(tmp_path), "artillery-range")
    g = combat_game(s, {"a": "0603", "g": "0203", "i": "0403"})
    with pytest.raises(IllegalAction) as err:  # the gun alone: 11.2
        g.apply(Attack(H("0403"), ("g",)))
    assert "11.2" in str(err.value)
    g2 = combat_game(s, {"a": "0303", "g": "0103", "i": "0403"})
    verdict = g2.check(Commit("g", H("0403")))
    assert not verdict.ok and verdict.refusal is not None and "more than 2 hexes" in verdict.refusal.reason
    g3 = combat_game(s, {"a": "0203", "g": "0103", "i": "0403"})  # infantry two away is still out of reach
    assert not g3.check(Commit("a", H("0403"))).ok


def test_guns_firing_from_range_cross_no_river(tmp_path: Path) -> None:
    s = on(_range_board(tmp_path, rivers=[["0303/0403"]]), "artillery-range")
    g = combat_game(s, {"a": "0303", "g": "0203", "i": "0403"})
    odds = compute_odds(g.position, ["a", "g"], H("0403"))
    assert any("river" in x.reason for x in odds.shifts)  # the adjacent attacker crosses: the shift stands


# -- (c) losses instead of retreat, once and for all ----------------------------------------------------------
def _stay_then_push(s: Scenario) -> Game:
    g = combat_game(s, {"a": "0303", "b": "0304", "i": "0403", "j": "0403"}, 5)  # 24 vs 4: 5-1, die 5: 0/2r
    g.apply(Attack(H("0403"), ("a", "b")))
    g.apply(StayAndLose())
    g.apply(RemoveStep("i"))
    g.apply(RemoveStep("j"))
    g.apply(RemoveStep("i"))
    return g


def test_losses_instead_of_retreat_settles_the_result_no_push(tmp_path: Path) -> None:
    s = make(tmp_path, [allied("a", sp=12), allied("b", sp=12), two_step("i"), two_step("j")])
    printed = _stay_then_push(s)
    assert printed.pending is not None and printed.pending.kind == "combat_push"
    varied = _stay_then_push(on(s, "losses-instead-of-retreat"))
    assert varied.pending is None or varied.pending.kind != "combat_push"
    assert not varied.check(Push(True)).ok
    assert varied.position.units["j"].hex == H("0403")  # it stayed, a step down, and is not pushed out


def test_losses_instead_of_retreat_in_the_what_if(tmp_path: Path) -> None:
    s = make(tmp_path, [allied("a", sp=12), allied("b", sp=12), two_step("i"), two_step("j")])
    pushing = Choices(defender_retreats=False, attacker_pushes=True)
    g = combat_game(s, {"a": "0303", "b": "0304", "i": "0403", "j": "0403"})
    printed = what_if(g.position, proposed("0403", ["a", "b"]), choices=pushing)
    assert any(o.pushes for o in printed.distribution)
    g2 = combat_game(on(s, "losses-instead-of-retreat"), {"a": "0303", "b": "0304", "i": "0403", "j": "0403"})
    varied = what_if(g2.position, proposed("0403", ["a", "b"]), choices=pushing)
    assert not any(o.pushes for o in varied.distribution)
    assert varied.expected_attacker_steps < printed.expected_attacker_steps
    assert any("cannot be pushed" in line for line in varied.variant_lines)


def test_the_defender_may_still_retreat_under_losses_instead_of_retreat(tmp_path: Path) -> None:
    s = on(make(tmp_path, [allied("a", sp=12), allied("b", sp=12), two_step("i"), two_step("j")]),
           "losses-instead-of-retreat")
    g = combat_game(s, {"a": "0303", "b": "0304", "i": "0403", "j": "0403"}, 5)
    g.apply(Attack(H("0403"), ("a", "b")))
    assert any(isinstance(a, Retreat) for a in g.legal_actions()) and StayAndLose() in g.legal_actions()


# -- Game(..., variants=) and saves ----------------------------------------------------------------------------
def test_game_variants_apply_to_a_given_start_position(tmp_path: Path) -> None:
    s = _range_board(tmp_path)
    start = combat_game(s, {"a": "0303", "g": "0203", "i": "0403"}).position
    g = Game(s, seed=1, position=start, variants=["artillery-range"])
    assert g.variants == ("artillery-range",) and g.position.scenario.variants == {"artillery-range"}
    assert Commit("g", H("0403")) in g.legal_actions()
    assert start.scenario is s  # the position handed in is not changed


def test_a_save_records_the_variants_and_loads_them_back() -> None:
    s = load_scenario()
    g = Game(s, seed=5, variants=["losses-instead-of-retreat", "artillery-modifier"])
    for _ in range(3):
        g.apply(g.legal_actions()[-1])
    text = dumps_game(g)
    assert json.loads(text)["variants"] == ["artillery-modifier", "losses-instead-of-retreat"]
    back = loads_game(text, s)
    assert back.variants == g.variants and back.position.units == g.position.units
    assert dumps_game(back) == text


def test_a_save_without_variants_is_the_printed_rules_and_bad_names_are_refused() -> None:
    s = load_scenario()
    text = dumps_game(Game(s, seed=5))
    assert "variants" not in json.loads(text)  # saves of the printed rules are as before
    assert loads_game(text, s.with_variants(["artillery-range"])).variants == ()
    raw = json.loads(text)
    raw["variants"] = ["artillery-range", "night-moves"]
    with pytest.raises(SaveError, match=r"game.json: variants\[1\]: unknown variant 'night-moves'"):
        loads_game(json.dumps(raw), s, source="game.json")
    raw["variants"] = "artillery-range"
    with pytest.raises(SaveError, match=r"game\.json: variants: must be a list"):
        loads_game(json.dumps(raw), s, source="game.json")


# -- the app's controller and panels ---------------------------------------------------------------------------
def test_the_app_starts_a_new_game_with_the_chosen_variants() -> None:
    from cheren.ui.controller import Controller
    from cheren.ui.panels import variants_html

    c = Controller(Game(load_scenario(), seed=1941))
    assert not c.game.variants and "as printed" in variants_html(())
    c.game.apply(c.game.legal_actions()[-1])
    fresh = Game(load_scenario(), seed=1941).position
    feedback = c.new_game_with_variants(["artillery-range", "artillery-modifier"])
    assert feedback.kind == "ok" and "previous game (1 actions)" in feedback.text
    assert c.game.variants == ("artillery-modifier", "artillery-range") and c.game.log == []
    assert c.game.seed == 1941 and c.game.position.units == fresh.units
    assert "Artillery fires from two hexes away" in variants_html(c.game.variants)
    refused = c.new_game_with_variants(["fog-of-war"])
    assert refused.kind == "refused" and "'fog-of-war'" in refused.text and len(c.game.variants) == 2


def test_the_what_if_panel_shows_each_variant_and_the_moved_rows(tmp_path: Path) -> None:
    from cheren.ui.panels import odds_html

    s = on(make(tmp_path, [allied("a", sp=4), gun("g", sp=2), italian("i", sp=3)]), "artillery-modifier")
    g = combat_game(s, {"a": "0303", "g": "0304", "i": "0403"})
    html = odds_html(what_if(g.position, proposed("0403", ["a", "g"])))
    assert "artillery in the attack (G): +1 to the die (variant: Artillery die modifier)" in html
    assert "<td>1→2</td>" in html and "<td>6</td>" in html


# -- the command line --------------------------------------------------------------------------------------------
def test_cli_lists_variants_and_refuses_unknown_ones(capsys: pytest.CaptureFixture[str]) -> None:
    from cheren.cli import main

    assert main(["variants"]) == 0
    out = capsys.readouterr().out
    assert all(name in out for name in VARIANTS) and len(out.strip().splitlines()) == len(VARIANTS)
    assert main(["variants", "artillery-range"]) == 0
    assert "changes 11.0, 11.1, 11.2" in capsys.readouterr().out
    assert main(["simulate", "--games", "1", "--variant", "artillery-range", "--variant", "moon-landing"]) == 2
    assert "--variant: unknown variant 'moon-landing'" in capsys.readouterr().err


def test_cli_simulate_and_compare_variants_on_the_same_seeds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from cheren.cli import main

    out = tmp_path / "run.json"
    assert main(["simulate", "--games", "2", "--allied", "heuristic", "--italian", "heuristic", "--quiet",
                 "--variant", "artillery-range", "--out", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["run"]["variants"] == ["artillery-range"]
    assert all(g["variants"] == ["artillery-range"] for g in data["games"])
    assert "variants: artillery-range" in capsys.readouterr().out
    report = tmp_path / "compare.json"
    assert main(["compare-variants", "--games", "2", "--quiet", "--variant", "artillery-range",
                 "--variant", "artillery-modifier,combined-arms-modifier", "--out", str(report)]) == 0
    text = capsys.readouterr().out
    assert "| printed rules |" in text and "| artillery-modifier, combined-arms-modifier |" in text
    sets = json.loads(report.read_text())["rule_sets"]
    assert [s["variants"] for s in sets] == [[], ["artillery-range"], ["artillery-modifier", "combined-arms-modifier"]]
    assert sets[1]["games"] == 2 and sets[1]["paired"]["games_changed"]["games"] == 2


def test_play_outs_of_a_position_keep_its_variants() -> None:
    from cheren.analysis.evaluate import evaluate

    g = Game(load_scenario(), seed=4, variants=["artillery-range"])
    ev = evaluate(g, 1, seed=2)
    assert ev.results[0].variants == ["artillery-range"]
    assert evaluate(Game(load_scenario(), seed=4), 1, seed=2).results[0].variants == []
