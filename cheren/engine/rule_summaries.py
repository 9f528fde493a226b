"""A short summary of every rule of The Road to CHEREN, in the project's own words.

Wherever a rule number is shown (a refusal, a column shift in the what-if, the log, a lesson)
the app can open it to this summary.  Where the rule text is lost the summary says what the
project reconstructs instead (see the README and ``/work/shared/reference/components.md``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class RuleSummary:
    number: str
    title: str
    summary: str


RULES: tuple[RuleSummary, ...] = (
    RuleSummary("1.0", "The map", "Western Eritrea in hexes 12.5 km across; every game turn is one week. "
                "Hexes are labelled CCRR by the project (the printed map had no numbers)."),
    RuleSummary("1.1", "Terrain key", "Each terrain has a movement cost (off road and by road), a stacking limit "
                "and a column shift for the defender. Clear among the hills is high plateau, not valley."),
    RuleSummary("1.2", "Towns and victory points", "Every town is worth VP; at the end the Allies count the VP "
                "of the towns they control. Most towns carry a letter: units with that letter set up or arrive there."),
    RuleSummary("1.3", "Garrison areas", "The Wolkait and Tigre garrison areas are drawn on the map (the rule "
                "text is lost; the areas are the project's reconstruction). See 6.0."),
    RuleSummary("1.4", "Supply sources", "Where each side draws supply from (the rule text is lost). The project "
                "gives the Italians sources at Asmara, Massaua and the south edge of Tigre, "
                "and the Allies the red map edges of 12.2."),
    RuleSummary("2.1", "Control markers", "A marker shows an Allied-controlled town. The project's reading: a town "
                "changes hands as soon as a unit of the other side enters it (the rule text is lost)."),
    RuleSummary("2.2", "Supply markers", "Low and No supply markers show a unit that failed its supply check (12.4)."),
    RuleSummary("2.3", "Units", "Brigades have four steps, most units two, some one. Unit types decide who may "
                "enter mountains (9.1), who supports attacks (11.4) and who may move in Exploitation (13.0)."),
    RuleSummary("3.0", "Stacking value", "Every unit counts 1 towards stacking unless its counter says otherwise "
                "(brigades count 2; the air unit 0)."),
    RuleSummary("3.1", "Stacking limit", "Each terrain allows a total stacking value per hex (the least "
                "favourable terrain of the hex counts). It is checked at the end of every phase except "
                "Reinforcement: steps over the limit are eliminated."),
    RuleSummary("4.0", "Zones of control", "Units project a ZoC into the six hexes around them (not the air unit, "
                "not a unit with No supply). A stack of stacking value 3 or more projects a hard ZoC, less a soft "
                "one. Entering an enemy ZoC costs +1 MP (once); entering a hard ZoC stops the unit. Mountain hexes "
                "neither receive nor send out any ZoC."),
    RuleSummary("5.0", "Set-up", "Units start at the towns of their letters, natives in their villages on the "
                "Italian side, Kassala under Allied control. Each side draws four chits in secret; the rest go into "
                "one common cup."),
    RuleSummary("5.1", "Chits", "A chit is played from your hand at the moments its chart entry allows; you then "
                "draw a replacement. Drawing an enemy chit removes it unseen. A one-time chit (star) leaves play; "
                "others return to the cup. Only one chit of a kind per phase. The chit chart is lost: the chits are "
                "the project's reconstruction."),
    RuleSummary("6.0", "Wolkait and Tigre garrisons", "Garrison units may not move until their garrison is "
                "released: an Allied unit inside the area, or next to one of its units, at the end of any phase. "
                "Then each native unit rolls: 4-6 it defects to the Allies (placed a hex away if it shares a hex "
                "with Italians, eliminated if it cannot be)."),
    RuleSummary("7.0", "Sequence of play", "Each turn: the Allied player turn, then the Italian one. Each player "
                "turn: Reinforcement and replacement, Movement, Enemy reaction (the other player), Combat, Supply "
                "check and attrition, Exploitation."),
    RuleSummary("8.0", "Reinforcements", "The phasing player places arriving units at the town of their letter."),
    RuleSummary("8.1", "Allied arrival at an Italian-held town", "Both sides lose a step per stack, the Italians "
                "retreat a hex (11.7) and the reinforcement is placed; an empty Italian town is simply taken."),
    RuleSummary("8.2", "Italian arrival at an Allied-held town", "The reinforcement goes to a free Tigre town "
                "instead, or waits until one is free; an empty Allied town is simply taken back."),
    RuleSummary("8.3", "Allied replacements", "On turns 3, 6, 9 and 12 one Allied unit on the map without a "
                "Low/No marker may get back one lost step; otherwise the replacement is lost."),
    RuleSummary("8.4", "The late arrivals (K7-F8)", "The two French units arrive together at Kassala on turn 7, "
                "or, if the Allies choose, at Af Abed on turn 8."),
    RuleSummary("8.5", "Massaua naval garrison", "The Marina never moves, advances or retreats; a retreat result "
                "costs it a step instead."),
    RuleSummary("9.0", "Movement", "Move each unit once, hex by hex, paying the costliest terrain of each hex "
                "entered and +2 to cross a river, within its movement points. Following a road hex to hex pays "
                "only the road cost; tracks count as terrain for movement (but not for supply)."),
    RuleSummary("9.1", "Mountains", "A mountain hex is closed to tanks and motorized units: they may not move, "
                "attack or retreat into one."),
    RuleSummary("10.0", "Enemy reaction", "After the phasing player moves, the other player may move units worth "
                "up to 3 stacking value, but none next to an enemy unit and none with a Low/No supply marker."),
    RuleSummary("11.0", "Combat", "Phasing units may attack adjacent enemy hexes; no one must attack. Add the "
                "attackers' strength (from any number of hexes) against the defenders' and round the ratio down "
                "(17 against 5 is 3-1). Only non-motorized units with 6 MP may attack a mountain hex."),
    RuleSummary("11.1", "Terrain shifts", "The defender's terrain shifts the column in its favour (the best "
                "terrain of the hex counts): a one-column shift turns 5-1 into 3-1. A river shifts only if every "
                "attacker attacks across it."),
    RuleSummary("11.2", "Artillery in attack", "Artillery attacks only together with a non-artillery unit, and a "
                "mountain hex only with a unit allowed to attack mountains. It may defend alone."),
    RuleSummary("11.3", "Air support", "From turn 3 the Allies may add the air unit's 1 strength point to one "
                "attack per Combat phase. It never defends, attacks alone, takes losses or projects a ZoC, and is "
                "always in supply."),
    RuleSummary("11.4", "Support shift", "Artillery, air and tanks are support units. The side with more support "
                "strength in the battle gets a column shift: 2-1 with 5 support points against 3 becomes 3-1."),
    RuleSummary("11.5", "The combat table", "Round the odds down to a column of the table (below 1-3 use 1-3, "
                "above 13-1 use 13-1), roll a die and read attacker and defender losses; r means the defender "
                "retreats. The defender applies its result first."),
    RuleSummary("11.6", "Step losses", "A brigade flips, is replaced by its replacement counter, flips again and "
                "dies on its fourth loss; other units flip once, or die at once if they have no back. Artillery "
                "steps go only when retreating or when no other unit can take the loss."),
    RuleSummary("11.7", "Retreat", "On r the whole defending stack retreats one hex, or stays and loses one extra "
                "step. Retreat first where there is no enemy ZoC, then into a soft ZoC, then into a hard ZoC only "
                "onto friends; never onto enemies or forbidden mountains. A stack that cannot retreat loses the step."),
    RuleSummary("11.8", "Push", "On a die of 5 or 6, when the defender stayed and took the step instead of "
                "retreating, the attacker may push: it loses one more step and the defender gets a new retreat "
                "result."),
    RuleSummary("11.9", "Advance after combat", "If the defending hex is emptied the attackers may advance into it; "
                "units that took losses in that attack go first, and artillery never advances."),
    RuleSummary("12.0", "Supply check", "Each phasing unit traces a line to a friendly source or to a road or "
                "track leading to one: up to 3 hexes, 2 if it enters hills or an enemy ZoC, 1 if both. The line "
                "never enters a mountain hex (the unit may stand in one)."),
    RuleSummary("12.1", "What blocks supply", "Supply lines and the roads they use may not enter enemy units or "
                "enemy towns, nor an enemy ZoC unless a friendly unit stands there. In the Arressa example a unit "
                "in the mountains projects no ZoC onto the track, so the brigade there stays supplied."),
    RuleSummary("12.2", "Red map edges", "Allied units next to a red map edge are in supply; the edge by Af Abed "
                "counts only from turn 5."),
    RuleSummary("12.3", "Native villages", "A native unit in its own village is in supply, whichever side it is on."),
    RuleSummary("12.4", "Low and No supply", "A unit that cannot trace supply gets a Low marker; one that already "
                "has it turns to No. A unit that traces supply loses its marker."),
    RuleSummary("12.5", "Low supply effects", "A unit with a Low (or No) marker may not react (10.0), exploit (13.0) "
                "or be the object of some chits."),
    RuleSummary("12.6", "No supply effects", "Besides the Low effects: tanks and motorized units cannot move, the "
                "unit may not attack, projects no ZoC and loses a step to attrition each supply check."),
    RuleSummary("12.7", "Control by supply", "Before units are checked, an empty Italian town that can draw only "
                "Allied supply passes to the Allies, and an empty Allied town that can draw only Italian supply "
                "passes back."),
    RuleSummary("13.0", "Exploitation", "Cavalry, tanks and motorized infantry (black symbols), and any unit with "
                "an Exploit chit, may move again, unless they carry a Low/No marker. After the Italian Exploitation "
                "the turn ends; after turn 12 the game ends."),
    RuleSummary("14.0", "Victory", "After turn 12 the Allies total the VP of the towns they control: 21 is a "
                "draw, 22 and more an Allied victory (26+ major), 20 and less an Italian one (17 or less major)."),
    RuleSummary("15.0", "Designer's notes", "Strategy from the designer: keep units for the last turns, watch the "
                "flanks, use reaction moves to cut supply, move next to enemy units to stop their reaction, and "
                "play (or fear) the chits."),
)

_BY_NUMBER = {r.number: r for r in RULES}
RULE_NUMBER = re.compile(r"^(\d{1,2})\.(\d)")


def summary(rule: str) -> RuleSummary | None:
    """The summary of a rule number ("11.7"; "4.0 a" and "12.5-6" find 4.0 and 12.5), or None."""
    m = RULE_NUMBER.match(rule.strip())
    if m is None:
        return None
    return _BY_NUMBER.get(f"{int(m.group(1))}.{m.group(2)}")


def tooltip(rule: str) -> str:
    """One line for a rule badge's tooltip."""
    r = summary(rule)
    return f"Rule {rule}" if r is None else f"{r.number} {r.title}: {r.summary}"
