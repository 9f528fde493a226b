"""The Python examples of a Markdown page and the output printed under each.

An example is a ```python block; the output it must print is the ```text block that follows it,
with at most an "Output:" line between them.  A block that prints nothing needs none."""

from __future__ import annotations

import contextlib
import io
import re
from dataclasses import dataclass
from pathlib import Path

BLOCK = re.compile(r"```(\w*)\n(.*?)```", re.S)


@dataclass(frozen=True)
class Example:
    code: str
    expected: str | None  # None: no output block follows
    line: int  # where the example starts in the page


def examples(page: Path) -> list[Example]:
    text = page.read_text(encoding="utf-8")
    blocks = list(BLOCK.finditer(text))
    out = []
    for i, block in enumerate(blocks):
        if block.group(1) != "python":
            continue
        nxt = blocks[i + 1] if i + 1 < len(blocks) else None
        between = text[block.end() : nxt.start()].strip() if nxt is not None else ""
        expected = nxt.group(2) if nxt is not None and nxt.group(1) == "text" and between in ("", "Output:") else None
        out.append(Example(block.group(2), expected, text.count("\n", 0, block.start()) + 1))
    return out


def printed(example: Example, page: str) -> str:
    """What the example prints when run as written (in a namespace of its own)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(example.code, f"{page}:{example.line}", "exec"), {"__name__": "doc_example"})
    return out.getvalue()
