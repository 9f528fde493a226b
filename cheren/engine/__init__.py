"""The engine: hexes, dice, the position, actions, the sequence of play, the legality gate
(:class:`cheren.engine.game.Game`) and the rules (:mod:`cheren.engine.rules`).

The engine imports only :mod:`cheren.scenario` below it; files, players, study, rendering, the
app and the command line are built on it and never the other way round (``.importlinter``).
"""
