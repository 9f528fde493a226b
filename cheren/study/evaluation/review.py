"""Game review: each decision of a game or line with its change in the Allied win chance (the
learned evaluation, :mod:`.model`), and the decisions that gave away 10 points or more marked,
with a better choice in their place and its evaluation.

Luck is kept apart from decisions: where an action rolls dice (an attack, a defection roll, a
chit drawn from the cup), its change is measured against the average of the same action with
other dice (:data:`REROLLS` of them), so an unlucky roll of a sound attack is not called a
mistake; the roll's own luck is reported beside it.  An action that was the only legal one is no
decision and is not marked.

A decision that leaves one of its side's towns empty where an enemy unit can reach it next
(the engine's :func:`cheren.engine.threats.enemy_reach`) is judged deeper, as a chess engine
searches before it evaluates: as if the side left things as they stand, the enemy's reply is
played through the gate by the review bot up to the end of its next Movement phase; where the
enemy took the town, on through the side's next turn (the bot may retake it) to the end of its
Supply check, where what the town carried shows (:func:`_reply`).  Its change is measured
against the same reply had the side ended its phase instead (the town held), and that is the
better choice where it keeps 2 points more; otherwise the bot's choice in its place, judged
the same way.  The model alone sees an empty town only as a number of steps near it; what the
enemy then does there it sees once it has happened."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from cheren.engine.actions import Action, EndPhase, Move
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
BETTER = 0.02  # ... when a better choice keeps at least this much more than the played one
REROLLS = 6
REVIEW_BOT = "tactician"  # fast enough to ask at every mark of a whole game within seconds
REPLY_LIMIT = 400  # actions of a look-ahead at most (a whole turn of both sides is about 50)
_PHASES = tuple(Phase)


@dataclass
class Decision:
    """One action of the game, how it moved P(Allied win), and for a questioned one a better choice."""

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
    deep: bool = False  # that reply went on to the side's next Supply check (a town was taken on the way)
    better_kept: bool = False  # the better choice is not to make the decision: the phase ended, the town held

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
        when = (f"the {self.side.enemy.adjective} reply and the {self.side.adjective} Supply check after it (12.0)"
                if self.deep else f"the {self.side.enemy.adjective} reply")
        return f"after {when} ({what})"

    @property
    def better_by(self) -> str:
        """Whose the better choice is, in words: the bot's, or not making the decision."""
        if self.better is None:
            return ""
        return "not making it" if self.better_kept else "the review bot's choice there"

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
        """What the better choice keeps over the played one, for the acting side."""
        if self.better_after is None:
            return None
        diff = self.better_after - self.judged
        return diff if self.side is Side.ALLIED else -diff

    @property
    def marked(self) -> bool:
        """Gave away :data:`MARK` or more, and a better choice keeps :data:`BETTER` more (not making
        it, where it left a town open; else the bot's choice):
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
        """The review in Markdown: the marked decisions with the better choices, then every
        decision that moved the chance by 5 points or more; ``chart``: an image file to show."""
        lines = [f"# Review: {title}", "", f"*{self.caption}. A decision is marked where it gave away "
                 f"{MARK:.0%} or more of its side's chances (luck of the dice left out: {REROLLS} rolls averaged) and "
                 f"a better choice keeps {BETTER:.0%} more: the {self.bot} bot's choice, or, for a decision that left "
                 "a town of its side empty within the enemy's reach, not making it. Such a decision is judged after "
                 f"the enemy's reply, played by the {self.bot} bot; where the enemy took the town, after the side's "
                 "next Supply check too (12.0).*", "",
                 f"P(Allied win) at the start: {self.start:.0%}; at the end of the line: {self.curve()[-1]:.0%}; "
                 f"{len(self.decisions)} actions, {len(self.marks)} marked.", ""]
        if chart:
            lines += [f"![the Allied win chance after each action]({chart})", ""]
        lines += ["## Marked decisions", ""]
        if not self.marks:
            lines += ["None.", ""]
        else:
            lines += ["| # | turn, phase | side | played | P(Allied win) | better | P(Allied win) |",
                      "|---|---|---|---|---|---|---|"]
            for d in self.marks:
                how = f" {d.judged_text}" if d.judged_text else ""
                lines.append(f"| {d.number} | {d.turn}, {d.phase} | {d.side.adjective} | {d.text} | "
                             f"{d.judged_before:.0%} → {d.judged:.0%}{how} | {d.better_text} ({d.better_by}) | "
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
    out = Review(start=m.chances(replay.position).allied, caption=m.caption(), bot=bot)
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
                d.reply, d.taken, d.deep = _reply(replay, side, m, bot, seed + i, d.opened)
                replay.undo()
                d.reply_base = _reply(replay, side, m, bot, seed + i, d.opened, d.deep)[0]
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
    """The better choice in the questioned decision's place, and its evaluation.  Where the
    decision left a town open, first not making it: the phase ended there, the town held, which
    is what its change was measured against (:attr:`Decision.reply_base`); it is the better choice
    when it keeps :data:`BETTER` more.  Otherwise the bot's choice, judged as the played decision
    is (after the enemy's reply, to the same depth, where the decision is judged so)."""
    end = EndPhase()
    if d.reply_base is not None and d.action != end and game.check(end).ok:
        sign = 1.0 if d.side is Side.ALLIED else -1.0
        if sign * (d.reply_base - d.judged) >= BETTER - 1e-9:
            d.better, d.better_after, d.better_kept = end, d.reply_base, True
            d.better_text = _kept_text(game, d)
            return
    choice = make_bot(bot, seed).choose(SideSeat(game, d.side)).action
    expected = _expected(game, choice, m)
    if expected is None or d.reply is not None:
        game.apply(choice)
        expected = (_reply(game, d.side, m, bot, seed, d.opened, d.deep)[0] if d.reply is not None
                    else m.chances(game.position).allied)
        game.undo()
    d.better, d.better_text, d.better_after = choice, named(choice, game.scenario), expected


def _kept_text(game: Game, d: Decision) -> str:
    """Not making ``d`` (the game stands just before it), in words: "end the phase with French
    BM 3 kept in Kassala"."""
    p = game.position
    towns = {h: name for name, h in _town_hexes(p, d.side).items() if name in d.opened}
    if isinstance(d.action, Move):
        at = p.units[d.action.unit].hex
        if at in towns:
            return f"end the phase with {p.scenario.units[d.action.unit].name} kept in {towns[at]}"
    return f"end the phase instead, {', '.join(d.opened)} kept held"


def _town_hexes(position: Position, side: Side) -> dict[str, Hex]:
    """The towns ``side`` controls (2.1)."""
    return {t.name: h for h, t in position.scenario.towns_by_hex.items() if position.controller(t.name) is side}


def _held(position: Position, side: Side) -> dict[str, Hex]:
    """``side``'s towns with a unit of its own on them."""
    units = position.units
    return {name: h for name, h in _town_hexes(position, side).items()
            if any(units[u].side is side for u in position.units_at(h))}


def _opened(position: Position, side: Side, held: dict[str, Hex]) -> tuple[str, ...]:
    """Of the towns ``side`` held with a unit (``held``), those it still controls with none of its
    units on them now and an enemy unit able to reach them in its next move."""
    units = position.units
    empty = {name: h for name, h in held.items() if position.controller(name) is side
             and not any(units[u].side is side for u in position.units_at(h))}
    if not empty:
        return ()
    reach = enemy_reach(position, side.enemy)
    return tuple(name for name, h in empty.items() if any(h in hexes for hexes in reach.values()))


def _reply(game: Game, side: Side, m: EvaluationModel, bot: str, seed: int, towns: tuple[str, ...],
           deep: bool | None = None) -> tuple[float, tuple[str, ...], bool]:
    """P(Allied win) after the enemy's reply, as if ``side`` left things as they stand: each of its
    phases is ended where it stands (its decisions on the way, such as an over-stacked hex's losses,
    are ``bot``'s), the enemy's phases are played by ``bot`` through the gate until the enemy's next
    Movement phase is over (9.0: where any of its units may walk into the town).

    Where the enemy holds one of ``towns`` (``side``'s) by then, or ``deep`` says so, the reply
    goes on: ``bot`` plays both sides (``side`` may retake the town in its turn) until ``side``'s
    next Supply check phase is over (12.0-12.7: where a lost town shows, as units cut off from
    supply and empty towns changing hands), and the model is asked there.  Right after the enemy
    walks in, a town the side retakes at once and the town its army's supply runs through look
    alike to the model (the army's steps out of supply are counted either way); a Supply check
    later they do not.  ``deep`` False stops at the end of the enemy's Movement phase all the
    same: a reply compared with this one is taken as deep.

    Returns P(Allied win) there, which of ``towns`` the enemy held on the way, and whether the
    reply went on.  The game is then undone to where it was, dice included."""
    player = make_bot(bot, seed)
    enemy = side.enemy
    done = 0
    moved = False  # the enemy's Movement phase has begun
    going_on = False  # past the enemy's Movement phase: the bot plays both sides
    lost: set[str] = set()
    try:
        while not game.over and done < REPLY_LIMIT:
            p = game.position
            lost.update(name for name in towns if p.controller(name) is not side)
            if p.side is enemy and p.phase is Phase.MOVEMENT:
                moved = True
            elif not going_on:
                if moved:  # the enemy's Movement phase is over
                    going_on = bool(lost) if deep is None else deep
                    if not going_on:
                        break
                elif p.side is side and p.phase is Phase.MOVEMENT and done and game.pending is None:
                    break  # the side moves again before the enemy has: it could mend it there
            elif p.side is side and _PHASES.index(p.phase) > _PHASES.index(Phase.SUPPLY):
                break  # the side's next Supply check is over
            acting = game.acting
            if not going_on and acting is side and game.pending is None and game.check(EndPhase()).ok:
                action: Action = EndPhase()
            else:
                action = player.choose(SideSeat(game, acting)).action
            game.apply(action)
            done += 1
        return m.chances(game.position).allied, tuple(name for name in towns if name in lost), going_on
    finally:
        for _ in range(done):
            game.undo()
