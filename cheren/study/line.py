"""One line of play of a study: what a save holds of it and what replaying it needs
(:mod:`cheren.study.variations` works with lines, :mod:`cheren.study.tree_replay` replays them)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from cheren.engine.actions import Action

Luck = Literal["same", "new"]


@dataclass
class Line:
    """One line of play: ``actions`` come after the first ``at`` actions of ``parent``'s history;
    ``reseeds`` maps an action number (counted from the start of the game) to the seed the dice
    take just before that action (new luck)."""

    name: str
    parent: str | None
    at: int
    luck: Luck = "same"
    actions: list[Action] = field(default_factory=list)
    reseeds: dict[int, int] = field(default_factory=dict)
