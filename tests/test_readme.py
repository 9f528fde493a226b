"""The README's Python examples run as written, and its two set-up commands exist."""

from __future__ import annotations

import re
import stat
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_readme_python_examples_run() -> None:
    blocks = re.findall(r"```python\n(.*?)```", README, re.S)
    assert blocks, "the README should show how to use cheren from Python"
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {"__name__": "readme_example"})


def test_readme_starts_with_the_two_commands_and_ci_runs_the_test_one() -> None:
    first_block = re.search(r"```bash\n(.*?)```", README, re.S)
    assert first_block is not None
    commands = [line.split("#")[0].strip() for line in first_block.group(1).splitlines() if line.strip()]
    assert commands == ["./dev play", "./dev test"]
    assert (ROOT / "dev").stat().st_mode & stat.S_IXUSR
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "./dev test" in ci
