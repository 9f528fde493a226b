"""A learner's progress: which exercises are solved, with how many stars, in a small JSON file.

The file is ``$CHEREN_PROGRESS`` if set, else ``~/.cheren/progress.json``.  A file that cannot
be read is never overwritten: the course says so and keeps this session's progress in memory.

    {"format": "cheren-progress", "version": 1,
     "exercises": {"zones-of-control/hard-zoc-stops": {"stars": 3, "solved": "2026-11-24"}}}
"""

from __future__ import annotations

import datetime as dt
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from cheren.files.outputs import write_output
from cheren.scenario.safe_yaml import YamlInputError, read_text

FORMAT = "cheren-progress"
VERSION = 1
MAX_BYTES = 1_000_000


class ProgressError(ValueError):
    """A progress file that cannot be used; the message names the file."""


def default_path() -> Path:
    env = os.environ.get("CHEREN_PROGRESS")
    return Path(env) if env else Path.home() / ".cheren" / "progress.json"


@dataclass
class Progress:
    path: Path | None = None
    stars: dict[str, int] = field(default_factory=dict)
    solved: dict[str, str] = field(default_factory=dict)
    problem: str | None = None  # why the file could not be read or written (then it is not written again)

    @classmethod
    def open(cls, path: str | Path | None = None) -> Progress:
        """The progress in ``path`` (default: :func:`default_path`); an unreadable file is kept
        as it is and reported in ``problem``."""
        p = Path(path) if path is not None else default_path()
        try:
            return load_progress(p)
        except ProgressError as exc:
            return cls(p, problem=str(exc))

    def record(self, key: str, stars: int, today: dt.date | None = None) -> None:
        """A solved exercise: keep the best stars, and save at once."""
        if stars >= self.stars.get(key, -1):
            self.stars[key] = stars
        self.solved.setdefault(key, (today or dt.date.today()).isoformat())
        self.save()

    def is_solved(self, key: str) -> bool:
        return key in self.solved

    def save(self) -> None:
        """Write the file; one that cannot be written (a read-only folder, a full disk) becomes
        ``problem``, a warning: the exercise still counts as solved for this session."""
        if self.path is None or self.problem is not None:
            return
        entries = {k: {"stars": self.stars.get(k, 0), "solved": self.solved[k]} for k in sorted(self.solved)}
        data = {"format": FORMAT, "version": VERSION, "exercises": entries}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            if self.path.exists() and not self.path.is_file():
                raise OSError(f"{self.path}: not a regular file")
            write_output(self.path, json.dumps(data, indent=1) + "\n")
        except OSError as exc:
            reason = exc.strerror or str(exc)
            self.problem = (f"progress file {self.path}: cannot be written ({reason}); "
                            "this session's progress is kept in memory only")


def load_progress(path: str | Path) -> Progress:
    p = Path(path)
    if not p.exists():
        return Progress(p)
    try:
        data = json.loads(read_text(p, str(p), limit=MAX_BYTES))
    except YamlInputError as exc:
        raise ProgressError(f"progress file {exc}") from None
    except (ValueError, RecursionError) as exc:
        raise ProgressError(f"progress file {p}: not valid JSON ({str(exc)[:120]})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ProgressError(f"progress file {p}: not a cheren progress file (no \"format\": \"{FORMAT}\")")
    if data.get("version") != VERSION:
        raise ProgressError(f"progress file {p}: version {data.get('version')!r} is not {VERSION}")
    entries = data.get("exercises")
    if not isinstance(entries, dict):
        raise ProgressError(f"progress file {p}: \"exercises\" must be a mapping")
    progress = Progress(p)
    for key, entry in entries.items():
        if not (isinstance(entry, dict) and type(entry.get("stars")) is int and 0 <= entry["stars"] <= 3
                and isinstance(entry.get("solved"), str)):
            raise ProgressError(f"progress file {p}: exercises[{str(key)[:60]!r}] needs stars 0-3 and a solved date")
        progress.stars[str(key)] = entry["stars"]
        progress.solved[str(key)] = entry["solved"]
    return progress
