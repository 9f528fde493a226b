"""Bots: players that act through the same legality gate as people, seeing only their own side.

A bot gets a :class:`cheren.views.SideSeat` (its side's legal actions and a position with the
enemy's chits hidden) and returns one action with a short reason.  ``BOTS`` maps the names the
command line uses to factories taking a seed.
"""

from __future__ import annotations

from collections.abc import Callable

from cheren.bots.base import Bot, Choice
from cheren.bots.heuristic import HeuristicBot
from cheren.bots.random_bot import RandomBot

BOTS: dict[str, Callable[[int], Bot]] = {"random": RandomBot, "heuristic": HeuristicBot}


def register_bot(name: str, factory: Callable[[int], Bot]) -> None:
    BOTS[name] = factory


def make_bot(name: str, seed: int) -> Bot:
    try:
        return BOTS[name](seed)
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; known: {', '.join(sorted(BOTS))}") from None


__all__ = ["BOTS", "Bot", "Choice", "HeuristicBot", "RandomBot", "make_bot", "register_bot"]
