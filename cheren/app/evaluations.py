"""The learned evaluation on the board (``board.evaluation``): the chances of the position on
the board, the Allied win chance along the current line, each line's chance at its end, and the
review of the line (its marked decisions, stepped through with the better choice on the map).

Without the ``eval`` extra (LightGBM), or with a bad model file, :attr:`Evaluations.unavailable`
says why in one line and everything else answers None: the app opens all the same."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cheren.engine.actions import Action, Attack, Move
from cheren.engine.dice import Dice
from cheren.engine.game import Game
from cheren.hexes import Hex

if TYPE_CHECKING:
    from cheren.app.board import Board
    from cheren.study.evaluation.model import Chances, EvaluationModel
    from cheren.study.evaluation.review import Review


class Evaluations:
    def __init__(self, board: Board, model_path: str | None = None) -> None:
        self.board = board
        self.model_path = model_path
        self._model: EvaluationModel | None = None
        self.unavailable: str | None = None
        self.warning: str | None = None  # the model was trained on other scenario data
        self._loaded = False
        self._shadow: Game | None = None  # the current line replayed alongside, for the curve
        self._shadow_key: tuple[Any, ...] = ()
        self._shadow_start: Any = None  # the study start the shadow began from (held, so never mistaken)
        self._curve: list[float] = []
        # each line's value with what it was worked out for: the study's start position itself
        # (opening another position starts a new study whose lines may have the same names and
        # lengths) and the line's actions and dice
        self._ends: dict[str, tuple[Any, tuple[Any, ...], float]] = {}
        self.review: Review | None = None
        self.mark = -1  # the marked decision shown (index into review.marks)

    @property
    def model(self) -> EvaluationModel | None:
        if not self._loaded:
            self._loaded = True
            from cheren.study.evaluation.model import EvaluationUnavailable, load_model

            try:
                self._model = load_model(self.model_path, self.board.scenario)
                self.warning = self._model.mismatch(self.board.scenario)
            except EvaluationUnavailable as exc:
                self.unavailable = str(exc)
        return self._model

    def caption(self) -> str:
        m = self.model
        return m.caption() if m is not None else ""

    def summary(self, allied: float | None = None) -> str:
        """The model's one-sentence caption; given the P(Allied win) the bar shows, with the error
        where the model said as much."""
        m = self.model
        return m.summary(allied) if m is not None else ""

    def now(self) -> Chances | None:
        """The chances of the position on the board."""
        m = self.model
        return m.chances(self.board.position) if m is not None else None

    # -- the line's curve --------------------------------------------------------------------------
    def curve(self) -> list[float]:
        """P(Allied win) at the start of the current line and after each action played so far."""
        m = self.model
        if m is None:
            return []
        study = self.board.study
        actions = self.board.game.actions()
        _, reseeds = study.history(study.current)
        key = (study.current, tuple(sorted(reseeds.items())))
        shadow = self._shadow
        if shadow is None or key != self._shadow_key or self._shadow_start is not study.start:
            shadow = self._shadow = Game(study.scenario, study.seed, study.start.copy())
            self._shadow_key = key
            self._shadow_start = study.start
            self._curve = [m.chances(shadow.position).allied]
        done = shadow.actions()
        same = 0
        while same < min(len(done), len(actions)) and done[same] == actions[same]:
            same += 1
        while len(shadow.log) > same and shadow.can_undo():
            shadow.undo()
        if len(shadow.log) > same:  # beyond the undo kept: start again
            self._shadow = None
            return self.curve()
        del self._curve[same + 1:]
        for i in range(same, len(actions)):
            if i in reseeds:
                shadow.position.dice = Dice(reseeds[i])
            shadow.apply(actions[i])
            self._curve.append(m.chances(shadow.position).allied)
        return list(self._curve)

    # -- each line's end ---------------------------------------------------------------------------
    def line_end(self, name: str) -> float | None:
        """P(Allied win) at the end of the line ``name`` (kept until the line changes)."""
        m = self.model
        if m is None:
            return None
        study = self.board.study
        actions, reseeds = study.history(name)
        line = (tuple(actions), tuple(sorted(reseeds.items())))
        found = self._ends.get(name)
        if found is not None and found[0] is study.start and found[1] == line:
            return found[2]
        game = self.board.game if name == study.current and len(self.board.game.log) == len(actions) \
            else study.game_of(name)
        value = m.chances(game.position).allied
        self._ends[name] = (study.start, line, value)
        return value

    # -- review -----------------------------------------------------------------------------------
    def run_review(self) -> Review | None:
        """Review the current line as played so far (cheren.study.evaluation.review)."""
        m = self.model
        if m is None:
            return None
        from cheren.study.evaluation.review import review

        study = self.board.study
        self.review = review(self.board.game, model=m, reseeds=study.history(study.current)[1])
        self.mark = -1
        return self.review

    def step_mark(self, step: int) -> Any:
        """Go to the next (``step`` 1) or previous (-1) marked decision: the board stands just
        before it, and the map shows the bot's better choice there."""
        rv = self.review
        if rv is None or not rv.marks:
            return None
        self.mark = max(0, min(len(rv.marks) - 1, self.mark + step))
        d = rv.marks[self.mark]
        b = self.board
        b.moves.goto(d.number - 1)
        b.suggestion = kept_hexes(b.game, d.action, d.opened) if d.better_kept else suggestion_hexes(b.game, d.better)
        b.notify("game")
        return d


def suggestion_hexes(game: Game, action: Action | None) -> tuple[Hex, ...]:
    """The hexes that show ``action`` on the map: a move's route from where the unit stands, an
    attack's defender."""
    if isinstance(action, Move):
        start = game.position.units[action.unit].hex
        return (start, *action.path) if start is not None else tuple(action.path)
    if isinstance(action, Attack):
        return (action.target,)
    return ()


def kept_hexes(game: Game, action: Action, towns: tuple[str, ...]) -> tuple[Hex, ...]:
    """Where not making ``action`` is shown on the map: the hex its unit stays in (the town it
    would have left open), else the first of ``towns``."""
    if isinstance(action, Move):
        at = game.position.units[action.unit].hex
        if at is not None:
            return (at,)
    return (game.scenario.town_hex(towns[0]),) if towns else ()
