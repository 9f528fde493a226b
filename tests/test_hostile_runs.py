"""Runs that are stopped or killed keep what they finished (issue 28, items 7 and 8), and
edited resume files are refused: the hostile-input classes of tests/hostile/."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

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


class StopAfter:
    """A progress bar that presses Ctrl-C once ``n`` games are done (in this process)."""

    def __init__(self, n: int) -> None:
        self.n = n

    def __call__(self, total: int, description: str = "games") -> Any:
        @contextlib.contextmanager
        def bar() -> Iterator[Callable[[int, int], None]]:
            def update(done: int, _total: int) -> None:
                if done >= self.n:
                    raise KeyboardInterrupt

            yield update

        return bar()


def test_analyse_keeps_its_play_outs_on_ctrl_c_and_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from cheren.cli.main import main
    from cheren.players import simulate

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(simulate, "game_progress", StopAfter(2))
    assert main(["analyse", "agordat", "--games", "4", "--bot", "random", "--seed", "5"]) == 130
    err = capsys.readouterr().err
    kept = tmp_path / "cheren-analyse-resume.json"
    assert "2 finished games kept in" in err and f"`cheren analyse agordat --resume {kept}`" in err
    data = json.loads(kept.read_text())
    assert data["run"]["partial"] and [g["index"] for g in data["games"]] == [0, 1]
    assert main(["analyse", "cheren-falls", "--resume", str(kept)]) == 2
    assert "the file's play-outs are of another position" in capsys.readouterr().err
    monkeypatch.setattr(simulate, "game_progress", StopAfter(99))
    assert main(["analyse", "agordat", "--resume", str(kept), "--quiet"]) == 0
    done = json.loads(kept.read_text())
    assert not done["run"]["partial"] and [g["index"] for g in done["games"]] == [0, 1, 2, 3]
    assert done["games"][:2] == data["games"]  # the kept play-outs are not played again
    assert "4 play-outs" in capsys.readouterr().out


def test_compare_variants_keeps_its_games_on_ctrl_c_and_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from cheren.cli.main import main
    from cheren.players import simulate

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(simulate, "game_progress", StopAfter(1))
    argv = ["compare-variants", "--games", "2", "--variant", "die-modifiers", "--allied", "random",
            "--italian", "random"]
    assert main(argv) == 130
    kept = tmp_path / "cheren-compare-variants-resume.json"
    data = json.loads(kept.read_text())
    assert data["run"]["rule_sets"] == ["standard rules", "die-modifiers"] and len(data["games"]) == 1
    capsys.readouterr()
    assert main(["compare-variants", "--resume", str(kept), "--quiet"]) == 0
    done = json.loads(kept.read_text())
    assert not done["run"]["partial"] and len(done["games"]) == 4
    assert sorted((g["index"], tuple(g["variants"])) for g in done["games"]) == [
        (0, ()), (0, ("die-modifiers",)), (1, ()), (1, ("die-modifiers",))]
    assert "| die-modifiers |" in capsys.readouterr().out
