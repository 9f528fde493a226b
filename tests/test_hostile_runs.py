"""Runs that are stopped or killed keep what they finished (issue 28, items 7 and 8), and
edited resume files are refused: the hostile-input classes of tests/hostile/."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.hostile import GOOD, resume_cases, run_cases


def outcomes(cases: list) -> dict[str, str]:  # type: ignore[type-arg]
    return {c.label: c.run() for c in cases}


def test_edited_resume_files_are_refused(tmp_path: Path) -> None:
    got = outcomes(resume_cases(tmp_path, 40))
    assert {k: v for k, v in got.items() if v not in GOOD} == {}


@pytest.mark.parametrize("which", [0, 3])  # simulate stopped and resumed; simulate killed
def test_stopped_and_killed_runs(tmp_path: Path, which: int) -> None:
    case = run_cases(tmp_path, 1)[which]
    assert case.run() in GOOD, case.label
