"""Town control, rule 2.1 (lost) and 12.7.

Rule 2.1 did not survive; the reading taken (see the interpretation list): a town changes
hands when a unit of the other side enters it, even passing through.  The designer's note under
6.0 relies on exactly that: allied units may "pass through and control" Om Ager during their
exploitation.  Control markers show allied control; every other town is Italian (5.0).
"""

from __future__ import annotations

from collections.abc import Iterable

from cheren.engine.registry import GameState
from cheren.hexes import Hex
from cheren.scenario.models import Side


def enter_hexes(game: GameState, side: Side, hexes: Iterable[Hex]) -> None:
    """A unit of ``side`` entered these hexes (moving, retreating or advancing): any town among
    them passes to ``side``."""
    p = game.position
    towns = p.scenario.towns_by_hex
    for h in hexes:
        town = towns.get(h)
        if town is None or p.controller(town.name) is side:
            continue
        p.set_control(town.name, side)
        game.event(f"{side.adjective} units enter {town.name} and take control of it ({town.vp} VP) (2.1)")
