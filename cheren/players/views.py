"""What one side may know (rule 5.0: chits are hidden from the opponent), and the full view.

A side sees its own hand; of the other hand only how many chits it holds; of the cup only its
size; played chits are face up for both; of the chits out of play it sees the one-time chits that
were played and the enemy chits it drew itself (5.1), and only a count of the rest.  Hot-seat
play and bots work from :func:`player_view`; teaching and replay from :func:`full_view`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cheren.engine.position import Position
from cheren.files.position_saves import position_to_dict
from cheren.scenario.models import Side

if TYPE_CHECKING:
    from collections.abc import Sequence

    from cheren.engine.actions import Action
    from cheren.engine.game import Game


@dataclass(frozen=True)
class ChitView:
    side: Side
    hand: tuple[str, ...]
    enemy_hand_count: int
    cup_count: int
    played: tuple[str, ...]
    removed_known: tuple[str, ...]
    removed_unknown_count: int


def chit_view(position: Position, side: Side) -> ChitView:
    c = position.chits
    unseen_by_anyone_else = set(c.seen[side.enemy])
    public_removed = [r for r in c.removed if r not in c.seen[Side.ALLIED] and r not in c.seen[Side.ITALIAN]]
    known = [*public_removed, *c.seen[side]]
    return ChitView(
        side=side,
        hand=tuple(c.hands[side]),
        enemy_hand_count=len(c.hands[side.enemy]),
        cup_count=len(c.cup),
        played=tuple(c.played),
        removed_known=tuple(known),
        removed_unknown_count=len(unseen_by_anyone_else),
    )


def player_view(position: Position, side: Side) -> dict[str, Any]:
    """The position as ``side`` may see it, as JSON-able data with no hidden chit identities."""
    data = position_to_dict(position)
    view = chit_view(position, side)
    data["chits"] = {
        "hand": list(view.hand),
        "enemy_hand_count": view.enemy_hand_count,
        "cup_count": view.cup_count,
        "played": list(view.played),
        "removed_known": list(view.removed_known),
        "removed_unknown_count": view.removed_unknown_count,
    }
    data["view"] = side.value
    data.pop("dice", None)  # the dice state would let a side predict the next rolls and draws
    return data


def full_view(position: Position) -> dict[str, Any]:
    """Everything, for teaching and replay."""
    data = position_to_dict(position)
    data["view"] = "full"
    return data


@dataclass
class SideSeat:
    """A seat at the table for one side: what a bot or a hot-seat player may use."""

    game: Game
    side: Side

    def my_turn(self) -> bool:
        return not self.game.over and self.game.acting is self.side

    def legal_actions(self) -> list[Action]:
        return self.game.legal_actions() if self.my_turn() else []

    def legal_view(self) -> Sequence[Action]:
        """:meth:`legal_actions` as the game's lazy view (each action made when it is read)."""
        return self.game.legal_view() if self.my_turn() else ()

    def view(self) -> dict[str, Any]:
        return player_view(self.game.position, self.side)

    def chits(self) -> ChitView:
        return chit_view(self.game.position, self.side)

    def position(self) -> Position:
        """A copy of the position with everything this side may not know taken out: the enemy
        hand, the cup, the chits the enemy drew and removed unseen (and its memory of them), and
        the dice state."""
        return redacted_position(self.game.position, self.side)


def redacted_position(position: Position, side: Side) -> Position:
    from cheren.engine.dice import Dice

    p = position.copy()
    # 5.1: a chit the enemy drew and removed from play is known to the enemy alone
    p.chits.removed = [r for r in p.chits.removed if r not in p.chits.seen[side.enemy]]
    p.chits.hands[side.enemy] = []
    p.chits.cup = []
    p.chits.seen[side.enemy] = []
    p.dice = Dice(0)
    return p
