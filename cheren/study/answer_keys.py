"""A position's answer key in numbers: its historical plan against the best alternative the
analysis finds, played out on the same seeds.

The historical plan comes from the position file (:func:`cheren.files.position_plans.play_plan`).
The alternative is the analysis's own answer to the same question, found the way the question is
asked:

* an arrival choice (8.4) has one alternative, the other option;
* in a Combat phase, the attack the position report ranks first (the largest legal attack with the
  best chance of emptying the defender's hex, :func:`cheren.study.analysis.report.ranked_attacks`)
  among those the historical plan does not make;
* otherwise (a Movement phase), the plan the look-ahead bot makes for the phase, weighing
  whole-phase plans by playing each out (:mod:`cheren.players.bots.lookahead`).

:func:`answer_key` then plays both out to the end of turn 12 with :func:`compare` (the same
play-out seeds for both, so the difference comes from the plans) and says what the numbers mean:
which bots played, how many games, and whether the intervals let the two plans be told apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from cheren.engine.actions import Action, Attack, ChooseArrival, EndPhase
from cheren.engine.game import Game
from cheren.files.position_files import PositionRecord
from cheren.files.position_plans import pass_other_side, plan_side, play_plan
from cheren.players.views import SideSeat
from cheren.scenario.models import Phase, Side
from cheren.study.analysis.evaluate import Comparison, bot_label, compare, describe_plan

DEFAULT_GAMES = 40
DEFAULT_SEED = 1941
LOOKAHEAD = "lookahead"


@dataclass
class Alternative:
    """The analysis's answer to the position's question, and how it was found."""

    actions: list[Action]
    found_by: str  # how the analysis found it, in words
    same_as_history: bool = False


@dataclass
class AnswerKey:
    """The historical plan and the analysis's alternative, each played out ``games`` times."""

    record: PositionRecord
    side: Side
    historical: list[Action]
    alternative: Alternative
    games: int
    allied: str
    italian: str
    seed: int
    comparison: Comparison | None = None
    labels: tuple[str, str] = ("the historical plan", "the analysis's alternative")
    notes: list[str] = field(default_factory=list)

    def plans_in_words(self) -> tuple[str, str]:
        p = self.record.position
        return describe_plan(p, self.historical), describe_plan(p, self.alternative.actions)

    def meaning(self) -> str:
        """One paragraph on what the play-outs say, from their numbers."""
        if self.comparison is None:
            return "Not played out yet."
        hist, alt = self.comparison.candidates
        bots = f"{bot_label(self.allied)} (Allies) against {bot_label(self.italian)} (Italians)"
        head = (f"Each plan was played out {self.games} times to the end of turn 12 by {bots}, on the same "
                f"seeds (seed {self.seed}), with the chits the {self.side.adjective} side cannot see dealt again.")
        mine = "allied" if self.side is Side.ALLIED else "italian"
        sh, sa = hist.winners()[mine], alt.winners()[mine]
        mh, ma = hist.vp_stats()["median"], alt.vp_stats()["median"]
        (lo_h, hi_h), (lo_a, hi_a) = sh.interval, sa.interval
        who = f"the {self.side.adjective} side"
        if hi_h < lo_a:
            verdict = (f"The alternative won more often for {who} ({sa} against {sh}); the 95% intervals do not "
                       "overlap, so with these bots the difference is real.")
        elif hi_a < lo_h:
            verdict = (f"The historical plan won more often for {who} ({sh} against {sa}); the 95% intervals do "
                       "not overlap, so with these bots the difference is real.")
        else:
            verdict = (f"{who[0].upper()}{who[1:]} won {sh} of the games after the historical plan and {sa} after "
                       "the alternative; the 95% intervals overlap, so these games cannot tell the two apart.")
        vp = f"The median Allied VP at the end was {mh:g} after the historical plan and {ma:g} after the alternative."
        caveat = ("The bots are not the commanders, and the map and counters are a reconstruction: the numbers "
                  "say how each plan plays on in this game, not what would have happened in 1941.")
        return " ".join([head, verdict, vp, caveat])

    def explain(self) -> str:
        hist, alt = self.plans_in_words()
        lines = [f"**{self.record.title}**: the {self.side.adjective} side decides.", ""]
        if self.record.question is not None:
            lines += [f"*The question:* {' '.join(self.record.question.text.split())}", ""]
        lines += [f"*The historical plan:* {hist}.", "",
                  f"*The analysis's alternative* ({self.alternative.found_by}): {alt}."]
        if self.alternative.same_as_history:
            lines += ["", "The analysis found no other plan than the historical one."]
        lines += self.notes
        if self.comparison is not None:
            lines += ["", self.comparison.explain().replace("| historical", "| historical", 1), "", self.meaning()]
        return "\n".join(lines)

    def _repr_markdown_(self) -> str:
        return self.explain()

    def to_json(self) -> dict[str, Any]:
        return {
            "position": self.record.name,
            "side": self.side.value,
            "historical": [a.to_json() for a in self.historical],
            "alternative": [a.to_json() for a in self.alternative.actions],
            "alternative_found_by": self.alternative.found_by,
            "games": self.games,
            "bots": {"allied": self.allied, "italian": self.italian},
            "seed": self.seed,
            "comparison": self.comparison.to_json() if self.comparison is not None else None,
            "meaning": self.meaning(),
        }


def historical_actions(record: PositionRecord) -> list[Action]:
    """The historical plan in the gate's actions (played with the position's own dice)."""
    return play_plan(record).actions


def best_alternative(record: PositionRecord, *, bot: str = LOOKAHEAD, seed: int = DEFAULT_SEED) -> Alternative:
    """The analysis's best answer to the position's question other than the historical plan."""
    historical = historical_actions(record)
    side = plan_side(record)
    game = Game.from_position(record.position.copy())
    pass_other_side(game, side)
    pending = game.pending
    if pending is not None and pending.kind == "arrival":
        options: list[Action] = [
            a for a in game.legal_actions() if isinstance(a, ChooseArrival) and a not in historical
        ]
        return Alternative(options[:1], "the other arrival option (8.4)")
    if game.phase is Phase.COMBAT and game.phasing is side:
        return _best_attack(record, historical)
    return _bot_phase(record, game, side, historical, bot, seed)


def answer_key(
    record: PositionRecord,
    games: int = DEFAULT_GAMES,
    *,
    allied: str = "heuristic",
    italian: str = "heuristic",
    seed: int = DEFAULT_SEED,
    alternative: Alternative | None = None,
    play: bool = True,
    **options: Any,
) -> AnswerKey:
    """The position's historical plan against the analysis's best alternative; with ``play`` both
    are played out ``games`` times by the bots named (``options`` go to :func:`compare`: an
    executor, jobs, progress)."""
    historical = historical_actions(record)
    alt = alternative if alternative is not None else best_alternative(record, seed=seed)
    key = AnswerKey(record, plan_side(record), historical, alt, games, allied, italian, seed)
    if play:
        key.comparison = compare(
            record.position,
            [historical, alt.actions],
            games,
            labels=list(key.labels),
            allied=allied,
            italian=italian,
            seed=seed,
            **options,
        )
    return key


# -- how the alternative is found ------------------------------------------------------------------
def _best_attack(record: PositionRecord, historical: Sequence[Action]) -> Alternative:
    from cheren.study.analysis.report import ranked_attacks

    made = {(a.target, frozenset(a.attackers)) for a in historical if isinstance(a, Attack)}
    attacks, _ = ranked_attacks(record.position)
    ranked = sorted(attacks, key=lambda a: -a.p_vacated)
    for a in ranked:
        if (a.target, frozenset(a.attackers)) not in made:
            chance = f"{float(a.p_vacated):.0%}"
            return Alternative([Attack(a.target, tuple(a.attackers), a.air)],
                               f"the position report's best other attack: {chance} that the defenders leave the hex")
    return Alternative([EndPhase()], "no other attack is legal: the alternative is not to attack")


def _bot_phase(
    record: PositionRecord, game: Game, side: Side, historical: Sequence[Action], bot: str, seed: int
) -> Alternative:
    """What ``bot`` plays for ``side`` in the present phase, up to the end of it."""
    from cheren.players.bots import make_bot

    player = make_bot(bot, seed)
    seat = SideSeat(game, side)
    start = (game.turn, game.phasing, game.phase)
    actions: list[Action] = []
    while not game.over and (game.turn, game.phasing, game.phase) == start:
        pass_other_side(game, side)
        if game.acting is not side or (game.turn, game.phasing, game.phase) != start:
            break
        action = player.choose(seat).action
        game.apply(action)
        actions.append(action)
        if isinstance(action, EndPhase):
            break
    label = bot_label(bot)
    found_by = f"the {label} bot's plan for this phase" if label != bot else f"the {bot} bot's play of this phase"
    if list(actions) == list(historical):
        return Alternative(actions, found_by, same_as_history=True)
    return Alternative(actions, found_by)
