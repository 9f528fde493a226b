"""The one-line position code, the FEN of this game: compact, URL-safe, exact.

``C1`` and a three-character fingerprint of the scenario's counters, towns and chits, then
sections joined by ``-``::

    C1Xy7-2am-<units>-<eliminated>-<off map>-<allied towns>-<released>-<postponed>-<delayed>[.<losses>]-<chits>-<dice>

* moment: the turn, the phasing side (``a``/``i``) and the phase (``r`` reinforcement,
  ``m`` movement, ``e`` enemy reaction, ``c`` combat, ``s`` supply, ``x`` exploitation);
* each unit on the map: its counter number (two characters), its hex label (four digits) and
  one character for its steps lost, supply marker and defection;
* the other unit lists hold counter numbers; every unit not listed is still to arrive;
* an Allied reinforcement that lost steps fighting for its arrival town (8.1) and waits to
  arrive keeps them: after the delayed list, a ``.`` and each such unit's counter number and
  steps lost (left out when there are none, so codes without such a unit read as before);
* towns, garrison areas and chits are one character each; the chit section holds the Allied
  hand, the Italian hand, the cup in draw order, the played and removed chits and the chits each
  side saw, separated by ``.``; the dice are the seed and the state.

Numbers use the 62 characters ``0-9A-Za-z``, so the code is safe in a URL or a file name.  The
code carries the whole state (not the title or narrative of a position file), so code ->
position -> code gives back the same characters, and a bad code is refused with the character
where reading stopped and what was expected there.
"""

from __future__ import annotations

import hashlib

from cheren.engine.dice import Dice
from cheren.engine.position import ChitState, Position, Status, Supply, UnitState, chit_instances
from cheren.files.position_files import PositionError
from cheren.files.position_problems import canonical, errors
from cheren.hexes import Hex
from cheren.scenario.compiled import Scenario
from cheren.scenario.errors import Problem
from cheren.scenario.models import Phase, Side

DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
PREFIX = "C1"
PHASE_LETTERS = {
    Phase.REINFORCEMENT: "r",
    Phase.MOVEMENT: "m",
    Phase.REACTION: "e",
    Phase.COMBAT: "c",
    Phase.SUPPLY: "s",
    Phase.EXPLOITATION: "x",
}
SIDE_LETTERS = {Side.ALLIED: "a", Side.ITALIAN: "i"}
SUPPLY_CODES = {None: 0, Supply.LOW: 1, Supply.NO: 2}
SECTIONS = 11
SOURCE = "position code"


def _num(n: int, width: int) -> str:
    out = ""
    for _ in range(width):
        n, r = divmod(n, 62)
        out = DIGITS[r] + out
    if n:
        raise ValueError("number too large for its field")
    return out


def _big(n: int) -> str:
    out = ""
    while True:
        n, r = divmod(n, 62)
        out = DIGITS[r] + out
        if not n:
            return out


class _Tables:
    def __init__(self, s: Scenario) -> None:
        self.units = list(s.units)
        self.towns = list(s.towns)
        self.areas = list(s.garrison_areas)
        self.chits = chit_instances(s)
        h = hashlib.sha256("|".join([*self.units, "#", *self.towns, "#", *self.areas, "#", *self.chits]).encode())
        self.fingerprint = _num(int.from_bytes(h.digest()[:8], "big") % 62**3, 3)


def position_code(position: Position) -> str:
    """The one-line code of a position."""
    s = position.scenario
    t = _Tables(s)
    p = canonical(position)
    unit_no = {uid: i for i, uid in enumerate(t.units)}
    chit_no = {c: i for i, c in enumerate(t.chits)}

    def units(status: Status) -> list[str]:
        return [uid for uid in t.units if p.units[uid].status is status]

    on_map = ""
    for uid in units(Status.MAP):
        u = p.units[uid]
        assert u.hex is not None
        state = u.steps_lost + 4 * SUPPLY_CODES[u.supply] + 12 * int(u.defected)
        on_map += _num(unit_no[uid], 2) + u.hex.label + DIGITS[state]

    def chits(items: list[str]) -> str:
        return "".join(DIGITS[chit_no[c]] for c in items)

    losses = [(uid, p.units[uid].steps_lost) for uid in units(Status.POOL) if p.units[uid].steps_lost]
    waiting_losses = ("." + "".join(_num(unit_no[u], 2) + DIGITS[n] for u, n in losses)) if losses else ""
    c = p.chits
    sections = [
        PREFIX + t.fingerprint,
        f"{p.turn}{SIDE_LETTERS[p.side]}{PHASE_LETTERS[p.phase]}",
        on_map,
        "".join(_num(unit_no[u], 2) for u in units(Status.ELIMINATED)),
        "".join(_num(unit_no[u], 2) for u in units(Status.OFF_MAP)),
        "".join(DIGITS[t.towns.index(town)] for town in t.towns if town in p.allied_control),
        "".join(DIGITS[t.areas.index(a)] for a in t.areas if a in p.released),
        "".join(_num(unit_no[u], 2) for u in t.units if u in p.postponed),
        "".join(_num(unit_no[u], 2) for u in t.units if u in p.delayed) + waiting_losses,
        ".".join(
            chits(x)
            for x in (
                c.hands[Side.ALLIED],
                c.hands[Side.ITALIAN],
                c.cup,
                c.played,
                c.removed,
                c.seen[Side.ALLIED],
                c.seen[Side.ITALIAN],
            )
        ),
        f"{_big(p.dice.seed)}.{_big(p.dice.state)}",
    ]
    return "-".join(sections)


class _Reader:
    """Reads one code, keeping the character offset for error messages."""

    def __init__(self, code: str) -> None:
        self.code = code
        self.at = 0

    def fail(self, expected: str, at: int | None = None) -> PositionError:
        at = self.at if at is None else at
        found = repr(self.code[at : at + 6]) if at < len(self.code) else "the end of the code"
        return PositionError([Problem(SOURCE, f"character {at + 1}", f"expected {expected}, found {found}")])

    def take(self, n: int, expected: str) -> str:
        piece = self.code[self.at : self.at + n]
        if len(piece) < n:
            raise self.fail(expected)
        self.at += n
        return piece

    def number(self, width: int, limit: int, what: str) -> int:
        start = self.at
        piece = self.take(width, what)
        value = 0
        for ch in piece:
            if ch not in DIGITS:
                raise self.fail(what, start)
            value = value * 62 + DIGITS.index(ch)
        if value >= limit:
            raise self.fail(f"{what} (0 to {limit - 1})", start)
        return value


def parse_position_code(code: str, scenario: Scenario) -> Position:
    """The position a code describes; a bad code raises :class:`PositionError` naming the
    character where reading stopped and what was expected there."""
    s = scenario
    t = _Tables(s)
    code = code.strip()
    if len(code) > 4096:
        raise PositionError([Problem(SOURCE, None, f"{len(code)} characters is far longer than any position code")])
    r = _Reader(code)
    if not code.startswith(PREFIX):
        raise r.fail(f"a position code starting with {PREFIX!r}")
    r.at = len(PREFIX)
    fingerprint = r.take(3, "the scenario fingerprint (3 characters)")
    if fingerprint != t.fingerprint:
        raise PositionError(
            [
                Problem(
                    SOURCE,
                    "character 3",
                    f"the code was made with other scenario data (fingerprint {fingerprint}, this "
                    f"scenario's is {t.fingerprint})",
                )
            ]
        )
    parts = code.split("-")
    if len(parts) != SECTIONS:
        # find the offset after the last section that exists, to point at it
        raise r.fail(
            f"{SECTIONS} sections separated by '-' (found {len(parts)})",
            len(code) if len(parts) < SECTIONS else _offset(parts, SECTIONS),
        )
    offsets = [_offset(parts, i) for i in range(SECTIONS)]
    if len(parts[0]) != len(PREFIX) + 3:
        raise r.fail("'-' after the fingerprint", len(PREFIX) + 3)

    # moment
    r.at = offsets[1]
    moment = parts[1]
    digits = len(moment) - len(moment.lstrip("0123456789"))
    if digits == 0:
        raise r.fail("the turn number")
    turn = int(moment[:digits])
    if not 1 <= turn <= len(s.info.turns):
        raise r.fail(f"a turn from 1 to {len(s.info.turns)}")
    r.at += digits
    side_letter = moment[digits : digits + 1]
    sides = {v: k for k, v in SIDE_LETTERS.items()}
    if side_letter not in sides:
        raise r.fail("the phasing side: 'a' (Allied) or 'i' (Italian)")
    r.at += 1
    phase_letter = moment[digits + 1 :]
    phases = {v: k for k, v in PHASE_LETTERS.items()}
    if phase_letter not in phases:
        raise r.fail("the phase: one of r, m, e, c, s, x, then '-'")

    units = {uid: UnitState(uid, d.side, Status.POOL) for uid, d in s.units.items()}
    listed: set[str] = set()

    def unit_ref(what: str) -> str:
        start = r.at
        uid = t.units[r.number(2, len(t.units), what)]
        if uid in listed:
            raise r.fail(f"{what}: {s.units[uid].name} is listed twice", start)
        listed.add(uid)
        return uid

    r.at = offsets[2]
    end = offsets[2] + len(parts[2])
    while r.at < end:
        uid = unit_ref("a counter number (2 characters)")
        start = r.at
        label = r.take(4, "a hex label (4 digits)")
        if not label.isdigit():
            raise r.fail("a hex label (4 digits)", start)
        if "00" in (label[:2], label[2:]):
            raise r.fail("a hex label with its column and row from 01", start)
        h = Hex.from_label(label)
        if h not in s.playable:
            raise r.fail(f"a playable hex; {label} is not one", start)
        state = r.number(1, 24, "the unit's state character")
        d = s.units[uid]
        steps_lost, rest = state % 4, state // 4
        supply_code, defected = rest % 3, bool(rest // 3)
        if steps_lost >= d.steps:
            raise r.fail(f"a state with fewer than {d.steps} steps lost for {d.name}", r.at - 1)
        if defected and not d.is_native:
            raise r.fail(f"a state without defection: {d.name} is not a native unit", r.at - 1)
        supply = {v: k for k, v in SUPPLY_CODES.items()}[supply_code]
        side = Side.ALLIED if defected else d.side
        units[uid] = UnitState(uid, side, Status.MAP, h, steps_lost, supply, defected)

    def unit_list(index: int, status: Status | None, length: int | None = None) -> set[str]:
        r.at = offsets[index]
        out: set[str] = set()
        stop = offsets[index] + (len(parts[index]) if length is None else length)
        while r.at < stop:
            if status is None:
                start = r.at
                uid = t.units[r.number(2, len(t.units), "a counter number (2 characters)")]
                if uid in out:
                    raise r.fail(f"a counter number: {s.units[uid].name} is listed twice", start)
            else:
                uid = unit_ref("a counter number (2 characters)")
                units[uid].status = status
            out.add(uid)
        return out

    unit_list(3, Status.ELIMINATED)
    unit_list(4, Status.OFF_MAP)

    def one_char_list(index: int, table: list[str], what: str) -> list[str]:
        r.at = offsets[index]
        out: list[str] = []
        for _ in parts[index]:
            start = r.at
            item = table[r.number(1, len(table), what)]
            if item in out:
                raise r.fail(f"{what} given once", start)
            out.append(item)
        return out

    allied_control = set(one_char_list(5, t.towns, "a town number"))
    released = set(one_char_list(6, t.areas, "a garrison area number"))
    postponed = unit_list(7, None)
    delayed_part, dot, losses_part = parts[8].partition(".")
    delayed = unit_list(8, None, len(delayed_part))
    if dot:
        r.at = offsets[8] + len(delayed_part) + 1
        if not losses_part:
            raise r.fail("after '.', the reinforcements still to arrive with steps lost")
        while r.at < offsets[8] + len(parts[8]):
            start = r.at
            uid = t.units[r.number(2, len(t.units), "a counter number (2 characters)")]
            d = s.units[uid]
            if d.side is not Side.ALLIED or units[uid].status is not Status.POOL:
                raise r.fail(f"an Allied reinforcement still to arrive (8.1); {d.name} is not one", start)
            if units[uid].steps_lost:
                raise r.fail(f"a counter number: {d.name} is listed twice", start)
            units[uid].steps_lost = r.number(1, d.steps, f"the steps {d.name} lost (fewer than its {d.steps})")
            if not units[uid].steps_lost:
                raise r.fail(f"the steps {d.name} lost (1 or more; leave it out when none)", r.at - 1)

    chit_parts = parts[9].split(".")
    if len(chit_parts) != 7:
        raise r.fail("7 chit lists separated by '.'", offsets[9])
    lists: list[list[str]] = []
    r.at = offsets[9]
    seen_chits: set[str] = set()
    for i, part in enumerate(chit_parts):
        items = []
        for _ in part:
            start = r.at
            chit = t.chits[r.number(1, len(t.chits), "a chit number")]
            if i < 5:
                if chit in seen_chits:
                    raise r.fail("each chit in one place only", start)
                seen_chits.add(chit)
            items.append(chit)
        lists.append(items)
        r.at += 1
    if len(seen_chits) != len(t.chits):
        raise r.fail("every chit in a hand, the cup, played or removed", offsets[9])
    for i, seen in ((5, lists[5]), (6, lists[6])):
        if any(c not in lists[4] for c in seen):
            raise r.fail(f"seen chits that are among the removed ones (list {i + 1})", offsets[9])
    chits = ChitState(
        hands={Side.ALLIED: lists[0], Side.ITALIAN: lists[1]},
        cup=lists[2],
        played=lists[3],
        removed=lists[4],
        seen={Side.ALLIED: lists[5], Side.ITALIAN: lists[6]},
    )

    r.at = offsets[10]
    dice_parts = parts[10].split(".")
    if len(dice_parts) != 2 or not all(dice_parts) or any(ch not in DIGITS for ch in parts[10].replace(".", "")):
        raise r.fail("the dice: seed '.' state, in the characters 0-9A-Za-z")
    seed, state = (_value(x) for x in dice_parts)
    if seed >= 2**63 or state >= 2**64:
        raise r.fail("a dice seed below 2^63 and a state below 2^64")

    position = Position(
        scenario=s,
        units=units,
        dice=Dice(seed, state),
        turn=turn,
        side=sides[side_letter],
        phase=phases[phase_letter],
        allied_control=allied_control,
        released=released,
        chits=chits,
        postponed=postponed,
        delayed=delayed,
    )
    problems = errors(position, mid_phase=True)  # a code may be taken at any moment of play
    if problems:
        raise PositionError(
            [Problem(SOURCE, None, str(p), p.hex.label if p.hex is not None else None) for p in problems]
        )
    return canonical(position)


def _value(text: str) -> int:
    n = 0
    for ch in text:
        n = n * 62 + DIGITS.index(ch)
    return n


def _offset(parts: list[str], index: int) -> int:
    return sum(len(p) + 1 for p in parts[:index])
