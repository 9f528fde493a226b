"""Optional rules (seed 004): each variant's effect on hand-made positions, the exact what-if
with die-roll modifiers, saves and simulations that record them, and the standard rules unchanged
when none is on (tests/test_determinism.py pins whole seeded games)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cheren.cli.main import main
from cheren.engine.actions import Attack, Commit, StayAndLose
from cheren.engine.combat_whatif import proposed, what_if
from cheren.engine.game import Game
from cheren.engine.position import Position
from cheren.engine.rules.combat_odds import compute_odds
from cheren.hexes import Hex
from cheren.scenario import Phase, Side, load_scenario
from cheren.scenario.variants import (
    ARTILLERY_RANGE,
    DIE_MODIFIERS,
    LOSSES_STAND,
    VARIANTS,
    VariantError,
    check_variants,
)
from cheren.study.game_saves import dumps_game, loads_game

H = Hex.from_label
SCENARIO = load_scenario()


def board(placements: dict[str, str], *, variants: tuple[str, ...] = (), turn: int = 4, seed: int = 1) -> Game:
    """The bundled scenario with only these units on the map, in the Allied Combat phase."""
    s = SCENARIO.with_variants(variants)
    p = Position.empty(s, seed=seed)
    for uid, where in placements.items():
        p.place(uid, where)
    p.set_turn(turn, Side.ALLIED, Phase.COMBAT)
    p.chits.hands[Side.ALLIED].clear()
    p.chits.hands[Side.ITALIAN].clear()
    return Game(s, seed=seed, position=p)


# -- the switches ------------------------------------------------------------------------------
def test_variants_are_named_documented_and_checked() -> None:
    assert set(VARIANTS) == {DIE_MODIFIERS, ARTILLERY_RANGE, LOSSES_STAND}
    for v in VARIANTS.values():
        assert v.summary and len(v.text) > 80 and v.rules and "seed 004" in v.source
    with pytest.raises(VariantError, match="unknown variant 'tanks-fly'; known: die-modifiers"):
        check_variants(["tanks-fly"])
    assert SCENARIO.variants == frozenset()
    assert SCENARIO.with_variants([]) is SCENARIO


def test_a_game_with_no_variant_is_the_standard_game() -> None:
    plain = Game(SCENARIO, seed=7)
    none = Game(SCENARIO, seed=7, variants=[])
    assert plain.position.units == none.position.units and none.scenario.variants == frozenset()


def test_scenario_yaml_may_switch_variants_on_and_refuses_unknown_ones(tmp_path: Path) -> None:
    import shutil

    from cheren.scenario import ScenarioError

    copy = tmp_path / "scenario"
    shutil.copytree(SCENARIO.directory, copy)
    text = (copy / "scenario.yaml").read_text()
    (copy / "scenario.yaml").write_text(text + "\nvariants: [die-modifiers]\n")
    assert load_scenario(copy).variants == {DIE_MODIFIERS}
    (copy / "scenario.yaml").write_text(text + "\nvariants: [no-such-rule]\n")
    with pytest.raises(ScenarioError, match=r"scenario.yaml: variants.*unknown variant 'no-such-rule'"):
        load_scenario(copy)


# -- (a) die-roll modifiers ----------------------------------------------------------------------
PLACES = {"ind_10": "0509", "fa_28": "0509", "sdf_mmg_1": "0510", "col_41": "0609"}


def test_die_modifiers_move_the_six_rows_and_clamp_them() -> None:
    standard = board(PLACES)
    variant = board(PLACES, variants=(DIE_MODIFIERS,))
    attackers = ("ind_10", "fa_28", "sdf_mmg_1")
    a = compute_odds(standard.position, attackers, H("0609"))
    b = compute_odds(variant.position, attackers, H("0609"))
    assert a.column == b.column and a.die_modifiers == ()
    reasons = {(m.reason, m.points) for m in b.die_modifiers}
    assert reasons == {("artillery", 1), ("combined arms", 1)}  # guns, and infantry with a motorized unit
    assert b.die_shift == 2
    printed = a.columns[a.column].results
    assert b.results == (printed[2], printed[3], printed[4], printed[5], printed[5], printed[5])
    assert a.results == printed
    assert "die-roll modifiers (variant)" in " ".join(b.notes) and "die +2" in b.explain()


def test_defending_artillery_and_mountain_troops_lower_the_die() -> None:
    game = board({"comm_51": "2007", "alpini_uork_amba": "2006", "art_cheren": "2006"},
                 variants=(DIE_MODIFIERS,))
    assert game.scenario.hexes[H("2006")].mountain
    odds = compute_odds(game.position, ("comm_51",), H("2006"))
    reasons = {(m.side, m.reason, m.points) for m in odds.die_modifiers}
    assert reasons == {(Side.ITALIAN, "artillery", -1), (Side.ITALIAN, "mountain troops in the mountains", -1)}
    printed = odds.columns[odds.column].results
    assert odds.results == (printed[0], printed[0], printed[0], printed[1], printed[2], printed[3])


def test_cavalry_against_infantry_only_in_the_clear() -> None:
    game = board({"guillet": "0509", "ind_10": "0609"}, variants=(DIE_MODIFIERS,))
    game.position.set_turn(4, Side.ITALIAN, Phase.COMBAT)
    odds = compute_odds(game.position, ("guillet",), H("0609"))
    assert [m.reason for m in odds.die_modifiers] == ["cavalry against infantry"]


def test_the_exact_what_if_reads_the_moved_rows() -> None:
    standard = board(PLACES)
    variant = board(PLACES, variants=(DIE_MODIFIERS,))
    attack = proposed("0609", ("ind_10", "fa_28", "sdf_mmg_1"))
    a, b = what_if(standard.position, attack), what_if(variant.position, attack)
    assert sum(b.distribution.values()) == 1
    assert b.expected_defender_steps > a.expected_defender_steps  # two die points the attacker's way
    assert b.expected_attacker_steps < a.expected_attacker_steps
    odds = compute_odds(variant.position, attack.attackers, H("0609"))
    assert [r.result for r in b.rolls] == list(odds.results)


def test_the_roll_is_read_on_the_moved_row_and_says_so() -> None:
    game = board(PLACES, variants=(DIE_MODIFIERS,), seed=3)
    events = game.apply(Attack(H("0609"), ("ind_10", "fa_28", "sdf_mmg_1"), False))
    die_line = next(e for e in events if e.startswith("die "))
    assert " +2 = " in die_line


# -- (b) artillery range -------------------------------------------------------------------------
RANGE = {"ind_10": "0509", "fa_28": "0408", "col_41": "0609"}


def test_artillery_joins_an_attack_from_two_hexes_away_only_with_the_variant() -> None:
    assert H("0408").distance(H("0609")) == 2
    standard = board(RANGE)
    verdict = standard.check(Commit("fa_28", H("0609")))
    assert verdict.refusal is not None and verdict.refusal.rules == ("11.0",)
    ranged = board(RANGE, variants=(ARTILLERY_RANGE,))
    assert ranged.check(Commit("fa_28", H("0609"))).ok
    assert Commit("fa_28", H("0609")) in ranged.legal_actions()
    odds = compute_odds(ranged.position, ("ind_10", "fa_28"), H("0609"))
    assert odds.attack_sp == 8 + 3


def test_ranged_artillery_still_needs_a_non_artillery_unit() -> None:
    ranged = board({"fa_28": "0408", "col_41": "0609"}, variants=(ARTILLERY_RANGE,))
    verdict = ranged.check(Attack(H("0609"), ("fa_28",), False))
    assert verdict.refusal is not None and "11.2" in verdict.refusal.rules


def test_artillery_three_hexes_away_stays_out() -> None:
    ranged = board({"ind_10": "0509", "fa_28": "0308", "col_41": "0609"}, variants=(ARTILLERY_RANGE,))
    assert H("0308").distance(H("0609")) == 3
    assert not ranged.check(Commit("fa_28", H("0609"))).ok


# -- (c) losses stand --------------------------------------------------------------------------
PUSH = {"savoia_10": "0609", "col_41": "0609", "ind_10": "0509", "sudan_eac_1": "0711"}


def _after_stay(variants: tuple[str, ...]) -> Game:
    game = board(PUSH, variants=variants, seed=2)
    game.apply(Attack(H("0609"), ("ind_10",), False))
    assert game.pending is not None and game.pending.kind == "combat_retreat"
    game.apply(StayAndLose())
    while game.pending is not None and game.pending.kind == "combat_loss":  # which unit loses the step
        game.apply(game.legal_actions()[0])
    return game


def test_11_8_the_push_is_offered_after_a_stay_on_a_five_and_not_with_losses_stand() -> None:
    standard = _after_stay(())
    assert standard.pending is not None and standard.pending.kind == "combat_push"
    final = _after_stay((LOSSES_STAND,))
    assert final.pending is None  # no push is asked: the combat is over
    assert not any(a.kind == "push" for a in final.legal_actions())


# -- saves and simulations record the variants ----------------------------------------------------
def test_a_save_records_its_variants_and_an_old_save_loads_as_standard() -> None:
    game = Game(SCENARIO, seed=5, variants=[ARTILLERY_RANGE, DIE_MODIFIERS])
    text = dumps_game(game)
    assert json.loads(text)["variants"] == [ARTILLERY_RANGE, DIE_MODIFIERS]
    again = loads_game(text, SCENARIO)
    assert again.scenario.variants == {ARTILLERY_RANGE, DIE_MODIFIERS}
    assert "variants" not in json.loads(dumps_game(Game(SCENARIO, seed=5)))
    bad = json.loads(text)
    bad["variants"] = ["nope"]
    from cheren.files.position_saves import SaveError

    with pytest.raises(SaveError, match="unknown variant 'nope'"):
        loads_game(json.dumps(bad), SCENARIO)


def test_simulate_with_a_variant_records_it(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    assert main(["simulate", "--games", "2", "--allied", "random", "--italian", "random", "--variant",
                 DIE_MODIFIERS, "--out", str(out), "--quiet"]) == 0
    data = json.loads(out.read_text())
    assert data["run"]["variants"] == [DIE_MODIFIERS]
    assert all(g["variants"] == [DIE_MODIFIERS] for g in data["games"])
    assert main(["simulate", "--games", "1", "--variant", "nope", "--quiet"]) == 2
    assert "unknown variant 'nope'" in capsys.readouterr().err


def test_cheren_variants_lists_them(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["variants"]) == 0
    listing = capsys.readouterr().out
    assert all(name in listing for name in VARIANTS)
    assert main(["variants", LOSSES_STAND]) == 0
    assert "11.8" in capsys.readouterr().out


def test_compare_variants_writes_a_report_and_a_chart(tmp_path: Path) -> None:
    out, chart = tmp_path / "v.md", tmp_path / "v.png"
    assert main(["compare-variants", "--games", "2", "--allied", "random", "--italian", "random",
                 "--out", str(out), "--chart", str(chart), "--quiet"]) == 0
    text = out.read_text()
    assert "standard rules" in text and all(name in text for name in VARIANTS)
    assert chart.read_bytes()[:4] == b"\x89PNG"


def test_the_what_if_panel_shows_the_modifiers() -> None:
    from cheren.app import panels

    game = board(PLACES, variants=(DIE_MODIFIERS,))
    html = panels.odds_html(what_if(game.position, proposed("0609", ("ind_10", "fa_28", "sdf_mmg_1"))))
    assert "die-roll modifiers (variant)" in html and "artillery (Allied) +1" in html


def test_the_apps_game_panel_starts_a_game_with_the_ticked_rules() -> None:
    from cheren.app.app import App

    app = App(Game(SCENARIO, seed=3))
    app.game_panel.variant_boxes[DIE_MODIFIERS].value = True
    fb = app.game_panel.new_game()
    assert app.board.game.scenario.variants == {DIE_MODIFIERS}
    assert app.board.position.scenario.variants == {DIE_MODIFIERS}
    assert "die-modifiers" in fb.text


def test_the_what_if_names_ranged_guns_and_the_missing_push() -> None:
    from cheren.engine.combat_whatif import Choices

    ranged = board(RANGE, variants=(ARTILLERY_RANGE,))
    wi = what_if(ranged.position, proposed("0609", ("ind_10", "fa_28")))
    assert any("28 Fd RA fires from two hexes away (0408" in n for n in wi.notes)
    pushing = Choices(defender_retreats=False, attacker_pushes=True)
    standard = what_if(board(PUSH).position, proposed("0609", ("ind_10",)), choices=pushing)
    final = what_if(board(PUSH, variants=(LOSSES_STAND,)).position, proposed("0609", ("ind_10",)), choices=pushing)
    assert any(o.pushes for o in standard.distribution) and not any(o.pushes for o in final.distribution)
    assert any("losses-stand" in n for n in final.notes)
