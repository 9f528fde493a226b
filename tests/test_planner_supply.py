"""planner2: the planner with its supply mends (docs/bots.md, "Where the planner's Allies starve").

The planner's Allies lost about 22 steps a game to attrition (12.6), nearly all after an Italian
unit cut their supply road (12.1).  planner2 charges a unit cut off from supply for a move that
takes it no nearer to supply, and a movement plan for the steps one enemy reaction (10.0) could
cut off before our supply check.  The plain planner stays as it was: the evaluation model was
trained on its games (issue 34, item 5)."""

from __future__ import annotations

import pytest

from cheren import load_scenario
from cheren.engine.game import Game
from cheren.engine.position import Position, Supply
from cheren.engine.rules.supply_hexes import supplied_view
from cheren.hexes import Hex
from cheren.players.bots import STARVE, PlannerBot, TacticianBot, make_bot
from cheren.players.bots.reaches import reaction_cuts, reaction_reach
from cheren.players.bots.tactician import supply_distances
from cheren.players.views import SideSeat
from cheren.scenario import Phase, Side

S = load_scenario()


def test_planner2_is_the_planner_with_its_supply_mends_and_the_planner_is_unchanged() -> None:
    plain, mended, budgeted = make_bot("planner", 1), make_bot("planner2", 1), make_bot("planner2:3", 1)
    assert isinstance(plain, PlannerBot) and isinstance(mended, PlannerBot) and isinstance(budgeted, PlannerBot)
    assert (plain.starve, plain.reaction_cut, plain.base.starve) == (0.0, 0.0, 0.0)
    assert mended.starve > 0 and mended.reaction_cut > 0 and mended.base.starve == mended.starve
    assert budgeted.budget == 3 and budgeted.starve == mended.starve
    # the name a save keeps of the opponent, to make it again on loading
    assert (plain.name, mended.name, budgeted.name) == ("planner", "planner2", "planner2")


def cut_off(where: str) -> Position:
    """Turn 4: an Indian brigade under a Low supply marker (12.4) alone east of Kassala, the
    Italian towns beyond it empty, one Italian battalion far off at 2010."""
    p = Position.empty(S, seed=5)
    p.place("ind_10", where, supply=Supply.LOW)
    p.place("col_41", "2010")
    p.allied_control.add("Kassala")
    p.set_turn(4, Side.ALLIED, Phase.MOVEMENT)
    p.chits.hands[Side.ALLIED].clear()
    p.chits.hands[Side.ITALIAN].clear()
    return p


def distance_to_supply(where: str, starve: float) -> tuple[int, int]:
    """How far the brigade stands from a hex in Allied supply before and after the tactician
    moves it."""
    p = cut_off(where)
    gaps = supply_distances(supplied_view(p, Side.ALLIED)[1], S.adjacent)
    game = Game.from_position(p, seed=3)
    bot = TacticianBot(7, starve=starve)
    while game.phase is Phase.MOVEMENT and game.phasing is Side.ALLIED:
        game.apply(bot.choose(SideSeat(game, Side.ALLIED)).action)
    after = game.position.units["ind_10"].hex
    assert after is not None
    return gaps[Hex.from_label(where)], gaps[after]


@pytest.mark.parametrize("where", ["1008", "1110"])
def test_a_unit_cut_off_from_supply_walks_back_into_it_rather_than_deeper(where: str) -> None:
    before, after = distance_to_supply(where, STARVE)
    assert before > 0 and after == 0  # back in supply: its Low marker goes at the next check (12.4)
    # the plain tactician's score let the empty Italian towns deeper in pull it on, to 12.6's attrition
    before, after = distance_to_supply(where, 0.0)
    assert after > before


def kassala_road() -> Position:
    """Turn 3, the Allied Movement: two Indian brigades east of Kassala hang on its road for
    supply (12.1); Italian cavalry north of Kassala is free to react (10.0) onto the road."""
    p = Position.empty(S, seed=5)
    for uid, h in {"ind_10": "0512", "ind_29": "0611", "sdf_mmg_1": "0410", "guillet": "0305",
                   "col_41": "1110"}.items():
        p.place(uid, h)
    p.allied_control.update({"Tessenei", "Sabderat", "Kassala"})
    p.set_turn(3, Side.ALLIED, Phase.MOVEMENT)
    p.chits.hands[Side.ALLIED].clear()
    p.chits.hands[Side.ITALIAN].clear()
    return p


def worst_reaction_cut(p: Position) -> int:
    """The most Allied steps one Italian reaction move could leave without supply."""
    return max(reaction_cuts(p, Side.ALLIED).values(), default=0)


def test_the_reaction_that_could_cut_the_road_is_seen_and_paid_for() -> None:
    p = kassala_road()
    reach = reaction_reach(p, Side.ITALIAN)
    assert Hex.from_label("0208") in reach["guillet"]  # the cavalry could ride into Kassala itself
    assert worst_reaction_cut(p) >= 8  # both brigades, four steps each
    values = {}
    for charge in (0.0, 1.0):
        bot = PlannerBot(4, reaction_cut=charge)
        bot.choose(SideSeat(Game.from_position(kassala_road(), seed=3), Side.ALLIED))
        values[charge] = {c.label: c.value for c in bot.last_candidates}
    # the same plans, played out alike; the ones checked pay at least a step per step one reaction cuts
    assert values[0.0].keys() == values[1.0].keys()
    paid = [values[0.0][k] - values[1.0][k] for k in values[0.0] if values[0.0][k] != values[1.0][k]]
    assert paid and all(x >= 1.0 for x in paid)


def allied_movement(bot_name: str) -> tuple[Position, str]:
    """The Allied Movement phase of :func:`kassala_road` played by ``bot_name`` (the Italians'
    chit windows by the heuristic bot): the position after it and the reasons the bot gave for
    its actions, as the app's bot panel shows them (they name the plan chosen)."""
    game = Game.from_position(kassala_road(), seed=3)
    bot, other = make_bot(bot_name, 3), make_bot("heuristic", 5)
    reasons = []
    while game.phase is Phase.MOVEMENT and game.phasing is Side.ALLIED:
        if game.acting is Side.ALLIED:
            choice = bot.choose(SideSeat(game, Side.ALLIED))
            reasons.append(choice.reason)
        else:
            choice = other.choose(SideSeat(game, game.acting))
        game.apply(choice.action)
    assert isinstance(bot, PlannerBot)
    return game.position, "\n".join(reasons)


def test_planner2_pins_the_cavalry_that_could_cut_the_road() -> None:
    after, chosen = allied_movement("planner2")
    assert "pin the enemy units whose reaction could cut our supply" in chosen and "Guillet" in chosen
    guillet = after.units["guillet"].hex
    assert guillet is not None
    assert any(after.units[u].side is Side.ALLIED for n in guillet.neighbours() for u in after.units_at(n))
    assert worst_reaction_cut(after) == 0  # no Italian reaction can cut a step off now
    # the plain planner garrisons the towns but leaves the cavalry free to ride onto the road
    after, chosen = allied_movement("planner")
    assert "pin the enemy units" not in chosen and worst_reaction_cut(after) >= 8


def test_reports_name_planner2_with_its_budget() -> None:
    from cheren.study.analysis.evaluate import bot_label

    assert bot_label("planner2") == "planner2 (6 plans per Movement phase)"
    assert bot_label("planner2:4") == "planner2 (4 plans per Movement phase)"


def test_a_game_against_planner2_is_saved_and_taken_up_against_planner2() -> None:
    from cheren.app.board import Board

    board = Board(Game(S, seed=1941))
    board.opponent.set(make_bot("planner2", 1), Side.ITALIAN)
    saved = board.opponent.saved()
    assert saved == ("planner2", Side.ITALIAN)  # not "planner": a reload would bring back the bot without the mends
    other = Board(Game(S, seed=1941))
    other.opponent.take_up(saved)
    assert other.opponent.saved() == ("planner2", Side.ITALIAN)
    assert getattr(other.opponent.bot, "__name__", None) == "planner2"


def test_the_command_line_budget_reaches_planner2_and_is_bounded() -> None:
    import argparse

    from cheren.cli.checks import MAX_BUDGET, UsageError, budgeted, check_bots

    args = argparse.Namespace(allied="planner2", italian="heuristic", budget=3)
    budgeted(args)
    assert (args.allied, args.italian) == ("planner2:3", "heuristic")  # was silently played with 6 plans
    with pytest.raises(UsageError, match="budget must be from 1"):
        check_bots(f"planner2:{MAX_BUDGET + 1}")
