"""``docs/positions.md`` and ``docs/positions-answer-keys.md``, written from the library.

Nothing in them is typed by hand: the counts of historical, reconstructed and set-up placements,
the questions, what happened next and the plans come from the position files, the Keren key from
``keren_key.yaml``, the play-out numbers from :func:`cheren.study.answer_keys.answer_key`.
``tools/positions_doc.py`` writes the files; a test keeps ``docs/positions.md`` current.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from cheren.engine.position import Status
from cheren.files.position_files import PositionRecord
from cheren.files.position_review import counts, review
from cheren.scenario.compiled import Scenario
from cheren.scenario.models import Source
from cheren.scenario.sequence import PHASE_TITLES
from cheren.study.keren_key import keren_key


class Explained(Protocol):
    def explain(self) -> str: ...


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _cell(text: str) -> str:
    return _one_line(text).replace("|", "/")


def _moment(r: PositionRecord) -> str:
    p = r.position
    return f"{p.turn}, {p.side.adjective} {PHASE_TITLES[p.phase]}"


def positions_markdown(scenario: Scenario, records: Sequence[PositionRecord]) -> str:
    """The text of ``docs/positions.md``."""
    lines = [
        "# Historical positions",
        "",
        "<!-- Written by tools/positions_doc.py from the position files and keren_key.yaml; do not edit. -->",
        "",
        f"The library holds {len(records)} dated positions of the 1941 campaign, each a legal position of the game",
        "(`scenarios/road_to_cheren/positions/`). Each states its question and whose it is, what happened next",
        "(dated, sourced) and the historical plan as a line of play that goes through the legality gate.",
        "`cheren positions check` reviews them: the rules between phases (12.7, 12.4), the sources and",
        "citations, the placements' provenance, the plans and the agreement of each week's positions.",
        "",
        "Every placement is **historical** (a source puts that formation there that week), **reconstructed**",
        "(the project's estimate, with the reason) or set by the **rules** (a unit still at the town the",
        "set-up gives it, 5.0, where no source moves it). The counts below are counted from the files.",
        "",
        "| position | date | turn, phase | decides | historical | reconstructed | set-up (rules) | sources |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in records:
        c = counts(r)
        side = r.question.side.adjective if r.question is not None else "-"
        lines.append(
            f"| [`{r.name}`](#{r.name}) | {r.date:%d %b %Y} | {_moment(r)} | {side} | {c[Source.HISTORICAL.value]} | "
            f"{c[Source.RECONSTRUCTED.value]} | {c[Source.RULES.value]} | {len(r.sources)} |"
        )
    totals = {k: sum(counts(r)[k] for r in records) for k in ("historical", "reconstructed", "rules")}
    lines += [
        "",
        f"In all: {totals['historical']} historical placements, {totals['reconstructed']} reconstructed and "
        f"{totals['rules']} set by the rules.",
        "",
        "The play-outs of each historical plan against the analysis's best alternative are in",
        "[positions-answer-keys.md](positions-answer-keys.md).",
        "",
    ]
    for r in records:
        lines += _position(r)
    lines += keren_key_markdown(scenario)
    return "\n".join(lines).rstrip() + "\n"


def _position(r: PositionRecord) -> list[str]:
    s = r.position.scenario
    lines = [f'<a id="{r.name}"></a>', f"## {r.title} (`{r.name}`)", "",
             f"*{r.date:%d %B %Y}; turn {_moment(r)}.*", ""]
    if r.question is not None:
        lines += [f"**The question** ({r.question.side.adjective} to decide): {_one_line(r.question.text)}", ""]
    if r.happened_next:
        lines.append("**What happened next:**")
        lines += [f"- {e.date:%d %B %Y}: {_one_line(e.text)}" for e in r.happened_next]
        lines.append("")
    if r.plan is not None:
        lines += [f"**The historical plan:** {_one_line(r.plan.summary)}", ""]
        for i, step in enumerate(r.plan.steps, 1):
            fields = step.model_dump(exclude_none=True)
            kind = str(fields.pop("kind")).replace("_", " ")
            rest = ", ".join(f"{k} {', '.join(v) if isinstance(v, list) else v}" for k, v in fields.items())
            lines.append(f"{i}. {kind}" + (f": {rest}" if rest else ""))
        lines.append("")
    if r.follows is not None:
        lines += [f"**Follows** `{r.follows.position}`: {_one_line(r.follows.why)}", ""]
    by_kind: dict[str, list[str]] = {k.value: [] for k in Source}
    for uid, unit in r.position.units.items():
        prov = r.provenance.get(uid)
        if unit.status is Status.MAP and prov is not None and unit.hex is not None:
            by_kind[prov.source.value].append(f"{s.units[uid].name} ({unit.hex.label})")
    c = counts(r)
    lines += [
        f"**Placements:** {c['historical']} historical, {c['reconstructed']} reconstructed, {c['rules']} set by the "
        "rules.",
        "",
        f"- historical: {', '.join(by_kind['historical']) or 'none'}",
        f"- reconstructed: {', '.join(by_kind['reconstructed']) or 'none'}",
        "",
    ]
    notes = [x for x in review(r) if x.severity == "warning" and x.explained]
    if notes:
        lines.append("**The checker's warnings, each explained in the narrative:**")
        lines += [f"- {x.message} ({x.rule})" for x in notes]
        lines.append("")
    lines.append("**Sources:**")
    lines += [f"- {src}" for src in r.sources]
    lines.append("")
    return lines


def keren_key_markdown(scenario: Scenario) -> list[str]:
    key = keren_key(scenario)
    shared = key.shared()
    lines = [
        "## The Keren key",
        "",
        "The features of the battle of Cheren where they lie on the map (the **Keren key** overlay in the app;",
        "`keren_key.yaml` in the scenario). The map is a reconstruction at 12.5 km a hex (1.0): the battlefield",
        "lies within a few kilometres of the town, so at true scale nearly all of it would fall in the Cheren hex.",
        "The map spreads the ring of mountains over the hexes round Cheren and the key follows it; several",
        "features share a hex: "
        + "; ".join(f"{h.label} holds {', '.join(f.name for f in fs)}" for h, fs in sorted(shared.items())) + ".",
        "",
        "| # | feature | hex | where | what happened there | source | why this hex |",
        "|---|---|---|---|---|---|---|",
    ]
    for f in key.features:
        lines.append(
            f"| {f.number} | {f.name} | {f.labels} | {_cell(f.where)} | {_cell(f.what)} | {_cell(f.source)} | "
            f"{_cell(str(f.placement))} |"
        )
    lines += ["", "Sources of the key:", *(f"- {src}" for src in key.sources), ""]
    return lines


def answer_keys_markdown(
    records: Sequence[PositionRecord],
    games: int,
    seed: int,
    allied: str,
    italian: str,
    key_of: Callable[[PositionRecord], Explained],
    run_note: str,
) -> str:
    """The text of ``docs/positions-answer-keys.md``: ``key_of`` gives each position's played
    :class:`~cheren.study.answer_keys.AnswerKey`."""
    lines = [
        "# Answer keys in numbers",
        "",
        "<!-- Written by tools/positions_doc.py --answer-keys; the numbers come from the engine. -->",
        "",
        f"Each position's historical plan against the analysis's best alternative, each played out {games} times",
        f"to the end of turn 12 by the {allied} bot (Allies) against the {italian} bot (Italians) on the same seeds",
        f"(seed {seed}). {run_note} The bots and the balance change as the project goes on: run",
        "`python tools/positions_doc.py --answer-keys` again for current numbers.",
        "",
    ]
    for r in records:
        lines += [f"## {r.title} (`{r.name}`)", "", key_of(r).explain(), ""]
    return "\n".join(lines).rstrip() + "\n"
