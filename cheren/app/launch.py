"""``cheren app`` (Voila on the app notebook) and ``cheren lab`` (JupyterLab on the notebooks),
from a clone or from an installed package.

``cheren app`` keeps a kernel ready for the next page (Voila's preheated kernels, a pool of
:data:`POOL_SIZE`): it is started with the server and runs the app notebook until its page comes
(:class:`cheren.app.app_page.AppPage`), so the engine, the scenario and the app's widgets are
there before the page is asked for; what depends on the page's moment (the autosaved game) comes
after.  A kernel whose page has gone is shut down after :data:`CULL_AFTER` idle seconds.

The notebooks that come with cheren are never served themselves (JupyterLab saves what it
serves: in a clone, git would see every autosave): the commands copy them into a working folder
first (``cheren-notebooks/``: in a clone, beside the tracked ones and ignored by git; else in the
current folder) and serve that.  A copy the user has not changed is brought up to date when its
notebook changes; a changed one is kept, and the command says a newer one is there.  The address
printed is the one the server says it is listening on (it takes another port when the one asked
for is in use); ``cheren app`` says it, and opens the browser there, once Voila also has the kept
kernel (:class:`Announcement`)."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import webbrowser
from dataclasses import dataclass, field
from pathlib import Path

from cheren.scenario.resources import _SOURCE, notebooks_dir

APP_NOTEBOOK = "app.ipynb"
DEFAULT_FOLDER = "cheren-notebooks"
POOL_SIZE = 1  # kernels kept ready: each holds the whole app (about 150 MB); a page takes one
# seconds after a page took the kept kernel before the next one is started (Voila's default is 1):
# starting one costs a few processor seconds, which the page being drawn needs first
REFILL_DELAY = 6.0
READY = "cheren app: ready for the next page"  # a kept kernel says so on the server's console
# A page that is left (reloaded, closed) asks Voila to shut its kernel down, and Voila 0.5 refuses
# that request for want of an XSRF token (voila-dashboards/voila#1458): every reload left a kernel
# of about 150 MB running until the server stopped.  So a kernel no page is connected to is shut
# down after this many idle seconds, looked for every CULL_EVERY; a connected page's kernel and the
# kept one are never culled (Voila keeps its pool out of it), and the autosave, written after every
# change, means a page that reconnects later loses nothing on a reload.
CULL_AFTER = 120
CULL_EVERY = 30


class LaunchError(RuntimeError):
    """A launcher that cannot start; the message says what is missing."""


def working_folder(folder: str | Path | None) -> Path:
    """Where the notebooks are served from: ``folder`` if given; from a clone, ``cheren-notebooks/``
    in it (ignored by git); from an installed package, ``./cheren-notebooks``."""
    if folder is not None:
        return Path(folder)
    if notebooks_dir().resolve().is_relative_to(_SOURCE):
        return _SOURCE / DEFAULT_FOLDER
    return Path.cwd() / DEFAULT_FOLDER


MANIFEST = ".cheren-copies"  # what each copy was when it was made (not a *.json: the app lists those)


@dataclass
class Copies:
    """What :func:`prepare` did: copied afresh, brought up to date, or kept as the user changed it."""

    copied: list[Path] = field(default_factory=list)
    updated: list[Path] = field(default_factory=list)
    kept: list[Path] = field(default_factory=list)  # changed by the user, while a newer one came


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def prepare(folder: Path) -> Copies:
    """Copy the bundled notebooks into ``folder``: those not there yet, and new versions of those
    the user has not changed since they were copied (never over a changed one)."""
    source = notebooks_dir()
    if not source.is_dir():
        raise LaunchError(f"the bundled notebooks are missing (looked in {source})")
    done = Copies()
    if folder.resolve() == source.resolve():
        return done
    manifest = folder / MANIFEST
    try:
        known: dict[str, str] = json.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        known = {}
    for nb in sorted(source.rglob("*.ipynb")):
        if ".ipynb_checkpoints" in nb.parts:
            continue
        rel = nb.relative_to(source).as_posix()
        target = folder / rel
        fresh = _digest(nb)
        if not target.exists():
            done.copied.append(target)
        else:
            mine = _digest(target)
            if mine == fresh:  # already the current version
                known[rel] = fresh
                continue
            if mine != known.get(rel):  # the user's own now: never overwritten
                done.kept.append(target)
                continue
            done.updated.append(target)  # an untouched copy of an older version
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(nb, target)
        known[rel] = fresh
    folder.mkdir(parents=True, exist_ok=True)
    manifest.write_text(json.dumps(known, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return done


def _tool(module: str) -> list[str]:
    """Run a Jupyter tool as a module of this Python: it works in any environment that can
    import it, whether or not its script is on the PATH."""
    if importlib.util.find_spec(module) is None:
        raise LaunchError(f"{module} is not installed; install the app with: pip install 'cheren[ui]'")
    return [sys.executable, "-m", module]


# Voila started without rfc3987_syntax: the server's jsonschema loads it for the "iri" formats (no
# Jupyter event schema uses them) and it compiles a grammar as it loads, about 1 s of a processor
# before the server listens.  Without it jsonschema leaves those two formats unchecked.
SERVE_APP = ("import sys; sys.modules['rfc3987_syntax'] = None; sys.argv[0] = 'voila'; "
             "from voila.app import main; main()")


def app_command(folder: Path, port: int, browser: bool) -> list[str]:
    """Voila on the app notebook; it never opens the browser itself: :func:`launch` does, once
    the kept kernel is there (:class:`Announcement`)."""
    _tool("voila")
    return [sys.executable, "-c", SERVE_APP, APP_NOTEBOOK, f"--port={port}", "--Voila.ip=127.0.0.1",
            "--preheat_kernel=True", f"--pool_size={POOL_SIZE}", f"--VoilaKernelManager.fill_delay={REFILL_DELAY}",
            f"--MappingKernelManager.cull_idle_timeout={CULL_AFTER}",
            f"--MappingKernelManager.cull_interval={CULL_EVERY}",
            # the page's scripts: the widget libraries the app uses, not JupyterLab's code highlighting
            "--VoilaConfiguration.extension_denylist=jupyterlab_pygments", "--no-browser"]


def lab_command(folder: Path, port: int, browser: bool) -> list[str]:
    cmd = [*_tool("jupyterlab"), "play.ipynb", f"--port={port}", "--ip=127.0.0.1"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")
    return cmd + ([] if browser else ["--no-browser"])


def served_url(line: str, seen: list[str]) -> str | None:
    """The address a Jupyter server or Voila says it serves, from its log: a URL after its "is
    running at" (``seen`` carries that line's having been read from one call to the next)."""
    if "is running at" in line:
        seen.append(line)
    if not seen:
        return None
    found = re.search(r"https?://(?:127\.0\.0\.1|localhost|\[::1\]|[\w.-]+):\d+/\S*", line)
    # the commands bind 127.0.0.1; "localhost" may mean ::1 first, where nothing listens
    return found.group(0).replace("//localhost:", "//127.0.0.1:") if found else None


KEPT_KERNEL = re.compile(r"Kernel pool of \S+ is filled")  # Voila (0.5) has its kept kernel
KEPT_KERNEL_WAIT = 8.0  # seconds after the server listens: the address is said then whatever the log says


class Announcement:
    """When to say where the server is (and open the browser there): JupyterLab as soon as it
    listens; the app once Voila has also taken in its kept kernel.  A page asked for in between
    (about 0.4 s) is not given the kept kernel: Voila starts another one for it, and the two build
    the app at the same time on a machine of a few processors (the map about 1 s later on 2)."""

    def __init__(self, wait_for_kept_kernel: bool) -> None:
        self.waiting = wait_for_kept_kernel
        self.url: str | None = None
        self.said = False
        self._seen: list[str] = []

    def feed(self, line: str) -> str | None:
        """The address, the first time it is due to be said, given the server's next log line."""
        if self.url is None:
            self.url = served_url(line, self._seen)
        if self.waiting and KEPT_KERNEL.search(line):
            self.waiting = False
        return self.due()

    def due(self, waited_enough: bool = False) -> str | None:
        """The address if it is due now (``waited_enough``: however the kept kernel does) and
        not said yet; it is due once."""
        if self.said or self.url is None or (self.waiting and not waited_enough):
            return None
        self.said = True
        return self.url


def lessons_env(lessons: list[str | Path] | None, env: dict[str, str] | None = None) -> dict[str, str]:
    """The environment that hands a teacher's lesson folders to the app (``$CHEREN_LESSONS``,
    read by :func:`cheren.study.lessons.course.lesson_folders`), each checked and made absolute."""
    out = dict(os.environ if env is None else env)
    if lessons:  # (the course's module is loaded only then: the server starts sooner without it)
        from cheren.study.lessons.course import ENV

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
    done = prepare(where)
    if done.copied or done.updated:
        print(f"cheren {kind}: {len(done.copied)} notebooks copied into {where}, {len(done.updated)} brought up "
              "to date", file=sys.stderr)
    for nb in done.kept:
        print(f"cheren {kind}: {nb} is yours (you changed it), so it is kept; delete it to get the new version",
              file=sys.stderr)
    cmd = (app_command if kind == "app" else lab_command)(where, port, browser)
    if lessons:
        print(f"cheren {kind}: the course adds the lessons in {env['CHEREN_LESSONS']}", file=sys.stderr)
    print(f"cheren {kind}: starting on {where} (Ctrl-C to stop)", file=sys.stderr)
    proc = subprocess.Popen(cmd, cwd=where, env=env, stderr=subprocess.PIPE, text=True, bufsize=1)
    # stopped from outside (a service manager, a test): stop the server too, never leave it running
    signal.signal(signal.SIGTERM, lambda *_: proc.terminate())
    news = Announcement(wait_for_kept_kernel=kind == "app")
    lock = threading.Lock()  # the log's reader and the timer below both may say it
    timer: threading.Timer | None = None

    def say(url: str | None) -> None:
        if url is None:
            return
        moved = f" (port {port} was in use)" if f":{port}/" not in url else ""
        print(f"cheren {kind}: serving {where} at {url}{moved}", file=sys.stderr, flush=True)
        if browser and kind == "app":  # (JupyterLab opens its own)
            webbrowser.open(url)

    def late() -> None:  # no kept kernel in time (a page then gets a kernel of its own)
        with lock:
            say(news.due(waited_enough=True))

    try:
        assert proc.stderr is not None
        for line in proc.stderr:
            sys.stderr.write(line)
            with lock:
                say(news.feed(line))
                if timer is None and news.url is not None and not news.said:
                    timer = threading.Timer(KEPT_KERNEL_WAIT, late)
                    timer.daemon = True
                    timer.start()
        return proc.wait()
    except KeyboardInterrupt:  # the server had the Ctrl-C too: let it stop
        return proc.wait()
    finally:
        if timer is not None:
            timer.cancel()
