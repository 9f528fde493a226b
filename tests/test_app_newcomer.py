"""What a first-time user hit in the app (issue 20), as controller and app tests: deselecting,
inspecting any stack, the phase hint, the attack panel, the air box, odds through a chit window."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from cheren.app.app import App
from cheren.app.board import Board
from cheren.engine.actions import PassChit
from cheren.engine.game import Game
from cheren.hexes import Hex
from cheren.scenario import Phase, Scenario, Side, load_scenario

H = Hex.from_label


@pytest.fixture(scope="module")
def scenario() -> Scenario:
    return load_scenario()


def _movement(scenario: Scenario) -> Board:
    c = Board(Game(scenario, seed=1941))
    c.play.end_phase()
    if c.game.pending is not None:
        c.decisions.apply(PassChit())
    assert c.game.phase is Phase.MOVEMENT
    return c


def test_a_click_on_an_empty_hex_deselects_and_never_moves(scenario: Scenario) -> None:
    c = _movement(scenario)
    c.play.select("tank_sqn")
    before = len(c.game.log)
    fb = c.click_hex(H("0720"))  # a hex the tank cannot reach: no move is tried, the selection goes
    assert c.selected is None and len(c.game.log) == before
    assert fb.kind == "refused" and "0720" in fb.text and fb.rules
    c.play.select("tank_sqn")
    assert c.escape().text.startswith("Nothing selected") and c.selected is None


def test_clicking_an_enemy_stack_shows_its_counters_supply_and_next_reach(scenario: Scenario) -> None:
    c = _movement(scenario)
    c.play.select("tank_sqn")
    fb = c.click_hex(H("0408"))  # Sabderat, Italian
    assert c.selected == "col_bn_sabderat" and c.stack_hex == H("0408")
    assert "next Movement phase" in fb.text
    assert [u.name for u in c.play.stack()] == ["Col bn (Sabderat)"]
    kinds = {o.kind for o in c.overlays.drawn()}
    assert {"reach-next", "supply-line"} <= kinds
    reach = next(o for o in c.overlays.drawn() if o.kind == "reach-next")
    assert len(reach.hexes) == len(c.play.next_reach("col_bn_sabderat")) > 5


@pytest.mark.parametrize(
    "phase, words",
    [
        (Phase.REINFORCEMENT, "arrivals are placed"),
        (Phase.MOVEMENT, "click a unit, then one of its highlighted hexes"),
        (Phase.REACTION, "3 stacking value"),
        (Phase.COMBAT, "click an enemy hex"),
        (Phase.SUPPLY, "traces supply"),
        (Phase.EXPLOITATION, "may move again"),
    ],
)
def test_the_hint_line_says_what_to_do_in_each_phase(scenario: Scenario, phase: Phase, words: str) -> None:
    from cheren.engine.opening import initial_position

    p = initial_position(scenario, seed=3)
    p.set_turn(2, "allied", phase.value)
    p.chits.hands[Side.ITALIAN].clear()  # no chit window in the way
    c = Board(Game(scenario, seed=3, position=p))
    if c.game.pending is None:
        assert words in c.play.phase_hint()


def test_in_the_reinforcement_phase_a_click_on_a_unit_says_what_to_do(scenario: Scenario) -> None:
    c = Board(Game(scenario, seed=1941))
    fb = c.click_hex(H("0208"))
    assert c.selected is not None
    assert "Reinforcement phase" in fb.text and "End phase" in fb.text


def _combat(scenario: Scenario, turn: int = 1) -> Board:
    from cheren.engine.opening import initial_position

    # the opening, with 5 Ind moved next to the Sabderat battalion, in the Allied Combat phase
    p = initial_position(scenario, seed=1941)
    p.place("ind_5", "0308")
    p.set_turn(turn, "allied", "combat")
    c = Board(Game(scenario, seed=1941, position=p))
    assert c.game.phase is Phase.COMBAT and c.game.pending is None
    return c


def test_the_attack_panel_lists_the_attackers_and_says_who_was_added(scenario: Scenario) -> None:
    c = _combat(scenario)
    app = App(c.game)
    ac = app.board
    ac.click_hex(H("0408"))
    fb = ac.click_hex(H("0308"))
    assert fb.text.startswith("Added 5 Ind (0308) to the attack.")
    odds = app.combat_view.odds
    assert "Attackers</b>: 5 Ind (0308)" in odds.value and "Defender</b>: 0408" in odds.value
    fb = ac.click_hex(H("0308"))
    assert fb.text.startswith("Took 5 Ind (0308) out of the attack.")


def test_the_air_box_is_disabled_before_the_air_unit_arrives(scenario: Scenario) -> None:
    c = _combat(scenario)
    app = App(c.game)
    assert app.combat_view.air.disabled and "turn 3" in app.combat_view.air.tooltip
    fb = app.board.combat.set_air(True)
    assert fb.kind == "refused" and fb.rules == ("11.3",) and not app.board.combat.draft.air


def test_after_roll_the_odds_stay_visible_through_the_chit_window_with_the_chits_effect(scenario: Scenario) -> None:
    c = _combat(scenario)
    assert any("Ambush" in n for n in c.hidden.chits_visible(Side.ITALIAN) or [])
    app = App(c.game)
    ac = app.board
    ac.click_hex(H("0408"))
    ac.click_hex(H("0308"))
    ac.combat.resolve_attack()
    assert ac.game.pending is not None and ac.game.pending.kind == "chit_window"
    waiting = ac.combat.waiting_attack()
    assert waiting is not None and waiting[0] == H("0408")
    assert any("Ambush" in line and "column" in line for line in waiting[3])
    odds = app.combat_view.odds.value
    assert "The die waits" in odds and "Column" in odds and "Ambush" in odds
    ac.decisions.apply(PassChit())
    assert ac.combat.waiting_attack() is None


def test_the_log_names_counters_and_a_bots_reply_is_listed_once(scenario: Scenario) -> None:
    from cheren.app import panels
    from cheren.players.bots import make_bot

    c = Board(Game(scenario, seed=1941))
    c.opponent.set(make_bot("heuristic", 1), Side.ITALIAN)
    c.play.end_phase()  # the Italian bot answers the Roadblock window at once
    heads = [head for head, _ in c.log_entries()]
    events = [e for _, evs in c.log_entries() for e in evs]
    assert len(heads) >= 2
    chit_events = [e for e in events if "chit" in e]
    assert chit_events and all(events.count(e) == 1 for e in chit_events)
    first = c.game.log[0]
    assert not any(e.startswith("Italian plays") for e in first.events)  # the bot's move is its own entry
    html = panels.log_html(c)
    ids = [uid for uid in scenario.units if len(uid) > 4 and uid in html]
    assert ids == []
    assert not any(f"{k}." in html for k in scenario.chits)  # no chit instance ids


def test_hot_seat_hides_the_game_between_the_players(scenario: Scenario) -> None:
    app = App(Game(scenario, seed=1941))
    c = app.board
    assert c.hidden.curtain is None and app.curtain.layout.display == "none"
    c.play.end_phase()  # the Italians must answer a chit window: their hand would show
    assert c.hidden.curtain is Side.ITALIAN
    assert app.body.layout.display == "none" and app.curtain.layout.display == "flex"
    assert "Italian player" in app.curtain_button.description
    assert "Roadblock" not in app.play_view.chits.value and "in hand" in app.play_view.chits.value
    c.hidden.reveal()
    assert c.hidden.curtain is None and app.body.layout.display == "flex"
    assert "Roadblock" in app.play_view.chits.value and "Demolition" in app.play_view.chits.value  # seed 1941's hand


def _play_on_until(c: Board, done: Callable[[], bool], limit: int) -> None:
    """As a player who takes the first answer to each decision and ends every phase, until done."""
    for _ in range(limit):
        if done():
            return
        if c.game.pending is not None:
            c.decisions.answer(0)
        else:
            c.play.end_phase()


def test_against_a_bot_there_is_no_curtain_and_its_moves_are_listed_with_reasons(scenario: Scenario) -> None:
    from cheren.players.bots import make_bot

    app = App(Game(scenario, seed=1941))
    c = app.board
    c.opponent.set(make_bot("heuristic", 1), Side.ITALIAN)
    c.play.end_phase()
    assert c.hidden.curtain is None
    assert c.opponent.moves and all(m.reason for m in c.opponent.moves)
    listed = app.play_view.bot_list.value
    assert c.opponent.moves[0].text in listed and c.opponent.moves[0].reason[:20] in listed
    fb = c.opponent.pick(0)
    assert fb.text.startswith("Bot move 1/") and "Why:" in fb.text
    # its moves on the map: play to the Italian movement and look at the overlay
    _play_on_until(c, lambda: c.game.phasing is Side.ITALIAN or c.game.turn > 1, 40)
    moved = [m for m in c.opponent.moves if m.path]
    assert moved, "the Italian bot moved units in its Movement phase"
    c.opponent.pick(None)
    overlay = next(o for o in c.overlays.drawn() if o.kind == "bot-moves")
    assert overlay.paths and moved[0].path[-1] in overlay.hexes


def test_the_look_ahead_bot_shows_the_plans_it_weighed_in_the_bot_panel(scenario: Scenario) -> None:
    """Its first move lists every plan weighed, line by line; the later ones name the plan."""
    from cheren.players.bots import make_bot

    app = App(Game(scenario, seed=1941))
    c = app.board
    c.opponent.set(make_bot("lookahead:3", 1), Side.ITALIAN)
    _play_on_until(c, lambda: c.game.phasing is Side.ITALIAN and c.game.phase is not Phase.MOVEMENT, 60)
    moves = [m for m in c.opponent.moves if m.path]
    assert moves, "the Italian look-ahead bot moved units in its Movement phase"
    first, *rest = moves
    assert first.reason.startswith("look-ahead over 3 movement plans: chose plan")
    assert "<br>also weighed plan" in app.play_view.bot_list.value and "<br>this move: " in app.play_view.bot_list.value
    assert all("of the look-ahead's plan" in m.reason for m in rest)


def test_escape_on_the_map_deselects(scenario: Scenario) -> None:
    app = App(Game(scenario, seed=1941))
    app.board.play.select("tank_sqn")
    app.map._key("Escape")
    assert app.board.selected is None


def test_a_chit_window_shows_its_targets_on_the_map_by_name(scenario: Scenario) -> None:
    c = Board(Game(scenario, seed=1941))
    c.play.end_phase()  # the Italian Roadblock/Demolition window at the start of the Allied movement
    c.hidden.reveal()
    labels = [label for label, _ in c.decisions.options()]
    assert any(label.startswith("play Roadblock on ") for label in labels)
    assert not any("roadblock." in label or "demolition." in label for label in labels)
    targets = c.decisions.chit_targets()
    assert H("0108") in targets  # the Roadblock's first road hex
    assert any(o.kind == "chit-targets" and H("0108") in o.hexes for o in c.overlays.drawn())


def test_autosave_takes_the_game_up_again_and_keeps_a_bad_file(scenario: Scenario, tmp_path: Path) -> None:
    auto = tmp_path / "auto.json"
    first = App(Game(scenario, seed=1941), autosave=auto, save_path=tmp_path / "g.json")
    first.board.play.end_phase()
    assert auto.is_file()
    again = App(Game(scenario, seed=5), autosave=auto, save_path=tmp_path / "g.json")
    assert len(again.board.game.log) == len(first.board.game.log) == 1
    assert again.board.game.seed == 1941
    assert again.board.hidden.curtain is not None  # the hands stay hidden until the player asks
    auto.write_text("{ not json")
    third = App(Game(scenario, seed=5), autosave=auto, save_path=tmp_path / "g.json")
    kept = list(tmp_path.glob("auto.unreadable-*.json"))
    assert len(kept) == 1 and kept[0].read_text() == "{ not json"
    assert "could not be read" in third.board.feedback.text
    assert len(third.board.game.log) == 0


def test_load_lists_the_saves_and_asks_before_replacing(scenario: Scenario, tmp_path: Path) -> None:
    app = App(Game(scenario, seed=1941), save_path=tmp_path / "a.json")
    app.game_panel.save()
    app.board.play.end_phase()
    assert [label for label, _ in app.game_panel.save_list.options] == ["a.json"]
    app.game_panel.ask_load()
    game = app.game_panel
    assert game.confirm.layout.display == "flex" and "Replace the game on the map" in game.confirm_text.value
    assert len(app.board.game.log) == 1  # nothing replaced yet
    app.game_panel.confirm_load(False)
    assert len(app.board.game.log) == 1
    app.game_panel.ask_load()
    fb = app.game_panel.confirm_load(True)
    assert fb is not None and fb.text.startswith("Loaded") and len(app.board.game.log) == 0
