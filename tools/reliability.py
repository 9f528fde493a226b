"""Run every hostile-input class of tests/hostile/ at full size and write the table of
docs/reliability.md from the counts (issue 28).  Nothing in the table is typed by hand.

    python tools/reliability.py [--games N] [--quick]

``--games``: whole games whose every position is reloaded (default 40; a game takes tens of
seconds); ``--quick``: small sizes, to try the tool.  Takes long: run it under ``nice`` in the
background.  It rewrites the part of docs/reliability.md between the two marker lines."""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.hostile import CLASSES, GOOD, KEPT, RECOVERED, REFUSED  # noqa: E402

DOC = ROOT / "docs" / "reliability.md"
START, END = "<!-- table: tools/reliability.py -->", "<!-- end of table -->"
BAD = ("traceback", "hang")


def sizes(games: int, quick: bool) -> dict[str, int]:
    if quick:
        return {"positions reached in play": 1, "study saves: edited fields and bytes": 20,
                "lesson files: random edits": 5, "resume files: edited": 20}
    return {"positions reached in play": games, "study saves: edited fields and bytes": 500,
            "lesson files: random edits": 200, "resume files: edited": 10**6}


def run(games: int, quick: bool) -> list[tuple[str, str, Counter[str], float]]:
    rows: list[tuple[str, str, Counter[str], float]] = []
    want = sizes(games, quick)
    with tempfile.TemporaryDirectory(prefix="cheren-reliability-") as tmp:
        for input_class in CLASSES:
            t0 = time.monotonic()
            counts: Counter[str] = Counter()
            folder = Path(tmp) / f"class-{len(rows)}"
            folder.mkdir()
            for case in input_class.cases(folder, want.get(input_class.name, 1)):
                outcome = case.run()
                if input_class.name == "positions reached in play" and outcome.startswith("{"):
                    counts.update(json.loads(outcome))  # one case is a game: count its positions
                else:
                    counts[outcome] += 1
                if outcome not in GOOD and not outcome.startswith("{"):
                    print(f"  {input_class.name}: {case.label}: {outcome}", file=sys.stderr)
            seconds = time.monotonic() - t0
            rows.append((input_class.name, input_class.what, counts, seconds))
            print(f"{input_class.name}: {dict(counts)} ({seconds:.0f} s)", file=sys.stderr, flush=True)
    return rows


def table(rows: list[tuple[str, str, Counter[str], float]], games: int) -> str:
    lines = [
        "| input class | cases | refused cleanly | recovered | kept | tracebacks | hangs | other bad outcomes |",
        "|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    total: Counter[str] = Counter()
    for name, what, counts, _ in rows:
        total.update(counts)
        other = {k: v for k, v in counts.items() if k not in GOOD and k not in BAD}
        lines.append(
            f"| **{name}**: {what} | {sum(counts.values()):,} | {counts[REFUSED]:,} | {counts[RECOVERED]:,} | "
            f"{counts[KEPT]:,} | {counts['traceback']} | {counts['hang']} | "
            f"{', '.join(f'{k}: {v}' for k, v in sorted(other.items())) or '-'} |"
        )
    others = sum(v for k, v in total.items() if k not in GOOD and k not in BAD)
    lines.append(
        f"| **all** | {sum(total.values()):,} | {total[REFUSED]:,} | {total[RECOVERED]:,} | {total[KEPT]:,} | "
        f"{total['traceback']} | {total['hang']} | {others or '-'} |"
    )
    when = time.strftime("%Y-%m-%d")
    return "\n".join([START, f"_Run of {when}: `python tools/reliability.py --games {games}`._", "", *lines, END])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--print", action="store_true", help="print the table instead of writing the doc")
    args = parser.parse_args()
    rows = run(args.games, args.quick)
    text = table(rows, 1 if args.quick else args.games)
    if args.print or not DOC.exists():
        print(text)
        return
    doc = DOC.read_text(encoding="utf-8")
    if START not in doc or END not in doc:
        raise SystemExit(f"{DOC}: the markers {START} and {END} are missing")
    head, rest = doc.split(START, 1)
    DOC.write_text(head + text + rest.split(END, 1)[1], encoding="utf-8")
    print(f"wrote the table into {DOC}", file=sys.stderr)


if __name__ == "__main__":
    main()
