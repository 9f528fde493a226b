"""What one bot's games cost against another's, in the same process, in turn (A B A B).

    .venv/bin/python benchmarks/bench_bot_pair.py                          # planner2 mirror against planner mirror
    .venv/bin/python benchmarks/bench_bot_pair.py --pair planner2,planner --seeds 5,6,7 --rounds 3

Unlike ``bench_bots.py`` (one bot, two checkouts, the very same games), the two bots here play
different games from the same seeds, so the figure is what a game of each costs as it is played,
not a speed-up of the same work.  Each game reports the processor seconds spent in it (the
scenario loaded and an untimed game played first, as a worker of a long run has them); the ratio
is the median per seed of the second bot's over the first's, and the median of those.
"""

from __future__ import annotations

import argparse
import statistics
import time

from cheren.players.simulate import play_game


def cost(bot: str, seed: int) -> float:
    start = time.process_time()
    play_game(0, seed, bot, bot)
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pair", default="planner2,planner", help="the bot measured, the baseline bot (mirror games)")
    parser.add_argument("--seeds", default="5,6,7", help="comma-separated game seeds")
    parser.add_argument("--rounds", type=int, default=3, help="games per seed and bot (median taken)")
    args = parser.parse_args()
    bot, baseline = args.pair.split(",")
    seeds = [int(s) for s in args.seeds.split(",")]
    play_game(0, 999, baseline, baseline)  # warm: imports and per-scenario tables, untimed
    times: dict[tuple[str, int], list[float]] = {}
    for _ in range(args.rounds):
        for seed in seeds:
            for name in (bot, baseline):
                times.setdefault((name, seed), []).append(cost(name, seed))
    print(f"| seed | {bot} (s a game, median of {args.rounds}) | {baseline} | ratio |")
    print("|---|---|---|---|")
    ratios = []
    for seed in seeds:
        a, b = statistics.median(times[(bot, seed)]), statistics.median(times[(baseline, seed)])
        ratios.append(a / b)
        print(f"| {seed} | {a:.2f} | {b:.2f} | {a / b:.2f} x |")
    print(f"\n{bot} mirror against {baseline} mirror: {statistics.median(ratios):.2f} x the processor time a game "
          f"(median over seeds {args.seeds})")


if __name__ == "__main__":
    main()
