"""Optional rules: the ideas of James C. Gordon's variant notes for an East Africa 1940-41 game
(seed 004) that fit The Road to CHEREN, adapted to its units and terrain, as named switches.

Three of Gordon's six rules are left out, because this game has nothing for them to act on:
rules 3 and 4 are about entrenchment counters (kept on the map when vacated, then used as supply
dumps), and The Road to CHEREN has no entrenchments; rule 6 ties Italian attacks to a command
link to a headquarters unit, and this game has no headquarters (nor the Ethiopian units its last
sentence names).  Of rule 1, (d) Imperial Guard, (f) leaders and headquarters and (h) paired
fighters and bombers have no counters here either.  Rule 5 is already the standard game: 11.7
lets a defender take a loss instead of a retreat; the losses-stand switch is the project's own
rule built on its idea (:data:`LOSSES_STAND`).
This module is the catalogue (names, texts, sources); what each one changes in play lives in
:mod:`cheren.engine.rules.optional_rules`.

A variant is on for a game when ``scenario.yaml`` lists it (``variants: [...]``) or when the game
is made with ``Game(..., variants=[...])``; saves record the variants a game was played with.
With no variant on, the rules are the standard ones, bit for bit (the seeded-games pin test).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Variant:
    name: str
    title: str
    summary: str  # one line, for `cheren variants`
    text: str  # the rule in the project's own words
    rules: tuple[str, ...]  # the rules of the game it changes
    source: str


DIE_MODIFIERS = "die-modifiers"
ARTILLERY_RANGE = "artillery-range"
LOSSES_STAND = "losses-stand"

VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        Variant(
            DIE_MODIFIERS,
            "Die-roll modifiers by unit type",
            "artillery, cavalry against infantry, mountain troops in the mountains and combined arms "
            "each move the combat die one point their side's way",
            "Each of these gives its side one point on the combat die, added up for each side: "
            "artillery taking part (attacking or in the defending hex); tanks, the game's armour, "
            "attacking or defending a hex that is clear, the city or on a road; cavalry attacking a "
            "hex of infantry only, in clear or mountain terrain; mountain troops attacking a mountain "
            "hex or defending in one; and a combined-arms attack, infantry on foot together with a "
            "mobile unit (cavalry, tanks, motorized infantry), anywhere but into a mountain hex. A hex "
            "of mixed terrain counts as its terrain best for the defender (11.1): Cheru, rough with "
            "some clear, is not clear. On this game's table a higher die is better for the attacker, "
            "so the attacker's points raise the die and the defender's lower it; the die still reads "
            "1 to 6 (a 6 raised stays a 6), and the push of 11.8 reads the die so moved.",
            ("11.5", "11.8"),
            "seed 004, rule 1 (a), (b), (c), (e), (g), with the tank squadrons in the part of the "
            "armoured cars; the Imperial Guard, leaders and paired aircraft of (d), (f), (h) have no "
            "counterpart in this game",
        ),
        Variant(
            ARTILLERY_RANGE,
            "Artillery fires from two hexes away",
            "artillery may join an attack on a hex two hexes away, as well as next to it",
            "An artillery unit (towed or motorized) may add its strength to an attack on an enemy "
            "hex two hexes away, not only next to it. It still never attacks without a non-artillery "
            "unit (11.2), and only attacks a mountain hex with a unit allowed to (11.0); it never "
            "advances (11.9). A river between the guns and the target does not count towards the "
            "river shift, which looks only at the attackers next to the hex.",
            ("11.0", "11.1", "11.2"),
            "seed 004, rule 2 (the support of defending units it excludes is not part of this game)",
        ),
        Variant(
            LOSSES_STAND,
            "Losses taken for a retreat are final",
            "a defender that takes the loss instead of retreating may not be pushed (11.8 is off)",
            "A defending stack may always take the loss instead of a retreat (as 11.7 already "
            "allows), and that choice is final: the attacker may not push it out (11.8 does not "
            "apply). This is the project's own rule, not Gordon's: his rule 5 lets the side hit "
            "take losses instead of a retreat, which 11.7 already does; the switch takes from it "
            "only the idea that the choice is the defender's alone, taken at once and never "
            "undone.",
            ("11.7", "11.8"),
            "the project's own, after the idea of seed 004, rule 5 (whose letter is 11.7 already)",
        ),
    )
}


class VariantError(ValueError):
    """A variant name that is not known; the message lists the known ones."""


def check_variants(names: Iterable[str], where: str = "variants") -> frozenset[str]:
    chosen = frozenset(names)
    unknown = sorted(chosen - set(VARIANTS))
    if unknown:
        raise VariantError(f"{where}: unknown variant {unknown[0]!r}; known: {', '.join(VARIANTS)}")
    return chosen
