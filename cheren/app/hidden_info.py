"""Who sits at the screen, and so what the chits (5.0) show.

* **analysis** (the study board: a position opened for study): one person studies both sides.
  No curtain; both hands are shown, unless *hide the hands* is ticked (then only the hand of the
  side to act, as a player would see it); any side may act.
* **hot-seat** (play): two players share the screen.  The side to act sees its own hand; when the
  other side comes to act and has a hand to hide, a curtain covers the game until that player
  says it is at the screen.  With no chit in that hand there is nothing to hide: no curtain.
* against a bot (:mod:`cheren.app.opponent`): the human's side only, never a curtain.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Literal

from cheren.engine.game import Game
from cheren.scenario.models import Side
from cheren.study.map_intents import Feedback

if TYPE_CHECKING:
    from cheren.app.board import Board

Seating = Literal["analysis", "hot-seat"]
SEATINGS: dict[str, str] = {
    "analysis": "Study: both sides here, no curtain (analysis)",
    "hot-seat": "Hot-seat: two players, a curtain between them",
}


class HiddenInfo:
    """The seating, the hot-seat curtain and the chits each side may see.

    ``chits``: a hook returning the chits a side may see; without it the side's view
    (:func:`cheren.players.views.chit_view`) names them."""

    def __init__(self, board: Board, chits: Callable[[Game, Side], list[str]] | None = None) -> None:
        self.board = board
        self.chits_hook = chits
        self.seating: Seating = "hot-seat"
        self.hide_hands = False  # analysis: show only the hand of the side to act
        self.shown_side: Side | None = board.game.phasing  # the phasing player sits down first

    def set_seating(self, seating: Seating, *, hide_hands: bool = False) -> Feedback:
        """Study both sides (analysis) or play hot-seat."""
        b = self.board
        if seating not in SEATINGS:
            return b.say(Feedback("refused", f"no seating {seating!r}; choose from {', '.join(SEATINGS)}"))
        self.seating, self.hide_hands = seating, hide_hands
        self.shown_side = b.game.phasing if seating == "hot-seat" else None
        said = ("Analysis: both sides' units and hands are shown, and you may act for either side."
                if seating == "analysis" else "Hot-seat: each player sees only its own hand.")
        return b.say(Feedback("info", said), "game")

    def set_hide_hands(self, on: bool) -> Feedback:
        self.hide_hands = on
        said = "Only the hand of the side to act is shown." if on else "Both hands are shown."
        return self.board.say(Feedback("info", said), "game")

    @property
    def curtain(self) -> Side | None:
        """Hot-seat: the side about to act while the screen still shows the other side's view,
        when that side has a hand the other must not see; the app hides the game until that
        player says it is at the screen."""
        b = self.board
        g = b.game
        if self.seating != "hot-seat" or b.opponent.bot is not None or g.over:
            return None
        acting = g.acting
        if acting is self.shown_side or not b.position.chits.hands.get(acting):
            return None
        return acting

    def reveal(self) -> Feedback:
        """The player of the side to act is at the screen: show the game."""
        b = self.board
        self.shown_side = b.game.acting
        return b.say(Feedback("info", f"{b.game.acting.adjective} player: {b.play.phase_hint()}"), "game")

    def hide_all(self) -> None:
        """Whoever comes to the screen next (a reloaded page), the hands stay hidden until asked."""
        self.shown_side = None

    def show_acting(self) -> None:
        """The side to act now is at the screen (a new game started by that player)."""
        self.shown_side = self.board.game.acting

    def sees(self, side: Side) -> bool:
        """Whether the screen may show ``side``'s hand now."""
        b = self.board
        if b.opponent.side is not None:
            return side is not b.opponent.side
        if self.seating == "analysis":
            return not self.hide_hands or side is b.game.acting
        return side is b.game.acting and self.curtain is None and self.shown_side is side

    def chit_counts(self) -> dict[Side, int]:
        return {side: len(hand) for side, hand in self.board.position.chits.hands.items()}

    def chits_visible(self, side: Side) -> list[str] | None:
        """The names of the chits in ``side``'s hand, from the ``chits`` hook or the side's view
        (:mod:`cheren.players.views`, rule 5.0)."""
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
