"""Opening a position for study: a library position (with its date and question), a position
code pasted in, or a file (a position file or a position save).  The position opens in
analysis mode unless asked for play, and its record (narrative, question, sources) stays with
the board for the position panel."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from cheren.engine.game import Game
from cheren.study.map_intents import Feedback

if TYPE_CHECKING:
    from cheren.app.board import Board
    from cheren.app.hidden_info import Seating
    from cheren.files import PositionRecord


def question_text(record: Any) -> str:
    """The question a position puts, in words ("" when its file has none)."""
    q = getattr(record, "question", None)
    if q is None:
        return ""
    text = str(getattr(q, "text", q)).strip()
    side = getattr(q, "side", None)
    return f"{side.adjective} to decide: {text}" if side is not None else text


class Positions:
    def __init__(self, board: Board) -> None:
        self.board = board
        self.record: PositionRecord | None = None  # the position opened last, while its game is on the board
        self._library: list[PositionRecord] | None = None

    def library(self) -> list[PositionRecord]:
        """The scenario's library, in the order of the campaign."""
        if self._library is None:
            from cheren.files import library

            self._library = library(self.board.scenario)
        return self._library

    def open(self, ref: str | Path, *, seating: Seating = "analysis") -> Feedback:
        """Open a library name, a position code or a file; refused with the problem (file, field,
        rule) and nothing changed when it cannot be read."""
        from cheren.files import PositionError, open_position

        text = str(ref).strip()
        if not text:
            return self.board.say(Feedback("refused", "Pick a library position, paste a position code or name a file."))
        try:
            record = open_position(text, self.board.scenario)
        except PositionError as exc:
            return self.board.say(Feedback("refused", f"Could not open {text[:60]}: {exc}"))
        return self.show(record, seating=seating)

    def open_upload(self, name: str, content: bytes, *, seating: Seating = "analysis") -> Feedback:
        """A position file (``.yaml``) or position save (``.json``) handed over by the browser."""
        from cheren.files import PositionError, PositionRecord
        from cheren.files.position_files import parse_position_text
        from cheren.files.position_saves import SaveError, loads

        b = self.board
        try:
            text = content.decode("utf-8")
            if name.endswith(".json"):
                position = loads(text, b.scenario, source=name)
                record = PositionRecord(Path(name).stem, name, _date(b, position.turn), position)
            else:
                record = parse_position_text(text, b.scenario, source=name)
        except UnicodeDecodeError:
            return b.say(Feedback("refused", f"{name} is not a text file (a position file is YAML, a save JSON)"))
        except (PositionError, SaveError) as exc:
            return b.say(Feedback("refused", f"Could not open {name}: {exc}"))
        return self.show(record, seating=seating)

    def take_up(self, name: str) -> None:
        """The library position a study taken up again was opened from: its record (question,
        answer key) comes back, if the study still starts from that position."""
        from cheren.files import PositionError, open_position
        from cheren.files.position_saves import position_to_dict

        b = self.board
        try:
            record = open_position(name, b.scenario)
        except (PositionError, OSError):
            return
        if position_to_dict(Game.from_position(record.position.copy()).start) == position_to_dict(b.study.start):
            self.record = record

    def on_board(self) -> PositionRecord:
        """The position on the board as a record: the opened position's (its title, question and
        sources kept) with the units as they stand now, or a new one."""
        from dataclasses import replace

        from cheren.files import PositionRecord

        b = self.board
        if self.record is not None:
            return replace(self.record, position=b.position.copy())
        return PositionRecord("my-position", "A position from the board", _date(b, b.game.turn), b.position.copy())

    def show(self, record: PositionRecord, *, seating: Seating = "analysis") -> Feedback:
        """Put a position on the board: a new game from it, studied (analysis) or played."""
        b = self.board
        b.opponent.set_quietly(None, None)
        b.set_game(Game.from_position(record.position.copy()))
        self.record = record
        b.hidden.set_seating(seating)
        how = ("Analysis: no curtain, both hands shown, act for either side" if seating == "analysis"
               else "Hot-seat play")
        text = f"Opened {record.title} ({record.date:%d %B %Y}): {b.game.status()}. {how}."
        return b.say(Feedback("ok", text), "game", "selection", "position")


def _date(board: Board, turn: int) -> Any:
    from cheren.files.position_library import _date_of

    return _date_of(board.scenario, turn)
