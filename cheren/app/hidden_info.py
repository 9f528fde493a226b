"""Hidden information: what each side may see of the chits (5.0), and the hot-seat curtain that
hides the game between the two players' turns so one side's hand is never shown to the other."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from cheren.engine.game import Game
from cheren.scenario.models import Side
from cheren.study.map_intents import Feedback

if TYPE_CHECKING:
    from cheren.app.board import Board


class HiddenInfo:
    """The hot-seat curtain and the chits each side may see.

    ``chits``: a hook returning the chits a side may see; without it the side's view
    (:func:`cheren.players.views.chit_view`) names them."""

    def __init__(self, board: Board, chits: Callable[[Game, Side], list[str]] | None = None) -> None:
        self.board = board
        self.chits_hook = chits
        self.curtains = True  # hot-seat: hide one side's hand from the other between turns
        self.shown_side: Side = board.game.acting

    @property
    def curtain(self) -> Side | None:
        """Hot-seat: the side about to act while the screen still shows the other side's view;
        the app hides the game (and the hands) until that player says it is there."""
        g = self.board.game
        if self.board.opponent.bot is not None or not self.curtains or g.over:
            return None
        return g.acting if g.acting is not self.shown_side else None

    def reveal(self) -> Feedback:
        """The player of the side to act is at the screen: show the game."""
        b = self.board
        self.shown_side = b.game.acting
        return b.say(Feedback("info", f"{b.game.acting.adjective} player: {b.play.phase_hint()}"), "game")

    def hide_all(self) -> None:
        """Whoever comes to the screen next (a reloaded page), the hands stay hidden until asked."""
        self.shown_side = self.board.game.acting.enemy

    def show_acting(self) -> None:
        """The side to act now is at the screen (a new game started by that player)."""
        self.shown_side = self.board.game.acting

    def chit_counts(self) -> dict[Side, int]:
        return {side: len(hand) for side, hand in self.board.position.chits.hands.items()}

    def chits_visible(self, side: Side) -> list[str] | None:
        """The names of the chits in ``side``'s hand, from the ``chits`` hook or the side's view
        (:mod:`cheren.players.views`, rule 5.0).  The app shows them only to the side acting now
        (hot-seat)."""
        b = self.board
        if self.chits_hook is not None:
            return self.chits_hook(b.game, side)
        from cheren.engine.position import chit_key
        from cheren.players.views import chit_view

        names = []
        for instance in chit_view(b.position, side).hand:
            chit = b.scenario.chits.get(chit_key(instance))
            names.append(f"{chit.name}{' ★' if chit.one_time else ''}" if chit is not None else instance)
        return names
