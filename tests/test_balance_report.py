"""docs/balance.md must describe the data as it is: measured on the bundled scenario's current
files, over enough games, and naming every value that was tuned for balance."""

from __future__ import annotations

import re
from pathlib import Path

from cheren.scenario import load_scenario
from cheren.scenario.models import Provenance, Sourced

REPORT = Path(__file__).resolve().parents[1] / "docs" / "balance.md"
TUNED = "docs/balance.md"


def _notes(record: Sourced) -> list[str]:
    p = record.provenance
    values = [p] if isinstance(p, Provenance) else list(p.values())
    return [v.note for v in values]


def test_the_balance_report_was_measured_on_the_current_scenario_data() -> None:
    text = REPORT.read_text(encoding="utf-8")
    recorded = re.search(r"Scenario digest: `([0-9a-f]{16})`", text)
    assert recorded is not None, "docs/balance.md must record the scenario digest it measured"
    assert recorded.group(1) == load_scenario().digest, (
        "the bundled scenario changed since docs/balance.md was measured: re-run its final command "
        "and update the report (tables and digest)"
    )


def test_the_final_distribution_covers_a_few_hundred_games_and_adds_up() -> None:
    text = REPORT.read_text(encoding="utf-8")
    final = text.split("## Final measurement", 1)[1].split("\n## ", 1)[0]
    command = re.search(r"cheren simulate --games (\d+) --seed (\d+) --allied heuristic --italian heuristic", final)
    assert command is not None
    games = int(command.group(1))
    row = re.compile(r"^\| [A-Z][a-z]+(?: [a-z]+)*(?: victory)? \| (\d+) \|", re.M)
    counts = [int(m.group(1)) for m in row.finditer(final)]
    assert games >= 300 and sum(counts) == games and len(counts) == 7


def test_every_value_tuned_for_balance_is_named_in_the_report() -> None:
    text = REPORT.read_text(encoding="utf-8")
    s = load_scenario()
    tuned = [c.id for c in s.counter_sheet.counters if any(TUNED in n for n in _notes(c))]
    tuned += [t.key for t in s.terrain_key.terrain if any(TUNED in n for n in _notes(t))]
    tuned += [c.key for c in s.chits.values() if any(TUNED in n for n in _notes(c))]
    tuned += [t.name for t in s.towns.values() if any(TUNED in n for n in _notes(t))]
    assert len(tuned) >= 3
    missing = [key for key in tuned if f"`{key}`" not in text]
    assert missing == [], f"tuned in the data but not explained in docs/balance.md: {missing}"


def test_the_maps_stated_vp_total_is_the_towns_sum() -> None:
    s = load_scenario()
    text = (s.directory / "map.yaml").read_text(encoding="utf-8")
    stated = re.search(r"Total VP: (\d+)", text)
    assert stated is not None, "map.yaml should state the towns' VP total"
    assert int(stated.group(1)) == sum(t.vp for t in s.towns.values())
