"""Game review: each decision of a game or line with its change in the Allied win chance (the
learned evaluation, :mod:`.model`), and the decisions that gave away 10 points or more marked,
with the choice the bot makes in their place and its evaluation.

Luck is kept apart from decisions: where an action rolls dice (an attack, a defection roll, a
chit drawn from the cup), its change is measured against the average of the same action with
other dice (:data:`REROLLS` of them), so an unlucky roll of a sound attack is not called a
mistake; the roll's own luck is reported beside it.  An action that was the only legal one is no
decision and is not marked."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from cheren.engine.actions import Action
from cheren.engine.dice import Dice
from cheren.engine.game import Game
from cheren.engine.wording import named
from cheren.players.bots import make_bot
from cheren.players.views import SideSeat
from cheren.scenario.models import Side
from cheren.study.evaluation.model import EvaluationModel, load_model

MARK = 0.10  # a decision giving away this much of a win chance (10 points) is marked
BETTER = 0.02  # ... when the bot's choice keeps at least this much more than the played one
REROLLS = 6
REVIEW_BOT = "tactician"  # fast enough to ask at every mark of a whole game within seconds


@dataclass
class Decision:
    """One action of the game, how it moved P(Allied win), and for a marked one the bot's choice."""

    number: int  # the action's number in the line, from 1
    turn: int
    phase: str
    side: Side
    action: Action
    text: str  # the action in words, counter names and hex labels
    before: float  # P(Allied win) before the action
    after: float  # ... after it, as played
    expected: float  # ... after it, averaged over other dice where it rolls any (else = after)
    forced: bool = False
    better: Action | None = None
    better_text: str = ""
    better_after: float | None = None

    @property
    def change(self) -> float:
        """The decision's change in P(Allied win), luck left out."""
        return self.expected - self.before

    @property
    def luck(self) -> float:
        return self.after - self.expected

    @property
    def given_away(self) -> float:
        """What the acting side gave away of its chances (positive: a loss for it)."""
        return -self.change if self.side is Side.ALLIED else self.change

    @property
    def questioned(self) -> bool:
        """Gave away :data:`MARK` or more: the bot is asked what it would have done."""
        return not self.forced and self.given_away >= MARK - 1e-9

    @property
    def gain(self) -> float | None:
        """What the bot's choice keeps over the played one, for the acting side."""
        if self.better_after is None:
            return None
        diff = self.better_after - self.expected
        return diff if self.side is Side.ALLIED else -diff

    @property
    def marked(self) -> bool:
        """Gave away :data:`MARK` or more, and the bot finds a better choice (by :data:`BETTER`):
        a change that any choice would have made (the turn ending, a reinforcement arriving) is
        the position's, not the decision's."""
        gain = self.gain
        return self.questioned and gain is not None and gain >= BETTER


@dataclass
class Review:
    decisions: list[Decision] = field(default_factory=list)
    start: float = 0.0  # P(Allied win) at the start of the line
    caption: str = ""
    bot: str = REVIEW_BOT

    @property
    def marks(self) -> list[Decision]:
        return [d for d in self.decisions if d.marked]

    def report(self, title: str, chart: str | None = None) -> str:
        """The review in Markdown: the marked decisions with the bot's choices, then every
        decision that moved the chance by 5 points or more; ``chart``: an image file to show."""
        lines = [f"# Review: {title}", "", f"*{self.caption}. A decision is marked where it gave away "
                 f"{MARK:.0%} or more of its side's chances (luck of the dice left out: {REROLLS} rolls averaged) and "
                 f"the {self.bot} bot finds a better choice.*", "",
                 f"P(Allied win) at the start: {self.start:.0%}; at the end of the line: {self.curve()[-1]:.0%}; "
                 f"{len(self.decisions)} actions, {len(self.marks)} marked.", ""]
        if chart:
            lines += [f"![the Allied win chance after each action]({chart})", ""]
        lines += ["## Marked decisions", ""]
        if not self.marks:
            lines += ["None.", ""]
        else:
            lines += ["| # | turn, phase | side | played | P(Allied win) | the bot's choice | P(Allied win) |",
                      "|---|---|---|---|---|---|---|"]
            for d in self.marks:
                lines.append(f"| {d.number} | {d.turn}, {d.phase} | {d.side.adjective} | {d.text} | "
                             f"{d.before:.0%} → {d.expected:.0%} | {d.better_text} | {(d.better_after or 0):.0%} |")
            lines.append("")
        lines += ["## Every decision that moved the chance by 5 points or more", "",
                  "| # | turn, phase | side | action | change | luck of the dice |", "|---|---|---|---|---|---|"]
        for d in self.decisions:
            if abs(d.change) >= 0.05 or abs(d.luck) >= 0.05:
                lines.append(f"| {d.number} | {d.turn}, {d.phase} | {d.side.adjective} | {d.text} | "
                             f"{d.change * 100:+.0f} | {d.luck * 100:+.0f} |")
        return "\n".join(lines) + "\n"

    def curve(self) -> list[float]:
        """P(Allied win) before the first action and after each one, as played."""
        return [self.start, *(d.after for d in self.decisions)]


def review(game: Game, *, model: EvaluationModel | None = None, bot: str = REVIEW_BOT, seed: int = 0,
           reseeds: dict[int, int] | None = None, progress: Callable[[int, int], None] | None = None) -> Review:
    """Review ``game``'s line from its start, action by action (the game itself is not changed).
    ``reseeds``: where a line of a study took new luck (its dice seeded afresh before that action)."""
    m = model if model is not None else load_model(scenario=game.scenario)
    replay = Game(game.scenario, game.seed, game.start.copy())  # as the game was built: the same dice
    actions = game.actions()
    reseeds = reseeds or {}
    out = Review(start=m.chances(replay.position).allied, caption=m.provenance.caption(), bot=bot)
    before = out.start
    for i, action in enumerate(actions):
        if i in reseeds:
            replay.position.dice = Dice(reseeds[i])
        side, moment = replay.acting, replay.moment
        forced = len(replay.legal_actions()) <= 1
        text = named(action, game.scenario)
        expected = _expected(replay, action, m) if not forced else None
        replay.apply(action)
        after = m.chances(replay.position).allied
        d = Decision(i + 1, moment.turn, moment.phase.value, side, action, text, before, after,
                     after if expected is None else expected, forced)
        if d.questioned:
            replay.undo()
            _better(replay, d, m, bot, seed + i)
            replay.apply(action)
        out.decisions.append(d)
        before = after
        if progress is not None:
            progress(i + 1, len(actions))
    return out


def _expected(game: Game, action: Action, m: EvaluationModel) -> float | None:
    """The mean P(Allied win) after ``action`` over other dice, where it rolls any; None where
    it rolls none (then the action's result is all decision)."""
    keep = game.position.dice.copy()
    game.apply(action)
    rolled = game.position.dice != keep
    first = m.chances(game.position).allied
    game.undo()
    if not rolled:
        return None
    total = first
    for k in range(1, REROLLS):
        game.position.dice = Dice(keep.seed, keep.state ^ (0x9E3779B97F4A7C15 * k))
        game.apply(action)
        total += m.chances(game.position).allied
        game.undo()
    game.position.dice = keep
    return total / REROLLS


def _better(game: Game, d: Decision, m: EvaluationModel, bot: str, seed: int) -> None:
    """The bot's choice in the marked decision's place, and its evaluation."""
    choice = make_bot(bot, seed).choose(SideSeat(game, d.side)).action
    d.better = choice
    d.better_text = named(choice, game.scenario)
    expected = _expected(game, choice, m)
    if expected is None:
        game.apply(choice)
        expected = m.chances(game.position).allied
        game.undo()
    d.better_after = expected
