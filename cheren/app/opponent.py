"""The bot across the table: it plays every action of its side (its decisions included) after
each of the human's, and keeps what it did with its reasons for the bot panel and the map.

    board.opponent.set(make_bot("heuristic", 1), Side.ITALIAN)
    board.opponent.set(None, None)        # hot-seat again
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cheren.engine.actions import Action, EndPhase, Move
from cheren.engine.game import Game
from cheren.hexes import Hex
from cheren.scenario.models import Side
from cheren.study.map_intents import Feedback

if TYPE_CHECKING:
    from cheren.app.board import Board

Bot = Callable[[Game], Action]


def as_bot(bot: Any, side: Side) -> Bot:
    """A ``Callable[[Game], Action]`` from either such a callable or a :mod:`cheren.players.bots` bot
    (an object with ``choose(seat) -> Choice``, which sees only its side's view)."""
    if not hasattr(bot, "choose"):
        return bot  # type: ignore[no-any-return]
    from cheren.players.views import SideSeat

    def play(game: Game) -> Action:
        choice = bot.choose(SideSeat(game, side))
        play.reason = str(getattr(choice, "reason", ""))  # type: ignore[attr-defined]
        return choice.action  # type: ignore[no-any-return]

    play.__name__ = str(getattr(bot, "name", "bot"))
    return play


def _name(bot: Any) -> str | None:
    """The name a bot is made from (cheren.players.bots.make_bot), if it has one."""
    name = getattr(bot, "name", None)
    return name if isinstance(name, str) else None


def pass_bot(game: Game) -> Action:
    """The simplest opponent: it answers a pending decision with its first legal answer and
    otherwise ends the phase.  Any ``Callable[[Game], Action]`` works."""
    actions = game.legal_actions()
    if game.pending is not None:
        return actions[0]
    return next((a for a in actions if isinstance(a, EndPhase)), actions[0])


@dataclass(frozen=True)
class BotMove:
    """One action the bot took after the human's last one, with the reason it gives."""

    text: str
    reason: str
    path: tuple[Hex, ...] = ()


class Opponent:
    """The bot and its side (None: hot-seat), and its moves since the human's last action."""

    def __init__(self, board: Board, bot: Any = None, side: Side | None = None) -> None:
        self.board = board
        self.bot: Bot | None = None
        self.side: Side | None = None
        self.name: str | None = None  # the bot's name in cheren.players.bots.BOTS (kept in saves)
        self.label: str | None = None  # how the status bar names the opponent, when not a bot of BOTS
        if bot is not None and side is not None:
            self.bot, self.side, self.name = as_bot(bot, side), side, _name(bot)
        self.moves: list[BotMove] = []
        self.step: int | None = None  # the move picked out on the map (None: all of them)

    def set_quietly(self, bot: Any, side: Side | None, name: str | None = None) -> None:
        """The bot (None: none) without a word and without letting it move yet."""
        if bot is not None and side is not None:
            self.bot, self.side, self.name = as_bot(bot, side), side, name or _name(bot)
        else:
            self.bot, self.side, self.name = None, None, None
        self.moves, self.step = [], None

    def set(self, bot: Any, side: Side | None, name: str | None = None) -> Feedback:
        """Play against ``bot`` (a ``Callable[[Game], Action]`` or a :mod:`cheren.players.bots` bot) on
        ``side``; None for hot-seat.  The bot moves at once if it is its turn.  ``name``: the
        name it is made from (:func:`cheren.players.bots.make_bot`), kept in saves."""
        self.set_quietly(bot, side, name)
        events = self.reply()
        mode = "hot-seat" if self.bot is None else f"the bot plays the {side.adjective if side else ''} side"
        return self.board.say(Feedback("info", f"Mode: {mode}.", events=tuple(events)), "game")

    def saved(self) -> tuple[str, Side] | None:
        """What a save keeps of the opponent: the bot's name and side (None: hot-seat)."""
        return (self.name, self.side) if self.name is not None and self.side is not None else None

    def take_up(self, saved: tuple[str, Side] | None) -> Feedback | None:
        """Play against the bot a save names again (after a reload or a Load); None when the
        save names none.  A bot this cheren does not know leaves the game hot-seat, saying so."""
        if saved is None:
            return None
        from cheren.players.bots import make_bot

        name, side = saved
        try:
            bot = make_bot(name, self.board.game.seed)
        except ValueError as exc:
            self.set(None, None)
            return self.board.say(Feedback("refused", f"The saved opponent cannot play here ({exc}): hot-seat."))
        return self.set(bot, side, name)

    def reply(self, limit: int = 2000) -> list[str]:
        """Let the bot play while its side is the one to act; keep what it did, with its reasons."""
        events: list[str] = []
        if self.bot is None or self.side is None:
            return events
        game, board = self.board.game, self.board
        self.moves, self.step = [], None
        n = 0
        while not game.over and game.acting is self.side and n < limit:
            action = self.bot(game)
            start = game.position.units[action.unit].hex if isinstance(action, Move) else None
            text = board.describe(action)
            events += game.push(action)
            if action.kind not in ("end_phase", "pass_chit"):
                path = (start, *action.path) if isinstance(action, Move) and start is not None else ()
                self.moves.append(BotMove(text, str(getattr(self.bot, "reason", "")), path))
            n += 1
        if n:
            board.changed()
        return events

    def pick(self, index: int | None) -> Feedback:
        """Pick out one of the bot's last moves on the map (None: show them all)."""
        if index is None or not self.moves:
            self.step = None
            return self.board.say(Feedback("info", f"The bot's last moves: {len(self.moves)}."), "overlays")
        self.step = max(0, min(index, len(self.moves) - 1))
        m = self.moves[self.step]
        why = f" Why: {m.reason}" if m.reason else ""
        return self.board.say(Feedback("info", f"Bot move {self.step + 1}/{len(self.moves)}: {m.text}.{why}"),
                              "overlays")
