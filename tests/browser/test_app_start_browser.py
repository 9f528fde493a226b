"""`cheren app` on screen at once (issue 29): the real command, timed from the moment it is typed
until the map is painted, then a page reload until the map is painted again.

The command keeps a kernel ready (Voila's preheated kernels, cheren.app.launch): the engine, the
scenario and the app are built before the page asks, and the autosaved game is read when it
does.  So the test also changes the game *after* the kept kernel was started and checks that the
reload shows the game as it is, not as it was when that kernel started.  The first page, asked
for as soon as the server answers, finds its kernel still starting: that kernel serves the page
at once and builds the app into it after (cheren.app.app_page), so both paths are timed.

Targets: the map within 4 s of the command on a warm machine and within 1.5 s of a reload; the
test fails above twice these (8 s, 3 s), since CI runs it on 2 shared cores with the whole suite.
Both times are printed in the "browser timings" section at the end of the run.  The reload is
timed once the server says a kernel is ready again (a user who reloads at once, while the kept
kernel is still being started, waits for it: that is a kernel start, not a page load).

A wall clock measures the machine as much as the app: on a machine already running more than
:data:`BUSY` processes per core (the load average, before and after), the figures are printed and
the test is skipped, saying so, rather than failed; everywhere else they are judged."""

from __future__ import annotations

import contextlib
import os
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from cheren.app.launch import READY
from tests.browser.conftest import BIN, TIMEOUT_MS, TIMINGS, _free_port, _isolated_env

COMMAND_TO_MAP_S = 8.0  # twice the 4 s target
RELOAD_TO_MAP_S = 3.0  # twice the 1.5 s target
BUSY = 2.0  # runnable processes per core (1-minute load average) above which times are not judged
CANVAS = ".cheren-app canvas.cheren-map"
# the map canvas is on screen (not behind the hot-seat curtain) and has paint in its middle
PAINTED = """(sel) => { const c = document.querySelector(sel); if (!c || !c.width || !c.offsetParent) return false;
  return c.getContext('2d').getImageData(c.width / 2, c.height / 2, 1, 1).data[3] > 0; }"""


class Server:
    def __init__(self, proc: subprocess.Popen[bytes], log: Path, url: str, started: float) -> None:
        self.proc, self.log, self.url, self.started = proc, log, url, started

    def ready_kernels(self) -> int:
        """How many kept kernels have said they are ready (each says it once)."""
        return self.log.read_text(errors="replace").count(READY)

    def wait_ready(self, count: int, timeout: float = 120.0) -> None:
        deadline = time.monotonic() + timeout
        while self.ready_kernels() < count:
            if self.proc.poll() is not None:
                raise RuntimeError(f"cheren app exited with {self.proc.returncode}; see {self.log}")
            if time.monotonic() > deadline:
                raise TimeoutError(f"no kept kernel said {READY!r} in {timeout:.0f} s; see {self.log}")
            time.sleep(0.05)


@pytest.fixture
def cheren_app(tmp_path: Path) -> Iterator[Server]:
    """`cheren app` as a user types it, serving a fresh folder (no autosave yet)."""
    port = _free_port()
    log = tmp_path / "cheren-app.log"
    cmd = [str(BIN / "cheren"), "app", "--no-browser", f"--port={port}", f"--dir={tmp_path / 'notebooks'}"]
    env = _isolated_env(tmp_path)
    # the autosave a user's app keeps (in the served folder), not the one the test run shares
    # (tests/conftest.py): another test's game there would be taken up instead of a new one
    env.pop("CHEREN_AUTOSAVE", None)
    with log.open("wb") as out:
        started = time.monotonic()
        proc = subprocess.Popen(cmd, cwd=tmp_path, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        yield Server(proc, log, f"http://127.0.0.1:{port}/", started)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


def wait_until_served(server: Server) -> None:
    deadline = time.monotonic() + 120
    while True:
        if server.proc.poll() is not None:
            raise RuntimeError(f"cheren app exited with {server.proc.returncode}; see {server.log}")
        try:
            urllib.request.urlopen(server.url + "voila/static/voila.js", timeout=2)
            return
        except Exception:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def wait_for_map(page: Any) -> None:
    """Until the map is painted; the hot-seat curtain (shown after a reload) is answered as soon
    as it shows, so that click is part of the time."""
    deadline = time.monotonic() + 120
    while not page.evaluate(PAINTED, CANVAS):
        reveal = page.locator(".cheren-reveal:visible")
        if reveal.count():
            # it may go away (answered) or not be clickable yet: then look again
            with contextlib.suppress(Exception):
                reveal.first.click(timeout=500)
        if time.monotonic() > deadline:
            raise TimeoutError("the map was not painted in 120 s")
        page.wait_for_timeout(20)


def busy() -> float:
    """Runnable processes per core, over the last minute."""
    return os.getloadavg()[0] / (os.cpu_count() or 1)


def test_cheren_app_shows_the_map_at_once_and_again_after_a_reload(page: Any, cheren_app: Server) -> None:
    load_before = busy()
    page.set_default_navigation_timeout(120_000)
    wait_until_served(cheren_app)
    page.goto(cheren_app.url)
    wait_for_map(page)
    command_to_map = time.monotonic() - cheren_app.started

    # the page took the kernel started with the server; the next one is being started now
    cheren_app.wait_ready(2)
    # changed after the kept kernel was started: the reload must show it as it is now
    bar = page.locator(".cheren-bar").first
    page.locator(".cheren-end-phase").first.click()
    expect(bar).to_have_attribute("data-phase", "movement", timeout=TIMEOUT_MS)
    page.wait_for_timeout(300)  # the autosave is written as the phase changes; let it land

    t0 = time.monotonic()
    page.reload()
    wait_for_map(page)
    reload_to_map = time.monotonic() - t0
    expect(page.locator(".cheren-bar").first).to_have_attribute("data-phase", "movement", timeout=TIMEOUT_MS)

    load = max(load_before, busy())
    TIMINGS.append(f"cheren app: the map painted {command_to_map:.1f} s after the command "
                   f"(target 4 s, fails above {COMMAND_TO_MAP_S:.0f} s; load {load:.1f} per core)")
    TIMINGS.append(f"cheren app: the map painted {reload_to_map:.1f} s after a page reload "
                   f"(target 1.5 s, fails above {RELOAD_TO_MAP_S:.0f} s)")
    if load > BUSY:
        pytest.skip(f"the machine is busy ({load:.1f} runnable processes per core): the map took "
                    f"{command_to_map:.1f} s after the command and {reload_to_map:.1f} s after a reload, not judged")
    assert command_to_map <= COMMAND_TO_MAP_S, f"the map took {command_to_map:.1f} s after `cheren app`"
    assert reload_to_map <= RELOAD_TO_MAP_S, f"the map took {reload_to_map:.1f} s after a reload"
