"""Browser tests of the notebook app: Voila and JupyterLab in Debian's chromium, driven by
Playwright (tier 5 of the test plan; see /work/shared/reference/jupyter_browser_testing.md).

* chromium is Debian's ``/usr/bin/chromium`` (``./dev test`` apt-installs it); Playwright never
  downloads a browser.  Without it these tests are skipped, with the reason.
* every request that does not go to 127.0.0.1 is blocked (Voila asks a CDN for fonts);
* the servers serve a temporary copy of ``notebooks/`` plus a generated combat notebook, since
  JupyterLab writes to what it serves;
* on failure a full-page screenshot goes to ``tests/browser/artifacts/`` (git-ignored) and its
  path is printed; ``CHEREN_SHOTS=1`` keeps the screenshots of passing tests too.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.servers import running
from tests.teacher_lesson import TEACHER_LESSON

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--disable-dev-shm-usage",
    # no request leaves this machine, also where a test does not route requests (routing turns
    # chromium's HTTP cache off: tests/browser/test_app_start_browser.py reloads as a user does)
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
]
BIN = Path(sys.executable).parent  # the venv's bin/: voila, jupyter
TOKEN = "cheren-browser-tests"
TIMEOUT_MS = 20_000  # one wait in the page; a whole test stays well under a minute
SERVER_START_S = 60

# The combat notebook: the bundled position with 5 Ind moved next to the Sabderat colonial
# battalion (0408, rough terrain) in the allied Combat phase of turn 1.
WHATIF_NOTEBOOK = [
    """from cheren import load_scenario
from cheren.engine.game import Game
from cheren.engine.opening import initial_position
from cheren.app import App

scenario = load_scenario()
position = initial_position(scenario, seed=1941)
position.place("ind_5", "0308")
position.set_turn(1, "allied", "combat")
game = Game(scenario, seed=1941, position=position)
print(game.status())""",
    """# NBVAL_IGNORE_OUTPUT
app = App(game, save_path="whatif-game.json")
app""",
]

TIMINGS: list[str] = []  # measured in the browser, printed at the end of the run


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if TIMINGS:
        terminalreporter.section("browser timings")
        for line in TIMINGS:
            terminalreporter.write_line(line)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).resolve().parent
    for item in items:
        if here in Path(str(item.fspath)).resolve().parents:
            item.add_marker(pytest.mark.browser)


# -- the browser -------------------------------------------------------------------------------
@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    # Debian's chromium, never a browser Playwright would download (`playwright install`)
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium (./dev test does)")
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS, "headless": True}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_context_args, "viewport": {"width": 1500, "height": 1000}}


@pytest.fixture
def page(page: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    page.set_default_timeout(TIMEOUT_MS)
    page.set_default_navigation_timeout(TIMEOUT_MS)
    page.route(
        "**/*",
        lambda route: route.continue_() if route.request.url.startswith("http://127.0.0.1") else route.abort(),
    )
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    request.node.page_errors = errors
    yield page
    failed = getattr(request.node, "rep_call", None)
    if errors and failed is not None and failed.passed:
        # every browser test: a page that threw a JavaScript error did not work, whatever it showed
        pytest.fail("errors in the page:\n  " + "\n  ".join(errors))
    keep = os.environ.get("CHEREN_SHOTS") == "1"
    if (failed is not None and failed.failed) or keep:
        ARTIFACTS.mkdir(exist_ok=True)
        shot = ARTIFACTS / f"{request.node.name}{'' if failed is not None and failed.failed else '-ok'}.png"
        try:
            page.screenshot(path=str(shot), full_page=True, timeout=10_000)
            print(f"\nscreenshot: {shot}")
            if errors:
                print("page errors:", *errors, sep="\n  ")
        except Exception as exc:  # the page may be gone; the failure itself matters more
            print(f"\nno screenshot ({exc})")


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report


# -- the servers -------------------------------------------------------------------------------
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _wait_http(url: str, proc: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + SERVER_START_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}; see {log}")
        try:
            urllib.request.urlopen(url, timeout=2)
            return
        except Exception:
            time.sleep(0.2)
    raise TimeoutError(f"{url} did not answer in {SERVER_START_S} s; see {log}")


def _isolated_env(tmp: Path) -> dict[str, str]:
    env = dict(os.environ)
    for key in ("JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR", "IPYTHONDIR"):
        env[key] = str(tmp / key.lower())
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    env.pop("JUPYTER_PATH", None)
    env["CHEREN_PROGRESS"] = str(tmp / "progress.json")  # a learner's progress, never the real one
    env["CHEREN_LESSONS"] = str(tmp / "teacher-lessons")  # as `cheren app --lessons DIR` sets it
    return env


@pytest.fixture(scope="session")
def served() -> Iterator[Path]:
    """A temporary copy of the notebooks (servers write to what they serve)."""
    import nbformat

    tmp = Path(tempfile.mkdtemp(prefix="cheren-browser-"))
    shutil.copytree(NOTEBOOKS, tmp / "notebooks", ignore=shutil.ignore_patterns("*.json", ".ipynb_checkpoints"))
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(src) for src in WHATIF_NOTEBOOK])  # type: ignore[no-untyped-call]
    nb.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python", "name": "python3"}
    nbformat.write(nb, tmp / "notebooks" / "whatif.ipynb")  # type: ignore[no-untyped-call]
    (tmp / "teacher-lessons").mkdir()
    (tmp / "teacher-lessons" / "roads.yaml").write_text(TEACHER_LESSON)
    yield tmp
    shutil.rmtree(tmp, ignore_errors=True)


def _start(cmd: list[str], cwd: Path, name: str, ready: str) -> Iterator[subprocess.Popen[bytes]]:
    log = cwd / f"{name}.log"
    with running(cmd, cwd, _isolated_env(cwd), log) as proc:
        _wait_http(ready, proc, log)
        yield proc


@pytest.fixture(scope="session")
def voila_url(served: Path) -> Iterator[str]:
    port = _free_port()
    cmd = [
        str(BIN / "voila"),
        "notebooks",
        "--no-browser",
        f"--port={port}",
        "--Voila.ip=127.0.0.1",
        "--show_tracebacks=True",
    ]
    for _ in _start(cmd, served, "voila", f"http://127.0.0.1:{port}/voila/static/voila.js"):
        yield f"http://127.0.0.1:{port}"


@pytest.fixture(scope="session")
def lab_url(served: Path) -> Iterator[str]:
    port = _free_port()
    cmd = [
        str(BIN / "jupyter"),
        "lab",
        "--no-browser",
        f"--port={port}",
        "--ip=127.0.0.1",
        f"--IdentityProvider.token={TOKEN}",
        f"--ServerApp.root_dir={served / 'notebooks'}",
        "--LabApp.expose_app_in_browser=True",  # window.jupyterapp: run commands, no menu races
    ]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")
    for _ in _start(cmd, served, "lab", f"http://127.0.0.1:{port}/api/status?token={TOKEN}"):
        yield f"http://127.0.0.1:{port}"
