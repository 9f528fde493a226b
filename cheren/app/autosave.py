"""The app's autosave: the game written after every change and taken up again after a reload (a
page reload in Voila starts the notebook afresh), with the bot it was played against, and a study
as a study: no curtain, and the library position's question and answer key beside the map again.
A game played hot-seat comes back with the hands hidden until a player asks."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from cheren.study.map_intents import Feedback

if TYPE_CHECKING:
    from cheren.app.board import Board


def write_autosave(board: Board, path: Path) -> str | None:
    """Write the board's study to ``path``; what went wrong, if it could not be written."""
    from cheren.files.outputs import write_output
    from cheren.study.game_saves import dumps_game

    try:
        write_output(path, dumps_game(board.study, board.opponent.saved(), seat_of(board)))
    except OSError as exc:
        return f"Autosave to {path} failed: {exc}"
    return None


def seat_of(board: Board) -> tuple[str, str | None]:
    """How the board is studied, for a save: its seating and the library position it was opened from."""
    record = board.positions.record
    return board.hidden.seating, record.name if record is not None else None


def take_up_autosave(board: Board, path: Path) -> bool:
    """Take up the game autosaved in ``path``, if there is one, saying so (or what was wrong with
    the file); whether the app may go on autosaving to that file."""
    from cheren.study.game_saves import take_up_autosave as found_in

    found = found_in(path, board.scenario)
    if found.problem is not None:  # the app opens all the same, on a new game
        board.say(Feedback("refused", found.problem))
    if found.study is None:
        return found.keep_saving
    board.take_study(found.study)
    note = _take_up_opponent(board, path) + take_up_seat(board, path)
    text = f"Took up the game where it was: {found.study.game.status()} (autosaved in {path.name}).{note}"
    board.say(Feedback("ok" if not note else "refused", text))
    return True


def _take_up_opponent(board: Board, path: Path) -> str:
    """The bot the save names plays its side again; what went wrong with it, if anything."""
    from cheren.files.position_saves import SaveError
    from cheren.study.game_saves import read_opponent

    try:
        said = board.opponent.take_up(read_opponent(path))
        return f" {said.text}" if said is not None and not said.ok else ""
    except SaveError as exc:
        return f" {exc}: the game goes on hot-seat."


def take_up_seat(board: Board, path: str | Path) -> str:
    """A study comes back as a study, with the position it was opened from; anything else with
    the hands hidden, whoever reloaded, until asked."""
    from cheren.files.position_saves import SaveError
    from cheren.study.game_saves import read_study

    try:
        seat = read_study(path)
    except SaveError as exc:
        board.hidden.hide_all()
        return f" {exc}: the game goes on hot-seat."
    if seat is not None and seat[0] == "analysis" and board.opponent.bot is None:
        board.hidden.seating, board.hidden.shown_side = "analysis", None
    else:
        if seat is None or seat[0] == "hot-seat":
            board.hidden.seating = "hot-seat"  # a Load over a study on the board: its curtain again
        board.hidden.hide_all()
    if seat is not None and seat[1] is not None:
        board.positions.take_up(seat[1])
    return ""
