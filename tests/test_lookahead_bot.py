"""The look-ahead bot: reproducible from its seed, blind to the enemy's hand, acting through the
gate, and seeing the supply cuts the heuristic bot misses, its own and the enemy's."""

from __future__ import annotations

import pytest

from cheren import load_scenario
from cheren.engine.game import Game
from cheren.engine.position import Position
from cheren.engine.rules.supply import unit_supply
from cheren.engine.threats import supply_cuts
from cheren.players.bots import BOTS, LookaheadBot, make_bot
from cheren.players.simulate import play_game
from cheren.players.views import SideSeat
from cheren.scenario import Phase, Side

S = load_scenario()
ARRESSA_TOWNS = {"Kassala", "Tessenei", "Aicota", "Barentu", "Tole", "Arressa"}


def cut_the_track() -> Position:
    """The course's exercise (lesson 7): the Italians to move, the Alpini on the mountain beside
    Arressa, where 10 Ind is supplied along the track."""
    from cheren.study.lessons import load_lesson, start_position

    lesson = load_lesson("supply", S)
    return start_position(lesson, lesson.exercise("cut-the-track"), S)


def arressa(side: Side, turn: int, extra: dict[str, str] | None = None) -> Position:
    """10 Ind holds Arressa, supplied along the track; the Alpini wait on the mountain beside it."""
    p = Position.empty(S, seed=4)
    units = {"ind_10": "2413", "alpini_uork_amba": "2414", "col_bn_adi_ugri": "2613", **(extra or {})}
    for uid, h in units.items():
        p.place(uid, h)
    p.allied_control.update(ARRESSA_TOWNS)
    p.set_turn(turn, side, Phase.MOVEMENT)
    return p


def _movement(game: Game, side: Side, bot_name: str) -> list[str]:
    """Play ``side``'s Movement phase with that bot (the other side's answers by the heuristic)."""
    bot, other = make_bot(bot_name, 1), make_bot("heuristic", 2)
    moved = []
    while game.phase is Phase.MOVEMENT and game.phasing is side and not game.over:
        acting = game.acting
        choice = (bot if acting is side else other).choose(SideSeat(game, acting))
        assert game.check(choice.action).ok  # through the gate, always
        game.apply(choice.action)
        if choice.action.kind == "move" and acting is side:
            moved.append(choice.reason)
    return moved


def test_it_is_registered_and_takes_a_budget() -> None:
    assert "lookahead" in BOTS
    bot = make_bot("lookahead:9", 3)
    assert isinstance(bot, LookaheadBot) and bot.budget == 9
    with pytest.raises(ValueError, match="only the lookahead and planner bots take a budget"):
        make_bot("heuristic:4", 1)
    with pytest.raises(ValueError):
        LookaheadBot(1, budget=0)


def test_the_same_seed_plays_the_same_game() -> None:
    from cheren.files import load_position, position_code

    last_weeks = position_code(load_position("asmara", S))  # turn 11: two turns to play
    a = play_game(0, 11, "lookahead:2", "lookahead:2", start=last_weeks)
    b = play_game(0, 11, "lookahead:2", "lookahead:2", start=last_weeks)
    assert (a.allied_vp, a.actions, a.allied_steps_lost, a.italian_steps_lost) == (
        b.allied_vp, b.actions, b.allied_steps_lost, b.italian_steps_lost)


def test_it_never_sees_the_enemys_chits() -> None:
    """Two games alike but for which Allied chits are in the hand and which in the cup: the
    Italian look-ahead bot weighs the same plans and makes the same moves in both."""
    hands = []
    for swap in (False, True):
        p = cut_the_track()
        c = p.chits
        if swap:  # an Allied chit from the cup into the Allied hand, and one back (unseen by the Italians)
            mine = next(x for x in c.cup if S.chits[x.rsplit(".", 1)[0]].side is Side.ALLIED
                        and x not in c.hands[Side.ALLIED])
            c.cup.remove(mine)
            c.cup.append(c.hands[Side.ALLIED].pop(0))
            c.hands[Side.ALLIED].append(mine)
            c.cup.sort()
        game = Game.from_position(p, seed=4)
        bot = LookaheadBot(7, budget=3)
        choice = bot.choose(SideSeat(game, Side.ITALIAN))
        hands.append((sorted(c.hands[Side.ALLIED]), choice.action, choice.reason))
    assert hands[0][0] != hands[1][0]
    assert hands[0][1:] == hands[1][1:]


def test_it_finds_the_supply_cut_the_heuristic_misses() -> None:
    """The Italians to move: the Alpini can step down onto the track behind Arressa (15.0)."""
    start = cut_the_track()
    assert any(c.unit == "ind_10" and c.by == "alpini_uork_amba" for c in supply_cuts(start, Side.ALLIED))
    heuristic = Game.from_position(start, seed=3)
    _movement(heuristic, Side.ITALIAN, "heuristic")
    assert unit_supply(heuristic.position, "ind_10").supplied
    lookahead = Game.from_position(start, seed=3)
    reasons = _movement(lookahead, Side.ITALIAN, "lookahead:4")
    assert not unit_supply(lookahead.position, "ind_10").supplied
    assert reasons and reasons[0].startswith("look-ahead over 4 movement plans: chose plan")


def test_it_defends_against_a_supply_cut() -> None:
    """The Allies to move: 10 Ind holds Arressa, where the Alpini can step down onto its track
    (15.0), and 5 Ind stands behind it.  The heuristic bot marches 5 Ind up into a second line the
    Alpini could cut; the look-ahead bot, charging each plan for the steps it leaves open to a
    cut (the threat map), keeps 5 Ind's line safe and says so."""
    def open_to_cut(p: Position) -> set[str]:
        return {c.unit for c in supply_cuts(p, Side.ALLIED) if c.by == "alpini_uork_amba"}

    start = arressa(Side.ALLIED, 6, {"ind_5": "2212"})
    assert open_to_cut(start) == {"ind_10"}
    heuristic = Game(S, seed=4, position=start.copy())
    _movement(heuristic, Side.ALLIED, "heuristic")
    assert open_to_cut(heuristic.position) == {"ind_10", "ind_5"}
    lookahead = Game(S, seed=4, position=start.copy())
    bot = make_bot("lookahead", 1)
    first = bot.choose(SideSeat(lookahead, Side.ALLIED))
    assert "of our steps open to a supply cut" in first.reason
    _movement(lookahead, Side.ALLIED, "lookahead")
    assert open_to_cut(lookahead.position) == {"ind_10"}


def test_it_explains_its_choice_with_the_plans_it_weighed_and_keeps_to_the_plan() -> None:
    """The first move names every plan weighed with its figures; each later move gives its own
    reason and the plan it belongs to; when the plan is made the phase ends (the heuristic bot
    does not go on moving units the plan kept back)."""
    game = Game.from_position(cut_the_track(), seed=4)
    bot = LookaheadBot(1, budget=3)
    said: list[tuple[str, str]] = []
    while game.phase is Phase.MOVEMENT and game.phasing is Side.ITALIAN:
        mover = bot if game.acting is Side.ITALIAN else make_bot("heuristic", 2)
        choice = mover.choose(SideSeat(game, game.acting))
        if game.acting is Side.ITALIAN:
            said.append((choice.action.kind, choice.reason))
        game.apply(choice.action)
    assert len(bot.last_candidates) == 3
    chosen = max(bot.last_candidates, key=lambda c: (c.value, -c.index))
    (kind, first), *rest = said
    assert kind == "move" and first.startswith("look-ahead over 3 movement plans: chose plan")
    assert "\nalso weighed plan" in first and "Allied VP" in first and "\nthis move: " in first
    assert [k for k, _ in rest] == ["move"] * (chosen.moves - 1) + ["end_phase"]
    assert all(f"of the look-ahead's plan {chosen.index + 1}" in why for _, why in rest[:-1])
    assert rest[-1][1].endswith("is made")


def test_analysis_plays_out_with_the_bot_and_budget_it_is_given(capsys: pytest.CaptureFixture[str]) -> None:
    from cheren.cli.main import main
    from cheren.files import load_position
    from cheren.study.analysis.evaluate import bot_label, evaluate

    assert bot_label("lookahead") == "lookahead (8 plans per Movement phase)"
    assert bot_label("lookahead:12") == "lookahead (12 plans per Movement phase)"
    ev = evaluate(load_position("massaua", S), 2, allied="lookahead:2", italian="heuristic", seed=1)
    assert "lookahead (2 plans per Movement phase) (Allies)" in ev.explain()
    assert main(["analyse", "massaua", "--games", "2", "--bot", "lookahead", "--budget", "2", "--quiet"]) == 0
    assert "lookahead (2 plans per Movement phase)" in capsys.readouterr().out
    assert main(["simulate", "--games", "1", "--allied", "lookahead", "--budget", "0", "--quiet"]) == 2


def test_the_garrison_plan_keeps_a_unit_in_each_town_the_enemy_can_reach() -> None:
    """10 Ind holds Arressa with the Alpini next door: the heuristic bot walks it out of the town,
    the look-ahead bot weighs a plan that keeps it there (the Alpini would walk in, 2.1) and takes it."""
    start = arressa(Side.ALLIED, 6, {"ind_5": "2212"})
    heuristic = Game(S, seed=4, position=start.copy())
    _movement(heuristic, Side.ALLIED, "heuristic")
    assert heuristic.position.units["ind_10"].hex != start.units["ind_10"].hex
    lookahead = Game(S, seed=4, position=start.copy())
    reasons = _movement(lookahead, Side.ALLIED, "lookahead")
    assert lookahead.position.units["ind_10"].hex == start.units["ind_10"].hex
    bot = make_bot("lookahead", 1)
    assert isinstance(bot, LookaheadBot)
    bot.choose(SideSeat(Game(S, seed=4, position=start.copy()), Side.ALLIED))
    labels = [c.label for c in bot.last_candidates]
    assert "garrison the towns the enemy can reach (Arressa)" in labels, labels
    assert reasons == []  # the plan chosen moves no unit, and nothing else moves either


def test_a_held_unit_is_never_moved_by_the_heuristic_planner() -> None:
    from cheren.players.bots import HeuristicBot

    start = arressa(Side.ALLIED, 6, {"ind_5": "2212"})
    for hold in (frozenset(), frozenset({"ind_10"})):
        game = Game(S, seed=4, position=start.copy())
        bot = HeuristicBot(1)
        bot.hold = hold
        while game.phase is Phase.MOVEMENT and game.phasing is Side.ALLIED:
            mover = bot if game.acting is Side.ALLIED else make_bot("heuristic", 2)
            game.apply(mover.choose(SideSeat(game, game.acting)).action)
        stayed = game.position.units["ind_10"].hex == start.units["ind_10"].hex
        assert stayed is bool(hold)
