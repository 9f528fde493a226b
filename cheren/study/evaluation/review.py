"""Game review: each decision of a game or line with its change in the Allied win chance (the
learned evaluation, :mod:`.model`), and the decisions that gave away 10 points or more marked,
with the choice the bot makes in their place and its evaluation.

Luck is kept apart from decisions: where an action rolls dice (an attack, a defection roll, a
chit drawn from the cup), its change is measured against the average of the same action with
other dice (:data:`REROLLS` of them), so an unlucky roll of a sound attack is not called a
mistake; the roll's own luck is reported beside it.  An action that was the only legal one is no
decision and is not marked.

A decision that leaves one of its side's towns empty where an enemy unit can reach it next
(the engine's :func:`cheren.engine.threats.enemy_reach`) is judged deeper, as a chess engine
searches before it evaluates: as if the side left things as they stand, the enemy's reply is
played through the gate by the review bot up to the end of its next Movement phase, and the
evaluation is taken there (:func:`_reply`).  Its change is measured against the same reply had
the side ended its phase instead, and the bot's choice in its place is judged the same way, so
they compare alike.  The model alone sees an empty town only as a number of steps
near it; what the enemy then does there it sees once it has happened."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from cheren.engine.actions import Action, EndPhase
from cheren.engine.dice import Dice
from cheren.engine.game import Game
from cheren.engine.position import Position
from cheren.engine.threats import enemy_reach
from cheren.engine.wording import named
from cheren.hexes import Hex
from cheren.players.bots import make_bot
from cheren.players.views import SideSeat
from cheren.scenario.models import Phase, Side
from cheren.study.evaluation.model import EvaluationModel, load_model

MARK = 0.10  # a decision giving away this much of a win chance (10 points) is marked
BETTER = 0.02  # ... when the bot's choice keeps at least this much more than the played one
REROLLS = 6
REVIEW_BOT = "tactician"  # fast enough to ask at every mark of a whole game within seconds
REPLY_LIMIT = 400  # actions of a look-ahead at most (a whole turn of both sides is about 50)


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
    opened: tuple[str, ...] = ()  # the side's towns it left empty within the enemy's reach
    reply: float | None = None  # where it opened any: P(Allied win) after the enemy's reply (:func:`_reply`)
    taken: tuple[str, ...] = ()  # of those, the towns the enemy took in that reply
    reply_base: float | None = None  # ... and after the same reply had the side not made it (its phase ended)

    @property
    def judged(self) -> float:
        """P(Allied win) the decision is judged by: after the enemy's reply where it left a town
        open, else right after it (luck left out)."""
        return self.expected if self.reply is None else self.reply

    @property
    def judged_before(self) -> float:
        """What :attr:`judged` is compared with: P(Allied win) before the decision, or where it is
        judged after the enemy's reply, after the same reply had the side ended its phase instead."""
        return self.before if self.reply_base is None else self.reply_base

    @property
    def change(self) -> float:
        """The decision's change in P(Allied win), luck left out."""
        return self.judged - self.judged_before

    @property
    def judged_text(self) -> str:
        """How :attr:`judged` was measured, in words, for a report."""
        if self.reply is None:
            return ""
        opened, taken = ", ".join(self.opened), ", ".join(self.taken)
        what = (f"{opened} left open and taken" if self.taken == self.opened
                else f"{opened} left open" + (f"; {taken} taken" if taken else ""))
        return f"after the {self.side.enemy.adjective} reply ({what})"

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
        diff = self.better_after - self.judged
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
                 f"the {self.bot} bot finds a better choice. A decision that left a town of its side empty within "
                 f"the enemy's reach is judged after the enemy's reply, played by the {self.bot} bot.*", "",
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
                how = f" {d.judged_text}" if d.judged_text else ""
                lines.append(f"| {d.number} | {d.turn}, {d.phase} | {d.side.adjective} | {d.text} | "
                             f"{d.judged_before:.0%} → {d.judged:.0%}{how} | {d.better_text} | "
                             f"{(d.better_after or 0):.0%} |")
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
        held = _held(replay.position, side)
        replay.apply(action)
        after = m.chances(replay.position).allied
        d = Decision(i + 1, moment.turn, moment.phase.value, side, action, text, before, after,
                     after if expected is None else expected, forced)
        if not forced and held:
            d.opened = _opened(replay.position, side, held)
            if d.opened:
                d.reply, d.taken = _reply(replay, side, m, bot, seed + i, d.opened)
                replay.undo()
                d.reply_base = _reply(replay, side, m, bot, seed + i, d.opened)[0]
                replay.apply(action)
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
    """The bot's choice in the marked decision's place, and its evaluation (after the enemy's
    reply too where the played decision is judged so)."""
    choice = make_bot(bot, seed).choose(SideSeat(game, d.side)).action
    d.better = choice
    d.better_text = named(choice, game.scenario)
    expected = _expected(game, choice, m)
    if expected is None or d.reply is not None:
        game.apply(choice)
        expected = (_reply(game, d.side, m, bot, seed, d.opened)[0] if d.reply is not None
                    else m.chances(game.position).allied)
        game.undo()
    d.better_after = expected


def _town_hexes(position: Position, side: Side) -> dict[str, Hex]:
    """The towns ``side`` controls (2.1: the Allies those with their Control marker)."""
    allied, control = side is Side.ALLIED, position.allied_control
    return {t.name: h for h, t in position.scenario.towns_by_hex.items() if (t.name in control) is allied}


def _held(position: Position, side: Side) -> dict[str, Hex]:
    """``side``'s towns with a unit of its own on them."""
    units = position.units
    return {name: h for name, h in _town_hexes(position, side).items()
            if any(units[u].side is side for u in position.units_at(h))}


def _opened(position: Position, side: Side, held: dict[str, Hex]) -> tuple[str, ...]:
    """Of the towns ``side`` held with a unit (``held``), those it still controls with none of its
    units on them now and an enemy unit able to reach them in its next move."""
    units = position.units
    empty = {name: h for name, h in held.items() if (name in position.allied_control) is (side is Side.ALLIED)
             and not any(units[u].side is side for u in position.units_at(h))}
    if not empty:
        return ()
    reach = enemy_reach(position, side.enemy)
    return tuple(name for name, h in empty.items() if any(h in hexes for hexes in reach.values()))


def _reply(game: Game, side: Side, m: EvaluationModel, bot: str, seed: int,
           towns: tuple[str, ...]) -> tuple[float, tuple[str, ...]]:
    """P(Allied win) after the enemy's reply, as if ``side`` left things as they stand: each of its
    phases is ended where it stands (its decisions on the way, such as an over-stacked hex's losses,
    are ``bot``'s), the enemy's phases are played by ``bot`` through the gate, until the enemy's next
    Movement phase is over (9.0: where any of its units may walk into the town) or ``side`` is to
    begin a Movement phase of its own (where it could mend it).  Also which of ``towns`` (``side``'s)
    the enemy holds then.  The game is then undone to where it was, dice included."""
    player = make_bot(bot, seed)
    enemy = side.enemy
    done = 0
    moved = False  # the enemy's Movement phase has begun
    try:
        while not game.over and done < REPLY_LIMIT:
            p = game.position
            if p.phase is Phase.MOVEMENT:
                if p.side is enemy:
                    moved = True
                elif done and game.pending is None:
                    break
            elif moved:
                break
            acting = game.acting
            if acting is side and game.pending is None and game.check(EndPhase()).ok:
                action: Action = EndPhase()
            else:
                action = player.choose(SideSeat(game, acting)).action
            game.apply(action)
            done += 1
        ours = set(_town_hexes(game.position, side))
        return m.chances(game.position).allied, tuple(name for name in towns if name not in ours)
    finally:
        for _ in range(done):
            game.undo()
