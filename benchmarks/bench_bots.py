"""Bot games side by side: this checkout against a baseline revision, on the same seeds, in turn.

    .venv/bin/python benchmarks/bench_bots.py                      # look-ahead mirror games, seeds 5 6 7
    .venv/bin/python benchmarks/bench_bots.py --bots heuristic,heuristic --seeds 1,2,3 --rounds 5
    .venv/bin/python benchmarks/bench_bots.py --baseline cf5a9bd   # the commit to compare with
    .venv/bin/python benchmarks/bench_bots.py --revision 04eb31c --baseline 1019f9d   # two commits
    .venv/bin/python benchmarks/bench_bots.py --bots planner,planner --warm   # as in a long run
    .venv/bin/python benchmarks/bench_bots.py --baseline ../other-checkout    # a folder, played as it is

A ``--baseline`` (or ``--revision``) that names a folder is played from that folder as it stands,
its compiled build included (a revision taken out of git has none: it plays pure Python), so a
compiled checkout can be compared with another compiled one.

``--revision`` plays a commit's code in place of this checkout's (both taken out of git), so a
round of speed work can be measured after main has moved on: rule changes landed since may
change the games, and games are only compared with games of the same rules.

The baseline's code is taken out of git (``git archive``) into a temporary folder; each game is
played in a fresh interpreter, this checkout's and the baseline's one after the other (A B A B),
so a machine whose speed drifts affects both alike.  Each game reports the processor seconds
spent in the game itself (imports and loading the scenario left out): on a shared, busy machine
those are steadier than the wall clock, which the table gives too.  ``--warm`` plays an untimed
game of another seed first in each process, as a worker of a long run (``cheren simulate``) has:
the modules a game imports on the way are loaded and the tables kept per scenario are made.
Both must play the very same game (the same actions and result), or the bench stops: a speed-up
may change no game.

The speed-up is the baseline's median over this checkout's, per seed, and the median of those.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BASELINE = "cf5a9bd"  # main before issue 29's round of speed work

CHILD = """
import hashlib, json, sys, time
sys.path.insert(0, sys.argv[1])
import cheren
assert cheren.__file__.startswith(sys.argv[1]), cheren.__file__
try:
    from cheren.players.simulate import _scenario, play_game
except ImportError:  # a revision from before the layer packages (8201a20): cheren/simulate.py
    from cheren.simulate import _scenario, play_game
_scenario(None)  # the scenario is loaded once per process: not part of a game
allied, italian = sys.argv[2].split(",")
seed = int(sys.argv[3])
if int(sys.argv[4]):  # --warm: a game of another seed first, as a worker of a long run has played
    play_game(0, seed + 1000, allied, italian)
wall, cpu = time.perf_counter(), time.process_time()
result = play_game(0, seed, allied, italian, keep_log=True)
cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
facts = {k: v for k, v in vars(result).items() if k not in ("index",)}
digest = hashlib.sha256(json.dumps(facts, sort_keys=True, default=str).encode()).hexdigest()[:16]
kind = getattr(cheren, "build_kind", lambda: "pure Python")()  # compiled or not (older revisions: pure)
print(json.dumps({"cpu": cpu, "wall": wall, "game": digest, "vp": result.allied_vp, "kind": kind}))
"""


def play(code: Path, bots: str, seed: int, warm: bool = False) -> dict[str, float | str]:
    out = subprocess.run([sys.executable, "-c", CHILD, str(code), bots, str(seed), str(int(warm))],
                         capture_output=True, text=True, check=True, cwd=code)
    found: dict[str, float | str] = json.loads(out.stdout.strip().splitlines()[-1])
    return found


def checkout(revision: str, into: Path) -> Path:
    if Path(revision).is_dir():  # a folder: its code as it stands, compiled build and all
        return Path(revision).resolve()
    into.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", revision], capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--baseline", default=BASELINE,
                        help=f"the git revision (or a checkout folder) to compare with (default {BASELINE})")
    parser.add_argument("--bots", default="lookahead,lookahead", help="allied,italian (default the look-ahead mirror)")
    parser.add_argument("--seeds", default="5,6,7", help="comma-separated game seeds")
    parser.add_argument("--rounds", type=int, default=3, help="games per seed and side (median taken)")
    parser.add_argument("--revision", default=None,
                        help="play this git revision (or a checkout folder) instead of this checkout")
    parser.add_argument("--warm", action="store_true",
                        help="play a game of another seed (seed + 1000) first in each process, untimed: a game as "
                             "it costs in a long run, its modules imported and the tables kept per scenario made")
    args = parser.parse_args()
    seeds = [int(x) for x in args.seeds.split(",")]
    with tempfile.TemporaryDirectory(prefix="cheren-baseline-") as tmp:
        base = checkout(args.baseline, Path(tmp) / "baseline")
        here = ROOT if args.revision is None else checkout(args.revision, Path(tmp) / "revision")
        runs: dict[tuple[str, int], list[dict[str, float | str]]] = {}
        for _ in range(args.rounds):
            for seed in seeds:
                for label, code in (("new", here), ("baseline", base)):
                    runs.setdefault((label, seed), []).append(play(code, args.bots, seed, args.warm))
    this = "this checkout" if args.revision is None else args.revision
    warm = ", each after an untimed game of another seed" if args.warm else ""
    print(f"{args.bots.replace(',', ' vs ')}, {args.rounds} rounds, {this} against {args.baseline}{warm}")
    kinds = {label: sorted({str(r["kind"]) for (lb, _), rs in runs.items() if lb == label for r in rs})
             for label in ("new", "baseline")}
    print(f"engines: {this}: {', '.join(kinds['new'])}; {args.baseline}: {', '.join(kinds['baseline'])}\n")
    print("| seed | Allied VP | this checkout (cpu s) | baseline (cpu s) | speed-up | wall s (this / baseline) |")
    print("|---|---|---|---|---|---|")
    ups = []
    totals = {"new": 0.0, "baseline": 0.0}
    for seed in seeds:
        new, old = runs["new", seed], runs["baseline", seed]
        games = {str(r["game"]) for r in new + old}
        if len(games) != 1:
            sys.exit(f"seed {seed}: this checkout and {args.baseline} played different games: a speed-up changed play")
        both = (("new", new), ("baseline", old))
        cpu = {label: statistics.median(float(r["cpu"]) for r in rs) for label, rs in both}
        wall = {label: statistics.median(float(r["wall"]) for r in rs) for label, rs in both}
        up = cpu["baseline"] / cpu["new"]
        ups.append(up)
        totals["new"] += cpu["new"]
        totals["baseline"] += cpu["baseline"]
        print(f"| {seed} | {new[0]['vp']} | {cpu['new']:.2f} | {cpu['baseline']:.2f} | {up:.2f} x | "
              f"{wall['new']:.1f} / {wall['baseline']:.1f} |")
    print(f"\nmedian speed-up {statistics.median(ups):.2f} x; a game takes {totals['new'] / len(seeds):.2f} cpu s "
          f"(baseline {totals['baseline'] / len(seeds):.2f}): 300 games on 2 cores about "
          f"{300 * totals['new'] / len(seeds) / 2 / 60:.1f} min of processor time each "
          f"(baseline {300 * totals['baseline'] / len(seeds) / 2 / 60:.1f} min)")


if __name__ == "__main__":
    main()
