"""Errors from loading a scenario: every problem names the file, the field and, for map data,
the hex, so an owner correcting the data can find the line to fix."""

from __future__ import annotations

from dataclasses import dataclass

MAX_MESSAGE = 400  # characters of one problem's message: a quoted value never floods a terminal
MAX_LISTED = 40


def _bounded(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 15] + f"... ({len(text)} chars)"


@dataclass(frozen=True)
class Problem:
    file: str
    field: str | None
    message: str
    hex: str | None = None

    def __str__(self) -> str:
        where = _bounded(self.file, 120)
        if self.field:
            where += f": {_bounded(self.field, 160)}"
        if self.hex:
            where += f" [hex {_bounded(self.hex, 12)}]"
        return f"{where}: {_bounded(self.message, MAX_MESSAGE)}"


class ScenarioError(ValueError):
    """A scenario that cannot be loaded; ``problems`` lists every problem found (the message
    shows the first :data:`MAX_LISTED`, each at most :data:`MAX_MESSAGE` characters long)."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = list(problems)
        count = len(self.problems)
        head = f"scenario has {count} problem{'s' if count != 1 else ''}:"
        lines = [head, *(f"  - {p}" for p in self.problems[:MAX_LISTED])]
        if count > MAX_LISTED:
            lines.append(f"  ... and {count - MAX_LISTED} more")
        super().__init__("\n".join(lines))
