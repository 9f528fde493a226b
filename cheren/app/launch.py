"""``cheren app`` (Voila on the app notebook) and ``cheren lab`` (JupyterLab on the notebooks),
from a clone or from an installed package.

An installed package keeps its notebooks read-only under ``<prefix>/share/cheren``; the commands
copy them into a working folder first (never over a file already there, so a learner's own
notebooks, saves and autosave stay), and serve that folder."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

from cheren.scenario.resources import _SOURCE, notebooks_dir

APP_NOTEBOOK = "app.ipynb"
DEFAULT_FOLDER = "cheren-notebooks"


class LaunchError(RuntimeError):
    """A launcher that cannot start; the message says what is missing."""


def working_folder(folder: str | Path | None) -> Path:
    """Where the notebooks are served from: ``folder`` if given; from a clone, its notebooks;
    from an installed package, ``./cheren-notebooks``."""
    if folder is not None:
        return Path(folder)
    source = notebooks_dir()
    if source.resolve().is_relative_to(_SOURCE) and os.access(source, os.W_OK):
        return source
    return Path.cwd() / DEFAULT_FOLDER


def prepare(folder: Path) -> list[Path]:
    """Copy the bundled notebooks into ``folder`` (only the ones not there yet)."""
    source = notebooks_dir()
    if not source.is_dir():
        raise LaunchError(f"the bundled notebooks are missing (looked in {source})")
    if folder.resolve() == source.resolve():
        return []
    copied = []
    for nb in sorted(source.rglob("*.ipynb")):
        if ".ipynb_checkpoints" in nb.parts:
            continue
        target = folder / nb.relative_to(source)
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(nb, target)
            copied.append(target)
    return copied


def _tool(module: str) -> list[str]:
    """Run a Jupyter tool as a module of this Python: it works in any environment that can
    import it, whether or not its script is on the PATH."""
    if importlib.util.find_spec(module) is None:
        raise LaunchError(f"{module} is not installed; install the app with: pip install 'cheren[ui]'")
    return [sys.executable, "-m", module]


def app_command(folder: Path, port: int, browser: bool) -> list[str]:
    cmd = [*_tool("voila"), APP_NOTEBOOK, f"--port={port}", "--Voila.ip=127.0.0.1"]
    return cmd + ([] if browser else ["--no-browser"])


def lab_command(folder: Path, port: int, browser: bool) -> list[str]:
    cmd = [*_tool("jupyterlab"), "play.ipynb", f"--port={port}", "--ip=127.0.0.1"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")
    return cmd + ([] if browser else ["--no-browser"])


def lessons_env(lessons: list[str | Path] | None, env: dict[str, str] | None = None) -> dict[str, str]:
    """The environment that hands a teacher's lesson folders to the app (``$CHEREN_LESSONS``,
    read by :func:`cheren.study.lessons.course.lesson_folders`), each checked and made absolute."""
    from cheren.study.lessons.course import ENV

    out = dict(os.environ if env is None else env)
    if lessons:
        folders = [Path(f).expanduser().resolve() for f in lessons]
        for f in folders:
            if not f.is_dir():
                raise LaunchError(f"--lessons {f}: no such folder (it should hold lesson files, *.yaml)")
        out[ENV] = os.pathsep.join(str(f) for f in folders)
    return out


def launch(kind: str, folder: str | Path | None, port: int, browser: bool,
           lessons: list[str | Path] | None = None) -> int:
    """Serve the app (Voila) or JupyterLab; ``lessons``: a teacher's lesson folders, which the
    course lists after the bundled lessons."""
    env = lessons_env(lessons)
    where = working_folder(folder)
    where.mkdir(parents=True, exist_ok=True)
    copied = prepare(where)
    if copied:
        print(f"cheren {kind}: copied {len(copied)} notebooks into {where}", file=sys.stderr)
    cmd = (app_command if kind == "app" else lab_command)(where, port, browser)
    if lessons:
        print(f"cheren {kind}: the course adds the lessons in {env['CHEREN_LESSONS']}", file=sys.stderr)
    print(f"cheren {kind}: serving {where} on http://127.0.0.1:{port}/ (Ctrl-C to stop)", file=sys.stderr)
    return subprocess.call(cmd, cwd=where, env=env)
