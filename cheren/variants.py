"""Optional rules (variants): named switches that change a rule of the game on purpose.

Seed 004 of the project (variant notes by James C. Gordon for a game of the whole East Africa
campaign, 1940-41) proposes die-roll modifiers by unit type, artillery that reaches two hexes
and retreats taken as losses.  The entries below adapt the ideas that fit *The Road to CHEREN*
to its own unit types, terrain and Combat Results Table; the text of each is the project's.
Nothing here is part of the published game: with no variant on, the engine plays the rules as
printed (the seeded-games test pins that).

A scenario switches variants on in ``scenario.yaml`` (``variants: [artillery-range]``), a game
with ``Game(scenario, seed, variants=[...])``; game saves record them.  The rules that read a
variant ask :func:`is_on` of the position's scenario.

This module is only the registry (names, words, the rules each changes): the rules themselves
live with the rules they change (:mod:`cheren.rules.variant_combat`, the combat modules).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class Variant:
    """One optional rule."""

    name: str  # the switch, as written in scenario.yaml and on the command line
    title: str
    summary: str  # one line
    text: str  # the rule in full, in the project's words
    rules: tuple[str, ...]  # the rule numbers it changes
    source: str  # where the idea comes from

    def describe(self) -> str:
        """Markdown: the title, the rules changed, the text and the source."""
        return (f"**{self.title}** (`{self.name}`; changes {', '.join(self.rules)})\n\n{self.text}\n\n"
                f"*Source: {self.source}.*")


SEED = "seed 004, variant notes for an East Africa 1940-41 game by James C. Gordon"
# The die of 11.5 reads higher rows as better for the attacker on this game's table, so a
# modifier that helps the attacker adds to the die and one that helps the defender subtracts.
_DIE = ("Each modifier counts once per side and attack, however many units qualify; the attacker's "
        "and the defender's modifiers add up, and the total moves the die before the table is read: "
        "+1 helps the attacker, -1 the defender, and a modified roll never goes below 1 or above 6. "
        "The push of 11.8 looks at the modified roll. Modifiers come on top of the column shifts "
        "(11.1, 11.4).")

VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        Variant(
            "artillery-modifier",
            "Artillery die modifier",
            "An attack with artillery adds 1 to the die; artillery in the defending hex subtracts 1.",
            "When artillery (field or motorized) takes part in an attack, the attacker adds 1 to the "
            "combat die; when the defending hex holds artillery, 1 is subtracted. The air unit is "
            "flying artillery for 11.3 but not artillery here. " + _DIE,
            ("11.5",),
            SEED + ", note 1(a)",
        ),
        Variant(
            "cavalry-modifier",
            "Cavalry die modifier",
            "Cavalry attacking only infantry in a clear or mountain hex adds 1; cavalry defending "
            "there against only infantry subtracts 1.",
            "Cavalry that attacks a hex held only by infantry (infantry, mountain troops, commandos, "
            "motorized infantry) adds 1 to the die when every terrain of that hex is clear or "
            "mountain. The same holds for the defence: cavalry in a clear or mountain hex attacked "
            "only by infantry subtracts 1. In this game the only cavalry is Guillet's, and with "
            "8 MP it never attacks a mountain hex (11.0), so in mountains it counts only when "
            "defending. " + _DIE,
            ("11.5",),
            SEED + ", note 1(c)",
        ),
        Variant(
            "mountain-troops-modifier",
            "Mountain troops die modifier",
            "Mountain troops attacking a mountain hex add 1; mountain troops defending one subtract 1.",
            "When mountain troops take part in an attack on a mountain hex, the attacker adds 1 to "
            "the die; when mountain troops defend a mountain hex, 1 is subtracted. Gordon's amba "
            "and massif hexes are this map's mountains. " + _DIE,
            ("11.5",),
            SEED + ", note 1(e)",
        ),
        Variant(
            "combined-arms-modifier",
            "Combined arms die modifier",
            "An attack by foot infantry together with a mobile unit, on a hex that is not mountain, "
            "adds 1.",
            "An attack that brings together foot infantry (infantry, mountain troops or commandos) "
            "and a mobile unit (cavalry, tanks or motorized infantry) adds 1 to the die, unless the "
            "defending hex is a mountain hex (Gordon excludes massif and marsh; this map's nearest "
            "is mountain, which tanks and motorized units never attack anyway, 9.1). It helps "
            "attacks only. " + _DIE,
            ("11.5",),
            SEED + ", note 1(g)",
        ),
        Variant(
            "artillery-range",
            "Artillery fires from two hexes away",
            "Artillery may join an attack on a hex two hexes away, with its full strength.",
            "An artillery unit (field or motorized) may join an attack on an enemy hex two hexes "
            "from it, not only on an adjacent one, and adds its full strength and its support "
            "points (11.4). Everything else about artillery stands: it needs a non-artillery unit "
            "adjacent to the target in the same attack (11.2), it never advances (11.9), it takes "
            "losses only when no other attacker can (11.6), motorized artillery still never "
            "attacks a mountain hex (9.1), and it never helps a defence. The river shift (11.1) "
            "looks only at the adjacent attackers: guns firing from further back cross no river.",
            ("11.0", "11.1", "11.2"),
            SEED + ", note 2",
        ),
        Variant(
            "losses-instead-of-retreat",
            "Losses instead of retreat, once and for all",
            "A defender may always take a step loss instead of a retreat, and that settles the "
            "result: no push (11.8) reopens it.",
            "Gordon lets a side hit by a retreat result lose steps instead, at least one per hex of "
            "retreat, the choice made at once and taken whole. Rule 11.7 already offers this game's "
            "defender that choice (one hex of retreat, or one step lost by the stack), so what the "
            "variant adds is its finality: a defender that stays and takes the loss has answered "
            "the retreat result, and the attacker may not push (11.8) for a new one, whatever the "
            "die.",
            ("11.7", "11.8"),
            SEED + ", note 5",
        ),
    )
}


class UnknownVariant(ValueError):
    """A variant name the registry does not know."""


def check_variants(names: Iterable[str]) -> tuple[str, ...]:
    """The variants ``names`` switch on, in the registry's order, each once; an unknown name
    raises :class:`UnknownVariant` naming it and the known ones."""
    wanted = set()
    for name in names:
        if not isinstance(name, str) or name not in VARIANTS:
            shown = name if isinstance(name, str) else repr(name)
            raise UnknownVariant(f"unknown variant {str(shown)[:60]!r}; known: {', '.join(VARIANTS)}")
        wanted.add(name)
    return tuple(n for n in VARIANTS if n in wanted)


class _HasVariants(Protocol):
    @property
    def variants(self) -> frozenset[str]: ...


def is_on(scenario: _HasVariants, name: str) -> bool:
    """Is the variant ``name`` on in this scenario?"""
    assert name in VARIANTS, name
    return name in scenario.variants


def listing() -> str:
    """One line per variant: the name, the rules it changes, the summary."""
    width = max(len(n) for n in VARIANTS)
    return "\n".join(f"{v.name:<{width}}  ({', '.join(v.rules)})  {v.summary}" for v in VARIANTS.values())
