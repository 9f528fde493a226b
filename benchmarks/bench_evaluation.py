"""The learned evaluation's speed (issue 34: one evaluation in 20 ms or less), against one
play-out of the same position in the same process, and a whole game's review.

    .venv/bin/python benchmarks/bench_evaluation.py                  # the shipped model, 5 rounds
    .venv/bin/python benchmarks/bench_evaluation.py --model FILE --rounds 9 --bot planner:2

For each library position: the median processor time of one evaluation (features and the
LightGBM prediction) over ``--rounds`` rounds of 20 evaluations each, and of one play-out to the
end of turn 12 by ``--bot`` on both sides (what the app's play-outs do 200 times); the ratio is
the play-out's median over the evaluation's.  Then ``cheren review``'s work on a whole 12-turn
game of the tactician (the review bot): its processor and wall seconds.  Processor seconds are
steadier than the wall clock on a shared, busy machine; both are printed.
"""

from __future__ import annotations

import argparse
import statistics
import time

from cheren.engine.game import Game
from cheren.files import library_names, load_position
from cheren.players.simulate import play_game, replay_result
from cheren.scenario import load_scenario
from cheren.study.evaluation.model import load_model
from cheren.study.evaluation.review import review


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default=None)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--bot", default="planner:2", help="the bot of the play-out compared with")
    parser.add_argument("--positions", type=int, default=4, help="library positions timed (default 4)")
    args = parser.parse_args()
    s = load_scenario()
    model = load_model(args.model, s)
    from cheren.files import position_code

    print("| position | evaluation, ms (median) | one play-out, ms (median) | ratio |")
    print("|---|---|---|---|")
    ratios = []
    evals = []
    for name in library_names(s)[: args.positions]:  # the same position again and again: caches warm
        position = load_position(name, s)
        times = []
        for _ in range(args.rounds):
            t = time.process_time()
            for _ in range(20):
                model.chances(position)
            times.append((time.process_time() - t) / 20)
        code = position_code(position)
        outs = []
        for r in range(max(1, args.rounds // 2)):
            t = time.process_time()
            play_game(0, 100 + r, args.bot, args.bot, start=code)
            outs.append(time.process_time() - t)
        ev, po = statistics.median(times), statistics.median(outs)
        evals.append(ev)
        ratios.append(po / ev)
        print(f"| {name} | {ev * 1000:.2f} | {po * 1000:.0f} | {po / ev:,.0f} |")
    print(f"\nmedian evaluation {statistics.median(evals) * 1000:.2f} ms; median ratio play-out / evaluation "
          f"{statistics.median(ratios):,.0f} ({args.bot} play-outs, {args.rounds} rounds)")
    result = play_game(0, 11, "tactician", "tactician", keep_log=True)
    game: Game = replay_result(result, s)
    # every position of a game is new to the caches (supply is worked out afresh): the app's case
    walk = Game(s, seed=result.seed)
    spent: list[float] = []
    for action in game.actions():
        walk.apply(action)
        t = time.process_time()
        model.chances(walk.position)
        spent.append(time.process_time() - t)
    print(f"each position of a whole game, evaluated once after its action: median "
          f"{statistics.median(spent) * 1000:.2f} ms, 90th percentile "
          f"{sorted(spent)[len(spent) * 9 // 10] * 1000:.2f} ms, worst {max(spent) * 1000:.2f} ms "
          f"({len(spent)} positions)")
    cpu, wall = time.process_time(), time.perf_counter()
    rv = review(game, model=model)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    print(f"review of a whole 12-turn game ({len(rv.decisions)} actions, {len(rv.marks)} marked): "
          f"{cpu:.2f} s processor, {wall:.2f} s wall")


if __name__ == "__main__":
    main()
