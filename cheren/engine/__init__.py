"""The engine: dice, the position, the actions, the legality gate (:class:`cheren.engine.game.Game`),
the rulebook it plays by (:mod:`cheren.engine.rulebook`) and the rules (:mod:`cheren.engine.rules`);
docs/architecture.md draws how they depend on each other.

The engine imports only :mod:`cheren.scenario` below it; files, players, study, rendering, the
app and the command line are built on it and never the other way round (``.importlinter``).
"""
