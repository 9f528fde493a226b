"""What every bot is."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from cheren.engine.actions import Action
from cheren.players.views import SideSeat


@dataclass(frozen=True)
class Choice:
    action: Action
    reason: str


class Bot(Protocol):
    name: str

    def choose(self, seat: SideSeat) -> Choice:
        """One legal action for the seat's side, with the reason it was chosen."""
        ...
