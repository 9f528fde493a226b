"""What the planner's play-outs share may change no choice (issue 29, item 2): a play-out whose
planned phase ends exactly as an earlier one of its search did (the same actions, or the same
position and flow, with the same dice and bots) takes that one's value instead of playing the
rest again, and gives the values the whole play-out gives; the hub weights kept under a side's
change stamp are the ones worked out afresh after its units change."""

from __future__ import annotations

import pytest

from cheren import load_scenario
from cheren.engine.actions import Action
from cheren.engine.game import Game
from cheren.engine.position import Position
from cheren.hexes import Hex
from cheren.players.bots import PlannerBot, TacticianBot, hubs, planner
from cheren.players.views import SideSeat
from cheren.scenario import Phase, Side

S = load_scenario()

Searches = list[list[tuple[int, int, float, int, int, int, int]]]


def _play(seed: int, last_turn: int) -> tuple[list[Action], Searches]:
    """A planner mirror game up to ``last_turn``: its actions and every search's candidates."""
    game = Game(S, seed=seed)
    bots = {Side.ALLIED: PlannerBot(seed * 2 + 1), Side.ITALIAN: PlannerBot(seed * 2 + 2)}
    seats = {side: SideSeat(game, side) for side in Side}
    searches: Searches = []
    while not game.over and game.turn <= last_turn:
        bot = bots[game.acting]
        before = bot.last_candidates
        action = bot.choose(seats[game.acting]).action
        if bot.last_candidates is not before:
            searches.append([(c.index, c.moves, c.value, c.vp, c.steps, c.marked, c.exposed)
                             for c in bot.last_candidates])
        game.apply(action)
    return [e.action for e in game.log], searches


def test_a_play_out_taken_from_an_earlier_one_gives_what_playing_it_out_gives(monkeypatch: pytest.MonkeyPatch) -> None:
    same = planner._Rest.same
    taken: list[bool] = []

    def counted(self: planner._Rest, other: planner._Rest) -> bool:
        found = same(self, other)
        taken.append(found)
        return found

    monkeypatch.setattr(planner._Rest, "same", counted)
    shared = _play(5, 3)
    assert sum(taken) >= 2  # plans whose phases came out alike did share the rest
    monkeypatch.setattr(planner._Rest, "same", lambda self, other: False)  # every play-out played out
    assert _play(5, 3) == shared  # every search's values and every action the same


def test_a_play_out_reaching_an_earlier_one_s_position_by_other_moves_takes_its_value(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the same position and flow after the planned phase, the same dice and bots, other actions
    # (moves made in another order): the rest goes on alike, the log is read by nothing
    same = planner._Rest.same
    by_state: list[bool] = []

    def counted(self: planner._Rest, other: planner._Rest) -> bool:
        found = same(self, other)
        by_state.append(found and self.actions != other.actions)
        return found

    monkeypatch.setattr(planner._Rest, "same", counted)
    shared = _play(6, 4)
    assert sum(by_state) >= 1
    monkeypatch.setattr(planner._Rest, "same", lambda self, other: False)
    assert _play(6, 4) == shared


def raided() -> Position:
    p = Position.empty(S, seed=5)
    for uid, h in {"ind_10": "0512", "ind_29": "0611", "sdf_mmg_1": "0410", "guillet": "0305"}.items():
        p.place(uid, h)
    p.allied_control.update({"Tessenei", "Sabderat"})
    p.set_turn(3, Side.ALLIED, Phase.MOVEMENT)
    return p


def test_hub_weights_kept_under_the_side_s_stamp_follow_its_units() -> None:
    p = raided()
    before = hubs.hub_weights(p, Side.ALLIED)
    assert before["Kassala"] >= 8 and before == hubs._hub_weights(p, Side.ALLIED)
    p.units["ind_10"].hex = Hex.from_label("0305")  # a brigade leaves the Kassala road
    after = hubs.hub_weights(p, Side.ALLIED)
    assert after == hubs._hub_weights(p, Side.ALLIED) and after["Kassala"] < before["Kassala"]
    with pytest.raises(TypeError):  # the kept weights are read-only: no caller changes them
        after["Kassala"] = 0  # type: ignore[index]
    assert hubs.hub_weights(p, Side.ALLIED)["Kassala"] > 0


def _fields_kept(module: str, cls: str) -> set[str]:
    """Every ``self.<name> = ...`` in a class's source: the fields its bots keep."""
    import ast
    from pathlib import Path

    import cheren

    tree = ast.parse(Path(cheren.source_path(module)).read_text(encoding="utf-8"))
    body = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls)
    targets = [t for n in ast.walk(body) if isinstance(n, ast.Assign) for t in n.targets]
    targets += [n.target for n in ast.walk(body) if isinstance(n, ast.AnnAssign)]
    return {t.attr for t in targets if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name)
            and t.value.id == "self"}


def test_the_bot_state_play_outs_compare_holds_every_field_a_tactician_keeps() -> None:
    # compiled (cheren.COMPILED_MODULES) a tactician has no __dict__: its fields are read by name,
    # and a field left out would let two play-outs whose bots differ share their rest; only the
    # fields no later phase reads as they were (planner._REMADE) are left out
    bot = TacticianBot(3)
    state = planner._bot_state(bot)
    kept = (_fields_kept("cheren.players.bots.heuristic", "HeuristicBot")
            | _fields_kept("cheren.players.bots.tactician", "TacticianBot"))
    remade = planner._REMADE
    assert remade == frozenset({"_ours", "_keep", "_queue", "_queue_for", "_hubs"}) and kept >= remade
    assert {"rng", "hold", "pull"} <= kept - remade <= set(state) and not remade & set(state)
    other = TacticianBot(3)
    assert planner._bot_state(other) == state
    other.pull = {Hex.from_label("0512"): 1.0}
    assert planner._bot_state(other) != state
    other = TacticianBot(3)
    other.rng.random()
    assert planner._bot_state(other) != state
