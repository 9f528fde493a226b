"""Bots: players that act through the same legality gate as people, seeing only their own side.

A bot gets a :class:`cheren.players.views.SideSeat` (its side's legal actions and a position with the
enemy's chits hidden) and returns one action with a short reason.  ``BOTS`` maps the names the
command line uses to factories taking a seed.
"""

from __future__ import annotations

from collections.abc import Callable

from cheren.players.bots.base import Bot, Choice
from cheren.players.bots.heuristic import HeuristicBot
from cheren.players.bots.lookahead import LookaheadBot
from cheren.players.bots.planner import DEFAULT_BUDGET, PlannerBot
from cheren.players.bots.random_bot import RandomBot
from cheren.players.bots.tactician import TacticianBot

# planner2: the planner with its supply mends (docs/bots.md, "Where the planner's Allies starve"); it
# takes the planner's place once the evaluation model is trained on its games (issue 34, item 5)
STARVE, REACTION_CUT = 3.0, 1.0


def _planner2(seed: int, budget: int = DEFAULT_BUDGET) -> PlannerBot:
    bot = PlannerBot(seed, budget=budget, starve=STARVE, reaction_cut=REACTION_CUT, pin=True)
    bot.name = "planner2"  # what a save of a game against it names (cheren.app.opponent), not "planner"
    return bot


BOTS: dict[str, Callable[[int], Bot]] = {
    "random": RandomBot, "heuristic": HeuristicBot, "tactician": TacticianBot, "lookahead": LookaheadBot,
    "planner": PlannerBot, "planner2": _planner2,
}


def register_bot(name: str, factory: Callable[[int], Bot]) -> None:
    BOTS[name] = factory


STRONGEST = "planner"  # the default of evaluate() and of the app's play-outs (docs/bots.md rates it)
BUDGETED: dict[str, Callable[[int, int], Bot]] = {
    "lookahead": lambda seed, budget: LookaheadBot(seed, budget=budget),
    "planner": lambda seed, budget: PlannerBot(seed, budget=budget),
    "planner2": _planner2,
}


def make_bot(name: str, seed: int) -> Bot:
    """A bot by name; ``lookahead:12`` is the look-ahead bot with a budget of 12 plans (and
    ``planner:4`` the planner with 4 movement plans)."""
    base, _, budget = name.partition(":")
    if base not in BOTS:
        raise ValueError(f"unknown bot {name!r}; known: {', '.join(sorted(BOTS))}")
    if not budget:
        return BOTS[base](seed)
    if base not in BUDGETED or not budget.isdigit() or int(budget) < 1:
        raise ValueError(f"{name!r}: only the lookahead and planner bots take a budget, a whole number of plans "
                         "(lookahead:12, planner:4, planner2:4)")
    return BUDGETED[base](seed, int(budget))


__all__ = [
    "BOTS", "BUDGETED", "STRONGEST", "Bot", "Choice", "HeuristicBot", "LookaheadBot", "PlannerBot", "RandomBot",
    "TacticianBot", "make_bot", "register_bot",
]
