"""The tables of docs/bots.md (the planner's rating) and docs/balance.md (the planner mirror
against the targets of issue 33), computed from `cheren simulate --out` results files, so that no
figure in them is typed by hand (issue 33).

    python tools/balance_tables.py rating RESULTS.json [RESULTS.json ...] [--bot planner]
    python tools/balance_tables.py balance RESULTS.json
    ... [--doc docs/bots.md --table NAME]
    python tools/balance_tables.py tuning RESULTS.json [RESULTS.json ...]
    python tools/balance_tables.py fixture RESULTS.json --out FIXTURE.json

``rating``: one row per file: the games each side won, the share of decided games that ``--bot``
won (95% Wilson interval) and the mean Allied VP (95% normal interval).  ``balance``: the issue's
targets (the Allies' share of decided games, the mean Allied VP, the games the Italians hold
Kassala at the end) and the history table: in the games the Allies win, the median turn each of
Agordat, Barentu, Cheren, Asmara and Massaua first ends a turn in Allied hands, against the turn it
fell in 1941.  ``tuning``: one row per
file (a variant measured on the same seeds): the targets' three measures side by side.
With ``--doc`` the table replaces the lines between ``<!-- NAME: ... -->`` and
``<!-- end of NAME -->`` in that file; without it, it is printed.  ``fixture``: the run's first
game (its number, seed and bots, the run's seed, and what it gave: winner, Allied VP, number of
actions and a digest of its log), for the test that replays it
(``tests/test_held_out_reproduces.py``); the file must have been written with ``--logs``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cheren.players.results_file import GameResult, read_results  # noqa: E402
from cheren.study.analysis.evaluate import Z95, wilson  # noqa: E402

# When each town fell in 1941, as game turns (history.md; docs/balance.md "What this says"):
# Agordat 1 February, Barentu 2 February, Cheren 27 March, Asmara 1 April, Massaua 8 April.
HISTORY = {"Agordat": 2, "Barentu": 3, "Cheren": 10, "Asmara": 11, "Massaua": 12}
TARGETS = "Allied share of decided games 40-60%; mean Allied VP 19-23; Italians hold Kassala at the end in at most 10%"


def pct(k: int, n: int) -> str:
    lo, hi = wilson(k, n)
    return f"{k / n:.0%} ({lo:.0%}-{hi:.0%})" if n else "-"


def mean_interval(xs: Sequence[float]) -> tuple[float, float, float]:
    """The mean with its 95% normal interval."""
    m = statistics.fmean(xs)
    half = Z95 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else 0.0
    return m, m - half, m + half


def vp_cell(results: Sequence[GameResult]) -> str:
    m, lo, hi = mean_interval([r.allied_vp for r in results])
    return f"{m:.1f} ({lo:.1f}-{hi:.1f})"


def wins(results: Sequence[GameResult]) -> tuple[int, int, int]:
    a = sum(r.winner == "allied" for r in results)
    d = sum(r.winner == "draw" for r in results)
    return a, d, len(results) - a - d


def rating_rows(runs: Sequence[Sequence[GameResult]], bot: str) -> list[str]:
    lines = [
        f"| Allies | Italians | games | Allied wins / draws / Italian wins | {bot}'s share of decided games "
        "(95% interval) | mean Allied VP (95% interval) | median |",
        "|---|---|---|---|---|---|---|",
    ]
    for results in runs:
        a, d, i = wins(results)
        first = results[0]
        bot_wins = a if first.allied_bot.split(":")[0] == bot else i
        median = statistics.median(r.allied_vp for r in results)
        lines.append(f"| {first.allied_bot} | {first.italian_bot} | {len(results)} | {a} / {d} / {i} | "
                     f"{pct(bot_wins, a + i)} of {a + i} decided | {vp_cell(results)} | {median:g} |")
    return lines


def tuning_rows(runs: Sequence[Sequence[GameResult]], names: Sequence[str]) -> list[str]:
    lines = ["| results file | games | Allied share of decided games | mean Allied VP (95% interval) | "
             "Italians hold Kassala at the end |", "|---|---|---|---|---|"]
    for name, results in zip(names, runs, strict=True):
        a, _, i = wins(results)
        kassala = sum(kassala_lost(r) for r in results)
        lines.append(f"| {name} | {len(results)} | {pct(a, a + i)} of {a + i} | {vp_cell(results)} | "
                     f"{kassala} of {len(results)}, {pct(kassala, len(results))} |")
    return lines


def kassala_lost(r: GameResult) -> bool:
    """The Italians hold Kassala at the end (its Control marker is gone: 2.1)."""
    return bool(r.control) and "Kassala" not in r.control[-1]


def fall_turn(r: GameResult, town: str) -> int | None:
    """The first turn at whose end the Allies hold ``town``."""
    return next((r.first_turn + i for i, held in enumerate(r.control) if town in held), None)


def balance_rows(results: Sequence[GameResult]) -> list[str]:
    n = len(results)
    a, d, i = wins(results)
    first = results[0]
    kassala = sum(kassala_lost(r) for r in results)
    vps = [r.allied_vp for r in results]
    lines = [
        f"{n} games, {first.allied_bot} (Allies) against {first.italian_bot} (Italians); "
        "95% Wilson intervals for shares, 95% normal interval for the mean.",
        "",
        "| measure | result | target |",
        "|---|---|---|",
        f"| Allied wins / draws / Italian wins | {a} / {d} / {i} | - |",
        f"| Allied share of decided games | {pct(a, a + i)} of {a + i} | 40%-60% |",
        f"| mean Allied VP | {vp_cell(results)} | 19-23 |",
        f"| median Allied VP (middle half) | {statistics.median(vps):g} "
        f"({_quartile(vps, 0)}-{_quartile(vps, 2)}) | - |",
        f"| Italians hold Kassala at the end | {kassala} of {n}, {pct(kassala, n)} | at most 10% |",
        *(f"| mean Allied VP where {label} | {vp_cell(part)} in {len(part)} games | - |"
          for label, part in (("the Italians hold Kassala at the end", [r for r in results if kassala_lost(r)]),
                              ("they do not", [r for r in results if not kassala_lost(r)])) if part),
        "",
        f"In the {a} games the Allies win, the turn each town first ends a turn in Allied hands:",
        "",
        "| town | taken in (of the Allied wins) | median turn | middle half | history (1941) |",
        "|---|---|---|---|---|",
    ]
    allied_wins = [r for r in results if r.winner == "allied"]
    for town, turn in HISTORY.items():
        turns = [t for r in allied_wins if (t := fall_turn(r, town)) is not None]
        cells = f"{statistics.median(turns):g} | {_quartile(turns, 0)}-{_quartile(turns, 2)}" if turns else "- | -"
        lines.append(f"| {town} | {len(turns)} of {len(allied_wins)} | {cells} | {turn} |")
    return lines


def _quartile(xs: Sequence[int], which: int) -> str:
    if len(xs) < 2:
        return f"{xs[0]:g}" if xs else "-"
    return f"{statistics.quantiles(xs, n=4, method='inclusive')[which]:g}"


def log_digest(log: Sequence[object]) -> str:
    """A short fingerprint of a game's actions (the results file's JSON form of its log)."""
    text = json.dumps(list(log), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def fixture(path: Path) -> dict[str, object]:
    """What the replay test compares: the first game of the run kept in ``path``."""
    from cheren.players.results_file import read_run

    results, run = read_run(path)
    first = min(results, key=lambda r: r.index)
    if first.log is None:
        raise SystemExit(f"{path}: the games have no logs (run it with --logs)")
    return {"file": path.name, "run_seed": run.seed, "run_games": run.games, "index": first.index,
            "seed": first.seed, "allied": first.allied_bot, "italian": first.italian_bot,
            "winner": first.winner, "allied_vp": first.allied_vp, "actions": first.actions,
            "log_digest": log_digest(first.log)}


def write_between(doc: Path, name: str, lines: list[str], command: str) -> None:
    """Replace the table between its two marker lines in ``doc`` (the markers must be there)."""
    text = doc.read_text(encoding="utf-8").splitlines()
    start = next((k for k, line in enumerate(text) if line.startswith(f"<!-- {name}:")), None)
    end = next((k for k, line in enumerate(text) if line == f"<!-- end of {name} -->"), None)
    if start is None or end is None or end < start:
        raise SystemExit(f"{doc}: no lines '<!-- {name}: ... -->' and '<!-- end of {name} -->' to write between")
    text[start:end + 1] = [f"<!-- {name}: {command} -->", *lines, f"<!-- end of {name} -->"]
    doc.write_text("\n".join(text) + "\n", encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("what", choices=("rating", "balance", "tuning", "fixture"))
    ap.add_argument("files", nargs="+", type=Path)
    ap.add_argument("--bot", default="planner", help="rating: the bot whose share is counted")
    ap.add_argument("--doc", type=Path, help="write the table into this file, between its markers")
    ap.add_argument("--table", default="", help="the markers' name (with --doc)")
    ap.add_argument("--out", type=Path, help="fixture: write it here (JSON)")
    args = ap.parse_args(argv)
    if args.what == "fixture":
        if len(args.files) != 1 or args.out is None:
            raise SystemExit("fixture takes one results file and --out")
        args.out.write_text(json.dumps(fixture(args.files[0]), indent=2) + "\n", encoding="utf-8")
        return
    runs = [read_results(f) for f in args.files]
    if any(not r for r in runs):
        raise SystemExit("a results file holds no games")
    if args.what == "rating":
        lines = rating_rows(runs, args.bot)
    elif args.what == "tuning":
        lines = tuning_rows(runs, [f.name for f in args.files])
    else:
        if len(runs) != 1:
            raise SystemExit("balance takes one results file")
        lines = balance_rows(runs[0])
    if args.doc:
        command = "python tools/balance_tables.py " + " ".join(
            [args.what, *(f.name for f in args.files)] + (["--bot", args.bot] if args.what == "rating" else []))
        write_between(args.doc, args.table or args.what, lines, command)
    else:
        print("\n".join(lines))


if __name__ == "__main__":
    main()
