"""The planning bot: it plans its Movement, its reactions and its Exploitation by playing plans
out through the gate, plays its attacks and decisions through the tactician, retakes a lost hub
at once, keeps a reaction reserve, sees only its own side, explains itself in words, and the
same seed plays the same game."""

from __future__ import annotations

import re

import pytest

from cheren import load_scenario
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


@pytest.mark.parametrize("turn", [1, 4, 8])
def test_town_lines_skip_towns_the_search_cannot_reach_and_find_the_same_regions(turn: int) -> None:
    """town_lines works out the region a town carries only for towns its network search can
    reach (an own town on the network; an enemy town that is a source or next to the network
    along road or track); every town, with the region searched again for each, gives the same."""
    import random

    from cheren.players.bots.hubs import _board

    board = _board(S)
    rng = random.Random(turn)
    names = sorted(S.towns)
    for _ in range(12):
        p = Position.empty(S, seed=1)
        p.set_turn(turn, Side.ALLIED, Phase.MOVEMENT)
        p.allied_control.update(n for n in names if rng.random() < 0.5)
        for side in Side:
            held = p.allied_control
            enemy = frozenset(h for name, h in board.towns.items() if (name in held) is (side is Side.ITALIAN))
            now = board.region(S, side, turn, enemy)
            every = {name: (board.region(S, side, turn, enemy - {h}) & ~now if h in enemy
                            else now & ~board.region(S, side, turn, enemy | {h})) for name, h in board.towns.items()}
            assert dict(town_lines(p, side)) == every


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
