"""Errors from loading a scenario: every problem names the file, the field and, for map data,
the hex, so an owner correcting the data can find the line to fix."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    file: str
    field: str | None
    message: str
    hex: str | None = None

    def __str__(self) -> str:
        where = self.file
        if self.field:
            where += f": {self.field}"
        if self.hex:
            where += f" [hex {self.hex}]"
        return f"{where}: {self.message}"


class ScenarioError(ValueError):
    """A scenario that cannot be loaded; ``problems`` lists every problem found."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = list(problems)
        count = len(self.problems)
        head = f"scenario has {count} problem{'s' if count != 1 else ''}:"
        super().__init__("\n".join([head, *(f"  - {p}" for p in self.problems)]))
