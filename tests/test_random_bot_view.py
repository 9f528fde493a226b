"""The random bot picks from the lazy legal view (Game.legal_view): the very actions it picked
when it chose from seat.legal_actions(), a whole game long."""

from __future__ import annotations

import random

from cheren.engine.actions import Action
from cheren.engine.game import Game
from cheren.players.bots import RandomBot
from cheren.players.views import SideSeat
from cheren.scenario import Side, load_scenario


def _game(seed: int, choose: dict[Side, RandomBot] | dict[Side, random.Random]) -> list[Action]:
    game = Game(load_scenario(), seed=seed, undo=False)
    taken: list[Action] = []
    while not game.over:
        side = game.acting
        pick = choose[side]
        if isinstance(pick, RandomBot):
            action = pick.choose(SideSeat(game, side)).action
        else:  # the random bot as it was: rng.choice over the listed actions
            action = pick.choice(SideSeat(game, side).legal_actions())
        game.apply(action)
        taken.append(action)
    return taken


def test_the_random_bot_plays_the_games_it_played_from_the_list() -> None:
    for seed in (1, 6):
        bots = {Side.ALLIED: RandomBot(seed * 2 + 1), Side.ITALIAN: RandomBot(seed * 2 + 2)}
        rngs = {Side.ALLIED: random.Random(seed * 2 + 1), Side.ITALIAN: random.Random(seed * 2 + 2)}
        assert _game(seed, bots) == _game(seed, rngs)
