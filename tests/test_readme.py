"""The README's Python examples run as written and print exactly the output the README shows
under each, and its two set-up commands exist."""

from __future__ import annotations

import re
import stat
from pathlib import Path

import pytest

from tests.doc_examples import Example, examples, printed

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


EXAMPLES = examples(ROOT / "README.md")


def test_the_readme_shows_how_to_use_cheren_from_python() -> None:
    assert len(EXAMPLES) >= 6
    assert any("from cheren import" in e.code and "Study" in e.code for e in EXAMPLES)


@pytest.mark.parametrize("example", EXAMPLES, ids=[f"line {e.line}" for e in EXAMPLES])
def test_each_readme_example_prints_what_the_readme_shows(example: Example) -> None:
    out = printed(example, "README.md")
    assert example.expected is not None or out == "", f"README.md line {example.line}: prints but shows no output"
    assert out == (example.expected or "")


def test_readme_starts_with_the_two_commands_and_ci_runs_the_test_one() -> None:
    first_block = re.search(r"```bash\n(.*?)```", README, re.S)
    assert first_block is not None
    commands = [line.split("#")[0].strip() for line in first_block.group(1).splitlines() if line.strip()]
    assert commands == ["./dev play", "./dev test"]
    assert (ROOT / "dev").stat().st_mode & stat.S_IXUSR
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "./dev test" in ci


def test_the_study_example_rolls_the_attack_in_each_line_and_the_lines_differ() -> None:
    """The example once printed an empty comparison: its attack stopped at the defender's chit
    window and no die was rolled."""
    study = next(e for e in EXAMPLES if "study.compare(" in e.code)
    out = printed(study, "README.md").splitlines()
    assert [line.split(":")[0] for line in out[:2]] == ["attack, same luck", "attack, new luck"]
    assert all(": die " in line for line in out[:2]) and out[0].split(": die ")[1] != out[1].split(": die ")[1]
    assert out[2] != "(15, 15) {'Allied': (0, 0), 'Italian': (0, 0)} []"
