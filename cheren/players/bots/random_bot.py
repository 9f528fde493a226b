"""The random bot: a uniformly random legal action (for tests and as a baseline)."""

from __future__ import annotations

import random

from cheren.players.bots.base import Choice
from cheren.players.views import SideSeat


class RandomBot:
    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, seat: SideSeat) -> Choice:
        # The lazy view lists what seat.legal_actions() lists, in the same order, and rng.choice
        # reads only len() and one index: the same action from the same draw, without making
        # the ~300 moves a Movement phase lists.
        actions = seat.legal_view()
        if not actions:
            raise ValueError(f"{seat.side.adjective} has no legal action now")
        return Choice(self.rng.choice(actions), f"picked at random among {len(actions)} legal actions")
