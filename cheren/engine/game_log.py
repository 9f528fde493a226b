"""What a game's log keeps of each action (:class:`LogEntry`) and of every step lost
(:class:`StepLoss`): the gate (:mod:`cheren.engine.game`) writes them, replays, saves and the
analysis read them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from cheren.engine.actions import Action
from cheren.scenario.models import Side
from cheren.scenario.sequence import Moment


class StepLoss(NamedTuple):
    """Steps one unit lost, and the rules that took them (the first says why: 3.1, 12.6, 11.5...)."""

    unit: str
    side: Side
    steps: int
    rules: tuple[str, ...]


@dataclass
class LogEntry:
    index: int
    moment: Moment
    side: Side
    action: Action
    events: list[str]
    losses: list[StepLoss] = field(default_factory=list)  # the same losses as data, for analysis

    def __str__(self) -> str:
        lines = [f"{self.index:4d}. [{self.moment}] {self.side.adjective}: {self.action.describe()}"]
        lines += [f"        {e}" for e in self.events]
        return "\n".join(lines)
