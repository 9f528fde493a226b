"""Bots and batch simulation: reproducible, parallel, replayable from the log."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from cheren.cli.main import main
from cheren.engine.actions import Action
from cheren.engine.game import Game
from cheren.engine.opening import initial_position
from cheren.engine.position import chit_key
from cheren.players.bots import RandomBot, make_bot
from cheren.players.simulate import read_results, replay_result, simulate, summary, write_results
from cheren.players.views import SideSeat, redacted_position
from cheren.scenario import Side, load_scenario


def test_the_random_bot_picks_only_legal_actions_for_its_own_side() -> None:
    game = Game(load_scenario(), seed=2)
    bot = RandomBot(3)
    for _ in range(60):
        side = game.acting
        seat = SideSeat(game, side)
        choice = bot.choose(seat)
        assert game.check(choice.action).ok
        assert SideSeat(game, side.enemy).legal_actions() == []
        game.apply(choice.action)


def test_a_seat_hides_what_its_side_may_not_know() -> None:
    game = Game(load_scenario(), seed=4)
    seat = SideSeat(game, Side.ALLIED)
    p = seat.position()
    assert p.chits.hands[Side.ITALIAN] == [] and p.chits.cup == []
    assert p.chits.hands[Side.ALLIED] == game.position.chits.hands[Side.ALLIED]
    assert p.dice != game.position.dice
    assert redacted_position(game.position, Side.ITALIAN).chits.hands[Side.ALLIED] == []


def test_unknown_bots_are_refused_by_name() -> None:
    with pytest.raises(ValueError, match="unknown bot 'grandmaster'"):
        make_bot("grandmaster", 1)


def test_simulation_is_reproducible_and_independent_of_the_executor() -> None:
    serial = simulate(3, seed=9, keep_log=True)
    with ThreadPoolExecutor(max_workers=2) as pool:
        threaded = simulate(3, seed=9, keep_log=True, executor=pool)
    assert [r.log for r in serial] == [r.log for r in threaded]
    assert [r.allied_vp for r in serial] == [r.allied_vp for r in threaded]
    assert len({r.seed for r in serial}) == 3


def test_a_result_matches_replaying_its_log(tmp_path: Path) -> None:
    results = simulate(2, seed=1, keep_log=True)
    write_results(results, tmp_path / "runs.json")
    again = read_results(tmp_path / "runs.json")
    s = load_scenario()
    for result in again:
        game = replay_result(result, s)
        assert game.over
        assert game.position.allied_vp() == result.allied_vp
        assert sorted(game.position.allied_control) == result.control[-1]
        assert s.victory_level(result.allied_vp) == result.level


def test_results_as_csv_and_summary(tmp_path: Path) -> None:
    results = simulate(2, seed=3)
    write_results(results, tmp_path / "runs.csv")
    lines = (tmp_path / "runs.csv").read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("index,seed,allied_bot") and len(lines) == 3
    text = summary(results)
    assert "2 games" in text and "| victory level | games | share |" in text


def test_cheren_simulate_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "sim.json"
    assert main(["simulate", "--games", "2", "--seed", "7", "--jobs", "2", "--out", str(out), "--quiet"]) == 0
    rows = json.loads(out.read_text(encoding="utf-8"))["games"]
    assert [r["index"] for r in rows] == [0, 1]
    assert "2 games" in capsys.readouterr().out
    assert main(["simulate", "--games", "1", "--allied", "nobody", "--quiet"]) == 2


@pytest.mark.parametrize("heuristic_side", ["allied", "italian"])
def test_the_heuristic_bot_beats_the_random_bot_on_either_side(heuristic_side: str) -> None:
    allied = "heuristic" if heuristic_side == "allied" else "random"
    italian = "heuristic" if heuristic_side == "italian" else "random"
    results = simulate(5, seed=21, allied=allied, italian=italian)
    wins = sum(r.winner == heuristic_side for r in results)
    assert wins >= 4, summary(results)


def test_the_heuristic_bot_explains_every_choice_and_acts_legally() -> None:
    from cheren.players.bots import HeuristicBot

    game = Game(load_scenario(), seed=8)
    bots = {side: HeuristicBot(1) for side in Side}
    kinds: set[str] = set()
    while game.turn <= 3 and not game.over:
        seat = SideSeat(game, game.acting)
        choice = bots[game.acting].choose(seat)
        assert choice.reason and game.check(choice.action).ok
        kinds.add(choice.action.kind)
        game.apply(choice.action)
    assert {"move", "end_phase"} <= kinds


def allied_choices(italian_hand: list[str], turns: int = 2) -> list[Action]:
    """The heuristic bot's Allied actions over the first turns of seed 8's game, the Italian hand
    set to ``italian_hand`` (the cup as dealt) and the Italians never playing a chit."""
    from cheren.players.bots import HeuristicBot

    scenario = load_scenario()
    start = initial_position(scenario, seed=8)
    start.chits.hands[Side.ITALIAN] = list(italian_hand)
    game = Game(scenario, seed=8, position=start)
    bot = HeuristicBot(1)
    out: list[Action] = []
    while game.turn <= turns and not game.over:
        if game.acting is Side.ALLIED:
            action = bot.choose(SideSeat(game, Side.ALLIED)).action
            out.append(action)
        else:
            legal = game.legal_actions()
            action = next((a for a in legal if a.kind in ("pass_chit", "end_phase")), legal[0])
        game.apply(action)
    return out


def test_the_heuristic_bot_plays_the_same_whatever_the_enemy_hand_holds() -> None:
    """Two games that differ only in the Italian hand (of the same size; the cup the same, the
    Italians never playing a chit) give the Allied bot the same public game: if it read the hidden
    hand its choices would differ.  (A bot sees the game through a SideSeat, whose position() is
    redacted; this checks what the bot does, not only what it is handed.)"""
    dealt = initial_position(load_scenario(), seed=8).chits.hands[Side.ITALIAN]
    other = ["ambush.8", "ambush.9", "counterattack.9", "exploit_italian.9"]  # no kind of the dealt hand
    assert len(other) == len(dealt) and not {chit_key(c) for c in other} & {chit_key(c) for c in dealt}
    first = allied_choices(dealt)
    assert len(first) > 20 and {a.kind for a in first} >= {"move", "end_phase"}
    assert allied_choices(other) == first


def test_the_summary_lists_victory_levels_in_the_order_of_the_scale_with_the_median() -> None:
    from cheren.players.simulate import GameResult

    def game(vp: int, level: str, winner: str) -> GameResult:
        return GameResult(0, 0, "heuristic", "heuristic", vp, level, winner, 0, 0, 0)

    rows = [game(30, "Allied major victory", "allied"), game(21, "Draw", "draw"),
            game(3, "Italian major victory", "italian"), game(28, "Allied major victory", "allied")]
    text = summary(rows)
    assert "allied VP: mean 20.5, median 24.5, min 3, max 30" in text
    table = [line.split(" | ")[0].strip("| ") for line in text.splitlines() if line.endswith("% |")]
    assert table == ["Italian major victory", "Draw", "Allied major victory"]


def test_step_losses_are_counted_by_the_rule_that_caused_them() -> None:
    from collections import Counter

    from cheren.engine.actions import Replace
    from cheren.engine.position import Status
    from cheren.players.simulate import loss_cause, play_game, step_losses

    assert [loss_cause(r) for r in ("3.1", "12.6", "11.5", "8.1", "6.0")] == [
        "stacking", "attrition", "combat", "combat", "other"]
    game = Game(load_scenario(), seed=12)
    bots = {Side.ALLIED: RandomBot(1), Side.ITALIAN: RandomBot(2)}
    while not game.over:
        game.apply(bots[game.acting].choose(SideSeat(game, game.acting)).action)
    recorded: Counter[str] = Counter()
    for entry in game.log:
        for loss in entry.losses:
            recorded[loss.unit] += loss.steps
    replaced = Counter(e.action.unit for e in game.log if isinstance(e.action, Replace))
    for uid, unit in game.position.units.items():
        lost = game.scenario.units[uid].steps if unit.status is Status.ELIMINATED else unit.steps_lost
        assert recorded[uid] == lost + replaced[uid], uid
    by_cause = step_losses(game)
    assert sum(sum(c.values()) for c in by_cause.values()) == sum(recorded.values()) > 0
    assert play_game(0, 100, "heuristic", "heuristic").losses["allied"]
