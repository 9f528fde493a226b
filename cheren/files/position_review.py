"""The review a historical position must pass: the checker of ``cheren positions check``.

Beyond what :func:`~cheren.files.position_problems.position_problems` says of the position itself
(including what the next supply check would change: 12.7 town control, 12.4 Low markers), the
review reads the file as a historian would:

* **citations**: every source is written ``Key: Author, *Title* (chapter or page)`` and is not a
  bare domain; every citation in square brackets, in the narrative, the question, what happened
  next, the plan and the provenance lines, names a source of the position's own list; the seed
  game *Keren* justifies an aggregation (a ``reconstructed`` placement) and is never cited as
  evidence of a fact;
* **rules**: every rule number the texts cite exists (:data:`cheren.engine.rule_summaries.RULES`);
* **placements**: a ``historical`` placement cites its source; a ``rules`` placement stands where
  the rules put the unit at the set-up (its letter town, a native's village), otherwise no source
  places it there and it must be marked ``reconstructed`` with the reason;
* **warnings explained**: a warning of the position checker is acceptable only where the narrative
  explains it, naming the town or unit and citing the rule;
* **the answer key**: a question, what happened next (dated, sourced), and a historical plan that
  plays through the gate (:mod:`cheren.files.position_plans`);
* **the week**: two positions of the same week agree on every placement, or the later one says
  which earlier one it follows and what was played in between (``follows``; a position may also
  follow one of an earlier week).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from cheren.engine.position import Status
from cheren.engine.rule_summaries import RULES
from cheren.files.position_files import PositionRecord
from cheren.files.position_plans import PlanError, play_plan
from cheren.files.position_problems import PositionProblem, moment_index, position_problems
from cheren.scenario.models import Source

Severity = Literal["error", "warning"]
RULE_NUMBERS = frozenset(r.number for r in RULES)

_CITATION = re.compile(r"(?<!\!)\[([^\[\]]+)\](?!\()")  # [Key, chapter]; not a Markdown link or image
_RULE_REF = re.compile(r"\((\d{1,2}\.\d)(?:[,;] ?(\d{1,2}\.\d))*[^()]*\)|\brules? (\d{1,2}\.\d)")
_ANY_RULE = re.compile(r"\b(\d{1,2}\.\d)\b")
_BARE_DOMAIN = re.compile(r"^\s*(https?://)?[\w-]+(\.[\w-]+)+(/\S*)?\s*$")
_NOT_A_HISTORY = ("wordpress.com", "blogspot.", "flickr.", "pinterest.", "instagram.")
GAME_MARK = "seed 002"  # a source that is the seed game Keren: a game, never evidence of a fact


@dataclass(frozen=True)
class ReviewItem:
    """One finding of the review: where in the file, what, and (for a warning of the position
    checker) whether the narrative explains it."""

    position: str
    severity: Severity
    where: str
    message: str
    rule: str | None = None
    explained: bool = False

    def __str__(self) -> str:
        rule = f" ({self.rule})" if self.rule else ""
        note = " - explained in the narrative" if self.explained else ""
        return f"{self.position}: {self.where}: {self.message}{rule}{note}"

    @property
    def blocking(self) -> bool:
        """An error, or a warning the narrative does not explain."""
        return self.severity == "error" or not self.explained


def source_key(source: str) -> str | None:
    """The short key a source is cited by: the text before its first ': '."""
    key, sep, _ = source.partition(": ")
    return key.strip() if sep and key.strip() else None


def citations(text: str) -> list[str]:
    """Every citation in square brackets, each ``;``-separated part on its own."""
    return [" ".join(part.split()) for group in _CITATION.findall(text) for part in group.split(";") if part.strip()]


def cited_rules(text: str) -> list[str]:
    """The rule numbers a text cites: in brackets, ``(12.4)`` or ``(11.4, 11.5)``, or as ``rule 12.7``."""
    out: list[str] = []
    for m in _RULE_REF.finditer(text):
        if m.group(0).startswith("("):
            out += _ANY_RULE.findall(m.group(0))
        else:
            out.append(m.group(3))
    return list(dict.fromkeys(out))


def review(record: PositionRecord) -> list[ReviewItem]:
    """Everything a historian and the rules find wrong with one position."""
    out: list[ReviewItem] = []

    def item(severity: Severity, where: str, message: str, rule: str | None = None, explained: bool = False) -> None:
        out.append(ReviewItem(record.name, severity, where, message, rule, explained))

    keys = _review_sources(record, item)
    for where, text, kind in _texts(record):
        for cite in citations(text):
            key = _key_of(cite, keys)
            if key is None:
                item("error", where, f"cites [{cite}], which is not in the position's sources")
            elif GAME_MARK in keys[key] and kind != "reconstructed":
                item("error", where, f"cites the seed game Keren [{cite}] as evidence; a game justifies an "
                     "aggregation (a reconstructed placement), never a fact")
        for rule in cited_rules(text):
            if rule not in RULE_NUMBERS:
                item("error", where, f"cites rule {rule}, which the rules do not have")
    _review_placements(record, keys, item)
    for problem in position_problems(record.position, next_check=True):
        explained = problem.severity == "warning" and _explains(record.narrative, problem)
        item(problem.severity, _at(problem), str(problem).removesuffix(f" ({problem.rule})"), problem.rule, explained)
    _review_answer_key(record, item)
    return out


def review_library(records: Sequence[PositionRecord]) -> list[ReviewItem]:
    """The review of every position, and of each week's positions against one another."""
    out = [x for r in records for x in review(r)]
    by_name = {r.name: r for r in records}
    for r in records:
        if r.follows is not None and r.follows.position not in by_name:
            out.append(ReviewItem(r.name, "error", "follows.position", f"no library position {r.follows.position!r}"))
        elif r.follows is not None:
            earlier = by_name[r.follows.position]
            if _moment(earlier) >= _moment(r):
                text = f"{earlier.name} is not an earlier position"
                out.append(ReviewItem(r.name, "error", "follows.position", text))
    for week in sorted({r.turn for r in records}):
        same = sorted((r for r in records if r.turn == week), key=lambda r: (_moment(r), r.date, r.name))
        for a, b in itertools.pairwise(same):
            moved = differences(a, b)
            if not moved:
                continue
            if _moment(a) == _moment(b):
                out.append(ReviewItem(b.name, "error", "units", f"stands at the same moment as {a.name} but places "
                                      f"{', '.join(moved)} elsewhere"))
            elif b.follows is None or b.follows.position != a.name:
                out.append(ReviewItem(b.name, "error", "follows", f"places {', '.join(moved)} elsewhere than "
                                      f"{a.name} of the same week without saying why (follows: {a.name})"))
    return out


def differences(a: PositionRecord, b: PositionRecord) -> list[str]:
    """The units (by printed name) that stand elsewhere, or in another state, in ``b`` than in ``a``."""
    s = a.position.scenario
    out = []
    for uid, ua in a.position.units.items():
        ub = b.position.units[uid]
        if (ua.status, ua.hex, ua.steps_lost) != (ub.status, ub.hex, ub.steps_lost):
            out.append(s.units[uid].name)
    return out


def counts(record: PositionRecord) -> dict[str, int]:
    """How many placements are historical, reconstructed, or set by the rules (the set-up)."""
    out = {source.value: 0 for source in Source}
    for prov in record.provenance.values():
        out[prov.source.value] += 1
    return out


# -- the parts -----------------------------------------------------------------------------------
def _review_sources(record: PositionRecord, item: _Item) -> dict[str, str]:
    keys: dict[str, str] = {}
    if not record.sources:
        item("error", "sources", "the position lists no sources")
    for i, source in enumerate(record.sources):
        where = f"sources[{i}]"
        key = source_key(source)
        if key is None:
            item("error", where, f"write a source as 'Key: Author, *Title* (chapter or page)', not {source!r}")
            continue
        if key in keys:
            item("error", where, f"the key {key!r} is given twice")
        keys[key] = source
        reference = source.split(": ", 1)[1]
        if _BARE_DOMAIN.match(reference) or "*" not in reference:
            item("error", where, f"{key}: name the author and the *title* (and chapter or page), not a bare address")
        if any(mark in reference for mark in _NOT_A_HISTORY):
            item("error", where, f"{key}: a blog or photo site is not a source a history can be checked against")
    return keys


def _key_of(cite: str, keys: Iterable[str]) -> str | None:
    """The source key a citation starts with (the longest that fits)."""
    found = [k for k in keys if cite == k or cite.startswith(k + ",") or cite.startswith(k + " ")]
    return max(found, key=len) if found else None


def _texts(record: PositionRecord) -> list[tuple[str, str, str]]:
    """(where, text, kind) of every text that may cite: kind is the provenance kind for placement
    lines, else 'text'."""
    s = record.position.scenario
    out = [("narrative", record.narrative, "text")]
    if record.question is not None:
        out.append(("question.text", record.question.text, "text"))
    out += [(f"happened_next[{i}]", e.text, "text") for i, e in enumerate(record.happened_next)]
    if record.plan is not None:
        out.append(("historical_plan.summary", record.plan.summary, "text"))
    if record.follows is not None:
        out.append(("follows.why", record.follows.why, "text"))
    for uid, prov in record.provenance.items():
        out.append((f"units ({s.units[uid].name}).provenance", prov.note, prov.source.value))
    return out


def _review_placements(record: PositionRecord, keys: dict[str, str], item: _Item) -> None:
    p = record.position
    s = p.scenario
    for uid, unit in p.units.items():
        if unit.status is not Status.MAP:
            continue
        name = s.units[uid].name
        where = f"units ({name}).provenance"
        prov = record.provenance.get(uid)
        if prov is None:
            item("error", where, f"{name} stands in {_hex(unit.hex)} with no provenance")
            continue
        if prov.source is Source.HISTORICAL:
            cited = [c for c in citations(prov.note) if _key_of(c, keys) is not None]
            if not cited:
                item("warning", where, f"no source places {name} in {_hex(unit.hex)}: cite one as [Key, chapter] "
                     "or mark the placement reconstructed with the reason")
        elif prov.source is Source.RULES and unit.hex != _setup_hex(record, uid):
            item("warning", where, f"no source places {name} in {_hex(unit.hex)} and the rules put it elsewhere "
                 "at the set-up: mark it reconstructed with the reason")
        elif not prov.note.strip():
            item("warning", where, f"the placement of {name} gives no reason")


def _review_answer_key(record: PositionRecord, item: _Item) -> None:
    if record.question is None:
        item("warning", "question", "the position puts no question")
    if not record.happened_next:
        item("warning", "happened_next", "the position does not say what happened next")
    for i, event in enumerate(record.happened_next):
        if event.date < record.date:
            item("error", f"happened_next[{i}]", f"{event.date} is before the position's date {record.date}")
        if not citations(event.text):
            item("error", f"happened_next[{i}]", "cite the source of what happened, as [Key, chapter]")
    if record.plan is None:
        item("warning", "historical_plan", "the position has no historical plan")
        return
    if not citations(record.plan.summary):
        item("error", "historical_plan.summary", "cite the source of the plan, as [Key, chapter]")
    try:
        play_plan(record)
    except PlanError as exc:
        item("error", "historical_plan", str(exc).removeprefix(f"{record.name}: "))


def _explains(narrative: str, problem: PositionProblem) -> bool:
    """Does the narrative explain this warning: name its town or unit and cite its rule?"""
    subject = problem.subject
    text = " ".join(narrative.split())
    return subject is not None and subject in text and problem.rule in cited_rules(text)


def _setup_hex(record: PositionRecord, uid: str) -> object:
    s = record.position.scenario
    d = s.units[uid]
    native = d.counter.native
    if native is not None:
        return s.village_hex(native.village)
    if d.arrival is None:
        return None
    try:
        return s.letter_hex(d.arrival.letter)
    except (KeyError, ValueError):
        return None


def _at(problem: PositionProblem) -> str:
    return f"units [hex {problem.hex.label}]" if problem.hex is not None else "units"


def _hex(h: object) -> str:
    return getattr(h, "label", "no hex")


def _moment(r: PositionRecord) -> tuple[int, int, int]:
    p = r.position
    return moment_index(p.turn, p.side, p.phase)


class _Item(Protocol):
    """review()'s reporter, as its helpers take it."""

    def __call__(
        self, severity: Severity, where: str, message: str, rule: str | None = None, explained: bool = False
    ) -> None: ...
