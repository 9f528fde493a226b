"""Where a side's attrition losses (12.6) begin, from a `cheren simulate --logs` results file
(docs/bots.md, "planner2"):

    python tools/attrition_spells.py RESULTS.json [--side allied|italian] [--scenario DIR]

Each game is replayed from its seed and its logged actions through the gate.  At the end of every
phase the side's units are traced for supply (12.0-12.2); a unit's spell out of supply begins at
the end of the phase after which it first cannot draw supply and ends when it can again.  Every
step the side loses to attrition is counted against the phase its spell began in, named with the
phasing side: "the Allied turn's reaction" is the Italian reaction (10.0) in the Allied turn.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Sequence

from cheren.engine.actions import action_from_json
from cheren.engine.rules.supply import check_side
from cheren.players.results_file import read_run
from cheren.players.simulate import starting_game
from cheren.scenario import Side, load_scenario


def spells(path: str, side: Side, scenario_dir: str | None = None) -> tuple[int, int, Counter[str], int]:
    """Games read, attrition steps lost by ``side``, those steps by the phase their spell began
    in, and those whose unit was never seen out of supply at a phase's end."""
    scenario = load_scenario(scenario_dir)
    games, run = read_run(path)
    if run.scenario != scenario.digest:
        raise SystemExit(f"{path}: its games were played on other scenario data")
    began: Counter[str] = Counter()
    total = unseen = 0
    for result in games:
        if result.log is None:
            raise SystemExit(f"{path}: game {result.index} has no action log (cheren simulate --logs)")
        game = starting_game(scenario, result.seed, undo=False)
        since: dict[str, str] = {}
        phase = (game.turn, game.phasing, game.phase)
        for data in result.log:
            game.apply(action_from_json(data))
            for loss in game.log[-1].losses:
                if loss.side is side and loss.rules and loss.rules[0].startswith("12.6"):
                    total += loss.steps
                    if loss.unit in since:
                        began[since[loss.unit]] += loss.steps
                    else:
                        unseen += loss.steps
            now = (game.turn, game.phasing, game.phase)
            if now != phase:
                name = f"the {phase[1].adjective} turn's {phase[2].value}"
                for uid, trace in check_side(game.position, side).items():
                    if trace.supplied:
                        since.pop(uid, None)
                    else:
                        since.setdefault(uid, name)
                phase = now
    return len(games), total, began, unseen


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", help="a cheren simulate --logs results file (.json)")
    parser.add_argument("--side", choices=[s.value for s in Side], default=Side.ALLIED.value)
    parser.add_argument("--scenario", default=None, help="scenario directory (default: the bundled one)")
    args = parser.parse_args(argv)
    side = Side(args.side)
    n, total, began, unseen = spells(args.results, side, args.scenario)
    if not n or not total:
        print(f"{n} games: no {side.adjective} steps lost to attrition")
        return 0
    print(f"{n} games: {side.adjective} attrition {total / n:.1f} steps a game "
          f"(spell not seen: {unseen / n:.1f})")
    print("| the spell began after | steps a game | share |\n|---|---|---|")
    for name, steps in began.most_common():
        print(f"| {name} | {steps / n:.1f} | {steps / total:.0%} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
