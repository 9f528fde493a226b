"""The sequence of play, rule 7.0, as data: a game turn is an Allied player turn then an Italian
one, each the same six phases; twelve game turns (14.0 ends the game after turn 12)."""

from __future__ import annotations

from typing import NamedTuple

from cheren.scenario.models import Phase, Side

PLAYER_TURN: tuple[Phase, ...] = (
    Phase.REINFORCEMENT,
    Phase.MOVEMENT,
    Phase.REACTION,
    Phase.COMBAT,
    Phase.SUPPLY,
    Phase.EXPLOITATION,
)
SIDES_IN_ORDER: tuple[Side, ...] = (Side.ALLIED, Side.ITALIAN)
LAST_TURN = 12

PHASE_RULES: dict[Phase, str] = {
    Phase.REINFORCEMENT: "8.0",
    Phase.MOVEMENT: "9.0",
    Phase.REACTION: "10.0",
    Phase.COMBAT: "11.0",
    Phase.SUPPLY: "12.0",
    Phase.EXPLOITATION: "13.0",
}

PHASE_TITLES: dict[Phase, str] = {
    Phase.REINFORCEMENT: "Reinforcement & replacement",
    Phase.MOVEMENT: "Movement",
    Phase.REACTION: "Enemy reaction",
    Phase.COMBAT: "Combat",
    Phase.SUPPLY: "Supply check & attrition",
    Phase.EXPLOITATION: "Exploitation",
}


class Moment(NamedTuple):
    """A point in the sequence of play: game turn, phasing side, phase."""

    turn: int
    side: Side
    phase: Phase

    @property
    def acting(self) -> Side:
        """Who acts: the phasing side, except in Enemy reaction, which the opponent plays (10.0)."""
        return self.side.enemy if self.phase is Phase.REACTION else self.side

    def __str__(self) -> str:
        return f"turn {self.turn}, {self.side.adjective} {PHASE_TITLES[self.phase]}"


def next_moment(m: Moment, last_turn: int = LAST_TURN) -> Moment | None:
    """The moment after ``m``, or None when the game is over (after turn 12's Italian turn)."""
    i = PLAYER_TURN.index(m.phase)
    if i + 1 < len(PLAYER_TURN):
        return Moment(m.turn, m.side, PLAYER_TURN[i + 1])
    if m.side is Side.ALLIED:
        return Moment(m.turn, Side.ITALIAN, PLAYER_TURN[0])
    if m.turn >= last_turn:
        return None
    return Moment(m.turn + 1, Side.ALLIED, PLAYER_TURN[0])


def all_moments(last_turn: int = LAST_TURN) -> list[Moment]:
    out = []
    m: Moment | None = Moment(1, Side.ALLIED, PLAYER_TURN[0])
    while m is not None:
        out.append(m)
        m = next_moment(m, last_turn)
    return out
