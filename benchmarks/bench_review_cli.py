"""`cheren review SAVE` of a whole 12-turn game, on the wall clock, as a user runs it (issue 34:
under 10 s on 2 cores): the command started afresh each run (imports, the model, the replay, the
review, the chart and the report), ``--runs`` times; the median and the spread, each run's user
and system processor seconds, and the load average before each run (the machine is shared: a
wall clock measured under load measures the queue too).  The baseline, run the same way in the
same process: ``cheren --help`` (the interpreter and the command's start-up alone).

    .venv/bin/python benchmarks/bench_review_cli.py                        # tactician game, seed 11
    .venv/bin/python benchmarks/bench_review_cli.py --bot planner --seed 5 --runs 5
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from cheren.players.simulate import play_game, replay_result
from cheren.scenario import load_scenario
from cheren.study.game_saves import save_game

CHEREN = [sys.executable, "-m", "cheren.cli.main"]


def timed(cmd: list[str]) -> tuple[float, float, str]:
    """(wall seconds, child processor seconds, stderr's last line) of one run of ``cmd``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, (done.stderr.strip().splitlines() or [""])[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bot", default="tactician", help="the bot playing both sides of the game reviewed")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--save", help="review this save instead of playing a game")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        save = args.save
        if save is None:
            s = load_scenario()
            game = replay_result(play_game(0, args.seed, args.bot, args.bot, keep_log=True), s)
            save = str(Path(tmp) / "game.json")
            save_game(game, save)
            print(f"the game: {args.bot} on both sides, seed {args.seed}, {len(game.log)} actions, "
                  f"ended on turn {game.position.turn}")
        base = [timed([*CHEREN, "--help"])[0] for _ in range(max(1, args.runs // 2))]
        walls, cpus = [], []
        for r in range(args.runs):
            load = os.getloadavg()[0]
            wall, cpu, said = timed([*CHEREN, "review", save, "--out", str(Path(tmp) / f"r{r}.md"), "--force"])
            walls.append(wall)
            cpus.append(cpu)
            print(f"run {r + 1}: {wall:.2f} s wall, {cpu:.2f} s processor, load average {load:.2f} ({said})")
    med, b = statistics.median(walls), statistics.median(base)
    print(f"\n`cheren review` of the whole game: median {med:.2f} s wall (fastest {min(walls):.2f}, slowest "
          f"{max(walls):.2f}), median {statistics.median(cpus):.2f} s processor, {args.runs} runs; "
          f"`cheren --help` median {b:.2f} s wall: the review {med / b:.1f} times the start-up")


if __name__ == "__main__":
    main()
