"""docs/api.md lists the public API with one example each: every example runs, printing exactly
what the page shows under it, and every public name has its section."""

from __future__ import annotations

from pathlib import Path

import pytest

import cheren
from tests.doc_examples import Example, examples, printed

PAGE = Path(__file__).resolve().parents[1] / "docs" / "api.md"
EXAMPLES = examples(PAGE)


@pytest.mark.parametrize("example", EXAMPLES, ids=[f"line {e.line}" for e in EXAMPLES])
def test_each_example_prints_what_the_page_shows(example: Example) -> None:
    assert example.expected is not None, f"docs/api.md line {example.line}: no output shown under the example"
    assert printed(example, "docs/api.md") == example.expected


def test_every_public_name_has_its_section_and_example() -> None:
    text = PAGE.read_text(encoding="utf-8")
    promised = ["Game", "Study", "load_position", "load_scenario", "actions", "analyse", "evaluate",
                "action_from_json"]
    for name in promised:
        assert f"## `{name}`" in text, name
        assert any(f"import {name}" in e.code or f" {name}," in e.code or f", {name}" in e.code
                   or f"cheren.{name}" in e.code for e in EXAMPLES), name
        assert name in cheren.__all__
