"""Write docs/positions.md (the library: questions, answer keys, placement counts, the Keren key)
from the position files; with --answer-keys also docs/positions-answer-keys.md, the play-outs of
every historical plan against the analysis's best alternative (slow: run it in the background).

    python tools/positions_doc.py                  # docs/positions.md
    python tools/positions_doc.py --answer-keys    # both; --games N, --seed S, --jobs J
"""

from __future__ import annotations

import argparse
import subprocess
from pathlib import Path

from cheren.files import PositionRecord, library
from cheren.scenario import load_scenario
from cheren.study.answer_keys import DEFAULT_GAMES, DEFAULT_SEED, AnswerKey, answer_key
from cheren.study.positions_doc import answer_keys_markdown, positions_markdown

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--answer-keys", action="store_true", help="also play out every answer key (slow)")
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES, help="play-outs per plan")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--jobs", type=int, default=1, help="processes for the play-outs")
    parser.add_argument("--allied", default="heuristic")
    parser.add_argument("--italian", default="heuristic")
    args = parser.parse_args()
    s = load_scenario()
    records = library(s)
    (DOCS / "positions.md").write_text(positions_markdown(s, records), encoding="utf-8")
    print("wrote docs/positions.md")
    if args.answer_keys:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT)
        note = f"Generated at commit {commit.stdout.strip() or 'unknown'}."

        def key_of(record: PositionRecord) -> AnswerKey:
            key = answer_key(record, args.games, allied=args.allied, italian=args.italian, seed=args.seed,
                             jobs=args.jobs)
            print(f"  played {key.record.name}", flush=True)
            return key

        text = answer_keys_markdown(records, args.games, args.seed, args.allied, args.italian, key_of, note)
        (DOCS / "positions-answer-keys.md").write_text(text, encoding="utf-8")
        print("wrote docs/positions-answer-keys.md")


if __name__ == "__main__":
    main()
