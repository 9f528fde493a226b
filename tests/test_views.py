"""What a seat shows a bot: its own side's knowledge only (5.0, 5.1)."""

from __future__ import annotations

from cheren import load_scenario
from cheren.engine.game import Game
from cheren.scenario import Side

S = load_scenario()


def test_a_seat_does_not_show_which_chits_the_enemy_drew_and_removed() -> None:
    """5.1: an opponent's chit drawn from the cup leaves play unseen; only the drawer knows it."""
    from cheren.players.views import redacted_position

    p = Game(S, seed=2).position
    mine = next(x for x in p.chits.cup if S.chits[x.rsplit(".", 1)[0]].side is Side.ALLIED)
    p.chits.cup.remove(mine)
    p.chits.removed.append(mine)
    p.chits.seen[Side.ITALIAN].append(mine)  # the Italians drew it
    assert mine not in redacted_position(p, Side.ALLIED).chits.removed
    assert mine in redacted_position(p, Side.ITALIAN).chits.removed
