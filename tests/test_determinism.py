"""Same seed, same game: a handful of seeded bot games pinned by a hash of their action log and
final position.

The engine is made faster by caches, indexes and shared undo snapshots; none of that may change
a single game.  When a rules fix changes a game on purpose, re-pin the hashes below in a commit
that names the fix (run this file with ``PIN=1`` to print the new values).
"""

from __future__ import annotations

import hashlib
import json
import os
from typing import Any

import pytest

from cheren.engine.game import Game
from cheren.engine.position import Position
from cheren.players.bots import make_bot
from cheren.players.views import SideSeat
from cheren.scenario import Side, load_scenario

# (allied bot, italian bot, seed, last turn played or None for the whole game)
GAMES: list[tuple[str, str, int, int | None]] = [
    ("random", "random", 3, None),
    ("random", "random", 1941, None),
    ("random", "heuristic", 11, 4),
    ("heuristic", "random", 12, 4),
    ("heuristic", "heuristic", 5, 3),
    ("heuristic", "heuristic", 2024, 3),
    ("heuristic", "heuristic", 7, None),
]

# (actions, sha256 of the action log, sha256 of the final position), first 16 hex digits
PINNED: dict[tuple[str, str, int, int | None], tuple[int, str, str]] = {
    ("random", "random", 3, None): (668, "2adad97e195069c7", "4c1daea8cc990ed5"),
    ("random", "random", 1941, None): (724, "16b35871d21e3e34", "269cfc6bf33b8b61"),
    ("random", "heuristic", 11, 4): (136, "0df6ced01141cb1f", "9aa0b1d41daf8d25"),
    ("heuristic", "random", 12, 4): (265, "c7940a5ff914fed0", "2b729c578930eac1"),
    ("heuristic", "heuristic", 5, 3): (181, "e74354d18db6851c", "9985b2bb5e97b9d9"),
    ("heuristic", "heuristic", 2024, 3): (203, "8c4a862093282a18", "fcf0ca59a937e614"),
    ("heuristic", "heuristic", 7, None): (570, "96537e6f67014a31", "fe7ef98473e2274d"),
}


def position_facts(p: Position) -> dict[str, Any]:
    """Everything a position holds, in a form that does not depend on the save format."""
    units = {
        uid: [u.side.value, u.status.value, u.hex.label if u.hex is not None else None, u.steps_lost,
              u.supply.value if u.supply is not None else None, u.defected]
        for uid, u in sorted(p.units.items())
    }
    c = p.chits
    return {
        "units": units,
        "turn": p.turn,
        "side": p.side.value,
        "phase": p.phase.value,
        "allied_control": sorted(p.allied_control),
        "released": sorted(p.released),
        "postponed": sorted(p.postponed),
        "delayed": sorted(p.delayed),
        "dice": [p.dice.seed, p.dice.state],
        "chits": {
            "hands": {side.value: list(c.hands[side]) for side in Side},
            "cup": list(c.cup),
            "played": list(c.played),
            "removed": list(c.removed),
            "seen": {side.value: list(c.seen[side]) for side in Side},
        },
    }


def digest(data: Any) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


def play(allied: str, italian: str, seed: int, last_turn: int | None) -> Game:
    """The bot loop of :func:`cheren.players.simulate.play_game`, stopped after ``last_turn``."""
    game = Game(load_scenario(), seed=seed)
    bots = {Side.ALLIED: make_bot(allied, seed * 2 + 1), Side.ITALIAN: make_bot(italian, seed * 2 + 2)}
    seats = {side: SideSeat(game, side) for side in Side}
    while not game.over and (last_turn is None or game.turn <= last_turn):
        side = game.acting
        game.apply(bots[side].choose(seats[side]).action)
    return game


def fingerprint(game: Game) -> tuple[int, str, str]:
    return len(game.log), digest([a.to_json() for a in game.actions()]), digest(position_facts(game.position))


@pytest.mark.parametrize("allied,italian,seed,last_turn", GAMES)
def test_a_seeded_game_is_the_same_game_as_before(allied: str, italian: str, seed: int, last_turn: int | None) -> None:
    game = play(allied, italian, seed, last_turn)
    found = fingerprint(game)
    if os.environ.get("PIN"):
        print(f"    ({allied!r}, {italian!r}, {seed}, {last_turn}): {found},")
    assert found == PINNED[(allied, italian, seed, last_turn)]
    # and the log alone rebuilds the same position
    again = Game.replay(game.scenario, seed, game.actions())
    assert position_facts(again.position) == position_facts(game.position)
