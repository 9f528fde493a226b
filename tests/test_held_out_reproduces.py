"""Issue 33, done-when: ``cheren simulate --allied B --italian B`` with the strongest bot B
reproduces the table's numbers from its seed.  The held-out table of docs/balance.md comes from
``cheren simulate --allied planner --italian planner --games 300 --seed 5519 --logs``; its
first game is kept in a small fixture written from that run's results file by
``python tools/balance_tables.py fixture final_5519.json --out tests/fixtures/held_out_5519_first_game.json``.
A one-game run of the same command with the same seed plays that game again (a run draws its
games' seeds in order from its own seed), so this replays it and compares: the winner, the
Allied VP, the number of actions and a digest of the whole log.  A change to the planner, the
engine or the data that changes the game fails here, and the held-out table has to be measured
again."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from cheren.cli.main import main
from cheren.players.bots import STRONGEST
from cheren.players.results_file import game_seeds, read_results

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("balance_tables", ROOT / "tools" / "balance_tables.py")
assert _spec is not None and _spec.loader is not None
tables = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tables)
FIXTURE = Path(__file__).resolve().parent / "fixtures" / "held_out_5519_first_game.json"


def test_cheren_simulate_planner_against_planner_reproduces_the_table_s_numbers_from_its_seed(tmp_path: Path) -> None:
    kept = json.loads(FIXTURE.read_text(encoding="utf-8"))
    assert kept["allied"] == kept["italian"] == STRONGEST == "planner"
    assert kept["index"] == 0 and game_seeds(kept["run_seed"], kept["run_games"])[0] == kept["seed"]
    out = tmp_path / "first.json"
    assert main(["simulate", "--allied", "planner", "--italian", "planner", "--games", "1",
                 "--seed", str(kept["run_seed"]), "--logs", "--out", str(out)]) == 0
    (game,) = read_results(out)
    assert game.seed == kept["seed"] and game.log is not None
    again = {"winner": game.winner, "allied_vp": game.allied_vp, "actions": game.actions,
             "log_digest": tables.log_digest(game.log)}
    assert again == {k: kept[k] for k in again}
