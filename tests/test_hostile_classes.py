"""The hostile-input classes of tests/hostile/ at a small size (issue 28): every case
of every class ends refused cleanly, recovered or kept: no traceback, no hang, nothing taken as
good that is not, nothing lost.  tools/reliability.py runs them at full size for
docs/reliability.md; the runs that start processes are in tests/test_hostile_runs.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.hostile import CLASSES, GOOD

# cases per class drawn at random here (the fixed lists run whole); 0: run elsewhere
SIZES = {
    "positions reached in play": 0,  # tests/test_reload_positions.py
    "study saves: edited fields and bytes": 30,
    "lesson files: random edits": 4,
    "resume files: edited": 0,  # tests/test_hostile_runs.py
    "runs stopped or killed": 0,  # tests/test_hostile_runs.py
}


@pytest.mark.parametrize("name", [c.name for c in CLASSES if SIZES.get(c.name, 1)])
def test_every_case_of_the_class_ends_well(name: str, tmp_path: Path) -> None:
    input_class = next(c for c in CLASSES if c.name == name)
    cases = input_class.cases(tmp_path, SIZES.get(name, 1))
    assert cases
    bad = {case.label: outcome for case in cases if (outcome := case.run()) not in GOOD}
    assert bad == {}
