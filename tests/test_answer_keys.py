"""Answer keys: each position's historical plan against the analysis's best alternative, the
Keren key, and the documents written from the library."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cheren.engine.actions import Attack, ChooseArrival, EndPhase, Move
from cheren.engine.game import Game
from cheren.files import library, open_position
from cheren.hexes import Hex
from cheren.players.simulate import GameResult
from cheren.render.svg import render_svg
from cheren.scenario import ScenarioError, Side, load_scenario
from cheren.study.analysis.evaluate import Comparison, Evaluation
from cheren.study.answer_keys import AnswerKey, answer_key, best_alternative, historical_actions
from cheren.study.keren_key import keren_key
from cheren.study.overlays import keren_key_overlays
from cheren.study.positions_doc import positions_markdown

SCENARIO = load_scenario()
ROOT = Path(__file__).resolve().parents[1]


# -- the alternative the analysis finds -------------------------------------------------------------
def test_in_a_combat_phase_the_alternative_is_the_reports_best_other_attack() -> None:
    from cheren.study.analysis.report import ranked_attacks

    record = open_position("agordat", SCENARIO)
    alt = best_alternative(record)
    (attack,) = alt.actions
    assert isinstance(attack, Attack) and "position report" in alt.found_by
    historical = historical_actions(record)
    assert isinstance(historical[0], Attack) and historical[0].target.label == "1708"
    others = [a for a in ranked_attacks(record.position)[0]
              if (a.target, set(a.attackers)) != (historical[0].target, set(historical[0].attackers))]
    assert attack.target == max(others, key=lambda a: a.p_vacated).target
    assert Game.from_position(record.position.copy()).check(attack).ok


def test_an_arrival_choice_has_the_other_option_as_its_alternative() -> None:
    record = open_position("build-up", SCENARIO)
    assert historical_actions(record) == [ChooseArrival("K7-F8", True)]
    assert best_alternative(record).actions == [ChooseArrival("K7-F8", False)]


def test_in_a_movement_phase_the_alternative_is_the_look_ahead_bots_plan_through_the_gate() -> None:
    record = open_position("agordat-barentu", SCENARIO)
    alt = best_alternative(record, bot="lookahead:2", seed=3)
    assert "lookahead" in alt.found_by and isinstance(alt.actions[-1], EndPhase)
    assert all(isinstance(a, (Move, EndPhase)) for a in alt.actions)
    game = Game.from_position(record.position.copy())
    for action in alt.actions:  # every step is legal for the Italian side, in order
        assert game.acting is Side.ITALIAN and game.check(action).ok
        game.apply(action)


def test_the_answer_key_plays_both_plans_out_on_the_same_seeds_and_says_with_what() -> None:
    record = open_position("build-up", SCENARIO)
    key = answer_key(record, 3, seed=5)
    assert key.comparison is not None
    hist, alt = key.comparison.candidates
    assert (hist.games, alt.games) == (3, 3) and hist.seed == alt.seed == 5
    text = key.explain()
    assert "The question:" in text and "postpone the K7-F8 arrival" in text and "take the K7-F8 arrival" in text
    assert "played out 3 times" in text and "heuristic (Allies) against heuristic (Italians)" in text
    assert "the historical plan |" in text  # the table, with numbers from the play-outs
    assert key.to_json()["comparison"]["candidates"][0]["games"] == 3


def _evaluation(label: str, allied_wins: int, games: int) -> Evaluation:
    ev = Evaluation(SCENARIO, label, "heuristic", "heuristic", 1, "allied")
    for i in range(games):
        vp = 26 if i < allied_wins else 10
        level = SCENARIO.victory_level(vp)
        ev.results.append(GameResult(index=i, seed=i, allied_bot="heuristic", italian_bot="heuristic", allied_vp=vp,
                                     level=level, winner="allied" if vp > 21 else "italian", allied_steps_lost=0,
                                     italian_steps_lost=0, actions=10))
    return ev


@pytest.mark.parametrize(
    ("hist_wins", "alt_wins", "expected"),
    [
        (5, 95, "The alternative won more often for the Allied side"),
        (95, 5, "The historical plan won more often for the Allied side"),
        (50, 55, "the 95% intervals overlap, so these games cannot tell the two apart"),
    ],
)
def test_what_the_numbers_mean_follows_the_intervals(hist_wins: int, alt_wins: int, expected: str) -> None:
    record = open_position("agordat", SCENARIO)
    key = AnswerKey(record, Side.ALLIED, historical_actions(record), best_alternative(record), 100,
                    "heuristic", "heuristic", 1)
    key.comparison = Comparison([_evaluation("h", hist_wins, 100), _evaluation("a", alt_wins, 100)])
    assert expected in key.meaning()
    assert "played out 100 times" in key.meaning() and "not what would have happened in 1941" in key.meaning()


# -- the Keren key ----------------------------------------------------------------------------------
def test_the_keren_key_names_the_features_of_the_battle_where_they_lie() -> None:
    key = keren_key(SCENARIO)
    west = {"Sanchil", "Brig's Peak", "Samanna", "Cameron Ridge"}
    east = {"Dologorodoc", "Falestoh", "Zeban", "Acqua Col"}
    names = {f.name for f in key.features}
    assert west | east | {"Dongolaas gorge", "Mescelit pass", "Engiahat", "Asmara road"} <= names
    gorge = key.find("Dongolaas gorge").hexes[0]
    assert gorge.label == "2106" and gorge in SCENARIO.playable
    cheren = SCENARIO.town_hex("Cheren")
    for name in west | east:  # round the gorge and the town, within a hex of either
        h = key.find(name).hexes[0]
        assert h in (cheren, gorge) or h in set(cheren.neighbours()) | set(gorge.neighbours()), name
    assert key.find("Asmara road").hexes[0] == cheren and key.find("Asmara road").is_path
    assert all(f.source.startswith("[") and str(f.placement) for f in key.features)
    assert len(key.shared()) >= 2  # the scale: several features share a hex, and the key says so


def test_the_keren_key_overlay_labels_each_hex_and_draws_the_road() -> None:
    overlays = keren_key_overlays(SCENARIO)
    labelled = {h.label: label for o in overlays for h, label in o.hexes.items()}
    key = keren_key(SCENARIO)
    assert labelled["2105"] == ",".join(str(key.find(n).number) for n in ("Sanchil", "Brig's Peak", "Samanna"))
    assert any("one hex at this scale" in (o.title or "") for o in overlays)
    roads = [o for o in overlays if o.paths]
    assert [h.label for h in roads[0].paths[0]] == ["2205", "2306", "2406", "2507", "2607"]
    svg = render_svg(SCENARIO, open_position("dologorodoc", SCENARIO).position, overlays)
    assert 'data-kind="keren-key"' in svg and "Sanchil" in svg


def test_a_bad_keren_key_is_refused_naming_the_field(tmp_path: Path) -> None:
    folder = tmp_path / "scenario"
    shutil.copytree(SCENARIO.directory, folder)
    path = folder / "keren_key.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('hex: "2105"', 'hex: "9999"', 1).replace("[France Libre]", "[Nobody]", 1),
                    encoding="utf-8")
    with pytest.raises(ScenarioError) as info:
        keren_key(load_scenario(folder))
    message = str(info.value)
    assert "keren_key.yaml: features[1] (Sanchil) [hex 9999]: 9999 is not a playable hex" in message
    assert "cites [Nobody], which is not in the key's sources" in message


# -- the documents ----------------------------------------------------------------------------------
def test_docs_positions_md_is_written_from_the_library_and_current() -> None:
    records = library(SCENARIO)
    text = (ROOT / "docs" / "positions.md").read_text(encoding="utf-8")
    assert text == positions_markdown(SCENARIO, records), "run: python tools/positions_doc.py"
    for r in records:
        assert f"[`{r.name}`](#{r.name})" in text
    assert "| 2 | Sanchil | 2105 |" in text and "## The Keren key" in text


def test_hex_labels_used_by_the_docs_exist() -> None:
    for f in keren_key(SCENARIO).features:
        assert all(isinstance(h, Hex) and h in SCENARIO.playable for h in f.hexes)
