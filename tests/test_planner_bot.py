"""The planning bot: it plans its Movement, its reactions and its Exploitation by playing plans
out through the gate, plays its attacks and decisions through the tactician, retakes a lost hub
at once, keeps a reaction reserve, sees only its own side, explains itself in words, and the
same seed plays the same game."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from cheren import load_scenario
from cheren.engine.actions import Move
from cheren.engine.game import Game
from cheren.engine.position import Position
from cheren.hexes import Hex
from cheren.players.bots import BOTS, STRONGEST, PlannerBot, TacticianBot, make_bot
from cheren.players.bots.hubs import hub_weights, raid_values, town_lines
from cheren.players.simulate import play_game
from cheren.players.views import SideSeat
from cheren.scenario import Phase, Side

S = load_scenario()
H = Hex.from_label
IDS = re.compile(r"\b(" + "|".join(re.escape(u) for u in sorted(S.units, key=len, reverse=True)) + r")\b")


def raided(phase: Phase, side: Side) -> Position:
    """Turn 3: Italian cavalry has ridden through Kassala (the town is Italian, 2.1) and on; two
    Indian brigades east of it, at Tessenei and beyond, hang on the Kassala road for supply; a
    Sudanese motor battalion stands two hexes from the town."""
    p = Position.empty(S, seed=5)
    for uid, h in {"ind_10": "0512", "ind_29": "0611", "sdf_mmg_1": "0410", "guillet": "0305",
                   "col_41": "1110"}.items():
        p.place(uid, h)
    p.allied_control.update({"Tessenei", "Sabderat"})
    p.set_turn(3, side, phase)
    p.chits.hands[Side.ALLIED].clear()
    p.chits.hands[Side.ITALIAN].clear()
    return p


def test_it_is_registered_takes_a_budget_and_is_the_strongest() -> None:
    assert "planner" in BOTS and "tactician" in BOTS and STRONGEST == "planner"
    bot = make_bot("planner:3", 2)
    assert isinstance(bot, PlannerBot) and bot.budget == 3
    with pytest.raises(ValueError):
        PlannerBot(1, budget=0)


def test_kassala_carries_the_allied_supply_and_the_italians_see_a_raid() -> None:
    p = raided(Phase.MOVEMENT, Side.ALLIED)
    lines = town_lines(p, Side.ALLIED)
    assert lines["Kassala"] and not lines["Biscia"]
    assert hub_weights(p, Side.ALLIED)["Kassala"] >= 8  # both brigades' steps come back with it
    p.allied_control.add("Kassala")
    assert raid_values(p, Side.ITALIAN)["Kassala"] >= 8  # and go if the Italians take it


def test_it_retakes_a_lost_hub_at_once_in_its_movement() -> None:
    game = Game.from_position(raided(Phase.MOVEMENT, Side.ALLIED), seed=3)
    bot, other = PlannerBot(4), make_bot("heuristic", 5)
    said = []
    while game.phase is Phase.MOVEMENT and game.phasing is Side.ALLIED:
        mover = bot if game.acting is Side.ALLIED else other
        choice = mover.choose(SideSeat(game, game.acting))
        assert game.check(choice.action).ok
        said.append(choice.reason)
        game.apply(choice.action)
    assert game.position.controller("Kassala") is Side.ALLIED
    assert any("retake Kassala" in c.label for c in bot.last_candidates)


def test_it_retakes_a_lost_hub_with_its_reaction() -> None:
    """In the enemy's turn: the reaction (10.0) walks back into the empty hub."""
    game = Game.from_position(raided(Phase.REACTION, Side.ITALIAN), seed=3)
    assert game.acting is Side.ALLIED
    bot = PlannerBot(4)
    while game.phase is Phase.REACTION and game.acting is Side.ALLIED:
        choice = bot.choose(SideSeat(game, Side.ALLIED))
        assert game.check(choice.action).ok
        game.apply(choice.action)
    assert game.position.controller("Kassala") is Side.ALLIED


def test_it_plans_reactions_and_exploitation_and_explains_in_words() -> None:
    """Two turns of a game: the planner weighs plans in its Movement, reaction and Exploitation
    phases, and every reason it gives names counters, not internal ids."""
    game = Game(S, seed=8)
    bots = {Side.ALLIED: PlannerBot(1, budget=4), Side.ITALIAN: PlannerBot(2, budget=4)}
    reasons: list[str] = []
    while not game.over and game.turn <= 2:
        side = game.acting
        choice = bots[side].choose(SideSeat(game, side))
        assert game.check(choice.action).ok  # through the gate, always
        reasons.append(choice.reason)
        game.apply(choice.action)
    text = "\n".join(reasons)
    for what in ("movement", "reaction", "exploitation"):
        assert "planner over" in text and f" {what} plans: chose plan" in text, what
    assert "attack " in text  # the tactician's attacks, with odds
    leaked = {m.group(1) for m in IDS.finditer(text)}
    assert leaked == set(), leaked


def test_the_same_seed_plays_the_same_game() -> None:
    from cheren.files import load_position, position_code

    last_weeks = position_code(load_position("asmara", S))  # turn 11: two turns to play
    a = play_game(0, 12, "planner:2", "planner:2", start=last_weeks, keep_log=True)
    b = play_game(0, 12, "planner:2", "planner:2", start=last_weeks, keep_log=True)
    assert a.log == b.log and a.allied_vp == b.allied_vp


def test_it_never_sees_the_enemys_chits() -> None:
    """Two games alike but for which Italian chits are in the Italian hand and which in the cup
    (swapped once the Italians have passed their chit window): the Allied planner weighs the same
    plans to the same values and makes the same first move."""
    from cheren.engine.actions import PassChit

    seen = []
    for swap in (False, True):
        p = Game(S, seed=6).position
        p.set_turn(1, Side.ALLIED, Phase.MOVEMENT)
        game = Game.from_position(p, seed=6)
        while game.acting is not Side.ALLIED:
            game.apply(PassChit())
        c = game.position.chits
        if swap:
            theirs = next(x for x in c.cup if S.chits[x.rsplit(".", 1)[0]].side is Side.ITALIAN)
            c.cup.remove(theirs)
            c.cup.append(c.hands[Side.ITALIAN].pop(0))
            c.hands[Side.ITALIAN].append(theirs)
            c.cup.sort()
        bot = PlannerBot(9, budget=3)
        choice = bot.choose(SideSeat(game, Side.ALLIED))
        seen.append((sorted(c.hands[Side.ITALIAN]), choice.action, [x.value for x in bot.last_candidates]))
    assert seen[0][0] != seen[1][0]
    assert seen[0][1:] == seen[1][1:]


def test_the_reserve_plan_keeps_fast_units_back_near_a_hub() -> None:
    p = raided(Phase.MOVEMENT, Side.ALLIED)
    p.allied_control.add("Kassala")
    game = Game.from_position(p, seed=2)
    plan = PlannerBot(1)._reserve_plan(SideSeat(game, Side.ALLIED))
    assert plan is not None and "reaction reserve" in plan.label
    assert plan.hold == frozenset({"sdf_mmg_1"}) and "Sudan 1 MMG" in plan.label


def test_the_tactician_keeps_back_the_units_an_attack_does_not_need() -> None:
    """Two native companies side by side, two Allied stacks next to them: the tactician's first
    attack leaves out the units that do not change its odds (13-1 is the last column, 11.5), so
    the second can go in."""
    p = Position.empty(S, seed=1)
    for uid, h in {"ind_10": "0509", "ind_29": "0510", "ind_5": "0510", "nat_humera": "0609",
                   "nat_adi_abun": "0610"}.items():
        p.place(uid, h)
    p.set_turn(4, Side.ALLIED, Phase.COMBAT)
    p.chits.hands[Side.ALLIED].clear()
    p.chits.hands[Side.ITALIAN].clear()
    game = Game(S, seed=1, position=p)
    attacks = []
    bot = TacticianBot(1)
    while game.phase is Phase.COMBAT and game.phasing is Side.ALLIED:
        choice = bot.choose(SideSeat(game, game.acting))
        if choice.action.kind == "attack":
            attacks.append(choice)
        game.apply(choice.action)
    assert len(attacks) == 2
    assert "kept for another attack" in attacks[0].reason
    first, second = (set(a.action.attackers) for a in attacks)  # type: ignore[attr-defined]
    assert not first & second and "ind_29" in second


def test_the_command_line_defaults_analyse_to_the_strongest_bot_and_budgets_the_planner() -> None:
    import argparse

    from cheren.cli import main as cli
    from cheren.cli.checks import budgeted

    assert cli.STRONGEST == STRONGEST
    args = argparse.Namespace(allied="planner", italian="lookahead", budget=3)
    budgeted(args)
    assert (args.allied, args.italian) == ("planner:3", "lookahead:3")


def kassala_threatened() -> Position:
    """Turn 3, Allied Movement: two Indian brigades east of Kassala draw their supply through it
    (12.1); Sudan EAC 1 holds the town, Sudan EAC 2 stands next to it, and Col 41 (4-5) is close
    enough to attack it before the Allies move again."""
    p = Position.empty(S, seed=5)
    for uid, h in {"sudan_eac_1": "0208", "sudan_eac_2": "0309", "sdf_mmg_1": "0410", "ind_10": "0512",
                   "ind_29": "0611", "col_41": "0505"}.items():
        p.place(uid, h)
    p.allied_control.update({"Kassala", "Tessenei", "Sabderat"})
    p.set_turn(3, Side.ALLIED, Phase.MOVEMENT)
    p.chits.hands[Side.ALLIED].clear()
    p.chits.hands[Side.ITALIAN].clear()
    return p


def test_a_hub_the_army_hangs_on_gets_a_garrison_sized_to_the_raid_that_can_reach_it() -> None:
    from cheren.engine.combat_whatif import Choices, proposed, what_if

    p = kassala_threatened()
    seat = SideSeat(Game.from_position(p, seed=3), Side.ALLIED)
    plan = PlannerBot(4)._guard_plan(seat)
    assert plan is not None and "sudan_eac_1" in plan.hold
    moves = [m for m in plan.first if isinstance(m, Move)]
    assert any(m.unit == "sudan_eac_2" and m.to == H("0208") for m in moves)
    assert "Kassala: Sudan EAC 2 too, against the raid that can reach it (1 unit: 50% to take it, now 0%" in plan.label
    # the figures are the engine's what-if (11.5): Col 41 against one battalion at 2-1, against two at 1-1,
    # the garrison standing and taking the loss (11.7), the raider pushing when it may (11.8)
    choices = Choices(defender_retreats=False, attacker_pushes=True)
    assert what_if(p, proposed("0208", ["col_41"]), choices=choices).p_vacated == Fraction(1, 2)
    two = p.copy()
    two.place("sudan_eac_2", "0208")
    assert what_if(two, proposed("0208", ["col_41"]), choices=choices).p_vacated == 0
    # without the sizing the guard leaves the weakest unit only, as before
    unsized = PlannerBot(4, size_hubs=False)._guard_plan(seat)
    assert unsized is not None and "too" not in unsized.label
    assert not any(m.unit == "sudan_eac_2" and m.to == H("0208") for m in unsized.first if isinstance(m, Move))


def test_every_plan_keeps_the_hub_the_army_hangs_on_and_says_so() -> None:
    game = Game.from_position(kassala_threatened(), seed=3)
    bot = PlannerBot(4)
    said = []
    while game.phase is Phase.MOVEMENT and game.phasing is Side.ALLIED:
        choice = bot.choose(SideSeat(game, game.acting))
        assert game.check(choice.action).ok
        said.append(choice.reason)
        game.apply(choice.action)
    assert bot.last_candidates and all("held: our supply hangs on it (12.1, 15.0)" in c.label or
                                       "Kassala: Sudan EAC 2 too" in c.label for c in bot.last_candidates)
    there = [u for u in game.position.units_at(H("0208")) if game.position.units[u].side is Side.ALLIED]
    assert set(there) >= {"sudan_eac_1", "sudan_eac_2"}
    assert "Kassala" in said[0]
