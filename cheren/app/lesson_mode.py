"""The app's lesson mode: an exercise (:class:`~cheren.study.lessons.exercise_run.ExerciseRun`) on
the board.  The learner clicks as in play; this mode tells the runner what the game's log does not
keep (each refusal, the attack lined up, the column of each attack rolled), so Check judges what
the learner did.  A solution is shown by playing its steps as the clicks they stand for.

    mode = LessonMode(board, ExerciseRun(lesson, "hard-zoc-stops"))
    mode.play_step({"move": {"unit": "Sudan EAC 1", "to": "0508"}})   # two clicks on the map
    mode.check()
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from cheren.hexes import Hex
from cheren.study.lessons.exercise_run import ExerciseRun, Verdict, passing_opponent
from cheren.study.lessons.model import Step
from cheren.study.map_intents import AttackDraft, Feedback, attack_account

if TYPE_CHECKING:
    from cheren.app.board import Board


class LessonMode:
    def __init__(self, board: Board, run: ExerciseRun) -> None:
        self.board = board
        self.run = run
        self._rolls_seen = 0
        board.subscribe(self._heard)
        self.start(run)

    def start(self, run: ExerciseRun) -> Feedback:
        """Put this exercise (as its runner has set it up) on the board."""
        self.run = run
        b = self.board
        b.set_game(run.game)
        b.undo_floor = run.start_actions  # the setup is the exercise's, not the learner's to take back
        b.opponent.bot, b.opponent.side = passing_opponent, run.opponent_side  # it only passes
        b.opponent.label = f"lesson: the {run.opponent_side.adjective} side only passes"
        b.hidden.seating = "analysis"  # one learner at the screen: no curtain
        b.hidden.hide_hands = True  # and, as a player, only the hand of the side to act
        b.decisions.every_answer = True  # the buttons offer every answer, never only the right one
        d = run.draft
        b.combat.draft = AttackDraft(d.defender, list(d.attackers), d.air)
        self._rolls_seen = 0
        e = run.exercise
        return b.say(Feedback("info", e.goal.strip(), tuple(e.rules)), "game", "selection")

    def _heard(self, what: set[str]) -> None:
        b, run = self.board, self.run
        run.board.game = b.game  # the learner plays on the board's game (a line switched included)
        if "feedback" in what:
            run.note_refusal(b.feedback)
        run.note_draft(b.combat.draft)
        for rolled in b.combat.rolls[self._rolls_seen:]:
            account = attack_account(b.game, rolled.target, rolled.attackers, rolled.whatif)
            run.note_roll(rolled.target, rolled.column, account, rolled.attackers)
        self._rolls_seen = len(b.combat.rolls)

    # -- the buttons -------------------------------------------------------------------------------
    def check(self) -> Verdict:
        return self.run.check()

    def hint(self) -> str | None:
        return self.run.hint()

    def reset(self) -> Feedback:
        """Back to the exercise's start (the hints taken stay taken)."""
        self.run.reset()
        return self.start(self.run)

    def show_solution(self) -> list[Feedback]:
        """Reset and play the solution on the map, click by click; the exercise earns no star."""
        self.run.solution_shown = True
        self.reset()
        return [self.play_step(step) for step in self.run.exercise.solution]

    # -- a lesson's step as the clicks it stands for ------------------------------------------------
    def play_step(self, step: Step | Mapping[str, Any]) -> Feedback:
        """One step of a lesson file played as the learner would click it."""
        step = step if isinstance(step, Step) else Step.model_validate(step)
        b, run = self.board, self.run
        key, value = step.key, step.value
        if key == "select":
            return b.play.select(run.uid(value))
        if key == "click":
            return b.click_hex(Hex.from_label(value))
        if key == "move":
            b.play.select(run.uid(value.unit))
            b.move_stack = value.stack
            try:
                return b.play.move_to(Hex.from_label(value.to))
            finally:
                b.move_stack = False
        if key == "attack":
            b.stack_hex = None
            b.combat.set_defender(None)
            fb = b.combat.set_defender(Hex.from_label(value.hex))
            for ref in value.with_:
                uid = run.uid(ref)
                if uid not in b.combat.draft.attackers:
                    fb = b.combat.toggle_attacker(uid)
            return b.combat.set_air(True) if value.air else fb
        if key == "roll":
            return b.combat.resolve_attack()
        if key == "end_phase":
            return b.play.end_phase()
        if key == "pass_chit":
            from cheren.engine.actions import PassChit

            return b.decisions.apply(PassChit())
        if key == "answer":
            found = run.board.find_answer(value)
            return b.decisions.answer(found) if not isinstance(found, Feedback) else b.say(found)
        if key == "replace":
            return b.decisions.replace_step(run.uid(value))
        if key == "play_chit":
            return b.decisions.apply(run.board.chit_play(value))
        raise ValueError(f"unknown step {key!r}")  # the model admits no other key
