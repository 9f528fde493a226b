"""Edited resume files, and runs stopped or killed."""


from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from tests.hostile.core import (
    KEPT,
    RECOVERED,
    REFUSED,
    SCENARIO,
    Case,
    later,
    run_cli,
)


def results_file(tmp: Path) -> Path:
    """A partial run of simulate: 3 of 4 games (kept across calls in ``tmp``)."""
    from cheren.players.results_file import Run, write_results
    from cheren.players.simulate import simulate

    path = tmp / "partial.json"
    if not path.exists():
        tmp.mkdir(parents=True, exist_ok=True)
        results = simulate(4, 7, only=[0, 1, 3])
        write_results(results, path, Run(4, 7, "random", "random", partial=True, scenario=SCENARIO.digest))
    return path


def _leaves(data: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _leaves(v, (*prefix, k))
    elif isinstance(data, list) and data and not all(isinstance(x, str) for x in data):
        for i, v in enumerate(data):
            yield from _leaves(v, (*prefix, i))
    else:
        yield prefix, data


def _mutations(value: Any) -> list[Any]:
    if isinstance(value, bool):
        return [not value, 1, "true"]
    if isinstance(value, int):
        return [value + 1, -value - 1, str(value), None, 1.5]
    if isinstance(value, str):
        return [value + "x", "", 7, None]
    if isinstance(value, list):
        return [[*value, "x"], [], "x"]
    return ["x", 0]


def resume_edits(tmp: Path) -> list[tuple[str, str]]:
    """(label, edited text) for every leaf of a partial run's file and a few wholesale edits."""
    base = json.loads(results_file(tmp).read_text(encoding="utf-8"))
    edits = []
    for path, value in _leaves(base):
        if path and path[0] == "digest":
            continue
        for new in _mutations(value):
            if new == value and type(new) is type(value):
                continue  # not an edit
            data = json.loads(json.dumps(base))
            node = data
            for key in path[:-1]:
                node = node[key]
            node[path[-1]] = new
            edits.append((f"{'.'.join(map(str, path))} = {json.dumps(new)[:20]}", json.dumps(data)))
        data = json.loads(json.dumps(base))
        node = data
        for key in path[:-1]:
            node = node[key]
        del node[path[-1]]
        edits.append((f"{'.'.join(map(str, path))} removed", json.dumps(data)))
    whole: dict[str, Callable[[dict[str, Any]], Any]] = {
        "a game listed twice": lambda d: d["games"].append(d["games"][0]),
        "a game removed": lambda d: d["games"].pop(),
        "a game of another run": lambda d: d["games"].__setitem__(
            0, dict(d["games"][0], seed=d["games"][0]["seed"] ^ 1)),
        "an unknown field": lambda d: d.__setitem__("extra", 1),
        "the digest of an empty file": lambda d: d.__setitem__("digest", "sha256:" + "0" * 64),
        "version 1": lambda d: d.__setitem__("version", 1),
    }
    for label, change in whole.items():
        data = json.loads(json.dumps(base))
        change(data)
        edits.append((label, json.dumps(data)))
    return edits


def resume_cases(tmp: Path, size: int) -> list[Case]:
    folder = tmp / "resume"
    edits = resume_edits(folder)
    rng = random.Random(28)
    if size < len(edits):
        edits = rng.sample(edits, size)

    def resume(text: str, n: int) -> str:
        path = folder / f"edited-{n}.json"
        path.write_text(text, encoding="utf-8")
        rc, _out, err = run_cli(["simulate", "--resume", str(path), "--quiet"])
        if "Traceback" in err:
            return "traceback"
        if rc == 0:
            return "accepted"
        same = path.read_text(encoding="utf-8") == text
        return REFUSED if same and err.strip() and len(err.strip().splitlines()) == 1 else "unclear"

    return [Case(label, later(120, resume, text, n))
            for n, (label, text) in enumerate(edits)]


def interrupt(argv: list[str], cwd: Path, sig: int, wait: float | None = None) -> tuple[int, str]:
    """Start ``cheren argv`` in its own process group and send ``sig`` after ``wait`` seconds, or
    (``wait`` None) as soon as its progress bar shows a finished game."""
    import re

    proc = subprocess.Popen([sys.executable, "-m", "cheren.cli.main", *argv], cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    seen: list[str] = []
    assert proc.stderr is not None
    stream = proc.stderr

    def read() -> None:
        while chunk := stream.read(1):
            seen.append(chunk)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    t0 = time.monotonic()
    while time.monotonic() - t0 < (wait if wait is not None else 300) and proc.poll() is None:
        if wait is None and re.search(r"\| *[1-9]\d*/\d+ ", "".join(seen)):
            break
        time.sleep(0.05)
    proc.send_signal(sig)
    proc.wait(timeout=60)
    reader.join(timeout=5)
    return proc.returncode, "".join(seen)


def workers_of(marker: str) -> list[str]:
    found = subprocess.run(["pgrep", "-f", marker], capture_output=True, text=True)
    return [line for line in found.stdout.split() if line.strip()]


def run_cases(tmp: Path, size: int) -> list[Case]:
    """Stop each command that plays games with SIGTERM (as Ctrl-C), then finish it with
    --resume; kill one with SIGKILL and look for orphan workers."""
    def stopped(command: list[str], name: str) -> str:
        folder = tmp / f"run-{name}"
        folder.mkdir(parents=True, exist_ok=True)
        rc, err = interrupt([*command, "--jobs", "2"], folder, signal.SIGTERM)
        kept = sorted(folder.glob(f"cheren-{name}-resume*.json"))
        if rc != 130 or len(kept) != 1 or "--resume" not in err or "Traceback" in err:
            return "lost"
        data = json.loads(kept[0].read_text(encoding="utf-8"))
        before = {(g["index"], tuple(g["variants"])) for g in data["games"]}
        hint = err[err.index("`cheren ") + 1: err.rindex("`")].split()[1:]
        old = os.getcwd()
        os.chdir(folder)
        try:
            rc2, _out, _err2 = run_cli([*hint, "--jobs", "2", "--quiet"])
        finally:
            os.chdir(old)
        after = json.loads(kept[0].read_text(encoding="utf-8"))
        finished = {(g["index"], tuple(g["variants"])) for g in after["games"]}
        if rc2 != 0 or after["run"]["partial"] or not before <= finished:
            return "lost"
        return KEPT

    def killed() -> str:
        folder = tmp / "run-killed"
        folder.mkdir(parents=True, exist_ok=True)
        marker = f"--seed 9{os.getpid()}"
        _rc, _ = interrupt(["simulate", "--games", "300", "--jobs", "2", *marker.split(), "--quiet"], folder,
                          signal.SIGKILL, wait=4)
        for _ in range(20):
            if not workers_of(marker):
                return RECOVERED
            time.sleep(0.25)
        for pid in workers_of(marker):
            with contextlib.suppress(ProcessLookupError, ValueError):
                os.kill(int(pid), signal.SIGKILL)
        return "orphans"

    return [
        Case("simulate stopped, then resumed",
             later(600, stopped, ["simulate", "--games", "10", "--seed", "5"], "simulate")),
        Case("analyse stopped, then resumed",
             later(600, stopped, ["analyse", "agordat", "--games", "8", "--bot", "random"], "analyse")),
        Case("compare-variants stopped, then resumed",
             later(600, stopped, ["compare-variants", "--games", "3", "--allied", "random", "--italian", "random"],
                   "compare-variants")),
        Case("simulate killed (SIGKILL): its workers end", later(60, killed)),
    ]


