"""``cheren app`` (Voila on the app notebook) and ``cheren lab`` (JupyterLab on the notebooks),
from a clone or from an installed package.

``cheren app`` keeps a kernel ready for the next page (Voila's preheated kernels, a pool of
:data:`POOL_SIZE`): it is started with the server and runs the app notebook up to
:func:`wait_for_page`, so the engine, the scenario and the app's widgets are there before the
page is asked for; what depends on the page's moment (the autosaved game) comes after.

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
POOL_SIZE = 1  # kernels kept ready: each holds the whole app (about 150 MB); a page takes one
READY = "cheren app: ready for the next page"  # a kept kernel says so on the server's console


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
    cmd = [*_tool("voila"), APP_NOTEBOOK, f"--port={port}", "--Voila.ip=127.0.0.1",
           "--preheat_kernel=True", f"--pool_size={POOL_SIZE}"]
    return cmd + ([] if browser else ["--no-browser"])


def wait_for_page() -> None:
    """In a kernel Voila started ahead (``cheren app``), wait here until a page takes it;
    anywhere else (JupyterLab, nbval, a Voila page without a pool) return at once.  The app
    notebook builds the app before this and reads the autosaved game after it: a kernel
    kept ready for minutes must take up the game as it is when the page comes, not as it was."""
    if os.environ.get("VOILA_PREHEAT") != "True":
        return
    from voila.utils import wait_for_request  # type: ignore[import-untyped]

    # the kernel's own stderr (sys.stderr goes to the page) is the console `cheren app` runs in
    print(READY, file=sys.__stderr__, flush=True)
    wait_for_request()


def lab_command(folder: Path, port: int, browser: bool) -> list[str]:
    cmd = [*_tool("jupyterlab"), "play.ipynb", f"--port={port}", "--ip=127.0.0.1"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")
    return cmd + ([] if browser else ["--no-browser"])


def launch(kind: str, folder: str | Path | None, port: int, browser: bool) -> int:
    where = working_folder(folder)
    where.mkdir(parents=True, exist_ok=True)
    copied = prepare(where)
    if copied:
        print(f"cheren {kind}: copied {len(copied)} notebooks into {where}", file=sys.stderr)
    cmd = (app_command if kind == "app" else lab_command)(where, port, browser)
    print(f"cheren {kind}: serving {where} on http://127.0.0.1:{port}/ (Ctrl-C to stop)", file=sys.stderr)
    return subprocess.call(cmd, cwd=where)
