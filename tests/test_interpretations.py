"""The interpretation list is honest: every test it cites exists."""

from __future__ import annotations

import ast
from pathlib import Path

from cheren.engine.interpretations import INTERPRETATIONS, as_markdown

TESTS = Path(__file__).parent


def test_every_cited_test_exists() -> None:
    names: set[str] = set()
    for path in TESTS.glob("test_*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names |= {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
    cited = {t for i in INTERPRETATIONS for t in i.tests}
    assert cited - names == set()


def test_the_list_renders_for_the_notebooks() -> None:
    text = as_markdown()
    assert text.count("\n") == len(INTERPRETATIONS) + 1
    assert all(i.rule in text for i in INTERPRETATIONS)
