"""The scripts behind the tables of docs/bots.md and docs/balance.md (issue 33):
tools/balance_tables.py (targets, history table, rating rows) and tools/game_families.py (the
families of games, from the replayed logs)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from cheren.players.simulate import GameResult, play_game
from cheren.scenario import load_scenario

TOOLS = Path(__file__).resolve().parents[1] / "tools"


def tool(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, TOOLS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


tables = tool("balance_tables")
families = tool("game_families")

WEST = ["Kassala", "Sabderat", "Tessenei"]


def result(index: int, vp: int, winner: str, control: list[list[str]], allied: str = "planner",
           italian: str = "planner") -> GameResult:
    return GameResult(index=index, seed=index, allied_bot=allied, italian_bot=italian, allied_vp=vp, level="x",
                      winner=winner, allied_steps_lost=0, italian_steps_lost=0, actions=0, control=control)


def test_the_balance_table_counts_kassala_at_the_end_and_the_turn_towns_fall_in_allied_wins() -> None:
    games = [
        # Agordat at the end of turn 2, Cheren at the end of turn 4 (control[i] is turn 1 + i)
        result(0, 30, "allied", [WEST, [*WEST, "Agordat"], [*WEST, "Agordat"], [*WEST, "Agordat", "Cheren"]]),
        result(1, 28, "allied", [WEST, WEST, WEST, [*WEST, "Agordat"]]),
        # Kassala lost in turn 2 and taken back: not held by the Italians at the end
        result(2, 10, "italian", [WEST, ["Sabderat"], WEST]),
        result(3, 2, "italian", [WEST, ["Sabderat"]]),
        result(4, 21, "draw", [WEST]),
    ]
    text = "\n".join(tables.balance_rows(games))
    assert "| Allied wins / draws / Italian wins | 2 / 1 / 2 |" in text
    assert "| Allied share of decided games | 50% (15%-85%) of 4 |" in text
    assert "| Italians hold Kassala at the end | 1 of 5, 20% (4%-62%) |" in text
    assert "| mean Allied VP | 18.2 (" in text
    assert "| mean Allied VP where the Italians hold Kassala at the end | 2.0 (2.0-2.0) in 1 games |" in text
    assert "| mean Allied VP where they do not | 22.2 (" in text and "in 4 games |" in text
    # the median of turns 2 and 4; Cheren in one of the two wins; Massaua in none
    assert "| Agordat | 2 of 2 | 3 | 2.5-3.5 | 2 |" in text
    assert "| Cheren | 1 of 2 | 4 | 4-4 | 10 |" in text
    assert "| Massaua | 0 of 2 | - | - | 12 |" in text


def test_a_rating_row_counts_the_named_bot_on_whichever_side_it_plays() -> None:
    as_allies = [result(0, 30, "allied", [WEST], "planner", "lookahead"),
                 result(1, 30, "allied", [WEST], "planner", "lookahead"),
                 result(2, 5, "italian", [WEST], "planner", "lookahead")]
    as_italians = [result(0, 30, "allied", [WEST], "lookahead", "planner"),
                   result(1, 5, "italian", [WEST], "lookahead", "planner"),
                   result(2, 5, "italian", [WEST], "lookahead", "planner"),
                   result(3, 21, "draw", [WEST], "lookahead", "planner")]
    rows = tables.rating_rows([as_allies, as_italians], "planner")
    assert "| 2 / 0 / 1 | 67% (21%-94%) of 3 decided |" in rows[2]
    assert "| 1 / 1 / 2 | 67% (21%-94%) of 3 decided |" in rows[3]


def test_a_tuning_row_sets_the_targets_measures_of_each_variant_side_by_side() -> None:
    base = [result(0, 30, "allied", [WEST]), result(1, 2, "italian", [["Sabderat"]])]
    change = [result(0, 30, "allied", [WEST]), result(1, 20, "italian", [WEST]), result(2, 21, "draw", [WEST])]
    rows = tables.tuning_rows([base, change], ["base.json", "change.json"])
    assert rows[2] == "| base.json | 2 | 50% (9%-91%) of 2 | 16.0 (-11.4-43.4) | 1 of 2, 50% (9%-91%) |"
    assert rows[3].startswith("| change.json | 3 | 50% (9%-91%) of 2 | 23.7 (") and rows[3].endswith(
        "| 0 of 3, 0% (0%-56%) |")


def test_the_replay_fixture_is_the_runs_first_game_with_a_digest_of_its_log(tmp_path: Path) -> None:
    from cheren.cli.main import main
    from cheren.players.results_file import game_seeds, read_results

    out = tmp_path / "run.json"
    assert main(["simulate", "--games", "1", "--seed", "7", "--allied", "heuristic", "--italian", "heuristic",
                 "--logs", "--quiet", "--out", str(out)]) == 0
    kept = tables.fixture(out)
    (game,) = read_results(out)
    assert kept["index"] == 0 and kept["seed"] == game_seeds(7, 1)[0] == game.seed and kept["run_seed"] == 7
    assert (kept["winner"], kept["allied_vp"], kept["actions"]) == (game.winner, game.allied_vp, game.actions)
    assert game.log is not None and tables.log_digest(game.log) == kept["log_digest"]
    assert len(str(kept["log_digest"])) == 16 and tables.log_digest(game.log[:-1]) != kept["log_digest"]


def test_a_table_is_written_between_its_markers_and_nowhere_else(tmp_path: Path) -> None:
    doc = tmp_path / "doc.md"
    doc.write_text("before\n<!-- rating: old -->\nold row\n<!-- end of rating -->\nafter\n", encoding="utf-8")
    tables.write_between(doc, "rating", ["new row"], "python tools/balance_tables.py rating a.json")
    assert doc.read_text(encoding="utf-8") == (
        "before\n<!-- rating: python tools/balance_tables.py rating a.json -->\nnew row\n"
        "<!-- end of rating -->\nafter\n")
    with pytest.raises(SystemExit, match="no lines"):
        tables.write_between(doc, "balance", ["x"], "")


@pytest.mark.parametrize(("seed", "family"), [
    (1707665179, "Kassala raid, held: walked into an empty Kassala"),
    (1337671202, "Kassala raid, retaken"),
])
def test_the_families_come_from_the_replayed_log_and_agree_with_the_recorded_control(seed: int, family: str) -> None:
    # heuristic games whose Italians walk into an empty Kassala in their turn-2 Movement
    game = play_game(0, seed, "heuristic", "heuristic", keep_log=True)
    facts = families.facts(load_scenario(None), game)
    assert facts.family == family
    assert facts.raids and facts.raids[0].turn == 2 and facts.raids[0].empty
    assert facts.raids[0].phase == "Italian Movement"
    # the replay found the raid that the control record shows: Kassala gone at the end of turn 2
    assert "Kassala" not in game.control[1] and "Kassala" in game.control[0]
    assert facts.kassala_end == ("Kassala" not in game.control[-1])
    assert facts.start_steps["allied"] > 0 and facts.start_steps["italian"] > 0


def test_the_families_refuse_a_game_without_its_log() -> None:
    with pytest.raises(SystemExit, match="--logs"):
        families.facts(load_scenario(None), result(0, 10, "italian", [WEST]))


@pytest.mark.parametrize("side", ["allied", "italian"])
def test_every_attrition_step_of_a_run_is_put_down_to_the_phase_its_spell_began(tmp_path: Path, side: str) -> None:
    """tools/attrition_spells.py (docs/bots.md, planner2): the steps it counts are the run's own
    12.6 losses, and nearly all are found a spell out of supply that began after some phase."""
    from cheren.cli.main import main
    from cheren.players.results_file import read_results
    from cheren.scenario import Side

    spells = tool("attrition_spells")
    out = tmp_path / "run.json"
    assert main(["simulate", "--games", "3", "--seed", "11", "--allied", "heuristic", "--italian", "heuristic",
                 "--logs", "--quiet", "--out", str(out)]) == 0
    n, total, began, unseen = spells.spells(str(out), Side(side))
    recorded = sum((g.losses or {}).get(side, {}).get("attrition", 0) for g in read_results(out))
    assert n == 3 and total == recorded > 0
    assert sum(began.values()) + unseen == total and unseen <= total // 4
    assert all(name.startswith(("the Allied turn's ", "the Italian turn's ")) for name in began)
