"""The fields of a game save, checked with pydantic before anything is replayed, and the limits
that keep a save's loading bounded in time and memory.

A save written by cheren is always well inside the limits: a game is a few thousand actions and
a study a few hundred lines.  The limits are there for a file that was edited, damaged or made
to hurt: it is refused at once with the field and the limit, never loaded for minutes.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, ValidationError, field_validator

from cheren.files.position_saves import SaveError

#: The most lines a study save may hold (a study made by hand holds dozens).
MAX_LINES = 20_000
#: The most lines that may branch one from another, each from the one before.
MAX_DEPTH = 10_000
#: The most actions all the lines of a save hold together (a whole game is a few thousand; loading
#: replays each of them through the gate once).
MAX_ACTIONS = 200_000
MAX_NAME = 60
MAX_SEED = 2**63 - 1


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


def _whole_seed(value: Any) -> Any:
    if type(value) is not int or not 0 <= value <= MAX_SEED:
        raise ValueError("must be a whole number from 0 to 2^63 - 1")
    return value


class LineFile(_Strict):
    """One line of the tree as a save holds it (see :class:`cheren.study.variations.Line`)."""

    name: str = Field(min_length=1, max_length=MAX_NAME)
    parent: str | None = Field(None, max_length=MAX_NAME)
    at: StrictInt = Field(0, ge=0, le=MAX_ACTIONS)
    luck: Literal["same", "new"] = "same"
    reseeds: dict[str, Any] = Field(default_factory=dict)
    actions: list[Any] = Field(default_factory=list, max_length=MAX_ACTIONS)

    @field_validator("reseeds")
    @classmethod
    def _reseeds(cls, value: dict[str, Any]) -> dict[str, Any]:
        for key, seed in value.items():
            if not key.isdigit() or len(key) > 7:
                raise ValueError(f"keys are action numbers, not {key[:20]!r}")
            _whole_seed(seed)
        return value


class TreeFile(_Strict):
    current: str = Field(min_length=1, max_length=MAX_NAME)
    lines: list[LineFile] = Field(min_length=1, max_length=MAX_LINES)


class OpponentFile(_Strict):
    """The bot that plays one side (read by :func:`cheren.study.game_saves.read_opponent`); a bot
    this cheren does not know leaves the game hot-seat, said when it is taken up."""

    bot: str = Field(min_length=1, max_length=MAX_NAME)
    side: Literal["allied", "italian"]


class StudyFile(_Strict):
    """How the game was being looked at (read by :func:`cheren.study.game_saves.read_study`):
    studied on both sides (analysis) or played hot-seat, and the library position it was opened
    from, if any (its question and answer key come back beside the map)."""

    seating: Literal["analysis", "hot-seat"]
    position: str | None = Field(default=None, min_length=1, max_length=MAX_NAME)


class GameFile(_Strict):
    """A game save (``format: cheren-game``); version 1 has no tree."""

    format: Literal["cheren-game"]
    version: Literal[1, 2]
    seed: Any
    start: dict[str, Any]
    actions: list[Any] = Field(max_length=MAX_ACTIONS)
    final: dict[str, Any]
    variants: list[str] = Field(default_factory=list, max_length=20)
    tree: TreeFile | None = None
    opponent: OpponentFile | None = None
    study: StudyFile | None = None

    @field_validator("seed")
    @classmethod
    def _seed(cls, value: Any) -> Any:
        return _whole_seed(value)


def read_game_file(raw: dict[str, Any], source: str) -> GameFile:
    """The save's fields, each checked; a problem is a SaveError naming the first field at fault."""
    try:
        data = GameFile.model_validate(raw)
    except ValidationError as exc:
        raise SaveError(f"{source}: {_first_problem(exc)}") from None
    if data.tree is not None:
        check_tree(data.tree, f"{source}: tree")
    return data


def _first_problem(exc: ValidationError) -> str:
    errors = exc.errors()
    err = errors[0]
    where = ""
    for part in err["loc"]:
        where += f"[{part}]" if isinstance(part, int) else (f".{part}" if where else str(part))
    message = str(err["msg"]).removeprefix("Value error, ")
    if err["type"] == "missing":
        message = "required field is missing"
    elif err["type"] == "extra_forbidden":
        message = "unknown field"
    more = f" (and {len(errors) - 1} more problems)" if len(errors) > 1 else ""
    return f"{where or 'save'}: {message}{more}"


def check_tree(tree: TreeFile, where: str) -> None:
    """What the fields alone cannot say: names, parents listed first, branch points within the
    parent's history, reseeds within the line, and the limits on depth and actions."""
    lengths: dict[str, int] = {}  # name -> length of its history from the start of the game
    depth: dict[str, int] = {}
    total = 0
    for k, line in enumerate(tree.lines):
        at = f"{where}.lines[{k}]"
        if line.name in lengths:
            raise SaveError(f"{at}.name: {line.name!r} names two lines; a line needs a name of its own")
        if (line.parent is None) != (k == 0) or (k == 0 and line.at != 0):
            raise SaveError(f"{at}: the first line is the main line (no parent, at 0); every other branches "
                            "from an earlier one")
        if line.parent is not None:
            if line.parent not in lengths:
                raise SaveError(f"{at}.parent: {line.parent!r} is not a line listed before it")
            end = lengths[line.parent]
            if line.at > end:
                raise SaveError(f"{at}.at: {line.parent!r} has {end} actions from the start of the game; "
                                f"a line cannot branch from it after {line.at}")
            depth[line.name] = depth[line.parent] + 1
            if depth[line.name] > MAX_DEPTH:
                raise SaveError(f"{at}: lines branch one from another more than {MAX_DEPTH:,} deep; refused")
        else:
            depth[line.name] = 0
        end = line.at + len(line.actions)
        for key in line.reseeds:
            if not line.at <= int(key) <= end:
                raise SaveError(f"{at}.reseeds: action {key} is not one of the line's ({line.at} to {end})")
        total += len(line.actions)
        if total > MAX_ACTIONS:
            raise SaveError(f"{at}: the lines hold more than {MAX_ACTIONS:,} actions together; refused")
        lengths[line.name] = end
    if tree.current not in lengths:
        raise SaveError(f"{where}.current: must name one of the lines, not {tree.current[:MAX_NAME]!r}")
