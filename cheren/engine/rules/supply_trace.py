"""What a supply question found, and why, in the words a teacher would use (12.0-12.3): the
answer for one unit or town (:class:`SupplyTrace`), and for a unit out of supply every route that
was tried (:class:`Candidate`) with what blocks it (:class:`Block`).  The tracing itself is in
:mod:`cheren.engine.rules.supply`."""

from __future__ import annotations

from dataclasses import dataclass

from cheren.hexes import Hex
from cheren.scenario.models import Side

MAX_LINE = 3  # 12.0: the longest supply line, in hexes


@dataclass(frozen=True)
class Block:
    """One reason a candidate supply route fails, with its rule."""

    rule: str
    reason: str
    hex: Hex | None = None
    kind: str = ""  # "mountain", "enemy_units", "enemy_town", "zoc", "length" or "route"

    def __str__(self) -> str:
        return f"{self.reason} ({self.rule})"


@dataclass(frozen=True)
class Candidate:
    """A way a supply line could have gone, and why it does not work.

    ``target`` is the source or road/track hex the route aims at; ``path`` the hexes the line
    would enter (the origin excluded, the target included; empty when the origin itself is on
    the road/track)."""

    target: Hex
    reaches: str  # "source", "road", "track", "road/track"
    path: tuple[Hex, ...]
    blocks: tuple[Block, ...]

    def describe(self) -> str:
        at = self.target.label
        aim = f"the source {at}" if self.reaches == "source" else f"the {self.reaches} at {at}"
        way = "from where it stands" if not self.path else "via " + " -> ".join(h.label for h in self.path)
        return f"towards {aim} {way}: " + "; ".join(str(b) for b in self.blocks)


@dataclass(frozen=True)
class SupplyTrace:
    """The answer to "can a unit here draw supply?", with the reasons a teacher would give.

    When supplied by a line: ``line`` is the hexes entered (origin excluded), ``reached`` the
    hex where it meets the source or the road/track, ``route`` the road/track from there to the
    source (both ends included), ``limit`` and ``limit_why`` the length limit that applied.
    When not: ``candidates`` lists the routes that were tried and what blocks each."""

    side: Side
    origin: Hex | None  # None only for the air unit kept off the map (11.3)
    supplied: bool
    rule: str  # the rule that decides: 12.0 (a line), 12.2 (red edge), 12.3 (village), 11.3 (air)
    reaches: str = ""  # "source", "road", "track", "road/track", "edge", "village", "air"
    line: tuple[Hex, ...] = ()
    reached: Hex | None = None
    route: tuple[Hex, ...] = ()
    source: str | None = None
    limit: int = MAX_LINE
    limit_why: str = ""
    candidates: tuple[Candidate, ...] = ()
    unit: str | None = None
    name: str | None = None  # what is tracing: a unit's or a town's name

    def __bool__(self) -> bool:
        return self.supplied

    @property
    def rules(self) -> tuple[str, ...]:
        found = [self.rule] + [b.rule for c in self.candidates for b in c.blocks]
        return tuple(sorted(dict.fromkeys(found), key=_rule_key))

    @property
    def who(self) -> str:
        where = self.origin.label if self.origin is not None else "off the map"
        if not self.name:
            return where
        return f"{self.name} in {where}" if self.origin is not None else f"{self.name} ({where})"

    def explain(self) -> str:
        side = self.side.adjective
        if self.supplied:
            if self.reaches == "air":
                return f"{self.who} is the air support unit: always in supply (11.3)"
            if self.reaches == "village":
                return f"{self.who} is a native unit in its own village: in supply (12.3)"
            if self.reaches == "edge":
                return f"{self.who} is next to the red map edge '{self.source}': in {side} supply (12.2)"
            lead = f"{self.who} draws {side} supply (12.0)"
            source = f"the source {self.source}" if self.source else "a source"
            if not self.line:
                if self.reaches == "source":
                    return f"{lead}: it stands on {source}"
                return f"{lead}: it stands on the {self.reaches}, which leads to {source} ({_chain(self.route)})"
            hexes = " -> ".join(h.label for h in self.line)
            assert self.reached is not None
            at = self.reached.label
            where = (
                f"reaches {source} at {at}"
                if self.reaches == "source"
                else f"reaches the {self.reaches} at {at}, which leads to {source} ({_chain(self.route)})"
            )
            n = len(self.line)
            return (
                f"{lead}: a line of {n} hex{'es' if n != 1 else ''} {hexes} {where}; "
                f"limit {self.limit} hex{'es' if self.limit != 1 else ''}: {self.limit_why}"
            )
        lines = [f"{self.who} cannot draw {side} supply (12.0):"]
        if not self.candidates:
            lines.append(
                f"  no {side} supply source, and no road or track leading to one, lies within "
                f"{MAX_LINE} hexes (12.0)"
            )
        for c in self.candidates:
            lines.append("  - " + c.describe())
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.explain()


def _chain(hexes: tuple[Hex, ...]) -> str:
    if len(hexes) <= 6:
        return " -> ".join(h.label for h in hexes)
    return " -> ".join(h.label for h in hexes[:3]) + f" -> ... ({len(hexes) - 5} more) -> " + " -> ".join(
        h.label for h in hexes[-2:]
    )


def _rule_key(rule: str) -> tuple[int, ...]:
    return tuple(int(p) for p in rule.split("."))
