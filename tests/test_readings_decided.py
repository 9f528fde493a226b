"""Five readings a rules audit doubted, each decided (cheren/engine/interpretations.py says why):
the push reads the die as the variant's modifiers move it; Cheru is not clear ground for the
cavalry modifier; the tank squadrons are the armoured cars of seed 004, 1 (b) and (g); the
losses-stand switch is the project's own rule; a track entering a road hex pays the road cost,
as at Cheru on the reconstructed map."""

from __future__ import annotations

from fractions import Fraction

from cheren.engine.actions import Attack, Move, StayAndLose
from cheren.engine.game import Game
from cheren.engine.interpretations import INTERPRETATIONS
from cheren.engine.position import Position
from cheren.engine.rules.combat_odds import compute_odds
from cheren.engine.rules.combat_resolution import peek
from cheren.engine.rules.movement import reachable
from cheren.hexes import Hex
from cheren.scenario import Phase, Side, load_scenario
from cheren.scenario.variants import DIE_MODIFIERS, LOSSES_STAND, VARIANTS

H = Hex.from_label
SCENARIO = load_scenario()


def board(placements: dict[str, str], *, variants: tuple[str, ...] = (), side: Side = Side.ALLIED,
          phase: Phase = Phase.COMBAT, seed: int = 1) -> Game:
    s = SCENARIO.with_variants(variants)
    p = Position.empty(s, seed=seed)
    for uid, where in placements.items():
        p.place(uid, where)
    p.set_turn(4, side, phase)
    p.chits.hands[Side.ALLIED].clear()
    p.chits.hands[Side.ITALIAN].clear()
    return Game(s, seed=seed, position=p)


def reasons(game: Game, attackers: tuple[str, ...], target: str) -> set[tuple[Side, str, int]]:
    odds = compute_odds(game.position, attackers, H(target))
    return {(m.side, m.reason, m.points) for m in odds.die_modifiers}


# -- 1. the push (11.8) reads the die the modifiers moved --------------------------------------------
def test_11_8_under_die_modifiers_the_push_reads_the_moved_die() -> None:
    # 10 Ind with a field regiment attacks two Italian units in the clear: artillery +1.
    places = {"ind_10": "0509", "fa_28": "0509", "savoia_10": "0609", "col_41": "0609", "sudan_eac_1": "0711"}
    found = False
    for seed in range(1, 60):
        game = board(places, variants=(DIE_MODIFIERS,), seed=seed)
        die = Position.copy(game.position).dice.roll()
        if die != 4:
            continue
        game.apply(Attack(H("0609"), ("ind_10", "fa_28"), False))
        if game.pending is None or game.pending.kind != "combat_retreat":
            continue
        current = peek(game).current
        assert current is not None and current.die == 5  # the row read: 4 moved up by one
        game.apply(StayAndLose())
        while game.pending is not None and game.pending.kind == "combat_loss":
            game.apply(game.legal_actions()[0])
        assert game.pending is not None and game.pending.kind == "combat_push"  # a natural 4: no push without
        found = True
        break
    assert found, "no seed rolled a 4 with a retreat result"


# -- 2. Cheru is not clear ground ---------------------------------------------------------------------
def test_seed_004_1c_cheru_is_not_clear_ground_for_the_cavalry() -> None:
    assert {t.key for t in SCENARIO.hexes[H("0907")].terrains} == {"rough", "clear"}
    at_cheru = board({"guillet": "1006", "sudan_eac_1": "0907"}, variants=(DIE_MODIFIERS,), side=Side.ITALIAN)
    assert not any(r == "cavalry against infantry" for _, r, _ in reasons(at_cheru, ("guillet",), "0907"))
    in_the_clear = board({"guillet": "0908", "sudan_eac_1": "0808"}, variants=(DIE_MODIFIERS,), side=Side.ITALIAN)
    assert (Side.ITALIAN, "cavalry against infantry", 1) in reasons(in_the_clear, ("guillet",), "0808")


# -- 3. the tanks are the armoured cars ---------------------------------------------------------------
def test_seed_004_1b_tanks_are_the_armoured_cars_in_the_open_and_on_roads() -> None:
    # 0808 is clear: the attacking tank squadron gives +1, and with infantry also combined arms.
    open_ground = board({"tank_sqn": "0708", "ind_10": "0708", "col_41": "0808"}, variants=(DIE_MODIFIERS,))
    assert reasons(open_ground, ("tank_sqn", "ind_10"), "0808") == {
        (Side.ALLIED, "armour in the open", 1), (Side.ALLIED, "combined arms", 1)}
    # 0807 is rough but on the Kassala - Cheru road: a road hex counts; 1006 (rough, no road) does not.
    road = board({"tank_sqn": "0708", "col_41": "0807"}, variants=(DIE_MODIFIERS,))
    assert (Side.ALLIED, "armour in the open", 1) in reasons(road, ("tank_sqn",), "0807")
    rough = board({"tank_sqn": "0907", "col_41": "1006"}, variants=(DIE_MODIFIERS,))
    assert not reasons(rough, ("tank_sqn",), "1006")
    # defending armour in the open lowers the die
    defended = board({"ind_10": "0708", "m11_39": "0808"}, variants=(DIE_MODIFIERS,))
    assert (Side.ITALIAN, "armour in the open", -1) in reasons(defended, ("ind_10",), "0808")
    assert not reasons(board({"tank_sqn": "0708", "col_41": "0808"}), ("tank_sqn",), "0808")  # variant off


# -- 4. losses-stand is the project's rule; Gordon's rule 5 is 11.7 already ---------------------------
def test_losses_stand_says_it_is_the_projects_rule_and_rule_5_is_the_standard_stay() -> None:
    variant = VARIANTS[LOSSES_STAND]
    assert "project's own" in variant.source and "11.7" in variant.source
    # Gordon's rule 5, a loss instead of a retreat at the defender's choice, is open without any variant.
    game = board({"ind_10": "0509", "col_41": "0609", "sudan_eac_1": "0711"}, seed=2)
    game.apply(Attack(H("0609"), ("ind_10",), False))
    assert game.pending is not None and game.pending.kind == "combat_retreat"
    assert StayAndLose() in game.legal_actions()


# -- 5. a track entering a road hex: the Cheru example of 9.0 ------------------------------------------
def test_9_0_cheru_entered_along_the_road_or_the_track_pays_the_road_and_across_country_rough() -> None:
    s = SCENARIO
    assert any(H("0907") in side for side in s.road_sides)  # the Kassala road ends at Cheru
    on = board({"sudan_eac_1": "0807", "sudan_eac_2": "1006", "ind_10": "0808"}, phase=Phase.MOVEMENT)
    p = on.position
    assert reachable(p, "sudan_eac_1").reach[H("0907")].cost == Fraction(1, 2)  # along the road
    assert reachable(p, "sudan_eac_2").reach[H("0907")].cost == Fraction(1, 2)  # from the Biscia track
    assert reachable(p, "ind_10").reach[H("0907")].cost == 2  # across country: rough, the costlier terrain
    assert on.check(Move("sudan_eac_2", (H("0907"),))).ok


def test_the_five_readings_are_in_the_interpretation_list() -> None:
    cited = {t for i in INTERPRETATIONS for t in i.tests}
    for name in ("test_11_8_under_die_modifiers_the_push_reads_the_moved_die",
                 "test_seed_004_1c_cheru_is_not_clear_ground_for_the_cavalry",
                 "test_seed_004_1b_tanks_are_the_armoured_cars_in_the_open_and_on_roads",
                 "test_losses_stand_says_it_is_the_projects_rule_and_rule_5_is_the_standard_stay",
                 "test_9_0_cheru_entered_along_the_road_or_the_track_pays_the_road_and_across_country_rough"):
        assert name in cited
